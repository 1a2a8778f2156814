//! What the summary formats (table, tree, Markdown) say of a change: which changes are
//! listed, their notes in words, what triggers an action, the lines of counts, and the
//! colour of an action.

use crate::escape::{Inline, inline};
use core::fmt;
use tfwire_plan::{ActionSummary, ActionTrigger, ChangeKind, ChangeSummary, Counts, Summary};

/// The notes of a change, for humans: moved, imported, forgotten, deferred, reason, forced
/// by, deposed. Each
/// string from the document goes through `doc`, the escaping of the writer's target
/// ([`inline`] for a terminal, [`md_code`](crate::escape::md_code) for Markdown).
pub(crate) fn notes(c: &ChangeSummary<'_>, doc: impl Fn(&str) -> String) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(p) = c.previous_address {
        notes.push(format!("moved from {}", doc(p)));
    }
    if c.importing {
        notes.push(match (c.import_id, c.import_identity) {
            (Some(id), _) => format!("imported (id {})", doc(id)),
            // Without an ID, the identity is the object's only stable name.
            (None, Some(identity)) => format!("imported (identity {})", doc(&identity.to_string())),
            (None, None) if c.import_unknown => "imported (id not known yet)".to_string(),
            (None, None) => "imported".to_string(),
        });
    }
    if matches!(c.kind, ChangeKind::Forget) {
        notes.push("forgotten: removed from state, not destroyed".into());
    }
    if matches!(c.kind, ChangeKind::ReplaceForget { .. }) {
        notes.push("replaced; the old object is forgotten, not destroyed".into());
    }
    if let Some(r) = c.deferred_reason {
        notes.push(format!("deferred: {}", doc(deferred_words(r))));
    }
    if let ChangeKind::Replace { create_first: true } = c.kind {
        notes.push("create before destroy".into());
    }
    if let Some(r) = c.action_reason {
        notes.push(doc(reason_words(r)));
    }
    if !c.replace_paths.is_empty() {
        let paths: Vec<String> = c
            .replace_paths
            .iter()
            .map(|p| doc(&p.to_string()))
            .collect();
        notes.push(format!("forced by {}", paths.join(", ")));
    }
    if let Some(d) = c.deposed {
        notes.push(format!("deposed object {}", doc(d)));
    }
    notes
}

/// An `action_reason` in words (unknown reasons as written).
fn reason_words(reason: &str) -> &str {
    match reason {
        "replace_because_tainted" => "tainted",
        "replace_because_cannot_update" => "cannot be updated in place",
        "replace_by_request" => "replacement requested",
        "replace_by_triggers" => "replace_triggered_by",
        "delete_because_no_resource_config" => "not in configuration",
        "delete_because_no_module" => "its module is not in configuration",
        "delete_because_no_move_target" => "moved to an address not in configuration",
        "delete_because_wrong_repetition" => "count or for_each changed",
        "delete_because_count_index" => "index out of range for count",
        "delete_because_each_key" => "key not in for_each",
        "delete_because_enabled_false" => "enabled is false",
        "read_because_config_unknown" => "configuration known only after apply",
        "read_because_dependency_pending" => "depends on pending changes",
        "read_because_check_nested" => "read again for a check block",
        "forgot_because_lifecycle_destroy_in_config" => "lifecycle.destroy = false",
        "forgot_because_lifecycle_destroy_in_state" => {
            "lifecycle.destroy = false (when it was removed)"
        }
        other => other,
    }
}

/// A deferred change's `reason` in words (as Terraform explains it; unknown reasons as
/// written).
fn deferred_words(reason: &str) -> &str {
    match reason {
        "instance_count_unknown" => "the number of instances is unknown",
        "resource_config_unknown" => "the resource configuration is unknown",
        "provider_config_unknown" => "the provider configuration is unknown",
        "deferred_prereq" => "a prerequisite is deferred",
        "absent_prereq" => "a prerequisite has not been created yet",
        "unknown" => "for an unknown reason",
        other => other,
    }
}

/// What makes an action invocation run, in words: `after_create of ADDRESS` (the event as
/// the configuration spells it), `-invoke` (with the calling resource, if any). Each string
/// from the document goes through `doc`.
pub(crate) fn trigger_words(a: &ActionSummary<'_>, doc: impl Fn(&str) -> String) -> String {
    let mut words = match &a.trigger {
        Some(ActionTrigger::Lifecycle(t)) => {
            let event = t.event.map_or("an event", |e| e.config_name());
            format!("{} of {}", doc(event), doc(t.triggering_resource_address))
        }
        Some(ActionTrigger::Invoke {
            calling_resource_address: Some(c),
            ..
        }) => format!("-invoke (for {})", doc(c)),
        Some(ActionTrigger::Invoke { .. }) => "-invoke".to_string(),
        _ => "no trigger named".to_string(),
    };
    if let Some(r) = a.deferred_reason {
        words.push_str(&format!("; deferred: {}", doc(deferred_words(r))));
    }
    words
}

/// Whether a change is listed: every change but plain no-ops.
pub(crate) fn listed(c: &ChangeSummary<'_>) -> bool {
    c.kind != ChangeKind::NoOp || c.previous_address.is_some() || c.importing
}

/// `1 create, 2 update`: the output counts that are not zero (no-ops left out).
pub(crate) fn output_counts_line(c: &Counts) -> String {
    let parts: Vec<String> = c
        .iter()
        .filter(|(k, n)| *n > 0 && *k != "no_op")
        .map(|(k, n)| format!("{n} {}", Inline(&k.replace('_', "-"))))
        .collect();
    parts.join(", ")
}

/// `3 create, 1 update, 2 delete, 0 replace, ...`: the four main keys always, the others
/// when not zero.
pub(crate) fn counts_line(c: &Counts) -> String {
    let parts: Vec<String> = c
        .iter()
        .filter(|(k, n)| *n > 0 || matches!(*k, "create" | "update" | "replace" | "delete"))
        .map(|(k, n)| format!("{n} {}", Inline(&k.replace('_', "-"))))
        .collect();
    parts.join(", ")
}

/// `text` in the ANSI colour of the action `key` or its diff marker (`create` green,
/// `delete` red, `update` yellow, `replace` magenta, `read` cyan; others plain), when
/// colouring.
pub(crate) fn paint(text: &str, key: &str, color: bool) -> String {
    let code = match key {
        "+" | "create" => "32",
        "-" | "delete" => "31",
        "~" | "update" => "33",
        "-/+" | "+/-" | "replace" => "35",
        "<=" | "read" => "36",
        _ => return text.to_string(),
    };
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// A row of the table: the action, the address (or output name), the notes; escaped.
pub(crate) type Row = (String, String, String);

/// The rows of a list of action invocations for the table and the tree: `marker`, the
/// address, what triggers it (escaped for a terminal).
pub(crate) fn action_rows(list: &[ActionSummary<'_>], marker: &str) -> Vec<Row> {
    list.iter()
        .map(|a| {
            (
                marker.to_string(),
                inline(a.address).into_owned(),
                trigger_words(a, |s| inline(s).into_owned()),
            )
        })
        .collect()
}

/// The last lines of the table and the tree: the deferred changes counted, and the action
/// invocations (as Terraform's `Plan:` line counts them: every one), with the deferred ones.
pub(crate) fn footer(out: &mut dyn fmt::Write, s: &Summary<'_>) -> fmt::Result {
    if s.deferred.total() > 0 {
        writeln!(out, "Deferred: {}", counts_line(&s.deferred))?;
    }
    if !s.action_invocations.is_empty() || !s.deferred_action_invocations.is_empty() {
        write!(out, "Actions: {} to invoke", s.action_invocations.len())?;
        if !s.deferred_action_invocations.is_empty() {
            write!(out, ", {} deferred", s.deferred_action_invocations.len())?;
        }
        writeln!(out)?;
    }
    Ok(())
}
