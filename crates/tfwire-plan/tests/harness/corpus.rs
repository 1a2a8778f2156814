//! The real documents in `corpus/plans` and `corpus/states`: every one reads (or fails with
//! the recorded message), round-trips, and agrees with an independent reading.
//!
//! "Independent" means a different code path: simd-json's borrowed DOM
//! (`simd_json::to_borrowed_value`) walked by the small functions below, with the text
//! decoded by the standard library, instead of tfwire-plan's tape views and model.

use simd_json::{BorrowedValue as Dom, StaticNode};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tfwire_plan::{Document, DocumentKind, Encoding, Parser, Summary};

/// Corpus files that are expected to fail, with the exact message.
const EXPECTED_ERRORS: &[(&str, &str)] = &[(
    "states/hashicorp__terraform-json/testdata/invalid/state.json",
    "(root): invalid JSON: unexpected character '}' (at byte 227)",
)];

pub(crate) fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// Every file under `corpus/<sub>`, sorted, limited by `TFWIRE_TEST`.
fn files(sub: &str) -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out)
            } else {
                out.push(p)
            }
        }
    }
    let root = corpus_dir();
    let mut out = Vec::new();
    walk(&root.join(sub), &mut out);
    out.sort();
    let filter = std::env::var("TFWIRE_TEST").unwrap_or_default();
    out.into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, p)
        })
        .filter(|(rel, _)| rel.contains(&filter))
        .collect()
}

fn all_files() -> Vec<(String, PathBuf)> {
    let mut v = files("plans");
    v.extend(files("states"));
    assert!(
        v.len() >= 300 || std::env::var("TFWIRE_TEST").is_ok(),
        "the corpus went missing: {} files",
        v.len()
    );
    v
}

/// The text as UTF-8, decoded by the standard library (BOMs dropped, UTF-16 transcoded).
fn independent_text(bytes: &[u8]) -> Vec<u8> {
    let utf16 = |be: bool, b: &[u8]| -> Vec<u8> {
        let units: Vec<u16> = b
            .chunks_exact(2)
            .map(|p| {
                if be {
                    u16::from_be_bytes([p[0], p[1]])
                } else {
                    u16::from_le_bytes([p[0], p[1]])
                }
            })
            .collect();
        String::from_utf16(&units).unwrap().into_bytes()
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => rest.to_vec(),
        [0xFF, 0xFE, rest @ ..] => utf16(false, rest),
        [0xFE, 0xFF, rest @ ..] => utf16(true, rest),
        _ => bytes.to_vec(),
    }
}

fn dom(text: &mut [u8]) -> Option<Dom<'_>> {
    simd_json::to_borrowed_value(text).ok()
}

fn get<'v, 'a>(v: &'v Dom<'a>, key: &str) -> Option<&'v Dom<'a>> {
    match v {
        Dom::Object(o) => o.get(key),
        _ => None,
    }
}

fn arr<'v, 'a>(v: Option<&'v Dom<'a>>) -> &'v [Dom<'a>] {
    match v {
        Some(Dom::Array(a)) => a,
        _ => &[],
    }
}

fn string<'v>(v: Option<&'v Dom<'_>>) -> Option<&'v str> {
    match v {
        Some(Dom::String(s)) => Some(s),
        _ => None,
    }
}

/// plancount.py's categories, written again.
fn category(actions: &[Dom<'_>]) -> String {
    let names: Vec<&str> = actions.iter().filter_map(|a| string(Some(a))).collect();
    match names.as_slice() {
        ["delete", "create"] | ["create", "delete"] => "replace".into(),
        ["no-op"] => "no_op".into(),
        [one] => (*one).into(),
        many => many.join("+"),
    }
}

fn independent_counts(list: Option<&Dom<'_>>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for rc in arr(list) {
        let actions = arr(get(rc, "change").and_then(|c| get(c, "actions")));
        *m.entry(category(actions)).or_default() += 1;
    }
    m
}

fn nonzero(c: &tfwire_plan::Counts) -> BTreeMap<String, usize> {
    c.iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (k.to_string(), n))
        .collect()
}

/// Resource addresses of a values representation, depth first.
fn independent_addresses(values: Option<&Dom<'_>>, out: &mut Vec<String>) {
    fn module(m: &Dom<'_>, out: &mut Vec<String>) {
        for r in arr(get(m, "resources")) {
            out.push(string(get(r, "address")).unwrap_or("").to_string());
        }
        for c in arr(get(m, "child_modules")) {
            module(c, out);
        }
    }
    if let Some(root) = values.and_then(|v| get(v, "root_module")) {
        module(root, out);
    }
}

fn is_null(v: Option<&Dom<'_>>) -> bool {
    matches!(v, None | Some(Dom::Static(StaticNode::Null)))
}

#[test]
fn every_document_reads_or_fails_as_recorded() {
    let mut parser = Parser::new();
    let mut problems = Vec::new();
    let (mut plans, mut states) = (0, 0);
    for (rel, path) in all_files() {
        let raw = std::fs::read(&path).unwrap();
        let want_encoding = match raw.as_slice() {
            [0xEF, 0xBB, 0xBF, ..] => Encoding::Utf8Bom,
            [0xFF, 0xFE, ..] => Encoding::Utf16Le,
            [0xFE, 0xFF, ..] => Encoding::Utf16Be,
            _ => Encoding::Utf8,
        };
        let expected_error = EXPECTED_ERRORS.iter().find(|(f, _)| *f == rel).map(|e| e.1);
        let mut input = raw.clone();
        let arena = bumpalo::Bump::new();
        let result = parser.parse(&mut input).and_then(|tape| {
            let enc = tape.encoding();
            let doc = tape.document(&arena).map(|d| d.kind());
            let text = tape.root().to_string();
            doc.map(|k| (k, enc, text))
        });
        match (result, expected_error) {
            (Err(e), Some(msg)) if e.to_string() == msg => {}
            (Err(e), _) => problems.push(format!("{rel}: {e}")),
            (Ok(_), Some(msg)) => problems.push(format!("{rel}: read, but should fail: {msg}")),
            (Ok((kind, enc, text)), None) => {
                let want_kind = if rel.starts_with("plans/") {
                    plans += 1;
                    DocumentKind::Plan
                } else {
                    states += 1;
                    DocumentKind::State
                };
                if kind != want_kind {
                    problems.push(format!("{rel}: read as {kind:?}, expected {want_kind:?}"));
                }
                if enc != want_encoding {
                    problems.push(format!(
                        "{rel}: encoding {enc:?}, expected {want_encoding:?}"
                    ));
                }
                // Round trip: the compact text of the tape is the same JSON value.
                let mut original = independent_text(&raw);
                let mut again = text.into_bytes();
                if dom(&mut original) != dom(&mut again) {
                    problems.push(format!(
                        "{rel}: the tape's JSON text differs from the input"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if std::env::var("TFWIRE_TEST").is_err() {
        assert_eq!((plans, states), (301, 56), "plans and states read");
    }
}

#[test]
fn plan_counts_agree_with_an_independent_walk() {
    let mut parser = Parser::new();
    let mut checked = 0;
    let mut problems = Vec::new();
    for (rel, path) in files("plans") {
        let raw = std::fs::read(&path).unwrap();
        let mut text = independent_text(&raw);
        let root = dom(&mut text).expect("every plan in the corpus is valid JSON");
        let want_counts = independent_counts(get(&root, "resource_changes"));
        let want_drift = independent_counts(get(&root, "resource_drift"));
        let mut want_changes = Vec::new();
        for rc in arr(get(&root, "resource_changes")) {
            let address = string(get(rc, "address")).unwrap().to_string();
            let actions = arr(get(rc, "change").and_then(|c| get(c, "actions")));
            let previous = string(get(rc, "previous_address")).filter(|p| *p != address);
            let importing = !is_null(get(rc, "change").and_then(|c| get(c, "importing")));
            want_changes.push((
                address.clone(),
                category(actions),
                previous.map(str::to_string),
                importing,
                string(get(rc, "action_reason")).map(str::to_string),
            ));
        }
        let mut want_planned = Vec::new();
        independent_addresses(get(&root, "planned_values"), &mut want_planned);

        let mut input = raw;
        let arena = bumpalo::Bump::new();
        let tape = parser.parse(&mut input).unwrap();
        let plan = tape.plan(&arena).unwrap();
        let summary = Summary::of(plan);
        let got_changes: Vec<_> = summary
            .changes
            .iter()
            .map(|c| {
                (
                    c.address.to_string(),
                    c.kind.key().into_owned(),
                    c.previous_address.map(str::to_string),
                    c.importing,
                    c.action_reason.map(str::to_string),
                )
            })
            .collect();
        let got_planned: Vec<String> = plan
            .planned_values
            .iter()
            .flat_map(|v| v.resources().map(|r| r.address.to_string()))
            .collect();
        if nonzero(&summary.counts) != want_counts {
            problems.push(format!(
                "{rel}: counts {:?}, independent {want_counts:?}",
                nonzero(&summary.counts)
            ));
        }
        if nonzero(&summary.drift) != want_drift {
            problems.push(format!(
                "{rel}: drift {:?}, independent {want_drift:?}",
                nonzero(&summary.drift)
            ));
        }
        if got_changes != want_changes {
            problems.push(format!("{rel}: per-resource list differs"));
        }
        if got_planned != want_planned {
            problems.push(format!("{rel}: planned_values resources differ"));
        }
        checked += 1;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if std::env::var("TFWIRE_TEST").is_err() {
        assert_eq!(checked, 301);
    }
}

#[test]
fn state_addresses_agree_with_an_independent_walk() {
    let mut parser = Parser::new();
    let mut checked = 0;
    let mut problems = Vec::new();
    for (rel, path) in files("states") {
        if EXPECTED_ERRORS.iter().any(|(f, _)| *f == rel) {
            continue;
        }
        let raw = std::fs::read(&path).unwrap();
        let mut text = independent_text(&raw);
        let root = dom(&mut text).unwrap();
        let mut want = Vec::new();
        independent_addresses(get(&root, "values"), &mut want);

        let mut input = raw;
        let arena = bumpalo::Bump::new();
        let tape = parser.parse(&mut input).unwrap();
        let Document::State(state) = tape.document(&arena).unwrap() else {
            panic!("{rel}: not a state")
        };
        let got: Vec<&str> = state.addresses().collect();
        if got != want {
            problems.push(format!("{rel}: {got:?} != {want:?}"));
        }
        checked += 1;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if std::env::var("TFWIRE_TEST").is_err() {
        assert_eq!(checked, 56);
    }
}

#[test]
fn utf16_and_bom_inputs_read_like_their_utf8_text() {
    // The corpus's UTF-16LE files, also re-encoded here as UTF-16BE and UTF-8 with BOM.
    let mut parser = Parser::new();
    let mut seen = 0;
    for (rel, path) in files("plans") {
        let raw = std::fs::read(&path).unwrap();
        if !raw.starts_with(&[0xFF, 0xFE]) {
            continue;
        }
        seen += 1;
        let utf8 = independent_text(&raw);
        let text = String::from_utf8(utf8.clone()).unwrap();
        let mut be = vec![0xFE, 0xFF];
        be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(&utf8);
        let mut no_bom_le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();

        let mut plain = utf8.clone();
        let want = parser.parse(&mut plain).unwrap().root().to_string();
        for (name, mut input, enc) in [
            ("utf-16le", raw.clone(), Encoding::Utf16Le),
            ("utf-16be", be, Encoding::Utf16Be),
            ("utf-8 bom", bom, Encoding::Utf8Bom),
            (
                "utf-16le without bom",
                std::mem::take(&mut no_bom_le),
                Encoding::Utf16Le,
            ),
        ] {
            let tape = parser.parse(&mut input).unwrap();
            assert_eq!(tape.encoding(), enc, "{rel} as {name}");
            assert_eq!(tape.root().to_string(), want, "{rel} as {name}");
        }
    }
    if std::env::var("TFWIRE_TEST").is_err() {
        assert_eq!(seen, 3);
    }
}

/// `Parser::parse_unshaped` (no shape pre-pass) against `Parser::parse` on every corpus
/// document, the fleet's states and the real clients' documents: it never accepts what
/// `parse` refuses; what it accepts reads the same (the whole text, and the model); what it
/// refuses that `parse` reads holds a number beyond `f64`'s range (its callers then parse a
/// fresh copy with `parse`).
#[test]
fn unshaped_parses_agree_with_parse() {
    let mut all = all_files();
    for sub in [
        "fleet/states",
        "fleet/plans",
        "real-client",
        "real-client-terraform",
    ] {
        all.extend(
            files(sub)
                .into_iter()
                .filter(|(rel, _)| rel.ends_with("json") || rel.ends_with("tfstate")),
        );
    }
    let (mut agreed, mut refused) = (0, 0);
    for (rel, path) in &all {
        let bytes = std::fs::read(path).unwrap();
        let (mut a, mut b) = (bytes.clone(), bytes.clone());
        let (mut p, mut q) = (Parser::new(), Parser::new());
        let (arena_a, arena_b) = (bumpalo::Bump::new(), bumpalo::Bump::new());
        let read = |t: &tfwire_plan::Tape<'_>, arena| {
            (t.root().to_string(), format!("{:?}", t.document(arena)))
        };
        match (p.parse(&mut a), q.parse_unshaped(&mut b)) {
            (Ok(t), Ok(u)) => {
                assert_eq!(read(&t, &arena_a), read(&u, &arena_b), "{rel}");
                agreed += 1;
            }
            (Err(_), Err(_)) => refused += 1,
            (Err(e), Ok(_)) => panic!("{rel}: parse refuses it ({e}), parse_unshaped reads it"),
            (Ok(_), Err(e)) => {
                let shape = tfwire_json::json_shape(&bytes, 1024, usize::MAX).unwrap();
                assert!(shape.wide_numbers, "{rel}: parse_unshaped refuses it: {e}");
            }
        }
    }
    assert!(
        agreed > 400,
        "{agreed} documents read alike, {refused} refused by both"
    );
}

/// Nesting: both parsers take exactly `ParserConfig::max_depth` levels.
#[test]
fn unshaped_parses_take_the_same_depth() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes();
    for max in [1, 2, 64, 1024] {
        let config = tfwire_plan::ParserConfig::default().max_depth(max);
        for n in max.max(2) - 1..=max + 2 {
            let whole = Parser::with_config(config.clone())
                .parse(&mut deep(n))
                .is_ok();
            let unshaped = Parser::with_config(config.clone())
                .parse_unshaped(&mut deep(n))
                .is_ok();
            assert_eq!(
                (whole, unshaped),
                (n <= max, n <= max),
                "{n} levels, at most {max}"
            );
        }
    }
}

/// Size: a document of at most `UNSHAPED_MAX_BYTES` skips the shape pre-pass (a number
/// beyond `f64`'s range then fails the parse), a larger one gets it (and reads the number).
#[test]
fn unshaped_parses_shape_what_is_larger_than_their_limit() {
    let doc = |len: usize| {
        let head = br#"{"version":4,"serial":1e400,"lineage":""#;
        let tail = br#"","resources":[]}"#;
        let mut d = head.to_vec();
        d.resize(len - tail.len(), b'l');
        d.extend_from_slice(tail);
        d
    };
    let limit = tfwire_plan::UNSHAPED_MAX_BYTES;
    for (len, read) in [(limit - 1, false), (limit, false), (limit + 1, true)] {
        let mut text = doc(len);
        assert_eq!(text.len(), len);
        let r = Parser::new().parse_unshaped(&mut text);
        assert_eq!(r.is_ok(), read, "{len} bytes: {:?}", r.err());
    }
}
