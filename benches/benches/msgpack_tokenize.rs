//! Layer 1, MessagePack: `tfwire_msgpack::Tokenizer` alone, every token read (no UTF-8
//! validation, no type). The floor under the typed decode.

use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire_benches::answers::check;
use tfwire_benches::count;
use tfwire_benches::inputs::bench_inputs;

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "msgpack_tokenize");
    for input in bench_inputs() {
        check(
            &format!("msgpack_tokenize {}", input.name),
            count::msgpack_tokens(&input.msgpack),
            input.answers.msgpack,
        );
        g.throughput(Throughput::Bytes(input.msgpack.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(&input.name), |b| {
            b.iter(|| count::msgpack_tokens(black_box(&input.msgpack)))
        });
    }
    g.finish();
    c.final_summary();
}
