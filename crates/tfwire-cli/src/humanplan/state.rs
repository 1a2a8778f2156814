//! One resource of a state as `tofu state show` draws it with the provider schema: OpenTofu's
//! state renderer (`jsonformat`'s `State`, one resource) is the plan renderer run on a
//! change whose before and after are both the resource's values, with every member shown
//! and no action symbols.
//!
//! Sensitivity fails closed: an attribute the schema marks sensitive is hidden whatever the
//! document's own markers say (OpenTofu adds the schema's marks to `sensitive_values` when
//! it writes a state, so they agree for its documents), and a marker tfwire cannot read
//! hides the whole value it covers.

use super::differ;
use super::draw::{Opts, render};
use super::node::Node;
use super::value::{Matcher, Unknown, Val, json, non_null};
use crate::escape::inline;
use tfwire::schema::{Attribute, AttributeType, Block, NestedBlock, Nesting};
use tfwire_plan::{Json, write_json_str};

/// `resource "TYPE" "NAME" {` ... `}` (or `data ...`) for a resource's `values` under its
/// schema block (the document's JSON, or the values decoded with the schema), with
/// `sensitive` the marker tree to hide by (see [`sensitive_marks`]).
pub(crate) fn render_resource(
    keyword: &str,
    type_name: &str,
    name: &str,
    values: Option<Node<'_>>,
    sensitive: Option<Json<'_>>,
    schema: &Block,
) -> String {
    let values = non_null(values);
    let sensitive = json(sensitive);
    let v = Val {
        before: values,
        after: values,
        before_explicit: false,
        after_explicit: false,
        unknown: Unknown::None,
        before_sensitive: sensitive,
        after_sensitive: sensitive,
        replace: Matcher::paths(Vec::new(), false),
        relevant: Matcher::Always,
    };
    let diff = differ::block(&v, schema);
    let o = Opts {
        show_unchanged: true,
        hide_symbols: true,
        ..Opts::default()
    };
    format!(
        "{keyword} \"{}\" \"{}\" {}",
        inline(type_name),
        inline(name),
        render(&diff, 0, o)
    )
}

/// The sensitivity marker tree (as JSON text, the shape of `sensitive_values`) of `values`
/// under `schema`: the document's `marks` with every attribute the schema marks sensitive
/// added, at any depth (in nested blocks and nested attributes, for every element). A mark
/// that does not fit its value (not `true`/`false`, an object of marks on a value that is
/// not an object, a list of marks on one that is not a list) becomes `true`: it hides the
/// whole value.
pub(crate) fn sensitive_marks(
    values: Option<Node<'_>>,
    marks: Option<Json<'_>>,
    schema: &Block,
) -> String {
    let mut out = String::new();
    block(
        &mut out,
        non_null(values),
        marks.filter(|m| !m.is_null()),
        &schema.attributes,
        &schema.block_types,
    );
    out
}

/// Whether `mark` hides all of `value`: `true`, or a mark that does not fit the value.
fn hides(mark: Option<Json<'_>>, value: Node<'_>) -> bool {
    let Some(m) = mark else { return false };
    if let Some(b) = m.as_bool() {
        return b;
    }
    if m.as_object().is_some() {
        return value.as_object().is_none();
    }
    if m.as_array().is_some() {
        return value.as_array().is_none();
    }
    true
}

/// The document's mark as it is (`false` when there is none).
fn copy(out: &mut String, value: Option<Node<'_>>, mark: Option<Json<'_>>) {
    match (value, mark) {
        (Some(v), m) if hides(m, v) => out.push_str("true"),
        (_, Some(m)) if !m.is_null() => out.push_str(&m.to_string()),
        _ => out.push_str("false"),
    }
}

/// The marks of an object of attributes and nested blocks.
fn block(
    out: &mut String,
    value: Option<Node<'_>>,
    mark: Option<Json<'_>>,
    attrs: &[Attribute],
    blocks: &[NestedBlock],
) {
    let Some(v) = value.filter(|v| !hides(mark, *v)) else {
        return copy(out, value, mark);
    };
    let Some(obj) = v.as_object() else {
        return copy(out, value, mark);
    };
    out.push('{');
    let mut first = true;
    for (key, child) in obj.iter() {
        let child_mark = mark.and_then(|m| m.get(key)).filter(|m| !m.is_null());
        let mut text = String::new();
        if let Some(a) = attrs.iter().find(|a| a.name == key) {
            attribute(&mut text, non_null(Some(child)), child_mark, a);
        } else if let Some(nb) = blocks.iter().find(|b| b.type_name == key) {
            let inner = &nb.block;
            collection(
                &mut text,
                non_null(Some(child)),
                child_mark,
                nb.nesting,
                &|o, v, m| {
                    block(o, v, m, &inner.attributes, &inner.block_types);
                },
            );
        } else {
            copy(&mut text, non_null(Some(child)), child_mark);
        }
        if text != "false" {
            if !first {
                out.push(',');
            }
            first = false;
            let _ = write_json_str(out, key);
            out.push(':');
            out.push_str(&text);
        }
    }
    out.push('}');
}

fn attribute(out: &mut String, value: Option<Node<'_>>, mark: Option<Json<'_>>, a: &Attribute) {
    if a.sensitive {
        return out.push_str("true");
    }
    match &a.ty {
        AttributeType::Type(_) => copy(out, value, mark),
        AttributeType::Nested(n) => {
            collection(out, value, mark, n.nesting, &|o, v, m| {
                block(o, v, m, &n.attributes, &[]);
            });
        }
    }
}

/// Writes the marks of one object from its value and the document's marks.
type Marks<'f> = dyn Fn(&mut String, Option<Node<'_>>, Option<Json<'_>>) + 'f;

/// The marks of a block (or nested attribute object) collection: one object, or one per
/// element or key.
fn collection(
    out: &mut String,
    value: Option<Node<'_>>,
    mark: Option<Json<'_>>,
    nesting: Nesting,
    each: &Marks<'_>,
) {
    let Some(v) = value.filter(|v| !hides(mark, *v)) else {
        return copy(out, value, mark);
    };
    match nesting {
        Nesting::Single | Nesting::Group => each(out, Some(v), mark),
        Nesting::List | Nesting::Set => {
            let Some(arr) = v.as_array() else {
                return copy(out, value, mark);
            };
            out.push('[');
            for (i, e) in arr.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let m = mark.and_then(|m| m.index(i)).filter(|m| !m.is_null());
                each(out, non_null(Some(e)), m);
            }
            out.push(']');
        }
        Nesting::Map => {
            let Some(obj) = v.as_object() else {
                return copy(out, value, mark);
            };
            out.push('{');
            for (i, (k, e)) in obj.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write_json_str(out, k);
                out.push(':');
                let m = mark.and_then(|m| m.get(k)).filter(|m| !m.is_null());
                each(out, non_null(Some(e)), m);
            }
            out.push('}');
        }
    }
}
