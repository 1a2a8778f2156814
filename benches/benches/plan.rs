//! Plan parse + summary: `tfwire_plan::Parser::parse` (simd-json's tape, in place), the typed
//! plan model in an arena, and `Summary::of`, on a synthetic plan made by
//! `corpus/tools/mkbigplan.py` (about `TFWIRE_BENCH_PLAN_MB` MiB, default 32; kept in the
//! build folder). Each call copies the file into a reused buffer first (the parse writes
//! into it). The answer: the change counts the script computed.

use bumpalo::Bump;
use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire_benches::answers::check;
use tfwire_benches::inputs::big_plan;
use tfwire_plan::{Parser, Summary};

fn counts(
    parser: &mut Parser,
    buf: &mut Vec<u8>,
    arena: &mut Bump,
    bytes: &[u8],
) -> Vec<(String, u64)> {
    buf.clear();
    buf.extend_from_slice(bytes);
    let out = {
        let tape = parser.parse(buf).expect("parse");
        let out = {
            let plan = tape.plan(arena).expect("a plan");
            let summary = Summary::of(plan);
            let mut out: Vec<(String, u64)> = summary
                .counts
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| (k.to_string(), n as u64))
                .collect();
            out.sort();
            out
        };
        parser.recycle(tape);
        out
    };
    arena.reset();
    out
}

fn main() {
    let mb: u32 = std::env::var("TFWIRE_BENCH_PLAN_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(32);
    let plan = big_plan(mb);
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "plan");
    let mut parser = Parser::new();
    let mut buf = Vec::new();
    let mut arena = Bump::new();
    check(
        "plan summary counts",
        counts(&mut parser, &mut buf, &mut arena, &plan.bytes),
        plan.counts.clone(),
    );
    g.throughput(Throughput::Bytes(plan.bytes.len() as u64));
    g.bench_function(
        BenchmarkId::new("parse_summary", format!("bigplan-{mb}mb")),
        |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&plan.bytes));
                let tape = parser.parse(&mut buf).expect("parse");
                {
                    let p = tape.plan(&arena).expect("a plan");
                    black_box(Summary::of(p).counts.total());
                }
                parser.recycle(tape);
                arena.reset();
            })
        },
    );
    g.finish();
    c.final_summary();
}
