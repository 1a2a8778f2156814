//! What a document is, which versions are read, and the exact error for what is rejected.

use tfwire_plan::{Document, ErrorKind, Parser};

/// (input, `plan`/`state`/`raw state N`/`legacy state N`, or the exact error)
const CASES: &[(&str, &str)] = &[
    // Plans: every 0.x and 1.x format version, documents without one, redacted plans.
    (r#"{"format_version":"0.1","resource_changes":[]}"#, "plan"),
    (r#"{"format_version":"0.2","planned_values":{}}"#, "plan"),
    (r#"{"format_version":"1.0","configuration":{}}"#, "plan"),
    (r#"{"format_version":"1.2","resource_changes":[]}"#, "plan"),
    (r#"{"format_version":"1.99","resource_changes":[]}"#, "plan"),
    // Exactly MAJOR.MINOR, as the format document writes versions.
    (
        r#"{"format_version":"1.3.0","resource_changes":[]}"#,
        r#".format_version: invalid format_version "1.3.0": expected MAJOR.MINOR (two numbers without leading zeros, e.g. "1.2") (at byte 18)"#,
    ),
    (
        r#"{"format_version":"1","resource_changes":[]}"#,
        r#".format_version: invalid format_version "1": expected MAJOR.MINOR (two numbers without leading zeros, e.g. "1.2") (at byte 18)"#,
    ),
    (r#"{"resource_changes":[]}"#, "plan"),
    (r#"{"planned_values":{"root_module":{}}}"#, "plan"),
    (
        r#"{"plan_format_version":"1.1","provider_format_version":"1.0","resource_changes":[],"provider_schemas":{}}"#,
        "plan",
    ),
    (
        r#"{"format_version":"1.2","output_changes":{},"junk":[1,{"x":null}]}"#,
        "plan",
    ),
    // States.
    (r#"{"format_version":"1.0"}"#, "state"),
    (
        r#"{"format_version":"0.1","values":{"root_module":{}}}"#,
        "state",
    ),
    (r#"{"values":{}}"#, "state"),
    // Raw states.
    (
        r#"{"version":4,"terraform_version":"1.5.0","serial":1,"lineage":"x","outputs":{},"resources":[]}"#,
        "raw state 4",
    ),
    (r#"{"version":4}"#, "raw state 4"),
    (r#"{"version":3,"modules":[]}"#, "legacy state 3"),
    // Unsupported versions.
    (
        r#"{"format_version":"2.0","resource_changes":[]}"#,
        r#".format_version: unsupported format_version "2.0": this version of tfwire reads format versions 0.x and 1.x (at byte 18)"#,
    ),
    (
        r#"{"format_version":"10.1","values":{}}"#,
        r#".format_version: unsupported format_version "10.1": this version of tfwire reads format versions 0.x and 1.x (at byte 18)"#,
    ),
    (
        r#"{"plan_format_version":"2.0","resource_changes":[]}"#,
        r#".plan_format_version: unsupported plan_format_version "2.0": this version of tfwire reads format versions 0.x and 1.x (at byte 23)"#,
    ),
    (
        r#"{"format_version":"1.2","prior_state":{"format_version":"2.0"}}"#,
        r#".prior_state.format_version: unsupported format_version "2.0": this version of tfwire reads format versions 0.x and 1.x (at byte 56)"#,
    ),
    (
        r#"{"format_version":"v1","resource_changes":[]}"#,
        r#".format_version: invalid format_version "v1": expected MAJOR.MINOR (two numbers without leading zeros, e.g. "1.2") (at byte 18)"#,
    ),
    (
        r#"{"format_version":1.2,"resource_changes":[]}"#,
        ".format_version: expected a string, found the number 1.2 (at byte 18)",
    ),
    (
        r#"{"version":5,"resources":[]}"#,
        r#".version: unsupported version "5": this version of tfwire reads raw state files of version 3 and 4 (at byte 11)"#,
    ),
    (
        r#"{"version":2,"modules":[]}"#,
        r#".version: unsupported version "2": this version of tfwire reads raw state files of version 3 and 4 (at byte 11)"#,
    ),
    // Not documents.
    (
        "[1,2]",
        "(root): not a Terraform/OpenTofu plan or state document: the top-level value is an array, not an object",
    ),
    (
        r#""plan""#,
        "(root): not a Terraform/OpenTofu plan or state document: the top-level value is a string, not an object",
    ),
    (
        "{}",
        "(root): not a Terraform/OpenTofu plan or state document: found an empty object; expected format_version, resource_changes, planned_values, values (show -json) or version (.tfstate)",
    ),
    (
        r#"{"terraform_version":"1.5.0","platform":"linux_amd64"}"#,
        r#"(root): not a Terraform/OpenTofu plan or state document: found an object with keys "terraform_version", "platform"; expected format_version, resource_changes, planned_values, values (show -json) or version (.tfstate)"#,
    ),
    (
        r#"{"format_version":"1.0","provider_schemas":{}}"#,
        "(root): not a Terraform/OpenTofu plan or state document: this is a provider schema document (terraform providers schema -json)",
    ),
    (
        r#"{"version":"4"}"#,
        r#"(root): not a Terraform/OpenTofu plan or state document: found an object with keys "version"; expected format_version, resource_changes, planned_values, values (show -json) or version (.tfstate)"#,
    ),
    // Broken JSON and encodings.
    (
        r#"{"format_version":"1.0",}"#,
        "(root): invalid JSON: expected a string as object key (at byte 24)",
    ),
    (
        "",
        "(root): invalid JSON: unexpected end of input (at byte 0)",
    ),
    ("\u{feff}{\"values\":{}}", "state"),
];

/// Model errors: a known property of the wrong kind, named by path and byte.
const MODEL_ERRORS: &[(&str, &str)] = &[
    (
        r#"{"resource_changes":[{"address":"a.b","change":{"actions":["create",7]}}]}"#,
        ".resource_changes[0].change.actions[1]: expected a string, found the number 7 (at byte 68)",
    ),
    (
        r#"{"resource_changes":[{"address":"a.b"}]}"#,
        r#".resource_changes[0]: the required property "change" is missing (at byte 21)"#,
    ),
    // An address is never missing: without `address`, `type` and `name` spell it.
    (
        r#"{"resource_changes":[{"change":{"actions":["create"]}}]}"#,
        r#".resource_changes[0]: the required property "address" is missing (at byte 21)"#,
    ),
    (
        r#"{"resource_drift":[{"address":null,"type":"t","change":{"actions":["update"]}}]}"#,
        r#".resource_drift[0]: the required property "address" is missing (at byte 19)"#,
    ),
    (
        r#"{"resource_changes":[{"address":"a.b","change":{"before":null}}]}"#,
        r#".resource_changes[0].change: the required property "actions" is missing (at byte 47)"#,
    ),
    (
        r#"{"resource_changes":[{"address":"a.b","change":{"actions":[]}}]}"#,
        ".resource_changes[0].change.actions: the action list is empty (at byte 58)",
    ),
    (
        r#"{"resource_changes":[{"address":"a.b","index":-1,"change":{"actions":["create"]}}]}"#,
        ".resource_changes[0].index: expected a non-negative integer or a string, found -1 (at byte 46)",
    ),
    (
        r#"{"resource_changes":[{"address":"a.b","change":{"actions":["delete","create"],"replace_paths":[["a",true]]}}]}"#,
        ".resource_changes[0].change.replace_paths[0][1]: expected a string or a non-negative integer path step, found a bool (at byte 100)",
    ),
    (
        r#"{"planned_values":{"root_module":{"child_modules":[{"resources":[{"address":7}]}]}}}"#,
        ".planned_values.root_module.child_modules[0].resources[0].address: expected a string, found the number 7 (at byte 76)",
    ),
    (
        r#"{"format_version":"1.0","values":{"outputs":{"my out":{"sensitive":"yes"}}}}"#,
        r#".values.outputs["my out"].sensitive: expected a bool, found a string (at byte 67)"#,
    ),
    (
        r#"{"version":4,"resources":[{"type":"t","name":"n","instances":[{"schema_version":1.5}]}]}"#,
        ".resources[0].instances[0].schema_version: expected a non-negative integer, found the number 1.5 (at byte 80)",
    ),
    (
        r#"{"format_version":"1.2","resource_drift":{}}"#,
        ".resource_drift: expected an array, found an object (at byte 41)",
    ),
];

fn read(text: &str) -> Result<String, String> {
    let mut input = text.as_bytes().to_vec();
    let tape = Parser::new().parse(&mut input).map_err(|e| e.to_string())?;
    let arena = bumpalo::Bump::new();
    let doc = tape.document(&arena).map_err(|e| e.to_string())?;
    Ok(match doc {
        Document::Plan(_) => "plan".into(),
        Document::State(_) => "state".into(),
        Document::RawState(s) => format!("raw state {}", s.header.version),
        Document::LegacyState(s) => format!("legacy state {}", s.header.version),
    })
}

#[test]
fn detection_and_versions() {
    let mut failures = Vec::new();
    for (input, want) in CASES.iter().chain(MODEL_ERRORS) {
        let got = match read(input) {
            Ok(s) | Err(s) => s,
        };
        if got != *want {
            failures.push(format!("{input}\n  got:  {got}\n  want: {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn error_parts_are_reachable() {
    let mut input = br#"{"format_version":"3.1","values":{}}"#.to_vec();
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let err = tape.document(&arena).unwrap_err();
    assert_eq!(err.path().to_string(), ".format_version");
    assert_eq!(err.offset(), Some(18));
    assert_eq!(
        err.kind(),
        &ErrorKind::UnsupportedVersion {
            property: "format_version",
            found: "3.1".into(),
            supported: "format versions 0.x and 1.x",
        }
    );
}

#[test]
fn asking_for_the_wrong_kind() {
    let mut input = br#"{"format_version":"1.0","values":{}}"#.to_vec();
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    assert_eq!(
        tape.plan(&arena).unwrap_err().to_string(),
        "(root): expected a plan, but this is a state (terraform show -json)"
    );
    assert!(tape.state(&arena).is_ok());
    assert_eq!(
        tape.raw_state(&arena).unwrap_err().to_string(),
        "(root): expected a raw state file (.tfstate), but this is a state (terraform show -json)"
    );
}

#[test]
fn unknown_properties_stay_reachable() {
    let mut input =
        br#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed",
        "type":"a","name":"b","future_key":{"x":[1]},"change":{"actions":["create"],"new":true}}],
        "action_invocations":[{"address":"action.x"}],"comment-for-reader":"hi"}"#
            .to_vec();
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    assert_eq!(
        plan.raw.get("action_invocations").unwrap().to_string(),
        r#"[{"address":"action.x"}]"#
    );
    assert_eq!(
        plan.raw.get("comment-for-reader").unwrap().as_str(),
        Some("hi")
    );
    let rc = &plan.resource_changes[0];
    assert_eq!(
        rc.raw.get("future_key").unwrap().to_string(),
        r#"{"x":[1]}"#
    );
    assert_eq!(rc.change.raw.get("new").unwrap().as_bool(), Some(true));
}

/// A change without `address` (a hand-trimmed fixture) gets the one its parts spell, as
/// Terraform writes it; a written address is kept as written.
#[test]
fn a_left_out_address_is_spelled_from_its_parts() {
    let cases = [
        (r#""type":"t","name":"n""#, "t.n"),
        (
            r#""mode":"data","type":"t","name":"n","index":2"#,
            "data.t.n[2]",
        ),
        (
            r#""module_address":"module.m[\"k\"]","type":"t","name":"n","index":"a b""#,
            r#"module.m["k"].t.n["a b"]"#,
        ),
        (r#""address":"x.y","type":"t","name":"n""#, "x.y"),
    ];
    for (parts, want) in cases {
        let text =
            format!(r#"{{"resource_changes":[{{{parts},"change":{{"actions":["create"]}}}}]}}"#);
        let mut input = text.clone().into_bytes();
        let tape = Parser::new().parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let Document::Plan(plan) = tape.document(&arena).unwrap() else {
            panic!("{text}: not a plan");
        };
        let rc = &plan.resource_changes[0];
        assert_eq!(rc.address, want, "{text}");
        assert_eq!(plan.resource_change(want).map(|c| c.address), Some(want));
        assert_eq!(tfwire_plan::ChangeSummary::of(rc).address, want);
    }
}
