//! Interleaved timing: every contender runs once per round, the rounds repeat, and each
//! contender's figure is the median of its rounds. On a shared, noisy machine that keeps
//! the ratios honest (a slow patch hits every contender), even when absolute figures move.

use std::time::{Duration, Instant};

/// One decoder under test: a name and a call that does one whole decode.
pub struct Contender<'a> {
    /// The name printed in results.
    pub name: &'static str,
    /// One decode (including dropping the result or resetting the arena).
    pub run: Box<dyn FnMut() + 'a>,
}

impl<'a> Contender<'a> {
    /// A contender.
    pub fn new(name: &'static str, run: impl FnMut() + 'a) -> Contender<'a> {
        Contender {
            name,
            run: Box::new(run),
        }
    }
}

/// The figures of one contender.
#[derive(Clone, Debug)]
pub struct Figures {
    /// The contender's name.
    pub name: &'static str,
    /// Throughput of each round, GB/s (10^9 bytes of input per second).
    pub rounds: Vec<f64>,
}

impl Figures {
    /// The median throughput, GB/s.
    pub fn median(&self) -> f64 {
        median(&self.rounds)
    }
}

/// The median of `xs` (the mean of the two middle values for an even count); 0 if empty.
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs `rounds` rounds; in each, every contender decodes `bytes`-long input as many times
/// as fit in about `batch` (calibrated once, after a warm-up call), in an order that
/// rotates from round to round.
pub fn interleaved(
    contenders: &mut [Contender<'_>],
    bytes: usize,
    rounds: usize,
    batch: Duration,
) -> Vec<Figures> {
    let iters: Vec<u32> = contenders
        .iter_mut()
        .map(|c| {
            (c.run)(); // warm-up
            let t = Instant::now();
            (c.run)();
            let one = t.elapsed().max(Duration::from_nanos(1));
            (batch.as_secs_f64() / one.as_secs_f64()).clamp(1.0, 1e6) as u32
        })
        .collect();
    let n = contenders.len();
    let mut out: Vec<Figures> = contenders
        .iter()
        .map(|c| Figures {
            name: c.name,
            rounds: Vec::with_capacity(rounds),
        })
        .collect();
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let c = &mut contenders[i];
            let t = Instant::now();
            for _ in 0..iters[i] {
                (c.run)();
            }
            let secs = t.elapsed().as_secs_f64();
            out[i]
                .rounds
                .push(bytes as f64 * f64::from(iters[i]) / secs / 1e9);
        }
    }
    out
}
