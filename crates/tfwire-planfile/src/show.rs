//! The `show -json` document of a plan file: what `tofu show -json PLANFILE` prints, built
//! from the protobuf message and the values inside it.

use crate::Dialect;
use crate::address::{self, Address};
use crate::error::{Error, ErrorKind};
use crate::parallel::{Budget, map_chunks};
use crate::proto;
use crate::proto::terraform as tf;
use bumpalo::Bump;
use std::sync::{Arc, OnceLock};
use tfwire::schema::{Kind, ProgramCache};
use tfwire::{Program, Ty, Type, Value};
use tfwire_json::{Escape, JsonWriter};
use tfwire_plan::ctyjson::{self as values, SchemaAt as Schema, Sensitive, Step, Writer};

pub(crate) fn dynamic() -> &'static Program {
    static DYNAMIC: OnceLock<Program> = OnceLock::new();
    DYNAMIC.get_or_init(|| Program::compile(&Type::Dynamic))
}

/// The action list `show -json` writes for an action.
fn actions(action: i32, dialect: Dialect) -> Result<&'static [&'static str], Error> {
    use proto::Action as A;
    if dialect == Dialect::Terraform {
        // Terraform's numbers agree with OpenTofu's but for 9 (its create-then-forget,
        // reserved in OpenTofu) and 10 (OpenTofu's forget-then-create, unknown to it).
        match tf::Action::try_from(action) {
            Ok(tf::Action::CreateThenForget) => return Ok(&["create", "forget"]),
            Err(_) => return Err(Error::invalid(format!("invalid change action {action}"))),
            Ok(_) => {}
        }
    }
    Ok(match A::try_from(action) {
        Ok(A::Noop) => &["no-op"],
        Ok(A::Create) => &["create"],
        Ok(A::Read) => &["read"],
        Ok(A::Update) => &["update"],
        Ok(A::Delete) => &["delete"],
        Ok(A::DeleteThenCreate) => &["delete", "create"],
        Ok(A::CreateThenDelete) => &["create", "delete"],
        Ok(A::Forget) => &["forget"],
        Ok(A::ForgetThenCreate) => &["forget", "create"],
        Err(_) => return Err(Error::invalid(format!("invalid change action {action}"))),
    })
}

/// The member `"actions": [...]` of a change.
fn write_actions(w: &mut Writer<'_>, action: i32, dialect: Dialect) -> Result<(), Error> {
    let list = actions(action, dialect)?;
    w.key("actions")?;
    w.begin_array()?;
    for a in list {
        w.string(a)?;
    }
    w.end_array()?;
    Ok(())
}

/// Which of a change's values are before and after (OpenTofu's reader: a create has only
/// an after, a delete or forget only a before, a no-op one value that is both).
pub(crate) fn value_indexes(action: i32) -> (Option<usize>, Option<usize>) {
    use proto::Action as A;
    match A::try_from(action) {
        Ok(A::Noop) => (Some(0), Some(0)),
        Ok(A::Create) => (None, Some(0)),
        Ok(A::Delete | A::Forget) => (Some(0), None),
        _ => (Some(0), Some(1)),
    }
}

fn action_reason(reason: i32, dialect: Dialect) -> Result<Option<&'static str>, Error> {
    use proto::ResourceInstanceActionReason as R;
    // Terraform's reasons are OpenTofu's 0-13; OpenTofu's 14-16 are not Terraform's.
    if dialect == Dialect::Terraform && tf::ResourceInstanceActionReason::try_from(reason).is_err()
    {
        return Err(Error::invalid(format!(
            "unsupported action reason {reason}"
        )));
    }
    Ok(Some(match R::try_from(reason) {
        Ok(R::None) => return Ok(None),
        Ok(R::ReplaceBecauseTainted) => "replace_because_tainted",
        Ok(R::ReplaceByRequest) => "replace_by_request",
        Ok(R::ReplaceBecauseCannotUpdate) => "replace_because_cannot_update",
        Ok(R::DeleteBecauseNoResourceConfig) => "delete_because_no_resource_config",
        Ok(R::DeleteBecauseWrongRepetition) => "delete_because_wrong_repetition",
        Ok(R::DeleteBecauseCountIndex) => "delete_because_count_index",
        Ok(R::DeleteBecauseEachKey) => "delete_because_each_key",
        Ok(R::DeleteBecauseNoModule) => "delete_because_no_module",
        Ok(R::ReplaceByTriggers) => "replace_by_triggers",
        Ok(R::ReadBecauseConfigUnknown) => "read_because_config_unknown",
        Ok(R::ReadBecauseDependencyPending) => "read_because_dependency_pending",
        Ok(R::ReadBecauseCheckNested) => "read_because_check_nested",
        Ok(R::DeleteBecauseNoMoveTarget) => "delete_because_no_move_target",
        Ok(R::DeleteBecauseEnabledFalse) => "delete_because_enabled_false",
        Ok(R::ForgotBecauseLifecycleDestroyInState) => "forgot_because_lifecycle_destroy_in_state",
        Ok(R::ForgotBecauseLifecycleDestroyInConfig) => {
            "forgot_because_lifecycle_destroy_in_config"
        }
        Err(_) => {
            return Err(Error::invalid(format!(
                "unsupported action reason {reason}"
            )));
        }
    }))
}

/// Decodes a `DynamicValue` with `program`.
pub(crate) fn decode<'a>(
    program: &'a Program,
    v: &'a proto::DynamicValue,
    arena: &'a Bump,
) -> Result<Value<'a>, Error> {
    tfwire::decode_msgpack(program, &v.msgpack, arena)
        .map_err(|e| Error::invalid(format!("the value does not decode: {e}")))
}

/// The programs that decode the element keys of `paths` (each key is decoded with the
/// type it implies), in the order [`path`] takes them. They are compiled before anything is
/// decoded so that the values, which borrow from their program, can borrow from this list
/// (an arena would never drop the programs).
pub(crate) fn key_programs<'p>(
    paths: impl IntoIterator<Item = &'p proto::Path>,
) -> Result<Vec<Program>, Error> {
    let mut out = Vec::new();
    for p in paths {
        for s in &p.steps {
            if let Some(proto::path::step::Selector::ElementKey(k)) = &s.selector {
                let ty = tfwire::implied_type_msgpack(&k.msgpack)
                    .map_err(|e| Error::invalid(format!("a path's index step: {e}")))?;
                out.push(Program::compile(&ty));
            }
        }
    }
    Ok(out)
}

/// A `Path` message as path steps, its element keys decoded with the next programs of
/// `programs` (from [`key_programs`]).
pub(crate) fn path<'a>(
    p: &'a proto::Path,
    programs: &mut impl Iterator<Item = &'a Program>,
    arena: &'a Bump,
) -> Result<Vec<Step<'a>>, Error> {
    p.steps
        .iter()
        .map(|s| match &s.selector {
            Some(proto::path::step::Selector::AttributeName(n)) => Ok(Step::Attr(n)),
            Some(proto::path::step::Selector::ElementKey(k)) => {
                let program = programs
                    .next()
                    .ok_or_else(|| Error::invalid("a path's index step has no program"))?;
                Ok(Step::Index(decode(program, k, arena)?))
            }
            None => Err(Error::invalid("a path step without a selector")),
        })
        .collect()
}

/// A path as `show -json` writes it: `["tags", "env"]`, `["rule", 0, "port"]`.
pub(crate) fn write_path(w: &mut Writer<'_>, steps: &[Step<'_>]) -> Result<(), Error> {
    w.begin_array()?;
    for s in steps {
        match s {
            Step::Attr(n) => w.string(n)?,
            Step::Index(v) => values::write_known(w, *v)?,
        }
    }
    w.end_array()?;
    Ok(())
}

/// Refuses a document that has grown past `limit` bytes (checked after each change, so it
/// exceeds the limit by one change's text at most).
pub(crate) fn within(w: &Writer<'_>, limit: u64) -> Result<(), Error> {
    if w.get_ref().len() as u64 > limit {
        return Err(Error::new(crate::ErrorKind::DocumentTooLarge { limit }));
    }
    Ok(())
}

pub(crate) fn output_change(
    w: &mut Writer<'_>,
    oc: &proto::OutputChange,
    dialect: Dialect,
    arena: &Bump,
) -> Result<(), Error> {
    let c = oc
        .change
        .as_ref()
        .ok_or_else(|| Error::invalid("the change is missing"))?;
    let (before_i, after_i) = value_indexes(c.action);
    let value = |i: Option<usize>, which: &str| -> Result<Value<'_>, Error> {
        match i {
            None => Ok(Value::Null),
            Some(i) => {
                let v = c.values.get(i).ok_or_else(|| {
                    Error::invalid(format!(
                        "the {which} value is missing ({} given)",
                        c.values.len()
                    ))
                })?;
                decode(dynamic(), v, arena).map_err(|e| e.at(which))
            }
        }
    };
    let before = value(before_i, "before")?;
    let after = value(after_i, "after")?;
    w.begin_object()?;
    write_actions(w, c.action, dialect)?;
    w.key("before")?;
    values::write_known(w, before)?;
    let known = after.is_wholly_known();
    if values::has_after(after, known) {
        w.key("after")?;
        values::write_after(w, after, known)?;
    }
    w.key("after_unknown")?;
    if known {
        w.bool(false)?;
    } else {
        values::unknown_as_bool(w, after)?;
    }
    w.member_bool("before_sensitive", oc.sensitive)?;
    w.member_bool("after_sensitive", oc.sensitive)?;
    w.end_object()?;
    Ok(())
}

/// A resource change to list, with why it was deferred (`None` for a planned one).
pub(crate) type Listed<'a> = (&'a proto::ResourceInstanceChange, Option<&'static str>);

/// `deferred_changes` entries are `{"reason": ..., "resource_change": {...}}`, in the
/// same order; a deleted data source is listed there too.
pub(crate) fn resource_changes(
    w: &mut Writer<'_>,
    changes: &[Listed<'_>],
    dialect: Dialect,
    schemas: Option<&ProgramCache>,
    limit: u64,
) -> Result<(), Error> {
    let budget = Budget::new(w.get_ref().len(), limit);
    let texts = resource_change_texts(changes, dialect, schemas, w.escape(), &budget, 0)?;
    join(w, &texts)
}

/// The items of a list of resource changes (see [`resource_changes`]), sorted, written in
/// chunks on several threads ([`crate::parallel`]), each decoding one change's values at a
/// time in its own arena: one text a chunk, for [`join`]. `hint`: about how many bytes
/// they take together.
pub(crate) fn resource_change_texts(
    changes: &[Listed<'_>],
    dialect: Dialect,
    schemas: Option<&ProgramCache>,
    escape: Escape,
    budget: &Budget,
    hint: usize,
) -> Result<Vec<String>, Error> {
    let mut sorted: Vec<(Address<'_>, Listed<'_>)> = changes
        .iter()
        .map(|l| Ok((Address::parse(&l.0.addr)?, *l)))
        .collect::<Result<_, Error>>()?;
    sorted.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.0.deposed_key.cmp(&y.0.deposed_key)));
    map_chunks(&sorted, |chunk| {
        let mut text = String::with_capacity(share(hint, chunk.len(), sorted.len()));
        let mut w = JsonWriter::new(&mut text, escape);
        let mut arena = Bump::new();
        let type_arena = Bump::new();
        let mut types = Types::new(schemas, &type_arena);
        let mut charged = 0;
        for (addr, (rc, deferred)) in chunk {
            let c = rc
                .change
                .as_ref()
                .ok_or_else(|| Error::invalid("the change is missing").at(&rc.addr))?;
            if deferred.is_none() && !listed(rc) {
                continue;
            }
            with_reason(&mut w, *deferred, "resource_change", |w| {
                resource_change(w, addr, rc, c, dialect, &mut types, &arena)
                    .map_err(|e| e.at(&rc.addr))
            })?;
            // The change's values are written: their memory serves the next one.
            arena.reset();
            budget.charge(&mut charged, w.get_ref().len())?;
        }
        Ok(text)
    })
}

/// A chunk's share of `hint` bytes: `part` items of `all`.
pub(crate) fn share(hint: usize, part: usize, all: usize) -> usize {
    if all == 0 {
        return 0;
    }
    usize::try_from(hint as u128 * part as u128 / all as u128).unwrap_or(0)
}

/// Writes an array of the items of `texts`, each the items of one chunk, written by a
/// writer of its own (so without a leading comma; an empty one holds none).
pub(crate) fn join(w: &mut Writer<'_>, texts: &[String]) -> Result<(), Error> {
    w.get_mut()
        .reserve(texts.iter().map(|t| t.len() + 1).sum::<usize>() + 2);
    w.begin_array()?;
    for t in texts.iter().filter(|t| !t.is_empty()) {
        // Separated from the chunk before by the writer's comma.
        w.raw(t)?;
    }
    w.end_array()?;
    Ok(())
}

/// Whether a planned change is listed: data sources are "deleted" to clean up their state
/// entries, which is not shown.
pub(crate) fn listed(rc: &proto::ResourceInstanceChange) -> bool {
    let delete = rc
        .change
        .as_ref()
        .is_some_and(|c| c.action == proto::Action::Delete as i32);
    !(delete && Address::parse(&rc.addr).is_ok_and(|a| a.mode == address::Mode::Data))
}

/// The provider's source address in a provider configuration address
/// (`provider["registry.terraform.io/hashicorp/aws"].east`).
pub(crate) fn provider_of(config_addr: &str) -> Result<&str, Error> {
    address::provider_name(config_addr).ok_or_else(|| {
        Error::invalid(format!(
            "invalid provider configuration address {config_addr:?}"
        ))
    })
}

fn resource_change(
    w: &mut Writer<'_>,
    addr: &Address<'_>,
    rc: &proto::ResourceInstanceChange,
    c: &proto::Change,
    dialect: Dialect,
    types: &mut Types<'_, '_>,
    arena: &Bump,
) -> Result<(), Error> {
    let provider = provider_of(&rc.provider)?;
    w.begin_object()?;
    w.member_str("address", &rc.addr)?;
    if !rc.prev_run_addr.is_empty() && rc.prev_run_addr != rc.addr {
        w.member_str("previous_address", &rc.prev_run_addr)?;
    }
    if !addr.module_text.is_empty() {
        w.member_str("module_address", addr.module_text)?;
    }
    w.member_str("mode", addr.mode.name())?;
    w.member_str("type", addr.type_name)?;
    w.member_str("name", addr.name)?;
    instance_key(w, "index", &addr.key)?;
    w.member_str("provider_name", provider)?;
    if !rc.deposed_key.is_empty() {
        w.member_str("deposed", &rc.deposed_key)?;
    }
    w.key("change")?;
    w.begin_object()?;
    write_actions(w, c.action, dialect)?;
    change_values(w, addr, provider, c, types, arena)?;
    if !rc.required_replace.is_empty() {
        let programs = key_programs(&rc.required_replace)?;
        let mut programs = programs.iter();
        w.key("replace_paths")?;
        w.begin_array()?;
        for p in &rc.required_replace {
            write_path(w, &path(p, &mut programs, arena)?)?;
        }
        w.end_array()?;
    }
    let identity = types.identity(addr, provider);
    if let Some(imp) = &c.importing {
        w.key("importing")?;
        w.begin_object()?;
        if imp.unknown {
            w.member_bool("unknown", true)?;
        } else if !imp.id.is_empty() {
            w.member_str("id", &imp.id)?;
        } else if let Some(v) = &imp.identity {
            // An import by identity (the `identity` argument of `import`). Without an
            // identity schema OpenTofu writes `"importing": {}`, and Terraform decodes it
            // with an empty object type, which fails.
            let program = match (&identity, dialect) {
                (IdentityType::Schema(p), _) => Some(Some(&**p)),
                (IdentityType::Implied, _) => Some(None),
                (IdentityType::Missing, Dialect::OpenTofu) => None,
                (IdentityType::Missing, Dialect::Terraform) => {
                    return Err(missing_identity(addr, provider, dialect).at("importing.identity"));
                }
            };
            if let Some(program) = program {
                let (json, _) = identity_json(v, program, arena, w.escape())
                    .map_err(|e| e.at("importing.identity"))?;
                w.key("identity")?;
                w.raw(&json)?;
            }
        }
        w.end_object()?;
    }
    if !c.generated_config.is_empty() {
        w.member_str("generated_config", &c.generated_config)?;
    }
    for (name, v) in [
        ("before_identity", &c.before_identity),
        ("after_identity", &c.after_identity),
    ] {
        let Some(v) = v else { continue };
        let program = match (&identity, dialect) {
            (IdentityType::Schema(p), _) => Some(&**p),
            (IdentityType::Implied, _) | (IdentityType::Missing, Dialect::OpenTofu) => None,
            // Terraform writes identities only for a type with an identity schema.
            (IdentityType::Missing, Dialect::Terraform) => continue,
        };
        let (json, null) = identity_json(v, program, arena, w.escape()).map_err(|e| e.at(name))?;
        // OpenTofu leaves a null identity out; Terraform writes what it holds.
        if null && dialect == Dialect::OpenTofu {
            continue;
        }
        w.key(name)?;
        w.raw(&json)?;
    }
    w.end_object()?;
    if let Some(reason) = action_reason(rc.action_reason, dialect)? {
        w.member_str("action_reason", reason)?;
    }
    w.end_object()?;
    Ok(())
}

/// The member `name` for an instance key (none for an instance without a key); `unknown`
/// for an unknown key (`index_unknown` of a resource change, refused in a check result).
fn instance_key(w: &mut Writer<'_>, name: &str, key: &address::Key) -> Result<(), Error> {
    match key {
        address::Key::None => {}
        address::Key::Unknown => w.member_bool("index_unknown", true)?,
        address::Key::Int(i) => {
            w.key(name)?;
            w.int(*i)?;
        }
        address::Key::Str(s) => w.member_str(name, s)?,
    }
    Ok(())
}

/// `before`, `after`, `after_unknown`, `before_sensitive` and `after_sensitive` of a
/// resource change, decoded with the resource type's schema, or without schemas with the
/// type the values imply (see [`crate::implied`]).
fn change_values(
    w: &mut Writer<'_>,
    addr: &Address<'_>,
    provider: &str,
    c: &proto::Change,
    types: &mut Types<'_, '_>,
    arena: &Bump,
) -> Result<(), Error> {
    let kind = match addr.mode {
        address::Mode::Managed => Kind::Resource,
        address::Mode::Data => Kind::DataSource,
        address::Mode::Ephemeral => Kind::EphemeralResource,
    };
    let missing = || {
        Error::new(ErrorKind::MissingSchema(format!(
            "no schema for {} {:?} of provider {provider} in the given schemas (`tofu providers \
             schema -json` in the plan's working directory has it)",
            addr.mode.name(),
            addr.type_name
        )))
    };
    let typed = types.typed(provider, kind, addr.type_name, missing)?;
    let (before_i, after_i) = value_indexes(c.action);
    // Ephemeral resources' values are never written (OpenTofu nulls them).
    let ephemeral = addr.mode == address::Mode::Ephemeral;
    let raw = |i: Option<usize>, which: &str| -> Result<Option<&proto::DynamicValue>, Error> {
        match i {
            Some(i) if !ephemeral => c.values.get(i).map(Some).ok_or_else(|| {
                Error::invalid(format!(
                    "the {which} value is missing ({} given)",
                    c.values.len()
                ))
            }),
            _ => Ok(None),
        }
    };
    let (before_raw, after_raw) = (raw(before_i, "before")?, raw(after_i, "after")?);
    // The programs first (the values borrow from them): the schema's, or each value's own.
    let before = Side::new(
        before_raw,
        &c.before_sensitive_paths,
        "before",
        typed.is_some(),
    )?;
    let after = Side::new(
        after_raw,
        &c.after_sensitive_paths,
        "after",
        typed.is_some(),
    )?;
    let schema_program = typed.map(|t| (&*t.program, t.ty));
    let (before, before_ty, before_marks) = before.decode(schema_program, arena)?;
    let (after, after_ty, after_marks) = after.decode(schema_program, arena)?;
    let block = typed.map_or(Schema::None, |t| Schema::Block(&t.schema.block));

    w.key("before")?;
    values::write_known(w, before).map_err(|e| Error::from(e).at("before"))?;
    let known = after.is_wholly_known();
    if values::has_after(after, known) {
        w.key("after")?;
        values::write_after(w, after, known).map_err(|e| Error::from(e).at("after"))?;
    }
    w.key("after_unknown")?;
    if known {
        w.begin_object()?;
        w.end_object()?;
    } else {
        values::unknown_as_bool(w, after)?;
    }
    for (name, v, ty, marks) in [
        ("before_sensitive", before, before_ty, &before_marks),
        ("after_sensitive", after, after_ty, &after_marks),
    ] {
        w.key(name)?;
        Sensitive { marks }.write(w, v, ty, block, false)?;
    }
    Ok(())
}

/// The schema and program of a type in `schemas` (`None` without schemas), or the error
/// `missing` makes when the schemas lack it.
pub(crate) fn typed<'s>(
    schemas: Option<&'s ProgramCache>,
    provider: &str,
    kind: Kind,
    type_name: &str,
    missing: impl Fn() -> Error,
) -> Result<Option<(&'s tfwire::schema::Schema, Arc<Program>)>, Error> {
    let Some(schemas) = schemas else {
        return Ok(None);
    };
    let schema = schemas
        .schema(provider, kind, type_name)
        .map_err(|_| missing())?;
    let program = schemas
        .get(provider, kind, type_name)
        .map_err(|_| missing())?;
    Ok(Some((schema, program)))
}

/// What a resource type's values are written with: its schema, the program that decodes
/// them, the type that program decodes, and its identity's program and schema version.
pub(crate) struct TypeInfo<'s, 't> {
    pub(crate) schema: &'s tfwire::schema::Schema,
    pub(crate) program: Arc<Program>,
    pub(crate) ty: Ty<'t>,
    /// For a managed resource type; [`IdentityType::Missing`] for the others.
    pub(crate) identity: IdentityType,
    /// The identity schema's version (0 without one).
    pub(crate) identity_version: i64,
}

/// The [`TypeInfo`] of each resource type a writer meets, looked up in the schemas the
/// first time only: a list of changes names a handful of types thousands of times.
pub(crate) struct Types<'s, 't> {
    schemas: Option<&'s ProgramCache>,
    /// Where the types are built, for as long as the writer runs.
    arena: &'t Bump,
    seen: Vec<(Kind, String, String, Option<TypeInfo<'s, 't>>)>,
}

impl<'s, 't> Types<'s, 't> {
    pub(crate) fn new(schemas: Option<&'s ProgramCache>, arena: &'t Bump) -> Types<'s, 't> {
        Types {
            schemas,
            arena,
            seen: Vec::new(),
        }
    }

    /// [`typed`], remembered: `None` without schemas, the error `missing` makes when the
    /// schemas lack the type.
    pub(crate) fn typed(
        &mut self,
        provider: &str,
        kind: Kind,
        type_name: &str,
        missing: impl Fn() -> Error,
    ) -> Result<Option<&TypeInfo<'s, 't>>, Error> {
        let Some(schemas) = self.schemas else {
            return Ok(None);
        };
        let found = self
            .seen
            .iter()
            .position(|(k, t, p, _)| *k == kind && t == type_name && p == provider);
        let i = match found {
            Some(i) => i,
            None => {
                let info = typed(Some(schemas), provider, kind, type_name, || {
                    Error::invalid("")
                })
                .ok()
                .flatten()
                .map(|(schema, program)| {
                    let ty = program.ty().to_ty(self.arena);
                    let (identity, identity_version) = if kind == Kind::Resource {
                        let identity = match schemas.get(provider, Kind::Identity, type_name) {
                            Ok(p) => IdentityType::Schema(p),
                            Err(_) => IdentityType::Missing,
                        };
                        let version = schemas
                            .identity(provider, type_name)
                            .map_or(0, |s| s.version);
                        (identity, version)
                    } else {
                        (IdentityType::Missing, 0)
                    };
                    TypeInfo {
                        schema,
                        program,
                        ty,
                        identity,
                        identity_version,
                    }
                });
                self.seen
                    .push((kind, type_name.to_owned(), provider.to_owned(), info));
                self.seen.len() - 1
            }
        };
        self.seen[i].3.as_ref().map(Some).ok_or_else(missing)
    }

    /// [`identity_type`], remembered for the types [`Types::typed`] found.
    pub(crate) fn identity(&mut self, addr: &Address<'_>, provider: &str) -> IdentityType {
        if self.schemas.is_none() || addr.mode != address::Mode::Managed {
            return identity_type(addr, provider, self.schemas);
        }
        match self.typed(provider, Kind::Resource, addr.type_name, || {
            Error::invalid("")
        }) {
            Ok(Some(info)) => info.identity.clone(),
            _ => identity_type(addr, provider, self.schemas),
        }
    }
}

/// The program of the type a value's MessagePack implies (for a value decoded without
/// schemas).
fn implied_program(v: &proto::DynamicValue) -> Result<Program, Error> {
    let ty = tfwire::implied_type_msgpack_wrapped(&v.msgpack)
        .map_err(|e| Error::invalid(format!("the value does not decode: {e}")))?;
    Ok(Program::compile(&ty))
}

/// A decoded [`Side`]: the value, its type and its sensitive paths.
pub(crate) type Decoded<'a> = (Value<'a>, Ty<'a>, Vec<Vec<Step<'a>>>);

/// One value of a change (`before`, `after`) or an action's configuration, with its
/// sensitive paths, and the programs they are decoded with, compiled before anything is
/// decoded (the values borrow from them).
pub(crate) struct Side<'c> {
    value: Option<&'c proto::DynamicValue>,
    paths: &'c [proto::Path],
    /// The member, for errors.
    which: &'static str,
    /// The program of the type the value implies, when no schema's program decodes it.
    implied: Option<Program>,
    /// The programs of the paths' element keys ([`key_programs`]).
    keys: Vec<Program>,
}

impl<'c> Side<'c> {
    /// `typed`: whether a schema's program decodes the value.
    pub(crate) fn new(
        value: Option<&'c proto::DynamicValue>,
        paths: &'c [proto::Path],
        which: &'static str,
        typed: bool,
    ) -> Result<Side<'c>, Error> {
        let implied = match value {
            Some(v) if !typed => Some(implied_program(v).map_err(|e| e.at(which))?),
            _ => None,
        };
        Ok(Side {
            value,
            paths,
            which,
            implied,
            keys: key_programs(paths)?,
        })
    }

    /// The value (null when absent) decoded with the schema's `program` or the implied one,
    /// its type, and its sensitive paths.
    /// `typed`: the schema's program and the type it decodes.
    pub(crate) fn decode<'a>(
        &'a self,
        typed: Option<(&'a Program, Ty<'a>)>,
        arena: &'a Bump,
    ) -> Result<Decoded<'a>, Error> {
        let marks = marks(self.paths, &self.keys, arena)?;
        let Some(v) = self.value else {
            return Ok((Value::Null, Ty::Dynamic, marks));
        };
        let (program, ty) = match (typed, &self.implied) {
            (Some((program, ty)), _) => (program, ty),
            (None, Some(program)) => (program, program.ty_in(arena)),
            (None, None) => return Ok((Value::Null, Ty::Dynamic, marks)),
        };
        let value = decode(program, v, arena).map_err(|e| e.at(self.which))?;
        Ok((value, ty, marks))
    }
}

fn marks<'a>(
    paths: &'a [proto::Path],
    programs: &'a [Program],
    arena: &'a Bump,
) -> Result<Vec<Vec<Step<'a>>>, Error> {
    let mut programs = programs.iter();
    paths
        .iter()
        .map(|p| path(p, &mut programs, arena))
        .collect()
}

fn check_status(status: i32) -> Result<&'static str, Error> {
    use proto::check_results::Status as S;
    Ok(match S::try_from(status) {
        Ok(S::Unknown) => "unknown",
        Ok(S::Pass) => "pass",
        Ok(S::Fail) => "fail",
        Ok(S::Error) => "error",
        Err(_) => return Err(Error::invalid(format!("unsupported check status {status}"))),
    })
}

/// The check results as `show -json` writes them ([`tfwire_plan::write_checks`], the
/// clients' `jsonchecks`).
pub(crate) fn checks(w: &mut Writer<'_>, results: &[proto::CheckResults]) -> Result<(), Error> {
    use proto::check_results::ObjectKind as K;
    let mut records = Vec::with_capacity(results.len());
    for r in results {
        let kind = match K::try_from(r.kind) {
            Ok(K::Resource) => "resource",
            Ok(K::OutputValue) => "output",
            Ok(K::Check) => "check",
            Ok(K::InputVariable) => "var",
            _ => {
                return Err(Error::invalid(format!(
                    "unsupported checkable kind {}",
                    r.kind
                )));
            }
        };
        let objects = r
            .objects
            .iter()
            .map(|o| {
                Ok((
                    o.object_addr.as_str(),
                    check_status(o.status)?,
                    o.failure_messages.iter().map(String::as_str).collect(),
                ))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        records.push(tfwire_plan::CheckRecord::new(
            kind,
            &r.config_addr,
            check_status(r.status)?,
            objects,
        ));
    }
    tfwire_plan::write_checks(w, &mut records)?;
    Ok(())
}

/// How a change's identities (before, after, the one imported) are decoded.
#[derive(Clone)]
pub(crate) enum IdentityType {
    /// With the resource type's identity schema (schemas given, and it has one).
    Schema(Arc<Program>),
    /// With the type each value's MessagePack implies (no schemas given).
    Implied,
    /// Schemas given, but none for the type's identity (each client has its rule).
    Missing,
}

/// The identity type of the resource at `addr`: only managed resources have identities.
pub(crate) fn identity_type(
    addr: &Address<'_>,
    provider: &str,
    schemas: Option<&ProgramCache>,
) -> IdentityType {
    let Some(schemas) = schemas else {
        return IdentityType::Implied;
    };
    if addr.mode != address::Mode::Managed {
        return IdentityType::Missing;
    }
    match schemas.get(provider, Kind::Identity, addr.type_name) {
        Ok(p) => IdentityType::Schema(p),
        Err(_) => IdentityType::Missing,
    }
}

/// The error for an import by identity of a type the schemas have no identity schema for.
fn missing_identity(addr: &Address<'_>, provider: &str, dialect: Dialect) -> Error {
    Error::new(ErrorKind::MissingSchema(format!(
        "no identity schema for resource type {:?} of provider {provider} in the given schemas \
         (`{} providers schema -json` in the plan's working directory has it)",
        addr.type_name,
        client(dialect)
    )))
}

/// The command of the client that writes `dialect`.
fn client(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::OpenTofu => "tofu",
        Dialect::Terraform => "terraform",
    }
}

/// A resource identity (before, after, or the one imported) as JSON, and whether it is
/// null: decoded with the identity schema's `program`, or without one with the type its
/// MessagePack implies. The two differ for a number go-cty sent as a string (one no 64-bit
/// integer or binary64 holds): the implied type reads it as that string. Strings are
/// written with `escape`, the rule of the document it goes into.
pub(crate) fn identity_json(
    v: &proto::DynamicValue,
    program: Option<&Program>,
    arena: &Bump,
    escape: Escape,
) -> Result<(String, bool), Error> {
    let implied;
    let program = match program {
        Some(p) => p,
        None => {
            implied = implied_program(v)?;
            &implied
        }
    };
    let value = decode(program, v, arena)?;
    let mut out = String::new();
    values::write_known(&mut JsonWriter::new(&mut out, escape), value)?;
    Ok((out, value.is_null()))
}

/// Terraform's name of a deferral reason (`unknown` for one it does not know).
pub(crate) fn deferred_reason(reason: i32) -> &'static str {
    use tf::DeferredReason as R;
    match R::try_from(reason) {
        Ok(R::InstanceCountUnknown) => "instance_count_unknown",
        Ok(R::ResourceConfigUnknown) => "resource_config_unknown",
        Ok(R::ProviderConfigUnknown) => "provider_config_unknown",
        Ok(R::AbsentPrereq) => "absent_prereq",
        Ok(R::DeferredPrereq) => "deferred_prereq",
        _ => "unknown",
    }
}

/// An action invocation as Terraform's `show -json` writes it: address, type and name,
/// its configuration (unknown parts left out, as `after` is), which of it is unknown and
/// which sensitive, its provider and its trigger. With `schemas` the configuration is
/// decoded with the action type's schema, and the attributes it declares sensitive are
/// marked too; without, with the type its MessagePack implies (a number go-cty sent as a
/// string, one no 64-bit integer or binary64 holds, then reads as that string), and only
/// the paths the plan records are marked.
/// Writes what `write` writes, or, for a deferred element (with a `reason`), the object
/// `{"reason":…,"MEMBER":…}` around it.
fn with_reason<'o>(
    w: &mut Writer<'o>,
    reason: Option<&str>,
    member: &str,
    write: impl FnOnce(&mut Writer<'o>) -> Result<(), Error>,
) -> Result<(), Error> {
    if let Some(reason) = reason {
        w.begin_object()?;
        w.member_str("reason", reason)?;
        w.key(member)?;
    }
    write(w)?;
    if reason.is_some() {
        w.end_object()?;
    }
    Ok(())
}

/// Writes a list of action invocations (of the plan's `section`) in the file's order, as
/// Terraform writes them; one deferred (with a reason) as `{"reason":…,"action_invocation":…}`.
pub(crate) fn action_invocations(
    w: &mut Writer<'_>,
    section: &str,
    list: &[(Option<&str>, &tf::ActionInvocation)],
    schemas: Option<&ProgramCache>,
    arena: &mut Bump,
    limit: u64,
) -> Result<(), Error> {
    w.begin_array()?;
    for (reason, ai) in list {
        with_reason(w, *reason, "action_invocation", |w| {
            action_invocation(w, ai, schemas, arena).map_err(|e| e.at(&ai.addr).at(section))
        })?;
        arena.reset();
        within(w, limit)?;
    }
    w.end_array()?;
    Ok(())
}

fn action_invocation(
    w: &mut Writer<'_>,
    ai: &tf::ActionInvocation,
    schemas: Option<&ProgramCache>,
    arena: &Bump,
) -> Result<(), Error> {
    let provider = provider_of(&ai.provider)?;
    let (type_name, name) = address::action_parts(&ai.addr)?;
    w.begin_object()?;
    w.member_str("address", &ai.addr)?;
    w.member_str("type", type_name)?;
    w.member_str("name", name)?;
    // With the schemas, the action type's schema decodes the configuration and adds the
    // attributes it declares sensitive; Terraform refuses an action without one.
    let missing = || {
        Error::new(ErrorKind::MissingSchema(format!(
            "no schema for action type {type_name:?} of provider {provider} in the given \
             schemas (`terraform providers schema -json` in the plan's working directory has \
             it)"
        )))
    };
    let typed = typed(schemas, provider, Kind::Action, type_name, missing)?;
    if let Some(v) = &ai.config_value {
        let config = Side::new(
            Some(v),
            &ai.sensitive_config_paths,
            "config",
            typed.is_some(),
        )?;
        let (value, ty, marks) =
            config.decode(typed.as_ref().map(|(_, p)| (&**p, p.ty_in(arena))), arena)?;
        w.key("config_values")?;
        let known = value.is_wholly_known();
        if values::has_after(value, known) {
            values::write_after(w, value, known).map_err(|e| Error::from(e).at("config"))?;
        } else {
            w.null()?;
        }
        w.key("config_sensitive")?;
        let block = typed
            .as_ref()
            .map_or(Schema::None, |(s, _)| Schema::Block(&s.block));
        Sensitive { marks: &marks }.write(w, value, ty, block, false)?;
        w.key("config_unknown")?;
        values::unknown_as_bool(w, value)?;
    }
    w.member_str("provider_name", provider)?;
    match &ai.trigger {
        Some(tf::action_invocation::Trigger::LifecycleTrigger(t)) => {
            use tf::ActionTriggerEvent as E;
            // Terraform refuses a lifecycle trigger with no event or `Invoke`.
            let event = match E::try_from(t.event) {
                Ok(E::BeforeCreate) => "BeforeCreate",
                Ok(E::AfterCreate) => "AfterCreate",
                Ok(E::BeforeUpdate) => "BeforeUpdate",
                Ok(E::AfterUpdate) => "AfterUpdate",
                Ok(E::BeforeDestroy) => "BeforeDestroy",
                Ok(E::AfterDestroy) => "AfterDestroy",
                Ok(E::Invalid | E::Invoke) | Err(_) => {
                    return Err(Error::invalid(format!(
                        "unsupported action trigger event {}",
                        t.event
                    )));
                }
            };
            let on_failure = match tf::ActionOnFailure::try_from(t.on_failure) {
                Ok(tf::ActionOnFailure::Halt) => "ActionOnFailureHalt",
                Ok(tf::ActionOnFailure::Taint) => "ActionOnFailureTaint",
                Ok(tf::ActionOnFailure::Continue) => "ActionOnFailureContinue",
                Err(_) => {
                    return Err(Error::invalid(format!(
                        "unsupported action on_failure {}",
                        t.on_failure
                    )));
                }
            };
            w.key("lifecycle_action_trigger")?;
            w.begin_object()?;
            if !t.triggering_resource_addr.is_empty() {
                w.member_str("triggering_resource_address", &t.triggering_resource_addr)?;
            }
            w.member_str("action_trigger_event", event)?;
            w.key("action_trigger_block_index")?;
            w.int(t.action_trigger_block_index)?;
            w.key("actions_list_index")?;
            w.int(t.actions_list_index)?;
            w.member_str("on_failure", on_failure)?;
            w.end_object()?;
        }
        Some(tf::action_invocation::Trigger::InvokeTrigger(t)) => {
            w.key("invoke_action_trigger")?;
            w.begin_object()?;
            if !t.calling_resource_addr.is_empty() {
                w.member_str("calling_resource_address", &t.calling_resource_addr)?;
            }
            w.end_object()?;
        }
        None => return Err(Error::invalid("the action invocation has no trigger")),
    }
    w.end_object()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Planfile;
    use crate::dialect;
    use crate::document::{Form, document};
    use serde_json::{Value as J, json};

    const PROVIDER: &str = r#"provider["terraform.io/builtin/terraform"]"#;

    fn dv(msgpack: &[u8]) -> Option<proto::DynamicValue> {
        Some(proto::DynamicValue {
            msgpack: msgpack.to_vec(),
        })
    }

    /// `{"id": "abc"}`
    const ID_ABC: &[u8] = &[0x81, 0xa2, b'i', b'd', 0xa3, b'a', b'b', b'c'];
    /// `{"id": <unknown>}`
    const ID_UNKNOWN: &[u8] = &[0x81, 0xa2, b'i', b'd', 0xd4, 0, 0];

    fn document_of(p: tf::Plan) -> J {
        json_of(&planfile_of(p), None)
    }

    fn planfile_of(p: tf::Plan) -> Planfile {
        let (plan, extra) = dialect::split(p).unwrap();
        planfile(plan, Dialect::Terraform, Some(extra))
    }

    /// A plan file of `plan` alone (no state, lock file or configuration).
    fn planfile(
        plan: proto::Plan,
        dialect: Dialect,
        terraform: Option<crate::TerraformPlan>,
    ) -> Planfile {
        Planfile {
            plan,
            dialect,
            terraform,
            state: None,
            prev_state: None,
            lock_file: None,
            config_files: Vec::new(),
            config: Vec::new(),
            tfplan_len: 0,
            max_document_bytes: 1 << 20,
        }
    }

    fn change(action: tf::Action, values: &[&[u8]]) -> tf::Change {
        tf::Change {
            action: action as i32,
            values: values.iter().map(|v| dv(v).unwrap()).collect(),
            ..Default::default()
        }
    }

    /// The members Terraform's `jsonplan` writes for a deferred change, an import by
    /// identity or with an unknown id, and identities before and after.
    #[test]
    fn deferred_changes_imports_and_identities_as_terraform_writes_them() {
        let mut deferred = change(tf::Action::Create, &[ID_UNKNOWN]);
        deferred.importing = Some(tf::Importing {
            unknown: true,
            ..Default::default()
        });
        let mut imported = change(tf::Action::Noop, &[ID_ABC]);
        imported.importing = Some(tf::Importing {
            identity: dv(ID_ABC),
            ..Default::default()
        });
        let mut updated = change(tf::Action::Update, &[ID_ABC, ID_ABC]);
        updated.before_identity = dv(ID_ABC);
        updated.after_identity = dv(ID_ABC);
        let rc = |addr: &str, c: tf::Change| tf::ResourceInstanceChange {
            addr: addr.into(),
            provider: PROVIDER.into(),
            change: Some(c),
            ..Default::default()
        };
        let doc = document_of(tf::Plan {
            version: 3,
            complete: false,
            resource_changes: vec![
                rc("terraform_data.b", imported),
                rc("terraform_data.c", updated),
            ],
            deferred_changes: vec![tf::DeferredChange {
                deferred: Some(tf::Deferred {
                    reason: tf::DeferredReason::InstanceCountUnknown as i32,
                }),
                change: Some(rc("terraform_data.a[*]", deferred)),
            }],
            ..Default::default()
        });
        let d = &doc["deferred_changes"][0];
        assert_eq!(d["reason"], "instance_count_unknown");
        let rc = &d["resource_change"];
        assert_eq!(rc["address"], "terraform_data.a[*]");
        assert_eq!(rc["index_unknown"], true);
        assert!(rc.get("index").is_none());
        assert_eq!(rc["change"]["importing"], json!({"unknown": true}));
        assert_eq!(rc["change"]["after_unknown"], json!({"id": true}));
        let changes = &doc["resource_changes"];
        assert_eq!(
            changes[0]["change"]["importing"],
            json!({"identity": {"id": "abc"}})
        );
        assert!(changes[0]["change"].get("before_identity").is_none());
        assert_eq!(
            changes[1]["change"]["before_identity"],
            json!({"id": "abc"})
        );
        assert_eq!(changes[1]["change"]["after_identity"], json!({"id": "abc"}));
        assert_eq!(
            (&doc["applyable"], &doc["complete"]),
            (&json!(false), &json!(false))
        );
    }

    /// `action_invocations` and `deferred_action_invocations`, with Terraform's names of
    /// trigger events and failure modes (their Go `String()` forms).
    #[test]
    fn action_invocations_as_terraform_writes_them() {
        let lifecycle = tf::ActionInvocation {
            addr: "module.m.action.tfwire_notify.n[0]".into(),
            provider: PROVIDER.into(),
            config_value: dv(ID_UNKNOWN),
            sensitive_config_paths: Vec::new(),
            trigger: Some(tf::action_invocation::Trigger::LifecycleTrigger(
                tf::LifecycleTrigger {
                    triggering_resource_addr: "module.m.terraform_data.t".into(),
                    event: tf::ActionTriggerEvent::AfterCreate as i32,
                    action_trigger_block_index: 1,
                    actions_list_index: 2,
                    on_failure: tf::ActionOnFailure::Continue as i32,
                },
            )),
        };
        let invoked = tf::ActionInvocation {
            addr: "action.tfwire_notify.cli".into(),
            provider: PROVIDER.into(),
            config_value: dv(ID_ABC),
            sensitive_config_paths: vec![proto::Path {
                steps: vec![proto::path::Step {
                    selector: Some(proto::path::step::Selector::AttributeName("id".into())),
                }],
            }],
            trigger: Some(tf::action_invocation::Trigger::InvokeTrigger(
                tf::InvokeTrigger::default(),
            )),
        };
        let doc = document_of(tf::Plan {
            version: 3,
            applyable: true,
            complete: true,
            action_invocations: vec![lifecycle, invoked.clone()],
            deferred_action_invocations: vec![tf::DeferredActionInvocation {
                deferred: Some(tf::Deferred {
                    reason: tf::DeferredReason::DeferredPrereq as i32,
                }),
                action_invocation: Some(invoked),
            }],
            ..Default::default()
        });
        assert_eq!(
            doc["action_invocations"],
            json!([
                {
                    "address": "module.m.action.tfwire_notify.n[0]",
                    "type": "tfwire_notify",
                    "name": "n",
                    "config_values": {},
                    "config_sensitive": {},
                    "config_unknown": {"id": true},
                    "provider_name": "terraform.io/builtin/terraform",
                    "lifecycle_action_trigger": {
                        "triggering_resource_address": "module.m.terraform_data.t",
                        "action_trigger_event": "AfterCreate",
                        "action_trigger_block_index": 1,
                        "actions_list_index": 2,
                        "on_failure": "ActionOnFailureContinue"
                    }
                },
                {
                    "address": "action.tfwire_notify.cli",
                    "type": "tfwire_notify",
                    "name": "cli",
                    "config_values": {"id": "abc"},
                    "config_sensitive": {"id": true},
                    "config_unknown": {},
                    "provider_name": "terraform.io/builtin/terraform",
                    "invoke_action_trigger": {}
                }
            ])
        );
        assert_eq!(
            doc["deferred_action_invocations"][0]["reason"],
            "deferred_prereq"
        );
        // A lifecycle trigger without an event: refused, as Terraform refuses it.
        let no_event = tf::Plan {
            action_invocations: vec![tf::ActionInvocation {
                addr: "action.t.n".into(),
                provider: PROVIDER.into(),
                trigger: Some(tf::action_invocation::Trigger::LifecycleTrigger(
                    tf::LifecycleTrigger::default(),
                )),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(
            document(&planfile_of(no_event), None, Form::Tfwire)
                .unwrap_err()
                .to_string(),
            "action_invocations: action.t.n: unsupported action trigger event 0"
        );
        assert_eq!(
            doc["deferred_action_invocations"][0]["action_invocation"],
            doc["action_invocations"][1]
        );
    }

    /// `{"n": "0.001"}`: go-cty writes a number no binary64 holds exactly as a string.
    const N_STRING: &[u8] = &[0x81, 0xa1, b'n', 0xa5, b'0', b'.', b'0', b'0', b'1'];

    /// A provider with the resource type `t` (identity `{n: number}`) and the action type
    /// `a` (`ratio`, and `token`, which is sensitive).
    fn cache() -> ProgramCache {
        let doc = br#"{"provider_schemas":{"terraform.io/builtin/terraform":{
            "resource_schemas":{"t":{"version":0,"block":{"attributes":{
                "id":{"type":"string","computed":true}}}}},
            "resource_identity_schemas":{"t":{"version":0,"attributes":{
                "n":{"type":"number","required_for_import":true}}}},
            "action_schemas":{"a":{"block":{"attributes":{
                "ratio":{"type":"number","optional":true},
                "token":{"type":"string","optional":true,"sensitive":true}}}}}}}}"#;
        ProgramCache::new(tfwire::schema::ProviderSchemas::from_json(doc).unwrap())
    }

    fn opentofu_planfile(changes: Vec<proto::ResourceInstanceChange>) -> Planfile {
        let plan = proto::Plan {
            version: 3,
            resource_changes: changes,
            ..Default::default()
        };
        planfile(plan, Dialect::OpenTofu, None)
    }

    fn json_of(pf: &Planfile, schemas: Option<&ProgramCache>) -> J {
        serde_json::from_str(&document(pf, schemas, Form::Tfwire).unwrap()).unwrap()
    }

    /// OpenTofu's plans carry identities too, at the same field numbers but for the
    /// import's (2, not 3): its `show -json` writes them, leaving a null one out, and
    /// decodes them with the identity schema (the implied type reads a number sent as a
    /// string as that string).
    #[test]
    fn identities_are_decoded_with_the_identity_schema_in_both_dialects() {
        let change = proto::Change {
            action: proto::Action::Update as i32,
            values: vec![dv(ID_ABC).unwrap(), dv(ID_ABC).unwrap()],
            importing: Some(proto::Importing {
                identity: dv(N_STRING),
                ..Default::default()
            }),
            before_identity: dv(&[0xc0]),
            after_identity: dv(N_STRING),
            ..Default::default()
        };
        let rc = proto::ResourceInstanceChange {
            addr: "t.x".into(),
            provider: PROVIDER.into(),
            change: Some(change),
            ..Default::default()
        };
        let pf = opentofu_planfile(vec![rc.clone()]);
        let cache = cache();
        let typed = &json_of(&pf, Some(&cache))["resource_changes"][0]["change"];
        assert_eq!(typed["importing"], json!({"identity": {"n": 0.001}}));
        assert_eq!(typed["after_identity"], json!({"n": 0.001}));
        assert!(typed.get("before_identity").is_none());
        let bare = &json_of(&pf, None)["resource_changes"][0]["change"];
        assert_eq!(bare["importing"], json!({"identity": {"n": "0.001"}}));
        assert_eq!(bare["after_identity"], json!({"n": "0.001"}));

        // A type without an identity schema: OpenTofu writes `"importing": {}` and the
        // identities with their implied type; Terraform leaves the identities out, and
        // fails on the import.
        let other = proto::ResourceInstanceChange {
            addr: "u.x".into(),
            ..rc
        };
        let doc = br#"{"provider_schemas":{"terraform.io/builtin/terraform":{
            "resource_schemas":{"u":{"version":0,"block":{"attributes":{
                "id":{"type":"string","computed":true}}}}}}}}"#;
        let cache = ProgramCache::new(tfwire::schema::ProviderSchemas::from_json(doc).unwrap());
        let pf = opentofu_planfile(vec![other.clone()]);
        let c = &json_of(&pf, Some(&cache))["resource_changes"][0]["change"];
        assert_eq!(c["importing"], json!({}));
        assert_eq!(c["after_identity"], json!({"n": "0.001"}));
        let mut pf = opentofu_planfile(vec![other]);
        pf.dialect = Dialect::Terraform;
        assert_eq!(
            document(&pf, Some(&cache), Form::Tfwire)
                .unwrap_err()
                .to_string(),
            "resource_changes: u.x: importing.identity: no identity schema for resource type \
             \"u\" of provider terraform.io/builtin/terraform in the given schemas (`terraform \
             providers schema -json` in the plan's working directory has it)"
        );
        pf.plan.resource_changes[0]
            .change
            .as_mut()
            .unwrap()
            .importing = None;
        let c = &json_of(&pf, Some(&cache))["resource_changes"][0]["change"];
        assert!(c.get("before_identity").is_none() && c.get("after_identity").is_none());
    }

    /// With the schemas an action's configuration is decoded with the action type's schema
    /// (a number sent as a string is a number) and its sensitive attributes are marked;
    /// an action type the schemas lack is an error, as in Terraform.
    #[test]
    fn action_configurations_are_decoded_with_the_action_schema() {
        // {"ratio": "0.001", "token": "s"}
        let config: &[u8] = &[
            0x82, 0xa5, b'r', b'a', b't', b'i', b'o', 0xa5, b'0', b'.', b'0', b'0', b'1', 0xa5,
            b't', b'o', b'k', b'e', b'n', 0xa1, b's',
        ];
        let invocation = |addr: &str| tf::ActionInvocation {
            addr: addr.into(),
            provider: PROVIDER.into(),
            config_value: dv(config),
            trigger: Some(tf::action_invocation::Trigger::InvokeTrigger(
                tf::InvokeTrigger::default(),
            )),
            ..Default::default()
        };
        let plan = |addr: &str| tf::Plan {
            version: 3,
            applyable: true,
            complete: true,
            action_invocations: vec![invocation(addr)],
            ..Default::default()
        };
        let cache = cache();
        let typed = json_of(&planfile_of(plan("action.a.x")), Some(&cache));
        let ai = &typed["action_invocations"][0];
        assert_eq!(ai["config_values"], json!({"ratio": 0.001, "token": "s"}));
        assert_eq!(ai["config_sensitive"], json!({"token": true}));
        let bare = document_of(plan("action.a.x"));
        let ai = &bare["action_invocations"][0];
        assert_eq!(ai["config_values"], json!({"ratio": "0.001", "token": "s"}));
        assert_eq!(ai["config_sensitive"], json!({}));
        assert_eq!(
            document(&planfile_of(plan("action.b.x")), Some(&cache), Form::Tfwire)
                .unwrap_err()
                .to_string(),
            "action_invocations: action.b.x: no schema for action type \"b\" of provider \
             terraform.io/builtin/terraform in the given schemas (`terraform providers schema \
             -json` in the plan's working directory has it)"
        );
    }

    #[test]
    fn each_dialect_has_its_own_action_numbers_and_reasons() {
        assert_eq!(
            actions(9, Dialect::Terraform).unwrap(),
            ["create", "forget"]
        );
        assert!(actions(9, Dialect::OpenTofu).is_err());
        assert_eq!(
            actions(10, Dialect::OpenTofu).unwrap(),
            ["forget", "create"]
        );
        assert!(actions(10, Dialect::Terraform).is_err());
        assert!(action_reason(14, Dialect::Terraform).is_err());
        assert_eq!(
            action_reason(14, Dialect::OpenTofu).unwrap(),
            Some("delete_because_enabled_false")
        );
        assert_eq!(
            action_reason(13, Dialect::Terraform).unwrap(),
            Some("read_because_check_nested")
        );
    }
}
