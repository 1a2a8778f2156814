//! `corpus/real-client/` and `corpus/real-client-terraform/`: what OpenTofu and Terraform
//! themselves wrote for each scenario of `e2e/` (see their READMEs), and the small Terraform
//! plans of `tests/data/terraform/` (see its README). Every plan's summary gives the numbers
//! of the client's own `Plan: …` line in `plan.txt`; `state.json` and `terraform.tfstate` list
//! the addresses of `state list` (`state-list.txt`). Every scenario directory of both corpora
//! is checked, whatever scenarios are added; none missing is allowed.

use crate::corpus::corpus_dir;
use simd_json::prelude::*;
use std::path::{Path, PathBuf};
use tfwire::TypedJson as _;
use tfwire_plan::{Client, Document, Parser, PlanLine, Summary};

/// The real-client corpora: folder under `corpus/` and the client that wrote it.
const CORPORA: [(&str, Client); 2] = [
    ("real-client", Client::OpenTofu),
    ("real-client-terraform", Client::Terraform),
];

/// The scenario directories of every real-client corpus (named `corpus/scenario`), with the
/// client that wrote them and whether `MANIFEST.json` says their outputs are committed
/// (`"committed": false`: only the configuration is, `e2e/run.sh` makes the rest).
pub(crate) fn scenarios() -> Vec<(String, PathBuf, Client, bool)> {
    let mut out = Vec::new();
    for (corpus, client) in CORPORA {
        let root = corpus_dir().join(corpus);
        let mut manifest = std::fs::read(root.join("MANIFEST.json")).unwrap_or_else(|e| {
            panic!(
                "{}/MANIFEST.json: {e} (the {corpus} corpus is missing)",
                root.display()
            )
        });
        let manifest = simd_json::to_borrowed_value(&mut manifest).expect("MANIFEST.json is JSON");
        let listed = manifest
            .get("scenarios")
            .and_then(|s| s.as_object())
            .expect("MANIFEST.json: scenarios");
        let mut found = Vec::new();
        for e in std::fs::read_dir(&root).unwrap() {
            let path = e.unwrap().path();
            if !path.is_dir() {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let entry = listed
                .get(name.as_str())
                .unwrap_or_else(|| panic!("{corpus}/{name} is not in MANIFEST.json"));
            let committed = entry
                .get("committed")
                .and_then(|c| c.as_bool())
                .unwrap_or(true);
            found.push((format!("{corpus}/{name}"), path, client, committed));
        }
        assert!(!found.is_empty(), "{}: no scenario", root.display());
        out.extend(found);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The Terraform plans made for this crate's tests (`tests/data/terraform/*/`, see its
/// README): each folder has `plan.json` and `plan.txt`.
fn fixtures() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/terraform");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| {
            let name = format!(
                "tests/data/terraform/{}",
                p.file_name().unwrap().to_string_lossy()
            );
            (name, p)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "{}: no fixture", root.display());
    out
}

/// Whether `corpus/conformance/decisions.jsonl` records `name` (rule `normalize`).
fn decided(name: &str) -> bool {
    let text = std::fs::read_to_string(corpus_dir().join("conformance/decisions.jsonl")).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).any(|l| {
        let mut bytes = l.as_bytes().to_vec();
        let d = simd_json::to_borrowed_value(&mut bytes).expect("decisions.jsonl is JSON lines");
        d.get("name").and_then(|n| n.as_str()) == Some(name)
            && d.get("rule").and_then(|r| r.as_str()) == Some("normalize")
    })
}

fn read(path: &Path) -> Option<Vec<u8>> {
    match std::fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// The numbers of a `Plan: 1 to import, 2 to add, 0 to change, 1 to destroy, 1 to forget.`
/// line (OpenTofu) or `Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.`
/// (Terraform), read here without tfwire-plan: import, add, change, destroy, forget,
/// invoke.
fn parse_plan_line(line: &str) -> Result<[usize; 6], String> {
    let (line, invoke) = match line.split_once(". Actions: ") {
        Some((head, tail)) => {
            let n = tail
                .strip_suffix(" to invoke.")
                .ok_or_else(|| format!("unexpected actions: {line:?}"))?;
            (head, n.parse().map_err(|e| format!("{n:?}: {e}"))?)
        }
        None => (line.strip_suffix('.').unwrap_or(line), 0),
    };
    let body = line
        .strip_prefix("Plan: ")
        .ok_or_else(|| format!("not a plan line: {line:?}"))?;
    let mut n = [0; 6];
    n[5] = invoke;
    let mut seen = Vec::new();
    for part in body.split(", ") {
        let (count, what) = part
            .split_once(" to ")
            .ok_or_else(|| format!("{part:?} in {line:?}"))?;
        let at = ["import", "add", "change", "destroy", "forget"]
            .iter()
            .position(|w| *w == what)
            .ok_or_else(|| format!("unknown count {what:?} in {line:?}"))?;
        n[at] = count.parse().map_err(|e| format!("{count:?}: {e}"))?;
        seen.push(at);
    }
    // add, change and destroy are always printed; import and forget only when non-zero.
    if !seen.is_sorted() || ![1, 2, 3].iter().all(|k| seen.contains(k)) {
        return Err(format!("unexpected shape: {line:?}"));
    }
    Ok(n)
}

#[test]
fn plan_line_parser() {
    assert_eq!(
        parse_plan_line("Plan: 3 to import, 1 to add, 1 to change, 1 to destroy."),
        Ok([3, 1, 1, 1, 0, 0])
    );
    assert_eq!(
        parse_plan_line("Plan: 0 to add, 0 to change, 0 to destroy, 3 to forget."),
        Ok([0, 0, 0, 0, 3, 0])
    );
    assert_eq!(
        parse_plan_line(
            "Plan: 1 to import, 1 to add, 1 to change, 0 to destroy. Actions: 2 to invoke."
        ),
        Ok([1, 1, 1, 0, 0, 2])
    );
    assert!(parse_plan_line("Plan: 1 to add, 0 to change.").is_err());
    assert!(parse_plan_line("Plan: 0 to change, 1 to add, 0 to destroy.").is_err());
    assert!(parse_plan_line("Plan: 0 to add, 0 to change, 0 to destroy. Actions: 2.").is_err());
    assert!(parse_plan_line("No changes.").is_err());
}

/// Checks one plan's summary against its `plan.txt`: the client the summary names, and the
/// `Plan:` line (or its absence). Returns a problem, if any.
fn check_plan_line(
    name: &str,
    plan: &tfwire_plan::Plan<'_>,
    txt: &str,
    client: Client,
) -> Option<String> {
    let summary = Summary::of(plan);
    if summary.client != client {
        return Some(format!(
            "{name}: written by {client:?}, summarised as {:?}'s",
            summary.client
        ));
    }
    let got: PlanLine = summary.plan_line();
    let lines: Vec<&str> = txt.lines().filter(|l| l.starts_with("Plan: ")).collect();
    match lines[..] {
        // The client prints the line only when it renders a resource change (or, Terraform,
        // an action invocation).
        [] if got.is_printed() => Some(format!(
            "{name}: plan.txt has no Plan line, tfwire-plan counts {got} ({} shown, {} invoked)",
            got.shown, got.invoke
        )),
        [] => None,
        [line] => {
            let want = parse_plan_line(line).unwrap_or_else(|e| panic!("{name}: {e}"));
            // Terraform's line does not say what is forgotten: its count is not compared.
            let forget = if client == Client::Terraform {
                want[4]
            } else {
                got.forget
            };
            let ours = [
                got.import,
                got.add,
                got.change,
                got.destroy,
                forget,
                got.invoke,
            ];
            (ours != want || got.to_string() != line || !got.is_printed())
                .then(|| format!("{name}: the client says {line:?}, tfwire-plan {got}"))
        }
        _ => Some(format!("{name}: plan.txt has {} Plan lines", lines.len())),
    }
}

#[test]
fn every_real_client_plan_summarises_as_its_client_counts_it() {
    let mut parser = Parser::new();
    let (mut checked, mut without_line, mut regenerated) = (0, 0, 0);
    let mut problems = Vec::new();
    let mut plans: Vec<(String, PathBuf, Client, bool)> = scenarios();
    plans.extend(
        fixtures()
            .into_iter()
            .map(|(n, p)| (n, p, Client::Terraform, true)),
    );
    for (name, dir, client, committed) in plans {
        let (Some(json), Some(txt)) = (read(&dir.join("plan.json")), read(&dir.join("plan.txt")))
        else {
            // Only a scenario the manifest keeps out of the repository may lack its plan.
            assert!(!committed, "{name}: plan.json or plan.txt is missing");
            regenerated += 1;
            continue;
        };
        let txt = String::from_utf8(txt).expect("plan.txt is UTF-8");
        without_line += usize::from(!txt.lines().any(|l| l.starts_with("Plan: ")));
        let mut input = json;
        let arena = bumpalo::Bump::new();
        let tape = parser
            .parse(&mut input)
            .unwrap_or_else(|e| panic!("{name}/plan.json: {e}"));
        let plan = tape
            .plan(&arena)
            .unwrap_or_else(|e| panic!("{name}/plan.json: {e}"));
        problems.extend(check_plan_line(&name, plan, &txt, client));
        checked += 1;
    }
    eprintln!(
        "real-client plans: {checked} checked ({without_line} without a Plan line), \
         {regenerated} regenerated only"
    );
    assert!(checked > 0, "no plan in the real-client corpora");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn real_client_states_list_the_addresses_of_tofu_state_list() {
    // `tofu state list` sorts (shorter module paths first, then by name and key); tfwire-plan
    // lists addresses in document order. Recorded decision `real-client/state/order`: the
    // addresses are compared as sorted lists.
    assert!(
        decided("real-client/state/order"),
        "decisions.jsonl lacks real-client/state/order"
    );
    let mut parser = Parser::new();
    let (mut listed, mut json_states, mut raw_states) = (0, 0, 0);
    let mut problems = Vec::new();
    for (name, dir, _, committed) in scenarios() {
        let raw = read(&dir.join("terraform.tfstate"));
        let Some(list) = read(&dir.join("state-list.txt")) else {
            // The README: state-list.txt is absent exactly when terraform.tfstate is.
            assert!(
                raw.is_none() && (!committed || read(&dir.join("state.json")).is_none()),
                "{name}: a state without state-list.txt"
            );
            continue;
        };
        listed += 1;
        let mut want: Vec<String> = String::from_utf8(list)
            .expect("UTF-8")
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        want.sort();
        if let Some(mut input) = read(&dir.join("state.json")) {
            let arena = bumpalo::Bump::new();
            let tape = parser.parse(&mut input).unwrap();
            let Document::State(state) = tape.document(&arena).unwrap() else {
                panic!("{name}/state.json is not a state")
            };
            let mut got: Vec<String> = state.addresses().map(str::to_owned).collect();
            got.sort();
            if got != want {
                problems.push(format!(
                    "{name}/state.json: {got:?}\n  tofu state list: {want:?}"
                ));
            }
            json_states += 1;
        }
        let mut input = raw.unwrap_or_else(|| panic!("{name}: no terraform.tfstate"));
        let arena = bumpalo::Bump::new();
        let tape = parser.parse(&mut input).unwrap();
        let state = tape
            .raw_state(&arena)
            .unwrap_or_else(|e| panic!("{name}/terraform.tfstate: {e}"));
        let mut got: Vec<String> = state.addresses().map(|a| a.to_string()).collect();
        got.sort();
        if got != want {
            problems.push(format!(
                "{name}/terraform.tfstate: {got:?}\n  tofu state list: {want:?}"
            ));
        }
        raw_states += 1;
    }
    eprintln!(
        "real-client states: {listed} state lists, {json_states} state.json, {raw_states} \
         terraform.tfstate"
    );
    assert!(
        listed > 0 && raw_states > 0,
        "no state in corpus/real-client"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every resource value of every real-client plan and `show -json` state (`before`, `after`,
/// `values`, `prior_state`, `planned_values`), decoded with the scenario's provider schemas
/// in place on the document's tape ([`tfwire_plan::Json::decode_typed`]), equals the value
/// tfwire decodes from the value's own JSON text (the value re-serialised, the path the
/// in-place decoder replaces).
#[test]
fn real_client_values_decode_typed_in_place_as_from_their_text() {
    use tfwire::schema::{Kind, ProgramCache, ProviderSchemas};
    use tfwire_plan::Mode;
    let mut parser = Parser::new();
    // `show -json` writes values at dynamic positions as plain JSON.
    let mut decoder = tfwire::Decoder::new(tfwire::Config::default().plain_dynamic(true));
    let (mut documents, mut values, mut rejected) = (0, 0, 0);
    let mut problems = Vec::new();
    for (name, dir, _, committed) in scenarios() {
        let Some(schemas) = read(&dir.join("schemas.json")) else {
            assert!(!committed, "{name}: schemas.json is missing");
            continue;
        };
        let schemas = ProviderSchemas::from_json(&schemas)
            .unwrap_or_else(|e| panic!("{name}/schemas.json: {e}"));
        let cache = ProgramCache::new(schemas);
        for file in ["plan.json", "state.json"] {
            let Some(mut input) = read(&dir.join(file)) else {
                continue;
            };
            let arena = bumpalo::Bump::new();
            let tape = parser
                .parse(&mut input)
                .unwrap_or_else(|e| panic!("{name}/{file}: {e}"));
            let doc = tape
                .document(&arena)
                .unwrap_or_else(|e| panic!("{name}/{file}: {e}"));
            documents += 1;
            tfwire_plan::decode::visit_values(&doc, |site, json| {
                let kind = match site.mode {
                    Mode::Managed => Kind::Resource,
                    Mode::Data => Kind::DataSource,
                    Mode::Other(m) => {
                        problems.push(format!("{name}/{file} {}: mode {m}", site.address));
                        return Ok::<(), ()>(());
                    }
                };
                let provider = site.provider_name.unwrap_or_default();
                let program = match cache.get(provider, kind, site.type_name) {
                    Ok(p) => p,
                    Err(e) => {
                        problems.push(format!("{name}/{file} {}: {e}", site.address));
                        return Ok(());
                    }
                };
                let here = format!("{name}/{file} {} {:?}", site.address, site.role);
                let (a1, a2) = (bumpalo::Bump::new(), bumpalo::Bump::new());
                let in_place = json.decode_typed(&program, &mut decoder, &a1);
                let text = json.to_string();
                let from_text = decoder.decode_json(&program, text.as_bytes(), &a2);
                match (in_place, from_text) {
                    (Ok(a), Ok(b)) => {
                        let (a, b) = (
                            tfwire::canonical::to_string(&a),
                            tfwire::canonical::to_string(&b),
                        );
                        if a != b {
                            problems.push(format!("{here}: in place {a}\n  from text {b}"));
                        }
                        values += 1;
                    }
                    // The same error, at the value's place in the document instead of in
                    // its own text.
                    (Err(a), Err(b)) if a.kind() == b.kind() && a.path() == b.path() => {
                        rejected += 1;
                    }
                    (a, b) => problems.push(format!(
                        "{here}: in place {:?}, from text {:?}",
                        a.map(|v| tfwire::canonical::to_string(&v)),
                        b.map(|v| tfwire::canonical::to_string(&v))
                    )),
                }
                Ok(())
            })
            .expect("the visitor does not fail");
        }
    }
    eprintln!(
        "real-client typed values: {values} values of {documents} documents \
         ({rejected} rejected alike by both paths)"
    );
    assert!(values > 0, "no resource value in corpus/real-client");
    // Real values conform to their schemas: none may fail, even alike.
    assert_eq!(rejected, 0, "values rejected by both paths");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
