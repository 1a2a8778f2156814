//! The checks representation: `checks` in plans and states (experimental in Terraform).

use crate::build::{Cx, Result};
use crate::json::Json;
use crate::values::{Index, Mode};

/// A check's (or instance's) status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckStatus<'a> {
    /// `"pass"`.
    Pass,
    /// `"fail"`: a condition evaluated to false.
    Fail,
    /// `"error"`: a condition could not be evaluated.
    Error,
    /// `"unknown"`: known only after apply.
    Unknown,
    /// Any other status, kept as written.
    Other(&'a str),
}

impl<'a> CheckStatus<'a> {
    fn from_name(s: &'a str) -> CheckStatus<'a> {
        match s {
            "pass" => CheckStatus::Pass,
            "fail" => CheckStatus::Fail,
            "error" => CheckStatus::Error,
            "unknown" => CheckStatus::Unknown,
            other => CheckStatus::Other(other),
        }
    }

    /// The status as written.
    pub fn name(&self) -> &'a str {
        match *self {
            CheckStatus::Pass => "pass",
            CheckStatus::Fail => "fail",
            CheckStatus::Error => "error",
            CheckStatus::Unknown => "unknown",
            CheckStatus::Other(s) => s,
        }
    }
}

/// The `address` object of a check or check instance.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct CheckAddress<'a> {
    /// `kind`: `resource`, `output_value`, `check`, ...
    pub kind: Option<&'a str>,
    /// `to_display`: the address for display.
    pub to_display: Option<&'a str>,
    /// `mode` (resources only).
    pub mode: Option<Mode<'a>>,
    /// `type` (resources only).
    pub type_name: Option<&'a str>,
    /// `name`.
    pub name: Option<&'a str>,
    /// `module`: the module (instance) address, outside the root module.
    pub module: Option<&'a str>,
    /// `instance_key` (instances of resources with `count` or `for_each`).
    pub instance_key: Option<Index<'a>>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> CheckAddress<'a> {
    fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<CheckAddress<'a>> {
        let mut a = CheckAddress {
            kind: None,
            to_display: None,
            mode: None,
            type_name: None,
            name: None,
            module: None,
            instance_key: None,
            raw: v,
        };
        if v.is_null() {
            return Ok(a);
        }
        cx.members(v, |k, item| {
            match k {
                "kind" => a.kind = item.opt_str()?,
                "to_display" => a.to_display = item.opt_str()?,
                "mode" => a.mode = item.opt_str()?.map(Mode::from_name),
                "type" => a.type_name = item.opt_str()?,
                "name" => a.name = item.opt_str()?,
                "module" => a.module = item.opt_str()?,
                "instance_key" => a.instance_key = Index::build(cx, item)?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(a)
    }
}

/// A checkable object (a resource with conditions, an output, a `check` block).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Check<'a> {
    /// `address`.
    pub address: CheckAddress<'a>,
    /// `status`: the aggregate of the instances.
    pub status: Option<CheckStatus<'a>>,
    /// `instances`.
    pub instances: &'a [CheckInstance<'a>],
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Check<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Check<'a>> {
        let mut c = Check {
            address: CheckAddress::build(cx, Json::null())?,
            status: None,
            instances: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "address" => c.address = CheckAddress::build(cx, item)?,
                "status" => c.status = item.opt_str()?.map(CheckStatus::from_name),
                "instances" => c.instances = cx.list(item, CheckInstance::build)?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(c)
    }
}

/// One instance of a checkable object.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct CheckInstance<'a> {
    /// `address`: merge it over the object's address for the full address.
    pub address: CheckAddress<'a>,
    /// `status`.
    pub status: Option<CheckStatus<'a>>,
    /// `problems[].message`: why a condition failed.
    pub problems: &'a [&'a str],
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> CheckInstance<'a> {
    fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<CheckInstance<'a>> {
        let mut c = CheckInstance {
            address: CheckAddress::build(cx, Json::null())?,
            status: None,
            problems: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "address" => c.address = CheckAddress::build(cx, item)?,
                "status" => c.status = item.opt_str()?.map(CheckStatus::from_name),
                "problems" => {
                    c.problems = cx.list(item, |cx, p| {
                        let mut msg = "";
                        cx.members(p, |k, m| {
                            if k == "message" {
                                msg = m.opt_str()?.unwrap_or("");
                            }
                            Ok(())
                        })?;
                        Ok(msg)
                    })?
                }
                _ => {}
            }
            Ok(())
        })?;
        Ok(c)
    }
}
