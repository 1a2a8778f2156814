//! The `tfwire-fleet` binary: `query` in each format (exact numbers, nothing a terminal
//! acts on), its errors and exit codes, `export` read back by DataFusion.

use crate::common::{TempDir, root, runtime, small_fleet};
use crate::fleet::{answer, answers, queries};
use std::path::Path;
use std::process::{Command, Output};

fn fleet_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tfwire-fleet"))
}

fn query(schemas: &Path, format: &str, sql: &str, inputs: &[&Path], extra: &[&str]) -> Output {
    let mut c = fleet_bin();
    c.arg("query")
        .arg("--schemas")
        .arg(schemas)
        .args(["--format", format]);
    c.args(extra).arg(sql).args(inputs);
    c.output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A JSON cell as canonical text (numbers keep their text: tfwire-fleet writes them
/// canonical).
fn json_cell(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        other => Some(other.to_string()),
    }
}

#[test]
fn json_output_gives_the_reference_answers_exactly() {
    let (schemas, inputs) = small_fleet();
    let inputs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    let answers = answers();
    for (id, sql) in queries() {
        let out = stdout(&query(&schemas, "json", &sql, &inputs, &[]));
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let got: Vec<Vec<Option<String>>> = doc
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_object().unwrap().values().map(json_cell).collect())
            .collect();
        assert_eq!(got, answer(&answers, &id), "{id}");
    }
}

#[test]
fn csv_and_table_outputs_hold_the_same_cells() {
    let (schemas, inputs) = small_fleet();
    let inputs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    let answers = answers();
    let (id, sql) = queries()
        .into_iter()
        .find(|(id, _)| id == "record_sizes")
        .unwrap();
    let want = answer(&answers, &id);
    // Numbers beyond a double's precision, exact.
    assert!(
        want.iter()
            .any(|r| r[1].as_deref().is_some_and(|n| n.len() > 17))
    );

    let csv = stdout(&query(&schemas, "csv", &sql, &inputs, &[]));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("team,total_size,sized,inexact"));
    let got: Vec<Vec<Option<String>>> = lines
        .map(|l| {
            l.split(',')
                .map(|c| (!c.is_empty()).then(|| c.to_owned()))
                .collect()
        })
        .collect();
    assert_eq!(got, want);

    let table = stdout(&query(&schemas, "table", &sql, &inputs, &[]));
    let body: Vec<&str> = table.lines().collect();
    assert_eq!(body.len(), want.len() + 4, "{table}");
    assert!(body[1].starts_with("| team "), "{table}");
    for (line, row) in body[3..].iter().zip(&want) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let row: Vec<&str> = row.iter().map(|c| c.as_deref().unwrap_or("NULL")).collect();
        assert_eq!(cells, row, "{table}");
    }
    // Numbers to the right, text to the left.
    assert!(body[3].starts_with("| team-"));
    assert!(body[3].ends_with(" |"));
}

#[test]
fn no_control_character_of_a_document_reaches_the_output() {
    let dir = TempDir::new("escapes");
    let (schemas, _) = small_fleet();
    let evil = "evil\u{1b}[2J\nnext\r\u{9b}31m\u{202e}txt\u{7f}\t\"q\",x";
    let bucket = serde_json::to_string(evil).unwrap();
    let state = format!(
        r#"{{"version":4,"terraform_version":"1.9.0","serial":1,"lineage":"l","outputs":{{}},"resources":[
        {{"mode":"managed","type":"aws_s3_bucket","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
         "instances":[{{"schema_version":0,"attributes":{{"bucket":{bucket},"acl":"private"}},"sensitive_attributes":[]}}]}}]}}"#
    );
    let file = dir.path("terraform.tfstate");
    std::fs::write(&file, state).unwrap();
    let sql = "SELECT bucket, named_struct('b', bucket) AS nested FROM aws_s3_bucket";
    for format in ["table", "csv", "json"] {
        let out = query(&schemas, format, sql, &[&file], &[]);
        let text = stdout(&out);
        for c in text.chars() {
            assert!(
                c == '\n' || !tfwire_json::is_unsafe_char(c),
                "{format}: {c:?} reached the output: {text}"
            );
        }
        assert_eq!(
            text.matches('\n').count(),
            if format == "table" {
                5
            } else if format == "csv" {
                2
            } else {
                3
            },
            "{format}: {text}"
        );
        if format == "json" {
            let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(doc[0]["bucket"], evil);
            assert_eq!(doc[0]["nested"]["b"], evil);
        }
    }
}

fn failure(o: &Output) -> (i32, String) {
    assert!(!o.status.success());
    (
        o.status.code().unwrap(),
        String::from_utf8(o.stderr.clone()).unwrap(),
    )
}

#[test]
fn errors_say_what_went_wrong() {
    let (schemas, inputs) = small_fleet();
    let inputs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();

    let (code, err) = failure(&query(
        &schemas,
        "table",
        "SELEC address FROM resources",
        &inputs,
        &[],
    ));
    assert_eq!(code, 2);
    assert!(err.starts_with("error: SQL: "), "{err}");
    assert!(err.contains("SELEC"), "DataFusion's message: {err}");

    let (code, err) = failure(&query(
        &schemas,
        "table",
        "SELECT * FROM aws_s3_buckets",
        &inputs,
        &[],
    ));
    assert_eq!(code, 2);
    assert!(err.contains("no table named aws_s3_buckets"), "{err}");
    assert!(err.contains("aws_s3_bucket, "), "the tables it has: {err}");
    assert!(err.contains("outputs"), "{err}");

    let (code, err) = failure(&query(
        &schemas,
        "table",
        "SELECT nope FROM resources",
        &inputs,
        &[],
    ));
    assert_eq!(code, 2);
    assert!(err.contains("nope"), "{err}");

    let dir = TempDir::new("errors");
    std::fs::write(dir.path("README.md"), "# not a state\n").unwrap();
    std::fs::copy(
        root().join("corpus/fleet/states/team-ads/auth-staging/terraform.tfstate"),
        dir.path("terraform.tfstate"),
    )
    .unwrap();
    let (code, err) = failure(&query(
        &schemas,
        "csv",
        "SELECT count(*) AS n FROM resources",
        &[&dir.0],
        &[],
    ));
    assert_eq!(code, 1);
    assert!(err.contains("README.md"), "names the input: {err}");
    assert!(!err.contains("External error"), "{err}");

    let out = query(
        &schemas,
        "csv",
        "SELECT count(*) AS n FROM resources",
        &[&dir.0],
        &["--skip-unreadable"],
    );
    let text = stdout(&out);
    assert!(text.starts_with("n\n") && text != "n\n0\n", "{text}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("skipped 1 input(s)") && err.contains("README.md"),
        "{err}"
    );

    let (code, err) = failure(&query(
        &schemas,
        "csv",
        "SELECT 1",
        &[&dir.path("missing")],
        &[],
    ));
    assert_eq!(code, 1);
    assert!(err.contains("missing"), "{err}");

    let o = fleet_bin().args(["query", "SELECT 1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// Every cell of every Parquet file under `dir` (read back by DataFusion, Hive partitions
/// and all), as canonical text.
fn parquet_cells(dir: &Path) -> Vec<String> {
    runtime().block_on(async {
        let ctx = datafusion::prelude::SessionContext::new();
        let mut out = Vec::new();
        for table in [
            "outputs",
            "aws_s3_bucket",
            "tfwire_echo",
            "data_tfwire_echo",
            "tfwire_shapes",
            "resources",
        ] {
            let path = dir.join(table);
            if !path.exists() {
                continue;
            }
            let frame = ctx
                .read_parquet(path.display().to_string(), Default::default())
                .await
                .unwrap();
            let batches = frame.collect().await.unwrap();
            for row in tfwire_fleet::canonical_rows(&batches) {
                out.extend(row.into_iter().flatten());
            }
        }
        out
    })
}

#[test]
fn export_writes_hive_partitions_without_secrets_unless_asked() {
    let (schemas, inputs) = small_fleet();
    let out = TempDir::new("export");
    let o = fleet_bin()
        .arg("export")
        .arg("--schemas")
        .arg(&schemas)
        .arg("--out")
        .arg(out.path("fleet"))
        .args(&inputs)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("Parquet file(s)"), "{err}");
    assert!(out
        .path("fleet/aws_s3_bucket/type=aws_s3_bucket/workspace=team-ads%2Fauth-staging/part-0.parquet")
        .is_file());
    assert!(
        out.path("fleet/resources/workspace=team-ads%2Fauth-staging/part-0.parquet")
            .is_file()
    );
    let cells = parquet_cells(&out.path("fleet"));
    assert!(cells.iter().any(|c| c == "public-read"));

    // The secrets scenario: withheld, then written when asked.
    let scenario = root().join("corpus/real-client/sensitive");
    let cache = TempDir::new("export-cache");
    crate::common::cache_of(&scenario.join("schemas.json"), &cache.0);
    let secrets = ["s3cret", "hidden"];
    for include in [false, true] {
        let dest = out.path(if include { "with" } else { "without" });
        let mut c = fleet_bin();
        c.arg("export")
            .arg("--schemas")
            .arg(&cache.0)
            .arg("--out")
            .arg(&dest);
        if include {
            c.arg("--include-sensitive");
        }
        let o = c
            .arg(scenario.join("terraform.tfstate"))
            .arg(scenario.join("plan.json"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let cells = parquet_cells(&dest);
        assert!(!cells.is_empty());
        for secret in secrets {
            let found = cells.iter().any(|c| c.contains(secret));
            assert_eq!(found, include, "{secret} with include_sensitive={include}");
        }
    }
}
