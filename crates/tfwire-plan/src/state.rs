//! The state representation of `terraform show -json` (and `prior_state` in plans).

use crate::build::{Cx, Result};
use crate::checks::Check;
use crate::json::Json;
use crate::values::Values;
use crate::version::{self, FormatVersion};

/// A `terraform show -json` state, or a plan's `prior_state`.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct State<'a> {
    /// `format_version` as written (`"1.0"`; `"0.1"`, `"0.2"` from older Terraform).
    pub format_version: Option<&'a str>,
    /// `format_version`, parsed.
    pub version: Option<FormatVersion>,
    /// `terraform_version`.
    pub terraform_version: Option<&'a str>,
    /// `values`; absent for an empty state.
    pub values: Option<Values<'a>>,
    /// `checks`.
    pub checks: &'a [Check<'a>],
    /// The whole object as written, including properties this model does not know.
    pub raw: Json<'a>,
}

impl<'a> State<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<State<'a>> {
        let mut s = State {
            format_version: None,
            version: None,
            terraform_version: None,
            values: None,
            checks: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "format_version" => {
                    s.format_version = item.opt_str()?;
                    if let Some(fv) = s.format_version {
                        s.version = Some(
                            version::check("format_version", fv)
                                .map_err(|e| e.with_offset(item.offset()))?,
                        );
                    }
                }
                "terraform_version" => s.terraform_version = item.opt_str()?,
                "values" if !item.is_null() => s.values = Some(Values::build(cx, item)?),
                "checks" => s.checks = cx.list(item, Check::build)?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(s)
    }

    /// The address of every resource instance, depth first through the module tree: the
    /// addresses `tofu state list` / `terraform state list` print, in document order (the
    /// commands sort them: [`crate::address::sort_state_list`]; checked against both clients
    /// in `corpus/real-client*`).
    pub fn addresses(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.values
            .into_iter()
            .flat_map(|v| v.resources().map(|r| r.address))
    }
}
