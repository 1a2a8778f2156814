//! Every real-client scenario's state and plan as batches, compared value by value with
//! the documents (expected values computed from the JSON documents and `schemas.json`).

use crate::common::*;
use arrow_array::RecordBatch;
use serde_json::Value as J;
use std::path::Path;
use std::sync::Arc;
use tfwire_arrow::{FleetSchemas, Options, TableKind};

/// Mode, type, row.
type Expected = (String, String, Row);

/// One expected row: the document's values with the paths the clients mark.
struct Row {
    phase: &'static str,
    address: String,
    actions: Option<Vec<String>>,
    value: J,
    sens: J,
    unk: J,
}

fn module_rows(m: &J, phase: &'static str, out: &mut Vec<Expected>) {
    for r in m["resources"].as_array().into_iter().flatten() {
        out.push((
            r["mode"].as_str().unwrap().into(),
            r["type"].as_str().unwrap().into(),
            Row {
                phase,
                address: r["address"].as_str().unwrap().into(),
                actions: None,
                value: r["values"].clone(),
                sens: r.get("sensitive_values").cloned().unwrap_or(J::Null),
                unk: J::Null,
            },
        ));
    }
    for c in m["child_modules"].as_array().into_iter().flatten() {
        module_rows(c, phase, out);
    }
}

fn change_rows(rcs: &J, phases: (&'static str, &'static str), out: &mut Vec<Expected>) {
    for rc in rcs.as_array().into_iter().flatten() {
        let c = &rc["change"];
        let actions: Vec<String> = c["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_owned())
            .collect();
        let key = |phase, value: &J, sens: &J, unk: &J| {
            (
                rc["mode"].as_str().unwrap().to_owned(),
                rc["type"].as_str().unwrap().to_owned(),
                Row {
                    phase,
                    address: rc["address"].as_str().unwrap().into(),
                    actions: Some(actions.clone()),
                    value: value.clone(),
                    sens: sens.clone(),
                    unk: unk.clone(),
                },
            )
        };
        if !c["before"].is_null() {
            out.push(key(
                phases.0,
                &c["before"],
                &c["before_sensitive"],
                &J::Null,
            ));
        }
        if !c["after"].is_null() || c["after_unknown"] == J::Bool(true) {
            out.push(key(
                phases.1,
                &c["after"],
                &c["after_sensitive"],
                &c["after_unknown"],
            ));
        }
    }
}

/// The expected rows of a JSON document (state.json, plan.json) in document order.
fn doc_rows(doc: &J) -> Vec<Expected> {
    let mut out = Vec::new();
    if doc.get("resource_changes").is_some() || doc.get("planned_values").is_some() {
        if let Some(root) = doc
            .get("prior_state")
            .and_then(|p| p["values"].get("root_module"))
        {
            module_rows(root, "prior", &mut out);
        }
        change_rows(&doc["resource_changes"], ("before", "after"), &mut out);
        change_rows(
            &doc["resource_drift"],
            ("drift_before", "drift_after"),
            &mut out,
        );
    } else if let Some(root) = doc.get("values").and_then(|v| v.get("root_module")) {
        module_rows(root, "state", &mut out);
    }
    out
}

/// A raw state's value with `dynamic` wrappers (`{"value","type"}`) unwrapped, as
/// `show -json` writes it.
fn unwrap_dynamic(v: &J, shape: &Shape) -> J {
    if v.is_null() {
        return J::Null;
    }
    match shape {
        Shape::Dynamic => v["value"].clone(),
        Shape::List(i) => J::Array(
            v.as_array()
                .unwrap()
                .iter()
                .map(|e| unwrap_dynamic(e, i))
                .collect(),
        ),
        Shape::Map(i) => J::Object(
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, e)| (k.clone(), unwrap_dynamic(e, i)))
                .collect(),
        ),
        Shape::Object(fs) => J::Object(
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, e)| {
                    let s = fs
                        .iter()
                        .find(|f| &f.0 == k)
                        .map(|f| f.1.clone())
                        .unwrap_or(Shape::String);
                    (k.clone(), unwrap_dynamic(e, &s))
                })
                .collect(),
        ),
        Shape::Tuple(ts) => J::Array(
            v.as_array()
                .unwrap()
                .iter()
                .zip(ts)
                .map(|(e, t)| unwrap_dynamic(e, t))
                .collect(),
        ),
        _ => v.clone(),
    }
}

fn raw_rows(doc: &J, fleet: &FleetSchemas, schemas: &J) -> Vec<Expected> {
    let _ = fleet;
    let mut out = Vec::new();
    for r in doc["resources"].as_array().into_iter().flatten() {
        let mode = r["mode"].as_str().unwrap();
        let ty = r["type"].as_str().unwrap();
        for inst in r["instances"].as_array().unwrap() {
            let module = r
                .get("module")
                .and_then(J::as_str)
                .map(|m| format!("{m}."))
                .unwrap_or_default();
            let prefix = if mode == "data" { "data." } else { "" };
            let key = match &inst["index_key"] {
                J::Null => String::new(),
                // The clients quote keys as HCL strings: `${` and `%{` doubled.
                J::String(s) => format!(
                    "[{}]",
                    serde_json::to_string(s)
                        .unwrap()
                        .replace("${", "$${")
                        .replace("%{", "%%{")
                ),
                n => format!("[{n}]"),
            };
            let address = format!("{module}{prefix}{ty}.{}{key}", r["name"].as_str().unwrap());
            let attrs = table_attrs(schemas, mode, ty);
            let value = match &attrs {
                Some(attrs) => {
                    let shape = Shape::Object(
                        attrs
                            .iter()
                            .map(|a| (a.name.clone(), a.shape.clone()))
                            .collect(),
                    );
                    unwrap_dynamic(&inst["attributes"], &shape)
                }
                None => inst["attributes"].clone(),
            };
            out.push((
                mode.into(),
                ty.into(),
                Row {
                    phase: "state",
                    address,
                    actions: None,
                    value,
                    sens: raw_marks(&inst["sensitive_attributes"]),
                    unk: J::Null,
                },
            ));
        }
    }
    out
}

fn table_attrs(schemas: &J, mode: &str, ty: &str) -> Option<Vec<Attr>> {
    let kind = if mode == "data" {
        "data_source_schemas"
    } else {
        "resource_schemas"
    };
    schemas["provider_schemas"]
        .as_object()?
        .values()
        .find_map(|p| p.get(kind).and_then(|k| k.get(ty)))
        .map(|s| block_attrs(&s["block"]))
}

fn batch_of(
    fleet: &Arc<FleetSchemas>,
    table: &str,
    source: &str,
    bytes: &[u8],
    options: Options,
) -> RecordBatch {
    built(fleet, table, None, options, (source, bytes))
}

/// Compares a type table's batch with the expected rows of that type.
fn compare(
    batch: &RecordBatch,
    rows: &[&Row],
    attrs: &[Attr],
    options: Options,
    what: &str,
) -> usize {
    assert_eq!(batch.num_rows(), rows.len(), "{what}: row count");
    let mut cells = 0;
    for (i, row) in rows.iter().enumerate() {
        let at = format!("{what} row {i} ({} {})", row.address, row.phase);
        assert_eq!(
            str_cell(batch, "address", i).as_deref(),
            Some(row.address.as_str()),
            "{at}"
        );
        assert_eq!(
            str_cell(batch, "phase", i).as_deref(),
            Some(row.phase),
            "{at}"
        );
        assert_eq!(
            strings(batch.column_by_name("actions").unwrap(), i),
            row.actions,
            "{at}"
        );
        let mut outcome = Outcome::default();
        for a in attrs {
            let sens = if a.sensitive {
                J::Bool(true)
            } else {
                row.sens
                    .get(&a.name)
                    .cloned()
                    .unwrap_or(if row.sens == J::Bool(true) {
                        J::Bool(true)
                    } else {
                        J::Null
                    })
            };
            let unk = row
                .unk
                .get(&a.name)
                .cloned()
                .unwrap_or(if row.unk == J::Bool(true) {
                    J::Bool(true)
                } else {
                    J::Null
                });
            let v = row.value.get(&a.name).cloned().unwrap_or(J::Null);
            let want = expected(
                &v,
                &a.shape,
                &a.nested,
                &sens,
                &unk,
                options.include_sensitive,
                &format!(".{}", a.name),
                &mut outcome,
            );
            let got = cell(
                batch
                    .column_by_name(&tfwire_arrow::attribute_column(&a.name))
                    .unwrap(),
                i,
                &a.shape,
            );
            assert_eq!(got, want, "{at}: attribute {}", a.name);
            cells += 1;
        }
        let mut got_s = strings(batch.column_by_name("sensitive_paths").unwrap(), i).unwrap();
        let mut got_u = strings(batch.column_by_name("unknown_paths").unwrap(), i).unwrap();
        let mut got_x = string_map(batch.column_by_name("inexact_numbers").unwrap(), i);
        for v in [
            &mut got_s,
            &mut got_u,
            &mut outcome.sensitive,
            &mut outcome.unknown,
        ] {
            v.sort();
        }
        got_x.sort();
        outcome.inexact.sort();
        assert_eq!(got_s, outcome.sensitive, "{at}: sensitive_paths");
        assert_eq!(got_u, outcome.unknown, "{at}: unknown_paths");
        assert_eq!(got_x, outcome.inexact, "{at}: inexact_numbers");
    }
    cells
}

fn scenarios() -> Vec<std::path::PathBuf> {
    let filter = std::env::var("TFWIRE_TEST").unwrap_or_default();
    let mut out = Vec::new();
    for corpus in ["corpus/real-client", "corpus/real-client-terraform"] {
        let mut dirs: Vec<_> = std::fs::read_dir(root().join(corpus))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("schemas.json").is_file())
            .filter(|p| p.display().to_string().contains(&filter))
            .collect();
        dirs.sort();
        out.extend(dirs);
    }
    out
}

fn check_scenario(dir: &Path, options: Options) -> usize {
    let tmp = TempDir::new("corpus");
    let fleet = fleet(&dir.join("schemas.json"), &tmp, "1.0.0");
    let schemas = read_json(&dir.join("schemas.json"));
    let mut cells = 0;
    let mut docs: Vec<(&str, Vec<Expected>)> = Vec::new();
    for name in ["state.json", "plan.json"] {
        let p = dir.join(name);
        if p.is_file() {
            docs.push((name, doc_rows(&read_json(&p))));
        }
    }
    if dir.join("terraform.tfstate").is_file() {
        docs.push((
            "terraform.tfstate",
            raw_rows(&read_json(&dir.join("terraform.tfstate")), &fleet, &schemas),
        ));
    }
    for (name, rows) in &docs {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let what = format!("{}/{name}", dir.display());
        // `resources`: one row per object, in document order.
        let res = batch_of(&fleet, "resources", name, &bytes, options);
        assert_eq!(res.num_rows(), rows.len(), "{what}: resources");
        for (i, (_, _, r)) in rows.iter().enumerate() {
            assert_eq!(
                str_cell(&res, "address", i).as_deref(),
                Some(r.address.as_str()),
                "{what}: resources row {i}"
            );
            assert_eq!(
                str_cell(&res, "phase", i).as_deref(),
                Some(r.phase),
                "{what}: resources row {i}"
            );
        }
        // The markers' paths in `resources` are among those of the type tables' rows
        // (written alike: map keys as key steps).
        let mut typed_sensitive: Vec<(String, String, Vec<String>)> = Vec::new();
        for def in fleet.tables() {
            let TableKind::Type { mode, type_name } = &def.kind else {
                continue;
            };
            let want: Vec<&Row> = rows
                .iter()
                .filter(|(m, t, _)| m == mode.name() && t == type_name)
                .map(|(_, _, r)| r)
                .collect();
            let batch = batch_of(&fleet, &def.name, name, &bytes, options);
            let attrs = table_attrs(&schemas, mode.name(), type_name).unwrap();
            cells += compare(
                &batch,
                &want,
                &attrs,
                options,
                &format!("{what} {}", def.name),
            );
            for i in 0..batch.num_rows() {
                typed_sensitive.push((
                    str_cell(&batch, "address", i).unwrap(),
                    str_cell(&batch, "phase", i).unwrap(),
                    // A value both sensitive and unknown is listed as unknown.
                    [
                        strings(batch.column_by_name("sensitive_paths").unwrap(), i).unwrap(),
                        strings(batch.column_by_name("unknown_paths").unwrap(), i).unwrap(),
                    ]
                    .concat(),
                ));
            }
        }
        for i in 0..res.num_rows() {
            let (a, p) = (
                str_cell(&res, "address", i).unwrap(),
                str_cell(&res, "phase", i).unwrap(),
            );
            let paths = strings(res.column_by_name("sensitive_paths").unwrap(), i).unwrap();
            let typed = typed_sensitive
                .iter()
                .find(|(ta, tp, _)| *ta == a && *tp == p);
            for path in &paths {
                let typed = &typed
                    .unwrap_or_else(|| panic!("{what}: {a} {p} in no type table"))
                    .2;
                // A typed path covers what is below it (a `dynamic` cell is null whole).
                let covered = typed.iter().any(|t| {
                    path == t
                        || (path.starts_with(t.as_str())
                            && matches!(path.as_bytes()[t.len()], b'.' | b'['))
                });
                assert!(covered, "{what}: {a} {p}: {path} not among {typed:?}");
            }
        }
    }
    // Outputs: every output of every document, its value unless sensitive or unknown.
    for name in ["state.json", "plan.json", "terraform.tfstate"] {
        let p = dir.join(name);
        if !p.is_file() {
            continue;
        }
        let doc = read_json(&p);
        let mut want: Vec<(&str, String, Option<J>, bool)> = Vec::new();
        let values = |phase, outs: &J, want: &mut Vec<(&str, String, Option<J>, bool)>| {
            for (k, o) in outs.as_object().into_iter().flatten() {
                let sensitive = o["sensitive"] == J::Bool(true);
                let v = (!sensitive || options.include_sensitive).then(|| o["value"].clone());
                want.push((phase, k.clone(), v, sensitive));
            }
        };
        if name == "terraform.tfstate" {
            values("state", &doc["outputs"], &mut want);
        } else if name == "state.json" {
            values("state", &doc["values"]["outputs"], &mut want);
        } else {
            values("prior", &doc["prior_state"]["values"]["outputs"], &mut want);
            for (k, oc) in doc["output_changes"].as_object().into_iter().flatten() {
                let c = oc;
                for (phase, v, s, u) in [
                    ("before", "before", "before_sensitive", "-"),
                    ("after", "after", "after_sensitive", "after_unknown"),
                ] {
                    let unknown = marked(c.get(u).unwrap_or(&J::Null));
                    if c[v].is_null() && !unknown {
                        continue;
                    }
                    let sensitive = marked(&c[s]);
                    let value = (!unknown && (!sensitive || options.include_sensitive))
                        .then(|| c[v].clone());
                    want.push((phase, k.clone(), value, sensitive));
                }
            }
        }
        let bytes = std::fs::read(&p).unwrap();
        let got = batch_of(&fleet, "outputs", name, &bytes, options);
        assert_eq!(
            got.num_rows(),
            want.len(),
            "{}/{name}: outputs",
            dir.display()
        );
        let sensitive = got.column_by_name("sensitive").unwrap();
        for (i, (phase, k, v, s)) in want.iter().enumerate() {
            let at = format!("{}/{name}: output {k} ({phase})", dir.display());
            assert_eq!(str_cell(&got, "phase", i).as_deref(), Some(*phase), "{at}");
            assert_eq!(
                str_cell(&got, "name", i).as_deref(),
                Some(k.as_str()),
                "{at}"
            );
            let value = str_cell(&got, "value", i).map(|t| serde_json::from_str::<J>(&t).unwrap());
            assert_eq!(
                value.map(numbers_as_text),
                v.clone().map(numbers_as_text),
                "{at}"
            );
            assert_eq!(
                arrow_array::cast::AsArray::as_boolean(sensitive).value(i),
                *s,
                "{at}"
            );
        }
    }
    // The binary plan gives the batches plan.json gives.
    if dir.join("plan.tfplan").is_file() && dir.join("plan.json").is_file() {
        let bin = std::fs::read(dir.join("plan.tfplan")).unwrap();
        let json = std::fs::read(dir.join("plan.json")).unwrap();
        for def in fleet.tables() {
            let a = batch_of(&fleet, &def.name, "x", &bin, options);
            let b = batch_of(&fleet, &def.name, "x", &json, options);
            assert_eq!(
                a,
                b,
                "{}: plan.tfplan and plan.json, table {}",
                dir.display(),
                def.name
            );
        }
    }
    cells
}

#[test]
fn real_client_documents_become_their_values() {
    let mut cells = 0;
    let mut n = 0;
    for dir in scenarios() {
        cells += check_scenario(&dir, Options::default());
        n += 1;
    }
    assert!(n >= 60, "{n} scenarios");
    assert!(cells > 1000, "{cells} cells compared");
}

#[test]
fn real_client_documents_with_sensitive_values_included() {
    for dir in scenarios().into_iter().filter(|d| d.ends_with("sensitive")) {
        check_scenario(
            &dir,
            Options {
                include_sensitive: true,
                ..Options::default()
            },
        );
    }
}
