//! The plan representation of `terraform show -json PLANFILE` (and Terraform Cloud's
//! redacted plans).

use crate::action::{ActionInvocation, DeferredActionInvocation};
use crate::build::{Cx, Result};
use crate::change::{AttrPath, DeferredChange, OutputChange, ResourceChange};
use crate::checks::Check;
use crate::config::Configuration;
use crate::json::Json;
use crate::state::State;
use crate::values::Values;
use crate::version::{self, FormatVersion};

/// A plan document.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Plan<'a> {
    /// `format_version` as written (`"0.1"` … `"1.2"`); absent in redacted plans and
    /// hand-trimmed fixtures.
    pub format_version: Option<&'a str>,
    /// `plan_format_version`: the version of a Terraform Cloud redacted plan (which has
    /// no `format_version`).
    pub plan_format_version: Option<&'a str>,
    /// `provider_format_version` of a redacted plan: the version of its embedded
    /// `provider_schemas`.
    pub provider_format_version: Option<&'a str>,
    /// `terraform_version`. Not reliable: stripped from OpenTofu's test goldens, and
    /// implausible in some fixtures.
    pub terraform_version: Option<&'a str>,
    /// `variables`: the root module's input variables and their values.
    pub variables: &'a [Variable<'a>],
    /// `prior_state`: the state the plan was made against.
    pub prior_state: Option<State<'a>>,
    /// `configuration`.
    pub configuration: Option<Configuration<'a>>,
    /// `planned_values`: the known parts of the state after apply.
    pub planned_values: Option<Values<'a>>,
    /// `proposed_unknown`: which planned values are unknown.
    pub proposed_unknown: Option<Values<'a>>,
    /// `resource_changes`, in document order.
    pub resource_changes: &'a [ResourceChange<'a>],
    /// `resource_drift`: changes made outside Terraform since the last apply.
    pub resource_drift: &'a [ResourceChange<'a>],
    /// `relevant_attributes`: the attributes that contributed to the plan.
    pub relevant_attributes: &'a [RelevantAttribute<'a>],
    /// `output_changes`, in document order.
    pub output_changes: &'a [OutputChange<'a>],
    /// `checks`.
    pub checks: &'a [Check<'a>],
    /// `deferred_changes` (Terraform, when deferrals are allowed): resource changes left for
    /// a later plan, in document order.
    pub deferred_changes: &'a [DeferredChange<'a>],
    /// `action_invocations` (Terraform ≥ 1.14): the actions apply runs, in document order.
    pub action_invocations: &'a [ActionInvocation<'a>],
    /// `deferred_action_invocations` (Terraform): action invocations left for a later plan.
    pub deferred_action_invocations: &'a [DeferredActionInvocation<'a>],
    /// `applyable` (Terraform ≥ 1.9): whether applying the plan would do anything.
    pub applyable: Option<bool>,
    /// `complete` (Terraform ≥ 1.9): whether applying it converges (false when changes are
    /// deferred to a later plan).
    pub complete: Option<bool>,
    /// `errored` (Terraform ≥ 1.7, OpenTofu).
    pub errored: Option<bool>,
    /// `timestamp` (Terraform ≥ 1.5), RFC 3339.
    pub timestamp: Option<&'a str>,
    /// `provider_schemas`, when embedded (redacted plans), as written.
    pub provider_schemas: Option<Json<'a>>,
    /// The whole object as written, including properties this model does not know (junk
    /// keys of hand-edited fixtures, members of newer minor versions, ...).
    pub raw: Json<'a>,
}

/// The client that wrote a document ([`Plan::client`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Client {
    /// OpenTofu.
    OpenTofu,
    /// Terraform.
    Terraform,
}

/// An input variable of a plan.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Variable<'a> {
    /// The variable's name.
    pub name: &'a str,
    /// `value`.
    pub value: Option<Json<'a>>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// An element of `relevant_attributes`.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RelevantAttribute<'a> {
    /// `resource`: the resource address.
    pub resource: &'a str,
    /// `attribute`: the path inside the resource's value.
    pub attribute: Option<AttrPath<'a>>,
}

impl<'a> Plan<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Plan<'a>> {
        let mut p = Plan {
            format_version: None,
            plan_format_version: None,
            provider_format_version: None,
            terraform_version: None,
            variables: &[],
            prior_state: None,
            configuration: None,
            planned_values: None,
            proposed_unknown: None,
            resource_changes: &[],
            resource_drift: &[],
            relevant_attributes: &[],
            output_changes: &[],
            checks: &[],
            deferred_changes: &[],
            action_invocations: &[],
            deferred_action_invocations: &[],
            applyable: None,
            complete: None,
            errored: None,
            timestamp: None,
            provider_schemas: None,
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                // What the pre-pass set aside is not read (see `tfwire_json::skeleton::sets_aside`).
                k if cx.skeleton && tfwire_json::skeleton::sets_aside(k) => {}
                "format_version" => {
                    p.format_version = item.opt_str()?;
                    if let Some(fv) = p.format_version {
                        version::check("format_version", fv)
                            .map_err(|e| e.with_offset(item.offset()))?;
                    }
                }
                "plan_format_version" => {
                    p.plan_format_version = item.opt_str()?;
                    if let Some(fv) = p.plan_format_version {
                        version::check("plan_format_version", fv)
                            .map_err(|e| e.with_offset(item.offset()))?;
                    }
                }
                "provider_format_version" => p.provider_format_version = item.opt_str()?,
                "terraform_version" => p.terraform_version = item.opt_str()?,
                "variables" => {
                    p.variables = cx.named(item, |cx, name, var| {
                        let mut value = None;
                        cx.members(var, |k, v| {
                            if k == "value" {
                                value = Some(v);
                            }
                            Ok(())
                        })?;
                        Ok(Variable {
                            name,
                            value,
                            raw: var,
                        })
                    })?
                }
                "prior_state" if !item.is_null() => p.prior_state = Some(State::build(cx, item)?),
                "configuration" if !item.is_null() => {
                    item.expect_object()?;
                    p.configuration = Some(Configuration { raw: item });
                }
                "planned_values" if !item.is_null() => {
                    p.planned_values = Some(Values::build(cx, item)?)
                }
                "proposed_unknown" if !item.is_null() => {
                    p.proposed_unknown = Some(Values::build(cx, item)?)
                }
                "resource_changes" => p.resource_changes = cx.list(item, ResourceChange::build)?,
                "resource_drift" => p.resource_drift = cx.list(item, ResourceChange::build)?,
                "relevant_attributes" => {
                    p.relevant_attributes = cx.list(item, |cx, ra| {
                        let mut r = RelevantAttribute {
                            resource: "",
                            attribute: None,
                        };
                        cx.members(ra, |k, v| {
                            match k {
                                "resource" => r.resource = v.expect_str()?,
                                "attribute" if !v.is_null() => {
                                    r.attribute = Some(AttrPath::build(v)?)
                                }
                                _ => {}
                            }
                            Ok(())
                        })?;
                        Ok(r)
                    })?
                }
                "output_changes" => p.output_changes = cx.named(item, OutputChange::build)?,
                "checks" => p.checks = cx.list(item, Check::build)?,
                "deferred_changes" => p.deferred_changes = cx.list(item, DeferredChange::build)?,
                "action_invocations" => {
                    p.action_invocations = cx.list(item, ActionInvocation::build)?
                }
                "deferred_action_invocations" => {
                    p.deferred_action_invocations =
                        cx.list(item, DeferredActionInvocation::build)?
                }
                "applyable" => p.applyable = item.opt_bool()?,
                "complete" => p.complete = item.opt_bool()?,
                "errored" => p.errored = item.opt_bool()?,
                "timestamp" => p.timestamp = item.opt_str()?,
                "provider_schemas" => p.provider_schemas = item.opt(),
                _ => {}
            }
            Ok(())
        })?;
        Ok(p)
    }

    /// The document's format version: `format_version`, or `plan_format_version` for a
    /// redacted plan; `None` when neither is given.
    pub fn version(&self) -> Option<FormatVersion> {
        self.format_version
            .or(self.plan_format_version)
            .and_then(FormatVersion::parse)
    }

    /// The client that wrote this plan, as far as the document tells: Terraform when it has
    /// `applyable` or `complete` (Terraform writes both since 1.9, OpenTofu neither), action
    /// invocations or deferred changes (which only Terraform writes), or is a Terraform Cloud
    /// redacted plan; OpenTofu otherwise.
    ///
    /// Where the rule is wrong: a Terraform plan older than 1.9 is taken for OpenTofu's (its
    /// JSON differs from OpenTofu's in nothing this model reads), and so would an OpenTofu
    /// release that starts writing any of these members. `terraform_version` does not tell: both
    /// clients write their own version there, and the two series overlap (1.6 to 1.12).
    ///
    /// ```
    /// use tfwire_plan::{Client, Parser};
    /// let arena = bumpalo::Bump::new();
    /// let mut terraform =
    ///     br#"{"format_version":"1.2","resource_changes":[],"applyable":true,"complete":true}"#.to_vec();
    /// let tape = Parser::new().parse(&mut terraform)?;
    /// assert_eq!(tape.plan(&arena)?.client(), Client::Terraform);
    /// let mut opentofu = br#"{"format_version":"1.2","resource_changes":[],"errored":false}"#.to_vec();
    /// let tape = Parser::new().parse(&mut opentofu)?;
    /// assert_eq!(tape.plan(&arena)?.client(), Client::OpenTofu);
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    pub fn client(&self) -> Client {
        if self.applyable.is_some()
            || self.complete.is_some()
            || !self.action_invocations.is_empty()
            || !self.deferred_changes.is_empty()
            || !self.deferred_action_invocations.is_empty()
            || self.is_redacted()
        {
            Client::Terraform
        } else {
            Client::OpenTofu
        }
    }

    /// Whether this is a Terraform Cloud redacted plan (`plan_format_version`).
    pub fn is_redacted(&self) -> bool {
        self.plan_format_version.is_some()
    }

    /// The resource change with this address (the current object's, not a deposed one's).
    pub fn resource_change(&self, address: &str) -> Option<&'a ResourceChange<'a>> {
        self.resource_changes
            .iter()
            .find(|rc| rc.address == address && rc.deposed.is_none())
    }
}
