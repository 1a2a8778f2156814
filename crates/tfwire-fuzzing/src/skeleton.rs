//! The `skeleton` target: the summary pre-pass (`tfwire_json::skeleton`) against the tape
//! parse, on any bytes.

use tfwire_json::skeleton::compact_for_summary;
use tfwire_json::tape::{INPUT_PADDING, TapeParser};
use tfwire_json::view::Json;

/// The nesting the check allows (the plan reader's default).
const MAX_DEPTH: usize = 1024;

/// Members a pass may remove (a change's and an output change's values).
const REMOVABLE: &[&str] = &[
    "before",
    "after",
    "after_unknown",
    "before_sensitive",
    "after_sensitive",
    "before_identity",
    "after_identity",
];

/// Top-level members a pass may blank (their value becomes `null`).
const BLANKABLE: &[&str] = &[
    "planned_values",
    "prior_state",
    "configuration",
    "proposed_unknown",
    "relevant_attributes",
    "variables",
    "checks",
    "provider_schemas",
];

/// Checks the pre-pass against the tape parse (see the crate documentation): the first byte's
/// bit 0 chooses the mode (clear: a summary; set: keep the values of the first resource
/// change's address), the rest is the document.
///
/// - whatever the pass accepts the tape parse accepts, and the tape parse of the compacted
///   text too, with the same "may hold a number beyond `f64`" answer as the shape pass;
/// - whatever the tape parse accepts (an object within the limits) the pass accepts;
/// - every value the pass kept is the original's: the compacted document is the original
///   with change values removed and top-level values blanked, nothing else; a change at the
///   kept address is whole.
pub fn skeleton(data: &[u8]) {
    let Some((&mode, text)) = data.split_first() else {
        return;
    };
    let mut parser = TapeParser::new(MAX_DEPTH);
    let mut original = text.to_vec();
    original.resize(text.len() + INPUT_PADDING, b' ');
    let shape = tfwire_json::json_shape(text, MAX_DEPTH, usize::MAX);
    let parsed = shape
        .as_ref()
        .ok()
        .and_then(|shape| parser.parse_document(&mut original, text.len(), shape).ok());
    let keep = match (&parsed, mode & 1) {
        (Some(doc), 1) => first_address(doc.root()),
        _ => None,
    };
    let mut compacted = text.to_vec();
    let pass = compact_for_summary(
        &mut compacted,
        0,
        0,
        (MAX_DEPTH, usize::MAX),
        keep.as_deref(),
    );
    let Some(doc) = parsed else {
        assert!(
            pass.is_none(),
            "the pre-pass accepts a document the tape parse refuses"
        );
        assert_eq!(compacted, text, "a refused document is left as it is");
        return;
    };
    let root = doc.root();
    let Some((_, kept_shape)) = pass else {
        assert!(
            root.as_object().is_none(),
            "the pre-pass refuses an object the tape parse accepts"
        );
        return;
    };
    let again = tfwire_json::json_shape(&compacted, MAX_DEPTH, usize::MAX)
        .expect("the compacted text passes the shape check");
    assert_eq!(
        kept_shape.wide_numbers, again.wide_numbers,
        "the pass and the shape pass disagree on numbers beyond f64"
    );
    let len = compacted.len();
    compacted.resize(len + INPUT_PADDING, b' ');
    let mut parser2 = TapeParser::new(MAX_DEPTH);
    let small = parser2
        .parse_document(&mut compacted, len, &again)
        .expect("the tape parse accepts the compacted text");
    assert!(
        subsumes(small.root(), root, None),
        "the compacted document is not the original less its set-aside values"
    );
    if let Some(address) = &keep {
        for list in ["resource_changes", "resource_drift"] {
            let (Some(kept), Some(all)) = (
                small.root().get(list).and_then(|l| l.as_array()),
                root.get(list).and_then(|l| l.as_array()),
            ) else {
                continue;
            };
            for (k, o) in kept.iter().zip(all.iter()) {
                if o.get("address").and_then(|a| a.as_str()) == Some(address) {
                    assert_eq!(k, o, "the change at {address} lost values");
                }
            }
        }
    }
}

/// The address of the first resource change of a plan, if it has one.
fn first_address(root: Json<'_>) -> Option<String> {
    let first = root.get("resource_changes")?.as_array()?.get(0)?;
    Some(first.get("address")?.as_str()?.to_owned())
}

/// Whether `kept` is `original` less what the pass may set aside: equal, or `null` for a
/// member the pass blanks, or an object whose members are the original's in order, less
/// members the pass removes (each compared the same way).
fn subsumes(kept: Json<'_>, original: Json<'_>, key: Option<&str>) -> bool {
    if kept == original {
        return true;
    }
    if kept.is_null() && key.is_some_and(|k| BLANKABLE.contains(&k) || REMOVABLE.contains(&k)) {
        return true;
    }
    match (kept.as_object(), original.as_object()) {
        (Some(k), Some(o)) => {
            let mut rest = o.iter();
            for (key, value) in k.iter() {
                loop {
                    let Some((okey, ovalue)) = rest.next() else {
                        return false;
                    };
                    if okey == key {
                        if !subsumes(value, ovalue, Some(key)) {
                            return false;
                        }
                        break;
                    }
                    if !REMOVABLE.contains(&okey) {
                        return false;
                    }
                }
            }
            rest.all(|(okey, _)| REMOVABLE.contains(&okey))
        }
        _ => match (kept.as_array(), original.as_array()) {
            (Some(k), Some(o)) => {
                k.len() == o.len() && k.iter().zip(o.iter()).all(|(k, o)| subsumes(k, o, None))
            }
            _ => false,
        },
    }
}

/// Made-up documents for the target's seeds: plans whose strings (keys, addresses and
/// values; plain, escaped, with surrogate pairs, lone surrogates and control characters)
/// and numbers (from one digit to beyond `f64`'s range, with fractions and exponents) have
/// every size around the pass's eight-byte steps, each in both modes.
pub fn skeleton_documents() -> Vec<Vec<u8>> {
    let mut docs = Vec::new();
    let pieces = [
        "x",
        "\\\"",
        "\\\\",
        "\\n",
        "\\u0041",
        "\\ud83d\\ude00",
        "é",
        "日本",
        "\\/",
    ];
    let bad = ["\\ud800", "\\ude00", "\\q", "\u{1}", "\\u12G4"];
    for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 31, 33] {
        for piece in pieces.iter().chain(bad.iter()) {
            let s: String = "a".repeat(len) + piece + &"b".repeat(len % 5);
            docs.push(plan(&s, "1"));
        }
    }
    for digits in [1usize, 2, 15, 16, 19, 20, 21, 308, 309, 400] {
        let int = "7".repeat(digits);
        for number in [
            int.clone(),
            format!("-{int}"),
            format!("{int}.5"),
            format!("0.{int}"),
            format!("{int}e5"),
            format!("1E-{digits}"),
            format!("0{int}"),
            format!("{int}."),
        ] {
            docs.push(plan("s", &number));
        }
    }
    docs.push(b"[1,2]".to_vec());
    docs.push(b"{\"resource_changes\":[{\"change\":{}}]".to_vec());
    docs.push(format!("{}{}", "[".repeat(1100), "]".repeat(1100)).into_bytes());
    let mut out = Vec::new();
    for doc in docs {
        for mode in [0u8, 1] {
            let mut d = vec![mode];
            d.extend_from_slice(&doc);
            out.push(d);
        }
    }
    out
}

/// A plan with `s` in a key, an address, a kept and a removed value, and `n` in kept and
/// removed values.
fn plan(s: &str, n: &str) -> Vec<u8> {
    format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.{s}","change":{{"actions":["update"],"before":{{"{s}":{n}}},"after":[{n},"{s}"],"after_unknown":{{}}}},"index":{n}}},{{"change":{{"before":"{s}","actions":[]}},"address":"b"}}],"output_changes":{{"{s}":{{"after":{n},"before":"{s}","after_sensitive":false}}}},"planned_values":{{"{s}":{n}}},"prior_state":{n},"variables":{{"v":{{"value":"{s}"}}}}}}"#
    )
    .into_bytes()
}
