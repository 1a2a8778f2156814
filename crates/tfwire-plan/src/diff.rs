//! [`Diff`]: the attribute-level difference between the two sides of a change, over the
//! merged views (so each node knows whether it is unknown or sensitive).

use crate::change::Change;
use crate::json::Json;
use crate::merged::{Mark, Merged};
use crate::{Path, PathStep};
use core::fmt;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use tfwire_json::{Escape, JsonWriter};

/// What happens to one node of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiffOp {
    /// The same on both sides.
    NoOp,
    /// Absent (or `null`) before, present after.
    Create,
    /// Present on both sides, different (or unknown after).
    Update,
    /// Present before, absent (or `null`) after.
    Delete,
}

impl DiffOp {
    /// The op of a node whose op so far is `self` (the op it starts from, then folded
    /// with its earlier children's), given its next child's `next`: an unchanged child
    /// changes nothing, a child with the same op keeps it, and any other makes the node an
    /// update. This is how OpenTofu's and Terraform's renderers fold the children of a
    /// block or a collection into its op.
    ///
    /// ```
    /// use tfwire_plan::DiffOp;
    /// assert_eq!(DiffOp::Create.combine(DiffOp::NoOp), DiffOp::Create);
    /// assert_eq!(DiffOp::Create.combine(DiffOp::Create), DiffOp::Create);
    /// assert_eq!(DiffOp::Create.combine(DiffOp::Delete), DiffOp::Update);
    /// assert_eq!(DiffOp::NoOp.combine(DiffOp::Create), DiffOp::Update);
    /// ```
    #[must_use]
    #[inline]
    pub fn combine(self, next: DiffOp) -> DiffOp {
        if next == DiffOp::NoOp || self == next {
            self
        } else {
            DiffOp::Update
        }
    }

    /// The op's name: `no_op`, `create`, `update`, `delete`.
    pub fn name(self) -> &'static str {
        match self {
            DiffOp::NoOp => "no_op",
            DiffOp::Create => "create",
            DiffOp::Update => "update",
            DiffOp::Delete => "delete",
        }
    }
}

/// How a [`Diff`] node is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A single value: a scalar, `null`, an unknown or sensitive value, an empty
    /// container, or two sides of different shapes.
    Leaf,
    /// An object (or map) compared member by member: see [`Diff::children`].
    Object,
    /// An array (list, set or tuple) compared element by element, by position.
    Array,
}

/// The difference between two values, node by node.
///
/// A node whose two sides are objects (or both arrays) and neither wholly unknown nor
/// wholly sensitive has [`Diff::children`]; any other node is a leaf. A side that is
/// absent or `null` counts as absent. Arrays are compared by position (plan JSON does not
/// say which arrays are sets).
///
/// ```
/// use tfwire_plan::{Diff, DiffOp};
/// let mut input = br#"{"resource_changes":[{"address":"aws_instance.a","mode":"managed",
///   "type":"aws_instance","name":"a","change":{"actions":["update"],
///   "before":{"ami":"ami-1","id":"i-1","tags":{"env":"dev"},"pw":"x"},
///   "after":{"ami":"ami-2","tags":{"env":"dev"},"pw":"y"},
///   "after_unknown":{"id":true,"tags":{}},
///   "before_sensitive":{"pw":true},"after_sensitive":{"pw":true}}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let plan = tape.plan(&arena)?;
/// let diff = Diff::of(&plan.resource_changes[0].change);
/// assert_eq!(diff.op, DiffOp::Update);
/// let changed: Vec<String> = diff.changes().iter().map(|(p, op, _)| format!("{p} {}", op.name())).collect();
/// assert_eq!(changed, [".ami update", ".id update", ".pw update"]);
/// let id = &diff.children[1].1;
/// assert!(id.after.unwrap().is_unknown());
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Diff<'a> {
    /// What happens to this node.
    pub op: DiffOp,
    /// Whether the node has children.
    pub shape: Shape,
    /// The node before (`None`: absent or `null`).
    pub before: Option<Merged<'a>>,
    /// The node after (`None`: absent or `null`; unknown values are present).
    pub after: Option<Merged<'a>>,
    /// Whether a change to this node forces the resource to be replaced (it is one of the
    /// change's `replace_paths`).
    pub forces_replacement: bool,
    /// The members (object: before's members in order, then members new after) or
    /// elements (array) of a non-leaf node.
    pub children: Vec<(PathStep<'a>, Diff<'a>)>,
}

impl<'a> Diff<'a> {
    /// The difference between `before` and `after` of a change, with its `replace_paths`
    /// marked.
    pub fn of(change: &Change<'a>) -> Diff<'a> {
        let replace: Vec<Path<'a>> = change.replace_paths.iter().map(|p| p.to_path()).collect();
        Diff::between(
            Some(change.before_view()),
            Some(change.after_view()),
            &replace,
        )
    }

    /// The difference between two merged views; nodes at `replace_paths` are marked
    /// [`Diff::forces_replacement`]. Pass the same view twice to lay out a single value
    /// (every node is then [`DiffOp::NoOp`]).
    pub fn between(
        before: Option<Merged<'a>>,
        after: Option<Merged<'a>>,
        replace_paths: &[Path<'_>],
    ) -> Diff<'a> {
        let mut path = Path::root();
        let replace: HashSet<&[PathStep<'_>]> = replace_paths.iter().map(|p| p.steps()).collect();
        build(before, after, &mut path, &replace)
    }

    /// Whether this node is a leaf with a sensitive side: anything at or below `before` or
    /// `after` is marked sensitive. Both sides of such a leaf are then hidden, as Terraform
    /// hides them: showing the side that is not marked would show what the other one is
    /// (a value made sensitive, a secret being replaced).
    pub fn is_sensitive(&self) -> bool {
        self.shape == Shape::Leaf
            && (self.before.is_some_and(|m| m.has_sensitive())
                || self.after.is_some_and(|m| m.has_sensitive()))
    }

    /// Whether this node and everything below it is unchanged.
    pub fn is_unchanged(&self) -> bool {
        self.op == DiffOp::NoOp
    }

    /// The changed nodes, outermost first: a created, deleted or updated leaf, or a
    /// created or deleted container (whose members are not listed), with its path and
    /// whether it forces replacement.
    pub fn changes(&self) -> Vec<(Path<'a>, DiffOp, bool)> {
        let mut out = Vec::new();
        let mut path = Path::root();
        self.collect(&mut path, &mut out);
        out
    }

    fn collect(&self, path: &mut Path<'a>, out: &mut Vec<(Path<'a>, DiffOp, bool)>) {
        match self.op {
            DiffOp::NoOp => {}
            DiffOp::Update if !self.children.is_empty() => {
                for (step, child) in &self.children {
                    path.push(step.clone());
                    child.collect(path, out);
                    path.pop();
                }
            }
            op => out.push((path.clone(), op, self.subtree_forces())),
        }
    }

    /// Whether this node or one below it forces replacement.
    pub fn subtree_forces(&self) -> bool {
        self.forces_replacement || self.children.iter().any(|(_, c)| c.subtree_forces())
    }

    /// Writes the diff as JSON: `{"op", "forces_replacement" (if so), and either
    /// "attributes": {name: node} / "elements": [node] for a container, or for a leaf
    /// "before" and "after" (the value, `null` when absent), with "after_unknown": true
    /// instead of "after" for a value known only after apply and "before_sensitive" /
    /// "after_sensitive": true instead of a sensitive value, which is never written; when
    /// one side of a leaf is sensitive, both are (see [`Diff::is_sensitive`])}`.
    pub fn write_json(&self, out: &mut impl fmt::Write) -> fmt::Result {
        self.write_node(&mut JsonWriter::new(out, Escape::Safe))
    }

    fn write_node<W: fmt::Write>(&self, w: &mut JsonWriter<W>) -> fmt::Result {
        w.begin_object()?;
        w.member_str("op", self.op.name())?;
        if self.forces_replacement {
            w.member_bool("forces_replacement", true)?;
        }
        match self.shape {
            Shape::Object => {
                w.key("attributes")?;
                w.begin_object()?;
                for (step, child) in &self.children {
                    w.key(step.name().unwrap_or_default())?;
                    child.write_node(w)?;
                }
                w.end_object()?;
            }
            Shape::Array => {
                w.key("elements")?;
                w.begin_array()?;
                for (_, child) in &self.children {
                    child.write_node(w)?;
                }
                w.end_array()?;
            }
            Shape::Leaf => {
                let sensitive = self.is_sensitive();
                write_side(w, "before", self.before, sensitive)?;
                write_side(w, "after", self.after, sensitive)?;
            }
        }
        w.end_object()
    }

    /// [`Diff::write_json`] into a string.
    pub fn to_json(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_json(&mut s);
        s
    }
}

/// One side (`before` or `after`) of a leaf; `sensitive`: the leaf has a sensitive side, so
/// both are hidden.
fn write_side<W: fmt::Write>(
    w: &mut JsonWriter<W>,
    name: &str,
    side: Option<Merged<'_>>,
    sensitive: bool,
) -> fmt::Result {
    let (unknown_key, sensitive_key) = if name == "before" {
        ("before_unknown", "before_sensitive")
    } else {
        ("after_unknown", "after_sensitive")
    };
    match side {
        Some(m) if m.is_unknown() => w.member_bool(unknown_key, true),
        Some(m) if sensitive || m.has_sensitive() => w.member_bool(sensitive_key, true),
        Some(m) => {
            w.key(name)?;
            match m.raw_value() {
                // The document's own value, as its parser read it.
                Some(v) => w.raw(&v.to_string()),
                None => w.null(),
            }
        }
        None => {
            w.key(name)?;
            w.null()
        }
    }
}

/// Whether a side exists: a non-null value, or something unknown.
fn present(m: &Merged<'_>) -> bool {
    m.is_unknown() || m.raw_value().is_some_and(|v| !v.is_null()) || m.has_unknown()
}

fn shape(m: &Merged<'_>) -> Shape {
    if m.is_unknown() || m.is_sensitive() {
        return Shape::Leaf;
    }
    let of = |v: Json<'_>| {
        if v.as_object().is_some() {
            Shape::Object
        } else if v.as_array().is_some() {
            Shape::Array
        } else {
            Shape::Leaf
        }
    };
    match m.raw_value().filter(|v| !v.is_null()) {
        Some(v) => of(v),
        None => match m.unknown_mark() {
            Mark::Tree(t) => of(t),
            Mark::All(_) => Shape::Leaf,
        },
    }
}

fn build<'a>(
    before: Option<Merged<'a>>,
    after: Option<Merged<'a>>,
    path: &mut Path<'a>,
    replace_paths: &HashSet<&[PathStep<'_>]>,
) -> Diff<'a> {
    let before = before.filter(present);
    let after = after.filter(present);
    let forces_replacement = replace_paths.contains(path.steps());
    let (sb, sa) = (
        before.as_ref().map_or(Shape::Leaf, shape),
        after.as_ref().map_or(Shape::Leaf, shape),
    );
    let mut diff = Diff {
        op: DiffOp::NoOp,
        shape: Shape::Leaf,
        before,
        after,
        forces_replacement,
        children: Vec::new(),
    };
    match (before, after) {
        (None, None) => {}
        (Some(b), None) => {
            diff.op = DiffOp::Delete;
            diff.shape = sb;
            diff.children = children(Some(b), None, sb, path, replace_paths);
        }
        (None, Some(a)) => {
            diff.op = DiffOp::Create;
            diff.shape = sa;
            diff.children = children(None, Some(a), sa, path, replace_paths);
        }
        (Some(b), Some(a)) if sb == sa && sb != Shape::Leaf => {
            diff.shape = sb;
            diff.children = children(Some(b), Some(a), sb, path, replace_paths);
            if diff.children.iter().any(|(_, c)| c.op != DiffOp::NoOp) {
                diff.op = DiffOp::Update;
            }
        }
        (Some(b), Some(a)) => {
            let same = !a.is_unknown()
                && !a.has_unknown()
                && b.raw_value() == a.raw_value()
                && b.sensitive_mark().any() == a.sensitive_mark().any();
            if !same {
                diff.op = DiffOp::Update;
            }
        }
    }
    diff
}

fn children<'a>(
    before: Option<Merged<'a>>,
    after: Option<Merged<'a>>,
    shape: Shape,
    path: &mut Path<'a>,
    replace_paths: &HashSet<&[PathStep<'_>]>,
) -> Vec<(PathStep<'a>, Diff<'a>)> {
    let mut out = Vec::new();
    match shape {
        Shape::Leaf => {}
        Shape::Object => {
            // Each side's children once, by key (not looked up member by member, which
            // is quadratic in the width of the object).
            let mut keys: Vec<Cow<'a, str>> = Vec::new();
            let mut sides: [HashMap<Cow<'a, str>, Merged<'a>>; 2] = Default::default();
            for (side, found) in [before, after].into_iter().zip(&mut sides) {
                for (step, m) in side.map(|s| s.children()).unwrap_or_default() {
                    if let PathStep::Attr(k) | PathStep::Key(k) = step {
                        keys.push(k.clone());
                        found.insert(k, m);
                    }
                }
            }
            let mut seen: HashSet<Cow<'a, str>> = HashSet::new();
            keys.retain(|k| seen.insert(k.clone()));
            for k in keys {
                let b = sides[0].get(&k).copied();
                let a = sides[1].get(&k).copied();
                path.push(PathStep::Attr(k.clone()));
                // Recursion is bounded by the parser's depth limit.
                let child = build(b, a, path, replace_paths);
                path.pop();
                out.push((PathStep::Attr(k), child));
            }
        }
        Shape::Array => {
            let elements = |m: Option<Merged<'a>>| -> Vec<Option<Merged<'a>>> {
                let children = m.map(|m| m.children()).unwrap_or_default();
                let mut out = vec![None; children.len()];
                for (step, c) in children {
                    if let PathStep::Index(i) = step
                        && let Some(slot) = usize::try_from(i).ok().and_then(|i| out.get_mut(i))
                    {
                        *slot = Some(c);
                    }
                }
                out
            };
            let (bs, as_) = (elements(before), elements(after));
            let n = bs.len().max(as_.len());
            for i in 0..n {
                let b = bs.get(i).copied().flatten();
                let a = as_.get(i).copied().flatten();
                path.push(PathStep::Index(i as u64));
                let child = build(b, a, path, replace_paths);
                path.pop();
                out.push((PathStep::Index(i as u64), child));
            }
        }
    }
    out
}
