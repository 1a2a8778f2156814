//! Lookups agree with the full decode: for every conformance vector (and the large payloads)
//! whose full decode succeeds, the value at every path of the decoded value (and at paths it
//! does not have) is what `lookup` finds; `is_null`/`is_known` agree with the decoded value;
//! inputs the full decode rejects never make a lookup panic.

use crate::support::*;
use tfwire::{Config, Decoder, Path, PathStep, Program, Type, Value};

/// Every path into `v` (at most `max`), the root included, plus a few it does not have.
fn paths(v: Value<'_>, max: usize) -> Vec<Path<'static>> {
    let mut out = vec![Path::root()];
    let mut i = 0;
    while i < out.len() && out.len() < max {
        let p = out[i].clone();
        i += 1;
        let Some(at) = v.at(&p) else { continue };
        let mut child = |s: PathStep<'static>| {
            let mut q = p.clone();
            q.push(s);
            out.push(q);
        };
        match at.unwrap_dynamic() {
            Value::Object(es) => {
                for (k, _) in es {
                    child(PathStep::attr((*k).to_owned()));
                }
                child(PathStep::Attr("not-an-attribute".into()));
                child(PathStep::Index(0));
            }
            Value::Map(es) => {
                for (k, _) in es {
                    child(PathStep::key((*k).to_owned()));
                }
                child(PathStep::Key("not-a-key".into()));
            }
            Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
                // The first and the last elements.
                for j in (0..es.len().min(20)).chain(es.len().saturating_sub(3).max(20)..es.len()) {
                    child(PathStep::Index(j as u64));
                }
                child(PathStep::Index(es.len() as u64));
                child(PathStep::Attr("x".into()));
            }
            Value::Null | Value::Unknown(_) => child(PathStep::Attr("x".into())),
            _ => child(PathStep::Index(0)),
        }
    }
    out.truncate(max);
    out
}

fn check_all_paths(what: &str, program: &Program, input: &[u8], max: usize) -> usize {
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(Config::default());
    let Ok(full) = d.decode_msgpack(program, input, &arena) else {
        // Rejected by the full decode: lookups may answer anything but must not panic.
        for p in ["", ".a", "[0]", r#"["k"]"#, ".a[1].b"] {
            let _ = d.lookup_msgpack(program, input, &Path::parse(p).unwrap(), &arena);
        }
        let _ = d.is_null_msgpack(program, input);
        let _ = d.is_known_msgpack(program, input);
        return 0;
    };
    assert_eq!(
        d.is_null_msgpack(program, input).unwrap(),
        full.is_null(),
        "{what}: is_null"
    );
    assert_eq!(
        d.is_known_msgpack(program, input).unwrap(),
        !full.is_unknown(),
        "{what}: is_known"
    );
    let all = paths(full, max);
    for p in &all {
        // As a user writes it (attribute names that are not identifiers read back as keys,
        // which a lookup treats alike).
        let text = p.to_string();
        let parsed = Path::parse(&text).unwrap();
        assert_eq!(&parsed, p, "{what}: {p} reads back");
        assert_eq!(parsed.to_string(), text, "{what}: {p} prints back");
        let got = d
            .lookup_msgpack(program, input, &parsed, &arena)
            .unwrap_or_else(|e| panic!("{what}: lookup {p}: {e}"));
        assert_eq!(got, full.at(p), "{what}: lookup {p}");
    }
    all.len()
}

#[test]
fn lookups_agree_with_the_full_decode_on_the_conformance_corpus() {
    let (mut decoded, mut lookups) = (0, 0);
    for v in vectors() {
        let Some(msgpack) = &v.msgpack else { continue };
        let Ok(ty) = Type::from_json(&v.ty) else {
            continue;
        };
        let program = Program::compile(&ty);
        let n = check_all_paths(&format!("{} {}", v.file, v.name), &program, msgpack, 400);
        decoded += usize::from(n > 0);
        lookups += n;
    }
    eprintln!("{decoded} vectors decoded, {lookups} lookups compared");
    assert!(
        decoded > 1500 && lookups > 20_000,
        "{decoded} vectors, {lookups} lookups"
    );
}

#[test]
fn lookups_agree_with_the_full_decode_on_the_payloads() {
    for name in ["resource", "state-list", "strings", "numbers"] {
        let dir = corpus().join("payloads");
        let ty = std::fs::read_to_string(dir.join(format!("{name}.type.json"))).unwrap();
        let program = Program::compile(&Type::from_json(&ty).unwrap());
        let input = std::fs::read(dir.join(format!("{name}-1m.msgpack"))).unwrap();
        let n = check_all_paths(name, &program, &input, 200);
        assert!(n > 40, "{name}: {n} lookups");
    }
}

/// An error in the value found is reported as the full decode reports it: same path, same
/// byte offset in the whole input.
#[test]
fn errors_name_the_path_and_the_byte_in_the_whole_input() {
    let program = Program::compile(
        &Type::from_json(r#"["object",{"a":"number","b":["map","string"]}]"#).unwrap(),
    );
    // {"a": 1, "b": {"k": true}}
    let input = b"\x82\xa1a\x01\xa1b\x81\xa1k\xc3";
    let arena = bumpalo::Bump::new();
    let full = tfwire::decode_msgpack(&program, input, &arena).unwrap_err();
    assert_eq!(
        full.to_string(),
        r#".b["k"]: a string is required, found bool (at byte 9)"#
    );
    for p in [".b", r#".b["k"]"#] {
        let e = tfwire::lookup(&program, input, &Path::parse(p).unwrap(), &arena).unwrap_err();
        assert_eq!(e.to_string(), full.to_string(), "{p}");
    }
    // The bad value is not on the path: not read.
    let a = tfwire::lookup(&program, input, &Path::parse(".a").unwrap(), &arena).unwrap();
    assert_eq!(
        a.and_then(|v| v.as_number()).and_then(|n| n.to_i64()),
        Some(1)
    );
    // Truncated inside a skipped value.
    let e = tfwire::lookup(&program, &input[..8], &Path::parse(".c").unwrap(), &arena);
    assert_eq!(e, Ok(None), "not an attribute of the type: nothing read");
    let e = tfwire::lookup(&program, &input[..5], &Path::parse(".b").unwrap(), &arena);
    let full = tfwire::decode_msgpack(&program, &input[..5], &arena).unwrap_err();
    assert_eq!(e.unwrap_err().to_string(), full.to_string());
}
