//! From a change and a schema to a [`Diff`] tree: what happens to every attribute, block,
//! element and key, and how each is to be drawn.
//!
//! The rules are OpenTofu's (`internal/command/jsonformat/differ`), including the ones that
//! look accidental, since the output must match byte for byte: values of `dynamic`
//! attributes and outputs are diffed as plain JSON, whose diffs never say "forces
//! replacement"; empty strings in attributes count as null; a nested block that is wholly
//! unknown is diffed against its parent's schema. A value whose [`Dialect`] is Terraform's
//! follows Terraform's differ where it is not OpenTofu's (see [`terraform_block`], [`align`],
//! [`of_type`]).

use super::node::Node;
use super::value::{
    Dialect, Matcher, Unknown, V, Val, deep_eq, is_array, is_object, len, value_ids,
};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use tfwire::Type;
use tfwire::schema::{Attribute, AttributeType, Block, NestedBlock, Nesting};
use tfwire_plan::{DiffOp, JsonKind};

/// A change to one value, ready to draw.
pub(crate) struct Diff<'a> {
    pub(crate) r: R<'a>,
    pub(crate) op: DiffOp,
    /// This value's change forces the resource's replacement.
    pub(crate) replace: bool,
}

/// The primitive types a leaf is drawn as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prim {
    Null,
    Bool,
    Number,
    String,
}

/// How a [`Diff`] is drawn.
pub(crate) enum R<'a> {
    /// A leaf.
    Primitive {
        before: V<'a>,
        after: V<'a>,
        ty: Prim,
    },
    /// An object's attributes (sorted); `nested`: a nested attribute object, whose deleted
    /// members say `-> null`.
    Object {
        attrs: Vec<(&'a str, Diff<'a>)>,
        nested: bool,
    },
    /// A map's elements (sorted); `nested`: a map of nested attribute objects.
    Map {
        elems: Vec<(&'a str, Diff<'a>)>,
        nested: bool,
    },
    /// A list or tuple; `context`: show an unchanged element next to the changed ones.
    List { elems: Vec<Diff<'a>>, context: bool },
    /// A set; `nested`: a set of nested attribute objects.
    Set { elems: Vec<Diff<'a>>, nested: bool },
    /// A schema block: attributes (sorted) and nested block groups (sorted).
    Block {
        attrs: Vec<(&'a str, Diff<'a>)>,
        blocks: Vec<Group<'a>>,
    },
    /// Known only after apply; the value before, if there was one.
    Unknown(Option<Box<Diff<'a>>>),
    /// A sensitive value (before, after: which side is sensitive).
    Sensitive {
        inner: Box<Diff<'a>>,
        before: bool,
        after: bool,
    },
    /// A block with sensitive contents.
    SensitiveBlock {
        inner: Box<Diff<'a>>,
        before: bool,
        after: bool,
    },
    /// A value whose JSON type changes.
    TypeChange(Box<Diff<'a>>, Box<Diff<'a>>),
    /// A write-only attribute; `sensitive`: Terraform says so.
    WriteOnly { sensitive: bool },
}

/// The blocks of one nested block type.
pub(crate) struct Group<'a> {
    pub(crate) name: &'a str,
    pub(crate) blocks: Blocks<'a>,
    pub(crate) replace: bool,
    pub(crate) before_sensitive: bool,
    pub(crate) after_sensitive: bool,
    /// Terraform: the whole group is unknown (drawn as a `(known after apply)` line before
    /// its blocks).
    pub(crate) unknown: bool,
}

/// The blocks of a group, by nesting mode.
pub(crate) enum Blocks<'a> {
    Single(Diff<'a>),
    List(Vec<Diff<'a>>),
    Set(Vec<Diff<'a>>),
    Map(Vec<(&'a str, Diff<'a>)>),
}

fn diff<'a>(r: R<'a>, action: DiffOp, replace: bool) -> Diff<'a> {
    Diff {
        r,
        op: action,
        replace,
    }
}

/// The diff of a resource's whole value against its schema block.
pub(crate) fn block<'a>(v: &Val<'a>, b: &'a Block) -> Diff<'a> {
    if let Some(d) = sensitive(v, true, |x| block(x, b)) {
        return d;
    }
    if v.dialect == Dialect::Terraform {
        if let Some(d) = unknown(v, Unknown::Members, |x| block(x, b)) {
            return d;
        }
        return terraform_block(v, b);
    }
    if let Some(d) = unknown(v, Unknown::Members, |x| block(x, b)) {
        return d;
    }
    let mut current = v.default_iteration_action();
    let mut attrs = Vec::new();
    // Write-only attributes last: they take the action of the others.
    for pass_write_only in [false, true] {
        for a in b
            .attributes
            .iter()
            .filter(|a| a.write_only == pass_write_only)
        {
            if let Some(d) = child_attribute(v.member(&a.name), a, current) {
                current = current.combine(d.op);
                attrs.push((a.name.as_str(), d));
            }
        }
    }
    attrs.sort_by(|x, y| x.0.cmp(y.0));
    let mut groups = Vec::new();
    for nb in &b.block_types {
        let c = v.member(&nb.type_name).noop_unless_relevant();
        let both_null = c.before.is_none() && c.after.is_none();
        // OpenTofu diffs a wholly unknown nested block against the parent's schema.
        if let Some(d) = unknown(&c, Unknown::Members, |x| block(x, b)) {
            if !(d.op == DiffOp::NoOp && both_null) {
                groups.push(Group::of(nb, &c, Blocks::Single(d), false));
            }
            continue;
        }
        add_blocks(&mut groups, &mut current, &c, nb, false);
    }
    block_diff(v, attrs, groups, current)
}

/// Adds the blocks of the nested block type `nb` (`c`: its value) to `groups` and their
/// action to `current`, unless they are unchanged and absent on both sides (and not
/// `unknown`).
fn add_blocks<'a>(
    groups: &mut Vec<Group<'a>>,
    current: &mut DiffOp,
    c: &Val<'a>,
    nb: &'a NestedBlock,
    unknown: bool,
) {
    let (blocks, action) = nested_blocks(c, nb);
    if action == DiffOp::NoOp && c.before.is_none() && c.after.is_none() && !unknown {
        return;
    }
    groups.push(Group::of(nb, c, blocks, unknown));
    *current = current.combine(action);
}

/// The diff of a block `v` with its attributes (sorted), its nested block groups and its
/// action.
fn block_diff<'a>(
    v: &Val<'a>,
    attrs: Vec<(&'a str, Diff<'a>)>,
    groups: Vec<Group<'a>>,
    current: DiffOp,
) -> Diff<'a> {
    diff(
        R::Block {
            attrs,
            blocks: groups,
        },
        current,
        v.replace.matches(),
    )
}

/// A block under Terraform's rules: an empty string is null unless the schema is beyond
/// the legacy SDK ([`non_legacy`]), a wholly unknown nested block is drawn as one `(known
/// after apply)` line before its prior blocks, and write-only attributes come last, with
/// the action of the whole block (unchanged when that is an update), always listed.
fn terraform_block<'a>(v: &Val<'a>, b: &'a Block) -> Diff<'a> {
    let non_legacy = v.non_legacy || non_legacy(b);
    // Its members inherit the rule for empty strings.
    let mut members = v.clone();
    members.non_legacy = non_legacy;
    let (mut attrs, mut current) = object(
        &members,
        b.attributes
            .iter()
            .filter(|a| !a.write_only)
            .map(|a| (a.name.as_str(), a)),
        |x, a, p| attribute(x, a, p),
    );
    let mut groups = Vec::new();
    for nb in &b.block_types {
        let c = members.member(&nb.type_name).noop_unless_relevant();
        add_blocks(&mut groups, &mut current, &c, nb, c.is_unknown());
    }
    for a in b.attributes.iter().filter(|a| a.write_only) {
        attrs.push((a.name.as_str(), terraform_write_only(v, current)));
    }
    attrs.sort_by(|x, y| x.0.cmp(y.0));
    block_diff(v, attrs, groups, current)
}

/// The blocks of one nested block type and their action.
fn nested_blocks<'a>(c: &Val<'a>, nb: &'a NestedBlock) -> (Blocks<'a>, DiffOp) {
    match nb.nesting {
        Nesting::Set => {
            let (ds, a) = set(c, |x| block(x, &nb.block));
            (Blocks::Set(ds), a)
        }
        Nesting::List => {
            let (ds, a) = nested_list(c, |x| block(x, &nb.block));
            (Blocks::List(ds), a)
        }
        Nesting::Map => {
            let (ds, a) = map(c, c.explicit_keys(), |x| block(x, &nb.block));
            (Blocks::Map(ds), a)
        }
        Nesting::Single | Nesting::Group => {
            let d = block(c, &nb.block);
            let a = d.op;
            (Blocks::Single(d), a)
        }
    }
}

impl<'a> Group<'a> {
    fn of(nb: &'a NestedBlock, c: &Val<'_>, blocks: Blocks<'a>, unknown: bool) -> Group<'a> {
        Group {
            name: nb.type_name.as_str(),
            blocks,
            replace: c.replace.matches(),
            before_sensitive: c.is_before_sensitive(),
            after_sensitive: c.is_after_sensitive(),
            unknown,
        }
    }
}

/// Whether a block uses something the legacy plugin SDK cannot express (map or group
/// nested blocks, nested attributes, dynamic, object or tuple types, collections of
/// collections of non-primitives): Terraform then stops taking its empty strings for null.
fn non_legacy(b: &Block) -> bool {
    if b.block_types
        .iter()
        .any(|nb| matches!(nb.nesting, Nesting::Map | Nesting::Group))
    {
        return true;
    }
    b.attributes.iter().any(|a| match &a.ty {
        AttributeType::Nested(_) => true,
        AttributeType::Type(t) => {
            has_dynamic(t)
                || matches!(t, Type::Object(_) | Type::Tuple(_))
                || matches!(t, Type::List(e) | Type::Set(e) | Type::Map(e)
                    if matches!(&**e, Type::List(x) | Type::Set(x) | Type::Map(x) if !is_primitive(x)))
        }
    })
}

fn is_primitive(t: &Type) -> bool {
    matches!(t, Type::Bool | Type::Number | Type::String)
}

/// Whether `dynamic` appears anywhere in a type.
fn has_dynamic(t: &Type) -> bool {
    match t {
        Type::Dynamic => true,
        Type::Bool | Type::Number | Type::String => false,
        Type::List(e) | Type::Set(e) | Type::Map(e) => has_dynamic(e),
        Type::Object(o) => o.attributes().iter().any(|a| has_dynamic(&a.ty)),
        Type::Tuple(ts) => ts.iter().any(has_dynamic),
    }
}

/// A write-only attribute under Terraform's rules: the action of the object it is in
/// (`parent`), except that an update leaves it unchanged; sensitive and forcing
/// replacement as `v` is.
fn terraform_write_only<'a>(v: &Val<'a>, parent: DiffOp) -> Diff<'a> {
    let action = if parent == DiffOp::Update {
        DiffOp::NoOp
    } else {
        parent
    };
    diff(
        R::WriteOnly {
            sensitive: v.is_before_sensitive() || v.is_after_sensitive(),
        },
        action,
        v.replace.matches(),
    )
}

/// An attribute of a block: `None` when it is null on both sides (empty strings count as
/// null), so it is not drawn.
fn child_attribute<'a>(c: Val<'a>, a: &'a Attribute, current: DiffOp) -> Option<Diff<'a>> {
    let mut c = c.noop_unless_relevant();
    let empty = |v: V<'_>| v.and_then(|j| j.as_str()) == Some("");
    if empty(c.before) {
        c.before = None;
    }
    if empty(c.after) {
        c.after = None;
    }
    c.before_explicit = false;
    c.after_explicit = false;
    let d = attribute(&c, a, current);
    if d.op == DiffOp::NoOp && c.before.is_none() && c.after.is_none() && !a.write_only {
        return None;
    }
    Some(d)
}

fn attribute<'a>(v: &Val<'a>, a: &'a Attribute, parent: DiffOp) -> Diff<'a> {
    if a.write_only {
        let action = if parent == DiffOp::NoOp && v.replace.matches() {
            DiffOp::Update
        } else {
            parent
        };
        return diff(
            R::WriteOnly { sensitive: false },
            action,
            v.replace.matches(),
        );
    }
    match &a.ty {
        AttributeType::Nested(n) => nested(v, &n.attributes, n.nesting),
        AttributeType::Type(t) => of_type(v, t),
    }
}

fn nested<'a>(v: &Val<'a>, attrs: &'a [Attribute], nesting: Nesting) -> Diff<'a> {
    if let Some(d) = sensitive(v, false, |x| nested(x, attrs, nesting)) {
        return d;
    }
    if let Some(d) = unknown(v, Unknown::Members, |x| nested(x, attrs, nesting)) {
        return d;
    }
    let single = |x: &Val<'a>| nested(x, attrs, Nesting::Single);
    let (r, action) = match nesting {
        Nesting::Single | Nesting::Group if v.dialect == Dialect::Terraform => {
            // Write-only attributes after the others, with their action, always listed.
            let (mut members, action) = object(
                v,
                attrs
                    .iter()
                    .filter(|a| !a.write_only)
                    .map(|a| (a.name.as_str(), a)),
                |x, a, p| attribute(x, a, p),
            );
            for a in attrs.iter().filter(|a| a.write_only) {
                let c = v.member(&a.name).noop_unless_relevant();
                members.push((a.name.as_str(), terraform_write_only(&c, action)));
            }
            members.sort_by(|x, y| x.0.cmp(y.0));
            let r = R::Object {
                attrs: members,
                nested: true,
            };
            (r, action)
        }
        Nesting::Single | Nesting::Group => {
            let (attrs, action) =
                object(v, attrs.iter().map(|a| (a.name.as_str(), a)), |x, a, p| {
                    attribute(x, a, p)
                });
            (
                R::Object {
                    attrs,
                    nested: true,
                },
                action,
            )
        }
        Nesting::Map => {
            let (elems, action) = map(v, v.explicit_keys(), single);
            (
                R::Map {
                    elems,
                    nested: true,
                },
                action,
            )
        }
        Nesting::List => {
            let (elems, action) = nested_list(v, single);
            let r = R::List {
                elems,
                context: false,
            };
            (r, action)
        }
        Nesting::Set => {
            let (elems, action) = set(v, single);
            (
                R::Set {
                    elems,
                    nested: true,
                },
                action,
            )
        }
    };
    diff(r, action, v.replace.matches())
}

/// The diff of a value of a known type.
pub(crate) fn of_type<'a>(v: &Val<'a>, ty: &'a Type) -> Diff<'a> {
    // Terraform takes an empty string for null wherever a value of a legacy schema is
    // diffed by its type, at any depth.
    let empty = |x: V<'_>| x.and_then(|j| j.as_str()) == Some("");
    if v.dialect == Dialect::Terraform && !v.non_legacy && (empty(v.before) || empty(v.after)) {
        let mut fixed = v.clone();
        if empty(fixed.before) {
            fixed.before = None;
        }
        if empty(fixed.after) {
            fixed.after = None;
        }
        return of_type(&fixed, ty);
    }
    if let Some(d) = sensitive(v, false, |x| of_type(x, ty)) {
        return d;
    }
    if let Some(d) = unknown(v, Unknown::None, |x| of_type(x, ty)) {
        return d;
    }
    let replace = v.replace.matches();
    match ty {
        Type::Dynamic => output(v),
        Type::Bool => diff(primitive(v, Prim::Bool), v.action(), replace),
        Type::Number => diff(primitive(v, Prim::Number), v.action(), replace),
        Type::String => diff(primitive(v, Prim::String), v.action(), replace),
        Type::Object(ot) => {
            let (attrs, action) = object(
                v,
                ot.attributes().iter().map(|a| (a.name.as_str(), &a.ty)),
                |x, t, _| of_type(x, t),
            );
            diff(
                R::Object {
                    attrs,
                    nested: false,
                },
                action,
                replace,
            )
        }
        Type::Map(et) => {
            let (elems, action) = map(v, v.all_keys(), |x| of_type(x, et));
            diff(
                R::Map {
                    elems,
                    nested: false,
                },
                action,
                replace,
            )
        }
        Type::List(et) => {
            let object_elements = matches!(**et, Type::Object(_));
            let (elems, action) = slice(
                v,
                |x| {
                    let mut x = x;
                    x.relevant = Matcher::Always;
                    of_type(&x, et)
                },
                |a, b| object_elements || v.dialect == Dialect::OpenTofu && multiline_related(a, b),
            );
            diff(
                R::List {
                    elems,
                    context: true,
                },
                action,
                replace,
            )
        }
        Type::Tuple(ts) => {
            let mut current = v.default_iteration_action();
            let mut elems = Vec::with_capacity(ts.len());
            for (i, t) in ts.iter().enumerate() {
                let c = v.element(i, i).noop_unless_relevant();
                let d = of_type(&c, t);
                current = current.combine(d.op);
                elems.push(d);
            }
            diff(
                R::List {
                    elems,
                    context: true,
                },
                current,
                replace,
            )
        }
        Type::Set(et) => {
            let (elems, action) = set(v, |x| of_type(x, et));
            diff(
                R::Set {
                    elems,
                    nested: false,
                },
                action,
                replace,
            )
        }
    }
}

/// The diff of an output value (or any value without a type): sensitivity and unknowns,
/// then plain JSON.
pub(crate) fn output<'a>(v: &Val<'a>) -> Diff<'a> {
    if let Some(d) = sensitive(v, false, output) {
        return d;
    }
    if let Some(d) = unknown(v, Unknown::None, output) {
        return d;
    }
    json(v)
}

fn primitive<'a>(v: &Val<'a>, ty: Prim) -> R<'a> {
    R::Primitive {
        before: v.before,
        after: v.after,
        ty,
    }
}

/// A sensitive value (or block) as a whole: `None` when neither side is sensitive.
fn sensitive<'a>(
    v: &Val<'a>,
    as_block: bool,
    inner: impl FnOnce(&Val<'a>) -> Diff<'a>,
) -> Option<Diff<'a>> {
    let (before, after) = (v.is_before_sensitive(), v.is_after_sensitive());
    if !before && !after {
        return None;
    }
    let d = inner(&v.without_sensitive());
    let null_noop =
        v.before.is_none() && !v.before_explicit && v.after.is_none() && !v.after_explicit;
    let action = if d.op == DiffOp::NoOp && before != after && !null_noop {
        DiffOp::Update
    } else {
        d.op
    };
    let inner = Box::new(d);
    let r = if as_block {
        R::SensitiveBlock {
            inner,
            before,
            after,
        }
    } else {
        R::Sensitive {
            inner,
            before,
            after,
        }
    };
    Some(diff(r, action, v.replace.matches()))
}

/// A value known only after apply: `None` when it is known.
fn unknown<'a>(
    v: &Val<'a>,
    children: Unknown<'a>,
    before: impl FnOnce(&Val<'a>) -> Diff<'a>,
) -> Option<Diff<'a>> {
    if !v.is_unknown() {
        return None;
    }
    let mut cur = v.clone();
    cur.after_explicit = true;
    let prior = if cur.before.is_none() {
        None
    } else {
        let mut b = cur.as_delete();
        b.unknown = children;
        Some(Box::new(before(&b)))
    };
    Some(diff(R::Unknown(prior), cur.action(), cur.replace.matches()))
}

/// The members of an object value (for the given attributes), leaving out those null on
/// both sides; and the object's action.
fn object<'a, T: Copy>(
    v: &Val<'a>,
    attrs: impl Iterator<Item = (&'a str, T)>,
    f: impl Fn(&Val<'a>, T, DiffOp) -> Diff<'a>,
) -> (Vec<(&'a str, Diff<'a>)>, DiffOp) {
    let mut current = v.default_iteration_action();
    let mut out = Vec::new();
    for (key, t) in attrs {
        let mut c = v.member(key).noop_unless_relevant();
        c.before_explicit = false;
        c.after_explicit = false;
        let d = f(&c, t, current);
        if d.op == DiffOp::NoOp && c.before.is_none() && c.after.is_none() {
            continue;
        }
        current = current.combine(d.op);
        out.push((key, d));
    }
    out.sort_by(|x, y| x.0.cmp(y.0));
    (out, current)
}

/// The elements of a map value under `keys`.
fn map<'a>(
    v: &Val<'a>,
    keys: Vec<&'a str>,
    f: impl Fn(&Val<'a>) -> Diff<'a>,
) -> (Vec<(&'a str, Diff<'a>)>, DiffOp) {
    let mut current = match (is_object(v.before), is_object(v.after)) {
        (true, false) => DiffOp::Delete,
        (false, true) => DiffOp::Create,
        _ => DiffOp::NoOp,
    };
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        let c = v.member(k).noop_unless_relevant();
        let d = f(&c);
        current = current.combine(d.op);
        out.push((k, d));
    }
    (out, current)
}

/// The elements of a list of nested objects or blocks, compared by position.
fn nested_list<'a>(v: &Val<'a>, f: impl Fn(&Val<'a>) -> Diff<'a>) -> (Vec<Diff<'a>>, DiffOp) {
    let mut current = v.default_iteration_action();
    let n = len(v.before).max(len(v.after));
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let c = v.element(i, i).noop_unless_relevant();
        let d = f(&c);
        current = current.combine(d.op);
        out.push(d);
    }
    (out, current)
}

/// The elements of a list, matched by their longest common subsequence; elements that
/// `related` says belong together are diffed against each other instead of removed and
/// added.
fn slice<'a>(
    v: &Val<'a>,
    f: impl Fn(Val<'a>) -> Diff<'a>,
    related: impl Fn(Node<'a>, Node<'a>) -> bool,
) -> (Vec<Diff<'a>>, DiffOp) {
    let mut current = match (is_array(v.before), is_array(v.after)) {
        (true, false) => DiffOp::Delete,
        (false, true) => DiffOp::Create,
        _ => DiffOp::NoOp,
    };
    let items = |x: V<'a>| -> Vec<Node<'a>> {
        x.and_then(|j| j.as_array())
            .map(|a| a.iter().collect())
            .unwrap_or_default()
    };
    let (before, after) = (items(v.before), items(v.after));
    // Elements are compared by id (deep-equal values share one), so that each comparison
    // of the LCS costs O(1) whatever the elements' size.
    let mut ids = HashMap::new();
    let before_ids = value_ids(before.iter().map(|n| Some(*n)), &mut ids);
    let after_ids = value_ids(after.iter().map(|n| Some(*n)), &mut ids);
    let before: Vec<(u32, Node<'a>)> = before_ids.into_iter().zip(before).collect();
    let after: Vec<(u32, Node<'a>)> = after_ids.into_iter().zip(after).collect();
    let mut out = Vec::new();
    align(
        &before,
        &after,
        |a| a.0,
        |a, b| related(a.1, b.1),
        v.dialect,
        |bi, ai| {
            let d = f(v.element(bi, ai));
            current = current.combine(d.op);
            out.push(d);
        },
    );
    (out, current)
}

/// Walks two sequences in the client's diff order: `visit(b, a)` for each pair, where an
/// index past the end of its side means "absent" (a removal or an addition). Elements
/// are equal when their `key`s are.
///
/// Both clients match the longest common subsequence, and diff a removed element against
/// the added one in its place when `related` says they belong together (OpenTofu also
/// checks that while walking the additions). Terraform first pairs two sequences of the
/// same length position by position, unless every element of `before` is somewhere in
/// `after` (a reordering).
pub(crate) fn align<T, K: Eq + Hash>(
    before: &[T],
    after: &[T],
    key: impl Fn(&T) -> K,
    related: impl Fn(&T, &T) -> bool,
    dialect: Dialect,
    mut visit: impl FnMut(usize, usize),
) {
    let eq = |a: &T, b: &T| key(a) == key(b);
    let (nb, na) = (before.len(), after.len());
    if dialect == Dialect::Terraform && nb == na {
        let present: HashSet<K> = after.iter().map(&key).collect();
        if !before.iter().all(|b| present.contains(&key(b))) {
            for i in 0..nb {
                visit(i, i);
            }
            return;
        }
    }
    let lcs = lcs(before, after, eq);
    let (mut bi, mut ai, mut li) = (0, 0, 0);
    while bi < nb || ai < na || li < lcs.len() {
        while bi < nb && (li >= lcs.len() || !eq(&before[bi], &before[lcs[li]])) {
            let diff_pair = ai < na && related(&before[bi], &after[ai]);
            let after_in_lcs = li < lcs.len() && ai < na && eq(&after[ai], &before[lcs[li]]);
            if diff_pair && !after_in_lcs {
                visit(bi, ai);
                bi += 1;
                ai += 1;
                continue;
            }
            visit(bi, na);
            bi += 1;
        }
        while ai < na && (li >= lcs.len() || !eq(&after[ai], &before[lcs[li]])) {
            if dialect == Dialect::OpenTofu && bi < nb && related(&before[bi], &after[ai]) {
                visit(bi, ai);
                bi += 1;
                ai += 1;
                continue;
            }
            visit(nb, ai);
            ai += 1;
        }
        if li < lcs.len() {
            visit(bi, ai);
            bi += 1;
            ai += 1;
            li += 1;
        }
    }
}

/// The most cells [`lcs`]'s dynamic programme fills (2^24, 80 MiB of counters and flags),
/// on what is left of two lists once their common prefix and suffix are set aside. Above
/// it, the middle's elements are shown removed and added: O(n) instead of the O(w × h) of
/// the LCS (recorded in `corpus/conformance/decisions.jsonl`, `render/list-diff/lcs-cap`).
pub(crate) const MAX_LCS_CELLS: usize = 1 << 24;

/// The longest common subsequence of two sequences, as indexes into `xs`, chosen as
/// OpenTofu's dynamic programme chooses it (its values, which are all the caller uses).
///
/// The common prefix and suffix are matched first (O(n); the DP would match them the
/// same way), and the DP runs on the middle. Worst case O(n + [`MAX_LCS_CELLS`]) time
/// and memory: a middle with more cells than that has no common subsequence (its
/// elements are shown removed and added).
fn lcs<T>(xs: &[T], ys: &[T], eq: impl Fn(&T, &T) -> bool) -> Vec<usize> {
    let prefix = xs.iter().zip(ys).take_while(|(x, y)| eq(x, y)).count();
    let suffix = xs[prefix..]
        .iter()
        .rev()
        .zip(ys[prefix..].iter().rev())
        .take_while(|(x, y)| eq(x, y))
        .count();
    let (mx, my) = (
        &xs[prefix..xs.len() - suffix],
        &ys[prefix..ys.len() - suffix],
    );
    let mut seq: Vec<usize> = (0..prefix).collect();
    seq.extend(lcs_dp(mx, my, &eq).into_iter().map(|i| prefix + i));
    seq.extend(xs.len() - suffix..xs.len());
    seq
}

/// [`lcs`]'s dynamic programme (OpenTofu's), on at most [`MAX_LCS_CELLS`] cells.
fn lcs_dp<T>(xs: &[T], ys: &[T], eq: impl Fn(&T, &T) -> bool) -> Vec<usize> {
    let (w, h) = (xs.len(), ys.len());
    if w == 0 || h == 0 || w.saturating_mul(h) > MAX_LCS_CELLS {
        return Vec::new();
    }
    let mut c = vec![0u32; w * h];
    let mut eqs = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            let i = w * y + x;
            if eq(&xs[x], &ys[y]) {
                eqs[i] = true;
                c[i] = if x == 0 || y == 0 {
                    1
                } else {
                    c[w * (y - 1) + (x - 1)] + 1
                };
            } else {
                let l = if x > 0 { c[i - 1] } else { 0 };
                let u = if y > 0 { c[i - w] } else { 0 };
                c[i] = l.max(u);
            }
        }
    }
    let mut seq = vec![0usize; c[w * h - 1] as usize];
    let (mut x, mut y, mut k) = (w as isize - 1, h as isize - 1, seq.len());
    while x >= 0 && y >= 0 && k > 0 {
        let i = w * y as usize + x as usize;
        if eqs[i] {
            k -= 1;
            seq[k] = x as usize;
            x -= 1;
            y -= 1;
        } else {
            let l = if x > 0 { c[i - 1] } else { 0 };
            let u = if y > 0 { c[i - w] } else { 0 };
            if l > u {
                x -= 1;
            } else {
                y -= 1;
            }
        }
    }
    seq
}

/// The elements of a set: each before element is matched with an equal after element
/// (unchanged), the rest are removed or added.
fn set<'a>(v: &Val<'a>, f: impl Fn(&Val<'a>) -> Diff<'a>) -> (Vec<Diff<'a>>, DiffOp) {
    let (nb, na) = (len(v.before), len(v.after));
    let (found_before, found_after) = v.set_pairs();
    let mut current = v.default_iteration_action();
    let mut out = Vec::with_capacity(nb.max(na));
    let mut visit = |bi: usize, ai: usize| {
        let mut c = v.element(bi, ai);
        c.relevant = Matcher::Always;
        let d = f(&c);
        current = current.combine(d.op);
        out.push(d);
    };
    for (bi, fb) in found_before.iter().enumerate() {
        visit(bi, fb.unwrap_or(na));
    }
    for (ai, fa) in found_after.iter().enumerate() {
        if fa.is_none() {
            visit(nb, ai);
        }
    }
    (out, current)
}

/// Whether two list elements are strings with a line in common (diffed line by line
/// rather than removed and added).
pub(crate) fn multiline_related(a: Node<'_>, b: Node<'_>) -> bool {
    let (Some(a), Some(b)) = (a.as_str(), b.as_str()) else {
        return false;
    };
    if !a.contains('\n') && !b.contains('\n') {
        return false;
    }
    a.split('\n').any(|x| b.split('\n').any(|y| x == y))
}

/// The JSON type of a value, as the JSON differ tells them apart.
fn json_kind(v: V<'_>) -> JsonKind {
    v.map_or(JsonKind::Null, |j| j.kind())
}

/// The diff of two plain JSON values (outputs, `dynamic` attributes, `jsonencode`
/// strings). Nothing here forces replacement.
pub(crate) fn json<'a>(v: &Val<'a>) -> Diff<'a> {
    if v.is_before_sensitive() || v.is_after_sensitive() {
        let mut d = sensitive(v, false, json).unwrap_or_else(|| json(v));
        d.replace = false;
        return d;
    }
    if v.is_unknown() {
        let mut cur = v.clone();
        cur.after_explicit = true;
        return if cur.before.is_none() {
            diff(R::Unknown(None), DiffOp::Create, false)
        } else {
            let b = cur.as_delete();
            diff(R::Unknown(Some(Box::new(json(&b)))), DiffOp::Update, false)
        };
    }
    let (bt, at) = (json_kind(v.before), json_kind(v.after));
    let deleted = at == JsonKind::Null && !v.after_explicit;
    let created = bt == JsonKind::Null && !v.before_explicit;
    if bt == at || created || deleted {
        let t = if bt == JsonKind::Null { at } else { bt };
        return json_update(v, t);
    }
    let b = json_update(&v.as_delete(), bt);
    let a = json_update(&v.as_create(), at);
    diff(
        R::TypeChange(Box::new(b), Box::new(a)),
        DiffOp::Update,
        false,
    )
}

fn json_update<'a>(v: &Val<'a>, t: JsonKind) -> Diff<'a> {
    match t {
        JsonKind::Null => json_primitive(v, Prim::Null),
        JsonKind::Bool => json_primitive(v, Prim::Bool),
        JsonKind::String => json_primitive(v, Prim::String),
        JsonKind::Number => json_primitive(v, Prim::Number),
        JsonKind::Object => {
            let (attrs, action) = map(v, v.all_keys(), json);
            diff(
                R::Object {
                    attrs,
                    nested: false,
                },
                action,
                false,
            )
        }
        JsonKind::Array => {
            let (elems, action) = slice(
                v,
                |x| json(&x),
                |a, b| {
                    a.kind() == JsonKind::Object && b.kind() == JsonKind::Object
                        || v.dialect == Dialect::OpenTofu && multiline_related(a, b)
                },
            );
            diff(
                R::List {
                    elems,
                    context: true,
                },
                action,
                false,
            )
        }
    }
}

fn json_primitive<'a>(v: &Val<'a>, ty: Prim) -> Diff<'a> {
    let before_missing = v.before.is_none() && !v.before_explicit;
    let after_missing = v.after.is_none() && !v.after_explicit;
    let action = match (before_missing, after_missing) {
        (true, false) => DiffOp::Create,
        (false, true) => DiffOp::Delete,
        _ if deep_eq(v.before, v.after) => DiffOp::NoOp,
        _ => DiffOp::Update,
    };
    diff(primitive(v, ty), action, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of sequences over three values up to five long.
    fn sequences() -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    (0..3).map(move |v| {
                        let mut s = s.clone();
                        s.push(v);
                        s
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// Setting the common prefix and suffix aside gives the same common subsequence (as
    /// values, which is all `align` reads) as OpenTofu's dynamic programme on the whole.
    #[test]
    fn trimmed_lcs_is_the_dynamic_programmes() {
        let all = sequences();
        let eq = |a: &u8, b: &u8| a == b;
        for xs in &all {
            for ys in &all {
                let values = |seq: Vec<usize>| seq.into_iter().map(|i| xs[i]).collect::<Vec<_>>();
                assert_eq!(
                    values(lcs(xs, ys, eq)),
                    values(lcs_dp(xs, ys, eq)),
                    "{xs:?} {ys:?}"
                );
            }
        }
    }

    /// Above the cell cap, the middle has no common subsequence: the prefix and suffix
    /// stay matched, the middle is removed and added.
    #[test]
    fn lcs_above_the_cap_keeps_prefix_and_suffix() {
        let n = 4097; // 4097² > MAX_LCS_CELLS
        assert!(n * n > MAX_LCS_CELLS);
        let xs: Vec<u32> = std::iter::once(0)
            .chain(1..=n as u32)
            .chain([u32::MAX])
            .collect();
        // The middle of ys is xs's middle shifted: the DP would match n - 1 of it.
        let ys: Vec<u32> = std::iter::once(0)
            .chain(2..=n as u32 + 1)
            .chain([u32::MAX])
            .collect();
        let seq = lcs(&xs, &ys, |a, b| a == b);
        assert_eq!(seq, [0, xs.len() - 1]);
        // Under the cap the same shape is matched in full.
        let (xs, ys) = (&xs[..100], &ys[..100]);
        assert_eq!(lcs(xs, ys, |a, b| a == b).len(), 99);
    }

    /// `align` over a list whose middle is above the cap: the common ends are paired,
    /// every middle element is removed (before) or added (after).
    #[test]
    fn align_above_the_cap() {
        let n = 4097;
        let xs: Vec<u32> = (0..n + 2).collect();
        let ys: Vec<u32> = std::iter::once(0)
            .chain(n + 2..2 * n + 2)
            .chain([n + 1])
            .collect();
        let mut pairs = Vec::new();
        align(
            &xs,
            &ys,
            |a| *a,
            |_, _| false,
            Dialect::OpenTofu,
            |b, a| pairs.push((b, a)),
        );
        let (nb, na) = (xs.len(), ys.len());
        assert_eq!(pairs.len(), 2 + 2 * n as usize);
        assert_eq!(pairs[0], (0, 0));
        assert_eq!(*pairs.last().unwrap(), (nb - 1, na - 1));
        let removed = pairs.iter().filter(|(_, a)| *a == na).count();
        let added = pairs.iter().filter(|(b, _)| *b == nb).count();
        assert_eq!((removed, added), (n as usize, n as usize));
    }
}
