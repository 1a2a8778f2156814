//! The escape rules: one string writer per rule, and the characters a person must never
//! receive raw.
//!
//! Four rules, four writers; nothing else in the workspace escapes a JSON string.
//!
//! | writer | rule | used for |
//! |---|---|---|
//! | [`write_go_str`] | Go's `encoding/json` as go-cty writes values: `<`, `>`, `&`, U+2028, U+2029 escaped too | DynamicValue JSON, type JSON (byte-identical to go-cty) |
//! | [`write_canonical_str`] | serde_json's compact writer: `\b` `\f` `\n` `\r` `\t`, other C0 as `\u00xx` | tfwire's canonical text |
//! | [`write_safe_str`] | for people: every [`is_unsafe_char`] escaped (C0, DEL, C1, bidirectional controls, U+2028, U+2029) | plan/state JSON, error messages, terminal and log output |
//! | [`write_go_safe_str`] | Go ≥ 1.22's `encoding/json` (`<`, `>`, `&` escaped, `\b`, `\f`), and the rest of [`is_unsafe_char`] too | JSON text the clients' human output shows as Go wrote it (a delete reason's instance key, an imported identity) |
//!
//! [`write_safe_inline`] applies the safe rule to text placed in a line without quotes, and
//! [`Safe`] is the safe writer as a `Display` value.
//!
//! All four write valid JSON (RFC 8259) and read back to the same string. Whole documents
//! are written with [`JsonWriter`](crate::JsonWriter), which takes one of the rules
//! ([`Escape`](crate::Escape)) and places the separators.

use crate::swar;
use crate::unicode_tables::{GO_PRINT, HCL_ID_CONTINUE, HCL_ID_START};
use core::fmt;

/// Writes `s` as a JSON string exactly as Go's `encoding/json` (before Go 1.22, which built
/// the reference vectors) writes it: `"` and `\` escaped, `\n` `\r` `\t` as such, other
/// control characters as `\u00XX` (lower-case hex), and `<`, `>`, `&`, U+2028, U+2029 as
/// `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`. This is the writer of
/// tfwire's `encode_json` and of the type JSON.
///
/// ```
/// let mut s = String::new();
/// tfwire_json::write_go_str(&mut s, "a<b>\n\u{2028}")?;
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
            while let Some(w) = swar::try_load(bytes, i) {
                if word_needs_care(w) {
                    break;
                }
                i += 8;
            }
            // Fewer than eight bytes left (all of most keys): one test of them together.
            if i < bytes.len()
                && bytes.len() - i < 8
                && !word_needs_care(swar::load_short(&bytes[i..], b'a'))
            {
                i = bytes.len();
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

/// What one pass over a string found for [`write_go_str`] ([`GoScan::of`]): whether it
/// needs no escape at all, and whether it is ASCII (an encoder that must check NFC skips
/// the check for ASCII).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoScan {
    /// No byte is one [`write_go_str`] escapes or looks at: the string goes out quoted as
    /// it is.
    pub plain: bool,
    /// Every byte is ASCII (known only when `plain`; `false` otherwise).
    pub ascii: bool,
}

impl GoScan {
    /// One pass over `s`, eight bytes at a time with [`word_needs_care`], the last bytes
    /// with an overlapping load (or padded), stopping at the first byte that needs care.
    ///
    /// ```
    /// use tfwire_json::escape::GoScan;
    /// assert_eq!(GoScan::of("plain"), GoScan { plain: true, ascii: true });
    /// assert_eq!(GoScan::of("é"), GoScan { plain: true, ascii: false });
    /// assert!(!GoScan::of("a<b").plain);
    /// ```
    #[inline(always)]
    pub fn of(s: &str) -> GoScan {
        const CARE: GoScan = GoScan {
            plain: false,
            ascii: false,
        };
        let b = s.as_bytes();
        let n = b.len();
        if n >= 8 {
            // The last eight bytes (overlapping the loop's last word), then the words before.
            let last = swar::load(b, n - 8);
            if word_needs_care(last) {
                return CARE;
            }
            let mut high = last;
            let mut i = 0;
            while i + 8 < n {
                let w = swar::load(b, i);
                if word_needs_care(w) {
                    return CARE;
                }
                high |= w;
                i += 8;
            }
            return GoScan {
                plain: true,
                ascii: swar::non_ascii(high) == 0,
            };
        }
        // Fewer than eight bytes: two overlapping halves, or the bytes padded with `a`.
        let w = swar::load_short(b, b'a');
        if word_needs_care(w) {
            return CARE;
        }
        GoScan {
            plain: true,
            ascii: swar::non_ascii(w) == 0,
        }
    }
}

/// Appends `s` to `out` as [`write_go_str`] writes it, given its [`GoScan`]: a plain string
/// (the common case) with one reservation and one copy, any other through
/// [`write_go_str`]. The encoders' string writer.
///
/// ```
/// use tfwire_json::escape::{GoScan, push_go_str};
/// let mut out = String::new();
/// push_go_str(&mut out, "id", GoScan::of("id"));
/// push_go_str(&mut out, "<", GoScan::of("<"));
/// assert_eq!(out, r#""id""\u003c""#);
/// ```
#[inline]
pub fn push_go_str(out: &mut String, s: &str, scan: GoScan) {
    if scan.plain {
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        let _ = write_go_str(out, s);
    }
}

/// Writes `s` as a JSON string as serde_json's compact writer escapes it: `\"`, `\\`, `\b`,
/// `\f`, `\n`, `\r`, `\t`, other bytes below 0x20 as `\u00xx`, nothing else. This is the
/// string form of tfwire's canonical text.
///
/// ```
/// let mut s = String::new();
/// tfwire_json::write_canonical_str(&mut s, "a\u{8}<\u{1}\u{2028}")?;
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
/// assert!(tfwire_json::is_unsafe_char('\u{2066}') && !tfwire_json::is_unsafe_char('é'));
/// assert!(tfwire_json::is_unsafe_char('\u{2028}') && tfwire_json::is_unsafe_char('\u{9b}'));
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

/// Whether Go's `%q` (`strconv.Quote`) writes `c` as it is: `strconv.IsPrint` (letters,
/// marks, numbers, punctuation, symbols and the ASCII space) in the Unicode version of the
/// Go that builds the clients (15.0.0 for Go 1.26). Everything else, unassigned code points
/// and characters of later Unicode versions (U+1FAE9, from Unicode 16) included, it escapes.
/// The table (`unicode_tables.rs`) is generated from Go itself by `e2e/unicodetables/gen.sh`.
///
/// ```
/// use tfwire_json::escape::is_go_printable;
/// assert!(is_go_printable('é') && is_go_printable('\u{1FAE8}'));
/// assert!(!is_go_printable('\u{1FAE9}') && !is_go_printable('\u{378}') && !is_go_printable('\u{a0}'));
/// ```
pub fn is_go_printable(c: char) -> bool {
    matches!(c, ' '..='~') || (c > '~' && in_table(GO_PRINT, c))
}

/// Whether `s` is an HCL identifier, as `hclsyntax.ValidIdentifier` decides (what the
/// clients' renderers write bare rather than quoted): `(ID_Start | '_') (ID_Continue | '-')*`
/// with HCL's tables, generated from Unicode 9.0.0, so a letter added to Unicode later
/// (Georgian Mtavruli `Ა`, U+1C90, from Unicode 11) is not one. The tables
/// (`unicode_tables.rs`) are generated from HCL itself by `e2e/unicodetables/gen.sh`.
///
/// ```
/// use tfwire_json::escape::is_hcl_identifier;
/// assert!(is_hcl_identifier("aws_instance") && is_hcl_identifier("a-b") && is_hcl_identifier("名前"));
/// assert!(!is_hcl_identifier("kubernetes.io/role") && !is_hcl_identifier("\u{1C90}"));
/// ```
pub fn is_hcl_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| in_table(HCL_ID_START, c))
        && chars.all(|c| in_table(HCL_ID_CONTINUE, c))
}

/// Writes `s` quoted as Go's `%q` (`strconv.Quote`) quotes it, as the clients' renderers
/// quote strings, map keys and block labels: `"` and `\` escaped, [printable](is_go_printable)
/// characters as they are, `\a` `\b` `\f` `\n` `\r` `\t` `\v`, other ASCII controls and
/// DEL as `\x00`, everything else as `\u200b` or `\U0001fae9`.
///
/// ```
/// let mut s = String::new();
/// tfwire_json::escape::write_go_quoted(&mut s, "a\"\n\u{1}é\u{a0}\u{1FAE9}")?;
/// assert_eq!(s, r#""a\"\n\x01é\u00a0\U0001fae9""#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_go_quoted(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            c if is_go_printable(c) => out.write_char(c)?,
            '\u{7}' => out.write_str("\\a")?,
            '\u{8}' => out.write_str("\\b")?,
            '\u{c}' => out.write_str("\\f")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '\u{b}' => out.write_str("\\v")?,
            c if c < ' ' || c == '\u{7f}' => write!(out, "\\x{:02x}", u32::from(c))?,
            c => write_go_unicode_escape(out, c)?,
        }
    }
    out.write_char('"')
}

/// Writes `s` quoted as HCL's quoted-string syntax, as OpenTofu and Terraform quote a
/// `for_each` key in an address (`toHCLQuotedString`): `"` and `\` escaped, `\n` `\r` `\t`,
/// a template introducer doubled (`${` → `$${`, `%{` → `%%{`), every character Go does not
/// [print](is_go_printable) as `\u` with four lower-case hex digits (`\U` with eight above
/// U+FFFF).
///
/// ```
/// let mut s = String::new();
/// tfwire_json::escape::write_hcl_quoted(&mut s, "a${x}%{y}\"\u{1}\n<")?;
/// assert_eq!(s, r#""a$${x}%%{y}\"\u0001\n<""#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_hcl_quoted(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '$' | '%' => {
                out.write_char(c)?;
                if chars.peek() == Some(&'{') {
                    out.write_char(c)?;
                }
            }
            c if !is_go_printable(c) => write_go_unicode_escape(out, c)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

/// `\uXXXX` below U+10000, `\UXXXXXXXX` above, lower-case hex, as Go writes a code point.
fn write_go_unicode_escape(out: &mut (impl fmt::Write + ?Sized), c: char) -> fmt::Result {
    let n = u32::from(c);
    if n < 0x10000 {
        write!(out, "\\u{n:04x}")
    } else {
        write!(out, "\\U{n:08x}")
    }
}

/// Whether `c` lies in one of `table`'s sorted, disjoint inclusive ranges (a binary search).
fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let c = u32::from(c);
    let i = table.partition_point(|&(_, last)| last < c);
    table.get(i).is_some_and(|&(first, _)| first <= c)
}

/// Writes `s` as a JSON string for a person (the "safe" rule): `"` and `\` escaped, `\n`,
/// `\r`, `\t` for those controls, and `\u` with four lower-case hex digits for the other
/// characters of [`is_unsafe_char`] (the rest of C0, DEL, C1 and the bidirectional controls,
/// which JSON would allow raw but which act on a terminal); everything else verbatim.
///
/// ```
/// let mut s = String::new();
/// tfwire_json::write_safe_str(&mut s, "a\u{1b}[2J\u{9b}\u{202e}\u{7f}\n\"é")?;
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
/// tfwire_json::write_safe_inline(&mut s, "a\"b\n\u{1b}")?;
/// assert_eq!(s, r#"a"b\n\u001b"#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_safe_inline(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    write_safe(out, s, false)
}

/// Writes `s` as a JSON string as Go's `encoding/json` writes it since Go 1.22 (the Go that
/// builds the clients), for text their human output shows as Go wrote it: `"` and `\`
/// escaped, `\b` `\f` `\n` `\r` `\t`, other controls below 0x20 as `\u00xx`, and `<`, `>`,
/// `&`, U+2028, U+2029 as `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`. The other
/// characters of [`is_unsafe_char`], which Go leaves raw (DEL, C1, bidirectional
/// controls), are escaped too (`\u007f`), so the text never acts on a terminal.
///
/// ```
/// let mut s = String::new();
/// tfwire_json::write_go_safe_str(&mut s, "a<b>&\u{8}\u{1}\u{7f}")?;
/// assert_eq!(s, r#""a\u003cb\u003e\u0026\b\u0001\u007f""#);
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_go_safe_str(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    write_escaped(out, s, |c| match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '\u{8}' => Some("\\b"),
        '\u{c}' => Some("\\f"),
        '\n' => Some("\\n"),
        '\r' => Some("\\r"),
        '\t' => Some("\\t"),
        '<' | '>' | '&' => Some(""),
        c if is_unsafe_char(c) => Some(""),
        _ => None,
    })?;
    out.write_char('"')
}

fn write_safe(out: &mut (impl fmt::Write + ?Sized), s: &str, quotes: bool) -> fmt::Result {
    write_escaped(out, s, |c| match c {
        '"' if quotes => Some("\\\""),
        '\\' if quotes => Some("\\\\"),
        '\n' => Some("\\n"),
        '\r' => Some("\\r"),
        '\t' => Some("\\t"),
        c if is_unsafe_char(c) => Some(""),
        _ => None,
    })
}

/// Writes `s` with each character `escape` names replaced by the text it gives, or by `\u`
/// and four lower-case hex digits where that text is empty; the runs between are written
/// whole.
fn write_escaped(
    out: &mut (impl fmt::Write + ?Sized),
    s: &str,
    escape: impl Fn(char) -> Option<&'static str>,
) -> fmt::Result {
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let Some(esc) = escape(c) else {
            continue;
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
/// assert_eq!(tfwire_json::Safe("a\u{1b}").to_string(), r#""a\u001b""#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Safe<'s>(pub &'s str);

impl fmt::Display for Safe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_safe_str(f, self.0)
    }
}

/// Whether any byte of the word `w` (eight bytes, [`swar::load`]) is one [`write_go_str`]
/// must look at: a control below 0x20, `"`, `\`, `<`, `>`, `&`, or 0xE2 (the first byte of
/// U+2028 and U+2029). `<`/`>` are tested together (`b | 2 == 0x3e`), as are `"`/`&`
/// (`b | 4 == 0x26`). Encoders use it to find strings that need no escape at all.
///
/// ```
/// use tfwire_json::{escape::word_needs_care, swar};
/// assert!(!word_needs_care(swar::load(b"plain ok", 0)));
/// assert!(word_needs_care(swar::load(b"a<b 1234", 0)));
/// ```
#[inline(always)]
pub fn word_needs_care(w: u64) -> bool {
    // Yes/no tests (three operations each): the scan runs over every byte of every string.
    let found = swar::any_zero_byte(w ^ swar::splat(b'\\'))
        | swar::any_zero_byte((w | swar::splat(0x02)) ^ swar::splat(0x3e))
        | swar::any_zero_byte((w | swar::splat(0x04)) ^ swar::splat(0x26))
        | swar::any_zero_byte(w ^ swar::splat(0xe2))
        | swar::any_byte_below(w, 0x20);
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

    /// The generated tables are what [`in_table`]'s binary search needs: sorted ranges that
    /// neither overlap nor touch, within Unicode's code space.
    #[test]
    fn tables_are_sorted_ranges() {
        use super::{
            GO_PRINT, HCL_ID_CONTINUE, HCL_ID_START, in_table, is_go_printable, is_unsafe_char,
        };
        for table in [GO_PRINT, HCL_ID_START, HCL_ID_CONTINUE] {
            assert!(!table.is_empty());
            for &(first, last) in table {
                assert!(first <= last && last <= 0x10FFFF, "{first:x}..{last:x}");
            }
            for w in table.windows(2) {
                assert!(w[0].1 + 1 < w[1].0, "{:x?}", w);
            }
            for &(first, last) in table {
                for c in [first, last, first.wrapping_sub(1), last + 1] {
                    if let Some(ch) = char::from_u32(c) {
                        let linear = table.iter().any(|&(a, b)| a <= c && c <= b);
                        assert_eq!(in_table(table, ch), linear, "{c:x}");
                    }
                }
            }
        }
        // Every unsafe character is one Go escapes.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert!(!is_unsafe_char(c) || !is_go_printable(c), "{:x}", c as u32);
        }
        // Every identifier character is printable, and none is unsafe.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            if in_table(HCL_ID_CONTINUE, c) {
                assert!(is_go_printable(c) && !is_unsafe_char(c), "{:x}", c as u32);
            }
        }
    }
    use super::{GoScan, push_go_str, write_go_str};

    /// The plain path writes exactly what `write_go_str` writes whenever it takes a string
    /// (and knows whether it is ASCII), and leaves every string with a byte to escape to
    /// it: each ASCII character and a few others (U+2028 and its neighbours sharing the lead
    /// byte 0xE2) at every position of strings of every length up to 40 (the short,
    /// overlapping and padded loads).
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
                    let scan = GoScan::of(&s);
                    push_go_str(&mut fast, &s, scan);
                    assert_eq!(fast, slow, "{s:?}");
                    if scan.plain {
                        assert_eq!(scan.ascii, s.is_ascii(), "{s:?}");
                    }
                    if slow != format!("\"{s}\"") {
                        escaped += 1;
                        assert!(!scan.plain, "{s:?} needs escaping");
                    }
                }
            }
        }
        assert!(escaped > 0);
        fast.clear();
        push_go_str(&mut fast, "", GoScan::of(""));
        assert_eq!(fast, "\"\"");
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
