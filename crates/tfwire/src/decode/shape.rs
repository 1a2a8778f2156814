//! Where the state machine is in the type: a position in a compiled program, or (inside a
//! dynamic value) in a type that arrived on the wire.

use crate::program::{AttrNode, Node, NodeId, Program};
use crate::ty::{AttrTy, Ty};

/// A type position.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cur<'a> {
    Node(NodeId),
    Ty(Ty<'a>),
}

/// What a type position calls for.
#[derive(Clone, Copy)]
pub(crate) enum Shape<'a> {
    Bool,
    Number,
    String,
    Dynamic,
    List(Cur<'a>, bool),
    Set(Cur<'a>, bool),
    Map(Cur<'a>, bool),
    Object(Attrs<'a>),
    Tuple(Elems<'a>),
}

/// The attributes of an object position.
#[derive(Clone, Copy)]
pub(crate) enum Attrs<'a> {
    Node(&'a [AttrNode]),
    Ty(&'a [AttrTy<'a>]),
}

/// The element types of a tuple position.
#[derive(Clone, Copy)]
pub(crate) enum Elems<'a> {
    Node(&'a [NodeId]),
    Ty(&'a [Ty<'a>]),
}

impl<'a> Cur<'a> {
    #[inline]
    pub(crate) fn shape(self, p: &'a Program) -> Shape<'a> {
        match self {
            Cur::Node(id) => match p.node(id) {
                Node::Bool => Shape::Bool,
                Node::Number => Shape::Number,
                Node::String => Shape::String,
                Node::Dynamic => Shape::Dynamic,
                Node::List { elem, dynamic, .. } => Shape::List(Cur::Node(elem), dynamic),
                Node::Set { elem, dynamic, .. } => Shape::Set(Cur::Node(elem), dynamic),
                Node::Group { object } => Cur::Node(object).shape(p),
                Node::Map { elem, dynamic } => Shape::Map(Cur::Node(elem), dynamic),
                Node::Object { start, len } => Shape::Object(Attrs::Node(p.attrs_of(start, len))),
                Node::Tuple { start, len } => Shape::Tuple(Elems::Node(p.elems_of(start, len))),
            },
            Cur::Ty(t) => match t {
                Ty::Bool => Shape::Bool,
                Ty::Number => Shape::Number,
                Ty::String => Shape::String,
                Ty::Dynamic => Shape::Dynamic,
                Ty::List(e) => Shape::List(Cur::Ty(*e), e.has_dynamic()),
                Ty::Set(e) => Shape::Set(Cur::Ty(*e), e.has_dynamic()),
                Ty::Map(e) => Shape::Map(Cur::Ty(*e), e.has_dynamic()),
                Ty::Object(a) => Shape::Object(Attrs::Ty(a)),
                Ty::Tuple(e) => Shape::Tuple(Elems::Ty(e)),
            },
        }
    }

    /// The count constraints when the position is a nested block type's list or set.
    #[inline]
    pub(crate) fn block(self, p: &Program) -> u32 {
        match self {
            Cur::Node(id) => match p.node(id) {
                Node::List { block, .. } | Node::Set { block, .. } => block,
                _ => crate::program::NO_BLOCK,
            },
            Cur::Ty(_) => crate::program::NO_BLOCK,
        }
    }

    /// The object node of a `GROUP` nested block position.
    #[inline]
    pub(crate) fn group(self, p: &Program) -> Option<crate::program::NodeId> {
        match self {
            Cur::Node(id) => match p.node(id) {
                Node::Group { object } => Some(object),
                _ => None,
            },
            Cur::Ty(_) => None,
        }
    }

    /// Whether an optional attribute appears anywhere at or below the position.
    pub(crate) fn has_optional(self, p: &Program) -> bool {
        match self {
            Cur::Node(id) => p.has_optional(id),
            Cur::Ty(t) => t.has_optional(),
        }
    }

    /// Whether `dynamic` appears anywhere at or below the position.
    pub(crate) fn has_dynamic(self, p: &Program) -> bool {
        match self {
            Cur::Node(id) => p.has_dynamic(id),
            Cur::Ty(t) => t.has_dynamic(),
        }
    }
}

impl<'a> Attrs<'a> {
    #[inline]
    pub(crate) fn len(self) -> usize {
        match self {
            Attrs::Node(a) => a.len(),
            Attrs::Ty(a) => a.len(),
        }
    }

    #[inline]
    pub(crate) fn name(self, i: usize) -> &'a str {
        match self {
            Attrs::Node(a) => &a[i].name,
            Attrs::Ty(a) => a[i].name,
        }
    }

    #[inline]
    pub(crate) fn cur(self, i: usize) -> Cur<'a> {
        match self {
            Attrs::Node(a) => Cur::Node(a[i].node),
            Attrs::Ty(a) => Cur::Ty(a[i].ty),
        }
    }

    /// The index of the attribute called `name` (exact bytes, not normalized).
    #[inline]
    pub(crate) fn find(self, name: &str) -> Option<usize> {
        match self {
            Attrs::Node(a) => a.binary_search_by(|x| (*x.name).cmp(name)).ok(),
            Attrs::Ty(a) => a.binary_search_by(|x| x.name.cmp(name)).ok(),
        }
    }
}

impl<'a> Elems<'a> {
    #[inline]
    pub(crate) fn len(self) -> usize {
        match self {
            Elems::Node(e) => e.len(),
            Elems::Ty(e) => e.len(),
        }
    }

    #[inline]
    pub(crate) fn cur(self, i: usize) -> Cur<'a> {
        match self {
            Elems::Node(e) => Cur::Node(e[i]),
            Elems::Ty(e) => Cur::Ty(e[i]),
        }
    }
}
