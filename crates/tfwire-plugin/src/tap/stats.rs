//! The tap's figures.

use std::collections::BTreeMap;
use tfwire_json::{Escape, JsonWriter};

/// Per-RPC counts.
#[derive(Default)]
pub(super) struct Counts {
    pub(super) calls: u64,
    pub(super) frames: u64,
    pub(super) bytes: u64,
}

/// The figures of a tap's run, returned by [`super::Worker::finish`] (and written as the
/// `summary` of the log's last line).
#[derive(Default)]
#[non_exhaustive]
pub struct Stats {
    /// Calls, frames and bytes by RPC name (a method the table does not know by its path).
    pub(super) rpcs: BTreeMap<String, Counts>,
    /// The `DynamicValue`s seen.
    pub values: u64,
    /// Values (and messages) that did not decode, or had no schema.
    pub decode_errors: u64,
    /// Configurations `--validate` found problems in ([`super::validate_config`]).
    pub invalid: u64,
    /// Schemas the tap fetched itself ([`super::fetch_schemas`]).
    pub schema_fetches: u64,
    /// Frames and timings dropped because the worker's queue was full.
    pub dropped: u64,
    pub(super) decode_ns: Vec<u64>,
    pub(super) held_ns: Vec<u64>,
}

/// The `q`-quantile (0..=1) of `v` in microseconds, nearest rank; 0 when empty.
fn quantile_us(v: &mut [u64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_unstable();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1] as f64 / 1000.0
}

impl Stats {
    /// The summary as one JSON object: `rpcs` (`calls`, `frames`, `bytes` by RPC), the same
    /// totals, `values`, `decode_errors`, `invalid_values`, `schema_fetches`, `dropped`, and
    /// the median and 99th percentile of the decode time per value (`decode_us`) and of the
    /// time the proxy held a frame (`added_us`), in microseconds.
    pub fn summary_json(&mut self) -> String {
        let mut s = String::with_capacity(256 + 64 * self.rpcs.len());
        let _ = self.write_summary(&mut JsonWriter::new(&mut s, Escape::Safe));
        s
    }

    fn write_summary(&mut self, w: &mut JsonWriter<&mut String>) -> core::fmt::Result {
        w.begin_object()?;
        w.key("rpcs")?;
        w.begin_object()?;
        let (mut calls, mut frames, mut bytes) = (0, 0, 0);
        for (name, c) in &self.rpcs {
            w.key(name)?;
            w.begin_object()?;
            w.member_uint("calls", c.calls)?;
            w.member_uint("frames", c.frames)?;
            w.member_uint("bytes", c.bytes)?;
            w.end_object()?;
            (calls, frames, bytes) = (calls + c.calls, frames + c.frames, bytes + c.bytes);
        }
        w.end_object()?;
        w.member_uint("calls", calls)?;
        w.member_uint("frames", frames)?;
        w.member_uint("bytes", bytes)?;
        w.member_uint("values", self.values)?;
        w.member_uint("decode_errors", self.decode_errors)?;
        w.member_uint("invalid_values", self.invalid)?;
        w.member_uint("schema_fetches", self.schema_fetches)?;
        w.member_uint("dropped", self.dropped)?;
        for (key, ns) in [
            ("decode_us", &mut self.decode_ns),
            ("added_us", &mut self.held_ns),
        ] {
            w.key(key)?;
            w.begin_object()?;
            for (q, name) in [(0.5, "p50"), (0.99, "p99")] {
                w.key(name)?;
                w.number(&format!("{:.1}", quantile_us(ns, q)))?;
            }
            w.end_object()?;
        }
        w.end_object()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_nearest_rank() {
        let mut v: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(quantile_us(&mut v, 0.5), 50.0);
        assert_eq!(quantile_us(&mut v, 0.99), 99.0);
        assert_eq!(quantile_us(&mut Vec::<u64>::new(), 0.99), 0.0);
    }

    #[test]
    fn summary_is_one_json_object() {
        let mut stats = Stats {
            values: 3,
            decode_errors: 1,
            decode_ns: vec![1500, 2500],
            ..Stats::default()
        };
        stats.rpcs.insert(
            "Plan\"X".into(),
            Counts {
                calls: 1,
                frames: 2,
                bytes: 30,
            },
        );
        assert_eq!(
            stats.summary_json(),
            r#"{"rpcs":{"Plan\"X":{"calls":1,"frames":2,"bytes":30}},"calls":1,"frames":2,"bytes":30,"values":3,"decode_errors":1,"invalid_values":0,"schema_fetches":0,"dropped":0,"decode_us":{"p50":1.5,"p99":2.5},"added_us":{"p50":0.0,"p99":0.0}}"#
        );
    }
}
