//! Chunked MessagePack decoding gives the one-shot result for every split of every
//! conformance vector: the same value, or the same error (kind, path, offset).

mod support;

use support::*;
use tfwire::{Config, Decoder, Program, Progress, Type, Value};

fn outcome(r: Result<Value<'_>, tfwire::Error>) -> Result<String, String> {
    r.map(|v| tfwire::canonical::to_string(&v))
        .map_err(|e| format!("{:?} at {} (byte {})", e.kind(), e.path(), e.offset()))
}

/// Decodes `bytes` fed as the pieces between `cuts`.
fn chunked(
    d: &mut Decoder,
    program: &Program,
    bytes: &[u8],
    cuts: &[usize],
) -> Result<String, String> {
    let arena = bumpalo::Bump::new();
    let mut c = d.chunked(program, &arena);
    let mut start = 0;
    for &end in cuts.iter().chain([bytes.len()].iter()) {
        match c.feed(&bytes[start..end]) {
            Ok(Progress::NeedMore | Progress::Done(_)) => {}
            Err(e) => return outcome(Err(e)),
        }
        start = end;
    }
    outcome(c.finish())
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
    for v in vectors() {
        let Some(bytes) = &v.msgpack else { continue };
        let program = Program::compile(&Type::from_json(&v.ty).unwrap());
        let one_shot = {
            let arena = bumpalo::Bump::new();
            outcome(d.decode_msgpack(&program, bytes, &arena))
        };
        count += 1;
        // Every two-way split (including empty first and last pieces). Above 1 KiB (129 of
        // the ~2300 vectors, up to 70 KiB) every offset would make the test quadratic: those
        // get every offset in their first and last 48 bytes and 48 random ones; the one-byte
        // feed below still cuts every one of their tokens at every byte.
        let cuts: Vec<usize> = if bytes.len() <= 1024 {
            (0..=bytes.len()).collect()
        } else {
            let n = bytes.len();
            (0..48)
                .chain(n - 48..=n)
                .chain((0..48).map(|_| rng.below(n + 1)))
                .collect()
        };
        for cut in cuts {
            assert_eq!(
                chunked(&mut d, &program, bytes, &[cut]),
                one_shot,
                "{} split at {cut}",
                v.name
            );
            splits += 1;
        }
        // One-byte chunks.
        let all: Vec<usize> = (1..bytes.len()).collect();
        assert_eq!(
            chunked(&mut d, &program, bytes, &all),
            one_shot,
            "{} in 1-byte chunks",
            v.name
        );
        // Random multi-way splits.
        for _ in 0..4 {
            let mut cuts: Vec<usize> = (0..rng.below(5) + 2)
                .map(|_| rng.below(bytes.len() + 1))
                .collect();
            cuts.sort_unstable();
            assert_eq!(
                chunked(&mut d, &program, bytes, &cuts),
                one_shot,
                "{} split at {cuts:?}",
                v.name
            );
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
