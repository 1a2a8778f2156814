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
    /// `block`: for a nested block type's list, its index in `Program::blocks` (counts are
    /// checked), else [`NO_BLOCK`].
    List {
        elem: NodeId,
        dynamic: bool,
        block: u32,
    },
    Set {
        elem: NodeId,
        dynamic: bool,
        block: u32,
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
    /// A `GROUP` nested block: decodes as its object node; null reads as the block with
    /// every attribute null and no nested blocks.
    Group {
        object: NodeId,
    },
}

/// `Node::List`/`Node::Set` that are not a nested block type's blocks.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

/// The count constraints of a `LIST`/`SET` nested block type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BlockInfo {
    pub(crate) name: Box<str>,
    pub(crate) min: u64,
    /// 0: no maximum.
    pub(crate) max: u64,
}

/// What an attribute of a synthesized `GROUP` block (an absent group) holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Empty {
    /// An attribute, or a `SINGLE` block: null.
    Null,
    /// `LIST` blocks: an empty list.
    List,
    /// `SET` blocks: an empty set.
    Set,
    /// `MAP` blocks: an empty map.
    Map,
    /// `LIST` blocks with dynamic contents: an empty tuple.
    Tuple,
    /// `MAP` blocks with dynamic contents: an empty object.
    Object,
    /// A nested `GROUP` block: its own synthesized block (the object node).
    Group(NodeId),
}

/// The leaf kinds of [`AttrNode::leaf`]: a byte beside the name instead of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leaf {
    String,
    Bool,
    Number,
    /// Any other node (containers, `dynamic`, nested blocks).
    Other,
}

impl Leaf {
    fn of(node: Node) -> Leaf {
        match node {
            Node::String => Leaf::String,
            Node::Bool => Leaf::Bool,
            Node::Number => Leaf::Number,
            _ => Leaf::Other,
        }
    }
}

/// An attribute of an object node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AttrNode {
    pub(crate) name: Box<str>,
    /// The name as a MessagePack string (header and bytes), for matching keys as bytes.
    pub(crate) key: Box<[u8]>,
    /// The name as a JSON string, quoted and escaped as go-cty writes it (for the encoder).
    pub(crate) json_key: Box<str>,
    pub(crate) node: NodeId,
    /// What the node at `node` is when it is a leaf: the JSON walk reads it with the name,
    /// without a lookup in the node table.
    pub(crate) leaf: Leaf,
    pub(crate) optional: bool,
    pub(crate) empty: Empty,
}

/// `name` as a JSON string, as go-cty writes it.
fn json_key(name: &str) -> Box<str> {
    let mut out = String::with_capacity(name.len() + 2);
    let _ = tfwire_json::write_go_str(&mut out, name);
    out.into_boxed_str()
}

/// `name` as a MessagePack string, header included.
fn encoded_key(name: &str) -> Box<[u8]> {
    let mut out = Vec::with_capacity(name.len() + 5);
    tfwire_msgpack::write::str(&mut out, name);
    out.into_boxed_slice()
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
    /// Count constraints of nested block types (`Node::List`/`Node::Set` `block` indexes).
    pub(crate) blocks: Vec<BlockInfo>,
    /// Per node: whether `dynamic` ([`DYNAMIC`]) or an optional attribute ([`OPTIONAL`])
    /// appears at or below it.
    pub(crate) flags: Vec<u8>,
    pub(crate) root: NodeId,
}

impl Program {
    /// A program without nodes, to add them to.
    fn empty() -> Program {
        Program {
            nodes: Vec::new(),
            attrs: Vec::new(),
            elems: Vec::new(),
            flags: Vec::new(),
            blocks: Vec::new(),
            root: 0,
        }
    }

    /// Compiles a type constraint.
    pub fn compile(ty: &Type) -> Program {
        let mut p = Program::empty();
        p.root = p.add_type(ty);
        p.finish();
        p
    }

    /// Compiles a type constraint given as type JSON.
    pub fn from_type_json(json: &str) -> Result<Program, crate::Error> {
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
                Node::Group { object } => self.flags[object as usize],
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
            Type::List(e) | Type::Set(e) => {
                let elem = self.add_type(e);
                let (dynamic, block) = (e.has_dynamic(), NO_BLOCK);
                self.push(match ty {
                    Type::List(_) => Node::List {
                        elem,
                        dynamic,
                        block,
                    },
                    _ => Node::Set {
                        elem,
                        dynamic,
                        block,
                    },
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
                        key: encoded_key(&name),
                        json_key: json_key(&name),
                        name,
                        node,
                        leaf: Leaf::of(self.nodes[node as usize]),
                        optional,
                        empty: Empty::Null,
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

    /// Compiles a schema block: its implied type (see [`crate::schema`]), plus what the type
    /// alone does not say — `GROUP` blocks synthesized when absent, and the `min_items` /
    /// `max_items` of `LIST` and `SET` blocks.
    pub fn from_block(block: &crate::schema::Block) -> Program {
        let mut p = Program::empty();
        p.root = p.add_block(block);
        p.finish();
        p
    }

    fn add_block(&mut self, block: &crate::schema::Block) -> NodeId {
        use crate::schema::Nesting;
        let mut entries: Vec<(&str, NodeId, Empty)> = Vec::new();
        for a in &block.attributes {
            entries.push((&a.name, self.add_type(&a.implied_type()), Empty::Null));
        }
        for nb in &block.block_types {
            let dynamic = nb.block.implied_type().has_dynamic();
            let info = |p: &mut Program| {
                p.blocks.push(BlockInfo {
                    name: nb.type_name.as_str().into(),
                    min: nb.min_items,
                    max: nb.max_items,
                });
                (p.blocks.len() - 1) as u32
            };
            let (node, empty) = match nb.nesting {
                Nesting::Single => (self.add_block(&nb.block), Empty::Null),
                Nesting::Group => {
                    let object = self.add_block(&nb.block);
                    (self.push(Node::Group { object }), Empty::Group(object))
                }
                Nesting::List | Nesting::Map if dynamic => {
                    // Terraform's implied type: blocks whose contents may differ in type are a
                    // tuple (LIST) or an object (MAP) — `dynamic` on the wire.
                    let empty = if nb.nesting == Nesting::List {
                        Empty::Tuple
                    } else {
                        Empty::Object
                    };
                    (self.push(Node::Dynamic), empty)
                }
                Nesting::List => {
                    let elem = self.add_block(&nb.block);
                    let block = info(self);
                    (
                        self.push(Node::List {
                            elem,
                            dynamic: false,
                            block,
                        }),
                        Empty::List,
                    )
                }
                Nesting::Set => {
                    let elem = self.add_block(&nb.block);
                    let block = info(self);
                    (
                        self.push(Node::Set {
                            elem,
                            dynamic,
                            block,
                        }),
                        Empty::Set,
                    )
                }
                Nesting::Map => {
                    let elem = self.add_block(&nb.block);
                    (
                        self.push(Node::Map {
                            elem,
                            dynamic: false,
                        }),
                        Empty::Map,
                    )
                }
            };
            entries.push((&nb.type_name, node, empty));
        }
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let start = self.attrs.len() as u32;
        let len = entries.len() as u32;
        self.attrs
            .extend(entries.into_iter().map(|(name, node, empty)| AttrNode {
                name: name.into(),
                key: encoded_key(name),
                json_key: json_key(name),
                node,
                leaf: Leaf::of(self.nodes[node as usize]),
                optional: false,
                empty,
            }));
        self.push(Node::Object { start, len })
    }

    /// The count constraints of a nested block type's list or set.
    #[inline]
    pub(crate) fn block(&self, index: u32) -> Option<&BlockInfo> {
        self.blocks.get(index as usize)
    }

    /// The type constraint the program decodes.
    pub fn ty(&self) -> Type {
        self.type_of(self.root)
    }

    /// The type constraint the program decodes, built in `bump`: [`Program::ty`] without the
    /// owned type (no sorting, names borrowed from the program), for callers that need it
    /// once a value.
    ///
    /// ```
    /// let program = tfwire::Program::compile(&tfwire::Type::from_json(r#"["object",{"b":"number","a":["list","string"]}]"#)?);
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(program.ty_in(&bump).to_type(), program.ty());
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn ty_in<'a>(&'a self, bump: &'a bumpalo::Bump) -> Ty<'a> {
        match self.try_node_ty(self.root, bump) {
            Some(ty) => ty,
            None => self.ty().to_ty(bump),
        }
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
            Node::Group { object } => self.type_of(object),
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
            Node::Group { object } => self.try_node_ty(object, bump)?,
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
                Node::List {
                    elem,
                    dynamic,
                    block,
                }
                | Node::Set {
                    elem,
                    dynamic,
                    block,
                } => {
                    let kind = if matches!(n, Node::List { .. }) {
                        "list"
                    } else {
                        "set"
                    };
                    write!(
                        f,
                        "{kind} of #{elem}{}",
                        if dynamic { " (unify)" } else { "" }
                    )?;
                    if let Some(b) = self.block(block) {
                        write!(f, " (blocks \"{}\", {}..", b.name, b.min)?;
                        if b.max > 0 {
                            write!(f, "{}", b.max)?;
                        }
                        f.write_str(")")?;
                    }
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
                        tfwire_json::write_safe_str(f, &a.name)?;
                        write!(
                            f,
                            ": #{}{}",
                            a.node,
                            if a.optional { " (optional)" } else { "" }
                        )?;
                    }
                    f.write_str("}")?;
                }
                Node::Group { object } => write!(f, "group block #{object}")?,
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
