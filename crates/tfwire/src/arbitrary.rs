//! Arbitrary types, and arbitrary values of a type, for property tests and fuzzing (feature
//! `arbitrary`).
//!
//! The values are ones the decoders could have produced, so that encoding then decoding
//! gives them back: strings and map keys in NFC, map keys sorted and unique, sets without
//! elements go-cty would merge, [`Value::Dynamic`] exactly at `dynamic` positions and
//! carrying the value's own type, the elements of a collection of `dynamic` all of one type,
//! and only refinements that survive decoding (go-cty's decoder turns some into known values).
//!
//! ```
//! use arbitrary::Unstructured;
//! use tfwire::{Program, arbitrary::Options};
//!
//! let data: Vec<u8> = (0..512u32).map(|i| (i * 7919 % 251) as u8).collect();
//! let mut u = Unstructured::new(&data);
//! let options = Options::default();
//! let ty = tfwire::arbitrary::ty(&mut u, &options)?;
//! let arena = bumpalo::Bump::new();
//! let value = tfwire::arbitrary::value(&mut u, &ty, &arena, &options)?;
//!
//! let program = Program::compile(&ty);
//! let bytes = tfwire::encode_msgpack(&program, &value).unwrap();
//! let back = tfwire::decode_msgpack(&program, &bytes, &arena).unwrap();
//! assert_eq!(tfwire::canonical::to_string(&back), tfwire::canonical::to_string(&value));
//! # Ok::<(), arbitrary::Error>(())
//! ```

use crate::decode::collection::cty_cmp;
use crate::number::Number;
use crate::ty::{Ty, Type};
use crate::value::{Dynamic, Refinements, Value};
use ::arbitrary::{Arbitrary, Result, Unstructured};
use bumpalo::Bump;
use std::collections::HashMap;

/// Size limits and what the values may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Deepest nesting of a type (and so of a value). Default 4.
    pub max_depth: usize,
    /// Most elements of a collection or tuple, attributes of an object. Default 4.
    pub max_len: usize,
    /// Whether values may hold unknown values (JSON cannot). Default `true`.
    pub unknowns: bool,
    /// Whether numbers may be infinite (JSON cannot). Default `true`.
    pub infinities: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: 4,
            max_len: 4,
            unknowns: true,
            infinities: true,
        }
    }
}

impl Options {
    /// Values that JSON can hold: no unknowns, no infinities.
    pub fn json() -> Options {
        Options {
            unknowns: false,
            infinities: false,
            ..Options::default()
        }
    }
}

impl<'a> Arbitrary<'a> for Type {
    /// A type within the default [`Options`].
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Type> {
        ty(u, &Options::default())
    }
}

/// An arbitrary type constraint, at most `options.max_depth` deep, optional attributes
/// included.
pub fn ty(u: &mut Unstructured<'_>, options: &Options) -> Result<Type> {
    gen_type(u, options, options.max_depth, true)
}

fn gen_type(u: &mut Unstructured<'_>, o: &Options, depth: usize, optional: bool) -> Result<Type> {
    let leaf = depth <= 1 || u.ratio(2u8, 5u8)?;
    if leaf {
        return Ok(match u.int_in_range(0u8..=4)? {
            0 => Type::Bool,
            1 | 2 => Type::Number,
            3 => Type::String,
            _ => Type::Dynamic,
        });
    }
    let d = depth - 1;
    Ok(match u.int_in_range(0u8..=4)? {
        0 => Type::list(gen_type(u, o, d, optional)?),
        1 => Type::set(gen_type(u, o, d, optional)?),
        2 => Type::map(gen_type(u, o, d, optional)?),
        3 => {
            let n = u.int_in_range(0..=o.max_len)?;
            let mut attrs = Vec::with_capacity(n);
            for _ in 0..n {
                let name = nfc_string(u, 8)?;
                let opt = optional && u.ratio(1u8, 4u8)?;
                attrs.push((name, gen_type(u, o, d, optional)?, opt));
            }
            Type::object(attrs)
        }
        _ => {
            let n = u.int_in_range(0..=o.max_len)?;
            let mut es = Vec::with_capacity(n);
            for _ in 0..n {
                es.push(gen_type(u, o, d, optional)?);
            }
            Type::tuple(es)
        }
    })
}

/// An arbitrary value of type `ty`, in `arena`.
pub fn value<'b>(
    u: &mut Unstructured<'_>,
    ty: &Type,
    arena: &'b Bump,
    options: &Options,
) -> Result<Value<'b>> {
    let mut g = Gen {
        u,
        arena,
        o: *options,
        plan: HashMap::new(),
    };
    g.value(ty, Ctx::Free)
}

/// What the `dynamic` positions of the type being generated may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Anything, chosen per value.
    Free,
    /// Inside a collection whose element type contains `dynamic`: each dynamic position holds
    /// values of the one type the plan gives it (or only nulls and unknowns of unknown type),
    /// so that all elements have one type.
    Planned,
    /// Inside a dynamic value's own type: only nulls and unknowns of unknown type, so that
    /// the type stays the value's type.
    Holes,
}

struct Gen<'u, 'd, 'b> {
    u: &'u mut Unstructured<'d>,
    arena: &'b Bump,
    o: Options,
    /// For the dynamic positions of a planned collection (keyed by the address of the
    /// `Type::Dynamic` node): the type their values have, or `None` for nulls and unknowns
    /// of unknown type only.
    plan: HashMap<*const Type, Option<Type>>,
}

impl<'b> Gen<'_, '_, 'b> {
    fn value(&mut self, ty: &Type, ctx: Ctx) -> Result<Value<'b>> {
        // Nulls and unknowns anywhere, now and then.
        let roll = self.u.int_in_range(0u8..=15)?;
        if !matches!(ty, Type::Dynamic) {
            if roll == 0 {
                return Ok(Value::Null);
            }
            if roll == 1 && self.o.unknowns {
                return self.unknown(ty);
            }
        }
        Ok(match ty {
            Type::Bool => Value::Bool(self.u.arbitrary()?),
            Type::Number => Value::Number(self.number()?),
            Type::String => Value::String(self.string(24)?),
            Type::Dynamic => return self.dynamic(ty, ctx, roll),
            Type::List(e) | Type::Set(e) => {
                let planned = self.enter(e, ctx)?;
                let n = self.u.int_in_range(0..=self.o.max_len)?;
                let mut xs: Vec<Value<'b>> = Vec::with_capacity(n);
                for _ in 0..n {
                    let x = self.value(e, planned)?;
                    let duplicate = matches!(ty, Type::Set(_))
                        && xs.iter().any(|y| {
                            x.is_wholly_known() && y.is_wholly_known() && cty_cmp(&x, y).is_eq()
                        });
                    if !duplicate {
                        xs.push(x);
                    }
                }
                let xs = self.arena.alloc_slice_copy(&xs);
                match ty {
                    Type::List(_) => Value::List(xs),
                    _ => Value::Set(xs),
                }
            }
            Type::Map(e) => {
                let planned = self.enter(e, ctx)?;
                let n = self.u.int_in_range(0..=self.o.max_len)?;
                let mut es: Vec<(&'b str, Value<'b>)> = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.string(8)?;
                    let x = self.value(e, planned)?;
                    es.push((k, x));
                }
                es.sort_by(|a, b| a.0.cmp(b.0));
                es.dedup_by(|a, b| a.0 == b.0);
                Value::Map(self.arena.alloc_slice_copy(&es))
            }
            Type::Object(o) => {
                let mut es = Vec::with_capacity(o.len());
                for a in o.attributes() {
                    let x = self.value(&a.ty, ctx)?;
                    es.push((&*self.arena.alloc_str(&a.name), x));
                }
                Value::Object(self.arena.alloc_slice_copy(&es))
            }
            Type::Tuple(ts) => {
                let mut xs = Vec::with_capacity(ts.len());
                for t in ts {
                    xs.push(self.value(t, ctx)?);
                }
                Value::Tuple(self.arena.alloc_slice_copy(&xs))
            }
        })
    }

    /// Entering the elements of a collection of type `elem`: plans its dynamic positions
    /// when it has some and no enclosing collection has planned them.
    fn enter(&mut self, elem: &Type, ctx: Ctx) -> Result<Ctx> {
        if ctx != Ctx::Free || !elem.has_dynamic() {
            return Ok(ctx);
        }
        self.plan_dynamic(elem)?;
        Ok(Ctx::Planned)
    }

    fn plan_dynamic(&mut self, t: &Type) -> Result<()> {
        match t {
            Type::Dynamic => {
                let choice = if self.u.ratio(1u8, 4u8)? {
                    None
                } else {
                    Some(self.concrete_type()?)
                };
                self.plan.insert(t as *const Type, choice);
            }
            Type::List(e) | Type::Set(e) | Type::Map(e) => self.plan_dynamic(e)?,
            Type::Object(o) => {
                for a in o.attributes() {
                    self.plan_dynamic(&a.ty)?;
                }
            }
            Type::Tuple(ts) => {
                for e in ts {
                    self.plan_dynamic(e)?;
                }
            }
            Type::Bool | Type::Number | Type::String => {}
        }
        Ok(())
    }

    /// A type without `dynamic` and without optional attributes (the type of a value).
    fn concrete_type(&mut self) -> Result<Type> {
        let depth = self.o.max_depth.saturating_sub(1).max(1);
        let t = gen_type(self.u, &self.o, depth, false)?;
        Ok(fill_dynamic(t))
    }

    fn dynamic(&mut self, node: &Type, ctx: Ctx, roll: u8) -> Result<Value<'b>> {
        let hole = |g: &mut Self| -> Result<Value<'b>> {
            Ok(if g.o.unknowns && g.u.arbitrary()? {
                Value::Unknown(None)
            } else {
                Value::Null
            })
        };
        let ty = match ctx {
            Ctx::Holes => return hole(self),
            Ctx::Planned => match self.plan.get(&(node as *const Type)).cloned().flatten() {
                None => return hole(self),
                Some(t) => t,
            },
            Ctx::Free => {
                if roll < 2 {
                    return hole(self);
                }
                if self.u.ratio(1u8, 5u8)? {
                    // A type with `dynamic` in it, whose dynamic positions hold nulls.
                    let depth = self.o.max_depth.saturating_sub(1).max(1);
                    let t = gen_type(self.u, &self.o, depth, false)?;
                    if t == Type::Dynamic {
                        return hole(self);
                    }
                    let inner = self.value(&t, Ctx::Holes)?;
                    return Ok(self.wrap(&t, inner));
                }
                self.concrete_type()?
            }
        };
        let inner = self.value(&ty, Ctx::Holes)?;
        Ok(self.wrap(&ty, inner))
    }

    fn wrap(&mut self, ty: &Type, value: Value<'b>) -> Value<'b> {
        let ty: Ty<'b> = ty.to_ty(self.arena);
        Value::Dynamic(self.arena.alloc(Dynamic { ty, value }))
    }

    fn unknown(&mut self, ty: &Type) -> Result<Value<'b>> {
        let mut r = Refinements {
            not_null: self.u.arbitrary()?,
            ..Refinements::default()
        };
        match ty {
            Type::String if self.u.arbitrary()? => {
                let p = self.string(40)?;
                r.prefix = (!p.is_empty()).then_some(p);
            }
            Type::Number => {
                if self.u.arbitrary()? {
                    r.lower = Some((self.number()?, self.u.arbitrary()?));
                }
                if self.u.arbitrary()? {
                    r.upper = Some((self.number()?, self.u.arbitrary()?));
                }
                if let (Some((min, mi)), Some((max, ma))) = (r.lower, r.upper) {
                    let c = min.cmp_exact(&max);
                    let consistent = if mi != ma { c.is_lt() } else { c.is_le() };
                    if !consistent {
                        r.upper = None;
                    } else if r.not_null && mi && ma && min.cty_eq(&max) {
                        // go-cty's decoder would make this the known number.
                        r.not_null = false;
                    }
                }
            }
            Type::List(_) | Type::Set(_) | Type::Map(_) => {
                if self.u.arbitrary()? {
                    r.len_lower = Some(self.u.int_in_range(1..=5)?);
                }
                if self.u.arbitrary()? {
                    let min = r.len_lower.unwrap_or(0);
                    r.len_upper = Some(min + self.u.int_in_range(0..=5)?);
                }
                if r.not_null
                    && r.len_upper.is_some()
                    && r.len_upper == Some(r.len_lower.unwrap_or(0))
                {
                    // go-cty's decoder would make some of these known collections.
                    r.not_null = false;
                }
            }
            _ => {}
        }
        if r.is_empty() {
            return Ok(Value::Unknown(None));
        }
        Ok(Value::Unknown(Some(self.arena.alloc(r))))
    }

    fn number(&mut self) -> Result<Number<'b>> {
        Ok(match self.u.int_in_range(0u8..=9)? {
            0 | 1 => Number::Int(self.u.int_in_range(-100..=100)?),
            2 => Number::Int(self.u.arbitrary()?),
            3 => Number::Uint(self.u.int_in_range(i64::MAX as u64 + 1..=u64::MAX)?),
            4 | 5 => {
                let f = f64::from_bits(self.u.arbitrary()?);
                if f.is_nan() || (f.is_infinite() && !self.o.infinities) {
                    Number::F64(0.5)
                } else {
                    Number::F64(f)
                }
            }
            6 => {
                let f = f32::from_bits(self.u.arbitrary()?);
                if f.is_nan() || (f.is_infinite() && !self.o.infinities) {
                    Number::F32(-1.25)
                } else {
                    Number::F32(f)
                }
            }
            7 => *self.u.choose(&[
                Number::F64(0.1),
                Number::F64(-0.0),
                Number::F64(18446744073709551616.0),
                Number::F64(f64::MIN_POSITIVE),
                Number::F64(1e300),
            ])?,
            _ => self.decimal()?,
        })
    }

    /// Decimal text: a sign, digits, a fraction, an exponent; never a negative zero (go-cty
    /// writes it as 0, which then merges with 0 in a set).
    fn decimal(&mut self) -> Result<Number<'b>> {
        let mut t = String::new();
        let digit = |u: &mut Unstructured<'_>| -> Result<char> {
            Ok(char::from(b'0' + u.int_in_range(0u8..=9)?))
        };
        let neg = self.u.arbitrary::<bool>()?;
        let int_len = self.u.int_in_range(1..=30)?;
        let mut mantissa = String::new();
        for _ in 0..int_len {
            mantissa.push(digit(self.u)?);
        }
        if self.u.arbitrary()? {
            mantissa.push('.');
            for _ in 0..self.u.int_in_range(1..=20)? {
                mantissa.push(digit(self.u)?);
            }
        }
        if neg && mantissa.bytes().any(|b| matches!(b, b'1'..=b'9')) {
            t.push('-');
        }
        t.push_str(&mantissa);
        if self.u.ratio(1u8, 4u8)? {
            let e: i16 = self.u.int_in_range(-400..=400)?;
            t.push_str(&format!("e{e}"));
        }
        let t: &'b str = self.arena.alloc_str(&t);
        Ok(Number::parse(t).unwrap_or(Number::Int(0)))
    }

    /// A string of at most `max` characters, in NFC, in the arena.
    fn string(&mut self, max: usize) -> Result<&'b str> {
        let s = nfc_string(self.u, max)?;
        Ok(self.arena.alloc_str(&s))
    }
}

/// An arbitrary string of at most `max` characters, in NFC; often ASCII, sometimes with the
/// characters encoders treat specially.
fn nfc_string(u: &mut Unstructured<'_>, max: usize) -> Result<String> {
    let n = u.int_in_range(0..=max)?;
    let mut s = String::with_capacity(n);
    for _ in 0..n {
        let c = match u.int_in_range(0u8..=9)? {
            0..=5 => char::from(u.int_in_range(b' '..=b'~')?),
            6 => *u.choose(&[
                '\0',
                '\n',
                '\t',
                '\u{8}',
                '\u{1f}',
                '"',
                '\\',
                '<',
                '>',
                '&',
                '\u{2028}',
                '\u{2029}',
                'é',
                'e',
                '\u{301}',
                '\u{1f600}',
                '\u{ac00}',
            ])?,
            _ => u.arbitrary::<char>()?,
        };
        s.push(c);
    }
    Ok(crate::nfc::nfc_owned(&s))
}

/// `t` with every `dynamic` replaced by `string` (keeps it a type of a value).
fn fill_dynamic(t: Type) -> Type {
    match t {
        Type::Dynamic => Type::String,
        Type::List(e) => Type::list(fill_dynamic(*e)),
        Type::Set(e) => Type::set(fill_dynamic(*e)),
        Type::Map(e) => Type::map(fill_dynamic(*e)),
        Type::Object(o) => Type::object(
            o.attributes()
                .iter()
                .map(|a| (a.name.clone(), fill_dynamic(a.ty.clone()), false)),
        ),
        Type::Tuple(es) => Type::tuple(es.into_iter().map(fill_dynamic)),
        t => t,
    }
}
