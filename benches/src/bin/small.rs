//! `small`: the latency of decoding one small value, the common case of a provider proxy
//! (one resource's state or config per RPC), in nanoseconds per decode, tfwire against rmpv
//! in the same run.
//!
//! ```text
//! cargo run --release -p tfwire-benches --bin small
//! cargo run --release -p tfwire-benches --bin small -- --write-aws /tmp/aws-instance-2k.msgpack
//! ```
//!
//! Two values, MessagePack as go-cty writes it:
//! - `small-shapes` (1,153 bytes): a real `PlannedState` that OpenTofu sent to the project's
//!   test provider (`tfwire_shapes`: nested blocks, sets, maps, a dynamic value, unknowns,
//!   refinements), `corpus/payloads/small-shapes.msgpack` with its type;
//! - `aws-instance-2k` (about 2 KB): the `aws_instance`-like value of
//!   `corpus/payloads/resource-1m.msgpack` with every list, set and map cut to its first
//!   entries, built at run time and encoded by tfwire (go-cty's bytes: the encoders are
//!   byte-identical with go-cty, which the re-encode conformance tests check).
//!
//! Contenders, interleaved as in `compare`: `tfwire` (`Decoder::decode_msgpack`, one decoder
//! and one arena reused, the arena reset after each decode), `rmpv_ref`
//! (`rmpv::decode::read_value_ref`), `limit_walk` (every token read, every string's UTF-8
//! checked, nothing built). Answers first: tfwire's value re-encodes to the input (go-cty's
//! bytes), and rmpv finds the tokens, strings and string bytes the walk finds. Prints one JSON line a value:
//! `{"payload": ..., "bytes": n, "results": {NAME: {"ns": x}}, "ratios": {PEER: peer_ns /
//! tfwire_ns}}` (ratios above 1: tfwire is faster). `--write-aws FILE` writes the built
//! value's bytes (for go-cty: `ctyref bench -type corpus/payloads/resource.type.json -in
//! FILE`).

use bumpalo::Bump;
use std::process::ExitCode;
use std::time::Duration;
use tfwire::{Config, Decoder, Program, Value};
use tfwire_benches::answers::check;
use tfwire_benches::count;
use tfwire_benches::peers::{self, Tfwire};
use tfwire_benches::timing::{Contender, interleaved};

/// The repository root (the benches crate is one level down).
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository root")
        .to_path_buf()
}

fn read(rel: &str) -> Vec<u8> {
    let p = root().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn program(rel: &str) -> Program {
    let text = String::from_utf8(read(rel)).expect("UTF-8 type JSON");
    Program::from_type_json(text.trim()).expect("a valid type")
}

/// `v` with every list, set and map cut to its first `n` entries (tuples and objects keep
/// their shape) and every string to its first 200 bytes or so (at a character boundary; the
/// payload's `user_data` is 84 KB), allocated in `arena`.
fn trim<'a>(v: Value<'a>, n: usize, arena: &'a Bump) -> Value<'a> {
    let seq = |xs: &'a [Value<'a>], keep: usize| -> &'a [Value<'a>] {
        arena.alloc_slice_fill_iter(xs[..keep.min(xs.len())].iter().map(|x| trim(*x, n, arena)))
    };
    let entries = |es: &'a [(&'a str, Value<'a>)], keep: usize| -> &'a [(&'a str, Value<'a>)] {
        arena.alloc_slice_fill_iter(
            es[..keep.min(es.len())]
                .iter()
                .map(|(k, x)| (*k, trim(*x, n, arena))),
        )
    };
    match v {
        Value::List(xs) => Value::List(seq(xs, n)),
        Value::Set(xs) => Value::Set(seq(xs, n)),
        Value::Tuple(xs) => Value::Tuple(seq(xs, xs.len())),
        Value::Map(es) => Value::Map(entries(es, n)),
        Value::Object(es) => Value::Object(entries(es, es.len())),
        Value::String(s) if s.len() > 200 => {
            let end = (200..s.len())
                .find(|&i| s.is_char_boundary(i))
                .unwrap_or(s.len());
            Value::String(&s[..end])
        }
        other => other,
    }
}

/// The `aws_instance`-like value of the resource payload, cut down to about 2 KB: the
/// largest cut (entries kept per collection) whose encoding stays within 2,304 bytes.
fn aws_instance_2k(program: &Program) -> Vec<u8> {
    let input = read("corpus/payloads/resource-1m.msgpack");
    let arena = Bump::new();
    let value = tfwire::decode_msgpack(program, &input, &arena).expect("resource-1m decodes");
    let mut best = Vec::new();
    for n in 1..64 {
        let cut = trim(value, n, &arena);
        let bytes = tfwire::encode_msgpack(program, &cut).expect("the cut value encodes");
        if bytes.len() > 2304 && !best.is_empty() {
            break;
        }
        best = bytes;
    }
    best
}

/// Checks the answers, times the contenders, prints one JSON line.
fn run(name: &str, program: &Program, input: &[u8], rounds: usize) {
    let mut tfwire = Tfwire::default();
    let walk = peers::limit_walk(input);
    let arena = Bump::new();
    let mut decoder = Decoder::new(Config::default());
    let value = decoder
        .decode_msgpack(program, input, &arena)
        .expect("decodes");
    check(
        &format!("{name}: tfwire's value encodes back to the input"),
        tfwire::encode_msgpack(program, &value).expect("encodes") == input,
        true,
    );
    let mut rmpv = tfwire_benches::answers::MsgpackCounts {
        bytes: input.len() as u64,
        ..Default::default()
    };
    count::rmpv_value(&peers::rmpv_ref(input), &mut rmpv);
    check(&format!("{name}: rmpv_ref against limit_walk"), rmpv, walk);

    let mut contenders = vec![
        Contender::new("tfwire", move || {
            tfwire.msgpack(program, input, |v| {
                std::hint::black_box(v);
            })
        }),
        Contender::new("rmpv_ref", || {
            drop(std::hint::black_box(peers::rmpv_ref(input)));
        }),
        Contender::new("limit_walk", || {
            std::hint::black_box(peers::limit_walk(input));
        }),
    ];
    let figures = interleaved(
        &mut contenders,
        input.len(),
        rounds,
        Duration::from_millis(20),
    );
    // GB/s = bytes / ns.
    let ns = |gbps: f64| input.len() as f64 / gbps;
    let tf = ns(figures[0].median());
    let results: Vec<String> = figures
        .iter()
        .map(|f| format!("\"{}\": {{\"ns\": {:.0}}}", f.name, ns(f.median())))
        .collect();
    let ratios: Vec<String> = figures[1..]
        .iter()
        .map(|f| format!("\"{}\": {:.2}", f.name, ns(f.median()) / tf))
        .collect();
    println!(
        "{{\"payload\": \"{name}\", \"bytes\": {}, \"results\": {{{}}}, \"ratios\": {{{}}}}}",
        input.len(),
        results.join(", "),
        ratios.join(", ")
    );
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut rounds = 21;
    let mut write_aws = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(0),
            "--write-aws" => write_aws = args.next(),
            _ => {
                eprintln!("usage: small [--rounds N] [--write-aws FILE]");
                return ExitCode::from(2);
            }
        }
    }
    if rounds == 0 {
        eprintln!("small: --rounds needs a positive number");
        return ExitCode::from(2);
    }
    let resource = program("corpus/payloads/resource.type.json");
    let aws = aws_instance_2k(&resource);
    if let Some(path) = write_aws
        && let Err(e) = std::fs::write(&path, &aws)
    {
        eprintln!("small: {path}: {e}");
        return ExitCode::FAILURE;
    }
    let shapes = program("corpus/payloads/small-shapes.type.json");
    let shapes_input = read("corpus/payloads/small-shapes.msgpack");
    run("small-shapes", &shapes, &shapes_input, rounds);
    run("aws-instance-2k", &resource, &aws, rounds);
    ExitCode::SUCCESS
}
