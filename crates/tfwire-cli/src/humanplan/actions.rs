//! Terraform's action invocations (a plan's `action_invocations`), drawn as `terraform show`
//! draws them (Terraform v1.16's `jsonformat/plan.go`): those a resource's lifecycle
//! triggers under that resource's change, before and after it; those the command line
//! invokes (`terraform plan -invoke=...`) in a section of their own after the `Plan:` line,
//! which counts them all (`Actions: N to invoke.`).

use super::differ;
use super::draw::{Opts, render};
use super::value::{Dialect, Val, json};
use super::{Error, type_from_values};
use crate::escape::inline;
use std::collections::HashMap;
use std::fmt::Write as _;
use tfwire::schema::{Attribute, AttributeType, Block};
use tfwire_plan::Json;

/// The configuration block of every action type of a set of provider schemas (their
/// `action_schemas`, which the value decoders do not need), by provider address and type.
#[derive(Default)]
pub(crate) struct ActionSchemas {
    blocks: HashMap<(String, String), Block>,
}

impl ActionSchemas {
    /// From a `providers schema -json` document, or the `provider_schemas` object of a
    /// redacted plan (an object whose members are the providers).
    pub(crate) fn from_document(doc: Json<'_>) -> Result<ActionSchemas, Error> {
        let providers = doc.get("provider_schemas").unwrap_or(doc);
        let mut out = ActionSchemas::default();
        for (provider, p) in providers.as_object().into_iter().flatten() {
            let Some(actions) = p.get("action_schemas").filter(|a| !a.is_null()) else {
                continue;
            };
            let Some(actions) = actions.as_object() else {
                return Err(format!(
                    ".provider_schemas[{}].action_schemas: expected an object, found {}",
                    inline(provider),
                    actions.kind()
                ));
            };
            for (ty, a) in actions.iter() {
                let Some(block) = a.get("block").filter(|b| !b.is_null()) else {
                    continue;
                };
                let block = Block::from_json(block.to_string().as_bytes()).map_err(|e| {
                    format!(
                        ".provider_schemas[{}].action_schemas[{}].block: {e}",
                        inline(provider),
                        inline(ty)
                    )
                })?;
                out.blocks
                    .insert((provider.to_string(), ty.to_string()), block);
            }
        }
        Ok(out)
    }

    fn get(&self, provider: &str, ty: &str) -> Option<&Block> {
        self.blocks.get(&(provider.to_string(), ty.to_string()))
    }
}

/// When a lifecycle-triggered invocation runs, relative to its resource's change.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum When {
    Before,
    After,
}

/// What invokes an action.
pub(super) enum Trigger<'a> {
    /// A resource's lifecycle: the resource's address, before or after its change, and
    /// the `action_trigger` block's and the `actions` list's indexes (the order they run in).
    Lifecycle {
        resource: &'a str,
        when: When,
        block: u64,
        position: u64,
    },
    /// The command line, for the resource at this address (`calling_resource_address`),
    /// if any.
    Invoke(Option<&'a str>),
}

/// One element of `action_invocations`.
pub(super) struct Invocation<'a> {
    address: &'a str,
    type_name: &'a str,
    name: &'a str,
    provider: &'a str,
    values: Option<Json<'a>>,
    sensitive: Option<Json<'a>>,
    unknown: Option<Json<'a>>,
    pub(super) trigger: Trigger<'a>,
}

/// The plan's `action_invocations`, in their order (none when it has none).
pub(super) fn invocations<'a>(raw: Json<'a>) -> Result<Vec<Invocation<'a>>, Error> {
    let Some(list) = raw.get("action_invocations").filter(|l| !l.is_null()) else {
        return Ok(Vec::new());
    };
    let Some(list) = list.as_array() else {
        return Err(format!(
            ".action_invocations: expected an array, found {}",
            list.kind()
        ));
    };
    let mut out = Vec::new();
    for (i, ai) in list.iter().enumerate() {
        let at = |key: &str| format!(".action_invocations[{i}].{key}");
        let text = |key: &str| -> Result<&'a str, Error> {
            match ai.get(key) {
                None => Ok(""),
                Some(v) => v
                    .as_str()
                    .ok_or_else(|| format!("{}: expected a string, found {}", at(key), v.kind())),
            }
        };
        let trigger = if let Some(l) = ai.get("lifecycle_action_trigger").filter(|l| !l.is_null()) {
            let event = l.get("action_trigger_event").and_then(|e| e.as_str());
            let when = match event {
                Some("BeforeCreate" | "BeforeUpdate" | "BeforeDestroy") => When::Before,
                Some("AfterCreate" | "AfterUpdate" | "AfterDestroy") => When::After,
                _ => {
                    return Err(format!(
                        "{}.action_trigger_event: expected one of BeforeCreate, BeforeUpdate, \
                         BeforeDestroy, AfterCreate, AfterUpdate, AfterDestroy, found {}",
                        at("lifecycle_action_trigger"),
                        event.map_or_else(
                            || "nothing".to_string(),
                            |e| format!("\"{}\"", inline(e))
                        )
                    ));
                }
            };
            let index = |key: &str| l.get(key).and_then(|n| n.as_u64()).unwrap_or(0);
            Trigger::Lifecycle {
                resource: l
                    .get("triggering_resource_address")
                    .and_then(|a| a.as_str())
                    .unwrap_or(""),
                when,
                block: index("action_trigger_block_index"),
                position: index("actions_list_index"),
            }
        } else if let Some(t) = ai.get("invoke_action_trigger").filter(|t| !t.is_null()) {
            Trigger::Invoke(
                t.get("calling_resource_address")
                    .and_then(|a| a.as_str())
                    .filter(|a| !a.is_empty()),
            )
        } else {
            return Err(format!(
                ".action_invocations[{i}]: expected a lifecycle_action_trigger or an \
                 invoke_action_trigger, found neither"
            ));
        };
        out.push(Invocation {
            address: text("address")?,
            type_name: text("type")?,
            name: text("name")?,
            provider: text("provider_name")?,
            values: ai.get("config_values"),
            sensitive: ai.get("config_sensitive"),
            unknown: ai.get("config_unknown"),
            trigger,
        });
    }
    Ok(out)
}

/// The invocations a resource's lifecycle triggers `when` its change at `address` runs, in
/// the order they run.
pub(super) fn triggered<'p, 'a>(
    all: &'p [Invocation<'a>],
    address: &str,
    when: When,
) -> Vec<&'p Invocation<'a>> {
    let mut out: Vec<(u64, u64, &Invocation<'a>)> = all
        .iter()
        .filter_map(|ai| match ai.trigger {
            Trigger::Lifecycle {
                resource,
                when: w,
                block,
                position,
            } if resource == address && w == when => Some((block, position, ai)),
            _ => None,
        })
        .collect();
    out.sort_by_key(|&(block, position, _)| (block, position));
    out.into_iter().map(|(_, _, ai)| ai).collect()
}

/// `    # ADDRESS` and `    action "TYPE" "NAME" {` ... `    }`, each line ending in a
/// newline: the configuration drawn whole, without action symbols, eight columns in.
pub(super) fn render_invocation(
    ai: &Invocation<'_>,
    schemas: Option<&ActionSchemas>,
    color: bool,
) -> String {
    let mut out = format!(
        "    # {}\n    action \"{}\" \"{}\" {{\n",
        inline(ai.address),
        inline(ai.type_name),
        inline(ai.name)
    );
    if ai.values.is_some() {
        let owned;
        let block = match schemas.and_then(|s| s.get(ai.provider, ai.type_name)) {
            Some(b) => b,
            None => {
                owned = block_from_values(ai.values);
                &owned
            }
        };
        let v = Val::unchanged(
            json(ai.values),
            json(ai.sensitive),
            ai.unknown,
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
pub(super) fn render_invoked(
    all: &[Invocation<'_>],
    schemas: Option<&ActionSchemas>,
    color: bool,
    c: impl Fn(&str) -> String,
) -> Option<String> {
    let sections: Vec<String> = all
        .iter()
        .filter_map(|ai| match ai.trigger {
            Trigger::Invoke(calling) => {
                // The address goes in after the colours, as Terraform formats it.
                let mut head = c("  [bold]# \u{1}[reset] will be invoked").replacen(
                    '\u{1}',
                    inline(ai.address).as_ref(),
                    1,
                );
                if let Some(r) = calling {
                    let _ = write!(head, " (called from {})", inline(r));
                }
                Some(format!("{head}\n{}", render_invocation(ai, schemas, color)))
            }
            Trigger::Lifecycle { .. } => None,
        })
        .collect();
    (!sections.is_empty()).then(|| sections.join("\n"))
}

/// A block whose attributes are the top-level keys of an action's configuration: what can
/// be drawn without the provider's action schema.
fn block_from_values(values: Option<Json<'_>>) -> Block {
    let members: HashMap<&str, Json<'_>> = values
        .and_then(|v| v.as_object())
        .map(|o| o.iter().collect())
        .unwrap_or_default();
    let mut names: Vec<&str> = members.keys().copied().collect();
    names.sort_unstable();
    let sides = [members.clone()];
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
