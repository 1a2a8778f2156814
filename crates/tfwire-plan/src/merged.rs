//! The merged view of a value: known or unknown, sensitive or not, at every node.
//!
//! A change carries its planned value in three parallel trees: `after` (the known parts),
//! `after_unknown` and `after_sensitive` (markers). A marker tree is `true` for a whole
//! subtree, `false` (or absent, or `null`) for none of it, or an object/array mirroring the
//! value whose leaves say which members are marked. [`Merged`] walks the three together, so
//! each node answers "unknown?", "sensitive?" and "value?" without re-implementing the
//! alignment (where tools usually go wrong: a `true` high up covers everything below it, an
//! unknown member may be missing from `after` altogether, `false` is a valid marker tree).

use crate::json::Json;
use crate::{Path, PathStep};
use std::borrow::Cow;
use std::collections::HashMap;
use tfwire::TypedJson as _;

/// A marker tree (`after_unknown`, `after_sensitive`, `before_sensitive`,
/// `sensitive_values`) at one node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark<'a> {
    /// The whole subtree is marked (`true`) or unmarked (`false`, `null`, absent).
    All(bool),
    /// An object or array mirroring the value: look at the members.
    Tree(Json<'a>),
}

impl<'a> Mark<'a> {
    /// Reads a marker tree: `true` marks all; `false`, `null` or absent mark nothing; an
    /// object or array is a tree. Anything else (a string such as `"true"` or `"yes"`, a
    /// number) is not a marker tfwire can read, and fails closed: it marks the whole
    /// subtree, so a malformed `after_sensitive` hides a value rather than shows it.
    pub fn from_json(v: Option<Json<'a>>) -> Mark<'a> {
        match v {
            None => Mark::All(false),
            Some(v) if v.is_null() => Mark::All(false),
            Some(v) if v.as_object().is_some() || v.as_array().is_some() => Mark::Tree(v),
            Some(v) => Mark::All(v.as_bool() != Some(false)),
        }
    }

    /// Whether this node (and so its whole subtree) is marked.
    pub fn is_all(&self) -> bool {
        matches!(self, Mark::All(true))
    }

    /// Whether anything at or below this node is marked (a malformed leaf counts as
    /// marked, as in [`Mark::from_json`]).
    pub fn any(&self) -> bool {
        match self {
            Mark::All(b) => *b,
            Mark::Tree(t) => tree_any(*t),
        }
    }

    /// The marker of a member. A tree that is an array where an object is looked into
    /// does not fit the value: the member is marked (fail closed).
    pub fn member(&self, key: &str) -> Mark<'a> {
        match self {
            Mark::All(b) => Mark::All(*b),
            Mark::Tree(t) if t.as_object().is_some() => Mark::from_json(t.get(key)),
            Mark::Tree(_) => Mark::All(true),
        }
    }

    /// The marker of an element. A tree that is an object where an array is looked into
    /// does not fit the value: the element is marked (fail closed).
    pub fn element(&self, i: usize) -> Mark<'a> {
        match self {
            Mark::All(b) => Mark::All(*b),
            Mark::Tree(t) if t.as_array().is_some() => Mark::from_json(t.index(i)),
            Mark::Tree(_) => Mark::All(true),
        }
    }

    /// This marker as a sensitivity marker of `value`: a tree whose shape is not the
    /// value's (an object tree on an array or a scalar, an array tree on an object or a
    /// scalar) cannot say which parts are sensitive, so it marks the whole value. An
    /// absent or `null` value keeps its tree (an unknown collection's markers are `{}` or
    /// `[]`).
    fn fit(self, value: Option<Json<'a>>) -> Mark<'a> {
        let (Mark::Tree(t), Some(v)) = (self, value) else {
            return self;
        };
        let fits = v.is_null()
            || (t.as_object().is_some() && v.as_object().is_some())
            || (t.as_array().is_some() && v.as_array().is_some());
        if fits { self } else { Mark::All(true) }
    }

    fn step(&self, step: &PathStep<'_>) -> Mark<'a> {
        match step {
            PathStep::Attr(k) | PathStep::Key(k) => self.member(k),
            PathStep::Index(i) => usize::try_from(*i).map_or(Mark::All(false), |i| self.element(i)),
        }
    }
}

/// One node of a value with its unknown and sensitive markers.
///
/// ```
/// use tfwire_plan::Path;
/// let mut input = br#"{"resource_changes":[{"address":"aws_instance.a","mode":"managed",
///   "type":"aws_instance","name":"a","change":{"actions":["create"],
///   "before":null,
///   "after":{"ami":"ami-1","tags":{"env":"prod"},"ingress":[{"cidr_blocks":["10.0.0.0/8"]}]},
///   "after_unknown":{"id":true,"ingress":[{"cidr_blocks":[false]}],"tags":{}},
///   "before_sensitive":false,
///   "after_sensitive":{"tags":{"env":true},"ingress":[{}]}}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let plan = tape.plan(&arena)?;
/// let after = plan.resource_changes[0].change.after_view();
///
/// let id = after.at(&Path::parse(".id")?).unwrap();
/// assert!(id.is_unknown() && id.value().is_none());      // absent from `after`
///
/// let env = after.at(&Path::parse(r#".tags["env"]"#)?).unwrap();
/// assert!(env.is_sensitive() && !env.is_unknown());
/// assert_eq!(env.value().unwrap().as_str(), Some("prod"));
///
/// let cidr = after.at(&Path::parse(".ingress[0].cidr_blocks[0]")?).unwrap();
/// assert!(!cidr.is_unknown() && !cidr.is_sensitive());
///
/// let mut leaves = Vec::new();
/// after.for_each_leaf(|path, leaf| leaves.push(format!("{path} {} {}", leaf.is_unknown(), leaf.is_sensitive())));
/// assert_eq!(leaves, [".ami false false", ".tags.env false true",
///                     ".ingress[0].cidr_blocks[0] false false", ".id true false"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Merged<'a> {
    value: Option<Json<'a>>,
    unknown: Mark<'a>,
    sensitive: Mark<'a>,
}

impl<'a> Merged<'a> {
    /// Combines a value with its markers. A sensitivity marker that does not fit the
    /// value's shape marks the whole value (see [`Mark::from_json`]: markers fail closed).
    pub fn new(value: Option<Json<'a>>, unknown: Mark<'a>, sensitive: Mark<'a>) -> Merged<'a> {
        Merged {
            value,
            unknown,
            sensitive: sensitive.fit(value),
        }
    }

    /// Whether this whole node is unknown until apply.
    pub fn is_unknown(&self) -> bool {
        self.unknown.is_all()
    }

    /// Whether this whole node is sensitive.
    pub fn is_sensitive(&self) -> bool {
        self.sensitive.is_all()
    }

    /// Whether anything at or below this node is unknown.
    pub fn has_unknown(&self) -> bool {
        self.unknown.any()
    }

    /// Whether anything at or below this node is sensitive.
    pub fn has_sensitive(&self) -> bool {
        self.sensitive.any()
    }

    /// The known value: `None` when the node is unknown or absent (`Some(null)` for an
    /// explicit `null`). A sensitive value is returned too: check
    /// [`Merged::is_sensitive`] before showing it.
    pub fn value(&self) -> Option<Json<'a>> {
        if self.is_unknown() {
            return None;
        }
        self.value
    }

    /// The value as written, even where the node is marked unknown (Terraform writes
    /// `null` or leaves it out there).
    pub fn raw_value(&self) -> Option<Json<'a>> {
        self.value
    }

    /// The unknown marker at this node.
    pub fn unknown_mark(&self) -> Mark<'a> {
        self.unknown
    }

    /// The sensitive marker at this node.
    pub fn sensitive_mark(&self) -> Mark<'a> {
        self.sensitive
    }

    /// Whether the node exists: it has a value, or something in it is unknown.
    fn exists(&self) -> bool {
        self.value.is_some() || !matches!(self.unknown, Mark::All(false))
    }

    /// The member `key` of an object node (an unknown node's members are unknown).
    pub fn member(&self, key: &str) -> Option<Merged<'a>> {
        let child = Merged::new(
            self.value.and_then(|v| v.get(key)),
            self.unknown.member(key),
            self.sensitive.member(key),
        );
        child.exists().then_some(child)
    }

    /// The element `i` of an array node (an unknown node's elements are unknown).
    pub fn element(&self, i: usize) -> Option<Merged<'a>> {
        let child = Merged::new(
            self.value.and_then(|v| v.index(i)),
            self.unknown.element(i),
            self.sensitive.element(i),
        );
        child.exists().then_some(child)
    }

    /// The node at `path`; `None` where nothing exists (a missing key or index of a known
    /// value). Inside an unknown node every path exists and is unknown.
    pub fn at(&self, path: &Path<'_>) -> Option<Merged<'a>> {
        let mut node = *self;
        for step in path.steps() {
            node = Merged::new(
                node.value.and_then(|v| v.child(step)),
                node.unknown.step(step),
                node.sensitive.step(step),
            );
            if !node.exists() {
                return None;
            }
        }
        Some(node)
    }

    /// The children of an object or array node, in order: the value's members (or
    /// elements), then members only the unknown tree names (unknown values that `after`
    /// leaves out). A wholly unknown node has no children: nothing is known of its shape.
    ///
    /// O(n) in the number of children: the members of the value and of its markers are
    /// indexed once, not looked up one by one.
    pub fn children(&self) -> Vec<(PathStep<'a>, Merged<'a>)> {
        let mut out = Vec::new();
        if self.is_unknown() {
            return out;
        }
        let tree = match self.unknown {
            Mark::Tree(t) => Some(t),
            Mark::All(_) => None,
        };
        let value = Index::of(self.value);
        let unknown = Index::of_mark(self.unknown);
        let sensitive = Index::of_mark(self.sensitive);
        let member = |k: &str| {
            let child = Merged::new(
                value.key(k),
                unknown.mark_member(self.unknown, k),
                sensitive.mark_member(self.sensitive, k),
            );
            child.exists().then_some(child)
        };
        let element = |i: usize| {
            let child = Merged::new(
                value.index(i),
                unknown.mark_element(self.unknown, i),
                sensitive.mark_element(self.sensitive, i),
            );
            child.exists().then_some(child)
        };
        if let Some(obj) = self.value.and_then(|v| v.as_object()) {
            for (k, _) in obj.iter() {
                if let Some(m) = member(k) {
                    out.push((PathStep::Attr(Cow::Borrowed(k)), m));
                }
            }
            if let Some(t) = tree.and_then(|t| t.as_object()) {
                for (k, _) in t.iter() {
                    if value.key(k).is_none()
                        && let Some(m) = member(k)
                    {
                        out.push((PathStep::Attr(Cow::Borrowed(k)), m));
                    }
                }
            }
        } else if let Some(arr) = self.value.and_then(|v| v.as_array()) {
            let n = arr
                .len()
                .max(tree.and_then(|t| t.as_array()).map_or(0, |t| t.len()));
            for i in 0..n {
                if let Some(m) = element(i) {
                    out.push((PathStep::Index(i as u64), m));
                }
            }
        } else if let Some(t) = tree {
            // No value here (absent or null) but a tree of unknowns: take its shape.
            if let Some(obj) = t.as_object() {
                for (k, _) in obj.iter() {
                    if let Some(m) = member(k) {
                        out.push((PathStep::Attr(Cow::Borrowed(k)), m));
                    }
                }
            } else if let Some(arr) = t.as_array() {
                for i in 0..arr.len() {
                    if let Some(m) = element(i) {
                        out.push((PathStep::Index(i as u64), m));
                    }
                }
            }
        }
        out
    }

    /// Whether this node has no children: a scalar, `null`, an empty container, or an
    /// unknown node.
    pub fn is_leaf(&self) -> bool {
        self.is_unknown() || self.children().is_empty()
    }

    /// Calls `f` for every leaf (see [`Merged::is_leaf`]) in document order, with its path.
    pub fn for_each_leaf(&self, mut f: impl FnMut(&Path<'a>, &Merged<'a>)) {
        let mut path = Path::root();
        self.walk(&mut path, &mut f);
    }

    fn walk(&self, path: &mut Path<'a>, f: &mut impl FnMut(&Path<'a>, &Merged<'a>)) {
        let children = self.children();
        if children.is_empty() {
            f(path, self);
            return;
        }
        // Recursion is bounded by the parser's depth limit.
        for (step, child) in children {
            path.push(step);
            child.walk(path, f);
            path.pop();
        }
    }
}

/// Whether a marker tree marks anything: a `true` leaf, or a leaf that is not a marker
/// (see [`Mark::from_json`]). Recursion is bounded by the parser's depth limit.
/// A container's children, indexed once: an object's members by key (the last of a
/// repeated key, as [`Json::get`] finds), an array's elements by position.
enum Index<'a> {
    None,
    Object(HashMap<&'a str, Json<'a>>),
    Array(Vec<Json<'a>>),
}

impl<'a> Index<'a> {
    fn of(v: Option<Json<'a>>) -> Index<'a> {
        let Some(v) = v else { return Index::None };
        if let Some(o) = v.as_object() {
            Index::Object(o.iter().collect())
        } else if let Some(a) = v.as_array() {
            Index::Array(a.iter().collect())
        } else {
            Index::None
        }
    }

    fn of_mark(m: Mark<'a>) -> Index<'a> {
        match m {
            Mark::Tree(t) => Index::of(Some(t)),
            Mark::All(_) => Index::None,
        }
    }

    fn key(&self, k: &str) -> Option<Json<'a>> {
        match self {
            Index::Object(m) => m.get(k).copied(),
            _ => None,
        }
    }

    fn index(&self, i: usize) -> Option<Json<'a>> {
        match self {
            Index::Array(es) => es.get(i).copied(),
            _ => None,
        }
    }

    /// [`Mark::member`] of `mark`, this being `mark`'s index.
    fn mark_member(&self, mark: Mark<'a>, k: &str) -> Mark<'a> {
        match (mark, self) {
            (Mark::All(b), _) => Mark::All(b),
            (Mark::Tree(_), Index::Object(_)) => Mark::from_json(self.key(k)),
            (Mark::Tree(_), _) => Mark::All(true),
        }
    }

    /// [`Mark::element`] of `mark`, this being `mark`'s index.
    fn mark_element(&self, mark: Mark<'a>, i: usize) -> Mark<'a> {
        match (mark, self) {
            (Mark::All(b), _) => Mark::All(b),
            (Mark::Tree(_), Index::Array(_)) => Mark::from_json(self.index(i)),
            (Mark::Tree(_), _) => Mark::All(true),
        }
    }
}

fn tree_any(t: Json<'_>) -> bool {
    if let Some(o) = t.as_object() {
        o.iter().any(|(_, v)| tree_any(v))
    } else if let Some(a) = t.as_array() {
        a.iter().any(tree_any)
    } else {
        Mark::from_json(Some(t)).is_all()
    }
}
