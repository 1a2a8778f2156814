//! Values as plain JSON with every sensitive attribute masked, for logs.
//!
//! An attribute the schema marks `sensitive` (or `write_only`: such attributes carry
//! secrets that must never be stored) is written as the string `"(sensitive)"`, whatever its
//! value, null included: a log then does not even tell whether it was set. Unknown values are
//! written as `"(known after apply)"`, and infinite numbers as `"+Inf"`/`"-Inf"` (JSON has no
//! such numbers). These markers follow Terraform's own plan rendering; a reader tells them
//! from real strings by the schema.
//!
//! Masks ([`tfwire::mask`], set on [`crate::Programs::with_masks`]) are applied here too, in
//! the same walk: a value whose path a mask matches is written as `"(sensitive)"` exactly
//! like a sensitive attribute, object, list, null or unknown alike, whether the schema
//! describes it or not (a value without a schema is walked by its own attribute and key
//! names).

use core::fmt;
use tfwire::Value;
use tfwire::mask::{Cursor, Masks};
use tfwire::schema::{Attribute, AttributeType, Block, NestedBlock, NestedType, Nesting};
use tfwire_json::{Escape, JsonWriter};

/// The text written instead of a sensitive value.
pub const SENSITIVE: &str = "(sensitive)";
/// The text written instead of an unknown value.
pub const UNKNOWN: &str = "(known after apply)";

/// `value`, decoded with `block`'s program, as JSON with sensitive attributes masked.
pub fn to_json(value: &Value<'_>, block: &Block) -> String {
    let mut out = String::new();
    write_block(&mut out, value, block);
    out
}

/// `value` (of a type without a schema: an identity, a function argument) as JSON.
pub fn to_json_plain(value: &Value<'_>) -> String {
    let mut out = String::new();
    write_plain(&mut out, value);
    out
}

/// The writer every function here writes through: the human ("safe") escape rule
/// ([`tfwire_json::write_safe_str`]: quotes, backslashes, control characters, C1 and
/// bidirectional controls and the line separators U+2028/U+2029), so a line of JSON stays
/// one line for every reader and moves no cursor.
type W<'o> = JsonWriter<&'o mut String>;

/// Appends `value`, decoded with `block`'s program, as JSON with sensitive attributes masked.
pub fn write_block(out: &mut String, value: &Value<'_>, block: &Block) {
    let none = Masks::new();
    write_block_masked(out, value, block, &none, &none.start(""));
}

/// As [`write_block`], also writing `"(sensitive)"` for every value the masks match from
/// `at` (the cursor at the value's root: [`Masks::start`] with the resource type).
pub fn write_block_masked(
    out: &mut String,
    value: &Value<'_>,
    block: &Block,
    masks: &Masks,
    at: &Cursor,
) {
    let m = M { masks, at };
    // Writing to a String cannot fail.
    let _ = write_object(
        &mut JsonWriter::new(out, Escape::Safe),
        value,
        &block.attributes,
        &block.block_types,
        m,
    );
}

/// As [`write_plain`], also writing `"(sensitive)"` for every value the masks match from
/// `at`.
pub fn write_plain_masked(out: &mut String, value: &Value<'_>, masks: &Masks, at: &Cursor) {
    let _ = write_value(
        &mut JsonWriter::new(out, Escape::Safe),
        value,
        Some(M { masks, at }),
    );
}

/// The masks and where the walk is.
#[derive(Clone, Copy)]
struct M<'m> {
    masks: &'m Masks,
    at: &'m Cursor,
}

fn write_object(
    w: &mut W<'_>,
    value: &Value<'_>,
    attrs: &[Attribute],
    blocks: &[NestedBlock],
    m: M<'_>,
) -> fmt::Result {
    if m.at.is_masked() {
        return w.string(SENSITIVE);
    }
    let entries = match value.unwrap_dynamic() {
        Value::Object(e) | Value::Map(e) => e,
        other => return write_value(w, &other, Some(m)),
    };
    w.begin_object()?;
    for (name, v) in entries.iter() {
        w.key(name)?;
        let at = m.masks.step(m.at, name);
        let m = M {
            masks: m.masks,
            at: &at,
        };
        if m.at.is_masked() {
            w.string(SENSITIVE)?;
        } else if let Ok(a) = attrs.binary_search_by(|a| a.name.as_str().cmp(name)) {
            write_attribute(w, v, &attrs[a], m)?;
        } else if let Ok(b) = blocks.binary_search_by(|b| b.type_name.as_str().cmp(name)) {
            let nb = &blocks[b];
            write_collection(
                w,
                v,
                nb.nesting,
                &nb.block.attributes,
                &nb.block.block_types,
                m,
            )?;
        } else {
            write_value(w, v, Some(m))?;
        }
    }
    w.end_object()
}

fn write_attribute(w: &mut W<'_>, v: &Value<'_>, a: &Attribute, m: M<'_>) -> fmt::Result {
    if a.sensitive || a.write_only {
        return w.string(SENSITIVE);
    }
    match &a.ty {
        AttributeType::Type(_) => write_value(w, v, Some(m)),
        AttributeType::Nested(n) => write_nested_attributes(w, v, n, m),
    }
}

fn write_nested_attributes(w: &mut W<'_>, v: &Value<'_>, n: &NestedType, m: M<'_>) -> fmt::Result {
    write_collection(w, v, n.nesting, &n.attributes, &[], m)
}

/// A block (or nested attribute object) nested as one object, a list, a set or a map.
fn write_collection(
    w: &mut W<'_>,
    v: &Value<'_>,
    nesting: Nesting,
    attrs: &[Attribute],
    blocks: &[NestedBlock],
    m: M<'_>,
) -> fmt::Result {
    let v = v.unwrap_dynamic();
    match (nesting, v) {
        (Nesting::Single | Nesting::Group, _) => write_object(w, &v, attrs, blocks, m),
        (_, Value::List(e) | Value::Set(e) | Value::Tuple(e)) => {
            w.begin_array()?;
            for x in e.iter() {
                write_object(w, x, attrs, blocks, m)?;
            }
            w.end_array()
        }
        (_, Value::Map(e) | Value::Object(e)) => {
            w.begin_object()?;
            for (k, x) in e.iter() {
                w.key(k)?;
                let at = m.masks.step(m.at, k);
                let m = M {
                    masks: m.masks,
                    at: &at,
                };
                write_object(w, x, attrs, blocks, m)?;
            }
            w.end_object()
        }
        _ => write_value(w, &v, Some(m)),
    }
}

/// A value without a schema below it, masked by its attribute and key names (`None`: no mask
/// can match below, so no cursor is stepped).
fn write_value(w: &mut W<'_>, value: &Value<'_>, m: Option<M<'_>>) -> fmt::Result {
    let m = match m {
        Some(m) if m.at.is_masked() => return w.string(SENSITIVE),
        Some(m) if !m.at.is_dead() => Some(m),
        _ => None,
    };
    match *value {
        Value::Null => w.null(),
        Value::Unknown(_) => w.string(UNKNOWN),
        Value::Bool(b) => w.bool(b),
        Value::Number(n) if n.is_infinite() => {
            w.string(if n.to_f64() > 0.0 { "+Inf" } else { "-Inf" })
        }
        Value::Number(n) => w.display(n),
        Value::String(s) => w.string(s),
        Value::List(e) | Value::Set(e) | Value::Tuple(e) => {
            w.begin_array()?;
            for x in e.iter() {
                write_value(w, x, m)?;
            }
            w.end_array()
        }
        Value::Map(e) | Value::Object(e) => {
            w.begin_object()?;
            for (k, x) in e.iter() {
                w.key(k)?;
                match m {
                    Some(m) => {
                        let at = m.masks.step(m.at, k);
                        let m = M {
                            masks: m.masks,
                            at: &at,
                        };
                        write_value(w, x, Some(m))?;
                    }
                    None => write_value(w, x, None)?,
                }
            }
            w.end_object()
        }
        Value::Dynamic(d) => write_value(w, &d.value, m),
    }
}

/// Appends `value` as JSON (no schema: nothing is masked).
pub fn write_plain(out: &mut String, value: &Value<'_>) {
    let _ = write_value(&mut JsonWriter::new(out, Escape::Safe), value, None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_without_a_schema() {
        let ty = tfwire::Type::from_json(
            r#"["object",{"name":"string","db_password":["list","string"],
              "env":["list",["object",{"name":"string","value":"string"}]],
              "tags":["map","string"],"extra":"dynamic"}]"#,
        )
        .unwrap();
        let program = tfwire::Program::compile(&ty);
        let arena = bumpalo::Bump::new();
        let json = br#"{"name":"a","db_password":["p1","p2"],
          "env":[{"name":"N","value":"v1"}],"tags":{"API_TOKEN":"t","env":"prod"},
          "extra":{"value":{"secret":"s","k":1},"type":["object",{"secret":"string","k":"number"}]}}"#;
        let v = tfwire::decode_json(&program, json, &arena).unwrap();
        let masks = Masks::defaults();
        let mut out = String::new();
        write_plain_masked(&mut out, &v, &masks, &masks.start("t"));
        assert_eq!(
            out,
            r#"{"db_password":"(sensitive)","env":[{"name":"N","value":"(sensitive)"}],"extra":{"k":1,"secret":"(sensitive)"},"name":"a","tags":{"API_TOKEN":"(sensitive)","env":"prod"}}"#
        );
        let none = Masks::new();
        let mut plain = String::new();
        write_plain_masked(&mut plain, &v, &none, &none.start("t"));
        let mut want = String::new();
        write_plain(&mut want, &v);
        assert_eq!(plain, want);
    }

    #[test]
    fn strings_escaped() {
        let mut s = String::new();
        write_plain(&mut s, &Value::String("a\"b\\c\nd\u{1}e\u{2028}é"));
        assert_eq!(s, r#""a\"b\\c\nd\u0001e\u2028é""#);
    }
}
