//! The canonical text of a value: the tagged, one-line JSON form the conformance vectors use
//! (see `corpus/conformance/README.md`).
//!
//! ```text
//! ["null"] | ["unknown"] | ["unknown", {refinements}] | ["bool", b] | ["number", "text"]
//! ["string", "s"] | ["list", [...]] | ["tuple", [...]] | ["set", [...]] | ["map", {...}]
//! ["object", {...}] | ["dynamic", TYPE, value]
//! ```
//!
//! Numbers are their exact decimal text ([`crate::Number`]'s `Display`), set elements are
//! sorted by their own canonical text, object keys by their UTF-8 bytes, and strings are
//! escaped as serde_json's compact writer escapes them. [`parse()`] reads it back.

mod parse;

pub use parse::parse;

use crate::value::{Refinements, Value};
use core::fmt::{self, Write};
use tfwire_json::write_canonical_str as string;

/// The canonical text of `v`.
///
/// ```
/// use tfwire::{canonical, Number, Value};
/// let v = Value::Set(&[Value::String("b"), Value::Number(Number::F64(0.5)), Value::Null]);
/// assert_eq!(canonical::to_string(&v), r#"["set",[["null"],["number","0.5"],["string","b"]]]"#);
/// ```
pub fn to_string(v: &Value<'_>) -> String {
    let mut s = String::new();
    write(&mut s, v).expect("writing to a String cannot fail");
    s
}

/// Writes the canonical text of `v`.
pub fn write(out: &mut impl Write, v: &Value<'_>) -> fmt::Result {
    match *v {
        Value::Null => out.write_str("[\"null\"]"),
        Value::Unknown(None) => out.write_str("[\"unknown\"]"),
        Value::Unknown(Some(r)) => {
            out.write_str("[\"unknown\",")?;
            refinements(out, r)?;
            out.write_str("]")
        }
        Value::Bool(b) => write!(out, "[\"bool\",{b}]"),
        Value::Number(n) => {
            out.write_str("[\"number\",\"")?;
            n.write_canonical(out)?;
            out.write_str("\"]")
        }
        Value::String(s) => {
            out.write_str("[\"string\",")?;
            string(out, s)?;
            out.write_str("]")
        }
        Value::List(xs) => seq(out, "list", xs),
        Value::Tuple(xs) => seq(out, "tuple", xs),
        Value::Set(xs) => {
            let mut texts: Vec<String> = xs.iter().map(to_string).collect();
            texts.sort_unstable();
            out.write_str("[\"set\",[")?;
            for (i, t) in texts.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                out.write_str(t)?;
            }
            out.write_str("]]")
        }
        Value::Map(es) => entries(out, "map", es),
        Value::Object(es) => entries(out, "object", es),
        Value::Dynamic(d) => {
            out.write_str("[\"dynamic\",")?;
            write!(out, "{}", d.ty)?;
            out.write_char(',')?;
            write(out, &d.value)?;
            out.write_str("]")
        }
    }
}

fn seq(out: &mut impl Write, tag: &str, xs: &[Value<'_>]) -> fmt::Result {
    write!(out, "[\"{tag}\",[")?;
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        write(out, x)?;
    }
    out.write_str("]]")
}

fn entries(out: &mut impl Write, tag: &str, es: &[(&str, Value<'_>)]) -> fmt::Result {
    write!(out, "[\"{tag}\",{{")?;
    // Maps and objects are already sorted by key bytes.
    for (i, (k, x)) in es.iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        string(out, k)?;
        out.write_char(':')?;
        write(out, x)?;
    }
    out.write_str("}]")
}

fn refinements(out: &mut impl Write, r: &Refinements<'_>) -> fmt::Result {
    // Keys in sorted order: len_lower, len_upper, lower, nullness, prefix, upper.
    let mut first = true;
    let mut key = |out: &mut dyn Write, k: &str| -> fmt::Result {
        out.write_str(if first { "{" } else { "," })?;
        first = false;
        write!(out, "\"{k}\":")
    };
    if let Some(n) = r.len_lower {
        key(out, "len_lower")?;
        write!(out, "{n}")?;
    }
    if let Some(n) = r.len_upper {
        key(out, "len_upper")?;
        write!(out, "{n}")?;
    }
    if let Some((n, inc)) = r.lower {
        key(out, "lower")?;
        write!(out, "[\"{n}\",{inc}]")?;
    }
    if r.not_null {
        key(out, "nullness")?;
        out.write_str("false")?;
    }
    if let Some(p) = r.prefix {
        key(out, "prefix")?;
        string(out, p)?;
    }
    if let Some((n, inc)) = r.upper {
        key(out, "upper")?;
        write!(out, "[\"{n}\",{inc}]")?;
    }
    if first {
        out.write_str("{")?;
    }
    out.write_str("}")
}
