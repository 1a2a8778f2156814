//! Boundary tests for every MessagePack format: each row is a value, the bytes the
//! specification prescribes for it (the most compact encoding), and the format of its marker.
//! Every row is checked three ways: the writer produces the bytes, the tokenizer reads them
//! back to the value, and every proper prefix of the bytes is reported incomplete with the
//! exact number of missing bytes.

use tfwire_msgpack::{Error, ErrorKind, Format, Kind, Token, Tokenizer, read_header, write};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// What a row writes.
#[derive(Clone, Copy)]
enum W {
    Uint(u64),
    Int(i64),
    Str(usize),
    Bin(usize),
    Array(u32),
    Map(u32),
    Ext(i8, usize),
}

fn write_row(w: W) -> Vec<u8> {
    let mut out = Vec::new();
    match w {
        W::Uint(v) => write::uint(&mut out, v),
        W::Int(v) => write::int(&mut out, v),
        W::Str(n) => write::str(&mut out, &"x".repeat(n)),
        W::Bin(n) => write::bin(&mut out, &vec![7u8; n]),
        W::Array(n) => write::array_len(&mut out, n),
        W::Map(n) => write::map_len(&mut out, n),
        W::Ext(t, n) => write::ext(&mut out, t, &vec![9u8; n]),
    }
    out
}

fn expected_kind(w: W) -> Kind {
    match w {
        W::Uint(v) => Kind::Uint(v),
        W::Int(v) if v >= 0 => Kind::Uint(v as u64),
        W::Int(v) => Kind::Int(v),
        W::Str(n) => Kind::Str(n as u32),
        W::Bin(n) => Kind::Bin(n as u32),
        W::Array(n) => Kind::Array(n),
        W::Map(n) => Kind::Map(n),
        W::Ext(t, n) => Kind::Ext(t, n as u32),
    }
}

/// (value, header bytes in hex, format). For strings, binaries and extensions the payload
/// follows the header and is generated.
const ROWS: &[(W, &str, Format)] = &[
    (W::Uint(0), "00", Format::PositiveFixint),
    (W::Uint(127), "7f", Format::PositiveFixint),
    (W::Uint(128), "cc80", Format::Uint8),
    (W::Uint(255), "ccff", Format::Uint8),
    (W::Uint(256), "cd0100", Format::Uint16),
    (W::Uint(65535), "cdffff", Format::Uint16),
    (W::Uint(65536), "ce00010000", Format::Uint32),
    (W::Uint(1 << 31), "ce80000000", Format::Uint32),
    (W::Uint(u32::MAX as u64), "ceffffffff", Format::Uint32),
    (W::Uint(1 << 32), "cf0000000100000000", Format::Uint64),
    (W::Uint(1 << 63), "cf8000000000000000", Format::Uint64),
    (W::Uint(u64::MAX), "cfffffffffffffffff", Format::Uint64),
    (W::Int(0), "00", Format::PositiveFixint),
    (W::Int(127), "7f", Format::PositiveFixint),
    (W::Int(i64::MAX), "cf7fffffffffffffff", Format::Uint64),
    (W::Int(-1), "ff", Format::NegativeFixint),
    (W::Int(-32), "e0", Format::NegativeFixint),
    (W::Int(-33), "d0df", Format::Int8),
    (W::Int(-128), "d080", Format::Int8),
    (W::Int(-129), "d1ff7f", Format::Int16),
    (W::Int(-32768), "d18000", Format::Int16),
    (W::Int(-32769), "d2ffff7fff", Format::Int32),
    (W::Int(-(1 << 31)), "d280000000", Format::Int32),
    (W::Int(-(1 << 31) - 1), "d3ffffffff7fffffff", Format::Int64),
    (W::Int(i64::MIN), "d38000000000000000", Format::Int64),
    (W::Str(0), "a0", Format::FixStr),
    (W::Str(31), "bf", Format::FixStr),
    (W::Str(32), "d920", Format::Str8),
    (W::Str(255), "d9ff", Format::Str8),
    (W::Str(256), "da0100", Format::Str16),
    (W::Str(65535), "daffff", Format::Str16),
    (W::Str(65536), "db00010000", Format::Str32),
    (W::Bin(0), "c400", Format::Bin8),
    (W::Bin(255), "c4ff", Format::Bin8),
    (W::Bin(256), "c50100", Format::Bin16),
    (W::Bin(65535), "c5ffff", Format::Bin16),
    (W::Bin(65536), "c600010000", Format::Bin32),
    (W::Array(0), "90", Format::FixArray),
    (W::Array(15), "9f", Format::FixArray),
    (W::Array(16), "dc0010", Format::Array16),
    (W::Array(65535), "dcffff", Format::Array16),
    (W::Array(65536), "dd00010000", Format::Array32),
    (W::Array(u32::MAX), "ddffffffff", Format::Array32),
    (W::Map(0), "80", Format::FixMap),
    (W::Map(15), "8f", Format::FixMap),
    (W::Map(16), "de0010", Format::Map16),
    (W::Map(65535), "deffff", Format::Map16),
    (W::Map(65536), "df00010000", Format::Map32),
    (W::Map(u32::MAX), "dfffffffff", Format::Map32),
    (W::Ext(0, 1), "d400", Format::FixExt1),
    (W::Ext(12, 2), "d50c", Format::FixExt2),
    (W::Ext(-1, 4), "d6ff", Format::FixExt4),
    (W::Ext(1, 8), "d701", Format::FixExt8),
    (W::Ext(127, 16), "d87f", Format::FixExt16),
    (W::Ext(0, 0), "c70000", Format::Ext8),
    (W::Ext(12, 3), "c7030c", Format::Ext8),
    (W::Ext(-128, 17), "c71180", Format::Ext8),
    (W::Ext(5, 255), "c7ff05", Format::Ext8),
    (W::Ext(5, 256), "c8010005", Format::Ext16),
    (W::Ext(5, 65535), "c8ffff05", Format::Ext16),
    (W::Ext(5, 65536), "c90001000005", Format::Ext32),
];

#[test]
fn every_format_boundary_writes_reads_and_resumes() {
    for &(w, header_hex, format) in ROWS {
        let header = hex(header_hex);
        let bytes = write_row(w);
        assert_eq!(
            &bytes[..header.len()],
            &header[..],
            "header of {header_hex}"
        );
        let kind = expected_kind(w);
        assert_eq!(
            bytes.len(),
            header.len() + kind.payload_len() as usize,
            "{header_hex}"
        );

        let mut t = Tokenizer::new(&bytes);
        let tok: Token = t.next_token().unwrap();
        assert_eq!(tok.kind, kind, "{header_hex}");
        assert_eq!(tok.format(), format, "{header_hex}");
        assert_eq!(tok.header_len as usize, header.len(), "{header_hex}");
        assert_eq!((tok.span.start, tok.span.end), (0, bytes.len()));
        assert!(t.is_empty());

        // Every proper prefix is incomplete by exactly the missing byte count, and the
        // tokenizer stays at the start of the token.
        for cut in 0..bytes.len() {
            let mut t = Tokenizer::new(&bytes[..cut]);
            let err = t.next_token().unwrap_err();
            let needed = if cut == 0 {
                1 // only the marker tells the header's length
            } else if cut < header.len() {
                header.len() - cut
            } else {
                bytes.len() - cut
            };
            assert_eq!(
                err,
                Error {
                    kind: ErrorKind::Incomplete { needed },
                    offset: 0
                },
                "{header_hex} cut {cut}"
            );
            assert_eq!(t.position(), 0);
        }
    }
}

#[test]
fn scalars_without_a_writer_row() {
    let cases: &[(&str, Kind, Format)] = &[
        ("c0", Kind::Nil, Format::Nil),
        ("c2", Kind::Bool(false), Format::False),
        ("c3", Kind::Bool(true), Format::True),
        ("ca3f800000", Kind::F32(1.0), Format::Float32),
        ("cb3ff8000000000000", Kind::F64(1.5), Format::Float64),
        (
            "cb7ff0000000000000",
            Kind::F64(f64::INFINITY),
            Format::Float64,
        ),
        ("cc05", Kind::Uint(5), Format::Uint8),
        ("cd0005", Kind::Uint(5), Format::Uint16),
        ("d005", Kind::Int(5), Format::Int8),
        ("d0ff", Kind::Int(-1), Format::Int8),
        ("d17fff", Kind::Int(32767), Format::Int16),
        ("d27fffffff", Kind::Int(i32::MAX as i64), Format::Int32),
        ("d37fffffffffffffff", Kind::Int(i64::MAX), Format::Int64),
    ];
    for &(h, kind, format) in cases {
        let b = hex(h);
        let tok = Tokenizer::new(&b).next_token().unwrap();
        assert_eq!((tok.kind, tok.format()), (kind, format), "{h}");
    }
    let mut out = Vec::new();
    write::f64(&mut out, 1.5);
    write::f32(&mut out, 1.0);
    write::nil(&mut out);
    write::bool(&mut out, true);
    write::bool(&mut out, false);
    assert_eq!(out, hex("cb3ff8000000000000 ca3f800000 c0 c3 c2"));
}

#[test]
fn reserved_marker_is_an_error_with_offset() {
    let b = hex("91c1");
    let mut t = Tokenizer::new(&b);
    t.next_token().unwrap();
    let e = t.next_token().unwrap_err();
    assert_eq!(
        e,
        Error {
            kind: ErrorKind::ReservedMarker,
            offset: 1
        }
    );
    assert_eq!(e.to_string(), "invalid MessagePack marker 0xc1 (at byte 1)");
    assert!(read_header(&[0xc1]).is_err());
}

#[test]
fn every_marker_byte_has_a_header_rule() {
    // No marker byte panics, and the header length agrees with the format.
    for m in 0..=255u8 {
        let mut b = vec![m];
        b.extend_from_slice(&[0u8; 8]);
        match read_header(&b) {
            Ok(h) => assert_eq!(h.marker, m),
            Err(e) => assert_eq!((m, e), (0xc1, tfwire_msgpack::ErrorKind::ReservedMarker)),
        }
    }
}

#[test]
fn hostile_lengths_reserve_nothing() {
    // A 5-byte array32 header claiming 2^32-1 elements: one token, and a caller holding the
    // complete input sees at once that the elements cannot fit.
    let b = hex("ddffffffff");
    let mut t = Tokenizer::new(&b);
    let tok = t.next_token().unwrap();
    assert_eq!(tok.min_remaining(), u32::MAX as u64);
    assert!(tok.min_remaining() > t.remaining() as u64);

    // str32 with a 4 GiB payload: incomplete by the exact shortfall.
    let b = hex("dbffffffff616263");
    let e = Tokenizer::new(&b).next_token().unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::Incomplete {
            needed: u32::MAX as usize - 3
        }
    );

    // Skipping a map32 bomb walks in constant memory and reports what is missing.
    let b = hex("dfffffffff a161 01");
    let mut t = Tokenizer::new(&b);
    let e = t.skip_value().unwrap_err();
    assert_eq!(
        e,
        Error {
            kind: ErrorKind::Incomplete { needed: 1 },
            offset: 8
        }
    );
    assert_eq!(t.position(), 0);
}

#[test]
fn skip_value_and_resumable_skip() {
    // [ {"a": [1, 2]}, "x" ] then a trailing nil
    let b = hex("92 81 a161 92 01 02 a178 c0");
    let mut t = Tokenizer::new(&b);
    let span = t.skip_value().unwrap();
    assert_eq!((span.start, span.end), (0, b.len() - 1));
    assert_eq!(t.next_token().unwrap().kind, Kind::Nil);

    // Resumable: feed the same value a few bytes at a time.
    let mut pending = 1u64;
    let mut pos = 0;
    for end in 1..=b.len() - 1 {
        let mut t = Tokenizer::with_position(&b[..end], pos);
        match t.skip_pending(&mut pending) {
            Ok(()) => {
                assert_eq!(end, b.len() - 1);
                return;
            }
            Err(e) => assert!(e.is_incomplete()),
        }
        pos = t.position();
    }
    panic!("skip never finished");
}

#[test]
fn offsets_are_absolute_with_a_base() {
    let b = hex("a3616263 c0");
    let mut t = Tokenizer::with_base(&b, 1000);
    let s = t.next_token().unwrap();
    assert_eq!((s.span.start, s.span.end), (1000, 1004));
    assert_eq!(s.payload().start, 1001);
    assert_eq!(t.payload(&s), b"abc");
    assert_eq!(t.next_token().unwrap().span.start, 1004);
    let e = Tokenizer::with_base(&b[..2], 1000)
        .next_token()
        .unwrap_err();
    assert_eq!(e.offset, 1000);
}

#[test]
fn iterator_stops_after_an_error() {
    let b = hex("01 02 cd00");
    let toks: Vec<_> = Tokenizer::new(&b).collect();
    assert_eq!(toks.len(), 3);
    assert!(toks[2].as_ref().unwrap_err().is_incomplete());
}

#[test]
fn str_token_agrees_with_the_tokenizer() {
    for &(w, _, _) in ROWS {
        let bytes = write_row(w);
        for cut in 0..=bytes.len() {
            let b = &bytes[..cut];
            let fast = tfwire_msgpack::str_token(b);
            let slow = Tokenizer::new(b)
                .next_token()
                .ok()
                .filter(|t| matches!(t.kind, Kind::Str(_)));
            match (fast, slow) {
                (Some((payload, len)), Some(t)) => {
                    assert_eq!(len, t.span.len());
                    assert_eq!(payload, &b[t.payload().start..t.payload().end]);
                }
                (None, None) => {}
                (f, s) => panic!("{cut} of {bytes:02x?}: str_token {f:?}, tokenizer {s:?}"),
            }
        }
    }
}

/// `skip_value` (a tight loop over markers for complete values) agrees with the token-by-token
/// walk (`skip_pending`) on a value holding every format, and on every truncation of it.
#[test]
fn skip_value_agrees_with_the_token_walk() {
    let b = hex(
        "dc 0025 00 7f e0 ff c0 c2 c3 81 a1 61 91 01 a0 bf 41414141414141414141414141414141414141414141414141414141414141 \
         c4 01 00 c5 0001 00 c6 00000001 00 c7 01 05 00 c8 0001 05 00 c9 00000001 05 00 \
         ca 00000000 cb 0000000000000000 cc 01 cd 0001 ce 00000001 cf 0000000000000001 \
         d0 01 d1 0001 d2 00000001 d3 0000000000000001 d4 00 00 d5 00 0000 d6 00 00000000 \
         d7 00 0000000000000000 d8 00 00000000000000000000000000000000 \
         d9 01 61 da 0001 61 db 00000001 61 dd 00000001 c0 de 0001 a161 c0 df 00000001 a161 c0",
    );
    let walk = |bytes: &[u8]| {
        let mut t = Tokenizer::new(bytes);
        let mut pending = 1u64;
        t.skip_pending(&mut pending).map(|()| t.position())
    };
    assert_eq!(
        walk(&b),
        Ok(b.len()),
        "the test value is one complete value"
    );
    for end in 0..=b.len() {
        let mut t = Tokenizer::new(&b[..end]);
        let fast = t.skip_value().map(|s| s.end);
        match (fast, walk(&b[..end])) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{end}"),
            (Err(a), Err(_)) => {
                assert!(a.is_incomplete(), "{end}: {a:?}");
                assert_eq!(t.position(), 0, "{end}: position kept");
            }
            (a, b) => panic!("{end}: {a:?} vs {b:?}"),
        }
    }
    // A reserved marker inside: the error of the token walk.
    let mut t = Tokenizer::new(&[0x92, 0x01, 0xc1]);
    assert_eq!(t.skip_value().unwrap_err().offset, 2);
}
