//! Text trees of values and diffs, laid out like `terraform plan` and `terraform state
//! show`: `+`/`-`/`~` markers, nested blocks indented, `(known after apply)` for unknown
//! values and `(sensitive value)` for sensitive ones (both sides of a change hidden when
//! either is sensitive). Keys are written bare or as JSON strings and values as JSON, so
//! the document's text reaches the tree escaped (see `escape.rs`).

use std::fmt::Write as _;
use tfwire_plan::{Diff, DiffOp, Json, Merged, PathStep, Shape};
use tfwire_render::escape::{DEPTH_MAX, Padded, column_width};

/// How a tree is drawn.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// Draw the `+`/`-`/`~` column (plans) or not (states).
    pub(crate) markers: bool,
    /// Show unchanged members too (otherwise they are counted in a comment).
    pub(crate) all: bool,
    /// Colour the markers (ANSI).
    pub(crate) color: bool,
    /// Leave out the members of objects that are null on both sides, as `tofu state show`
    /// does (it records no null attribute of a block or an object). Without a schema a map
    /// looks like an object, so a map's null entries are left out too.
    pub(crate) omit_null: bool,
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

/// The marker of an op.
pub(crate) fn marker(op: DiffOp) -> &'static str {
    match op {
        DiffOp::NoOp => " ",
        DiffOp::Create => "+",
        DiffOp::Update => "~",
        DiffOp::Delete => "-",
    }
}

/// ANSI colour code of a marker or action.
pub(crate) fn color_of(marker: &str) -> Option<&'static str> {
    match marker {
        "+" | "create" => Some("32"),
        "-" | "delete" => Some("31"),
        "~" | "update" => Some("33"),
        "-/+" | "+/-" | "replace" => Some("35"),
        "<=" | "read" => Some("36"),
        _ => None,
    }
}

/// `text` in the colour of `marker`, when colouring.
pub(crate) fn paint(text: &str, marker: &str, color: bool) -> String {
    match color_of(marker) {
        Some(c) if color => format!("\x1b[{c}m{text}\x1b[0m"),
        _ => text.to_string(),
    }
}

/// A key as it is written in a tree: bare when it is an HCL identifier
/// ([`tfwire_render::escape::is_identifier`], as in diffs), quoted otherwise.
fn key_text(step: &PathStep<'_>) -> String {
    match step {
        PathStep::Attr(k) | PathStep::Key(k) => {
            if tfwire_render::escape::is_identifier(k) {
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

/// A leaf's value: `NEW`, `OLD -> NEW`, `OLD -> null` (an element: `OLD`). A leaf with a
/// sensitive side shows neither side: `(sensitive value)` (deleted: `(sensitive value) ->
/// null`), as Terraform does.
fn leaf_text(d: &Diff<'_>, element: bool) -> String {
    if d.is_sensitive() {
        return match d.op {
            DiffOp::Delete if !element => format!("{SENSITIVE} -> null"),
            _ => SENSITIVE.into(),
        };
    }
    match d.op {
        DiffOp::Create => value_text(d.after),
        DiffOp::Delete if element => value_text(d.before),
        DiffOp::Delete => format!("{} -> null", value_text(d.before)),
        DiffOp::Update => format!("{} -> {}", value_text(d.before), value_text(d.after)),
        DiffOp::NoOp => value_text(d.after.or(d.before)),
    }
}

/// Writes the members (or elements) of a container node, indented by `indent`. A container
/// [`DEPTH_MAX`] levels deep (`indent` of four spaces a level) is drawn as a marker,
/// `# (nested deeper than 32 levels, not shown)`, not indented again.
pub(crate) fn body(out: &mut String, d: &Diff<'_>, indent: usize, layout: Layout) {
    let array = d.shape == Shape::Array;
    let omitted = |c: &Diff<'_>| {
        layout.omit_null && !array && c.op == DiffOp::NoOp && absent(c, layout.omit_empty_strings)
    };
    let present: Vec<&(PathStep<'_>, Diff<'_>)> =
        d.children.iter().filter(|(_, c)| !omitted(c)).collect();
    let shown: Vec<&(PathStep<'_>, Diff<'_>)> = present
        .iter()
        .copied()
        .filter(|(_, c)| layout.all || !c.is_unchanged())
        .collect();
    let hidden = present.len() - shown.len();
    let below = Layout {
        omit_empty_strings: false,
        ..layout
    };
    let width = if array {
        0
    } else {
        column_width(shown.iter().map(|(s, _)| key_text(s).chars().count()))
    };
    let pad = " ".repeat(indent);
    for (step, child) in shown {
        let m = if layout.markers {
            format!(
                "{} ",
                paint(marker(child.op), marker(child.op), layout.color)
            )
        } else {
            String::new()
        };
        let forces = if child.forces_replacement && child.op != DiffOp::NoOp {
            " # forces replacement"
        } else {
            ""
        };
        let lead = if array {
            format!("{pad}{m}")
        } else {
            format!("{pad}{m}{} = ", Padded::chars(&key_text(step), width))
        };
        let comma = if array { "," } else { "" };
        if child.children.is_empty() {
            let _ = writeln!(out, "{lead}{}{comma}{forces}", leaf_text(child, array));
        } else if indent / 4 >= DEPTH_MAX {
            let _ = writeln!(
                out,
                "{lead}# (nested deeper than {DEPTH_MAX} levels, not shown){comma}{forces}"
            );
        } else {
            let (open, close) = if child.shape == Shape::Array {
                ("[", "]")
            } else {
                ("{", "}")
            };
            let _ = writeln!(out, "{lead}{open}{forces}");
            body(out, child, indent + 4, below);
            let close_pad = if layout.markers { 2 } else { 0 };
            let _ = writeln!(out, "{pad}{}{close}{comma}", " ".repeat(close_pad));
        }
    }
    if hidden > 0 {
        let what = match (array, hidden) {
            (true, 1) => "element",
            (true, _) => "elements",
            (false, 1) => "attribute",
            (false, _) => "attributes",
        };
        let m = if layout.markers { "  " } else { "" };
        let _ = writeln!(out, "{pad}{m}# ({hidden} unchanged {what} hidden)");
    }
}
