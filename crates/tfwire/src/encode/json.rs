//! The JSON writer: go-cty's `ctyjson.Marshal`.

use super::sink::{Sink, Target, check_number, unencodable};
use crate::error::ErrorKind;
use crate::json::write_go_str;
use crate::number::{Number, push_i64, push_u64, write_decimal};
use crate::program::AttrNode;
use crate::ty::Ty;
use crate::value::Refinements;
use core::fmt::Write as _;

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

/// Writes `s` quoted, as [`write_go_str`] would, when none of its bytes needs escaping
/// (the common case), with one reservation; `false`, nothing written, when some byte needs a
/// closer look.
#[inline]
fn plain_to(out: &mut String, s: &str) -> bool {
    if scan(s.as_bytes()).care {
        return false;
    }
    push_quoted(out, s);
    true
}

#[inline(always)]
fn push_quoted(out: &mut String, s: &str) {
    out.reserve(s.len() + 3);
    out.push('"');
    out.push_str(s);
    out.push('"');
}

/// What one pass over a string's bytes found.
struct Scan {
    /// Some byte is one `write_go_str` escapes or looks at.
    care: bool,
    /// Every byte is ASCII (known only when `care` is false; `false` otherwise).
    ascii: bool,
}

/// One pass over `b`, eight bytes at a time with `write_go_str`'s own word test, the last
/// bytes with an overlapping load (or padded), stopping at the first byte that needs care.
#[inline(always)]
fn scan(b: &[u8]) -> Scan {
    use crate::json::word_needs_care;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const CARE: Scan = Scan {
        care: true,
        ascii: false,
    };
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    if n >= 8 {
        // The last eight bytes (overlapping the loop's last word), then the words before.
        let last = word(n - 8);
        if word_needs_care(last) {
            return CARE;
        }
        let mut high = last;
        let mut i = 0;
        while i + 8 < n {
            let w = word(i);
            if word_needs_care(w) {
                return CARE;
            }
            high |= w;
            i += 8;
        }
        return Scan {
            care: false,
            ascii: high & HIGH == 0,
        };
    }
    // Fewer than eight bytes: two overlapping halves, or the bytes padded with `a`.
    let w = if n >= 4 {
        let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        u64::from(half(0)) | u64::from(half(n - 4)) << 32
    } else {
        let mut w = [b'a'; 8];
        for (d, s) in w.iter_mut().zip(b) {
            *d = *s;
        }
        u64::from_le_bytes(w)
    };
    if word_needs_care(w) {
        return CARE;
    }
    Scan {
        care: false,
        ascii: w & HIGH == 0,
    }
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
        if plain_to(self.out, s) {
            return Ok(());
        }
        let _ = write_go_str(self.out, s);
        Ok(())
    }

    /// The scan that finds the bytes to escape also finds ASCII strings, which are in NFC.
    #[inline]
    fn nfc_string(&mut self, s: &str) -> Result<bool, ErrorKind> {
        let scan = scan(s.as_bytes());
        if !scan.ascii && !crate::nfc::is_nfc(s) {
            return Ok(false);
        }
        if scan.care {
            let _ = write_go_str(self.out, s);
        } else {
            push_quoted(self.out, s);
        }
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

#[cfg(test)]
mod tests {
    use super::{plain_to, scan, write_go_str};

    /// The fast path writes exactly what `write_go_str` writes whenever it takes a string
    /// (and knows whether it is ASCII), and leaves every string with a byte to escape to it: each ASCII character and a few
    /// others (U+2028 and its neighbours sharing the lead byte 0xE2) at every position of
    /// strings of every length up to 40 (the short, overlapping and padded loads).
    #[test]
    fn plain_strings_match_go_escaping() {
        let mut chars: Vec<char> = (0u8..0x80).map(char::from).collect();
        chars.extend(['é', '\u{2026}', '\u{2028}', '\u{2029}', '日']);
        let (mut fast, mut slow) = (String::new(), String::new());
        let mut escaped = 0;
        for len in 1..40 {
            for at in 0..len {
                for &c in &chars {
                    let s: String = (0..len).map(|i| if i == at { c } else { 'x' }).collect();
                    fast.clear();
                    slow.clear();
                    write_go_str(&mut slow, &s).unwrap();
                    if plain_to(&mut fast, &s) {
                        assert_eq!(fast, slow, "{s:?}");
                        assert_eq!(scan(s.as_bytes()).ascii, s.is_ascii(), "{s:?}");
                    } else {
                        assert!(fast.is_empty(), "{s:?}: nothing written");
                    }
                    if slow != format!("\"{s}\"") {
                        escaped += 1;
                        assert!(fast.is_empty(), "{s:?} needs escaping");
                    }
                }
            }
        }
        assert!(escaped > 0);
        fast.clear();
        assert!(plain_to(&mut fast, ""));
        assert_eq!(fast, "\"\"");
    }
}
