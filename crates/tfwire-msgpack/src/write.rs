//! Byte-level writer: every function appends the most compact encoding of one item.
//!
//! ```
//! use tfwire_msgpack::write;
//! let mut out = Vec::new();
//! write::map_len(&mut out, 1);
//! write::str(&mut out, "n");
//! write::int(&mut out, -33);
//! assert_eq!(out, [0x81, 0xa1, b'n', 0xd0, 0xdf]);
//! ```
//!
//! The choices are those of the `vmihailenco/msgpack` encoder with compact encoding on (what
//! go-cty uses): non-negative integers use the unsigned formats, negative ones the signed
//! formats, and lengths the smallest header that holds them.

/// Appends `nil`.
#[inline]
pub fn nil(out: &mut Vec<u8>) {
    out.push(0xc0);
}

/// Appends `true` or `false`.
#[inline]
pub fn bool(out: &mut Vec<u8>, v: bool) {
    out.push(if v { 0xc3 } else { 0xc2 });
}

/// Appends an unsigned integer: positive fixint, `uint8`, `uint16`, `uint32` or `uint64`.
#[inline]
pub fn uint(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else if v <= u8::MAX as u64 {
        out.extend_from_slice(&[0xcc, v as u8]);
    } else if v <= u16::MAX as u64 {
        out.push(0xcd);
        out.extend_from_slice(&(v as u16).to_be_bytes());
    } else if v <= u32::MAX as u64 {
        out.push(0xce);
        out.extend_from_slice(&(v as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// Appends a signed integer: non-negative values as [`uint`], negative ones as negative
/// fixint, `int8`, `int16`, `int32` or `int64`.
#[inline]
pub fn int(out: &mut Vec<u8>, v: i64) {
    if v >= 0 {
        uint(out, v as u64);
    } else if v >= -32 {
        out.push(v as i8 as u8);
    } else if v >= i8::MIN as i64 {
        out.extend_from_slice(&[0xd0, v as i8 as u8]);
    } else if v >= i16::MIN as i64 {
        out.push(0xd1);
        out.extend_from_slice(&(v as i16).to_be_bytes());
    } else if v >= i32::MIN as i64 {
        out.push(0xd2);
        out.extend_from_slice(&(v as i32).to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// Appends a `float64`.
#[inline]
pub fn f64(out: &mut Vec<u8>, v: f64) {
    out.push(0xcb);
    out.extend_from_slice(&v.to_bits().to_be_bytes());
}

/// Appends a `float32`.
#[inline]
pub fn f32(out: &mut Vec<u8>, v: f32) {
    out.push(0xca);
    out.extend_from_slice(&v.to_bits().to_be_bytes());
}

/// Appends a string header for a payload of `len` bytes: fixstr, `str8`, `str16` or `str32`.
#[inline]
pub fn str_len(out: &mut Vec<u8>, len: u32) {
    if len < 32 {
        out.push(0xa0 | len as u8);
    } else if len <= u8::MAX as u32 {
        out.extend_from_slice(&[0xd9, len as u8]);
    } else if len <= u16::MAX as u32 {
        out.push(0xda);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&len.to_be_bytes());
    }
}

/// Appends a string (header and bytes).
///
/// # Panics
/// If the string is 4 GiB or longer, which MessagePack cannot represent.
#[inline]
pub fn str(out: &mut Vec<u8>, s: &str) {
    str_len(out, len32(s.len()));
    out.extend_from_slice(s.as_bytes());
}

/// Appends a binary header for a payload of `len` bytes: `bin8`, `bin16` or `bin32`.
#[inline]
pub fn bin_len(out: &mut Vec<u8>, len: u32) {
    if len <= u8::MAX as u32 {
        out.extend_from_slice(&[0xc4, len as u8]);
    } else if len <= u16::MAX as u32 {
        out.push(0xc5);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(0xc6);
        out.extend_from_slice(&len.to_be_bytes());
    }
}

/// Appends a binary (header and bytes).
///
/// # Panics
/// If the payload is 4 GiB or longer.
#[inline]
pub fn bin(out: &mut Vec<u8>, b: &[u8]) {
    bin_len(out, len32(b.len()));
    out.extend_from_slice(b);
}

/// Appends an array header: fixarray, `array16` or `array32`.
#[inline]
pub fn array_len(out: &mut Vec<u8>, len: u32) {
    if len < 16 {
        out.push(0x90 | len as u8);
    } else if len <= u16::MAX as u32 {
        out.push(0xdc);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(0xdd);
        out.extend_from_slice(&len.to_be_bytes());
    }
}

/// Appends a map header: fixmap, `map16` or `map32`.
#[inline]
pub fn map_len(out: &mut Vec<u8>, len: u32) {
    if len < 16 {
        out.push(0x80 | len as u8);
    } else if len <= u16::MAX as u32 {
        out.push(0xde);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(0xdf);
        out.extend_from_slice(&len.to_be_bytes());
    }
}

/// Appends an extension header for a payload of `len` bytes with type `ty`: `fixext1`,
/// `fixext2`, `fixext4`, `fixext8` or `fixext16` when the length allows, else `ext8`,
/// `ext16` or `ext32`.
#[inline]
pub fn ext_header(out: &mut Vec<u8>, ty: i8, len: u32) {
    let t = ty as u8;
    match len {
        1 => out.extend_from_slice(&[0xd4, t]),
        2 => out.extend_from_slice(&[0xd5, t]),
        4 => out.extend_from_slice(&[0xd6, t]),
        8 => out.extend_from_slice(&[0xd7, t]),
        16 => out.extend_from_slice(&[0xd8, t]),
        _ if len <= u8::MAX as u32 => out.extend_from_slice(&[0xc7, len as u8, t]),
        _ if len <= u16::MAX as u32 => {
            out.push(0xc8);
            out.extend_from_slice(&(len as u16).to_be_bytes());
            out.push(t);
        }
        _ => {
            out.push(0xc9);
            out.extend_from_slice(&len.to_be_bytes());
            out.push(t);
        }
    }
}

/// Appends an extension (header and payload).
///
/// # Panics
/// If the payload is 4 GiB or longer.
#[inline]
pub fn ext(out: &mut Vec<u8>, ty: i8, payload: &[u8]) {
    ext_header(out, ty, len32(payload.len()));
    out.extend_from_slice(payload);
}

#[inline]
fn len32(len: usize) -> u32 {
    u32::try_from(len).expect("MessagePack cannot represent a payload of 4 GiB or more")
}
