//! What `show -json` adds to the document of [`crate::show`] for a plan file:
//! `planned_values` (the clients' `jsonplan.marshalPlannedValues`), `prior_state` (the
//! `tfstate` member through tfwire-plan's state writer), `configuration` (tfwire-config)
//! and the defaults of the root variables the plan did not set.

use crate::address::{self, Address};
use crate::error::Error;
use crate::parallel::{Budget, map_chunks};
use crate::proto;
use crate::show::{
    IdentityType, Side, Types, decode, dynamic, identity_json, join, provider_of, share,
    value_indexes,
};
use crate::{Dialect, Planfile};
use bumpalo::Bump;
use std::collections::{HashMap, HashSet};
use tfwire::schema::{Kind, ProgramCache};
use tfwire::{Ty, Value};
use tfwire_json::JsonWriter;
use tfwire_plan::ctyjson::{self as values, SchemaAt, Sensitive, Writer};

/// Options of [`Planfile::show_json_with`].
///
/// ```
/// let options = tfwire_planfile::ShowJson::default().configuration(false);
/// assert!(!options.configuration);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShowJson {
    /// Whether the document holds `configuration` and the defaults of the root variables the
    /// plan did not set, both read from the configuration snapshot (`tfconfig/`). Default
    /// `true`, as the clients write them; without them the document is the client's less
    /// `configuration`, and `variables` holds only the variables the plan set.
    pub configuration: bool,
}

impl Default for ShowJson {
    fn default() -> ShowJson {
        ShowJson {
            configuration: true,
        }
    }
}

impl ShowJson {
    /// With `configuration`.
    pub fn configuration(mut self, yes: bool) -> ShowJson {
        self.configuration = yes;
        self
    }
}

/// The client that wrote a dialect, in tfwire-plan's and tfwire-config's terms.
pub(crate) fn plan_client(dialect: Dialect) -> tfwire_plan::Client {
    match dialect {
        Dialect::OpenTofu => tfwire_plan::Client::OpenTofu,
        Dialect::Terraform => tfwire_plan::Client::Terraform,
    }
}

fn config_client(dialect: Dialect) -> tfwire_config::Client {
    match dialect {
        Dialect::OpenTofu => tfwire_config::Client::OpenTofu,
        Dialect::Terraform => tfwire_config::Client::Terraform,
    }
}

#[cold]
fn config_error(e: tfwire_config::Error) -> Error {
    Error::invalid(format!("the configuration snapshot: {e}"))
}

/// The configuration snapshot, read.
pub(crate) fn configuration(pf: &Planfile) -> Result<tfwire_config::Configuration, Error> {
    let files = pf.config_snapshot();
    let limits = tfwire_config::Limits::default();
    tfwire_config::Configuration::read(&files, &limits).map_err(config_error)
}

/// The defaults of the root variables (name, JSON text), for those the plan did not set.
pub(crate) fn variable_defaults(
    config: &tfwire_config::Configuration,
) -> Result<Vec<(String, String)>, Error> {
    config.root_variable_defaults().map_err(config_error)
}

/// The `configuration` member's value.
pub(crate) fn write_configuration(
    w: &mut Writer<'_>,
    config: &tfwire_config::Configuration,
    schemas: &ProgramCache,
    dialect: Dialect,
) -> Result<(), Error> {
    config
        .write_json(w, schemas, config_client(dialect))
        .map_err(config_error)
        .map_err(|e| e.at("configuration"))
}

/// `prior_state`: the `tfstate` member as `show -json` writes a state, left out (`false`)
/// when the state is empty, as both clients do.
pub(crate) fn write_prior_state(
    w: &mut Writer<'_>,
    pf: &Planfile,
    schemas: &ProgramCache,
    limit: u64,
) -> Result<(), Error> {
    let Some(bytes) = pf.state() else {
        return Ok(());
    };
    let at = |e: tfwire_plan::Error| Error::from(e).at("prior_state (the tfstate member)");
    let mut input = bytes.to_vec();
    let mut parser = tfwire_plan::Parser::new();
    let tape = parser.parse(&mut input).map_err(at)?;
    let arena = Bump::new();
    let state = tape.raw_state(&arena).map_err(at)?;
    if state.outputs.is_empty() && state.resources.is_empty() {
        return Ok(());
    }
    let options = tfwire_plan::StateJson::new(plan_client(pf.dialect))
        .max_document_bytes(limit.saturating_sub(w.get_ref().len() as u64));
    let mut text = String::new();
    tfwire_plan::write_state_json(&state, schemas, &options, &mut text).map_err(at)?;
    w.key("prior_state")?;
    w.raw(&text)?;
    Ok(())
}

/// `planned_values`: the outputs and resources as they will be after the plan is applied
/// (unknown values left out), from the changes' after values.
pub(crate) fn write_planned_values(
    w: &mut Writer<'_>,
    pf: &Planfile,
    schemas: &ProgramCache,
    arena: &mut Bump,
    limit: u64,
) -> Result<(), Error> {
    let p = &pf.plan;
    w.key("planned_values")?;
    w.begin_object()?;
    let mut outputs: Vec<&proto::OutputChange> = p
        .output_changes
        .iter()
        .filter(|oc| oc.change.as_ref().map_or(0, |c| c.action) != proto::Action::Delete as i32)
        .collect();
    if !outputs.is_empty() {
        outputs.sort_by(|a, b| a.name.cmp(&b.name));
        w.key("outputs")?;
        w.begin_object()?;
        for oc in outputs {
            planned_output(w, oc, arena)
                .map_err(|e| e.at(format_args!("planned_values.outputs[{:?}]", oc.name)))?;
            arena.reset();
        }
        w.end_object()?;
    }
    // Resources by module, and the module tree: each module once, under its parent, in the
    // order the changes first name it (the root's children sorted by address).
    let forget = |c: &proto::Change| {
        c.action == proto::Action::Delete as i32
            || (pf.dialect == Dialect::Terraform && c.action == proto::Action::Forget as i32)
    };
    let mut by_module: HashMap<&str, Vec<(Address<'_>, &proto::ResourceInstanceChange)>> =
        HashMap::new();
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for rc in &p.resource_changes {
        if !rc.deposed_key.is_empty() {
            continue;
        }
        let c = rc
            .change
            .as_ref()
            .ok_or_else(|| Error::invalid("the change is missing").at(&rc.addr))?;
        if c.action == proto::Action::Delete as i32 {
            continue;
        }
        let addr = Address::parse(&rc.addr).map_err(|e| e.at(&rc.addr))?;
        let module = addr.module_text;
        by_module.entry(module).or_default().push((addr, rc));
        let mut parent = "";
        for m in tfwire_plan::module_ancestors(module).map_err(|e| Error::from(e).at(&rc.addr))? {
            if seen.insert(m) {
                children.entry(parent).or_default().push(m);
            }
            parent = m;
        }
    }
    w.key("root_module")?;
    let mut cx = Cx {
        pf,
        schemas,
        by_module,
        children,
        forget: &forget,
        limit,
        // About one and a half bytes of JSON a byte of `tfplan`.
        hint: usize::try_from((pf.tfplan_len as u64).saturating_mul(3) / 2)
            .unwrap_or(0)
            .min(usize::try_from(limit).unwrap_or(usize::MAX)),
        resources: p.resource_changes.len(),
    };
    cx.module(w, "")?;
    w.end_object()?;
    Ok(())
}

/// What the module writer needs: each module's changes and child modules (in the order
/// the changes first name them), taken as they are written.
struct Cx<'c, 'p> {
    pf: &'p Planfile,
    schemas: &'p ProgramCache,
    by_module: HashMap<&'p str, Vec<(Address<'p>, &'p proto::ResourceInstanceChange)>>,
    children: HashMap<&'p str, Vec<&'p str>>,
    forget: &'c (dyn Fn(&proto::Change) -> bool + Sync),
    limit: u64,
    /// About how many bytes the resources take, all modules together ...
    hint: usize,
    /// ... and how many there are.
    resources: usize,
}

impl Cx<'_, '_> {
    fn module(&mut self, w: &mut Writer<'_>, addr: &str) -> Result<(), Error> {
        w.begin_object()?;
        let mut resources = self.by_module.remove(addr).unwrap_or_default();
        resources.retain(|(_, rc)| rc.change.as_ref().is_some_and(|c| !(self.forget)(c)));
        if !resources.is_empty() {
            resources.sort_by(|a, b| a.1.addr.cmp(&b.1.addr));
            w.key("resources")?;
            let budget = Budget::new(w.get_ref().len(), self.limit);
            let escape = w.escape();
            let this = &*self;
            let texts = map_chunks(&resources, |chunk| {
                let hint = share(this.hint, chunk.len(), this.resources);
                let mut text = String::with_capacity(hint);
                let mut w = JsonWriter::new(&mut text, escape);
                let mut arena = Bump::new();
                let type_arena = Bump::new();
                let mut types = Types::new(Some(this.schemas), &type_arena);
                let mut charged = 0;
                for (a, rc) in chunk {
                    this.resource(&mut w, a, rc, &mut types, &arena)
                        .map_err(|e| e.at(&rc.addr).at("planned_values"))?;
                    arena.reset();
                    budget.charge(&mut charged, w.get_ref().len())?;
                }
                Ok(text)
            })?;
            join(w, &texts)?;
        }
        if !addr.is_empty() {
            w.member_str("address", addr)?;
        }
        let mut children = self.children.remove(addr).unwrap_or_default();
        if !children.is_empty() {
            if addr.is_empty() {
                children.sort_unstable();
            }
            w.key("child_modules")?;
            w.begin_array()?;
            for c in children {
                self.module(w, c)?;
            }
            w.end_array()?;
        }
        w.end_object()?;
        Ok(())
    }

    fn resource(
        &self,
        w: &mut Writer<'_>,
        addr: &Address<'_>,
        rc: &proto::ResourceInstanceChange,
        types: &mut Types<'_, '_>,
        arena: &Bump,
    ) -> Result<(), Error> {
        let dialect = self.pf.dialect;
        let c = rc
            .change
            .as_ref()
            .ok_or_else(|| Error::invalid("the change is missing"))?;
        let provider = provider_of(&rc.provider)?;
        let kind = match addr.mode {
            address::Mode::Managed => Kind::Resource,
            address::Mode::Data => Kind::DataSource,
            address::Mode::Ephemeral => {
                return Err(Error::invalid(
                    "an ephemeral resource among the planned changes",
                ));
            }
        };
        let missing = || {
            crate::ErrorKind::MissingSchema(format!(
                "no schema for {} {:?} of provider {provider} in the given schemas",
                addr.mode.name(),
                addr.type_name
            ))
            .into()
        };
        let info = types
            .typed(provider, kind, addr.type_name, missing)?
            .ok_or_else(missing)?;
        let (schema, typed, identity, version) = (
            info.schema,
            (&*info.program, info.ty),
            info.identity.clone(),
            info.identity_version,
        );
        let (_, after_i) = value_indexes(c.action);
        let raw = after_value(c, after_i)?;
        let side = Side::new(raw, &c.after_sensitive_paths, "after", true)?;
        let (after, ty, marks) = side.decode(Some(typed), arena)?;
        w.begin_object()?;
        w.member_str("address", &rc.addr)?;
        w.member_str("mode", addr.mode.name())?;
        w.member_str("type", addr.type_name)?;
        w.member_str("name", addr.name)?;
        match &addr.key {
            address::Key::Int(i) => {
                w.key("index")?;
                w.int(*i)?;
            }
            address::Key::Str(s) => w.member_str("index", s)?,
            address::Key::None | address::Key::Unknown => {}
        }
        w.member_str("provider_name", provider)?;
        w.key("schema_version")?;
        w.int(schema.version)?;
        if !after.is_null() {
            let known = after.is_wholly_known();
            if values::has_after(after, known) {
                w.key("values")?;
                values::write_after(w, after, known).map_err(|e| Error::from(e).at("values"))?;
            }
        }
        w.key("sensitive_values")?;
        Sensitive { marks: &marks }.write(w, after, ty, SchemaAt::None, false)?;
        if let Some(v) = &c.after_identity {
            match (dialect, &identity) {
                (Dialect::Terraform, IdentityType::Schema(p)) => {
                    let (json, null) = identity_json(v, Some(p), arena, w.escape())?;
                    if !null {
                        w.key("identity_schema_version")?;
                        w.int(version)?;
                        w.key("identity")?;
                        w.raw(&json)?;
                    }
                }
                (Dialect::Terraform, _) => {}
                (Dialect::OpenTofu, _) => {
                    let program = match &identity {
                        IdentityType::Schema(p) => Some(&**p),
                        _ => None,
                    };
                    let (json, null) = identity_json(v, program, arena, w.escape())
                        .map_err(|e| e.at("after_identity"))?;
                    if !null {
                        w.key("identity")?;
                        w.raw(&json)?;
                        w.key("identity_schema_version")?;
                        w.int(version)?;
                    }
                }
            }
        }
        w.end_object()?;
        Ok(())
    }
}

/// One planned output: `sensitive`, and when its value is wholly known its `type` and
/// `value`.
fn planned_output(w: &mut Writer<'_>, oc: &proto::OutputChange, arena: &Bump) -> Result<(), Error> {
    let c = oc
        .change
        .as_ref()
        .ok_or_else(|| Error::invalid("the change is missing"))?;
    let (_, after_i) = value_indexes(c.action);
    let after = match after_value(c, after_i)? {
        Some(v) => decode(dynamic(), v, arena)?,
        None => Value::Null,
    };
    w.key(&oc.name)?;
    w.begin_object()?;
    w.member_bool("sensitive", oc.sensitive)?;
    if after_i.is_some() && after.is_wholly_known() {
        let ty = match after {
            Value::Dynamic(d) => d.ty,
            _ => Ty::Dynamic,
        };
        w.key("type")?;
        w.raw(&ty.to_string())?;
        w.key("value")?;
        values::write_known(w, after)?;
    }
    w.end_object()?;
    Ok(())
}

/// The after value of a change, at `i` of its values (none when the action has none).
fn after_value(c: &proto::Change, i: Option<usize>) -> Result<Option<&proto::DynamicValue>, Error> {
    let Some(i) = i else {
        return Ok(None);
    };
    c.values.get(i).map(Some).ok_or_else(|| {
        Error::invalid(format!(
            "the after value is missing ({} given)",
            c.values.len()
        ))
    })
}
