//! The block a resource is drawn with when the provider schemas lack its type: its
//! attributes are the top-level keys of its values, typed from them.

use super::node::Node;
use std::collections::HashMap;
use tfwire::schema::{Attribute, AttributeType, Block};
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
    Block {
        attributes: names
            .into_iter()
            .map(|n| Attribute {
                name: n.to_string(),
                ty: AttributeType::Type(type_from_values(&sides, n)),
                required: false,
                optional: true,
                computed: false,
                sensitive: false,
                deprecated: false,
                write_only: false,
                description: String::new(),
            })
            .collect(),
        ..Block::default()
    }
}

/// The primitive type every known value of the top-level attribute `name` has, or `dynamic`.
/// `sides` holds the members of the change's `before` and `after` objects.
fn type_from_values(sides: &[HashMap<&str, Node<'_>>], name: &str) -> tfwire::Type {
    let mut ty = None;
    for side in sides {
        let this = match side.get(name).map(|v| v.kind()) {
            None | Some(JsonKind::Null) => continue,
            Some(JsonKind::String) => tfwire::Type::String,
            Some(JsonKind::Number) => tfwire::Type::Number,
            Some(JsonKind::Bool) => tfwire::Type::Bool,
            Some(_) => return tfwire::Type::Dynamic,
        };
        match &ty {
            Some(t) if *t != this => return tfwire::Type::Dynamic,
            _ => ty = Some(this),
        }
    }
    ty.unwrap_or(tfwire::Type::Dynamic)
}
