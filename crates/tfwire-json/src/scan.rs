//! Scanning JSON text byte by byte: whitespace, strings (with unescaping) and numbers.
//!
//! These functions work on a complete buffer and an index; they never allocate unless a
//! string has escapes (then the unescaped text goes into the arena). They are the byte-wise
//! reader's pieces (tfwire's type JSON, canonical text and its fallback JSON decoder) and
//! the number grammar of the whole layer ([`is_number`], [`number_end`]).
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let text = br#"  "a\nb" -12.5e3"#;
//! let i = tfwire_json::scan::skip_ws(text, 0);
//! let (s, end) = tfwire_json::scan::string(&bump, text, i)?;
//! assert_eq!(s, "a\nb");
//! let start = tfwire_json::scan::skip_ws(text, end);
//! assert_eq!(tfwire_json::scan::number(text, start)?, text.len());
//! # Ok::<(), tfwire_json::Error>(())
//! ```

use crate::error::Error;
use bumpalo::Bump;

/// Index of the first non-whitespace byte at or after `i`.
#[inline]
pub fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    while i < buf.len() && matches!(buf[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// Why a JSON string or number could not be scanned: [`ErrorKind::Syntax`](crate::ErrorKind::Syntax)
/// at the index of the offending byte (the length of the buffer where it ended too soon).
#[cold]
#[inline(never)]
fn err<T>(at: usize, what: &'static str) -> Result<T, Error> {
    Err(Error::syntax(what, at))
}

/// Scans the string whose opening quote is at `i`. Returns the string (borrowed when it has
/// no escapes, else unescaped into `bump`) and the index after the closing quote.
///
/// Invalid UTF-8 and lone surrogate escapes become U+FFFD, as Go's `encoding/json` (and so
/// go-cty) reads them.
pub fn string<'a>(bump: &'a Bump, buf: &'a [u8], i: usize) -> Result<(&'a str, usize), Error> {
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

/// Validates the string whose opening quote is at `i` exactly as the tape parser (simd-json)
/// does, without unescaping it: no control byte below 0x20, only JSON's escapes, `\u` with
/// four hex digits, a high surrogate escape followed by a low one, no low surrogate escape
/// on its own. Returns the index after the closing quote and whether the string has an
/// escape; `Err` with the index of the offending byte (the buffer's length where the string
/// does not end). UTF-8 is not checked here (the caller checks the whole text once).
///
/// Runs of plain bytes are skipped eight at a time ([`crate::swar`]).
///
/// ```
/// use tfwire_json::scan::string_end;
/// assert_eq!(string_end(br#""a\"b" "#, 0), Ok((6, true)));
/// assert_eq!(string_end(br#""\ud83d\ude00""#, 0), Ok((14, true)));
/// assert_eq!(string_end(br#""\ude00""#, 0), Err(1));
/// assert_eq!(string_end(b"\"a\nb\"", 0), Err(2));
/// ```
#[inline]
pub fn string_end(buf: &[u8], i: usize) -> Result<(usize, bool), usize> {
    debug_assert_eq!(buf.get(i), Some(&b'"'));
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        // Eight bytes at a time, to the first that is not plain.
        let c = match crate::swar::try_load(buf, j) {
            Some(w) => {
                let special = crate::swar::bytes_eq(w, b'"')
                    | crate::swar::bytes_eq(w, b'\\')
                    | crate::swar::bytes_below(w, 0x20);
                if special == 0 {
                    j += 8;
                    continue;
                }
                j += (special.trailing_zeros() / 8) as usize;
                buf[j]
            }
            None => *buf.get(j).ok_or(buf.len())?,
        };
        match c {
            b'"' => return Ok((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                match *buf.get(j + 1).ok_or(buf.len())? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                    b'u' => {
                        let unit = hex4(buf, j + 2).ok_or(j)?;
                        if (0xd800..0xdc00).contains(&unit) {
                            // A high surrogate: a `\u` low surrogate must follow.
                            let low = (buf.get(j + 6..j + 8) == Some(b"\\u"))
                                .then(|| hex4(buf, j + 8))
                                .flatten();
                            if !low.is_some_and(|lo| (0xdc00..0xe000).contains(&lo)) {
                                return Err(j);
                            }
                            j += 12;
                        } else if (0xdc00..0xe000).contains(&unit) {
                            return Err(j);
                        } else {
                            j += 6;
                        }
                    }
                    _ => return Err(j),
                }
            }
            c if c < 0x20 => return Err(j),
            _ => j += 1,
        }
    }
}

/// Whether the raw contents `raw` of a string [`string_end`] accepted spell `text` once
/// unescaped (`\u` escapes and surrogate pairs decoded).
///
/// ```
/// assert!(tfwire_json::scan::unescape_eq(br#"a\u0041\n\ud83d\ude00"#, "aA\n\u{1f600}".as_bytes()));
/// assert!(!tfwire_json::scan::unescape_eq(br#"a\u0041"#, b"aa"));
/// ```
pub fn unescape_eq(raw: &[u8], text: &[u8]) -> bool {
    if !raw.contains(&b'\\') {
        return raw == text;
    }
    let mut rest = text;
    let mut i = 0;
    let mut buf = [0u8; 4];
    while let Some(&b) = raw.get(i) {
        let piece: &[u8] = if b != b'\\' {
            i += 1;
            core::slice::from_ref(&raw[i - 1])
        } else {
            let e = raw.get(i + 1).copied();
            i += 2;
            match e {
                Some(b'b') => b"\x08",
                Some(b'f') => b"\x0c",
                Some(b'n') => b"\n",
                Some(b'r') => b"\r",
                Some(b't') => b"\t",
                Some(b'u') => {
                    let Some(mut unit) = hex4(raw, i) else {
                        return false;
                    };
                    i += 4;
                    if (0xd800..0xdc00).contains(&unit) {
                        let Some(lo) = hex4(raw, i + 2) else {
                            return false;
                        };
                        unit =
                            0x10000 + ((unit - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff);
                        i += 6;
                    }
                    let Some(c) = char::from_u32(unit) else {
                        return false;
                    };
                    c.encode_utf8(&mut buf).as_bytes()
                }
                Some(b'"') => b"\"",
                Some(b'\\') => b"\\",
                Some(b'/') => b"/",
                _ => return false,
            }
        };
        match rest.strip_prefix(piece) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

/// Scans the number starting at `i` (RFC 8259 grammar:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) and returns the index after it.
pub fn number(buf: &[u8], i: usize) -> Result<usize, Error> {
    number_end(buf, i).or_else(|at| err(at, "invalid number"))
}

/// [`number`] without the fault: the index after the number, or that of the offending byte.
#[inline]
pub fn number_end(buf: &[u8], i: usize) -> Result<usize, usize> {
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
pub fn literal(buf: &[u8], i: usize, word: &'static [u8]) -> Result<usize, Error> {
    if buf[i..].starts_with(word) {
        Ok(i + word.len())
    } else {
        err(i, "invalid literal")
    }
}

/// Whether `text` is exactly one JSON number (RFC 8259:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), the grammar every reader of the
/// workspace checks numbers with.
///
/// ```
/// assert!(tfwire_json::is_number(b"-0.5e+10") && !tfwire_json::is_number(b"01"));
/// ```
pub fn is_number(text: &[u8]) -> bool {
    matches!(number_end(text, 0), Ok(n) if n == text.len())
}

/// A description of the byte at `i` for "invalid character" messages.
pub fn describe(buf: &[u8], i: usize) -> String {
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
    fn json_number_grammar() {
        for ok in [
            "0", "-0", "1", "-12", "1.5", "0.0", "1e400", "1E+4", "-1.25e-7", "10",
        ] {
            assert!(is_number(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1.e5", "9e", "--1", "1-", "1e5.5", "0x1",
        ] {
            assert!(!is_number(bad.as_bytes()), "{bad}");
        }
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
