//! Heap allocations of a proxy's per-value work (the `tfwire tap` decode thread): once warm, a
//! [`Recorder`] decodes a value with the provider's schema, masks its sensitive attributes and
//! writes its log record into a reused line without touching the heap. The protobuf decoding
//! of the message around the value allocates a fixed number of times, whatever the value's
//! size (its `DynamicValue` bytes are shared with the frame, never copied).
//!
//! Allocations are counted per thread (tests run in parallel), by a counting global
//! allocator wrapping the system one, in a test binary of its own.

use bytes::Bytes;
use prost::Message as _;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tfwire::schema::Protocol;
use tfwire_plugin::log::{Outcome, Record, Recorder};
use tfwire_plugin::rpc::{Direction, Message, Method};
use tfwire_plugin::tfplugin6::{DynamicValue, plan_resource_change, schema};
use tfwire_plugin::{Programs, SchemaRef};
use tfwire_tap_testkit::{attribute, schema_of};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn note_alloc() {
    // `try_with`: the thread-local is const-initialized and has no destructor, so this never
    // allocates and works during thread teardown too.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every method forwards to the system allocator with the same arguments; the
// bookkeeping only touches a const-initialized thread-local.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_alloc();
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_alloc();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_alloc();
        // SAFETY: as for `dealloc` and `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCS.with(Cell::get)
}

/// The provider's schema, as the tap gets it: a `GetProviderSchema` response decoded.
/// Resource `db`: `name`, `password` (sensitive), `port` (number), `tags` (map of string) and
/// a list block `rule` of `cidr` strings.
fn programs() -> Programs {
    let mut response = schema_of(vec![
        attribute("name", b"\"string\"", false),
        attribute("password", b"\"string\"", true),
        attribute("port", b"\"number\"", false),
        attribute("tags", b"[\"map\",\"string\"]", false),
    ]);
    if let Some(block) = response
        .resource_schemas
        .get_mut("db")
        .and_then(|s| s.block.as_mut())
    {
        block.block_types.push(schema::NestedBlock {
            type_name: "rule".into(),
            nesting: schema::nested_block::NestingMode::List.into(),
            block: Some(schema::Block {
                attributes: vec![attribute("cidr", b"\"string\"", false)],
                ..Default::default()
            }),
            ..Default::default()
        });
    }
    let method = Method::from_name(Protocol::V6, "GetProviderSchema").unwrap();
    match method.decode(Direction::Response, response.encode_to_vec().into()) {
        Ok(Message::ProviderSchema(s)) => Programs::new((*s).unwrap()),
        other => panic!("not a schema: {other:?}"),
    }
}

/// A MessagePack string (< 32 bytes).
fn str8(out: &mut Vec<u8>, s: &str) {
    out.push(0xa0 | u8::try_from(s.len()).unwrap());
    out.extend_from_slice(s.as_bytes());
}

/// Value `i` of resource `db` with `tags` entries and `rules` blocks: for a given shape,
/// values of every `i < 100` have the same size (and differ in every string and number).
fn value(i: u16, tags: usize, rules: usize) -> Vec<u8> {
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
    b.extend_from_slice(&u16::try_from(rules).unwrap().to_be_bytes());
    for r in 0..rules {
        b.push(0x81);
        str8(&mut b, "cidr");
        str8(&mut b, &format!("10.{}.{}.{}/32", r % 10, i % 10, r % 7));
    }
    str8(&mut b, "tags");
    b.push(0xde);
    b.extend_from_slice(&u16::try_from(tags).unwrap().to_be_bytes());
    for t in 0..tags {
        str8(&mut b, &format!("k{t:05}"));
        str8(&mut b, &format!("v{i:02}-{t:05}"));
    }
    b
}

/// Decodes, masks and records one value into `line` (cleared first), as the tap's decode
/// thread does; returns whether it decoded.
fn record(recorder: &mut Recorder, programs: &Programs, msgpack: &[u8], line: &mut String) -> bool {
    let value = tfwire::DynamicValue { msgpack, json: b"" };
    let (outcome, took) = recorder.decode(programs, SchemaRef::Resource("db"), value);
    line.clear();
    Record {
        time: "2026-11-24T08:00:00.000000Z",
        rpc: "PlanResourceChange",
        direction: Direction::Request,
        type_name: Some("db"),
        field: "config",
        index: None,
        file: None,
        bytes: msgpack.len(),
        decode_us: Some(took.as_secs_f64() * 1e6),
        outcome,
    }
    .write_json(line);
    matches!(outcome, Outcome::Value(_))
}

#[test]
fn warm_recorder_allocates_nothing_per_value() {
    // Without masks, and with the default masks (the tap's default): the walk's states are
    // inline.
    for programs in [
        programs(),
        programs().with_masks(tfwire::mask::Masks::defaults()),
    ] {
        for (tags, rules) in [(0, 0), (3, 2), (200, 50)] {
            let values: Vec<Vec<u8>> = (0..40).map(|i| value(i, tags, rules)).collect();
            assert!(values.iter().all(|v| v.len() == values[0].len()));
            let mut recorder = Recorder::new(tfwire::Config::default());
            let mut line = String::new();
            // Warm-up: the program compiled, the arena, the decoder's stacks and the buffers
            // grown to this size.
            for v in &values[..2] {
                assert!(record(&mut recorder, &programs, v, &mut line), "{line}");
            }
            let before = allocations();
            for v in &values[2..] {
                assert!(record(&mut recorder, &programs, v, &mut line), "{line}");
            }
            assert_eq!(
                allocations() - before,
                0,
                "{tags} tags, {rules} rules: heap allocations in {} warm values",
                values.len() - 2
            );
            // What was recorded: the last value, its secret masked.
            assert!(line.contains(r#""password":"(sensitive)""#), "{line}");
            assert!(line.contains(r#""name":"srv-0039""#), "{line}");
            assert!(line.contains(r#""port":8039"#), "{line}");
            assert!(!line.contains("secret-"), "{line}");
        }
    }
}

/// The protobuf message around the values: a fixed count per message, the same for 159 bytes
/// of values as for 62 kB, since `DynamicValue` bytes are shared with the frame.
#[test]
fn message_decoding_allocates_independently_of_value_size() {
    let method = Method::from_name(Protocol::V6, "PlanResourceChange").unwrap();
    let frame = |tags, rules| -> Bytes {
        let dv = |b: Vec<u8>| {
            Some(DynamicValue {
                msgpack: b.into(),
                json: Bytes::new(),
            })
        };
        plan_resource_change::Request {
            type_name: "db".into(),
            config: dv(value(1, tags, rules)),
            prior_state: dv(value(2, tags, rules)),
            proposed_new_state: dv(value(3, tags, rules)),
            ..Default::default()
        }
        .encode_to_vec()
        .into()
    };
    let count = |frame: Bytes| {
        let before = allocations();
        let mut values = 0;
        let mut bytes = 0;
        {
            let Ok(Message::Values(v)) = method.decode(Direction::Request, frame) else {
                panic!("not a message with values")
            };
            v.dynamic_values(v.type_name(), &mut |f| {
                values += 1;
                bytes += f.value.msgpack.len();
            });
        }
        (allocations() - before, values, bytes)
    };
    let (small, n_small, b_small) = count(frame(0, 0));
    let (large, n_large, b_large) = count(frame(1000, 200));
    assert_eq!((n_small, n_large), (3, 3));
    assert!(b_large > 100 * b_small, "{b_small} vs {b_large} bytes");
    assert_eq!(
        small, large,
        "allocations per PlanResourceChange request: {small} with {b_small} bytes of values, \
         {large} with {b_large}"
    );
    eprintln!("PlanResourceChange request: {small} allocations per message (protobuf decoding)");
}
