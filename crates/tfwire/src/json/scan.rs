//! Scanning JSON text byte by byte: whitespace, strings (with unescaping) and numbers.
//!
//! These functions work on a complete buffer and an index; they never allocate unless a
//! string has escapes (then the unescaped text goes into the arena).

use crate::error::{ErrorKind, Fail};
use bumpalo::Bump;

/// Index of the first non-whitespace byte at or after `i`.
#[inline]
pub(crate) fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    while i < buf.len() && matches!(buf[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// Why a JSON string or number could not be scanned: [`ErrorKind::Syntax`] at the index of
/// the offending byte (the length of the buffer where it ended too soon).
#[cold]
#[inline(never)]
fn err<T>(at: usize, what: &'static str) -> Result<T, Box<Fail>> {
    Err(Fail::new(ErrorKind::Syntax(what.to_owned()), at))
}

/// Scans the string whose opening quote is at `i`. Returns the string (borrowed when it has
/// no escapes, else unescaped into `bump`) and the index after the closing quote.
///
/// Invalid UTF-8 and lone surrogate escapes become U+FFFD, as Go's `encoding/json` (and so
/// go-cty) reads them.
pub(crate) fn string<'a>(
    bump: &'a Bump,
    buf: &'a [u8],
    i: usize,
) -> Result<(&'a str, usize), Box<Fail>> {
    debug_assert_eq!(buf.get(i), Some(&b'"'));
    let start = i + 1;
    let mut j = start;
    let mut escapes = false;
    loop {
        match memchr::memchr3(b'"', b'\\', 0, &buf[j..]).map(|k| j + k) {
            // A control byte below 0x20 other than NUL is found by the check below.
            None => return err(buf.len(), "unterminated string"),
            Some(k) if buf[k] == b'"' => {
                if let Some(c) = buf[j..k].iter().position(|&b| b < 0x20) {
                    return err(j + c, "control character in string");
                }
                j = k;
                break;
            }
            Some(k) if buf[k] == b'\\' => {
                if let Some(c) = buf[j..k].iter().position(|&b| b < 0x20) {
                    return err(j + c, "control character in string");
                }
                escapes = true;
                if k + 1 >= buf.len() {
                    return err(buf.len(), "unterminated string");
                }
                j = k + 2;
            }
            Some(k) => return err(k, "control character in string"),
        }
    }
    let raw = &buf[start..j];
    if !escapes {
        let s = match core::str::from_utf8(raw) {
            Ok(s) => s,
            Err(_) => bump.alloc_str(&String::from_utf8_lossy(raw)),
        };
        return Ok((s, j + 1));
    }
    let mut out = bumpalo::collections::String::with_capacity_in(raw.len(), bump);
    let mut k = 0;
    while k < raw.len() {
        let b = raw[k];
        if b != b'\\' {
            // Copy the run up to the next backslash (lossily if not UTF-8).
            let end = raw[k..]
                .iter()
                .position(|&b| b == b'\\')
                .map_or(raw.len(), |p| k + p);
            out.push_str(&String::from_utf8_lossy(&raw[k..end]));
            k = end;
            continue;
        }
        let at = start + k;
        let e = raw[k + 1];
        k += 2;
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let Some(hi) = hex4(raw, k) else {
                    return err(at, "invalid \\u escape");
                };
                k += 4;
                if (0xd800..0xdc00).contains(&hi) {
                    // A high surrogate: a low one must follow to make a pair.
                    if raw.get(k) == Some(&b'\\') && raw.get(k + 1) == Some(&b'u') {
                        if let Some(lo) =
                            hex4(raw, k + 2).filter(|lo| (0xdc00..0xe000).contains(lo))
                        {
                            k += 6;
                            char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))
                                .unwrap_or('\u{fffd}')
                        } else {
                            '\u{fffd}'
                        }
                    } else {
                        '\u{fffd}'
                    }
                } else {
                    char::from_u32(hi).unwrap_or('\u{fffd}')
                }
            }
            _ => return err(at, "invalid escape in string"),
        };
        out.push(c);
    }
    Ok((out.into_bump_str(), j + 1))
}

fn hex4(raw: &[u8], k: usize) -> Option<u32> {
    let h = raw.get(k..k + 4)?;
    let mut v = 0u32;
    for &b in h {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// Scans the number starting at `i` (RFC 8259 grammar:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) and returns the index after it.
pub(crate) fn number(buf: &[u8], i: usize) -> Result<usize, Box<Fail>> {
    number_end(buf, i).or_else(|at| err(at, "invalid number"))
}

/// [`number`] without the fault: the index after the number, or that of the offending byte.
#[inline]
pub(crate) fn number_end(buf: &[u8], i: usize) -> Result<usize, usize> {
    let mut j = i;
    if buf.get(j) == Some(&b'-') {
        j += 1;
    }
    match buf.get(j) {
        Some(b'0') => j += 1,
        Some(b'1'..=b'9') => {
            while j < buf.len() && buf[j].is_ascii_digit() {
                j += 1;
            }
        }
        _ => return Err(j),
    }
    if buf.get(j) == Some(&b'.') {
        j += 1;
        let f = j;
        while j < buf.len() && buf[j].is_ascii_digit() {
            j += 1;
        }
        if j == f {
            return Err(j);
        }
    }
    if matches!(buf.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(buf.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let e = j;
        while j < buf.len() && buf[j].is_ascii_digit() {
            j += 1;
        }
        if j == e {
            return Err(j);
        }
    }
    Ok(j)
}

/// Scans a literal (`true`, `false`, `null`) at `i`; returns the index after it.
pub(crate) fn literal(buf: &[u8], i: usize, word: &'static [u8]) -> Result<usize, Box<Fail>> {
    if buf[i..].starts_with(word) {
        Ok(i + word.len())
    } else {
        err(i, "invalid literal")
    }
}

/// A description of the byte at `i` for "invalid character" messages.
pub(crate) fn describe(buf: &[u8], i: usize) -> String {
    match buf.get(i) {
        None => "end of input".to_owned(),
        Some(&b) if b.is_ascii_graphic() => format!("character '{}'", b as char),
        Some(&b) => format!("byte 0x{b:02x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        let bump = Bump::new();
        let s = |t: &str| {
            string(&bump, bump.alloc_slice_copy(t.as_bytes()), 0).map(|(s, e)| (s.to_owned(), e))
        };
        assert_eq!(s(r#""abc" "#), Ok(("abc".into(), 5)));
        assert_eq!(
            s(r#""a\"b\\c\/d\n\t\u0000\u00e9\ud83d\ude00""#).unwrap().0,
            "a\"b\\c/d\n\t\0é😀"
        );
        assert_eq!(s(r#""\ud800x""#).unwrap().0, "\u{fffd}x");
        assert!(s(r#""abc"#).is_err());
        assert!(s("\"a\nb\"").is_err());
        assert!(s(r#""\q""#).is_err());
        assert!(s(r#""\u12""#).is_err());
        let lossy = string(&bump, b"\"a\xffb\"", 0).unwrap().0;
        assert_eq!(lossy, "a\u{fffd}b");
    }

    #[test]
    fn numbers() {
        for (t, end) in [
            ("0", 1),
            ("-0", 2),
            ("12.5e-3,", 7),
            ("012", 1),
            ("1E+2", 4),
        ] {
            assert_eq!(number(t.as_bytes(), 0), Ok(end), "{t}");
        }
        for t in ["-", "+1", ".5", "1.", "1e", "-a"] {
            assert!(number(t.as_bytes(), 0).is_err(), "{t}");
        }
    }
}
