//! NFC normalization, as go-cty applies it to every decoded string and map key, and the NFC
//! quick check fused with UTF-8 validation for the decoder's string fast path
//! ([`utf8_nfc_within`]).
//!
//! Strings already in NFC (all ASCII strings, and nearly all others) are returned as they
//! are, borrowed; only the rare string that needs normalizing is rebuilt in the arena.

use bumpalo::Bump;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

mod table;

/// One bit per Basic Multilingual Plane character: set when the character is an NFC starter
/// that nothing before it can combine with (canonical combining class 0 and NFC quick-check
/// `Yes`). A string made only of such characters is in NFC. The table is generated from the
/// normalization library's own data (`table.rs`; the `table_is_current` test checks it and
/// rewrites it with `TFWIRE_BLESS=1`), so that the first decode does not spend milliseconds
/// building it.
#[inline(always)]
pub(crate) fn safe_bmp() -> &'static [u64; 1024] {
    &table::SAFE_BMP
}

pub(crate) fn is_safe_starter(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfc_quick(core::iter::once(c)) == IsNormalized::Yes
}

/// The bytes of `w` (eight, little-endian) that are 0xCC or above, as their high bits: the
/// lead bytes of characters from U+0300 on, the only ones that can fail the NFC quick check.
/// (`(b & 0x7f) + 0x34` cannot carry into the next byte, and has its high bit set exactly
/// when `b & 0x7f >= 0x4c`.)
#[inline(always)]
fn high_leads(w: u64) -> u64 {
    tfwire_json::swar::bytes_at_least(w, 0xcc)
}

use tfwire_json::swar::load as word;

/// Whether some byte of `b` is 0xCC or above, with overlapping word loads (for short
/// slices: the loop of [`surely_nfc`] takes longer ones).
#[inline(always)]
fn has_high_lead(b: &[u8]) -> bool {
    let n = b.len();
    if n >= 8 {
        let mut m = high_leads(word(b, n - 8));
        let mut i = 0;
        while i + 8 <= n {
            m |= high_leads(word(b, i));
            i += 8;
        }
        return m != 0;
    }
    if n >= 4 {
        return high_leads(tfwire_json::swar::load_short(b, 0)) != 0;
    }
    b.iter().any(|&x| x >= 0xcc)
}

/// Whether `s` is certainly in NFC (a quick check; `false` means "look closer"). Works on
/// the UTF-8 bytes: ASCII and U+0080..U+02FF (lead bytes below 0xCC) are always safe, so
/// only characters with a lead byte from 0xCC on are decoded, and BMP ones looked up in the
/// bitmap.
#[inline]
pub(crate) fn surely_nfc(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() <= 16 && !has_high_lead(b) {
        return true;
    }
    let bits = safe_bmp();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0xcc {
            // To the next lead byte from 0xCC on, 32 bytes a step (a byte of the OR of four
            // words is at least each of the bytes it combines: no lead byte is missed), then
            // eight. (A lead byte right after a character, as in a run of CJK text, is
            // decoded at once.)
            if let Some(chunk) = b.get(i..i + 32) {
                let w = |at: usize| word(chunk, at);
                if high_leads(w(0) | w(8) | w(16) | w(24)) == 0 {
                    i += 32;
                    continue;
                }
            }
            if i + 8 <= b.len() {
                let m = high_leads(word(b, i));
                i += if m == 0 {
                    8
                } else {
                    m.trailing_zeros() as usize / 8
                };
            } else if b.len() >= 8 && high_leads(word(b, b.len() - 8)) == 0 {
                // The tail, in the string's last eight bytes (some of them already read:
                // a lead byte from 0xCC on among those only sends the tail byte by byte).
                i = b.len();
            } else {
                i += 1;
            }
            continue;
        }
        if c < 0xe0 {
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
    if s.len() <= 16 && !has_high_lead(s.as_bytes()) {
        return Some(s);
    }
    nfc_slow(bump, s)
}

#[inline(never)]
fn nfc_slow<'a>(bump: &'a Bump, s: &'a str) -> Option<&'a str> {
    if surely_nfc(s) {
        return Some(s);
    }
    match normalize_segments(s) {
        None => Some(s),
        Some(normalized) => bump.try_alloc_str(&normalized).ok().map(|s| &*s),
    }
}

/// Whether text can be split before `c` for normalization: a starter (canonical combining
/// class 0) with NFC quick check `Yes` neither combines with nor reorders around what
/// precedes it, so `NFC(x + y) == NFC(x) + NFC(y)` when `y` starts with one (UAX #15,
/// "stable code points"; ICU splits its work the same way).
#[inline]
fn is_boundary(c: char) -> bool {
    let u = c as usize;
    if u < 0x1_0000 {
        safe_bmp()[u / 64] & (1 << (u % 64)) != 0
    } else {
        is_safe_starter(c)
    }
}

/// `s` in NFC, or `None` when it already is. Only the segments (from one boundary to the
/// next, see [`is_boundary`]) that hold a character the quick check does not clear are
/// normalized; the rest is copied. Normalizing a whole string costs about 30 ns a byte, which
/// a long string with a few combining marks should not pay (and a hostile one cannot make
/// worse than linear).
fn normalize_segments(s: &str) -> Option<String> {
    let mut out: Option<String> = None;
    // Bytes of `s` already in `out` (or, while `out` is `None`, known to be in NFC).
    let mut done = 0;
    let mut seg = 0;
    let mut dirty = false;
    let flush = |seg: usize, end: usize, out: &mut Option<String>, done: &mut usize| {
        let piece = &s[seg..end];
        if is_nfc_quick(piece.chars()) == IsNormalized::Yes {
            return;
        }
        let normalized: String = piece.nfc().collect();
        if normalized != piece {
            let o = out.get_or_insert_with(|| String::with_capacity(s.len() + 16));
            o.push_str(&s[*done..seg]);
            o.push_str(&normalized);
            *done = end;
        }
    };
    for (i, c) in s.char_indices() {
        if is_boundary(c) {
            if dirty {
                flush(seg, i, &mut out, &mut done);
                dirty = false;
            }
            seg = i;
        } else {
            dirty = true;
        }
    }
    if dirty {
        flush(seg, s.len(), &mut out, &mut done);
    }
    let mut o = out?;
    o.push_str(&s[done..]);
    Some(o)
}

/// Whether `s` is in NFC (exactly; fast for ASCII and for the common characters): a short
/// ASCII string (most keys and values) with a few word loads, inline; the others out of
/// line: a short one with the short quick check, a long one with the standard ASCII test
/// and then the quick check; when the quick check is not sure, the full check.
#[inline(always)]
pub(crate) fn is_nfc(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() <= 32 {
        return crate::text::is_ascii(b) || is_nfc_short(s);
    }
    is_nfc_general(s)
}

/// [`is_nfc`] of a string of at most 32 bytes that is not ASCII (so not tested for it again).
#[inline(never)]
fn is_nfc_short(s: &str) -> bool {
    surely_nfc_short(s) || unicode_normalization::is_nfc(s)
}

/// [`surely_nfc`] of a string of at most 32 bytes: the lead bytes from 0xCC on are found
/// with at most four overlapping word tests (their positions gathered in one mask, so a lead
/// seen by two words is looked up once) instead of byte by byte past the last whole word,
/// and only those characters are decoded. A string with an astral character (lead byte
/// 0xF0 and up) goes to [`surely_nfc`].
fn surely_nfc_short(s: &str) -> bool {
    let b = s.as_bytes();
    let n = b.len();
    debug_assert!(n <= 32);
    // Bit `i` of `leads`: byte `i` is 0xCC or above.
    let mut leads: u32 = 0;
    let mut gather = |w: u64, at: usize| {
        let mut m = high_leads(w);
        while m != 0 {
            leads |= 1 << (at + m.trailing_zeros() as usize / 8);
            m &= m - 1;
        }
    };
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            gather(word(b, at), at);
            at += 8;
        }
        gather(word(b, n - 8), n - 8);
    } else if n >= 4 {
        let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        gather(u64::from(half(0)), 0);
        gather(u64::from(half(n - 4)), n - 4);
    } else {
        for (i, &c) in b.iter().enumerate() {
            if c >= 0xcc {
                leads |= 1 << i;
            }
        }
    }
    let bits = safe_bmp();
    while leads != 0 {
        let i = leads.trailing_zeros() as usize;
        leads &= leads - 1;
        let c = b[i];
        // Valid UTF-8: a lead byte is followed by its continuation bytes.
        let u = if c < 0xe0 {
            ((c as u32 & 0x1f) << 6) | (b[i + 1] as u32 & 0x3f)
        } else if c < 0xf0 {
            ((c as u32 & 0x0f) << 12) | ((b[i + 1] as u32 & 0x3f) << 6) | (b[i + 2] as u32 & 0x3f)
        } else {
            return surely_nfc(s);
        };
        if bits[u as usize / 64] & (1 << (u % 64)) == 0 {
            return false;
        }
    }
    true
}

#[inline(never)]
fn is_nfc_general(s: &str) -> bool {
    s.is_ascii() || surely_nfc(s) || unicode_normalization::is_nfc(s)
}

/// `s` in NFC, owned (for values built outside an arena).
pub(crate) fn nfc_owned(s: &str) -> String {
    if surely_nfc(s) {
        return s.to_owned();
    }
    normalize_segments(s).unwrap_or_else(|| s.to_owned())
}

/// `buf[start..start + len]` as a `str` if it is valid UTF-8 *and* certainly in NFC (the quick
/// check of [`crate::nfc`] clears every character); `None` when it is not valid UTF-8 or needs
/// a closer look (the caller then takes the general path, which validates and normalizes).
/// Panics if the range is out of `buf`.
///
/// `buf` may continue past the string: short strings (most keys and values are) are checked
/// for ASCII with one or two 16-byte loads, masked to the string, instead of byte by byte.
/// Non-ASCII strings are validated and checked for NFC in one pass over their bytes, instead
/// of `core::str::from_utf8` followed by the NFC quick check: MessagePack decoding of the
/// `resource` payload (2,065 non-ASCII strings) spent a quarter of its time in those two passes.
#[inline(always)]
pub(crate) fn utf8_nfc_within(buf: &[u8], start: usize, len: usize) -> Option<&str> {
    let b = &buf[start..start + len];
    if crate::text::is_ascii_within(buf, start, len) {
        // SAFETY: every byte is ASCII (checked just above), and ASCII is valid UTF-8.
        return Some(unsafe { core::str::from_utf8_unchecked(b) });
    }
    if !valid_and_surely_nfc(b) {
        return None;
    }
    // SAFETY: `valid_and_surely_nfc` returned true, which it does only for valid UTF-8: it
    // applies the well-formed byte sequence table of the Unicode standard (table 3-7) to every
    // character, and the `fused_validation_agrees_with_core` test checks it against
    // `core::str::from_utf8` on every sequence of up to three bytes and on the boundary values
    // of every four-byte one.
    Some(unsafe { core::str::from_utf8_unchecked(b) })
}

/// Whether `b` is valid UTF-8 and every character passes the NFC quick check
/// ([`safe_bmp`] for the Basic Multilingual Plane).
///
/// Runs of ASCII are skipped 32 bytes a step (then 8, then to the run's end); a run of
/// non-ASCII characters (a word of Japanese, accented letters) is decoded character after
/// character without going back to the ASCII test in between. Characters below U+0300
/// (lead bytes below 0xCC) are always NFC-safe starters and are only validated.
#[inline(never)]
fn valid_and_surely_nfc(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let safe = safe_bmp();
    let bmp_safe = |u: u32| safe[u as usize / 64] & (1 << (u % 64)) != 0;
    let is_cont = |c: u8| c & 0xc0 == 0x80;
    let n = b.len();
    let mut i = 0;
    while i < n {
        let c = b[i];
        if c < 0x80 {
            i += 1;
            // The rest of the ASCII run: one word first (runs between non-ASCII characters
            // are short: a space, a letter), then 32 bytes a step, then words.
            let high = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("8 bytes")) & HIGH;
            if let Some(w) = b.get(i..i + 8) {
                let h = high(w);
                if h != 0 {
                    i += h.trailing_zeros() as usize / 8;
                    continue;
                }
                i += 8;
            }
            while let Some(chunk) = b.get(i..i + 32) {
                if high(&chunk[..8])
                    | high(&chunk[8..16])
                    | high(&chunk[16..24])
                    | high(&chunk[24..])
                    != 0
                {
                    break;
                }
                i += 32;
            }
            while let Some(w) = b.get(i..i + 8) {
                let h = high(w);
                if h != 0 {
                    i += h.trailing_zeros() as usize / 8;
                    break;
                }
                i += 8;
            }
            continue;
        }
        match c {
            0xc2..=0xdf => {
                let Some(&[_, c1]) = b.get(i..i + 2) else {
                    return false;
                };
                // U+0080..U+02FF (lead bytes below 0xCC) are all safe starters.
                if !is_cont(c1)
                    || (c >= 0xcc && !bmp_safe((u32::from(c & 0x1f) << 6) | u32::from(c1 & 0x3f)))
                {
                    return false;
                }
                i += 2;
            }
            0xe0..=0xef => {
                let Some(&[_, c1, c2]) = b.get(i..i + 3) else {
                    return false;
                };
                if !is_cont(c1) || !is_cont(c2) {
                    return false;
                }
                let u = (u32::from(c & 0x0f) << 12)
                    | (u32::from(c1 & 0x3f) << 6)
                    | u32::from(c2 & 0x3f);
                // Overlong encodings (below U+0800) are not UTF-8, and neither are surrogates
                // (U+D800..U+DFFF), which are not characters: their bits in the table are
                // clear (the exhaustive test below covers every three-byte sequence).
                if u < 0x800 || !bmp_safe(u) {
                    return false;
                }
                i += 3;
            }
            0xf0..=0xf4 => {
                let (Some(&c1), Some(&c2), Some(&c3)) = (b.get(i + 1), b.get(i + 2), b.get(i + 3))
                else {
                    return false;
                };
                if !is_cont(c1) || !is_cont(c2) || !is_cont(c3) {
                    return false;
                }
                let u = (u32::from(c & 0x07) << 18)
                    | (u32::from(c1 & 0x3f) << 12)
                    | (u32::from(c2 & 0x3f) << 6)
                    | u32::from(c3 & 0x3f);
                // Astral characters (emoji, historic scripts) are rare: looked up one by one.
                match char::from_u32(u) {
                    Some(ch) if u >= 0x1_0000 && is_safe_starter(ch) => {}
                    _ => return false,
                }
                i += 4;
            }
            // Continuation bytes, overlong two-byte leads (0xC0, 0xC1), 0xF5..=0xFF.
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short-string quick check agrees with the general one on every string of up to 32
    /// bytes drawn from ASCII, characters below U+0300, safe and unsafe BMP characters with
    /// two- and three-byte encodings, and an astral character, at every position.
    #[test]
    fn short_quick_check_agrees_with_the_general_one() {
        let alphabet = [
            'a',
            'é',
            '\u{301}',
            '日',
            '\u{212b}',
            '\u{1f600}',
            'ü',
            '\u{344}',
            'Ω',
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for _ in 0..20_000 {
            let mut s = String::new();
            loop {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let c = alphabet[(seed % alphabet.len() as u64) as usize];
                let c = if seed.is_multiple_of(3) { 'a' } else { c };
                if s.len() + c.len_utf8() > 32 || seed.is_multiple_of(29) {
                    break;
                }
                s.push(c);
            }
            assert_eq!(surely_nfc_short(&s), surely_nfc(&s), "{s:?}");
            assert_eq!(is_nfc(&s), unicode_normalization::is_nfc(&s), "{s:?}");
            checked += 1;
        }
        for len in 0..=32 {
            for at in 0..len {
                for c in ['\u{301}', '日', 'é'] {
                    let mut s: String = (0..at).map(|_| 'a').collect();
                    s.push(c);
                    while s.len() < len {
                        s.push('b');
                    }
                    if s.len() <= 32 {
                        assert_eq!(surely_nfc_short(&s), surely_nfc(&s), "{s:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 20_000);
    }

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

    /// The committed table is what the normalization library says today (after an upgrade
    /// of `unicode-normalization`, run the test with `TFWIRE_BLESS=1` to rewrite it).
    #[test]
    fn table_is_current() {
        let mut bits = [0u64; 1024];
        for c in (0..=0xffffu32).filter_map(char::from_u32) {
            if is_safe_starter(c) {
                bits[c as usize / 64] |= 1 << (c as usize % 64);
            }
        }
        if bits == table::SAFE_BMP {
            return;
        }
        let mut text = String::from(
            "//! Generated by the `table_is_current` test of `nfc/mod.rs` from the\n\
             //! `unicode-normalization` crate's data: do not edit.\n\n\
             /// Bit `c % 64` of word `c / 64` is set when BMP character `c` is a safe NFC starter.\n\
             pub(super) static SAFE_BMP: [u64; 1024] = [\n",
        );
        for row in bits.chunks(4) {
            let words: Vec<String> = row.iter().map(|w| format!("0x{w:016x}")).collect();
            text.push_str(&format!("    {},\n", words.join(", ")));
        }
        text.push_str("];\n");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/nfc/table.rs");
        if std::env::var_os("TFWIRE_BLESS").is_some() {
            std::fs::write(path, text).expect("writing the table");
        } else {
            panic!("{path} is out of date: run this test with TFWIRE_BLESS=1");
        }
    }

    /// The word-at-a-time test finds exactly the bytes from 0xCC on, at every length and
    /// position.
    #[test]
    fn high_leads_are_found_anywhere() {
        for n in 0..40 {
            for at in 0..n {
                for x in [0x7f, 0x80, 0xbf, 0xcb, 0xcc, 0xcd, 0xe6, 0xff] {
                    let mut b = vec![b'a'; n];
                    b[at] = x;
                    assert_eq!(has_high_lead(&b), x >= 0xcc, "{n} {at} {x:x}");
                }
            }
        }
        for w in [
            0u64,
            u64::MAX,
            0xcbcb_cbcb_cbcb_cbcb,
            0xcc00_0000_0000_0000,
            0x4c4c_4c4c,
        ] {
            let naive = w
                .to_le_bytes()
                .iter()
                .enumerate()
                .filter(|(_, b)| **b >= 0xcc)
                .fold(0u64, |m, (i, _)| m | 0x80 << (8 * i));
            assert_eq!(high_leads(w), naive, "{w:x}");
        }
    }

    /// Normalizing segment by segment gives what normalizing the whole string gives, on
    /// strings mixing starters, combining marks (in and out of canonical order), Hangul
    /// jamo and syllables, compatibility and excluded characters, and astral ones.
    #[test]
    fn segments_normalize_as_the_whole_string() {
        let pieces = [
            "a",
            "e",
            "\u{301}",
            "\u{302}",
            "\u{323}",
            "\u{307}",
            "q",
            "\u{1100}",
            "\u{1161}",
            "\u{11a8}",
            "\u{ac00}",
            "\u{212b}",
            "\u{2126}",
            "\u{f900}",
            "\u{344}",
            "\u{f6b}",
            "\u{f71}",
            "\u{f72}",
            "\u{1d15e}",
            "\u{1d165}",
            "\u{1f600}",
            "\u{bc}",
            "\u{fb01}",
            "\u{e9}",
            "\u{c5}",
            "\u{3099}",
            "\u{304b}",
            "\u{30ab}",
            "\u{5d9}",
            "\u{5b4}",
            " ",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let bump = Bump::new();
        for _ in 0..20_000 {
            let len = next(12);
            let s: String = (0..len).map(|_| pieces[next(pieces.len())]).collect();
            let want: String = s.nfc().collect();
            assert_eq!(nfc(&bump, &s).unwrap(), want, "{s:?}");
            assert_eq!(nfc_owned(&s), want, "{s:?}");
            assert_eq!(normalize_segments(&s).is_none(), want == s, "{s:?}");
        }
    }

    /// The 32-byte step of the quick check misses no character that needs a closer look,
    /// at any position of strings up to 80 bytes, and lets through runs whose bytes only
    /// combine (in the OR of the step's words) into something like a lead byte.
    #[test]
    fn quick_check_steps_miss_nothing() {
        for len in 0..80 {
            for at in 0..len {
                let mut s = String::new();
                for i in 0..len {
                    s.push(if i == at { '\u{301}' } else { 'a' });
                }
                assert!(!surely_nfc(&format!("e{s}")), "{len} {at}");
                assert!(!is_nfc(&format!("e{s}")), "{len} {at}");
                let t = s.replace('\u{301}', "日");
                assert!(surely_nfc(&t) && is_nfc(&t), "{len} {at}");
                let u = s.replace('\u{301}', "ü").replace('a', "L");
                assert!(surely_nfc(&u) && is_nfc(&u), "{len} {at}");
            }
        }
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

    /// `utf8_nfc_within` accepts exactly what `core::str::from_utf8` accepts and the NFC quick
    /// check clears, on every byte sequence of up to three bytes and on every four-byte sequence
    /// built from a lead byte and boundary values of the continuation ranges.
    #[test]
    fn fused_validation_agrees_with_core() {
        let check = |b: &[u8]| {
            let want = core::str::from_utf8(b)
                .ok()
                .filter(|s| s.is_ascii() || surely_nfc(s));
            assert_eq!(utf8_nfc_within(b, 0, b.len()), want, "{b:02x?}");
        };
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                if a >= 0xc0 {
                    for c in 0..=255u8 {
                        check(&[a, b, c]);
                    }
                }
            }
        }
        let edges = [
            0x00, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff,
        ];
        for a in 0xf0..=0xffu8 {
            for b in (0x80..=0xbfu8).chain(edges) {
                for c in edges {
                    for d in edges {
                        check(&[a, b, c, d]);
                        check(&[b'x', a, b, c, d, b'y']);
                    }
                }
            }
        }
        // Inside longer strings, past the eight-byte ASCII skip.
        for s in [
            "0123456789 日本 ünïcödé",
            "abcdefgh\u{1f600}",
            "abcdefghe\u{301}",
        ] {
            check(s.as_bytes());
        }
        check(b"abcdefgh\xed\xa0\x80");
        check(b"abcdefgh\xe0\x80\x80");
        // After and before ASCII runs of every length across the 32- and 8-byte steps, and
        // in runs of non-ASCII characters: valid, not NFC-safe, and invalid sequences.
        let seqs: [&[u8]; 12] = [
            "ü".as_bytes(),
            "日本".as_bytes(),
            "テキスト ünï".as_bytes(),
            "e\u{301}".as_bytes(),
            "\u{1f600}".as_bytes(),
            "\u{212b}".as_bytes(),
            b"\x80",
            b"\xe6\x97",
            b"\xed\xa0\x80",
            b"\xc0\x80",
            b"\xf4\x90\x80\x80",
            b"\xc3\xbc\xff",
        ];
        for run in 0..70 {
            for seq in seqs {
                for after in [0, 1, 7, 9, 33, 40] {
                    let mut s = vec![b'a'; run];
                    s.extend_from_slice(seq);
                    s.extend(core::iter::repeat_n(b'z', after));
                    check(&s);
                    s.extend_from_slice(seq);
                    check(&s);
                }
            }
        }
    }
}
