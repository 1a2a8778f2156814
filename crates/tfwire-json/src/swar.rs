//! Word-at-a-time byte tests ("SIMD within a register"): eight bytes in a `u64`, loaded
//! little-endian, tested with a few integer operations. The one set of such helpers of the
//! workspace: the string writers, the number and NFC fast paths and the UTF-8 checks all
//! use these.
//!
//! The masks the tests return hold the high bit (0x80) of each byte that matched; every
//! test here is exact per byte (no false positive from a borrow out of a neighbouring
//! byte), so `mask.trailing_zeros() / 8` is the index of the first byte that matched.
//!
//! ```
//! use tfwire_json::swar;
//! let w = swar::load(b"ab\"d\x01fgh", 0);
//! assert_eq!(swar::bytes_eq(w, b'"').trailing_zeros() / 8, 2);
//! assert_eq!(swar::bytes_below(w, 0x20).trailing_zeros() / 8, 4);
//! assert_eq!(swar::bytes_at_least(swar::load("aé......".as_bytes(), 0), 0xc3), 0x80 << 8);
//! ```

/// `0x01` in every byte.
pub const ONES: u64 = 0x0101_0101_0101_0101;

/// `0x80` in every byte: the high bits.
pub const HIGH: u64 = 0x8080_8080_8080_8080;

/// `0x7f` in every byte: all but the high bits.
pub const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// `b` in every byte.
#[inline(always)]
pub const fn splat(b: u8) -> u64 {
    ONES * b as u64
}

/// The eight bytes of `b` at `at` as a little-endian word (byte `at` lowest).
///
/// # Panics
///
/// If `b` holds fewer than `at + 8` bytes.
#[inline(always)]
pub fn load(b: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The eight bytes of `b` at `at`, if there are eight.
#[inline(always)]
pub fn try_load(b: &[u8], at: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// The bytes of a slice shorter than eight as one word for a test that asks whether *some*
/// byte matches: from four bytes on, its first four and last four (overlapping); below,
/// its bytes followed by `pad` (which must not match the test).
#[inline(always)]
pub fn load_short(b: &[u8], pad: u8) -> u64 {
    let n = b.len();
    if n >= 4 {
        let half = |at: usize| {
            let mut h = [0; 4];
            h.copy_from_slice(&b[at..at + 4]);
            u32::from_le_bytes(h)
        };
        u64::from(half(0)) | (u64::from(half(n - 4)) << 32)
    } else {
        let mut w = [pad; 8];
        for (d, s) in w.iter_mut().zip(b) {
            *d = *s;
        }
        u64::from_le_bytes(w)
    }
}

/// The zero bytes of `v` (their high bits).
#[inline(always)]
pub const fn zero_bytes(v: u64) -> u64 {
    // The classic `(v - 0x01…) & !v & 0x80…` marks every zero byte, but a borrow out of a
    // zero byte can also mark a 0x01 byte above it; computing on the low seven bits first
    // keeps each byte to itself.
    !((((v & LOW7) + LOW7) | v) | LOW7)
}

/// Nonzero exactly when some byte of `v` is zero: the classic `(v - 0x01…) & !v & 0x80…`,
/// three operations where [`zero_bytes`] takes five. Exact as a yes/no answer only: a borrow
/// out of a zero byte can also mark a 0x01 byte above it, so use [`zero_bytes`] to know
/// *which* bytes.
#[inline(always)]
pub const fn any_zero_byte(v: u64) -> u64 {
    v.wrapping_sub(ONES) & !v & HIGH
}

/// Nonzero exactly when some byte of `w` is below `n` (`n` at most 0x80); yes/no only, as
/// [`any_zero_byte`].
#[inline(always)]
pub const fn any_byte_below(w: u64, n: u8) -> u64 {
    debug_assert!(n <= 0x80);
    w.wrapping_sub(splat(n)) & !w & HIGH
}

/// The bytes of `w` equal to `b`.
#[inline(always)]
pub const fn bytes_eq(w: u64, b: u8) -> u64 {
    zero_bytes(w ^ splat(b))
}

/// The bytes of `w` below `n` (`n` at most 0x80).
#[inline(always)]
pub const fn bytes_below(w: u64, n: u8) -> u64 {
    debug_assert!(n <= 0x80);
    // `(b & 0x7f) + (0x80 - n)` has its high bit set when `b & 0x7f >= n` and cannot carry;
    // a byte with its own high bit set is never below `n`.
    !((((w & LOW7) + splat(0x80 - n)) | w) | LOW7)
}

/// The bytes of `w` at `n` or above (`n` at least 0x80).
#[inline(always)]
pub const fn bytes_at_least(w: u64, n: u8) -> u64 {
    debug_assert!(n >= 0x80);
    // For a byte with its high bit set, `(b & 0x7f) + (0x100 - n)` reaches 0x80 exactly
    // when `b >= n`, without a carry into the next byte.
    ((w & LOW7) + splat(0u8.wrapping_sub(n))) & w & HIGH
}

/// The bytes of `w` that are not ASCII digits.
#[inline(always)]
pub const fn non_digits(w: u64) -> u64 {
    // `t = w ^ '0'` maps the digits to 0..=9; `(t & 0x7f) + 0x76` has its high bit set
    // exactly when `t & 0x7f >= 10`, and cannot carry into the next byte.
    let t = w ^ splat(b'0');
    (((t & LOW7) + splat(0x76)) | t) & HIGH
}

/// The bytes of `w` that are not ASCII (0x80 or above).
#[inline(always)]
pub const fn non_ascii(w: u64) -> u64 {
    w & HIGH
}

/// `a == b`, inlined for short slices (names and keys are short; a `memcmp` call costs
/// more than comparing them): up to 24 bytes in at most three words plus one overlapping
/// word (or two overlapping halves, for fewer than 8 bytes), without a byte loop.
#[inline]
pub fn eq_short(a: &[u8], b: &[u8]) -> bool {
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
            if load(a, i) != load(b, i) {
                return false;
            }
            i += 8;
        }
        return load(a, n - 8) == load(b, n - 8);
    }
    if n >= 4 {
        return bytes::<4>(a, 0) == bytes::<4>(b, 0)
            && bytes::<4>(a, n - 4) == bytes::<4>(b, n - 4);
    }
    if n >= 2 {
        return bytes::<2>(a, 0) == bytes::<2>(b, 0)
            && bytes::<2>(a, n - 2) == bytes::<2>(b, n - 2);
    }
    a == b
}

/// The `N` bytes of `s` at `i` (`i + N <= s.len()`), as an array to compare whole (no
/// `memcmp` call).
#[inline(always)]
fn bytes<const N: usize>(s: &[u8], i: usize) -> [u8; N] {
    let mut w = [0; N];
    w.copy_from_slice(&s[i..i + N]);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_test_is_exact_per_byte() {
        for x in 0..=255u8 {
            for at in 0..8 {
                for filler in [0u8, 1, b'a', 0x7f, 0x80, 0xff] {
                    let mut bytes = [filler; 8];
                    bytes[at] = x;
                    let w = u64::from_le_bytes(bytes);
                    let want = |f: &dyn Fn(u8) -> bool| {
                        bytes
                            .iter()
                            .enumerate()
                            .filter(|(_, b)| f(**b))
                            .fold(0u64, |m, (i, _)| m | (0x80 << (8 * i)))
                    };
                    assert_eq!(zero_bytes(w), want(&|b| b == 0), "{bytes:?}");
                    assert_eq!(bytes_eq(w, b'"'), want(&|b| b == b'"'));
                    assert_eq!(bytes_eq(w, 0xe2), want(&|b| b == 0xe2));
                    assert_eq!(bytes_below(w, 0x20), want(&|b| b < 0x20));
                    assert_eq!(bytes_below(w, 0x80), want(&|b| b < 0x80));
                    assert_eq!(bytes_at_least(w, 0xcc), want(&|b| b >= 0xcc));
                    assert_eq!(bytes_at_least(w, 0x80), want(&|b| b >= 0x80));
                    assert_eq!(non_digits(w), want(&|b| !b.is_ascii_digit()));
                    assert_eq!(non_ascii(w), want(&|b| b >= 0x80));
                    // The yes/no tests: nonzero exactly when some byte matches.
                    assert_eq!(any_zero_byte(w) != 0, want(&|b| b == 0) != 0);
                    assert_eq!(any_byte_below(w, 0x20) != 0, want(&|b| b < 0x20) != 0);
                    assert_eq!(any_byte_below(w, 0x80) != 0, want(&|b| b < 0x80) != 0);
                }
            }
        }
    }

    #[test]
    fn loads_and_comparisons() {
        assert_eq!(try_load(b"1234567", 0), None);
        assert_eq!(try_load(b"12345678", 0), Some(load(b"12345678", 0)));
        assert_eq!(try_load(b"12345678", usize::MAX), None);
        assert_eq!(load_short(b"ab", b'z'), u64::from_le_bytes(*b"abzzzzzz"));
        assert_eq!(load_short(b"abcde", b'z'), u64::from_le_bytes(*b"abcdbcde"));
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcdefgh",
            "abcdefghijklmnopqrstuvwxyz",
        ];
        for a in words {
            for b in words {
                assert_eq!(eq_short(a.as_bytes(), b.as_bytes()), a == b);
            }
            let mut c = a.as_bytes().to_vec();
            if let Some(last) = c.last_mut() {
                *last ^= 1;
                assert!(!eq_short(a.as_bytes(), &c));
            }
        }
    }
}
