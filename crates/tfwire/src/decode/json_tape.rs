//! The JSON token source over simd-json's tape.
//!
//! simd-json parses the whole document into a flat tape; this source walks it. Containers
//! carry their lengths (so the machine knows element counts up front) and their node counts
//! (so a value the program does not need is skipped in O(1)). Number nodes are read as their
//! original text: simd-json's structural indexes give the byte offset of every value in
//! document order (one per tape node, once `:` `,` `]` `}` are left out), and number bytes are
//! never rewritten, so no decimal is ever rounded through a float.

use super::source::{Source, Stop, Tok};
use crate::error::ErrorKind;
use crate::error::Fail;
use crate::json::tape::{Node, StaticNode, TapeText};
use crate::ty::json::{Pull, Start};
use crate::ty::{AttrTy, Ty};
use bumpalo::Bump;

pub(crate) struct TapeSource<'a, 't, P> {
    pub(crate) nodes: &'t [Node<'a>],
    /// Offsets and number texts of the nodes.
    pub(crate) texts: P,
    pub(crate) pos: usize,
    pub(crate) last: usize,
}

/// The texts of a tape parsed from a document still at hand: every node's offset, number
/// texts read from the document.
pub(crate) struct DocText<'a, 't> {
    pub(crate) offsets: &'t [u32],
    /// The original input (number texts are read from it).
    pub(crate) input: &'a [u8],
}

impl<'a> TapeText<'a> for DocText<'a, '_> {
    #[inline]
    fn offset(&self, node: usize) -> usize {
        self.offsets
            .get(node)
            .map_or(self.input.len(), |&o| o as usize)
    }

    /// simd-json checked the number's grammar: it ends at the first byte that no number
    /// holds.
    #[inline]
    fn number_text(&self, node: usize) -> &'a str {
        let start = self.offset(node);
        let len = self.input[start..]
            .iter()
            .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .unwrap_or(self.input.len() - start);
        // The number grammar is ASCII.
        crate::text::utf8(&self.input[start..start + len]).unwrap_or("")
    }

    fn text(&self) -> Option<&'a [u8]> {
        Some(self.input)
    }
}

impl<'a, 't, P: TapeText<'a>> TapeSource<'a, 't, P> {
    /// Parses the type JSON at tape node `node` (at most `depth` deep).
    pub(crate) fn parse_type_at(
        &self,
        node: usize,
        bump: &'a Bump,
        depth: usize,
    ) -> Result<Ty<'a>, Box<Fail>> {
        let mut pull = TapePull {
            src: self,
            pos: node,
            open: smallvec::SmallVec::new(),
        };
        crate::ty::json::parse(&mut pull, bump, depth)
    }

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

    #[inline]
    fn next(&mut self) -> Result<Tok<'a>, Stop> {
        let i = self.pos;
        let Some(&node) = self.nodes.get(i) else {
            return Err(Stop::Fail(ErrorKind::UnexpectedEof, self.end()));
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

    #[inline]
    fn try_str(&mut self) -> Option<&'a str> {
        let Some(&Node::String(s)) = self.nodes.get(self.pos) else {
            return None;
        };
        if !crate::nfc::surely_nfc(s) {
            return None;
        }
        self.last = self.pos;
        self.pos += 1;
        Some(s)
    }

    #[inline]
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

    #[inline]
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

    #[inline]
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

    #[inline]
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

    #[inline]
    fn offset(&self) -> usize {
        self.offset_of(self.last)
    }

    fn position(&self) -> usize {
        self.offset_of(self.pos)
    }

    fn skip_value(&mut self) -> Result<(), Stop> {
        if self.pos >= self.nodes.len() {
            return Err(Stop::Fail(ErrorKind::UnexpectedEof, self.end()));
        }
        self.last = self.pos;
        self.pos = self.after(self.pos);
        Ok(())
    }

    fn finish(&mut self) -> Result<(), Stop> {
        if self.pos == self.nodes.len() {
            Ok(())
        } else {
            Err(Stop::Fail(ErrorKind::TrailingBytes, self.position()))
        }
    }

    fn json_implied(&mut self, bump: &'a Bump, depth: usize) -> Result<(Ty<'a>, usize), Stop> {
        let at = self.last;
        let ty = self
            .implied_at(at, bump, depth)
            .map_err(|e| type_fault(e, self.offset_of(at)))?;
        self.pos = at;
        Ok((ty, self.after(at)))
    }

    fn json_dynamic(&mut self, bump: &'a Bump, depth: usize) -> Result<(Ty<'a>, usize), Stop> {
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
                        None => self.parse_type_at(k + 1, bump, depth),
                    }
                    .map_err(|e| type_fault(e, start))?;
                    ty = Some(t);
                }
                "value" => value_at = Some(k + 1),
                _ => {
                    return Err(Stop::Fail(
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
        let at = self.offset_of(obj);
        let Some(ty) = ty else {
            return Err(Stop::Fail(
                ErrorKind::InvalidDynamic("missing \"type\"".into()),
                at,
            ));
        };
        let Some(value_at) = value_at else {
            return Err(Stop::Fail(
                ErrorKind::InvalidDynamic("missing \"value\"".into()),
                at,
            ));
        };
        self.pos = value_at;
        Ok((ty, end))
    }

    fn seek(&mut self, mark: usize) {
        self.pos = mark;
    }
}

/// A type-JSON error inside a JSON document: the type JSON is text of the input, so the
/// error's offset is the offending byte (an arena's refusal is reported at the type).
pub(crate) fn type_fault(e: Box<Fail>, type_start: usize) -> Stop {
    let at = if e.is_arena() { type_start } else { e.at() };
    let (kind, _) = e.into_parts();
    Stop::Fail(kind, at)
}

/// The tape as a source for the type-JSON parser.
struct TapePull<'s, 'a, 't, P> {
    src: &'s TapeSource<'a, 't, P>,
    pos: usize,
    /// Elements left in each open array/object.
    open: smallvec::SmallVec<[usize; 16]>,
}

impl<'a, P: TapeText<'a>> Pull<'a> for TapePull<'_, 'a, '_, P> {
    fn start(&mut self) -> Result<Start<'a>, Box<Fail>> {
        let node = self.src.nodes[self.pos];
        self.pos += 1;
        Ok(match node {
            Node::String(s) => Start::Str(s),
            Node::Array { len, .. } => {
                self.open.push(len);
                Start::Array
            }
            Node::Object { len, .. } => {
                self.open.push(len);
                Start::Object
            }
            Node::Static(StaticNode::Null) => Start::Other("null"),
            Node::Static(StaticNode::Bool(_)) => Start::Other("a bool"),
            Node::Static(_) => Start::Other("a number"),
        })
    }

    fn array_next(&mut self, _first: bool) -> Result<bool, Box<Fail>> {
        let left = self.open.last_mut().expect("inside an array");
        if *left == 0 {
            self.open.pop();
            return Ok(false);
        }
        *left -= 1;
        Ok(true)
    }

    fn object_next(&mut self, _first: bool) -> Result<Option<(&'a str, usize)>, Box<Fail>> {
        let left = self.open.last_mut().expect("inside an object");
        if *left == 0 {
            self.open.pop();
            return Ok(None);
        }
        *left -= 1;
        let at = self.src.offset_of(self.pos);
        let Node::String(key) = self.src.nodes[self.pos] else {
            unreachable!("object keys are strings")
        };
        self.pos += 1;
        Ok(Some((key, at)))
    }

    fn offset(&self) -> usize {
        self.src.offset_of(self.pos)
    }
}
