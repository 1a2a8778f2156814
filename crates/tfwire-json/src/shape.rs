//! The shape check every simd-json setup runs before simd-json sees a document.
//!
//! simd-json sizes its tape (24 bytes a node) and structural index (4 bytes a node) from
//! the number of structural characters before its second stage checks the nesting depth,
//! so a gigabyte of `[` costs 28 GB before it is rejected. One pass over the bytes, with
//! no allocation, finds what a tape parser would refuse or could not afford.

use crate::error::{Error, ErrorKind};

/// Memory a tape parser (simd-json) needs for one node: a 24-byte tape entry and a 4-byte
/// structural index. Callers multiply a node budget by this to state it in bytes.
pub const JSON_NODE_BYTES: usize = 28;

/// Byte classes outside strings.
const OTHER: u8 = 0;
const OPEN: u8 = 1;
const CLOSE: u8 = 2;
const SEPARATOR: u8 = 3;
const QUOTE: u8 = 4;
const DIGIT: u8 = 5;
const EXPONENT: u8 = 6;

static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    t[b'[' as usize] = OPEN;
    t[b'{' as usize] = OPEN;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t[b',' as usize] = SEPARATOR;
    t[b':' as usize] = SEPARATOR;
    t[b'"' as usize] = QUOTE;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = DIGIT;
        d += 1;
    }
    t[b'e' as usize] = EXPONENT;
    t[b'E' as usize] = EXPONENT;
    t
};

/// Whether `b` outside a string closes an array or object (`]` `}`) or separates its
/// members (`,` `:`): the punctuation that never opens a value.
#[inline]
pub(crate) fn is_close_or_separator(b: u8) -> bool {
    matches!(CLASS[b as usize], CLOSE | SEPARATOR)
}

/// Checks, before a tape parser allocates anything for `input`, that its arrays and
/// objects nest at most `max_depth` deep and that it has at most `max_nodes` nodes
/// (brackets, commas, colons and strings outside strings: an upper bound, within a factor
/// of 2, on the tape entries of a valid document, whose scalars each follow a comma, a
/// colon or an opening bracket). Returns the node count.
///
/// The pass reads each byte once (string contents with `memchr`) and allocates nothing.
/// It does not validate the JSON: a document it accepts may still be rejected by the
/// parser, with the parser's own error.
///
/// ```
/// use tfwire_json::{ErrorKind, check_json_shape};
/// assert_eq!(check_json_shape(br#"{"a":[1,2],"b":"[["}"#, 2, 100)?, 11);
/// let e = check_json_shape(b"[[[", 2, 100).unwrap_err();
/// assert_eq!(e.kind(), &ErrorKind::TooDeep { max_depth: 2 });
/// assert_eq!(e.offset(), 2);
/// # Ok::<(), tfwire_json::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::TooDeep`] at the first bracket too deep, or
/// [`ErrorKind::TooManyNodes`] (at the end of the input) when the node count exceeds
/// `max_nodes`.
pub fn check_json_shape(input: &[u8], max_depth: usize, max_nodes: usize) -> Result<usize, Error> {
    json_shape(input, max_depth, max_nodes).map(|shape| shape.nodes)
}

/// What the shape pass ([`json_shape`]) found in a document it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonShape {
    /// The node count (see [`check_json_shape`]).
    pub nodes: usize,
    /// Whether a number outside strings has an exponent or more than 308 digits in a row:
    /// then it may be beyond `f64`'s range (`1e400`), which simd-json refuses, and
    /// [`TapeParser::parse_document`](crate::tape::TapeParser::parse_document) sets such
    /// numbers aside before parsing. `false` for nearly every real document.
    pub wide_numbers: bool,
}

/// [`check_json_shape`], also telling whether the document may hold a number beyond
/// `f64`'s range ([`JsonShape::wide_numbers`]), in the same pass: the input for
/// [`TapeParser::parse_document`](crate::tape::TapeParser::parse_document).
///
/// ```
/// use tfwire_json::{JsonShape, json_shape};
/// let shape = json_shape(br#"{"a":[1,2.5e400],"b":"1e999"}"#, 8, 100).unwrap();
/// assert_eq!(shape, JsonShape { nodes: 11, wide_numbers: true });
/// assert!(!json_shape(br#"[true,false,"1e999",0.5]"#, 8, 100).unwrap().wide_numbers);
/// ```
///
/// # Errors
///
/// As [`check_json_shape`].
pub fn json_shape(input: &[u8], max_depth: usize, max_nodes: usize) -> Result<JsonShape, Error> {
    let mut depth = 0usize;
    let mut nodes = 0usize;
    // Digits in a row just before `i` (outside strings), and whether a number may be wide.
    let mut digits = 0usize;
    let mut wide = false;
    let mut i = 0;
    while i < input.len() {
        match CLASS[input[i] as usize] {
            OTHER => {
                digits = 0;
                // Indentation: pretty-printed states and plans are about half spaces, after
                // a line feed; step over them 8 at a time.
                if input[i] == b'\n' {
                    while let Some(w) = crate::swar::try_load(input, i + 1) {
                        let other = !crate::swar::bytes_eq(w, b' ') & crate::swar::HIGH;
                        if other != 0 {
                            i += (other.trailing_zeros() / 8) as usize;
                            break;
                        }
                        i += 8;
                    }
                }
            }
            DIGIT => {
                digits += 1;
                wide |= digits > 308;
            }
            EXPONENT => {
                // `e` after a digit: an exponent (`true` and `false` have no digit before).
                wide |= digits > 0;
                digits = 0;
            }
            OPEN => {
                digits = 0;
                depth += 1;
                nodes += 1;
                if depth > max_depth {
                    return Err(Error::new(ErrorKind::TooDeep { max_depth }, i));
                }
            }
            CLOSE => {
                digits = 0;
                depth = depth.saturating_sub(1);
                nodes += 1;
            }
            SEPARATOR => {
                digits = 0;
                nodes += 1;
            }
            _ => {
                // A string: skip to its closing quote.
                digits = 0;
                nodes += 1;
                i = closing_quote(input, i + 1).unwrap_or(input.len());
            }
        }
        i += 1;
    }
    if nodes > max_nodes {
        return Err(Error::new(
            ErrorKind::TooManyNodes {
                count: nodes,
                max: max_nodes,
            },
            input.len(),
        ));
    }
    Ok(JsonShape {
        nodes,
        wide_numbers: wide,
    })
}

/// The offset of the quote that closes a string whose text starts at `i`, stepping over
/// escapes (without checking them); `None` when the string does not end. Most strings are
/// short (keys, names), so the first 32 bytes after each escape are looked at 8 at a time
/// before `memchr` takes over.
#[inline]
pub(crate) fn closing_quote(input: &[u8], mut i: usize) -> Option<usize> {
    'escape: loop {
        for _ in 0..4 {
            let Some(w) = crate::swar::try_load(input, i) else {
                break;
            };
            let stop = crate::swar::bytes_eq(w, b'"') | crate::swar::bytes_eq(w, b'\\');
            if stop != 0 {
                i += (stop.trailing_zeros() / 8) as usize;
                if input[i] == b'\\' {
                    i += 2;
                    continue 'escape;
                }
                return Some(i);
            }
            i += 8;
        }
        let at = i + memchr::memchr2(b'"', b'\\', input.get(i..)?)?;
        if input[at] == b'"' {
            return Some(at);
        }
        i = at + 2;
    }
}

/// The message for a document simd-json rejected (see [`crate::tape::TapeParser::parse`]), in the
/// words every JSON reader of the workspace uses (never simd-json's own `Debug` names); `max_depth` is
/// the depth the parser was given.
#[cold]
pub(crate) fn syntax_message(
    kind: &simd_json::ErrorType,
    character: Option<char>,
    max_depth: usize,
) -> String {
    use simd_json::ErrorType;
    match kind {
        ErrorType::Eof => "unexpected end of input".to_string(),
        ErrorType::TrailingData => "unexpected text after the end of the document".to_string(),
        ErrorType::ExpectedMapComma | ErrorType::ExpectedMapEnd => {
            "expected ',' or '}' after an object member".to_string()
        }
        ErrorType::ExpectedArrayComma => "expected ',' or ']' after an array element".to_string(),
        ErrorType::ExpectedObjectColon => "expected ':' after an object key".to_string(),
        ErrorType::ExpectedObjectKey | ErrorType::KeyMustBeAString | ErrorType::BadKeyType => {
            "expected a string as object key".to_string()
        }
        ErrorType::InvalidEscape => "invalid escape sequence in a string".to_string(),
        ErrorType::InvalidUnicodeEscape | ErrorType::InvalidUnicodeCodepoint => {
            "invalid \\u escape in a string".to_string()
        }
        ErrorType::InvalidUtf8 => "the input is not valid UTF-8".to_string(),
        ErrorType::InvalidNumber | ErrorType::InvalidExponent => "invalid number".to_string(),
        ErrorType::UnterminatedString => "unterminated string".to_string(),
        ErrorType::DepthLimitExceeded => {
            format!("arrays and objects nested deeper than {max_depth} levels")
        }
        ErrorType::NoStructure => "the input holds no JSON value".to_string(),
        _ => match character {
            // Only a plain visible character is shown as itself; anything else as its code
            // point, so that no control or bidi character of the input reaches a terminal.
            Some(c) if c.is_ascii_graphic() || (c.is_alphanumeric() && !c.is_control()) => {
                format!("unexpected character '{c}'")
            }
            Some(c) => format!("unexpected character '\\u{:04x}'", u32::from(c)),
            None => {
                "syntax error (a control character in a string, or a misplaced value)".to_string()
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{JsonShape, check_json_shape, json_shape};
    use crate::ErrorKind;

    /// Runs of spaces (stepped over 8 at a time) change nothing: the same shape whatever
    /// the indentation, a depth error at the same bracket, spaces in strings kept apart.
    #[test]
    fn indentation_does_not_change_the_shape() {
        let compact = br#"{"a":[1,2e5,{"b":"x          y"}],"c":[[]],"d":123}"#;
        let want = json_shape(compact, 8, usize::MAX).unwrap();
        assert_eq!(
            want,
            JsonShape {
                nodes: 23,
                wide_numbers: true
            }
        );
        for indent in 0..=20 {
            let mut text = Vec::new();
            let mut in_string = false;
            let mut depth = 0;
            for &b in compact {
                text.push(b);
                in_string ^= b == b'"';
                if in_string {
                    continue;
                }
                depth += match b {
                    b'[' | b'{' => 1,
                    b']' | b'}' => -1,
                    _ => 0,
                };
                if matches!(b, b'[' | b'{' | b',') {
                    text.push(b'\n');
                    text.extend(std::iter::repeat_n(b' ', indent * depth as usize));
                }
            }
            let text = &text[..];
            assert_eq!(json_shape(text, 8, usize::MAX), Ok(want), "indent {indent}");
            let e = json_shape(text, 2, usize::MAX).unwrap_err();
            let bracket = text.iter().position(|&b| b == b'{').unwrap();
            assert_eq!(e.kind(), &ErrorKind::TooDeep { max_depth: 2 });
            assert!(e.offset() > bracket && matches!(text[e.offset()], b'[' | b'{'));
        }
        // Spaces up to the very end, in runs of 0 to 19 (below, at and past the 8-byte
        // step), after a line feed or not.
        for n in 0..20 {
            for lf in ["", "\n"] {
                let pad = format!("{lf}{}", " ".repeat(n));
                let text = format!("[{pad}1{pad}]{pad}");
                assert_eq!(check_json_shape(text.as_bytes(), 1, 10), Ok(2), "{text:?}");
            }
        }
    }

    #[test]
    fn strings_do_not_count() {
        assert_eq!(check_json_shape(br#""[[[\"[[[""#, 1, 10), Ok(1));
        assert_eq!(check_json_shape(br#"["\\",["#, 2, 10), Ok(4));
        // An escape at the very end, and an unterminated string.
        assert_eq!(check_json_shape(br#"["\"#, 1, 10), Ok(2));
        assert_eq!(check_json_shape(br#"["abc"#, 1, 10), Ok(2));
        // Strings of every length around the 8-byte steps and the hand-over to `memchr`,
        // with brackets inside and an escaped quote at every position.
        for n in 0..80 {
            let plain = "[{".repeat(n / 2) + &"x".repeat(n % 2);
            let text = format!(r#"["{plain}",[]]"#);
            assert_eq!(check_json_shape(text.as_bytes(), 2, 10), Ok(6), "{text}");
            for k in 0..=plain.len() {
                let text = format!(r#"["{}\"{}",[]]"#, &plain[..k], &plain[k..]);
                assert_eq!(check_json_shape(text.as_bytes(), 2, 10), Ok(6), "{text}");
            }
        }
    }

    #[test]
    fn depth_and_nodes() {
        let bomb = vec![b'['; 1 << 20];
        let e = check_json_shape(&bomb, 256, usize::MAX).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::TooDeep { max_depth: 256 });
        assert_eq!(e.offset(), 256);
        let nested = format!("{}{}", "[".repeat(256), "]".repeat(256));
        assert_eq!(check_json_shape(nested.as_bytes(), 256, 512), Ok(512));
        let e = check_json_shape(nested.as_bytes(), 256, 511).unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::TooManyNodes {
                count: 512,
                max: 511
            }
        );
        // Closing brackets never take the depth below zero (the parser rejects them).
        assert_eq!(check_json_shape(b"]]][[", 2, 10), Ok(5));
        assert_eq!(
            check_json_shape(b"[[[[", 3, 10).unwrap_err().to_string(),
            "invalid JSON: arrays and objects nested deeper than 3 levels (at byte 3)"
        );
    }
}
