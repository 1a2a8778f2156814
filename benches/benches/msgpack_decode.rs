//! Layer 2, MessagePack: tfwire's typed decode (`Decoder::decode_msgpack`, one decoder and
//! one arena reused, the arena reset after each decode), and the same input fed to the
//! chunked decoder in 64 KiB chunks.

use bumpalo::Bump;
use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire::{Config, Decoder, Program, Progress, Value};
use tfwire_benches::answers::check;
use tfwire_benches::count;
use tfwire_benches::inputs::bench_inputs;
use tfwire_benches::peers::Tfwire;

const CHUNK: usize = 64 << 10;

fn chunked<R>(
    decoder: &mut Decoder,
    arena: &mut Bump,
    program: &Program,
    input: &[u8],
    f: impl FnOnce(&Value<'_>) -> R,
) -> R {
    let r = {
        let mut d = decoder.chunked(program, arena);
        for chunk in input.chunks(CHUNK) {
            match d.feed(chunk).expect("tfwire chunked") {
                Progress::NeedMore | Progress::Done(_) => {}
            }
        }
        f(&d.finish().expect("tfwire chunked: complete"))
    };
    arena.reset();
    r
}

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "msgpack_decode");
    let mut tfwire = Tfwire::default();
    let mut decoder = Decoder::new(Config::default());
    let mut arena = Bump::new();
    for input in bench_inputs() {
        let (p, m) = (&input.program, &input.msgpack[..]);
        let name = &input.name;
        check(
            &format!("msgpack_decode {name}"),
            tfwire.msgpack(p, m, count::tfwire_value),
            input.answers.value,
        );
        check(
            &format!("msgpack_decode chunked {name}"),
            chunked(&mut decoder, &mut arena, p, m, count::tfwire_value),
            input.answers.value,
        );
        g.throughput(Throughput::Bytes(m.len() as u64));
        g.bench_function(BenchmarkId::new("tfwire", name), |b| {
            b.iter(|| tfwire.msgpack(p, black_box(m), |v| black_box(v.is_null())))
        });
        g.bench_function(BenchmarkId::new("tfwire_chunked_64k", name), |b| {
            b.iter(|| {
                chunked(&mut decoder, &mut arena, p, black_box(m), |v| {
                    black_box(v.is_null())
                })
            })
        });
    }
    g.finish();
    c.final_summary();
}
