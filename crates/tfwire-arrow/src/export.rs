//! [`export`]: every table as Parquet files, partitioned Hive-style, written through
//! `object_store`.

use crate::error::Error;
use crate::input::{Input, store_for};
use crate::schemas::FleetSchemas;
use crate::table::{Options, TableBuilder, TableKind};
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt as _, PutPayload};
use parquet::arrow::ArrowWriter;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What [`export`] wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportReport {
    /// The files written, relative to the output (`aws_s3_bucket/type=aws_s3_bucket/workspace=prod/part-0.parquet`).
    pub files: Vec<String>,
    /// Rows written, per table.
    pub rows: BTreeMap<String, usize>,
    /// Inputs read.
    pub inputs: usize,
    /// Inputs skipped as not a state or plan ([`Options::skip_unreadable`]).
    pub skipped: usize,
}

/// A partition value percent-encoded as Hive encodes one (`FileUtils.escapePathName`):
/// control characters, `"`, `#`, `%`, `'`, `*`, `/`, `:`, `=`, `?`, `\`, DEL, `{`, `[`, `]`
/// and `^` as `%XX` (upper-case hex); everything else as it is.
///
/// ```
/// assert_eq!(tfwire_arrow::hive_escape("team-a/prod"), "team-a%2Fprod");
/// assert_eq!(tfwire_arrow::hive_escape("a=b:c"), "a%3Db%3Ac");
/// ```
pub fn hive_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        let special = c < ' '
            || matches!(
                c,
                '"' | '#'
                    | '%'
                    | '\''
                    | '*'
                    | '/'
                    | ':'
                    | '='
                    | '?'
                    | '\\'
                    | '\u{7f}'
                    | '{'
                    | '['
                    | ']'
                    | '^'
            );
        if special {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The output store: a directory (created if missing) or an object-store URL.
fn output_store(out: &str) -> Result<(Arc<dyn ObjectStore>, StorePath), Error> {
    if out.contains("://") {
        return store_for(out);
    }
    std::fs::create_dir_all(out)
        .map_err(|e| Error::new(e.to_string()).with_source(out.to_owned()))?;
    let store = object_store::local::LocalFileSystem::new_with_prefix(out)
        .map_err(|e| Error::from(e).with_source(out.to_owned()))?;
    Ok((Arc::new(store), StorePath::default()))
}

/// Writes every table of `schemas` for `inputs` as Parquet under `out` (a directory, or a
/// `file://` / `memory://` URL): `OUT/<table>/type=<type>/workspace=<ws>/part-0.parquet` for
/// a type table, `OUT/resources/workspace=<ws>/part-0.parquet` (and so `attributes`,
/// `outputs`), partition values escaped as Hive does ([`hive_escape`]). A table with no
/// row in a workspace has no file there. Sensitive values are null unless
/// [`Options::include_sensitive`].
///
/// # Errors
///
/// An input that cannot be read or decoded (unless skipped), a file that cannot be
/// written.
pub async fn export(
    inputs: &[Input],
    schemas: Arc<FleetSchemas>,
    out: &str,
    options: Options,
) -> Result<ExportReport, Error> {
    let (store, root) = output_store(out)?;
    let mut report = ExportReport::default();
    let mut by_workspace: BTreeMap<&str, Vec<&Input>> = BTreeMap::new();
    for i in inputs {
        by_workspace
            .entry(i.workspace.as_str())
            .or_default()
            .push(i);
    }
    let tables = schemas.tables();
    for (workspace, inputs) in by_workspace {
        let mut builders: Vec<TableBuilder> = tables
            .iter()
            .map(|d| TableBuilder::new(schemas.clone(), d, None, options))
            .collect();
        for input in inputs {
            let bytes = input.read().await?;
            report.inputs += 1;
            let mut skipped = false;
            for b in &mut builders {
                let before = b.skipped();
                b.add(&input.source, &input.workspace, &bytes)?;
                skipped |= b.skipped() > before;
            }
            report.skipped += usize::from(skipped);
        }
        for (def, b) in tables.iter().zip(&mut builders) {
            if b.is_empty() {
                continue;
            }
            let batch = b.finish()?;
            let mut rel = format!("{}/", def.name);
            if let TableKind::Type { type_name, .. } = &def.kind {
                rel.push_str(&format!("type={}/", hive_escape(type_name)));
            }
            rel.push_str(&format!(
                "workspace={}/part-0.parquet",
                hive_escape(workspace)
            ));
            let mut buf = Vec::new();
            let mut writer = ArrowWriter::try_new(&mut buf, batch.schema(), None)?;
            writer.write(&batch)?;
            writer.close()?;
            let full = if root.as_ref().is_empty() {
                rel.clone()
            } else {
                format!("{}/{rel}", root.as_ref())
            };
            let path = StorePath::parse(&full)
                .map_err(|e| Error::new(e.to_string()).with_source(full.clone()))?;
            store
                .put(&path, PutPayload::from(buf))
                .await
                .map_err(|e| Error::from(e).with_source(full.clone()))?;
            *report.rows.entry(def.name.clone()).or_default() += batch.num_rows();
            report.files.push(rel);
        }
    }
    Ok(report)
}
