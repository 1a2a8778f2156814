//! Helpers: the repository's paths, temporary directories, sessions over a fleet, queries
//! as canonical rows.

use datafusion::prelude::{SessionConfig, SessionContext};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tfwire_arrow::{FleetSchemas, Options};

#[path = "../../../tfwire-arrow/tests/harness/tempdir.rs"]
mod tempdir;
pub(crate) use tempdir::TempDir;

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

impl TempDir {
    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A session with every table of the schema cache `schemas` over `inputs` (arguments as
/// the binary takes them), `partitions` target partitions.
pub(crate) async fn session(
    schemas: &Path,
    inputs: &[PathBuf],
    partitions: usize,
    options: Options,
) -> (SessionContext, tfwire_fleet::Registration) {
    let fleet = Arc::new(FleetSchemas::open(schemas).unwrap());
    let args: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    let found = tfwire_arrow::discover(&args).await.unwrap();
    let config = SessionConfig::new()
        .with_target_partitions(partitions)
        .with_information_schema(true);
    let ctx = SessionContext::new_with_config(config);
    let registration = tfwire_fleet::register(&ctx, &found, fleet, options).unwrap();
    (ctx, registration)
}

/// The committed small fleet: its states and plans, its schema cache.
pub(crate) fn small_fleet() -> (PathBuf, Vec<PathBuf>) {
    let fleet = root().join("corpus/fleet");
    (
        fleet.join("schemas"),
        vec![fleet.join("states"), fleet.join("plans")],
    )
}

pub(crate) async fn rows(ctx: &SessionContext, sql: &str) -> Vec<Vec<Option<String>>> {
    let batches = ctx
        .sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    tfwire_fleet::canonical_rows(&batches)
}

/// A schema cache in `dir` holding `schemas.json` (every provider at version 1.0.0).
pub(crate) fn cache_of(schemas_json: &Path, dir: &Path) {
    let cache = tfwire_config::SchemaCache::new(dir, 256 << 20);
    let doc = std::fs::read(schemas_json).unwrap();
    cache.add(&doc, |_| Some("1.0.0".to_owned())).unwrap();
}

pub(crate) fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub(crate) fn s(v: &str) -> Option<String> {
    Some(v.to_owned())
}
