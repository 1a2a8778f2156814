//! The state machine: one loop over tokens with an explicit frame stack, shared by every
//! token source (MessagePack in one piece or in chunks, JSON).
//!
//! The machine never recurses over the type: containers push a [`Frame`], values travel up
//! when complete. Elements wait in scratch stacks (`vals`, `pairs`) that are reused from one
//! decode to the next, and each finished container is copied into the arena once, so no
//! memory is ever reserved from a declared length. Paths are rebuilt from the frames only
//! when an error happens.

use super::collection;
use super::config::Config;
use super::fault::Fault;
use super::leaf;
use super::refine;
use super::shape::{Attrs, Cur, Elems, Shape};
use super::source::{JsonSource, Source, Tok};
use crate::error::{Error, ErrorKind, Expected, Limit, Path, PathStep};
use crate::program::Program;
use crate::ty::Ty;
use crate::value::Value;
use bumpalo::Bump;

/// [`Frame::seen`] of a MessagePack object whose attributes have come in the program's
/// order so far: the attributes read are exactly the first `done`, so none needs a bit.
const IN_ORDER: u32 = u32::MAX;

/// Whether a container's count `n` means "not known in advance": `u32::MAX` from the
/// byte-wise JSON reader. In MessagePack it is a real count (`dd ff ff ff ff`), checked like
/// any other.
#[inline]
fn unknown_len<'a, S: Source<'a>>(n: u32) -> bool {
    S::JSON && n == u32::MAX
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    List,
    Set,
    Map,
    Object,
    Tuple,
    /// A dynamic value's `[type, value]` wrapper (MessagePack).
    Dyn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The next token is a map key or attribute name.
    Key,
    /// The next token starts the child value (`Frame::child`).
    Value,
    /// The next token is a dynamic value's type JSON.
    Type,
}

#[derive(Clone, Copy)]
enum Children<'a> {
    None,
    Attrs(Attrs<'a>),
    Elems(Elems<'a>),
}

/// A container being read.
#[derive(Clone, Copy)]
struct Frame<'a> {
    kind: Kind,
    state: State,
    /// The type of the child value being read (element type, current attribute's type,
    /// current tuple element's type, or the dynamic value's wire type).
    child: Cur<'a>,
    children: Children<'a>,
    /// Elements declared (for JSON text, `u32::MAX`: until the source says the container
    /// ended; see [`unknown_len`]).
    len: u32,
    /// Elements read so far.
    done: u32,
    /// Where this container's elements start in `vals` or `pairs`.
    base: u32,
    /// Offset of the container's first byte.
    offset: usize,
    /// The current map key or attribute name.
    key: &'a str,
    /// The current attribute's index.
    attr: u32,
    /// Whether element types must be unified at the end (the element type has `dynamic`).
    unify: bool,
    /// JSON dynamic values: where the source resumes once the value is read (past the
    /// `{"type", "value"}` object).
    mark: usize,
    /// A nested block type's list or set: its count constraints (`Program::blocks` index).
    block: u32,
    /// A MessagePack object: [`IN_ORDER`] while its attributes come in the program's order
    /// (go-cty sorts them), else where its bits in `Machine::seen` start (one per
    /// attribute, set once it is read), so that a repeated attribute is found.
    seen: u32,
}

/// What reading a key led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyRead {
    /// The key was read; its value comes next.
    Ready,
    /// The object's or map's last member was read (by a fast path) or skipped (an
    /// undeclared attribute, lenient JSON): the container is complete.
    Ended,
}

/// The machine's state; its stacks are reusable scratch (see [`super::decoder::Decoder`]).
pub(crate) struct Machine<'a> {
    pub(crate) program: &'a Program,
    pub(crate) bump: &'a Bump,
    pub(crate) config: Config,
    frames: Vec<Frame<'a>>,
    vals: Vec<Value<'a>>,
    pairs: Vec<(&'a str, Value<'a>)>,
    scratch: Vec<u32>,
    /// The attributes read of MessagePack objects that came out of order (see
    /// [`Frame::seen`]).
    seen: Vec<u64>,
    root: Cur<'a>,
}

/// Scratch stacks without a lifetime, kept between decodes.
#[derive(Default)]
pub(crate) struct Stacks {
    frames: Vec<Frame<'static>>,
    vals: Vec<Value<'static>>,
    pairs: Vec<(&'static str, Value<'static>)>,
    scratch: Vec<u32>,
    seen: Vec<u64>,
}

/// Reuses a vector's allocation for elements of another lifetime. The vector is emptied
/// first; collecting an empty `into_iter().map()` back into a `Vec` of a type with the same
/// size and alignment reuses the allocation in place (no allocation happens: the
/// zero-allocation test checks it).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter()
        .map(|_| unreachable!("the vector is empty"))
        .collect()
}

impl Stacks {
    /// Lends the index scratch (to the typed tape walk).
    pub(crate) fn lend_scratch(&mut self) -> Vec<u32> {
        core::mem::take(&mut self.scratch)
    }

    /// Takes back what [`Stacks::lend_scratch`] lent.
    pub(crate) fn give_back_scratch(&mut self, scratch: Vec<u32>) {
        self.scratch = scratch;
    }

    pub(crate) fn into_machine<'a>(
        self,
        program: &'a Program,
        bump: &'a Bump,
        config: Config,
        root: Cur<'a>,
    ) -> Machine<'a> {
        Machine {
            program,
            bump,
            config,
            frames: recycle(self.frames),
            vals: recycle(self.vals),
            pairs: recycle(self.pairs),
            scratch: self.scratch,
            seen: recycle(self.seen),
            root,
        }
    }
}

impl<'a> Machine<'a> {
    /// Gives the scratch stacks back for the next decode.
    pub(crate) fn into_stacks(self) -> Stacks {
        Stacks {
            frames: recycle(self.frames),
            vals: recycle(self.vals),
            pairs: recycle(self.pairs),
            scratch: self.scratch,
            seen: recycle(self.seen),
        }
    }

    /// Runs until the root value is complete, the source needs more input, or an error.
    pub(crate) fn run<S: Source<'a>>(&mut self, src: &mut S) -> Result<Value<'a>, Fault> {
        loop {
            let expect = match self.frames.last() {
                None => self.root,
                Some(f) => match f.state {
                    State::Value if matches!(f.kind, Kind::List | Kind::Set) => {
                        let child = f.child;
                        if self.leaf_run(src)? {
                            let v = self.finish()?;
                            if let Some(root) = self.bubble(v, src)? {
                                return Ok(root);
                            }
                            continue;
                        }
                        child
                    }
                    State::Value => f.child,
                    State::Key => {
                        if self.read_key(src)? == KeyRead::Ended {
                            let v = self.finish()?;
                            if let Some(root) = self.bubble(v, src)? {
                                return Ok(root);
                            }
                        }
                        continue;
                    }
                    State::Type => {
                        self.read_type(src)?;
                        continue;
                    }
                },
            };
            let v = match self.fast_leaf(expect, src)? {
                Some(v) => v,
                None => {
                    if let Some(opened) = self.fast_open(expect, src)? {
                        match opened {
                            Some(v) => v,
                            None => continue,
                        }
                    } else {
                        let tok = self.next(src)?;
                        let Some(v) = self.open(expect, tok, src)? else {
                            continue;
                        };
                        v
                    }
                }
            };
            if let Some(root) = self.bubble(v, src)? {
                return Ok(root);
            }
        }
    }

    /// Reads the elements of the list or set on top of the stack while they are plain
    /// values (see [`Machine::fast_leaf`]), without a trip around the main loop for each.
    /// Returns whether the collection is complete (only for collections of known length).
    #[inline]
    fn leaf_run<S: Source<'a>>(&mut self, src: &mut S) -> Result<bool, Fault> {
        let depth = self.frames.len();
        let f = &self.frames[depth - 1];
        let (child, len, mut done) = (f.child, f.len, f.done);
        if unknown_len::<S>(len) {
            return Ok(false);
        }
        // JSON lengths are checked as elements arrive (see `check_len`).
        let cap = if S::JSON {
            len.min(u32::try_from(self.config.max_collection_len).unwrap_or(u32::MAX))
        } else {
            len
        };
        while done < cap {
            let Some(v) = self.fast_leaf(child, src)? else {
                break;
            };
            self.vals.push(v);
            done += 1;
        }
        self.frames[depth - 1].done = done;
        if S::JSON && done == cap && cap < len {
            self.check_json_more(src, depth)?;
        }
        Ok(done == len)
    }

    /// The fast path for the commonest values: a string, bool or null where the program
    /// expects one, read without the general token dispatch. `None` (nothing consumed):
    /// take the general path.
    #[inline(always)]
    fn fast_leaf<S: Source<'a>>(
        &self,
        expect: Cur<'a>,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        use crate::program::Node;
        let Cur::Node(id) = expect else {
            return Ok(None);
        };
        Ok(match self.program.node(id) {
            Node::String => match src.try_str() {
                Some(s) => Some(Value::String(s)),
                None => src.try_null().then_some(Value::Null),
            },
            Node::Bool => src.try_bool().map(|b| b.map_or(Value::Null, Value::Bool)),
            Node::Number => match src.try_number() {
                Some(n) => Some(Value::Number(n)),
                None => src.try_null().then_some(Value::Null),
            },
            // An absent GROUP block is synthesized on the general path.
            Node::Group { .. } => None,
            _ => src.try_null().then_some(Value::Null),
        })
    }

    /// The fast path for the commonest containers: an object, list, set or map of a
    /// compiled program whose header is the next token, opened as [`Machine::open`] opens
    /// it, without the general token dispatch. `None` (nothing consumed): take the general
    /// path. `Some(None)`: a container was opened (its elements follow).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn fast_open<S: Source<'a>>(
        &mut self,
        expect: Cur<'a>,
        src: &mut S,
    ) -> Result<Option<Option<Value<'a>>>, Fault> {
        use crate::program::Node;
        let Cur::Node(id) = expect else {
            return Ok(None);
        };
        let p = self.program;
        let node = p.node(id);
        let map = match node {
            Node::Object { .. } | Node::Map { .. } => true,
            Node::List { .. } | Node::Set { .. } => false,
            _ => return Ok(None),
        };
        let Some(n) = src.try_container(map) else {
            return Ok(None);
        };
        let at = src.offset();
        let tok = if map { Tok::Map(n) } else { Tok::Array(n) };
        match node {
            Node::Object { start, len } => {
                self.open_object(tok, Attrs::Node(p.attrs_of(start, len)), at, src)
            }
            Node::Map { elem, dynamic } => self.open_map(tok, Cur::Node(elem), dynamic, at, src),
            Node::List { elem, dynamic, .. } => self.open_seq(
                Kind::List,
                Expected::List,
                tok,
                expect,
                Cur::Node(elem),
                dynamic,
                at,
                src,
            ),
            Node::Set { elem, dynamic, .. } => self.open_seq(
                Kind::Set,
                Expected::Set,
                tok,
                expect,
                Cur::Node(elem),
                dynamic,
                at,
                src,
            ),
            // Not reached (the other nodes returned above); the general opening is right for
            // any node.
            _ => self.open(expect, tok, src),
        }
        .map(Some)
    }

    /// Delivers a complete value upwards, finishing every container it completes. Returns
    /// the root value once it is complete.
    #[inline]
    fn bubble<S: Source<'a>>(
        &mut self,
        mut v: Value<'a>,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        loop {
            if self.frames.is_empty() {
                return Ok(Some(v));
            }
            if !self.deliver(v, src)? {
                return Ok(None);
            }
            v = self.finish()?;
        }
    }

    #[inline]
    fn next<S: Source<'a>>(&mut self, src: &mut S) -> Result<Tok<'a>, Fault> {
        src.next().map_err(|s| self.stop(s))
    }

    /// A source's fault, with the path through every open frame (a source reports only
    /// [`Fault::Pending`] and [`Fault::Fail`]).
    #[cold]
    fn stop(&self, s: Fault) -> Fault {
        match s {
            Fault::Fail(kind, offset) => self.fail(kind, offset),
            s => s,
        }
    }

    /// An error at `offset`, with the path through the first `depth` frames.
    #[cold]
    pub(crate) fn error_at(&self, kind: ErrorKind, offset: usize, depth: usize) -> Error {
        Error::new(kind, offset, self.path(depth))
    }

    /// The error for an input that ended before the value did, `offset` being where the next
    /// token would have started: the one-shot decoder's error for the same bytes.
    pub(crate) fn eof_error(&self, offset: usize) -> Error {
        self.error_at(ErrorKind::UnexpectedEof, offset, self.frames.len())
    }

    /// The path through the first `depth` frames.
    fn path(&self, depth: usize) -> Path<'static> {
        let mut steps = Vec::new();
        for f in &self.frames[..depth] {
            match f.kind {
                Kind::List | Kind::Set | Kind::Tuple => steps.push(PathStep::Index(f.done as u64)),
                Kind::Map if f.state == State::Value => {
                    steps.push(PathStep::Key(f.key.to_owned().into()))
                }
                Kind::Object if f.state == State::Value => {
                    steps.push(PathStep::Attr(f.key.to_owned().into()))
                }
                _ => {}
            }
        }
        Path::from(steps)
    }

    /// The machine's one way to fail: `e` at `offset`, with the path through the first
    /// `depth` frames (a configured limit is reported with its configured value).
    #[cold]
    #[inline(never)]
    fn fault(&self, e: impl Into<Fault>, offset: usize, depth: usize) -> Fault {
        let kind = match e.into() {
            Fault::Kind(k) => k,
            Fault::Limit(limit) => ErrorKind::LimitExceeded {
                limit,
                max: self.config.limit_max(limit),
            },
            // A source's fault carries its own offset.
            Fault::Fail(k, at) => return Fault::Error(self.error_at(k, at, depth)),
            f @ (Fault::Pending | Fault::Error(_)) => return f,
        };
        Fault::Error(self.error_at(kind, offset, depth))
    }

    /// [`Machine::fault`] with the path through every open frame.
    #[cold]
    #[inline(never)]
    fn fail(&self, e: impl Into<Fault>, offset: usize) -> Fault {
        self.fault(e, offset, self.frames.len())
    }

    /// "`expected` is required, found `tok`", at `at`.
    #[cold]
    fn mismatch<S: Source<'a>>(&self, expected: Expected, tok: Tok<'a>, at: usize) -> Fault {
        self.fail(
            ErrorKind::Mismatch {
                expected,
                found: tok.name_in(S::JSON),
            },
            at,
        )
    }

    /// The count of the container header `tok`: a map (`map`) or an array; otherwise "`expected`
    /// is required, found `tok`".
    #[inline(always)]
    fn header<S: Source<'a>>(
        &self,
        tok: Tok<'a>,
        map: bool,
        expected: Expected,
        at: usize,
    ) -> Result<u32, Fault> {
        match (tok, map) {
            (Tok::Map(n), true) | (Tok::Array(n), false) => Ok(n),
            _ => Err(self.mismatch::<S>(expected, tok, at)),
        }
    }

    /// The values from `base` on, moved from the stack into the arena.
    #[inline(always)]
    fn take_vals(&mut self, base: usize, at: usize) -> Result<&'a [Value<'a>], Fault> {
        let s = self
            .bump
            .try_alloc_slice_copy(&self.vals[base..])
            .map_err(|_| self.fail(Limit::ArenaBytes, at))?;
        self.vals.truncate(base);
        Ok(s)
    }

    /// The pairs from `base` on, moved from the stack into the arena.
    #[inline(always)]
    fn take_pairs(&mut self, base: usize, at: usize) -> Result<&'a [(&'a str, Value<'a>)], Fault> {
        let s = self
            .bump
            .try_alloc_slice_copy(&self.pairs[base..])
            .map_err(|_| self.fail(Limit::ArenaBytes, at))?;
        self.pairs.truncate(base);
        Ok(s)
    }

    /// Reads a value of type `expect` starting with `tok`: a finished value, or `None` when
    /// a container was opened (its elements follow).
    #[inline]
    fn open<S: Source<'a>>(
        &mut self,
        expect: Cur<'a>,
        tok: Tok<'a>,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        let at = src.offset();
        let shape = expect.shape(self.program);
        match tok {
            Tok::Null => {
                return match expect.group(self.program) {
                    // An absent GROUP block reads as the block with nothing set.
                    Some(object) => self.empty_block(object, at).map(Some),
                    None => Ok(Some(Value::Null)),
                };
            }
            Tok::Ext(code, payload) if !S::JSON => {
                return refine::unknown(code, payload, shape, self.bump, &self.config)
                    .map(Some)
                    .map_err(|k| self.fail(k, at));
            }
            _ => {}
        }
        let v = match shape {
            Shape::String => leaf::string::<S>(tok, self.bump),
            Shape::Number => leaf::number::<S>(tok),
            Shape::Bool => leaf::boolean::<S>(tok),
            Shape::List(elem, unify) => {
                return self.open_seq(
                    Kind::List,
                    Expected::List,
                    tok,
                    expect,
                    elem,
                    unify,
                    at,
                    src,
                );
            }
            Shape::Set(elem, unify) => {
                return self.open_seq(Kind::Set, Expected::Set, tok, expect, elem, unify, at, src);
            }
            Shape::Tuple(elems) => return self.open_tuple(tok, elems, at, src),
            Shape::Map(elem, unify) => return self.open_map(tok, elem, unify, at, src),
            Shape::Object(attrs) => return self.open_object(tok, attrs, at, src),
            Shape::Dynamic => return self.open_dynamic(tok, at, src),
        };
        match v {
            Ok(v) => Ok(Some(v)),
            Err(fault) => Err(self.fail(fault, at)),
        }
    }

    /// A nested block type's blocks must number `min_items..=max_items` — unless one of them
    /// holds an unknown value, when Terraform defers the check (the count may change).
    fn check_block_count(
        &self,
        block: u32,
        blocks: &[Value<'a>],
        at: usize,
        depth: usize,
    ) -> Result<(), Fault> {
        let Some(b) = self.program.block(block) else {
            return Ok(());
        };
        let n = blocks.len() as u64;
        if (n >= b.min && (b.max == 0 || n <= b.max)) || !blocks.iter().all(Value::is_wholly_known)
        {
            return Ok(());
        }
        let kind = ErrorKind::BlockCount {
            block: b.name.to_string(),
            found: n,
            min: b.min,
            max: b.max,
        };
        Err(Fault::Error(self.error_at(kind, at, depth)))
    }

    /// The value of an absent `GROUP` block: every attribute null, no nested blocks (empty
    /// collections), nested groups likewise.
    #[cold]
    fn empty_block(&self, object: crate::program::NodeId, at: usize) -> Result<Value<'a>, Fault> {
        use crate::program::{Empty, Node};
        let p = self.program;
        let Node::Object { start, len } = p.node(object) else {
            unreachable!("a group holds an object")
        };
        let dynamic_empty = |ty: Ty<'a>, value: Value<'a>| -> Result<Value<'a>, Fault> {
            let d = self
                .bump
                .try_alloc(crate::value::Dynamic { ty, value })
                .map_err(|_| self.fail(Limit::ArenaBytes, at))?;
            Ok(Value::Dynamic(d))
        };
        let mut entries = smallvec::SmallVec::<[(&'a str, Value<'a>); 16]>::new();
        for a in p.attrs_of(start, len) {
            let v = match a.empty {
                Empty::Null => Value::Null,
                Empty::List => Value::List(&[]),
                Empty::Set => Value::Set(&[]),
                Empty::Map => Value::Map(&[]),
                Empty::Tuple => dynamic_empty(Ty::Tuple(&[]), Value::Tuple(&[]))?,
                Empty::Object => dynamic_empty(Ty::Object(&[]), Value::Object(&[]))?,
                Empty::Group(inner) => self.empty_block(inner, at)?,
            };
            entries.push((&*a.name, v));
        }
        let s = self
            .bump
            .try_alloc_slice_copy(&entries)
            .map_err(|_| self.fail(Limit::ArenaBytes, at))?;
        Ok(Value::Object(s))
    }

    /// Checks a MessagePack container's declared length against `Config::max_collection_len`.
    ///
    /// Nothing is reserved from a declared length: elements are collected as they arrive, so
    /// a header claiming billions of elements costs nothing until they come (a truncated
    /// input fails at the first missing element, at once).
    ///
    /// JSON is read in document order whether or not its reader knows the count in advance
    /// (simd-json's tape does, the byte-wise reader does not), so that both readers fail
    /// alike: its lengths are checked as elements arrive ([`Machine::check_json_more`]).
    #[inline]
    fn check_len<S: Source<'a>>(&self, n: u32, at: usize) -> Result<(), Fault> {
        if !S::JSON && n as u64 > self.config.max_collection_len as u64 {
            return Err(self.fail(Limit::CollectionLen, at));
        }
        Ok(())
    }

    #[inline]
    fn push(&mut self, f: Frame<'a>) -> Result<(), Fault> {
        if self.frames.len() >= self.config.max_depth {
            return Err(self.fail(Limit::Depth, f.offset));
        }
        self.frames.push(f);
        Ok(())
    }

    fn frame(
        kind: Kind,
        state: State,
        child: Cur<'a>,
        len: u32,
        base: usize,
        offset: usize,
    ) -> Frame<'a> {
        Frame {
            kind,
            state,
            child,
            children: Children::None,
            len,
            done: 0,
            base: base as u32,
            offset,
            key: "",
            attr: 0,
            unify: false,
            mark: 0,
            block: crate::program::NO_BLOCK,
            seen: IN_ORDER,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn open_seq<S: Source<'a>>(
        &mut self,
        kind: Kind,
        expected: Expected,
        tok: Tok<'a>,
        expect: Cur<'a>,
        elem: Cur<'a>,
        unify: bool,
        at: usize,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        let n = self.header::<S>(tok, false, expected, at)?;
        self.check_len::<S>(n, at)?;
        let block = expect.block(self.program);
        if n == 0 || (unknown_len::<S>(n) && self.at_end(src, true)?) {
            self.check_block_count(block, &[], at, self.frames.len())?;
            return Ok(Some(if kind == Kind::List {
                Value::List(&[])
            } else {
                Value::Set(&[])
            }));
        }
        let mut f = Self::frame(kind, State::Value, elem, n, self.vals.len(), at);
        f.unify = unify;
        f.block = block;
        self.push(f)?;
        Ok(None)
    }

    fn open_tuple<S: Source<'a>>(
        &mut self,
        tok: Tok<'a>,
        elems: Elems<'a>,
        at: usize,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        let n = self.header::<S>(tok, false, Expected::Tuple, at)?;
        let want = elems.len();
        // MessagePack's count is checked first, as go-cty checks it. JSON is read in
        // document order, as go-cty's JSON decoder reads it: the elements that fit are
        // decoded (and may fail) before a count that is too large is reported, which
        // happens where the first extra element starts (`check_json_more`); a count that is
        // too small, at the end (`finish`). Only an empty array and an empty tuple type
        // fail at once.
        if !unknown_len::<S>(n) && n as usize != want && (!S::JSON || n == 0 || want == 0) {
            return Err(self.fail(
                ErrorKind::TupleLength {
                    expected: want,
                    found: n as u64,
                },
                at,
            ));
        }
        self.check_len::<S>(n, at)?;
        if want == 0 {
            if unknown_len::<S>(n) && !self.at_end(src, true)? {
                let found = self.count_rest(src, 0)?;
                return Err(self.fail(ErrorKind::TupleLength { expected: 0, found }, at));
            }
            return Ok(Some(Value::Tuple(&[])));
        }
        if unknown_len::<S>(n) && self.at_end(src, true)? {
            return Err(self.fail(
                ErrorKind::TupleLength {
                    expected: want,
                    found: 0,
                },
                at,
            ));
        }
        let mut f = Self::frame(
            Kind::Tuple,
            State::Value,
            elems.cur(0),
            n,
            self.vals.len(),
            at,
        );
        f.children = Children::Elems(elems);
        self.push(f)?;
        Ok(None)
    }

    fn open_map<S: Source<'a>>(
        &mut self,
        tok: Tok<'a>,
        elem: Cur<'a>,
        unify: bool,
        at: usize,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        let n = self.header::<S>(tok, true, Expected::Map, at)?;
        self.check_len::<S>(n, at)?;
        if n == 0 || (unknown_len::<S>(n) && self.at_end(src, true)?) {
            return Ok(Some(Value::Map(&[])));
        }
        let mut f = Self::frame(Kind::Map, State::Key, elem, n, self.pairs.len(), at);
        f.unify = unify;
        self.push(f)?;
        Ok(None)
    }

    fn open_object<S: Source<'a>>(
        &mut self,
        tok: Tok<'a>,
        attrs: Attrs<'a>,
        at: usize,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        let n = self.header::<S>(tok, true, Expected::Object, at)?;
        let want = attrs.len();
        if !S::JSON && n as usize != want {
            // go-cty checks the count before anything else; an empty map for an object type
            // with attributes is rejected here too (go-cty would return an empty object of
            // another type).
            return Err(self.fail(
                ErrorKind::AttributeCount {
                    expected: want,
                    found: n as u64,
                },
                at,
            ));
        }
        self.check_len::<S>(n, at)?;
        let base = self.pairs.len();
        if self.pairs.try_reserve(want).is_err() {
            return Err(self.fail(Limit::ArenaBytes, at));
        }
        if S::JSON {
            // JSON may omit attributes (they are null): every slot starts null and is
            // overwritten as its attribute comes.
            for i in 0..want {
                self.pairs.push((attrs.name(i), Value::Null));
            }
        }
        // MessagePack objects have exactly the declared count and no repeats (`claim`):
        // while attributes come in the program's order, each is pushed as it is read, so
        // `pairs` holds exactly the attributes read so far; the first one out of order
        // fills the remaining slots (`claim`), which are then overwritten.
        let mut f = Self::frame(Kind::Object, State::Key, Cur::Ty(Ty::Dynamic), n, base, at);
        f.children = Children::Attrs(attrs);
        if n == 0 || (unknown_len::<S>(n) && self.at_end(src, true)?) {
            // An empty JSON object: every attribute is null.
            self.frames.push(f);
            return self.finish().map(Some);
        }
        self.push(f)?;
        Ok(None)
    }

    fn open_dynamic<S: Source<'a>>(
        &mut self,
        tok: Tok<'a>,
        at: usize,
        src: &mut S,
    ) -> Result<Option<Value<'a>>, Fault> {
        if let Some(json) = src.json() {
            let plain = self.config.plain_dynamic;
            if !plain && !matches!(tok, Tok::Map(_)) {
                return Err(self.mismatch::<S>(Expected::DynamicWrapper, tok, at));
            }
            // The type's depth budget counts the dynamic value's own frame, pushed below, as
            // MessagePack's does (its frame is on the stack when the type is read).
            let depth = self
                .config
                .max_depth
                .saturating_sub(self.frames.len() + 1)
                .max(1);
            let (ty, end) = if plain {
                json.json_implied(self.bump, depth)
            } else {
                json.json_dynamic(self.bump, depth)
            }
            .map_err(|s| self.stop(s))?;
            let mut f = Self::frame(Kind::Dyn, State::Value, Cur::Ty(ty), 1, self.vals.len(), at);
            f.mark = end;
            self.push(f)?;
            return Ok(None);
        }
        match tok {
            Tok::Array(2) => {
                self.push(Self::frame(
                    Kind::Dyn,
                    State::Type,
                    Cur::Ty(Ty::Dynamic),
                    2,
                    self.vals.len(),
                    at,
                ))?;
                Ok(None)
            }
            Tok::Array(n) => Err(self.fail(
                ErrorKind::InvalidDynamic(format!(
                    "a dynamic value is a two-element array [type, value], found {n} elements"
                )),
                at,
            )),
            _ => Err(self.mismatch::<S>(Expected::DynamicWrapper, tok, at)),
        }
    }

    /// For containers of unknown length (JSON text): whether it has ended.
    #[inline]
    fn at_end<S: Source<'a>>(&self, src: &mut S, first: bool) -> Result<bool, Fault> {
        match src.json() {
            Some(json) => json.at_end(first).map_err(|s| self.stop(s)),
            None => Ok(false),
        }
    }

    /// After a fast-path entry of the map or object at `depth`: whether it was the last one;
    /// if not, JSON checks that another may start (see [`Machine::check_json_more`]).
    #[inline(always)]
    fn ended<S: Source<'a>>(&self, src: &mut S, depth: usize) -> Result<bool, Fault> {
        let f = &self.frames[depth - 1];
        let ended = if unknown_len::<S>(f.len) {
            self.at_end(src, false)?
        } else {
            f.done == f.len
        };
        if S::JSON && !ended {
            self.check_json_more(src, depth)?;
        }
        Ok(ended)
    }

    /// Reads a map key or an attribute name (the top frame is in `State::Key`).
    fn read_key<S: Source<'a>>(&mut self, src: &mut S) -> Result<KeyRead, Fault> {
        // Fast path: the attribute go-cty writes next (attributes come sorted) is compared as
        // bytes, neither tokenized nor validated; and when its value is a plain string, bool
        // or null, that is read at once too, without a trip around the main loop.
        let depth = self.frames.len();
        if matches!(self.frames[depth - 1].children, Children::None) {
            // A map: string keys (NFC-normalized), and plain values read at once too.
            while let Some(key) = src.try_str() {
                let f = &mut self.frames[depth - 1];
                f.key = key;
                f.state = State::Value;
                let child = f.child;
                let Some(v) = self.fast_leaf(child, src)? else {
                    return Ok(KeyRead::Ready);
                };
                self.pairs.push((key, v));
                let f = &mut self.frames[depth - 1];
                f.done += 1;
                f.state = State::Key;
                if self.ended(src, depth)? {
                    return Ok(KeyRead::Ended);
                }
            }
        }
        loop {
            let f = &self.frames[depth - 1];
            let Children::Attrs(attrs @ Attrs::Node(nodes)) = f.children else {
                break;
            };
            let i = f.done as usize;
            let Some(a) = nodes.get(i) else { break };
            let slot = f.base as usize + i;
            // MessagePack attributes out of order go the general path, which finds repeats
            // (`claim`); in order, attribute `i` is the next unread one.
            if !((S::JSON || f.seen == IN_ORDER) && src.expect_key(&a.key, &a.name)) {
                break;
            }
            let value = self.fast_leaf(Cur::Node(a.node), src)?;
            let f = &mut self.frames[depth - 1];
            let Some(v) = value else {
                f.attr = i as u32;
                f.key = attrs.name(i);
                f.child = attrs.cur(i);
                f.state = State::Value;
                return Ok(KeyRead::Ready);
            };
            if S::JSON {
                self.pairs[slot].1 = v;
            } else {
                // In order (checked above): attribute `i` is the next slot.
                debug_assert_eq!(self.pairs.len(), slot);
                self.pairs.push((attrs.name(i), v));
            }
            f.done += 1;
            if self.ended(src, depth)? {
                return Ok(KeyRead::Ended);
            }
        }
        let tok = self.next(src)?;
        let at = src.offset();
        let key: &'a str = match tok {
            Tok::Str(s) => s,
            // go-cty reads keys with DecodeString, which accepts binary too.
            Tok::Bin(b) if !S::JSON => match core::str::from_utf8(b) {
                Ok(s) => s,
                Err(_) => return Err(self.fail(ErrorKind::InvalidUtf8, at)),
            },
            // A nil or non-string key: go-cty reads it as "" (nil) or loses its alignment;
            // tfwire rejects it.
            _ => return Err(self.fail(ErrorKind::NonStringKey(tok.name()), at)),
        };
        let depth = self.frames.len();
        let f = &mut self.frames[depth - 1];
        match f.children {
            Children::Attrs(attrs) => {
                // go-cty writes attributes sorted, so the next one is the likeliest.
                let guess = f.done as usize;
                let idx = if guess < attrs.len() && attrs.name(guess) == key {
                    Some(guess)
                } else {
                    attrs.find(key)
                };
                let Some(i) = idx else {
                    if self.config.lenient
                        && let Some(json) = src.json()
                    {
                        json.skip_value().map_err(|s| self.stop(s))?;
                        return self.after_lenient_skip(src);
                    }
                    // Named at the attribute, as go-cty does.
                    let mut e =
                        self.error_at(ErrorKind::UnsupportedAttribute(key.to_owned()), at, depth);
                    let mut path = e.path().clone();
                    path.push(PathStep::Attr(key.to_owned().into()));
                    e = e.with_path(path);
                    return Err(Fault::Error(e));
                };
                if !S::JSON && !self.claim(depth, i) {
                    return Err(self.fail(ErrorKind::DuplicateAttribute(key.to_owned()), at));
                }
                let f = &mut self.frames[depth - 1];
                f.attr = i as u32;
                f.key = attrs.name(i);
                f.child = attrs.cur(i);
                f.state = State::Value;
            }
            _ => {
                let Some(key) = crate::nfc::nfc(self.bump, key) else {
                    return Err(self.fail(Limit::ArenaBytes, at));
                };
                f.key = key;
                f.state = State::Value;
            }
        }
        Ok(KeyRead::Ready)
    }

    /// MessagePack: attribute `i` of the object at `depth` is about to be read; false if it
    /// was read already. While attributes come in order nothing is recorded; the first one
    /// out of order gives the object a bit per attribute in `seen`.
    fn claim(&mut self, depth: usize, i: usize) -> bool {
        let f = &mut self.frames[depth - 1];
        if f.seen == IN_ORDER {
            let done = f.done as usize;
            if i <= done {
                return i == done;
            }
            // The attributes read so far were pushed in order (see `open_object`); from now
            // on they come in any order, so every remaining slot starts null and is
            // overwritten as its attribute comes.
            if let Children::Attrs(attrs) = f.children {
                for k in done..attrs.len() {
                    self.pairs.push((attrs.name(k), Value::Null));
                }
            }
            // A MessagePack object's count is its number of attributes (checked at its start).
            let start = self.seen.len();
            let words = (self.frames[depth - 1].len as usize).div_ceil(64);
            self.seen.resize(start + words, 0);
            for k in 0..done {
                self.seen[start + k / 64] |= 1 << (k % 64);
            }
            self.frames[depth - 1].seen = start as u32;
        }
        let f = &self.frames[depth - 1];
        let (word, bit) = (f.seen as usize + i / 64, 1u64 << (i % 64));
        let fresh = self.seen[word] & bit == 0;
        self.seen[word] |= bit;
        fresh
    }

    /// After skipping an undeclared attribute in lenient mode: counts it, and says whether
    /// it was the object's last member.
    fn after_lenient_skip<S: Source<'a>>(&mut self, src: &mut S) -> Result<KeyRead, Fault> {
        self.frames.last_mut().expect("an object frame").done += 1;
        Ok(if self.ended(src, self.frames.len())? {
            KeyRead::Ended
        } else {
            KeyRead::Ready
        })
    }

    /// Reads a dynamic value's type (the top frame is in `State::Type`).
    fn read_type<S: Source<'a>>(&mut self, src: &mut S) -> Result<(), Fault> {
        let tok = self.next(src)?;
        let at = src.offset();
        let text: &'a [u8] = match tok {
            Tok::Bin(b) => b,
            // go-cty accepts the type JSON in a string too.
            Tok::Str(s) => s.as_bytes(),
            _ => {
                return Err(self.mismatch::<S>(Expected::DynamicType, tok, at));
            }
        };
        let depth = self
            .config
            .max_depth
            .saturating_sub(self.frames.len())
            .max(1);
        let ty = crate::ty::json::parse_text(self.bump, text, depth).map_err(|e| {
            if e.is_arena() {
                return self.fail(Limit::ArenaBytes, at);
            }
            // The type JSON is the payload of a binary: the error is at the binary, and the
            // message names the byte within the type JSON.
            match e.into_parts() {
                (ErrorKind::InvalidType { message, .. }, inner) => self.fail(
                    ErrorKind::InvalidType {
                        message,
                        offset: Some(inner),
                    },
                    at,
                ),
                (kind, _) => self.fail(kind, at),
            }
        })?;
        let f = self.frames.last_mut().expect("a dynamic frame");
        f.child = Cur::Ty(ty);
        f.state = State::Value;
        Ok(())
    }

    /// Hands a complete value to the top frame. Returns whether the frame is complete.
    #[inline]
    fn deliver<S: Source<'a>>(&mut self, v: Value<'a>, src: &mut S) -> Result<bool, Fault> {
        let depth = self.frames.len();
        let f = &mut self.frames[depth - 1];
        match f.kind {
            Kind::List | Kind::Set | Kind::Tuple | Kind::Dyn => {
                self.vals.push(v);
                if f.kind == Kind::Dyn {
                    if let Some(json) = src.json() {
                        json.seek(f.mark);
                    }
                    return Ok(true);
                }
            }
            Kind::Map => self.pairs.push((f.key, v)),
            // MessagePack in the program's order: the attribute is the next slot (see
            // `open_object`).
            Kind::Object if !S::JSON && f.seen == IN_ORDER => {
                debug_assert_eq!(self.pairs.len(), f.base as usize + f.attr as usize);
                self.pairs.push((f.key, v));
            }
            Kind::Object => self.pairs[f.base as usize + f.attr as usize].1 = v,
        }
        let f = &mut self.frames[depth - 1];
        f.done += 1;
        if matches!(f.kind, Kind::Map | Kind::Object) {
            // The value is in: what comes next belongs to the container, not to this key.
            f.state = State::Key;
        }
        let more = if unknown_len::<S>(f.len) {
            !self.at_end(src, false)?
        } else {
            f.done < f.len
        };
        if S::JSON && more {
            self.check_json_more(src, depth)?;
        }
        let f = &mut self.frames[depth - 1];
        if more {
            match f.kind {
                Kind::Map | Kind::Object => f.state = State::Key,
                Kind::Tuple => {
                    if let Children::Elems(e) = f.children {
                        f.child = e.cur(f.done as usize);
                    }
                }
                _ => {}
            }
            return Ok(false);
        }
        Ok(true)
    }

    /// JSON: another element of the container at `depth` starts. Fails if it is one more
    /// than `Config::max_collection_len` allows, or one more than its tuple type has (with
    /// the number of elements the array holds), at the container, as MessagePack's
    /// up-front checks fail.
    #[inline(always)]
    fn check_json_more<S: Source<'a>>(&self, src: &mut S, depth: usize) -> Result<(), Fault> {
        let f = &self.frames[depth - 1];
        if (f.done as u64) < self.config.max_collection_len as u64 && f.kind != Kind::Tuple {
            return Ok(());
        }
        self.check_json_more_slow(src, depth)
    }

    /// [`Machine::check_json_more`] for a tuple, or a container at the length limit.
    #[cold]
    #[inline(never)]
    fn check_json_more_slow<S: Source<'a>>(&self, src: &mut S, depth: usize) -> Result<(), Fault> {
        let f = &self.frames[depth - 1];
        if f.done as u64 >= self.config.max_collection_len as u64 {
            return Err(self.fault(Limit::CollectionLen, f.offset, depth - 1));
        }
        if let Children::Elems(e) = f.children
            && f.kind == Kind::Tuple
            && f.done as usize >= e.len()
        {
            let found = if unknown_len::<S>(f.len) {
                self.count_rest(src, f.done as u64)?
            } else {
                f.len as u64
            };
            let k = ErrorKind::TupleLength {
                expected: e.len(),
                found,
            };
            return Err(Fault::Error(self.error_at(k, f.offset, depth - 1)));
        }
        Ok(())
    }

    /// JSON text, an array whose count is not known in advance: skips its remaining
    /// elements (the source is at the start of one) and returns `counted` plus their number.
    #[cold]
    #[inline(never)]
    fn count_rest<S: Source<'a>>(&self, src: &mut S, counted: u64) -> Result<u64, Fault> {
        let Some(json) = src.json() else {
            return Ok(counted);
        };
        let mut n = counted;
        loop {
            json.skip_value().map_err(|s| self.stop(s))?;
            n += 1;
            if json.at_end(false).map_err(|s| self.stop(s))? {
                return Ok(n);
            }
        }
    }

    /// Pops the top frame and builds its value in the arena.
    #[inline(always)]
    fn finish(&mut self) -> Result<Value<'a>, Fault> {
        let f = self.frames.pop().expect("a frame to finish");
        let base = f.base as usize;
        let depth = self.frames.len();
        let bump = self.bump;
        let v = match f.kind {
            Kind::List | Kind::Set => {
                if f.unify {
                    let which = if f.kind == Kind::List { "list" } else { "set" };
                    collection::unify_elements(
                        self.program,
                        bump,
                        &mut self.vals[base..],
                        f.child,
                        which,
                    )
                    .map_err(|e| self.fault(e, f.offset, depth))?;
                }
                if f.kind == Kind::Set {
                    let n = collection::dedup_set(&mut self.vals, base, &mut self.scratch);
                    self.vals.truncate(base + n);
                }
                self.check_block_count(f.block, &self.vals[base..], f.offset, depth)?;
                let s = self.take_vals(base, f.offset)?;
                if f.kind == Kind::List {
                    Value::List(s)
                } else {
                    Value::Set(s)
                }
            }
            Kind::Tuple => {
                if let Children::Elems(e) = f.children
                    && (f.done as usize) < e.len()
                {
                    let k = ErrorKind::TupleLength {
                        expected: e.len(),
                        found: f.done as u64,
                    };
                    return Err(Fault::Error(self.error_at(k, f.offset, depth)));
                }
                let s = self.take_vals(base, f.offset)?;
                Value::Tuple(s)
            }
            Kind::Map => {
                if f.unify {
                    collection::unify_entries(self.program, bump, &mut self.pairs[base..], f.child)
                        .map_err(|e| self.fault(e, f.offset, depth))?;
                }
                let s = collection::sorted_map(bump, &self.pairs[base..], &mut self.scratch)
                    .ok_or_else(|| self.fail(Limit::ArenaBytes, f.offset))?;
                self.pairs.truncate(base);
                Value::Map(s)
            }
            Kind::Object => {
                if f.seen != IN_ORDER {
                    self.seen.truncate(f.seen as usize);
                }
                let s = self.take_pairs(base, f.offset)?;
                Value::Object(s)
            }
            Kind::Dyn => {
                let inner = self.vals.pop().expect("the dynamic value's content");
                let Cur::Ty(ty) = f.child else {
                    unreachable!("a dynamic frame holds a wire type")
                };
                collection::wrap_dynamic(self.program, bump, inner, ty)
                    .map_err(|e| self.fault(e, f.offset, depth))?
            }
        };
        Ok(v)
    }
}
