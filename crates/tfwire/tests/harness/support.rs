//! Shared by the integration tests: loading the conformance corpus and applying its rules.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::PathBuf;

#[path = "decimal.rs"]
mod decimal;
pub(crate) use decimal::normalize_decimal;

/// `corpus/` at the top of the repository.
pub fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// Parses one JSON text. Lone surrogate escapes (Python's `json` writes them for the
/// vectors about them) become U+FFFD, as Go reads them.
pub fn json(text: &str) -> Json {
    let fixed = replace_lone_surrogates(text);
    serde_json::from_str(&fixed).unwrap_or_else(|e| panic!("bad JSON: {e}: {text:.200}"))
}

fn replace_lone_surrogates(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\\ud") && !text.contains("\\uD") {
        return text.into();
    }
    let b = text.as_bytes();
    let unit = |i: usize| -> Option<u32> {
        (b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u'))
            .then(|| {
                std::str::from_utf8(b.get(i + 2..i + 6)?)
                    .ok()
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
            })
            .flatten()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        if let Some(u) = unit(i) {
            if (0xd800..0xdc00).contains(&u)
                && unit(i + 6).is_some_and(|l| (0xdc00..0xe000).contains(&l))
            {
                out.push_str(&text[i..i + 12]);
                i += 12;
                continue;
            }
            if (0xd800..0xe000).contains(&u) {
                out.push_str("\\ufffd");
                i += 6;
                continue;
            }
        }
        let c = text[i..].chars().next().expect("a char");
        out.push(c);
        i += c.len_utf8();
    }
    out.into()
}

/// Reads a JSON-lines file of `corpus/conformance/`.
pub fn lines(file: &str) -> Vec<Json> {
    let path = corpus().join("conformance").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(json)
        .collect()
}

pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Lower-case hex of bytes.
pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Compares two JSON texts of one value: `Ok` with the pairs of number texts that differ (in
/// document order), `Err` if anything else differs.
pub fn json_number_diffs(got: &str, want: &str) -> Result<Vec<(String, String)>, String> {
    fn walk(a: &Json, b: &Json, out: &mut Vec<(String, String)>) -> Result<(), String> {
        match (a, b) {
            (Json::Number(x), Json::Number(y)) => {
                if x != y {
                    out.push((x.as_str().to_owned(), y.as_str().to_owned()));
                }
                Ok(())
            }
            (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
                x.iter().zip(y).try_for_each(|(p, q)| walk(p, q, out))
            }
            (Json::Object(x), Json::Object(y))
                if x.len() == y.len() && x.keys().zip(y.keys()).all(|(k, l)| k == l) =>
            {
                x.values()
                    .zip(y.values())
                    .try_for_each(|(p, q)| walk(p, q, out))
            }
            _ if a == b => Ok(()),
            _ => Err(format!("{:.100} differs from {:.100}", text(a), text(b))),
        }
    }
    let parse = |t: &str| serde_json::from_str::<Json>(t).map_err(|e| format!("bad JSON: {e}"));
    let mut out = Vec::new();
    walk(&parse(got)?, &parse(want)?, &mut out)?;
    Ok(out)
}

/// Whether two number texts denote the same binary64.
pub fn same_float(a: &str, b: &str) -> bool {
    matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if x == y)
}

/// Compact JSON text of a value (for types and messages).
pub fn text(v: &Json) -> String {
    serde_json::to_string(v).expect("serializable")
}

/// One conformance vector.
pub struct Vector {
    pub file: &'static str,
    pub name: String,
    pub kind: String,
    /// The type, as compact type JSON.
    pub ty: String,
    pub msgpack: Option<Vec<u8>>,
    pub json_text: Option<Vec<u8>>,
    pub json_unavailable: Option<String>,
    pub expect: Json,
    pub expect_any_of: Vec<Json>,
    pub json_expect: Option<Json>,
    pub tags: Vec<String>,
}

impl Vector {
    pub fn has_tag(&self, t: &str) -> bool {
        self.tags.iter().any(|x| x == t)
    }

    /// Made by go-cty's encoder from a value: `curated`, `generated`, `block`, and the
    /// `refined/value/...` vectors.
    pub fn made_from_value(&self) -> bool {
        matches!(self.kind.as_str(), "curated" | "generated" | "block")
            || self.name.starts_with("refined/value/")
    }
}

/// Every vector of the decode files.
pub fn vectors() -> Vec<Vector> {
    let mut out = Vec::new();
    for file in [
        "vectors.jsonl",
        "vectors-cty116.jsonl",
        "vectors-cty118.jsonl",
        "vectors-refined.jsonl",
        "bad.jsonl",
        "bad-refined.jsonl",
    ] {
        for r in lines(file) {
            let s = |k: &str| r.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            out.push(Vector {
                file,
                name: s("name").expect("name"),
                kind: s("kind").expect("kind"),
                ty: text(r.get("type").expect("type")),
                msgpack: s("msgpack_hex").map(|h| hex(&h)),
                json_text: s("json_text")
                    .map(String::into_bytes)
                    .or_else(|| s("json_hex").map(|h| hex(&h))),
                json_unavailable: s("json_unavailable"),
                expect: r.get("expect").expect("expect").clone(),
                expect_any_of: r
                    .get("expect_any_of")
                    .and_then(|v| v.as_array())
                    .cloned()
                    .unwrap_or_default(),
                json_expect: r.get("json_expect").cloned(),
                tags: r
                    .get("tags")
                    .and_then(|v| v.as_array())
                    .map(|a| {
                        a.iter()
                            .filter_map(|t| t.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default(),
            });
        }
    }
    out
}

/// tfwire's documented departures from the vectors (`corpus/conformance/decisions.jsonl`).
pub struct Decision {
    pub rule: String,
    pub expect: Option<Json>,
}

pub fn decisions() -> HashMap<String, Decision> {
    lines("decisions.jsonl")
        .into_iter()
        .map(|r| {
            let name = r
                .get("name")
                .and_then(|v| v.as_str())
                .expect("name")
                .to_owned();
            let rule = r
                .get("rule")
                .and_then(|v| v.as_str())
                .expect("rule")
                .to_owned();
            (
                name,
                Decision {
                    rule,
                    expect: r.get("expect").cloned(),
                },
            )
        })
        .collect()
}

/// What a decode must give.
#[derive(Debug)]
pub enum Want {
    /// One of these canonical values.
    Value(Vec<Json>),
    /// An error.
    Error,
    /// Anything but a crash (go-cty panics on these; tfwire decodes or rejects them).
    NoCrash,
}

pub fn is_error(v: &Json) -> bool {
    v.get("error").is_some()
}

/// The text inside a MessagePack string (or binary) value.
pub fn msgpack_str(bytes: &[u8]) -> String {
    let mut t = tfwire_msgpack::Tokenizer::new(bytes);
    let tok = t.next_token().expect("a token");
    String::from_utf8(t.payload(&tok).to_vec()).expect("utf-8")
}

/// What decoding `v`'s MessagePack must give, under the corpus rules.
pub fn want_msgpack(v: &Vector, decisions: &HashMap<String, Decision>) -> Want {
    if let Some(d) = decisions.get(&v.name) {
        match d.rule.as_str() {
            "reject" => return Want::Error,
            "document" => {
                let e = d
                    .expect
                    .clone()
                    .expect("a document decision has an expectation");
                return if is_error(&e) {
                    Want::Error
                } else {
                    Want::Value(vec![e])
                };
            }
            "exact" => {
                let text = msgpack_str(v.msgpack.as_deref().expect("msgpack"));
                return Want::Value(vec![json(&format!(
                    "[\"number\",\"{}\"]",
                    normalize_decimal(&text)
                ))]);
            }
            // About re-encoding only (see the conformance harness).
            "merge" => {}
            other => panic!("unknown decision rule {other}"),
        }
    }
    if v.has_tag("roundtrip-fails") {
        return Want::NoCrash;
    }
    if is_error(&v.expect) {
        return Want::Error;
    }
    let mut all = vec![v.expect.clone()];
    all.extend(v.expect_any_of.iter().cloned());
    Want::Value(all)
}

/// What decoding `v`'s JSON text must give, under the corpus rules.
pub fn want_json(v: &Vector, decisions: &HashMap<String, Decision>) -> Want {
    if let Some(d) = decisions.get(&v.name) {
        match d.rule.as_str() {
            "reject" => return Want::Error,
            "exact" => {
                let text = String::from_utf8(v.json_text.clone().expect("json")).expect("utf-8");
                return Want::Value(vec![json(&format!(
                    "[\"number\",\"{}\"]",
                    normalize_decimal(text.trim())
                ))]);
            }
            // "document" decisions are about MessagePack refinements.
            _ => {}
        }
    }
    if v.has_tag("roundtrip-fails") {
        return Want::NoCrash;
    }
    let expect = v.json_expect.clone().unwrap_or_else(|| v.expect.clone());
    if is_error(&expect) {
        return Want::Error;
    }
    let mut all = vec![expect];
    if v.json_expect.is_none() {
        all.extend(v.expect_any_of.iter().cloned());
    }
    Want::Value(all)
}

/// Checks an outcome against a want; `Err` describes the mismatch.
pub fn check(want: &Want, got: &Result<String, String>) -> Result<(), String> {
    match (want, got) {
        (Want::NoCrash, _) => Ok(()),
        (Want::Error, Err(_)) => Ok(()),
        (Want::Error, Ok(out)) => Err(format!("accepted, gave {out:.200}")),
        (Want::Value(_), Err(e)) => Err(format!("rejected: {e}")),
        (Want::Value(options), Ok(out)) => {
            let got = json(out);
            if options.contains(&got) {
                Ok(())
            } else {
                Err(format!(
                    "gave {out:.300}\n      want {:.300}",
                    text(&options[0])
                ))
            }
        }
    }
}
