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
            format!("summary: {s:?}")
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
        plans += usize::from(full.starts_with("summary: "));
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
        read += usize::from(full.starts_with("summary: "));
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

/// The values a change keeps on the path for one address: every member as written (its
/// raw JSON), or, for a change not asked for, only that its values are absent.
fn values_absent(c: &tfwire_plan::Change<'_>) -> bool {
    [
        c.before,
        c.after,
        c.after_unknown,
        c.before_sensitive,
        c.after_sensitive,
        c.before_identity,
        c.after_identity,
    ]
    .iter()
    .all(|v| v.is_none_or(|v| v.is_null()))
}

/// Whether the change `rc` is one `plan show ADDRESS` shows for `address`.
fn at(rc: &tfwire_plan::ResourceChange<'_>, address: &str) -> bool {
    rc.address == address || rc.previous_address == Some(address)
}

#[test]
fn the_change_path_keeps_the_values_of_the_address_asked_for_only() {
    let files = documents();
    let mut parser = Parser::new();
    // What the addresses tried covered: several changes at one address (deposed objects),
    // module instances, a previous address, drift, outputs, absent addresses.
    let (mut several, mut modules, mut moved, mut drift, mut outputs, mut absent) =
        (0, 0, 0, 0, 0, 0);
    let mut deposed = 0;
    let mut problems = Vec::new();
    for path in &files {
        let text = std::fs::read(path).unwrap();
        let mut full_input = text.clone();
        let Ok(full_tape) = parser.parse(&mut full_input) else {
            continue;
        };
        let arena = bumpalo::Bump::new();
        let Ok(Document::Plan(full)) = full_tape.document(&arena) else {
            continue;
        };
        let mut addresses: Vec<String> = Vec::new();
        for rc in full.resource_changes.iter().chain(full.resource_drift) {
            addresses.push(rc.address.to_string());
            addresses.extend(rc.previous_address.map(str::to_string));
        }
        addresses.sort();
        addresses.dedup();
        // At most a few dozen addresses a document, spread over it.
        let step = addresses.len().div_ceil(24).max(1);
        let mut tried: Vec<String> = addresses.into_iter().step_by(step).collect();
        tried.extend(
            full.output_changes
                .iter()
                .map(|o| format!("output.{}", o.name)),
        );
        tried.push("aws_instance.absent[\"x\"]".into());
        for address in &tried {
            let mut input = text.clone();
            let tape = match parser.parse_change(&mut input, address) {
                Ok(t) => t,
                Err(e) => {
                    problems.push(format!("{}: {address}: {e}", path.display()));
                    continue;
                }
            };
            let arena = bumpalo::Bump::new();
            let plan = match tape.document(&arena) {
                Ok(Document::Plan(p)) => p,
                other => {
                    problems.push(format!("{}: {address}: {other:?}", path.display()));
                    continue;
                }
            };
            if format!("{:?}", Summary::of(plan)) != format!("{:?}", Summary::of(full)) {
                problems.push(format!("{}: {address}: summaries differ", path.display()));
            }
            let mut kept = 0;
            for (list, full_list) in [
                (plan.resource_changes, full.resource_changes),
                (plan.resource_drift, full.resource_drift),
            ] {
                assert_eq!(list.len(), full_list.len());
                for (rc, frc) in list.iter().zip(full_list) {
                    assert_eq!(rc.address, frc.address);
                    let ok = if at(frc, address) {
                        kept += 1;
                        drift += usize::from(core::ptr::eq(full_list, full.resource_drift));
                        moved += usize::from(frc.address != address);
                        modules += usize::from(frc.module_address.is_some());
                        deposed += usize::from(frc.deposed.is_some());
                        rc.raw.to_string() == frc.raw.to_string()
                    } else {
                        values_absent(&rc.change)
                    };
                    if !ok {
                        problems.push(format!("{}: {address}: {}", path.display(), rc.address));
                    }
                }
            }
            several += usize::from(kept > 1);
            for (o, fo) in plan.output_changes.iter().zip(full.output_changes) {
                let ok = if address.strip_prefix("output.") == Some(o.name) {
                    outputs += 1;
                    o.change.raw.to_string() == fo.change.raw.to_string()
                } else {
                    // An output change keeps its `*_sensitive` (summaries read them).
                    let c = &o.change;
                    [c.before, c.after, c.after_unknown]
                        .iter()
                        .all(|v| v.is_none_or(|v| v.is_null()))
                };
                if !ok {
                    problems.push(format!("{}: {address}: output {}", path.display(), o.name));
                }
            }
            if plan.provider_schemas.map(|v| v.to_string())
                != full.provider_schemas.map(|v| v.to_string())
            {
                problems.push(format!("{}: {address}: provider_schemas", path.display()));
            }
            absent += usize::from(kept == 0 && !address.starts_with("output."));
            parser.recycle(tape);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if std::env::var("TFWIRE_TEST").is_err() {
        let covered = [several, modules, moved, drift, outputs, absent, deposed];
        assert!(covered.iter().all(|&n| n > 0), "not covered: {covered:?}");
    }
}

/// A plan holding a surrogate pair escape (an emoji written `\ud83d\ude00`, as Go's
/// `encoding/json` never writes it but other writers do) and a wrong kind of value in a
/// top-level member no summary reads: the pre-pass accepts surrogate pairs as the tape
/// parser does, so `plan show ADDRESS` (the change path) and `plan summary` both read it as
/// every other plan whose set-aside members they do not read, and agree with each other
/// (a pre-pass that refused the escape would leave the plan to the full model, which rejects
/// the `planned_values` it reads).
#[test]
fn the_change_and_summary_paths_read_surrogate_pairs_as_the_parser_does() {
    let text = r#"{"format_version":"1.2","planned_values":12345,"resource_changes":[
      {"address":"a.x","change":{"actions":["create"],"before":null,"after":{"s":"\ud83d\ude00"}}},
      {"address":"a.y","change":{"actions":["create"],"before":null,"after":{"s":"\ud83d\ude01"}}}]}"#;
    let mut parser = Parser::new();
    // The full model reads `planned_values` and rejects it (a decision: the paths that set it
    // aside do not read it).
    let mut input = text.as_bytes().to_vec();
    let full = parser.parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    assert!(full.document(&arena).is_err());
    let mut input = text.as_bytes().to_vec();
    let tape = parser.parse_change(&mut input, "a.x").unwrap();
    let Ok(Document::Plan(plan)) = tape.document(&arena) else {
        panic!("the change path refuses a plan the summary path reads");
    };
    let after = plan.resource_changes[0].change.after.unwrap();
    assert_eq!(after.get("s").and_then(|s| s.as_str()), Some("\u{1f600}"));
    assert!(values_absent(&plan.resource_changes[1].change));
    let mut input = text.as_bytes().to_vec();
    let tape = parser.parse_summary(&mut input).unwrap();
    let Ok(Document::Plan(summary)) = tape.document(&arena) else {
        panic!("the summary path refuses the plan");
    };
    assert_eq!(
        format!("{:?}", Summary::of(summary)),
        format!("{:?}", Summary::of(plan))
    );
    // A lone surrogate is the parser's error on every path, at the same place.
    let lone = text.replace(r"\ude00", "");
    let errors: Vec<String> = [None, Some("a.x")]
        .into_iter()
        .map(|keep| {
            let mut input = lone.as_bytes().to_vec();
            match keep {
                None => parser.parse_summary(&mut input).map(|_| ()),
                Some(a) => parser.parse_change(&mut input, a).map(|_| ()),
            }
            .unwrap_err()
            .to_string()
        })
        .collect();
    let mut input = lone.as_bytes().to_vec();
    let full = parser
        .parse(&mut input)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert_eq!(errors, [full.clone(), full]);
}
