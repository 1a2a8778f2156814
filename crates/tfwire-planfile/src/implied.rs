//! The type of a resource value read without its schema: its structure, with the values at
//! `dynamic` positions of the schema recognised by their wrapper.
//!
//! go-cty writes a value at a `dynamic` position as a two-element array of its type's JSON
//! (MessagePack *binary*) and the value; every other string is MessagePack *str*. So a
//! two-element array that starts with binary is such a value, and nothing else is: the
//! structure alone gives a type that decodes every value to the JSON `show -json` writes
//! (maps and objects are both JSON objects, lists, sets and tuples all JSON arrays).

use tfwire::Type;
use tfwire_msgpack::{Kind, Tokenizer};

/// The deepest nesting read (tfwire's own limit).
const MAX_DEPTH: usize = 1024;

/// The type of `input`, `dynamic` where the value carries its type.
pub(crate) fn implied_type(input: &[u8]) -> Result<Type, String> {
    let mut t = Tokenizer::new(input);
    let ty = implied(&mut t, MAX_DEPTH)?;
    if !t.is_empty() {
        return Err(format!(
            "unexpected bytes after the value (at byte {})",
            t.offset()
        ));
    }
    Ok(ty)
}

fn implied(t: &mut Tokenizer<'_>, depth: usize) -> Result<Type, String> {
    if depth == 0 {
        return Err(format!(
            "values nested deeper than {MAX_DEPTH} levels (at byte {})",
            t.offset()
        ));
    }
    let at = t.offset();
    let bad = |e: tfwire_msgpack::Error| format!("invalid MessagePack at byte {}", e.offset);
    let tok = t.next_token().map_err(bad)?;
    Ok(match tok.kind {
        Kind::Nil | Kind::Ext(..) => Type::Dynamic,
        Kind::Bool(_) => Type::Bool,
        Kind::Uint(_) | Kind::Int(_) | Kind::F32(_) | Kind::F64(_) => Type::Number,
        Kind::Str(_) => Type::String,
        Kind::Bin(_) => return Err(format!("unexpected binary data at byte {at}")),
        Kind::Array(2) if matches!(t.peek_token().map(|k| k.kind), Ok(Kind::Bin(_))) => {
            t.skip_value().map_err(bad)?;
            t.skip_value().map_err(bad)?;
            Type::Dynamic
        }
        Kind::Array(n) => {
            let mut elems = Vec::new();
            for _ in 0..n {
                elems.push(implied(t, depth - 1)?);
            }
            Type::Tuple(elems)
        }
        Kind::Map(n) => {
            let mut attrs: Vec<(String, Type, bool)> = Vec::new();
            for _ in 0..n {
                let kat = t.offset();
                let k = t.next_token().map_err(bad)?;
                let name = match k.kind {
                    Kind::Str(_) => core::str::from_utf8(t.payload(&k))
                        .map_err(|_| format!("a key that is not UTF-8 at byte {kat}"))?
                        .to_owned(),
                    _ => return Err(format!("a map key that is not a string at byte {kat}")),
                };
                let ty = implied(t, depth - 1)?;
                // A repeated key keeps its last value's type (as go-cty reads it).
                attrs.retain(|(n, _, _)| *n != name);
                attrs.push((name, ty, false));
            }
            Type::object(attrs)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_wrappers_are_recognised() {
        // {"input": [<bin "string">, "x"], "tags": ["a", 1]}
        let mut v = vec![0x82, 0xa5];
        v.extend_from_slice(b"input");
        v.extend_from_slice(&[0x92, 0xc4, 0x08]);
        v.extend_from_slice(b"\"string\"");
        v.extend_from_slice(&[0xa1, b'x', 0xa4]);
        v.extend_from_slice(b"tags");
        v.extend_from_slice(&[0x92, 0xa1, b'a', 0x01]);
        assert_eq!(
            implied_type(&v).unwrap().to_string(),
            r#"["object",{"input":"dynamic","tags":["tuple",["string","number"]]}]"#
        );
        assert!(implied_type(&[0xc4, 0x01, 0x00]).is_err());
        assert!(implied_type(&[0x92, 0xc4]).is_err());
        assert!(implied_type(&[0xc0, 0xc0]).is_err());
    }
}
