//! Heap allocations and memory: a reused `Decoder` with a reset arena decodes a message of a
//! size seen before without touching the heap; hostile inputs fail in bounded memory; the
//! arena stays within a small multiple of the input.
//!
//! Allocations are counted per thread (tests run in parallel), by a counting global
//! allocator wrapping the system one.

#[path = "harness/support.rs"]
mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tfwire::{Config, Decoder, ErrorKind, Limit, Program, Type};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn note_alloc(size: usize) {
    // `try_with`: the thread-locals are const-initialized and have no destructor, so this
    // never allocates and works during thread teardown too.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
    let _ = LIVE.try_with(|l| {
        let live = l.get() + size;
        l.set(live);
        let _ = PEAK.try_with(|p| p.set(p.get().max(live)));
    });
}

fn note_free(size: usize) {
    let _ = LIVE.try_with(|l| l.set(l.get().saturating_sub(size)));
}

// SAFETY: every method forwards to the system allocator with the same arguments; the
// bookkeeping only touches const-initialized thread-locals.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_free(layout.size());
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_free(layout.size());
        note_alloc(new_size);
        // SAFETY: as for `dealloc` and `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCS.with(Cell::get)
}

/// Peak live heap bytes of this thread while `f` runs, above what was live before.
fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let r = f();
    (r, PEAK.with(Cell::get) - base)
}

fn payload(kind: &str) -> (Program, Vec<u8>, Vec<u8>) {
    let dir = support::corpus().join("payloads");
    let ty = std::fs::read_to_string(dir.join(format!("{kind}.type.json"))).unwrap();
    let msgpack = std::fs::read(dir.join(format!("{kind}-1m.msgpack"))).unwrap();
    let json = std::fs::read(dir.join(format!("{kind}-1m.json"))).unwrap();
    (Program::from_type_json(&ty).unwrap(), msgpack, json)
}

const KINDS: [&str; 4] = ["resource", "state-list", "strings", "numbers"];

#[test]
fn warm_decodes_allocate_nothing() {
    for kind in KINDS {
        let (program, msgpack, json) = payload(kind);
        let mut decoder = Decoder::new(Config::default());
        let mut arena = bumpalo::Bump::new();
        for (format, input) in [("msgpack", &msgpack), ("json", &json)] {
            let decode = |d: &mut Decoder, arena: &mut bumpalo::Bump| {
                let v = match format {
                    "msgpack" => d.decode_msgpack(&program, input, arena),
                    _ => d.decode_json(&program, input, arena),
                };
                assert!(v.is_ok(), "{kind} {format}: {v:?}");
                drop(v);
                arena.reset();
            };
            // Warm up: the decoder's scratch, simd-json's buffers and the arena's chunk grow
            // to what this size of message needs.
            for _ in 0..3 {
                decode(&mut decoder, &mut arena);
            }
            let before = allocations();
            for _ in 0..5 {
                decode(&mut decoder, &mut arena);
            }
            let n = allocations() - before;
            assert_eq!(
                n, 0,
                "{kind} {format}: {n} heap allocations in 5 warm decodes"
            );
        }
    }
}

#[test]
fn arena_use_is_a_small_multiple_of_the_input() {
    // Documented in `Config`: at most 3x the input for MessagePack and 4x for JSON (which
    // also holds simd-json's working copy of the document).
    for kind in KINDS {
        let (program, msgpack, json) = payload(kind);
        for (format, input, bound) in [("msgpack", &msgpack, 3.0), ("json", &json, 4.0)] {
            let arena = bumpalo::Bump::new();
            let mut d = Decoder::new(Config::default());
            let v = match format {
                "msgpack" => d.decode_msgpack(&program, input, &arena),
                _ => d.decode_json(&program, input, &arena),
            };
            assert!(v.is_ok());
            let ratio = arena.allocated_bytes() as f64 / input.len() as f64;
            eprintln!("{kind} {format}: arena {:.2}x the input", ratio);
            assert!(
                ratio <= bound,
                "{kind} {format}: arena {ratio:.2}x the input"
            );
        }
    }
}

#[test]
fn hostile_length_prefixes_fail_at_once_in_bounded_memory() {
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(Config::default());
    for (ty, bytes, what) in [
        (
            r#"["list","string"]"#,
            &b"\xdd\xff\xff\xff\xff"[..],
            "array32 of 2^32-1 elements",
        ),
        (
            r#"["set","string"]"#,
            b"\xdd\xff\xff\xff\xff",
            "array32 set",
        ),
        (
            r#"["map","string"]"#,
            b"\xdf\xff\xff\xff\xff",
            "map32 of 2^32-1 pairs",
        ),
        (
            r#"["list","string"]"#,
            b"\xdd\x04\x00\x00\x00",
            "array32 of 2^26 elements",
        ),
        ("\"string\"", b"\xdb\xff\xff\xff\xffabc", "str32 of 4 GiB"),
        (
            "\"dynamic\"",
            b"\x92\xc6\xff\xff\xff\xff\"string\"",
            "bin32 type of 4 GiB",
        ),
        ("\"string\"", b"\xc9\xff\xff\xff\xff\x0c", "ext32 of 4 GiB"),
    ] {
        let program = Program::compile(&Type::from_json(ty).unwrap());
        let (r, peak) = peak_during(|| d.decode_msgpack(&program, bytes, &arena).map(|_| ()));
        let e = r.expect_err(what);
        assert!(
            matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LimitExceeded { .. }
            ),
            "{what}: {e}"
        );
        assert!(peak < 1 << 20, "{what}: peak {peak} bytes");
    }
    // A collection whose declared length exceeds the configured limit is refused by the limit.
    let program = Program::compile(&Type::from_json(r#"["list","string"]"#).unwrap());
    let mut small = Decoder::new(Config::default().max_collection_len(10));
    let e = small
        .decode_msgpack(&program, b"\xdc\x00\x0b", &arena)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "(root): limit exceeded: max_collection_len is 10 (at byte 0)"
    );
    // 0xffffffff is a count like any other (not "unknown", as in JSON text): the largest
    // array32 or map32 fails the limit at once, and a tuple that long is not a tuple of 1.
    for input in [&b"\xdd\xff\xff\xff\xff"[..], b"\xdd\xff\xff\xff\xfe\xa1a"] {
        let e = Decoder::new(Config::default())
            .decode_msgpack(&program, input, &arena)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "(root): limit exceeded: max_collection_len is 67108864 (at byte 0)"
        );
    }
    let map = Program::compile(&Type::from_json(r#"["map","string"]"#).unwrap());
    let e = small
        .decode_msgpack(&map, b"\xdf\xff\xff\xff\xff\xa1a\xa1b", &arena)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "(root): limit exceeded: max_collection_len is 10 (at byte 0)"
    );
    let tuple = Program::compile(&Type::from_json(r#"["tuple",["string"]]"#).unwrap());
    let e = small
        .decode_msgpack(&tuple, b"\xdd\xff\xff\xff\xff\xa1a\xa1b", &arena)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "(root): a tuple of length 1 is required (4294967295 given) (at byte 0)"
    );
}

#[test]
fn every_limit_has_a_clear_error() {
    let list = Program::compile(&Type::from_json(r#"["list","string"]"#).unwrap());
    let arena = bumpalo::Bump::new();
    let limit = |e: tfwire::Error| match e.kind() {
        ErrorKind::LimitExceeded { limit, .. } => *limit,
        k => panic!("not a limit: {k:?}"),
    };
    let input = b"\x92\xa1a\xa1b";
    let e = Decoder::new(Config::default().max_input_bytes(4))
        .decode_msgpack(&list, input, &arena)
        .unwrap_err();
    assert_eq!(limit(e), Limit::InputBytes);
    let e = Decoder::new(Config::default().max_collection_len(1))
        .decode_msgpack(&list, input, &arena)
        .unwrap_err();
    assert_eq!(limit(e), Limit::CollectionLen);
    let e = Decoder::new(Config::default().max_collection_len(1))
        .decode_json(&list, br#"["a","b"]"#, &arena)
        .unwrap_err();
    assert_eq!(limit(e), Limit::CollectionLen);
    let e = Decoder::new(Config::default().max_collection_len(1))
        .decode_json_text(&list, br#"["a","b"]"#, &arena)
        .unwrap_err();
    assert_eq!(limit(e).config_field(), "max_collection_len");
    // The arena budget: a 100 KiB string list cannot be kept in 1 KiB (an error, never an
    // abort), and the arena's own limit is restored afterwards.
    let big: Vec<u8> = {
        let mut v = vec![0xdc, 0x03, 0xe8];
        for _ in 0..1000 {
            v.extend_from_slice(b"\xd9\x64");
            v.extend(std::iter::repeat_n(b'\xc3', 0).chain(std::iter::repeat_n(b'x', 100)));
        }
        v
    };
    let fresh = bumpalo::Bump::new();
    let e = Decoder::new(Config::default().max_arena_bytes(1024))
        .decode_msgpack(&list, &big, &fresh)
        .unwrap_err();
    assert_eq!(limit(e), Limit::ArenaBytes);
    assert_eq!(fresh.allocation_limit(), None);
    // Depth: 10^6 nested arrays in either format, and type JSON that deep in a dynamic value.
    let n = 1_000_000;
    let deep_list = Program::compile(
        &Type::from_json(&format!(
            "{}\"string\"{}",
            "[\"list\",".repeat(300),
            "]".repeat(300)
        ))
        .unwrap(),
    );
    let mut mp = vec![0x91; n];
    mp.push(0xa0);
    let e = tfwire::decode_msgpack(&deep_list, &mp, &arena).unwrap_err();
    assert_eq!(limit(e), Limit::Depth);
    let json = format!("{}{}", "[".repeat(n), "]".repeat(n));
    let e = tfwire::decode_json(&deep_list, json.as_bytes(), &arena).unwrap_err();
    assert_eq!(limit(e), Limit::Depth);
    let deep_type = format!("{}\"string\"{}", "[\"list\",".repeat(n), "]".repeat(n));
    let mut dynamic = vec![0x92, 0xc6];
    dynamic.extend_from_slice(&(deep_type.len() as u32).to_be_bytes());
    dynamic.extend_from_slice(deep_type.as_bytes());
    dynamic.push(0xc0);
    let e =
        tfwire::decode_msgpack(&Program::compile(&Type::Dynamic), &dynamic, &arena).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::InvalidType { message, .. } if message == "type nested too deeply"),
        "{e}"
    );
}

/// A refined unknown list whose length bounds are equal is a list of that many unknowns
/// (go-cty's `NewValue`): 18 bytes cannot become 2^26 values (1 GiB of arena). The
/// amplification limit stops it, names itself, and raising it decodes the value.
#[test]
fn refinement_expansion_is_bounded() {
    let list = Program::compile(&Type::from_json(r#"["list","string"]"#).unwrap());
    let refined = |n: u32| -> Vec<u8> {
        let mut v = vec![0xd8, 0x0c, 0x83, 0x01, 0xc2];
        for key in [5u8, 6] {
            v.extend_from_slice(&[key, 0xce]);
            v.extend_from_slice(&n.to_be_bytes());
        }
        v.push(0xc0); // padding to the 16 bytes of a fixext 16 (ignored, as go-cty does)
        v
    };
    let input = refined(1 << 26);
    assert_eq!(input.len(), 18);
    let arena = bumpalo::Bump::new();
    PEAK.with(|p| p.set(0));
    LIVE.with(|l| l.set(0));
    let e = Decoder::new(Config::default())
        .decode_msgpack(&list, &input, &arena)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "(root): limit exceeded: max_amplification is 64 (the decoded value would take more \
         than 64 times the input's size, plus 1 MiB; raise Config::max_amplification) (at \
         byte 0)"
    );
    assert!(
        PEAK.with(Cell::get) < 2 << 20,
        "peak {}",
        PEAK.with(Cell::get)
    );
    // Within the allowance, or with the limit raised, the value is decoded.
    let arena = bumpalo::Bump::new();
    let small = refined(1000);
    let v = Decoder::new(Config::default())
        .decode_msgpack(&list, &small, &arena)
        .unwrap();
    assert_eq!(v.elements().map(<[_]>::len), Some(1000));
    let arena = bumpalo::Bump::new();
    let n = 1 << 20; // 16 or 24 MiB of values
    let big = refined(n);
    let v = Decoder::new(Config::default().max_amplification(1 << 22))
        .decode_msgpack(&list, &big, &arena)
        .unwrap();
    assert_eq!(v.elements().map(<[_]>::len), Some(n as usize));
    // The chunked decoder's budget grows with what it was fed: the same 18 bytes fed one
    // at a time fail the same way.
    let arena = bumpalo::Bump::new();
    let mut decoder = Decoder::new(Config::default());
    let mut chunked = decoder.chunked(&list, &arena);
    let mut last = None;
    for b in input.chunks(1) {
        if let Err(e) = chunked.feed(b) {
            last = Some(e);
            break;
        }
    }
    let e = last.expect("the chunked decode fails");
    assert!(matches!(
        e.kind(),
        ErrorKind::LimitExceeded {
            limit: Limit::Amplification,
            max: 64
        }
    ));
}
