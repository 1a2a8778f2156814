//! A value without its schema as a text tree, laid out like `state show`: members
//! indented under their objects, `(sensitive value)` for sensitive values. Keys are written
//! bare or as JSON strings and values as JSON, so the document's text reaches the tree
//! escaped (see [`escape`](crate::escape)).

use crate::escape::{DEPTH_MAX, Padded, column_width};
use std::fmt::Write as _;
use tfwire_plan::{Diff, Json, Merged, PathStep, Shape};

/// How a level of the tree is drawn.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// Leave out the empty strings of this level's members too (not of the levels below):
    /// `tofu state show` takes an empty string of a block's attribute for null (the legacy
    /// SDK cannot write null strings). Without a schema only the resource itself is known
    /// to be a block.
    pub(crate) omit_empty_strings: bool,
}

/// Whether a member is null (or, with `empty_strings`, the empty string) on both sides.
fn absent(d: &Diff<'_>, empty_strings: bool) -> bool {
    [d.before, d.after].iter().all(|side| match side {
        None => true,
        Some(m) if m.is_unknown() => false,
        Some(m) => m
            .raw_value()
            .is_none_or(|v| v.is_null() || (empty_strings && v.as_str() == Some(""))),
    })
}

/// A key as it is written in a tree: bare when it is an HCL identifier
/// ([`is_identifier`](crate::escape::is_identifier), as in diffs), quoted otherwise.
fn key_text(step: &PathStep<'_>) -> String {
    match step {
        PathStep::Attr(k) | PathStep::Key(k) => {
            if crate::escape::is_identifier(k) {
                k.to_string()
            } else {
                json_string(k)
            }
        }
        PathStep::Index(i) => i.to_string(),
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing to a String cannot fail.
    let _ = tfwire_json::write_safe_str(&mut out, s);
    out
}

/// What is shown instead of a sensitive value, as Terraform shows it.
pub(crate) const SENSITIVE: &str = "(sensitive value)";

/// One side of a leaf as text.
pub(crate) fn value_text(side: Option<Merged<'_>>) -> String {
    let Some(m) = side else {
        return "null".into();
    };
    if m.is_unknown() {
        return "(known after apply)".into();
    }
    if m.has_sensitive() {
        return SENSITIVE.into();
    }
    let text = match m.raw_value() {
        None => "null".to_string(),
        Some(v) => scalar_text(v),
    };
    if m.has_unknown() {
        format!("{text} (partly known after apply)")
    } else {
        text
    }
}

fn scalar_text(v: Json<'_>) -> String {
    v.to_string()
}

/// Writes the members (or elements) of a container node of a value laid out as a diff
/// against itself ([`Diff::between`] with the same view twice), indented by `indent`. A
/// container [`DEPTH_MAX`] levels deep (`indent` of four spaces a level) is drawn as a
/// marker, `# (nested deeper than 32 levels, not shown)`, not indented again. The members of
/// objects that are null (or, with [`Layout::omit_empty_strings`], the empty string) are
/// left out, as `tofu state show` leaves out the attributes it records no value for; without
/// a schema a map looks like an object, so a map's null entries are left out too.
pub(crate) fn body(out: &mut String, d: &Diff<'_>, indent: usize, layout: Layout) {
    let array = d.shape == Shape::Array;
    let shown: Vec<&(PathStep<'_>, Diff<'_>)> = d
        .children
        .iter()
        .filter(|(_, c)| array || !absent(c, layout.omit_empty_strings))
        .collect();
    let below = Layout {
        omit_empty_strings: false,
    };
    let width = if array {
        0
    } else {
        column_width(shown.iter().map(|(s, _)| key_text(s).chars().count()))
    };
    let pad = " ".repeat(indent);
    for (step, child) in shown {
        let lead = if array {
            pad.clone()
        } else {
            format!("{pad}{} = ", Padded::chars(&key_text(step), width))
        };
        let comma = if array { "," } else { "" };
        if child.children.is_empty() {
            let text = if child.is_sensitive() {
                SENSITIVE.to_string()
            } else {
                value_text(child.after.or(child.before))
            };
            let _ = writeln!(out, "{lead}{text}{comma}");
        } else if indent / 4 >= DEPTH_MAX {
            let _ = writeln!(
                out,
                "{lead}# (nested deeper than {DEPTH_MAX} levels, not shown){comma}"
            );
        } else {
            let (open, close) = if child.shape == Shape::Array {
                ("[", "]")
            } else {
                ("{", "}")
            };
            let _ = writeln!(out, "{lead}{open}");
            body(out, child, indent + 4, below);
            let _ = writeln!(out, "{pad}{close}{comma}");
        }
    }
}
