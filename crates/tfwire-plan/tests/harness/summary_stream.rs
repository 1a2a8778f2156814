//! The summary path ([`Parser::parse_summary`], which blanks the values no summary reads)
//! against the full path ([`Parser::parse`]) on every JSON document of the corpus: the same
//! [`Summary`] (its JSON and its debug form), or the same error (message, offset, path).

use crate::corpus::corpus_dir;
use std::path::{Path, PathBuf};
use tfwire_plan::{Document, Parser, Summary};

/// Every `.json` file under the corpus directories that hold documents: plans and states,
/// the real-client scenarios, the plans derived from binary plan files, hostile and
/// regression inputs.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out)
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p)
            }
        }
    }
    let root = corpus_dir();
    let mut out = Vec::new();
    for sub in [
        "plans",
        "states",
        "real-client",
        "planfiles",
        "hostile",
        "regressions",
    ] {
        walk(&root.join(sub), &mut out);
    }
    out.sort();
    let filter = std::env::var("TFWIRE_TEST").unwrap_or_default();
    out.retain(|p| p.to_string_lossy().contains(&filter));
    out
}

/// The summary of a document (or what kind it is), or the error, as text.
fn outcome(
    parser: &mut Parser,
    mut input: Vec<u8>,
    summary_path: bool,
    nodes: &mut usize,
) -> String {
    let tape = if summary_path {
        parser.parse_summary(&mut input)
    } else {
        parser.parse(&mut input)
    };
    let tape = match tape {
        Ok(t) => {
            *nodes += t.node_count();
            t
        }
        Err(e) => return format!("parse error: {e} / {:?}", e.offset()),
    };
    let arena = bumpalo::Bump::new();
    match tape.document(&arena) {
        Ok(Document::Plan(p)) => {
            let s = Summary::of(p);
            format!("{}\n{s:?}", s.to_json())
        }
        Ok(other) => format!("not a plan: {:?}", other.kind()),
        Err(e) => format!("model error: {e} / {:?}", e.offset()),
    }
}

#[test]
fn the_summary_path_summarises_every_corpus_document_as_the_full_path() {
    let files = documents();
    let mut parser = Parser::new();
    let (mut plans, mut problems) = (0, Vec::new());
    let (mut full_nodes, mut summary_nodes) = (0, 0);
    for path in &files {
        let raw = std::fs::read(path).unwrap();
        let full = outcome(&mut parser, raw.clone(), false, &mut full_nodes);
        let streamed = outcome(&mut parser, raw, true, &mut summary_nodes);
        plans += usize::from(full.starts_with("{\"format_version\""));
        if full != streamed {
            problems.push(format!(
                "{}:\n  full:    {:.300}\n  summary: {:.300}",
                path.display(),
                full,
                streamed
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if std::env::var("TFWIRE_TEST").is_err() {
        assert!(
            files.len() >= 400 && plans >= 300,
            "the corpus went missing: {} files, {plans} plans",
            files.len()
        );
        // The values were left out: the tapes of the summary path are much smaller.
        assert!(
            summary_nodes * 3 < full_nodes,
            "tape nodes: {summary_nodes} on the summary path, {full_nodes} on the full path"
        );
    }
}

/// Documents made to probe the pre-pass: what it skips must be accepted or rejected as the
/// full parser does, with the same error where it is rejected.
#[test]
fn the_summary_path_accepts_and_rejects_what_the_full_path_does() {
    let change = |before: &str| {
        format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["update"],"before":{before},"after":{{"k":[1,2]}}}}}}],"output_changes":{{"o":{{"actions":["create"],"after":{before},"after_sensitive":true}}}}}}"#
        )
        .into_bytes()
    };
    let mut cases: Vec<Vec<u8>> = [
        r#"{"x":1e999}"#,
        r#"{"x":-1e-999}"#,
        r#"{"x":123456789012345678901234567890}"#,
        r#"{"x":0.30000000000000004}"#,
        r#"{"x":-0,"y":1E+2,"z":1e-2}"#,
        r#""\u0000\u00e9\ud83d\ude00""#,
        r#""\ud800""#,
        r#""\udc00\ud800""#,
        r#""\uZZZZ""#,
        r#""\x""#,
        r#"[1,]"#,
        r#"{"x":1,}"#,
        r#"{"x" 1}"#,
        r#"{"x":tru}"#,
        r#"{"x":nul}"#,
        r#"{"x":01}"#,
        r#"{"x":1.}"#,
        r#"{"x":.5}"#,
        r#"{"x":+1}"#,
        r#"{"x":[1}"#,
        r#"{"x":{"y":2]}"#,
        r#"[[[[[[[[[[]]]]]]]]]]"#,
        "\"tab\there\"",
        "\"nl\nhere\"",
        "\"é ✓ 😀\"",
    ]
    .iter()
    .map(|b| change(b))
    .collect();
    // Invalid UTF-8 and nesting deeper than the limit inside a skipped value.
    let mut bad = change(r#""xx""#);
    let at = bad.windows(4).position(|w| w == b"\"xx\"").unwrap() + 1;
    bad[at] = 0xFF;
    cases.push(bad);
    cases.push(change(&format!("{}{}", "[".repeat(1100), "]".repeat(1100))));
    // A document with text after it, and one cut short.
    let mut trailing = change("1");
    trailing.extend_from_slice(b" x");
    cases.push(trailing);
    let mut cut = change(r#"{"long":"value"}"#);
    cut.truncate(cut.len() - 3);
    cases.push(cut);
    // Model errors at an object's offset (its first key's) where the pre-pass removes
    // members: a change without actions whose first member is a value; wrong kinds after.
    for text in [
        r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"before":{"x":1},"after":{"y":[2]},"after_unknown":{}}}]}"#,
        r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"after":{"y":[2]},"actions":"create","before_sensitive":false}}]}"#,
        r#"{"format_version":"1.2","output_changes":{"o":{"before":"secret-value","after":1,"actions":[]}}}"#,
        r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["create"],"before":null}},{"address":7}]}"#,
    ] {
        cases.push(text.as_bytes().to_vec());
    }
    // UTF-16 and a byte-order mark.
    let text = String::from_utf8(change(r#"{"é":"✓"}"#)).unwrap();
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    cases.push(utf16);
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(text.as_bytes());
    cases.push(bom);

    let mut parser = Parser::new();
    let mut problems = Vec::new();
    let mut read = 0;
    for case in cases {
        let (mut full_nodes, mut summary_nodes) = (0, 0);
        let full = outcome(&mut parser, case.clone(), false, &mut full_nodes);
        let streamed = outcome(&mut parser, case.clone(), true, &mut summary_nodes);
        read += usize::from(full.starts_with('{'));
        if full != streamed {
            problems.push(format!(
                "{}:\n  full:    {full:.300}\n  summary: {streamed:.300}",
                String::from_utf8_lossy(&case)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(read >= 8, "only {read} of the cases read");
}
