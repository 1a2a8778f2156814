//! JSON encode: `encode_json_into` (one output buffer reused) of the value decoded from each
//! input. The answer: go-cty's bytes, i.e. the JSON input itself.

use bumpalo::Bump;
use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire::{Config, Decoder};
use tfwire_benches::answers::check;
use tfwire_benches::inputs::bench_inputs;

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "json_encode");
    let mut decoder = Decoder::new(Config::default());
    let mut out = String::new();
    for input in bench_inputs() {
        let arena = Bump::new();
        let p = &input.program;
        let value = decoder.decode_json(p, &input.json, &arena).expect("decode");
        out.clear();
        tfwire::encode_json_into(p, &value, &mut out).expect("encode");
        check(
            &format!("json_encode {} gives go-cty's bytes", input.name),
            out.as_bytes() == input.json,
            true,
        );
        g.throughput(Throughput::Bytes(out.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(&input.name), |b| {
            b.iter(|| {
                out.clear();
                tfwire::encode_json_into(p, black_box(&value), &mut out).expect("encode");
                black_box(out.len())
            })
        });
    }
    g.finish();
    c.final_summary();
}
