//! The scan: projection pushdown (counted), partitions over the inputs, laziness (nothing
//! read before execution), limits, errors naming the input, re-creation from plain data.

use crate::common::{TempDir, rows, runtime, s, session, small_fleet};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionContext;
use std::sync::Arc;
use tfwire_arrow::Options;
use tfwire_fleet::FleetScan;

/// The scans' counters of one query run.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) scans: usize,
    pub(crate) partitions: usize,
    pub(crate) inputs: u64,
    pub(crate) refused: u64,
    pub(crate) decoded: u64,
    pub(crate) rows: u64,
}

pub(crate) fn scans(plan: &Arc<dyn ExecutionPlan>) -> Vec<(FleetScan, Arc<dyn ExecutionPlan>)> {
    fn walk(plan: &Arc<dyn ExecutionPlan>, out: &mut Vec<(FleetScan, Arc<dyn ExecutionPlan>)>) {
        if let Some(scan) = plan.downcast_ref::<FleetScan>() {
            out.push((scan.clone(), plan.clone()));
        }
        for child in plan.children() {
            walk(child, out);
        }
    }
    let mut out = Vec::new();
    walk(plan, &mut out);
    out
}

/// Runs `sql` and sums the counters of its scans.
pub(crate) async fn scan_metrics(ctx: &SessionContext, sql: &str) -> Counters {
    let frame = ctx.sql(sql).await.unwrap();
    let plan = frame.create_physical_plan().await.unwrap();
    datafusion::physical_plan::collect(plan.clone(), ctx.task_ctx())
        .await
        .unwrap();
    let mut c = Counters::default();
    for (scan, node) in scans(&plan) {
        c.scans += 1;
        c.partitions += scan.partitions().len();
        let m = node.metrics().unwrap();
        let get = |name: &str| m.sum_by_name(name).map_or(0, |v| v.as_usize() as u64);
        c.inputs += get("inputs_read");
        c.refused += get("inputs_refused");
        c.decoded += get("decoded_values");
        c.rows += m.output_rows().unwrap_or(0) as u64;
    }
    c
}

fn input_count(inputs: &[std::path::PathBuf]) -> u64 {
    fn walk(p: &std::path::Path) -> u64 {
        if p.is_dir() {
            std::fs::read_dir(p)
                .unwrap()
                .map(|e| walk(&e.unwrap().path()))
                .sum()
        } else {
            1
        }
    }
    inputs.iter().map(|p| walk(p)).sum()
}

#[test]
fn every_partition_reads_its_share_of_the_inputs() {
    let (schemas, inputs) = small_fleet();
    let total = input_count(&inputs);
    runtime().block_on(async {
        for partitions in [1, 2, 4] {
            let (ctx, _) = session(&schemas, &inputs, partitions, Options::default()).await;
            let plan = ctx
                .sql("SELECT address FROM resources")
                .await
                .unwrap()
                .create_physical_plan()
                .await
                .unwrap();
            let found = scans(&plan);
            assert_eq!(found.len(), 1);
            let parts = found[0].0.partitions();
            assert_eq!(parts.len(), partitions);
            let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
            assert_eq!(sizes.iter().sum::<usize>() as u64, total);
            assert!(
                sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
                "round-robin: {sizes:?}"
            );
            let c = scan_metrics(&ctx, "SELECT address FROM resources").await;
            assert_eq!(c.inputs, total, "{c:?}");
            assert_eq!(c.decoded, 0, "resources decodes no attribute: {c:?}");
        }
    });
}

/// Filters on `phase` reach the scan: a question about plans refuses every state unread
/// (and the plan files, which are parsed, give the same rows as without the pushdown).
#[test]
fn phase_filters_refuse_documents_without_those_phases() {
    let (schemas, inputs) = small_fleet();
    let total = input_count(&inputs);
    let states = input_count(&inputs[..1]);
    runtime().block_on(async {
        let (ctx, _) = session(&schemas, &inputs, 2, Options::default()).await;
        let asked = [
            "phase IN ('before', 'after')",
            "phase = 'after' OR phase = 'before'",
            "'before' = phase OR phase IN ('after')",
        ];
        // Written so that no filter is pushed: the same rows, every input parsed.
        let unpushed = "SELECT address, phase FROM resources \
            WHERE concat(phase, '') IN ('before', 'after') ORDER BY address, phase";
        let want = rows(&ctx, unpushed).await;
        assert!(!want.is_empty());
        let c = scan_metrics(&ctx, unpushed).await;
        assert_eq!((c.inputs, c.refused), (total, 0), "{c:?}");
        for filter in asked {
            let sql = format!(
                "SELECT address, phase FROM resources WHERE {filter} ORDER BY address, phase"
            );
            assert_eq!(rows(&ctx, &sql).await, want, "{sql}");
            let c = scan_metrics(&ctx, &sql).await;
            assert_eq!((c.inputs, c.refused), (total, states), "{sql}: {c:?}");
            let plan = ctx
                .sql(&sql)
                .await
                .unwrap()
                .create_physical_plan()
                .await
                .unwrap();
            let scan = &scans(&plan)[0].0;
            assert_eq!(
                scan.phases(),
                Some(&["after".to_owned(), "before".to_owned()][..])
            );
        }
        // `state` among the phases: nothing to refuse by.
        let c = scan_metrics(
            &ctx,
            "SELECT address FROM resources WHERE phase IN ('state', 'after')",
        )
        .await;
        assert_eq!((c.inputs, c.refused), (total, 0), "{c:?}");
    });
}

#[test]
fn a_limit_stops_reading_early() {
    let (schemas, inputs) = small_fleet();
    let total = input_count(&inputs);
    runtime().block_on(async {
        let (ctx, _) = session(&schemas, &inputs, 1, Options::default()).await;
        let c = scan_metrics(&ctx, "SELECT address FROM resources LIMIT 3").await;
        assert!(c.inputs < total, "{c:?} of {total} inputs");
        let got = rows(&ctx, "SELECT address FROM resources LIMIT 3").await;
        assert_eq!(got.len(), 3);
    });
}

#[test]
fn nothing_is_read_before_execution_and_errors_name_the_input() {
    let dir = TempDir::new("lazy");
    let (schemas, _) = small_fleet();
    let states = dir.path("states");
    std::fs::create_dir_all(states.join("a")).unwrap();
    std::fs::copy(
        crate::common::root().join("corpus/fleet/states/team-ads/auth-staging/terraform.tfstate"),
        states.join("a/terraform.tfstate"),
    )
    .unwrap();
    std::fs::write(states.join("a/notes.txt"), b"not a state at all").unwrap();
    runtime().block_on(async {
        let (ctx, reg) = session(
            &schemas,
            std::slice::from_ref(&states),
            2,
            Options::default(),
        )
        .await;
        // Planning reads nothing: the unreadable file does not fail it.
        let frame = ctx.sql("SELECT address FROM resources").await.unwrap();
        let plan = frame.create_physical_plan().await.unwrap();
        let err = datafusion::physical_plan::collect(plan, ctx.task_ctx())
            .await
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("notes.txt"), "{text}");
        assert!(reg.skipped.is_empty());

        // Skipped and counted once, whichever tables read it.
        let options = Options {
            skip_unreadable: true,
            ..Options::default()
        };
        let (ctx, reg) = session(&schemas, std::slice::from_ref(&states), 2, options).await;
        let n = rows(&ctx, "SELECT count(*) FROM resources").await;
        let o = rows(&ctx, "SELECT count(*) FROM outputs").await;
        assert_ne!(n[0][0], s("0"));
        assert_ne!(o[0][0], s("0"));
        assert_eq!(reg.skipped.len(), 1);
        assert!(reg.skipped.sources()[0].ends_with("notes.txt"));
    });
}

#[test]
fn a_table_re_created_from_plain_data_gives_the_same_rows() {
    let (schemas, inputs) = small_fleet();
    let sql = "SELECT workspace, address, acl FROM aws_s3_bucket WHERE phase = 'state' ORDER BY workspace, address";
    runtime().block_on(async {
        let (ctx, _) = session(&schemas, &inputs, 2, Options::default()).await;
        let want = rows(&ctx, sql).await;
        assert!(!want.is_empty());
        let args: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        let found = tfwire_arrow::discover(&args).await.unwrap();
        let sources: Vec<(String, String)> = found
            .iter()
            .map(|i| (i.source.clone(), i.workspace.clone()))
            .collect();
        let table =
            tfwire_fleet::FleetTable::open(&sources, &schemas, "aws_s3_bucket", Options::default())
                .unwrap();
        assert_eq!(table.sources(), sources);
        assert_eq!(table.table_name(), "aws_s3_bucket");
        let ctx = SessionContext::new();
        ctx.register_table("aws_s3_bucket", Arc::new(table))
            .unwrap();
        assert_eq!(rows(&ctx, sql).await, want);

        let err = tfwire_fleet::FleetTable::open(
            &sources,
            &schemas,
            "aws_s3_buckets",
            Options::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("no table named aws_s3_buckets"), "{err}");
        assert!(err.contains("aws_s3_bucket,"), "{err}");
        assert!(err.contains("resources"), "{err}");
    });
}

#[test]
fn projection_of_mask_columns_decodes_every_attribute() {
    // `sensitive_paths` speaks of every attribute: asking for it decodes them all, so a
    // secret's path is listed whatever else the query reads.
    let (schemas, inputs) = small_fleet();
    runtime().block_on(async {
        let (ctx, _) = session(&schemas, &inputs, 2, Options::default()).await;
        let one = scan_metrics(&ctx, "SELECT acl FROM aws_s3_bucket").await;
        let masks = scan_metrics(&ctx, "SELECT sensitive_paths FROM aws_s3_bucket").await;
        assert!(masks.decoded > one.decoded * 5, "{one:?} {masks:?}");
    });
}
