//! `tfwire schema` and `tfwire decode --schema`, as a user runs them.

use crate::common::{corpus, run as tfwire};

#[test]
fn lists_providers_and_types() {
    let (rc, out, _) = tfwire(&["schema", &corpus("schemas-synthetic/nesting.json")], b"");
    assert_eq!(rc, 0);
    assert!(
        out.starts_with("registry.terraform.io/example/test\n"),
        "{out}"
    );
    assert!(
        out.contains("  resource           test_limits\n")
            && out.contains("  data source        test_all_nesting_modes\n")
    );
}

/// Every kind a provider has is listed, each name under its kind, computed from the
/// document; a member of a provider the reader does not know is listed as not read.
#[test]
fn lists_every_kind() {
    let path = corpus("schemas-synthetic/kinds.json");
    let (rc, out, _) = tfwire(&["schema", &path], b"");
    assert_eq!(rc, 0);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let p = &doc["provider_schemas"]["registry.terraform.io/example/kinds"];
    let mut want = String::from("registry.terraform.io/example/kinds\n");
    for (label, key) in [
        ("resource", "resource_schemas"),
        ("identity", "resource_identity_schemas"),
        ("data source", "data_source_schemas"),
        ("ephemeral resource", "ephemeral_resource_schemas"),
        ("list resource", "list_resource_schemas"),
        ("action", "action_schemas"),
        ("function", "functions"),
        ("state store", "state_store_schemas"),
    ] {
        let mut names: Vec<&String> = p[key]
            .as_object()
            .map(|o| o.keys().collect())
            .unwrap_or_default();
        names.sort();
        for n in names {
            want.push_str(&format!("  {label:<18} {n}\n"));
        }
    }
    assert!(out.contains(&want), "{out}\nwanted:\n{want}");
    assert!(want.matches('\n').count() > 8, "{want}");

    let newer = std::env::temp_dir().join(format!("tfwire-kinds-{}.json", std::process::id()));
    std::fs::write(
        &newer,
        r#"{"format_version":"1.0","provider_schemas":{"p":{"gadget_schemas":{"g":{}}}}}"#,
    )
    .unwrap();
    let (rc, out, _) = tfwire(&["schema", &newer.to_string_lossy()], b"");
    std::fs::remove_file(&newer).unwrap();
    assert_eq!(
        (rc, out.as_str()),
        (0, "p\n  (not read)         gadget_schemas\n")
    );
}

#[test]
fn prints_implied_types() {
    let schemas = corpus("schemas-synthetic/nesting.json");
    let (rc, out, _) = tfwire(&["schema", &schemas, "--resource", "test_limits"], b"");
    assert_eq!(rc, 0);
    assert_eq!(
        out.trim(),
        r#"["object",{"disk":["list",["object",{"size":"number"}]],"id":"string","one":["list",["object",{"v":"string"}]],"rule":["set",["object",{"port":"number"}]]}]"#
    );
    let (rc, _, err) = tfwire(&["schema", &schemas, "--resource", "test_limit"], b"");
    assert_eq!(rc, 1);
    assert!(
        err.contains("has no resource type \"test_limit\" (did you mean \"test_limits\"?)"),
        "{err}"
    );
    // Several providers: --provider is needed, by short name or full address.
    let multi = corpus("schemas/hashicorp__terraform-json/testdata/basic/schemas.json");
    let (rc, _, err) = tfwire(&["schema", &multi, "--resource", "null_resource"], b"");
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("choose one with --provider"), "{err}");
    let (rc, out, err) = tfwire(
        &[
            "schema",
            &multi,
            "--resource",
            "null_resource",
            "--provider",
            "null",
        ],
        b"",
    );
    assert_eq!(rc, 0, "{err}");
    assert!(out.starts_with(r#"["object",{"id":"string""#), "{out}");
}

#[test]
fn decodes_through_a_schema() {
    // timeouts is a GROUP block: null on the wire, the synthesized block in the output.
    let schemas = corpus("schemas-synthetic/nesting.json");
    let (rc, out, err) = tfwire(
        &[
            "decode",
            "--hex",
            "--schema",
            &schemas,
            "--resource",
            "test_groups",
        ],
        b"82 a2 69 64 a1 78 a8 73 65 74 74 69 6e 67 73 c0",
    );
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains(r#""inner_group":["object",{"deep":["null"]}]"#),
        "{out}"
    );
    // Block counts: "one" needs exactly one block.
    let (rc, _, err) = tfwire(
        &[
            "decode",
            "--input",
            "json",
            "--schema",
            &schemas,
            "--resource",
            "test_limits",
        ],
        br#"{"disk":[{"size":1}],"one":[],"rule":[]}"#,
    );
    assert_eq!(rc, 1);
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some("error: .one: exactly 1 \"one\" blocks are required (0 given) (at byte 27)")
    );
    assert_eq!(lines.next(), Some(" --> <stdin>:1:28"), "{err}");
    // The caret sits under byte 27 (column 28) of the echoed line.
    let caret = err.lines().last().unwrap_or_default();
    assert_eq!(caret.find('^'), Some("  | ".len() + 27), "{err}");
    // A bare block file needs no --resource.
    let (rc, out, _) = tfwire(
        &[
            "decode",
            "--schema",
            &corpus("payloads/vm.schema.json"),
            &corpus("payloads/resource-1m.msgpack"),
        ],
        b"",
    );
    assert_eq!(rc, 0);
    assert!(out.starts_with(r#"["object",{"allow_stopping_for_update""#));
    // --type and --schema exclude each other.
    let (rc, _, _) = tfwire(
        &["decode", "--type", "\"string\"", "--schema", &schemas],
        b"",
    );
    assert_eq!(rc, 2);
}
