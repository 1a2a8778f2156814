//! The JSON writer: go-cty's `ctyjson.Marshal`.

use super::sink::{Sink, Target, check_number, unencodable};
use crate::error::ErrorKind;
use crate::number::{Number, push_i64, push_u64, write_decimal};
use crate::program::AttrNode;
use crate::ty::Ty;
use crate::value::Refinements;
use core::fmt::Write as _;
use tfwire_json::escape::{GoScan, push_go_str};
use tfwire_json::write_go_str;

pub(crate) struct Json<'o> {
    out: &'o mut String,
    start: usize,
}

impl<'o> Json<'o> {
    pub(crate) fn new(out: &'o mut String) -> Json<'o> {
        let start = out.len();
        Json { out, start }
    }
}

/// Writes a number as a JSON number: a plain decimal without exponent (go-cty's
/// `Text('f', -1)`); a float as the shortest decimal that reads back as the same binary64.
pub(crate) fn number_to(out: &mut String, n: Number<'_>) -> Result<(), ErrorKind> {
    match n {
        Number::Int(i) => push_i64(out, i),
        Number::Uint(u) => push_u64(out, u),
        // go-cty keeps the sign of a decimal zero (`-0`, `-0.0` read from JSON) and writes
        // `-0`; every other decimal is written normalized (no exponent, no `+`, no leading or
        // trailing zeros). One parse checks the text and writes it.
        Number::Decimal(t) => {
            if !write_decimal(t, true, out) {
                return Err(ErrorKind::InvalidNumber(t.to_owned()));
            }
        }
        Number::F64(_) | Number::F32(_) => {
            check_number(n)?;
            if n.is_infinite() {
                return Err(unencodable("cannot serialize infinity as JSON".to_owned()));
            }
            let _ = match n {
                // Rust's `Display` for floats is the shortest round-trip decimal, never in
                // exponent notation, `-0` for negative zero (as go-cty writes it).
                Number::F32(f) => write!(out, "{}", f as f64),
                _ => write!(out, "{}", n.to_f64()),
            };
        }
    }
    Ok(())
}

impl Sink for Json<'_> {
    fn len(&self) -> usize {
        self.out.len() - self.start
    }

    fn null(&mut self) {
        self.out.push_str("null");
    }

    fn unknown(&mut self, _: Option<&Refinements<'_>>, _: Target) -> Result<(), ErrorKind> {
        Err(unencodable(
            "an unknown value cannot be written as JSON".to_owned(),
        ))
    }

    fn bool(&mut self, b: bool) {
        self.out.push_str(if b { "true" } else { "false" });
    }

    fn number(&mut self, n: Number<'_>) -> Result<(), ErrorKind> {
        number_to(self.out, n)
    }

    fn string(&mut self, s: &str) -> Result<(), ErrorKind> {
        push_go_str(self.out, s, GoScan::of(s));
        Ok(())
    }

    /// The scan that finds the bytes to escape also finds ASCII strings, which are in NFC.
    #[inline]
    fn nfc_string(&mut self, s: &str) -> Result<bool, ErrorKind> {
        let scan = GoScan::of(s);
        if !scan.ascii && !crate::nfc::is_nfc(s) {
            return Ok(false);
        }
        push_go_str(self.out, s, scan);
        Ok(true)
    }

    fn begin_seq(&mut self, _: usize) -> Result<(), ErrorKind> {
        self.out.push('[');
        Ok(())
    }

    fn seq_elem(&mut self, i: usize) {
        if i > 0 {
            self.out.push(',');
        }
    }

    fn end_seq(&mut self) {
        self.out.push(']');
    }

    fn begin_map(&mut self, _: usize) -> Result<(), ErrorKind> {
        self.out.push('{');
        Ok(())
    }

    fn map_key(&mut self, i: usize, key: &str) -> Result<(), ErrorKind> {
        if i > 0 {
            self.out.push(',');
        }
        let _ = write_go_str(self.out, key);
        self.out.push(':');
        Ok(())
    }

    #[inline]
    fn attr_key(&mut self, i: usize, attr: &AttrNode) -> Result<(), ErrorKind> {
        self.out.reserve(attr.json_key.len() + 2);
        if i > 0 {
            self.out.push(',');
        }
        self.out.push_str(&attr.json_key);
        self.out.push(':');
        Ok(())
    }

    fn end_map(&mut self) {
        self.out.push('}');
    }

    fn begin_dynamic(&mut self, _: Ty<'_>) -> Result<(), ErrorKind> {
        // go-cty writes the value first.
        self.out.push_str("{\"value\":");
        Ok(())
    }

    fn end_dynamic(&mut self, ty: Ty<'_>) {
        let _ = write!(self.out, ",\"type\":{ty}}}");
    }
}
