//! What a table is: [`TableDef`], [`TableKind`], [`Mode`].

use arrow_schema::SchemaRef;

/// A resource mode: the `mode` of a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// A managed resource (`resource` blocks).
    Managed,
    /// A data source (`data` blocks).
    Data,
}

impl Mode {
    /// `managed` or `data`, as documents write it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Managed => "managed",
            Mode::Data => "data",
        }
    }
}

/// What a table holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// One row per resource instance object of every type: the common columns only.
    Resources,
    /// The long form, for types with no schema at hand: one row per leaf value.
    Attributes,
    /// One row per output.
    Outputs,
    /// One resource type's objects: the common columns, then one column per attribute and
    /// nested block type of its schema.
    Type {
        /// Managed resource or data source.
        mode: Mode,
        /// The resource type.
        type_name: String,
    },
}

/// A table: its name, what it holds and its Arrow schema. Re-created from its name by
/// [`FleetSchemas::table`](crate::FleetSchemas::table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDef {
    /// The table's name (`aws_s3_bucket`, `data_aws_ami`, `resources`, ...).
    pub name: String,
    /// What it holds.
    pub kind: TableKind,
    /// Its columns.
    pub schema: SchemaRef,
}
