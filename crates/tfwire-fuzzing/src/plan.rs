//! The `plan` target: any bytes as a plan or state document.

use bumpalo::Bump;
use std::convert::Infallible;
use tfwire_plan::{
    Document, Json, JsonKind, Merged, Parser, Path, Summary, Tape, decode::visit_values,
};

/// Checks plan and state reading on any bytes (see the crate documentation).
pub fn plan(data: &[u8]) {
    summary_path_agrees(data);
    let mut input = data.to_vec();
    let mut parser = Parser::new();
    let tape = match parser.parse(&mut input) {
        Ok(tape) => tape,
        Err(e) => {
            // Offsets count bytes of the text as parsed: transcoded to UTF-8 (and padded)
            // in `input` for UTF-16.
            check_error(&e, input.len().max(data.len()));
            return;
        }
    };
    compact_text_reads_back(&tape);
    let arena = Bump::new();
    let doc = match tape.document(&arena) {
        Ok(doc) => doc,
        Err(e) => {
            check_error(&e, tape.input_len());
            return;
        }
    };
    let _ = (doc.kind(), doc.terraform_version());
    visit_values(&doc, |site, value| {
        let _ = (&site.address, site.role, value.to_string());
        Ok::<(), Infallible>(())
    })
    .unwrap_or_else(|e| match e {});
    match doc {
        Document::Plan(p) => {
            change_path_agrees(data, p);
            let _ = (p.version(), p.is_redacted());
            let summary = Summary::of(p);
            let json = tfwire_render::summary::to_json(&summary);
            let mut bytes = json.clone().into_bytes();
            let parsed = Parser::new()
                .parse(&mut bytes)
                .unwrap_or_else(|e| panic!("summary JSON does not parse: {e}\n  {json}"));
            assert_eq!(
                parsed.root().kind(),
                JsonKind::Object,
                "summary JSON: {json}"
            );
            let _ = (summary.moved().count(), summary.imported().count());
            for rc in p.resource_changes.iter().chain(p.resource_drift) {
                let _ = (rc.address, rc.change.kind().key());
                let _ = p.resource_change(rc.address);
                walk_view(rc.change.after_view());
                walk_view(rc.change.before_view());
                for path in rc.change.replace_paths {
                    let _ = rc.change.after_view().at(&path.to_path());
                    path_reads_back(&path.to_path());
                }
            }
            for oc in p.output_changes {
                walk_view(oc.change.after_view());
                walk_view(oc.change.before_view());
            }
            for values in [p.planned_values, p.prior_state.and_then(|s| s.values)]
                .into_iter()
                .flatten()
            {
                for r in values.resources() {
                    walk_view(r.view());
                }
            }
            if let Some(c) = p.configuration
                && let Some(m) = c.root_module()
            {
                for r in m.resources() {
                    let _ = (r.address(), r.expressions().map(|e| e.references()));
                }
            }
        }
        Document::State(s) => {
            let _ = s.addresses().count();
            for r in s.values.iter().flat_map(|v| v.resources()) {
                walk_view(r.view());
            }
        }
        Document::RawState(s) => {
            for a in s.addresses() {
                let _ = a.to_string();
            }
        }
        Document::LegacyState(s) => {
            let _ = s.addresses().count();
        }
    }
}

/// Walks every leaf of a merged view; the first leaves' paths print, parse back, and lead
/// to a node.
fn walk_view(view: Merged<'_>) {
    let mut paths = Vec::new();
    view.for_each_leaf(|path, leaf| {
        let _ = (leaf.is_unknown(), leaf.is_sensitive(), leaf.value());
        if paths.len() < 64 {
            paths.push(path.clone());
        }
    });
    for path in paths {
        path_reads_back(&path);
        assert!(
            view.at(&path).is_some(),
            "the leaf at {path} is not found by its path"
        );
    }
}

fn path_reads_back(path: &Path<'_>) {
    let text = path.to_string();
    let parsed = Path::parse(&text).unwrap_or_else(|e| panic!("path {text} does not parse: {e}"));
    assert_eq!(&parsed, path, "path {text} read back");
}

/// The tape's compact JSON text (`Json`'s `Display`) parses to the same tree (numbers
/// compared as `f64`, as the tape holds the ones beyond 64-bit integers).
fn compact_text_reads_back(tape: &Tape<'_>) {
    let text = tape.root().to_string();
    let mut bytes = text.clone().into_bytes();
    let again = Parser::new()
        .parse(&mut bytes)
        .unwrap_or_else(|e| panic!("compact JSON text does not parse: {e}\n  {text:.300}"));
    assert!(
        same_json(tape.root(), again.root()),
        "compact JSON text reads back differently: {text:.300}"
    );
}

fn same_json(a: Json<'_>, b: Json<'_>) -> bool {
    match (a.kind(), b.kind()) {
        (JsonKind::Number, JsonKind::Number) => a.as_f64() == b.as_f64(),
        // A number beyond f64's range is written as null.
        (JsonKind::Number, JsonKind::Null) => a.as_f64().is_some_and(|f| f.is_infinite()),
        (JsonKind::Array, JsonKind::Array) => match (a.as_array(), b.as_array()) {
            (Some(x), Some(y)) => {
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_json(p, q))
            }
            _ => false,
        },
        (JsonKind::Object, JsonKind::Object) => match (a.as_object(), b.as_object()) {
            (Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|((k, p), (l, q))| k == l && same_json(p, q))
            }
            _ => false,
        },
        (ka, kb) => ka == kb && a == b,
    }
}

/// What reading `data` as a plan for its summary gives: the summary (its JSON and debug
/// form), the kind of a document that is not a plan, or the error (message, offset, path).
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Summary(String),
    NotAPlan(String),
    ParseError(String, Option<usize>),
    ModelError(String, Option<usize>, String),
}

fn outcome(data: &[u8], summary_path: bool) -> Outcome {
    let mut input = data.to_vec();
    let mut parser = Parser::new();
    let parsed = if summary_path {
        parser.parse_summary(&mut input)
    } else {
        parser.parse(&mut input)
    };
    let tape = match parsed {
        Ok(tape) => tape,
        Err(e) => {
            check_error(&e, input.len().max(data.len()));
            return Outcome::ParseError(e.to_string(), e.offset());
        }
    };
    let arena = Bump::new();
    match tape.document(&arena) {
        Ok(Document::Plan(p)) => {
            let s = Summary::of(p);
            Outcome::Summary(format!("{}\n{s:?}", tfwire_render::summary::to_json(&s)))
        }
        Ok(other) => Outcome::NotAPlan(format!("{:?}", other.kind())),
        Err(e) => {
            // Offsets count bytes of the text as given (UTF-16: as transcoded), also for
            // the summary path's compacted text.
            let mut text = data.to_vec();
            let len = tfwire_plan::transcode(&mut text).map_or(data.len(), |_| text.len());
            check_error(&e, len);
            Outcome::ModelError(e.to_string(), e.offset(), e.path().to_string())
        }
    }
}

/// Top-level members whose values the summary path replaces by `null` without modelling
/// them: a wrong kind of value there is an error of the full model only.
const SKIPPED_TOP: &[&str] = &[
    ".planned_values",
    ".prior_state",
    ".configuration",
    ".proposed_unknown",
    ".relevant_attributes",
    ".variables",
    ".checks",
    ".provider_schemas",
];

/// The summary path ([`Parser::parse_summary`], which cuts the values no summary reads out
/// of the text) reads every input as the full path does: the same summary, or the same
/// error with the same offset and path. The one documented difference: a model error
/// inside a top-level member the summary path skips (`"planned_values": 5`) is not an
/// error there.
fn summary_path_agrees(data: &[u8]) {
    let full = outcome(data, false);
    let summary = outcome(data, true);
    if full == summary {
        return;
    }
    if let (Outcome::ModelError(_, _, path), Outcome::Summary(_) | Outcome::NotAPlan(_)) =
        (&full, &summary)
        && SKIPPED_TOP.iter().any(|top| {
            path.strip_prefix(top)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    {
        return;
    }
    panic!("the summary path reads differently:\n  full:    {full:?}\n  summary: {summary:?}");
}

/// The path for one address ([`Parser::parse_change`], `plan show ADDRESS`) reads a plan
/// the full path models as the full path does: the same summary, and every change at the
/// first resource change's address (or an absent address) as written; every other change
/// without values, or with its values as written (a change whose `address` key the pre-pass
/// cannot read, absent or escaped, keeps them).
fn change_path_agrees(data: &[u8], full: &tfwire_plan::Plan<'_>) {
    let address = full
        .resource_changes
        .first()
        .map_or("absent.address", |rc| rc.address);
    let mut input = data.to_vec();
    let mut parser = Parser::new();
    let tape = parser
        .parse_change(&mut input, address)
        .unwrap_or_else(|e| panic!("the change path refuses a plan the full path reads: {e}"));
    let arena = Bump::new();
    let Ok(Document::Plan(plan)) = tape.document(&arena) else {
        panic!("the change path models a plan the full path reads differently");
    };
    assert_eq!(
        format!("{:?}", Summary::of(plan)),
        format!("{:?}", Summary::of(full))
    );
    for (list, full_list) in [
        (plan.resource_changes, full.resource_changes),
        (plan.resource_drift, full.resource_drift),
    ] {
        assert_eq!(list.len(), full_list.len());
        for (rc, frc) in list.iter().zip(full_list) {
            if frc.address == address || frc.previous_address == Some(address) {
                assert!(
                    same_json(rc.raw, frc.raw),
                    "the change at {address} differs"
                );
            } else {
                // Dropped, or kept whole (a change whose address the pre-pass could not
                // read keeps its values): never different values.
                assert!(
                    rc.change.after.is_none_or(|v| v.is_null()) || same_json(rc.raw, frc.raw),
                    "a change not at {address} has values the full path does not"
                );
            }
        }
    }
}

fn check_error(e: &tfwire_plan::Error, len: usize) {
    crate::clean_message(&e.to_string());
    let _ = e.path();
    if let Some(offset) = e.offset() {
        assert!(offset <= len, "error offset {offset} past the input: {e}");
    }
}
