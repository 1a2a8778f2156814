//! The JSON token source over simd-json's tape.
//!
//! simd-json parses the whole document into a flat tape; this source walks it. Containers
//! carry their lengths (so the machine knows element counts up front) and their node counts
//! (so a value the program does not need is skipped in O(1)). Number nodes are read as their
//! original text: simd-json's structural indexes give the byte offset of every value in
//! document order (one per tape node, once `:` `,` `]` `}` are left out), and number bytes are
//! never rewritten, so no decimal is ever rounded through a float.

use super::fault::Fault;
use super::source::{JsonSource, Source, Tok};
use crate::error::ErrorKind;
use crate::error::Fail;
use crate::ty::{AttrTy, Ty};
use bumpalo::Bump;
use tfwire_json::tape::{Locator, Node, StaticNode, TapeText};

pub(crate) struct TapeSource<'a, 't, P> {
    pub(crate) nodes: &'t [Node<'a>],
    /// Offsets and number texts of the nodes.
    pub(crate) texts: P,
    /// Which blocks of the document may hold strings that need a closer NFC check (the
    /// typed decode of a whole document); `None`: every string gets
    /// [`crate::nfc::surely_nfc`].
    pub(crate) clean: Option<&'t CleanBlocks>,
    pub(crate) pos: usize,
    pub(crate) last: usize,
}

impl<'a, 't, P> TapeSource<'a, 't, P> {
    /// A source at the first of `nodes`.
    pub(crate) fn new(nodes: &'t [Node<'a>], texts: P, clean: Option<&'t CleanBlocks>) -> Self {
        TapeSource {
            nodes,
            texts,
            clean,
            pos: 0,
            last: 0,
        }
    }
}

/// Marks a [`Source::offset`] of the tape source as a node index rather than a byte offset
/// (resolved by [`Source::locate`] only when an error is reported). Byte offsets never have
/// this bit: inputs are far shorter than `isize::MAX` bytes.
const NODE: usize = 1 << (usize::BITS - 1);

/// The texts of a tape parsed from a copy of a document still at hand: the workspace's one
/// [`Locator`](tfwire_json::tape::Locator), with simd-json's structural indexes (which the
/// parser holds anyway). Offsets are computed only when asked for (a float's text, an
/// error, a dynamic value's type), not for every node.
pub(crate) struct DocText<'a, 't> {
    /// The tape.
    nodes: &'t [Node<'a>],
    /// Offsets and number texts, read from the original input.
    loc: Locator<'a, 't>,
}

impl<'a, 't> DocText<'a, 't> {
    /// The texts of `nodes`, parsed from a copy of `input` at address `base` whose
    /// structural indexes are `structurals`.
    pub(crate) fn new(
        input: &'a [u8],
        structurals: &'t [u32],
        nodes: &'t [Node<'a>],
        base: usize,
    ) -> Self {
        DocText {
            nodes,
            loc: Locator::new(input, base, structurals),
        }
    }

    /// The structural index of array node `node` (see
    /// [`Locator::structural_index`](tfwire_json::tape::Locator::structural_index)).
    #[inline]
    pub(crate) fn structural_index(&self, node: usize) -> Option<usize> {
        self.loc.structural_index(self.nodes, node)
    }

    /// The structural pairs of the `n` elements of the array at structural `i` (see
    /// [`Locator::scalar_pairs`](tfwire_json::tape::Locator::scalar_pairs)).
    #[inline]
    pub(crate) fn scalar_pairs(&self, i: usize, n: usize) -> Option<&'t [[u32; 2]]> {
        self.loc.scalar_pairs(i, n)
    }

    /// The text of the decimal of an array of scalars at structural pair `pair`, read in
    /// one pass (see [`Locator::scalar_decimal`](tfwire_json::tape::Locator::scalar_decimal)).
    #[inline]
    pub(crate) fn scalar_decimal(&self, pair: [u32; 2]) -> Option<&'a str> {
        self.loc.scalar_decimal(pair)
    }

    /// The text of the number of an array of scalars at structural pair `pair` (see
    /// [`Locator::scalar_number_text`](tfwire_json::tape::Locator::scalar_number_text)).
    #[inline]
    pub(crate) fn scalar_number_text(&self, pair: [u32; 2]) -> Option<&'a str> {
        self.loc.scalar_number_text(pair)
    }
}

impl<'a> TapeText<'a> for DocText<'a, '_> {
    #[inline]
    fn offset(&self, node: usize) -> usize {
        self.loc.offset(self.nodes, node)
    }

    #[inline]
    fn number_text(&self, node: usize) -> &'a str {
        self.loc.number_text(self.nodes, node)
    }

    fn text(&self) -> Option<&'a [u8]> {
        Some(self.loc.text())
    }
}

/// Which 64-byte blocks of a document may hold a string that needs a closer NFC check: a
/// byte from `0xCC` on (the lead byte of a character [`crate::nfc::surely_nfc`] must look
/// up), or a backslash (an escape may make such a character). One pass over the input
/// before the walk (a loop the compiler vectorizes) replaces a look at every string's bytes
/// during it: a string whose blocks are all clean is in NFC as it stands.
///
/// Why a backslash marks its block: a string with escapes is unescaped in place from its
/// first byte on, and its first escape's output starts where the escape stood (no byte
/// before it moved), so that block overlaps the unescaped string.
#[derive(Default)]
pub(crate) struct CleanBlocks {
    /// One byte per 64 bytes of input, non-zero where the block may need a look (a byte,
    /// not a bit: a string's test is then two loads, without shifts and masks).
    dirty: Vec<u8>,
    /// The address of the parsed copy (see [`DocText::new`]) and the input's length.
    base: usize,
    len: usize,
}

impl CleanBlocks {
    /// Marks the blocks of `input`, whose copy simd-json parses at address `base`.
    pub(crate) fn fill(&mut self, input: &[u8], base: usize) {
        self.fill_marking::<false>(input, base);
    }

    /// [`CleanBlocks::fill`], marking control characters (bytes below `0x20`) as well when
    /// `CONTROLS`: a string in clean blocks then needs no check at all (see
    /// [`CleanBlocks::surely_plain`]).
    pub(crate) fn fill_marking<const CONTROLS: bool>(&mut self, input: &[u8], base: usize) {
        fn dirty<const CONTROLS: bool>(block: &[u8]) -> u8 {
            block.iter().fold(0u8, |d, &b| {
                d | u8::from(b >= 0xcc) | u8::from(b == b'\\') | u8::from(CONTROLS && b < 0x20)
            })
        }
        self.dirty.clear();
        self.base = base;
        self.len = 0;
        if self.dirty.try_reserve(input.len() / 64 + 1).is_err() {
            // No map: every string gets the full quick check.
            return;
        }
        self.len = input.len();
        let mut blocks = input.chunks_exact(64);
        for block in &mut blocks {
            let block: &[u8; 64] = block.try_into().expect("64 bytes");
            self.dirty.push(dirty::<CONTROLS>(block));
        }
        self.dirty.push(dirty::<CONTROLS>(blocks.remainder()));
    }

    /// Whether `s`, a string of the tape, is surely in NFC.
    #[inline(always)]
    pub(crate) fn surely_nfc(&self, s: &str) -> bool {
        self.clean(s.as_bytes()) == Some(true) || crate::nfc::surely_nfc(s)
    }

    /// Whether the bytes `s` lie in blocks the map holds and all of them are clean (with
    /// [`CleanBlocks::fill_marking`]`::<true>`: no escape, no control character, no byte
    /// from `0xCC` on).
    #[inline(always)]
    pub(crate) fn surely_plain(&self, s: &[u8]) -> bool {
        self.clean(s) == Some(true)
    }

    /// The run of clean blocks `s` lies in, as the addresses `(first, end)`: every string
    /// of the parsed copy whose bytes lie within them is surely in NFC. `None` when a block
    /// of `s` is not clean or the map does not cover `s`. A walk that reads strings in
    /// document order keeps the run and tests the next strings against it (two comparisons
    /// of addresses each) until one leaves it.
    pub(crate) fn clean_run(&self, s: &[u8]) -> Option<(usize, usize)> {
        if self.clean(s) != Some(true) {
            return None;
        }
        // `clean` looked at the blocks from the string's first to the one after its end.
        let at = (s.as_ptr() as usize) - self.base;
        let after = (at + s.len()) / 64 + 1;
        let end = self.dirty[after.min(self.dirty.len())..]
            .iter()
            .position(|&d| d != 0)
            .map_or(self.len, |i| ((after + i) * 64).min(self.len));
        Some((self.base + at / 64 * 64, self.base + end))
    }

    /// Whether the blocks of `s` are all clean; `None` where the map does not cover `s`.
    /// The block of the byte after `s` is looked at too (one block more, rarely): then a
    /// string of up to 64 bytes is two loads, whatever its length.
    #[inline(always)]
    fn clean(&self, s: &[u8]) -> Option<bool> {
        let at = (s.as_ptr() as usize).wrapping_sub(self.base);
        let end = at.checked_add(s.len()).filter(|&end| end <= self.len)?;
        Some(match self.dirty.get(at / 64..=end / 64)? {
            [a] => *a == 0,
            [a, b] => a | b == 0,
            blocks => blocks.iter().all(|&d| d == 0),
        })
    }
}

impl<'a, 't, P: TapeText<'a>> TapeSource<'a, 't, P> {
    /// The byte offset of tape node `node`.
    #[inline]
    pub(crate) fn offset_of(&self, node: usize) -> usize {
        self.texts.offset(node)
    }

    /// The text of the number node at `node`.
    #[inline]
    pub(crate) fn number_text(&self, node: usize) -> &'a str {
        self.texts.number_text(node)
    }

    /// The offset of the end of the nodes.
    fn end(&self) -> usize {
        self.texts.offset(self.nodes.len())
    }

    /// The type the plain JSON value at `node` implies (go-cty's `json.ImpliedType`):
    /// `null` dynamic, arrays tuples, objects objects (a repeated key is an error).
    fn implied_at(&self, node: usize, bump: &'a Bump, depth: usize) -> Result<Ty<'a>, Box<Fail>> {
        if depth == 0 {
            return Err(Fail::new(
                ErrorKind::InvalidType {
                    message: "the value is nested too deep for its type".into(),
                    offset: None,
                },
                self.offset_of(node),
            ));
        }
        Ok(match self.nodes[node] {
            Node::Static(StaticNode::Null) => Ty::Dynamic,
            Node::Static(StaticNode::Bool(_)) => Ty::Bool,
            Node::Static(_) => Ty::Number,
            Node::String(_) => Ty::String,
            Node::Array { len, .. } => {
                let mut elems = Vec::with_capacity(len.min(1024));
                let mut k = node + 1;
                for _ in 0..len {
                    elems.push(self.implied_at(k, bump, depth - 1)?);
                    k = self.after(k);
                }
                Ty::Tuple(
                    bump.try_alloc_slice_copy(&elems)
                        .map_err(|_| Fail::arena(0))?,
                )
            }
            Node::Object { len, .. } => {
                let mut attrs: Vec<AttrTy<'a>> = Vec::with_capacity(len.min(1024));
                let mut k = node + 1;
                for _ in 0..len {
                    let Node::String(name) = self.nodes[k] else {
                        unreachable!("object keys are strings")
                    };
                    let ty = self.implied_at(k + 1, bump, depth - 1)?;
                    attrs.push(AttrTy {
                        name,
                        ty,
                        optional: false,
                    });
                    k = self.after(k + 1);
                }
                // A repeated name has no one type: go-cty rejects it too.
                attrs.sort_unstable_by(|a, b| a.name.cmp(b.name));
                if let Some(w) = attrs.windows(2).find(|w| w[0].name == w[1].name) {
                    return Err(Fail::new(
                        ErrorKind::InvalidType {
                            message: format!("duplicate {:?} property in JSON object", w[0].name),
                            offset: None,
                        },
                        self.offset_of(node),
                    ));
                }
                Ty::Object(
                    bump.try_alloc_slice_copy(&attrs)
                        .map_err(|_| Fail::arena(0))?,
                )
            }
        })
    }

    /// The index after the subtree rooted at `node`.
    #[inline]
    pub(crate) fn after(&self, node: usize) -> usize {
        match self.nodes[node] {
            Node::Array { count, .. } | Node::Object { count, .. } => node + count + 1,
            _ => node + 1,
        }
    }
}

impl<'a, P: TapeText<'a>> Source<'a> for TapeSource<'a, '_, P> {
    const JSON: bool = true;
    type Json = Self;

    #[inline(always)]
    fn json(&mut self) -> Option<&mut Self> {
        Some(self)
    }

    #[inline(always)]
    fn next(&mut self) -> Result<Tok<'a>, Fault> {
        let i = self.pos;
        let Some(&node) = self.nodes.get(i) else {
            return Err(Fault::Fail(ErrorKind::UnexpectedEof, self.end()));
        };
        self.last = i;
        self.pos = i + 1;
        Ok(match node {
            Node::String(s) => Tok::Str(s),
            Node::Object { len, .. } => Tok::Map(len as u32),
            Node::Array { len, .. } => Tok::Array(len as u32),
            Node::Static(StaticNode::Null) => Tok::Null,
            Node::Static(StaticNode::Bool(b)) => Tok::Bool(b),
            // Integers simd-json parsed exactly are taken as parsed, except a zero, which may
            // be "-0" (kept as text, as go-cty keeps its sign); anything else as its text.
            Node::Static(StaticNode::I64(n)) if n != 0 => Tok::Int(n),
            Node::Static(StaticNode::U64(n)) if n != 0 => Tok::Uint(n),
            Node::Static(_) => Tok::Num(self.number_text(i)),
        })
    }

    #[inline(always)]
    fn try_str(&mut self) -> Option<&'a str> {
        let Some(&Node::String(s)) = self.nodes.get(self.pos) else {
            return None;
        };
        let nfc = match self.clean {
            Some(clean) => clean.surely_nfc(s),
            None => crate::nfc::surely_nfc(s),
        };
        if !nfc {
            return None;
        }
        self.last = self.pos;
        self.pos += 1;
        Some(s)
    }

    #[inline(always)]
    fn try_number(&mut self) -> Option<crate::Number<'a>> {
        let n = match self.nodes.get(self.pos)? {
            Node::Static(StaticNode::I64(n)) if *n != 0 => crate::Number::Int(*n),
            Node::Static(StaticNode::U64(n)) if *n != 0 => crate::Number::Uint(*n),
            // Anything else: its text (an exponent out of range takes the general path,
            // which reports it).
            Node::Static(StaticNode::F64(_) | StaticNode::I64(_) | StaticNode::U64(_)) => {
                super::leaf::json_number(self.number_text(self.pos)).ok()?
            }
            _ => return None,
        };
        self.last = self.pos;
        self.pos += 1;
        Some(n)
    }

    #[inline(always)]
    fn try_null(&mut self) -> bool {
        if matches!(
            self.nodes.get(self.pos),
            Some(Node::Static(StaticNode::Null))
        ) {
            self.last = self.pos;
            self.pos += 1;
            true
        } else {
            false
        }
    }

    #[inline(always)]
    fn try_bool(&mut self) -> Option<Option<bool>> {
        let v = match self.nodes.get(self.pos)? {
            Node::Static(StaticNode::Null) => None,
            Node::Static(StaticNode::Bool(b)) => Some(*b),
            _ => return None,
        };
        self.last = self.pos;
        self.pos += 1;
        Some(v)
    }

    #[inline(always)]
    fn expect_key(&mut self, _encoded: &[u8], name: &str) -> bool {
        match self.nodes.get(self.pos) {
            Some(Node::String(s)) if crate::text::eq_short(s.as_bytes(), name.as_bytes()) => {
                self.last = self.pos;
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    /// The node, not its byte offset (computed only for an error, by [`Source::locate`]).
    #[inline]
    fn offset(&self) -> usize {
        NODE | self.last
    }

    fn locate(&self, at: usize) -> usize {
        if at & NODE != 0 {
            self.offset_of(at & !NODE)
        } else {
            at
        }
    }

    fn position(&self) -> usize {
        self.offset_of(self.pos)
    }

    fn finish(&mut self) -> Result<(), Fault> {
        if self.pos == self.nodes.len() {
            Ok(())
        } else {
            Err(Fault::Fail(ErrorKind::TrailingBytes, self.position()))
        }
    }
}

impl<'a, P: TapeText<'a>> JsonSource<'a> for TapeSource<'a, '_, P> {
    /// A tape knows every container's length.
    #[inline]
    fn at_end(&mut self, _first: bool) -> Result<bool, Fault> {
        Ok(false)
    }

    fn skip_value(&mut self) -> Result<(), Fault> {
        if self.pos >= self.nodes.len() {
            return Err(Fault::Fail(ErrorKind::UnexpectedEof, self.end()));
        }
        self.last = self.pos;
        self.pos = self.after(self.pos);
        Ok(())
    }

    fn json_dynamic(&mut self, bump: &'a Bump, depth: usize) -> Result<(Ty<'a>, usize), Fault> {
        let obj = self.last;
        let Node::Object { len, .. } = self.nodes[obj] else {
            unreachable!("called on an object token")
        };
        // In document order, as the byte-wise reader and go-cty read it: each "type" is
        // parsed where it stands (the last one wins), an unexpected key fails where it stands.
        let (mut ty, mut value_at) = (None, None);
        let mut k = obj + 1;
        for _ in 0..len {
            let Node::String(key) = self.nodes[k] else {
                unreachable!("object keys are strings")
            };
            match key {
                "type" => {
                    // Parsed from the text, as the byte-wise reader parses it: the same
                    // errors at the same offsets (some point at a closing bracket, which
                    // has no tape node).
                    // Without the text (a subtree of a document model), from the tape.
                    let start = self.offset_of(k + 1);
                    let t = match self.texts.text() {
                        Some(buf) => {
                            let mut text = crate::ty::json::Text {
                                bump,
                                buf,
                                pos: start,
                            };
                            crate::ty::json::parse(&mut text, bump, depth)
                        }
                        None => {
                            crate::ty::tape::parse_at(self.nodes, &self.texts, k + 1, bump, depth)
                        }
                    }
                    .map_err(|e| type_fault(e, start))?;
                    ty = Some(t);
                }
                "value" => value_at = Some(k + 1),
                _ => {
                    return Err(Fault::Fail(
                        ErrorKind::InvalidDynamic(format!(
                            "unexpected key {key:?} (only \"type\" and \"value\")"
                        )),
                        self.offset_of(k),
                    ));
                }
            }
            k = self.after(k + 1);
        }
        let end = k;
        // The object's offset only for an error (offsets are computed on demand, best in
        // document order).
        let Some(ty) = ty else {
            return Err(Fault::Fail(
                ErrorKind::InvalidDynamic("missing \"type\"".into()),
                self.offset_of(obj),
            ));
        };
        let Some(value_at) = value_at else {
            return Err(Fault::Fail(
                ErrorKind::InvalidDynamic("missing \"value\"".into()),
                self.offset_of(obj),
            ));
        };
        self.pos = value_at;
        Ok((ty, end))
    }

    fn json_implied(&mut self, bump: &'a Bump, depth: usize) -> Result<(Ty<'a>, usize), Fault> {
        let at = self.last;
        let ty = self
            .implied_at(at, bump, depth)
            .map_err(|e| type_fault(e, self.offset_of(at)))?;
        self.pos = at;
        Ok((ty, self.after(at)))
    }

    fn seek(&mut self, mark: usize) {
        self.pos = mark;
    }
}

/// A type-JSON error inside a JSON document: the type JSON is text of the input, so the
/// error's offset is the offending byte (an arena's refusal is reported at the type).
pub(crate) fn type_fault(e: Box<Fail>, type_start: usize) -> Fault {
    let at = if e.is_arena() { type_start } else { e.at() };
    let (kind, _) = e.into_parts();
    Fault::Fail(kind, at)
}

#[cfg(test)]
mod tests {
    use crate::{Config, Decoder, Program, Type};

    /// Strings not in NFC, made by escapes or written as they are, at every position
    /// relative to the 64-byte blocks and of lengths across block borders: the tape reader
    /// normalizes them as the byte-wise reader does.
    #[test]
    fn strings_needing_nfc_at_every_block_position() {
        let program = Program::compile(&Type::from_json(r#"["list","string"]"#).unwrap());
        let mut d = Decoder::new(Config::default());
        for pad in 0..70 {
            for body in [
                r"e\u0301",
                "e\u{301}",
                r"\u00e9",
                r"x\n\u1e0b\u0323",
                "\u{1e0b}\u{323}",
                r"\u0041\u030a and more text to cross a block border",
            ] {
                let mut text = String::from("[");
                text.push_str(&format!("\"{}\",", "a".repeat(pad)));
                text.push_str(&format!("\"{}{body}\",", "b".repeat(pad % 7)));
                text.push_str(&format!("\"{body}{}\"]", "c".repeat(pad)));
                let (a1, a2) = (bumpalo::Bump::new(), bumpalo::Bump::new());
                let tape = d.decode_json(&program, text.as_bytes(), &a1).unwrap();
                let bytes = d.decode_json_text(&program, text.as_bytes(), &a2).unwrap();
                assert_eq!(tape, bytes, "{text}");
            }
        }
    }

    /// The typed walk tests each string against the run of clean blocks the last one lay
    /// in: runs of every length ending at a string that needs NFC (as an attribute, a list
    /// element, a map key and a map value), on both sides of every block border. The walk
    /// normalizes as the byte-wise reader does.
    #[test]
    fn clean_runs_end_where_a_string_needs_a_look() {
        let program = Program::compile(
            &Type::from_json(
                r#"["object",{"a":"string","l":["list","string"],"m":["map","string"],"z":"string"}]"#,
            )
            .unwrap(),
        );
        let mut d = Decoder::new(Config::default());
        for pad in 0..140 {
            let clean = "c".repeat(pad);
            for odd in ["e\u{301}", r"e\u0301", "\u{1e0b}\u{323}", "\u{e9}", r"\n"] {
                let text = format!(
                    r#"{{"a":"{clean}","l":["{clean}","{odd}","x"],"m":{{"{clean}":"{odd}","{odd}k":"{clean}"}},"z":"{odd}{clean}"}}"#
                );
                let (a1, a2) = (bumpalo::Bump::new(), bumpalo::Bump::new());
                let tape = d.decode_json(&program, text.as_bytes(), &a1).unwrap();
                let bytes = d.decode_json_text(&program, text.as_bytes(), &a2).unwrap();
                assert_eq!(tape, bytes, "{text}");
            }
        }
    }
}
