//! Discovery of inputs and the Parquet export: partition names, the files read back with
//! the parquet crate equal the batches, object-store URLs.

use crate::common::*;
use arrow_array::RecordBatch;
use bytes::Bytes;
use futures::executor::block_on;
use object_store::ObjectStoreExt as _;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::path::Path;
use std::sync::Arc;
use tfwire_arrow::{FleetSchemas, Options, TableBuilder, TableKind, discover, export};

/// A small fleet: two workspaces (one nested) and a file at the root, from real documents.
fn fleet_dir(dir: &Path) {
    let real = root().join("corpus/real-client-terraform");
    for (from, to) in [
        ("modules/terraform.tfstate", "team-a/prod/terraform.tfstate"),
        ("sensitive/state.json", "team-a/prod/show.json"),
        ("update/plan.json", "team-b/plan.json"),
        ("update/terraform.tfstate", "root.tfstate"),
        ("update/plan.tfplan", "team-b/plan.tfplan"),
    ] {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(real.join(from), to).unwrap();
    }
    std::fs::create_dir_all(dir.join(".terraform")).unwrap();
    std::fs::write(dir.join(".terraform/terraform.tfstate"), b"not a state").unwrap();
}

fn tfwire_fleet(tmp: &TempDir) -> Arc<FleetSchemas> {
    fleet(
        &root().join("corpus/real-client-terraform/sensitive/schemas.json"),
        tmp,
        "1.0.0",
    )
}

#[test]
fn discover_files_directories_globs_and_urls() {
    let tmp = TempDir::new("discover");
    fleet_dir(&tmp.0);
    let d = tmp.0.display().to_string();
    let found = |args: &[String]| -> Vec<(String, String)> {
        block_on(discover(args))
            .unwrap()
            .into_iter()
            .map(|i| {
                (
                    i.source.strip_prefix(&d).unwrap_or(&i.source).to_owned(),
                    i.workspace,
                )
            })
            .collect()
    };
    let s = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(
        found(std::slice::from_ref(&d)),
        [
            s("/root.tfstate", "default"),
            s("/team-a/prod/show.json", "team-a/prod"),
            s("/team-a/prod/terraform.tfstate", "team-a/prod"),
            s("/team-b/plan.json", "team-b"),
            s("/team-b/plan.tfplan", "team-b"),
        ]
    );
    assert_eq!(
        found(&[format!("{d}/team-a/prod/terraform.tfstate")]),
        [s("/team-a/prod/terraform.tfstate", "default")]
    );
    assert_eq!(
        found(&[format!("{d}/**/*.tfstate")]),
        [
            s("/root.tfstate", "default"),
            s("/team-a/prod/terraform.tfstate", "team-a/prod")
        ]
    );
    assert_eq!(
        found(&[format!("{d}/team-?/*.json")]),
        [s("/team-b/plan.json", "team-b")]
    );
    assert_eq!(
        found(&[format!("file://{d}/team-a")]),
        [
            (
                format!("file://{d}/team-a/prod/show.json"),
                "prod".to_owned()
            ),
            (
                format!("file://{d}/team-a/prod/terraform.tfstate"),
                "prod".to_owned()
            ),
        ]
    );
    // Where each input is read from, as plain data, locates the same document.
    for input in block_on(discover(&[d.clone(), format!("file://{d}/team-a")])).unwrap() {
        let again =
            tfwire_arrow::Input::locate(&input.location().unwrap(), &input.workspace).unwrap();
        assert_eq!(
            block_on(again.read()).unwrap(),
            block_on(input.read()).unwrap()
        );
    }
    for bad in [
        format!("{d}/nothing-here"),
        format!("{d}/*.nothing"),
        "s3://bucket/x".to_owned(),
    ] {
        assert!(
            block_on(discover(std::slice::from_ref(&bad))).is_err(),
            "{bad}"
        );
    }
    // A symbolic link to a directory outside the tree is not followed.
    let outside = TempDir::new("outside");
    std::fs::write(outside.0.join("x.tfstate"), b"{}").unwrap();
    std::os::unix::fs::symlink(&outside.0, tmp.0.join("link")).unwrap();
    assert_eq!(found(std::slice::from_ref(&d)).len(), 5);
}

fn read_parquet(bytes: Vec<u8>) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(Bytes::from(bytes))
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
}

#[test]
fn export_writes_hive_partitions_that_read_back_as_the_batches() {
    let tmp = TempDir::new("export-in");
    fleet_dir(&tmp.0);
    let cache = TempDir::new("export-cache");
    let fleet = tfwire_fleet(&cache);
    let out = TempDir::new("export-out");
    let inputs = block_on(discover(&[tmp.0.display().to_string()])).unwrap();
    let report = block_on(export(
        &inputs,
        fleet.clone(),
        &out.0.display().to_string(),
        Options::default(),
    ))
    .unwrap();
    assert_eq!(report.inputs, 5);
    assert!(
        report
            .files
            .contains(&"resources/workspace=team-a%2Fprod/part-0.parquet".to_owned()),
        "{:?}",
        report.files
    );
    assert!(
        report
            .files
            .contains(&"resources/workspace=default/part-0.parquet".to_owned())
    );
    assert!(
        report
            .files
            .contains(&"outputs/workspace=team-a%2Fprod/part-0.parquet".to_owned())
    );
    assert!(
        report
            .files
            .iter()
            .any(|f| f.starts_with("tfwire_shapes/type=tfwire_shapes/workspace=")),
        "{:?}",
        report.files
    );
    assert!(
        out.0
            .join("resources/workspace=team-a%2Fprod/part-0.parquet")
            .is_file()
    );
    // Every file read back equals the batch of its table and workspace.
    for file in &report.files {
        let table = file.split('/').next().unwrap();
        let ws = file
            .rsplit('/')
            .nth(1)
            .unwrap()
            .strip_prefix("workspace=")
            .unwrap()
            .replace("%2F", "/");
        let def = fleet.table(table).unwrap();
        let mut b = TableBuilder::new(fleet.clone(), &def, None, Options::default());
        for i in inputs.iter().filter(|i| i.workspace == ws) {
            b.add(&i.source, &i.workspace, &block_on(i.read()).unwrap())
                .unwrap();
        }
        let want = b.finish().unwrap();
        let got = read_parquet(std::fs::read(out.0.join(file)).unwrap());
        assert_eq!(got.num_rows(), want.num_rows(), "{file}");
        assert_eq!(got.columns(), want.columns(), "{file}");
        if let TableKind::Type { type_name, .. } = &def.kind {
            assert!(file.contains(&format!("type={type_name}/")));
        }
    }
    let rows: usize = report.rows.values().sum();
    assert!(rows > 20, "{rows}");
}

#[test]
fn export_to_and_from_the_memory_store() {
    let store = tfwire_arrow::memory_store();
    let state =
        std::fs::read(root().join("corpus/real-client-terraform/modules/terraform.tfstate"))
            .unwrap();
    block_on(store.put(&"in/ws1/a.tfstate".into(), state.clone().into())).unwrap();
    block_on(store.put(&"in/a.tfstate".into(), state.into())).unwrap();
    let inputs = block_on(discover(&["memory:///in".to_owned()])).unwrap();
    let got: Vec<(&str, &str)> = inputs
        .iter()
        .map(|i| (i.source.as_str(), i.workspace.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("memory:///in/a.tfstate", "default"),
            ("memory:///in/ws1/a.tfstate", "ws1")
        ]
    );
    let again = tfwire_arrow::Input::locate("memory:///in/ws1/a.tfstate", "ws1").unwrap();
    assert_eq!(
        block_on(again.read()).unwrap(),
        block_on(inputs[1].read()).unwrap()
    );
    let cache = TempDir::new("memory-cache");
    let fleet = tfwire_fleet(&cache);
    let report = block_on(export(&inputs, fleet, "memory:///out", Options::default())).unwrap();
    for f in &report.files {
        let bytes = block_on(async {
            store
                .get(&format!("out/{f}").as_str().into())
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap()
        });
        assert!(read_parquet(bytes.to_vec()).num_rows() > 0, "{f}");
    }
    assert!(
        report
            .files
            .contains(&"resources/workspace=ws1/part-0.parquet".to_owned())
    );
}

#[test]
fn unreadable_inputs_fail_or_are_counted() {
    let tmp = TempDir::new("unreadable");
    std::fs::write(tmp.0.join("README.md"), b"# not a state").unwrap();
    std::fs::copy(
        root().join("corpus/real-client-terraform/modules/terraform.tfstate"),
        tmp.0.join("s.tfstate"),
    )
    .unwrap();
    let cache = TempDir::new("unreadable-cache");
    let fleet = tfwire_fleet(&cache);
    let inputs = block_on(discover(&[tmp.0.display().to_string()])).unwrap();
    let out = TempDir::new("unreadable-out");
    let e = block_on(export(
        &inputs,
        fleet.clone(),
        &out.0.display().to_string(),
        Options::default(),
    ))
    .unwrap_err();
    assert!(e.source().unwrap().ends_with("README.md"), "{e}");
    let report = block_on(export(
        &inputs,
        fleet,
        &out.0.display().to_string(),
        Options {
            skip_unreadable: true,
            ..Options::default()
        },
    ))
    .unwrap();
    assert_eq!((report.inputs, report.skipped), (2, 1));
}
