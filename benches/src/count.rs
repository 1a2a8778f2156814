//! Counting what a decoder produced, with walks written here (not the code under test).

use crate::answers::{JsonCounts, MsgpackCounts, ValueCounts};
use tfwire::Value;

/// Counts the nodes of a decoded tfwire value (see [`ValueCounts`]).
pub fn tfwire_value(v: &Value<'_>) -> ValueCounts {
    let mut c = ValueCounts::default();
    walk(v, &mut c);
    c
}

fn walk(v: &Value<'_>, c: &mut ValueCounts) {
    c.values += 1;
    match *v {
        Value::Null => c.nulls += 1,
        Value::Unknown(_) => {}
        Value::Bool(_) => c.bools += 1,
        Value::Number(_) => c.numbers += 1,
        Value::String(s) => {
            c.strings += 1;
            c.string_bytes += s.len() as u64;
        }
        Value::List(vs) | Value::Set(vs) | Value::Tuple(vs) => {
            for e in vs {
                walk(e, c);
            }
        }
        Value::Map(es) | Value::Object(es) => {
            for (k, e) in es {
                c.keys += 1;
                c.key_bytes += k.len() as u64;
                walk(e, c);
            }
        }
        Value::Dynamic(d) => {
            c.values -= 1;
            walk(&d.value, c);
        }
    }
}

/// Counts the tokens of MessagePack `input` with `tfwire_msgpack::Tokenizer` (the tokenizer
/// layer alone: no UTF-8 validation). `bytes` is the input length.
///
/// # Panics
/// If the input is not a sequence of complete tokens.
pub fn msgpack_tokens(input: &[u8]) -> MsgpackCounts {
    let mut t = tfwire_msgpack::Tokenizer::new(input);
    let mut c = MsgpackCounts {
        bytes: input.len() as u64,
        ..MsgpackCounts::default()
    };
    while !t.is_empty() {
        let tok = t.next_token().expect("a complete token");
        c.tokens += 1;
        if let tfwire_msgpack::Kind::Str(n) = tok.kind {
            c.str_tokens += 1;
            c.str_bytes += u64::from(n);
        }
    }
    c
}

/// Counts an rmpv value: every value and map key, `str` tokens and their bytes.
pub fn rmpv_value(v: &rmpv::ValueRef<'_>, c: &mut MsgpackCounts) {
    use rmpv::ValueRef as V;
    c.tokens += 1;
    match v {
        V::String(s) => {
            c.str_tokens += 1;
            c.str_bytes += s.as_bytes().len() as u64;
        }
        V::Array(vs) => {
            for e in vs {
                rmpv_value(e, c);
            }
        }
        V::Map(es) => {
            for (k, e) in es {
                rmpv_value(k, c);
                rmpv_value(e, c);
            }
        }
        _ => {}
    }
}

/// Counts a `serde_json::Value`: every value and object key, string bytes (keys included).
pub fn serde_json_value(v: &serde_json::Value, c: &mut JsonCounts) {
    use serde_json::Value as V;
    c.nodes += 1;
    match v {
        V::String(s) => c.string_bytes += s.len() as u64,
        V::Array(vs) => {
            for e in vs {
                serde_json_value(e, c);
            }
        }
        V::Object(es) => {
            for (k, e) in es {
                c.nodes += 1;
                c.string_bytes += k.len() as u64;
                serde_json_value(e, c);
            }
        }
        _ => {}
    }
}

/// Counts a simd-json `OwnedValue`: every value and object key, string bytes (keys included).
pub fn simd_json_owned(v: &simd_json::OwnedValue, c: &mut JsonCounts) {
    use simd_json::OwnedValue as V;
    c.nodes += 1;
    match v {
        V::String(s) => c.string_bytes += s.len() as u64,
        V::Array(vs) => {
            for e in vs.iter() {
                simd_json_owned(e, c);
            }
        }
        V::Object(es) => {
            for (k, e) in es.iter() {
                c.nodes += 1;
                c.string_bytes += k.len() as u64;
                simd_json_owned(e, c);
            }
        }
        V::Static(_) => {}
    }
}

/// Counts a simd-json tape: one node per value and per object key; string bytes.
pub fn simd_json_tape(tape: &[simd_json::Node<'_>], bytes: usize) -> JsonCounts {
    let mut c = JsonCounts {
        bytes: bytes as u64,
        nodes: tape.len() as u64,
        string_bytes: 0,
    };
    for n in tape {
        if let simd_json::Node::String(s) = n {
            c.string_bytes += s.len() as u64;
        }
    }
    c
}

/// Counts a `sonic_rs::Value`: every value and object key, string bytes (keys included).
pub fn sonic_rs_value(v: &sonic_rs::Value, c: &mut JsonCounts) {
    use sonic_rs::{JsonContainerTrait, JsonValueTrait};
    c.nodes += 1;
    if let Some(s) = v.as_str() {
        c.string_bytes += s.len() as u64;
    } else if let Some(a) = v.as_array() {
        for e in a.iter() {
            sonic_rs_value(e, c);
        }
    } else if let Some(o) = v.as_object() {
        for (k, e) in o.iter() {
            c.nodes += 1;
            c.string_bytes += k.len() as u64;
            sonic_rs_value(e, c);
        }
    }
}

/// Counts a `jiter::JsonValue`: every value and object key, string bytes (keys included).
pub fn jiter_value(v: &jiter::JsonValue<'_>, c: &mut JsonCounts) {
    use jiter::JsonValue as V;
    c.nodes += 1;
    match v {
        V::Str(s) => c.string_bytes += s.len() as u64,
        V::Array(vs) => {
            for e in vs.iter() {
                jiter_value(e, c);
            }
        }
        V::Object(es) => {
            for (k, e) in es.iter() {
                c.nodes += 1;
                c.string_bytes += k.len() as u64;
                jiter_value(e, c);
            }
        }
        _ => {}
    }
}
