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
//! - [`icount`]: the hot paths whose instructions CI counts (`benches/icount.sh`).
//!
//! Not published: the peer crates (rmpv, rmp-serde, serde_json, criterion) must never reach
//! the library crates.

pub mod answers;
pub mod count;
pub mod icount;
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

#[cfg(test)]
mod tests {
    use crate::answers::{JsonCounts, MsgpackCounts, check};
    use crate::inputs::Input;
    use crate::{count, peers};

    /// The answers of a repeated input, derived from the 1 MB ones, are what the walks find
    /// in the bytes built for it (so the 32 MB benches check real answers).
    #[test]
    fn repeated_answers_match_the_repeated_bytes() {
        for kind in crate::inputs::KINDS {
            let one = Input::one_mb(kind);
            let three = one.repeated(3, "x3");
            let a = three.answers;
            check("tokens", count::msgpack_tokens(&three.msgpack), a.msgpack);
            check("limit_walk", peers::limit_walk(&three.msgpack), a.msgpack);
            let mut rmpv = MsgpackCounts {
                bytes: three.msgpack.len() as u64,
                ..MsgpackCounts::default()
            };
            count::rmpv_value(&peers::rmpv_ref(&three.msgpack), &mut rmpv);
            check("rmpv", rmpv, a.msgpack);
            let mut json = JsonCounts {
                bytes: three.json.len() as u64,
                ..JsonCounts::default()
            };
            count::serde_json_value(&peers::serde_json_value(&three.json), &mut json);
            check("serde_json", json, a.json);
            let mut tfwire = peers::Tfwire::default();
            check(
                "tfwire msgpack",
                tfwire.msgpack(&three.program, &three.msgpack, count::tfwire_value),
                a.value,
            );
            check(
                "tfwire json",
                tfwire.json(&three.program, &three.json, count::tfwire_value),
                a.value,
            );
        }
    }

    #[test]
    #[should_panic(expected = "wrong answer")]
    fn a_wrong_answer_fails() {
        let input = Input::one_mb("numbers");
        let mut wrong = input.answers.value;
        wrong.numbers -= 1;
        let found =
            peers::Tfwire::default().msgpack(&input.program, &input.msgpack, count::tfwire_value);
        check("numbers", found, wrong);
    }
}
