//! The values representation: `planned_values`, `prior_state.values`, a state's `values`.

use crate::build::{Cx, Result};
use crate::json::Json;
use crate::merged::{Mark, Merged};
use core::fmt;
use tfwire::TypedJson as _;

/// A resource's mode: `managed` (a `resource` block) or `data` (a `data` block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode<'a> {
    /// `"managed"`.
    Managed,
    /// `"data"`.
    Data,
    /// Any other mode (e.g. `"ephemeral"`), kept as written.
    Other(&'a str),
}

impl<'a> Mode<'a> {
    /// The mode as written in documents.
    pub fn from_name(s: &'a str) -> Mode<'a> {
        match s {
            "managed" => Mode::Managed,
            "data" => Mode::Data,
            other => Mode::Other(other),
        }
    }

    /// The mode's name: `"managed"`, `"data"`, ...
    pub fn name(&self) -> &'a str {
        match *self {
            Mode::Managed => "managed",
            Mode::Data => "data",
            Mode::Other(s) => s,
        }
    }

    /// The prefix this mode gives a resource address (`"data."`, `"ephemeral."`, or none).
    pub fn address_prefix(&self) -> &'a str {
        match *self {
            Mode::Managed => "",
            Mode::Data => "data.",
            Mode::Other("ephemeral") => "ephemeral.",
            Mode::Other(_) => "",
        }
    }
}

/// An instance key: `[0]` for `count`, `["key"]` for `for_each`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Index<'a> {
    /// A `count` index.
    Int(u64),
    /// A `for_each` key.
    Str(&'a str),
}

impl<'a> Index<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Option<Index<'a>>> {
        if v.is_null() {
            return Ok(None);
        }
        if let Some(s) = v.as_str() {
            return Ok(Some(Index::Str(s)));
        }
        match v.as_u64() {
            Some(n) => Ok(Some(Index::Int(n))),
            None if v.as_number().is_some() => Err(cx.invalid(
                format!("expected a non-negative integer or a string, found {v}"),
                v,
            )),
            None => Err(crate::Error::from(v.unexpected("an integer or a string"))),
        }
    }
}

/// The address form: `[0]` or `["key"]`, the key quoted as the clients quote it
/// ([`tfwire_json::escape::write_hcl_quoted`]: `${` as `$${`, controls escaped).
impl fmt::Display for Index<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Index::Int(n) => write!(f, "[{n}]"),
            Index::Str(s) => {
                f.write_str("[")?;
                tfwire_json::escape::write_hcl_quoted(f, s)?;
                f.write_str("]")
            }
        }
    }
}

/// A values representation: root module outputs and the module tree of resources.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Values<'a> {
    /// The whole object as written, including properties this model does not know.
    pub raw: Json<'a>,
    /// `outputs`: the root module's outputs, in document order.
    pub outputs: &'a [Output<'a>],
    /// `root_module`; absent in the `values` of an empty state.
    pub root_module: Option<Module<'a>>,
}

impl<'a> Values<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Values<'a>> {
        let mut values = Values {
            raw: v,
            outputs: &[],
            root_module: None,
        };
        cx.members(v, |k, item| {
            match k {
                "outputs" => values.outputs = cx.named(item, Output::build)?,
                "root_module" if !item.is_null() => {
                    values.root_module = Some(Module::build(cx, item)?)
                }
                _ => {}
            }
            Ok(())
        })?;
        Ok(values)
    }

    /// Every resource of the module tree, depth first: a module's own resources, then its
    /// child modules in order.
    pub fn resources(&self) -> impl Iterator<Item = &'a Resource<'a>> + use<'a> {
        let (first, children): (&'a [Resource<'a>], &'a [Module<'a>]) = match self.root_module {
            Some(m) => (m.resources, m.child_modules),
            None => (&[], &[]),
        };
        let mut pending = first.iter();
        let mut stack: smallvec::SmallVec<[&'a Module<'a>; 8]> = children.iter().rev().collect();
        core::iter::from_fn(move || {
            loop {
                if let Some(r) = pending.next() {
                    return Some(r);
                }
                let m = stack.pop()?;
                pending = m.resources.iter();
                stack.extend(m.child_modules.iter().rev());
            }
        })
    }
}

/// A root module output in a values representation or a raw state.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Output<'a> {
    /// The output's name.
    pub name: &'a str,
    /// `value`; absent when the value is unknown (planned values) or null.
    pub value: Option<Json<'a>>,
    /// `type`: the value's type as type JSON (Terraform ≥ 1.1).
    pub ty: Option<Json<'a>>,
    /// `sensitive`.
    pub sensitive: bool,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Output<'a> {
    pub(crate) fn build(cx: &Cx<'a>, name: &'a str, v: Json<'a>) -> Result<Output<'a>> {
        let mut out = Output {
            name,
            value: None,
            ty: None,
            sensitive: false,
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "value" => out.value = item.opt(),
                "type" => out.ty = item.opt(),
                "sensitive" => out.sensitive = item.opt_bool()?.unwrap_or(false),
                _ => {}
            }
            Ok(())
        })?;
        Ok(out)
    }
}

/// A module in a values representation: the root module or a child module.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Module<'a> {
    /// `address` (`module.child`, `module.a["x"]`); absent for the root module.
    pub address: Option<&'a str>,
    /// `resources`, in document order.
    pub resources: &'a [Resource<'a>],
    /// `child_modules`, in document order.
    pub child_modules: &'a [Module<'a>],
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Module<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Module<'a>> {
        let mut m = Module {
            address: None,
            resources: &[],
            child_modules: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "address" => m.address = item.opt_str()?,
                "resources" => m.resources = cx.list(item, Resource::build)?,
                // Recursion is bounded by the parser's depth limit.
                "child_modules" => m.child_modules = cx.list(item, Module::build)?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(m)
    }
}

/// A resource instance in a values representation.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Resource<'a> {
    /// `address`: the absolute instance address, e.g. `module.a.aws_instance.b[0]`.
    pub address: &'a str,
    /// `mode`.
    pub mode: Mode<'a>,
    /// `type`: the resource type, e.g. `aws_instance`.
    pub type_name: &'a str,
    /// `name`: the resource's local name.
    pub name: &'a str,
    /// `index`: the instance key, absent for a single-instance resource.
    pub index: Option<Index<'a>>,
    /// `provider_name`, e.g. `registry.terraform.io/hashicorp/aws` (or `aws` before
    /// Terraform 0.13).
    pub provider_name: Option<&'a str>,
    /// `schema_version`: the resource type schema version that `values` conforms to.
    pub schema_version: Option<u64>,
    /// `values`: the attribute values (unknown values omitted or null in planned values).
    /// Absent for a resource being forgotten.
    pub values: Option<Json<'a>>,
    /// `sensitive_values`: which values are sensitive, mirroring `values` with `true`
    /// leaves; may also be the bool `false`.
    pub sensitive_values: Option<Json<'a>>,
    /// `depends_on` (states and prior states).
    pub depends_on: &'a [&'a str],
    /// `tainted`.
    pub tainted: bool,
    /// `deposed_key`, for a deposed object.
    pub deposed_key: Option<&'a str>,
    /// `identity` (Terraform ≥ 1.12, OpenTofu).
    pub identity: Option<Json<'a>>,
    /// `identity_schema_version`.
    pub identity_schema_version: Option<u64>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Resource<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Resource<'a>> {
        let mut r = Resource {
            address: "",
            mode: Mode::Managed,
            type_name: "",
            name: "",
            index: None,
            provider_name: None,
            schema_version: None,
            values: None,
            sensitive_values: None,
            depends_on: &[],
            tainted: false,
            deposed_key: None,
            identity: None,
            identity_schema_version: None,
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "address" => r.address = item.expect_str()?,
                "mode" => r.mode = Mode::from_name(item.expect_str()?),
                "type" => r.type_name = item.expect_str()?,
                "name" => r.name = item.expect_str()?,
                "index" => r.index = Index::build(cx, item)?,
                "provider_name" => r.provider_name = item.opt_str()?,
                "schema_version" => r.schema_version = item.opt_u64()?,
                "values" => r.values = item.opt(),
                "sensitive_values" => r.sensitive_values = item.opt(),
                "depends_on" => r.depends_on = cx.strings(item)?,
                "tainted" => r.tainted = item.opt_bool()?.unwrap_or(false),
                "deposed_key" => r.deposed_key = item.opt_str()?,
                "identity" => r.identity = item.opt(),
                "identity_schema_version" => r.identity_schema_version = item.opt_u64()?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(r)
    }

    /// `values` decoded with the resource type's compiled program (from a
    /// [`tfwire::schema::ProgramCache`]), in place on the document's tape; `None` when
    /// absent or `null`. See [`TypedJson::decode_typed`](tfwire::TypedJson::decode_typed).
    ///
    /// # Errors
    ///
    /// The [`tfwire::Error`] of a value that does not conform to the schema.
    pub fn values_typed(
        &self,
        program: &'a tfwire::Program,
        arena: &'a bumpalo::Bump,
    ) -> core::result::Result<Option<tfwire::Value<'a>>, tfwire::Error> {
        self.values.map_or(Ok(None), |v| v.typed(program, arena))
    }

    /// The values with their sensitivity, walkable by path (nothing is unknown here).
    pub fn view(&self) -> Merged<'a> {
        Merged::new(
            self.values,
            Mark::All(false),
            Mark::from_json(self.sensitive_values),
        )
    }
}
