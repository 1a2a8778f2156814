//! Encoding: arena [`Value`]s to MessagePack and JSON, byte for byte as go-cty writes them.
//!
//! ```
//! use tfwire::{Program, Type};
//! let program = Program::compile(&Type::from_json(r#"["object",{"id":"string","n":"number"}]"#)?);
//! let arena = bumpalo::Bump::new();
//! let input = b"\x82\xa2id\xa1x\xa1n\xcb\x3f\xb9\x99\x99\x99\x99\x99\x9a";
//! let value = tfwire::decode_msgpack(&program, input, &arena)?;
//! // Re-encoding an unchanged value gives go-cty's bytes back.
//! assert_eq!(tfwire::encode_msgpack(&program, &value)?, input);
//! assert_eq!(tfwire::encode_json(&program, &value)?, r#"{"id":"x","n":0.1}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Both encoders walk the value together with its type and check, as they go, that the value
//! is one the decoders could have produced: the right variant at each position, every object
//! attribute present and sorted, map keys sorted and unique, strings in NFC, numbers that are
//! not NaN, [`Value::Dynamic`] exactly at `dynamic` positions carrying the value's own type,
//! elements of collections of `dynamic` of one type, refinements that fit the type. A value
//! that breaks a rule is an [`Error`] of kind [`ErrorKind::Unencodable`] (or a more specific
//! kind) with the path to the offending value; the byte offset is where that value would have
//! started in the output. Two things are *not* checked: set elements that go-cty would merge
//! are all written (decoders merge them again), and set elements are written in the order the
//! value holds them (the order they arrived in).
//!
//! # Numbers
//!
//! MessagePack numbers are written as go-cty 1.16 writes them: an integer in `i64` range as
//! the most compact integer, a non-integer that a float64 holds exactly as a float64, anything
//! else as its exact decimal text in a string, and infinities as float64. The exception is
//! rule 7 of the conformance README: tfwire never changes a number's value, so a number that
//! arrived as a float ([`Number::F64`], [`Number::F32`]) is written as that float64. go-cty
//! never sends a float64 for an integer in `i64` range, nor for `-0`; where it does send one,
//! it sends it for a value it would write the same way. So decoding then encoding any go-cty
//! output gives back its bytes, and a float from elsewhere stays as it was: float64 `1.0`
//! stays float64 (go-cty would write the integer 1, the same value), float64 2^64 stays float64
//! (go-cty 1.16 would write the string `"18446744073709550000"`, another value).
//!
//! Refined unknowns are written with go-cty's entries in go-cty's order. Its decoder accepts
//! at most 1 KiB of refinements, and its encoder writes number bounds in full, so a bound like
//! `8e4210` (four bytes in, 4,211 digits out) gives bytes go-cty itself refuses; when the
//! refinements would pass 1 KiB, tfwire writes the bounds that are decimal text in scientific
//! notation (`"8e4210"`), which go-cty's decoder reads as the same number. What still does not
//! fit (a bound of more than a thousand significant digits) is an error.
//!
//! JSON numbers are plain decimals without exponent, as go-cty's `Text('f', -1)` writes them;
//! a float is written as the shortest decimal that reads back as the same binary64 (go-cty's
//! big.Float shortest form differs in rare cases, and for some powers of two does not read
//! back as the same float: tfwire keeps the value). A decimal zero with a sign is `-0`, as in
//! go-cty.
//!
//! # Stack
//!
//! The encoders recurse, one level per level of nesting, up to [`MAX_DEPTH`] (the decoders'
//! largest depth): 1024 levels fit in a 2 MiB thread stack in release builds, about 700 in
//! debug builds.
//!
//! [`Number`]: crate::Number
//! [`Number::F64`]: crate::Number::F64
//! [`Number::F32`]: crate::Number::F32

mod json;
mod msgpack;
mod prefix;
mod put;

use crate::decode::Fault;
use crate::decode::collection::value_type;
use crate::decode::shape::{Attrs, Cur, Elems, Shape};
use crate::error::{Error, ErrorKind, Expected, Fail, Path, PathStep, Step};
use crate::number::Number;
use crate::program::{AttrNode, Node, Program};
use crate::ty::Ty;
use crate::value::{Dynamic, Refinements, Value};
use bumpalo::Bump;

/// Containers and dynamic values nested deeper than this are refused (the encoders recurse).
pub(crate) const MAX_DEPTH: usize = crate::Config::MAX_DEPTH;

/// Encodes `value`, of the program's type, as MessagePack (a `DynamicValue.msgpack`).
///
/// ```
/// use tfwire::{Number, Program, Type, Value};
/// let program = Program::compile(&Type::from_json(r#"["list","number"]"#)?);
/// let value = Value::List(&[Value::Number(Number::Int(1)), Value::Null, Value::Unknown(None)]);
/// assert_eq!(tfwire::encode_msgpack(&program, &value)?, [0x93, 0x01, 0xc0, 0xd4, 0x00, 0x00]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_msgpack(program: &Program, value: &Value<'_>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    encode_msgpack_into(program, value, &mut out)?;
    Ok(out)
}

/// Encodes `value` as MessagePack, appending to `out` (so that a caller can reuse one buffer).
/// On error `out` is left as it was.
///
/// ```
/// use tfwire::{Program, Type, Value};
/// let program = Program::compile(&Type::String);
/// let mut out = Vec::with_capacity(64);
/// tfwire::encode_msgpack_into(&program, &Value::String("hi"), &mut out)?;
/// assert_eq!(out, [0xa2, b'h', b'i']);
/// let err = tfwire::encode_msgpack_into(&program, &Value::Bool(true), &mut out).unwrap_err();
/// assert_eq!(err.to_string(), "(root): a string is required, found bool (at byte 0)");
/// assert_eq!(out.len(), 3);
/// # Ok::<(), tfwire::Error>(())
/// ```
pub fn encode_msgpack_into(
    program: &Program,
    value: &Value<'_>,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let start = out.len();
    let mut sink = msgpack::Msgpack::new(out);
    let r = Walker::new(program, &mut sink).run(value);
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// Encodes `value`, of the program's type, as JSON (a `DynamicValue.json`), exactly as
/// go-cty's `ctyjson.Marshal` does: attributes and map keys sorted, no whitespace, strings
/// escaped as Go's `encoding/json` escapes them (`<`, `>`, `&` too), a value at a `dynamic`
/// position as `{"value":V,"type":T}`.
///
/// A value containing an unknown, or an infinity, cannot be written as JSON: that is an error
/// naming where it is.
///
/// ```
/// use tfwire::{Number, Program, Type, Value};
/// let program = Program::compile(&Type::from_json(r#"["map","number"]"#)?);
/// let value = Value::Map(&[("a<b", Value::Number(Number::F64(0.5))), ("c", Value::Null)]);
/// assert_eq!(tfwire::encode_json(&program, &value)?, r#"{"a\u003cb":0.5,"c":null}"#);
/// let unknown = Value::Map(&[("k", Value::Unknown(None))]);
/// assert_eq!(
///     tfwire::encode_json(&program, &unknown).unwrap_err().to_string(),
///     r#"["k"]: cannot encode: an unknown value cannot be written as JSON (at byte 5)"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_json(program: &Program, value: &Value<'_>) -> Result<String, Error> {
    let mut out = String::new();
    encode_json_into(program, value, &mut out)?;
    Ok(out)
}

/// Encodes `value` as JSON, appending to `out`. On error `out` is left as it was.
///
/// ```
/// use tfwire::{Program, Type, Value};
/// let program = Program::compile(&Type::Bool);
/// let mut out = String::from("[");
/// tfwire::encode_json_into(&program, &Value::Bool(true), &mut out)?;
/// assert_eq!(out, "[true");
/// # Ok::<(), tfwire::Error>(())
/// ```
pub fn encode_json_into(
    program: &Program,
    value: &Value<'_>,
    out: &mut String,
) -> Result<(), Error> {
    let start = out.len();
    let mut sink = json::Json::new(out);
    let r = Walker::new(program, &mut sink).run(value);
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// Appends the MessagePack bytes of a value that was never decoded (e.g. a subtree a proxy
/// passes through untouched) to `out`, after checking that `raw` holds exactly one complete
/// MessagePack value (with [`tfwire_msgpack::Tokenizer::skip_value`], in constant memory; the
/// bytes are not checked against a type). Build the containers around it with
/// [`tfwire_msgpack::write`] and the other parts with [`encode_msgpack_into`].
///
/// ```
/// use tfwire::{Program, Type, Value};
/// // {"a": <a new string>, "b": <bytes kept from the input>}
/// let mut out = Vec::new();
/// tfwire_msgpack::write::map_len(&mut out, 2);
/// tfwire_msgpack::write::str(&mut out, "a");
/// tfwire::encode_msgpack_into(&Program::compile(&Type::String), &Value::String("new"), &mut out)?;
/// tfwire_msgpack::write::str(&mut out, "b");
/// tfwire::append_raw_msgpack(&[0x92, 0x01, 0xc0], &mut out)?;
/// assert_eq!(out, b"\x82\xa1a\xa3new\xa1b\x92\x01\xc0");
/// assert!(tfwire::append_raw_msgpack(&[0x92, 0x01], &mut out).is_err()); // incomplete
/// # Ok::<(), tfwire::Error>(())
/// ```
pub fn append_raw_msgpack(raw: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    use tfwire_msgpack::ErrorKind as Wire;
    let mut t = tfwire_msgpack::Tokenizer::new(raw);
    match t.skip_value() {
        Ok(span) if span.end == raw.len() => {
            out.extend_from_slice(raw);
            Ok(())
        }
        Ok(span) => Err(Error::new(ErrorKind::TrailingBytes, span.end, Path::root())),
        Err(e) => {
            let kind = match e.kind {
                Wire::ReservedMarker => ErrorKind::InvalidMarker(0xc1),
                _ => ErrorKind::UnexpectedEof,
            };
            Err(Error::new(kind, e.offset, Path::root()))
        }
    }
}

/// What an unknown value's refinements may apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    String,
    Number,
    /// A list, set or map.
    Collection,
    /// A bool, object or tuple: nullness only.
    Other,
    /// An unknown of unknown type: no refinements.
    Dynamic,
}

/// The output side of an encoder: the walker has checked the value, the sink writes it.
pub(crate) trait Sink {
    /// Bytes written so far (by this encode).
    fn len(&self) -> usize;
    fn null(&mut self);
    fn unknown(&mut self, r: Option<&Refinements<'_>>, target: Target) -> Result<(), ErrorKind>;
    fn bool(&mut self, b: bool);
    fn number(&mut self, n: Number<'_>) -> Result<(), ErrorKind>;
    fn string(&mut self, s: &str) -> Result<(), ErrorKind>;
    /// Writes `s` if it is in NFC (`Ok(true)`); `Ok(false)`, nothing written, if it is not.
    /// A sink that reads the string's bytes anyway may check both in one pass.
    #[inline]
    fn nfc_string(&mut self, s: &str) -> Result<bool, ErrorKind> {
        if !crate::nfc::is_nfc(s) {
            return Ok(false);
        }
        self.string(s).map(|()| true)
    }
    fn begin_seq(&mut self, len: usize) -> Result<(), ErrorKind>;
    fn seq_elem(&mut self, i: usize);
    fn end_seq(&mut self);
    fn begin_map(&mut self, len: usize) -> Result<(), ErrorKind>;
    fn map_key(&mut self, i: usize, key: &str) -> Result<(), ErrorKind>;
    /// The name of a compiled program's object attribute, whose MessagePack and JSON
    /// encodings were computed at compile time.
    fn attr_key(&mut self, i: usize, attr: &AttrNode) -> Result<(), ErrorKind>;
    /// Writes a compiled attribute's name and its string value `s` at once if the sink has
    /// a fast path for `s` that needs no check (a short ASCII string): `true` when written,
    /// `false` (nothing written) when the caller takes the general path.
    #[inline(always)]
    fn attr_short_string(&mut self, _attr: &AttrNode, _s: &str) -> bool {
        false
    }
    /// The same for a map entry whose value is the string `s`: `true` when the key and the
    /// value were written (both need no check), `false` when nothing was.
    #[inline(always)]
    fn entry_short_string(&mut self, _key: &str, _s: &str) -> bool {
        false
    }
    fn end_map(&mut self);
    /// A value of concrete type `ty` at a `dynamic` position starts.
    fn begin_dynamic(&mut self, ty: Ty<'_>) -> Result<(), ErrorKind>;
    fn end_dynamic(&mut self, ty: Ty<'_>);
}

/// Walks a value together with its type, checking it, and drives a sink.
struct Walker<'p, 's, S: Sink> {
    program: &'p Program,
    sink: &'s mut S,
    /// Scratch arena for the types computed when checking collections of `dynamic`.
    scratch: Option<Bump>,
}

/// Whether an enclosing collection of `dynamic` or dynamic value will check the element
/// types of the collections inside (once they are walked), so that they need not.
#[derive(Clone, Copy)]
enum Checked {
    No,
    Yes,
}

impl<'p, 's, S: Sink> Walker<'p, 's, S> {
    fn new(program: &'p Program, sink: &'s mut S) -> Self {
        Walker {
            program,
            sink,
            scratch: None,
        }
    }

    fn run(mut self, value: &Value<'_>) -> Result<(), Error> {
        let root = Cur::Node(self.program.root());
        self.walk(value, root, 0, Checked::No)
            .map_err(|f| (*f).into_error())
    }

    #[cold]
    #[inline(never)]
    fn fail_at<T>(&self, kind: ErrorKind, at: usize) -> Step<T> {
        Err(Fail::new(kind, at))
    }

    #[cold]
    #[inline(never)]
    fn fail<T>(&self, kind: ErrorKind) -> Step<T> {
        Err(Fail::new(kind, self.sink.len()))
    }

    // The walk recurses through `walk` and one of the container methods; each is kept out of
    // the others (`inline(never)`, errors built in cold functions) so that the frames stay
    // small and `MAX_DEPTH` levels fit in a thread's stack even in debug builds.

    fn walk(&mut self, v: &Value<'_>, cur: Cur<'_>, depth: usize, checked: Checked) -> Step {
        if depth > MAX_DEPTH {
            return self.fail(too_deep());
        }
        let shape = cur.shape(self.program);
        match (*v, shape) {
            (Value::Null, _) => {
                self.sink.null();
                Ok(())
            }
            (Value::Unknown(r), _) => {
                let target = target(shape);
                self.sink.unknown(r, target).or_else(|k| self.fail(k))
            }
            (Value::Dynamic(d), Shape::Dynamic) => self.dynamic(d, depth, checked),
            (Value::Bool(b), Shape::Bool) => {
                self.sink.bool(b);
                Ok(())
            }
            (Value::Number(n), Shape::Number) => self.sink.number(n).or_else(|k| self.fail(k)),
            (Value::String(s), Shape::String) => self.string(s),
            (Value::Set(xs), Shape::Set(..))
                if crate::decode::collection::first_duplicate(xs).is_some() =>
            {
                self.fail(duplicate_elements(xs))
            }
            (Value::List(xs), Shape::List(e, dynamic))
            | (Value::Set(xs), Shape::Set(e, dynamic)) => {
                let start = self.sink.len();
                let check = dynamic && matches!(checked, Checked::No);
                let inner = if check { Checked::Yes } else { checked };
                self.seq(xs, Elem::Same(e), depth, inner)?;
                if check {
                    self.check_collection(v, cur, start)?;
                }
                Ok(())
            }
            (Value::Tuple(xs), Shape::Tuple(elems)) => {
                if xs.len() != elems.len() {
                    return self.fail(tuple_length(elems.len(), xs.len()));
                }
                self.seq(xs, Elem::Tuple(elems), depth, checked)
            }
            (Value::Map(es), Shape::Map(e, dynamic)) => {
                let start = self.sink.len();
                let check = dynamic && matches!(checked, Checked::No);
                let inner = if check { Checked::Yes } else { checked };
                self.map(es, e, depth, inner)?;
                if check {
                    self.check_collection(v, cur, start)?;
                }
                Ok(())
            }
            (Value::Object(es), Shape::Object(attrs)) => self.object(es, attrs, depth, checked),
            (v, shape) => self.fail(mismatch(v, shape)),
        }
    }

    /// The elements of a list, set or tuple.
    #[inline(never)]
    fn seq(&mut self, xs: &[Value<'_>], elem: Elem<'_>, depth: usize, checked: Checked) -> Step {
        self.sink.begin_seq(xs.len()).or_else(|k| self.fail(k))?;
        for (i, x) in xs.iter().enumerate() {
            self.sink.seq_elem(i);
            let e = match elem {
                Elem::Same(e) => e,
                Elem::Tuple(elems) => elems.cur(i),
            };
            self.child(x, e, depth + 1, checked)
                .map_err(|f| f.step(PathStep::Index(i as u64)))?;
        }
        self.sink.end_seq();
        Ok(())
    }

    /// The entries of a map (keys sorted and unique: checked as they are written, in the
    /// same loop; a misplaced key is reported at the map, before any error inside it).
    #[inline(never)]
    fn map(
        &mut self,
        es: &[(&str, Value<'_>)],
        e: Cur<'_>,
        depth: usize,
        checked: Checked,
    ) -> Step {
        let start = self.sink.len();
        self.sink.begin_map(es.len()).or_else(|k| self.fail(k))?;
        let strings = matches!(e, Cur::Node(id) if matches!(self.program.node(id), Node::String));
        for (i, (k, x)) in es.iter().enumerate() {
            if i > 0 && !key_less(es[i - 1].0, k) {
                return self.fail_at(unsorted_keys(es[i - 1].0, k), start);
            }
            if strings
                && let Value::String(s) = *x
                && self.sink.entry_short_string(k, s)
            {
                continue;
            }
            let r = if crate::nfc::is_nfc(k) {
                self.sink.map_key(i, k).or_else(|k| self.fail(k))
            } else {
                self.fail(not_nfc("map key"))
            };
            r.and_then(|()| self.child(x, e, depth + 1, checked))
                .map_err(|f| entry_fault(f, es, i, start))?;
        }
        self.sink.end_map();
        Ok(())
    }

    /// The attributes of an object (names matching the type's: checked as they are written,
    /// in the same loop; a mismatch is reported at the object, before any error inside it).
    #[inline(never)]
    fn object(
        &mut self,
        es: &[(&str, Value<'_>)],
        attrs: Attrs<'_>,
        depth: usize,
        checked: Checked,
    ) -> Step {
        let start = self.sink.len();
        if es.len() != attrs.len() {
            return self.fail(attribute_mismatch(es, attrs));
        }
        self.sink.begin_map(es.len()).or_else(|k| self.fail(k))?;
        match attrs {
            // A compiled object, whose names' MessagePack encodings are precomputed.
            Attrs::Node(nodes) => {
                for (i, ((k, x), a)) in es.iter().zip(nodes).enumerate() {
                    if !same_name(k, &a.name) {
                        return self.fail_at(attribute_mismatch(es, attrs), start);
                    }
                    if let Value::String(s) = *x
                        && matches!(self.program.node(a.node), Node::String)
                        && self.sink.attr_short_string(a, s)
                    {
                        continue;
                    }
                    self.sink
                        .attr_key(i, a)
                        .or_else(|k| self.fail(k))
                        .and_then(|()| self.child(x, Cur::Node(a.node), depth + 1, checked))
                        .map_err(|f| attribute_fault(f, es, attrs, i, start))?;
                }
            }
            Attrs::Ty(_) => {
                for (i, (k, x)) in es.iter().enumerate() {
                    if !same_name(k, attrs.name(i)) {
                        return self.fail_at(attribute_mismatch(es, attrs), start);
                    }
                    self.sink
                        .map_key(i, k)
                        .or_else(|k| self.fail(k))
                        .and_then(|()| self.child(x, attrs.cur(i), depth + 1, checked))
                        .map_err(|f| attribute_fault(f, es, attrs, i, start))?;
                }
            }
        }
        self.sink.end_map();
        Ok(())
    }

    /// A string: checked to be in NFC, then written.
    #[inline(always)]
    fn string(&mut self, s: &str) -> Step {
        match self.sink.nfc_string(s) {
            Ok(true) => Ok(()),
            Ok(false) => self.fail(not_nfc("string")),
            Err(k) => self.fail(k),
        }
    }

    /// A container's child: the plain leaves of a compiled program (a string, number or bool
    /// where the program has one, or a null) written at once, anything else walked. The
    /// same checks as [`Walker::walk`]'s, without its general dispatch.
    #[inline(always)]
    fn child(&mut self, v: &Value<'_>, cur: Cur<'_>, depth: usize, checked: Checked) -> Step {
        if let Cur::Node(id) = cur
            && depth <= MAX_DEPTH
        {
            // The value's variant first: a null needs no node, a container no leaf test.
            match *v {
                Value::Null => {
                    self.sink.null();
                    return Ok(());
                }
                Value::String(s) if matches!(self.program.node(id), Node::String) => {
                    return self.string(s);
                }
                Value::Number(n) if matches!(self.program.node(id), Node::Number) => {
                    return self.sink.number(n).or_else(|k| self.fail(k));
                }
                Value::Bool(b) if matches!(self.program.node(id), Node::Bool) => {
                    self.sink.bool(b);
                    return Ok(());
                }
                _ => {}
            }
        }
        self.walk(v, cur, depth, checked)
    }

    /// A value with its own type, at a `dynamic` position.
    #[inline(never)]
    fn dynamic(&mut self, d: &Dynamic<'_>, depth: usize, checked: Checked) -> Step {
        if d.ty == Ty::Dynamic {
            // A value of unknown type at a dynamic position: nothing to wrap.
            return self.walk(&d.value, Cur::Ty(Ty::Dynamic), depth + 1, checked);
        }
        if ty_deeper_than(d.ty, MAX_DEPTH) {
            return self.fail(type_too_deep());
        }
        // The type must be the value's own: checked after the value (whose own dynamic
        // values' types are then known to be shallow enough to compare).
        let check = d.ty.has_dynamic() || d.ty.has_optional();
        let start = self.sink.len();
        self.sink.begin_dynamic(d.ty).or_else(|k| self.fail(k))?;
        let inner = if check { Checked::Yes } else { Checked::No };
        self.walk(&d.value, Cur::Ty(d.ty), depth + 1, inner)?;
        self.sink.end_dynamic(d.ty);
        if check {
            self.check_dynamic(d.ty, &d.value, start)?;
        }
        Ok(())
    }

    /// Checks that the elements of a collection whose element type contains `dynamic` have
    /// one type (as the decoders require; go-cty panics otherwise). Done once, at the
    /// outermost such collection, after its elements: the check covers everything inside it.
    fn check_collection(&mut self, v: &Value<'_>, cur: Cur<'_>, start: usize) -> Step {
        let scratch = self.scratch.get_or_insert_with(Bump::new);
        let r = value_type(self.program, scratch, v, cur).map(|_| ());
        scratch.reset();
        match r {
            Ok(()) => Ok(()),
            Err(Fault::Kind(k)) => self.fail_at(k, start),
            Err(_) => self.fail_at(unencodable("out of memory".to_owned()), start),
        }
    }

    /// Checks that a dynamic value's type is the value's own (as the decoders compute it:
    /// `dynamic` only where the value holds a null or unknown of unknown type, optional
    /// attributes only on a null or unknown object); this also covers the element types of
    /// the collections of `dynamic` inside.
    fn check_dynamic(&mut self, ty: Ty<'_>, value: &Value<'_>, start: usize) -> Step {
        let scratch = self.scratch.get_or_insert_with(Bump::new);
        let r = match value_type(self.program, scratch, value, Cur::Ty(ty)) {
            Ok(actual) if actual == ty => Ok(()),
            Ok(actual) => Err(unencodable(format!(
                "a dynamic value says its type is {ty}, but the value's type is {actual}"
            ))),
            Err(Fault::Kind(k)) => Err(k),
            Err(_) => Err(unencodable("out of memory".to_owned())),
        };
        scratch.reset();
        match r {
            Ok(()) => Ok(()),
            Err(k) => self.fail_at(k, start),
        }
    }
}

/// The element positions of a list or set (one for all), or of a tuple.
#[derive(Clone, Copy)]
enum Elem<'a> {
    Same(Cur<'a>),
    Tuple(Elems<'a>),
}

#[cold]
fn type_too_deep() -> ErrorKind {
    unencodable(format!(
        "the type of a dynamic value is nested more than {MAX_DEPTH} levels deep"
    ))
}

#[cold]
fn too_deep() -> ErrorKind {
    unencodable(format!(
        "the value is nested more than {MAX_DEPTH} levels deep"
    ))
}

#[cold]
fn tuple_length(expected: usize, found: usize) -> ErrorKind {
    ErrorKind::TupleLength {
        expected,
        found: found as u64,
    }
}

#[cold]
fn duplicate_elements(xs: &[Value<'_>]) -> ErrorKind {
    let (i, j) = crate::decode::collection::first_duplicate(xs).unwrap_or_default();
    unencodable(format!(
        "set elements [{i}] and [{j}] are equal: a set holds each value once"
    ))
}

#[cold]
fn unsorted_keys(a: &str, b: &str) -> ErrorKind {
    unencodable(format!(
        "map keys must be sorted and unique: {b:?} comes after {a:?}"
    ))
}

#[cold]
fn mismatch(v: Value<'_>, shape: Shape<'_>) -> ErrorKind {
    if let Value::Dynamic(_) = v {
        return unencodable(
            "a value with a type of its own (Value::Dynamic) is allowed only at a dynamic \
             position"
                .to_owned(),
        );
    }
    ErrorKind::Mismatch {
        expected: expected(shape),
        found: v.kind_name(),
    }
}

/// Why an object's attribute names are not its type's, in order.
#[cold]
fn attribute_mismatch(es: &[(&str, Value<'_>)], attrs: Attrs<'_>) -> ErrorKind {
    if let Some((k, _)) = es.iter().find(|(k, _)| attrs.find(k).is_none()) {
        return ErrorKind::UnsupportedAttribute((*k).to_owned());
    }
    if let Some(name) = (0..attrs.len())
        .map(|i| attrs.name(i))
        .find(|name| es.iter().all(|(k, _)| k != name))
    {
        return ErrorKind::MissingAttribute(name.to_owned());
    }
    unencodable("object attributes must be sorted by name, each once".to_owned())
}

/// The error of attribute `i` of an object that starts at byte `start`: a mismatch of the
/// attribute names (anywhere in the object) takes precedence, as if the names had been
/// checked before the values; otherwise the fault inside, with the attribute's step.
#[cold]
#[inline(never)]
fn attribute_fault(
    f: Box<Fail>,
    es: &[(&str, Value<'_>)],
    attrs: Attrs<'_>,
    i: usize,
    start: usize,
) -> Box<Fail> {
    let names_match = es
        .iter()
        .enumerate()
        .all(|(j, (k, _))| same_name(k, attrs.name(j)));
    if !names_match {
        return Fail::new(attribute_mismatch(es, attrs), start);
    }
    f.step(PathStep::Attr(es[i].0.to_owned().into()))
}

/// The error of entry `i` of a map that starts at byte `start`: misplaced keys (anywhere in
/// the map) take precedence, as if the order had been checked before the values; otherwise
/// the fault inside, with the key's step.
#[cold]
#[inline(never)]
fn entry_fault(f: Box<Fail>, es: &[(&str, Value<'_>)], i: usize, start: usize) -> Box<Fail> {
    if let Some(w) = es.windows(2).position(|w| w[0].0 >= w[1].0) {
        return Fail::new(unsorted_keys(es[w].0, es[w + 1].0), start);
    }
    f.step(PathStep::Key(es[i].0.to_owned().into()))
}

/// `a < b` (bytewise), inlined for keys of one length from 8 to 16 bytes (the common case
/// of generated labels and tags: `memcmp` cost more than the comparison): two big-endian
/// words each, the second overlapping the first, which is equal when it is compared.
#[inline(always)]
fn key_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n == b.len() && (8..=16).contains(&n) {
        let word =
            |s: &[u8], at: usize| u64::from_be_bytes(s[at..at + 8].try_into().expect("8 bytes"));
        let (x, y) = (word(a, 0), word(b, 0));
        if x != y {
            return x < y;
        }
        return word(a, n - 8) < word(b, n - 8);
    }
    a < b
}

/// Whether an object's attribute name is the type's: the decoders fill objects with the
/// program's own names, so the addresses usually settle it.
#[inline(always)]
fn same_name(k: &str, name: &str) -> bool {
    core::ptr::eq(k, name) || k == name
}

#[cold]
pub(crate) fn unencodable(message: String) -> ErrorKind {
    ErrorKind::Unencodable(message)
}

#[cold]
fn not_nfc(what: &str) -> ErrorKind {
    unencodable(format!(
        "{what} is not in Unicode normalization form C (go-cty normalizes every string; \
         normalize it first)"
    ))
}

fn target(shape: Shape<'_>) -> Target {
    match shape {
        Shape::String => Target::String,
        Shape::Number => Target::Number,
        Shape::List(..) | Shape::Set(..) | Shape::Map(..) => Target::Collection,
        Shape::Bool | Shape::Object(_) | Shape::Tuple(_) => Target::Other,
        Shape::Dynamic => Target::Dynamic,
    }
}

fn expected(shape: Shape<'_>) -> Expected {
    match shape {
        Shape::Bool => Expected::Bool,
        Shape::Number => Expected::Number,
        Shape::String => Expected::String,
        Shape::Dynamic => Expected::DynamicWrapper,
        Shape::List(..) => Expected::List,
        Shape::Set(..) => Expected::Set,
        Shape::Map(..) => Expected::Map,
        Shape::Object(_) => Expected::Object,
        Shape::Tuple(_) => Expected::Tuple,
    }
}

/// Whether `ty` nests deeper than `max` (without recursing).
fn ty_deeper_than(ty: Ty<'_>, max: usize) -> bool {
    let mut stack = vec![(ty, 0usize)];
    while let Some((t, d)) = stack.pop() {
        if d > max {
            return true;
        }
        match t {
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => stack.push((*e, d + 1)),
            Ty::Object(attrs) => stack.extend(attrs.iter().map(|a| (a.ty, d + 1))),
            Ty::Tuple(es) => stack.extend(es.iter().map(|e| (*e, d + 1))),
            Ty::Bool | Ty::Number | Ty::String | Ty::Dynamic => {}
        }
    }
    false
}

/// Checks a number for writing: never NaN; decimal text valid.
pub(crate) fn check_number(n: Number<'_>) -> Result<(), ErrorKind> {
    match n {
        Number::F64(f) if f.is_nan() => Err(ErrorKind::InvalidNumber("NaN".into())),
        Number::F32(f) if f.is_nan() => Err(ErrorKind::InvalidNumber("NaN".into())),
        Number::Decimal(t) => match Number::parse(t) {
            Ok(Number::Decimal(_)) => Ok(()),
            _ => Err(ErrorKind::InvalidNumber(t.to_owned())),
        },
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    /// `key_less` is `<` on every pair of keys of lengths 0 to 20 over a three-letter
    /// alphabet differing at any one or two positions.
    #[test]
    fn key_less_is_bytewise_order() {
        let mut checked = 0;
        for n in 0..=20usize {
            for m in [n, n.saturating_sub(1), n + 1] {
                let base: Vec<u8> = (0..n.max(m)).map(|i| b'a' + (i % 3) as u8).collect();
                for i in 0..=n.max(m) {
                    for j in 0..=n.max(m) {
                        for (ci, cj) in [(b'a', b'b'), (b'c', b'a'), (b'b', b'b')] {
                            let mut a = base[..n].to_vec();
                            let mut b = base[..m].to_vec();
                            if i < n {
                                a[i] = ci;
                            }
                            if j < m {
                                b[j] = cj;
                            }
                            let (a, b) =
                                (String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
                            assert_eq!(super::key_less(&a, &b), a < b, "{a:?} {b:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
