//! `Planfile::show_json` against `plan.json` of every scenario of both real-client corpora
//! (`corpus/real-client/` for OpenTofu, `corpus/real-client-terraform/` for Terraform) and
//! of OpenTofu's small plan files (`corpus/planfiles/`; the Terraform ones of
//! `tests/data/terraform/` are re-indented, not byte-comparable):
//! `plan.json` is the client's `show -json plan.tfplan`, byte for byte, and `schemas.json`
//! its `providers schema -json`.
//!
//! The documents are compared byte for byte, and member by member (each member's text and
//! the members' order) to say where they differ, less the differences [`KNOWN`] lists.
//!
//! `TFWIRE_TEST=name` runs only the scenarios whose path contains `name`.

use std::path::{Path, PathBuf};
use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_planfile::Planfile;

/// Members in which tfwire differs from the client for a reason recorded in
/// `corpus/conformance/decisions.jsonl`, with the scenarios: none in the corpora.
const KNOWN: &[(&str, &str)] = &[];

fn scenarios() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let filter = std::env::var("TFWIRE_TEST").unwrap_or_default();
    let mut out = Vec::new();
    for set in [
        "../../corpus/planfiles",
        "../../corpus/real-client",
        "../../corpus/real-client-terraform",
    ] {
        for e in std::fs::read_dir(root.join(set)).unwrap().flatten() {
            let p = e.path();
            if p.join("plan.tfplan").is_file()
                && p.join("plan.json").is_file()
                && p.join("schemas.json").is_file()
                && p.to_string_lossy().contains(&filter)
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The members of a compact JSON object as (key, raw value text), in order.
fn members(doc: &str) -> Vec<(String, &str)> {
    let b = doc.trim_end().as_bytes();
    assert_eq!(b.first(), Some(&b'{'), "not an object");
    let mut out = Vec::new();
    let mut i = 1;
    while i < b.len() && b[i] != b'}' {
        // The key.
        let start = i + 1;
        i = string_end(b, i);
        let key: String = serde_json::from_str(&doc[start - 1..i]).unwrap();
        assert_eq!(b[i], b':');
        i += 1;
        let vstart = i;
        let mut depth = 0;
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i = string_end(b, i);
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth == 0 => break,
                b'}' | b']' => depth -= 1,
                b',' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        out.push((key, &doc[vstart..i]));
        if b[i] == b',' {
            i += 1;
        }
    }
    out
}

/// The index after the string that starts at `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

#[test]
fn show_json_is_the_clients_document_member_by_member() {
    let mut passes: std::collections::BTreeMap<(String, String), (usize, usize)> =
        Default::default();
    let mut failures = Vec::new();
    let mut documents = 0;
    for dir in scenarios() {
        let name = format!(
            "{}/{}",
            dir.parent().unwrap().file_name().unwrap().to_string_lossy(),
            dir.file_name().unwrap().to_string_lossy()
        );
        let corpus = name.split('/').next().unwrap().to_string();
        let expected = std::fs::read_to_string(dir.join("plan.json")).unwrap();
        let planfile = Planfile::read(&std::fs::read(dir.join("plan.tfplan")).unwrap()).unwrap();
        let schemas =
            ProviderSchemas::from_json(&std::fs::read(dir.join("schemas.json")).unwrap()).unwrap();
        let cache = ProgramCache::new(schemas);
        let got = match planfile.show_json(&cache) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        documents += 1;
        let known = KNOWN.iter().any(|(_, n)| *n == name);
        if got.trim_end() != expected.trim_end() && !known {
            failures.push(format!("{name}: the documents differ"));
        }
        let theirs = members(&expected);
        let ours = members(&got);
        let keys =
            |m: &[(String, &str)]| -> Vec<String> { m.iter().map(|(k, _)| k.clone()).collect() };
        if keys(&ours) != keys(&theirs) {
            failures.push(format!(
                "{name}: members {:?}, the client's {:?}",
                keys(&ours),
                keys(&theirs)
            ));
        }
        for (k, v) in &theirs {
            let entry = passes.entry((corpus.clone(), k.clone())).or_default();
            entry.1 += 1;
            let mine = ours.iter().find(|(o, _)| o == k).map(|(_, v)| *v);
            if mine == Some(*v) {
                entry.0 += 1;
            } else if !KNOWN.contains(&(k.as_str(), name.as_str())) {
                let mine = mine.unwrap_or("(absent)");
                let at = mine
                    .bytes()
                    .zip(v.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(mine.len().min(v.len()));
                let from = at.saturating_sub(60);
                failures.push(format!(
                    "{name}: {k} differs at byte {at}:\n    tfwire: {}\n    client: {}",
                    mine.get(from..(at + 60).min(mine.len())).unwrap_or(mine),
                    v.get(from..(at + 60).min(v.len())).unwrap_or(v)
                ));
            }
        }
    }
    for ((corpus, member), (ok, all)) in &passes {
        eprintln!("{corpus:24} {member:28} {ok}/{all}");
    }
    assert!(documents > 0);
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
