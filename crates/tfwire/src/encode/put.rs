//! Appending short byte strings to a `Vec<u8>` without a `memcpy` call: the `unsafe` blocks
//! of the MessagePack encoder.
//!
//! Most of what the MessagePack encoder writes is short: attribute names and map keys (with
//! their header, 3 to 32 bytes) and fixstr values (under 32 bytes). `extend_from_slice`
//! writes each with a call to `memcpy`, whose entry, size dispatch and return cost about as
//! much as the copy, plus a capacity check and a length update per piece. Here a key and
//! the short string after it are written with one reservation and one length update, each
//! piece with two overlapping loads of the *source* and two stores (no `memcpy` call; the
//! output is never read back, so the overlapping stores do not stall a later load).
//!
//! Measured on `compare --encode` of `resource-1m` (benches/README.md).
//! Every path here is exercised, at every length from 0 to 32 and with and without spare
//! capacity, by the tests at the end of this file and of `msgpack.rs`
//! (`short_strings_are_written_exactly`), and on every re-encode of the conformance corpus.

/// The longest piece [`copy_short`] copies.
pub(super) const SHORT: usize = 32;

/// Copies `src` (at most [`SHORT`] bytes) to `dst` with overlapping loads of `src`.
///
/// # Safety
///
/// `src.len() <= SHORT`, and `dst` is valid for writes of `src.len()` bytes and does not
/// overlap `src`.
#[inline(always)]
unsafe fn copy_short(src: &[u8], dst: *mut u8) {
    let n = src.len();
    let s = src.as_ptr();
    debug_assert!(n <= SHORT);
    // SAFETY: every read is within `src` (the offsets are at most `n - width` for a width
    // of at most `n`), every write within `dst[..n]` (the caller's promise), unaligned
    // reads and writes are used throughout, and the two do not overlap (the caller's
    // promise).
    unsafe {
        if n >= 16 {
            let a = s.cast::<u128>().read_unaligned();
            let b = s.add(n - 16).cast::<u128>().read_unaligned();
            dst.cast::<u128>().write_unaligned(a);
            dst.add(n - 16).cast::<u128>().write_unaligned(b);
        } else if n >= 8 {
            let a = s.cast::<u64>().read_unaligned();
            let b = s.add(n - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(a);
            dst.add(n - 8).cast::<u64>().write_unaligned(b);
        } else if n >= 4 {
            let a = s.cast::<u32>().read_unaligned();
            let b = s.add(n - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(a);
            dst.add(n - 4).cast::<u32>().write_unaligned(b);
        } else if n > 0 {
            // 1 to 3 bytes: positions 0, n/2 and n-1 cover them all.
            let (a, b, c) = (*s, *s.add(n / 2), *s.add(n - 1));
            *dst = a;
            *dst.add(n / 2) = b;
            *dst.add(n - 1) = c;
        }
    }
}

/// Appends `b` (any length; those up to [`SHORT`] bytes without a `memcpy` call).
#[inline(always)]
pub(super) fn bytes(out: &mut Vec<u8>, b: &[u8]) {
    if b.len() > SHORT {
        out.extend_from_slice(b);
        return;
    }
    out.reserve(b.len());
    let len = out.len();
    // SAFETY: `reserve` made room for `b.len()` bytes after `len`, which `copy_short`
    // (`b.len() <= SHORT`: checked above) initializes, all of them, before `set_len`
    // covers them; `b` is borrowed shared, so it is not `out`'s own buffer.
    unsafe {
        copy_short(b, out.as_mut_ptr().add(len));
        out.set_len(len + b.len());
    }
}

/// Appends `s` (under 32 bytes) as a fixstr: its header and bytes.
#[inline(always)]
pub(super) fn fixstr(out: &mut Vec<u8>, s: &[u8]) {
    debug_assert!(s.len() < 32);
    let n = s.len() & 31;
    out.reserve(1 + n);
    let len = out.len();
    // SAFETY: `reserve` made room for `1 + n` bytes after `len`; the header and the `n`
    // bytes of `s` (`n == s.len()`, under 32: the caller's promise, and the mask keeps the
    // copy within room and source whatever it passes) initialize all of them before
    // `set_len` covers them; `s` is borrowed shared, so it is not `out`'s own buffer.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        *dst = 0xa0 | n as u8;
        copy_short(&s[..n], dst.add(1));
        out.set_len(len + 1 + n);
    }
}

/// Appends `key` (an encoded key, at most [`SHORT`] bytes) and then `s` (under 32 bytes)
/// as a fixstr, with one reservation and one length update.
#[inline(always)]
pub(super) fn key_fixstr(out: &mut Vec<u8>, key: &[u8], s: &[u8]) {
    if key.len() > SHORT {
        out.extend_from_slice(key);
        return fixstr(out, s);
    }
    let n = s.len() & 31;
    debug_assert_eq!(n, s.len());
    let total = key.len() + 1 + n;
    out.reserve(total);
    let len = out.len();
    // SAFETY: `reserve` made room for `total` bytes after `len`: the key's (at most
    // `SHORT`: checked above), the header's and the `n` bytes of `s[..n]` (under 32), which
    // initialize all of them, in order and without gaps, before `set_len` covers them;
    // `key` and `s` are borrowed shared, so neither is `out`'s own buffer.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        copy_short(key, dst);
        let dst = dst.add(key.len());
        *dst = 0xa0 | n as u8;
        copy_short(&s[..n], dst.add(1));
        out.set_len(len + total);
    }
}

/// Appends `a` and then `b` (each under 32 bytes) as two fixstrs, with one reservation
/// and one length update.
#[inline(always)]
pub(super) fn fixstr_pair(out: &mut Vec<u8>, a: &[u8], b: &[u8]) {
    let (m, n) = (a.len() & 31, b.len() & 31);
    debug_assert!(m == a.len() && n == b.len());
    let total = 2 + m + n;
    out.reserve(total);
    let len = out.len();
    // SAFETY: `reserve` made room for `total` bytes after `len`: a header, the `m` bytes
    // of `a[..m]`, a header and the `n` bytes of `b[..n]` (each under 32), which initialize
    // all of them, in order and without gaps, before `set_len` covers them; `a` and `b`
    // are borrowed shared, so neither is `out`'s own buffer.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        *dst = 0xa0 | m as u8;
        copy_short(&a[..m], dst.add(1));
        let dst = dst.add(1 + m);
        *dst = 0xa0 | n as u8;
        copy_short(&b[..n], dst.add(1));
        out.set_len(len + total);
    }
}

#[cfg(test)]
mod tests {
    /// Every length from 0 to 40 (past `SHORT`, which takes the `memcpy` path), after
    /// buffers with and without spare capacity, gives exactly the bytes of
    /// `extend_from_slice`.
    #[test]
    fn short_copies_are_exact() {
        let source: Vec<u8> = (0..80u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(1))
            .collect();
        for len in 0..=40 {
            for offset in [0, 1, 7] {
                let b = &source[offset..offset + len];
                for (prefix, capacity) in [(0, 0), (3, 3), (5, 200)] {
                    let mut base = Vec::with_capacity(capacity);
                    base.extend(core::iter::repeat_n(0xee, prefix));

                    let mut out = base.clone();
                    super::bytes(&mut out, b);
                    let mut want = base.clone();
                    want.extend_from_slice(b);
                    assert_eq!(out, want, "bytes {len} {offset} {prefix}");

                    if len < 32 {
                        let mut out = base.clone();
                        super::fixstr(&mut out, b);
                        let mut want = base.clone();
                        want.push(0xa0 | len as u8);
                        want.extend_from_slice(b);
                        assert_eq!(out, want, "fixstr {len} {offset} {prefix}");

                        for key_len in [0, 1, 5, 16, 32, 33, 40] {
                            let key = &source[40..40 + key_len];
                            let mut out = base.clone();
                            super::key_fixstr(&mut out, key, b);
                            let mut want = base.clone();
                            want.extend_from_slice(key);
                            want.push(0xa0 | len as u8);
                            want.extend_from_slice(b);
                            assert_eq!(out, want, "key_fixstr {key_len} {len} {offset} {prefix}");
                            if key_len < 32 {
                                let mut out = base.clone();
                                super::fixstr_pair(&mut out, key, b);
                                let mut want = base.clone();
                                want.push(0xa0 | key_len as u8);
                                want.extend_from_slice(key);
                                want.push(0xa0 | len as u8);
                                want.extend_from_slice(b);
                                assert_eq!(out, want, "fixstr_pair {key_len} {len} {offset}");
                            }
                        }
                    }
                }
            }
        }
    }
}
