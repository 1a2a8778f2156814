//! [`FleetSchemas`]: every schema of a schema cache, merged per resource type, and the
//! tables they give.

use crate::def::{Mode, TableDef, TableKind};
use crate::error::Error;
use crate::mapping::{Col, list_of, map_of};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tfwire::Type;
use tfwire::schema::{ProgramCache, ProviderSchema, ProviderSchemas};
use tfwire_config::SchemaCache;

/// The most bytes one cached schema file may hold when [`FleetSchemas::open`] reads a
/// cache (the real AWS provider's schema is about 10 MiB).
pub const MAX_SCHEMA_FILE_BYTES: usize = 256 << 20;

/// The common columns, in order, on every type table and on `resources`.
pub const COMMON_COLUMNS: [&str; 19] = [
    "source",
    "workspace",
    "phase",
    "actions",
    "address",
    "module",
    "mode",
    "type",
    "name",
    "index_key",
    "deposed",
    "provider",
    "schema_version",
    "identity",
    "serial",
    "lineage",
    "sensitive_paths",
    "unknown_paths",
    "inexact_numbers",
];

/// The columns of `attributes`, the long-form table.
pub const ATTRIBUTES_COLUMNS: [&str; 8] = [
    "source",
    "workspace",
    "address",
    "phase",
    "path",
    "value",
    "sensitive",
    "unknown",
];

/// The columns of `outputs`.
pub const OUTPUTS_COLUMNS: [&str; 8] = [
    "source",
    "workspace",
    "phase",
    "name",
    "value",
    "type",
    "sensitive",
    "unknown",
];

/// Provider addresses and the versions chosen for them.
type Versions = Vec<(String, String)>;

/// One column of a type table after the common ones: a schema attribute or nested block
/// type.
#[derive(Clone, Debug)]
pub(crate) struct AttrCol {
    pub(crate) name: String,
    pub(crate) col: Col,
    /// The cty type values of this attribute are decoded with.
    pub(crate) ty: Type,
    /// The schema marks the attribute sensitive.
    pub(crate) sensitive: bool,
}

/// A resource type's table.
#[derive(Clone, Debug)]
pub(crate) struct TypeTable {
    pub(crate) name: String,
    pub(crate) mode: Mode,
    pub(crate) type_name: String,
    pub(crate) provider: String,
    pub(crate) attrs: Vec<AttrCol>,
    pub(crate) schema: SchemaRef,
}

/// Every schema of a schema cache, merged per resource type: a type's table has the union
/// of its attributes and nested block types over every cached version of its provider (an
/// attribute in several versions has the newest version's type; the newest version's
/// order first, then what only older versions have, newest first).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = std::env::temp_dir().join(format!("tfwire-arrow-doc-schemas-{}", std::process::id()));
/// let cache = tfwire_config::SchemaCache::new(&dir, 1 << 20);
/// cache.add(br#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":
///   {"resource_schemas":{"aws_s3_bucket":{"version":0,"block":{"attributes":{
///     "bucket":{"type":"string","optional":true},"acl":{"type":"string","optional":true}}}}}}}}"#,
///   |_| Some("5.0.0".to_owned()))?;
/// let fleet = tfwire_arrow::FleetSchemas::load(&cache)?;
/// let def = fleet.table("aws_s3_bucket").unwrap();
/// let names: Vec<&str> = def.schema.fields().iter().map(|f| f.name().as_str()).collect();
/// assert_eq!(&names[names.len() - 2..], ["acl", "bucket"]);
/// assert!(fleet.table("resources").is_some());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct FleetSchemas {
    dir: PathBuf,
    types: Vec<TypeTable>,
    /// Provider address → (version, schema), newest first.
    providers: BTreeMap<String, Vec<(String, Arc<ProviderSchema>)>>,
    /// Compiled schemas for binary plans, by the versions chosen.
    plan_caches: Mutex<BTreeMap<Versions, Arc<ProgramCache>>>,
}

impl FleetSchemas {
    /// Loads every schema of `cache` (every version of every provider).
    ///
    /// # Errors
    ///
    /// A cached file that cannot be read or is not a schema document; two resource types
    /// (of two providers, or a managed type and a data source `data_<type>`) whose tables
    /// would have one name (the error names both); a type named as a fixed table.
    pub fn load(cache: &SchemaCache) -> Result<FleetSchemas, Error> {
        let mut providers: BTreeMap<String, Vec<(String, Arc<ProviderSchema>)>> = BTreeMap::new();
        for entry in cache.entries()? {
            let mut doc: ProviderSchemas = cache
                .load_entry(&entry)
                .map_err(|e| Error::from(e).with_source(entry.path.display().to_string()))?;
            let address = entry.address.to_string();
            let Some(key) = doc.provider_key(&address).map(str::to_owned) else {
                return Err(
                    Error::new(format!("the file does not hold provider {address}"))
                        .with_source(entry.path.display().to_string()),
                );
            };
            if let Some(schema) = doc.providers.remove(&key) {
                providers
                    .entry(address)
                    .or_default()
                    .push((entry.version.clone(), Arc::new(schema)));
            }
        }
        for versions in providers.values_mut() {
            versions.sort_by(|a, b| compare_versions(&b.0, &a.0));
        }
        let mut by_name: BTreeMap<String, TypeTable> = BTreeMap::new();
        for (address, versions) in &providers {
            for mode in [Mode::Managed, Mode::Data] {
                let mut merged: BTreeMap<&str, Vec<AttrCol>> = BTreeMap::new();
                for (_, schema) in versions {
                    let map = match mode {
                        Mode::Managed => &schema.resources,
                        Mode::Data => &schema.data_sources,
                    };
                    for (type_name, s) in map {
                        let cols = merged.entry(type_name.as_str()).or_default();
                        for a in &s.block.attributes {
                            if !cols.iter().any(|c| c.name == a.name) {
                                cols.push(AttrCol {
                                    name: a.name.clone(),
                                    col: Col::of_attribute(a),
                                    ty: a.implied_type(),
                                    sensitive: a.sensitive,
                                });
                            }
                        }
                        for nb in &s.block.block_types {
                            if !cols.iter().any(|c| c.name == nb.type_name) {
                                cols.push(AttrCol {
                                    name: nb.type_name.clone(),
                                    col: Col::of_nested_block(nb),
                                    ty: nb.implied_type(),
                                    sensitive: false,
                                });
                            }
                        }
                    }
                }
                for (type_name, attrs) in merged {
                    let name = table_name(mode, type_name);
                    if let Some(other) = by_name.get(&name) {
                        return Err(Error::new(format!(
                            "two resource types have the table name {name:?}: {} {:?} of {} and {} {:?} of {address}",
                            other.mode.name(),
                            other.type_name,
                            other.provider,
                            mode.name(),
                            type_name
                        ))
                        .with_source(cache.dir().display().to_string()));
                    }
                    if ["resources", "attributes", "outputs"].contains(&name.as_str()) {
                        return Err(Error::new(format!(
                            "resource type {type_name:?} of {address} has the name of a fixed table"
                        ))
                        .with_source(cache.dir().display().to_string()));
                    }
                    let mut fields = common_fields();
                    for a in &attrs {
                        let column = attribute_column(&a.name);
                        if column != a.name && attrs.iter().any(|b| b.name == column) {
                            return Err(Error::new(format!(
                                "attribute {:?} of {} {type_name:?} ({address}) has the name of a common column, \
                                 and its column name {column:?} is another attribute's",
                                a.name,
                                mode.name()
                            ))
                            .with_source(cache.dir().display().to_string()));
                        }
                        fields.push(Field::new(column, a.col.data_type(), true));
                    }
                    by_name.insert(
                        name.clone(),
                        TypeTable {
                            name,
                            mode,
                            type_name: type_name.to_owned(),
                            provider: address.clone(),
                            attrs,
                            schema: Arc::new(Schema::new(fields)),
                        },
                    );
                }
            }
        }
        Ok(FleetSchemas {
            dir: cache.dir().to_owned(),
            types: by_name.into_values().collect(),
            providers,
            plan_caches: Mutex::new(BTreeMap::new()),
        })
    }

    /// [`FleetSchemas::load`] of the cache in `dir` (each file at most
    /// [`MAX_SCHEMA_FILE_BYTES`]): what an executor re-creates from the directory's name.
    ///
    /// # Errors
    ///
    /// As [`FleetSchemas::load`].
    pub fn open(dir: impl AsRef<Path>) -> Result<FleetSchemas, Error> {
        FleetSchemas::load(&SchemaCache::new(dir.as_ref(), MAX_SCHEMA_FILE_BYTES))
    }

    /// The schema cache's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every table: the type tables by name, then `resources`, `attributes` and `outputs`.
    pub fn tables(&self) -> Vec<TableDef> {
        let mut out: Vec<TableDef> = self.types.iter().map(TypeTable::def).collect();
        out.extend(
            ["resources", "attributes", "outputs"]
                .iter()
                .filter_map(|n| self.table(n)),
        );
        out
    }

    /// The table called `name`.
    pub fn table(&self, name: &str) -> Option<TableDef> {
        match name {
            "resources" => Some(TableDef {
                name: name.to_owned(),
                kind: TableKind::Resources,
                schema: Arc::new(Schema::new(common_fields())),
            }),
            "attributes" => Some(TableDef {
                name: name.to_owned(),
                kind: TableKind::Attributes,
                schema: attributes_schema(),
            }),
            "outputs" => Some(TableDef {
                name: name.to_owned(),
                kind: TableKind::Outputs,
                schema: outputs_schema(),
            }),
            _ => self.type_table(name).map(TypeTable::def),
        }
    }

    pub(crate) fn type_table(&self, name: &str) -> Option<&TypeTable> {
        self.types
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.types[i])
    }

    /// Whether some schema describes resources of this mode and type.
    pub(crate) fn has_type(&self, mode: Mode, type_name: &str) -> bool {
        self.type_table(&table_name(mode, type_name))
            .is_some_and(|t| t.mode == mode && t.type_name == type_name)
    }

    /// The compiled schemas to decode a binary plan file with: the version its lock file
    /// selects where that version is cached, else the newest cached version of each
    /// provider. One cache per choice of versions, shared by every plan that makes it (the
    /// programs compile once).
    pub(crate) fn for_plan(&self, lock: Option<&tfwire_config::LockFile>) -> Arc<ProgramCache> {
        let mut chosen: Vec<(&str, &str, &Arc<ProviderSchema>)> = Vec::new();
        for (address, versions) in &self.providers {
            let locked = lock
                .and_then(|l| l.provider(address))
                .and_then(|p| versions.iter().find(|(v, _)| *v == p.version));
            if let Some((v, s)) = locked.or_else(|| versions.first()) {
                chosen.push((address, v, s));
            }
        }
        let key: Versions = chosen
            .iter()
            .map(|(a, v, _)| ((*a).to_owned(), (*v).to_owned()))
            .collect();
        let mut caches = self
            .plan_caches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        caches
            .entry(key)
            .or_insert_with(|| {
                let mut out = ProviderSchemas::default();
                for (address, _, s) in chosen {
                    out.providers.insert(address.to_owned(), (**s).clone());
                }
                Arc::new(ProgramCache::new(out))
            })
            .clone()
    }
}

impl TypeTable {
    fn def(&self) -> TableDef {
        TableDef {
            name: self.name.clone(),
            kind: TableKind::Type {
                mode: self.mode,
                type_name: self.type_name.clone(),
            },
            schema: self.schema.clone(),
        }
    }
}

/// The column of a schema attribute (or nested block type) in a type table: its name,
/// or `attr_<name>` when the name is a common column's (`name`, `type`, `provider`, ...:
/// `aws_iam_role.name` is the column `attr_name`, beside the resource's `name`).
///
/// ```
/// assert_eq!(tfwire_arrow::attribute_column("acl"), "acl");
/// assert_eq!(tfwire_arrow::attribute_column("name"), "attr_name");
/// ```
pub fn attribute_column(name: &str) -> String {
    if COMMON_COLUMNS.contains(&name) {
        format!("attr_{name}")
    } else {
        name.to_owned()
    }
}

/// A type's table name: its type name, `data_<type>` for a data source.
pub fn table_name(mode: Mode, type_name: &str) -> String {
    match mode {
        Mode::Managed => type_name.to_owned(),
        Mode::Data => format!("data_{type_name}"),
    }
}

/// The common columns' fields.
pub(crate) fn common_fields() -> Vec<Field> {
    let utf8 = |n: &str| Field::new(n, DataType::Utf8, true);
    vec![
        Field::new("source", DataType::Utf8, false),
        Field::new("workspace", DataType::Utf8, false),
        Field::new("phase", DataType::Utf8, false),
        Field::new("actions", list_of(DataType::Utf8), true),
        Field::new("address", DataType::Utf8, false),
        utf8("module"),
        Field::new("mode", DataType::Utf8, false),
        Field::new("type", DataType::Utf8, false),
        Field::new("name", DataType::Utf8, false),
        utf8("index_key"),
        utf8("deposed"),
        utf8("provider"),
        Field::new("schema_version", DataType::UInt64, true),
        utf8("identity"),
        Field::new("serial", DataType::UInt64, true),
        utf8("lineage"),
        Field::new("sensitive_paths", list_of(DataType::Utf8), false),
        Field::new("unknown_paths", list_of(DataType::Utf8), false),
        Field::new("inexact_numbers", map_of(DataType::Utf8, false), false),
    ]
}

fn attributes_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("source", DataType::Utf8, false),
        Field::new("workspace", DataType::Utf8, false),
        Field::new("address", DataType::Utf8, false),
        Field::new("phase", DataType::Utf8, false),
        Field::new("path", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, true),
        Field::new("sensitive", DataType::Boolean, false),
        Field::new("unknown", DataType::Boolean, false),
    ]))
}

fn outputs_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("source", DataType::Utf8, false),
        Field::new("workspace", DataType::Utf8, false),
        Field::new("phase", DataType::Utf8, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, true),
        Field::new("type", DataType::Utf8, true),
        Field::new("sensitive", DataType::Boolean, false),
        Field::new("unknown", DataType::Boolean, false),
    ]))
}

/// Compares two provider versions: dot-separated parts, numerically where both are
/// numbers (`5.10.0` after `5.9.1`), a pre-release (`1.0.0-beta`) before its release.
pub(crate) fn compare_versions(a: &str, b: &str) -> core::cmp::Ordering {
    let split = |v: &str| -> (Vec<String>, Option<String>) {
        let v = v.split('+').next().unwrap_or(v);
        match v.split_once('-') {
            Some((core, pre)) => (
                core.split('.').map(str::to_owned).collect(),
                Some(pre.to_owned()),
            ),
            None => (v.split('.').map(str::to_owned).collect(), None),
        }
    };
    let (ac, ap) = split(a);
    let (bc, bp) = split(b);
    for (x, y) in ac.iter().zip(&bc) {
        let o = match (x.parse::<u64>(), y.parse::<u64>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => x.cmp(y),
        };
        if o.is_ne() {
            return o;
        }
    }
    ac.len().cmp(&bc.len()).then_with(|| match (ap, bp) {
        (None, None) => core::cmp::Ordering::Equal,
        (None, Some(_)) => core::cmp::Ordering::Greater,
        (Some(_), None) => core::cmp::Ordering::Less,
        (Some(x), Some(y)) => x.cmp(&y),
    })
}
