//! Masks (`--mask`, `--mask-file`, `TFWIRE_MASK_FILE`, `--no-default-masks`): values no
//! schema or marker calls sensitive are hidden in every human format, exactly as sensitive
//! ones are, and shown again when the masks are off.

use crate::common::{corpus, run, run_raw};
use std::process::{Command, Stdio};

fn hostile(name: &str) -> String {
    corpus(&format!("hostile/{name}"))
}

/// Every human output of the plan and state files with unmarked secrets: (arguments, output).
fn outputs(extra: &[&str]) -> Vec<(String, i32, String, String)> {
    let plan = hostile("unmarked-secrets-plan.json");
    let state = hostile("unmarked-secrets-state.json");
    let raw = hostile("unmarked-secrets-rawstate.json");
    let mut cases: Vec<Vec<&str>> = Vec::new();
    for f in ["table", "tree", "markdown", "json"] {
        cases.push(vec!["plan", "summary", "--format", f, &plan]);
    }
    cases.push(vec!["plan", "show", &plan]);
    cases.push(vec!["plan", "show", "--all", &plan]);
    for a in ["t.unmarked", "t.created", "output.db_password"] {
        cases.push(vec!["plan", "show", &plan, a]);
        cases.push(vec!["plan", "show", "--format", "json", &plan, a]);
    }
    cases.push(vec!["state", "show", &state, "t.unmarked"]);
    cases.push(vec!["state", "show", &raw, "t.unmarked"]);
    cases.push(vec!["state", "show", &raw, "t.flat"]);
    cases
        .into_iter()
        .map(|mut args| {
            let at = 2;
            for (i, e) in extra.iter().enumerate() {
                args.insert(at + i, e);
            }
            let (code, out, err) = run(&args, b"");
            (args.join(" "), code, out, err)
        })
        .collect()
}

#[test]
fn default_masks_hide_unmarked_secrets_in_every_human_format() {
    for (args, code, out, err) in outputs(&[]) {
        assert_eq!(code, 0, "{args}: {err}");
        assert!(!out.contains("SECRET"), "{args} leaks:\n{out}");
        assert!(!err.contains("SECRET"), "{args} leaks:\n{err}");
    }
    // Shown as sensitive values are shown.
    let (_, out, _) = run(
        &["plan", "show", &hostile("unmarked-secrets-plan.json")],
        b"",
    );
    assert!(out.contains("~ db_password = (sensitive value)"), "{out}");
    assert!(out.contains("+ db_password = (sensitive value)"), "{out}");
    let (_, json, _) = run(
        &[
            "plan",
            "show",
            "--format",
            "json",
            &hostile("unmarked-secrets-plan.json"),
            "t.unmarked",
        ],
        b"",
    );
    assert!(
        json.contains(
            r#""api_token":{"op":"update","before_sensitive":true,"after_sensitive":true}"#
        ),
        "{json}"
    );
    let (_, out, _) = run(
        &[
            "state",
            "show",
            &hostile("unmarked-secrets-rawstate.json"),
            "t.flat",
        ],
        b"",
    );
    assert!(out.contains("env.0.value = (sensitive value)"), "{out}");
    assert!(out.contains("env.0.name  = \"N\""), "{out}");
}

#[test]
fn without_default_masks_the_values_show() {
    let mut shown = String::new();
    for (args, code, out, err) in outputs(&["--no-default-masks"]) {
        assert_eq!(code, 0, "{args}: {err}");
        shown.push_str(&out);
    }
    for s in [
        "SECRET_U1",
        "SECRET_V1",
        "SECRET_U4",
        "SECRET_V5",
        "SECRET_U7",
        "SECRET_U8",
        "SECRET_W1",
        "SECRET_W2",
        "SECRET_X1",
        "SECRET_X2",
        "SECRET_X3",
        "SECRET_X4",
    ] {
        assert!(shown.contains(s), "{s} not shown without the default masks");
    }
}

#[test]
fn masks_from_flags_files_and_the_environment() {
    let plan = hostile("unmarked-secrets-plan.json");
    // A pattern scoped to a type, the others off: only `name` is hidden.
    let (code, out, err) = run(
        &[
            "plan",
            "show",
            "--no-default-masks",
            "--mask",
            "t.name",
            &plan,
            "t.unmarked",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("~ name        = (sensitive value)"), "{out}");
    assert!(out.contains("SECRET_U1"), "{out}");
    let (_, out, _) = run(
        &[
            "plan",
            "show",
            "--no-default-masks",
            "--mask",
            "other.name",
            &plan,
            "t.unmarked",
        ],
        b"",
    );
    assert!(out.contains("~ name        = \"a\" -> \"b\""), "{out}");

    let dir = std::env::temp_dir().join(format!("tfwire-masks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let env_file = dir.join("env.masks");
    let flag_file = dir.join("flag.masks");
    std::fs::write(&env_file, "# from the environment\n**.tags.env\n").unwrap();
    std::fs::write(&flag_file, "\n  name  \n").unwrap();
    let show = |env: Option<&std::path::Path>, extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_tfwire"));
        c.args(["plan", "show", "--no-default-masks"])
            .args(extra)
            .args([plan.as_str(), "t.unmarked"])
            .env_remove("TFWIRE_MASK_FILE")
            .stdin(Stdio::null());
        if let Some(e) = env {
            c.env("TFWIRE_MASK_FILE", e);
        }
        let o = c.output().unwrap();
        (
            o.status.code(),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    // TFWIRE_MASK_FILE applies ...
    let (code, out, err) = show(Some(&env_file), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("env           = (sensitive value)"), "{out}");
    assert!(!out.contains("\"prod\""), "{out}");
    // ... unless --mask-file names another file.
    let flag = flag_file.to_string_lossy().into_owned();
    let (code, out, err) = show(Some(&env_file), &["--mask-file", &flag]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("\"prod\""), "{out}");
    assert!(out.contains("~ name        = (sensitive value)"), "{out}");
    // A bad pattern is a usage error naming the file and the line.
    std::fs::write(&flag_file, "ok\n\nx..y\n").unwrap();
    let (code, _, err) = show(None, &["--mask-file", &flag]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "error: --mask-file {flag}:3: mask pattern \"x..y\": a step may not be empty (two \
             dots in a row, or a dot at the end)\n"
        )
    );
    let missing = dir.join("missing");
    let (code, _, err) = show(Some(&missing), &[]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: TFWIRE_MASK_FILE "), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();

    for cmd in [
        &["plan", "summary"][..],
        &["plan", "show"],
        &["state", "list"],
        &["state", "show"],
    ] {
        let mut args = cmd.to_vec();
        args.extend(["--mask", "tags[\"env\"]", &plan]);
        if cmd[1] == "show" {
            args.push("t.unmarked");
        }
        let (code, _, err) = run(&args, b"");
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(
            err,
            "error: --mask: mask pattern \"tags[\\\"env\\\"]\": brackets are not allowed: list \
             indices are not steps and a map key is one (write tags.env, not tags[\"env\"])\n",
            "{args:?}"
        );
    }
}

/// The real-client `sensitive` scenario: what OpenTofu hides stays hidden, and the default
/// masks also hide `not_secret` (an output OpenTofu shows: a false positive of
/// `*secret*`, which only hides a value); state list prints the same addresses.
#[test]
fn real_client_sensitive_scenario() {
    let dir = corpus("real-client/sensitive");
    let plan = format!("{dir}/plan.json");
    let schemas = format!("{dir}/schemas.json");
    let (code, out, err) = run(&["plan", "show", "--schemas", &schemas, &plan], b"");
    assert_eq!(code, 0, "{err}");
    for s in ["s3cret", "t0ken", "hidden"] {
        assert!(!out.contains(s), "leaks {s}:\n{out}");
    }
    assert!(
        out.contains("+ not_secret      = (sensitive value)"),
        "{out}"
    );
    for state in ["state.json", "terraform.tfstate"] {
        let state = format!("{dir}/{state}");
        let (code, out, err) = run(
            &[
                "state",
                "show",
                "--schemas",
                &schemas,
                &state,
                "tfwire_shapes.s",
            ],
            b"",
        );
        assert_eq!(code, 0, "{err}");
        for s in ["s3cret", "t0ken", "hidden"] {
            assert!(!out.contains(s), "{state} leaks {s}:\n{out}");
        }
        // The mask hides what no schema marks.
        let (_, masked, _) = run(
            &[
                "state",
                "show",
                "--schemas",
                &schemas,
                "--mask",
                "name",
                &state,
                "tfwire_shapes.s",
            ],
            b"",
        );
        assert!(
            out.contains("    name              = \"sensitive\""),
            "{out}"
        );
        assert!(
            masked.contains("    name              = (sensitive value)"),
            "{masked}"
        );
        let (_, listed, _) = run(&["state", "list", &state], b"");
        assert_eq!(
            listed,
            std::fs::read_to_string(format!("{dir}/state-list.txt")).unwrap()
        );
    }
}

/// `dump` applies the masks to every line: with `--mask name`, no `name` value is printed.
#[test]
fn dump_masks() {
    let dir = corpus("proto-data/sensitive/proto");
    let schemas = corpus("proto-data/sensitive/schemas.json");
    let plain = run_raw(&["dump", &dir, "--schemas", &schemas], b"");
    let masked = run_raw(
        &["dump", &dir, "--schemas", &schemas, "--mask", "name"],
        b"",
    );
    assert_eq!(masked.status.code(), Some(0));
    let (plain, masked) = (
        String::from_utf8(plain.stdout).unwrap(),
        String::from_utf8(masked.stdout).unwrap(),
    );
    assert!(plain.contains("\"name\":\"sensitive\""), "{plain}");
    assert!(!masked.contains("\"name\":\"sensitive\""), "{masked}");
    assert!(masked.contains("\"name\":\"(sensitive)\""), "{masked}");
    assert_eq!(plain.lines().count(), masked.lines().count());
}
