//! Chunked MessagePack decoding gives the one-shot result for every split of every
//! conformance vector: the same value, or the same error (kind, path, offset).

mod support;

use support::*;
use tfwire::{Config, Decoder, Program, Progress, Type, Value};

fn show(r: &Result<Value<'_>, tfwire::Error>) -> String {
    match r {
        Ok(v) => tfwire::canonical::to_string(v),
        Err(e) => format!("{:?} at {} (byte {})", e.kind(), e.path(), e.offset()),
    }
}

/// Decodes `bytes` fed as the pieces between `cuts`.
fn chunked<'a>(
    d: &mut Decoder,
    program: &'a Program,
    bytes: &'a [u8],
    cuts: &[usize],
    arena: &'a bumpalo::Bump,
) -> Result<Value<'a>, tfwire::Error> {
    let mut c = d.chunked(program, arena);
    let mut start = 0;
    for &end in cuts.iter().chain([bytes.len()].iter()) {
        c.feed(&bytes[start..end])?;
        start = end;
    }
    c.finish()
}

/// A small deterministic generator (xorshift), so runs are reproducible.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

#[test]
fn every_split_of_every_vector_matches_one_shot() {
    let mut d = Decoder::new(Config::default());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut count, mut splits) = (0, 0);
    let mut arena = bumpalo::Bump::new();
    for v in vectors() {
        let Some(bytes) = &v.msgpack else { continue };
        let program = Program::compile(&Type::from_json(&v.ty).unwrap());
        let one_shot_arena = bumpalo::Bump::new();
        let one_shot = d.decode_msgpack(&program, bytes, &one_shot_arena);
        count += 1;
        // Values and errors are compared as they are (errors with kind, path and offset).
        let check = |d: &mut Decoder, arena: &mut bumpalo::Bump, cuts: &[usize]| {
            {
                let got = chunked(d, &program, bytes, cuts, arena);
                if got != one_shot {
                    panic!(
                        "{} split at {cuts:?}:\n  chunked  {}\n  one-shot {}",
                        v.name,
                        show(&got),
                        show(&one_shot)
                    );
                }
            }
            arena.reset();
        };
        // Every two-way split (including empty first and last pieces). Every offset of the
        // 12 vectors above 8 KiB (64–70 KiB: long strings, 65,536-element lists, random
        // values with long non-NFC strings) would take minutes (quadratic: each split decodes
        // the whole vector): those get every offset in their first and last 2 KiB and 256
        // random ones; the one-byte feed below still cuts every one of their tokens at every
        // byte.
        const EXHAUSTIVE: usize = 8 << 10;
        let cuts: Vec<usize> = if bytes.len() <= EXHAUSTIVE {
            (0..=bytes.len()).collect()
        } else {
            let n = bytes.len();
            (0..2048)
                .chain(n - 2048..=n)
                .chain((0..256).map(|_| rng.below(n + 1)))
                .collect()
        };
        for cut in cuts {
            check(&mut d, &mut arena, &[cut]);
            splits += 1;
        }
        // One-byte chunks.
        let all: Vec<usize> = (1..bytes.len()).collect();
        check(&mut d, &mut arena, &all);
        // Random multi-way splits.
        for _ in 0..4 {
            let mut cuts: Vec<usize> = (0..rng.below(5) + 2)
                .map(|_| rng.below(bytes.len() + 1))
                .collect();
            cuts.sort_unstable();
            check(&mut d, &mut arena, &cuts);
            splits += 1;
        }
    }
    eprintln!("{count} vectors, {splits} splits");
    assert!(count > 2000);
}

#[test]
fn strings_within_a_chunk_stay_borrowed() {
    let program = Program::compile(&Type::from_json(r#"["list","string"]"#).unwrap());
    let input = b"\x93\xa3abc\xa3def\xa3ghi";
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(Config::default());
    let mut c = d.chunked(&program, &arena);
    assert_eq!(c.feed(&input[..7]).unwrap(), Progress::NeedMore); // "def" is cut
    let Progress::Done(v) = c.feed(&input[7..]).unwrap() else {
        panic!("complete")
    };
    let within = |s: &str, b: &[u8]| b.as_ptr_range().contains(&s.as_ptr());
    assert!(within(v.index(0).unwrap().as_str().unwrap(), input)); // borrowed
    assert!(!within(v.index(1).unwrap().as_str().unwrap(), input)); // assembled
    assert!(within(v.index(2).unwrap().as_str().unwrap(), input)); // borrowed
}

#[test]
fn bytes_after_the_value_and_feeding_after_errors() {
    let program = Program::compile(&Type::Number);
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(Config::default());
    let mut c = d.chunked(&program, &arena);
    assert!(matches!(c.feed(b"\x01").unwrap(), Progress::Done(_)));
    assert_eq!(
        c.feed(b"").unwrap(),
        Progress::Done(Value::Number(tfwire::Number::Uint(1)))
    );
    let e = c.feed(b"\x02").unwrap_err();
    assert_eq!(
        e.to_string(),
        "(root): unexpected bytes after the end of the value (at byte 1)"
    );
    assert_eq!(c.feed(b"").unwrap_err(), e);
    assert_eq!(c.finish().unwrap_err(), e);
    // The decoder is usable again afterwards.
    assert!(d.decode_msgpack(&program, b"\x05", &arena).is_ok());
}
