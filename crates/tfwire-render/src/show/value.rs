//! One value's change as the differ walks it: the before and after values, which parts are
//! unknown or sensitive, and which paths force replacement or are relevant to drift.

use super::node::Node;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use tfwire_plan::{Array, DiffOp, Json, JsonKind};

/// A value, `None` when null or absent (the renderer does not tell the two apart, except
/// through the `*_explicit` flags of [`Val`]).
pub(crate) type V<'a> = Option<Node<'a>>;

/// `Some` unless `v` is null.
pub(crate) fn non_null(v: Option<Node<'_>>) -> V<'_> {
    v.filter(|j| !j.is_null())
}

/// A document's value as the renderer walks it: `Some` unless absent or null.
pub(crate) fn json(v: Option<Json<'_>>) -> V<'_> {
    non_null(v.map(Node::Json))
}

/// The value of JSON text the clients decode themselves (a string holding JSON), as
/// [`Node::Written`]: its numbers as written.
pub(crate) fn written(v: Option<Json<'_>>) -> V<'_> {
    non_null(v.map(Node::Written))
}

/// Whose `show` a plan is drawn like: OpenTofu's and Terraform's renderers share their
/// layout but differ in a few rules (how lists are aligned, which empty strings count as
/// null, write-only attributes, wholly unknown blocks, forgotten resources).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// OpenTofu v1.12's `tofu show`.
    #[default]
    OpenTofu,
    /// Terraform v1.16's `terraform show`.
    Terraform,
}

/// The change to one value.
pub(crate) struct Val<'a> {
    pub(crate) before: V<'a>,
    pub(crate) after: V<'a>,
    /// The value was present in its parent (a map key or a list element), even if null.
    pub(crate) before_explicit: bool,
    pub(crate) after_explicit: bool,
    /// `true`, or a tree of `true` leaves (`after_unknown`).
    pub(crate) unknown: Unknown<'a>,
    pub(crate) before_sensitive: V<'a>,
    pub(crate) after_sensitive: V<'a>,
    pub(crate) replace: Matcher<'a>,
    pub(crate) relevant: Matcher<'a>,
    /// Whose rules the differ follows for this value.
    pub(crate) dialect: Dialect,
    /// Terraform: the resource's schema uses something the legacy SDK cannot express, so
    /// an empty string is not taken for null. Inherited by the members of an object or
    /// map, not by the elements of a list or set, nor by the derived values
    /// ([`Val::as_noop`] and the like), as Terraform's renderer carries it.
    pub(crate) non_legacy: bool,
    /// The lookups of [`Val::member`] and [`Val::element`], built on their first call so
    /// that a container's children are found in O(1) each, not by scanning (which made
    /// drawing a value quadratic in its width). Not carried over by `Clone`, since the
    /// clone's fields may be changed.
    pub(crate) children: Children<'a>,
}

impl Clone for Val<'_> {
    fn clone(&self) -> Self {
        Val {
            before: self.before,
            after: self.after,
            before_explicit: self.before_explicit,
            after_explicit: self.after_explicit,
            unknown: self.unknown,
            before_sensitive: self.before_sensitive,
            after_sensitive: self.after_sensitive,
            replace: self.replace.clone(),
            relevant: self.relevant.clone(),
            dialect: self.dialect,
            non_legacy: self.non_legacy,
            children: Children::default(),
        }
    }
}

/// The lazily built lookups of a [`Val`].
#[derive(Default)]
pub(crate) struct Children<'a>(std::cell::OnceCell<Box<Lookups<'a>>>);

/// One lookup per tree of a [`Val`], and the child steps of its matchers.
struct Lookups<'a> {
    before: Lookup<'a>,
    after: Lookup<'a>,
    unknown: Lookup<'a>,
    before_sensitive: Lookup<'a>,
    after_sensitive: Lookup<'a>,
    replace: MatcherSteps<'a>,
    relevant: MatcherSteps<'a>,
}

/// A container's children by key or by index: an object's members (the last of a repeated
/// key, as `Object::get` finds), an array's elements.
enum Lookup<'a> {
    None,
    Object(HashMap<&'a str, Node<'a>>),
    Array(Vec<Node<'a>>),
}

impl<'a> Lookup<'a> {
    fn of(v: V<'a>) -> Lookup<'a> {
        let Some(v) = v else { return Lookup::None };
        if let Some(o) = v.as_object() {
            return Lookup::Object(o.iter().collect());
        }
        if let Some(a) = v.as_array() {
            return Lookup::Array(a.iter().collect());
        }
        Lookup::None
    }

    fn key(&self, key: &str) -> Option<Node<'a>> {
        match self {
            Lookup::Object(m) => m.get(key).copied(),
            _ => None,
        }
    }

    fn index(&self, i: usize) -> Option<Node<'a>> {
        match self {
            Lookup::Array(es) => es.get(i).copied(),
            _ => None,
        }
    }
}

/// Which parts of a value are unknown.
#[derive(Clone, Copy)]
pub(crate) enum Unknown<'a> {
    /// Nothing is.
    None,
    /// As `after_unknown` says.
    Json(Json<'a>),
    /// Every member of the object is (but not the object itself).
    Members,
    /// The whole value is.
    All,
}

impl<'a> Unknown<'a> {
    fn of(v: Option<Json<'a>>) -> Unknown<'a> {
        v.map_or(Unknown::None, Unknown::Json)
    }

    /// The member `key`; `found` is what the tree's lookup finds there.
    fn member(self, found: Option<Node<'a>>) -> Unknown<'a> {
        match self {
            Unknown::Json(_) => Unknown::of_node(found),
            Unknown::Members => Unknown::All,
            Unknown::None | Unknown::All => Unknown::None,
        }
    }

    /// An element; `found` is what the tree's lookup finds there.
    fn element(self, found: Option<Node<'a>>) -> Unknown<'a> {
        match self {
            Unknown::Json(_) => Unknown::of_node(found),
            _ => Unknown::None,
        }
    }

    fn of_node(found: Option<Node<'a>>) -> Unknown<'a> {
        match found {
            Some(Node::Json(j)) if !j.is_null() => Unknown::Json(j),
            _ => Unknown::None,
        }
    }

    fn tree(self) -> V<'a> {
        match self {
            Unknown::Json(j) => Some(Node::Json(j)),
            _ => None,
        }
    }
}

/// Whether a sensitivity mark hides the whole `value` it covers: `true`, and (failing
/// closed) any mark tfwire cannot read for that value: a string or a number, an object of
/// marks on a value that is not an object or map, a list of marks on one that is not a
/// list. Only `false`, a missing mark, and a well-shaped tree leave the value shown.
fn hides(mark: V<'_>, value: V<'_>) -> bool {
    let Some(m) = mark else { return false };
    if let Some(b) = m.as_bool() {
        return b;
    }
    if m.as_object().is_some() {
        return value.is_some_and(|v| v.as_object().is_none());
    }
    if m.as_array().is_some() {
        return value.is_some_and(|v| v.as_array().is_none());
    }
    true
}

impl<'a> Val<'a> {
    /// A whole change (`before`, `after`, `after_unknown`, `*_sensitive`).
    ///
    /// Terraform draws a change that only forgets its object (`["forget"]`) as unchanged.
    pub(crate) fn of_change(
        c: &tfwire_plan::Change<'a>,
        relevant: Matcher<'a>,
        dialect: Dialect,
    ) -> Val<'a> {
        let v = Val {
            before: json(c.before),
            after: json(c.after),
            before_explicit: false,
            after_explicit: false,
            unknown: Unknown::of(c.after_unknown.filter(|j| !j.is_null())),
            before_sensitive: json(c.before_sensitive),
            after_sensitive: json(c.after_sensitive),
            replace: Matcher::paths(
                c.replace_paths.iter().map(|p| p.raw().as_array()).collect(),
                false,
            ),
            relevant,
            dialect,
            non_legacy: false,
            children: Children::default(),
        };
        if dialect == Dialect::Terraform && matches!(c.actions, [tfwire_plan::Action::Forget]) {
            return v.as_noop();
        }
        v
    }

    /// A value that does not change (a state's values, an action's configuration), with
    /// its sensitivity marks and the tree of its unknown parts.
    pub(crate) fn unchanged(
        values: V<'a>,
        sensitive: V<'a>,
        unknown: Option<Json<'a>>,
        dialect: Dialect,
    ) -> Val<'a> {
        Val {
            before: values,
            after: values,
            before_explicit: false,
            after_explicit: false,
            unknown: Unknown::of(unknown.filter(|j| !j.is_null())),
            before_sensitive: sensitive,
            after_sensitive: sensitive,
            replace: Matcher::paths(Vec::new(), false),
            relevant: Matcher::Always,
            dialect,
            non_legacy: false,
            children: Children::default(),
        }
    }

    pub(crate) fn is_unknown(&self) -> bool {
        match self.unknown {
            Unknown::All => true,
            Unknown::Json(j) => j.as_bool() == Some(true),
            Unknown::None | Unknown::Members => false,
        }
    }

    pub(crate) fn is_before_sensitive(&self) -> bool {
        hides(self.before_sensitive, self.before)
    }

    pub(crate) fn is_after_sensitive(&self) -> bool {
        hides(self.after_sensitive, self.after)
    }

    /// Create, delete, no-op or update, from the values alone.
    pub(crate) fn action(&self) -> DiffOp {
        let before_missing = self.before.is_none() && !self.before_explicit;
        let after_missing = self.after.is_none() && !self.after_explicit;
        if before_missing && !after_missing {
            return DiffOp::Create;
        }
        if after_missing && !before_missing {
            return DiffOp::Delete;
        }
        if deep_eq(self.before, self.after)
            && self.after_explicit == self.before_explicit
            && self.is_after_sensitive() == self.is_before_sensitive()
        {
            return DiffOp::NoOp;
        }
        DiffOp::Update
    }

    /// The starting action of a collection: create or delete when one side is null.
    pub(crate) fn default_iteration_action(&self) -> DiffOp {
        match (self.before, self.after) {
            (None, None) => DiffOp::NoOp,
            (None, _) => DiffOp::Create,
            (_, None) => DiffOp::Delete,
            _ => DiffOp::NoOp,
        }
    }

    /// The value itself when the drift being drawn may concern it (its relevance matcher
    /// matches it or something below it), else the value unchanged ([`Val::as_noop`]).
    pub(crate) fn noop_unless_relevant(self) -> Val<'a> {
        if self.relevant.matches_partial() {
            self
        } else {
            self.as_noop()
        }
    }

    pub(crate) fn as_noop(&self) -> Val<'a> {
        Val {
            before_explicit: self.before_explicit,
            after_explicit: self.before_explicit,
            before: self.before,
            after: self.before,
            unknown: Unknown::None,
            before_sensitive: self.before_sensitive,
            after_sensitive: self.before_sensitive,
            replace: self.replace.clone(),
            relevant: self.relevant.clone(),
            dialect: self.dialect,
            non_legacy: false,
            children: Children::default(),
        }
    }

    pub(crate) fn as_delete(&self) -> Val<'a> {
        Val {
            before_explicit: self.before_explicit,
            after_explicit: false,
            before: self.before,
            after: None,
            unknown: Unknown::None,
            before_sensitive: self.before_sensitive,
            after_sensitive: None,
            replace: self.replace.clone(),
            relevant: self.relevant.clone(),
            dialect: self.dialect,
            non_legacy: false,
            children: Children::default(),
        }
    }

    pub(crate) fn as_create(&self) -> Val<'a> {
        Val {
            before_explicit: false,
            after_explicit: self.after_explicit,
            before: None,
            after: self.after,
            unknown: self.unknown,
            before_sensitive: None,
            after_sensitive: self.after_sensitive,
            replace: self.replace.clone(),
            relevant: self.relevant.clone(),
            dialect: self.dialect,
            non_legacy: false,
            children: Children::default(),
        }
    }

    /// The same value with no sensitivity marks (inside a sensitive wrapper).
    pub(crate) fn without_sensitive(&self) -> Val<'a> {
        let mut v = self.clone();
        v.before_sensitive = None;
        v.after_sensitive = None;
        v.non_legacy = false;
        v
    }

    /// The lookups of this value's trees, built on first use.
    fn lookups(&self) -> &Lookups<'a> {
        self.children.0.get_or_init(|| {
            Box::new(Lookups {
                before: Lookup::of(self.before),
                after: Lookup::of(self.after),
                unknown: Lookup::of(self.unknown.tree()),
                before_sensitive: Lookup::of(self.before_sensitive),
                after_sensitive: Lookup::of(self.after_sensitive),
                replace: MatcherSteps::of(&self.replace),
                relevant: MatcherSteps::of(&self.relevant),
            })
        })
    }

    /// The member `key` of object (or map) values.
    pub(crate) fn member(&self, key: &str) -> Val<'a> {
        let l = self.lookups();
        let get = |t: &Lookup<'a>| -> (V<'a>, bool) {
            match t.key(key) {
                Some(j) => (non_null(Some(j)), true),
                None => (None, false),
            }
        };
        let (before, before_explicit) = get(&l.before);
        let (after, after_explicit) = get(&l.after);
        Val {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: self.unknown.member(l.unknown.key(key)),
            before_sensitive: get(&l.before_sensitive).0,
            after_sensitive: get(&l.after_sensitive).0,
            replace: self.replace.child_at(&l.replace, Step::Key(key)),
            relevant: self.relevant.child_at(&l.relevant, Step::Key(key)),
            dialect: self.dialect,
            non_legacy: self.non_legacy,
            children: Children::default(),
        }
    }

    /// Element `bi` of the before list and `ai` of the after list (either may be past the
    /// end: absent).
    pub(crate) fn element(&self, bi: usize, ai: usize) -> Val<'a> {
        let l = self.lookups();
        let get = |t: &Lookup<'a>, i: usize| -> (V<'a>, bool) {
            match t.index(i) {
                Some(j) => (non_null(Some(j)), true),
                None => (None, false),
            }
        };
        let (before, before_explicit) = get(&l.before, bi);
        let (after, after_explicit) = get(&l.after, ai);
        let relevant_ix = if bi < len(self.before) { bi } else { ai };
        Val {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: self.unknown.element(l.unknown.index(ai)),
            before_sensitive: get(&l.before_sensitive, bi).0,
            after_sensitive: get(&l.after_sensitive, ai).0,
            replace: self.replace.child_at(&l.replace, Step::Index(relevant_ix)),
            relevant: self
                .relevant
                .child_at(&l.relevant, Step::Index(relevant_ix)),
            dialect: self.dialect,
            non_legacy: false,
            children: Children::default(),
        }
    }

    /// The pairs of a set's elements shown unchanged: each before element (in order)
    /// takes the first after element not yet taken that is deep-equal, equally hidden by
    /// sensitivity, and known. Found through [`value_ids`] in O(size), with what OpenTofu's
    /// pairwise scan finds. Returns, per before element, its after element, and per after
    /// element, its before element.
    pub(crate) fn set_pairs(&self) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
        let (nb, na) = (len(self.before), len(self.after));
        let mut ids = HashMap::new();
        let before: Vec<Val<'a>> = (0..nb).map(|bi| self.element(bi, na)).collect();
        let after: Vec<Val<'a>> = (0..na).map(|ai| self.element(nb, ai)).collect();
        let ib = value_ids(before.iter().map(|c| c.before), &mut ids);
        let ia = value_ids(after.iter().map(|c| c.after), &mut ids);
        let mut waiting: HashMap<(u32, bool), VecDeque<usize>> = HashMap::new();
        for (ai, c) in after.iter().enumerate() {
            if !c.is_unknown() {
                waiting
                    .entry((ia[ai], c.is_after_sensitive()))
                    .or_default()
                    .push_back(ai);
            }
        }
        let mut found_before = vec![None; nb];
        let mut found_after = vec![None; na];
        for (bi, c) in before.iter().enumerate() {
            if let Some(ai) = waiting
                .get_mut(&(ib[bi], c.is_before_sensitive()))
                .and_then(|q| q.pop_front())
            {
                found_before[bi] = Some(ai);
                found_after[ai] = Some(bi);
            }
        }
        (found_before, found_after)
    }

    /// The keys of the before and after objects, deduplicated and sorted.
    pub(crate) fn explicit_keys(&self) -> Vec<&'a str> {
        keys(&[self.before, self.after])
    }

    /// The keys of every tree of this value (before, after, unknown, sensitivity).
    pub(crate) fn all_keys(&self) -> Vec<&'a str> {
        keys(&[
            self.before,
            self.after,
            self.unknown.tree(),
            self.after_sensitive,
            self.before_sensitive,
        ])
    }
}

fn keys<'a>(trees: &[V<'a>]) -> Vec<&'a str> {
    let mut out: Vec<&'a str> = trees
        .iter()
        .filter_map(|t| t.and_then(|j| j.as_object()))
        .flat_map(|o| o.iter().map(|(k, _)| k))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The length of an array value (0 otherwise).
pub(crate) fn len(v: V<'_>) -> usize {
    v.and_then(|j| j.as_array()).map_or(0, |a| a.len())
}

/// Whether `v` is an array (an empty one counts; null does not).
pub(crate) fn is_array(v: V<'_>) -> bool {
    v.is_some_and(|j| j.kind() == JsonKind::Array)
}

/// Whether `v` is an object.
pub(crate) fn is_object(v: V<'_>) -> bool {
    v.is_some_and(|j| j.kind() == JsonKind::Object)
}

/// Deep equality as the renderer compares values: objects regardless of member order,
/// numbers by their text.
pub(crate) fn deep_eq(a: V<'_>, b: V<'_>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => json_eq(a, b),
        _ => false,
    }
}

/// Appends to `out` a text that is the same for two values exactly when [`deep_eq`] holds
/// (objects with their members sorted by key, the last of a repeated key kept; numbers by
/// their text), so that the elements of a list or a set can be compared through a hash
/// map, in O(size), rather than pair by pair.
pub(crate) fn canonical(v: V<'_>, out: &mut String) {
    let Some(n) = v else {
        out.push('n');
        return;
    };
    match n.kind() {
        JsonKind::Null => out.push('n'),
        JsonKind::Bool => out.push(if n.as_bool() == Some(true) { 't' } else { 'f' }),
        JsonKind::Number => {
            let _ = write!(out, "#{};", n.compared_text());
        }
        JsonKind::String => {
            let text = n.as_str().unwrap_or_default();
            let _ = write!(out, "s{}:{text}", text.len());
        }
        JsonKind::Array => {
            out.push('[');
            for e in n.as_array().into_iter().flat_map(|a| a.iter()) {
                canonical(Some(e), out);
            }
            out.push(']');
        }
        JsonKind::Object => {
            let Some(o) = n.as_object() else { return };
            let mut members: Vec<(usize, &str, Node<'_>)> =
                o.iter().enumerate().map(|(i, (k, v))| (i, k, v)).collect();
            // By key, the last occurrence first, so that dedup keeps it.
            members.sort_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(&x.0)));
            members.dedup_by(|later, kept| later.1 == kept.1);
            let _ = write!(out, "{{{}", o.len());
            for (_, k, v) in members {
                let _ = write!(out, "|{}:{k}", k.len());
                canonical(Some(v), out);
            }
            out.push('}');
        }
    }
}

/// Small integer ids of `values`' canonical texts ([`canonical`]), numbered from 0 in
/// `ids`' order of first appearance; equal ids exactly for deep-equal values.
pub(crate) fn value_ids<'a>(
    values: impl Iterator<Item = V<'a>>,
    ids: &mut HashMap<String, u32>,
) -> Vec<u32> {
    let mut text = String::new();
    values
        .map(|v| {
            text.clear();
            canonical(v, &mut text);
            let next = ids.len() as u32;
            *ids.entry(text.clone()).or_insert(next)
        })
        .collect()
}

pub(crate) fn json_eq(a: Node<'_>, b: Node<'_>) -> bool {
    if a.kind() != b.kind() {
        return false;
    }
    match a.kind() {
        JsonKind::Null => true,
        JsonKind::Bool => a.as_bool() == b.as_bool(),
        JsonKind::String => a.as_str() == b.as_str(),
        JsonKind::Number => a.compared_text() == b.compared_text(),
        JsonKind::Array => {
            let (Some(x), Some(y)) = (a.as_array(), b.as_array()) else {
                return false;
            };
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| json_eq(p, q))
        }
        JsonKind::Object => {
            let (Some(x), Some(y)) = (a.as_object(), b.as_object()) else {
                return false;
            };
            if x.len() != y.len() {
                return false;
            }
            // A few members are looked up by scanning; more through a map, so that
            // comparing wide objects stays linear.
            if x.len() <= 8 {
                return x
                    .iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)));
            }
            let ys: HashMap<&str, Node<'_>> = y.iter().collect();
            x.iter()
                .all(|(k, v)| ys.get(k).is_some_and(|w| json_eq(v, *w)))
        }
    }
}

/// A set of attribute paths (`replace_paths`, `relevant_attributes`) narrowed step by step
/// as the differ descends, or a matcher that matches everything.
#[derive(Clone)]
pub(crate) enum Matcher<'a> {
    Always,
    Paths {
        /// Each path as its array (`None`: an empty path) and how many steps are consumed.
        paths: Vec<(Option<Array<'a>>, usize)>,
        /// Whether a fully consumed path matches every descendant too.
        propagate: bool,
    },
}

impl<'a> Matcher<'a> {
    pub(crate) fn paths(paths: Vec<Option<Array<'a>>>, propagate: bool) -> Matcher<'a> {
        Matcher::Paths {
            paths: paths.into_iter().map(|p| (p, 0)).collect(),
            propagate,
        }
    }

    /// A path ends here.
    pub(crate) fn matches(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Paths { paths, .. } => paths
                .iter()
                .any(|(p, used)| *used >= p.map_or(0, |a| a.len())),
        }
    }

    /// Some path goes through here.
    pub(crate) fn matches_partial(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Paths { paths, .. } => !paths.is_empty(),
        }
    }

    /// The matcher one step down, `steps` being this matcher's paths grouped by their next
    /// step ([`MatcherSteps::of`]): O(paths through the child), not O(all paths).
    fn child_at(&self, steps: &MatcherSteps<'a>, step: Step<'_>) -> Matcher<'a> {
        match self {
            Matcher::Always => Matcher::Always,
            // A path that ends here matches every descendant.
            Matcher::Paths {
                propagate: true, ..
            } if steps.ended => Matcher::Always,
            Matcher::Paths { paths, propagate } => {
                let through = match step {
                    Step::Key(k) => steps.by_key.get(k),
                    Step::Index(i) => steps.by_index.get(&(i as u64)),
                };
                Matcher::Paths {
                    paths: through
                        .into_iter()
                        .flatten()
                        .map(|&n| (paths[n].0, paths[n].1 + 1))
                        .collect(),
                    propagate: *propagate,
                }
            }
        }
    }
}

/// One step down a value: an object's member or a list's element.
#[derive(Clone, Copy)]
enum Step<'k> {
    Key(&'k str),
    Index(usize),
}

/// The paths of a [`Matcher`] grouped by their next step: a key step (a string) under
/// its text, an index step (a number, or a string that parses as one) under the index it
/// selects (its integer part: `1.5` selects 1).
#[derive(Default)]
struct MatcherSteps<'a> {
    by_key: HashMap<&'a str, Vec<usize>>,
    by_index: HashMap<u64, Vec<usize>>,
    /// Some path has no next step.
    ended: bool,
}

impl<'a> MatcherSteps<'a> {
    fn of(m: &Matcher<'a>) -> MatcherSteps<'a> {
        let mut out = MatcherSteps::default();
        let Matcher::Paths { paths, .. } = m else {
            return out;
        };
        for (n, &(p, used)) in paths.iter().enumerate() {
            let Some(step) = p.and_then(|a| a.get(used)) else {
                out.ended = true;
                continue;
            };
            if let Some(k) = step.as_str() {
                out.by_key.entry(k).or_default().push(n);
            }
            let f = match step.as_str() {
                Some(s) => s.parse::<f64>().ok(),
                None => step.as_f64(),
            };
            if let Some(f) = f.filter(|f| f.is_finite())
                && f.trunc() >= 0.0
                && f.trunc() < u64::MAX as f64
            {
                out.by_index.entry(f.trunc() as u64).or_default().push(n);
            }
        }
        out
    }
}
