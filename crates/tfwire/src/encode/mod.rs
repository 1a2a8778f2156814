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
//! The encoders recurse, one level per level of nesting, up to `MAX_DEPTH` (in `walk.rs`:
//! the decoders' largest depth): 1024 levels fit in a 2 MiB thread stack in release builds,
//! about 700 in debug builds.
//!
//! [`Number`]: crate::Number
//! [`Number::F64`]: crate::Number::F64
//! [`Number::F32`]: crate::Number::F32

mod json;
mod msgpack;
mod prefix;
mod put;
mod sink;
mod walk;

use crate::error::{Error, ErrorKind, Path};
use crate::program::Program;
use crate::value::Value;
use walk::Walker;

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
