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

/// The bytes [`write_go_string`] must look at: the controls below 0x20, `"`, `\`, `<`, `>`,
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
    fn go_escaping() {
        let mut s = String::new();
        super::write_go_string(&mut s, "a\"b\\c\n\u{8}\u{c}<&>\u{2028}é\u{1f}").unwrap();
        assert_eq!(
            s,
            r#""a\"b\\c\n\u0008\u000c\u003c\u0026\u003e\u2028é\u001f""#
        );
        // Characters that share U+2028's first byte stay as they are; U+2029 and a control
        // at the end are escaped.
        s.clear();
        super::write_go_string(&mut s, "\u{2026}\u{2030}x\u{2029}\u{7f}\u{0}").unwrap();
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
        super::write_go_string(&mut s, &long).unwrap();
        let want = format!(
            "\"{}\\u003c\\u2028é日本{}\\n\"",
            "0123456789abcdef".repeat(3),
            "x".repeat(9)
        );
        assert_eq!(s, want);
    }
}
