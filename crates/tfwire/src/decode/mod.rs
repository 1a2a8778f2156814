//! Decoding: a compiled [`Program`] run over MessagePack (or JSON) tokens into arena values.
//!
//! ```
//! use tfwire::{Config, Decoder, Program, Type};
//! let program = Program::compile(&Type::from_json(r#"["list","string"]"#)?);
//! let mut decoder = Decoder::new(Config::default());
//! let mut arena = bumpalo::Bump::new();
//! for _ in 0..3 {
//!     let v = decoder.decode_msgpack(&program, &[0x92, 0xa1, b'a', 0xc0], &arena)?;
//!     assert_eq!(v.index(0).unwrap().as_str(), Some("a"));
//!     assert!(v.index(1).unwrap().is_null());
//!     arena.reset(); // values borrow the arena: reset it between messages
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! (The deviations from go-cty on odd input are documented in the crate docs, `lib.rs`:
//! this module is private, so its docs are not in rustdoc.)

#[cfg(feature = "bytes")]
mod chunk_store;
mod chunked;
pub(crate) mod collection;
mod dynamic_value;
#[cfg(feature = "bytes")]
pub use chunk_store::ChunkStore;
pub use chunked::{ChunkedDecoder, Progress};
pub use dynamic_value::DynamicValue;
pub(crate) mod json_tape;
mod json_text;
mod leaf;
mod machine;
mod msgpack;
mod refine;
pub(crate) mod shape;
mod source;
mod subtree;

use crate::error::{Error, ErrorKind, Limit, Path};
use crate::program::Program;
use crate::value::Value;
use bumpalo::Bump;
use machine::Stacks;
use shape::Cur;
use source::Source;
use tfwire_json::tape::INPUT_PADDING;

/// Decoding limits and options. Every limit has a safe default; a value that exceeds one is
/// rejected with [`ErrorKind::LimitExceeded`] naming it.
///
/// # Memory
///
/// Nothing is ever reserved from a length the input declares. The arena a decode fills holds
/// at most about **3 times the input** for MessagePack and **4 times** for JSON (which also
/// keeps simd-json's working copy of the document there): measured 2.0–2.5x and 3.0x on the
/// `resource`, `state-list`, `strings` and `numbers` payloads (`tests/alloc.rs` checks the
/// bound). The decoder's own scratch (its frame and element stacks) is a fraction of that and
/// is reused from one decode to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// Deepest nesting of containers (lists, sets, maps, objects, tuples, dynamic wrappers,
    /// and type JSON inside dynamic values). Default 256; at most [`Config::MAX_DEPTH`].
    pub max_depth: usize,
    /// Largest input accepted, in bytes. Default 1 GiB.
    pub max_input_bytes: usize,
    /// Most arena memory one decode may use, in bytes (enforced with bumpalo's allocation
    /// limit for the duration of the decode). Default 4 GiB.
    pub max_arena_bytes: usize,
    /// Most elements in one list, set, map, tuple or object. Default 2^26.
    pub max_collection_len: usize,
    /// Most arena memory one decode may use relative to its input: the arena may grow by
    /// at most this many times the input's size plus
    /// [`Config::AMPLIFICATION_ALLOWANCE`] (and never past `max_arena_bytes`). Default 64,
    /// far above what any wire value needs (2–4 times), so that a small input cannot
    /// expand (a refined unknown list of a declared length, a chunked decoder fed bytes
    /// one at a time) into a large value. The limit is checked by the arena itself: it
    /// costs nothing per value.
    pub max_amplification: usize,
    /// JSON only: ignore object attributes the type does not declare (as terraform-plugin-go
    /// does for `RawState` written by an older schema version) instead of rejecting them.
    /// Default `false`.
    pub lenient: bool,
    /// JSON only: a value at a `dynamic` position is plain JSON of the type it implies
    /// (go-cty's `json.ImpliedType`: `null` is a null, bools, numbers and strings are
    /// themselves, arrays tuples, objects objects), as `show -json` plans and states write
    /// resource values, instead of a `{"type": T, "value": V}` object. Read from simd-json's
    /// tape only ([`Decoder::decode_json_nodes`], and [`Decoder::decode_json`] unless it
    /// falls back to the byte-wise reader, which rejects such values). Default `false`.
    pub plain_dynamic: bool,
}

impl Config {
    /// The largest accepted `max_depth`: deeper values would risk the stack of the recursive
    /// consumers (encoders, printers).
    pub const MAX_DEPTH: usize = 1024;

    /// The defaults.
    pub const fn new() -> Config {
        Config {
            max_depth: 256,
            max_input_bytes: 1 << 30,
            max_arena_bytes: 4 << 30,
            max_collection_len: 1 << 26,
            max_amplification: 64,
            lenient: false,
            plain_dynamic: false,
        }
    }

    /// The arena memory every decode may use beyond `max_amplification` times its input.
    pub const AMPLIFICATION_ALLOWANCE: usize = 1 << 20;

    /// The arena budget of a decode of `input_len` bytes, and the limit that sets it.
    pub(crate) fn arena_budget(&self, input_len: usize) -> (usize, Limit) {
        let relative = input_len
            .saturating_mul(self.max_amplification)
            .saturating_add(Config::AMPLIFICATION_ALLOWANCE);
        if relative < self.max_arena_bytes {
            (relative, Limit::Amplification)
        } else {
            (self.max_arena_bytes, Limit::ArenaBytes)
        }
    }

    /// With `max_depth` (clamped to [`Config::MAX_DEPTH`]).
    pub const fn max_depth(mut self, n: usize) -> Config {
        self.max_depth = if n > Config::MAX_DEPTH {
            Config::MAX_DEPTH
        } else {
            n
        };
        self
    }

    /// With `max_input_bytes`.
    pub const fn max_input_bytes(mut self, n: usize) -> Config {
        self.max_input_bytes = n;
        self
    }

    /// With `max_arena_bytes`.
    pub const fn max_arena_bytes(mut self, n: usize) -> Config {
        self.max_arena_bytes = n;
        self
    }

    /// With `max_collection_len`.
    pub const fn max_collection_len(mut self, n: usize) -> Config {
        self.max_collection_len = n;
        self
    }

    /// With `max_amplification`.
    pub const fn max_amplification(mut self, n: usize) -> Config {
        self.max_amplification = n;
        self
    }

    /// With `plain_dynamic`.
    pub const fn plain_dynamic(mut self, yes: bool) -> Config {
        self.plain_dynamic = yes;
        self
    }

    /// With `lenient`.
    pub const fn lenient(mut self, yes: bool) -> Config {
        self.lenient = yes;
        self
    }

    /// The configured value of `limit`, as errors report it.
    pub(crate) const fn limit_max(&self, limit: Limit) -> u64 {
        (match limit {
            Limit::Depth => self.max_depth,
            Limit::InputBytes => self.max_input_bytes,
            Limit::ArenaBytes => self.max_arena_bytes,
            Limit::CollectionLen => self.max_collection_len,
            Limit::Amplification => self.max_amplification,
        }) as u64
    }

    /// An arena error names the limit that set the budget: `max_amplification` when it
    /// was below `max_arena_bytes`.
    #[cold]
    pub(crate) fn name_arena_limit(&self, e: Error, limit: Limit) -> Error {
        match (e.kind(), limit) {
            (
                ErrorKind::LimitExceeded {
                    limit: Limit::ArenaBytes,
                    ..
                },
                Limit::Amplification,
            ) => Error::new(
                ErrorKind::LimitExceeded {
                    limit,
                    max: self.limit_max(limit),
                },
                e.offset(),
                e.path().clone(),
            ),
            _ => e,
        }
    }

    fn checked(mut self) -> Config {
        self.max_depth = self.max_depth.clamp(1, Config::MAX_DEPTH);
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

/// Why decoding stopped without a value: decode's one internal fault type, shared by the
/// token sources, the value helpers (and the encoders' type checks) and the state machine.
///
/// Each layer says what it knows: a source knows the offset, a helper neither offset nor
/// path, the machine both. The machine turns every other variant into [`Fault::Error`] (or
/// passes [`Fault::Pending`] on) on its cold path; [`Fault::into_error`] finishes any of them
/// at the top.
#[derive(Debug)]
pub(crate) enum Fault {
    /// The bytes fed so far end inside a token (streaming only): feed more and resume.
    Pending,
    /// Bad input at a byte offset, from a token source (or a position
    /// [`Source::locate`](source::Source::locate) turns into one); the path is added by the
    /// machine.
    Fail(ErrorKind, usize),
    /// Bad input, from a helper that knows neither offset nor path (the caller adds both).
    Kind(ErrorKind),
    /// A configured limit reached (an arena that refused memory is `Limit::ArenaBytes`);
    /// the caller adds the configured maximum, offset and path.
    Limit(Limit),
    /// A complete error: kind, offset and path.
    Error(Error),
}

impl Fault {
    /// The arena refused an allocation.
    pub(crate) const ARENA: Fault = Fault::Limit(Limit::ArenaBytes);

    /// The error this fault ends a decode with, at the root (the machine has added its path
    /// to what it reports already): `at` is where the input stopped, for the faults that
    /// carry no offset (an input that ends early is an unexpected end of input there).
    #[cold]
    pub(crate) fn into_error(self, config: &Config, at: usize) -> Error {
        match self {
            Fault::Pending => Error::new(ErrorKind::UnexpectedEof, at, Path::root()),
            Fault::Fail(kind, offset) => Error::new(kind, offset, Path::root()),
            Fault::Kind(kind) => Error::new(kind, at, Path::root()),
            Fault::Limit(limit) => Error::new(
                ErrorKind::LimitExceeded {
                    limit,
                    max: config.limit_max(limit),
                },
                at,
                Path::root(),
            ),
            Fault::Error(e) => e,
        }
    }
}

impl From<ErrorKind> for Fault {
    fn from(k: ErrorKind) -> Fault {
        Fault::Kind(k)
    }
}

impl From<Limit> for Fault {
    fn from(l: Limit) -> Fault {
        Fault::Limit(l)
    }
}

/// A reusable decoder: keeps its scratch stacks (and simd-json's buffers and tape) between
/// decodes, so that decoding a message of a size seen before allocates nothing on the heap
/// (values go into the arena you pass).
#[derive(Default)]
pub struct Decoder {
    config: Config,
    stacks: Option<Stacks>,
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
        if input.len() > self.config.max_input_bytes {
            return Err(Error::new(
                ErrorKind::LimitExceeded {
                    limit: Limit::InputBytes,
                    max: self.config.max_input_bytes as u64,
                },
                0,
                Path::root(),
            ));
        }
        let mut src = msgpack::Complete::new(input);
        self.run(program, arena, &mut src, input.len())
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
            && tfwire_json::check_json_shape(input, json_depth, len / 4).is_err()
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
            Err(_) => {
                let mut src = json_text::TextSource::new(arena, input);
                self.run(program, arena, &mut src, len)
            }
        }
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

    fn check_input(&self, input: &[u8]) -> Result<(), Error> {
        if input.len() > self.config.max_input_bytes {
            return Err(Error::new(
                ErrorKind::LimitExceeded {
                    limit: Limit::InputBytes,
                    max: self.config.max_input_bytes as u64,
                },
                0,
                Path::root(),
            ));
        }
        Ok(())
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
        node: crate::program::NodeId,
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
    (program, node): (&'a Program, crate::program::NodeId),
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

/// Inputs up to this size go to simd-json without the shape check: its tape for them costs
/// at most 28 times as much (112 MiB), and the check would cost a measurable part of the
/// decode of a typical message (a third, on the 1 MB bench payloads).
const SHAPE_CHECK_BYTES: usize = 4 << 20;

fn arena_limit(config: &Config, offset: usize) -> Error {
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
