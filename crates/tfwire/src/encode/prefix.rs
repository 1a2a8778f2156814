//! The string-prefix refinement as go-cty's encoder writes it: prefixes longer than 256 bytes
//! are cut to 255 bytes and then trimmed back to a "safe" end (go-cty's
//! `ctystrings.SafeKnownPrefix`), so that go-cty's decoder, which caps a refinement payload at
//! 1 KiB, never sees an oversized one.
//!
//! `SafeKnownPrefix` normalizes to NFC, then drops whatever a later character could still
//! change:
//! 1. if the last character could combine with a following one (it is not *inert* in the
//!    normalization tables: it has a decomposition, a non-zero combining class, an NFC
//!    quick-check value other than Yes, or is the first of a composition pair), everything from
//!    the last starter on is dropped (`norm.NFC.LastBoundary`);
//! 2. otherwise the last grapheme cluster is dropped, unless it is one character from a short
//!    list of delimiters (`-`, `_`, `:`, `/`, `.`, space, ...), which is kept.
//!
//! Step 1 is reproduced exactly from the `unicode-normalization` tables (whose Unicode version
//! may differ from the one go-cty was built with: differences only for characters added in
//! recent Unicode versions). Step 2 needs grapheme cluster boundaries (UAX #29), which tfwire
//! does not carry tables for; it is approximated *conservatively*: the last cluster is taken to
//! start at the last character that nothing before it attaches to, where combining marks,
//! joiners, emoji modifiers, tags, variation selectors, Hangul vowel and final jamo, prepended
//! concatenation marks, CR before LF and runs of regional indicators all count as attaching.
//! Where this over-joins, the prefix written is shorter than go-cty's, never longer, so it is
//! still a true prefix of the value. go-cty's stream-safe limit (more than 30 combining marks in
//! a row) is not modelled; there too the prefix written is the shorter one.

use std::borrow::Cow;
use std::sync::OnceLock;
use unicode_normalization::char::{
    canonical_combining_class, compose, decompose_canonical, is_combining_mark,
};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// Prefixes longer than this many bytes are truncated by the encoder.
pub(crate) const MAX_PREFIX: usize = 256;

/// The prefix go-cty's encoder writes for a refined prefix `p` (already in NFC).
pub(crate) fn truncate(p: &str) -> Cow<'_, str> {
    if p.len() <= MAX_PREFIX {
        return Cow::Borrowed(p);
    }
    // go-cty cuts at byte 255, which may split a character; the split character's bytes are
    // then dropped by the boundary search below (they are never kept), so cut before it here
    // and remember that it was there.
    let mut cut = MAX_PREFIX - 1;
    while !p.is_char_boundary(cut) {
        cut -= 1;
    }
    let partial = cut < MAX_PREFIX - 1;
    let s: Cow<'_, str> = match is_nfc_quick(p[..cut].chars()) {
        IsNormalized::Yes => Cow::Borrowed(&p[..cut]),
        _ => Cow::Owned(p[..cut].nfc().collect()),
    };
    let end = safe_end(&s, partial);
    match s {
        Cow::Borrowed(b) => Cow::Borrowed(&b[..end]),
        Cow::Owned(mut o) => {
            o.truncate(end);
            Cow::Owned(o)
        }
    }
}

/// Where `SafeKnownPrefix` ends `s`; `partial`: the bytes of a split character followed `s`.
fn safe_end(s: &str, partial: bool) -> usize {
    let Some(last) = s.chars().next_back() else {
        return 0;
    };
    if !inert(last) {
        return last_starter(s);
    }
    if partial {
        // `LastBoundary` stops at the split character, after an inert one.
        return s.len();
    }
    let start = last_cluster(s);
    let single = start + last.len_utf8() == s.len();
    if single && delimiter(last) {
        s.len()
    } else {
        start
    }
}

/// The start of the last character whose decomposition starts with a starter (`LastBoundary`
/// when the last character is not inert); 0 if there is none.
fn last_starter(s: &str) -> usize {
    s.char_indices()
        .rev()
        .find(|&(_, c)| leading_ccc(c) == 0)
        .map_or(0, |(i, _)| i)
}

/// The combining class of the first character of `c`'s canonical decomposition.
fn leading_ccc(c: char) -> u8 {
    let mut first = None;
    decompose_canonical(c, |d| {
        first.get_or_insert(d);
    });
    canonical_combining_class(first.unwrap_or(c))
}

/// Whether nothing after `c` can change it under NFC (x/text's `Properties.isInert`).
fn inert(c: char) -> bool {
    if canonical_combining_class(c) != 0 {
        return false;
    }
    if is_nfc_quick(core::iter::once(c)) != IsNormalized::Yes {
        return false;
    }
    let mut decomposes = false;
    decompose_canonical(c, |d| decomposes |= d != c);
    !decomposes && !combines_forward(c)
}

/// Whether `c` is the first character of a canonical composition.
fn combines_forward(c: char) -> bool {
    second_of_pairs().iter().any(|&b| compose(c, b).is_some())
}

/// Every character that can be the second of a composition pair: those whose NFC quick-check
/// value is Maybe. They all lie below U+20000 (checked by a test over every character).
fn second_of_pairs() -> &'static [char] {
    static SECONDS: OnceLock<Vec<char>> = OnceLock::new();
    SECONDS.get_or_init(|| {
        (0x300..0x20000u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_nfc_quick(core::iter::once(c)) == IsNormalized::Maybe)
            .collect()
    })
}

/// The start of the last grapheme cluster of `s`, approximated so that it is never later than
/// the true one (see the module docs).
fn last_cluster(s: &str) -> usize {
    let mut chars = s.char_indices().rev().peekable();
    let Some((mut start, mut cur)) = chars.next() else {
        return 0;
    };
    while let Some(&(i, prev)) = chars.peek() {
        if !(attaches_to_previous(cur) || attaches_to_next(prev, cur)) {
            break;
        }
        start = i;
        cur = prev;
        chars.next();
    }
    start
}

/// Characters that never start a grapheme cluster after another character (UAX #29 Extend,
/// ZWJ, SpacingMark; Hangul V and T jamo), generously.
fn attaches_to_previous(c: char) -> bool {
    canonical_combining_class(c) != 0
        || is_combining_mark(c)
        || matches!(c as u32,
            0x200C | 0x200D          // joiners
            | 0xFE00..=0xFE0F        // variation selectors
            | 0xE0100..=0xE01EF
            | 0x1F3FB..=0x1F3FF      // emoji modifiers
            | 0xE0020..=0xE007F      // tags
            | 0xFF9E..=0xFF9F        // halfwidth katakana sound marks
            | 0x1160..=0x11FF        // Hangul vowel and final jamo
            | 0xD7B0..=0xD7FF)
}

/// Whether `prev` and `cur` belong to one cluster for a reason other than `cur` extending:
/// CR LF, a prepended concatenation mark, an emoji ZWJ sequence, regional indicator pairs,
/// Hangul leading jamo.
fn attaches_to_next(prev: char, cur: char) -> bool {
    let regional = |c: char| matches!(c as u32, 0x1F1E6..=0x1F1FF);
    let hangul = |c: char| matches!(c as u32, 0x1100..=0x11FF | 0xA960..=0xA97F | 0xAC00..=0xD7A3 | 0xD7B0..=0xD7FF);
    (prev == '\r' && cur == '\n')
        || prev == '\u{200D}'
        || prepend(prev)
        || regional(prev) && regional(cur)
        || matches!(prev as u32, 0x1100..=0x115F | 0xA960..=0xA97F) && hangul(cur)
}

/// Grapheme_Cluster_Break=Prepend (Unicode 15).
fn prepend(c: char) -> bool {
    matches!(c as u32,
        0x0600..=0x0605 | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2 | 0x0D4E | 0x110BD
        | 0x110CD | 0x111C2..=0x111C3 | 0x1193F | 0x11941 | 0x11A3A | 0x11A84..=0x11A89
        | 0x11D46 | 0x11F02)
}

/// The single characters go-cty keeps at the end of a safe prefix.
fn delimiter(c: char) -> bool {
    matches!(
        c,
        '-' | '_'
            | ':'
            | ';'
            | '/'
            | '\\'
            | ','
            | '.'
            | '('
            | ')'
            | '{'
            | '}'
            | '['
            | ']'
            | '|'
            | '?'
            | '!'
            | '~'
            | ' '
            | '\t'
            | '@'
            | '#'
            | '$'
            | '%'
            | '^'
            | '&'
            | '*'
            | '+'
            | '"'
            | '\''
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_prefixes_are_kept_whole() {
        for p in ["", "abc", &"x".repeat(256), &"é".repeat(128)] {
            assert!(matches!(truncate(p), Cow::Borrowed(b) if b == p));
        }
    }

    /// Outputs of go-cty's encoder truncation (`p[:255]` then `SafeKnownPrefix`) run with Go
    /// 1.19, x/text and go-textseg v13 for inputs built as `head` repeated to `n` bytes of
    /// filler plus `tail`, then the whole cut to 300 bytes or more.
    #[test]
    fn matches_go_cty() {
        // (filler, filler count, tail, count of `x` after the tail, expected length in bytes
        // of the result)
        let cases: &[(&str, usize, &str, usize, usize)] = &[
            ("p", 300, "", 0, 254),
            ("é", 150, "", 0, 252),
            ("a", 254, "-", 49, 255),
            ("a", 253, "\r\n", 49, 253),
            ("a", 250, "👍🏽", 47, 254),
            ("a", 251, "👍🏽", 47, 251),
            ("a", 252, "한", 49, 252),
            ("a", 253, "한", 49, 252),
            ("x", 254, "\u{301}", 47, 253),
            ("x", 253, "\u{301}", 47, 252),
            ("a", 247, "🇫🇷", 49, 247),
            ("a", 254, "<", 50, 254),
            ("a", 254, "`", 50, 254),
            ("a", 254, "1", 49, 254),
            ("a", 252, "本", 49, 252),
            ("a", 253, "本", 49, 252),
            ("a", 246, "क्ष", 47, 252),
            ("a", 240, "👨\u{200d}👩\u{200d}👧", 41, 254),
            ("a", 254, "\n", 50, 254),
            ("a", 254, " ", 50, 255),
            ("a", 254, "\t", 50, 255),
            ("a", 252, "\u{600}-", 48, 252),
            ("a", 254, "/", 50, 255),
            ("a", 253, "-/", 48, 255),
            ("日", 100, "", 0, 252),
            ("a", 252, "कि", 0, 252),
            ("a", 251, "कि", 0, 254),
            // go-cty: 246 bytes, with U+034F inserted by x/text's stream-safe normalization
            // after 30 marks (so not a prefix of the value); tfwire cuts at the last starter.
            ("\u{301}", 150, "", 0, 0),
            ("a", 254, "\u{1ea1}\u{308}", 40, 253),
        ];
        for &(fill, n, tail, x, want) in cases {
            let p = format!("{}{tail}{}", fill.repeat(n), "x".repeat(x));
            let got = truncate(&p);
            assert_eq!(got.len(), want, "{fill:?} x {n} + {tail:?}: {got:?}");
            assert!(p.starts_with(&*got));
        }
    }

    #[test]
    fn second_of_pairs_are_all_below_u20000() {
        let above = (0x20000..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .any(|c| is_nfc_quick(core::iter::once(c)) == IsNormalized::Maybe);
        assert!(!above);
        assert!(second_of_pairs().contains(&'\u{301}'));
        assert!(combines_forward('e') && combines_forward('<') && !combines_forward('-'));
        assert!(inert('-') && inert('本') && !inert('p') && !inert('é') && !inert('\u{301}'));
    }
}
