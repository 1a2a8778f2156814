//! UTF-8 validation with an ASCII fast path, fused with the NFC quick check for the decoder's
//! string fast path: the `unsafe` blocks of the decoder.
//!
//! Nearly every string on the wire is short ASCII (attribute names, identifiers, tags).
//! `core::str::from_utf8` validates those byte by byte; checking `is_ascii` (word at a time)
//! first and skipping the second validation made MessagePack decoding of the `resource`
//! payload about 1.1x faster (0.39 → 0.43 GB/s in a first measurement; the `compare` bench keeps
//! measuring it).

pub(crate) use tfwire_json::swar::eq_short;
pub(crate) use tfwire_json::utf8::{is_ascii, utf8};

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
    if is_ascii_within(buf, start, len) {
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

/// Whether `buf[start..start + len]` is ASCII (the range is in `buf`).
#[inline(always)]
fn is_ascii_within(buf: &[u8], start: usize, len: usize) -> bool {
    const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    let word = |at: usize| -> Option<u128> {
        let w: [u8; 16] = buf.get(at..at + 16)?.try_into().ok()?;
        Some(u128::from_le_bytes(w))
    };
    const HIGH64: u64 = tfwire_json::swar::HIGH;
    let word64 = |at: usize| tfwire_json::swar::try_load(buf, at);
    if len < 8 {
        // One word, the bytes past the string masked off (a 64-bit shift: a 128-bit mask
        // costs several instructions more, for the commonest strings).
        if let Some(w) = word64(start) {
            let mask = (1u64 << (len * 8)) - 1;
            return w & mask & HIGH64 == 0;
        }
    } else if len < 16 {
        // Two words, overlapping when shorter than 16 bytes.
        if let (Some(a), Some(b)) = (word64(start), word64(start + len - 8)) {
            return (a | b) & HIGH64 == 0;
        }
    } else if len <= 32 {
        // Two loads, overlapping when shorter than 32 bytes.
        if let (Some(a), Some(b)) = (word(start), word(start + len - 16)) {
            return (a | b) & HIGH == 0;
        }
    }
    buf[start..start + len].is_ascii()
}

/// Whether `b` is valid UTF-8 and every character passes the NFC quick check
/// ([`crate::nfc::safe_bmp`] for the Basic Multilingual Plane).
///
/// Runs of ASCII are skipped 32 bytes a step (then 8, then to the run's end); a run of
/// non-ASCII characters (a word of Japanese, accented letters) is decoded character after
/// character without going back to the ASCII test in between. Characters below U+0300
/// (lead bytes below 0xCC) are always NFC-safe starters and are only validated.
#[inline(never)]
fn valid_and_surely_nfc(b: &[u8]) -> bool {
    let safe = crate::nfc::safe_bmp();
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
            let high = |w: &[u8]| tfwire_json::swar::non_ascii(tfwire_json::swar::load(w, 0));
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
                    Some(ch) if u >= 0x1_0000 && crate::nfc::is_safe_starter(ch) => {}
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

    /// The wide-load ASCII check looks at exactly the string's bytes: a non-ASCII byte just
    /// before or after it, or anywhere in it, at every length and alignment.
    #[test]
    fn ascii_within_sees_only_the_string() {
        let mut buf = [b'a'; 80];
        for start in 0..20 {
            for len in 0..=45 {
                for high in 0..buf.len() {
                    buf[high] = 0xc3;
                    let inside = (start..start + len).contains(&high);
                    assert_eq!(
                        is_ascii_within(&buf, start, len),
                        !inside,
                        "{start} {len} {high}"
                    );
                    buf[high] = b'a';
                }
            }
        }
        // Near the end of the buffer (no room for a wide load).
        assert!(is_ascii_within(b"xyz", 1, 2));
        assert!(!is_ascii_within(b"x\xffz", 1, 2));
    }

    /// `utf8_nfc_within` accepts exactly what `core::str::from_utf8` accepts and the NFC quick check
    /// clears, on every byte sequence of up to three bytes and on every four-byte sequence
    /// built from a lead byte and boundary values of the continuation ranges.
    #[test]
    fn fused_validation_agrees_with_core() {
        let check = |b: &[u8]| {
            let want = core::str::from_utf8(b)
                .ok()
                .filter(|s| s.is_ascii() || crate::nfc::surely_nfc(s));
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
