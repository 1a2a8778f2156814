//! [`JsonWriter`]: the one way the workspace writes a JSON document (objects, arrays, keys,
//! strings with one of the three escape rules, exact numbers), with the commas and colons
//! placed by the writer rather than by each caller.

use crate::{escape, scan};
use core::fmt;

/// The escape rule a [`JsonWriter`] writes strings (and keys) with; one per rule of the
/// [escape module's table](crate::escape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Escape {
    /// [`write_go_str`](crate::escape::write_go_str): Go's `encoding/json`, as go-cty and the real
    /// clients write values and types.
    Go,
    /// [`write_canonical_str`](crate::escape::write_canonical_str): serde_json's compact rule.
    Canonical,
    /// [`write_safe_str`](crate::escape::write_safe_str): for people (terminals, logs, reports).
    Safe,
}

/// A compact JSON writer over any [`fmt::Write`] (`String`, a `Formatter`, `&mut` either):
/// objects, arrays, keys and values, the separators written by the writer.
///
/// The writer does not check that calls nest (a key outside an object, a missing
/// [`end_object`](Self::end_object)): those are programming errors of the caller, which its
/// tests catch by parsing the output. What it does check is what could come from a document:
/// [`number`](Self::number) refuses text that is not a JSON number, so a number copied from
/// input can never inject anything.
///
/// ```
/// use tfwire_json::{Escape, JsonWriter};
///
/// let mut out = String::new();
/// let mut w = JsonWriter::new(&mut out, Escape::Safe);
/// w.begin_object()?;
/// w.key("name")?;
/// w.string("a\u{1b}b")?;
/// w.key("sizes")?;
/// w.begin_array()?;
/// w.number("1e400")?;
/// w.uint(2)?;
/// w.null()?;
/// w.end_array()?;
/// w.member_bool("ok", true)?;
/// w.end_object()?;
/// assert_eq!(out, r#"{"name":"a\u001bb","sizes":[1e400,2,null],"ok":true}"#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
#[derive(Debug)]
pub struct JsonWriter<W> {
    out: W,
    escape: Escape,
    /// Whether the next value or key is the first of its container (or follows a key), so
    /// takes no comma.
    fresh: bool,
}

impl<W: fmt::Write> JsonWriter<W> {
    /// A writer appending to `out`, writing strings with `escape`.
    pub fn new(out: W, escape: Escape) -> Self {
        Self {
            out,
            escape,
            fresh: true,
        }
    }

    /// The output the writer appended to.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The output written so far (to check its length against a limit as a document
    /// grows, say).
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output, mutably: to reserve room before a long value, say. What is written
    /// through it bypasses the writer (no comma, no escaping).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The escape rule strings are written with.
    pub fn escape(&self) -> Escape {
        self.escape
    }

    fn separate(&mut self) -> fmt::Result {
        if self.fresh {
            self.fresh = false;
            Ok(())
        } else {
            self.out.write_char(',')
        }
    }

    fn quoted(&mut self, s: &str) -> fmt::Result {
        match self.escape {
            Escape::Go => escape::write_go_str(&mut self.out, s),
            Escape::Canonical => escape::write_canonical_str(&mut self.out, s),
            Escape::Safe => escape::write_safe_str(&mut self.out, s),
        }
    }

    /// Opens an object (`{`).
    pub fn begin_object(&mut self) -> fmt::Result {
        self.separate()?;
        self.fresh = true;
        self.out.write_char('{')
    }

    /// Closes the innermost object (`}`).
    pub fn end_object(&mut self) -> fmt::Result {
        self.fresh = false;
        self.out.write_char('}')
    }

    /// Opens an array (`[`).
    pub fn begin_array(&mut self) -> fmt::Result {
        self.separate()?;
        self.fresh = true;
        self.out.write_char('[')
    }

    /// Closes the innermost array (`]`).
    pub fn end_array(&mut self) -> fmt::Result {
        self.fresh = false;
        self.out.write_char(']')
    }

    /// Writes an object member's key (and its colon); the next call writes its value.
    pub fn key(&mut self, key: &str) -> fmt::Result {
        self.separate()?;
        self.quoted(key)?;
        self.fresh = true;
        self.out.write_char(':')
    }

    /// Writes a string value.
    pub fn string(&mut self, s: &str) -> fmt::Result {
        self.separate()?;
        self.quoted(s)
    }

    /// Writes a number from its exact text (a number copied from a document, or
    /// tfwire's `Number` text): refused with [`fmt::Error`], and nothing written,
    /// unless `text` is one JSON number ([`is_number`](crate::scan::is_number)).
    pub fn number(&mut self, text: &str) -> fmt::Result {
        if !scan::is_number(text.as_bytes()) {
            return Err(fmt::Error);
        }
        self.separate()?;
        self.out.write_str(text)
    }

    /// Writes an unsigned integer.
    pub fn uint(&mut self, n: u64) -> fmt::Result {
        self.separate()?;
        write!(self.out, "{n}")
    }

    /// Writes a signed integer.
    pub fn int(&mut self, n: i64) -> fmt::Result {
        self.separate()?;
        write!(self.out, "{n}")
    }

    /// Writes `true` or `false`.
    pub fn bool(&mut self, b: bool) -> fmt::Result {
        self.separate()?;
        self.out.write_str(if b { "true" } else { "false" })
    }

    /// Writes `null`.
    pub fn null(&mut self) -> fmt::Result {
        self.separate()?;
        self.out.write_str("null")
    }

    /// Writes one complete JSON value the caller already holds as text (a value another
    /// writer of the workspace produced, or a document's own text checked by its parser). It
    /// is written as it is: the caller answers for it being one valid value.
    pub fn raw(&mut self, json: &str) -> fmt::Result {
        self.separate()?;
        self.out.write_str(json)
    }

    /// Writes a value as its `Display` text writes it (`f64` with a format, tfwire's
    /// `Number`), without a copy: like [`raw`](Self::raw), the caller answers for the text
    /// being one JSON value.
    pub fn display(&mut self, value: impl fmt::Display) -> fmt::Result {
        self.separate()?;
        write!(self.out, "{value}")
    }

    /// A string member: [`key`](Self::key) then [`string`](Self::string).
    pub fn member_str(&mut self, key: &str, value: &str) -> fmt::Result {
        self.key(key)?;
        self.string(value)
    }

    /// An unsigned integer member.
    pub fn member_uint(&mut self, key: &str, value: u64) -> fmt::Result {
        self.key(key)?;
        self.uint(value)
    }

    /// A boolean member.
    pub fn member_bool(&mut self, key: &str, value: bool) -> fmt::Result {
        self.key(key)?;
        self.bool(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nests_and_separates() {
        let mut out = String::new();
        let mut w = JsonWriter::new(&mut out, Escape::Go);
        w.begin_array().unwrap();
        w.begin_object().unwrap();
        w.end_object().unwrap();
        w.begin_array().unwrap();
        w.end_array().unwrap();
        w.begin_object().unwrap();
        w.key("<k>").unwrap();
        w.begin_array().unwrap();
        w.int(-3).unwrap();
        w.raw("{\"x\":1}").unwrap();
        w.end_array().unwrap();
        w.member_uint("n", 7).unwrap();
        w.end_object().unwrap();
        w.string("\u{2028}").unwrap();
        w.end_array().unwrap();
        assert_eq!(
            out,
            r#"[{},[],{"\u003ck\u003e":[-3,{"x":1}],"n":7},"\u2028"]"#
        );
    }

    #[test]
    fn shows_what_it_wrote() {
        let mut w = JsonWriter::new(String::new(), Escape::Go);
        w.begin_array().unwrap();
        w.uint(1).unwrap();
        assert_eq!(w.get_ref(), "[1");
        w.end_array().unwrap();
        assert_eq!(w.into_inner(), "[1]");
    }

    #[test]
    fn refuses_a_number_that_is_not_one() {
        for bad in ["", "01", "1,2", "NaN", "1e", "1}", " 1"] {
            let mut out = String::new();
            let mut w = JsonWriter::new(&mut out, Escape::Safe);
            w.begin_array().unwrap();
            assert!(w.number(bad).is_err(), "{bad:?}");
            w.end_array().unwrap();
            assert_eq!(out, "[]");
        }
    }

    #[test]
    fn each_rule_escapes_as_its_writer() {
        let s = "a\u{8}<\u{1b}\u{2028}";
        type Writer = fn(&mut String, &str) -> fmt::Result;
        let rules: [(Escape, Writer); 3] = [
            (Escape::Go, |o, s| crate::escape::write_go_str(o, s)),
            (Escape::Canonical, |o, s| {
                crate::escape::write_canonical_str(o, s)
            }),
            (Escape::Safe, |o, s| crate::escape::write_safe_str(o, s)),
        ];
        for (escape, writer) in rules {
            let mut out = String::new();
            JsonWriter::new(&mut out, escape).string(s).unwrap();
            let mut expected = String::new();
            writer(&mut expected, s).unwrap();
            assert_eq!(out, expected, "{escape:?}");
        }
    }
}
