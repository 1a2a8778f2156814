//! One value's change as the differ walks it: the before and after values, which parts are
//! unknown or sensitive, and which paths force replacement or are relevant to drift.

use super::node::Node;
use tfwire_plan::{Array, Json, JsonKind};

/// A value, `None` when null or absent (the renderer does not tell the two apart, except
/// through the `*_explicit` flags of [`Val`]).
pub(super) type V<'a> = Option<Node<'a>>;

/// `Some` unless `v` is null.
pub(super) fn non_null(v: Option<Node<'_>>) -> V<'_> {
    v.filter(|j| !j.is_null())
}

/// A document's value as the renderer walks it: `Some` unless absent or null.
pub(super) fn json(v: Option<Json<'_>>) -> V<'_> {
    non_null(v.map(Node::Json))
}

/// The change to one value.
#[derive(Clone)]
pub(super) struct Val<'a> {
    pub(super) before: V<'a>,
    pub(super) after: V<'a>,
    /// The value was present in its parent (a map key or a list element), even if null.
    pub(super) before_explicit: bool,
    pub(super) after_explicit: bool,
    /// `true`, or a tree of `true` leaves (`after_unknown`).
    pub(super) unknown: Unknown<'a>,
    pub(super) before_sensitive: V<'a>,
    pub(super) after_sensitive: V<'a>,
    pub(super) replace: Matcher<'a>,
    pub(super) relevant: Matcher<'a>,
}

/// What a change does, as the renderer classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Action {
    NoOp,
    Create,
    Read,
    Update,
    Delete,
    DeleteThenCreate,
    CreateThenDelete,
    Forget,
    ForgetThenCreate,
}

impl Action {
    /// The action of a plan's action list; `None` for a list OpenTofu does not know.
    pub(crate) fn of(actions: &[tfwire_plan::Action<'_>]) -> Option<Action> {
        use tfwire_plan::Action as A;
        Some(match actions {
            [A::Create, A::Delete] => Action::CreateThenDelete,
            [A::Delete, A::Create] => Action::DeleteThenCreate,
            [A::Forget, A::Create] => Action::ForgetThenCreate,
            [A::Create] => Action::Create,
            [A::Delete] => Action::Delete,
            [A::Update] => Action::Update,
            [A::Read] => Action::Read,
            [A::NoOp] => Action::NoOp,
            [A::Forget] => Action::Forget,
            _ => return None,
        })
    }
}

/// Combines the action so far with a child's: equal actions stay, any difference is an
/// update, and unchanged children change nothing.
pub(super) fn combine(current: Action, next: Action) -> Action {
    if next == Action::NoOp {
        current
    } else if current != next {
        Action::Update
    } else {
        current
    }
}

/// Which parts of a value are unknown.
#[derive(Clone, Copy)]
pub(super) enum Unknown<'a> {
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

    fn member(self, key: &str) -> Unknown<'a> {
        match self {
            Unknown::Json(j) => Unknown::of(
                j.as_object()
                    .and_then(|o| o.get(key))
                    .filter(|j| !j.is_null()),
            ),
            Unknown::Members => Unknown::All,
            Unknown::None | Unknown::All => Unknown::None,
        }
    }

    fn element(self, i: usize) -> Unknown<'a> {
        match self {
            Unknown::Json(j) => {
                Unknown::of(j.as_array().and_then(|a| a.get(i)).filter(|j| !j.is_null()))
            }
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
    pub(super) fn of_change(c: &tfwire_plan::Change<'a>, relevant: Matcher<'a>) -> Val<'a> {
        Val {
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
        }
    }

    pub(super) fn is_unknown(&self) -> bool {
        match self.unknown {
            Unknown::All => true,
            Unknown::Json(j) => j.as_bool() == Some(true),
            Unknown::None | Unknown::Members => false,
        }
    }

    pub(super) fn is_before_sensitive(&self) -> bool {
        hides(self.before_sensitive, self.before)
    }

    pub(super) fn is_after_sensitive(&self) -> bool {
        hides(self.after_sensitive, self.after)
    }

    /// Create, delete, no-op or update, from the values alone.
    pub(super) fn action(&self) -> Action {
        let before_missing = self.before.is_none() && !self.before_explicit;
        let after_missing = self.after.is_none() && !self.after_explicit;
        if before_missing && !after_missing {
            return Action::Create;
        }
        if after_missing && !before_missing {
            return Action::Delete;
        }
        if deep_eq(self.before, self.after)
            && self.after_explicit == self.before_explicit
            && self.is_after_sensitive() == self.is_before_sensitive()
        {
            return Action::NoOp;
        }
        Action::Update
    }

    /// The starting action of a collection: create or delete when one side is null.
    pub(super) fn default_iteration_action(&self) -> Action {
        match (self.before, self.after) {
            (None, None) => Action::NoOp,
            (None, _) => Action::Create,
            (_, None) => Action::Delete,
            _ => Action::NoOp,
        }
    }

    pub(super) fn as_noop(&self) -> Val<'a> {
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
        }
    }

    pub(super) fn as_delete(&self) -> Val<'a> {
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
        }
    }

    pub(super) fn as_create(&self) -> Val<'a> {
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
        }
    }

    /// The same value with no sensitivity marks (inside a sensitive wrapper).
    pub(super) fn without_sensitive(&self) -> Val<'a> {
        let mut v = self.clone();
        v.before_sensitive = None;
        v.after_sensitive = None;
        v
    }

    /// The member `key` of object (or map) values.
    pub(super) fn member(&self, key: &str) -> Val<'a> {
        let get = |v: V<'a>| -> (V<'a>, bool) {
            match v.and_then(|j| j.as_object()).and_then(|o| o.get(key)) {
                Some(j) => (non_null(Some(j)), true),
                None => (None, false),
            }
        };
        let (before, before_explicit) = get(self.before);
        let (after, after_explicit) = get(self.after);
        Val {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: self.unknown.member(key),
            before_sensitive: get(self.before_sensitive).0,
            after_sensitive: get(self.after_sensitive).0,
            replace: self.replace.key(key),
            relevant: self.relevant.key(key),
        }
    }

    /// Element `bi` of the before list and `ai` of the after list (either may be past the
    /// end: absent).
    pub(super) fn element(&self, bi: usize, ai: usize) -> Val<'a> {
        let get = |v: V<'a>, i: usize| -> (V<'a>, bool) {
            match v.and_then(|j| j.as_array()).and_then(|a| a.get(i)) {
                Some(j) => (non_null(Some(j)), true),
                None => (None, false),
            }
        };
        let (before, before_explicit) = get(self.before, bi);
        let (after, after_explicit) = get(self.after, ai);
        let relevant_ix = if bi < len(self.before) { bi } else { ai };
        Val {
            before,
            after,
            before_explicit,
            after_explicit,
            unknown: self.unknown.element(ai),
            before_sensitive: get(self.before_sensitive, bi).0,
            after_sensitive: get(self.after_sensitive, ai).0,
            replace: self.replace.index(relevant_ix),
            relevant: self.relevant.index(relevant_ix),
        }
    }

    /// The keys of the before and after objects, deduplicated and sorted.
    pub(super) fn explicit_keys(&self) -> Vec<&'a str> {
        keys(&[self.before, self.after])
    }

    /// The keys of every tree of this value (before, after, unknown, sensitivity).
    pub(super) fn all_keys(&self) -> Vec<&'a str> {
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
pub(super) fn len(v: V<'_>) -> usize {
    v.and_then(|j| j.as_array()).map_or(0, |a| a.len())
}

/// Whether `v` is an array (an empty one counts; null does not).
pub(super) fn is_array(v: V<'_>) -> bool {
    v.is_some_and(|j| j.kind() == JsonKind::Array)
}

/// Whether `v` is an object.
pub(super) fn is_object(v: V<'_>) -> bool {
    v.is_some_and(|j| j.kind() == JsonKind::Object)
}

/// Deep equality as the renderer compares values: objects regardless of member order,
/// numbers by their text.
pub(super) fn deep_eq(a: V<'_>, b: V<'_>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => json_eq(a, b),
        _ => false,
    }
}

pub(super) fn json_eq(a: Node<'_>, b: Node<'_>) -> bool {
    if a.kind() != b.kind() {
        return false;
    }
    match a.kind() {
        JsonKind::Null => true,
        JsonKind::Bool => a.as_bool() == b.as_bool(),
        JsonKind::String => a.as_str() == b.as_str(),
        JsonKind::Number => a.to_string() == b.to_string(),
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
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
    }
}

/// A set of attribute paths (`replace_paths`, `relevant_attributes`) narrowed step by step
/// as the differ descends, or a matcher that matches everything.
#[derive(Clone)]
pub(super) enum Matcher<'a> {
    Always,
    Paths {
        /// Each path as its array (`None`: an empty path) and how many steps are consumed.
        paths: Vec<(Option<Array<'a>>, usize)>,
        /// Whether a fully consumed path matches every descendant too.
        propagate: bool,
    },
}

impl<'a> Matcher<'a> {
    pub(super) fn paths(paths: Vec<Option<Array<'a>>>, propagate: bool) -> Matcher<'a> {
        Matcher::Paths {
            paths: paths.into_iter().map(|p| (p, 0)).collect(),
            propagate,
        }
    }

    /// A path ends here.
    pub(super) fn matches(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Paths { paths, .. } => paths
                .iter()
                .any(|(p, used)| *used >= p.map_or(0, |a| a.len())),
        }
    }

    /// Some path goes through here.
    pub(super) fn matches_partial(&self) -> bool {
        match self {
            Matcher::Always => true,
            Matcher::Paths { paths, .. } => !paths.is_empty(),
        }
    }

    fn child(&self, step_matches: impl Fn(Json<'a>) -> bool) -> Matcher<'a> {
        match self {
            Matcher::Always => Matcher::Always,
            Matcher::Paths { paths, propagate } => Matcher::Paths {
                paths: paths
                    .iter()
                    .filter_map(|&(p, used)| match p.and_then(|a| a.get(used)) {
                        None if *propagate => Some((p, used)),
                        None => None,
                        Some(step) if step_matches(step) => Some((p, used + 1)),
                        Some(_) => None,
                    })
                    .collect(),
                propagate: *propagate,
            },
        }
    }

    pub(super) fn key(&self, key: &str) -> Matcher<'a> {
        self.child(|step| step.as_str() == Some(key))
    }

    pub(super) fn index(&self, index: usize) -> Matcher<'a> {
        self.child(|step| {
            let f = match step.as_str() {
                Some(s) => s.parse::<f64>().ok(),
                None => step.as_f64(),
            };
            f.is_some_and(|f| f.is_finite() && f.trunc() == index as f64)
        })
    }
}
