//! Layer 2, JSON: tfwire's typed decode (`Decoder::decode_json`: simd-json's tape, then the
//! state machine; one decoder and one arena reused), and the byte-by-byte reader alone
//! (`Decoder::decode_json_text`, the fallback for numbers simd-json cannot hold).

use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire_benches::answers::check;
use tfwire_benches::count;
use tfwire_benches::inputs::bench_inputs;
use tfwire_benches::peers::Tfwire;

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "json_decode");
    let mut tfwire = Tfwire::default();
    for input in bench_inputs() {
        let (p, j) = (&input.program, &input.json[..]);
        let name = &input.name;
        check(
            &format!("json_decode {name}"),
            tfwire.json(p, j, count::tfwire_value),
            input.answers.value,
        );
        check(
            &format!("json_decode text {name}"),
            tfwire.json_text(p, j, count::tfwire_value),
            input.answers.value,
        );
        g.throughput(Throughput::Bytes(j.len() as u64));
        g.bench_function(BenchmarkId::new("tfwire", name), |b| {
            b.iter(|| tfwire.json(p, black_box(j), |v| black_box(v.is_null())))
        });
        g.bench_function(BenchmarkId::new("tfwire_text", name), |b| {
            b.iter(|| tfwire.json_text(p, black_box(j), |v| black_box(v.is_null())))
        });
    }
    g.finish();
    c.final_summary();
}
