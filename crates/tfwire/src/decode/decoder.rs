//! The reusable [`Decoder`] and the one-off [`decode_msgpack`] and [`decode_json`]: where a
//! decode starts, with its limits, and which token source it runs the state machine over.

use super::config::Config;
use super::fault::Fault;
use super::machine::Stacks;
use super::shape::Cur;
use super::source::Source;
use super::{json_structural, json_tape, json_text, json_walk, msgpack};
use crate::error::{Error, ErrorKind, Limit, Path};
use crate::program::{NodeId, Program};
use crate::value::Value;
use bumpalo::Bump;
use tfwire_json::tape::INPUT_PADDING;

/// A reusable decoder: keeps its scratch stacks (and simd-json's buffers and tape) between
/// decodes, so that decoding a message of a size seen before allocates nothing on the heap
/// (values go into the arena you pass).
#[derive(Default)]
pub struct Decoder {
    pub(super) config: Config,
    pub(super) stacks: Option<Stacks>,
    json: tfwire_json::tape::TapeParser,
    /// Which blocks of the last JSON document hold strings that need an NFC check.
    clean: json_tape::CleanBlocks,
}

impl core::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Decoder {
    /// A decoder with `config`.
    pub fn new(config: Config) -> Decoder {
        Decoder {
            config: config.checked(),
            stacks: Some(Stacks::default()),
            json: tfwire_json::tape::TapeParser::default(),
            clean: json_tape::CleanBlocks::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Decodes a complete MessagePack value of the program's type.
    ///
    /// The value borrows `input` (strings), `arena` (everything else) and `program`
    /// (attribute names).
    pub fn decode_msgpack<'a>(
        &mut self,
        program: &'a Program,
        input: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        self.decode_msgpack_at(program, program.root(), input, arena)
    }

    /// Decodes a complete JSON value of the program's type.
    ///
    /// The document is parsed by simd-json (into a copy in the arena, where strings are
    /// unescaped in place and then borrowed by the value); numbers are taken from their
    /// original text, exactly. A document simd-json rejects (it refuses integers beyond
    /// 64 bits and magnitudes beyond binary64, and any syntax error) is read again by the
    /// byte-by-byte reader, which accepts every valid JSON number and reports errors
    /// precisely; both readers feed the same state machine.
    ///
    /// JSON's rules differ from MessagePack's where go-cty's JSON decoder differs: attributes
    /// may be omitted (they are null), a repeated key keeps its last value, `Config::lenient`
    /// ignores undeclared attributes, strings may be sent as numbers or bools, numbers and
    /// bools as strings, and a dynamic value is `{"type": T, "value": V}` (in either order).
    ///
    /// ```
    /// use tfwire::{Config, Decoder, Program, Type};
    /// let program = Program::compile(&Type::from_json(r#"["object",{"n":"number","s":"string"}]"#)?);
    /// let arena = bumpalo::Bump::new();
    /// let mut d = Decoder::new(Config::default());
    /// let v = d.decode_json(&program, br#"{"n": 123456789012345678901234567890.5}"#, &arena)?;
    /// assert_eq!(v.get("n").unwrap().as_number().unwrap().to_string(), "123456789012345678901234567890.5");
    /// assert!(v.get("s").unwrap().is_null());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_json<'a>(
        &mut self,
        program: &'a Program,
        input: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        self.check_input(input)?;
        let len = input.len();
        // simd-json sizes its tape from the structural characters before it checks the
        // depth (28 bytes each): a large input too deep for the decoder, or so dense that
        // its tape would take more than 7 times its size (over one node per 4 bytes), goes
        // to the byte-by-byte reader, which needs no tape and fails at the first bracket
        // too many. (JSON nests up to twice as deep as the value: type JSON in dynamic
        // values.) Small inputs cannot cost much and skip the pass.
        let json_depth = self.config.max_depth.saturating_mul(2).saturating_add(2);
        if len > SHAPE_CHECK_BYTES
            && tfwire_json::shape::check_json_shape(input, json_depth, len / 4).is_err()
        {
            return self.decode_json_text(program, input, arena);
        }
        // simd-json parses in place and reads past the end: a padded copy, in the arena (the
        // values borrow its unescaped strings). Copied, then padded, not zero-filled first.
        let mut copy = bumpalo::collections::Vec::new_in(arena);
        if copy.try_reserve_exact(len + INPUT_PADDING).is_err() {
            return Err(arena_limit(&self.config, 0));
        }
        copy.extend_from_slice_copy(input);
        copy.extend_from_slice_copy(&[0; INPUT_PADDING]);
        let copy = copy.into_bump_slice_mut();
        // Where the copy lies: a string's offset is where its slice starts in it.
        let base = copy.as_ptr() as usize;
        match self.json.parse(copy, len) {
            Ok(tape) => {
                let texts =
                    json_tape::DocText::new(input, self.json.structural_indexes(), &tape.0, base);
                self.clean.fill(input, base);
                if json_walk::Walk::applies(program)
                    && let Some(v) = walk_tape(
                        &self.config,
                        &mut self.stacks,
                        program,
                        arena,
                        (&tape.0, &texts, &self.clean),
                        len,
                    )
                {
                    self.json.recycle(tape);
                    return Ok(v);
                }
                let mut src = json_tape::TapeSource::new(&tape.0, texts, Some(&self.clean));
                let r = run_machine(
                    &self.config,
                    &mut self.stacks,
                    (program, program.root()),
                    arena,
                    &mut src,
                    len,
                );
                self.json.recycle(tape);
                r
            }
            Err(_) => self.decode_json_text(program, input, arena),
        }
    }

    /// A measurement prototype for the benchmarks, not a decoder: reads a JSON document
    /// with a typed pass over simd-json's stage-1 structural indexes instead of its tape
    /// (`decode/json_structural.rs` says what the pass checks and what it trusts), or
    /// `None` where the pass gives up. It is not exact in general (it trusts stage 1 for
    /// quotes inside strings and returns no errors); use [`Decoder::decode_json`].
    ///
    /// simd-json offers no stage 1 on its own, so the indexes are taken from a full parse
    /// of a copy first; what the design would cost is stage 1 (simd-json's
    /// `find_structural_bits`) plus `structural_pass` (this function's own pass), each
    /// counted apart.
    #[doc(hidden)]
    pub fn decode_json_structural<'a>(
        &mut self,
        program: &'a Program,
        input: &'a [u8],
        arena: &'a Bump,
    ) -> Option<Value<'a>> {
        if !json_walk::Walk::applies(program) {
            return None;
        }
        let len = input.len();
        let mut copy = bumpalo::collections::Vec::new_in(arena);
        copy.try_reserve_exact(len + INPUT_PADDING).ok()?;
        copy.extend_from_slice_copy(input);
        copy.extend_from_slice_copy(&[0; INPUT_PADDING]);
        let copy = copy.into_bump_slice_mut();
        let tape = self.json.parse(copy, len).ok()?;
        let v = structural_pass(
            &self.config,
            &mut self.stacks,
            &mut self.clean,
            program,
            arena,
            input,
            self.json.structural_indexes(),
        );
        self.json.recycle(tape);
        v
    }

    /// Decodes the JSON value whose tape nodes are `nodes` (a whole value: its node, then
    /// those of its members) with the program, in place: the same state machine as
    /// [`Decoder::decode_json`], run over a tape parsed before (by
    /// [`TapeParser`](tfwire_json::tape::TapeParser), e.g. one resource value inside a plan
    /// document), with no text written or read again. `texts` gives the nodes' offsets and
    /// number texts.
    ///
    /// ```
    /// use tfwire_json::tape::{INPUT_PADDING, TapeParser};
    /// use tfwire::{Config, Decoder, Program, Type};
    /// let text = br#"{"plan":{"n":2.50,"s":"x"}}"#;
    /// let mut buf = text.to_vec();
    /// buf.resize(text.len() + INPUT_PADDING, b' ');
    /// let shape = tfwire_json::json_shape(text, 64, usize::MAX)?;
    /// let mut parser = TapeParser::default();
    /// let doc = parser.parse_document(&mut buf, text.len(), &shape)?;
    /// // The value of "plan": node 2 onwards, one node and its 4 members' nodes; the
    /// // document's subtree gives their offsets and number texts.
    /// let program = Program::compile(&Type::from_json(r#"["object",{"n":"number","s":"string"}]"#)?);
    /// let arena = bumpalo::Bump::new();
    /// let v = Decoder::new(Config::default())
    ///     .decode_json_nodes(&program, &doc.nodes()[2..7], &doc.subtree(2), &arena)?;
    /// assert_eq!(v.get("n").unwrap().as_number().unwrap().to_string(), "2.5");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode_json`], at the offsets `texts` gives.
    pub fn decode_json_nodes<'a, T: tfwire_json::tape::TapeText<'a>>(
        &mut self,
        program: &'a Program,
        nodes: &'a [tfwire_json::tape::Node<'a>],
        texts: &T,
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        let mut src = json_tape::TapeSource::new(nodes, texts, None);
        // The arena budget scales with the value's size in the document.
        let len = texts.offset(nodes.len()).saturating_sub(texts.offset(0));
        self.run(program, arena, &mut src, len.max(nodes.len() * 8))
    }

    /// Decodes a complete JSON value with the byte-by-byte reader only (the fallback of
    /// [`Decoder::decode_json`]). Gives the same value, or the same error, as
    /// `decode_json`; it exists to check that, and for callers who want no SIMD code run.
    pub fn decode_json_text<'a>(
        &mut self,
        program: &'a Program,
        input: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        self.check_input(input)?;
        let mut src = json_text::TextSource::new(arena, input);
        self.run(program, arena, &mut src, input.len())
    }

    /// Decodes `input`, a complete MessagePack value nested inside a larger input, as the
    /// value at `node` of `program` (what [`crate::lookup`] runs on the value it found), through
    /// the one run loop and its limits.
    /// Errors are reported relative to `input`.
    pub(crate) fn decode_msgpack_at<'a>(
        &mut self,
        program: &'a Program,
        node: NodeId,
        input: &'a [u8],
        arena: &'a Bump,
    ) -> Result<Value<'a>, Error> {
        self.check_input(input)?;
        let mut src = msgpack::Complete::new(input);
        self.run_at(program, node, arena, &mut src, input.len())
    }

    fn check_input(&self, input: &[u8]) -> Result<(), Error> {
        self.config.check_input_len(input.len())
    }

    fn run<'a, S: Source<'a>>(
        &mut self,
        program: &'a Program,
        arena: &'a Bump,
        src: &mut S,
        input_len: usize,
    ) -> Result<Value<'a>, Error> {
        self.run_at(program, program.root(), arena, src, input_len)
    }

    /// `run` from `node` of `program` (the root for a whole value; a nested node
    /// for [`crate::lookup`]), under the same limits.
    fn run_at<'a, S: Source<'a>>(
        &mut self,
        program: &'a Program,
        node: NodeId,
        arena: &'a Bump,
        src: &mut S,
        input_len: usize,
    ) -> Result<Value<'a>, Error> {
        run_machine(
            &self.config,
            &mut self.stacks,
            (program, node),
            arena,
            src,
            input_len,
        )
    }
}

/// [`Decoder::run_at`] on the decoder's configuration and scratch stacks alone (the JSON
/// decode runs it while the decoder's parser holds the tape).
fn run_machine<'a, S: Source<'a>>(
    config: &Config,
    stacks: &mut Option<Stacks>,
    (program, node): (&'a Program, NodeId),
    arena: &'a Bump,
    src: &mut S,
    input_len: usize,
) -> Result<Value<'a>, Error> {
    {
        let mut m = stacks.take().unwrap_or_default().into_machine(
            program,
            arena,
            *config,
            Cur::Node(node),
        );
        // Bound the arena for this decode: what it already holds plus the configured budget
        // (`max_arena_bytes`, or less for a small input: `max_amplification`).
        let previous_limit = arena.allocation_limit();
        let (allowed, limit) = config.arena_budget(input_len);
        let budget = arena.allocated_bytes().saturating_add(allowed);
        arena.set_allocation_limit(Some(previous_limit.map_or(budget, |l| l.min(budget))));
        let result = match m.run(src) {
            Ok(v) => src
                .finish()
                .map(|()| v)
                .map_err(|f| f.into_error(config, src.position())),
            // The machine's errors carry the source's positions (see `Source::offset`).
            Err(Fault::Error(e)) => {
                let at = src.locate(e.offset());
                Err(if at == e.offset() {
                    e
                } else {
                    Error::new(e.kind().clone(), at, e.path().clone())
                })
            }
            Err(f) => Err(f.into_error(config, src.position())),
        };
        arena.set_allocation_limit(previous_limit);
        *stacks = Some(m.into_stacks());
        result.map_err(|e| config.name_arena_limit(e, limit))
    }
}

/// The typed walk over a whole tape ([`json_walk`]) under the decode's arena budget, as
/// [`run_machine`] sets it; `None` when the walk gives up (the machine then decodes the
/// document, under a budget of its own: what the walk allocated is not counted again).
fn walk_tape<'a>(
    config: &Config,
    stacks: &mut Option<Stacks>,
    program: &'a Program,
    arena: &'a Bump,
    (nodes, texts, clean): (
        &[tfwire_json::tape::Node<'a>],
        &json_tape::DocText<'a, '_>,
        &json_tape::CleanBlocks,
    ),
    input_len: usize,
) -> Option<Value<'a>> {
    let scratch = stacks.get_or_insert_with(Stacks::default);
    let mut indexes = scratch.lend_scratch();
    let previous_limit = arena.allocation_limit();
    let (allowed, _) = config.arena_budget(input_len);
    let budget = arena.allocated_bytes().saturating_add(allowed);
    arena.set_allocation_limit(Some(previous_limit.map_or(budget, |l| l.min(budget))));
    let v = json_walk::Walk {
        program,
        bump: arena,
        nodes,
        texts,
        clean,
        config,
        scratch: &mut indexes,
        clean_run: (0, 0),
    }
    .root();
    arena.set_allocation_limit(previous_limit);
    scratch.give_back_scratch(indexes);
    v.ok()
}

/// The typed pass over structural indexes of [`Decoder::decode_json_structural`], with the
/// block map it reads strings by.
#[inline(never)]
fn structural_pass<'a>(
    config: &Config,
    stacks: &mut Option<Stacks>,
    clean: &mut json_tape::CleanBlocks,
    program: &'a Program,
    arena: &'a Bump,
    input: &'a [u8],
    idx: &[u32],
) -> Option<Value<'a>> {
    // Stage 1 checks the document's UTF-8; a safe pass needs its own `&str` to slice.
    let text = core::str::from_utf8(input).ok()?;
    clean.fill_marking::<true>(input, input.as_ptr() as usize);
    let scratch = stacks.get_or_insert_with(Stacks::default);
    let mut indexes = scratch.lend_scratch();
    let (mut stack, mut pairs) = (Vec::with_capacity(256), Vec::with_capacity(256));
    let v = json_structural::Pass {
        program,
        bump: arena,
        text,
        input,
        idx,
        clean,
        config,
        stack: &mut stack,
        pairs: &mut pairs,
        scratch: &mut indexes,
    }
    .root();
    scratch.give_back_scratch(indexes);
    v.ok()
}

/// Inputs up to this size go to simd-json without the shape check: its tape for them costs
/// at most 28 times as much (112 MiB), and the check would cost a measurable part of the
/// decode of a typical message (a third, on the 1 MB bench payloads).
const SHAPE_CHECK_BYTES: usize = 4 << 20;

pub(super) fn arena_limit(config: &Config, offset: usize) -> Error {
    Error::new(
        ErrorKind::LimitExceeded {
            limit: Limit::ArenaBytes,
            max: config.max_arena_bytes as u64,
        },
        offset,
        Path::root(),
    )
}

/// Decodes a complete JSON value with the default [`Config`] (see [`Decoder::decode_json`]).
pub fn decode_json<'a>(
    program: &'a Program,
    input: &'a [u8],
    arena: &'a Bump,
) -> Result<Value<'a>, Error> {
    Decoder::new(Config::default()).decode_json(program, input, arena)
}

/// Decodes a complete MessagePack value with the default [`Config`] (a one-off
/// [`Decoder`]; keep a `Decoder` to reuse its scratch memory).
///
/// ```
/// use tfwire::{Program, Type, Value};
/// let program = Program::compile(&Type::String);
/// let bump = bumpalo::Bump::new();
/// assert_eq!(tfwire::decode_msgpack(&program, &[0xa2, b'h', b'i'], &bump)?, Value::String("hi"));
/// let err = tfwire::decode_msgpack(&program, &[0xc3], &bump).unwrap_err();
/// assert_eq!(err.to_string(), "(root): a string is required, found bool (at byte 0)");
/// # Ok::<(), tfwire::Error>(())
/// ```
pub fn decode_msgpack<'a>(
    program: &'a Program,
    input: &'a [u8],
    arena: &'a Bump,
) -> Result<Value<'a>, Error> {
    Decoder::new(Config::default()).decode_msgpack(program, input, arena)
}
