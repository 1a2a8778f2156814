//! Binary plan files through the binary: for every scenario of `corpus/planfiles/` (and
//! `corpus/real-client/`, `corpus/real-client-terraform/` and tfwire-planfile's
//! `tests/data/terraform/` when present), `plan summary` of `plan.tfplan` prints exactly what
//! it prints for `plan.json` (`tofu show -json` or `terraform show -json` of the same file)
//! in every format, with and without `--schemas`; `plan show --schemas` does the same for every address; `state list`
//! lists the plan's prior state. Then every invalid file of `corpus/planfiles-invalid/` is
//! rejected with exit code 1 and the library's one-line message.

use crate::common::{repo, run};
use std::path::PathBuf;

fn scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for set in [
        "corpus/planfiles",
        "corpus/real-client",
        "corpus/real-client-terraform",
        "crates/tfwire-planfile/tests/data/terraform",
    ] {
        let Ok(dir) = std::fs::read_dir(repo().join(set)) else {
            continue;
        };
        for e in dir.flatten() {
            if e.path().join("plan.tfplan").is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    assert!(out.len() >= 3, "the corpus/planfiles scenarios are missing");
    out
}

fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args, b"");
    assert_eq!(code, 0, "tfwire {}: {stderr}", args.join(" "));
    stdout
}

#[test]
fn planfiles_read_as_their_show_json() {
    for dir in scenarios() {
        let tfplan = dir.join("plan.tfplan").to_string_lossy().into_owned();
        let json = dir.join("plan.json").to_string_lossy().into_owned();
        let schemas = dir.join("schemas.json").to_string_lossy().into_owned();
        for format in ["json", "table", "markdown"] {
            let expected = ok(&["plan", "summary", "--format", format, &json]);
            assert_eq!(
                ok(&["plan", "summary", "--format", format, &tfplan]),
                expected,
                "{tfplan}: summary --format {format}"
            );
            assert_eq!(
                ok(&[
                    "plan",
                    "summary",
                    "--format",
                    format,
                    "--schemas",
                    &schemas,
                    &tfplan
                ]),
                expected,
                "{tfplan}: summary --format {format} --schemas"
            );
        }
        // Where OpenTofu's own rendering was captured (`tofu show -no-color plan.tfplan`, the
        // real-client corpus), the plan file shows as OpenTofu shows it, byte for byte
        // (Terraform's: show.rs, plan_show_matches_terraform_show).
        let txt = dir.join("plan.txt");
        let terraform = dir.to_string_lossy().contains("terraform");
        if txt.is_file() && !terraform {
            assert_eq!(
                ok(&[
                    "plan",
                    "show",
                    "--no-default-masks",
                    "--schemas",
                    &schemas,
                    &tfplan
                ]),
                std::fs::read_to_string(&txt).unwrap(),
                "{tfplan}: plan show --schemas differs from tofu show"
            );
        }
        // Addresses shown from both: the first 25 and the last of each plan (the library's
        // test compares every resource change of every plan; this checks the binary's path,
        // and a process per address over the 500-resource scenario would take minutes).
        let plan: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let all = plan["resource_changes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let picked = all.iter().take(25).chain(all.iter().skip(25).last());
        for rc in picked {
            let address = rc["address"].as_str().unwrap();
            for format in ["text", "json"] {
                // The same answer from both, a refusal included (`plan show` does not draw
                // Terraform's create-then-forget in text): with the file names set aside.
                let show = |file: &str| {
                    let (code, stdout, stderr) = run(
                        &[
                            "plan",
                            "show",
                            "--format",
                            format,
                            "--all",
                            "--schemas",
                            &schemas,
                            file,
                            address,
                        ],
                        b"",
                    );
                    (code, stdout, stderr.replace(file, "FILE"))
                };
                let from_json = show(&json);
                assert!(
                    from_json.0 == 0 || terraform,
                    "{json}: plan show {address} --format {format}: {}",
                    from_json.2
                );
                assert_eq!(
                    show(&tfplan),
                    from_json,
                    "{tfplan}: plan show {address} --format {format}"
                );
            }
        }
        // The prior state: what the library reads from the `tfstate` member.
        let pf = tfwire_planfile::Planfile::read(&std::fs::read(&tfplan).unwrap()).unwrap();
        let mut state = pf.state().unwrap().to_vec();
        let tape = tfwire_plan::Parser::new().parse(&mut state).unwrap();
        let arena = bumpalo::Bump::new();
        let mut listed: Vec<String> = match tape.document(&arena).unwrap() {
            tfwire_plan::Document::RawState(s) => s.addresses().map(|a| a.to_string()).collect(),
            other => panic!("{tfplan}: tfstate is {:?}", other.kind()),
        };
        // In `state list` order.
        tfwire_plan::address::sort_state_list(&mut listed);
        let listed: String = listed.iter().map(|a| format!("{a}\n")).collect();
        assert_eq!(
            ok(&["state", "list", &tfplan]),
            listed,
            "{tfplan}: state list"
        );
    }
}

#[test]
fn plan_show_of_a_planfile_needs_schemas() {
    let tfplan = repo().join("corpus/planfiles/basic/plan.tfplan");
    let tfplan = tfplan.to_string_lossy();
    let (code, stdout, stderr) = run(&["plan", "show", &tfplan, "terraform_data.secret"], b"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!(
            "error: {tfplan} is a binary plan file: its values are shown only with the \
             provider schemas, which say which attributes are sensitive; give --schemas FILE \
             (`tofu providers schema -json` in the plan's working directory)\n"
        )
    );
}

#[test]
fn a_missing_provider_schema_is_named() {
    let tfplan = repo().join("corpus/planfiles/changes/plan.tfplan");
    let tfplan = tfplan.to_string_lossy();
    let schemas = std::env::temp_dir().join(format!("tfwire-planfile-{}.json", std::process::id()));
    std::fs::write(
        &schemas,
        r#"{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/null":{"resource_schemas":{}}}}"#,
    )
    .unwrap();
    let (code, stdout, stderr) = run(
        &[
            "plan",
            "summary",
            "--schemas",
            &schemas.to_string_lossy(),
            &tfplan,
        ],
        b"",
    );
    std::fs::remove_file(&schemas).unwrap();
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        format!(
            "error: {tfplan}: resource_changes: terraform_data.counted[0]: no schema for \
             managed \"terraform_data\" of provider terraform.io/builtin/terraform in the given \
             schemas (`tofu providers schema -json` in the plan's working directory has it)\n"
        )
    );
}

#[test]
fn invalid_planfiles_are_rejected() {
    let dir = repo().join("corpus/planfiles-invalid");
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    let mut checked = 0;
    for line in expected.lines() {
        let file = line.split_once('\t').unwrap().0;
        let path = dir.join(file);
        let bytes = std::fs::read(&path).unwrap();
        // What the CLI reads as a plan file: a ZIP, the old header, the encryption envelope.
        if !(tfwire_planfile::is_zip(&bytes)
            || bytes.starts_with(b"tfplan")
            || tfwire_planfile::looks_encrypted(&bytes))
        {
            continue;
        }
        // The library's message with the CLI's default limits (`--max-input-bytes`, 256 MiB,
        // and one node per 8 of its bytes; the corpus lists the messages at a 1 MiB limit,
        // under which the small bombs fall), and the way to raise a limit.
        let config = tfwire_planfile::Config::default()
            .max_inflated_bytes(256 << 20)
            .max_nodes(32 << 20);
        let message = match tfwire_planfile::Planfile::read_with(&bytes, &config) {
            Err(e) => match e.kind() {
                tfwire_planfile::ErrorKind::TooLarge { .. }
                | tfwire_planfile::ErrorKind::TooManyNodes { .. }
                | tfwire_planfile::ErrorKind::DocumentTooLarge { .. } => {
                    format!("{e}; raise it with --max-input-bytes")
                }
                _ => e.to_string(),
            },
            Ok(_) => panic!("{file}: accepted"),
        };
        let p = path.to_string_lossy();
        for args in [
            vec!["plan", "summary", &*p],
            vec!["plan", "summary", "--format", "json", &*p],
            vec!["state", "list", &*p],
        ] {
            let (code, stdout, stderr) = run(&args, b"");
            assert_eq!(code, 1, "{file}: {args:?}");
            assert_eq!(stdout, "", "{file}");
            assert_eq!(
                stderr,
                format!("error: {p}: {message}\n"),
                "{file}: {args:?}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}
