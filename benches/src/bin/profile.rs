//! `profile`: tfwire alone, decoding one payload in a loop, for `perf record` or callgrind.
//!
//! ```text
//! cargo build --release -p tfwire-benches --bin profile
//! perf record -g ./target/release/profile --type corpus/payloads/resource.type.json \
//!     --input msgpack --iters 2000 corpus/payloads/resource-1m.msgpack
//! valgrind --tool=callgrind --toggle-collect='*tfwire_benches::peers::Tfwire::*' \
//!     ./target/release/profile --type ... --input msgpack --iters 3 PAYLOAD
//! ```
//!
//! With `--encode`, the value decoded once is encoded back to its input format in the loop
//! instead (`encode_msgpack_into` / `encode_json_into`, one buffer reused; the output must
//! be the payload itself); with `--peer` as well, the peer's writer instead (`rmpv` for
//! MessagePack, `serde_json::to_writer` for JSON), for instruction counts to compare;
//! `--peer` without `--encode`: rmpv's `read_value_ref` decoding instead (MessagePack), or
//! simd-json's tape with the input copy, `compare`'s `simd_json_tape` (JSON). With `--walk`
//! (MessagePack): `compare`'s `limit_walk` instead, the bare validating walk the decode
//! targets are set against (callgrind: `--toggle-collect='*peers::limit_walk*'`).
//!
//! With `--repeat N`, the payload is decoded as a list of N copies of itself (as
//! `compare --repeat N` does; the type becomes a list of the type).
//!
//! The decoder's answer is checked first (against `benches/answers.json` for the committed
//! payloads); the loop reuses one decoder and one arena, as `compare` does. Prints the
//! throughput of the loop on standard error.

use std::process::ExitCode;
use std::time::Instant;
use tfwire::Program;
use tfwire_benches::answers::{Answers, check};
use tfwire_benches::count;
use tfwire_benches::peers::Tfwire;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut ty, mut format, mut iters, mut payload) = (None, "msgpack".to_string(), 1000u32, None);
    let mut encode = false;
    let mut peer = false;
    let mut repeat = 1usize;
    let mut walk = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--encode" => encode = true,
            "--peer" => peer = true,
            "--walk" => walk = true,
            "--type" => ty = args.next(),
            "--input" => format = args.next().unwrap_or_default(),
            "--repeat" => repeat = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            "--iters" => iters = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            _ if !a.starts_with('-') => payload = Some(a),
            _ => ty = None,
        }
    }
    let (Some(ty), Some(payload), true) = (ty, payload, repeat > 0) else {
        eprintln!(
            "usage: profile --type TYPE.json --input msgpack|json|json_text|json_structural [--encode] [--peer] \
             [--walk] [--repeat N] --iters N PAYLOAD"
        );
        return ExitCode::from(2);
    };
    let type_json = std::fs::read_to_string(&ty).expect("read the type");
    let mut type_json = type_json.trim().to_string();
    let mut input = std::fs::read(&payload).expect("read the payload");
    if repeat > 1 {
        input = if format == "msgpack" {
            tfwire_benches::inputs::repeat_msgpack(&input, repeat)
        } else {
            tfwire_benches::inputs::repeat_json(&input, repeat)
        };
        type_json = format!("[\"list\",{type_json}]");
    }
    let program = Program::from_type_json(&type_json).expect("a valid type");
    let mut tfwire = Tfwire::default();
    let mut decode = |f: &mut dyn FnMut(&tfwire::Value<'_>)| match format.as_str() {
        "msgpack" => tfwire.msgpack(&program, &input, f),
        "json" => tfwire.json(&program, &input, f),
        "json_text" => tfwire.json_text(&program, &input, f),
        "json_structural" => tfwire.json_structural(&program, &input, f),
        other => panic!("--input {other}: msgpack, json or json_text"),
    };
    let mut found = None;
    decode(&mut |v| found = Some(count::tfwire_value(v)));
    if format == "json_structural" {
        // The prototype's value must be the decoder's, whole.
        let arena = bumpalo::Bump::new();
        let expected = tfwire::Decoder::new(tfwire::Config::default())
            .decode_json(&program, &input, &arena)
            .expect("the payload decodes");
        let mut same = false;
        decode(&mut |v| same = *v == expected);
        check("json_structural equals decode_json", same, true);
    }
    let name = std::path::Path::new(&payload)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let kind = name.split("-1m.").next().unwrap_or("");
    if let Some(a) = Answers::for_kind(kind).filter(|_| name.contains("-1m.")) {
        let a = if repeat > 1 {
            a.repeated(repeat as u64)
        } else {
            a
        };
        check("tfwire", found.expect("a value"), a.value);
    }
    if encode && peer {
        return peer_loop(&format, &input, iters);
    }
    if walk && format == "msgpack" {
        // `compare`'s `limit_walk`: every token read, every string's UTF-8 checked.
        let t = Instant::now();
        for _ in 0..iters {
            std::hint::black_box(tfwire_benches::peers::limit_walk(std::hint::black_box(
                &input,
            )));
        }
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "{iters} limit_walk walks of {} bytes: {:.3} GB/s",
            input.len(),
            input.len() as f64 * f64::from(iters) / secs / 1e9
        );
        return ExitCode::SUCCESS;
    }
    if peer && format == "msgpack" {
        // The decode peer: rmpv's `read_value_ref`.
        let t = Instant::now();
        for _ in 0..iters {
            drop(std::hint::black_box(tfwire_benches::peers::rmpv_ref(
                &input,
            )));
        }
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "{iters} rmpv_ref decodes of {} bytes: {:.3} GB/s",
            input.len(),
            input.len() as f64 * f64::from(iters) / secs / 1e9
        );
        return ExitCode::SUCCESS;
    }
    if peer && format == "json" {
        // The decode peer: simd-json's tape (`compare`'s `simd_json_tape`).
        let mut tape = tfwire_benches::peers::SimdJsonTape::default();
        let t = Instant::now();
        for _ in 0..iters {
            tape.run(&input, |nodes| {
                std::hint::black_box(nodes);
            });
        }
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "{iters} simd_json_tape parses of {} bytes: {:.3} GB/s",
            input.len(),
            input.len() as f64 * f64::from(iters) / secs / 1e9
        );
        return ExitCode::SUCCESS;
    }
    if encode {
        return encode_loop(&program, &format, &input, iters);
    }
    let t = Instant::now();
    for _ in 0..iters {
        decode(&mut |v| {
            std::hint::black_box(v);
        });
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "{iters} decodes of {} bytes: {:.3} GB/s",
        input.len(),
        input.len() as f64 * f64::from(iters) / secs / 1e9
    );
    ExitCode::SUCCESS
}

/// Decodes `input` once, then encodes the value `iters` times into one reused buffer.
fn encode_loop(program: &Program, format: &str, input: &[u8], iters: u32) -> ExitCode {
    let arena = bumpalo::Bump::new();
    let mut decoder = tfwire::Decoder::new(tfwire::Config::default());
    let json = format != "msgpack";
    let value = if json {
        decoder.decode_json(program, input, &arena)
    } else {
        decoder.decode_msgpack(program, input, &arena)
    }
    .expect("the payload decodes");
    let mut bytes = Vec::with_capacity(input.len());
    let mut text = String::with_capacity(input.len());
    let mut once = || {
        if json {
            text.clear();
            tfwire::encode_json_into(program, std::hint::black_box(&value), &mut text)
                .expect("encode");
        } else {
            bytes.clear();
            tfwire::encode_msgpack_into(program, std::hint::black_box(&value), &mut bytes)
                .expect("encode");
        }
    };
    once();
    let t = Instant::now();
    for _ in 0..iters {
        once();
    }
    let secs = t.elapsed().as_secs_f64();
    let out = if json { text.as_bytes() } else { &bytes[..] };
    check(
        "encode gives go-cty's bytes (the payload)",
        out == input,
        true,
    );
    eprintln!(
        "{iters} encodes of {} bytes: {:.3} GB/s",
        input.len(),
        input.len() as f64 * f64::from(iters) / secs / 1e9
    );
    ExitCode::SUCCESS
}

/// The peer's writer `iters` times into one reused buffer (the value read once).
fn peer_loop(format: &str, input: &[u8], iters: u32) -> ExitCode {
    let mut out = Vec::with_capacity(input.len());
    let t = Instant::now();
    if format == "msgpack" {
        let value = rmpv::decode::read_value(&mut &input[..]).expect("rmpv");
        for _ in 0..iters {
            out.clear();
            rmpv::encode::write_value(&mut out, std::hint::black_box(&value)).expect("write");
        }
        check("rmpv gives go-cty's bytes", out == input, true);
    } else {
        let value: serde_json::Value = serde_json::from_slice(input).expect("serde_json");
        for _ in 0..iters {
            out.clear();
            serde_json::to_writer(&mut out, std::hint::black_box(&value)).expect("write");
        }
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "{iters} peer encodes of {} bytes: {:.3} GB/s",
        input.len(),
        input.len() as f64 * f64::from(iters) / secs / 1e9
    );
    ExitCode::SUCCESS
}
