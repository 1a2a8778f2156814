//! Property tests: an arbitrary type and an arbitrary value of it (`tfwire::arbitrary`),
//! encoded then decoded, give the value back; encoding what was decoded gives the same bytes.
//!
//! The inputs come from a fixed pseudo-random sequence, so every run checks the same cases.
//! `TFWIRE_ROUNDTRIP_CASES=n` runs `n` cases per format instead of the default budget.

use arbitrary::Unstructured;
use tfwire::arbitrary::Options;
use tfwire::{Number, Program, Value, canonical};

/// Cases per format in a plain `cargo test` (a few seconds in a debug build).
const DEFAULT_CASES: u64 = 4000;

fn cases() -> u64 {
    std::env::var("TFWIRE_ROUNDTRIP_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// The bytes of case `seed` (splitmix64).
fn input(seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed;
    let len = 64 + (seed % 7) as usize * 128;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

/// Runs `check` on `cases()` arbitrary (type, value) pairs; returns how many values held
/// something of interest, as counted by `check`.
fn run(options: Options, mut check: impl FnMut(u64, &Program, &Value<'_>) -> usize) -> usize {
    let mut interesting = 0;
    for seed in 0..cases() {
        let data = input(seed);
        let mut u = Unstructured::new(&data);
        let Ok(ty) = tfwire::arbitrary::ty(&mut u, &options) else {
            continue;
        };
        let arena = bumpalo::Bump::new();
        let Ok(value) = tfwire::arbitrary::value(&mut u, &ty, &arena, &options) else {
            continue;
        };
        let program = Program::compile(&ty);
        interesting += check(seed, &program, &value);
    }
    interesting
}

fn count(v: &Value<'_>, f: &impl Fn(&Value<'_>) -> bool) -> usize {
    let inner = match *v {
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => xs.iter().map(|x| count(x, f)).sum(),
        Value::Map(es) | Value::Object(es) => es.iter().map(|(_, x)| count(x, f)).sum(),
        Value::Dynamic(d) => count(&d.value, f),
        _ => 0,
    };
    inner + usize::from(f(v))
}

#[test]
fn msgpack_round_trips() {
    let refined = run(Options::default(), |seed, program, value| {
        let bytes = tfwire::encode_msgpack(program, value)
            .unwrap_or_else(|e| panic!("case {seed}: {e}\n  {}", canonical::to_string(value)));
        let arena = bumpalo::Bump::new();
        let back = tfwire::decode_msgpack(program, &bytes, &arena).unwrap_or_else(|e| {
            panic!(
                "case {seed}: {e}\n  value {}\n  bytes {bytes:02x?}",
                canonical::to_string(value)
            )
        });
        assert_eq!(
            canonical::to_string(&back),
            canonical::to_string(value),
            "case {seed}: type {}",
            program.ty()
        );
        let again = tfwire::encode_msgpack(program, &back).unwrap();
        assert_eq!(again, bytes, "case {seed}: re-encoding what was decoded");
        count(value, &|v| matches!(v, Value::Unknown(Some(_))))
    });
    assert!(refined > 100, "only {refined} refined unknowns generated");
}

/// Values equal as JSON keeps them: numbers that were floats come back as the decimal text
/// of the same binary64.
fn same_json_value(a: &Value<'_>, b: &Value<'_>) -> bool {
    let seq = |x: &[Value<'_>], y: &[Value<'_>]| {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json_value(p, q))
    };
    let entries = |x: &[(&str, Value<'_>)], y: &[(&str, Value<'_>)]| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|((k, p), (l, q))| k == l && same_json_value(p, q))
    };
    match (*a, *b) {
        (Value::Number(x @ (Number::F64(_) | Number::F32(_))), Value::Number(y)) => {
            x.to_f64() == y.to_f64()
        }
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::List(x), Value::List(y))
        | (Value::Set(x), Value::Set(y))
        | (Value::Tuple(x), Value::Tuple(y)) => seq(x, y),
        (Value::Map(x), Value::Map(y)) | (Value::Object(x), Value::Object(y)) => entries(x, y),
        (Value::Dynamic(x), Value::Dynamic(y)) => {
            x.ty == y.ty && same_json_value(&x.value, &y.value)
        }
        (x, y) => x == y,
    }
}

#[test]
fn json_round_trips() {
    let dynamic = run(Options::json(), |seed, program, value| {
        let text = tfwire::encode_json(program, value)
            .unwrap_or_else(|e| panic!("case {seed}: {e}\n  {}", canonical::to_string(value)));
        let arena = bumpalo::Bump::new();
        let back = tfwire::decode_json(program, text.as_bytes(), &arena)
            .unwrap_or_else(|e| panic!("case {seed}: {e}\n  {text}"));
        assert!(
            same_json_value(value, &back),
            "case {seed}: type {}\n  value {}\n  JSON  {text}\n  back  {}",
            program.ty(),
            canonical::to_string(value),
            canonical::to_string(&back)
        );
        let again = tfwire::encode_json(program, &back).unwrap();
        assert_eq!(again, text, "case {seed}: re-encoding what was decoded");
        count(value, &|v| matches!(v, Value::Dynamic(_)))
    });
    assert!(dynamic > 100, "only {dynamic} dynamic values generated");
}
