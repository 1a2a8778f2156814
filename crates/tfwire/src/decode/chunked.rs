//! Decoding MessagePack that arrives in chunks.
//!
//! The state machine is the one-shot decoder's: when the bytes fed so far end inside a token,
//! the source says so, the machine stops with its frames intact, and the next chunk resumes
//! it. Tokens that lie inside one chunk are borrowed from it; a token that spans chunks is
//! assembled (once complete, never from its declared length) and its string lives in the
//! arena. Every split of the input gives the one-shot result: the same value, or the same
//! error with the same path and offset.

use super::decoder::{Decoder, arena_limit};
use super::fault::Fault;
use super::machine::Machine;
use super::msgpack::{Complete, convert};
use super::shape::Cur;
use super::source::{Source, Tok};
use crate::error::{Error, ErrorKind, Path};
use crate::program::Program;
use crate::value::Value;
use bumpalo::Bump;
use tfwire_msgpack::{Tokenizer, read_header};

/// Reads tokens from the chunks fed so far.
pub(crate) struct ChunkSource<'a> {
    bump: &'a Bump,
    /// The current chunk (read with the one-shot source's fast paths while no token is being
    /// assembled), and the absolute offset of its first byte.
    cur: Complete<'a>,
    base: usize,
    /// Absolute offset of the last token returned.
    last: usize,
    /// The bytes of a token that spans chunks, so far, and its absolute offset.
    carry: Vec<u8>,
    carry_start: usize,
}

impl<'a> ChunkSource<'a> {
    fn new(bump: &'a Bump) -> ChunkSource<'a> {
        ChunkSource {
            bump,
            cur: Complete::new(&[]),
            base: 0,
            last: 0,
            carry: Vec::new(),
            carry_start: 0,
        }
    }

    fn push(&mut self, chunk: &'a [u8]) {
        self.base += self.cur.buf.len();
        self.cur = Complete::new(chunk);
    }

    /// Bytes of the current chunk not read yet.
    fn rest(&self) -> &'a [u8] {
        &self.cur.buf[self.cur.pos..]
    }

    /// Continues assembling a token that spans chunks. `Ok(None)`: more bytes are needed.
    fn assemble(&mut self) -> Result<Option<Tok<'a>>, Fault> {
        loop {
            let total = match read_header(&self.carry) {
                Ok(h) => h.len as u64 + h.kind.payload_len() as u64,
                Err(tfwire_msgpack::ErrorKind::Incomplete { needed }) => {
                    (self.carry.len() + needed) as u64
                }
                Err(_) => {
                    return Err(Fault::Fail(
                        ErrorKind::InvalidMarker(0xc1),
                        self.carry_start,
                    ));
                }
            };
            let missing = total - self.carry.len() as u64;
            let rest = self.rest();
            if missing == 0 {
                break;
            }
            if rest.is_empty() {
                return Ok(None);
            }
            let take = missing.min(rest.len() as u64) as usize;
            self.carry.extend_from_slice(&rest[..take]);
            self.cur.pos += take;
        }
        // Complete: the token's bytes go into the arena (its payload may be a string the
        // value borrows).
        let Ok(bytes) = self.bump.try_alloc_slice_copy(&self.carry) else {
            return Err(Fault::Fail(
                ErrorKind::LimitExceeded {
                    limit: crate::Limit::ArenaBytes,
                    max: 0,
                },
                self.carry_start,
            ));
        };
        let bytes: &'a [u8] = bytes;
        self.carry.clear();
        let mut t = Tokenizer::with_base(bytes, self.carry_start);
        let tok = t
            .next_token()
            .map_err(|e| Fault::Fail(ErrorKind::UnexpectedEof, e.offset))?;
        self.last = self.carry_start;
        convert(&tok, t.payload(&tok))
            .map(Some)
            .map_err(|k| Fault::Fail(k, self.carry_start))
    }

    /// A fast path of the one-shot source, on the current chunk: only while no token is
    /// being assembled (a token the chunk holds whole; one that is cut is left for
    /// [`Source::next`], which assembles it).
    #[inline(always)]
    fn fast<T>(&mut self, read: impl FnOnce(&mut Complete<'a>) -> Option<T>) -> Option<T> {
        if !self.carry.is_empty() {
            return None;
        }
        let v = read(&mut self.cur)?;
        self.last = self.base + self.cur.last;
        Some(v)
    }

    /// Where the input would resume: the start of a token being assembled, or the next byte.
    fn resume_offset(&self) -> usize {
        if self.carry.is_empty() {
            self.base + self.cur.pos
        } else {
            self.carry_start
        }
    }
}

impl<'a> Source<'a> for ChunkSource<'a> {
    const JSON: bool = false;
    type Json = super::source::NotJson;

    #[inline(always)]
    fn json(&mut self) -> Option<&mut super::source::NotJson> {
        None
    }

    fn next(&mut self) -> Result<Tok<'a>, Fault> {
        if !self.carry.is_empty() {
            return self.assemble()?.ok_or(Fault::Pending);
        }
        let start = self.base + self.cur.pos;
        let mut t = Tokenizer::with_base(self.rest(), start);
        match t.next_token() {
            Ok(tok) => {
                self.cur.pos += tok.span.len();
                self.last = start;
                convert(&tok, t.payload(&tok)).map_err(|k| Fault::Fail(k, start))
            }
            Err(e) if e.is_incomplete() => {
                // The token continues in the next chunk(s).
                self.carry_start = start;
                self.carry.extend_from_slice(self.rest());
                self.cur.pos = self.cur.buf.len();
                Err(Fault::Pending)
            }
            Err(e) => Err(Fault::Fail(ErrorKind::InvalidMarker(0xc1), e.offset)),
        }
    }

    #[inline]
    fn try_str(&mut self) -> Option<&'a str> {
        self.fast(Complete::try_str)
    }

    #[inline]
    fn try_number(&mut self) -> Option<crate::Number<'a>> {
        self.fast(Complete::try_number)
    }

    #[inline]
    fn try_bool(&mut self) -> Option<Option<bool>> {
        self.fast(Complete::try_bool)
    }

    #[inline]
    fn try_null(&mut self) -> bool {
        self.fast(|c| c.try_null().then_some(())).is_some()
    }

    #[inline]
    fn expect_key(&mut self, encoded: &[u8], name: &str) -> bool {
        self.fast(|c| c.expect_key(encoded, name).then_some(()))
            .is_some()
    }

    fn offset(&self) -> usize {
        self.last
    }

    fn position(&self) -> usize {
        self.resume_offset()
    }

    fn finish(&mut self) -> Result<(), Fault> {
        if self.carry.is_empty() && self.cur.pos == self.cur.buf.len() {
            Ok(())
        } else {
            Err(Fault::Fail(ErrorKind::TrailingBytes, self.resume_offset()))
        }
    }
}

/// How far a [`ChunkedDecoder`] got.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress<'a> {
    /// The value is not complete yet: feed more.
    NeedMore,
    /// The value is complete. Feeding more non-empty chunks is an error (trailing bytes).
    Done(Value<'a>),
}

enum State<'a> {
    Running,
    Done(Value<'a>),
    Failed(Error),
}

/// A MessagePack decoder fed in chunks (see [`Decoder::chunked`]).
///
/// Borrows the [`Decoder`]'s scratch memory for its lifetime and gives it back when dropped.
/// While it lives, the arena's allocation limit is the decoder's `max_arena_bytes`.
pub struct ChunkedDecoder<'a, 'd> {
    decoder: &'d mut Decoder,
    machine: Option<Machine<'a>>,
    src: ChunkSource<'a>,
    state: State<'a>,
    arena: &'a Bump,
    previous_limit: Option<usize>,
    /// What the arena held when decoding started.
    arena_start: usize,
}

impl Decoder {
    /// Starts decoding a MessagePack value of the program's type that arrives in chunks.
    ///
    /// ```
    /// use tfwire::{Config, Decoder, Progress, Program, Type};
    /// let program = Program::compile(&Type::from_json(r#"["list","string"]"#)?);
    /// let arena = bumpalo::Bump::new();
    /// let mut decoder = Decoder::new(Config::default());
    /// let input = b"\x92\xa5hello\xa5world";
    /// let mut chunked = decoder.chunked(&program, &arena);
    /// assert_eq!(chunked.feed(&input[..4])?, Progress::NeedMore); // ends inside "hello"
    /// let Progress::Done(v) = chunked.feed(&input[4..])? else { panic!() };
    /// assert_eq!(v.index(0).unwrap().as_str(), Some("hello")); // assembled in the arena
    /// assert_eq!(v.index(1).unwrap().as_str(), Some("world")); // borrowed from the chunk
    /// assert_eq!(chunked.finish()?, v);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn chunked<'a, 'd>(
        &'d mut self,
        program: &'a Program,
        arena: &'a Bump,
    ) -> ChunkedDecoder<'a, 'd> {
        let stacks = self.stacks.take().unwrap_or_default();
        let machine = stacks.into_machine(program, arena, self.config, Cur::Node(program.root()));
        let previous_limit = arena.allocation_limit();
        let arena_start = arena.allocated_bytes();
        let budget = arena_start.saturating_add(self.config.arena_budget(0).0);
        arena.set_allocation_limit(Some(previous_limit.map_or(budget, |l| l.min(budget))));
        ChunkedDecoder {
            arena_start,
            decoder: self,
            machine: Some(machine),
            src: ChunkSource::new(arena),
            state: State::Running,
            arena,
            previous_limit,
        }
    }
}

impl<'a> ChunkedDecoder<'a, '_> {
    /// Feeds the next chunk (of any size, empty included).
    ///
    /// The arena budget ([`Config::max_amplification`](super::config::Config::max_amplification))
    /// follows the bytes fed so far: a value that expands early in its input (a refined
    /// unknown list of a declared length) may exceed it here where a one-shot decode of
    /// the whole input would not.
    pub fn feed(&mut self, chunk: &'a [u8]) -> Result<Progress<'a>, Error> {
        match &self.state {
            State::Failed(e) => return Err(e.clone()),
            State::Done(v) => {
                if chunk.is_empty() {
                    return Ok(Progress::Done(*v));
                }
                let e = Error::new(
                    ErrorKind::TrailingBytes,
                    self.src.base + self.src.cur.buf.len(),
                    Path::root(),
                );
                self.state = State::Failed(e.clone());
                return Err(e);
            }
            State::Running => {}
        }
        self.src.push(chunk);
        if let Err(e) = self
            .decoder
            .config
            .check_input_len(self.src.base + chunk.len())
        {
            return self.fail(e);
        }
        // The arena budget grows with the input fed (`max_amplification`).
        let (allowed, limit) = self
            .decoder
            .config
            .arena_budget(self.src.base + chunk.len());
        let budget = self.arena_start.saturating_add(allowed);
        self.arena
            .set_allocation_limit(Some(self.previous_limit.map_or(budget, |l| l.min(budget))));
        let machine = self.machine.as_mut().expect("the machine lives until drop");
        match machine.run(&mut self.src) {
            Ok(v) => match self.src.finish() {
                Ok(()) => {
                    self.state = State::Done(v);
                    Ok(Progress::Done(v))
                }
                Err(f) => {
                    let e = f.into_error(&self.decoder.config, self.src.position());
                    self.fail(e)
                }
            },
            Err(Fault::Pending) => Ok(Progress::NeedMore),
            Err(f) => {
                let e = f.into_error(&self.decoder.config, self.src.position());
                let e = fix_arena_error(e, &self.decoder.config);
                let e = self.decoder.config.name_arena_limit(e, limit);
                self.fail(e)
            }
        }
    }

    fn fail(&mut self, e: Error) -> Result<Progress<'a>, Error> {
        self.state = State::Failed(e.clone());
        Err(e)
    }

    /// Ends the input: the complete value, or the error a one-shot decode of everything fed
    /// would give (an input that ends early is an unexpected end of input, at the start of
    /// the value or token that was cut).
    pub fn finish(mut self) -> Result<Value<'a>, Error> {
        match core::mem::replace(&mut self.state, State::Running) {
            State::Done(v) => Ok(v),
            State::Failed(e) => Err(e),
            State::Running => {
                let machine = self.machine.as_ref().expect("the machine lives until drop");
                Err(machine.eof_error(self.src.resume_offset()))
            }
        }
    }
}

fn fix_arena_error(e: Error, config: &super::config::Config) -> Error {
    if let ErrorKind::LimitExceeded {
        limit: crate::Limit::ArenaBytes,
        max: 0,
    } = e.kind()
    {
        let full = arena_limit(config, e.offset());
        return full.with_path(e.path().clone());
    }
    e
}

impl Drop for ChunkedDecoder<'_, '_> {
    fn drop(&mut self) {
        self.arena.set_allocation_limit(self.previous_limit);
        if let Some(m) = self.machine.take() {
            self.decoder.stacks = Some(m.into_stacks());
        }
    }
}
