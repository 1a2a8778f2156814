//! The fleet's tables as DataFusion tables: [`FleetTable`] (a `TableProvider`), its scan
//! [`FleetScan`] (an `ExecutionPlan`), and [`register`], which registers every table of a
//! schema cache in a `SessionContext`.
//!
//! Nothing is read when a table is registered or planned: each partition of a scan reads
//! its inputs when it is executed, one at a time, and decodes only the projected columns
//! through [`tfwire_arrow::TableBuilder`].

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::ScalarValue;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result, TableReference};
use datafusion::datasource::TableType;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::{Expr, Operator, TableProviderFilterPushDown};
use datafusion::physical_expr::{EquivalenceProperties, PhysicalExpr};
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::metrics::{
    Count, ExecutionPlanMetricsSet, MetricBuilder, MetricsSet,
};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PlanProperties,
};
use datafusion::prelude::SessionContext;
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tfwire_arrow::{FleetSchemas, Input, Options, TableBuilder, TableDef};

/// The inputs a fleet's scans skipped as no state or plan at all (with
/// [`Options::skip_unreadable`]), shared by every table of one [`register`] call so that an
/// input read by several tables counts once.
#[derive(Clone, Debug, Default)]
pub struct Skipped(Arc<Mutex<BTreeSet<String>>>);

impl Skipped {
    /// The sources skipped so far, sorted.
    pub fn sources(&self) -> Vec<String> {
        self.lock().iter().cloned().collect()
    }

    /// How many distinct inputs were skipped so far.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no input was skipped.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    fn add(&self, source: &str) {
        self.lock().insert(source.to_owned());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        // A poisoned set still holds every source added before the panic.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One table of a fleet (a resource type's table, `resources`, `attributes` or `outputs`)
/// over a list of inputs, as a DataFusion [`TableProvider`].
///
/// It is plain data: the inputs (each a source and its workspace), the schema cache
/// (loaded, with its directory), the table's name and the [`Options`];
/// [`FleetTable::open`] re-creates one from those as strings (what a distributed executor
/// does). Scans decode lazily: nothing is read before a partition is executed, and only
/// the projected columns are decoded.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = std::env::temp_dir().join(format!("tfwire-fleet-doc-table-{}", std::process::id()));
/// # let cache = dir.join("schemas");
/// # std::fs::create_dir_all(cache.join("registry.terraform.io/hashicorp/aws"))?;
/// # std::fs::write(cache.join("registry.terraform.io/hashicorp/aws/5.0.0.json"), br#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":
/// #   {"resource_schemas":{"aws_s3_bucket":{"version":0,"block":{"attributes":{
/// #     "bucket":{"type":"string","optional":true},"acl":{"type":"string","optional":true}}}}}}}}"#)?;
/// # std::fs::create_dir_all(dir.join("states/prod"))?;
/// # std::fs::write(dir.join("states/prod/terraform.tfstate"), br#"{"version":4,"serial":1,"lineage":"l","resources":[
/// #   {"mode":"managed","type":"aws_s3_bucket","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
/// #    "instances":[{"schema_version":0,"attributes":{"bucket":"logs","acl":"public-read"},"sensitive_attributes":[]}]}]}"#)?;
/// use datafusion::prelude::SessionContext;
/// use tfwire_fleet::provider::FleetTable;
///
/// let rt = tokio::runtime::Builder::new_current_thread().build()?;
/// rt.block_on(async {
///     let states = dir.join("states").display().to_string();
///     let inputs = tfwire_arrow::discover(&[states]).await?;
///     let sources: Vec<(String, String)> =
///         inputs.iter().map(|i| (i.source.clone(), i.workspace.clone())).collect();
///     // Plain data in, a table out: the directory of a schema cache and a table's name.
///     let table = FleetTable::open(&sources, &cache, "aws_s3_bucket", Default::default())?;
///     let ctx = SessionContext::new();
///     ctx.register_table("aws_s3_bucket", std::sync::Arc::new(table))?;
///     let batches = ctx.sql("SELECT workspace, acl FROM aws_s3_bucket").await?.collect().await?;
///     let rows = tfwire_fleet::canonical_rows(&batches);
///     assert_eq!(rows, [[Some("prod".to_owned()), Some("public-read".to_owned())]]);
///     Ok::<(), Box<dyn std::error::Error>>(())
/// })?;
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct FleetTable {
    inputs: Arc<[Input]>,
    schemas: Arc<FleetSchemas>,
    def: TableDef,
    options: Options,
    skipped: Skipped,
}

impl fmt::Debug for FleetTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetTable")
            .field("table", &self.def.name)
            .field("inputs", &self.inputs.len())
            .field("schemas", &self.schemas.dir())
            .field("options", &self.options)
            .finish()
    }
}

impl FleetTable {
    /// The table `def` (one of `schemas`' tables) over `inputs`.
    pub fn new(
        inputs: Arc<[Input]>,
        schemas: Arc<FleetSchemas>,
        def: TableDef,
        options: Options,
    ) -> FleetTable {
        FleetTable {
            inputs,
            schemas,
            def,
            options,
            skipped: Skipped::default(),
        }
    }

    /// The table called `table` of the schema cache in `schema_dir`, over the inputs
    /// `sources` (each a source, a path or URL as [`tfwire_arrow::discover`] found it, and
    /// its workspace): a table re-created from plain data.
    ///
    /// # Errors
    ///
    /// A schema cache that does not load, a table it does not have (the error lists the
    /// ones it has), a source URL of a scheme this build has no store for.
    pub fn open(
        sources: &[(String, String)],
        schema_dir: &Path,
        table: &str,
        options: Options,
    ) -> Result<FleetTable> {
        let schemas = Arc::new(FleetSchemas::open(schema_dir).map_err(external)?);
        let inputs = sources
            .iter()
            .map(|(s, w)| Input::locate(s, w))
            .collect::<Result<Vec<_>, _>>()
            .map_err(external)?;
        FleetTable::from_schemas(inputs.into(), schemas, table, options)
    }

    /// The table called `table` of `schemas` over `inputs`.
    ///
    /// # Errors
    ///
    /// A table `schemas` does not have: the error lists the ones it has.
    pub fn from_schemas(
        inputs: Arc<[Input]>,
        schemas: Arc<FleetSchemas>,
        table: &str,
        options: Options,
    ) -> Result<FleetTable> {
        let def = schemas
            .table(table)
            .ok_or_else(|| DataFusionError::Plan(missing_table(&schemas, table)))?;
        Ok(FleetTable::new(inputs, schemas, def, options))
    }

    /// The inputs.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The inputs as plain data: each one's source and workspace.
    pub fn sources(&self) -> Vec<(String, String)> {
        self.inputs
            .iter()
            .map(|i| (i.source.clone(), i.workspace.clone()))
            .collect()
    }

    /// The schema cache's directory.
    pub fn schema_dir(&self) -> PathBuf {
        self.schemas.dir().to_owned()
    }

    /// The schema cache, loaded.
    pub fn schemas(&self) -> &Arc<FleetSchemas> {
        &self.schemas
    }

    /// The table's name.
    pub fn table_name(&self) -> &str {
        &self.def.name
    }

    /// The table's definition.
    pub fn def(&self) -> &TableDef {
        &self.def
    }

    /// The options of its rows.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The inputs skipped as unreadable by this table's scans (and by the other tables of
    /// its [`register`] call).
    pub fn skipped(&self) -> &Skipped {
        &self.skipped
    }

    fn with_skipped(mut self, skipped: Skipped) -> FleetTable {
        self.skipped = skipped;
        self
    }

    /// The scan of this table with `projection` (indexes into its schema) over
    /// `partitions` partitions: the inputs dealt round-robin, so that every partition has
    /// work when there are at least as many inputs.
    pub fn scan_plan(
        &self,
        projection: Option<Vec<usize>>,
        partitions: usize,
        limit: Option<usize>,
    ) -> FleetScan {
        let n = partitions.clamp(1, self.inputs.len().max(1));
        let mut parts: Vec<Vec<Input>> = vec![Vec::new(); n];
        for (i, input) in self.inputs.iter().enumerate() {
            parts[i % n].push(input.clone());
        }
        FleetScan::new(self.clone(), projection, parts, limit)
    }
}

#[async_trait]
impl TableProvider for FleetTable {
    fn schema(&self) -> SchemaRef {
        self.def.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    /// Tests of `phase` against literals are used (inexactly: to refuse documents that
    /// cannot hold rows of those phases, see [`FleetScan::with_phases`]); the query still
    /// applies them.
    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        Ok(filters
            .iter()
            .map(|f| match phases_of(f) {
                Some(_) => TableProviderFilterPushDown::Inexact,
                None => TableProviderFilterPushDown::Unsupported,
            })
            .collect())
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let partitions = state.config().target_partitions();
        // The filters are ANDed: the phases all of them allow.
        let phases = filters
            .iter()
            .filter_map(phases_of)
            .reduce(|a, b| a.intersection(&b).cloned().collect());
        Ok(Arc::new(
            self.scan_plan(projection.cloned(), partitions, limit)
                .with_phases(phases.map(|p| p.into_iter().collect())),
        ))
    }
}

/// The phases a filter lets through when it tests the `phase` column against text
/// literals only: `phase = 'x'`, `phase IN ('x', ...)`, and `OR`s of those.
fn phases_of(e: &Expr) -> Option<BTreeSet<String>> {
    let text = |e: &Expr| match e {
        Expr::Literal(
            ScalarValue::Utf8(Some(s))
            | ScalarValue::Utf8View(Some(s))
            | ScalarValue::LargeUtf8(Some(s)),
            _,
        ) => Some(s.clone()),
        _ => None,
    };
    let is_phase = |e: &Expr| matches!(e, Expr::Column(c) if c.name == "phase");
    match e {
        Expr::BinaryExpr(b) if b.op == Operator::Eq => {
            let (column, literal) = if is_phase(&b.left) {
                (&b.left, &b.right)
            } else {
                (&b.right, &b.left)
            };
            is_phase(column)
                .then(|| text(literal))
                .flatten()
                .map(|s| BTreeSet::from([s]))
        }
        Expr::BinaryExpr(b) if b.op == Operator::Or => {
            let mut a = phases_of(&b.left)?;
            a.extend(phases_of(&b.right)?);
            Some(a)
        }
        Expr::InList(l) if !l.negated && is_phase(&l.expr) => l.list.iter().map(text).collect(),
        _ => None,
    }
}

/// The scan of a [`FleetTable`]: each partition reads its inputs in turn and emits the
/// projected columns of their rows, a batch every `batch_size` rows (the session's
/// setting) or at its end.
///
/// Plain data as the table: the table, the projection, each partition's inputs and the
/// row limit.
///
/// Its metrics (`EXPLAIN ANALYZE`, [`ExecutionPlan::metrics`]): `inputs_read`,
/// `inputs_refused` (read, but refused unread: the table's type or the member of the
/// phases the query filters on nowhere in their text), `bytes_read`, `decoded_values`
/// (attribute values decoded: a projection's effect shows here) and `output_rows`.
#[derive(Clone)]
pub struct FleetScan {
    table: FleetTable,
    projection: Option<Vec<usize>>,
    partitions: Vec<Vec<Input>>,
    limit: Option<usize>,
    phases: Option<Vec<String>>,
    schema: SchemaRef,
    properties: Arc<PlanProperties>,
    metrics: ExecutionPlanMetricsSet,
}

impl fmt::Debug for FleetScan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetScan")
            .field("table", &self.table.def.name)
            .field("projection", &self.projection)
            .field("partitions", &self.partitions.len())
            .field("limit", &self.limit)
            .field("phases", &self.phases)
            .finish()
    }
}

impl FleetScan {
    /// The scan of `table`'s `projection` (indexes into its schema; `None`: every column)
    /// with these partitions (each a list of inputs; at least one, empty or not), at most
    /// `limit` rows a partition when given.
    pub fn new(
        table: FleetTable,
        projection: Option<Vec<usize>>,
        mut partitions: Vec<Vec<Input>>,
        limit: Option<usize>,
    ) -> FleetScan {
        if partitions.is_empty() {
            partitions.push(Vec::new());
        }
        let schema = match &projection {
            Some(p) => Arc::new(
                table
                    .def
                    .schema
                    .project(p)
                    .unwrap_or_else(|_| (*table.def.schema).clone()),
            ),
            None => table.def.schema.clone(),
        };
        let properties = Arc::new(PlanProperties::new(
            EquivalenceProperties::new(schema.clone()),
            Partitioning::UnknownPartitioning(partitions.len()),
            EmissionType::Incremental,
            Boundedness::Bounded,
        ));
        FleetScan {
            table,
            projection,
            partitions,
            limit,
            phases: None,
            schema,
            properties,
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }

    /// The table scanned.
    pub fn table(&self) -> &FleetTable {
        &self.table
    }

    /// The projected columns (indexes into the table's schema), `None` for all.
    pub fn projection(&self) -> Option<&[usize]> {
        self.projection.as_deref()
    }

    /// Each partition's inputs.
    pub fn partitions(&self) -> &[Vec<Input>] {
        &self.partitions
    }

    /// The most rows a partition emits, when the query has a limit the scan may apply.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// The scan, told that the query wants only rows of `phases` (`None`: any): inputs
    /// that cannot hold any are refused unread
    /// ([`TableBuilder::with_phases`](tfwire_arrow::TableBuilder::with_phases)).
    pub fn with_phases(mut self, phases: Option<Vec<String>>) -> FleetScan {
        self.phases = phases;
        self
    }

    /// The phases the query wants, when it said.
    pub fn phases(&self) -> Option<&[String]> {
        self.phases.as_deref()
    }
}

impl DisplayAs for FleetScan {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inputs: usize = self.partitions.iter().map(Vec::len).sum();
        match t {
            DisplayFormatType::Default | DisplayFormatType::Verbose => {
                let columns: Vec<&str> = self
                    .schema
                    .fields()
                    .iter()
                    .map(|f| f.name().as_str())
                    .collect();
                write!(
                    f,
                    "FleetScan: table={}, columns=[{}], inputs={inputs}, partitions={}",
                    self.table.def.name,
                    columns.join(", "),
                    self.partitions.len()
                )?;
                if let Some(l) = self.limit {
                    write!(f, ", limit={l}")?;
                }
                if let Some(p) = &self.phases {
                    write!(f, ", phases=[{}]", p.join(", "))?;
                }
                Ok(())
            }
            DisplayFormatType::TreeRender => {
                writeln!(f, "table={}", self.table.def.name)?;
                write!(f, "inputs={inputs}")
            }
        }
    }
}

impl ExecutionPlan for FleetScan {
    fn name(&self) -> &str {
        "FleetScan"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if children.is_empty() {
            Ok(self)
        } else {
            Err(DataFusionError::Internal(
                "FleetScan has no children".to_owned(),
            ))
        }
    }

    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let inputs = self.partitions.get(partition).cloned().ok_or_else(|| {
            DataFusionError::Internal(format!(
                "FleetScan: partition {partition} of {}",
                self.partitions.len()
            ))
        })?;
        let mut builder = TableBuilder::new(
            self.table.schemas.clone(),
            &self.table.def,
            self.projection.clone(),
            self.table.options,
        );
        if let Some(phases) = &self.phases {
            builder = builder.with_phases(phases);
        }
        let state = PartitionState {
            inputs: inputs.into_iter(),
            builder,
            document: Vec::new(),
            batch_size: context.session_config().batch_size().max(1),
            remaining: self.limit,
            skipped: self.table.skipped.clone(),
            done: false,
            metrics: ScanMetrics {
                inputs: MetricBuilder::new(&self.metrics).counter("inputs_read", partition),
                refused: MetricBuilder::new(&self.metrics).counter("inputs_refused", partition),
                bytes: MetricBuilder::new(&self.metrics).counter("bytes_read", partition),
                decoded: MetricBuilder::new(&self.metrics).counter("decoded_values", partition),
                rows: MetricBuilder::new(&self.metrics).output_rows(partition),
            },
        };
        let stream = futures::stream::try_unfold(state, PartitionState::next_batch);
        Ok(Box::pin(RecordBatchStreamAdapter::new(
            self.schema.clone(),
            stream,
        )))
    }
}

/// One partition's progress: the inputs left, the builder with its rows so far.
struct PartitionState {
    inputs: std::vec::IntoIter<Input>,
    builder: TableBuilder,
    /// The buffer each input is read into and parsed in (its allocation reused).
    document: Vec<u8>,
    batch_size: usize,
    remaining: Option<usize>,
    skipped: Skipped,
    done: bool,
    metrics: ScanMetrics,
}

/// The counters of one partition.
struct ScanMetrics {
    inputs: Count,
    /// Inputs read but refused unread (their text cannot hold a row the scan wants).
    refused: Count,
    bytes: Count,
    decoded: Count,
    rows: Count,
}

impl PartitionState {
    /// The next batch: inputs are read and added until the builder holds `batch_size`
    /// rows or the inputs run out.
    async fn next_batch(mut self) -> Result<Option<(RecordBatch, PartitionState)>> {
        if self.done {
            return Ok(None);
        }
        while self.builder.len() < self.batch_size
            && self.remaining.is_none_or(|r| self.builder.len() < r)
        {
            let Some(input) = self.inputs.next() else {
                break;
            };
            input
                .read_padded(&mut self.document)
                .await
                .map_err(external)?;
            self.metrics.inputs.add(1);
            self.metrics.bytes.add(self.document.len());
            let (skipped, decoded, refused) = (
                self.builder.skipped(),
                self.builder.decoded_values(),
                self.builder.refused(),
            );
            let (source, workspace) = (&input.source, &input.workspace);
            // Parsed where it was read; what that parse refuses is read again and added
            // through the full parse, for its rows or its error.
            if !self
                .builder
                .add_in_place(source, workspace, &mut self.document)
                .map_err(external)?
            {
                let bytes = input.read().await.map_err(external)?;
                self.builder
                    .add(source, workspace, &bytes)
                    .map_err(external)?;
            }
            if self.builder.skipped() != skipped {
                self.skipped.add(&input.source);
            }
            self.metrics
                .refused
                .add(self.builder.refused().saturating_sub(refused));
            let decoded = self.builder.decoded_values().saturating_sub(decoded);
            self.metrics
                .decoded
                .add(usize::try_from(decoded).unwrap_or(usize::MAX));
        }
        if self.builder.is_empty() {
            return Ok(None);
        }
        let mut batch = self.builder.finish().map_err(external)?;
        if let Some(r) = &mut self.remaining {
            if batch.num_rows() >= *r {
                batch = batch.slice(0, *r);
                self.done = true;
            }
            *r -= batch.num_rows();
        }
        self.metrics.rows.add(batch.num_rows());
        Ok(Some((batch, self)))
    }
}

fn external(e: tfwire_arrow::Error) -> DataFusionError {
    DataFusionError::External(Box::new(e))
}

/// What [`register`] registered.
#[derive(Clone, Debug)]
pub struct Registration {
    /// The names of the tables registered, as [`FleetSchemas::tables`] orders them.
    pub tables: Vec<String>,
    /// The inputs skipped as unreadable by any of them, as their scans run.
    pub skipped: Skipped,
}

/// Registers every table of `schemas` (each resource type's table, `resources`,
/// `attributes`, `outputs`) in `ctx`, over `inputs`.
///
/// # Errors
///
/// A table of that name already registered in `ctx`.
pub fn register(
    ctx: &SessionContext,
    inputs: &[Input],
    schemas: Arc<FleetSchemas>,
    options: Options,
) -> Result<Registration> {
    let inputs: Arc<[Input]> = inputs.into();
    let skipped = Skipped::default();
    let mut tables = Vec::new();
    for def in schemas.tables() {
        let name = def.name.clone();
        let table = FleetTable::new(inputs.clone(), schemas.clone(), def, options)
            .with_skipped(skipped.clone());
        if ctx
            .register_table(TableReference::bare(name.as_str()), Arc::new(table))?
            .is_some()
        {
            return Err(DataFusionError::Plan(format!(
                "a table named {name} was already registered"
            )));
        }
        tables.push(name);
    }
    Ok(Registration { tables, skipped })
}

/// The message for a table `schemas` does not have: the fixed tables, then the type tables
/// whose names share the missing name's first word (its provider's prefix), or all of them
/// when there are few.
pub fn missing_table(schemas: &FleetSchemas, name: &str) -> String {
    let all: Vec<String> = schemas.tables().into_iter().map(|d| d.name).collect();
    let prefix = name
        .strip_prefix("data_")
        .unwrap_or(name)
        .split('_')
        .next()
        .unwrap_or("");
    let shown: Vec<&str> = if all.len() <= 40 {
        all.iter().map(String::as_str).collect()
    } else {
        all.iter()
            .map(String::as_str)
            .filter(|t| {
                matches!(*t, "resources" | "attributes" | "outputs")
                    || (!prefix.is_empty()
                        && t.strip_prefix("data_").unwrap_or(t).split('_').next() == Some(prefix))
            })
            .take(40)
            .collect()
    };
    let mut msg = format!(
        "no table named {name} (the schema cache at {} has {} tables: ",
        schemas.dir().display(),
        all.len()
    );
    msg.push_str(&shown.join(", "));
    if shown.len() < all.len() {
        msg.push_str(", …; `SELECT table_name FROM information_schema.tables` lists them all");
    }
    msg.push(')');
    msg
}
