//! UTF-8 validation with an ASCII fast path, and word-at-a-time byte tests (the NFC quick
//! check fused with UTF-8 validation, for the decoder's string fast path, is in `nfc`).
//!
//! Nearly every string on the wire is short ASCII (attribute names, identifiers, tags).
//! `core::str::from_utf8` validates those byte by byte; checking `is_ascii` (word at a time)
//! first and skipping the second validation made MessagePack decoding of the `resource`
//! payload about 1.1x faster (0.39 → 0.43 GB/s in a first measurement; the `compare` bench keeps
//! measuring it).

pub(crate) use tfwire_json::swar::eq_short;
pub(crate) use tfwire_json::utf8::{is_ascii, utf8};

/// Whether `buf[start..start + len]` is ASCII (the range is in `buf`).
#[inline(always)]
pub(crate) fn is_ascii_within(buf: &[u8], start: usize, len: usize) -> bool {
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
}
