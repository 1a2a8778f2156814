//! SQL over every real client's raw state (`corpus/real-client*/*/terraform.tfstate`), each
//! answer computed here from the client's own `show -json` document of that state
//! (`state.json`): the resource instances, every string and bool attribute of every type
//! table (withheld when sensitive, shown with `--include-sensitive`), the outputs.

use crate::common::{TempDir, cache_of, read_json, root, rows, runtime, session};
use serde_json::Value as J;
use std::path::{Path, PathBuf};
use tfwire_arrow::{FleetSchemas, Mode, Options};

fn scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for corpus in ["corpus/real-client", "corpus/real-client-terraform"] {
        for e in std::fs::read_dir(root().join(corpus)).unwrap() {
            let dir = e.unwrap().path();
            if ["terraform.tfstate", "state.json", "schemas.json"]
                .iter()
                .all(|f| dir.join(f).is_file())
            {
                out.push(dir);
            }
        }
    }
    out.sort();
    out
}

/// Every resource instance object of a `show -json` module, recursively.
fn objects<'a>(module: &'a J, out: &mut Vec<&'a J>) {
    for r in module["resources"].as_array().into_iter().flatten() {
        out.push(r);
    }
    for m in module["child_modules"].as_array().into_iter().flatten() {
        objects(m, out);
    }
}

/// The string and bool attributes of a resource type's schema, with whether the schema
/// marks them sensitive.
fn plain_attrs(schemas: &J, mode: &str, ty: &str) -> Vec<(String, bool)> {
    let kind = if mode == "data" {
        "data_source_schemas"
    } else {
        "resource_schemas"
    };
    for p in schemas["provider_schemas"].as_object().unwrap().values() {
        if let Some(attrs) = p[kind][ty]["block"]["attributes"].as_object() {
            return attrs
                .iter()
                .filter(|(_, a)| a["type"] == "string" || a["type"] == "bool")
                .map(|(n, a)| (n.clone(), a["sensitive"] == true))
                .collect();
        }
    }
    Vec::new()
}

fn text(v: &J) -> Option<String> {
    match v {
        J::Null => None,
        J::String(s) => Some(s.clone()),
        J::Bool(b) => Some(b.to_string()),
        other => Some(other.to_string()),
    }
}

fn check(dir: &Path, options: Options) -> usize {
    let tmp = TempDir::new("real-client");
    cache_of(&dir.join("schemas.json"), &tmp.0);
    let fleet = FleetSchemas::open(&tmp.0).unwrap();
    let doc = read_json(&dir.join("state.json"));
    let schemas = read_json(&dir.join("schemas.json"));
    let mut docs = Vec::new();
    objects(&doc["values"]["root_module"], &mut docs);
    let name = dir.display().to_string();
    let mut cells = 0;
    runtime().block_on(async {
        let (ctx, _) = session(&tmp.0, &[dir.join("terraform.tfstate")], 2, options).await;

        // The instances.
        let got = rows(
            &ctx,
            "SELECT address, deposed, workspace FROM resources WHERE phase = 'state' ORDER BY address, deposed",
        )
        .await;
        let mut want: Vec<Vec<Option<String>>> = docs
            .iter()
            .map(|r| {
                vec![
                    text(&r["address"]),
                    r.get("deposed_key").and_then(text),
                    Some("default".to_owned()),
                ]
            })
            .collect();
        want.sort();
        assert_eq!(got, want, "{name}: resources");
        cells += got.len();

        // The string and bool attributes of every type with a table.
        let mut types: Vec<(String, String)> = docs
            .iter()
            .map(|r| (r["mode"].as_str().unwrap().to_owned(), r["type"].as_str().unwrap().to_owned()))
            .collect();
        types.sort();
        types.dedup();
        for (mode, ty) in types {
            let m = if mode == "data" { Mode::Data } else { Mode::Managed };
            let table = tfwire_arrow::table_name(m, &ty);
            let Some(def) = fleet.table(&table) else {
                continue;
            };
            let attrs: Vec<(String, bool)> = plain_attrs(&schemas, &mode, &ty)
                .into_iter()
                .filter(|(a, _)| def.schema.index_of(&tfwire_arrow::attribute_column(a)).is_ok())
                .collect();
            if attrs.is_empty() {
                continue;
            }
            let columns: Vec<String> = attrs
                .iter()
                .map(|(a, _)| format!("\"{}\"", tfwire_arrow::attribute_column(a)))
                .collect();
            let sql = format!(
                "SELECT address, {} FROM \"{table}\" WHERE phase = 'state' AND deposed IS NULL ORDER BY address",
                columns.join(", ")
            );
            let got = rows(&ctx, &sql).await;
            let mut want: Vec<Vec<Option<String>>> = docs
                .iter()
                .filter(|r| r["mode"] == mode.as_str() && r["type"] == ty.as_str())
                .filter(|r| r.get("deposed_key").is_none())
                .map(|r| {
                    let mut row = vec![text(&r["address"])];
                    for (a, schema_sensitive) in &attrs {
                        let marked = r["sensitive_values"][a] == true || *schema_sensitive;
                        row.push(if marked && !options.include_sensitive {
                            None
                        } else {
                            text(&r["values"][a])
                        });
                    }
                    row
                })
                .collect();
            want.sort();
            assert_eq!(got, want, "{name}: {sql}");
            cells += got.len() * columns.len();
        }

        // The outputs.
        let got = rows(
            &ctx,
            "SELECT name, value, sensitive FROM outputs WHERE phase = 'state' ORDER BY name",
        )
        .await;
        let outputs = doc["values"]["outputs"].as_object().cloned().unwrap_or_default();
        assert_eq!(got.len(), outputs.len(), "{name}: outputs");
        for (row, (n, o)) in got.iter().zip(outputs.iter()) {
            assert_eq!(row[0].as_deref(), Some(n.as_str()), "{name}");
            let sensitive = o["sensitive"] == true;
            assert_eq!(row[2].as_deref(), Some(if sensitive { "true" } else { "false" }));
            if sensitive && !options.include_sensitive {
                assert_eq!(row[1], None, "{name}: output {n} withheld");
            } else {
                let value: J = serde_json::from_str(row[1].as_deref().unwrap()).unwrap();
                assert_eq!(value, o["value"], "{name}: output {n}");
            }
        }
        cells += got.len();
    });
    cells
}

#[test]
fn real_client_states_answer_as_their_documents() {
    let dirs = scenarios();
    assert!(dirs.len() >= 50, "{} scenarios", dirs.len());
    let cells: usize = dirs.iter().map(|d| check(d, Options::default())).sum();
    assert!(cells > 500, "{cells} cells compared");
}

#[test]
fn real_client_states_with_sensitive_values_included() {
    let options = Options {
        include_sensitive: true,
        ..Options::default()
    };
    let dirs: Vec<PathBuf> = scenarios()
        .into_iter()
        .filter(|d| d.ends_with("sensitive") || d.ends_with("outputs"))
        .collect();
    assert_eq!(dirs.len(), 4);
    for d in &dirs {
        check(d, options);
    }
}
