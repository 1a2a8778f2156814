//! Type JSON read from a JSON tape: the type of a dynamic value in a document parsed by
//! simd-json, or an attribute's type in a provider schema document.

use super::arena::Ty;
use super::json::{Pull, Start, parse};
use crate::error::Fail;
use bumpalo::Bump;
use tfwire_json::tape::{Node, StaticNode, TapeText};

/// Parses the type JSON at tape node `node` of `nodes` (at most `depth` deep); `texts`
/// gives the nodes' offsets, for errors.
pub(crate) fn parse_at<'a, P: TapeText<'a>>(
    nodes: &[Node<'a>],
    texts: &P,
    node: usize,
    bump: &'a Bump,
    depth: usize,
) -> Result<Ty<'a>, Box<Fail>> {
    let mut pull = TapePull {
        nodes,
        texts,
        pos: node,
        open: smallvec::SmallVec::new(),
    };
    parse(&mut pull, bump, depth)
}

/// The tape as a source for the type-JSON parser.
struct TapePull<'s, 'a, P> {
    nodes: &'s [Node<'a>],
    texts: &'s P,
    pos: usize,
    /// Elements left in each open array/object.
    open: smallvec::SmallVec<[usize; 16]>,
}

impl<'a, P: TapeText<'a>> Pull<'a> for TapePull<'_, 'a, P> {
    fn start(&mut self) -> Result<Start<'a>, Box<Fail>> {
        let node = self.nodes[self.pos];
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
        let at = self.texts.offset(self.pos);
        let Node::String(key) = self.nodes[self.pos] else {
            unreachable!("object keys are strings")
        };
        self.pos += 1;
        Ok(Some((key, at)))
    }

    fn offset(&self) -> usize {
        self.texts.offset(self.pos)
    }
}
