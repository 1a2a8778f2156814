//! tfwire and the decoders a user would pick instead, each with its reusable state, so that a
//! timed call does exactly one decode and drops (or resets) what it made.

use crate::answers::MsgpackCounts;
use bumpalo::Bump;
use tfwire::{Config, Decoder, Program, Value};

/// tfwire as a proxy would run it: one [`Decoder`] and one arena, reset after every decode.
pub struct Tfwire {
    decoder: Decoder,
    arena: Bump,
}

impl Default for Tfwire {
    fn default() -> Tfwire {
        Tfwire {
            decoder: Decoder::new(Config::default()),
            arena: Bump::new(),
        }
    }
}

/// One of [`Decoder`]'s decode methods.
type DecodeFn =
    for<'a> fn(&mut Decoder, &'a Program, &'a [u8], &'a Bump) -> Result<Value<'a>, tfwire::Error>;

impl Tfwire {
    /// Decodes MessagePack, hands the value to `f`, then resets the arena.
    ///
    /// # Panics
    /// If the input does not decode.
    pub fn msgpack<R>(
        &mut self,
        program: &Program,
        input: &[u8],
        f: impl FnOnce(&Value<'_>) -> R,
    ) -> R {
        self.run(Decoder::decode_msgpack, program, input, f)
    }

    /// Decodes JSON (simd-json's tape, the byte reader as fallback), hands the value to `f`,
    /// then resets the arena.
    ///
    /// # Panics
    /// If the input does not decode.
    pub fn json<R>(
        &mut self,
        program: &Program,
        input: &[u8],
        f: impl FnOnce(&Value<'_>) -> R,
    ) -> R {
        self.run(Decoder::decode_json, program, input, f)
    }

    /// Decodes JSON with the byte-by-byte reader only, hands the value to `f`, then resets
    /// the arena.
    ///
    /// # Panics
    /// If the input does not decode.
    pub fn json_text<R>(
        &mut self,
        program: &Program,
        input: &[u8],
        f: impl FnOnce(&Value<'_>) -> R,
    ) -> R {
        self.run(Decoder::decode_json_text, program, input, f)
    }

    /// Decodes JSON with the bench-only prototype `Decoder::decode_json_structural` (a
    /// typed pass over simd-json's structural indexes, after a full parse that provides
    /// them), hands the value to `f`, then resets the arena.
    ///
    /// # Panics
    /// If the prototype gives up on the input.
    pub fn json_structural<R>(
        &mut self,
        program: &Program,
        input: &[u8],
        f: impl FnOnce(&Value<'_>) -> R,
    ) -> R {
        self.run(
            |d, p, i, a| {
                Ok(d.decode_json_structural(p, i, a)
                    .expect("the prototype reads the payload"))
            },
            program,
            input,
            f,
        )
    }

    #[inline(always)]
    fn run<R>(
        &mut self,
        decode: DecodeFn,
        program: &Program,
        input: &[u8],
        f: impl FnOnce(&Value<'_>) -> R,
    ) -> R {
        let r = {
            let v = decode(&mut self.decoder, program, input, &self.arena)
                .unwrap_or_else(|e| panic!("tfwire: {e}"));
            f(&v)
        };
        self.arena.reset();
        r
    }
}

/// `limit_walk`: the least a validating MessagePack decoder must do. Reads every token with
/// `tfwire_msgpack::Tokenizer` and validates every string's UTF-8 (ASCII fast path, then
/// `core::str::from_utf8`), building nothing. The practical ceiling for a validating decoder.
///
/// # Panics
/// On a broken token or a string that is not UTF-8.
#[inline(never)]
pub fn limit_walk(input: &[u8]) -> MsgpackCounts {
    let mut t = tfwire_msgpack::Tokenizer::new(input);
    let mut c = MsgpackCounts {
        bytes: input.len() as u64,
        ..MsgpackCounts::default()
    };
    while !t.is_empty() {
        let tok = t.next_token().expect("limit_walk: a complete token");
        c.tokens += 1;
        if let tfwire_msgpack::Kind::Str(n) = tok.kind {
            let s = t.payload(&tok);
            if !s.is_ascii() {
                core::str::from_utf8(s).expect("limit_walk: UTF-8");
            }
            c.str_tokens += 1;
            c.str_bytes += u64::from(n);
        }
    }
    c
}

/// `rmpv_ref`: `rmpv::decode::read_value_ref` (borrowed strings, validated UTF-8).
///
/// # Panics
/// If the input does not decode.
#[inline(never)]
pub fn rmpv_ref(input: &[u8]) -> rmpv::ValueRef<'_> {
    rmpv::decode::read_value_ref(&mut &input[..]).expect("rmpv")
}

/// `rmp_serde_value`: `rmp_serde` into a `serde_json::Value`.
///
/// # Panics
/// If the input does not decode.
#[inline(never)]
pub fn rmp_serde_value(input: &[u8]) -> serde_json::Value {
    rmp_serde::from_slice(input).expect("rmp_serde")
}

/// `serde_json_value`: `serde_json::from_slice` into a `serde_json::Value`.
///
/// # Panics
/// If the input does not decode.
#[inline(never)]
pub fn serde_json_value(input: &[u8]) -> serde_json::Value {
    serde_json::from_slice(input).expect("serde_json")
}

/// `simd_json_tape`: simd-json's `fill_tape` with reused buffers and tape; the copy of the
/// input it parses in place (into a reused vector) is part of every call.
#[derive(Default)]
pub struct SimdJsonTape {
    copy: Vec<u8>,
    buffers: simd_json::Buffers,
    tape: Option<simd_json::Tape<'static>>,
}

impl SimdJsonTape {
    /// Copies `input`, fills the tape and hands it to `f`.
    ///
    /// # Panics
    /// If the input does not parse.
    #[inline(never)]
    pub fn run<R>(&mut self, input: &[u8], f: impl FnOnce(&[simd_json::Node<'_>]) -> R) -> R {
        self.copy.clear();
        self.copy.extend_from_slice(input);
        let mut tape = self
            .tape
            .take()
            .unwrap_or_else(|| simd_json::Tape(Vec::new()))
            .reset();
        simd_json::fill_tape(&mut self.copy, &mut self.buffers, &mut tape).expect("simd-json");
        let r = f(&tape.0);
        self.tape = Some(tape.reset());
        r
    }
}

/// `simd_json_owned`: simd-json's `OwnedValue` (reused buffers); the copy of the input is
/// part of every call.
#[derive(Default)]
pub struct SimdJsonOwned {
    copy: Vec<u8>,
    buffers: simd_json::Buffers,
}

impl SimdJsonOwned {
    /// Copies `input` and parses it.
    ///
    /// # Panics
    /// If the input does not parse.
    #[inline(never)]
    pub fn parse(&mut self, input: &[u8]) -> simd_json::OwnedValue {
        self.copy.clear();
        self.copy.extend_from_slice(input);
        simd_json::to_owned_value_with_buffers(&mut self.copy, &mut self.buffers)
            .expect("simd-json")
    }
}

/// `sonic_rs_value`: `sonic_rs::from_slice` into a `sonic_rs::Value` (its document, typed
/// deserialisation through serde).
///
/// # Panics
/// If the input does not decode.
#[inline(never)]
pub fn sonic_rs_value(input: &[u8]) -> sonic_rs::Value {
    sonic_rs::from_slice(input).expect("sonic-rs")
}

/// `jiter_value`: `jiter::JsonValue` parsed on a reused `JsonValueScratch` (strings borrowed
/// from the input where they hold no escape).
#[derive(Default)]
pub struct JiterValue<'j> {
    scratch: jiter::JsonValueScratch<'j>,
}

impl<'j> JiterValue<'j> {
    /// Parses `input` and hands the value to `f`.
    ///
    /// # Panics
    /// If the input does not parse.
    #[inline(never)]
    pub fn run<R>(&mut self, input: &'j [u8], f: impl FnOnce(&jiter::JsonValue<'_>) -> R) -> R {
        let v = self
            .scratch
            .parse(input, false, jiter::PartialMode::Off)
            .expect("jiter");
        f(&v)
    }
}

/// The paths `sonic_rs_get_many` looks up in a payload (`serde_json`'s reading of it): a
/// summary-like lookup of three members, the first, middle and last of the root object's
/// keys or of the root array's elements, as JSON pointer steps.
pub fn lookup_paths(v: &serde_json::Value) -> Vec<Vec<sonic_rs::PointerNode>> {
    let pick = |n: usize| -> Vec<usize> {
        let mut p = vec![0, n / 2, n.saturating_sub(1)];
        p.dedup();
        p.retain(|&i| i < n);
        p
    };
    match v {
        serde_json::Value::Object(m) => {
            let keys: Vec<&String> = m.keys().collect();
            pick(keys.len())
                .into_iter()
                .map(|i| vec![sonic_rs::PointerNode::Key(keys[i].clone().into())])
                .collect()
        }
        serde_json::Value::Array(a) => pick(a.len())
            .into_iter()
            .map(|i| vec![sonic_rs::PointerNode::Index(i)])
            .collect(),
        _ => Vec::new(),
    }
}

/// `sonic_rs_get_many`: sonic-rs's lazy API, `sonic_rs::get_many` of `tree` (the values'
/// raw texts, nothing decoded beyond them), as a plan summary reads a few members of a
/// large document.
///
/// # Panics
/// If the input does not parse or a path is not found.
#[inline(never)]
pub fn sonic_rs_get_many<'a>(
    input: &'a [u8],
    tree: &sonic_rs::PointerTree,
) -> Vec<sonic_rs::LazyValue<'a>> {
    sonic_rs::get_many(input, tree)
        .expect("sonic-rs get_many")
        .into_iter()
        .map(|v| v.expect("every path is there"))
        .collect()
}
