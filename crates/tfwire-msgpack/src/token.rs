//! Tokens: what one MessagePack marker (and its payload) says, and where it lies.

/// A byte range `start..end` of the input, as absolute offsets.
///
/// Offsets count from the first byte the tokenizer was given (or from the base offset it was
/// created with), so spans stay meaningful when input arrives in chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// Number of bytes covered.
    #[inline]
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// What a token is, with the lengths its header declares.
///
/// Integers keep the family of their marker: `Uint` for positive fixint and `uint8`–`uint64`,
/// `Int` for negative fixint and `int8`–`int64` (whose value may still be non-negative, as in
/// `d0 05`). Floats keep their width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `nil` (`c0`).
    Nil,
    /// `false` / `true` (`c2` / `c3`).
    Bool(bool),
    /// Positive fixint or `uint8`–`uint64`.
    Uint(u64),
    /// Negative fixint or `int8`–`int64`.
    Int(i64),
    /// `float32`.
    F32(f32),
    /// `float64`.
    F64(f64),
    /// `fixstr`/`str8`/`str16`/`str32` with the payload length in bytes.
    Str(u32),
    /// `bin8`/`bin16`/`bin32` with the payload length in bytes.
    Bin(u32),
    /// `fixarray`/`array16`/`array32` with the declared number of elements.
    Array(u32),
    /// `fixmap`/`map16`/`map32` with the declared number of key-value pairs.
    Map(u32),
    /// `fixext1`…`fixext16`/`ext8`/`ext16`/`ext32`: extension type code and payload length.
    Ext(i8, u32),
}

impl Kind {
    /// Payload bytes that follow the header (strings, binaries and extensions; 0 otherwise).
    #[inline]
    pub const fn payload_len(&self) -> u32 {
        match *self {
            Kind::Str(n) | Kind::Bin(n) | Kind::Ext(_, n) => n,
            _ => 0,
        }
    }

    /// A short name for messages: `nil`, `bool`, `integer`, `float`, `string`, `binary`,
    /// `array`, `map` or `extension`.
    pub const fn name(&self) -> &'static str {
        match self {
            Kind::Nil => "nil",
            Kind::Bool(_) => "bool",
            Kind::Uint(_) | Kind::Int(_) => "integer",
            Kind::F32(_) | Kind::F64(_) => "float",
            Kind::Str(_) => "string",
            Kind::Bin(_) => "binary",
            Kind::Array(_) => "array",
            Kind::Map(_) => "map",
            Kind::Ext(..) => "extension",
        }
    }
}

/// The MessagePack format of a marker byte (one of the 36 formats of the specification).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Format {
    PositiveFixint,
    FixMap,
    FixArray,
    FixStr,
    Nil,
    /// `c1`, never used.
    Reserved,
    False,
    True,
    Bin8,
    Bin16,
    Bin32,
    Ext8,
    Ext16,
    Ext32,
    Float32,
    Float64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Int8,
    Int16,
    Int32,
    Int64,
    FixExt1,
    FixExt2,
    FixExt4,
    FixExt8,
    FixExt16,
    Str8,
    Str16,
    Str32,
    Array16,
    Array32,
    Map16,
    Map32,
    NegativeFixint,
}

impl Format {
    /// The format a marker byte introduces.
    pub const fn of(marker: u8) -> Format {
        match marker {
            0x00..=0x7f => Format::PositiveFixint,
            0x80..=0x8f => Format::FixMap,
            0x90..=0x9f => Format::FixArray,
            0xa0..=0xbf => Format::FixStr,
            0xc0 => Format::Nil,
            0xc1 => Format::Reserved,
            0xc2 => Format::False,
            0xc3 => Format::True,
            0xc4 => Format::Bin8,
            0xc5 => Format::Bin16,
            0xc6 => Format::Bin32,
            0xc7 => Format::Ext8,
            0xc8 => Format::Ext16,
            0xc9 => Format::Ext32,
            0xca => Format::Float32,
            0xcb => Format::Float64,
            0xcc => Format::Uint8,
            0xcd => Format::Uint16,
            0xce => Format::Uint32,
            0xcf => Format::Uint64,
            0xd0 => Format::Int8,
            0xd1 => Format::Int16,
            0xd2 => Format::Int32,
            0xd3 => Format::Int64,
            0xd4 => Format::FixExt1,
            0xd5 => Format::FixExt2,
            0xd6 => Format::FixExt4,
            0xd7 => Format::FixExt8,
            0xd8 => Format::FixExt16,
            0xd9 => Format::Str8,
            0xda => Format::Str16,
            0xdb => Format::Str32,
            0xdc => Format::Array16,
            0xdd => Format::Array32,
            0xde => Format::Map16,
            0xdf => Format::Map32,
            0xe0..=0xff => Format::NegativeFixint,
        }
    }

    /// The specification's name of the format, e.g. `"uint8"`, `"fixstr"`, `"array32"`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::PositiveFixint => "positive fixint",
            Format::FixMap => "fixmap",
            Format::FixArray => "fixarray",
            Format::FixStr => "fixstr",
            Format::Nil => "nil",
            Format::Reserved => "(never used)",
            Format::False => "false",
            Format::True => "true",
            Format::Bin8 => "bin8",
            Format::Bin16 => "bin16",
            Format::Bin32 => "bin32",
            Format::Ext8 => "ext8",
            Format::Ext16 => "ext16",
            Format::Ext32 => "ext32",
            Format::Float32 => "float32",
            Format::Float64 => "float64",
            Format::Uint8 => "uint8",
            Format::Uint16 => "uint16",
            Format::Uint32 => "uint32",
            Format::Uint64 => "uint64",
            Format::Int8 => "int8",
            Format::Int16 => "int16",
            Format::Int32 => "int32",
            Format::Int64 => "int64",
            Format::FixExt1 => "fixext1",
            Format::FixExt2 => "fixext2",
            Format::FixExt4 => "fixext4",
            Format::FixExt8 => "fixext8",
            Format::FixExt16 => "fixext16",
            Format::Str8 => "str8",
            Format::Str16 => "str16",
            Format::Str32 => "str32",
            Format::Array16 => "array16",
            Format::Array32 => "array32",
            Format::Map16 => "map16",
            Format::Map32 => "map32",
            Format::NegativeFixint => "negative fixint",
        }
    }
}

/// One complete token: its kind, the marker byte it started with, and the bytes it covers.
///
/// For strings, binaries and extensions the span covers the header *and* the payload; for
/// arrays and maps it covers only the header (the elements are tokens of their own).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    /// What the token is.
    pub kind: Kind,
    /// The marker byte.
    pub marker: u8,
    /// Header length in bytes (marker included).
    pub header_len: u8,
    /// Where the token lies.
    pub span: Span,
}

impl Token {
    /// The format of the marker.
    #[inline]
    pub const fn format(&self) -> Format {
        Format::of(self.marker)
    }

    /// The payload of a string, binary or extension (empty for other kinds). For an
    /// extension the type byte is part of the header, not of the payload.
    #[inline]
    pub const fn payload(&self) -> Span {
        Span::new(self.span.start + self.header_len as usize, self.span.end)
    }

    /// The fewest bytes that must follow this token for its value to be complete: one per
    /// element of an array, two per pair of a map (each element is at least one byte), zero
    /// otherwise. A caller holding the complete input rejects a container whose
    /// `min_remaining` exceeds what is left before reserving anything for it.
    #[inline]
    pub const fn min_remaining(&self) -> u64 {
        match self.kind {
            Kind::Array(n) => n as u64,
            Kind::Map(n) => 2 * n as u64,
            _ => 0,
        }
    }
}
