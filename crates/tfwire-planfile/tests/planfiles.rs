//! Every plan file of the corpus (`corpus/planfiles/*/`, `corpus/real-client/*/` and
//! `corpus/real-client-terraform/*/`, every scenario folder there, and this crate's
//! `tests/data/terraform/*/`) read through the library and compared with `tofu show -json`
//! or `terraform show -json` of the same file (`plan.json` beside it): the dialect is the
//! writer's, the summary is the same, and the document this crate writes has the same
//! content as the client's in every field it writes, with the schemas and without them
//! (then up to sensitivity and big numbers: see `drop_sensitivity` and `loose_eq`).
//!
//! `TFWIRE_TEST=name` runs only the scenarios whose directory name contains `name`.

use serde_json::Value as J;
use std::path::{Path, PathBuf};
use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_planfile::{Dialect, Planfile};

/// The sets of scenarios, each with the dialect its plan files are written in.
const SETS: [(&str, Dialect); 4] = [
    ("../../corpus/planfiles", Dialect::OpenTofu),
    ("../../corpus/real-client", Dialect::OpenTofu),
    ("../../corpus/real-client-terraform", Dialect::Terraform),
    ("tests/data/terraform", Dialect::Terraform),
];

fn scenarios() -> Vec<(PathBuf, Dialect)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let filter = std::env::var("TFWIRE_TEST").unwrap_or_default();
    let mut out = Vec::new();
    for (set, dialect) in SETS {
        let Ok(dir) = std::fs::read_dir(root.join(set)) else {
            continue;
        };
        for e in dir.flatten() {
            let p = e.path();
            if p.join("plan.tfplan").is_file() && p.to_string_lossy().contains(&filter) {
                out.push((p, dialect));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no scenario found (filter {filter:?})");
    out
}

/// The summary of a JSON plan document, as its `Debug` text (every member, values as their
/// JSON text).
fn summary(json: &[u8]) -> String {
    let mut buf = json.to_vec();
    let tape = tfwire_plan::Parser::new().parse(&mut buf).unwrap();
    let arena = bumpalo::Bump::new();
    format!(
        "{:#?}",
        tfwire_plan::Summary::of(tape.plan(&arena).unwrap())
    )
}

/// Equality, except that without a schema a number go-cty sent as a MessagePack string
/// (one beyond 64-bit integers and binary64) reads as that string: ours may be the string
/// of their number.
fn loose_eq(ours: &J, theirs: &J) -> bool {
    match (ours, theirs) {
        (J::String(s), J::Number(n)) => *s == n.to_string(),
        (J::Array(a), J::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| loose_eq(x, y))
        }
        (J::Object(a), J::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| loose_eq(v, w)))
        }
        (a, b) => a == b,
    }
}

/// Without schemas the sensitivity trees hold only the paths the plan file records, which
/// need not include the attributes the provider schema declares sensitive (and the type of
/// an unknown value, which decides between `false`, `[]` and `{}`, is not known): they are
/// compared with the schemas only.
fn drop_sensitivity(changes: &mut J) {
    for rc in changes.as_array_mut().into_iter().flatten() {
        if let Some(c) = rc.get_mut("change").and_then(J::as_object_mut) {
            c.remove("before_sensitive");
            c.remove("after_sensitive");
        }
    }
}

/// Compares the fields `ours` writes with `theirs`.
fn compare(name: &str, ours: &J, theirs: &J, with_schemas: bool) {
    let ours = ours.as_object().unwrap();
    for (k, v) in ours {
        let mut theirs_v = theirs.get(k).cloned().unwrap_or(J::Null);
        // OpenTofu leaves an empty list out; this crate writes `resource_changes: []`.
        if k == "resource_changes" && theirs_v.is_null() {
            theirs_v = J::Array(Vec::new());
        }
        let mut v = v.clone();
        match k.as_str() {
            // tofu show -json adds the defaults of variables not set: ours must be a subset.
            "variables" => {
                for (var, val) in v.as_object().unwrap() {
                    assert_eq!(Some(val), theirs_v.get(var), "{name}: variable {var}");
                }
                continue;
            }
            "resource_changes" | "resource_drift" if !with_schemas => {
                drop_sensitivity(&mut v);
                drop_sensitivity(&mut theirs_v);
            }
            "deferred_changes" if !with_schemas => {
                for list in [&mut v, &mut theirs_v] {
                    for d in list.as_array_mut().into_iter().flatten() {
                        if let Some(rc) = d.get_mut("resource_change") {
                            let mut one = J::Array(vec![rc.take()]);
                            drop_sensitivity(&mut one);
                            *rc = one[0].take();
                        }
                    }
                }
            }
            _ => {}
        }
        if !(v == theirs_v || !with_schemas && loose_eq(&v, &theirs_v)) {
            panic!(
                "{name}: `{k}` differs (with schemas: {with_schemas})\nours:   {v}\ntheirs: {theirs_v}"
            );
        }
    }
    // And nothing a summary or view needs is missing.
    for k in [
        "format_version",
        "terraform_version",
        "resource_changes",
        "resource_drift",
        "output_changes",
        "relevant_attributes",
        "checks",
        "errored",
        "timestamp",
        "applyable",
        "complete",
        "deferred_changes",
        "deferred_action_invocations",
        "action_invocations",
    ] {
        assert_eq!(
            ours.contains_key(k),
            theirs.get(k).is_some() || k == "resource_changes",
            "{name}: `{k}` present in one document only"
        );
    }
}

#[test]
fn planfiles_match_show_json() {
    for (dir, dialect) in scenarios() {
        let name = dir.display().to_string();
        let bytes = std::fs::read(dir.join("plan.tfplan")).unwrap();
        let theirs_text = std::fs::read(dir.join("plan.json")).unwrap();
        let theirs: J = serde_json::from_slice(&theirs_text).unwrap();
        let pf = Planfile::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(pf.dialect(), dialect, "{name}");
        assert_eq!(
            pf.terraform().is_some(),
            dialect == Dialect::Terraform,
            "{name}"
        );
        let expected = summary(&theirs_text);

        let bare = pf.to_json(None).unwrap_or_else(|e| panic!("{name}: {e}"));
        // PLANFILE_DUMP=DIR writes the documents, to compare them with plan.json by hand.
        if let Ok(out) = std::env::var("PLANFILE_DUMP") {
            let stem = dir.file_name().unwrap().to_string_lossy().into_owned();
            std::fs::write(Path::new(&out).join(format!("{stem}.bare.json")), &bare).unwrap();
        }
        assert_eq!(
            summary(bare.as_bytes()),
            expected,
            "{name}: summary without schemas"
        );
        compare(&name, &serde_json::from_str(&bare).unwrap(), &theirs, false);

        let schemas_path = dir.join("schemas.json");
        assert!(schemas_path.is_file(), "{name}: no schemas.json");
        let schemas = ProviderSchemas::from_json(&std::fs::read(&schemas_path).unwrap()).unwrap();
        let cache = ProgramCache::new(schemas);
        let full = pf
            .to_json(Some(&cache))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            summary(full.as_bytes()),
            expected,
            "{name}: summary with schemas"
        );
        compare(&name, &serde_json::from_str(&full).unwrap(), &theirs, true);

        // The prior state is readable as a raw state.
        if let Some(state) = pf.state() {
            let mut buf = state.to_vec();
            let tape = tfwire_plan::Parser::new().parse(&mut buf).unwrap();
            let arena = bumpalo::Bump::new();
            tape.document(&arena)
                .unwrap_or_else(|e| panic!("{name}: tfstate: {e}"));
        }
    }
}

/// The invalid and hostile files of `corpus/planfiles-invalid/`, each with its message
/// (`expected.txt`: file name, tab, message), read with a 1 MiB limit (so that the small
/// ZIP bombs there exceed it).
#[test]
fn invalid_planfiles_are_rejected_with_their_message() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/planfiles-invalid");
    let mut config = tfwire_planfile::Config::default();
    config.max_inflated_bytes = 1 << 20;
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    let mut checked = 0;
    for line in expected.lines() {
        let (file, message) = line.split_once('\t').unwrap();
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let err = Planfile::read_with(&bytes, &config)
            .map(|_| ())
            .expect_err(file);
        assert_eq!(err.to_string(), message, "{file}");
        assert!(!message.contains('\n'), "{file}: one line");
        checked += 1;
    }
    // Every file of the directory has its line.
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name();
            n != "expected.txt" && n != "generate.py" && n != "README.md"
        })
        .count();
    assert_eq!(checked, files);
}

/// What the Terraform plan files of `tests/data/terraform/` hold beyond what `show -json`
/// prints: the provider-function results (field 22, where OpenTofu keeps ephemeral
/// variable names) and the errored plan's lack of Terraform's own fields.
#[test]
fn terraform_fields_are_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/terraform");
    let read = |name: &str| {
        Planfile::read(&std::fs::read(dir.join(name).join("plan.tfplan")).unwrap()).unwrap()
    };

    let functions = read("functions");
    let tf = functions.terraform().unwrap();
    // encode_tfvars and decode_tfvars: one hash of each call, and of its result.
    assert_eq!(tf.function_results.len(), 2);
    for r in &tf.function_results {
        assert_eq!((r.key.len(), r.result.len()), (32, 32));
    }
    assert!(functions.plan.ephemeral_variables.is_empty());
    // Read as OpenTofu's dialect, the same member is refused: why the dialect is told first.
    let bytes = std::fs::read(dir.join("functions/plan.tfplan")).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut tfplan = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name("tfplan").unwrap(), &mut tfplan).unwrap();
    let err = <tfwire_planfile::proto::Plan as prost::Message>::decode(&tfplan[..]).unwrap_err();
    assert!(
        err.to_string().contains("Plan.ephemeral_variables"),
        "{err}"
    );
    assert!(tf.applyable && tf.complete);

    // An errored plan has neither `applyable` nor `complete` (both false): Terraform's by
    // its indented state member.
    let errored = read("errored-import");
    assert!(errored.plan.errored);
    assert_eq!(errored.dialect(), Dialect::Terraform);
    let tf = errored.terraform().unwrap();
    assert!(!tf.applyable && !tf.complete);
    let doc: J = serde_json::from_str(&errored.to_json(None).unwrap()).unwrap();
    assert_eq!(
        (&doc["applyable"], &doc["complete"]),
        (&J::Bool(false), &J::Bool(false))
    );

    let forget = read("create-then-forget");
    let doc: J = serde_json::from_str(&forget.to_json(None).unwrap()).unwrap();
    assert_eq!(
        doc["resource_changes"][0]["change"]["actions"],
        serde_json::json!(["create", "forget"])
    );
}
