//! UTF-8 validation with an ASCII fast path, and word-at-a-time byte tests (the NFC quick
//! check fused with UTF-8 validation, for the decoder's string fast path, is in `nfc`).
//!
//! Nearly every string on the wire is short ASCII (attribute names, identifiers, tags).
//! `core::str::from_utf8` validates those byte by byte; checking `is_ascii` (word at a time)
//! first and skipping the second validation made MessagePack decoding of the `resource`
//! payload about 1.1x faster (0.39 → 0.43 GB/s in a first measurement; the `compare` bench keeps
//! measuring it).

/// `b` as a `str`, if it is valid UTF-8.
#[inline]
pub(crate) fn utf8(b: &[u8]) -> Option<&str> {
    if b.is_ascii() {
        // SAFETY: every byte is ASCII (checked just above), and ASCII is valid UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(b) })
    } else {
        core::str::from_utf8(b).ok()
    }
}

/// Whether `buf[start..start + len]` is ASCII (the range is in `buf`).
#[inline(always)]
pub(crate) fn is_ascii_within(buf: &[u8], start: usize, len: usize) -> bool {
    const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    let word = |at: usize| -> Option<u128> {
        let w: [u8; 16] = buf.get(at..at + 16)?.try_into().ok()?;
        Some(u128::from_le_bytes(w))
    };
    const HIGH64: u64 = 0x8080_8080_8080_8080;
    let word64 = |at: usize| -> Option<u64> {
        let w: [u8; 8] = buf.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(w))
    };
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

/// Whether every byte of `b` is ASCII: a short string (most are) with two to four word
/// loads, the last ones overlapping; a longer one with the standard test (which stops at the
/// first non-ASCII byte).
#[inline(always)]
pub(crate) fn is_ascii(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = b.len();
    if n > 32 {
        return b.is_ascii();
    }
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    if n >= 8 {
        let mut any = word(n - 8);
        let mut i = 0;
        while i + 8 < n {
            any |= word(i);
            i += 8;
        }
        return any & HIGH == 0;
    }
    if n >= 4 {
        let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        return (half(0) | half(n - 4)) & 0x8080_8080 == 0;
    }
    b.iter().all(|&c| c < 0x80)
}

/// `a == b`, inlined for short slices (attribute names are short; a `memcmp` call costs
/// more than comparing them): up to 24 bytes in at most three words plus one overlapping
/// word (or two overlapping halves, for fewer than 8 bytes), without a byte loop.
#[inline]
pub(crate) fn eq_short(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n > 24 {
        return a == b;
    }
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if load::<8>(a, i) != load::<8>(b, i) {
                return false;
            }
            i += 8;
        }
        return load::<8>(a, n - 8) == load::<8>(b, n - 8);
    }
    if n >= 4 {
        return load::<4>(a, 0) == load::<4>(b, 0) && load::<4>(a, n - 4) == load::<4>(b, n - 4);
    }
    if n >= 2 {
        return load::<2>(a, 0) == load::<2>(b, 0) && load::<2>(a, n - 2) == load::<2>(b, n - 2);
    }
    a == b
}

/// The `N` bytes of `s` at `i` (`i + N <= s.len()`), as an array to compare whole.
#[inline(always)]
fn load<const N: usize>(s: &[u8], i: usize) -> [u8; N] {
    let mut w = [0; N];
    w.copy_from_slice(&s[i..i + N]);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `eq_short` agrees with `==` at every length up to 40 and with one byte differing at
    /// every position.
    #[test]
    fn eq_short_agrees() {
        for len in 0..40usize {
            let a: Vec<u8> = (0..len as u8).map(|i| b'a' + i % 26).collect();
            assert!(eq_short(&a, &a.clone()), "len {len}");
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!eq_short(&a, &b), "len {len}, differing at {at}");
            }
            assert!(!eq_short(&a, &a[..len.saturating_sub(1)]) || len == 0);
        }
    }

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
}
