//! Masks ([`tfwire::mask`]) applied to a document's sensitivity markers: the one place
//! where a plan's or a state's readers learn what is sensitive, so every renderer hides a
//! masked value exactly as it hides a sensitive one.
//!
//! [`masked_marks`] unites a marker tree (`after_sensitive`, `sensitive_values`, ...) with
//! the masks over a value; [`with_masked_plan`] gives a plan whose resource changes, drift
//! entries and output changes carry those united trees.

use crate::error::Error;
use crate::json::Json;
use crate::plan::Plan;
use crate::tape::Parser;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use tfwire::mask::{Cursor, Masks};

/// The sensitivity marker tree of `value` (a marker tree as `after_sensitive` or
/// `sensitive_values` are written) with every node the masks match from `at` marked `true`,
/// as JSON text; `None` when no mask matches anything in the value (the document's markers
/// stand as they are).
///
/// The document's markers are kept: a marker that already hides a node, or that does not fit
/// the value's shape (which hides it, see [`crate::Mark::from_json`]), stays; members the
/// markers name but the value lacks are copied. Members with neither a marker nor a mask
/// are left out, and a subtree with neither is `false`.
///
/// ```
/// use tfwire::mask::Masks;
/// let mut input = br#"{"password":"hunter2","tags":{"env":"prod"},"env":[{"name":"A","value":"x"}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let masks = Masks::defaults();
/// let marks = tfwire_plan::masked_marks(&masks, &masks.start("aws_instance"), Some(tape.root()), None);
/// assert_eq!(marks.as_deref(), Some(r#"{"password":true,"env":[{"value":true}]}"#));
/// let none = Masks::new();
/// assert_eq!(tfwire_plan::masked_marks(&none, &none.start("aws_instance"), Some(tape.root()), None), None);
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
pub fn masked_marks(
    masks: &Masks,
    at: &Cursor,
    value: Option<Json<'_>>,
    marks: Option<Json<'_>>,
) -> Option<String> {
    if masks.is_empty() || at.is_dead() {
        return None;
    }
    let mut out = String::new();
    walk(masks, at, value, marks.filter(|m| !m.is_null()), &mut out).then_some(out)
}

/// Writes the united marks of one node; whether a mask matched at or below it.
fn walk(
    masks: &Masks,
    at: &Cursor,
    value: Option<Json<'_>>,
    mark: Option<Json<'_>>,
    out: &mut String,
) -> bool {
    if at.is_masked() {
        out.push_str("true");
        return true;
    }
    let copy = |out: &mut String| match mark {
        Some(m) if m.as_object().is_some() || m.as_array().is_some() => {
            let _ = write!(out, "{m}");
        }
        // `true`, and a marker tfwire cannot read, hide the node.
        Some(m) if m.as_bool() != Some(false) => out.push_str("true"),
        _ => out.push_str("false"),
    };
    let Some(v) = value.filter(|v| !v.is_null()) else {
        copy(out);
        return false;
    };
    if at.is_dead() {
        copy(out);
        return false;
    }
    let mark_obj = mark.and_then(|m| m.as_object());
    let mark_arr = mark.and_then(|m| m.as_array());
    let hides = match mark {
        None => false,
        Some(m) => match m.as_bool() {
            Some(b) => b,
            None => {
                (mark_obj.is_some() && v.as_object().is_none())
                    || (mark_arr.is_some() && v.as_array().is_none())
                    || (mark_obj.is_none() && mark_arr.is_none())
            }
        },
    };
    if hides {
        out.push_str("true");
        return false;
    }
    let mut any = false;
    let start = out.len();
    if let Some(obj) = v.as_object() {
        out.push('{');
        let mut first = true;
        // The markers by name, found once (a lookup per member would be quadratic in a wide
        // object); the last of a repeated name wins, as `Object::get` has it.
        let marks_by_name: HashMap<&str, Json<'_>> =
            mark_obj.map(|m| m.iter().collect()).unwrap_or_default();
        for (k, child) in obj.iter() {
            let member = out.len();
            if !first {
                out.push(',');
            }
            let _ = tfwire_json::write_safe_str(&mut *out, k);
            out.push(':');
            let next = masks.step(at, k);
            let child_mark = marks_by_name.get(k).copied();
            if walk(masks, &next, Some(child), child_mark, out) {
                any = true;
            } else if child_mark.is_none() {
                // Nothing to say of this member: the tree leaves it out.
                out.truncate(member);
                continue;
            }
            first = false;
        }
        if let Some(m) = mark_obj {
            let names: HashSet<&str> = obj.iter().map(|(k, _)| k).collect();
            for (k, child) in m.iter() {
                if !names.contains(k) {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    let _ = tfwire_json::write_safe_str(&mut *out, k);
                    let _ = write!(out, ":{child}");
                }
            }
        }
        out.push('}');
    } else if let Some(arr) = v.as_array() {
        out.push('[');
        // The markers in step with the elements (indexing each would be quadratic).
        let mut element_marks = mark_arr.map(|m| m.iter());
        for (i, e) in arr.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let element_mark = element_marks.as_mut().and_then(Iterator::next);
            any |= walk(masks, at, Some(e), element_mark, out);
        }
        // Markers beyond the value's elements stay as written.
        if let Some(m) = mark_arr {
            for (i, e) in m.iter().enumerate().skip(arr.len()) {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{e}");
            }
        }
        out.push(']');
    } else {
        copy(out);
    }
    if !any && mark.is_none() {
        // No mask below and no marker: the node stays unmarked, whatever its shape.
        out.truncate(start);
        out.push_str("false");
    }
    any
}

/// Calls `f` with `plan` as the masks see it: every resource change's and drift entry's
/// `before_sensitive` and `after_sensitive` united with the masks over its values (the
/// resource's `type` scopes the patterns), and every output change whose name (or a path in
/// whose value) a mask matches marked sensitive (outputs are of type `output`). Without
/// masks, or when none matches, `f` sees the plan as it is.
///
/// ```
/// use tfwire::mask::Masks;
/// let mut input = br#"{"format_version":"1.2","resource_changes":[{"address":"x.a","mode":"managed",
///   "type":"x","name":"a","change":{"actions":["create"],"before":null,
///   "after":{"db_password":"hunter2","name":"a"},"after_unknown":{},"after_sensitive":{}}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let plan = tape.plan(&arena)?;
/// let hidden = tfwire_plan::with_masked_plan(plan, &Masks::defaults(), |p| {
///     let after = p.resource_changes[0].change.after_view();
///     (after.member("db_password").unwrap().is_sensitive(), after.member("name").unwrap().is_sensitive())
/// })?;
/// assert_eq!(hidden, (true, false));
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
///
/// # Errors
///
/// Reading a united marker tree back fails only where the value is too deep for the parser
/// (it was read with the same limits, so this does not happen in practice).
pub fn with_masked_plan<R>(
    plan: &Plan<'_>,
    masks: &Masks,
    f: impl FnOnce(&Plan<'_>) -> R,
) -> Result<R, Error> {
    if masks.is_empty() {
        return Ok(f(plan));
    }
    // (list, index, before?, text): list 0 changes, 1 drift, 2 outputs.
    let mut texts: Vec<(u8, usize, bool, Vec<u8>)> = Vec::new();
    for (list, changes) in [(0u8, plan.resource_changes), (1, plan.resource_drift)] {
        for (i, rc) in changes.iter().enumerate() {
            let at = masks.start(rc.type_name);
            let c = &rc.change;
            for (before, value, marks) in [
                (true, c.before, c.before_sensitive),
                (false, c.after, c.after_sensitive),
            ] {
                if let Some(t) = masked_marks(masks, &at, value, marks) {
                    texts.push((list, i, before, t.into_bytes()));
                }
            }
        }
    }
    let output = masks.start("output");
    for (i, oc) in plan.output_changes.iter().enumerate() {
        let at = masks.step(&output, oc.name);
        let c = &oc.change;
        for (before, value, marks) in [
            (true, c.before, c.before_sensitive),
            (false, c.after, c.after_sensitive),
        ] {
            let t = if at.is_masked() {
                Some("true".to_string())
            } else {
                masked_marks(masks, &at, value, marks)
            };
            if let Some(t) = t {
                texts.push((2, i, before, t.into_bytes()));
            }
        }
    }
    if texts.is_empty() {
        return Ok(f(plan));
    }
    let mut parser = Parser::new();
    let mut tapes = Vec::with_capacity(texts.len());
    for (list, i, before, text) in texts.iter_mut() {
        tapes.push((*list, *i, *before, parser.parse(text)?));
    }
    let mut changes = plan.resource_changes.to_vec();
    let mut drift = plan.resource_drift.to_vec();
    let mut outputs = plan.output_changes.to_vec();
    for (list, i, before, tape) in &tapes {
        let change = match list {
            0 => changes.get_mut(*i).map(|rc| &mut rc.change),
            1 => drift.get_mut(*i).map(|rc| &mut rc.change),
            _ => outputs.get_mut(*i).map(|oc| &mut oc.change),
        };
        if let Some(c) = change {
            if *before {
                c.before_sensitive = Some(tape.root());
            } else {
                c.after_sensitive = Some(tape.root());
            }
        }
    }
    let mut masked = *plan;
    masked.resource_changes = &changes;
    masked.resource_drift = &drift;
    masked.output_changes = &outputs;
    Ok(f(&masked))
}
