//! The ten queries of `benches/fleet/queries.json` over the committed small fleet
//! (`corpus/fleet`), against the answers its Python reference computed from the `show
//! -json` documents (`corpus/fleet/answers.json`).

use crate::common::{root, rows, runtime, session, small_fleet};
use tfwire_arrow::Options;

/// `(id, sql)` of each query, in file order.
pub(crate) fn queries() -> Vec<(String, String)> {
    let doc = crate::common::read_json(&root().join("benches/fleet/queries.json"));
    doc.as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["id"].as_str().unwrap().to_owned(),
                q["sql"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The reference's answer to each query: rows of canonical cells.
pub(crate) fn answers() -> serde_json::Map<String, serde_json::Value> {
    let doc = crate::common::read_json(&root().join("corpus/fleet/answers.json"));
    doc.as_object().unwrap().clone()
}

pub(crate) fn answer(
    answers: &serde_json::Map<String, serde_json::Value>,
    id: &str,
) -> Vec<Vec<Option<String>>> {
    answers[id]
        .as_array()
        .unwrap_or_else(|| panic!("answers.json has no answer for {id}"))
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().map(str::to_owned))
                .collect()
        })
        .collect()
}

#[test]
fn the_ten_queries_equal_the_reference() {
    let queries = queries();
    assert_eq!(
        queries.len(),
        10,
        "benches/fleet/queries.json holds ten queries"
    );
    let answers = answers();
    let (schemas, inputs) = small_fleet();
    runtime().block_on(async {
        // One partition and several: the answers may not depend on how inputs are dealt.
        for partitions in [1, 3] {
            let (ctx, reg) = session(&schemas, &inputs, partitions, Options::default()).await;
            for (id, sql) in &queries {
                let got = rows(&ctx, sql).await;
                let want = answer(&answers, id);
                assert!(!want.is_empty(), "{id}: the reference's answer is empty");
                assert_eq!(got, want, "{id} ({partitions} partitions): {sql}");
            }
            assert!(reg.skipped.is_empty());
        }
    });
}

#[test]
fn the_two_column_query_decodes_one_attribute_per_row() {
    // The DuckDB anchor (`public_buckets`): `workspace` is a common column, `acl` the only
    // attribute decoded, once per bucket row; every other attribute is left undecoded.
    let (schemas, inputs) = small_fleet();
    runtime().block_on(async {
        let (ctx, _) = session(&schemas, &inputs, 2, Options::default()).await;
        let buckets = rows(&ctx, "SELECT count(*) FROM aws_s3_bucket").await;
        let buckets: u64 = buckets[0][0].as_deref().unwrap().parse().unwrap();
        assert!(buckets > 50, "{buckets} bucket rows");
        let sql = "SELECT workspace, count(*) FROM aws_s3_bucket WHERE acl = 'public-read' GROUP BY workspace";
        let two = crate::scan::scan_metrics(&ctx, sql).await;
        assert_eq!(two.decoded, buckets, "{two:?}");
        assert_eq!(two.rows, buckets, "{two:?}");
        let all = crate::scan::scan_metrics(&ctx, "SELECT * FROM aws_s3_bucket").await;
        assert!(all.decoded > 10 * buckets, "every attribute decoded: {all:?}");
        assert_eq!(all.inputs, two.inputs);
    });
}
