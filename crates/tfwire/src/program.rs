//! Compiled programs: a type constraint flattened, once, into the table the decoder runs.

use crate::ty::{Ty, Type};
use core::fmt;

/// Node flag: `dynamic` appears at or below the node.
pub(crate) const DYNAMIC: u8 = 1;
/// Node flag: an optional attribute appears at or below the node.
pub(crate) const OPTIONAL: u8 = 2;

/// Index of a node in a [`Program`].
pub(crate) type NodeId = u32;

/// One node of a program: what the value at a position must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    Bool,
    Number,
    String,
    Dynamic,
    /// `elem`: the element node; `dynamic`: whether the element type contains `dynamic`
    /// (then element types must be unified when the collection is complete).
    List {
        elem: NodeId,
        dynamic: bool,
    },
    Set {
        elem: NodeId,
        dynamic: bool,
    },
    Map {
        elem: NodeId,
        dynamic: bool,
    },
    /// Attributes `attrs[start..start+len]`, sorted by name.
    Object {
        start: u32,
        len: u32,
    },
    /// Element nodes `elems[start..start+len]`.
    Tuple {
        start: u32,
        len: u32,
    },
}

/// An attribute of an object node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AttrNode {
    pub(crate) name: Box<str>,
    pub(crate) node: NodeId,
    pub(crate) optional: bool,
}

/// A type constraint compiled into the flat table the decoder's state machine runs over.
///
/// Compile once, decode many times, from any number of threads (`Program` is immutable,
/// `Send` and `Sync`):
///
/// ```
/// use tfwire::{Program, Type};
/// let program = Program::compile(&Type::from_json(r#"["map","number"]"#)?);
/// let bump = bumpalo::Bump::new();
/// let value = tfwire::decode_msgpack(&program, &[0x81, 0xa1, b'a', 0x2a], &bump)?;
/// assert_eq!(value.get("a").unwrap().as_number().unwrap().to_i64(), Some(42));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// `Display` prints the node table, for debugging.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub(crate) nodes: Vec<Node>,
    pub(crate) attrs: Vec<AttrNode>,
    pub(crate) elems: Vec<NodeId>,
    /// Per node: whether `dynamic` ([`DYNAMIC`]) or an optional attribute ([`OPTIONAL`])
    /// appears at or below it.
    pub(crate) flags: Vec<u8>,
    pub(crate) root: NodeId,
}

impl Program {
    /// Compiles a type constraint.
    pub fn compile(ty: &Type) -> Program {
        let mut p = Program {
            nodes: Vec::new(),
            attrs: Vec::new(),
            elems: Vec::new(),
            flags: Vec::new(),
            root: 0,
        };
        p.root = p.add_type(ty);
        p.finish();
        p
    }

    /// Compiles a type constraint given as type JSON.
    pub fn from_type_json(json: &str) -> Result<Program, crate::TypeError> {
        Ok(Program::compile(&Type::from_json(json)?))
    }

    /// Computes the per-node tables once every node is in place.
    pub(crate) fn finish(&mut self) {
        // Children always come before their parents, so one forward pass suffices.
        self.flags = Vec::with_capacity(self.nodes.len());
        for i in 0..self.nodes.len() {
            let f = match self.nodes[i] {
                Node::Dynamic => DYNAMIC,
                Node::Bool | Node::Number | Node::String => 0,
                Node::List { elem, .. } | Node::Set { elem, .. } | Node::Map { elem, .. } => {
                    self.flags[elem as usize]
                }
                Node::Object { start, len } => self.attrs_of(start, len).iter().fold(0, |f, a| {
                    f | self.flags[a.node as usize] | if a.optional { OPTIONAL } else { 0 }
                }),
                Node::Tuple { start, len } => self
                    .elems_of(start, len)
                    .iter()
                    .fold(0, |f, &e| f | self.flags[e as usize]),
            };
            self.flags.push(f);
        }
    }

    /// Whether `dynamic` appears at or below the node.
    #[inline]
    pub(crate) fn has_dynamic(&self, id: NodeId) -> bool {
        self.flags[id as usize] & DYNAMIC != 0
    }

    /// Whether an optional attribute appears at or below the node.
    #[inline]
    pub(crate) fn has_optional(&self, id: NodeId) -> bool {
        self.flags[id as usize] & OPTIONAL != 0
    }

    fn push(&mut self, n: Node) -> NodeId {
        let id = NodeId::try_from(self.nodes.len()).expect("program has fewer than 2^32 nodes");
        self.nodes.push(n);
        id
    }

    pub(crate) fn add_type(&mut self, ty: &Type) -> NodeId {
        match ty {
            Type::Bool => self.push(Node::Bool),
            Type::Number => self.push(Node::Number),
            Type::String => self.push(Node::String),
            Type::Dynamic => self.push(Node::Dynamic),
            Type::List(e) => {
                let elem = self.add_type(e);
                self.push(Node::List {
                    elem,
                    dynamic: e.has_dynamic(),
                })
            }
            Type::Set(e) => {
                let elem = self.add_type(e);
                self.push(Node::Set {
                    elem,
                    dynamic: e.has_dynamic(),
                })
            }
            Type::Map(e) => {
                let elem = self.add_type(e);
                self.push(Node::Map {
                    elem,
                    dynamic: e.has_dynamic(),
                })
            }
            Type::Object(o) => {
                let nodes: Vec<(Box<str>, NodeId, bool)> = o
                    .attributes()
                    .iter()
                    .map(|a| (a.name.as_str().into(), self.add_type(&a.ty), a.optional))
                    .collect();
                let start = self.attrs.len() as u32;
                let len = nodes.len() as u32;
                self.attrs
                    .extend(nodes.into_iter().map(|(name, node, optional)| AttrNode {
                        name,
                        node,
                        optional,
                    }));
                self.push(Node::Object { start, len })
            }
            Type::Tuple(es) => {
                let nodes: Vec<NodeId> = es.iter().map(|e| self.add_type(e)).collect();
                let start = self.elems.len() as u32;
                self.elems.extend_from_slice(&nodes);
                self.push(Node::Tuple {
                    start,
                    len: nodes.len() as u32,
                })
            }
        }
    }

    /// The type constraint the program decodes.
    pub fn ty(&self) -> Type {
        self.type_of(self.root)
    }

    pub(crate) fn type_of(&self, id: NodeId) -> Type {
        match self.nodes[id as usize] {
            Node::Bool => Type::Bool,
            Node::Number => Type::Number,
            Node::String => Type::String,
            Node::Dynamic => Type::Dynamic,
            Node::List { elem, .. } => Type::list(self.type_of(elem)),
            Node::Set { elem, .. } => Type::set(self.type_of(elem)),
            Node::Map { elem, .. } => Type::map(self.type_of(elem)),
            Node::Object { start, len } => Type::object(
                self.attrs[start as usize..(start + len) as usize]
                    .iter()
                    .map(|a| (a.name.to_string(), self.type_of(a.node), a.optional)),
            ),
            Node::Tuple { start, len } => Type::tuple(
                self.elems[start as usize..(start + len) as usize]
                    .iter()
                    .map(|&e| self.type_of(e)),
            ),
        }
    }

    /// The node the program starts at.
    #[inline]
    pub(crate) fn root(&self) -> NodeId {
        self.root
    }

    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> Node {
        self.nodes[id as usize]
    }

    #[inline]
    pub(crate) fn attrs_of(&self, start: u32, len: u32) -> &[AttrNode] {
        &self.attrs[start as usize..(start + len) as usize]
    }

    #[inline]
    pub(crate) fn elems_of(&self, start: u32, len: u32) -> &[NodeId] {
        &self.elems[start as usize..(start + len) as usize]
    }

    /// The node as an arena type; `None` if the arena refuses an allocation.
    pub(crate) fn try_node_ty<'a>(&'a self, id: NodeId, bump: &'a bumpalo::Bump) -> Option<Ty<'a>> {
        let one = |t: Ty<'a>| bump.try_alloc(t).ok().map(|r| &*r);
        Some(match self.node(id) {
            Node::Bool => Ty::Bool,
            Node::Number => Ty::Number,
            Node::String => Ty::String,
            Node::Dynamic => Ty::Dynamic,
            Node::List { elem, .. } => Ty::List(one(self.try_node_ty(elem, bump)?)?),
            Node::Set { elem, .. } => Ty::Set(one(self.try_node_ty(elem, bump)?)?),
            Node::Map { elem, .. } => Ty::Map(one(self.try_node_ty(elem, bump)?)?),
            Node::Object { start, len } => {
                let mut out = Vec::with_capacity(len as usize);
                for a in self.attrs_of(start, len) {
                    out.push(crate::ty::AttrTy {
                        name: &a.name,
                        ty: self.try_node_ty(a.node, bump)?,
                        optional: a.optional,
                    });
                }
                Ty::Object(bump.try_alloc_slice_copy(&out).ok()?)
            }
            Node::Tuple { start, len } => {
                let mut out = Vec::with_capacity(len as usize);
                for &e in self.elems_of(start, len) {
                    out.push(self.try_node_ty(e, bump)?);
                }
                Ty::Tuple(bump.try_alloc_slice_copy(&out).ok()?)
            }
        })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the program has no nodes (never true for a compiled program).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl fmt::Display for Program {
    /// One line per node, e.g. `#3 object {id: #1, tags: #2 (optional)}`; the root last.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.nodes.iter().enumerate() {
            write!(f, "#{i} ")?;
            match *n {
                Node::Bool => f.write_str("bool")?,
                Node::Number => f.write_str("number")?,
                Node::String => f.write_str("string")?,
                Node::Dynamic => f.write_str("dynamic")?,
                Node::List { elem, dynamic } => write!(
                    f,
                    "list of #{elem}{}",
                    if dynamic { " (unify)" } else { "" }
                )?,
                Node::Set { elem, dynamic } => {
                    write!(f, "set of #{elem}{}", if dynamic { " (unify)" } else { "" })?
                }
                Node::Map { elem, dynamic } => {
                    write!(f, "map of #{elem}{}", if dynamic { " (unify)" } else { "" })?
                }
                Node::Object { start, len } => {
                    f.write_str("object {")?;
                    for (k, a) in self.attrs_of(start, len).iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        crate::error::write_quoted(f, &a.name)?;
                        write!(
                            f,
                            ": #{}{}",
                            a.node,
                            if a.optional { " (optional)" } else { "" }
                        )?;
                    }
                    f.write_str("}")?;
                }
                Node::Tuple { start, len } => {
                    f.write_str("tuple [")?;
                    for (k, e) in self.elems_of(start, len).iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "#{e}")?;
                    }
                    f.write_str("]")?;
                }
            }
            if i as NodeId == self.root {
                f.write_str("  <- root")?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_is_send_sync_and_prints() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Program>();
        let t = Type::from_json(
            r#"["object",{"tags":["map","string"],"id":"string","d":["list","dynamic"]},["tags"]]"#,
        )
        .unwrap();
        let p = Program::compile(&t);
        assert_eq!(p.ty(), t);
        assert_eq!(
            p.to_string(),
            "#0 dynamic\n#1 list of #0 (unify)\n#2 string\n#3 string\n#4 map of #3\n\
             #5 object {\"d\": #1, \"id\": #2, \"tags\": #4 (optional)}  <- root\n"
        );
    }
}
