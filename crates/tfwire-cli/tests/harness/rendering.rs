//! Rendering hostile shapes: names wider than a format width can pad (65,535), module paths
//! and values nested thousands of levels deep, lists and sets too long for a pairwise
//! comparison. Inputs are generated here; each must render (exit 0) with its output within
//! a small multiple of the input. Speed is measured in `benches/benches/render.rs`.

use crate::common::*;
use serde_json::{Value, json};

fn plan(changes: Vec<Value>, outputs: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": changes,
        "output_changes": outputs,
    }))
    .unwrap()
}

fn change(address: &str, actions: &[&str], before: Value, after: Value) -> Value {
    let (ty, name) = address.rsplit_once('.').unwrap();
    let ty = ty.rsplit('.').next().unwrap();
    let mut c = json!({
        "address": address, "mode": "managed", "type": ty, "name": name,
        "provider_name": "registry.opentofu.org/tfwire/tfwire",
        "change": {"actions": actions, "before": before, "after": after},
    });
    if let Some((module, _)) = address.rsplit_once(&format!(".{ty}.")) {
        c["module_address"] = json!(module);
    }
    c
}

/// Runs a command that must succeed, with its output within the documented multiple of
/// the input (about 70 bytes per input byte: `DEPTH_MAX` in `src/escape.rs`).
fn ok(args: &[&str], input: &[u8]) -> String {
    let (code, out, err) = run(args, input);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert!(
        out.len() < 70 * input.len() + 4096,
        "{args:?}: {} bytes out of {}",
        out.len(),
        input.len()
    );
    out
}

/// A name of 70,000 characters (above the 65,535 a format width takes) in every padded
/// column: written whole and unpadded, the short names beside it aligned without it.
#[test]
fn wide_names_are_written_unpadded() {
    let long = "a".repeat(70_000);
    let p = plan(
        vec![
            change(
                &format!("tfwire_item.x{long}"),
                &["create"],
                Value::Null,
                json!({"id": "1"}),
            ),
            change(
                "tfwire_item.y",
                &["create"],
                Value::Null,
                json!({&long: "1", "bb": "2", "c": "3"}),
            ),
        ],
        json!({&long: {"actions": ["create"], "before": null, "after": 1},
               "o": {"actions": ["create"], "before": null, "after": 2}}),
    );
    let summary = ok(&["plan", "summary", "-"], &p);
    assert!(summary.contains(&format!("create  tfwire_item.x{long}")));
    assert!(
        summary.contains("create  tfwire_item.y\n"),
        "{}",
        &summary[..200]
    );
    assert!(summary.contains(&format!("create  {long}")));
    assert!(summary.contains("create  o\n"));
    let show = ok(&["plan", "show", "-"], &p);
    assert!(show.contains(&format!("      + {long} = \"1\"\n")));
    assert!(show.contains("      + bb = \"2\"\n      + c  = \"3\"\n"));
    assert!(show.contains(&format!("  + {long} = 1\n  + o = 2")));

    let attrs = json!({&long: "1", "bb": "2", "c": "3"});
    let v4 = json!({"version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "x",
        "outputs": {}, "resources": [{"mode": "managed", "type": "tfwire_item", "name": "x",
        "provider": "provider[\"registry.opentofu.org/tfwire/tfwire\"]",
        "instances": [{"schema_version": 0, "attributes": attrs}]}]});
    let v3 = json!({"version": 3, "terraform_version": "0.11.0", "serial": 1, "lineage": "x",
        "modules": [{"path": ["root"], "outputs": {}, "resources": {
            "tfwire_item.x": {"type": "tfwire_item", "primary": {"id": "x", "attributes": attrs}}}}]});
    let shown = json!({"format_version": "1.0", "terraform_version": "1.9.0", "values": {
        "root_module": {"resources": [{"address": "tfwire_item.x", "mode": "managed",
            "type": "tfwire_item", "name": "x",
            "provider_name": "registry.opentofu.org/tfwire/tfwire",
            "schema_version": 0, "values": attrs}]}}});
    for state in [v4, v3, shown] {
        let out = ok(
            &["state", "show", "-", "tfwire_item.x"],
            &serde_json::to_vec(&state).unwrap(),
        );
        assert!(out.contains(&format!("    {long} = ")), "{}", &out[..100]);
        assert!(
            out.contains("    bb = ") && out.contains("    c  = "),
            "{out:.200}"
        );
    }
}

/// A module path of 10,000 steps: the tree nests 32 levels, then joins the rest on one
/// line after a marker (it indented every level: 800 MB for 360 KB); the table, the
/// Markdown summary and plan show write the address once.
#[test]
fn deep_module_paths_stay_within_the_depth_limit() {
    let module = vec!["module.m"; 10_000].join(".");
    let p = plan(
        vec![change(
            &format!("{module}.tfwire_item.x"),
            &["create"],
            Value::Null,
            json!({"id": "1"}),
        )],
        json!({}),
    );
    let tree = ok(&["plan", "summary", "--format", "tree", "-"], &p);
    assert!(tree.contains("└── (9968 more levels on one line) module.m.module.m."));
    let widest = tree.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest < module.len() + 200, "{widest}");
    for args in [
        &["plan", "summary", "-"][..],
        &["plan", "summary", "--format", "markdown", "-"],
        &["plan", "show", "-"],
    ] {
        ok(args, &p);
    }
}

/// Values nested 1,000 levels deep: drawn 32 levels deep, then a marker.
#[test]
fn deep_values_draw_a_marker() {
    let mut deep = json!(0);
    for _ in 0..1000 {
        deep = json!({ "a": deep });
    }
    let p = plan(
        vec![change(
            "tfwire_item.x",
            &["create"],
            Value::Null,
            json!({ "v": deep }),
        )],
        json!({}),
    );
    let out = ok(&["plan", "show", "-"], &p);
    assert!(out.contains("+ a = # (nested deeper than 32 levels, not shown)\n"));
    let indent = out.lines().map(|l| l.len() - l.trim_start().len()).max();
    assert!(indent.unwrap() < 4 * 40, "{indent:?}");

    // An import's resource identity, written as indented JSON: indented 32 levels at most.
    let mut identity = change(
        "tfwire_item.x",
        &["create"],
        Value::Null,
        json!({"id": "1"}),
    );
    identity["change"]["importing"] = json!({ "identity": deep });
    let out = ok(&["plan", "show", "-"], &plan(vec![identity], json!({})));
    assert!(out.contains("imported using resource identity: {\n"));
    let widest = out.lines().map(str::len).max().unwrap();
    assert!(widest < 4 + 2 * 40, "{widest}");

    let mut deep = json!(0);
    for _ in 0..1000 {
        deep = json!([deep, 1]);
    }
    let state = json!({"format_version": "1.0", "terraform_version": "1.9.0", "values": {
        "root_module": {"resources": [{"address": "tfwire_item.x", "mode": "managed",
            "type": "tfwire_item", "name": "x",
            "provider_name": "registry.opentofu.org/tfwire/tfwire",
            "schema_version": 0, "values": {"v": deep}}]}}});
    let out = ok(
        &["state", "show", "-", "tfwire_item.x"],
        &serde_json::to_vec(&state).unwrap(),
    );
    assert!(out.contains("# (nested deeper than 32 levels, not shown),\n"));
}

/// A list whose changed middle is above the LCS's cell cap (4,097 × 4,097 > 2^24): the
/// common first and last elements stay unchanged, the middle is removed and added.
#[test]
fn long_list_diff_falls_back_to_removed_and_added() {
    let n = 4097;
    let before: Vec<u64> = (0..n + 2).collect();
    let after: Vec<u64> = std::iter::once(0)
        .chain(n + 2..2 * n + 2)
        .chain([n + 1])
        .collect();
    let p = plan(
        vec![change(
            "tfwire_item.x",
            &["update"],
            json!({ "l": before }),
            json!({ "l": after }),
        )],
        json!({}),
    );
    let out = ok(&["plan", "show", "-"], &p);
    let body = &out[out.find("~ l = [\n").unwrap()..];
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines[1].trim(), "0,");
    assert_eq!(lines[2].trim(), "- 1,");
    let removed = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("- "))
        .count();
    let added = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("+ "))
        .count();
    assert_eq!((removed, added), (n as usize, n as usize));
    assert_eq!(lines[2 * n as usize + 2].trim(), format!("{},", n + 1));
}

/// A set of 5,000 numbers updated to share 4,000 of them (25 million pairs, which the
/// pairwise matching refused): the shared ones are paired and hidden as unchanged.
#[test]
fn large_sets_pair_their_equal_elements() {
    let before: Vec<u64> = (0..5000).collect();
    let after: Vec<u64> = (1000..6000).collect();
    let p = plan(
        vec![change(
            "tfwire_shapes.x",
            &["update"],
            json!({ "set_value": before }),
            json!({ "set_value": after }),
        )],
        json!({}),
    );
    let schemas = corpus("real-client/create/schemas.json");
    let out = ok(&["plan", "show", "--schemas", &schemas, "-"], &p);
    assert!(
        out.contains("# (4000 unchanged elements hidden)"),
        "{out:.2000}"
    );
    assert!(out.contains("          - 999,\n") && out.contains("          + 5000,\n"));
    assert!(!out.contains("- 1000,"));
}
