//! The conformance vectors (`corpus/conformance/`), every case through every input path,
//! under the rules of `corpus/conformance/UPSTREAM-README.md` and the decisions recorded in
//! `corpus/conformance/decisions.jsonl`.
//!
//! `TFWIRE_TEST=substring` runs only the vectors whose name contains it.

use crate::support::*;
use tfwire::{Config, Decoder, Program, Type};

fn filter() -> Option<String> {
    std::env::var("TFWIRE_TEST").ok()
}

fn decode_msgpack(ty: &str, bytes: &[u8]) -> Result<String, String> {
    let program = Program::compile(&Type::from_json(ty).map_err(|e| format!("type: {e}"))?);
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(Config::default());
    d.decode_msgpack(&program, bytes, &arena)
        .map(|v| tfwire::canonical::to_string(&v))
        .map_err(|e| e.to_string())
}

/// How a value's JSON compares with go-cty's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum JsonOutcome {
    /// Byte for byte.
    Exact,
    /// Some float's text differs, but reads back as the same binary64.
    FloatText,
    /// Some float's text in go-cty reads back as another binary64; tfwire keeps the value.
    KeptFloat,
    /// go-cty has no JSON for this value (unknowns, infinity), and neither has tfwire.
    Unavailable,
    /// Not compared (go-cty cannot decode its own encoding of the value).
    Skipped,
}

/// The value a vector was made from, re-encoded: MessagePack must give back go-cty's bytes,
/// JSON go-cty's text (numbers that came from floats: the same binary64). `Err` says how not.
///
/// A `merge` decision: go-cty's encoder wrote two set elements that decode as one (a cty set
/// holds float −0 and 0 apart, and both are written as the integer 0); decoding merges them, as
/// go-cty's decoder does, so the re-encoding is the merged set: it must differ from go-cty's
/// bytes, decode to the same value and re-encode to itself.
fn reencode(v: &Vector, bytes: &[u8], merge: bool) -> Result<JsonOutcome, String> {
    let program = Program::compile(&Type::from_json(&v.ty).unwrap());
    let arena = bumpalo::Bump::new();
    let value = tfwire::decode_msgpack(&program, bytes, &arena).map_err(|e| e.to_string())?;
    let mp = tfwire::encode_msgpack(&program, &value).map_err(|e| format!("msgpack: {e}"))?;
    if merge {
        if mp == bytes {
            return Err("a merge decision, but the re-encoding is go-cty's bytes".into());
        }
        let again = tfwire::decode_msgpack(&program, &mp, &arena).map_err(|e| e.to_string())?;
        let same = tfwire::canonical::to_string(&again) == tfwire::canonical::to_string(&value);
        let stable = tfwire::encode_msgpack(&program, &again).ok().as_deref() == Some(&mp[..]);
        if !(same && stable) {
            return Err(format!(
                "merged set: decodes the same {same}, re-encodes to itself {stable}"
            ));
        }
        // go-cty's JSON holds the elements apart too: nothing more to compare.
        return Ok(JsonOutcome::Skipped);
    }
    if mp != bytes {
        return Err(format!(
            "msgpack re-encodes as {}\n      want {}",
            to_hex(&mp),
            to_hex(bytes)
        ));
    }
    let listed =
        JSON_KEEPS_FLOAT_VALUE.contains(&v.name.as_str()) || v.has_tag("json-float-changes-value");
    let got = tfwire::encode_json(&program, &value);
    if v.json_unavailable.is_some() {
        return match got {
            Err(_) => Ok(JsonOutcome::Unavailable),
            Ok(got) => Err(format!("go-cty has no JSON, tfwire wrote {got:.100}")),
        };
    }
    let (Some(want), false) = (&v.json_text, v.has_tag("roundtrip-fails")) else {
        return Ok(JsonOutcome::Skipped);
    };
    let want = String::from_utf8_lossy(want);
    let got = got.map_err(|e| format!("JSON: {e}"))?;
    let diffs = json_number_diffs(&got, &want)
        .map_err(|e| format!("JSON gives {got:.300}\n      want {want:.300}\n      {e}"))?;
    let mut outcome = JsonOutcome::Exact;
    for (ours, theirs) in diffs {
        if same_float(&ours, &theirs) {
            // go-cty's big.Float shortest form of the same binary64.
            outcome = outcome.max(JsonOutcome::FloatText);
        } else if listed
            && FLOAT_TEXT_CHANGES_VALUE
                .iter()
                .any(|(t, o, _)| *t == theirs && *o == ours)
        {
            outcome = JsonOutcome::KeptFloat;
        } else {
            return Err(format!(
                "JSON number {ours} where go-cty writes {theirs}, another binary64"
            ));
        }
    }
    if listed != (outcome == JsonOutcome::KeptFloat) {
        return Err("JSON_KEEPS_FLOAT_VALUE is wrong about this vector".into());
    }
    Ok(outcome)
}

/// Floats whose JSON text in go-cty (big.Float's `Text('f', -1)`) reads back as *another*
/// binary64 (the README: 255 of the 2098 powers of two): go-cty's text, tfwire's (the float's
/// shortest round-trip text), and the value. tfwire keeps the value.
const FLOAT_TEXT_CHANGES_VALUE: &[(&str, &str, &str)] = &[
    ("18446744073709550000", "18446744073709552000", "2^64"),
    (
        "0.00000002980232238769531",
        "0.000000029802322387695313",
        "2^-25",
    ),
    (
        "0.0000000000000000000000000000000000000000007174648137343063",
        "0.0000000000000000000000000000000000000000007174648137343064",
        "2^-140",
    ),
];

/// The vectors that hold one of those floats: their JSON differs from go-cty's there.
const JSON_KEEPS_FLOAT_VALUE: &[&str] = &[
    "curated/number/float/1.8446744073709552e+19",
    "curated/number/float/2.9802322387695312e-08",
    "curated/number/float/7.174648137343064e-43",
    "random/1/00109",
    "random/1/00231",
    "random/1/00320",
    "random/1/00374",
    "random/1/00374@cty1.16",
    "random/1/00380",
    "random/1/00380@cty1.16",
    "random/1/00409",
    "random/1/00631",
    "random/1/00639",
    "random/1/00731",
    "random/1/00731@cty1.16",
    "random/1/00763",
    "random/1/00883",
    "random/1/00885",
    "random/1/00893",
    "random/1/00898",
    "random/1/01074",
    "random/1/01076",
    "random/1/01087",
    "random/1/01087@cty1.16",
    "random/1/01154",
    "random/1/01232",
    "random/1/01377",
    "random/1/01461",
    "random/1/01461@cty1.16",
    "random/1/01592",
    "random/1/01596",
];

#[test]
fn msgpack_vectors() {
    let decisions = decisions();
    let filter = filter();
    let (mut run, mut failures) = (0, Vec::new());
    let (mut decoded_roundtrip_fails, mut rejected_roundtrip_fails) = (0, 0);
    let mut reencoded = 0;
    let mut json = std::collections::BTreeMap::new();
    for v in vectors() {
        let Some(bytes) = &v.msgpack else { continue };
        if filter
            .as_ref()
            .is_some_and(|f| !v.name.contains(f.as_str()))
        {
            continue;
        }
        run += 1;
        let want = want_msgpack(&v, &decisions);
        let got = decode_msgpack(&v.ty, bytes);
        if v.has_tag("roundtrip-fails") {
            if got.is_ok() {
                decoded_roundtrip_fails += 1
            } else {
                rejected_roundtrip_fails += 1
            }
        }
        if let Err(why) = check(&want, &got) {
            failures.push(format!("{} ({}): {why}", v.name, v.file));
        }
        if v.made_from_value() && got.is_ok() {
            reencoded += 1;
            let merge = decisions.get(&v.name).is_some_and(|d| d.rule == "merge");
            match reencode(&v, bytes, merge) {
                Ok(o) => *json.entry(o).or_insert(0) += 1,
                Err(why) => failures.push(format!("{} ({}): re-encoding: {why}", v.name, v.file)),
            }
        }
    }
    eprintln!(
        "msgpack vectors: {run} run, {reencoded} re-encoded (JSON: {json:?}), {} failed; go-cty \
         roundtrip failures: {decoded_roundtrip_fails} decoded, {rejected_roundtrip_fails} rejected",
        failures.len()
    );
    assert!(reencoded >= 1986, "{reencoded} vectors re-encoded");
    assert!(run > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A decode's outcome in full, to compare two readers: the canonical value, or the error's
/// kind, path and offset.
fn outcome(r: Result<tfwire::Value<'_>, tfwire::Error>) -> Result<String, String> {
    r.map(|v| tfwire::canonical::to_string(&v))
        .map_err(|e| format!("{:?} at {} (byte {})", e.kind(), e.path(), e.offset()))
}

#[test]
fn json_vectors_through_both_readers() {
    let decisions = decisions();
    let filter = filter();
    let (mut run, mut failures) = (0, Vec::new());
    let mut reencoded = 0;
    for v in vectors() {
        let Some(text) = &v.json_text else { continue };
        if filter
            .as_ref()
            .is_some_and(|f| !v.name.contains(f.as_str()))
        {
            continue;
        }
        run += 1;
        let program = Program::compile(&Type::from_json(&v.ty).unwrap());
        let arena = bumpalo::Bump::new();
        let mut d = Decoder::new(Config::default());
        let simd = outcome(d.decode_json(&program, text, &arena));
        let scalar = outcome(d.decode_json_text(&program, text, &arena));
        if simd != scalar {
            failures.push(format!(
                "{}: the readers disagree:\n      simd-json  {simd:?}\n      byte-wise  {scalar:?}",
                v.name
            ));
            continue;
        }
        if let Err(why) = check(&want_json(&v, &decisions), &simd) {
            failures.push(format!("{} ({}): {why}", v.name, v.file));
        }
        if v.made_from_value() && simd.is_ok() {
            // go-cty's JSON, decoded and encoded again, is the same text.
            reencoded += 1;
            let value = d.decode_json(&program, text, &arena).unwrap();
            match tfwire::encode_json(&program, &value) {
                Ok(out) if out.as_bytes() == text.as_slice() => {}
                Ok(out) => failures.push(format!(
                    "{}: JSON re-encodes as {out:.300}\n      want {:.300}",
                    v.name,
                    String::from_utf8_lossy(text)
                )),
                Err(e) => failures.push(format!("{}: JSON re-encoding: {e}", v.name)),
            }
        }
    }
    eprintln!(
        "json vectors: {run} run, {reencoded} re-encoded, {} failed",
        failures.len()
    );
    assert!(run > 1000 && reencoded > 1500);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The decisions that name no vector: prefix, the rules its lines may use, where they are
/// checked (corpus/README.md describes the rules).
const NOT_VECTORS: &[(&str, &[&str], &str)] = &[
    ("plan/", &["accept"], "tfwire-plan, the CLI's harness"),
    (
        "real-client/",
        &["normalize"],
        "the schema and real-client tests",
    ),
    ("path/", &["normalize"], "the paths test"),
    (
        "mask/",
        &["accept", "normalize", "extend"],
        "tfwire::mask, the CLI's masks.rs",
    ),
    (
        "render/",
        &["normalize", "follow"],
        "the CLI's rendering.rs, show.rs and differ's unit tests",
    ),
    (
        "planfile/",
        &["reject", "choose", "normalize", "follow"],
        "tfwire-planfile, the CLI's limits.rs",
    ),
    (
        "dump/",
        &["reject"],
        "tfwire_plugin::dump, the CLI's dump.rs",
    ),
    ("tap/", &["follow", "choose"], "the CLI's tap.rs"),
    (
        "cassette/",
        &["choose"],
        "tfwire-plugin's harness cassette.rs",
    ),
    (
        "config/",
        &["follow", "choose"],
        "tfwire-config's real_client.rs",
    ),
    (
        "schema/",
        &["follow", "choose", "reject"],
        "the schema tests, the CLI's typed.rs and schema.rs",
    ),
    (
        "replay/",
        &["choose", "follow"],
        "tfwire_plugin::replay's harness, the CLI's replay.rs",
    ),
    (
        "fleet/",
        &["choose", "follow", "reject"],
        "tfwire-arrow's harness (corpus.rs, mapping.rs, sensitive.rs, export.rs)",
    ),
];

#[test]
fn decisions_name_real_vectors() {
    let names: std::collections::HashSet<String> = vectors().into_iter().map(|v| v.name).collect();
    for (name, d) in decisions() {
        // Decisions about behaviour beyond values (reading documents, rendering, limits, the
        // tap): each prefix, the rules it may use and the tests that check it.
        if let Some((_, rules, _)) = NOT_VECTORS.iter().find(|(p, _, _)| name.starts_with(p)) {
            assert!(rules.contains(&d.rule.as_str()), "{name}: rule {}", d.rule);
            continue;
        }
        assert!(
            names.contains(&name),
            "decisions.jsonl names {name}, which no vector has"
        );
        assert!(
            matches!(d.rule.as_str(), "document" | "reject" | "exact" | "merge"),
            "{name}: rule {}",
            d.rule
        );
    }
}

#[test]
fn quirks_are_each_decided() {
    // Every quirk vector go-cty accepts either matches go-cty here or has a recorded decision.
    let decisions = decisions();
    for v in vectors()
        .iter()
        .filter(|v| v.kind == "quirk" && v.msgpack.is_some())
    {
        if decisions.contains_key(&v.name) {
            continue;
        }
        let got = decode_msgpack(&v.ty, v.msgpack.as_ref().unwrap());
        assert!(
            check(&Want::Value(vec![v.expect.clone()]), &got).is_ok(),
            "quirk {} is neither go-cty's result nor a recorded decision: {got:?}",
            v.name
        );
    }
}

/// go-cty's error path (`$`, `[0]`, `["k"]`, `.a`) as steps: `Ok(n)` for an index, `Err(s)`
/// for a key or attribute.
fn go_path(p: &str) -> Vec<Result<u64, String>> {
    let mut steps = Vec::new();
    let mut rest = p.strip_prefix('$').expect("go-cty paths start with $");
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[\"") {
            let end = r.find("\"]").expect("closing");
            steps.push(Err(r[..end].to_owned()));
            rest = &r[end + 2..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').expect("closing");
            steps.push(Ok(r[..end].parse().expect("index")));
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            steps.push(Err(r[..end].to_owned()));
            rest = &r[end..];
        } else {
            panic!("unexpected path {p}");
        }
    }
    steps
}

#[test]
fn error_paths_name_the_value() {
    // Where go-cty's rejection has a path, tfwire's error names the same value. Differences
    // by design: go-cty files errors about a map *key* under a `[""]` step (the key it did not
    // read), tfwire reports them at the map; and the vectors below.
    const ELSEWHERE: &[(&str, &str)] = &[(
        "mp/unknown/ext-truncated-inside-list",
        "`92 d4 00`: go-cty reads the truncated fixext1 at [0] as an unknown and fails at [1]; \
         tfwire reports the truncated extension itself, at [0]",
    )];
    let decisions = decisions();
    let mut checked = 0;
    for v in vectors() {
        let Some(path) = v.expect.get("path").and_then(|p| p.as_str()) else {
            continue;
        };
        if decisions.contains_key(&v.name) || ELSEWHERE.iter().any(|(n, _)| *n == v.name) {
            continue;
        }
        let program = Program::compile(&Type::from_json(&v.ty).unwrap());
        let arena = bumpalo::Bump::new();
        let err = match (&v.msgpack, &v.json_text) {
            (Some(bytes), _) => tfwire::decode_msgpack(&program, bytes, &arena),
            (None, Some(text)) => tfwire::decode_json(&program, text, &arena),
            (None, None) => continue,
        }
        .expect_err(&v.name);
        let mut want = go_path(path);
        if want.last() == Some(&Err(String::new()))
            && !matches!(err.kind(), tfwire::ErrorKind::Mismatch { .. })
        {
            want.pop();
        }
        let got: Vec<Result<u64, String>> = err
            .path()
            .steps()
            .iter()
            .map(|s| match s {
                tfwire::PathStep::Index(i) => Ok(*i),
                // go-cty shows keys NFC-normalized; tfwire shows the bytes that were sent.
                tfwire::PathStep::Key(k) | tfwire::PathStep::Attr(k) => {
                    Err(unicode_normalization::UnicodeNormalization::nfc(k.as_ref()).collect())
                }
            })
            .collect();
        assert_eq!(got, want, "{}: tfwire says {err}, go-cty {path}", v.name);
        checked += 1;
    }
    assert!(checked >= 13, "only {checked} vectors with paths");
}
