//! Chunked MessagePack decoding gives the one-shot result for every split of every
//! conformance vector: the same value, or the same error (kind, path, offset).

use crate::support::*;
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

/// Two-way splits, including empty first and last pieces: at every offset of every vector up
/// to 8 KiB (2,282 of the 2,294), in blocks spread over every core. Each split decodes the
/// whole vector, so every offset of the 12 larger ones (64–70 KiB: long strings,
/// 65,536-element lists, random values with long non-NFC strings) takes about four CPU
/// minutes even in a release build: by default those get every offset in their first and last
/// 2 KiB and 256 random ones (the one-byte feed of
/// [`multi_way_splits_of_every_vector_match_one_shot`] cuts every one of their tokens at every
/// byte). With `TFWIRE_EVERY_SPLIT=1` every offset of every vector is tried:
/// `TFWIRE_EVERY_SPLIT=1 cargo test --release -p tfwire --test harness streaming`.
#[test]
fn every_two_way_split_of_every_vector_matches_one_shot() {
    let vectors: Vec<(String, Program, Vec<u8>)> = vectors()
        .into_iter()
        .filter_map(|v| {
            let bytes = v.msgpack?;
            Some((
                v.name,
                Program::compile(&Type::from_json(&v.ty).unwrap()),
                bytes,
            ))
        })
        .collect();
    let exhaustive = if std::env::var_os("TFWIRE_EVERY_SPLIT").is_some() {
        usize::MAX
    } else {
        8 << 10
    };
    const BLOCK: usize = 512;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // (vector, cuts)
    let mut work: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, (_, _, bytes)) in vectors.iter().enumerate() {
        let n = bytes.len();
        let cuts: Vec<usize> = if n <= exhaustive {
            (0..=n).collect()
        } else {
            (0..2048)
                .chain(n - 2048..=n)
                .chain((0..256).map(|_| rng.below(n + 1)))
                .collect()
        };
        work.extend(cuts.chunks(BLOCK).map(|c| (i, c.to_vec())));
    }
    // The largest vectors first, so that no core is left with one at the end.
    work.sort_by_key(|(i, _)| std::cmp::Reverse(vectors[*i].2.len()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let splits = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut d = Decoder::new(Config::default());
                let mut arena = bumpalo::Bump::new();
                let one_shot_arena = bumpalo::Bump::new();
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((i, cuts)) = work.get(k) else { break };
                    let (name, program, bytes) = &vectors[*i];
                    let one_shot = d.decode_msgpack(program, bytes, &one_shot_arena);
                    for &cut in cuts {
                        {
                            let got = chunked(&mut d, program, bytes, &[cut], &arena);
                            if got != one_shot {
                                panic!(
                                    "{name} split at {cut}:\n  chunked  {}\n  one-shot {}",
                                    show(&got),
                                    show(&one_shot)
                                );
                            }
                        }
                        arena.reset();
                    }
                    splits.fetch_add(cuts.len(), std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    let splits = splits.into_inner();
    eprintln!("{} vectors, {splits} two-way splits", vectors.len());
    assert!(vectors.len() > 2000);
    assert_eq!(splits, work.iter().map(|(_, c)| c.len()).sum::<usize>());
}

/// One-byte chunks and random multi-way splits of every vector.
#[test]
fn multi_way_splits_of_every_vector_match_one_shot() {
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

/// Inputs the fast paths of the one-shot decoder once read differently from the chunked
/// decoder (found by the `stream` fuzz target): the error is the same, and the right one.
#[test]
fn fast_paths_report_the_same_errors() {
    let program = Program::compile(
        &Type::from_json(r#"["object",{"a":"string","b":"string","c":"string"}]"#).unwrap(),
    );
    // An attribute repeated: `a` (the fast path expects the second attribute, `b`, after one
    // member), and `b` (which the fast path expects there: it must not take the key).
    for (input, want) in [
        (
            "83a161a178a161a179a163a17a",
            r#"DuplicateAttribute("a") at (root) (byte 5)"#,
        ),
        (
            "83a162a178a162c0a163a17a",
            r#"DuplicateAttribute("b") at (root) (byte 5)"#,
        ),
    ] {
        let bytes = hex(input);
        let mut d = Decoder::new(Config::default());
        let arena = bumpalo::Bump::new();
        let one_shot = show(&d.decode_msgpack(&program, &bytes, &arena));
        assert_eq!(one_shot, want, "{input}");
        let cuts: Vec<usize> = (1..bytes.len()).collect();
        let fed = show(&chunked(&mut d, &program, &bytes, &cuts, &arena));
        assert_eq!(fed, want, "{input}, one byte at a time");
    }
}
