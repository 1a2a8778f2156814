//! The fleet's tables under Ballista: the plan codecs that carry a [`FleetTable`] and its
//! scan between client, scheduler and executors as plain data, the scheduler and the
//! executor hosted in the `tfwire-fleet` binary, and the client's session.
//!
//! What crosses the wire is plain data: the schema cache's directory, the table's name, the
//! options, every input's source, workspace and location (an absolute path or a URL), and
//! for a scan the projection and which inputs each partition reads. Every node re-creates
//! the table from the schema cache at the same path and reads the inputs at the same paths
//! or URLs: a shared directory (NFS and the like) or an object store. A node whose schema
//! cache gives the table other columns than the client's refuses the plan.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use tfwire_arrow::{FleetSchemas, Options};
//!
//! // A scheduler and executors run elsewhere (`tfwire-fleet scheduler`, `tfwire-fleet
//! // executor`); the client plans the query with the same tables as on one machine.
//! let config = datafusion::prelude::SessionConfig::new();
//! let ctx = tfwire_fleet::distributed::remote_context("df://scheduler.internal:50050", config).await?;
//! let schemas = Arc::new(FleetSchemas::open("/shared/tfwire/schemas")?);
//! let inputs = tfwire_arrow::discover(&["/shared/tfwire/states".to_owned()]).await?;
//! tfwire_fleet::register(&ctx, &inputs, schemas, Options::default())?;
//! let batches = ctx.sql("SELECT count(*) FROM resources").await?.collect().await?;
//! # drop(batches);
//! # Ok(()) }
//! ```

use crate::provider::{FleetScan, FleetTable};
use ballista::prelude::SessionContextExt as _;
use ballista_core::extension::SessionConfigExt as _;
use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::{SchedulerConfig, TaskDistributionPolicy};
use datafusion::arrow::array::{Array as _, ArrayRef, RecordBatch, UInt64Array};
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::catalog::Session;
use datafusion::catalog::TableProvider;
use datafusion::common::TableReference;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::datasource::TableType;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::memory::MemorySourceConfig;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::TaskContext;
use datafusion::execution::session_state::{SessionState, SessionStateBuilder};
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::{Extension, LogicalPlan};
use datafusion::physical_expr::{EquivalenceProperties, PhysicalExpr};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::metrics::MetricsSet;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{DisplayAs, DisplayFormatType, Partitioning, PlanProperties};
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};
use futures::{StreamExt as _, TryStreamExt as _};
use prost::Message as _;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tfwire_arrow::{FleetSchemas, Input, Options};

/// The first bytes of an encoded [`FleetTable`]: what tells it from Ballista's own nodes.
const TABLE_TAG: &[u8] = b"tfwire-fleet/table/1\n";
/// The first bytes of an encoded scan of a [`FleetTable`].
const SCAN_TAG: &[u8] = b"tfwire-fleet/scan/1\n";
/// The first bytes of an encoded [`ClusterScan`] (its child, the partitions it runs, is
/// encoded by DataFusion as the node's input).
const CLUSTER_SCAN_TAG: &[u8] = b"tfwire-fleet/cluster-scan/1\n";

/// One input as plain data.
#[derive(Clone, PartialEq, prost::Message)]
struct InputMsg {
    /// As the user named it: what the `source` column shows.
    #[prost(string, tag = "1")]
    source: String,
    #[prost(string, tag = "2")]
    workspace: String,
    /// Where every node reads it: an absolute path or a URL.
    #[prost(string, tag = "3")]
    location: String,
}

/// A [`FleetTable`] as plain data.
#[derive(Clone, PartialEq, prost::Message)]
struct TableMsg {
    /// The schema cache's directory (absolute).
    #[prost(string, tag = "1")]
    schemas: String,
    #[prost(string, tag = "2")]
    table: String,
    #[prost(message, repeated, tag = "3")]
    inputs: Vec<InputMsg>,
    #[prost(bool, tag = "4")]
    include_sensitive: bool,
    #[prost(bool, tag = "5")]
    skip_unreadable: bool,
}

/// The inputs one partition of a scan reads: indexes into the table's inputs.
#[derive(Clone, PartialEq, prost::Message)]
struct PartitionMsg {
    #[prost(uint32, repeated, tag = "1")]
    inputs: Vec<u32>,
}

/// A scan of a [`FleetTable`] as plain data.
#[derive(Clone, PartialEq, prost::Message)]
struct ScanMsg {
    #[prost(message, optional, tag = "1")]
    table: Option<TableMsg>,
    /// Whether the scan is projected (an empty projection is one: `count(*)`).
    #[prost(bool, tag = "2")]
    projected: bool,
    #[prost(uint32, repeated, tag = "3")]
    projection: Vec<u32>,
    #[prost(message, repeated, tag = "4")]
    partitions: Vec<PartitionMsg>,
    /// The most rows a partition emits.
    #[prost(uint64, optional, tag = "5")]
    limit: Option<u64>,
    /// Whether the query said which phases it wants, and which.
    #[prost(bool, tag = "6")]
    phased: bool,
    #[prost(string, repeated, tag = "7")]
    phases: Vec<String>,
}

/// Ballista's logical codec, taught [`FleetTable`]: give it to the client's session, the
/// scheduler and the executors (as [`remote_context`], [`run_scheduler`] and
/// [`run_executor`] do).
#[derive(Debug, Default)]
pub struct FleetLogicalCodec {
    inner: BallistaLogicalExtensionCodec,
}

/// Ballista's physical codec, taught the scan of a [`FleetTable`]; see
/// [`FleetLogicalCodec`].
#[derive(Debug, Default)]
pub struct FleetPhysicalCodec {
    inner: BallistaPhysicalExtensionCodec,
}

impl LogicalExtensionCodec for FleetLogicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> Result<Extension> {
        self.inner.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.inner.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        let Some(body) = buf.strip_prefix(TABLE_TAG) else {
            return self
                .inner
                .try_decode_table_provider(buf, table_ref, schema, ctx);
        };
        let msg = TableMsg::decode(body).map_err(|e| malformed("table", &e))?;
        let table = table_from_msg(&msg)?;
        if table.def().schema.fields() != schema.fields() {
            return Err(DataFusionError::Plan(format!(
                "table {}: the schema cache at {} on this node gives it other columns than the \
                 client's; every node must see the same schema cache",
                msg.table, msg.schemas
            )));
        }
        Ok(Arc::new(ClusterTable(table)))
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        let table = match node.downcast_ref::<ClusterTable>() {
            Some(ClusterTable(table)) => table,
            None => match node.downcast_ref::<FleetTable>() {
                Some(table) => table,
                None => return self.inner.try_encode_table_provider(table_ref, node, buf),
            },
        };
        let msg = table_to_msg(table)?;
        buf.extend_from_slice(TABLE_TAG);
        msg.encode(buf).map_err(|e| encoding("table", &e))
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> Result<Arc<dyn FileFormatFactory>> {
        self.inner.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> Result<()> {
        self.inner.try_encode_file_format(buf, node)
    }
}

impl PhysicalExtensionCodec for FleetPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if let Some(body) = buf.strip_prefix(CLUSTER_SCAN_TAG) {
            let [parts] = inputs else {
                return Err(DataFusionError::Internal(format!(
                    "a fleet cluster scan with {} inputs, expected 1",
                    inputs.len()
                )));
            };
            let scan = scan_from_msg(body)?;
            return Ok(Arc::new(ClusterScan::with_parts(scan, parts.clone())));
        }
        let Some(body) = buf.strip_prefix(SCAN_TAG) else {
            return self.inner.try_decode(buf, inputs, ctx, proto_converter);
        };
        Ok(Arc::new(scan_from_msg(body)?))
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        let (tag, scan) = if let Some(cluster) = node.downcast_ref::<ClusterScan>() {
            (CLUSTER_SCAN_TAG, &cluster.scan)
        } else if let Some(scan) = node.downcast_ref::<FleetScan>() {
            (SCAN_TAG, scan)
        } else {
            return self.inner.try_encode(node, buf, proto_converter);
        };
        let msg = scan_to_msg(scan)?;
        buf.extend_from_slice(tag);
        msg.encode(buf).map_err(|e| encoding("scan", &e))
    }
}

/// A [`FleetScan`] from its message.
fn scan_from_msg(body: &[u8]) -> Result<FleetScan> {
    let msg = ScanMsg::decode(body).map_err(|e| malformed("scan", &e))?;
    let table_msg = msg
        .table
        .as_ref()
        .ok_or_else(|| DataFusionError::Internal("a fleet scan without its table".into()))?;
    let table = table_from_msg(table_msg)?;
    let count = table.inputs().len();
    let partitions = msg
        .partitions
        .iter()
        .map(|p| {
            p.inputs
                .iter()
                .map(|&i| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| table.inputs().get(i))
                        .cloned()
                        .ok_or_else(|| {
                            DataFusionError::Internal(format!(
                                "a fleet scan names input {i} of {count}"
                            ))
                        })
                })
                .collect::<Result<Vec<Input>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    let width = table.def().schema.fields().len();
    let projection = if msg.projected {
        let columns = msg
            .projection
            .iter()
            .map(|&c| {
                usize::try_from(c)
                    .ok()
                    .filter(|&c| c < width)
                    .ok_or_else(|| {
                        DataFusionError::Internal(format!(
                            "a fleet scan projects column {c} of {width}"
                        ))
                    })
            })
            .collect::<Result<Vec<usize>>>()?;
        Some(columns)
    } else {
        None
    };
    let limit = msg
        .limit
        .map(|l| {
            usize::try_from(l).map_err(|_| {
                DataFusionError::Internal(format!("a fleet scan's limit {l} is too large"))
            })
        })
        .transpose()?;
    let phases = msg.phased.then_some(msg.phases);
    Ok(FleetScan::new(table, projection, partitions, limit).with_phases(phases))
}

/// A [`FleetScan`]'s message: its table, projection, limit, and each partition's inputs
/// as indexes into the table's.
fn scan_to_msg(scan: &FleetScan) -> Result<ScanMsg> {
    let index = |i: usize| {
        u32::try_from(i)
            .map_err(|_| DataFusionError::Plan(format!("{i} is too many inputs for a scan")))
    };
    let table = scan.table();
    // Each partition's inputs as indexes into the table's: every input crosses the wire
    // once.
    let position: HashMap<(&str, &str), usize> = table
        .inputs()
        .iter()
        .enumerate()
        .map(|(i, input)| ((input.source.as_str(), input.workspace.as_str()), i))
        .collect();
    let partitions = scan
        .partitions()
        .iter()
        .map(|p| {
            let inputs = p
                .iter()
                .map(|input| {
                    let key = (input.source.as_str(), input.workspace.as_str());
                    let i = position.get(&key).copied().ok_or_else(|| {
                        DataFusionError::Internal(format!(
                            "{}: a scan's input that is not one of its table's",
                            input.source
                        ))
                    })?;
                    index(i)
                })
                .collect::<Result<_>>()?;
            Ok(PartitionMsg { inputs })
        })
        .collect::<Result<_>>()?;
    let msg = ScanMsg {
        table: Some(table_to_msg(table)?),
        projected: scan.projection().is_some(),
        projection: scan
            .projection()
            .unwrap_or_default()
            .iter()
            .map(|&c| index(c))
            .collect::<Result<_>>()?,
        partitions,
        limit: scan.limit().map(|l| l as u64),
        phased: scan.phases().is_some(),
        phases: scan.phases().unwrap_or_default().to_vec(),
    };
    Ok(msg)
}

/// A [`FleetTable`] as the scheduler re-creates it: its scans are [`ClusterScan`]s, which
/// Ballista can give each task a share of.
#[derive(Debug)]
struct ClusterTable(FleetTable);

#[async_trait::async_trait]
impl TableProvider for ClusterTable {
    fn schema(&self) -> SchemaRef {
        self.0.schema()
    }

    fn table_type(&self) -> TableType {
        self.0.table_type()
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<datafusion::logical_expr::TableProviderFilterPushDown>> {
        self.0.supports_filters_pushdown(filters)
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let plan = self.0.scan(state, projection, filters, limit).await?;
        match plan.downcast_ref::<FleetScan>() {
            Some(scan) => Ok(Arc::new(ClusterScan::new(scan.clone())?)),
            None => Ok(plan),
        }
    }
}

/// A [`FleetScan`] on a cluster. Ballista's scheduler gives each task some of a stage's
/// partitions by restricting the plan's leaves, and it only knows how to restrict its own
/// and DataFusion's; a leaf it does not know would run every partition in every task. So
/// the scan is not a leaf here: its child, an in-memory source whose partition `i` holds
/// the number `i`, is what the scheduler restricts, and partition `j` of this node runs the
/// scan's partitions named by partition `j` of its child.
#[derive(Clone, Debug)]
struct ClusterScan {
    scan: FleetScan,
    parts: Arc<dyn ExecutionPlan>,
    properties: Arc<PlanProperties>,
}

impl ClusterScan {
    fn new(scan: FleetScan) -> Result<ClusterScan> {
        let schema = Arc::new(Schema::new(vec![Field::new(
            "partition",
            DataType::UInt64,
            false,
        )]));
        let count = scan.partitions().len();
        let partitions = (0..count as u64)
            .map(|i| {
                let column: ArrayRef = Arc::new(UInt64Array::from(vec![i]));
                Ok(vec![RecordBatch::try_new(schema.clone(), vec![column])?])
            })
            .collect::<Result<Vec<_>>>()?;
        let parts = MemorySourceConfig::try_new_exec(&partitions, schema, None)?;
        Ok(ClusterScan::with_parts(scan, parts))
    }

    fn with_parts(scan: FleetScan, parts: Arc<dyn ExecutionPlan>) -> ClusterScan {
        let count = parts.properties().output_partitioning().partition_count();
        let properties = Arc::new(PlanProperties::new(
            EquivalenceProperties::new(scan.schema()),
            Partitioning::UnknownPartitioning(count),
            EmissionType::Incremental,
            Boundedness::Bounded,
        ));
        ClusterScan {
            scan,
            parts,
            properties,
        }
    }
}

impl DisplayAs for ClusterScan {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FleetClusterScan of ")?;
        self.scan.fmt_as(t, f)
    }
}

impl ExecutionPlan for ClusterScan {
    fn name(&self) -> &str {
        "FleetClusterScan"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![&self.parts]
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
        let [parts] = <[_; 1]>::try_from(children).map_err(|c| {
            DataFusionError::Internal(format!("FleetClusterScan has 1 child, not {}", c.len()))
        })?;
        Ok(Arc::new(ClusterScan::with_parts(self.scan.clone(), parts)))
    }

    fn metrics(&self) -> Option<MetricsSet> {
        self.scan.metrics()
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let parts = self.parts.execute(partition, context.clone())?;
        let scan = self.scan.clone();
        let count = scan.partitions().len();
        let streams = futures::stream::once(async move {
            let batches: Vec<RecordBatch> = parts.try_collect().await?;
            let mut streams = Vec::new();
            for batch in &batches {
                let column = batch
                    .column(0)
                    .as_any()
                    .downcast_ref::<UInt64Array>()
                    .ok_or_else(|| {
                        DataFusionError::Internal(
                            "FleetClusterScan: partition numbers that are not UInt64".into(),
                        )
                    })?;
                for &n in column.values() {
                    let n = usize::try_from(n)
                        .ok()
                        .filter(|&n| n < count)
                        .ok_or_else(|| {
                            DataFusionError::Internal(format!(
                                "FleetClusterScan: partition {n} of {count}"
                            ))
                        })?;
                    streams.push(scan.execute(n, context.clone())?);
                }
            }
            Ok::<_, DataFusionError>(futures::stream::iter(streams).flatten())
        })
        .try_flatten();
        Ok(Box::pin(RecordBatchStreamAdapter::new(
            self.scan.schema(),
            streams,
        )))
    }
}

#[cold]
fn malformed(what: &str, e: &prost::DecodeError) -> DataFusionError {
    DataFusionError::Internal(format!("a malformed encoded fleet {what}: {e}"))
}

#[cold]
fn encoding(what: &str, e: &prost::EncodeError) -> DataFusionError {
    DataFusionError::Internal(format!("encoding a fleet {what}: {e}"))
}

fn table_to_msg(table: &FleetTable) -> Result<TableMsg> {
    let schemas = std::path::absolute(table.schemas().dir()).map_err(|e| {
        DataFusionError::Plan(format!(
            "the schema cache {}: {e}",
            table.schemas().dir().display()
        ))
    })?;
    let options = table.options();
    Ok(TableMsg {
        schemas: path_text(&schemas)?,
        table: table.def().name.clone(),
        inputs: table
            .inputs()
            .iter()
            .map(input_to_msg)
            .collect::<Result<_>>()?,
        include_sensitive: options.include_sensitive,
        skip_unreadable: options.skip_unreadable,
    })
}

fn input_to_msg(input: &Input) -> Result<InputMsg> {
    let location = input.location().map_err(fleet)?;
    if location.starts_with("memory:") {
        return Err(DataFusionError::Plan(format!(
            "{}: a memory:// input lives in one process; under Ballista every input must be \
             in a shared directory or an object store",
            input.source
        )));
    }
    Ok(InputMsg {
        source: input.source.clone(),
        workspace: input.workspace.clone(),
        location,
    })
}

fn path_text(path: &Path) -> Result<String> {
    path.to_str().map(str::to_owned).ok_or_else(|| {
        DataFusionError::Plan(format!(
            "{}: a path that is not UTF-8 cannot be sent to other nodes",
            path.display()
        ))
    })
}

fn table_from_msg(msg: &TableMsg) -> Result<FleetTable> {
    let schemas = open_schemas(Path::new(&msg.schemas))?;
    let def = schemas.table(&msg.table).ok_or_else(|| {
        DataFusionError::Plan(format!(
            "no table {} in the schema cache at {} on this node; every node must see the same \
             schema cache",
            msg.table, msg.schemas
        ))
    })?;
    let inputs = msg
        .inputs
        .iter()
        .map(|m| {
            let mut input = Input::locate(&m.location, &m.workspace)?;
            input.source.clone_from(&m.source);
            Ok(input)
        })
        .collect::<std::result::Result<Vec<_>, tfwire_arrow::Error>>()
        .map_err(fleet)?;
    let options = Options {
        include_sensitive: msg.include_sensitive,
        skip_unreadable: msg.skip_unreadable,
    };
    Ok(FleetTable::new(inputs.into(), schemas, def, options))
}

/// What a schema cache held when it was loaded: every file's path, size and modification
/// time. A cache that changed since is loaded again.
type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

/// The schema cache at `dir`, loaded once per process while its files do not change
/// (every task of a query names it; loading the AWS provider's schema each time would
/// dominate small queries).
fn open_schemas(dir: &Path) -> Result<Arc<FleetSchemas>> {
    static LOADED: Mutex<Vec<(PathBuf, Fingerprint, Arc<FleetSchemas>)>> = Mutex::new(Vec::new());
    let fingerprint = fingerprint(dir)
        .map_err(|e| DataFusionError::Plan(format!("the schema cache {}: {e}", dir.display())))?;
    {
        let loaded = LOADED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, _, schemas)) = loaded
            .iter()
            .find(|(d, f, _)| d == dir && *f == fingerprint)
        {
            return Ok(schemas.clone());
        }
    }
    let schemas = Arc::new(FleetSchemas::open(dir).map_err(fleet)?);
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded.retain(|(d, _, _)| d != dir);
    loaded.push((dir.to_owned(), fingerprint, schemas.clone()));
    Ok(schemas)
}

fn fingerprint(dir: &Path) -> std::io::Result<Fingerprint> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let meta = entry.metadata()?;
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                out.push((entry.path(), meta.len(), meta.modified().ok()));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A session with `config` whose queries run on the Ballista scheduler at `url`
/// (`df://HOST:PORT`), with the fleet's codecs: register the tables on it
/// ([`crate::register`]) as on one machine. Nothing is contacted before a query runs.
///
/// # Errors
///
/// A URL that is not `df://HOST:PORT`.
pub async fn remote_context(url: &str, config: SessionConfig) -> Result<SessionContext> {
    let config = config
        .upgrade_for_ballista()
        .with_ballista_logical_extension_codec(Arc::new(FleetLogicalCodec::default()))
        .with_ballista_physical_extension_codec(Arc::new(FleetPhysicalCodec::default()));
    let state = SessionStateBuilder::new()
        .with_config(config)
        .with_default_features()
        .build();
    SessionContext::remote_with_state(url, state).await
}

/// Runs a Ballista scheduler on `bind` with the fleet's codecs, until the process ends.
/// Tasks go to the executors round-robin (each query's partitions spread over the cluster).
///
/// # Errors
///
/// The address cannot be bound, or the scheduler fails.
pub async fn run_scheduler(bind: SocketAddr) -> Result<()> {
    let mut config = SchedulerConfig::default()
        .with_port(bind.port())
        .with_task_distribution(TaskDistributionPolicy::RoundRobin);
    if !bind.ip().is_unspecified() {
        config = config.with_hostname(bind.ip().to_string());
    }
    config.bind_host = bind.ip().to_string();
    config.override_logical_codec = Some(Arc::new(FleetLogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(FleetPhysicalCodec::default()));
    config.override_session_builder = Some(Arc::new(scheduler_session));
    let cluster = BallistaCluster::new_from_config(&config)
        .await
        .map_err(ballista)?;
    ballista_scheduler::scheduler_process::start_server(cluster, bind, Arc::new(config))
        .await
        .map_err(ballista)
}

/// The session the scheduler plans a query in: Ballista's, from the settings the client
/// sent, with `datafusion.optimizer.repartition_sorts` off whatever the client asked.
///
/// With it on, DataFusion sorts an `ORDER BY` in every partition and merges the sorted
/// partitions, and Ballista cuts the stage between the merge and the sorts. The sorts then
/// run in the tasks of the stage below, which miss part of what one process knows: under a
/// `UNION ALL` whose branches each select a different constant (`'policy' AS attribute`),
/// every partition is sorted without that column (constant in it), the stage boundary
/// forgets that it was constant, and the plan no longer satisfies the merge's order (the
/// scheduler refuses it); and a task given none of one branch's partitions holds a sort of
/// zero partitions, which DataFusion's debug builds reject. With it off, the stage below
/// only filters and projects, and the last stage sorts what it gathered by every key of the
/// `ORDER BY`, in one task: the same rows in the same order as one process, for any
/// `UNION ALL` under an `ORDER BY`. The cost: that task sorts all the rows the query returns
/// (which the client receives anyway) instead of merging pre-sorted ones.
fn scheduler_session(mut config: SessionConfig) -> Result<SessionState> {
    config.options_mut().optimizer.repartition_sorts = false;
    ballista_core::utils::default_session_builder(config)
}

/// Where an executor listens and whom it serves; see [`run_executor`].
#[derive(Clone, Debug)]
pub struct ExecutorOptions {
    /// The scheduler's `HOST:PORT`.
    pub scheduler: String,
    /// The address of the executor's Arrow Flight service (other executors and clients
    /// fetch results there).
    pub bind: SocketAddr,
    /// The port of the executor's gRPC service (the scheduler sends tasks there).
    pub grpc_port: u16,
    /// The host name the scheduler and the other executors reach this executor by (`None`:
    /// the address the scheduler sees it connect from).
    pub external_host: Option<String>,
    /// Where the executor writes intermediate results.
    pub work_dir: PathBuf,
    /// How many tasks it runs at once.
    pub vcores: usize,
    /// How long to keep trying to reach the scheduler at start.
    pub scheduler_timeout: Duration,
}

/// Runs a Ballista executor with the fleet's codecs, until the process ends.
///
/// # Errors
///
/// A scheduler address that is not `HOST:PORT`, a scheduler that cannot be reached, an
/// address that cannot be bound.
pub async fn run_executor(options: ExecutorOptions) -> Result<()> {
    let (host, port) = options
        .scheduler
        .rsplit_once(':')
        .and_then(|(h, p)| Some((h, p.parse::<u16>().ok()?)))
        .ok_or_else(|| {
            DataFusionError::Configuration(format!(
                "scheduler address {:?}: expected HOST:PORT",
                options.scheduler
            ))
        })?;
    let config = ExecutorProcessConfig {
        bind_host: options.bind.ip().to_string(),
        port: options.bind.port(),
        grpc_port: options.grpc_port,
        external_host: options.external_host,
        scheduler_host: host.trim_matches(['[', ']']).to_owned(),
        scheduler_port: port,
        scheduler_connect_timeout_seconds: u16::try_from(options.scheduler_timeout.as_secs())
            .unwrap_or(u16::MAX),
        vcores: options.vcores.max(1),
        work_dir: Some(path_text(&options.work_dir)?),
        override_logical_codec: Some(Arc::new(FleetLogicalCodec::default())),
        override_physical_codec: Some(Arc::new(FleetPhysicalCodec::default())),
        // Every function a client's session has (Ballista's own default registry lacks
        // the nested ones: `array_element`, `get_field` of a list, `unnest`'s helpers).
        override_function_registry: Some(Arc::new(BallistaFunctionRegistry::from(
            &SessionStateBuilder::new().with_default_features().build(),
        ))),
        ..ExecutorProcessConfig::default()
    };
    start_executor_process(Arc::new(config))
        .await
        .map_err(ballista)
}

#[cold]
fn fleet(e: tfwire_arrow::Error) -> DataFusionError {
    DataFusionError::External(Box::new(e))
}

#[cold]
fn ballista(e: ballista_core::error::BallistaError) -> DataFusionError {
    DataFusionError::External(Box::new(e))
}

/// `tfwire-fleet scheduler`: hosts a Ballista scheduler with the fleet's codecs.
#[derive(Clone, Debug, clap::Args)]
pub struct SchedulerArgs {
    /// The address to listen on (clients and executors connect there).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50050")]
    pub bind: SocketAddr,
    /// Exit when process PID is no longer this process's parent (for supervisors and tests:
    /// the scheduler never outlives whoever started it).
    #[arg(long, value_name = "PID")]
    pub parent: Option<u32>,
}

/// `tfwire-fleet executor`: hosts a Ballista executor with the fleet's codecs.
#[derive(Clone, Debug, clap::Args)]
pub struct ExecutorArgs {
    /// The scheduler's address.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50050")]
    pub scheduler: String,
    /// The address of the executor's Arrow Flight service (other executors and clients
    /// fetch results there).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50051")]
    pub bind: SocketAddr,
    /// The port of its gRPC service, on the same host (the scheduler sends tasks there);
    /// default: the Flight port + 1.
    #[arg(long, value_name = "PORT")]
    pub grpc_port: Option<u16>,
    /// The host name the scheduler and the other executors reach this executor by
    /// (default: the address the scheduler sees it connect from).
    #[arg(long, value_name = "HOST")]
    pub external_host: Option<String>,
    /// Where intermediate results are written (created if missing).
    #[arg(long, value_name = "DIR")]
    pub work_dir: PathBuf,
    /// How many tasks to run at once (default: the number of CPUs).
    #[arg(long, value_name = "N")]
    pub vcores: Option<usize>,
    /// How long to keep trying to reach the scheduler at start, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub scheduler_timeout: u64,
    /// Exit when process PID is no longer this process's parent (see `scheduler --parent`).
    #[arg(long, value_name = "PID")]
    pub parent: Option<u32>,
}

/// Ballista's log on standard error: warnings and errors, or down to `info` or `debug` as
/// `TFWIRE_FLEET_LOG` says.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            eprintln!("{} {}: {}", record.level(), record.target(), record.args());
        }
    }

    fn flush(&self) {}
}

fn log_to_stderr() {
    let level = match std::env::var("TFWIRE_FLEET_LOG").as_deref() {
        Ok("debug") => log::LevelFilter::Debug,
        Ok("info") => log::LevelFilter::Info,
        _ => log::LevelFilter::Warn,
    };
    static LOG: StderrLog = StderrLog;
    if log::set_logger(&LOG).is_ok() {
        log::set_max_level(level);
    }
}

/// Runs `tfwire-fleet scheduler` until the process ends.
///
/// # Errors
///
/// As [`run_scheduler`]; a `--parent` not followed.
pub async fn scheduler_main(args: SchedulerArgs) -> Result<()> {
    log_to_stderr();
    if let Some(pid) = args.parent {
        exit_with_parent(pid)?;
    }
    run_scheduler(args.bind).await
}

/// Runs `tfwire-fleet executor` until the process ends.
///
/// # Errors
///
/// As [`run_executor`]; a work directory that cannot be created; a `--parent` not
/// followed.
pub async fn executor_main(args: ExecutorArgs) -> Result<()> {
    log_to_stderr();
    if let Some(pid) = args.parent {
        exit_with_parent(pid)?;
    }
    std::fs::create_dir_all(&args.work_dir)
        .map_err(|e| DataFusionError::Configuration(format!("{}: {e}", args.work_dir.display())))?;
    let grpc_port = match args.grpc_port {
        Some(p) => p,
        None => args.bind.port().checked_add(1).ok_or_else(|| {
            DataFusionError::Configuration("the Flight port is 65535: give --grpc-port".to_owned())
        })?,
    };
    let vcores = args
        .vcores
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    run_executor(ExecutorOptions {
        scheduler: args.scheduler,
        bind: args.bind,
        grpc_port,
        external_host: args.external_host,
        work_dir: args.work_dir,
        vcores,
        scheduler_timeout: Duration::from_secs(args.scheduler_timeout),
    })
    .await
}

/// Ends this process as soon as process `parent` is no longer its parent (it ended, or it
/// was never the parent): a scheduler or executor started by a test or a supervisor never
/// outlives it. A watchdog thread checks the parent every 100 ms.
///
/// # Errors
///
/// A platform without parent process ids (not Unix).
pub fn exit_with_parent(parent: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let check = move || {
            if std::os::unix::process::parent_id() != parent {
                std::process::exit(1);
            }
        };
        check();
        std::thread::Builder::new()
            .name("parent-watchdog".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_millis(100));
                    check();
                }
            })?;
        Ok(())
    }
    #[cfg(not(unix))]
    {
        let _ = parent;
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "following a parent process is supported on Unix only",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_messages_round_trip() {
        let msg = ScanMsg {
            table: Some(TableMsg {
                schemas: "/shared/schemas".into(),
                table: "aws_s3_bucket".into(),
                inputs: vec![InputMsg {
                    source: "states/a.tfstate".into(),
                    workspace: "default".into(),
                    location: "/shared/states/a.tfstate".into(),
                }],
                include_sensitive: false,
                skip_unreadable: true,
            }),
            projected: true,
            projection: vec![],
            partitions: vec![PartitionMsg { inputs: vec![0] }, PartitionMsg::default()],
            limit: Some(10),
            phased: true,
            phases: vec!["after".into(), "before".into()],
        };
        let bytes = msg.encode_to_vec();
        assert_eq!(ScanMsg::decode(bytes.as_slice()).unwrap(), msg);
    }
}
