//! The block a resource is drawn with when the provider schemas lack its type: its
//! attributes are the top-level keys of its values, typed from them.
//!
//! A change is drawn with its top-level attributes typed and anything below them as plain
//! JSON ([`schema_from_values`]); a state's object, which has one side only, is typed all
//! the way down ([`block_from_value`]), so that its nested objects are drawn as the
//! clients draw the objects their schemas describe.

use super::node::Node;
use crate::escape::DEPTH_MAX;
use std::collections::HashMap;
use tfwire::schema::{Attribute, Block};
use tfwire::{ObjectType, Type};
use tfwire_plan::{JsonKind, ResourceChange};

/// A block whose attributes are the top-level keys of a change's values: what can be drawn
/// without the provider's schema. An attribute whose known values are all strings (or all
/// numbers, or all bools) gets that type, so that it says `# forces replacement` as it does
/// with the schema; any other is `dynamic` (diffed as plain JSON: objects and maps alike,
/// keys unquoted, no `# forces replacement`).
pub(crate) fn schema_from_values(rc: &ResourceChange<'_>) -> Block {
    let c = &rc.change;
    let [before, after, unknown] = [c.before, c.after, c.after_unknown].map(|j| j.map(Node::Json));
    block_from_values(&[before, after, unknown], &[before, after])
}

/// A block whose attributes are the top-level keys of the objects `named` (sorted), each
/// typed from its values in the objects `typed` (see [`schema_from_values`]).
pub(crate) fn block_from_values(named: &[Option<Node<'_>>], typed: &[Option<Node<'_>>]) -> Block {
    let mut names: Vec<&str> = named
        .iter()
        .flatten()
        .filter_map(|j| j.as_object())
        .flat_map(|o| o.iter().map(|(k, _)| k))
        .collect();
    names.sort_unstable();
    names.dedup();
    // Each side's members indexed once (a lookup per name would be quadratic).
    let sides: Vec<HashMap<&str, Node<'_>>> = typed
        .iter()
        .flatten()
        .map(|side| {
            side.as_object()
                .map(|o| o.iter().collect())
                .unwrap_or_default()
        })
        .collect();
    block_of(names.into_iter().map(|n| (n, type_from_values(&sides, n))))
}

/// A block whose attributes are the top-level keys of the object `value`, each typed from
/// its value all the way down (see [`type_of`]): what a state's object is drawn with
/// without its schema.
pub(crate) fn block_from_value(value: Option<Node<'_>>) -> Block {
    let members = value.and_then(|v| v.as_object());
    block_of(
        members
            .iter()
            .flat_map(|m| m.iter())
            .map(|(k, v)| (k, type_of(v, 1))),
    )
}

/// A block of optional attributes, sorted by name, the last of a repeated name kept (as a
/// repeated key of a document reads as its last occurrence).
fn block_of<'n>(attrs: impl Iterator<Item = (&'n str, Type)>) -> Block {
    let mut attributes: Vec<Attribute> = attrs.map(|(n, ty)| Attribute::optional(n, ty)).collect();
    attributes.reverse();
    attributes.sort_by(|a, b| a.name.cmp(&b.name));
    attributes.dedup_by(|a, b| a.name == b.name);
    Block {
        attributes,
        ..Block::default()
    }
}

/// The type a value has on its own, `depth` levels below its resource: a primitive's own,
/// an object's an object type of its members' types, an array's a tuple type of its
/// elements' types; `dynamic` for null, and for a container nested deeper than the drawing
/// goes (drawn as a marker there, whatever its type).
pub(crate) fn type_of(value: Node<'_>, depth: usize) -> Type {
    match value.kind() {
        JsonKind::Null => Type::Dynamic,
        JsonKind::Bool => Type::Bool,
        JsonKind::Number => Type::Number,
        JsonKind::String => Type::String,
        _ if depth >= DEPTH_MAX => Type::Dynamic,
        JsonKind::Object => Type::Object(ObjectType::new(
            value
                .as_object()
                .iter()
                .flat_map(|m| m.iter())
                .map(|(k, v)| (k, type_of(v, depth + 1), false)),
        )),
        JsonKind::Array => Type::Tuple(
            value
                .as_array()
                .iter()
                .flat_map(|a| a.iter())
                .map(|v| type_of(v, depth + 1))
                .collect(),
        ),
    }
}

/// The primitive type every known value of the top-level attribute `name` has, or `dynamic`.
/// `sides` holds the members of the change's `before` and `after` objects.
fn type_from_values(sides: &[HashMap<&str, Node<'_>>], name: &str) -> Type {
    let mut ty = None;
    for side in sides {
        let this = match side.get(name).map(|v| v.kind()) {
            None | Some(JsonKind::Null) => continue,
            Some(JsonKind::String) => Type::String,
            Some(JsonKind::Number) => Type::Number,
            Some(JsonKind::Bool) => Type::Bool,
            Some(_) => return Type::Dynamic,
        };
        match &ty {
            Some(t) if *t != this => return Type::Dynamic,
            _ => ty = Some(this),
        }
    }
    ty.unwrap_or(Type::Dynamic)
}
