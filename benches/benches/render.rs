//! Rendering the worst-case shapes of a change, generated here: one object of 60,000
//! attributes (one changed), an unchanged list of 60,000 elements beside a changed string,
//! a list of 60,000 numbers all changed, a set of 100,000 numbers half replaced, 20,000
//! `replace_paths` over 20,000 attributes, and 60,000 × 60,000 lists under sensitivity
//! marks. Each took 10 s to minutes when a child was looked up by scanning its parent.
//!
//! Two layers: `tfwire_plan::Diff::of` in process (the structural diff behind the Markdown
//! and JSON summaries), and, when `target/release/tfwire` has been built, `tfwire plan
//! show` on the same plan (the `tofu show` renderer, `tfwire_render::show`, run by the
//! binary; the figure includes process start and parsing). The answers: the number of changed nodes
//! `Diff::changes` finds, and a line the rendering must hold.

use bumpalo::Bump;
use criterion::{BenchmarkId, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use tfwire_benches::answers::check;
use tfwire_plan::{Diff, Parser};

/// One worst case: its name, the plan, the changed nodes `Diff::changes` finds, and a line
/// `plan show` must print.
struct Case {
    name: &'static str,
    plan: Vec<u8>,
    changes: usize,
    line: String,
}

fn plan(before: String, after: String, extra: &str) -> Vec<u8> {
    format!(
        r#"{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{{"address":"tfwire_item.x","mode":"managed","type":"tfwire_item","name":"x","provider_name":"registry.opentofu.org/tfwire/tfwire","change":{{"actions":["update"],"before":{before},"after":{after}{extra}}}}}],"output_changes":{{}}}}"#
    )
    .into_bytes()
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(","))
}

fn cases() -> Vec<Case> {
    let n = 60_000;
    let wide = |changed: i64| {
        let members: Vec<String> = (0..n)
            .map(|i| format!("\"a{i}\":{}", if i == 0 { changed } else { i }))
            .collect();
        format!("{{\"v\":{{{}}}}}", members.join(","))
    };
    let numbers = |from: i64, to: i64| list((from..to).map(|i| i.to_string()));
    let nested = |shift: i64| list((0..n).map(|i| format!("[\"{}\"]", i + shift)));
    let marks = list((0..n).map(|_| "[true]".to_string()));
    let replace_attrs = |shift: i64| {
        let m: Vec<String> = (0..20_000)
            .map(|i| format!("\"a{i}\":{}", i + shift))
            .collect();
        format!("{{{}}}", m.join(","))
    };
    let replace_paths = list((0..20_000).map(|i| format!("[\"a{i}\"]")));
    vec![
        Case {
            name: "wide-object-60k",
            plan: plan(wide(0), wide(-1), ""),
            changes: 1,
            line: "          ~ a0     = 0 -> -1".into(),
        },
        Case {
            name: "unchanged-list-60k",
            plan: plan(
                format!("{{\"l\":{},\"s\":\"a\"}}", numbers(0, n)),
                format!("{{\"l\":{},\"s\":\"b\"}}", numbers(0, n)),
                "",
            ),
            changes: 1,
            line: "      ~ s = \"a\" -> \"b\"".into(),
        },
        Case {
            name: "changed-list-60k",
            plan: plan(
                format!("{{\"l\":{}}}", numbers(0, n)),
                format!("{{\"l\":{}}}", numbers(n, 2 * n)),
                "",
            ),
            changes: n as usize,
            line: "          + 119999,".into(),
        },
        Case {
            name: "list-100k-half-replaced",
            plan: plan(
                format!("{{\"s\":{}}}", numbers(0, 100_000)),
                format!("{{\"s\":{}}}", numbers(50_000, 150_000)),
                "",
            ),
            changes: 100_000,
            line: "          + 149999,".into(),
        },
        Case {
            name: "replace-paths-20k",
            plan: plan(
                replace_attrs(0),
                replace_attrs(1),
                &format!(",\"replace_paths\":{replace_paths}"),
            ),
            changes: 20_000,
            line: "      ~ a19999 = 19999 -> 20000 # forces replacement".into(),
        },
        Case {
            name: "sensitive-lists-60k",
            plan: plan(
                format!("{{\"l\":{}}}", nested(0)),
                format!("{{\"l\":{}}}", nested(1)),
                &format!(
                    ",\"before_sensitive\":{{\"l\":{marks}}},\"after_sensitive\":{{\"l\":{marks}}}"
                ),
            ),
            changes: n as usize,
            line: "      ~ l = [".into(),
        },
    ]
}

fn diff_changes(parser: &mut Parser, buf: &mut Vec<u8>, arena: &Bump, bytes: &[u8]) -> usize {
    buf.clear();
    buf.extend_from_slice(bytes);
    let tape = parser.parse(buf).expect("parse");
    let n = {
        let p = tape.plan(arena).expect("a plan");
        Diff::of(&p.resource_changes[0].change).changes().len()
    };
    parser.recycle(tape);
    n
}

/// The release CLI, if it has been built.
fn cli() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), PathBuf::from);
    let bin = target.join("release").join("tfwire");
    bin.exists().then_some(bin)
}

fn show(bin: &PathBuf, file: &PathBuf) -> String {
    let out = Command::new(bin)
        .args(["plan", "show"])
        .arg(file)
        .output()
        .expect("run tfwire");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn main() {
    let mut c = tfwire_benches::criterion();
    let mut g = tfwire_benches::group(&mut c, "render");
    let mut parser = Parser::new();
    let mut buf = Vec::new();
    let mut arena = Bump::new();
    let bin = cli();
    if bin.is_none() {
        eprintln!("render: target/release/tfwire not built; timing Diff::of only");
    }
    let dir = std::env::temp_dir().join(format!("tfwire-render-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for case in cases() {
        check(
            &format!("{} changes", case.name),
            diff_changes(&mut parser, &mut buf, &arena, &case.plan),
            case.changes,
        );
        arena.reset();
        g.throughput(Throughput::Bytes(case.plan.len() as u64));
        g.bench_function(BenchmarkId::new("diff", case.name), |b| {
            b.iter(|| {
                let n = diff_changes(&mut parser, &mut buf, &arena, black_box(&case.plan));
                arena.reset();
                n
            })
        });
        if let Some(bin) = &bin {
            let file = dir.join(format!("{}.json", case.name));
            std::fs::write(&file, &case.plan).expect("write the plan");
            let out = show(bin, &file);
            check(
                &format!("{} plan show", case.name),
                out.lines().any(|l| l == case.line),
                true,
            );
            g.bench_function(BenchmarkId::new("plan_show", case.name), |b| {
                b.iter(|| show(bin, &file).len())
            });
        }
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
    c.final_summary();
}
