//! The typed walk over a simd-json tape: the JSON decode's fast path.
//!
//! The tape already holds every value tokenised, every string unescaped and every
//! container's length, so a value of a compiled program is read by recursion over the
//! program and the tape together: each container is allocated in the arena at the length
//! the tape gives and filled in place, object slots in the program's order (the order
//! go-cty writes attributes in), leaves read where they stand. No frames, no element
//! stacks, no per-node dispatch on the state of a container.
//!
//! The walk covers what well-formed values need and nothing else: as soon as it meets
//! anything it does not handle (an error of any kind, a limit reached, attributes out of
//! the program's order, repeated or undeclared (in lenient mode too), a string where a
//! number is expected, a null nested block of
//! `GROUP` nesting, a tuple), it gives up, and the general machine decodes the document
//! from the start ([`super::machine`], over [`super::json_tape::TapeSource`]). So every
//! error, with its path and offset, is the machine's; the walk only ever returns values
//! the machine would have returned for the same tape (the conformance corpus and the
//! `decode_json` fuzz target compare the two readers). Programs with `dynamic` anywhere are
//! not walked at all (their values carry types and need unification).

use super::collection;
use super::config::Config;
use super::json_tape::{CleanBlocks, DocText};
use super::leaf;
use crate::Number;
use crate::program::{AttrNode, Leaf, Node, NodeId, Program};
use crate::value::Value;
use bumpalo::Bump;
use tfwire_json::tape::{Node as TapeNode, StaticNode, TapeText};

/// The walk stopped: the machine decodes the document instead.
pub(crate) struct GiveUp;

/// A walk over one tape.
pub(crate) struct Walk<'a, 't, 's> {
    pub(crate) program: &'a Program,
    pub(crate) bump: &'a Bump,
    pub(crate) nodes: &'t [TapeNode<'a>],
    pub(crate) texts: &'t DocText<'a, 't>,
    pub(crate) clean: &'t CleanBlocks,
    pub(crate) config: &'s Config,
    /// Scratch for sorting map keys and removing set duplicates.
    pub(crate) scratch: &'s mut Vec<u32>,
    /// The run of clean blocks the last string read lay in ([`CleanBlocks::clean_run`]):
    /// the strings after it, in document order, are tested against it first.
    pub(crate) clean_run: (usize, usize),
}

impl<'a> Walk<'a, '_, '_> {
    /// Whether the walk applies to values of `program` (no `dynamic` anywhere).
    pub(crate) fn applies(program: &Program) -> bool {
        !program.has_dynamic(program.root())
    }

    /// The value of the whole tape, of the program's root type.
    pub(crate) fn root(&mut self) -> Result<Value<'a>, GiveUp> {
        if self.nodes.is_empty() {
            return Err(GiveUp);
        }
        let (v, end) = self.value(self.program.root(), 0, 0)?;
        if end != self.nodes.len() {
            return Err(GiveUp);
        }
        Ok(v)
    }

    /// A string of the tape, in NFC.
    #[inline(always)]
    fn string(&mut self, s: &'a str) -> Result<&'a str, GiveUp> {
        // (A slice never wraps around the address space: `at + len` cannot overflow.)
        let at = s.as_ptr() as usize;
        if at >= self.clean_run.0 && at + s.len() <= self.clean_run.1 {
            return Ok(s);
        }
        self.string_outside_run(s)
    }

    /// [`Walk::string`] for a string outside the current clean run: a new run, or the
    /// quick check and, where that fails, the normalisation.
    #[inline(never)]
    fn string_outside_run(&mut self, s: &'a str) -> Result<&'a str, GiveUp> {
        if let Some(run) = self.clean.clean_run(s.as_bytes()) {
            self.clean_run = run;
            Ok(s)
        } else if crate::nfc::surely_nfc(s) {
            Ok(s)
        } else {
            crate::nfc::nfc(self.bump, s).ok_or(GiveUp)
        }
    }

    /// A number at tape node `k` (`n`), exact.
    #[inline(always)]
    fn number(&self, n: StaticNode, k: usize) -> Result<Number<'a>, GiveUp> {
        match n {
            // Integers simd-json parsed exactly, except a zero (which may be "-0": its text).
            StaticNode::I64(i) if i != 0 => Ok(Number::Int(i)),
            StaticNode::U64(u) if u != 0 => Ok(Number::Uint(u)),
            StaticNode::I64(_) | StaticNode::U64(_) | StaticNode::F64(_) => {
                leaf::json_number(self.texts.number_text(k)).map_err(|_| GiveUp)
            }
            StaticNode::Null | StaticNode::Bool(_) => Err(GiveUp),
        }
    }

    /// The value of program node `id` at tape node `k`, and the index after it; `depth`
    /// containers are open around it.
    fn value(&mut self, id: NodeId, k: usize, depth: usize) -> Result<(Value<'a>, usize), GiveUp> {
        let p = self.program;
        let node = p.node(id);
        let v = match (node, self.nodes[k]) {
            (Node::Group { .. }, TapeNode::Static(StaticNode::Null)) => return Err(GiveUp),
            (_, TapeNode::Static(StaticNode::Null)) => Value::Null,
            (Node::String, TapeNode::String(s)) => Value::String(self.string(s)?),
            (Node::Bool, TapeNode::Static(StaticNode::Bool(b))) => Value::Bool(b),
            (Node::Number, TapeNode::Static(n)) => Value::Number(self.number(n, k)?),
            (Node::Object { start, len }, TapeNode::Object { len: n, count }) => {
                let v = self.object(p.attrs_of(start, len), k, n, depth)?;
                return Ok((v, k + count + 1));
            }
            (Node::Group { object }, TapeNode::Object { .. }) => {
                return self.value(object, k, depth);
            }
            (
                Node::List {
                    elem,
                    dynamic: false,
                    block,
                },
                TapeNode::Array { len, count },
            ) => {
                let s = self.elements(elem, k, len, depth)?;
                self.check_block(block, s.len())?;
                return Ok((Value::List(s), k + count + 1));
            }
            (
                Node::Set {
                    elem,
                    dynamic: false,
                    block,
                },
                TapeNode::Array { len, count },
            ) => {
                let s = self.elements(elem, k, len, depth)?;
                let n = if matches!(self.program.node(elem), Node::String) {
                    collection::dedup_strings(s, self.scratch)
                } else {
                    collection::dedup_set(s, 0, self.scratch)
                };
                self.check_block(block, n)?;
                return Ok((Value::Set(&s[..n]), k + count + 1));
            }
            (
                Node::Map {
                    elem,
                    dynamic: false,
                },
                TapeNode::Object { len, count },
            ) => {
                let v = self.map(elem, k, len, depth)?;
                return Ok((v, k + count + 1));
            }
            _ => return Err(GiveUp),
        };
        Ok((v, k + 1))
    }

    /// A nested block type's list or set of `n` blocks within its count constraints (a
    /// JSON value holds no unknown that would defer the check).
    #[inline(always)]
    fn check_block(&self, block: u32, n: usize) -> Result<(), GiveUp> {
        match self.program.block(block) {
            Some(b) if (n as u64) < b.min || (b.max != 0 && n as u64 > b.max) => Err(GiveUp),
            _ => Ok(()),
        }
    }

    /// A container of `n` members opening at depth `depth`: within the configured limits.
    #[inline(always)]
    fn open(&self, n: usize, depth: usize) -> Result<(), GiveUp> {
        if depth >= self.config.max_depth || n > self.config.max_collection_len {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// The `n` elements of the array at tape node `k`, of program node `elem`, in the
    /// arena.
    fn elements(
        &mut self,
        elem: NodeId,
        k: usize,
        n: usize,
        depth: usize,
    ) -> Result<&'a mut [Value<'a>], GiveUp> {
        self.open(n, depth)?;
        if n == 0 {
            return Ok(&mut []);
        }
        let out = self
            .bump
            .try_alloc_slice_fill_copy(n, Value::Null)
            .map_err(|_| GiveUp)?;
        let mut j = k + 1;
        // The element type decided once, the common leaves read in a loop of their own.
        match self.program.node(elem) {
            Node::String => {
                for slot in out.iter_mut() {
                    *slot = match self.nodes[j] {
                        TapeNode::String(s) => Value::String(self.string(s)?),
                        TapeNode::Static(StaticNode::Null) => Value::Null,
                        _ => return Err(GiveUp),
                    };
                    j += 1;
                }
            }
            Node::Number => self.numbers(out, k)?,
            _ => {
                for slot in out.iter_mut() {
                    let (v, next) = self.value(elem, j, depth + 1)?;
                    *slot = v;
                    j = next;
                }
            }
        }
        Ok(out)
    }

    /// The elements of the array of numbers at tape node `k`, into `out`. Every element
    /// before the one at hand is a scalar (the loop gives up at any other), so the
    /// structural pairs of the array ([`DocText::scalar_pairs`]) give each number's text;
    /// without them (no structural index) the machine decodes the document.
    #[inline(never)]
    fn numbers(&self, out: &mut [Value<'a>], k: usize) -> Result<(), GiveUp> {
        let n = out.len();
        let nodes = self.nodes.get(k + 1..k + 1 + n).ok_or(GiveUp)?;
        let pairs = (self.texts.structural_index(k))
            .and_then(|open| self.texts.scalar_pairs(open, n))
            .ok_or(GiveUp)?;
        for ((slot, &node), &pair) in out.iter_mut().zip(nodes).zip(pairs) {
            *slot = match node {
                TapeNode::Static(StaticNode::Null) => Value::Null,
                // Integers simd-json parsed exactly, except a zero (which may be "-0").
                TapeNode::Static(StaticNode::I64(i)) if i != 0 => Value::Number(Number::Int(i)),
                TapeNode::Static(StaticNode::U64(u)) if u != 0 => Value::Number(Number::Uint(u)),
                // The commonest float: a decimal, kept as its text (what `json_number` gives
                // it), its text read and tested in one pass.
                TapeNode::Static(StaticNode::F64(_))
                    if let Some(t) = self.texts.scalar_decimal(pair) =>
                {
                    Value::Number(Number::Decimal(t))
                }
                TapeNode::Static(StaticNode::I64(_) | StaticNode::U64(_) | StaticNode::F64(_)) => {
                    let t = self.texts.scalar_number_text(pair).ok_or(GiveUp)?;
                    Value::Number(leaf::json_number(t).map_err(|_| GiveUp)?)
                }
                _ => return Err(GiveUp),
            };
        }
        Ok(())
    }

    /// The object at tape node `k` (`n` members) of attributes `attrs`: every attribute in
    /// the program's order, null where the document leaves it out. One pass over the
    /// attributes: the next key either names the attribute at hand or the attribute is
    /// absent; keys must come sorted, as the program's attributes are (go-cty writes them
    /// so), and a key left over at the end (out of order, repeated or undeclared) gives up.
    /// Each attribute's kind is read from the attribute itself ([`AttrNode::leaf`]), and
    /// the leaves are read here, without a call.
    #[inline(never)]
    fn object(
        &mut self,
        attrs: &'a [AttrNode],
        k: usize,
        n: usize,
        depth: usize,
    ) -> Result<Value<'a>, GiveUp> {
        self.open(n, depth)?;
        // Every slot named and null first; the loop then writes only the values present.
        let out = self
            .bump
            .try_alloc_slice_fill_with(attrs.len(), |i| (&*attrs[i].name, Value::Null))
            .map_err(|_| GiveUp)?;
        let nodes = self.nodes;
        let mut j = k + 1;
        let mut left = n;
        for (slot, a) in out.iter_mut().zip(attrs) {
            if left == 0 {
                break;
            }
            let TapeNode::String(key) = nodes[j] else {
                return Err(GiveUp);
            };
            if !crate::text::eq_short(slot.0.as_bytes(), key.as_bytes()) {
                continue;
            }
            left -= 1;
            match (a.leaf, nodes[j + 1]) {
                (Leaf::String, TapeNode::String(s)) => {
                    slot.1 = Value::String(self.string(s)?);
                    j += 2;
                }
                (Leaf::Bool, TapeNode::Static(StaticNode::Bool(b))) => {
                    slot.1 = Value::Bool(b);
                    j += 2;
                }
                (
                    Leaf::Number,
                    TapeNode::Static(
                        s @ (StaticNode::I64(_) | StaticNode::U64(_) | StaticNode::F64(_)),
                    ),
                ) => {
                    slot.1 = Value::Number(self.number(s, j + 1)?);
                    j += 2;
                }
                (Leaf::String | Leaf::Bool | Leaf::Number, TapeNode::Static(StaticNode::Null)) => {
                    j += 2;
                }
                _ => {
                    let (v, after) = self.value(a.node, j + 1, depth + 1)?;
                    slot.1 = v;
                    j = after;
                }
            }
        }
        if left != 0 {
            return Err(GiveUp);
        }
        Ok(Value::Object(out))
    }

    /// The map at tape node `k` (`n` entries) of program node `elem`: keys in NFC, sorted,
    /// the last of equal keys kept (as the machine builds maps). Entries are read into the
    /// arena in document order; only a map whose keys do not come sorted (go-cty writes them
    /// sorted) is copied again, sorted.
    #[inline(never)]
    fn map(&mut self, elem: NodeId, k: usize, n: usize, depth: usize) -> Result<Value<'a>, GiveUp> {
        self.open(n, depth)?;
        if n == 0 {
            return Ok(Value::Map(&[]));
        }
        let out = self
            .bump
            .try_alloc_slice_fill_copy(n, ("", Value::Null))
            .map_err(|_| GiveUp)?;
        let strings = matches!(self.program.node(elem), Node::String);
        let nodes = self.nodes;
        let mut j = k + 1;
        // Whether the keys came sorted, checked as they are read.
        let (mut sorted, mut prev) = (true, None);
        for slot in out.iter_mut() {
            let TapeNode::String(key) = nodes[j] else {
                return Err(GiveUp);
            };
            let key = self.string(key)?;
            if let Some(prev) = prev {
                sorted &= collection::key_lt(prev, key);
            }
            prev = Some(key);
            slot.0 = key;
            match (strings, nodes[j + 1]) {
                (true, TapeNode::String(s)) => {
                    slot.1 = Value::String(self.string(s)?);
                    j += 2;
                }
                _ => {
                    let (v, next) = self.value(elem, j + 1, depth + 1)?;
                    slot.1 = v;
                    j = next;
                }
            }
        }
        if sorted {
            return Ok(Value::Map(out));
        }
        collection::sorted_map(self.bump, out, self.scratch)
            .map(Value::Map)
            .ok_or(GiveUp)
    }
}
