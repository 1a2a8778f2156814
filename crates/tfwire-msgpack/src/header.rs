//! Decoding one marker and its fixed-size length fields.

use crate::error::ErrorKind;
use crate::token::Kind;

/// A decoded header: the token kind with its declared lengths, and how many bytes the header
/// occupies (marker included; for extensions, the type byte too).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    /// The token kind.
    pub kind: Kind,
    /// The marker byte.
    pub marker: u8,
    /// Header length in bytes: 1 to 9.
    pub len: u8,
}

#[inline(always)]
fn be16(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[0], b[1]])
}

#[inline(always)]
fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

#[inline(always)]
fn be64(b: &[u8]) -> u64 {
    u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// Header length (marker included) of every marker; `0` marks the reserved `0xc1`.
const HEADER_LEN: [u8; 256] = {
    // Each family's markers in order, with the bytes that follow each marker: a length or
    // a value of 1, 2, 4 or 8 bytes, and an extension's type byte.
    const FAMILIES: [(usize, &[u8]); 9] = [
        (0xc4, &[1, 2, 4]),       // bin8, bin16, bin32
        (0xc7, &[2, 3, 5]),       // ext8, ext16, ext32: length + type
        (0xca, &[4, 8]),          // float32, float64
        (0xcc, &[1, 2, 4, 8]),    // uint8 to uint64
        (0xd0, &[1, 2, 4, 8]),    // int8 to int64
        (0xd4, &[1, 1, 1, 1, 1]), // fixext1 to fixext16: type
        (0xd9, &[1, 2, 4]),       // str8, str16, str32
        (0xdc, &[2, 4]),          // array16, array32
        (0xde, &[2, 4]),          // map16, map32
    ];
    let mut t = [1u8; 256];
    t[0xc1] = 0;
    let mut f = 0;
    while f < FAMILIES.len() {
        let (first, extra) = FAMILIES[f];
        let mut i = 0;
        while i < extra.len() {
            t[first + i] = 1 + extra[i];
            i += 1;
        }
        f += 1;
    }
    t
};

/// Decodes the header at the start of `bytes`.
///
/// The payload of a string, binary or extension is not looked at (it need not be present).
/// An error is the [`ErrorKind`] of the [`Error`](crate::Error) a tokenizer reports for the
/// header (the caller knows its offset): the bytes end inside the header, or the reserved
/// marker `0xc1`.
///
/// ```
/// use tfwire_msgpack::{read_header, ErrorKind, Kind};
/// let h = read_header(&[0xdb, 0xff, 0xff, 0xff, 0xff]).unwrap();
/// assert_eq!((h.kind, h.len), (Kind::Str(u32::MAX), 5));
/// assert_eq!(read_header(&[0xcd, 0x01]), Err(ErrorKind::Incomplete { needed: 1 }));
/// assert_eq!(read_header(&[]), Err(ErrorKind::Incomplete { needed: 1 }));
/// ```
#[inline]
pub fn read_header(bytes: &[u8]) -> Result<Header, ErrorKind> {
    let Some(&m) = bytes.first() else {
        return Err(ErrorKind::Incomplete { needed: 1 });
    };
    let len = HEADER_LEN[m as usize];
    if len == 0 {
        return Err(ErrorKind::ReservedMarker);
    }
    if bytes.len() < len as usize {
        return Err(ErrorKind::Incomplete {
            needed: len as usize - bytes.len(),
        });
    }
    let b = &bytes[1..len as usize];
    let kind = match m {
        0x00..=0x7f => Kind::Uint(m as u64),
        0x80..=0x8f => Kind::Map((m & 0x0f) as u32),
        0x90..=0x9f => Kind::Array((m & 0x0f) as u32),
        0xa0..=0xbf => Kind::Str((m & 0x1f) as u32),
        0xc0 => Kind::Nil,
        0xc2 => Kind::Bool(false),
        0xc3 => Kind::Bool(true),
        0xc4 => Kind::Bin(b[0] as u32),
        0xc5 => Kind::Bin(be16(b) as u32),
        0xc6 => Kind::Bin(be32(b)),
        0xc7 => Kind::Ext(b[1] as i8, b[0] as u32),
        0xc8 => Kind::Ext(b[2] as i8, be16(b) as u32),
        0xc9 => Kind::Ext(b[4] as i8, be32(b)),
        0xca => Kind::F32(f32::from_bits(be32(b))),
        0xcb => Kind::F64(f64::from_bits(be64(b))),
        0xcc => Kind::Uint(b[0] as u64),
        0xcd => Kind::Uint(be16(b) as u64),
        0xce => Kind::Uint(be32(b) as u64),
        0xcf => Kind::Uint(be64(b)),
        0xd0 => Kind::Int(b[0] as i8 as i64),
        0xd1 => Kind::Int(be16(b) as i16 as i64),
        0xd2 => Kind::Int(be32(b) as i32 as i64),
        0xd3 => Kind::Int(be64(b) as i64),
        0xd4 => Kind::Ext(b[0] as i8, 1),
        0xd5 => Kind::Ext(b[0] as i8, 2),
        0xd6 => Kind::Ext(b[0] as i8, 4),
        0xd7 => Kind::Ext(b[0] as i8, 8),
        0xd8 => Kind::Ext(b[0] as i8, 16),
        0xd9 => Kind::Str(b[0] as u32),
        0xda => Kind::Str(be16(b) as u32),
        0xdb => Kind::Str(be32(b)),
        0xdc => Kind::Array(be16(b) as u32),
        0xdd => Kind::Array(be32(b)),
        0xde => Kind::Map(be16(b) as u32),
        0xdf => Kind::Map(be32(b)),
        0xe0..=0xff => Kind::Int(m as i8 as i64),
        0xc1 => return Err(ErrorKind::ReservedMarker),
    };
    Ok(Header {
        kind,
        marker: m,
        len,
    })
}

/// If `bytes` starts with a complete string token (`fixstr`, `str8`, `str16` or `str32`),
/// its payload and the token's total length. A fast path for readers that expect a string;
/// anything else (another kind, or an incomplete token) gives `None`, and the reader falls
/// back to [`read_header`].
///
/// ```
/// use tfwire_msgpack::str_token;
/// assert_eq!(str_token(b"\xa3abcdef"), Some((&b"abc"[..], 4)));
/// assert_eq!(str_token(b"\xd9\x02hi"), Some((&b"hi"[..], 4)));
/// assert_eq!(str_token(b"\xa3ab"), None); // incomplete
/// assert_eq!(str_token(b"\x01"), None); // not a string
/// ```
#[inline]
pub fn str_token(bytes: &[u8]) -> Option<(&[u8], usize)> {
    let (&m, rest) = bytes.split_first()?;
    let (header, len) = match m {
        0xa0..=0xbf => (1usize, (m & 0x1f) as usize),
        0xd9 => (2, *rest.first()? as usize),
        0xda => (3, be16(rest.get(..2)?) as usize),
        0xdb => (5, be32(rest.get(..4)?) as usize),
        _ => return None,
    };
    let end = header.checked_add(len)?;
    Some((bytes.get(header..end)?, end))
}
