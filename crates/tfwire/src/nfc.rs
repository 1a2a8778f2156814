//! NFC normalization, as go-cty applies it to every decoded string and map key.
//!
//! Strings already in NFC (all ASCII strings, and nearly all others) are returned as they
//! are, borrowed; only the rare string that needs normalizing is rebuilt in the arena.

use bumpalo::Bump;
use std::sync::OnceLock;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// One bit per Basic Multilingual Plane character: set when the character is an NFC starter
/// that nothing before it can combine with (canonical combining class 0 and NFC quick-check
/// `Yes`). A string made only of such characters is in NFC. Built once, from the
/// normalization library's own tables.
pub(crate) fn safe_bmp() -> &'static [u64; 1024] {
    static SAFE: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    SAFE.get_or_init(|| {
        let mut bits = Box::new([0u64; 1024]);
        for c in (0..=0xffffu32).filter_map(char::from_u32) {
            if is_safe_starter(c) {
                bits[c as usize / 64] |= 1 << (c as usize % 64);
            }
        }
        bits
    })
}

pub(crate) fn is_safe_starter(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfc_quick(core::iter::once(c)) == IsNormalized::Yes
}

/// Whether `s` is certainly in NFC (a quick check; `false` means "look closer"). Works on
/// the UTF-8 bytes: ASCII and U+0080..U+02FF (lead bytes below 0xCC) are always safe, other
/// BMP characters are looked up in the bitmap.
#[inline]
pub(crate) fn surely_nfc(s: &str) -> bool {
    let b = s.as_bytes();
    let bits = safe_bmp();
    let mut i = 0;
    while i < b.len() {
        // Skip ASCII eight bytes at a time.
        while let Some(w) = b.get(i..i + 8) {
            if u64::from_le_bytes(w.try_into().expect("8 bytes")) & 0x8080_8080_8080_8080 != 0 {
                break;
            }
            i += 8;
        }
        let Some(&c) = b.get(i) else { break };
        if c < 0x80 {
            i += 1;
        } else if c < 0xcc {
            i += 2;
        } else if c < 0xe0 {
            let u = ((c as u32 & 0x1f) << 6) | (b[i + 1] as u32 & 0x3f);
            if bits[u as usize / 64] & (1 << (u % 64)) == 0 {
                return false;
            }
            i += 2;
        } else if c < 0xf0 {
            let u = ((c as u32 & 0x0f) << 12)
                | ((b[i + 1] as u32 & 0x3f) << 6)
                | (b[i + 2] as u32 & 0x3f);
            if bits[u as usize / 64] & (1 << (u % 64)) == 0 {
                return false;
            }
            i += 3;
        } else {
            // Astral characters (emoji, historic scripts): rare enough to look up one by one.
            let ch = s[i..].chars().next().expect("valid UTF-8");
            if !is_safe_starter(ch) {
                return false;
            }
            i += 4;
        }
    }
    true
}

/// `s` in NFC: `s` itself when it already is, else a normalized copy in `bump`.
/// `None` when the arena refuses the allocation (its limit was reached).
#[inline]
pub(crate) fn nfc<'a>(bump: &'a Bump, s: &'a str) -> Option<&'a str> {
    if s.is_ascii() {
        return Some(s);
    }
    nfc_slow(bump, s)
}

#[inline(never)]
fn nfc_slow<'a>(bump: &'a Bump, s: &'a str) -> Option<&'a str> {
    if surely_nfc(s) {
        return Some(s);
    }
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => Some(s),
        _ => {
            let normalized: String = s.nfc().collect();
            if normalized == s {
                Some(s)
            } else {
                bump.try_alloc_str(&normalized).ok().map(|s| &*s)
            }
        }
    }
}

/// Whether `s` is in NFC (exactly; fast for ASCII and for the common characters).
pub(crate) fn is_nfc(s: &str) -> bool {
    s.is_ascii() || surely_nfc(s) || unicode_normalization::is_nfc(s)
}

/// `s` in NFC, owned (for values built outside an arena).
pub(crate) fn nfc_owned(s: &str) -> String {
    if s.is_ascii() {
        s.to_owned()
    } else {
        s.nfc().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrows_when_already_nfc() {
        let bump = Bump::new();
        let s = "ñandú 日本語";
        assert!(core::ptr::eq(nfc(&bump, s).unwrap(), s));
        assert_eq!(nfc(&bump, "e\u{301}").unwrap(), "é");
        assert_eq!(nfc(&bump, "\u{212b}").unwrap(), "Å");
        assert_eq!(nfc(&bump, "q\u{307}\u{323}").unwrap(), "q\u{323}\u{307}");
        assert_eq!(nfc_owned("e\u{301}"), "é");
    }

    #[test]
    fn quick_check_agrees_with_full_normalization() {
        // Every BMP character alone and after a base letter, and a few astral ones.
        let astral = ['\u{1f600}', '\u{1d15e}', '\u{10000}', '\u{1d165}'];
        for c in (0..=0xffffu32).filter_map(char::from_u32).chain(astral) {
            for s in [c.to_string(), format!("a{c}"), format!("{c}\u{301}")] {
                if surely_nfc(&s) {
                    assert_eq!(s.nfc().collect::<String>(), s, "{:x}", c as u32);
                }
            }
        }
    }
}
