//! Sensitive values never reach a batch or an exported file unless `include_sensitive`:
//! the `sensitive` scenario of both corpora, every secret its documents hold searched for
//! in the batches and in the bytes of the Parquet files written.

use crate::common::*;
use arrow_array::{Array, cast::AsArray};
use arrow_schema::DataType;
use serde_json::Value as J;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use tfwire_arrow::{FleetSchemas, Options, TableBuilder};

fn strings_in(v: &J, out: &mut BTreeSet<String>) {
    match v {
        J::String(s) => {
            out.insert(s.clone());
        }
        J::Array(a) => a.iter().for_each(|e| strings_in(e, out)),
        J::Object(o) => o.values().for_each(|e| strings_in(e, out)),
        _ => {}
    }
}

fn attrs_of(schemas: &J, mode: &str, ty: &str) -> Vec<Attr> {
    let kind = if mode == "data" {
        "data_source_schemas"
    } else {
        "resource_schemas"
    };
    schemas["provider_schemas"]
        .as_object()
        .unwrap()
        .values()
        .find_map(|p| p.get(kind).and_then(|k| k.get(ty)))
        .map(|s| block_attrs(&s["block"]))
        .unwrap()
}

/// Strings of a value at marked positions (`secret`) and at unmarked ones (`clear`).
fn split(
    value: &J,
    sens: &J,
    attrs: &[Attr],
    secret: &mut BTreeSet<String>,
    clear: &mut BTreeSet<String>,
) {
    let mut all = BTreeSet::new();
    strings_in(value, &mut all);
    let mut shown = BTreeSet::new();
    for a in attrs {
        let s = if a.sensitive {
            J::Bool(true)
        } else {
            sens.get(&a.name).cloned().unwrap_or(J::Null)
        };
        let v = value.get(&a.name).cloned().unwrap_or(J::Null);
        let e = expected(
            &v,
            &a.shape,
            &a.nested,
            &s,
            &J::Null,
            false,
            "",
            &mut Outcome::default(),
        );
        strings_in(&e, &mut shown);
    }
    clear.extend(shown.iter().cloned());
    secret.extend(all.difference(&shown).cloned());
}

/// Every secret of the scenario's documents: strings only at sensitive positions (of at
/// least 4 characters, so that a secret is not found by chance), less those the same
/// documents show in clear elsewhere (the clients do not mark a provider's echo of a
/// secret).
fn secrets(dir: &Path, schemas: &J) -> BTreeSet<String> {
    let (mut secret, mut clear) = (BTreeSet::new(), BTreeSet::new());
    let outputs = |outs: &J, secret: &mut BTreeSet<String>, clear: &mut BTreeSet<String>| {
        for (_, o) in outs.as_object().into_iter().flatten() {
            if o["sensitive"] == J::Bool(true) {
                strings_in(&o["value"], secret);
            } else {
                strings_in(&o["value"], clear);
            }
        }
    };
    fn module(m: &J, schemas: &J, secret: &mut BTreeSet<String>, clear: &mut BTreeSet<String>) {
        for r in m["resources"].as_array().into_iter().flatten() {
            let attrs = attrs_of(
                schemas,
                r["mode"].as_str().unwrap(),
                r["type"].as_str().unwrap(),
            );
            split(&r["values"], &r["sensitive_values"], &attrs, secret, clear);
        }
        for c in m["child_modules"].as_array().into_iter().flatten() {
            module(c, schemas, secret, clear);
        }
    }
    if let Ok(b) = std::fs::read(dir.join("state.json")) {
        let d: J = serde_json::from_slice(&b).unwrap();
        module(
            &d["values"]["root_module"],
            schemas,
            &mut secret,
            &mut clear,
        );
        outputs(&d["values"]["outputs"], &mut secret, &mut clear);
    }
    if let Ok(b) = std::fs::read(dir.join("terraform.tfstate")) {
        let d: J = serde_json::from_slice(&b).unwrap();
        for r in d["resources"].as_array().into_iter().flatten() {
            let attrs = attrs_of(
                schemas,
                r["mode"].as_str().unwrap(),
                r["type"].as_str().unwrap(),
            );
            for inst in r["instances"].as_array().unwrap() {
                split(
                    &inst["attributes"],
                    &raw_marks(&inst["sensitive_attributes"]),
                    &attrs,
                    &mut secret,
                    &mut clear,
                );
            }
        }
        outputs(&d["outputs"], &mut secret, &mut clear);
    }
    let plan: J = serde_json::from_slice(&std::fs::read(dir.join("plan.json")).unwrap()).unwrap();
    if let Some(p) = plan.get("prior_state") {
        module(
            &p["values"]["root_module"],
            schemas,
            &mut secret,
            &mut clear,
        );
        outputs(&p["values"]["outputs"], &mut secret, &mut clear);
    }
    for rc in plan["resource_changes"].as_array().into_iter().flatten() {
        let attrs = attrs_of(
            schemas,
            rc["mode"].as_str().unwrap(),
            rc["type"].as_str().unwrap(),
        );
        let c = &rc["change"];
        split(
            &c["before"],
            &c["before_sensitive"],
            &attrs,
            &mut secret,
            &mut clear,
        );
        split(
            &c["after"],
            &c["after_sensitive"],
            &attrs,
            &mut secret,
            &mut clear,
        );
    }
    for (_, oc) in plan["output_changes"].as_object().into_iter().flatten() {
        for (v, s) in [("before", "before_sensitive"), ("after", "after_sensitive")] {
            if marked(&oc[s]) {
                strings_in(&oc[v], &mut secret);
            } else {
                strings_in(&oc[v], &mut clear);
            }
        }
    }
    secret.retain(|s| s.len() >= 4 && !clear.contains(s));
    secret
}

/// Every string of an array and of the arrays inside it, one a line.
fn all_strings(a: &dyn Array, out: &mut String) {
    match a.data_type() {
        DataType::Utf8 => {
            let s = a.as_string::<i32>();
            for i in 0..s.len() {
                out.push_str(s.value(i));
                out.push('\n');
            }
        }
        DataType::List(_) => all_strings(a.as_list::<i32>().values().as_ref(), out),
        DataType::Map(..) => {
            let e = a.as_map().entries();
            for c in e.columns() {
                all_strings(c.as_ref(), out);
            }
        }
        DataType::Struct(_) => {
            for c in a.as_struct().columns() {
                all_strings(c.as_ref(), out);
            }
        }
        _ => {}
    }
}

fn files_bytes(dir: &Path, out: &mut Vec<u8>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_bytes(&p, out);
        } else {
            out.extend(std::fs::read(&p).unwrap());
        }
    }
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// The batches of every table (and the Parquet bytes of an export) of the scenario's
/// documents, as text and bytes to search.
fn everything(
    fleet: &Arc<FleetSchemas>,
    dir: &Path,
    options: Options,
    binary: bool,
) -> (String, Vec<u8>) {
    let mut text = String::new();
    let docs: Vec<String> = [
        "terraform.tfstate",
        "state.json",
        "plan.json",
        "plan.tfplan",
    ]
    .iter()
    .map(|n| dir.join(n))
    .filter(|p| p.is_file() && (binary || p.extension().is_none_or(|e| e != "tfplan")))
    .map(|p| p.display().to_string())
    .collect();
    for def in fleet.tables() {
        let mut b = TableBuilder::new(fleet.clone(), &def, None, options);
        for d in &docs {
            b.add(d, "default", &std::fs::read(d).unwrap()).unwrap();
        }
        let batch = b.finish().unwrap();
        for c in batch.columns() {
            all_strings(c.as_ref(), &mut text);
        }
    }
    let out = TempDir::new("sensitive-export");
    let inputs = futures::executor::block_on(tfwire_arrow::discover(&docs)).unwrap();
    let report = futures::executor::block_on(tfwire_arrow::export(
        &inputs,
        fleet.clone(),
        &out.0.display().to_string(),
        options,
    ))
    .unwrap();
    assert!(!report.files.is_empty());
    let mut bytes = Vec::new();
    files_bytes(&out.0, &mut bytes);
    (text, bytes)
}

#[test]
fn secrets_never_reach_a_batch_or_a_file_unless_included() {
    for corpus in ["corpus/real-client", "corpus/real-client-terraform"] {
        let dir = root().join(corpus).join("sensitive");
        let schemas = read_json(&dir.join("schemas.json"));
        let secrets = secrets(&dir, &schemas);
        assert!(secrets.len() >= 3, "{}: {secrets:?}", dir.display());
        for s in ["s3cret", "hidden-element"] {
            assert!(
                secrets.contains(s),
                "{}: {s} among {secrets:?}",
                dir.display()
            );
        }
        // With the scenario's schemas (type tables), and with none (the long-form table).
        let with_schemas = TempDir::new("sensitive-cache");
        let empty = TempDir::new("sensitive-empty");
        // A binary plan needs its provider's schema to be read at all: only with the
        // schemas.
        for (fleet, binary) in [
            (
                fleet(&dir.join("schemas.json"), &with_schemas, "1.0.0"),
                true,
            ),
            (
                Arc::new(
                    FleetSchemas::load(&tfwire_config::SchemaCache::new(&empty.0, 1 << 20))
                        .unwrap(),
                ),
                false,
            ),
        ] {
            let (text, bytes) = everything(&fleet, &dir, Options::default(), binary);
            for s in &secrets {
                assert!(
                    !text.contains(s.as_str()),
                    "{}: {s:?} in a batch",
                    dir.display()
                );
                assert!(
                    !contains(&bytes, s),
                    "{}: {s:?} in a Parquet file",
                    dir.display()
                );
            }
            let (text, bytes) = everything(
                &fleet,
                &dir,
                Options {
                    include_sensitive: true,
                    ..Options::default()
                },
                binary,
            );
            for s in &secrets {
                assert!(
                    text.contains(s.as_str()),
                    "{}: {s:?} not in the batches with include_sensitive (binary {binary})",
                    dir.display()
                );
                assert!(
                    contains(&bytes, s),
                    "{}: {s:?} not in the files with include_sensitive",
                    dir.display()
                );
            }
        }
    }
}
