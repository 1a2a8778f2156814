//! The MessagePack token source over a complete input.

use super::fault::Fault;
use super::source::{Source, Tok};
use crate::error::ErrorKind;
use tfwire_msgpack::{Kind, Token, read_header, str_token};

/// Converts a tokenizer token into a machine token, given its payload.
#[inline]
pub(crate) fn convert<'a>(t: &Token, payload: &'a [u8]) -> Result<Tok<'a>, ErrorKind> {
    convert_kind(t.kind, payload).map_err(|()| ErrorKind::InvalidUtf8)
}

/// [`convert`] from the kind alone; the only error is invalid UTF-8 in a string.
#[inline(always)]
fn convert_kind(kind: Kind, payload: &[u8]) -> Result<Tok<'_>, ()> {
    Ok(match kind {
        Kind::Nil => Tok::Null,
        Kind::Bool(b) => Tok::Bool(b),
        Kind::Uint(u) => Tok::Uint(u),
        Kind::Int(i) => Tok::Int(i),
        Kind::F32(f) => Tok::F32(f),
        Kind::F64(f) => Tok::F64(f),
        Kind::Str(_) => match crate::text::utf8(payload) {
            Some(s) => Tok::Str(s),
            None => return Err(()),
        },
        Kind::Bin(_) => Tok::Bin(payload),
        Kind::Array(n) => Tok::Array(n),
        Kind::Map(n) => Tok::Map(n),
        Kind::Ext(code, _) => Tok::Ext(code, payload),
    })
}

#[cold]
fn header_error(e: tfwire_msgpack::ErrorKind, at: usize) -> Fault {
    match e {
        tfwire_msgpack::ErrorKind::ReservedMarker => {
            Fault::Fail(ErrorKind::InvalidMarker(0xc1), at)
        }
        _ => Fault::Fail(ErrorKind::UnexpectedEof, at),
    }
}

/// Reads tokens from a complete MessagePack input.
pub(crate) struct Complete<'a> {
    pub(super) buf: &'a [u8],
    /// Index of the next byte to read.
    pub(super) pos: usize,
    /// Index of the first byte of the token last read.
    pub(super) last: usize,
}

impl<'a> Complete<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Complete<'a> {
        Complete {
            buf: input,
            pos: 0,
            last: 0,
        }
    }
}

impl<'a> Source<'a> for Complete<'a> {
    const JSON: bool = false;
    type Json = super::source::NotJson;

    #[inline(always)]
    fn json(&mut self) -> Option<&mut super::source::NotJson> {
        None
    }

    #[inline(always)]
    fn next(&mut self) -> Result<Tok<'a>, Fault> {
        let start = self.pos;
        self.last = start;
        let rest = &self.buf[start..];
        let h = match read_header(rest) {
            Ok(h) => h,
            Err(e) => return Err(header_error(e, start)),
        };
        let from = h.len as usize;
        let to = from + h.kind.payload_len() as usize;
        let Some(payload) = rest.get(from..to) else {
            return Err(Fault::Fail(ErrorKind::UnexpectedEof, start));
        };
        self.pos = start + to;
        match convert_kind(h.kind, payload) {
            Ok(tok) => Ok(tok),
            Err(()) => Err(Fault::Fail(ErrorKind::InvalidUtf8, start)),
        }
    }

    #[inline(always)]
    fn try_str(&mut self) -> Option<&'a str> {
        let rest = &self.buf[self.pos..];
        let (payload, len) = str_token(rest)?;
        let s = crate::nfc::utf8_nfc_within(rest, len - payload.len(), payload.len())?;
        self.last = self.pos;
        self.pos += len;
        Some(s)
    }

    #[inline(always)]
    fn try_number(&mut self) -> Option<crate::Number<'a>> {
        use crate::Number;
        let b = &self.buf[self.pos..];
        let m = *b.first()?;
        let (n, len) = match m {
            0x00..=0x7f => (Number::Uint(m as u64), 1),
            0xe0..=0xff => (Number::Int(m as i8 as i64), 1),
            // float32, float64, uint8..uint64, int8..int64: the payload is 1, 2, 4 or 8
            // bytes, given by the marker's low two bits, read here without the general
            // header dispatch.
            0xca..=0xd3 => {
                let size = 1usize << (m & 3);
                let p = b.get(1..1 + size)?;
                let v = match *p {
                    [x] => u64::from(x),
                    [x, y] => u64::from(u16::from_be_bytes([x, y])),
                    [x, y, z, w] => u64::from(u32::from_be_bytes([x, y, z, w])),
                    _ => u64::from_be_bytes(p.try_into().ok()?),
                };
                let n = match m {
                    0xca => Number::F32(f32::from_bits(v as u32)),
                    0xcb => Number::F64(f64::from_bits(v)),
                    0xcc..=0xcf => Number::Uint(v),
                    // Sign-extended from the payload's width.
                    _ => Number::Int(((v << (64 - 8 * size)) as i64) >> (64 - 8 * size)),
                };
                if matches!(n, Number::F32(f) if f.is_nan())
                    || matches!(n, Number::F64(f) if f.is_nan())
                {
                    // The general path reports it.
                    return None;
                }
                (n, 1 + size)
            }
            // A number as its decimal text (go-cty's form for numbers that neither an int64
            // nor a float64 holds exactly): parsed here; text that is not a valid number
            // takes the general path, which reports it.
            // (Out of line: the parse's registers would otherwise cost every number a
            // heavier entry and exit.)
            0xa0..=0xbf | 0xd9 => decimal_text(b)?,
            _ => return None,
        };
        self.last = self.pos;
        self.pos += len;
        Some(n)
    }

    #[inline(always)]
    fn try_container(&mut self, map: bool) -> Option<u32> {
        let b = &self.buf[self.pos..];
        let m = *b.first()?;
        // fixmap 0x80..=0x8f, fixarray 0x90..=0x9f; map16/map32 0xde/0xdf, array16/array32
        // 0xdc/0xdd (the count big-endian in the next 2 or 4 bytes).
        let (fix, wide) = if map { (0x80, 0xde) } else { (0x90, 0xdc) };
        let (n, len) = if m & 0xf0 == fix {
            (u32::from(m & 0x0f), 1)
        } else if m == wide {
            let p = b.get(1..3)?;
            (u32::from(u16::from_be_bytes([p[0], p[1]])), 3)
        } else if m == wide + 1 {
            let p = b.get(1..5)?;
            (u32::from_be_bytes([p[0], p[1], p[2], p[3]]), 5)
        } else {
            return None;
        };
        self.last = self.pos;
        self.pos += len;
        Some(n)
    }

    #[inline]
    fn try_null(&mut self) -> bool {
        if self.buf.get(self.pos) == Some(&0xc0) {
            self.last = self.pos;
            self.pos += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    fn try_bool(&mut self) -> Option<Option<bool>> {
        let v = match *self.buf.get(self.pos)? {
            0xc0 => None,
            0xc2 => Some(false),
            0xc3 => Some(true),
            _ => return None,
        };
        self.last = self.pos;
        self.pos += 1;
        Some(v)
    }

    #[inline]
    fn expect_key(&mut self, encoded: &[u8], _name: &str) -> bool {
        if self
            .buf
            .get(self.pos..self.pos + encoded.len())
            .is_some_and(|b| crate::text::eq_short(b, encoded))
        {
            self.last = self.pos;
            self.pos += encoded.len();
            true
        } else {
            false
        }
    }

    #[inline]
    fn offset(&self) -> usize {
        self.last
    }

    #[inline]
    fn position(&self) -> usize {
        self.pos
    }

    fn finish(&mut self) -> Result<(), Fault> {
        if self.pos == self.buf.len() {
            Ok(())
        } else {
            Err(Fault::Fail(ErrorKind::TrailingBytes, self.pos))
        }
    }
}

/// A number as decimal text at the start of `b` (a fixstr or str8 token), and the token's
/// length; `None` when it is not valid number text (the general path then reports it).
#[inline(never)]
fn decimal_text(b: &[u8]) -> Option<(crate::Number<'_>, usize)> {
    let (payload, len) = str_token(b)?;
    if let Some(n) = crate::Number::parse_plain(payload) {
        return Some((n, len));
    }
    let s = crate::text::utf8(payload)?;
    Some((crate::Number::parse(s).ok()?, len))
}
