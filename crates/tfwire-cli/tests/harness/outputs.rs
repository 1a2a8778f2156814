//! The `tfwire` binary as a user runs it: outputs, exit codes and messages.

use crate::common::{corpus, fixture, plan_files};
use std::process::Output;

fn tfwire(args: &[&str], stdin: Option<&[u8]>) -> Output {
    crate::common::run_raw(args, stdin.unwrap_or_default())
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

#[test]
fn plan_summary_json_on_every_corpus_plan() {
    let mut checked = 0;
    for path in plan_files() {
        let p = path.to_string_lossy();
        let out = tfwire(&["plan", "summary", "--format", "json", &p], None);
        assert_eq!(out.status.code(), Some(0), "{p}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert_eq!(stdout.lines().count(), 1, "{p}: one line of JSON");

        // The printed object, read back, says what the library says.
        let mut printed = out.stdout.clone();
        let tape = tfwire_plan::Parser::new().parse(&mut printed).unwrap();
        let root = tape.root();
        let mut input = std::fs::read(&path).unwrap();
        let doc_tape = tfwire_plan::Parser::new().parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let summary = tfwire_plan::Summary::of(doc_tape.plan(&arena).unwrap());
        for (key, n) in summary.counts.iter() {
            assert_eq!(
                root.get("counts")
                    .and_then(|c| c.get(key))
                    .and_then(|v| v.as_u64()),
                Some(n as u64),
                "{p}: counts.{key}"
            );
        }
        assert_eq!(
            root.get("changes")
                .and_then(|c| c.as_array())
                .map(|a| a.len()),
            Some(summary.changes.len()),
            "{p}: changes"
        );
        assert!(root.get("drift").and_then(|d| d.as_object()).is_some());
        checked += 1;
    }
    assert_eq!(checked, 301);
}

#[test]
fn plan_summary_json_exact() {
    let out = tfwire(
        &[
            "plan",
            "summary",
            "--format",
            "json",
            &corpus(
                "plans/opentofu__opentofu/testing/equivalence-tests/outputs/moved_with_update/plan.json",
            ),
        ],
        None,
    );
    assert_eq!(
        text(&out.stdout),
        concat!(
            r#"{"format_version":"1.2","counts":{"create":0,"update":1,"delete":0,"replace":0,"#,
            r#""read":0,"no_op":0,"forget":0},"drift":{"create":0,"update":0,"delete":0,"#,
            r#""replace":0,"read":0,"no_op":0,"forget":0},"changes":[{"address":"#,
            r#""tfcoremock_simple_resource.moved","action":"update","previous_address":"#,
            r#""tfcoremock_simple_resource.base"}],"drift_changes":[],"outputs":{"create":0,"#,
            r#""update":0,"delete":0,"replace":0,"read":0,"no_op":0,"forget":0},"#,
            r#""output_changes":[],"deferred":{"create":0,"update":0,"delete":0,"replace":0,"#,
            r#""read":0,"no_op":0,"forget":0},"deferred_changes":[],"action_invocations":[],"#,
            r#""deferred_action_invocations":[],"client":"opentofu","plan_line":{"import":0,"#,
            r#""add":0,"change":1,"destroy":0,"forget":0,"invoke":0,"#,
            r#""text":"Plan: 0 to add, 1 to change, 0 to destroy."}}"#,
            "\n"
        )
    );
}

#[test]
fn plan_summary_joined_actions_get_their_own_key() {
    let plan = br#"{"format_version":"1.2","resource_changes":[
        {"address":"a.x","mode":"managed","type":"a","name":"x","change":{"actions":["create","forget"]}},
        {"address":"a.y","mode":"managed","type":"a","name":"y","change":{"actions":["create"]},
         "previous_address":"a.old"}],
        "resource_drift":[{"address":"a.z","mode":"managed","type":"a","name":"z",
         "change":{"actions":["delete"]}}]}"#;
    let out = tfwire(&["plan", "summary", "--format", "json", "-"], Some(plan));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        concat!(
            r#"{"format_version":"1.2","counts":{"create":1,"update":0,"delete":0,"replace":0,"#,
            r#""read":0,"no_op":0,"forget":0,"create+forget":1},"drift":{"create":0,"update":0,"#,
            r#""delete":1,"replace":0,"read":0,"no_op":0,"forget":0},"changes":["#,
            r#"{"address":"a.x","action":"create+forget"},"#,
            r#"{"address":"a.y","action":"create","previous_address":"a.old"}],"#,
            r#""drift_changes":[{"address":"a.z","action":"delete"}],"outputs":{"create":0,"#,
            r#""update":0,"delete":0,"replace":0,"read":0,"no_op":0,"forget":0},"#,
            r#""output_changes":[],"deferred":{"create":0,"update":0,"delete":0,"replace":0,"#,
            r#""read":0,"no_op":0,"forget":0},"deferred_changes":[],"action_invocations":[],"#,
            r#""deferred_action_invocations":[],"client":"opentofu","plan_line":{"import":0,"#,
            r#""add":2,"change":0,"destroy":0,"forget":1,"invoke":0,"#,
            r#""text":"Plan: 2 to add, 0 to change, 0 to destroy, 1 to forget."}}"#,
            "\n"
        )
    );
    let out = tfwire(&["plan", "summary", "-"], Some(plan));
    assert_eq!(
        text(&out.stdout),
        "Plan (format 1.2)\n\
         \n\
         ACTION         ADDRESS  NOTES\n\
         create+forget  a.x      replaced; the old object is forgotten, not destroyed\n\
         create         a.y      moved from a.old\n\
         \n\
         Changed outside Terraform (drift):\n\
         \n\
         ACTION  ADDRESS  NOTES\n\
         delete  a.z\n\
         \n\
         Changes: 1 create, 0 update, 0 delete, 0 replace, 1 create+forget\n\
         Drift:   0 create, 0 update, 1 delete, 0 replace\n"
    );
}

#[test]
fn plan_summary_table() {
    let out = tfwire(
        &[
            "plan",
            "summary",
            &corpus("plans/ovsds__tf-plan-format/tests/data/plans/sensitive/terraform.tfplan.json"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "Plan (format 1.2, Terraform 1.7.5)\n\
         \n\
         ACTION   ADDRESS            NOTES\n\
         replace  random_bytes.test  cannot be updated in place; forced by .length\n\
         \n\
         Changes: 0 create, 0 update, 0 delete, 1 replace\n"
    );
}

#[test]
fn utf16_plans_read_from_a_file_and_from_stdin() {
    let f = corpus(
        "plans/bridgecrewio__checkov/tests/terraform/parser/resources/plan_encodings/tfplan_win_utf16.json",
    );
    let bytes = std::fs::read(&f).unwrap();
    assert!(bytes.starts_with(&[0xFF, 0xFE]));
    let from_file = tfwire(&["plan", "summary", "--format", "json", &f], None);
    let from_stdin = tfwire(&["plan", "summary", "--format", "json", "-"], Some(&bytes));
    assert_eq!(from_file.status.code(), Some(0));
    assert_eq!(from_file.stdout, from_stdin.stdout);
    assert!(text(&from_file.stdout).contains(r#""counts":{"create":1,"#));
}

#[test]
fn state_list_show_json_and_raw_states() {
    let out = tfwire(
        &[
            "state",
            "list",
            &corpus(
                "states/opentofu__opentofu/internal/command/testdata/show-json-state/modules/output.json",
            ),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "module.module_test_bar.test_instance.example\n\
         module.module_test_foo.test_instance.example[0]\n"
    );

    let out = tfwire(&["state", "list", &fixture("raw-v4.tfstate")], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "data.aws_ami.ubuntu\n\
         aws_instance.web[0]\n\
         aws_instance.web[1]\n\
         module.network[\"eu-west-1\"].aws_subnet.this[\"a\"]\n\
         module.network[\"eu-west-1\"].aws_subnet.this[\"say \\\"hi\\\"\\\\\"]\n\
         module.old.null_resource.gone\n"
    );

    // Data sources before managed resources, as `tofu state list` sorts a state it upgraded
    // from version 3.
    let raw3 = std::fs::read(fixture("raw-v3.tfstate")).unwrap();
    let out = tfwire(&["state", "list", "-"], Some(&raw3));
    assert_eq!(
        text(&out.stdout),
        "data.aws_ami.ubuntu\n\
         aws_instance.web\n\
         module.network.aws_subnet.private[0]\n\
         module.network.aws_subnet.private[1]\n"
    );

    // An empty show -json state lists nothing.
    let out = tfwire(
        &["state", "list", "-"],
        Some(br#"{"format_version":"1.0"}"#),
    );
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
}

#[test]
fn rejected_documents_exit_1_with_a_message() {
    let invalid = corpus("states/hashicorp__terraform-json/testdata/invalid/state.json");
    let cases: Vec<(Vec<&str>, &[u8], String)> = vec![
        (
            vec!["plan", "summary", &invalid],
            b"",
            format!("error: {invalid}: (root): invalid JSON: unexpected character '}}' (at byte 227)\n"),
        ),
        (
            vec!["state", "list", &invalid],
            b"",
            format!("error: {invalid}: (root): invalid JSON: unexpected character '}}' (at byte 227)\n"),
        ),
        (
            vec!["plan", "summary", "-"],
            br#"{"format_version":"2.1","resource_changes":[]}"#,
            "error: <stdin>: .format_version: unsupported format_version \"2.1\": this version of \
             tfwire reads format versions 0.x and 1.x (at byte 18)\n"
                .into(),
        ),
        (
            vec!["state", "list", "-"],
            br#"{"version":5,"resources":[]}"#,
            "error: <stdin>: .version: unsupported version \"5\": this version of tfwire reads \
             raw state files of version 3 and 4 (at byte 11)\n"
                .into(),
        ),
        (
            vec!["plan", "summary", "-"],
            br#"{"format_version":"1.0","values":{}}"#,
            "error: <stdin>: expected a plan, but this is a state (terraform show -json)\n".into(),
        ),
        (
            vec!["state", "list", "-"],
            br#"{"format_version":"1.2","resource_changes":[]}"#,
            "error: <stdin>: expected a state (terraform show -json) or a raw state file \
             (.tfstate), but this is a plan\n"
                .into(),
        ),
        (
            vec!["plan", "summary", "-"],
            br#"{"name":"not terraform"}"#,
            "error: <stdin>: (root): not a Terraform/OpenTofu plan or state document: found an object \
             with keys \"name\"; expected format_version, resource_changes, planned_values, \
             values (show -json) or version (.tfstate)\n"
                .into(),
        ),
        (
            vec!["plan", "summary", "/nonexistent/plan.json"],
            b"",
            "error: /nonexistent/plan.json: No such file or directory (os error 2)\n".into(),
        ),
    ];
    for (args, stdin, want) in cases {
        let out = tfwire(&args, Some(stdin));
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        // The first line is the message; one with a byte offset is followed by the line
        // with a caret (tested in errors.rs).
        let stderr = text(&out.stderr);
        let first = stderr.split_inclusive('\n').next().unwrap_or_default();
        assert_eq!(first, want, "{args:?}");
        assert_eq!(
            stderr.contains("\n  --> ") || stderr.contains("\n --> "),
            want.contains("(at byte"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["plan", "summary"],
        vec!["plan", "summary", "--format", "xml", "x.json"],
        vec!["plan"],
        vec!["state", "list"],
        vec!["state", "show", "x"],
    ] {
        let out = tfwire(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        // clap's message: `error: ...`, or the subcommand's help when it is missing.
        assert!(!out.stderr.is_empty() && out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn decode_still_works() {
    let out = tfwire(
        &["decode", "--type", r#"["map","number"]"#],
        Some(b"\x82\xa1a\x01\xa1b\xc0"),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "[\"map\",{\"a\":[\"number\",\"1\"],\"b\":[\"null\"]}]\n"
    );
}
