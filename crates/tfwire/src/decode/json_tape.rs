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
use crate::json::scan;
use crate::ty::Ty;
use crate::ty::json::TyFault;
use bumpalo::Bump;
use simd_json::{Node, StaticNode};

/// Fills `offsets` with the byte offset of every tape node: the structural indexes that
/// open a value (strings, scalars, `[`, `{`).
pub(crate) fn node_offsets(input: &[u8], structurals: &[u32], offsets: &mut Vec<u32>) {
    offsets.clear();
    offsets.extend(structurals.iter().copied().filter(|&i| {
        !matches!(
            input.get(i as usize),
            Some(b':' | b',' | b']' | b'}') | None
        )
    }));
}

pub(crate) struct TapeSource<'a, 't> {
    pub(crate) nodes: &'t [Node<'a>],
    pub(crate) offsets: &'t [u32],
    /// The original input (number texts are read from it).
    pub(crate) input: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) last: usize,
}

impl<'a, 't> TapeSource<'a, 't> {
    #[inline]
    fn offset_of(&self, node: usize) -> usize {
        self.offsets
            .get(node)
            .map_or(self.input.len(), |&o| o as usize)
    }

    /// The text of the number node at `node`.
    #[inline]
    fn number_text(&self, node: usize) -> &'a str {
        let start = self.offset_of(node);
        let end = scan::number(self.input, start).unwrap_or(start);
        // The number grammar is ASCII.
        core::str::from_utf8(&self.input[start..end]).unwrap_or("")
    }

    /// The index after the subtree rooted at `node`.
    #[inline]
    fn after(&self, node: usize) -> usize {
        match self.nodes[node] {
            Node::Array { count, .. } | Node::Object { count, .. } => node + count + 1,
            _ => node + 1,
        }
    }
}

impl<'a> Source<'a> for TapeSource<'a, '_> {
    const JSON: bool = true;

    #[inline]
    fn next(&mut self) -> Result<Tok<'a>, Stop> {
        let i = self.pos;
        let Some(&node) = self.nodes.get(i) else {
            return Err(Stop::Fail(ErrorKind::UnexpectedEof, self.input.len()));
        };
        self.last = i;
        self.pos = i + 1;
        Ok(match node {
            Node::String(s) => Tok::Str(s),
            Node::Object { len, .. } => Tok::Map(len as u32),
            Node::Array { len, .. } => Tok::Array(len as u32),
            Node::Static(StaticNode::Null) => Tok::Null,
            Node::Static(StaticNode::Bool(b)) => Tok::Bool(b),
            Node::Static(_) => Tok::Num(self.number_text(i)),
        })
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
            return Err(Stop::Fail(ErrorKind::UnexpectedEof, self.input.len()));
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
                    let start = self.offset_of(k + 1);
                    let mut text = crate::ty::json::Text {
                        bump,
                        buf: self.input,
                        pos: start,
                    };
                    let t = crate::ty::json::parse(&mut text, bump, depth)
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

/// A type-JSON error inside a JSON document: the error's offset is absolute, the type
/// error's offset relative to the type's start.
pub(crate) fn type_fault(e: TyFault, type_start: usize) -> Stop {
    match e {
        TyFault::Syntax(e) => Stop::Fail(
            ErrorKind::InvalidType {
                message: e.message,
                offset: e.offset.saturating_sub(type_start),
            },
            e.offset,
        ),
        TyFault::Arena => Stop::Fail(
            ErrorKind::LimitExceeded {
                limit: crate::Limit::ArenaBytes,
                max: 0,
            },
            type_start,
        ),
    }
}
