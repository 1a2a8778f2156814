//! `plan FILE...`: plan summary throughput and peak memory, tfwire-plan against
//! `serde_json::Value` on the same files (`tfwire-plan` parses the whole document,
//! `tfwire-plan-summary` with `Parser::parse_summary`, which leaves the values out)
//! (`cargo run --release -p tfwire-benches --bin plan -- FILE...`).
//!
//! Each reader runs in a child process of its own (so that peak RSS, read from
//! `/proc/self/status`, is its own), reads the whole file, then parses it and counts the
//! changes per action. The counts of both readers must agree before any figure is shown: a
//! fast wrong answer fails. Build with `--release`; make a large plan with
//! `corpus/tools/mkbigplan.py`. The criterion bench `plan` times the same
//! work on a synthetic plan, in process.

use std::collections::BTreeMap;
use std::process::{Command, ExitCode};
use std::time::Instant;

const RUNS: usize = 3;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--child") if args.len() == 3 => child(&args[1], &args[2]),
        Some(a) if !a.starts_with('-') => compare(&args),
        _ => {
            eprintln!("usage: plan FILE...");
            ExitCode::from(2)
        }
    }
}

fn compare(files: &[String]) -> ExitCode {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    println!(
        "{:<28} {:<12} {:>10} {:>10} {:>10} {:>12}",
        "file", "reader", "MB", "best s", "MB/s", "peak RSS MB"
    );
    for file in files {
        let mut answers = Vec::new();
        for reader in ["tfwire-plan", "tfwire-plan-summary", "serde_json"] {
            let mut best: Option<(f64, f64, String)> = None;
            for _ in 0..RUNS {
                let out = Command::new(&exe)
                    .args(["--child", reader, file])
                    .output()
                    .expect("run the benchmark child");
                if !out.status.success() {
                    eprintln!(
                        "{reader} on {file}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    return ExitCode::FAILURE;
                }
                let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
                let mut parts = line.splitn(3, ' ');
                let secs: f64 = parts.next().unwrap().parse().unwrap();
                let rss: f64 = parts.next().unwrap().parse().unwrap();
                let counts = parts.next().unwrap().to_string();
                if best.as_ref().is_none_or(|b| secs < b.0) {
                    best = Some((secs, rss, counts));
                }
            }
            let (secs, rss, counts) = best.unwrap();
            let mb = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
            let name = std::path::Path::new(file)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            println!(
                "{name:<28} {reader:<12} {mb:>10.1} {secs:>10.3} {:>10.0} {rss:>12.0}",
                mb / secs
            );
            answers.push(counts);
        }
        if answers.iter().any(|a| *a != answers[0]) {
            eprintln!("{file}: the readers disagree:\n  {}", answers.join("\n  "));
            return ExitCode::FAILURE;
        }
        println!("{:<28} counts {}", "", answers[0]);
    }
    ExitCode::SUCCESS
}

/// Reads, parses and counts once; prints `seconds peak_rss_mb counts`.
fn child(reader: &str, file: &str) -> ExitCode {
    let mut bytes = std::fs::read(file).expect("read the plan");
    bytes.reserve_exact(tfwire_plan::INPUT_PADDING);
    let start = Instant::now();
    let counts = match reader {
        "tfwire-plan" | "tfwire-plan-summary" => {
            let mut parser = tfwire_plan::Parser::new();
            let tape = if reader == "tfwire-plan" {
                parser.parse(&mut bytes)
            } else {
                parser.parse_summary(&mut bytes)
            }
            .expect("parse");
            drop(parser);
            let arena = bumpalo::Bump::new();
            let summary = tfwire_plan::Summary::of(tape.plan(&arena).expect("a plan"));
            summary
                .counts
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| (k.to_string(), n))
                .collect::<BTreeMap<_, _>>()
        }
        "serde_json" => {
            let v: serde_json::Value = serde_json::from_slice(&bytes).expect("parse");
            let mut counts = BTreeMap::new();
            for rc in v["resource_changes"].as_array().into_iter().flatten() {
                let actions: Vec<&str> = rc["change"]["actions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.as_str())
                    .collect();
                let key = match actions.as_slice() {
                    ["delete", "create"] | ["create", "delete"] => "replace".to_string(),
                    ["no-op"] => "no_op".to_string(),
                    [one] => one.to_string(),
                    many => many.join("+"),
                };
                *counts.entry(key).or_insert(0) += 1;
            }
            counts
        }
        _ => return ExitCode::from(2),
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{secs:.4} {:.0} {counts:?}", peak_rss_mb());
    ExitCode::SUCCESS
}

/// `VmHWM` of this process in MB (0 where /proc is not available).
fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}
