//! `DynamicValue`s as comparable values: decoded with the recorded schema, owned, with every
//! sensitive or write-only position marked.

use super::diff::Diff;
use crate::Programs;
use crate::rpc::Direction;
use crate::rpc::Method;
use crate::values::SchemaRef;
use bytes::Bytes;
use core::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use tfwire::mask::{Cursor, Masks};
use tfwire::schema::{Attribute, AttributeType, Block};
use tfwire::{DynamicValue, Number, PathStep, Value};

/// What a message says of an attribute, key or element one side lacks.
const ABSENT: &str = "(absent)";

/// The longest rendering of a value in a message (longer ones end with `…`).
const MAX_SHOWN: usize = 160;

/// A number as go-cty compares them ([`Number::cty_eq`]): an integer by its exact value, any
/// other number by its float64.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NumKey {
    Int(Box<str>),
    Float(u64),
}

impl NumKey {
    fn of(n: &Number<'_>) -> NumKey {
        if n.is_integer() {
            NumKey::Int(n.to_string().into())
        } else {
            // +0 and -0 are one number.
            let f = n.to_f64();
            NumKey::Float(if f == 0.0 { 0 } else { f.to_bits() })
        }
    }
}

/// A number: its key (compared) and its text (shown).
#[derive(Clone, Debug)]
pub(crate) struct Num {
    key: NumKey,
    text: Box<str>,
}

impl Num {
    /// The number as it was sent.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.key == other.key
    }
}

/// What is known of an unknown value: its refinements, however they were spelled.
#[derive(Clone, Debug, Default, PartialEq, Hash)]
pub(crate) struct Refine {
    not_null: bool,
    prefix: Option<Box<str>>,
    lower: Option<(NumKey, bool)>,
    upper: Option<(NumKey, bool)>,
    len_lower: Option<u64>,
    len_upper: Option<u64>,
}

/// A value as compared.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum V {
    Null,
    Unknown(Box<Refine>),
    Bool(bool),
    Number(Num),
    String(Box<str>),
    List(Vec<V>),
    Set(Vec<V>),
    Tuple(Vec<V>),
    Map(Vec<(Box<str>, V)>),
    Object(Vec<(Box<str>, V)>),
    /// A value at a `dynamic` position: its type (JSON) and the value.
    Dynamic(Box<str>, Box<V>),
    /// A sensitive or write-only attribute's value.
    Sensitive(Box<V>),
    /// A value without a schema, or that does not decode with it: its bytes (MessagePack,
    /// else JSON), and why.
    Raw(Bytes, Box<str>),
}

/// Decodes values with a session's programs.
pub(crate) struct ValueTree<'p> {
    pub(crate) programs: &'p Programs,
}

/// Where a value sits in its schema: what tells its sensitive attributes.
#[derive(Clone, Copy)]
pub(crate) enum At<'s> {
    /// A block's object.
    Block(&'s Block),
    /// A nested attribute's object.
    Attrs(&'s [Attribute]),
    /// A value the schema says nothing inside of.
    Plain,
}

impl<'s> At<'s> {
    /// Where the member `name` of an object at `self` sits, and its attribute (`None` for a
    /// nested block, or a member the schema does not name). A nested attribute's (or
    /// block's) value is the object, or a list, set or map of them: each element at the
    /// same position.
    pub(crate) fn member(self, name: &str) -> (At<'s>, Option<&'s Attribute>) {
        let attrs = match self {
            At::Block(b) => {
                if let Some(nb) = b.block_types.iter().find(|nb| nb.type_name == name) {
                    return (At::Block(&nb.block), None);
                }
                &b.attributes[..]
            }
            At::Attrs(a) => a,
            At::Plain => return (At::Plain, None),
        };
        let Some(a) = attrs.iter().find(|a| a.name == name) else {
            return (At::Plain, None);
        };
        let at = match &a.ty {
            AttributeType::Nested(n) => At::Attrs(&n.attributes),
            AttributeType::Type(_) => At::Plain,
        };
        (at, Some(a))
    }
}

impl ValueTree<'_> {
    /// A `DynamicValue` of the request, under the top-level field `top`.
    pub(crate) fn dynamic(
        &self,
        method: Method,
        type_name: &str,
        top: Option<(&'static str, Option<usize>)>,
        dv: DynamicValue<'_>,
    ) -> V {
        let schema = top.and_then(|(name, index)| {
            method.field_schema(Direction::Request, name, index, type_name)
        });
        let raw = || {
            Bytes::copy_from_slice(if dv.msgpack.is_empty() {
                dv.json
            } else {
                dv.msgpack
            })
        };
        let Some(schema) = schema else {
            return V::Raw(raw(), "no schema types this field".into());
        };
        let program = match self.programs.get(schema) {
            Ok(p) => p,
            Err(e) => return V::Raw(raw(), e.to_string().into()),
        };
        let arena = bumpalo::Bump::new();
        let mut decoder = tfwire::Decoder::default();
        match decoder.decode_dynamic_value(&program, dv, &arena) {
            Ok(v) => self.convert(v, schema),
            Err(e) => V::Raw(raw(), e.to_string().into()),
        }
    }

    /// `RawState.json` (`UpgradeResourceState`): the stored state's JSON, decoded with the
    /// resource type's schema when it conforms (a state of the current schema version), else
    /// compared as bytes.
    pub(crate) fn raw_state(&self, type_name: &str, json: &Bytes) -> V {
        let schema = SchemaRef::Resource(type_name);
        let raw = |e: String| V::Raw(json.clone(), e.into());
        let program = match self.programs.get(schema) {
            Ok(p) => p,
            Err(e) => return raw(e.to_string()),
        };
        let arena = bumpalo::Bump::new();
        let mut decoder = tfwire::Decoder::default();
        match decoder.decode_json(&program, json, &arena) {
            Ok(v) => self.convert(v, schema),
            Err(e) => raw(e.to_string()),
        }
    }
}

impl ValueTree<'_> {
    fn convert(&self, v: Value<'_>, schema: SchemaRef<'_>) -> V {
        let masks = self.programs.masks();
        let c = Convert { masks };
        c.value(
            v,
            at(self.programs.block(schema)),
            &masks.start(schema.type_name()),
        )
    }
}

fn at(block: Option<&Block>) -> At<'_> {
    block.map_or(At::Plain, At::Block)
}

/// Converts with the schema's and the masks' sensitive positions marked.
pub(crate) struct Convert<'m> {
    pub(crate) masks: &'m Masks,
}

impl Convert<'_> {
    fn value(&self, v: Value<'_>, at: At<'_>, cur: &Cursor) -> V {
        if cur.is_masked() {
            // Everything inside is hidden already: walked without masks.
            let none = Masks::new();
            let inner = Convert { masks: &none }.value(v, at, &none.start(""));
            return V::Sensitive(Box::new(inner));
        }
        match v {
            Value::Null => V::Null,
            Value::Unknown(r) => V::Unknown(Box::new(r.map_or_else(Refine::default, |r| Refine {
                not_null: r.not_null,
                prefix: r.prefix.map(Into::into),
                lower: r.lower.map(|(n, i)| (NumKey::of(&n), i)),
                upper: r.upper.map(|(n, i)| (NumKey::of(&n), i)),
                len_lower: r.len_lower,
                len_upper: r.len_upper,
            }))),
            Value::Bool(b) => V::Bool(b),
            Value::Number(n) => V::Number(Num {
                key: NumKey::of(&n),
                text: n.to_string().into(),
            }),
            Value::String(s) => V::String(s.into()),
            Value::List(vs) => V::List(vs.iter().map(|v| self.value(*v, at, cur)).collect()),
            Value::Set(vs) => V::Set(vs.iter().map(|v| self.value(*v, at, cur)).collect()),
            Value::Tuple(vs) => {
                V::Tuple(vs.iter().map(|v| self.value(*v, At::Plain, cur)).collect())
            }
            Value::Map(es) => V::Map(
                es.iter()
                    .map(|(k, v)| ((*k).into(), self.value(*v, at, &self.masks.step(cur, k))))
                    .collect(),
            ),
            Value::Object(es) => V::Object(
                es.iter()
                    .map(|(k, v)| {
                        (
                            (*k).into(),
                            self.attribute(k, *v, at, &self.masks.step(cur, k)),
                        )
                    })
                    .collect(),
            ),
            Value::Dynamic(d) => V::Dynamic(
                d.ty.to_string().into(),
                Box::new(self.value(d.value, At::Plain, cur)),
            ),
        }
    }

    /// The attribute `name` of an object at `at`.
    fn attribute(&self, name: &str, v: Value<'_>, at: At<'_>, cur: &Cursor) -> V {
        if cur.is_masked() {
            return self.value(v, At::Plain, cur);
        }
        let (at, a) = at.member(name);
        let inner = self.value(v, at, cur);
        if a.is_some_and(|a| a.sensitive || a.write_only) {
            V::Sensitive(Box::new(inner))
        } else {
            inner
        }
    }
}

/// What a redacted position keeps: whether it was null, unknown or known.
fn class(v: &V) -> u8 {
    match v {
        V::Null => 0,
        V::Unknown(_) => 1,
        V::Dynamic(_, v) | V::Sensitive(v) => class(v),
        _ => 2,
    }
}

impl V {
    /// A hash consistent with [`diff`] finding no difference.
    pub(crate) fn fingerprint(&self, redacted: bool, h: &mut impl Hasher) {
        match self {
            V::Null => 0u8.hash(h),
            // Refinements are compared, not hashed.
            V::Unknown(_) => 1u8.hash(h),
            V::Bool(b) => (2u8, b).hash(h),
            V::Number(n) => (3u8, &n.key).hash(h),
            V::String(s) => (4u8, s).hash(h),
            V::List(vs) | V::Tuple(vs) => {
                (5u8, vs.len()).hash(h);
                for v in vs {
                    v.fingerprint(redacted, h);
                }
            }
            V::Set(vs) => {
                // In any order.
                let sum = vs.iter().fold(0u64, |s, v| {
                    let mut e = DefaultHasher::new();
                    v.fingerprint(redacted, &mut e);
                    s.wrapping_add(e.finish())
                });
                (6u8, vs.len(), sum).hash(h);
            }
            V::Map(es) | V::Object(es) => {
                (7u8, es.len()).hash(h);
                for (k, v) in es {
                    k.hash(h);
                    v.fingerprint(redacted, h);
                }
            }
            V::Dynamic(t, v) => {
                (8u8, t).hash(h);
                v.fingerprint(redacted, h);
            }
            V::Sensitive(v) if redacted => (9u8, class(v)).hash(h),
            V::Sensitive(v) => v.fingerprint(redacted, h),
            V::Raw(b, _) => (10u8, &b[..]).hash(h),
        }
    }

    /// The value for a message, at most [`MAX_SHOWN`] characters.
    pub(crate) fn show(&self) -> String {
        let mut out = String::new();
        write(&mut out, self);
        if let Some((i, _)) = out.char_indices().nth(MAX_SHOWN) {
            out.truncate(i);
            out.push('…');
        }
        out
    }
}

/// A string quoted as JSON, with the human escape rule.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::new();
    let _ = tfwire_json::write_safe_str(&mut out, s);
    out
}

fn write(out: &mut String, v: &V) {
    if out.len() > MAX_SHOWN * 4 {
        return;
    }
    match v {
        V::Null => out.push_str("null"),
        V::Unknown(r) if **r == Refine::default() => out.push_str(crate::redact::UNKNOWN),
        V::Unknown(r) => {
            let _ = write!(out, "{} ({})", crate::redact::UNKNOWN, refinements(r));
        }
        V::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        V::Number(n) => out.push_str(&n.text),
        V::String(s) => out.push_str(&quote(s)),
        V::List(vs) | V::Set(vs) | V::Tuple(vs) => {
            out.push('[');
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, v);
            }
            out.push(']');
        }
        V::Map(es) | V::Object(es) => {
            out.push('{');
            for (i, (k, v)) in es.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&quote(k));
                out.push(':');
                write(out, v);
            }
            out.push('}');
        }
        V::Dynamic(_, v) => write(out, v),
        V::Sensitive(_) => out.push_str(&quote(crate::redact::SENSITIVE)),
        V::Raw(b, why) => {
            let _ = write!(out, "{} bytes that did not decode ({why})", b.len());
        }
    }
}

fn refinements(r: &Refine) -> String {
    let mut parts = Vec::new();
    if r.not_null {
        parts.push("not null".to_owned());
    }
    if let Some(p) = &r.prefix {
        parts.push(format!("prefix {}", quote(p)));
    }
    let num = |k: &NumKey| match k {
        NumKey::Int(t) => t.to_string(),
        NumKey::Float(b) => f64::from_bits(*b).to_string(),
    };
    if let Some((n, inc)) = &r.lower {
        parts.push(format!("{} {}", if *inc { ">=" } else { ">" }, num(n)));
    }
    if let Some((n, inc)) = &r.upper {
        parts.push(format!("{} {}", if *inc { "<=" } else { "<" }, num(n)));
    }
    if let Some(n) = r.len_lower {
        parts.push(format!("length >= {n}"));
    }
    if let Some(n) = r.len_upper {
        parts.push(format!("length <= {n}"));
    }
    parts.join(", ")
}

/// Compares a recorded value (`a`) with a new one (`b`) at `path`.
pub(crate) fn diff(a: &V, b: &V, path: &mut String, redacted: bool, d: &mut Diff) {
    walk(a, b, path, redacted, false, d);
}

fn walk(a: &V, b: &V, path: &mut String, redacted: bool, masked: bool, d: &mut Diff) {
    if d.full() {
        return;
    }
    let add = |d: &mut Diff, path: &str, a: Option<&V>, b: Option<&V>| {
        if masked {
            let s = |v: Option<&V>| match v.map(class) {
                None => ABSENT.to_owned(),
                Some(0) => "null".to_owned(),
                Some(1) => crate::redact::UNKNOWN.to_owned(),
                Some(_) => quote(crate::redact::SENSITIVE),
            };
            // Two known sensitive values: say that they differ, not how.
            let (x, y) = (s(a), s(b));
            if x == y {
                d.add(
                    path,
                    || format!("{x} (one value)"),
                    || format!("{y} (another)"),
                );
            } else {
                d.add(path, || x, || y);
            }
        } else {
            let s = |v: Option<&V>| v.map_or_else(|| ABSENT.to_owned(), V::show);
            d.add(path, || s(a), || s(b));
        }
    };
    match (a, b) {
        (V::Sensitive(x), V::Sensitive(y)) if redacted => {
            if class(x) != class(y) {
                walk(x, y, path, false, true, d);
            }
        }
        (V::Sensitive(x), V::Sensitive(y)) => walk(x, y, path, redacted, true, d),
        (V::Sensitive(x), y) => walk(x, y, path, redacted, true, d),
        (x, V::Sensitive(y)) => walk(x, y, path, redacted, true, d),
        (V::Object(x), V::Object(y)) | (V::Map(x), V::Map(y)) => {
            let object = matches!(a, V::Object(_));
            let (mut i, mut j) = (0, 0);
            while i < x.len() || j < y.len() {
                let len = path.len();
                let step = |k: &str| -> String {
                    if object {
                        PathStep::attr(k).to_string()
                    } else {
                        PathStep::key(k).to_string()
                    }
                };
                match (x.get(i), y.get(j)) {
                    (Some((ka, va)), Some((kb, vb))) if ka == kb => {
                        path.push_str(&step(ka));
                        walk(va, vb, path, redacted, masked, d);
                        i += 1;
                        j += 1;
                    }
                    (Some((ka, va)), kb) if kb.is_none_or(|(kb, _)| ka < kb) => {
                        path.push_str(&step(ka));
                        add(d, path, Some(va), None);
                        i += 1;
                    }
                    (_, Some((kb, vb))) => {
                        path.push_str(&step(kb));
                        add(d, path, None, Some(vb));
                        j += 1;
                    }
                    (_, None) => break,
                }
                path.truncate(len);
                if d.full() {
                    return;
                }
            }
        }
        (V::List(x), V::List(y)) | (V::Tuple(x), V::Tuple(y)) => {
            for i in 0..x.len().max(y.len()) {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(va), Some(vb)) => walk(va, vb, path, redacted, masked, d),
                    _ => {
                        path.truncate(len);
                        let _ = write!(path, " (length)");
                        d.add(path, || x.len().to_string(), || y.len().to_string());
                        path.truncate(len);
                        return;
                    }
                }
                path.truncate(len);
                if d.full() {
                    return;
                }
            }
        }
        (V::Set(x), V::Set(y)) => {
            if !same_set(x, y, redacted) {
                add(d, path, Some(a), Some(b));
            }
        }
        (V::Dynamic(ta, va), V::Dynamic(tb, vb)) => {
            if ta == tb {
                walk(va, vb, path, redacted, masked, d);
            } else {
                d.add(
                    path,
                    || format!("a value of type {ta}"),
                    || format!("a value of type {tb}"),
                );
            }
        }
        (V::Raw(x, _), V::Raw(y, _)) if x == y => {}
        (x, y) if x == y => {}
        _ => add(d, path, Some(a), Some(b)),
    }
}

/// Whether two sets hold the same elements, in any order: each element of `x` is paired with
/// an equal one of `y`, looked up by its fingerprint.
fn same_set(x: &[V], y: &[V], redacted: bool) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let print = |v: &V| {
        let mut h = DefaultHasher::new();
        v.fingerprint(redacted, &mut h);
        h.finish()
    };
    let mut by_print: std::collections::HashMap<u64, Vec<usize>> = Default::default();
    for (i, f) in y.iter().enumerate() {
        by_print.entry(print(f)).or_default().push(i);
    }
    x.iter().all(|e| {
        let Some(candidates) = by_print.get_mut(&print(e)) else {
            return false;
        };
        let found = candidates.iter().position(|&i| {
            let mut d = Diff::counting(1);
            walk(e, &y[i], &mut String::new(), redacted, false, &mut d);
            d.count == 0
        });
        found.map(|k| candidates.swap_remove(k)).is_some()
    })
}
