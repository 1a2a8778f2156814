//! `tfwire plan summary` as a user runs it: every real plan, every format, the byte
//! budget of Markdown summaries, and the filters.

use crate::common::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Counts per summary key of a list of resource changes, made with serde_json.
fn count(list: Option<&Value>) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for rc in list.and_then(Value::as_array).into_iter().flatten() {
        *out.entry(action_key(&rc["change"]["actions"])).or_default() += 1;
    }
    out
}

fn nonzero(counts: &Value) -> BTreeMap<String, u64> {
    counts
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.as_u64() != Some(0))
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

/// The headline a summary must state for these counts.
fn headline(counts: &BTreeMap<String, u64>) -> String {
    let n = |k: &str| counts.get(k).copied().unwrap_or(0);
    let mut s = format!(
        "### Plan: {} to create, {} to update, {} to delete, {} to replace",
        n("create"),
        n("update"),
        n("delete"),
        n("replace")
    );
    for k in ["read", "forget"] {
        if n(k) > 0 {
            s.push_str(&format!(", {} to {k}", n(k)));
        }
    }
    s
}

#[test]
fn every_corpus_plan_in_every_format() {
    let mut plans = 0;
    for path in plan_files() {
        let p = path.to_string_lossy();
        let doc = read_json(&path);
        let want = count(doc.get("resource_changes"));
        let want_drift = count(doc.get("resource_drift"));

        let (code, out, err) = run(&["plan", "summary", "--format", "json", &p], b"");
        assert_eq!(code, 0, "{p}: {err}");
        let got: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(nonzero(&got["counts"]), want, "{p}: counts");
        assert_eq!(nonzero(&got["drift"]), want_drift, "{p}: drift");
        let n = |v: &Value| v.as_array().map_or(0, Vec::len);
        assert_eq!(n(&got["changes"]), n(&doc["resource_changes"]), "{p}");
        assert_eq!(n(&got["drift_changes"]), n(&doc["resource_drift"]), "{p}");

        // Piped, the default is the table.
        let (code, table, err) = run(&["plan", "summary", &p], b"");
        assert_eq!(code, 0, "{p}: {err}");
        let changes_line = table
            .lines()
            .rev()
            .find(|l| l.starts_with("Changes: "))
            .unwrap();
        for (k, v) in &want {
            assert!(
                changes_line.contains(&format!("{v} {}", k.replace('_', "-"))),
                "{p}: {changes_line}"
            );
        }

        let (code, md, err) = run(&["plan", "summary", "--format", "markdown", &p], b"");
        assert_eq!(code, 0, "{p}: {err}");
        assert!(md.starts_with(&headline(&want)), "{p}: {md}");
        assert!(
            details_balanced(&md) && tables_well_formed(&md),
            "{p}: {md}"
        );
        plans += 1;
    }
    assert_eq!(plans, 301);
}

#[test]
fn markdown_summary_of_a_plan_with_several_actions() {
    let plan = corpus("plans/dineshba__tf-summarize/example/tfplan.json");
    let (code, md, _) = run(&["plan", "summary", "--format", "markdown", &plan], b"");
    assert_eq!(code, 0);
    assert_eq!(
        md,
        "### Plan: 7 to create, 0 to update, 0 to delete, 0 to replace\n\
         \n\
         | Create | Update | Delete | Replace | Read | No change | Forget |\n\
         |---:|---:|---:|---:|---:|---:|---:|\n\
         | 7 | 0 | 0 | 0 | 0 | 1 | 0 |\n\
         \n\
         **Drift:** 3 resources changed outside Terraform (3 delete).\n\
         **Outputs:** 1 create (`terraform_plan_summary_repository_name` create).\n\
         \n\
         <details open><summary><code>+</code> <strong>Create</strong> (7)</summary>\n\
         \n\
         | Address |\n\
         |---|\n\
         | `github_repository.terraform_plan_summary` |\n\
         | `module.github[\"demo-repository\"].github_branch.development` |\n\
         | `module.github[\"demo-repository\"].github_branch.main` |\n\
         | `module.github[\"demo-repository\"].github_repository.repository` |\n\
         | `module.github[\"terraform-plan-summary\"].github_branch.development` |\n\
         | `module.github[\"terraform-plan-summary\"].github_branch.main` |\n\
         | `module.github[\"terraform-plan-summary\"].github_repository.repository` |\n\
         \n\
         </details>\n\
         \n\
         <details open><summary><code>!</code> <strong>Changed outside Terraform (drift)</strong> (3)</summary>\n\
         \n\
         | Address | Action |\n\
         |---|---|\n\
         | `module.github[\"terraform-plan-summary\"].github_branch.demo` | delete |\n\
         | `module.github[\"terraform-plan-summary\"].github_branch.main` | delete |\n\
         | `module.github[\"terraform-plan-summary\"].github_repository.repository` | delete |\n\
         \n\
         </details>\n\
         \n\
         <sub>plan format `1.0` · Terraform `1.1.4` · tfwire 0.1.0</sub>\n"
    );
}

/// A plan of `n` resource changes made of the corpus's real ones, each moved into a
/// module of its own (`module.m<k>.`), written to a temporary file; with its counts.
fn synthetic_plan(n: usize, name: &str) -> (PathBuf, BTreeMap<String, u64>) {
    let mut changes = Vec::with_capacity(n);
    'outer: loop {
        for path in plan_files() {
            let doc = read_json(&path);
            for rc in doc["resource_changes"].as_array().into_iter().flatten() {
                if changes.len() == n {
                    break 'outer;
                }
                let k = changes.len();
                let mut rc = rc.clone();
                let m = format!("module.m{k}");
                let addr = rc["address"].as_str().unwrap_or("x.y").to_string();
                rc["address"] = json!(format!("{m}.{addr}"));
                rc["module_address"] = match rc["module_address"].as_str() {
                    Some(inner) => json!(format!("{m}.{inner}")),
                    None => json!(m),
                };
                if let Some(prev) = rc["previous_address"].as_str() {
                    rc["previous_address"] = json!(format!("{m}.{prev}"));
                }
                changes.push(rc);
            }
        }
    }
    let plan = json!({"format_version": "1.2", "terraform_version": "1.9.8",
                      "resource_changes": changes});
    let counts = count(plan.get("resource_changes"));
    let file = std::env::temp_dir().join(format!("tfwire-{}-{name}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_vec(&plan).unwrap()).unwrap();
    (file, counts)
}

#[test]
fn max_bytes_65536_on_20000_changes() {
    let (file, counts) = synthetic_plan(20_000, "20k");
    let f = file.to_string_lossy().into_owned();
    let (code, full, _) = run(&["plan", "summary", "--format", "markdown", &f], b"");
    assert_eq!(code, 0);
    assert!(
        full.len() > 1_000_000,
        "the full summary is large: {}",
        full.len()
    );

    let (code, md, err) = run(&["plan", "summary", "--max-bytes", "65536", &f], b"");
    assert_eq!(code, 0, "{err}");
    assert!(md.len() <= 65536, "{} bytes", md.len());
    assert!(
        md.starts_with(&headline(&counts)),
        "the totals are stated: {md}"
    );
    for (k, v) in &counts {
        assert!(
            md.contains(&format!("| {v} |")),
            "count {k} = {v} in the table"
        );
    }
    assert!(details_balanced(&md) && tables_well_formed(&md));
    // 20,000 addresses do not fit: every destructive change is listed by address, then as
    // many others as fit, and the rest counted; the budget is used.
    let plan = read_json(&file);
    for rc in plan["resource_changes"].as_array().unwrap() {
        let key = action_key(&rc["change"]["actions"]);
        if key
            .split('+')
            .any(|a| matches!(a, "delete" | "replace" | "forget"))
        {
            let a = rc["address"].as_str().unwrap().replace('|', "\\|");
            assert!(md.contains(&format!("`{a}`")), "{a} is listed");
        }
    }
    assert!(md.contains("not listed to fit the size limit"), "{md}");
    assert!(md.len() > 60_000, "the budget is used: {} bytes", md.len());
    std::fs::remove_file(file).unwrap();
}

#[test]
fn max_bytes_from_ample_to_absurd() {
    let (file, counts) = synthetic_plan(600, "600");
    let f = file.to_string_lossy().into_owned();
    let (_, full, _) = run(&["plan", "summary", "--format", "markdown", &f], b"");
    let mut seen = BTreeMap::new();
    // Just too small for the full summary: the details collapse.
    for max in [full.len(), full.len() - 1].into_iter().chain([
        0, 1, 10, 60, 80, 100, 150, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 5000, 8000,
        12_000, 20_000, 65_536, 100_000, 10_000_000,
    ]) {
        let (code, md, err) = run(
            &[
                "plan",
                "summary",
                "--format",
                "markdown",
                "--max-bytes",
                &max.to_string(),
                &f,
            ],
            b"",
        );
        if code == 2 {
            // Too small for even the headline: said so, nothing written.
            assert!(md.is_empty(), "{max}");
            assert!(
                err.starts_with(&format!(
                    "error: --max-bytes {max} is too small: even the totals"
                )),
                "{max}: {err}"
            );
            assert!(max < 400, "{max} bytes hold the headline and the counts");
            let at = seen.entry("refused").or_insert(max);
            *at = (*at).max(max);
            continue;
        }
        assert_eq!(code, 0, "{max}: {err}");
        assert!(md.len() <= max, "{max}: {} bytes", md.len());
        assert!(md.starts_with(&headline(&counts)), "{max}: {md}");
        assert!(
            details_balanced(&md) && tables_well_formed(&md),
            "{max}: {md}"
        );
        let stage = if md.contains("<details open>") {
            "full"
        } else if md.contains("not listed to fit the size limit") {
            "listed"
        } else if md.contains("| Address |") {
            "collapsed"
        } else if md.contains("left out to fit the size limit._\n") && md.contains("<details>") {
            "truncated"
        } else if md.contains("grouped by resource type") {
            "grouped"
        } else {
            assert!(
                md.contains("| Create |"),
                "{max}: the counts are kept: {md}"
            );
            "totals"
        };
        let at = seen.entry(stage).or_insert(max);
        *at = (*at).min(max);
    }
    // Every stage happens, in order of budget.
    let order: Vec<&str> = {
        let mut v: Vec<(&&str, &usize)> = seen.iter().collect();
        v.sort_by_key(|(_, m)| **m);
        v.into_iter().map(|(s, _)| *s).collect()
    };
    // "grouped" (every type, no address) may fall between two of the budgets tried.
    let expected = [
        "refused",
        "totals",
        "truncated",
        "grouped",
        "listed",
        "collapsed",
        "full",
    ];
    let wanted: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|s| *s != "grouped" || order.contains(s))
        .collect();
    assert_eq!(order, wanted, "{seen:?}");
    std::fs::remove_file(file).unwrap();
}

#[test]
fn max_bytes_needs_markdown() {
    let plan = corpus("plans/hieven__terraform-visual/gh-pages/src/data/examples/aws-s3.json");
    let (code, out, err) = run(
        &[
            "plan",
            "summary",
            "--format",
            "json",
            "--max-bytes",
            "100",
            &plan,
        ],
        b"",
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: --max-bytes applies to --format markdown, not --format json\n"
    );
    // Alone, it implies Markdown.
    let (code, out, _) = run(&["plan", "summary", "--max-bytes", "100000", &plan], b"");
    assert_eq!(code, 0);
    assert!(out.starts_with("### Plan: 1 to create, 0 to update, 1 to delete, 1 to replace\n"));
}

#[test]
fn filters() {
    let (file, _) = synthetic_plan(3000, "filters");
    let f = file.to_string_lossy().into_owned();
    let doc = read_json(&file);
    let all = doc["resource_changes"].as_array().unwrap();
    let addresses = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["plan", "summary", "--format", "json"];
        a.extend_from_slice(args);
        a.push(&f);
        let (code, out, err) = run(&a, b"");
        assert_eq!(code, 0, "{args:?}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let list: Vec<String> = v["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["address"].as_str().unwrap().to_string())
            .collect();
        let total: u64 = v["counts"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(
            total as usize,
            list.len(),
            "{args:?}: counts are of the selection"
        );
        assert_eq!(v["unfiltered"]["changes"], json!(3000));
        list
    };
    let expect = |pred: &dyn Fn(&Value) -> bool| -> Vec<String> {
        all.iter()
            .filter(|rc| pred(rc))
            .map(|rc| rc["address"].as_str().unwrap().to_string())
            .collect()
    };
    let key = |rc: &Value| action_key(&rc["change"]["actions"]);
    let ty = |rc: &Value| rc["type"].as_str().unwrap_or("").to_string();

    let got = addresses(&["--action", "replace,delete"]);
    assert_eq!(
        got,
        expect(&|rc| matches!(key(rc).as_str(), "replace" | "delete"))
    );
    assert!(!got.is_empty());
    assert_eq!(
        addresses(&["--action", "no-op"]),
        expect(&|rc| key(rc) == "no_op")
    );

    let got = addresses(&["--type", "aws_s3_*"]);
    assert_eq!(got, expect(&|rc| ty(rc).starts_with("aws_s3_")));
    assert!(!got.is_empty());

    let got = addresses(&["--address", "module.m1?.*"]);
    assert_eq!(got.len(), 10, "{got:?}");
    assert_eq!(
        addresses(&["--address", "module.m7.*", "--address", "module.m8.*"]).len(),
        2
    );
    // Brackets are literal.
    let got = addresses(&["--address", "*[0]"]);
    assert_eq!(
        got,
        expect(&|rc| rc["address"].as_str().unwrap().ends_with("[0]"))
    );

    // A module and the modules below it.
    let nested: Vec<&Value> = all
        .iter()
        .filter(|rc| rc["address"].as_str().unwrap().matches("module.").count() > 1)
        .collect();
    let m = nested[0]["module_address"].as_str().unwrap();
    let top = m.split(".module.").next().unwrap();
    let got = addresses(&["--module", top]);
    assert_eq!(
        got,
        expect(&|rc| rc["module_address"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{top}."))
            || rc["module_address"].as_str() == Some(top))
    );
    assert!(got.contains(&nested[0]["address"].as_str().unwrap().to_string()));
    assert!(addresses(&["--module", "root"]).is_empty());

    // All filters together.
    let got = addresses(&[
        "--action",
        "create",
        "--type",
        "aws_*",
        "--module",
        "module.m1*",
    ]);
    assert_eq!(
        got,
        expect(&|rc| key(rc) == "create"
            && ty(rc).starts_with("aws_")
            && rc["module_address"]
                .as_str()
                .unwrap()
                .starts_with("module.m1"))
    );

    // The human formats say what was filtered.
    let (code, md, _) = run(
        &[
            "plan", "summary", "--format", "markdown", "--type", "aws_s3_*", &f,
        ],
        b"",
    );
    assert_eq!(code, 0);
    assert!(md.contains("_Filtered with `--type aws_s3_*`: "), "{md}");
    let (code, table, _) = run(&["plan", "summary", "--type", "aws_s3_*", &f], b"");
    assert_eq!(code, 0);
    assert!(
        table.lines().nth(1).unwrap().starts_with("Filtered: "),
        "{table}"
    );

    // A misspelt action is a usage error.
    let (code, out, err) = run(&["plan", "summary", "--action", "destroy", &f], b"");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("error: --action: unknown action \"destroy\": expected one of create,"),
        "{err}"
    );
    std::fs::remove_file(file).unwrap();
}

#[test]
fn ci_gates_and_colour_flags() {
    let changed = r#"{"format_version":"1.2","resource_changes":[
      {"address":"a.x","mode":"managed","type":"a","name":"x","change":{"actions":["delete"],"before":{},"after":null}},
      {"address":"a.y","mode":"managed","type":"a","name":"y","change":{"actions":["no-op"],"before":{},"after":{}}}]}"#;
    let quiet = r#"{"format_version":"1.2","resource_changes":[
      {"address":"a.y","mode":"managed","type":"a","name":"y","change":{"actions":["no-op"],"before":{},"after":{}}}]}"#;
    let code = |args: &[&str], input: &str| run(args, input.as_bytes()).0;
    // --detailed-exitcode: 2 with changes, 0 without.
    assert_eq!(
        code(&["plan", "summary", "--detailed-exitcode", "-"], changed),
        2
    );
    assert_eq!(
        code(&["plan", "summary", "--detailed-exitcode", "-"], quiet),
        0
    );
    // --fail-on: 1 when a change has one of the actions, after the summary is printed.
    let (c, out, err) = run(
        &["plan", "summary", "--fail-on", "replace,delete", "-"],
        changed.as_bytes(),
    );
    assert_eq!(c, 1, "{err}");
    assert!(
        out.contains("a.x") && err.contains("a.x (delete)"),
        "{out}{err}"
    );
    assert_eq!(
        code(&["plan", "summary", "--fail-on", "create", "-"], changed),
        0
    );
    assert_eq!(
        code(&["plan", "summary", "--fail-on", "explode", "-"], changed),
        2
    );
    // The help states the exits of both gates.
    let (_, help, _) = run(&["plan", "summary", "--help"], b"");
    assert!(
        help.contains("--fail-on <ACTION>") && help.contains("Exit 1 (after printing the summary)"),
        "{help}"
    );
    assert!(help.contains("--detailed-exitcode") && help.contains("Exit 2 when the plan"));
    // --color always colours a pipe; never and auto (not a terminal) do not.
    let (_, always, _) = run(
        &["plan", "summary", "--color", "always", "-"],
        changed.as_bytes(),
    );
    assert!(always.contains("\x1b[31m"), "{always}");
    let (_, never, _) = run(
        &["plan", "summary", "--color", "never", "-"],
        changed.as_bytes(),
    );
    assert!(!never.contains('\x1b'));
    let (_, auto, _) = run(&["plan", "summary", "-"], changed.as_bytes());
    assert!(!auto.contains('\x1b'));
    let (_, shown, _) = run(
        &["plan", "show", "--color", "always", "-"],
        changed.as_bytes(),
    );
    assert!(
        shown.contains("\x1b[1m  # a.x\x1b[0m will be \x1b[1m\x1b[31mdestroyed"),
        "{shown}"
    );
}

#[test]
fn colour_environment() {
    use std::process::{Command, Stdio};
    let plan = r#"{"format_version":"1.2","resource_changes":[
      {"address":"a.x","mode":"managed","type":"a","name":"x","change":{"actions":["delete"],"before":{},"after":null}}]}"#;
    let path = std::env::temp_dir().join(format!("tfwire-colour-{}.json", std::process::id()));
    std::fs::write(&path, plan).unwrap();
    let run_env = |vars: &[(&str, &str)]| -> String {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tfwire"));
        cmd.args(["plan", "summary", path.to_str().unwrap()])
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .stdout(Stdio::piped());
        for (k, v) in vars {
            cmd.env(k, v);
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    assert!(run_env(&[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    assert!(!run_env(&[("CLICOLOR_FORCE", "0")]).contains('\x1b'));
    assert!(!run_env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn output_changes_in_every_format() {
    let plan = corpus("render/update-values/plan.json");
    let (code, table, err) = run(&["plan", "summary", &plan], b"");
    assert_eq!(code, 0, "{err}");
    assert!(table.contains("\nOutput changes:\n\nACTION  OUTPUT    NOTES\ncreate  added\nupdate  changing\ndelete  removed\n"), "{table}");
    assert!(
        table.ends_with("Outputs: 1 create, 1 update, 1 delete\n"),
        "{table}"
    );
    let (_, md, _) = run(&["plan", "summary", "--format", "markdown", &plan], b"");
    assert!(md.contains("**Outputs:** 1 create, 1 update, 1 delete (`added` create, `changing` update, `removed` delete)."), "{md}");
    let (_, json, _) = run(&["plan", "summary", "--format", "json", &plan], b"");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["outputs"]["create"], 1);
    assert_eq!(
        v["output_changes"][3],
        serde_json::json!({"name": "same", "action": "no_op"})
    );
    // Sensitive outputs are flagged, never shown.
    let sens = corpus("render/sensitive/plan.json");
    let (_, json, _) = run(&["plan", "summary", "--format", "json", &sens], b"");
    assert!(
        json.contains(r#"{"name":"pw","action":"update","sensitive":true}"#),
        "{json}"
    );
    assert!(!json.contains("hunter"));
    let (_, shown, _) = run(
        &["plan", "show", "--format", "json", &sens, "output.pw"],
        b"",
    );
    assert!(
        !shown.contains("hunter") && shown.contains("\"after_sensitive\":true"),
        "{shown}"
    );
    let (_, shown, _) = run(&["plan", "show", &plan, "output.changing"], b"");
    assert_eq!(shown, "  ~ changing = \"old\" -> \"new\"\n");
}

#[test]
fn budget_keeps_deletes_by_address_and_uses_the_space() {
    // The case of the issue: 2 deletes among 15,000 creates, in a 64 KiB comment.
    let mut changes = Vec::new();
    for i in 0..2 {
        changes.push(
            serde_json::json!({"address": format!("aws_s3_bucket.old[{i}]"),
            "mode": "managed", "type": "aws_s3_bucket", "name": "old", "index": i,
            "change": {"actions": ["delete"], "before": {}, "after": null}}),
        );
    }
    for i in 0..15_000 {
        changes.push(
            serde_json::json!({"address": format!("aws_instance.web[{i}]"),
            "mode": "managed", "type": "aws_instance", "name": "web", "index": i,
            "change": {"actions": ["create"], "before": null, "after": {}}}),
        );
    }
    let plan = serde_json::to_vec(&serde_json::json!({"format_version": "1.2",
        "resource_changes": changes}))
    .unwrap();
    let (code, md, err) = run(&["plan", "summary", "--max-bytes", "65536", "-"], &plan);
    assert_eq!(code, 0, "{err}");
    assert!(md.len() <= 65536 && md.len() > 60_000, "{} bytes", md.len());
    assert!(md.contains("| `aws_s3_bucket.old[0]` |\n| `aws_s3_bucket.old[1]` |\n"));
    assert!(
        md.contains("not listed to fit the size limit: `aws_instance` "),
        "{md}"
    );
    // At 300 bytes (where the issue found them dropped) the headline and the counts are
    // kept, whole, within the budget.
    let (code, md, err) = run(&["plan", "summary", "--max-bytes", "300", "-"], &plan);
    assert_eq!(code, 0, "{err}");
    assert!(md.len() <= 300, "{} bytes", md.len());
    assert!(
        md.starts_with("### Plan: 15000 to create, 0 to update, 2 to delete")
            && md.contains("| 15000 | 0 | 2 | 0 | 0 | 0 | 0 |"),
        "{md}"
    );
    // The counts cannot be dropped: a budget too small for them is refused.
    let (code, md, err) = run(&["plan", "summary", "--max-bytes", "200", "-"], &plan);
    assert_eq!((code, md.as_str()), (2, ""));
    assert!(err.contains("--max-bytes 200 is too small"), "{err}");
}

#[test]
fn empty_filters_say_so_and_imports_keep_their_id() {
    let plan = corpus("render/create-values/plan.json");
    let (code, _, err) = run(&["plan", "summary", "--module", "child", &plan], b"");
    assert_eq!(code, 0);
    assert!(
        err.contains("no resource change matches --module child")
            && err.contains("--module module.child"),
        "{err}"
    );
    let (_, _, err) = run(&["plan", "summary", "--module", "module.child", &plan], b"");
    assert!(err.is_empty(), "{err}");
    let imports = corpus("render/moved-import-forget/plan.json");
    let (_, json, _) = run(&["plan", "summary", "--format", "json", &imports], b"");
    assert!(
        json.contains(r#""importing":true,"import_id":"some-id""#),
        "{json}"
    );
}

#[test]
fn tree_of_modules() {
    let plan = corpus("plans/dineshba__tf-summarize/example/tfplan.json");
    let (code, tree, err) = run(&["plan", "summary", "--format", "tree", &plan], b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        tree.starts_with(
            "root\n\
             ├── create  github_repository.terraform_plan_summary\n\
             ├── module.github[\"demo-repository\"]\n\
             │   ├── create  github_branch.development\n"
        ),
        "{tree}"
    );
    assert!(tree.contains(
        "└── module.github[\"terraform-plan-summary\"]\n    ├── create  github_branch.development\n"
    ));
    assert!(tree.ends_with("Outputs: 1 create\n"), "{tree}");
    // Keys with dots and brackets stay in one module step.
    let odd = br#"{"format_version":"1.2","resource_changes":[{"address":"module.a[\"x.module.y]\"].module.b.t.n",
      "module_address":"module.a[\"x.module.y]\"].module.b","mode":"managed","type":"t","name":"n",
      "change":{"actions":["create"]}}]}"#;
    let (_, tree, _) = run(&["plan", "summary", "--format", "tree", "-"], odd);
    assert!(
        tree.starts_with(
            "root\n└── module.a[\"x.module.y]\"]\n    └── module.b\n        └── create  t.n\n"
        ),
        "{tree}"
    );
}

#[test]
fn exclude_filters_and_state_list_addresses() {
    let plan = corpus("render/delete/plan.json");
    let (code, out, err) = run(
        &[
            "plan",
            "summary",
            "--format",
            "json",
            "--exclude-address",
            "terraform_data.counted*",
            "--exclude-type",
            "nothing_*",
            &plan,
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let listed: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["address"].as_str().unwrap())
        .collect();
    assert!(
        !listed
            .iter()
            .any(|a| a.starts_with("terraform_data.counted")),
        "{listed:?}"
    );
    assert_eq!(v["counts"]["delete"], 3);
    assert_eq!(v["unfiltered"]["changes"], 9);
    let state = fixture("raw-v4.tfstate");
    let (_, out, _) = run(
        &[
            "state",
            "list",
            &state,
            "aws_instance.web",
            "module.network",
        ],
        b"",
    );
    assert_eq!(
        out,
        "aws_instance.web[0]\naws_instance.web[1]\nmodule.network[\"eu-west-1\"].aws_subnet.this[\"a\"]\n\
         module.network[\"eu-west-1\"].aws_subnet.this[\"say \\\"hi\\\"\\\\\"]\n"
    );
    let (_, out, _) = run(&["state", "list", &state, "data.*"], b"");
    assert_eq!(out, "data.aws_ami.ubuntu\n");
}

/// The drift list is sorted like the changes in every format: the table, the tree and the
/// JSON keep the document's order for both; Markdown, which puts the changes in sections by
/// action (replace, delete, create, update, forget, read, others), lists the drift entries
/// in that order of actions too, in document order within one.
#[test]
fn drift_sorted_like_changes_in_every_format() {
    let entry = |address: &str, actions: &[&str]| {
        json!({"address": address, "mode": "managed", "type": "t", "name": address
            .trim_start_matches("t."), "change": {"actions": actions, "before": {}, "after": {}}})
    };
    let list = [
        ("t.u1", &["update"][..]),
        ("t.d1", &["delete"][..]),
        ("t.c1", &["create"][..]),
        ("t.r1", &["delete", "create"][..]),
        ("t.u2", &["update"][..]),
        ("t.d2", &["delete"][..]),
    ];
    let entries: Vec<Value> = list.iter().map(|(a, x)| entry(a, x)).collect();
    let plan = serde_json::to_vec(&json!({"format_version": "1.2",
        "resource_changes": entries, "resource_drift": entries}))
    .unwrap();
    let document: Vec<&str> = list.iter().map(|(a, _)| *a).collect();
    // The addresses of a text's lines, in the order of the lines.
    let listed = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.split_whitespace().find(|w| document.contains(w)))
            .map(str::to_string)
            .collect()
    };
    // Table and tree: both lists in document order.
    for format in ["table", "tree"] {
        let (code, out, err) = run(&["plan", "summary", "--format", format, "-"], &plan);
        assert_eq!(code, 0, "{err}");
        let drift = out.find("drift").unwrap();
        assert_eq!(listed(&out[..drift]), document, "{format}:\n{out}");
        assert_eq!(listed(&out[drift..]), document, "{format}:\n{out}");
    }
    // JSON: both lists in document order.
    let (_, out, _) = run(&["plan", "summary", "--format", "json", "-"], &plan);
    let v: Value = serde_json::from_str(&out).unwrap();
    for key in ["changes", "drift_changes"] {
        let got: Vec<&str> = v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["address"].as_str().unwrap())
            .collect();
        assert_eq!(got, document, "{key}");
    }
    // Markdown: the changes by section, and the drift in the same order.
    let (_, md, _) = run(&["plan", "summary", "--format", "markdown", "-"], &plan);
    let order = |text: &str| -> Vec<&str> {
        let mut at: Vec<(usize, &str)> = document
            .iter()
            .map(|a| (text.find(&format!("`{a}`")).unwrap(), *a))
            .collect();
        at.sort();
        at.into_iter().map(|(_, a)| a).collect()
    };
    let drift = md.find("Changed outside").unwrap();
    let changes = order(&md[..drift]);
    assert_eq!(
        changes,
        ["t.r1", "t.d1", "t.d2", "t.c1", "t.u1", "t.u2"],
        "{md}"
    );
    assert_eq!(order(&md[drift..]), changes, "{md}");
}

/// One spelling per action in each medium: `no-op` wherever people read (table, tree,
/// Markdown's "No change", `--fail-on` messages, as OpenTofu's `actions` spell it), `no_op`
/// in every JSON key and value tfwire writes (an identifier: `.counts.no_op`), as recorded
/// in corpus/conformance/decisions.jsonl; `--action` and `--fail-on` take either.
#[test]
fn no_op_spelling() {
    let plan = corpus("render/moved-import-forget/plan.json");
    let (_, json, _) = run(&["plan", "summary", "--format", "json", &plan], b"");
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["counts"]["no_op"], 2, "{json}");
    assert!(!json.contains("no-op"), "{json}");
    for format in ["table", "tree"] {
        let (_, out, _) = run(&["plan", "summary", "--format", format, &plan], b"");
        assert!(out.contains("no-op") && !out.contains("no_op"), "{out}");
    }
    for spelling in ["no-op", "no_op"] {
        let (code, out, _) = run(&["plan", "summary", "--action", spelling, &plan], b"");
        assert_eq!(code, 0);
        assert!(out.contains("Filtered: 2 of 4"), "{out}");
        let (code, _, err) = run(&["plan", "summary", "--fail-on", spelling, &plan], b"");
        assert_eq!(code, 1);
        assert!(err.contains("(no-op)") && !err.contains("no_op"), "{err}");
    }
    let decisions =
        std::fs::read_to_string(repo().join("corpus/conformance/decisions.jsonl")).unwrap();
    assert!(
        decisions.lines().any(|l| {
            let d: Value = serde_json::from_str(l).unwrap();
            d["name"] == "real-client/summary/no-op-spelling" && d["rule"] == "normalize"
        }),
        "decisions.jsonl records the spelling"
    );
}
