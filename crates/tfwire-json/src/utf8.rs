//! UTF-8 checks with a word-at-a-time ASCII fast path: nearly every string and number text
//! read from a document is short ASCII.

use crate::swar;

/// `b` as a `str`, if it is valid UTF-8: an ASCII text (the common case) is checked word at
/// a time and not validated a second time.
///
/// ```
/// assert_eq!(tfwire_json::utf8::utf8(b"12.5"), Some("12.5"));
/// assert_eq!(tfwire_json::utf8::utf8(b"\xff"), None);
/// ```
#[inline]
#[allow(unsafe_code)]
pub fn utf8(b: &[u8]) -> Option<&str> {
    if b.is_ascii() {
        // SAFETY: every byte is ASCII (checked just above), and ASCII is valid UTF-8.
        // Measured: the number texts of the typed JSON decode go through here (see the
        // decoder's number path); checked by `tests::utf8_agrees_with_core`.
        Some(unsafe { core::str::from_utf8_unchecked(b) })
    } else {
        core::str::from_utf8(b).ok()
    }
}

/// Whether every byte of `b` is ASCII: a short slice (most are) with two to four word
/// loads, the last ones overlapping; a longer one with the standard test (which stops at the
/// first non-ASCII byte).
///
/// ```
/// assert!(tfwire_json::utf8::is_ascii(b"attribute_name") && !tfwire_json::utf8::is_ascii("é".as_bytes()));
/// ```
#[inline(always)]
pub fn is_ascii(b: &[u8]) -> bool {
    let n = b.len();
    if n > 32 {
        return b.is_ascii();
    }
    if n >= 8 {
        let mut any = swar::load(b, n - 8);
        let mut i = 0;
        while i + 8 < n {
            any |= swar::load(b, i);
            i += 8;
        }
        return swar::non_ascii(any) == 0;
    }
    swar::non_ascii(swar::load_short(b, 0)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-wise ASCII test agrees with the standard one at every length and position.
    #[test]
    fn ascii_by_words() {
        for len in 0..40 {
            for at in 0..len.max(1) {
                for b in [b'a', 0x7f, 0x80, 0xc3, 0xff] {
                    let mut v = vec![b'x'; len];
                    if len > 0 {
                        v[at] = b;
                    }
                    assert_eq!(is_ascii(&v), v.is_ascii(), "{v:02x?}");
                }
            }
        }
    }

    #[test]
    fn utf8_agrees_with_core() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for s in [
                    &[a, b][..],
                    &[b'x', a, b, b'1', b'2', b'3', b'4', b'5', b'6'],
                ] {
                    assert_eq!(utf8(s), core::str::from_utf8(s).ok(), "{s:02x?}");
                }
            }
        }
    }
}
