//! `compare`: tfwire against the decoders a user would pick instead, on the same bytes, in
//! one run.
//!
//! ```text
//! cargo run --release -p tfwire-benches --bin compare -- \
//!     --type corpus/payloads/resource.type.json --input msgpack corpus/payloads/resource-1m.msgpack
//! ```
//!
//! MessagePack peers: `rmpv_ref` (`rmpv::decode::read_value_ref`), `rmp_serde_value`
//! (`rmp_serde` into `serde_json::Value`), `limit_walk` (every token read, every string's
//! UTF-8 validated, nothing built: the ceiling for a validating decoder). JSON peers:
//! `serde_json_value`, `simd_json_tape` (`fill_tape` with reused buffers, the input copy
//! included), `simd_json_owned` (`OwnedValue`), `sonic_rs_value` (`sonic_rs::from_slice`
//! into `sonic_rs::Value`), `jiter_value` (`jiter::JsonValue` on a reused scratch) and
//! `sonic_rs_get_many` (sonic-rs's lazy `get_many` of three members of the root: the first,
//! middle and last key or element; not a full decode, so not an answer to compare with
//! tfwire's, only with the cost of finding a few members).
//!
//! Every decoder's answer is checked first: against `benches/answers.json` when the payload
//! is one of `corpus/payloads/KIND-1m.*`, otherwise against each other. Then interleaved
//! rounds (each decoder once per round, the order rotating), and the median of each
//! decoder's rounds. Prints one JSON line:
//! `{"payload": ..., "input": ..., "bytes": n, "results": {NAME: {"gbps": x}, ...},
//! "ratios": {PEER: tfwire_gbps / peer_gbps, ...}}`.
//!
//! With `--encode`, the encoders instead, each writing the value decoded from the payload
//! into one reused buffer: for `--input msgpack`, `tfwire` (`encode_msgpack_into`) against
//! `rmpv_write` (`rmpv::encode::write_value` of the equivalent `rmpv::Value`, read from the
//! same bytes); for `--input json`, `tfwire` (`encode_json_into`) against `serde_json_write`
//! (`serde_json::to_writer` of the equivalent `serde_json::Value`). The answers: tfwire's
//! output is go-cty's bytes (the payload itself); rmpv's too; serde_json's reads back as the
//! same nodes and string bytes (it escapes fewer characters than Go, and without
//! `arbitrary_precision` it writes long numbers rounded, so it is not go-cty's bytes). GB/s
//! are 10^9 bytes of go-cty's output (the payload's length) per second for every encoder,
//! so the ratios are ratios of time.
//!
//! Options: `--rounds N` (default 21, at least 15 unless `--only` is given), `--batch-ms M`
//! (time per decoder per round, default 40), `--repeat N` (decode a list of N copies of the
//! value instead: how the 32 MB inputs are made), `--only NAME,...` (run only these),
//! `--verbose` (every round's figures on standard error).

use bumpalo::Bump;
use std::process::ExitCode;
use std::time::Duration;
use tfwire::{Config, Decoder, Program};
use tfwire_benches::answers::{Answers, JsonCounts, MsgpackCounts, check};
use tfwire_benches::count;
use tfwire_benches::inputs::{repeat_json, repeat_msgpack};
use tfwire_benches::peers::{self, JiterValue, SimdJsonOwned, SimdJsonTape, Tfwire};
use tfwire_benches::timing::{Contender, interleaved};

const USAGE: &str = "usage: compare --type TYPE.json --input msgpack|json [--encode] [--rounds N] \
                     [--batch-ms M] [--repeat N] [--only NAME,...] [--verbose] PAYLOAD";

struct Args {
    type_path: String,
    format: String,
    payload: String,
    rounds: usize,
    batch_ms: u64,
    repeat: usize,
    only: Option<Vec<String>>,
    verbose: bool,
    encode: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut type_path = None;
    let mut format = None;
    let mut payload = None;
    let mut rounds = 21;
    let mut batch_ms = 40;
    let mut repeat = 1;
    let mut only = None;
    let mut verbose = false;
    let mut encode = false;
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--type" => type_path = Some(value("--type")?),
            "--input" => format = Some(value("--input")?),
            "--rounds" => {
                rounds = value("--rounds")?
                    .parse()
                    .map_err(|e| format!("--rounds: {e}"))?
            }
            "--batch-ms" => {
                batch_ms = value("--batch-ms")?
                    .parse()
                    .map_err(|e| format!("--batch-ms: {e}"))?
            }
            "--repeat" => {
                repeat = value("--repeat")?
                    .parse()
                    .map_err(|e| format!("--repeat: {e}"))?
            }
            "--only" => {
                only = Some(
                    value("--only")?
                        .split(',')
                        .map(str::to_string)
                        .collect::<Vec<_>>(),
                )
            }
            "--verbose" => verbose = true,
            "--encode" => encode = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ if payload.is_none() => payload = Some(a),
            _ => return Err("one payload only".into()),
        }
    }
    let format = format.unwrap_or_else(|| "msgpack".into());
    if format != "msgpack" && format != "json" {
        return Err(format!("--input must be msgpack or json, not {format}"));
    }
    if only.is_none() && rounds < 15 {
        return Err("--rounds: at least 15 for a comparison".into());
    }
    if repeat == 0 {
        return Err("--repeat: at least 1".into());
    }
    Ok(Args {
        type_path: type_path.ok_or("--type is required")?,
        format,
        payload: payload.ok_or("a payload file is required")?,
        rounds: rounds.max(1),
        batch_ms,
        repeat,
        only,
        verbose,
        encode,
    })
}

/// The answers recorded for this payload when it is one of the committed ones (same file
/// name and length).
fn known_answers(path: &str, bytes: usize, format: &str) -> Option<Answers> {
    let name = std::path::Path::new(path).file_name()?.to_str()?;
    let kind = name.strip_suffix(&format!("-1m.{format}"))?;
    let a = Answers::for_kind(kind)?;
    let len = if format == "msgpack" {
        a.msgpack.bytes
    } else {
        a.json.bytes
    };
    (len == bytes as u64).then_some(a)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("compare: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let read = |p: &str| std::fs::read(p).map_err(|e| format!("{p}: {e}"));
    let (type_text, mut input) = match (read(&args.type_path), read(&args.payload)) {
        (Ok(t), Ok(i)) => (t, i),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("compare: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut type_json = String::from_utf8_lossy(&type_text).trim().to_string();
    let mut answers = known_answers(&args.payload, input.len(), &args.format);
    let mut payload_name = std::path::Path::new(&args.payload)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if args.repeat > 1 {
        input = if args.format == "msgpack" {
            repeat_msgpack(&input, args.repeat)
        } else {
            repeat_json(&input, args.repeat)
        };
        type_json = format!("[\"list\",{type_json}]");
        answers = answers.map(|a| a.repeated(args.repeat as u64));
        payload_name = format!("{payload_name} x{}", args.repeat);
    }
    let program = match Program::from_type_json(&type_json) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("compare: {}: {e}", args.type_path);
            return ExitCode::FAILURE;
        }
    };
    let wanted = |name: &str| {
        args.only
            .as_ref()
            .is_none_or(|o| o.iter().any(|n| n == name))
    };
    if args.encode {
        return encoders(&args, &program, &input, payload_name);
    }

    // Check every decoder's answer before anything is timed.
    let input = &input[..];
    let mut tfwire = Tfwire::default();
    let mut tape = SimdJsonTape::default();
    let mut owned = SimdJsonOwned::default();
    let mut jiter = JiterValue::default();
    let paths = if args.format == "json" {
        peers::lookup_paths(&peers::serde_json_value(input))
    } else {
        Vec::new()
    };
    let mut tree = sonic_rs::PointerTree::new();
    for p in &paths {
        tree.add_path(p.iter());
    }
    if args.format == "msgpack" {
        let tf = tfwire.msgpack(&program, input, count::tfwire_value);
        let walk = peers::limit_walk(input);
        let mut rmpv_counts = MsgpackCounts {
            bytes: input.len() as u64,
            ..MsgpackCounts::default()
        };
        count::rmpv_value(&peers::rmpv_ref(input), &mut rmpv_counts);
        let mut serde_counts = JsonCounts::default();
        count::serde_json_value(&peers::rmp_serde_value(input), &mut serde_counts);
        match answers {
            Some(a) => {
                check("tfwire", tf, a.value);
                check("limit_walk", walk, a.msgpack);
                check("rmpv_ref", rmpv_counts, a.msgpack);
                check(
                    "rmp_serde_value",
                    (serde_counts.nodes, serde_counts.string_bytes),
                    (a.msgpack.tokens, a.msgpack.str_bytes),
                );
            }
            None => {
                check("rmpv_ref against limit_walk", rmpv_counts, walk);
                check(
                    "rmp_serde_value against limit_walk",
                    serde_counts.nodes,
                    walk.tokens,
                );
                check(
                    "tfwire against limit_walk",
                    tf.values + tf.keys,
                    walk.tokens,
                );
            }
        }
    } else {
        let tf = tfwire.json(&program, input, count::tfwire_value);
        let mut serde_counts = JsonCounts {
            bytes: input.len() as u64,
            ..JsonCounts::default()
        };
        count::serde_json_value(&peers::serde_json_value(input), &mut serde_counts);
        let tape_counts = tape.run(input, |t| count::simd_json_tape(t, input.len()));
        let mut owned_counts = JsonCounts {
            bytes: input.len() as u64,
            ..JsonCounts::default()
        };
        count::simd_json_owned(&owned.parse(input), &mut owned_counts);
        let mut sonic_counts = JsonCounts {
            bytes: input.len() as u64,
            ..JsonCounts::default()
        };
        count::sonic_rs_value(&peers::sonic_rs_value(input), &mut sonic_counts);
        let mut jiter_counts = JsonCounts {
            bytes: input.len() as u64,
            ..JsonCounts::default()
        };
        jiter.run(input, |v| count::jiter_value(v, &mut jiter_counts));
        // The lazy lookup finds what serde_json finds at each path.
        let whole = peers::serde_json_value(input);
        for (path, found) in paths.iter().zip(peers::sonic_rs_get_many(input, &tree)) {
            let mut want = &whole;
            for step in path {
                want = match step {
                    sonic_rs::PointerNode::Key(k) => &want[k.as_str()],
                    sonic_rs::PointerNode::Index(i) => &want[*i],
                };
            }
            let got: serde_json::Value =
                serde_json::from_str(found.as_raw_str()).expect("a JSON value");
            check("sonic_rs_get_many finds serde_json's value", &got, want);
        }
        match answers {
            Some(a) => {
                check("tfwire", tf, a.value);
                check("serde_json_value", serde_counts, a.json);
                check("simd_json_tape", tape_counts, a.json);
                check("simd_json_owned", owned_counts, a.json);
                check("sonic_rs_value", sonic_counts, a.json);
                check("jiter_value", jiter_counts, a.json);
            }
            None => {
                check(
                    "simd_json_tape against serde_json_value",
                    tape_counts,
                    serde_counts,
                );
                check(
                    "simd_json_owned against serde_json_value",
                    owned_counts,
                    serde_counts,
                );
                check(
                    "sonic_rs_value against serde_json_value",
                    sonic_counts,
                    serde_counts,
                );
                check(
                    "jiter_value against serde_json_value",
                    jiter_counts,
                    serde_counts,
                );
                check(
                    "tfwire against serde_json_value",
                    tf.values + tf.keys,
                    serde_counts.nodes,
                );
            }
        }
    }

    let mut contenders: Vec<Contender<'_>> = Vec::new();
    let program = &program;
    if args.format == "msgpack" {
        contenders.push(Contender::new("tfwire", move || {
            tfwire.msgpack(program, input, |v| {
                std::hint::black_box(v);
            })
        }));
        contenders.push(Contender::new("limit_walk", || {
            std::hint::black_box(peers::limit_walk(input));
        }));
        contenders.push(Contender::new("rmpv_ref", || {
            drop(std::hint::black_box(peers::rmpv_ref(input)));
        }));
        contenders.push(Contender::new("rmp_serde_value", || {
            drop(std::hint::black_box(peers::rmp_serde_value(input)));
        }));
    } else {
        contenders.push(Contender::new("tfwire", move || {
            tfwire.json(program, input, |v| {
                std::hint::black_box(v);
            })
        }));
        contenders.push(Contender::new("simd_json_tape", move || {
            tape.run(input, |t| {
                std::hint::black_box(t.len());
            })
        }));
        contenders.push(Contender::new("serde_json_value", || {
            drop(std::hint::black_box(peers::serde_json_value(input)));
        }));
        contenders.push(Contender::new("simd_json_owned", move || {
            drop(std::hint::black_box(owned.parse(input)));
        }));
        contenders.push(Contender::new("sonic_rs_value", || {
            drop(std::hint::black_box(peers::sonic_rs_value(input)));
        }));
        contenders.push(Contender::new("jiter_value", move || {
            jiter.run(input, |v| {
                std::hint::black_box(v);
            })
        }));
        let tree = &tree;
        contenders.push(Contender::new("sonic_rs_get_many", move || {
            drop(std::hint::black_box(peers::sonic_rs_get_many(input, tree)));
        }));
    }
    contenders.retain(|c| wanted(c.name));
    if contenders.is_empty() {
        eprintln!("compare: --only names no decoder");
        return ExitCode::from(2);
    }
    run_and_print(&args, &mut contenders, payload_name, input.len())
}

/// Times the contenders (interleaved rounds over `bytes` of go-cty's bytes a call) and
/// prints the JSON line.
fn run_and_print(
    args: &Args,
    contenders: &mut [Contender<'_>],
    payload_name: String,
    bytes: usize,
) -> ExitCode {
    let figures = interleaved(
        contenders,
        bytes,
        args.rounds,
        Duration::from_millis(args.batch_ms),
    );
    if args.verbose {
        for f in &figures {
            let rounds: Vec<String> = f.rounds.iter().map(|g| format!("{g:.3}")).collect();
            eprintln!(
                "{:<18} median {:.3} GB/s  rounds {}",
                f.name,
                f.median(),
                rounds.join(" ")
            );
        }
    }

    let mut line = format!(
        "{{\"payload\": {}, \"input\": \"{}\", {}\"bytes\": {}, \"results\": {{",
        serde_json::Value::String(payload_name),
        args.format,
        if args.encode {
            "\"encode\": true, "
        } else {
            ""
        },
        bytes
    );
    for (i, f) in figures.iter().enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        line.push_str(&format!("\"{}\": {{\"gbps\": {:.4}}}", f.name, f.median()));
    }
    line.push_str("}, \"ratios\": {");
    let tf = figures
        .iter()
        .find(|f| f.name == "tfwire")
        .map(|f| f.median());
    let mut first = true;
    for f in figures.iter().filter(|f| f.name != "tfwire") {
        if let Some(tf) = tf {
            if !first {
                line.push_str(", ");
            }
            first = false;
            line.push_str(&format!("\"{}\": {:.3}", f.name, tf / f.median()));
        }
    }
    line.push_str("}}");
    println!("{line}");
    ExitCode::SUCCESS
}

/// `--encode`: tfwire's encoder against the peer's writer, each writing the value decoded
/// from `input` into one reused buffer; answers checked first.
fn encoders(args: &Args, program: &Program, input: &[u8], payload_name: String) -> ExitCode {
    let wanted = |name: &str| {
        args.only
            .as_ref()
            .is_none_or(|o| o.iter().any(|n| n == name))
    };
    let arena = Bump::new();
    let mut decoder = Decoder::new(Config::default());
    let mut contenders: Vec<Contender<'_>> = Vec::new();
    if args.format == "msgpack" {
        let value = decoder
            .decode_msgpack(program, input, &arena)
            .unwrap_or_else(|e| panic!("tfwire: {e}"));
        let mut out = Vec::with_capacity(input.len());
        tfwire::encode_msgpack_into(program, &value, &mut out).expect("tfwire encode");
        check("tfwire encode gives go-cty's bytes", out == input, true);
        let peer = rmpv::decode::read_value(&mut &input[..]).expect("rmpv");
        let mut peer_out = Vec::with_capacity(input.len());
        rmpv::encode::write_value(&mut peer_out, &peer).expect("rmpv write");
        check("rmpv_write gives go-cty's bytes", peer_out == input, true);
        contenders.push(Contender::new("tfwire", move || {
            out.clear();
            tfwire::encode_msgpack_into(program, std::hint::black_box(&value), &mut out)
                .expect("tfwire encode");
            std::hint::black_box(out.len());
        }));
        contenders.push(Contender::new("rmpv_write", move || {
            peer_out.clear();
            rmpv::encode::write_value(&mut peer_out, std::hint::black_box(&peer))
                .expect("rmpv write");
            std::hint::black_box(peer_out.len());
        }));
    } else {
        let value = decoder
            .decode_json(program, input, &arena)
            .unwrap_or_else(|e| panic!("tfwire: {e}"));
        let mut out = String::with_capacity(input.len());
        tfwire::encode_json_into(program, &value, &mut out).expect("tfwire encode");
        check(
            "tfwire encode gives go-cty's bytes",
            out.as_bytes() == input,
            true,
        );
        let peer = peers::serde_json_value(input);
        let mut peer_out = Vec::with_capacity(input.len());
        serde_json::to_writer(&mut peer_out, &peer).expect("serde_json write");
        // Read back, the output holds the same nodes and string bytes (its numbers may
        // differ in the last bit: serde_json's default float parsing is not exact).
        let mut wrote = JsonCounts::default();
        count::serde_json_value(&peers::serde_json_value(&peer_out), &mut wrote);
        let mut read = JsonCounts::default();
        count::serde_json_value(&peer, &mut read);
        check("serde_json_write reads back as the same nodes", wrote, read);
        contenders.push(Contender::new("tfwire", move || {
            out.clear();
            tfwire::encode_json_into(program, std::hint::black_box(&value), &mut out)
                .expect("tfwire encode");
            std::hint::black_box(out.len());
        }));
        contenders.push(Contender::new("serde_json_write", move || {
            peer_out.clear();
            serde_json::to_writer(&mut peer_out, std::hint::black_box(&peer))
                .expect("serde_json write");
            std::hint::black_box(peer_out.len());
        }));
    }
    contenders.retain(|c| wanted(c.name));
    if contenders.is_empty() {
        eprintln!("compare: --only names no encoder");
        return ExitCode::from(2);
    }
    run_and_print(args, &mut contenders, payload_name, input.len())
}
