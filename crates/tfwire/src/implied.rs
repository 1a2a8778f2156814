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
    let mut t = Tokenizer::new(input);
    let ty = implied(&mut t, crate::Config::MAX_DEPTH)?;
    if !t.is_empty() {
        return Err(Error::new(
            ErrorKind::TrailingBytes,
            t.offset(),
            Path::root(),
        ));
    }
    Ok(ty)
}

fn implied(t: &mut Tokenizer<'_>, depth: usize) -> Result<Type, Error> {
    let at = t.offset();
    if depth == 0 {
        return Err(Error::new(
            ErrorKind::LimitExceeded {
                limit: Limit::Depth,
                max: crate::Config::MAX_DEPTH as u64,
            },
            at,
            Path::root(),
        ));
    }
    let tok = t.next_token().map_err(|e| {
        let kind = if e.is_incomplete() {
            ErrorKind::UnexpectedEof
        } else {
            ErrorKind::InvalidMarker(0xc1)
        };
        Error::new(kind, e.offset, Path::root())
    })?;
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
        Kind::Array(n) => {
            let mut elems = Vec::new();
            for _ in 0..n {
                elems.push(implied(t, depth - 1)?);
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
                attrs.push((crate::nfc::nfc_owned(&name), implied(t, depth - 1)?, false));
            }
            Type::object(attrs)
        }
    })
}
