//! What tfwire's benchmarks share: the inputs, the answers every benchmark must find before
//! it is timed, independent counters, the peer decoders, and interleaved timing.
//!
//! - [`inputs`]: the 1 MB payloads of `corpus/payloads/` and the 32 MB inputs built from
//!   them at bench time (a list of 32 copies), the synthetic plan.
//! - [`answers`]: `benches/answers.json`, computed by `benches/answers.py` with Python's
//!   `msgpack` and `json` modules, never by the code under test.
//! - [`count`]: walks that count what a decoder produced (tfwire values, rmpv values,
//!   `serde_json` values, simd-json tapes and values) so that it can be checked.
//! - [`peers`]: the decoders tfwire is compared with, each returning its counts.
//! - [`timing`]: interleaved rounds and medians.
//!
//! Not published: the peer crates (rmpv, rmp-serde, serde_json, criterion) must never reach
//! the library crates.

pub mod answers;
pub mod count;
pub mod inputs;
pub mod peers;
pub mod timing;

use std::time::Duration;

/// The criterion settings every layer uses: flat sampling (the 32 MB inputs take tens of
/// milliseconds a call), 10 samples over 3 s after a 1 s warm-up, then the command line's
/// options (`--test` runs each benchmark once, after its answer check).
pub fn criterion() -> criterion::Criterion {
    criterion::Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

/// A benchmark group with the shared settings (flat sampling).
pub fn group<'c>(
    c: &'c mut criterion::Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(criterion::SamplingMode::Flat);
    g
}
