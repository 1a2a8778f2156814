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
    while let Some(a) = args.next() {
        match a.as_str() {
            "--type" => ty = args.next(),
            "--input" => format = args.next().unwrap_or_default(),
            "--iters" => iters = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            _ if !a.starts_with('-') => payload = Some(a),
            _ => ty = None,
        }
    }
    let (Some(ty), Some(payload)) = (ty, payload) else {
        eprintln!(
            "usage: profile --type TYPE.json --input msgpack|json|json_text --iters N PAYLOAD"
        );
        return ExitCode::from(2);
    };
    let type_json = std::fs::read_to_string(&ty).expect("read the type");
    let program = Program::from_type_json(type_json.trim()).expect("a valid type");
    let input = std::fs::read(&payload).expect("read the payload");
    let mut tfwire = Tfwire::default();
    let mut decode = |f: &mut dyn FnMut(&tfwire::Value<'_>)| match format.as_str() {
        "msgpack" => tfwire.msgpack(&program, &input, f),
        "json" => tfwire.json(&program, &input, f),
        "json_text" => tfwire.json_text(&program, &input, f),
        other => panic!("--input {other}: msgpack, json or json_text"),
    };
    let mut found = None;
    decode(&mut |v| found = Some(count::tfwire_value(v)));
    let name = std::path::Path::new(&payload)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let kind = name.split("-1m.").next().unwrap_or("");
    if let Some(a) = Answers::for_kind(kind).filter(|_| name.contains("-1m.")) {
        check("tfwire", found.expect("a value"), a.value);
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
