//! Layer 1, JSON: simd-json's tape alone, as tfwire's JSON decode runs it
//! (`tfwire_json::tape::TapeParser`: the input copied into a padded buffer, `fill_tape_padded`
//! with reused buffers and tape). The floor under the typed decode.

use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use tfwire_benches::answers::{JsonCounts, check};
use tfwire_benches::count;
use tfwire_benches::inputs::bench_inputs;
use tfwire_json::tape::{INPUT_PADDING, Node, TapeParser};

/// The JSON layer's reusable parser and the padded copy of the input, as tfwire keeps them.
#[derive(Default)]
struct Tape {
    copy: Vec<u8>,
    parser: TapeParser,
}

impl Tape {
    fn run<R>(&mut self, input: &[u8], f: impl FnOnce(&[Node<'_>]) -> R) -> R {
        self.copy.clear();
        self.copy.extend_from_slice(input);
        self.copy.resize(input.len() + INPUT_PADDING, 0);
        let tape = self
            .parser
            .parse(&mut self.copy, input.len())
            .expect("simd-json");
        let r = f(&tape.0);
        self.parser.recycle(tape);
        r
    }
}

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "json_tape");
    let mut tape = Tape::default();
    for input in bench_inputs() {
        let j = &input.json[..];
        let found: JsonCounts = tape.run(j, |t| count::simd_json_tape(t, j.len()));
        check(
            &format!("json_tape {}", input.name),
            found,
            input.answers.json,
        );
        g.throughput(Throughput::Bytes(j.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(&input.name), |b| {
            b.iter(|| tape.run(black_box(j), |t| black_box(t.len())))
        });
    }
    g.finish();
    c.final_summary();
}
