//! JSON text: scanning primitives shared by every JSON reader in the crate, and Go-style
//! string escaping for every JSON writer.

pub(crate) mod scan;
pub(crate) mod shape;

use core::fmt;

/// Writes `s` as a JSON string exactly as Go's `encoding/json` (before Go 1.22, which built
/// the reference vectors) writes it: `"` and `\` escaped, `\n` `\r` `\t` as such, other
/// control characters as `\u00XX` (lower-case hex), and `<`, `>`, `&`, U+2028, U+2029 as
/// `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`.
pub(crate) fn write_go_string(out: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    out.write_char('"')?;
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '<' => Some("\\u003c"),
            '>' => Some("\\u003e"),
            '&' => Some("\\u0026"),
            '\u{2028}' => Some("\\u2028"),
            '\u{2029}' => Some("\\u2029"),
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.write_str(&s[start..i])?;
        match esc {
            Some(e) => out.write_str(e)?,
            None => write!(out, "\\u{:04x}", c as u32)?,
        }
        start = i + c.len_utf8();
    }
    out.write_str(core::str::from_utf8(&bytes[start..]).unwrap_or(""))?;
    out.write_char('"')
}

#[cfg(test)]
mod tests {
    #[test]
    fn go_escaping() {
        let mut s = String::new();
        super::write_go_string(&mut s, "a\"b\\c\n\u{8}\u{c}<&>\u{2028}é\u{1f}").unwrap();
        assert_eq!(
            s,
            r#""a\"b\\c\n\u0008\u000c\u003c\u0026\u003e\u2028é\u001f""#
        );
    }
}
