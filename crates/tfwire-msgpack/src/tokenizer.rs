//! The tokenizer over the bytes available so far.

use crate::error::{Error, ErrorKind};
use crate::header::read_header;
use crate::token::{Span, Token};

/// Reads tokens one by one from a byte slice.
///
/// Offsets in tokens and errors are absolute: the position in the slice plus the base given
/// to [`Tokenizer::with_base`] (0 for [`Tokenizer::new`]).
///
/// When the bytes end inside a token, reads fail with [`ErrorKind::Incomplete`] and the
/// position stays at the start of that token: a caller with more bytes builds a new tokenizer
/// over the longer slice at the same position ([`Tokenizer::with_position`]) and reads again.
#[derive(Clone, Debug)]
pub struct Tokenizer<'b> {
    buf: &'b [u8],
    pos: usize,
    base: usize,
}

impl<'b> Tokenizer<'b> {
    /// A tokenizer at the start of `buf`, offsets counted from 0.
    #[inline]
    pub const fn new(buf: &'b [u8]) -> Tokenizer<'b> {
        Tokenizer {
            buf,
            pos: 0,
            base: 0,
        }
    }

    /// A tokenizer at the start of `buf` whose first byte has absolute offset `base`.
    #[inline]
    pub const fn with_base(buf: &'b [u8], base: usize) -> Tokenizer<'b> {
        Tokenizer { buf, pos: 0, base }
    }

    /// A tokenizer positioned at index `pos` of `buf` (offsets counted from 0).
    ///
    /// # Panics
    /// If `pos > buf.len()`.
    #[inline]
    pub fn with_position(buf: &'b [u8], pos: usize) -> Tokenizer<'b> {
        assert!(pos <= buf.len(), "position past the end of the buffer");
        Tokenizer { buf, pos, base: 0 }
    }

    /// Absolute offset of the next byte to read.
    #[inline]
    pub const fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Index of the next byte to read within the slice.
    #[inline]
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    #[inline]
    pub const fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Whether every byte has been read.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.pos == self.buf.len()
    }

    /// The slice the tokenizer reads.
    #[inline]
    pub const fn buffer(&self) -> &'b [u8] {
        self.buf
    }

    /// The bytes of an absolute span that lies within the buffer.
    ///
    /// # Panics
    /// If the span is not inside the buffer.
    #[inline]
    pub fn bytes(&self, span: Span) -> &'b [u8] {
        &self.buf[span.start - self.base..span.end - self.base]
    }

    /// The payload bytes of a string, binary or extension token read by this tokenizer.
    #[inline]
    pub fn payload(&self, token: &Token) -> &'b [u8] {
        self.bytes(token.payload())
    }

    /// Reads the next token without consuming it.
    #[inline]
    pub fn peek_token(&self) -> Result<Token, Error> {
        self.clone().next_token()
    }

    /// Reads the next token. Strings, binaries and extensions are read whole (header and
    /// payload); arrays and maps yield their header only.
    #[inline(always)]
    pub fn next_token(&mut self) -> Result<Token, Error> {
        let rest = &self.buf[self.pos..];
        let start = self.offset();
        let h = match read_header(rest) {
            Ok(h) => h,
            Err(kind) => {
                return Err(Error {
                    kind,
                    offset: start,
                });
            }
        };
        // u64 arithmetic: a 4 GiB payload length cannot overflow, even on 32-bit targets.
        let total = h.len as u64 + h.kind.payload_len() as u64;
        if total > rest.len() as u64 {
            let needed = usize::try_from(total - rest.len() as u64).unwrap_or(usize::MAX);
            return Err(Error {
                kind: ErrorKind::Incomplete { needed },
                offset: start,
            });
        }
        let total = total as usize;
        self.pos += total;
        Ok(Token {
            kind: h.kind,
            marker: h.marker,
            header_len: h.len,
            span: Span::new(start, start + total),
        })
    }

    /// Skips one whole value (a container with everything in it) and returns its span.
    ///
    /// Constant memory whatever the declared lengths. If the bytes end inside the value, the
    /// position goes back to where the value starts and the error says how many more bytes
    /// the token it stopped at needs (more may be needed after it).
    pub fn skip_value(&mut self) -> Result<Span, Error> {
        let start_pos = self.pos;
        let start = self.offset();
        // The common case, a complete well-formed value: one tight loop over the markers.
        // Anything else (the bytes end inside the value, a reserved marker) is walked again
        // token by token below, for the exact error.
        if let Some(end) = skip_complete(&self.buf[self.pos..]) {
            self.pos += end;
            return Ok(Span::new(start, self.offset()));
        }
        let mut pending: u64 = 1;
        while pending > 0 {
            match self.next_token() {
                Ok(t) => {
                    pending = pending - 1 + t.min_remaining();
                }
                Err(e) => {
                    self.pos = start_pos;
                    return Err(e);
                }
            }
        }
        Ok(Span::new(start, self.offset()))
    }

    /// Skips values resumably: `pending` is the number of values still to skip (arrays and
    /// maps add their elements to it). Returns `Ok(())` when it reaches 0; on incomplete input
    /// the position and `pending` describe exactly what is left, so the caller can resume
    /// with more bytes.
    pub fn skip_pending(&mut self, pending: &mut u64) -> Result<(), Error> {
        while *pending > 0 {
            let t = self.next_token()?;
            *pending = *pending - 1 + t.min_remaining();
        }
        Ok(())
    }
}

impl Iterator for Tokenizer<'_> {
    type Item = Result<Token, Error>;

    /// Yields tokens until the input ends; an error (including an incomplete trailing token)
    /// ends the iteration after it is yielded.
    fn next(&mut self) -> Option<Self::Item> {
        if self.is_empty() {
            return None;
        }
        let r = self.next_token();
        if r.is_err() {
            self.pos = self.buf.len();
        }
        Some(r)
    }
}

/// The length of the complete value at the start of `buf`, or `None` if `buf` ends inside it
/// or it holds a reserved marker. Constant memory: a count of values still to skip.
///
/// Positions are `u64` and checked against the input once at the end (and whenever a length
/// field is read): a position past the end fails the next read or the final check.
#[inline]
fn skip_complete(buf: &[u8]) -> Option<usize> {
    let be = |at: u64, n: usize| -> Option<u64> {
        let at = usize::try_from(at).ok()?;
        let b = buf.get(at..at.checked_add(n)?)?;
        Some(b.iter().fold(0u64, |acc, &x| acc << 8 | u64::from(x)))
    };
    let mut pos = 0u64;
    let mut pending: u64 = 1;
    while pending > 0 {
        pending -= 1;
        let m = *buf.get(usize::try_from(pos).ok()?)?;
        // The common tokens first: short strings, small integers, short containers.
        if m & 0xe0 == 0xa0 {
            pos += 1 + u64::from(m & 0x1f);
            continue;
        }
        if m <= 0x7f || m >= 0xe0 {
            pos += 1;
            continue;
        }
        // (bytes of this token, values it adds)
        let (len, add): (u64, u64) = match m {
            0x80..=0x8f => (1, 2 * u64::from(m & 0x0f)),
            0x90..=0x9f => (1, u64::from(m & 0x0f)),
            0xc0 | 0xc2 | 0xc3 => (1, 0),
            0xd9 | 0xc4 => (2 + be(pos + 1, 1)?, 0),
            0xda | 0xc5 => (3 + be(pos + 1, 2)?, 0),
            0xdb | 0xc6 => (5 + be(pos + 1, 4)?, 0),
            0xc7 => (3 + be(pos + 1, 1)?, 0),
            0xc8 => (4 + be(pos + 1, 2)?, 0),
            0xc9 => (6 + be(pos + 1, 4)?, 0),
            0xca | 0xce | 0xd2 => (5, 0),
            0xcb | 0xcf | 0xd3 => (9, 0),
            0xcc | 0xd0 => (2, 0),
            0xcd | 0xd1 => (3, 0),
            0xd4 => (3, 0),
            0xd5 => (4, 0),
            0xd6 => (6, 0),
            0xd7 => (10, 0),
            0xd8 => (18, 0),
            0xdc => (3, be(pos + 1, 2)?),
            0xdd => (5, be(pos + 1, 4)?),
            0xde => (3, 2 * be(pos + 1, 2)?),
            0xdf => (5, 2 * be(pos + 1, 4)?),
            // 0xc1, reserved (the fixed formats are handled above).
            _ => return None,
        };
        pos += len;
        pending = pending.saturating_add(add);
    }
    let end = usize::try_from(pos).ok()?;
    (end <= buf.len()).then_some(end)
}
