//! Terraform's action invocations (a plan's `action_invocations`), drawn as `terraform show`
//! draws them (Terraform v1.16's `jsonformat/plan.go`): those a resource's lifecycle
//! triggers under that resource's change, before and after it; those the command line
//! invokes (`terraform plan -invoke=...`) in a section of their own after the `Plan:` line,
//! which counts them all (`Actions: N to invoke.`).

use super::differ;
use super::draw::{Opts, render};
use super::fallback::block_from_values;
use super::node::Node;
use super::value::{Dialect, Val, json};
use crate::error::Error;
use crate::escape::inline;
use std::fmt::Write as _;
use tfwire::schema::ProviderSchemas;
use tfwire_plan::{ActionInvocation, ActionTiming, ActionTrigger, Json};

/// Checks that every invocation says what runs it, and that a lifecycle trigger's event
/// says whether it runs before or after its resource's change: what Terraform needs to
/// draw it.
pub(crate) fn check(all: &[ActionInvocation<'_>]) -> Result<(), Error> {
    for (i, ai) in all.iter().enumerate() {
        match &ai.trigger {
            Some(ActionTrigger::Lifecycle(t)) => {
                if t.event.and_then(|e| e.timing()).is_none() {
                    let at = t.raw.get("action_trigger_event");
                    return Err(Error::new(format!(
                        ".action_invocations[{i}].lifecycle_action_trigger.action_trigger_event: \
                         expected one of BeforeCreate, BeforeUpdate, BeforeDestroy, AfterCreate, \
                         AfterUpdate, AfterDestroy, found {}{}",
                        t.event.map_or_else(
                            || "nothing".to_string(),
                            |e| format!("\"{}\"", inline(e.name()))
                        ),
                        at_byte(at.unwrap_or(t.raw))
                    )));
                }
            }
            Some(ActionTrigger::Invoke { .. }) => {}
            _ => {
                return Err(Error::new(format!(
                    ".action_invocations[{i}]: expected a lifecycle_action_trigger or an \
                     invoke_action_trigger, found neither{}",
                    at_byte(ai.raw)
                )));
            }
        }
    }
    Ok(())
}

/// ` (at byte N)`: where a value starts in the document, as the plan model's errors say it.
fn at_byte(v: Json<'_>) -> String {
    v.offset()
        .map_or_else(String::new, |n| format!(" (at byte {n})"))
}

/// The invocations a resource's lifecycle triggers `timing` its change at `address`, in
/// the order they run (by `action_trigger` block, then by position in its `actions` list).
pub(crate) fn triggered<'p, 'a>(
    all: &'p [ActionInvocation<'a>],
    address: &str,
    timing: ActionTiming,
) -> Vec<&'p ActionInvocation<'a>> {
    let mut out: Vec<(u64, u64, &ActionInvocation<'a>)> = all
        .iter()
        .filter_map(|ai| {
            let t = ai.lifecycle()?;
            (t.triggering_resource_address == address
                && t.event.and_then(|e| e.timing()) == Some(timing))
            .then(|| (t.block_index.unwrap_or(0), t.list_index.unwrap_or(0), ai))
        })
        .collect();
    out.sort_by_key(|&(block, position, _)| (block, position));
    out.into_iter().map(|(_, _, ai)| ai).collect()
}

/// `    # ADDRESS` and `    action "TYPE" "NAME" {` ... `    }`, each line ending in a
/// newline: the configuration drawn whole, without action symbols, eight columns in.
pub(crate) fn render_invocation(
    ai: &ActionInvocation<'_>,
    schemas: Option<&ProviderSchemas>,
    color: bool,
) -> String {
    let mut out = format!(
        "    # {}\n    action \"{}\" \"{}\" {{\n",
        inline(ai.address),
        inline(ai.type_name),
        inline(ai.name)
    );
    if ai.config_values.is_some() {
        let owned;
        let schema = schemas
            .zip(ai.provider_name)
            .and_then(|(s, p)| s.provider(p))
            .and_then(|p| p.actions.get(ai.type_name));
        let block = match schema.map(|s| &s.block) {
            Some(b) => b,
            // What can be drawn without the provider's action schema: the configuration's
            // top-level keys.
            None => {
                let config = ai.config_values.map(Node::Json);
                owned = block_from_values(&[config], &[config]);
                &owned
            }
        };
        let v = Val::unchanged(
            json(ai.config_values),
            json(ai.config_sensitive),
            ai.config_unknown,
            Dialect::Terraform,
        );
        let d = differ::block(&v, block);
        let o = Opts {
            color,
            show_unchanged: true,
            hide_symbols: true,
            dialect: Dialect::Terraform,
            ..Opts::default()
        };
        let text = render(&d, 0, o);
        out.push_str("        config ");
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push_str("\n        ");
            }
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str("    }\n");
    out
}

/// The lines `terraform show` prints for the invocations the command line asked for, or
/// `None` when there are none.
pub(crate) fn render_invoked(
    all: &[ActionInvocation<'_>],
    schemas: Option<&ProviderSchemas>,
    color: bool,
    c: impl Fn(&str) -> String,
) -> Option<String> {
    let sections: Vec<String> = all
        .iter()
        .filter_map(|ai| match ai.trigger {
            Some(ActionTrigger::Invoke {
                calling_resource_address,
                ..
            }) => {
                // The address goes in after the colours, as Terraform formats it.
                let mut head = c("  [bold]# \u{1}[reset] will be invoked").replacen(
                    '\u{1}',
                    inline(ai.address).as_ref(),
                    1,
                );
                if let Some(r) = calling_resource_address.filter(|r| !r.is_empty()) {
                    let _ = write!(head, " (called from {})", inline(r));
                }
                Some(format!("{head}\n{}", render_invocation(ai, schemas, color)))
            }
            _ => None,
        })
        .collect();
    (!sections.is_empty()).then(|| sections.join("\n"))
}
