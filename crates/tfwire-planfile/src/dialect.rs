//! The two dialects of plan-file format version 3, told apart from the `tfplan` member's
//! protobuf wire format, and Terraform's decoded into the types both share.
//!
//! OpenTofu and Terraform both write `version = 3`, the same ZIP members (`tfplan`,
//! `tfstate`, `tfstate-prev`, `.terraform.lock.hcl`, `tfconfig/`) and mostly the same
//! fields, but some numbers mean different things: `Plan` field 22 (OpenTofu's ephemeral
//! variable names, Terraform's provider-function results), `Importing` field 2 (OpenTofu's
//! identity, Terraform's `unknown` flag), `Action` 9 and 10, the action reasons 14-16.
//! Neither writes a dialect marker, and `terraform_version` does not tell (both clients'
//! version numbers run through 1.6-1.12), so the structure decides; [`detect`] documents
//! the rule.

use crate::budget::varint;
use crate::error::Error;
use crate::proto;
use crate::proto::terraform as tf;

/// Which client's dialect of the plan-file format a plan file is written in, told from
/// the file itself (never its name): from the `tfplan` member's wire format first, then
/// from how its `tfstate` member is written.
///
/// 1. Terraform if the `Plan` has any of fields 25-32, which OpenTofu never writes.
///    Terraform writes `complete` (26) into every plan made without `-target` that defers
///    nothing and did not fail, `applyable` (25) into every plan with something to apply,
///    and `deferred_changes` (27) into every plan that defers a change.
/// 2. Otherwise, from what only one dialect writes: Terraform for a field 22 entry that is
///    not a variable name (a function result is a message, whose first byte, a field tag,
///    is a control character), an `Importing` field 2 written as a varint or an `Importing`
///    field 3, or the action 9; OpenTofu for a field 22 entry that is a variable name,
///    fields 6 or 500000000, an `Importing` field 2 written as bytes, the action 10, or the
///    action reasons 14-16. Terraform if only Terraform's are seen.
/// 3. Otherwise the plan has nothing the two dialects write differently, so either reading
///    gives the same fields; what is left to decide is the dialect reported and whether the
///    JSON document has Terraform's `"applyable": false, "complete": false`. (Terraform
///    writes such plans when one made with `-target`, or one that failed, has nothing to
///    apply, defers nothing and calls no provider function.) Terraform if the `tfstate`
///    member is indented JSON (Terraform writes it with `MarshalIndent`; OpenTofu 1.12
///    writes it on one line), OpenTofu otherwise. This is wrong for such a plan written by
///    an OpenTofu release that indented its state, or by a Terraform build that stops
///    indenting it.
///
/// A malformed member ends the scan early (prost then reports it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenTofu's (`tofu plan -out`): [`proto::Plan`] as written.
    OpenTofu,
    /// Terraform's (`terraform plan -out`): `proto::terraform::Plan`, read into
    /// [`proto::Plan`] plus [`crate::TerraformPlan`].
    Terraform,
}

impl Dialect {
    /// `"opentofu"` or `"terraform"`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::OpenTofu => "opentofu",
            Dialect::Terraform => "terraform",
        }
    }
}

/// What one field or value says about the dialect.
#[derive(Default)]
struct Evidence {
    terraform: bool,
    opentofu: bool,
}

/// Tells the dialect of a plan file from its `tfplan` member (read without decoding it)
/// and its `tfstate` member, by the rule on [`Dialect`].
pub(crate) fn detect(tfplan: &[u8], state: Option<&[u8]>) -> Dialect {
    let mut ev = Evidence::default();
    let mut at = 0;
    while let Some((number, wire, body)) = next_field(tfplan, &mut at) {
        match (number, wire) {
            (25..=32, _) => return Dialect::Terraform,
            (6 | 500_000_000, _) => ev.opentofu = true,
            (22, 2) => {
                if is_name(body) {
                    ev.opentofu = true;
                } else {
                    ev.terraform = true;
                }
            }
            // resource_changes, resource_drift: the change is field 9.
            (3 | 18, 2) => nested(body, 9, 12, &mut ev),
            // output_changes: the change is field 2.
            (4, 2) => nested(body, 2, 0, &mut ev),
            _ => {}
        }
    }
    match (ev.terraform, ev.opentofu) {
        (true, false) => Dialect::Terraform,
        (false, false) if state.is_some_and(|s| s.starts_with(b"{\n")) => Dialect::Terraform,
        _ => Dialect::OpenTofu,
    }
}

/// A variable name (what OpenTofu's field 22 holds): an HCL identifier.
fn is_name(b: &[u8]) -> bool {
    b.first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
}

/// Looks into a resource or output change: its `Change` (field `change`) and, for a
/// resource change, its action reason (field `reason`, 0 for none).
fn nested(b: &[u8], change: u64, reason: u64, ev: &mut Evidence) {
    let mut at = 0;
    while let Some((number, wire, body)) = next_field(b, &mut at) {
        if number == change && wire == 2 {
            in_change(body, ev);
        } else if reason != 0 && number == reason && wire == 0 && (14..=16).contains(&scalar(body))
        {
            ev.opentofu = true;
        }
    }
}

fn in_change(b: &[u8], ev: &mut Evidence) {
    let mut at = 0;
    while let Some((number, wire, body)) = next_field(b, &mut at) {
        match (number, wire) {
            (1, 0) => match scalar(body) {
                9 => ev.terraform = true,
                10 => ev.opentofu = true,
                _ => {}
            },
            (5, 2) => {
                let mut at = 0;
                while let Some((number, wire, _)) = next_field(body, &mut at) {
                    match (number, wire) {
                        (2, 0) | (3, _) => ev.terraform = true,
                        (2, 2) => ev.opentofu = true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// The varint a `next_field` body of wire type 0 holds.
fn scalar(body: &[u8]) -> u64 {
    varint(body, &mut 0).unwrap_or(0)
}

/// The next field at `*at`: its number, wire type and body (the varint's bytes for wire
/// type 0, the payload for 2, the fixed bytes for 1 and 5); `None` at the end or on a
/// malformed field.
fn next_field<'a>(b: &'a [u8], at: &mut usize) -> Option<(u64, u64, &'a [u8])> {
    if *at >= b.len() {
        return None;
    }
    let key = varint(b, at)?;
    let (number, wire) = (key >> 3, key & 7);
    let start = *at;
    let len = match wire {
        0 => {
            varint(b, at)?;
            return Some((number, wire, &b[start..*at]));
        }
        1 => 8,
        5 => 4,
        2 => {
            let len = usize::try_from(varint(b, at)?).ok()?;
            let body = b.get(*at..at.checked_add(len)?)?;
            *at += len;
            return Some((number, wire, body));
        }
        _ => return None,
    };
    let body = b.get(start..start.checked_add(len)?)?;
    *at = start + len;
    Some((number, wire, body))
}

/// Terraform's own fields of a Terraform plan: those OpenTofu's format has no place for.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct TerraformPlan {
    /// Whether the plan may be applied (`applyable`, field 25): false when it has nothing
    /// to do or failed.
    pub applyable: bool,
    /// Whether the plan plans every change (`complete`, field 26): false when some are
    /// deferred.
    pub complete: bool,
    /// The variables whose values must be given again at apply (field 28: ephemeral ones).
    pub apply_time_variables: Vec<String>,
    /// The provider-function calls seen while planning, each a hash of the call and of its
    /// result (field 22).
    pub function_results: Vec<tf::FunctionResult>,
    /// The resource instance changes left for a later plan, each with why (field 27).
    pub deferred_changes: Vec<DeferredChange>,
    /// The action invocations left for a later plan (field 31).
    pub deferred_action_invocations: Vec<tf::DeferredActionInvocation>,
    /// The action invocations the plan makes (field 30).
    pub action_invocations: Vec<tf::ActionInvocation>,
    /// The `-invoke` addresses the plan was made with (field 32).
    pub action_target_addrs: Vec<String>,
    /// The state store the plan uses, when it uses one instead of a backend (field 29).
    pub state_store: Option<tf::StateStore>,
}

/// A resource instance change Terraform left for a later plan.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct DeferredChange {
    /// Why: a [`proto::terraform::DeferredReason`] number (0, invalid, when the file gives
    /// none).
    pub reason: i32,
    /// The change, in the types of [`proto::Plan::resource_changes`] (read as they are).
    /// Its address may have unknown instance keys (`aws_instance.a[*]`).
    pub change: proto::ResourceInstanceChange,
}

/// Splits a Terraform plan into the fields both dialects share, in OpenTofu's types, and
/// Terraform's own. Nothing is dropped: a change's action keeps its number (Terraform's
/// 9 is create-then-forget: [`crate::Planfile::dialect`] says how to read it), and an
/// import's `unknown` flag goes to [`proto::Importing::unknown`].
///
/// # Errors
///
/// A deferred change without its resource change (Terraform refuses it too).
pub(crate) fn split(p: tf::Plan) -> Result<(proto::Plan, TerraformPlan), Error> {
    let deferred_changes = p
        .deferred_changes
        .into_iter()
        .map(|d| {
            let change = d.change.ok_or_else(|| {
                Error::invalid("a deferred change without its resource change")
                    .at("deferred_changes")
            })?;
            Ok(DeferredChange {
                reason: d.deferred.map_or(0, |d| d.reason),
                change: resource_change(change),
            })
        })
        .collect::<Result<_, Error>>()?;
    let plan = proto::Plan {
        version: p.version,
        ui_mode: p.ui_mode,
        errored: p.errored,
        applyable: Some(p.applyable),
        complete: Some(p.complete),
        variables: p.variables,
        resource_changes: p
            .resource_changes
            .into_iter()
            .map(resource_change)
            .collect(),
        resource_drift: p.resource_drift.into_iter().map(resource_change).collect(),
        output_changes: p.output_changes.into_iter().map(output_change).collect(),
        check_results: p.check_results,
        target_addrs: p.target_addrs,
        exclude_addrs: Vec::new(),
        force_replace_addrs: p.force_replace_addrs,
        terraform_version: p.terraform_version,
        backend: p.backend,
        relevant_attributes: p.relevant_attributes,
        timestamp: p.timestamp,
        ephemeral_variables: Vec::new(),
        temp_execution_graph: Vec::new(),
    };
    let extra = TerraformPlan {
        applyable: p.applyable,
        complete: p.complete,
        apply_time_variables: p.apply_time_variables,
        function_results: p.function_results,
        deferred_changes,
        deferred_action_invocations: p.deferred_action_invocations,
        action_invocations: p.action_invocations,
        action_target_addrs: p.action_target_addrs,
        state_store: p.state_store,
    };
    Ok((plan, extra))
}

/// A Terraform resource instance change in OpenTofu's types (see [`split`]).
fn resource_change(rc: tf::ResourceInstanceChange) -> proto::ResourceInstanceChange {
    proto::ResourceInstanceChange {
        addr: rc.addr,
        prev_run_addr: rc.prev_run_addr,
        deposed_key: rc.deposed_key,
        provider: rc.provider,
        change: rc.change.map(change),
        private: rc.private,
        required_replace: rc.required_replace,
        action_reason: rc.action_reason,
    }
}

fn output_change(oc: tf::OutputChange) -> proto::OutputChange {
    proto::OutputChange {
        name: oc.name,
        change: oc.change.map(change),
        sensitive: oc.sensitive,
    }
}

fn change(c: tf::Change) -> proto::Change {
    proto::Change {
        action: c.action,
        values: c.values,
        before_sensitive_paths: c.before_sensitive_paths,
        after_sensitive_paths: c.after_sensitive_paths,
        importing: c.importing.map(|i| proto::Importing {
            id: i.id,
            identity: i.identity,
            unknown: i.unknown,
        }),
        generated_config: c.generated_config,
        before_identity: c.before_identity,
        after_identity: c.after_identity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn each_dialects_own_fields_tell_it() {
        let tofu = proto::Plan {
            version: 3,
            ephemeral_variables: vec!["token".into()],
            ..Default::default()
        };
        assert_eq!(detect(&tofu.encode_to_vec(), None), Dialect::OpenTofu);
        let tf_plan = tf::Plan {
            version: 3,
            function_results: vec![tf::FunctionResult {
                key: vec![1; 32],
                result: vec![2; 32],
            }],
            ..Default::default()
        };
        assert_eq!(detect(&tf_plan.encode_to_vec(), None), Dialect::Terraform);
        let complete = tf::Plan {
            version: 3,
            complete: true,
            ..Default::default()
        };
        assert_eq!(detect(&complete.encode_to_vec(), None), Dialect::Terraform);
        // Nothing either dialect writes alone: the state member's form decides.
        let neither = tf::Plan::default().encode_to_vec();
        assert_eq!(detect(&neither, None), Dialect::OpenTofu);
        assert_eq!(
            detect(&neither, Some(b"{\"version\":4}")),
            Dialect::OpenTofu
        );
        assert_eq!(
            detect(&neither, Some(b"{\n  \"version\": 4\n}")),
            Dialect::Terraform
        );
    }

    #[test]
    fn importing_and_actions_tell_it_from_inside_a_change() {
        let rc = |c: tf::Change| tf::Plan {
            resource_changes: vec![tf::ResourceInstanceChange {
                change: Some(c),
                ..Default::default()
            }],
            ..Default::default()
        };
        let unknown = rc(tf::Change {
            importing: Some(tf::Importing {
                unknown: true,
                ..Default::default()
            }),
            ..Default::default()
        });
        assert_eq!(detect(&unknown.encode_to_vec(), None), Dialect::Terraform);
        let forget = rc(tf::Change {
            action: tf::Action::CreateThenForget as i32,
            ..Default::default()
        });
        assert_eq!(detect(&forget.encode_to_vec(), None), Dialect::Terraform);
        let tofu = proto::Plan {
            resource_changes: vec![proto::ResourceInstanceChange {
                change: Some(proto::Change {
                    importing: Some(proto::Importing {
                        identity: Some(proto::DynamicValue {
                            msgpack: vec![0x80],
                        }),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(detect(&tofu.encode_to_vec(), None), Dialect::OpenTofu);
    }
}
