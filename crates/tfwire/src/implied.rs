//! The type a MessagePack value implies when no type is given (go-cty's `ImpliedType`).

use crate::error::{Error, ErrorKind, Limit, Path};
use crate::ty::Type;
use tfwire_msgpack::{Kind, Tokenizer};

/// The type a schema-less MessagePack value implies, as go-cty's `msgpack.ImpliedType` infers
/// it: nil and extensions (unknowns) imply `dynamic`, integers and floats `number`, strings
/// `string`, booleans `bool`, maps an object type (a repeated key keeps its last value's
/// type), arrays a tuple type. Binary is not accepted (go-cty does not infer it), nor are
/// bytes after the value.
///
/// ```
/// let t = tfwire::implied_type_msgpack(&[0x82, 0xa1, b'a', 0xc3, 0xa1, b'b', 0x92, 0x01, 0xa0])?;
/// assert_eq!(t.to_string(), r#"["object",{"a":"bool","b":["tuple",["number","string"]]}]"#);
/// # Ok::<(), tfwire::Error>(())
/// ```
pub fn implied_type_msgpack(input: &[u8]) -> Result<Type, Error> {
    implied_type_top(input, false)
}

/// Like [`implied_type_msgpack`], for a value go-cty wrote with a schema that has `dynamic`
/// positions (a resource value stored in a plan file): a value at such a position is a
/// two-element array of its type's JSON (MessagePack *binary*) and the value, and every
/// other string is *str*, so a two-element array that starts with binary implies `dynamic`
/// (the type that decodes it), and nothing else does.
///
/// ```
/// // {"input": [<bin "string">, "x"]}
/// let mut v = vec![0x81, 0xa5];
/// v.extend_from_slice(b"input");
/// v.extend_from_slice(&[0x92, 0xc4, 0x08]);
/// v.extend_from_slice(b"\"string\"");
/// v.extend_from_slice(&[0xa1, b'x']);
/// let t = tfwire::implied_type_msgpack_wrapped(&v)?;
/// assert_eq!(t.to_string(), r#"["object",{"input":"dynamic"}]"#);
/// assert!(tfwire::implied_type_msgpack(&v).is_err());
/// # Ok::<(), tfwire::Error>(())
/// ```
pub fn implied_type_msgpack_wrapped(input: &[u8]) -> Result<Type, Error> {
    implied_type_top(input, true)
}

fn implied_type_top(input: &[u8], wrappers: bool) -> Result<Type, Error> {
    let mut t = Tokenizer::new(input);
    let ty = implied(&mut t, crate::decode::Config::MAX_DEPTH, wrappers)?;
    if !t.is_empty() {
        return Err(Error::new(
            ErrorKind::TrailingBytes,
            t.offset(),
            Path::root(),
        ));
    }
    Ok(ty)
}

/// A tokenizer error: the input ends early, or holds the reserved marker.
#[cold]
fn wire_error(e: tfwire_msgpack::Error) -> Error {
    let kind = if e.is_incomplete() {
        ErrorKind::UnexpectedEof
    } else {
        ErrorKind::InvalidMarker(0xc1)
    };
    Error::new(kind, e.offset, Path::root())
}

fn implied(t: &mut Tokenizer<'_>, depth: usize, wrappers: bool) -> Result<Type, Error> {
    let at = t.offset();
    if depth == 0 {
        return Err(Error::new(
            ErrorKind::LimitExceeded {
                limit: Limit::Depth,
                max: crate::decode::Config::MAX_DEPTH as u64,
            },
            at,
            Path::root(),
        ));
    }
    let tok = t.next_token().map_err(wire_error)?;
    Ok(match tok.kind {
        Kind::Nil | Kind::Ext(..) => Type::Dynamic,
        Kind::Bool(_) => Type::Bool,
        Kind::Uint(_) | Kind::Int(_) | Kind::F32(_) | Kind::F64(_) => Type::Number,
        Kind::Str(_) => Type::String,
        Kind::Bin(_) => {
            return Err(Error::new(
                ErrorKind::Mismatch {
                    expected: crate::Expected::String,
                    found: "binary",
                },
                at,
                Path::root(),
            ));
        }
        Kind::Array(2)
            if wrappers && matches!(t.peek_token().map(|k| k.kind), Ok(Kind::Bin(_))) =>
        {
            for _ in 0..2 {
                t.skip_value().map_err(wire_error)?;
            }
            Type::Dynamic
        }
        Kind::Array(n) => {
            let mut elems = Vec::new();
            for _ in 0..n {
                elems.push(implied(t, depth - 1, wrappers)?);
            }
            Type::Tuple(elems)
        }
        Kind::Map(n) => {
            let mut attrs = Vec::new();
            for _ in 0..n {
                let kat = t.offset();
                let k = t
                    .next_token()
                    .map_err(|e| Error::new(ErrorKind::UnexpectedEof, e.offset, Path::root()))?;
                let name = match k.kind {
                    Kind::Str(_) | Kind::Bin(_) => core::str::from_utf8(t.payload(&k))
                        .map_err(|_| Error::new(ErrorKind::InvalidUtf8, kat, Path::root()))?
                        .to_owned(),
                    Kind::Nil => String::new(),
                    _ => {
                        return Err(Error::new(
                            ErrorKind::NonStringKey(k.kind.name()),
                            kat,
                            Path::root(),
                        ));
                    }
                };
                attrs.push((
                    crate::nfc::nfc_owned(&name),
                    implied(t, depth - 1, wrappers)?,
                    false,
                ));
            }
            Type::object(attrs)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_wrappers_are_recognised_only_when_asked() {
        // {"input": [<bin "string">, "x"], "tags": ["a", 1]}
        let mut v = vec![0x82, 0xa5];
        v.extend_from_slice(b"input");
        v.extend_from_slice(&[0x92, 0xc4, 0x08]);
        v.extend_from_slice(b"\"string\"");
        v.extend_from_slice(&[0xa1, b'x', 0xa4]);
        v.extend_from_slice(b"tags");
        v.extend_from_slice(&[0x92, 0xa1, b'a', 0x01]);
        assert_eq!(
            implied_type_msgpack_wrapped(&v).unwrap().to_string(),
            r#"["object",{"input":"dynamic","tags":["tuple",["string","number"]]}]"#
        );
        assert!(implied_type_msgpack(&v).is_err());
        // Binary alone, a cut wrapper, bytes after the value.
        for bad in [&[0xc4, 0x01, 0x00][..], &[0x92, 0xc4], &[0xc0, 0xc0]] {
            assert!(implied_type_msgpack_wrapped(bad).is_err(), "{bad:x?}");
        }
    }
}
