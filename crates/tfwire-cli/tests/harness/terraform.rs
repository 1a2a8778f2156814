//! `plan summary` of Terraform's plans: every Terraform scenario of
//! `corpus/real-client-terraform/` and every plan of `crates/tfwire-plan/tests/data/terraform/`
//! (whatever folders are added), in every format, against the `Plan:` line Terraform printed;
//! and what Terraform's plan JSON adds (deferred changes, action invocations, imports by
//! identity, `["create","forget"]`) in the table, tree, Markdown and JSON.

use crate::common::*;
use serde_json::Value;
use std::path::PathBuf;

/// Every folder with a Terraform `plan.json` and its `plan.txt`.
fn terraform_plans() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in [
        repo().join("corpus/real-client-terraform"),
        repo().join("crates/tfwire-plan/tests/data/terraform"),
    ] {
        for e in std::fs::read_dir(&root).unwrap() {
            let dir = e.unwrap().path();
            if dir.join("plan.json").is_file() && dir.join("plan.txt").is_file() {
                out.push(dir);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_terraform_plan_summarised_with_terraforms_plan_line() {
    let plans = terraform_plans();
    assert!(plans.len() >= 27, "{} Terraform plans", plans.len());
    for dir in &plans {
        let name = dir.to_string_lossy();
        let plan = dir.join("plan.json").to_string_lossy().into_owned();
        let txt = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
        let want = txt.lines().find(|l| l.starts_with("Plan: "));

        let (code, out, err) = run(&["plan", "summary", "--format", "json", &plan], b"");
        assert_eq!(code, 0, "{name}: {err}");
        let got: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(got["client"], "terraform", "{name}");
        assert_eq!(got["plan_line"]["text"].as_str(), want, "{name}");
        // The numbers are the line's: read them from the text, without tfwire.
        if let Some(line) = want {
            let n = |what: &str| -> u64 {
                line.split([',', ':', '.'])
                    .map(str::trim)
                    .find_map(|p| p.strip_suffix(what)?.trim().parse().ok())
                    .unwrap_or(0)
            };
            for (key, what) in [
                ("import", " to import"),
                ("add", " to add"),
                ("change", " to change"),
                ("destroy", " to destroy"),
                ("invoke", " to invoke"),
            ] {
                assert_eq!(got["plan_line"][key], n(what), "{name}: {key} of {line:?}");
            }
        }
        // Every entry of the document is listed: changes, deferred changes, invocations.
        let doc = read_json(&dir.join("plan.json"));
        let len = |v: &Value| v.as_array().map_or(0, Vec::len);
        for (ours, theirs) in [
            ("changes", "resource_changes"),
            ("deferred_changes", "deferred_changes"),
            ("action_invocations", "action_invocations"),
            ("deferred_action_invocations", "deferred_action_invocations"),
        ] {
            assert_eq!(len(&got[ours]), len(&doc[theirs]), "{name}: {ours}");
        }

        for format in ["table", "tree"] {
            let (code, text, err) = run(&["plan", "summary", "--format", format, &plan], b"");
            assert_eq!(code, 0, "{name} {format}: {err}");
            for ai in doc["action_invocations"].as_array().into_iter().flatten() {
                assert!(
                    text.contains(ai["address"].as_str().unwrap()),
                    "{name} {format}: {text}"
                );
            }
            for d in doc["deferred_changes"].as_array().into_iter().flatten() {
                let address = d["resource_change"]["address"].as_str().unwrap();
                // The tree writes addresses without their module.
                let local = address.rsplit_once("module.").map_or(address, |(_, a)| a);
                assert!(text.contains(local), "{name} {format}: {text}");
            }
        }
        let (code, md, err) = run(&["plan", "summary", "--format", "markdown", &plan], b"");
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            details_balanced(&md) && tables_well_formed(&md),
            "{name}: {md}"
        );
    }
}

#[test]
fn actions_and_identity_imports_in_the_table() {
    let plan = fixture("terraform/actions-lifecycle/plan.json");
    let (code, out, err) = run(&["plan", "summary", &plan], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "Plan (format 1.2, Terraform 1.16.0)\n\
         \n\
         ACTION  ADDRESS              NOTES\n\
         create  tfwire_thing.fresh\n\
         update  tfwire_thing.orphan  imported (identity {\"name\":\"orphan\",\"zone\":\"z1\"})\n\
         \n\
         Actions to invoke:\n\
         \n\
         ACTION  ADDRESS                   NOTES\n\
         invoke  action.tfwire_write.note  before_create of tfwire_thing.fresh\n\
         invoke  action.tfwire_write.note  after_create of tfwire_thing.fresh\n\
         \n\
         Changes: 1 create, 1 update, 0 delete, 0 replace\n\
         Actions: 2 to invoke\n"
    );
    // The Markdown names what runs and what triggers it.
    let (_, md, _) = run(&["plan", "summary", "--format", "markdown", &plan], b"");
    assert!(
        md.starts_with(
            "### Plan: 1 to create, 1 to update, 0 to delete, 0 to replace, 2 actions to invoke\n"
        ),
        "{md}"
    );
    assert!(
        md.contains("| `action.tfwire_write.note` | `after_create` of `tfwire_thing.fresh` |\n"),
        "{md}"
    );
    // `plan show --format json` writes the change as the summary does, then its diff.
    let (code, json, err) = run(
        &[
            "plan",
            "show",
            "--format",
            "json",
            &plan,
            "tfwire_thing.orphan",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        json.starts_with(
            r#"{"address":"tfwire_thing.orphan","action":"update","importing":true,"import_identity":{"name":"orphan","zone":"z1"},"diff":"#
        ),
        "{json}"
    );
}

#[test]
fn invoke_only_plan_has_changes_for_the_exit_code() {
    let plan = fixture("terraform/actions-invoke/plan.json");
    let (code, out, err) = run(&["plan", "summary", "--detailed-exitcode", &plan], b"");
    // Terraform's plan is applyable: `-detailed-exitcode` says 2.
    assert_eq!(code, 2, "{err}");
    assert!(
        out.contains("invoke  action.tfwire_write.manual  -invoke\n"),
        "{out}"
    );
    // A filter narrows the plan to resources: the invocation does not count then.
    let (code, _, _) = run(
        &[
            "plan",
            "summary",
            "--detailed-exitcode",
            "--type",
            "tfwire_thing",
            &plan,
        ],
        b"",
    );
    assert_eq!(code, 0);
}

#[test]
fn deferred_changes_in_every_format_and_filtered() {
    let plan = fixture("terraform/deferred/plan.json");
    let (code, out, err) = run(&["plan", "summary", &plan], b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "Deferred to a later plan:\n\
             \n\
             ACTION  ADDRESS                   NOTES\n\
             create  terraform_data.fanout[*]  deferred: the number of instances is unknown\n\
             create  terraform_data.imported   imported (id not known yet); deferred: the resource configuration is unknown\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("Deferred: 3 create, 0 update, 0 delete, 0 replace\n"),
        "{out}"
    );
    let (_, md, _) = run(&["plan", "summary", "--format", "markdown", &plan], b"");
    assert!(
        md.contains("<strong>Deferred to a later plan</strong> (3)")
            && md.contains("**Deferred:** 3 changes left for a later plan: this plan is partial."),
        "{md}"
    );
    // Filters select deferred changes as they select changes.
    let (_, json, _) = run(
        &[
            "plan",
            "summary",
            "--format",
            "json",
            "--address",
            "*[*]",
            &plan,
        ],
        b"",
    );
    let got: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(got["deferred"]["create"], 2, "{json}");
    assert_eq!(got["deferred_changes"].as_array().unwrap().len(), 2);
    let (_, json, _) = run(
        &[
            "plan",
            "summary",
            "--format",
            "json",
            "--exclude-address",
            "*[*]",
            &plan,
        ],
        b"",
    );
    let got: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(got["deferred"]["create"], 1, "{json}");
}

#[test]
fn create_then_forget_is_one_to_add() {
    let plan = fixture("terraform/create-then-forget/plan.json");
    let (_, json, _) = run(&["plan", "summary", "--format", "json", &plan], b"");
    let got: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(got["counts"]["create+forget"], 1);
    assert_eq!(
        got["plan_line"]["text"],
        "Plan: 1 to add, 0 to change, 0 to destroy."
    );
    let (_, md, _) = run(&["plan", "summary", "--format", "markdown", &plan], b"");
    assert!(md.contains("**Also:** 1 forgotten."), "{md}");
    let (code, _, err) = run(
        &[
            "plan",
            "summary",
            "--action",
            "create+forget",
            "--fail-on",
            "create+forget",
            &plan,
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("terraform_data.kept (create+forget)"), "{err}");
}

/// `--schemas` checks the values of deferred changes too, naming their section.
#[test]
fn schemas_check_deferred_values() {
    let dir = repo().join("crates/tfwire-plan/tests/data/terraform/deferred");
    let schemas = dir.join("schemas.json").to_string_lossy().into_owned();
    let plan = dir.join("plan.json").to_string_lossy().into_owned();
    let (code, _, err) = run(&["plan", "summary", "--schemas", &schemas, &plan], b"");
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&plan).unwrap();
    // `id` is a string attribute: an object there does not conform.
    let bad = text.replacen(r#""input":"i""#, r#""input":"i","id":{"x":1}"#, 1);
    assert_ne!(bad, text);
    let (code, _, err) = run(
        &["plan", "summary", "--schemas", &schemas, "-"],
        bad.as_bytes(),
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("deferred_changes terraform_data.imported (change.after)"),
        "{err}"
    );
}
