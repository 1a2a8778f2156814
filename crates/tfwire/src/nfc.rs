//! NFC normalization, as go-cty applies it to every decoded string and map key.
//!
//! Strings already in NFC (all ASCII strings, and nearly all others) are returned as they
//! are, borrowed; only the rare string that needs normalizing is rebuilt in the arena.

use bumpalo::Bump;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// `s` in NFC: `s` itself when it already is, else a normalized copy in `bump`.
/// `None` when the arena refuses the allocation (its limit was reached).
#[inline]
pub(crate) fn nfc<'a>(bump: &'a Bump, s: &'a str) -> Option<&'a str> {
    if s.is_ascii() {
        return Some(s);
    }
    nfc_slow(bump, s)
}

#[cold]
#[inline(never)]
fn nfc_slow<'a>(bump: &'a Bump, s: &'a str) -> Option<&'a str> {
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
}
