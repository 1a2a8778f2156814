//! The hot paths whose instructions CI counts: one call of each, after its answer is checked
//! and after a warm-up call, inside [`icount_measured_call`], the one function callgrind
//! collects in (`--collect-atstart=no --toggle-collect=…icount_measured_call…`; see
//! `benches/icount.sh`, which compares the counts with `benches/icount-baseline.txt`).
//!
//! | measurement | one call of |
//! |---|---|
//! | `msgpack_decode/KIND-1m` | `Decoder::decode_msgpack` of the 1 MB payload, decoder and arena warm, the arena reset after |
//! | `json_decode/KIND-1m` | `Decoder::decode_json` of the same value as go-cty's JSON |
//! | `msgpack_encode/KIND-1m` | `encode_msgpack_into` of the decoded value into a reused buffer (go-cty's bytes) |
//! | `json_encode/KIND-1m` | `encode_json_into` of the decoded value into a reused buffer (go-cty's bytes) |
//! | `state_parse/fleet-96k` | `Parser::parse` + `Tape::document` of `corpus/fleet`'s largest state (a pretty-printed raw state, 96 kB: the fleet's unit of work), copied into a reused buffer first |
//! | `state_parse_unshaped/fleet-96k` | the same with `Parser::parse_unshaped` (no shape pre-pass: how tfwire-arrow reads it) |
//! | `plan_summary/bigplan-4mb` | `Parser::parse_summary` + `Tape::plan` + `Summary::of` of the synthetic 4 MiB plan, copied into a reused buffer first |
//! | `tap/plan_resource_change_request` | the tap's decode thread on one `PlanResourceChange` request frame: the protobuf decoded, its three values decoded with the resource's schema, masked and written as log records |
//! | `tap/plan_resource_change_response` | the same on the response frame (its planned state) |
//!
//! KIND is each payload of `corpus/payloads/` (`resource`, `state-list`, `strings`,
//! `numbers`). Every measurement panics on a wrong answer before it counts anything.
//!
//! What would make a count vary between runs is kept out of the measured call: no clock is
//! read into the output (the tap's records carry a fixed time and decode time), no hash map
//! with a random seed is touched, nothing runs on another thread.

use crate::answers::check;
use crate::count;
use crate::inputs::{Input, KINDS, big_plan};
use crate::peers::Tfwire;
use bumpalo::Bump;
use bytes::Bytes;
use prost::Message as _;
use std::hint::black_box;
use std::time::{Duration, SystemTime};
use tfwire::schema::Protocol;
use tfwire_plan::{Parser, Summary};
use tfwire_plugin::log::{Outcome, Record, Recorder};
use tfwire_plugin::rpc::{Direction, Message, Method};
use tfwire_plugin::tap::write_rfc3339;
use tfwire_plugin::tfplugin6::{
    DynamicValue, Schema, get_provider_schema, plan_resource_change, schema,
};
use tfwire_plugin::{Field, Programs};

/// The size of the synthetic plan of `plan_summary`, in MiB (what `benches/ci.sh` gives the
/// `plan` bench as `TFWIRE_BENCH_PLAN_MB`).
pub const PLAN_MB: u32 = 4;

/// The name of every measurement, in the order `benches/icount.sh` runs and prints them.
pub fn names() -> Vec<String> {
    let mut out = Vec::new();
    for what in [
        "msgpack_decode",
        "json_decode",
        "msgpack_encode",
        "json_encode",
    ] {
        for kind in KINDS {
            out.push(format!("{what}/{kind}-1m"));
        }
    }
    out.push(format!("plan_summary/bigplan-{PLAN_MB}mb"));
    out.push("state_parse/fleet-96k".into());
    out.push("state_parse_unshaped/fleet-96k".into());
    out.push("tap/plan_resource_change_request".into());
    out.push("tap/plan_resource_change_response".into());
    out
}

/// The function callgrind counts in: runs `op` once. Never inlined, so that its symbol is
/// there to toggle on.
#[inline(never)]
pub fn icount_measured_call(op: &mut dyn FnMut()) {
    op();
}

/// Prepares measurement `name` (inputs read, answer checked, one warm-up call), then runs it
/// once inside [`icount_measured_call`].
///
/// # Errors
/// When there is no measurement of that name.
///
/// # Panics
/// When a hot path finds a wrong answer or fails on its input.
pub fn run(name: &str) -> Result<(), String> {
    let (what, input) = name
        .split_once('/')
        .ok_or_else(|| format!("{name}: no such measurement (`icount list`)"))?;
    let kind = input.strip_suffix("-1m").filter(|k| KINDS.contains(k));
    match (what, kind) {
        ("msgpack_decode" | "json_decode", Some(kind)) => {
            decode(&Input::one_mb(kind), what == "json_decode");
        }
        ("msgpack_encode" | "json_encode", Some(kind)) => {
            encode(&Input::one_mb(kind), what == "json_encode");
        }
        ("plan_summary", _) if input == format!("bigplan-{PLAN_MB}mb") => plan_summary(),
        ("state_parse", _) if input == "fleet-96k" => state_parse(false),
        ("state_parse_unshaped", _) if input == "fleet-96k" => state_parse(true),
        ("tap", _) if input == "plan_resource_change_request" => tap(Direction::Request),
        ("tap", _) if input == "plan_resource_change_response" => tap(Direction::Response),
        _ => return Err(format!("{name}: no such measurement (`icount list`)")),
    }
    Ok(())
}

fn decode(input: &Input, json: bool) {
    let bytes = if json { &input.json } else { &input.msgpack };
    let mut tfwire = Tfwire::default();
    let mut once = |f: &mut dyn FnMut(&tfwire::Value<'_>)| {
        if json {
            tfwire.json(&input.program, bytes, f);
        } else {
            tfwire.msgpack(&input.program, bytes, f);
        }
    };
    let mut found = None;
    once(&mut |v| found = Some(count::tfwire_value(v)));
    check(&input.name, found.expect("a value"), input.answers.value);
    icount_measured_call(&mut || {
        once(&mut |v| {
            black_box(v);
        })
    });
}

fn encode(input: &Input, json: bool) {
    let arena = Bump::new();
    let mut decoder = tfwire::Decoder::new(tfwire::Config::default());
    let program = &input.program;
    let value = if json {
        decoder.decode_json(program, &input.json, &arena)
    } else {
        decoder.decode_msgpack(program, &input.msgpack, &arena)
    }
    .expect("the payload decodes");
    let mut bytes = Vec::new();
    let mut text = String::new();
    let mut once = || {
        if json {
            text.clear();
            tfwire::encode_json_into(program, black_box(&value), &mut text).expect("encode");
        } else {
            bytes.clear();
            tfwire::encode_msgpack_into(program, black_box(&value), &mut bytes).expect("encode");
        }
    };
    once();
    icount_measured_call(&mut once);
    let (out, expected) = if json {
        (text.as_bytes(), &input.json[..])
    } else {
        (&bytes[..], &input.msgpack[..])
    };
    check(
        &format!("{}: the encoder gives go-cty's bytes", input.name),
        out == expected,
        true,
    );
}

fn plan_summary() {
    let plan = big_plan(PLAN_MB);
    let mut parser = Parser::new();
    let mut buf = Vec::new();
    let mut arena = Bump::new();
    let mut once = || {
        buf.clear();
        buf.extend_from_slice(&plan.bytes);
        let tape = parser.parse_summary(&mut buf).expect("parse");
        let counts = {
            let p = tape.plan(&arena).expect("a plan");
            let summary = Summary::of(p);
            let mut counts: Vec<(String, u64)> = summary
                .counts
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| (k.to_string(), n as u64))
                .collect();
            counts.sort();
            counts
        };
        parser.recycle(tape);
        arena.reset();
        counts
    };
    check("plan summary counts", once(), plan.counts.clone());
    icount_measured_call(&mut || {
        black_box(once());
    });
}

/// The fleet's largest state, from `corpus/fleet` (made by `benches/fleet/generate.py`).
const FLEET_STATE: &str = "corpus/fleet/states/team-security/etl-prod/terraform.tfstate";

fn state_parse(unshaped: bool) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(FLEET_STATE);
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // The answer, from serde_json: (resources, instances).
    let v: serde_json::Value = serde_json::from_slice(&text).expect("a JSON state");
    let resources = v["resources"].as_array().expect("resources");
    let expected = (
        resources.len(),
        resources
            .iter()
            .map(|r| r["instances"].as_array().map_or(0, Vec::len))
            .sum::<usize>(),
    );
    let mut parser = Parser::new();
    let mut buf = Vec::new();
    let mut arena = Bump::new();
    let mut once = || {
        buf.clear();
        buf.extend_from_slice(&text);
        let tape = if unshaped {
            parser.parse_unshaped(&mut buf)
        } else {
            parser.parse(&mut buf)
        }
        .expect("parse");
        let found = match tape.document(&arena).expect("a document") {
            tfwire_plan::Document::RawState(s) => (
                s.resources.len(),
                s.resources.iter().map(|r| r.instances.len()).sum(),
            ),
            _ => panic!("{FLEET_STATE}: not a raw state"),
        };
        parser.recycle(tape);
        arena.reset();
        found
    };
    check("fleet state resources and instances", once(), expected);
    icount_measured_call(&mut || {
        black_box(once());
    });
}

/// The entries of the `tags` map and the `rule` blocks of the tap's values: about 10 kB each
/// (the middle size of the tap's benchmarks).
const TAGS: usize = 400;
const RULES: usize = 100;

/// The provider's schema as the tap gets it (a `GetProviderSchema` response, decoded):
/// resource `db` with `name`, `password` (sensitive), `port` (number), `tags` (map of
/// string) and a list block `rule` of `cidr` strings.
fn tap_programs() -> Programs {
    let attribute = |name: &str, ty: &'static [u8], sensitive| schema::Attribute {
        name: name.into(),
        r#type: Bytes::from_static(ty),
        optional: true,
        sensitive,
        ..Default::default()
    };
    let mut response = get_provider_schema::Response::default();
    response.resource_schemas.insert(
        "db".into(),
        Schema {
            version: 0,
            block: Some(schema::Block {
                attributes: vec![
                    attribute("name", b"\"string\"", false),
                    attribute("password", b"\"string\"", true),
                    attribute("port", b"\"number\"", false),
                    attribute("tags", b"[\"map\",\"string\"]", false),
                ],
                block_types: vec![schema::NestedBlock {
                    type_name: "rule".into(),
                    nesting: schema::nested_block::NestingMode::List.into(),
                    block: Some(schema::Block {
                        attributes: vec![attribute("cidr", b"\"string\"", false)],
                        ..Default::default()
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        },
    );
    let method = Method::from_name(Protocol::V6, "GetProviderSchema").expect("a known RPC");
    match method.decode(Direction::Response, response.encode_to_vec().into()) {
        Ok(Message::ProviderSchema(s)) => {
            Programs::new((*s).expect("a valid schema")).with_masks(tfwire::mask::Masks::defaults())
        }
        other => panic!("not a schema: {other:?}"),
    }
}

/// A MessagePack string of fewer than 32 bytes.
fn str8(out: &mut Vec<u8>, s: &str) {
    out.push(0xa0 | u8::try_from(s.len()).expect("a short string"));
    out.extend_from_slice(s.as_bytes());
}

/// Value `i` of resource `db` (MessagePack).
fn tap_value(i: u16) -> DynamicValue {
    let mut b = vec![0x85];
    str8(&mut b, "name");
    str8(&mut b, &format!("srv-{i:04}"));
    str8(&mut b, "password");
    str8(&mut b, &format!("secret-{i:04}"));
    str8(&mut b, "port");
    b.push(0xcd);
    b.extend_from_slice(&(8000 + i).to_be_bytes());
    str8(&mut b, "rule");
    b.push(0xdc);
    b.extend_from_slice(&u16::try_from(RULES).expect("few rules").to_be_bytes());
    for r in 0..RULES {
        b.push(0x81);
        str8(&mut b, "cidr");
        str8(&mut b, &format!("10.{}.{}.{}/32", r % 10, i % 10, r % 7));
    }
    str8(&mut b, "tags");
    b.push(0xde);
    b.extend_from_slice(&u16::try_from(TAGS).expect("few tags").to_be_bytes());
    for t in 0..TAGS {
        str8(&mut b, &format!("k{t:05}"));
        str8(&mut b, &format!("v{i:02}-{t:05}"));
    }
    DynamicValue {
        msgpack: b.into(),
        json: Bytes::new(),
    }
}

/// One `PlanResourceChange` frame through the steps of the tap's decode thread: the method
/// found by its path, the protobuf decoded (the values share the frame's bytes), the values
/// listed, each decoded with the resource's program, masked and written as one log record
/// with its time. The worker's bookkeeping around these (its queue, the call table and the
/// per-RPC counters, both hash maps with random seeds) is left out, and the record's time and
/// decode time are fixed, so that the count is the same in every run.
fn tap(direction: Direction) {
    let programs = tap_programs();
    let method = Method::from_name(Protocol::V6, "PlanResourceChange").expect("a known RPC");
    let frame: Bytes = match direction {
        Direction::Request => plan_resource_change::Request {
            type_name: "db".into(),
            config: Some(tap_value(1)),
            prior_state: Some(tap_value(2)),
            proposed_new_state: Some(tap_value(3)),
            ..Default::default()
        }
        .encode_to_vec(),
        Direction::Response => plan_resource_change::Response {
            planned_state: Some(tap_value(4)),
            ..Default::default()
        }
        .encode_to_vec(),
    }
    .into();
    let mut recorder = Recorder::new(tfwire::Config::default());
    let mut out = String::new();
    let mut time_text = String::new();
    let time = SystemTime::UNIX_EPOCH + Duration::from_micros(1_795_000_000_123_456);
    let mut once = |out: &mut String| {
        let m = Method::from_path(black_box(method.path)).expect("a known RPC");
        time_text.clear();
        write_rfc3339(&mut time_text, time);
        out.clear();
        let Ok(Message::Values(v)) = m.decode(direction, frame.clone()) else {
            panic!("not a message with values");
        };
        let type_name = match direction {
            Direction::Request => v.type_name().to_owned(),
            Direction::Response => "db".to_owned(),
        };
        let mut fields: Vec<Field<'_>> = Vec::new();
        v.dynamic_values(&type_name, &mut |f| fields.push(f));
        let mut values = 0;
        for f in fields {
            let (outcome, _took) = recorder.decode(&programs, f.schema, f.value);
            assert!(matches!(outcome, Outcome::Value(_)), "{outcome:?}");
            Record {
                time: &time_text,
                rpc: m.name,
                direction,
                type_name: Some(f.schema.type_name()),
                field: f.name,
                index: f.index,
                file: None,
                bytes: f.value.msgpack.len() + f.value.json.len(),
                decode_us: Some(12.5),
                outcome,
            }
            .write_json(out);
            out.push('\n');
            values += 1;
        }
        values
    };
    let values = once(&mut out);
    check(
        "values in the frame",
        values,
        if direction == Direction::Request {
            3
        } else {
            1
        },
    );
    check(
        "the secret is masked in every record",
        (
            out.matches(r#""password":"(sensitive)""#).count(),
            out.contains("secret-"),
        ),
        (values, false),
    );
    icount_measured_call(&mut || {
        black_box(once(&mut out));
    });
}

#[cfg(test)]
mod tests {
    /// Every measurement finds its answer and runs (a wrong answer panics).
    #[test]
    fn every_measurement_runs() {
        for name in super::names() {
            super::run(&name).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(super::run("msgpack_decode/nothing-1m").is_err());
    }
}
