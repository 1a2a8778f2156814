//! `tfwire-fleet`: SQL over fleets of OpenTofu and Terraform states and plans, and their
//! export as Parquet. `tfwire export` and `tfwire query` hand over to this binary.
//!
//! Exit codes: 0 success, 1 an input was rejected (the message names it), 2 usage error
//! (arguments, SQL, a table that does not exist).

#![forbid(unsafe_code)]

use clap::{Args, Parser, Subcommand};
use datafusion::error::DataFusionError;
use datafusion::prelude::{SessionConfig, SessionContext};
use futures::StreamExt as _;
use std::process::ExitCode;
use std::sync::Arc;
use tfwire_arrow::{FleetSchemas, Options};
use tfwire_fleet::distributed;
use tfwire_fleet::output::{Format, Writer};

/// SQL over fleets of OpenTofu and Terraform states and plans (DataFusion), and their
/// export as Parquet.
#[derive(Parser)]
#[command(name = "tfwire-fleet", version, about, long_about = None, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const AFTER_HELP: &str = "Examples:
  tfwire-fleet query --schemas ~/.cache/tfwire/schemas \\
    \"SELECT workspace, count(*) FROM aws_s3_bucket WHERE acl = 'public-read' GROUP BY workspace\" states/
  tfwire-fleet query --schemas DIR --format csv \"SELECT * FROM outputs\" 'states/**/*.tfstate'
  tfwire-fleet export --schemas DIR --out parquet/ states/ plans/

STATES: files, directories (walked; a file's workspace is its directory relative to the
argument, `default` at its root), globs (`*`, `?`, `**`; quote them), file:// and memory://
URLs. What a file is (raw state, `show -json` state, plan JSON, binary plan) is told by its
content. Tables: one per resource type of the schema cache (`aws_s3_bucket`, `data_aws_ami`),
`resources`, `attributes` (types without a schema), `outputs`.

Exit codes: 0 success, 1 an input was rejected, 2 usage error (arguments, SQL).";

#[derive(Subcommand)]
enum Command {
    /// Run one SQL query over the fleet's tables and print its result.
    Query(QueryArgs),
    /// Write every table as Parquet, partitioned Hive-style
    /// (`OUT/<table>/type=<type>/workspace=<ws>/part-0.parquet`).
    Export(ExportArgs),
    /// Host a Ballista scheduler for `query --ballista` (see the README, "Running on a
    /// cluster").
    Scheduler(distributed::SchedulerArgs),
    /// Host a Ballista executor: it runs the scans and the rest of the plans.
    Executor(distributed::ExecutorArgs),
}

#[derive(Args)]
struct Inputs {
    /// The schema cache (`tfwire schema add` writes one): every cached version of every
    /// provider gives the columns of its resource types.
    #[arg(long, value_name = "DIR")]
    schemas: String,
    /// Write sensitive values into the cells (by default they are null and their paths
    /// listed in `sensitive_paths`).
    #[arg(long)]
    include_sensitive: bool,
    /// Skip inputs that are no state or plan (counted on standard error) instead of
    /// failing.
    #[arg(long)]
    skip_unreadable: bool,
}

impl Inputs {
    fn options(&self) -> Options {
        Options {
            include_sensitive: self.include_sensitive,
            skip_unreadable: self.skip_unreadable,
        }
    }
}

#[derive(Args)]
struct QueryArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// How to print the result: `table`, `csv` or `json` (one array, a row an object).
    #[arg(long, default_value = "table", value_parser = ["table", "csv", "json"])]
    format: String,
    /// Run the query on the Ballista cluster whose scheduler is there (every node sees the
    /// schema cache and the inputs at the same paths or URLs).
    #[arg(
        long,
        value_name = "df://HOST:PORT",
        conflicts_with = "skip_unreadable"
    )]
    ballista: Option<String>,
    /// The query (DataFusion's SQL).
    sql: String,
    /// States and plans: files, directories, globs, file:// or memory:// URLs.
    #[arg(required = true, value_name = "STATES")]
    states: Vec<String>,
}

#[derive(Args)]
struct ExportArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// The output: a directory (created if missing) or a file:// URL.
    #[arg(long, value_name = "DIR")]
    out: String,
    /// States and plans: files, directories, globs, file:// or memory:// URLs.
    #[arg(required = true, value_name = "STATES")]
    states: Vec<String>,
}

/// Why the command failed: the exit code and the message.
struct Failure(u8, String);

impl Failure {
    fn input(e: impl std::fmt::Display) -> Failure {
        Failure(1, e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(Failure(1, format!("cannot start the runtime: {e}"))),
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Query(args) => query(args).await,
            Command::Export(args) => export(args).await,
            Command::Scheduler(args) => distributed::scheduler_main(args)
                .await
                .map_err(Failure::input),
            Command::Executor(args) => distributed::executor_main(args)
                .await
                .map_err(Failure::input),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => fail(f),
    }
}

fn fail(Failure(code, msg): Failure) -> ExitCode {
    let mut text = String::new();
    let _ = tfwire_json::write_safe_inline(&mut text, &msg);
    eprintln!("error: {text}");
    ExitCode::from(code)
}

/// The inputs found and the schema cache loaded.
async fn open(
    inputs: &Inputs,
    states: &[String],
) -> Result<(Vec<tfwire_arrow::Input>, Arc<FleetSchemas>), Failure> {
    let schemas = FleetSchemas::open(&inputs.schemas).map_err(Failure::input)?;
    let found = tfwire_arrow::discover(states)
        .await
        .map_err(Failure::input)?;
    Ok((found, Arc::new(schemas)))
}

async fn query(args: QueryArgs) -> Result<(), Failure> {
    let (inputs, schemas) = open(&args.inputs, &args.states).await?;
    let config = SessionConfig::new().with_information_schema(true);
    let ctx = match &args.ballista {
        Some(url) => distributed::remote_context(url, config)
            .await
            .map_err(|e| Failure(2, e.strip_backtrace()))?,
        None => SessionContext::new_with_config(config),
    };
    let registration =
        tfwire_fleet::register(&ctx, &inputs, schemas.clone(), args.inputs.options())
            .map_err(|e| Failure(2, e.strip_backtrace()))?;
    let format = Format::from_name(&args.format).unwrap_or_default();
    let result = run_sql(&ctx, &args.sql, format, &schemas).await;
    report_skipped(registration.skipped.sources());
    result
}

/// Plans `sql` in `ctx` and prints its result on standard output as it arrives.
async fn run_sql(
    ctx: &SessionContext,
    sql: &str,
    format: Format,
    schemas: &FleetSchemas,
) -> Result<(), Failure> {
    let frame = ctx.sql(sql).await.map_err(|e| sql_failure(&e, schemas))?;
    let mut stream = frame
        .execute_stream()
        .await
        .map_err(|e| sql_failure(&e, schemas))?;
    let stdout = std::io::stdout();
    let mut writer = Writer::new(
        format,
        stream.schema(),
        std::io::BufWriter::new(stdout.lock()),
    );
    while let Some(batch) = stream.next().await {
        let batch = batch.map_err(|e| run_failure(&e))?;
        if let Err(e) = writer.write(&batch) {
            return broken_pipe(e);
        }
    }
    writer.finish().or_else(broken_pipe)
}

/// A reader that went away (`| head`) ends the output without an error.
fn broken_pipe(e: std::io::Error) -> Result<(), Failure> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(Failure(1, format!("writing the result: {e}")))
    }
}

/// An error planning the query: DataFusion's message; a table that does not exist also
/// gets the list of those that do.
fn sql_failure(e: &DataFusionError, schemas: &FleetSchemas) -> Failure {
    if let Some(input) = input_error(e) {
        return Failure(1, input);
    }
    let msg = e.strip_backtrace();
    let missing = msg
        .split_once("table '")
        .and_then(|(_, rest)| rest.split_once("' not found"))
        .map(|(name, _)| name.rsplit('.').next().unwrap_or(name).to_owned());
    match missing {
        Some(name) => Failure(
            2,
            format!(
                "SQL: {}",
                tfwire_fleet::provider::missing_table(schemas, &name)
            ),
        ),
        None => Failure(2, format!("SQL: {msg}")),
    }
}

/// An error running the query: an input's error as tfwire-arrow says it, else
/// DataFusion's message.
fn run_failure(e: &DataFusionError) -> Failure {
    match input_error(e) {
        Some(msg) => Failure(1, msg),
        None => Failure(1, e.strip_backtrace()),
    }
}

/// The input error at the root of `e`, if that is what it is.
fn input_error(e: &DataFusionError) -> Option<String> {
    match e.find_root() {
        DataFusionError::External(inner) => inner
            .downcast_ref::<tfwire_arrow::Error>()
            .map(ToString::to_string),
        _ => None,
    }
}

fn report_skipped(skipped: Vec<String>) {
    if skipped.is_empty() {
        return;
    }
    let mut text = String::new();
    let shown: Vec<&str> = skipped.iter().take(5).map(String::as_str).collect();
    let _ = tfwire_json::write_safe_inline(&mut text, &shown.join(", "));
    let more = if skipped.len() > shown.len() {
        ", …"
    } else {
        ""
    };
    eprintln!(
        "tfwire-fleet: skipped {} input(s) that are no state or plan: {text}{more}",
        skipped.len()
    );
}

async fn export(args: ExportArgs) -> Result<(), Failure> {
    let (inputs, schemas) = open(&args.inputs, &args.states).await?;
    let report = tfwire_arrow::export(&inputs, schemas, &args.out, args.inputs.options())
        .await
        .map_err(Failure::input)?;
    let rows: usize = report.rows.values().sum();
    let mut out = String::new();
    let _ = tfwire_json::write_safe_inline(&mut out, &args.out);
    eprintln!(
        "tfwire-fleet: {} input(s) read, {} Parquet file(s) of {rows} row(s) written to {out}",
        report.inputs,
        report.files.len()
    );
    if report.skipped > 0 {
        eprintln!(
            "tfwire-fleet: skipped {} input(s) that are no state or plan",
            report.skipped
        );
    }
    Ok(())
}
