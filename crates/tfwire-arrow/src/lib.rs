//! OpenTofu and Terraform states and plans as typed Arrow tables: one table per resource
//! type with a column per schema attribute, exact numbers, sensitive and unknown values
//! masked; Parquet export partitioned Hive-style. See the crate README for the cty → Arrow
//! mapping.

#![forbid(unsafe_code)]

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod def;
mod error;
mod export;
mod input;
mod mapping;
mod marks;
mod rows;
mod schemas;
pub mod table;

pub use error::Error;
pub use export::{ExportReport, export, hive_escape};
pub use input::{Input, MAX_INPUT_BYTES, discover, memory_store};
pub use mapping::{DECIMAL_PRECISION, DECIMAL_SCALE};
pub use schemas::{
    ATTRIBUTES_COLUMNS, COMMON_COLUMNS, FleetSchemas, MAX_SCHEMA_FILE_BYTES, OUTPUTS_COLUMNS,
    attribute_column, table_name,
};
pub use table::{MAX_DOCUMENT_BYTES, Mode, Options, TableBuilder, TableDef, TableKind};
