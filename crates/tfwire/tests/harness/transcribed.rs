//! Test vectors transcribed from terraform-plugin-go, go-cty and OpenTofu test tables
//! (`corpus/conformance/tftypes-and-cty-test-vectors.jsonl`, `type-json-vectors.jsonl`;
//! format in `corpus/conformance/TRANSCRIBED.md`).

use crate::support::*;
use serde_json::Value as Json;
use tfwire::{Number, Program, Type, Value};

/// A value in the vectors' neutral form: null, `{"$unknown": true}`, `{"$number": "..."}`,
/// strings, bools, arrays (list/set/tuple) and objects (map/object).
fn neutral(v: &Value<'_>) -> Json {
    match v.unwrap_dynamic() {
        Value::Null => Json::Null,
        Value::Unknown(_) => serde_json::json!({"$unknown": true}),
        Value::Bool(b) => Json::Bool(b),
        Value::Number(n) => serde_json::json!({"$number": n.to_string()}),
        Value::String(s) => Json::String(s.to_owned()),
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => {
            Json::Array(xs.iter().map(neutral).collect())
        }
        Value::Map(es) | Value::Object(es) => Json::Object(
            es.iter()
                .map(|(k, x)| ((*k).to_owned(), neutral(x)))
                .collect(),
        ),
        Value::Dynamic(_) => unreachable!("unwrapped above"),
    }
}

/// Equality of neutral forms; numbers equal as decimals, or as binary64 when the wire held a
/// float (the Go literals write floats in their shortest form, e.g. `5e-324`).
fn same(got: &Json, want: &Json, float: bool) -> bool {
    match (got, want) {
        (Json::Object(g), Json::Object(w)) if w.contains_key("$number") => {
            let (Some(g), Some(w)) = (
                g.get("$number").and_then(Json::as_str),
                w["$number"].as_str(),
            ) else {
                return false;
            };
            let (Ok(gn), Ok(wn)) = (Number::parse(g), Number::parse(w)) else {
                return false;
            };
            gn == wn || (float && gn.to_f64() == wn.to_f64())
        }
        (Json::Object(g), Json::Object(w)) => {
            g.len() == w.len()
                && w.iter()
                    .all(|(k, wv)| g.get(k).is_some_and(|gv| same(gv, wv, float)))
        }
        (Json::Array(g), Json::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(a, b)| same(a, b, float))
        }
        _ => got == want,
    }
}

#[test]
fn msgpack_decode_vectors() {
    let mut checked = 0;
    for r in lines("tftypes-and-cty-test-vectors.jsonl") {
        let file = r["file"].as_str().unwrap();
        if r["encoding"] != "msgpack"
            || file.ends_with("type_implied_test.go")
            || r["hex"].is_null()
        {
            continue;
        }
        let test = r["test"].as_str().unwrap();
        let ty = Type::from_json(&text(&r["type"])).unwrap();
        let program = Program::compile(&ty);
        let bytes = hex(r["hex"].as_str().unwrap());
        let arena = bumpalo::Bump::new();
        let v = tfwire::decode_msgpack(&program, &bytes, &arena)
            .unwrap_or_else(|e| panic!("{test}: {e}"));
        let float = bytes.first().is_some_and(|&b| b == 0xca || b == 0xcb);
        assert!(
            same(&neutral(&v), &r["expected"], float),
            "{test}: got {} want {}",
            neutral(&v),
            r["expected"]
        );
        if ty == Type::Dynamic && !v.is_null() && !v.is_unknown() {
            let Value::Dynamic(d) = v else {
                panic!("{test}: a dynamic position gives a dynamic value")
            };
            assert_eq!(
                json(&d.ty.to_string()),
                r["expected_concrete_type"],
                "{test}"
            );
        }
        checked += 1;
    }
    assert_eq!(
        checked, 64,
        "62 terraform-plugin-go vectors and 2 OpenTofu ones"
    );
}

#[test]
fn implied_type_vectors() {
    let mut checked = 0;
    for r in lines("tftypes-and-cty-test-vectors.jsonl") {
        if !r["file"]
            .as_str()
            .unwrap()
            .ends_with("type_implied_test.go")
        {
            continue;
        }
        let bytes = hex(r["hex"].as_str().unwrap());
        let t =
            tfwire::implied_type_msgpack(&bytes).unwrap_or_else(|e| panic!("{}: {e}", r["hex"]));
        assert_eq!(
            json(&t.to_json()),
            r["expected_implied_type"],
            "{}",
            r["hex"]
        );
        checked += 1;
    }
    assert_eq!(checked, 37);
}

/// The type JSON with each object's optional-attribute list sorted (go-cty sorts them).
fn sorted_optionals(v: &Json) -> Json {
    match v {
        Json::Array(a) if a.len() == 3 && a[0] == "object" => {
            let mut opts: Vec<Json> = a[2].as_array().unwrap().clone();
            opts.sort_by(|x, y| x.as_str().cmp(&y.as_str()));
            Json::Array(vec![
                a[0].clone(),
                sorted_optionals(&a[1]),
                Json::Array(opts),
            ])
        }
        Json::Array(a) => Json::Array(a.iter().map(sorted_optionals).collect()),
        Json::Object(o) => Json::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), sorted_optionals(x)))
                .collect(),
        ),
        x => x.clone(),
    }
}

#[test]
fn type_json_vectors() {
    let all = lines("type-json-vectors.jsonl");
    assert_eq!(all.len(), 18);
    for r in all {
        let text = r["type_json"].as_str().unwrap();
        let t = Type::from_json(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = t.to_json();
        assert!(!printed.contains([' ', '\n', '\t']), "{printed} is compact");
        assert_eq!(json(&printed), sorted_optionals(&json(text)), "{text}");
        assert_eq!(Type::from_json(&printed).unwrap(), t, "{text} round-trips");
    }
}

#[test]
fn json_decode_vectors() {
    // terraform-plugin-go reads a JSON number as a bool (1 → true); go-cty, which Terraform
    // runs, rejects it (`bad.jsonl`: json/bool/wrong/number), and so does tfwire.
    const GO_CTY_DIFFERS: &[&str] = &["TestValueFromJSON/bool-from-int"];
    let mut checked = 0;
    for r in lines("tftypes-and-cty-test-vectors.jsonl") {
        if r["encoding"] != "json" {
            continue;
        }
        let test = r["test"].as_str().unwrap();
        let lenient = r["direction"]
            .as_str()
            .unwrap()
            .contains("IgnoreUndefinedAttributes");
        let program = Program::compile(&Type::from_json(&text(&r["type"])).unwrap());
        let input = r["json"].as_str().unwrap().as_bytes();
        let arena = bumpalo::Bump::new();
        let mut d = tfwire::Decoder::new(tfwire::Config::default().lenient(lenient));
        let got = d.decode_dynamic_value(
            &program,
            tfwire::DynamicValue {
                msgpack: b"",
                json: input,
            },
            &arena,
        );
        match (r.get("expected"), got) {
            (_, Err(_)) if GO_CTY_DIFFERS.contains(&test) => {}
            (Some(want), Ok(v)) => assert!(
                same(&neutral(&v), want, false),
                "{test}: got {} want {want}",
                neutral(&v)
            ),
            (None, Err(_)) => {}
            (want, got) => panic!("{test}: got {got:?}, want {want:?}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 48);
}

/// go-cty's `cty/msgpack/roundtrip_test.go` (81 values as Go literals, no bytes): each value,
/// encoded with its type and decoded again, is itself (or, for the string prefixes longer
/// than go-cty's encoder keeps, `canonical_after_roundtrip`); the JSON-safe ones also round
/// trip through JSON. The values are the lines' `canonical` texts: the Go literals
/// (`go_value`) written once in tfwire's canonical form (see `TRANSCRIBED.md`).
#[test]
fn go_cty_roundtrip_vectors() {
    let mut checked = 0;
    let mut via_json = 0;
    for r in lines("tftypes-and-cty-test-vectors.jsonl") {
        if !r["file"].as_str().unwrap().ends_with("roundtrip_test.go") {
            continue;
        }
        let literal = r["go_value"].as_str().unwrap();
        let schema = Type::from_json(&text(&r["type"])).unwrap();
        let program = Program::compile(&schema);
        let arena = bumpalo::Bump::new();
        let canonical = |field: &str| {
            let text = r[field].as_str()?;
            let v = tfwire::canonical::parse(text.as_bytes(), &arena)
                .unwrap_or_else(|e| panic!("{literal}: {field} {text}: {e}"));
            Some((v, tfwire::canonical::to_string(&v)))
        };
        let (value, text) = canonical("canonical").expect("every round-trip line has `canonical`");
        let want_text = canonical("canonical_after_roundtrip").map_or(text, |(_, t)| t);

        let bytes =
            tfwire::encode_msgpack(&program, &value).unwrap_or_else(|e| panic!("{literal}: {e}"));
        let back = tfwire::decode_msgpack(&program, &bytes, &arena)
            .unwrap_or_else(|e| panic!("{literal}: {e}"));
        assert_eq!(tfwire::canonical::to_string(&back), want_text, "{literal}");
        checked += 1;

        if r["json_safe"] == true {
            let json = tfwire::encode_json(&program, &value).unwrap();
            let back = tfwire::decode_json(&program, json.as_bytes(), &arena)
                .unwrap_or_else(|e| panic!("{literal}: {json}: {e}"));
            assert_eq!(
                tfwire::canonical::to_string(&back),
                want_text,
                "{literal} as {json}"
            );
            via_json += 1;
        } else {
            assert!(
                tfwire::encode_json(&program, &value).is_err(),
                "{literal}: JSON cannot hold unknowns and infinities"
            );
        }
    }
    assert_eq!(checked, 81);
    assert_eq!(via_json, 47, "the values without unknowns and infinities");
}
