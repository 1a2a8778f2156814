//! JSON text: the one JSON layer of the workspace.
//!
//! Every crate of the workspace that reads or writes JSON text does it through this module,
//! so that a number, an escape or an offset has one place to live: the string writers below,
//! the number grammar ([`is_number`]), the shape pre-pass ([`crate::check_json_shape`]), and
//! simd-json's tape with reused buffers, node offsets and syntax errors with line and column
//! ([`tape`]), a parsed [`Document`](tape::Document) that gives any node's byte offset (found
//! when asked, not stored for every node) and every number's exact text (numbers beyond `f64`'s range included), and the untyped,
//! borrowed [`Json`](view::Json) view over it ([`view`]). tfwire's typed JSON decode and
//! schema loader and tfwire-plan's document model (which re-exports the view) all sit on
//! it, and a plan's resource values decode with a compiled [`Program`](crate::Program) over
//! the plan's own tape ([`Json::decode_typed`](view::Json::decode_typed)).
//!
//! Model-building helpers are the view's: kinds and their names for messages
//! ([`JsonKind::describe`](view::JsonKind::describe)), object members in document order,
//! O(1) subtree skips, each value's offset ([`Json::offset`](view::Json::offset), and
//! [`Json::key_offset`](view::Json::key_offset) for the key of a member). Each crate wraps
//! them in its own error (tfwire's with a cty path, tfwire-plan's with a document path),
//! which is all its builders add.
//!
//! # Why a module of tfwire, not a crate of its own
//!
//! The typed decoder's hot loop walks the tape nodes directly (a [`tape::Node`] match per
//! token, inlined into the state machine); a separate crate would have to expose that tape
//! anyway, and tfwire would be its only typed consumer. The layer's users are tfwire itself
//! and crates that already depend on tfwire (tfwire-plan, tfwire-planfile, tfwire-plugin,
//! the CLI), so a module adds no dependency edge, while a crate would add one more published
//! unit whose API must stay in step with tfwire's decoder. It is the one place that
//! depends on simd-json (see [`tape`] for the features chosen).
//!
//! # String writers: one per escape rule
//!
//! Three rules, three writers; nothing else in the workspace escapes a JSON string.
//!
//! | writer | rule | used for |
//! |---|---|---|
//! | [`write_go_str`] | Go's `encoding/json` as go-cty writes values: `<`, `>`, `&`, U+2028, U+2029 escaped too | DynamicValue JSON, type JSON (byte-identical to go-cty) |
//! | [`write_canonical_str`] | serde_json's compact writer: `\b` `\f` `\n` `\r` `\t`, other C0 as `\u00xx` | the canonical text ([`crate::canonical`]) |
//! | [`write_safe_str`] | for people: every [`is_unsafe_char`] escaped (C0, DEL, C1, bidirectional controls, U+2028, U+2029) | plan/state JSON, error messages, terminal and log output |
//!
//! [`write_safe_inline`] applies the safe rule to text placed in a line without quotes, and
//! [`Safe`] is the safe writer as a `Display` value.
//!
//! All three write valid JSON (RFC 8259) and read back to the same string. Whole documents
//! are written with [`JsonWriter`], which takes one of the rules ([`Escape`]) and places the
//! separators.

pub(crate) mod scan;
pub(crate) mod shape;
pub mod tape;
pub mod view;
mod write;

pub use shape::{JsonShape, json_shape};
pub use write::{Escape, JsonWriter};

use core::fmt;

/// Whether `text` is exactly one JSON number (RFC 8259:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), the grammar every reader of the
/// workspace checks numbers with.
///
/// ```
/// assert!(tfwire::json::is_number(b"-0.5e+10") && !tfwire::json::is_number(b"01"));
/// ```
pub fn is_number(text: &[u8]) -> bool {
    matches!(scan::number(text, 0), Ok(n) if n == text.len())
}

/// Writes `s` as a JSON string exactly as Go's `encoding/json` (before Go 1.22, which built
/// the reference vectors) writes it: `"` and `\` escaped, `\n` `\r` `\t` as such, other
/// control characters as `\u00XX` (lower-case hex), and `<`, `>`, `&`, U+2028, U+2029 as
/// `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`. This is the writer of
/// [`encode_json`](crate::encode_json) and of the type JSON.
///
/// ```
/// let mut s = String::new();
/// tfwire::json::write_go_str(&mut s, "a<b>\n\u{2028}")?;
/// assert_eq!(s, r#""a\u003cb\u003e\n\u2028""#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_go_str(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    let bytes = s.as_bytes();
    // Runs of bytes that need nothing are found eight at a time (a word test), then with a
    // table, and copied whole.
    let mut start = 0;
    let mut i = 0;
    let mut stop = 0;
    while i < bytes.len() {
        if i >= stop {
            while let Some(w) = bytes.get(i..i + 8) {
                let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
                if word_needs_care(w) {
                    break;
                }
                i += 8;
            }
            // The next eight bytes (or the rest) one by one.
            stop = i + 8;
            if i >= bytes.len() {
                break;
            }
        }
        let b = bytes[i];
        if !NEEDS_CARE[b as usize] {
            i += 1;
            continue;
        }
        let mut hex = [b'\\', b'u', b'0', b'0', 0, 0];
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            b'&' => "\\u0026",
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; other characters starting with
            // E2 are written as they are.
            0xe2 => match (bytes.get(i + 1), bytes.get(i + 2)) {
                (Some(0x80), Some(0xa8)) => "\\u2028",
                (Some(0x80), Some(0xa9)) => "\\u2029",
                _ => {
                    i += 1;
                    continue;
                }
            },
            // The other controls below U+0020, lower-case hex.
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                hex[4] = HEX[usize::from(b >> 4)];
                hex[5] = HEX[usize::from(b & 0xf)];
                core::str::from_utf8(&hex).unwrap_or("")
            }
        };
        out.write_str(&s[start..i])?;
        out.write_str(esc)?;
        // Every escaped character is one byte, but U+2028 and U+2029 (three).
        i += if b == 0xe2 { 3 } else { 1 };
        start = i;
    }
    out.write_str(&s[start..])?;
    out.write_char('"')
}

/// Writes `s` as a JSON string as serde_json's compact writer escapes it: `\"`, `\\`, `\b`,
/// `\f`, `\n`, `\r`, `\t`, other bytes below 0x20 as `\u00xx`, nothing else. This is the
/// string form of the canonical text ([`crate::canonical`]).
///
/// ```
/// let mut s = String::new();
/// tfwire::json::write_canonical_str(&mut s, "a\u{8}<\u{1}\u{2028}")?;
/// assert_eq!(s, "\"a\\b<\\u0001\u{2028}\"");
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_canonical_str(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.write_str(&s[start..i])?;
        if esc.is_empty() {
            write!(out, "\\u{b:04x}")?;
        } else {
            out.write_str(esc)?;
        }
        start = i + 1;
    }
    out.write_str(&s[start..])?;
    out.write_char('"')
}

/// Whether `c` must never reach a terminal or a JSON text for a person raw: a C0 control,
/// DEL, a C1 control (U+0080–U+009F, which include the 8-bit CSI U+009B), a bidirectional
/// control that reorders the text around it (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), or the line and paragraph separators U+2028 and U+2029 (which some
/// terminals, editors and JavaScript renderers treat as line breaks).
/// [`write_safe_str`] and [`write_safe_inline`] write these as `\u` escapes.
///
/// ```
/// assert!(tfwire::json::is_unsafe_char('\u{2066}') && !tfwire::json::is_unsafe_char('é'));
/// assert!(tfwire::json::is_unsafe_char('\u{2028}') && tfwire::json::is_unsafe_char('\u{9b}'));
/// ```
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// Writes `s` as a JSON string for a person (the "safe" rule): `"` and `\` escaped, `\n`,
/// `\r`, `\t` for those controls, and `\u` with four lower-case hex digits for the other
/// characters of [`is_unsafe_char`] (the rest of C0, DEL, C1 and the bidirectional controls,
/// which JSON would allow raw but which act on a terminal); everything else verbatim.
///
/// ```
/// let mut s = String::new();
/// tfwire::json::write_safe_str(&mut s, "a\u{1b}[2J\u{9b}\u{202e}\u{7f}\n\"é")?;
/// assert_eq!(s, r#""a\u001b[2J\u009b\u202e\u007f\n\"é""#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_safe_str(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    write_safe(out, s, true)?;
    out.write_char('"')
}

/// Writes `s` for a person inside a line, without quotes: the characters of
/// [`is_unsafe_char`] escaped as [`write_safe_str`] escapes them (`\n`, `\u001b`), `"` and
/// `\` as they are. Whatever `s` holds, the output is one line that moves no cursor.
///
/// ```
/// let mut s = String::new();
/// tfwire::json::write_safe_inline(&mut s, "a\"b\n\u{1b}")?;
/// assert_eq!(s, r#"a"b\n\u001b"#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_safe_inline(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    write_safe(out, s, false)
}

fn write_safe(out: &mut (impl fmt::Write + ?Sized), s: &str, quotes: bool) -> fmt::Result {
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '"' if quotes => "\\\"",
            '\\' if quotes => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if is_unsafe_char(c) => "",
            _ => continue,
        };
        out.write_str(&s[start..i])?;
        if esc.is_empty() {
            write!(out, "\\u{:04x}", u32::from(c))?;
        } else {
            out.write_str(esc)?;
        }
        start = i + c.len_utf8();
    }
    out.write_str(&s[start..])
}

/// A string displayed by [`write_safe_str`]: `format!("{}", Safe(name))` quotes `name` for a
/// message (`{:?}` would write Rust's `\u{1b}`).
///
/// ```
/// assert_eq!(tfwire::json::Safe("a\u{1b}").to_string(), r#""a\u001b""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Safe<'s>(pub &'s str);

impl fmt::Display for Safe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_safe_str(f, self.0)
    }
}

/// Whether any byte of the word `w` (eight bytes) is one [`NEEDS_CARE`] marks. Each test is
/// the classic "has a zero byte" (`(v - 0x01…) & !v & 0x80…`, exact as a yes/no answer):
/// for `\`, for `<`/`>` together (`b | 2 == 0x3e`), for `"`/`&` together (`b | 4 == 0x26`),
/// for 0xE2, and "has a byte below 0x20" the same way.
pub(crate) fn word_needs_care(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let found = zero(w ^ (ONES * 0x5c))
        | zero((w | (ONES * 0x02)) ^ (ONES * 0x3e))
        | zero((w | (ONES * 0x04)) ^ (ONES * 0x26))
        | zero(w ^ (ONES * 0xe2))
        | (w.wrapping_sub(ONES * 0x20) & !w & HIGH);
    found != 0
}

/// The bytes [`write_go_str`] must look at: the controls below 0x20, `"`, `\`, `<`, `>`,
/// `&`, and 0xE2 (the first byte of U+2028 and U+2029).
static NEEDS_CARE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[b'&' as usize] = true;
    t[0xe2] = true;
    t
};

#[cfg(test)]
mod tests {
    #[test]
    fn json_number_grammar() {
        for ok in [
            "0", "-0", "1", "-12", "1.5", "0.0", "1e400", "1E+4", "-1.25e-7", "10",
        ] {
            assert!(super::is_number(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1.e5", "9e", "--1", "1-", "1e5.5", "0x1",
        ] {
            assert!(!super::is_number(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn go_escaping() {
        let mut s = String::new();
        super::write_go_str(&mut s, "a\"b\\c\n\u{8}\u{c}<&>\u{2028}é\u{1f}").unwrap();
        assert_eq!(
            s,
            r#""a\"b\\c\n\u0008\u000c\u003c\u0026\u003e\u2028é\u001f""#
        );
        // Characters that share U+2028's first byte stay as they are; U+2029 and a control
        // at the end are escaped.
        s.clear();
        super::write_go_str(&mut s, "\u{2026}\u{2030}x\u{2029}\u{7f}\u{0}").unwrap();
        assert_eq!(s, "\"\u{2026}\u{2030}x\\u2029\u{7f}\\u0000\"");
        // The word test finds every byte the table marks, at every position, and passes
        // words without one; long strings take the word path.
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut w = *b"abcdefgh";
                w[at] = b;
                assert_eq!(
                    super::word_needs_care(u64::from_le_bytes(w)),
                    super::NEEDS_CARE[b as usize],
                    "{b:#x} at {at}"
                );
            }
        }
        let long = "0123456789abcdef".repeat(3) + "<\u{2028}é日本" + &"x".repeat(9) + "\n";
        s.clear();
        super::write_go_str(&mut s, &long).unwrap();
        let want = format!(
            "\"{}\\u003c\\u2028é日本{}\\n\"",
            "0123456789abcdef".repeat(3),
            "x".repeat(9)
        );
        assert_eq!(s, want);
    }
}
