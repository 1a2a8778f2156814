//! `tfwire::lookup` against the full decode: one top-level attribute of the 1 MB resource
//! (the first, `tags` near the end, and the last in go-cty's sorted order), and the same value
//! read from a full decode. Before timing, each lookup must give the full decode's value at
//! that path (compared whole, and by the node counts of `src/count.rs`).

use bumpalo::Bump;
use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire::{Config, Decoder, Path};
use tfwire_benches::answers::check;
use tfwire_benches::count;
use tfwire_benches::inputs::Input;

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "lookup");
    let input = Input::one_mb("resource");
    let (p, m) = (&input.program, &input.msgpack[..]);
    let mut decoder = Decoder::new(Config::default());
    let mut arena = Bump::new();
    // The whole value's answer, as every bench checks it.
    let full_counts = {
        let v = decoder.decode_msgpack(p, m, &arena).expect("full decode");
        count::tfwire_value(&v)
    };
    check("lookup: full decode", full_counts, input.answers.value);
    arena.reset();
    g.throughput(Throughput::Bytes(m.len() as u64));
    for attr in ["allow_stopping_for_update", "tags", "zone"] {
        let text = format!(".{attr}");
        let path = Path::parse(&text).expect("path");
        {
            let full = decoder.decode_msgpack(p, m, &arena).expect("full decode");
            let want = full.at(&path).expect("attribute");
            let mut d2 = Decoder::new(Config::default());
            let arena2 = Bump::new();
            let got = d2
                .lookup_msgpack(p, m, &path, &arena2)
                .expect("lookup")
                .expect("found");
            check(&format!("lookup .{attr}"), got, want);
            check(
                &format!("lookup .{attr} counts"),
                count::tfwire_value(&got),
                count::tfwire_value(&want),
            );
        }
        arena.reset();
        g.bench_function(BenchmarkId::new("lookup", attr), |b| {
            b.iter(|| {
                let v = decoder
                    .lookup_msgpack(p, black_box(m), &path, &arena)
                    .expect("lookup");
                black_box(v.is_some());
                arena.reset();
            })
        });
        g.bench_function(BenchmarkId::new("full_decode_then_at", attr), |b| {
            b.iter(|| {
                let v = decoder
                    .decode_msgpack(p, black_box(m), &arena)
                    .expect("decode");
                black_box(v.at(&path).is_some());
                arena.reset();
            })
        });
    }
    g.bench_function("is_null", |b| {
        b.iter(|| black_box(decoder.is_null_msgpack(p, black_box(m)).expect("is_null")))
    });
    g.finish();
    c.final_summary();
}
