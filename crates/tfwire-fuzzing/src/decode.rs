//! The decoder targets: `decode_msgpack`, `decode_json`, `msgpack_vs_json` and `stream`.

use crate::compare::{Outcome, json_can_hold, outcome, same_json_value, same_msgpack_value};
use crate::input::{Typed, flags, read_cuts, split_points};
use arbitrary::Unstructured;
use bumpalo::Bump;
use bytes::Bytes;
use tfwire::{
    ChunkStore, Config, Decoder, Error, Program, Progress, Value, arbitrary::Options, canonical,
};

/// The resource check: whatever a decode returned, its arena holds at most
/// `max_amplification` (64) times the input, plus the JSON reader's copy of the input and
/// a constant. An input that inflates past this (a refined list of 2^26 unknowns from 18
/// bytes) fails the target, so the amplification class stays closed.
pub(crate) fn bounded_arena(arena: &Bump, input_len: usize, what: &str) {
    // 64 for the budget, 2 for the JSON copy (bumpalo may round a chunk up to twice the
    // request), plus the allowance, chunk rounding and the copy's padding.
    let factor = Config::default().max_amplification + 2;
    let constant = 2 * Config::AMPLIFICATION_ALLOWANCE + 4096;
    let used = arena.allocated_bytes();
    assert!(
        used <= factor * input_len + constant,
        "{what}: the arena holds {used} bytes for {input_len} bytes of input \
         (more than {factor} times the input plus {constant})"
    );
}

/// A typed input read from fuzz data, its compiled program, the configuration its flags ask
/// for and a decoder with it: where every decoding check starts (`None` when the data holds
/// no type).
fn prepare(data: &[u8]) -> Option<(Typed<'_>, Program, Config, Decoder)> {
    let input = Typed::read(data)?;
    let program = Program::compile(&input.ty);
    let config = input.config();
    Some((input, program, config, Decoder::new(config)))
}

/// Checks MessagePack decoding of a typed input (see the crate documentation).
pub fn decode_msgpack(data: &[u8]) {
    let Some((input, program, config, mut decoder)) = prepare(data) else {
        return;
    };
    let arena = Bump::new();
    let first = decoder.decode_msgpack(&program, input.payload, &arena);
    bounded_arena(&arena, input.payload.len(), "decode_msgpack");
    let again = {
        let arena = Bump::new();
        outcome(decoder.decode_msgpack(&program, input.payload, &arena))
    };
    let Some(value) = agreeing(first, again, input.payload, "a reused decoder") else {
        return;
    };
    msgpack_round_trip(&program, &value, config);

    // The canonical text reads back as the value.
    let text = canonical::to_string(&value);
    let parsed = canonical::parse(text.as_bytes(), &arena)
        .unwrap_or_else(|e| panic!("canonical text does not parse: {e}\n  {text}"));
    assert_eq!(
        canonical::to_string(&parsed),
        text,
        "canonical text read back"
    );

    // Never panics, whatever the payload.
    let _ = tfwire::implied_type_msgpack(input.payload);
}

/// Checks JSON decoding of a typed input: both readers, and round trips.
pub fn decode_json(data: &[u8]) {
    let Some((input, program, config, mut decoder)) = prepare(data) else {
        return;
    };
    let arena = Bump::new();
    let simd = decoder.decode_json(&program, input.payload, &arena);
    bounded_arena(&arena, input.payload.len(), "decode_json");
    let bytewise = {
        let arena = Bump::new();
        let r = outcome(decoder.decode_json_text(&program, input.payload, &arena));
        bounded_arena(&arena, input.payload.len(), "decode_json_text");
        r
    };
    let what = "simd-json path vs byte-wise path";
    let Some(value) = agreeing(simd, bytewise, input.payload, what) else {
        return;
    };
    let text = canonical::to_string(&value);

    msgpack_round_trip(&program, &value, config);

    // JSON holds every value decoded from JSON (but the infinities that go-cty reads from
    // the strings "Inf" and "-Inf"), and gives it back exactly.
    let json = tfwire::encode_json(&program, &value);
    assert_eq!(
        json.is_ok(),
        json_can_hold(&value),
        "JSON encodes exactly the values without infinities: {json:?}\n  {text}"
    );
    let Ok(json) = json else { return };
    let back = json_both_readers(&program, json.as_bytes(), config, &arena)
        .unwrap_or_else(|e| panic!("encoded JSON does not decode: {e}\n  {text}\n  {json}"));
    assert_eq!(
        canonical::to_string(&back),
        text,
        "JSON round trip of {json}"
    );
    let again = tfwire::encode_json(&program, &back).expect("encodes");
    assert_eq!(again, json, "re-encoding what was decoded");
}

/// Checks that MessagePack values go through JSON unchanged, when JSON can hold them.
pub fn msgpack_vs_json(data: &[u8]) {
    let Some((input, program, config, mut decoder)) = prepare(data) else {
        return;
    };
    let arena = Bump::new();
    let value = if input.has(flags::GENERATE_VALUE) {
        let mut u = Unstructured::new(input.payload);
        let mut options = Options::json();
        options.max_depth = 8;
        let Ok(generated) = tfwire::arbitrary::value(&mut u, &input.ty, &arena, &options) else {
            return;
        };
        let text = canonical::to_string(&generated);
        let bytes = tfwire::encode_msgpack(&program, &generated)
            .unwrap_or_else(|e| panic!("a generated value does not encode: {e}\n  {text}"));
        let bytes = arena.alloc_slice_copy(&bytes);
        let Ok(v) = decoder.decode_msgpack(&program, bytes, &arena) else {
            // Deeper or longer than the limits allow.
            assert!(input.has(flags::TIGHT_LIMITS), "{text} does not decode");
            return;
        };
        v
    } else {
        match decoder.decode_msgpack(&program, input.payload, &arena) {
            Ok(v) => v,
            Err(_) => return,
        }
    };
    let text = canonical::to_string(&value);
    let json = tfwire::encode_json(&program, &value);
    assert_eq!(
        json.is_ok(),
        json_can_hold(&value),
        "JSON encodes exactly the values without unknowns and infinities: {json:?}\n  {text}"
    );
    let Ok(json) = json else { return };
    let back = json_both_readers(&program, json.as_bytes(), config, &arena)
        .unwrap_or_else(|e| panic!("encoded JSON does not decode: {e}\n  {text}\n  {json}"));
    assert!(
        same_json_value(&value, &back),
        "MessagePack value through JSON\n  value {text}\n  JSON  {json}\n  back  {}",
        canonical::to_string(&back)
    );
    let again = tfwire::encode_json(&program, &back).expect("encodes");
    assert_eq!(again, json, "re-encoding what JSON gave back");
    msgpack_round_trip(&program, &back, config);
}

/// Checks chunked MessagePack decoding against one-shot decoding: a cuts section, then a
/// typed input.
pub fn stream(data: &[u8]) {
    let (cuts, rest) = read_cuts(data);
    let Some(input) = Typed::read(rest) else {
        return;
    };
    let payload = input.payload;
    let cuts = split_points(&cuts, payload.len());
    let program = Program::compile(&input.ty);
    let mut decoder = Decoder::new(input.config());
    let one_shot = {
        let arena = Bump::new();
        outcome(decoder.decode_msgpack(&program, payload, &arena))
    };

    let got = in_pieces(&mut decoder, &program, payload, &cuts);
    if !early_amplification(&got, &one_shot) {
        assert_eq!(got, one_shot, "fed in pieces cut at {cuts:?}");
    }

    if payload.len() <= 512 {
        let arena = Bump::new();
        let got = one_byte_at_a_time(&mut decoder, &program, payload, &arena);
        bounded_arena(&arena, payload.len(), "stream, one byte at a time");
        if !early_amplification(&got, &one_shot) {
            assert_eq!(got, one_shot, "fed one byte at a time");
        }
    }
}

/// The one difference chunks may make: the chunked decoder's arena budget follows the bytes
/// fed so far, so a value that expands early (a refined unknown list) may exceed
/// `max_amplification` in chunks and not in one piece.
fn early_amplification(chunked: &Outcome, one_shot: &Outcome) -> bool {
    matches!(chunked, Err(e) if matches!(
        e.kind(),
        tfwire::ErrorKind::LimitExceeded { limit: tfwire::Limit::Amplification, .. }
    )) && one_shot.is_ok()
}

/// Feeds the pieces between the cuts, as `Bytes` kept by a `ChunkStore`.
fn in_pieces(decoder: &mut Decoder, program: &Program, payload: &[u8], cuts: &[usize]) -> Outcome {
    let store = ChunkStore::new();
    let arena = Bump::new();
    let mut chunked = decoder.chunked(program, &arena);
    let mut start = 0;
    let mut done: Option<String> = None;
    for end in cuts.iter().copied().chain([payload.len()]) {
        let piece = store.push(Bytes::copy_from_slice(&payload[start..end]));
        match chunked.feed(piece) {
            Ok(Progress::NeedMore) => assert!(done.is_none(), "NeedMore after Done"),
            Ok(Progress::Done(v)) => {
                let text = canonical::to_string(&v);
                if let Some(d) = &done {
                    assert_eq!(&text, d, "Done twice with different values");
                }
                done = Some(text);
            }
            Err(e) => return Err(e),
        }
        start = end;
    }
    let got = outcome(chunked.finish());
    if let (Some(d), Ok(v)) = (&done, &got) {
        assert_eq!(d, v, "finish gives the value Done gave");
    }
    got
}

fn one_byte_at_a_time(
    decoder: &mut Decoder,
    program: &Program,
    payload: &[u8],
    arena: &Bump,
) -> Outcome {
    let mut chunked = decoder.chunked(program, arena);
    for i in 0..payload.len() {
        chunked.feed(&payload[i..i + 1])?;
        // Empty chunks change nothing.
        chunked.feed(&[])?;
    }
    outcome(chunked.finish())
}

/// Encodes `value` as MessagePack, decodes it, and checks that the value comes back (see
/// `same_msgpack_value`) and that encoding it again gives the same bytes (or, when the
/// encoding merged set elements, bytes that are stable from then on).
fn msgpack_round_trip(program: &Program, value: &Value<'_>, config: Config) {
    let text = canonical::to_string(value);
    let bytes = tfwire::encode_msgpack(program, value)
        .unwrap_or_else(|e| panic!("a decoded value does not encode: {e}\n  {text}"));
    let arena = Bump::new();
    let mut decoder = Decoder::new(config);
    let back = decoder
        .decode_msgpack(program, &bytes, &arena)
        .unwrap_or_else(|e| {
            panic!("encoded MessagePack does not decode: {e}\n  {text}\n  {bytes:02x?}")
        });
    let back_text = canonical::to_string(&back);
    assert!(
        same_msgpack_value(value, &back),
        "MessagePack round trip\n  value {text}\n  bytes {bytes:02x?}\n  back  {back_text}"
    );
    let again = tfwire::encode_msgpack(program, &back).expect("encodes");
    if again != bytes {
        assert_ne!(
            back_text, text,
            "re-encoding what was decoded changed the bytes"
        );
        let settled = decoder
            .decode_msgpack(program, &again, &arena)
            .expect("decodes");
        assert_eq!(
            canonical::to_string(&settled),
            back_text,
            "a second round trip"
        );
        let third = tfwire::encode_msgpack(program, &settled).expect("encodes");
        assert_eq!(third, again, "re-encoding after a second round trip");
    }
}

/// Decodes JSON with both readers, checking that they agree.
fn json_both_readers<'a>(
    program: &'a Program,
    json: &'a [u8],
    config: Config,
    arena: &'a Bump,
) -> Result<Value<'a>, Error> {
    let mut decoder = Decoder::new(config);
    let simd = decoder.decode_json(program, json, arena);
    let bytewise = {
        let arena = Bump::new();
        outcome(decoder.decode_json_text(program, json, &arena))
    };
    assert_eq!(
        outcome(simd.clone()),
        bytewise,
        "simd-json path vs byte-wise path on {}",
        String::from_utf8_lossy(json)
    );
    simd
}

/// An error points into the input (or just past it) and displays.
/// Checks that two decodes of `input` agree (`first`'s error, if any, well formed), and
/// gives `first`'s value when it decoded.
fn agreeing<'a>(
    first: Result<Value<'a>, Error>,
    second: Outcome,
    input: &[u8],
    what: &str,
) -> Option<Value<'a>> {
    check_error(&first, input);
    match first {
        Ok(value) => {
            assert_eq!(Ok(canonical::to_string(&value)), second, "{what}");
            Some(value)
        }
        Err(e) => {
            assert_eq!(Err(e), second, "{what}");
            None
        }
    }
}

fn check_error(r: &Result<Value<'_>, Error>, input: &[u8]) {
    if let Err(e) = r {
        assert!(
            e.offset() <= input.len(),
            "error offset {} past the input ({} bytes): {e}",
            e.offset(),
            input.len()
        );
        crate::clean_message(&e.to_string());
    }
}
