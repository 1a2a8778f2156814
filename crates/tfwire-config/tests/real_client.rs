//! The `configuration` member of every real-client scenario: the plan file's `tfconfig/`
//! members read with `Configuration::read`, written with `write_json`, compared byte for byte
//! with the member of the client's own `show -json` output (`plan.json`), and the root
//! variables' defaults compared with the plan's `variables` member.

use std::io::Read;
use std::path::{Path, PathBuf};
use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_config::{Client, Configuration, Limits};
use tfwire_json::{Escape, JsonWriter};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(name)
}

fn scenarios(name: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("plan.tfplan").is_file())
        .collect();
    out.sort();
    out
}

/// The `tfconfig/` members of a plan file, named relative to `tfconfig/`.
fn snapshot(plan: &Path) -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(plan).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut out = Vec::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let full = f.name().unwrap().into_owned();
        let Some(name) = full.strip_prefix("tfconfig/").map(str::to_owned) else {
            continue;
        };
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        out.push((name, data));
    }
    out
}

/// The length of the JSON value at the start of `s` (a string-aware bracket scan: the
/// documents are the client's own, valid JSON).
fn value_len(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => {
                    in_str = false;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' if depth == 0 => return i,
            _ => {}
        }
    }
    b.len()
}

/// The raw text of the top-level member `key` of the client's document (the client writes
/// its documents without spaces, members once each).
fn member<'a>(doc: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("\"{key}\":");
    // Top-level members follow a `,` or the opening `{` at depth 1: find the occurrence
    // whose depth is 1.
    let mut from = 0;
    while let Some(i) = doc[from..].find(&pat) {
        let at = from + i;
        if depth_at(doc, at) == 1 {
            let start = at + pat.len();
            return Some(&doc[start..start + value_len(&doc[start..])]);
        }
        from = at + 1;
    }
    None
}

fn depth_at(s: &str, end: usize) -> usize {
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for &c in &s.as_bytes()[..end] {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// Runs every scenario of `name`; returns the failures (scenario: what differs).
fn run(name: &str, client: Client) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let all = scenarios(name);
    for dir in &all {
        let scenario = dir.file_name().unwrap().to_string_lossy().into_owned();
        let expected_doc = std::fs::read_to_string(dir.join("plan.json")).unwrap();
        let expected = member(expected_doc.trim_end(), "configuration").unwrap();
        let schemas =
            ProviderSchemas::from_json(&std::fs::read(dir.join("schemas.json")).unwrap()).unwrap();
        let cache = ProgramCache::new(schemas);
        let files = snapshot(&dir.join("plan.tfplan"));
        let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
        let config = match Configuration::read(&refs, &Limits::default()) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{scenario}: read: {e}"));
                continue;
            }
        };
        let mut out = String::new();
        let mut w = JsonWriter::new(&mut out, Escape::Go);
        if let Err(e) = config.write_json(&mut w, &cache, client) {
            failures.push(format!("{scenario}: write_json: {e}"));
            continue;
        }
        if out != expected {
            // TFWIRE_CONFIG_DUMP=DIR writes both texts, for a diff.
            if let Ok(d) = std::env::var("TFWIRE_CONFIG_DUMP") {
                let d = Path::new(&d);
                std::fs::write(d.join(format!("{scenario}.ours.json")), &out).unwrap();
                std::fs::write(d.join(format!("{scenario}.expected.json")), expected).unwrap();
            }
            let at = out
                .bytes()
                .zip(expected.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(out.len().min(expected.len()));
            let lo = at.saturating_sub(80);
            failures.push(format!(
                "{scenario}: differs at byte {at}\n  ours:     {}\n  expected: {}",
                &out[lo.min(out.len())..(at + 80).min(out.len())],
                &expected[lo.min(expected.len())..(at + 80).min(expected.len())]
            ));
            continue;
        }
        // The defaults the plan's `variables` member holds for root variables it did not set.
        let defaults = match config.root_variable_defaults() {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{scenario}: root_variable_defaults: {e}"));
                continue;
            }
        };
        if let Some(vars) = member(expected_doc.trim_end(), "variables") {
            for (name, value) in &defaults {
                let want = format!("\"{name}\":{{\"value\":{value}}}");
                if !vars.contains(&want) {
                    failures.push(format!(
                        "{scenario}: variable {name}: {value} not in {vars}"
                    ));
                }
            }
        }
    }
    (all.len(), failures)
}

fn check(name: &str, client: Client) {
    let (total, failures) = run(name, client);
    eprintln!(
        "{name}: {}/{} scenarios pass",
        total - failures.len(),
        total
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn opentofu_configuration_is_byte_identical() {
    check("real-client", Client::OpenTofu);
}

#[test]
fn terraform_configuration_is_byte_identical() {
    check("real-client-terraform", Client::Terraform);
}
