//! Action invocations (Terraform ≥ 1.14): `action_invocations[]` and
//! `deferred_action_invocations[]` of a plan.
//!
//! An action is a provider operation run during apply without managing an object: run
//! because a resource's `lifecycle { action_trigger { ... } }` fires on one of its events
//! (before or after create, update, destroy), or because it was asked for on the command
//! line (`terraform apply -invoke=action.TYPE.NAME`). OpenTofu writes neither list.

use crate::build::{Cx, Result};
use crate::json::Json;
use crate::merged::{Mark, Merged};

/// The event of a resource's lifecycle that triggers an action (`action_trigger_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriggerEvent<'a> {
    /// `"BeforeCreate"`.
    BeforeCreate,
    /// `"AfterCreate"`.
    AfterCreate,
    /// `"BeforeUpdate"`.
    BeforeUpdate,
    /// `"AfterUpdate"`.
    AfterUpdate,
    /// `"BeforeDestroy"`.
    BeforeDestroy,
    /// `"AfterDestroy"`.
    AfterDestroy,
    /// Any other event, kept as written.
    Other(&'a str),
}

impl<'a> TriggerEvent<'a> {
    /// The event as written in plans (Terraform's spelling, `"AfterCreate"`).
    pub fn from_name(s: &'a str) -> TriggerEvent<'a> {
        match s {
            "BeforeCreate" => TriggerEvent::BeforeCreate,
            "AfterCreate" => TriggerEvent::AfterCreate,
            "BeforeUpdate" => TriggerEvent::BeforeUpdate,
            "AfterUpdate" => TriggerEvent::AfterUpdate,
            "BeforeDestroy" => TriggerEvent::BeforeDestroy,
            "AfterDestroy" => TriggerEvent::AfterDestroy,
            other => TriggerEvent::Other(other),
        }
    }

    /// The event as written in plans.
    pub fn name(&self) -> &'a str {
        match *self {
            TriggerEvent::BeforeCreate => "BeforeCreate",
            TriggerEvent::AfterCreate => "AfterCreate",
            TriggerEvent::BeforeUpdate => "BeforeUpdate",
            TriggerEvent::AfterUpdate => "AfterUpdate",
            TriggerEvent::BeforeDestroy => "BeforeDestroy",
            TriggerEvent::AfterDestroy => "AfterDestroy",
            TriggerEvent::Other(s) => s,
        }
    }

    /// Whether the action runs before or after the resource's change; `None` for an event
    /// Terraform does not write ([`TriggerEvent::Other`]).
    pub fn timing(&self) -> Option<ActionTiming> {
        match self {
            TriggerEvent::BeforeCreate
            | TriggerEvent::BeforeUpdate
            | TriggerEvent::BeforeDestroy => Some(ActionTiming::Before),
            TriggerEvent::AfterCreate | TriggerEvent::AfterUpdate | TriggerEvent::AfterDestroy => {
                Some(ActionTiming::After)
            }
            TriggerEvent::Other(_) => None,
        }
    }

    /// The event as the configuration spells it (`after_create`, the word an
    /// `action_trigger`'s `events` list takes); an unknown event as written.
    pub fn config_name(&self) -> &'a str {
        match *self {
            TriggerEvent::BeforeCreate => "before_create",
            TriggerEvent::AfterCreate => "after_create",
            TriggerEvent::BeforeUpdate => "before_update",
            TriggerEvent::AfterUpdate => "after_update",
            TriggerEvent::BeforeDestroy => "before_destroy",
            TriggerEvent::AfterDestroy => "after_destroy",
            TriggerEvent::Other(s) => s,
        }
    }
}

/// When an action a resource's lifecycle event triggers runs, relative to that resource's
/// change (Terraform draws the two groups under the change, before-actions first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ActionTiming {
    /// Before the change (`BeforeCreate`, `BeforeUpdate`, `BeforeDestroy`).
    Before,
    /// After the change (`AfterCreate`, `AfterUpdate`, `AfterDestroy`).
    After,
}

/// `lifecycle_action_trigger`: the action runs because a resource's `action_trigger` block
/// fires.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct LifecycleTrigger<'a> {
    /// `triggering_resource_address`: the resource instance whose lifecycle event runs the
    /// action.
    pub triggering_resource_address: &'a str,
    /// `action_trigger_event`.
    pub event: Option<TriggerEvent<'a>>,
    /// `action_trigger_block_index`: which `action_trigger` block of the resource (from 0).
    pub block_index: Option<u64>,
    /// `actions_list_index`: which element of the block's `actions` list (from 0).
    pub list_index: Option<u64>,
    /// `on_failure` as written (`"ActionOnFailureHalt"`, `"ActionOnFailureContinue"`, ...).
    pub on_failure: Option<&'a str>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// What makes an action run.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum ActionTrigger<'a> {
    /// A resource's lifecycle event (`lifecycle_action_trigger`).
    Lifecycle(LifecycleTrigger<'a>),
    /// The command line, `-invoke=ADDRESS` (`invoke_action_trigger`).
    Invoke {
        /// `calling_resource_address`: the resource instance that fills the action's
        /// caller object, when there is one.
        calling_resource_address: Option<&'a str>,
        /// The whole object as written.
        raw: Json<'a>,
    },
}

/// An element of `action_invocations`: one action that apply will run.
///
/// ```
/// use tfwire_plan::{ActionTrigger, Parser, TriggerEvent};
/// let mut input = br#"{"format_version":"1.2","complete":true,"action_invocations":[
///   {"address":"action.local_command.hello","type":"local_command","name":"hello",
///    "config_values":{"command":"echo"},"config_sensitive":{},"config_unknown":{},
///    "provider_name":"registry.terraform.io/hashicorp/local",
///    "lifecycle_action_trigger":{"triggering_resource_address":"terraform_data.a",
///      "action_trigger_event":"AfterCreate","action_trigger_block_index":0,
///      "actions_list_index":0,"on_failure":"ActionOnFailureHalt"}}]}"#.to_vec();
/// let arena = bumpalo::Bump::new();
/// let tape = Parser::new().parse(&mut input)?;
/// let plan = tape.plan(&arena)?;
/// let ai = &plan.action_invocations[0];
/// let Some(ActionTrigger::Lifecycle(t)) = ai.trigger else { panic!() };
/// assert_eq!((t.triggering_resource_address, t.event), ("terraform_data.a", Some(TriggerEvent::AfterCreate)));
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ActionInvocation<'a> {
    /// `address`, e.g. `action.local_command.hello` or `module.m.action.t.n[0]`.
    pub address: &'a str,
    /// `type`: the action type.
    pub type_name: &'a str,
    /// `name`: the action's local name.
    pub name: &'a str,
    /// `provider_name`.
    pub provider_name: Option<&'a str>,
    /// `config_values`: the known parts of the action's configuration.
    pub config_values: Option<Json<'a>>,
    /// `config_sensitive`: `true` leaves for sensitive values.
    pub config_sensitive: Option<Json<'a>>,
    /// `config_unknown`: `true` leaves for values known only during apply.
    pub config_unknown: Option<Json<'a>>,
    /// What makes it run; `None` when the object names no trigger (Terraform always names
    /// one).
    pub trigger: Option<ActionTrigger<'a>>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> ActionInvocation<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<ActionInvocation<'a>> {
        let mut ai = ActionInvocation {
            address: "",
            type_name: "",
            name: "",
            provider_name: None,
            config_values: None,
            config_sensitive: None,
            config_unknown: None,
            trigger: None,
            raw: v,
        };
        let mut address = None;
        cx.members(v, |k, item| {
            match k {
                "address" => address = item.opt_str()?,
                "type" => ai.type_name = item.opt_str()?.unwrap_or(""),
                "name" => ai.name = item.opt_str()?.unwrap_or(""),
                "provider_name" => ai.provider_name = item.opt_str()?,
                "config_values" => ai.config_values = item.opt(),
                "config_sensitive" => ai.config_sensitive = item.opt(),
                "config_unknown" => ai.config_unknown = item.opt(),
                "lifecycle_action_trigger" if !item.is_null() => {
                    let mut t = LifecycleTrigger {
                        triggering_resource_address: "",
                        event: None,
                        block_index: None,
                        list_index: None,
                        on_failure: None,
                        raw: item,
                    };
                    cx.members(item, |k, v| {
                        match k {
                            "triggering_resource_address" => {
                                t.triggering_resource_address = v.opt_str()?.unwrap_or("")
                            }
                            "action_trigger_event" => {
                                t.event = v.opt_str()?.map(TriggerEvent::from_name)
                            }
                            "action_trigger_block_index" => t.block_index = v.opt_u64()?,
                            "actions_list_index" => t.list_index = v.opt_u64()?,
                            "on_failure" => t.on_failure = v.opt_str()?,
                            _ => {}
                        }
                        Ok(())
                    })?;
                    ai.trigger = Some(ActionTrigger::Lifecycle(t));
                }
                "invoke_action_trigger" if !item.is_null() => {
                    let mut calling = None;
                    cx.members(item, |k, v| {
                        if k == "calling_resource_address" {
                            calling = v.opt_str()?;
                        }
                        Ok(())
                    })?;
                    ai.trigger = Some(ActionTrigger::Invoke {
                        calling_resource_address: calling,
                        raw: item,
                    });
                }
                _ => {}
            }
            Ok(())
        })?;
        ai.address = match address {
            Some(a) => a,
            None if !ai.type_name.is_empty() && !ai.name.is_empty() => cx
                .arena
                .alloc_str(&format!("action.{}.{}", ai.type_name, ai.name)),
            None => {
                return Err(
                    crate::Error::new(crate::ErrorKind::Missing("address")).with_offset(v.offset())
                );
            }
        };
        Ok(ai)
    }

    /// The action's configuration with its unknown (`config_unknown`) and sensitive
    /// (`config_sensitive`) markers.
    pub fn config_view(&self) -> Merged<'a> {
        Merged::new(
            self.config_values,
            Mark::from_json(self.config_unknown),
            Mark::from_json(self.config_sensitive),
        )
    }

    /// The lifecycle trigger, if a resource's event runs the action.
    pub fn lifecycle(&self) -> Option<&LifecycleTrigger<'a>> {
        match &self.trigger {
            Some(ActionTrigger::Lifecycle(t)) => Some(t),
            _ => None,
        }
    }

    /// Whether the action was asked for on the command line (`-invoke`).
    pub fn is_invoked(&self) -> bool {
        matches!(self.trigger, Some(ActionTrigger::Invoke { .. }))
    }
}

/// An element of `deferred_action_invocations`: an action invocation left for a later
/// plan.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct DeferredActionInvocation<'a> {
    /// `reason`: why it is deferred (`instance_count_unknown`, `resource_config_unknown`,
    /// `provider_config_unknown`, `absent_prereq`, `deferred_prereq`, `unknown`).
    pub reason: &'a str,
    /// `action_invocation`.
    pub action_invocation: ActionInvocation<'a>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> DeferredActionInvocation<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<DeferredActionInvocation<'a>> {
        let mut reason = "";
        let mut ai = None;
        cx.members(v, |k, item| {
            match k {
                "reason" => reason = item.opt_str()?.unwrap_or(""),
                "action_invocation" => ai = Some(ActionInvocation::build(cx, item)?),
                _ => {}
            }
            Ok(())
        })?;
        let Some(action_invocation) = ai else {
            return Err(
                crate::Error::new(crate::ErrorKind::Missing("action_invocation"))
                    .with_offset(v.offset()),
            );
        };
        Ok(DeferredActionInvocation {
            reason,
            action_invocation,
            raw: v,
        })
    }
}
