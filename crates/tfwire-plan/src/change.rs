//! The change representation: `resource_changes[]`, `resource_drift[]`, `output_changes`.

use crate::build::{Cx, Result};
use crate::error::{Error, ErrorKind};
use crate::json::Json;
use crate::merged::{Mark, Merged};
use crate::values::{Index, Mode};
use crate::{Path, PathStep};
use core::fmt;
use std::borrow::Cow;
use tfwire::TypedJson as _;

/// One element of a change's `actions` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action<'a> {
    /// `"no-op"`.
    NoOp,
    /// `"create"`.
    Create,
    /// `"read"` (a data source read during apply).
    Read,
    /// `"update"`.
    Update,
    /// `"delete"`.
    Delete,
    /// `"forget"`: removed from state without being destroyed (Terraform ≥ 1.7 `removed`
    /// blocks).
    Forget,
    /// Any other action, kept as written.
    Other(&'a str),
}

impl<'a> Action<'a> {
    /// The action as written in documents.
    pub fn from_name(s: &'a str) -> Action<'a> {
        match s {
            "no-op" => Action::NoOp,
            "create" => Action::Create,
            "read" => Action::Read,
            "update" => Action::Update,
            "delete" => Action::Delete,
            "forget" => Action::Forget,
            other => Action::Other(other),
        }
    }

    /// The action's name as written: `"no-op"`, `"create"`, ...
    pub fn name(&self) -> &'a str {
        match *self {
            Action::NoOp => "no-op",
            Action::Create => "create",
            Action::Read => "read",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Forget => "forget",
            Action::Other(s) => s,
        }
    }
}

/// What a change does as a whole, from its action list: the categories of plan summaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind<'a> {
    /// `["create"]`.
    Create,
    /// `["update"]`.
    Update,
    /// `["delete"]`.
    Delete,
    /// `["delete","create"]` or `["create","delete"]`.
    Replace {
        /// Whether the new object is created before the old is destroyed
        /// (`create_before_destroy`).
        create_first: bool,
    },
    /// `["read"]`.
    Read,
    /// `["no-op"]`.
    NoOp,
    /// `["forget"]`.
    Forget,
    /// `["create","forget"]` (Terraform) or `["forget","create"]` (OpenTofu): the object is
    /// replaced, and the old one is removed from the state instead of destroyed (a tainted
    /// object under `lifecycle { destroy = false }`).
    ReplaceForget {
        /// Whether the new object is created first (Terraform's order).
        create_first: bool,
    },
    /// Any other list (an action or a combination this crate does not know).
    Other(&'a [Action<'a>]),
}

impl<'a> ChangeKind<'a> {
    /// Classifies an action list.
    pub fn of(actions: &'a [Action<'a>]) -> ChangeKind<'a> {
        match actions {
            [Action::Create] => ChangeKind::Create,
            [Action::Update] => ChangeKind::Update,
            [Action::Delete] => ChangeKind::Delete,
            [Action::Delete, Action::Create] => ChangeKind::Replace {
                create_first: false,
            },
            [Action::Create, Action::Delete] => ChangeKind::Replace { create_first: true },
            [Action::Read] => ChangeKind::Read,
            [Action::NoOp] => ChangeKind::NoOp,
            [Action::Forget] => ChangeKind::Forget,
            [Action::Create, Action::Forget] => ChangeKind::ReplaceForget { create_first: true },
            [Action::Forget, Action::Create] => ChangeKind::ReplaceForget {
                create_first: false,
            },
            other => ChangeKind::Other(other),
        }
    }

    /// The summary key: `create`, `update`, `delete`, `replace`, `read`, `no_op`,
    /// `forget`; a replacement that forgets the old object is its action list joined with
    /// `+`, in the order written (`create+forget`, `forget+create`); another single action
    /// is its own name, and any other list its actions joined with `+`.
    pub fn key(&self) -> Cow<'a, str> {
        Cow::Borrowed(match *self {
            ChangeKind::Create => "create",
            ChangeKind::Update => "update",
            ChangeKind::Delete => "delete",
            ChangeKind::Replace { .. } => "replace",
            ChangeKind::Read => "read",
            ChangeKind::NoOp => "no_op",
            ChangeKind::Forget => "forget",
            ChangeKind::ReplaceForget { create_first: true } => "create+forget",
            ChangeKind::ReplaceForget {
                create_first: false,
            } => "forget+create",
            ChangeKind::Other([one]) => one.name(),
            ChangeKind::Other(list) => {
                let names: Vec<&str> = list.iter().map(Action::name).collect();
                return Cow::Owned(names.join("+"));
            }
        })
    }
}

impl fmt::Display for ChangeKind<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// A path into a resource's value as the plan writes it (`replace_paths`,
/// `relevant_attributes[].attribute`): an array of string and integer steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttrPath<'a> {
    raw: Json<'a>,
}

impl<'a> AttrPath<'a> {
    pub(crate) fn build(v: Json<'a>) -> Result<AttrPath<'a>> {
        let arr = v.expect_array()?;
        for (i, step) in arr.iter().enumerate() {
            if step.as_str().is_none() && step.as_u64().is_none() {
                return Err(Error::from(
                    step.unexpected("a string or a non-negative integer path step"),
                )
                .in_index(i));
            }
        }
        Ok(AttrPath { raw: v })
    }

    /// The steps: strings are attribute names or map keys (JSON does not say which),
    /// integers are element indexes.
    pub fn steps(&self) -> impl Iterator<Item = PathStep<'a>> + use<'a> {
        self.raw
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| match s.as_str() {
                Some(name) => PathStep::Attr(Cow::Borrowed(name)),
                None => PathStep::Index(s.as_u64().unwrap_or(0)),
            })
    }

    /// The path, for walking a [`Merged`] view or display (`.list[1].id`).
    pub fn to_path(&self) -> Path<'a> {
        self.steps().collect()
    }

    /// The array as written.
    pub fn raw(&self) -> Json<'a> {
        self.raw
    }
}

impl fmt::Display for AttrPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_path())
    }
}

/// `importing`: the object is imported as part of this change.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Importing<'a> {
    /// `id`: the import ID, when imported by ID.
    pub id: Option<&'a str>,
    /// `identity`: the resource identity the object is imported by (Terraform ≥ 1.12, an
    /// `import` block with `identity = {...}` instead of `id`); an object of the resource
    /// type's identity attributes.
    pub identity: Option<Json<'a>>,
    /// `unknown`: the import ID was not known when planning (Terraform writes it, with
    /// neither `id` nor `identity`, on changes of `deferred_changes`).
    pub unknown: bool,
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// A change representation: what happens to one object (or output).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Change<'a> {
    /// `actions`, in order (never empty).
    pub actions: &'a [Action<'a>],
    /// `before`: the value before, absent (or `null`) for a create.
    pub before: Option<Json<'a>>,
    /// `after`: the known parts of the value after, absent (or `null`) for a delete.
    pub after: Option<Json<'a>>,
    /// `after_unknown`: `true` leaves for values known only after apply.
    pub after_unknown: Option<Json<'a>>,
    /// `before_sensitive`: `true` leaves for sensitive values; may be `false`.
    pub before_sensitive: Option<Json<'a>>,
    /// `after_sensitive`: `true` leaves for sensitive values; may be `false`.
    pub after_sensitive: Option<Json<'a>>,
    /// `replace_paths`: the attributes that force replacement.
    pub replace_paths: &'a [AttrPath<'a>],
    /// `importing`.
    pub importing: Option<Importing<'a>>,
    /// `generated_config`: HCL generated for an imported resource.
    pub generated_config: Option<&'a str>,
    /// `before_identity`: the resource identity before the change (Terraform ≥ 1.12, for
    /// resource types with an identity schema), an object of identity attributes.
    pub before_identity: Option<Json<'a>>,
    /// `after_identity`: the resource identity after the change.
    pub after_identity: Option<Json<'a>>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Change<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<Change<'a>> {
        let mut c = Change {
            raw: v,
            ..empty_change()
        };
        let mut has_actions = false;
        cx.members(v, |k, item| {
            match k {
                "actions" => {
                    has_actions = true;
                    c.actions = cx.list(item, |_, a| Ok(Action::from_name(a.expect_str()?)))?;
                    if c.actions.is_empty() {
                        return Err(cx.invalid("the action list is empty".into(), item));
                    }
                }
                "before" => c.before = item.opt(),
                "after" => c.after = item.opt(),
                "after_unknown" => c.after_unknown = item.opt(),
                "before_sensitive" => c.before_sensitive = item.opt(),
                "after_sensitive" => c.after_sensitive = item.opt(),
                "replace_paths" => c.replace_paths = cx.list(item, |_, v| AttrPath::build(v))?,
                "importing" if !item.is_null() => {
                    let mut imp = Importing {
                        id: None,
                        identity: None,
                        unknown: false,
                        raw: item,
                    };
                    cx.members(item, |k, v| {
                        match k {
                            "id" => imp.id = v.opt_str()?,
                            "identity" => imp.identity = v.opt(),
                            "unknown" => imp.unknown = v.opt_bool()?.unwrap_or(false),
                            _ => {}
                        }
                        Ok(())
                    })?;
                    c.importing = Some(imp);
                }
                "generated_config" => c.generated_config = item.opt_str()?,
                "before_identity" => c.before_identity = item.opt(),
                "after_identity" => c.after_identity = item.opt(),
                _ => {}
            }
            Ok(())
        })?;
        if !has_actions {
            return Err(Error::new(ErrorKind::Missing("actions")).with_offset(v.offset()));
        }
        Ok(c)
    }

    /// What the change does as a whole.
    pub fn kind(&self) -> ChangeKind<'a> {
        ChangeKind::of(self.actions)
    }

    /// `before` decoded with the resource type's compiled program (from a
    /// [`tfwire::schema::ProgramCache`]), in place on the document's tape; `None` when
    /// absent or `null`. See [`TypedJson::decode_typed`](tfwire::TypedJson::decode_typed).
    ///
    /// # Errors
    ///
    /// The [`tfwire::Error`] of a value that does not conform to the schema.
    pub fn before_typed(
        &self,
        program: &'a tfwire::Program,
        arena: &'a bumpalo::Bump,
    ) -> core::result::Result<Option<tfwire::Value<'a>>, tfwire::Error> {
        self.before.map_or(Ok(None), |v| v.typed(program, arena))
    }

    /// `after` decoded with the resource type's compiled program, in place; `None` when
    /// absent or `null`. Values known only after apply are absent from `after`, so they
    /// decode as `null` (see [`Change::after_view`] for the merged view).
    ///
    /// # Errors
    ///
    /// The [`tfwire::Error`] of a value that does not conform to the schema.
    pub fn after_typed(
        &self,
        program: &'a tfwire::Program,
        arena: &'a bumpalo::Bump,
    ) -> core::result::Result<Option<tfwire::Value<'a>>, tfwire::Error> {
        self.after.map_or(Ok(None), |v| v.typed(program, arena))
    }

    /// The value after the change with its unknown (`after_unknown`) and sensitive
    /// (`after_sensitive`) markers.
    pub fn after_view(&self) -> Merged<'a> {
        Merged::new(
            self.after,
            Mark::from_json(self.after_unknown),
            Mark::from_json(self.after_sensitive),
        )
    }

    /// The value before the change with its sensitive markers (`before_sensitive`);
    /// nothing before a change is unknown.
    pub fn before_view(&self) -> Merged<'a> {
        Merged::new(
            self.before,
            Mark::All(false),
            Mark::from_json(self.before_sensitive),
        )
    }
}

/// An element of `resource_changes` or `resource_drift`: a change to one resource
/// instance object.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ResourceChange<'a> {
    /// `address`, e.g. `module.child.aws_instance.foo[0]`. Terraform and OpenTofu always
    /// write it; a change without one (a hand-trimmed fixture) gets the address its
    /// `module_address`, `mode`, `type`, `name` and `index` spell, as Terraform writes it,
    /// and a change with neither `address` nor `type` and `name` is rejected
    /// ([`ErrorKind::Missing`](crate::ErrorKind::Missing)).
    pub address: &'a str,
    /// `previous_address`: the address before a `moved` block.
    pub previous_address: Option<&'a str>,
    /// `module_address`, e.g. `module.child`; absent in the root module.
    pub module_address: Option<&'a str>,
    /// `mode`.
    pub mode: Mode<'a>,
    /// `type`.
    pub type_name: &'a str,
    /// `name`.
    pub name: &'a str,
    /// `index`.
    pub index: Option<Index<'a>>,
    /// `index_unknown`: the instance key is not known yet (Terraform writes it on changes of
    /// `deferred_changes` to a resource whose `count` or `for_each` is unknown; the address
    /// then ends in `[*]` and `index` is absent).
    pub index_unknown: bool,
    /// `provider_name`.
    pub provider_name: Option<&'a str>,
    /// `deposed`: the deposed object's key, when the change is to a deposed object.
    pub deposed: Option<&'a str>,
    /// `change`.
    pub change: Change<'a>,
    /// `action_reason`, e.g. `replace_because_cannot_update`.
    pub action_reason: Option<&'a str>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> ResourceChange<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<ResourceChange<'a>> {
        let mut address = None;
        let mut rc = ResourceChange {
            address: "",
            previous_address: None,
            module_address: None,
            mode: Mode::Managed,
            type_name: "",
            name: "",
            index: None,
            index_unknown: false,
            provider_name: None,
            deposed: None,
            change: empty_change(),
            action_reason: None,
            raw: v,
        };
        let mut has_change = false;
        cx.members(v, |k, item| {
            match k {
                "address" => address = item.opt_str()?,
                "previous_address" => rc.previous_address = item.opt_str()?,
                "module_address" => rc.module_address = item.opt_str()?,
                "mode" => rc.mode = Mode::from_name(item.expect_str()?),
                "type" => rc.type_name = item.expect_str()?,
                "name" => rc.name = item.expect_str()?,
                "index" => rc.index = Index::build(cx, item)?,
                "index_unknown" => rc.index_unknown = item.opt_bool()?.unwrap_or(false),
                "provider_name" => rc.provider_name = item.opt_str()?,
                "deposed" => rc.deposed = item.opt_str()?,
                "change" => {
                    has_change = true;
                    rc.change = Change::build(cx, item)?;
                }
                "action_reason" => rc.action_reason = item.opt_str()?,
                _ => {}
            }
            Ok(())
        })?;
        if !has_change {
            return Err(Error::new(ErrorKind::Missing("change")).with_offset(v.offset()));
        }
        rc.address = match address {
            Some(a) => a,
            None if !rc.type_name.is_empty() && !rc.name.is_empty() => {
                cx.arena.alloc_str(&rc.spelled_address())
            }
            None => {
                return Err(Error::new(ErrorKind::Missing("address")).with_offset(v.offset()));
            }
        };
        Ok(rc)
    }

    /// The address `module_address`, `mode`, `type`, `name` and `index` spell, as
    /// Terraform writes it.
    fn spelled_address(&self) -> String {
        let mut s = String::new();
        if let Some(m) = self.module_address {
            s.push_str(m);
            s.push('.');
        }
        s.push_str(self.mode.address_prefix());
        s.push_str(self.type_name);
        s.push('.');
        s.push_str(self.name);
        if let Some(i) = self.index {
            s.push_str(&i.to_string());
        } else if self.index_unknown {
            s.push_str("[*]");
        }
        s
    }
}

/// An element of `deferred_changes` (Terraform, when deferrals are allowed): a resource change this plan leaves
/// for a later one, because something it depends on is not known yet. Apply does not make
/// it; Terraform's `Plan:` line does not count it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct DeferredChange<'a> {
    /// `reason`: `instance_count_unknown`, `resource_config_unknown`,
    /// `provider_config_unknown`, `absent_prereq`, `deferred_prereq` or `unknown`.
    pub reason: &'a str,
    /// `resource_change`: what is known of the change (its address ends in `[*]` when the
    /// instance key is unknown, see [`ResourceChange::index_unknown`]).
    pub resource_change: ResourceChange<'a>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> DeferredChange<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<DeferredChange<'a>> {
        let mut reason = "";
        let mut rc = None;
        cx.members(v, |k, item| {
            match k {
                "reason" => reason = item.opt_str()?.unwrap_or(""),
                "resource_change" => rc = Some(ResourceChange::build(cx, item)?),
                _ => {}
            }
            Ok(())
        })?;
        let Some(resource_change) = rc else {
            return Err(Error::new(ErrorKind::Missing("resource_change")).with_offset(v.offset()));
        };
        Ok(DeferredChange {
            reason,
            resource_change,
            raw: v,
        })
    }
}

fn empty_change<'a>() -> Change<'a> {
    Change {
        actions: &[],
        before: None,
        after: None,
        after_unknown: None,
        before_sensitive: None,
        after_sensitive: None,
        replace_paths: &[],
        importing: None,
        generated_config: None,
        before_identity: None,
        after_identity: None,
        raw: Json::null(),
    }
}

/// An element of `output_changes`: the planned change to a root module output.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct OutputChange<'a> {
    /// The output's name.
    pub name: &'a str,
    /// The change (actions are `create`, `update`, `delete` or `no-op`).
    pub change: Change<'a>,
}

impl<'a> OutputChange<'a> {
    pub(crate) fn build(cx: &Cx<'a>, name: &'a str, v: Json<'a>) -> Result<OutputChange<'a>> {
        Ok(OutputChange {
            name,
            change: Change::build(cx, v)?,
        })
    }
}

/// The module instance part of a resource instance address: `module.a["x"].module.b` for
/// `module.a["x"].module.b.aws_instance.c[0]`, empty for a root module resource.
///
/// ```
/// use tfwire_plan::module_of;
/// assert_eq!(module_of(r#"module.a["x.y"].module.b.aws_instance.c[0]"#), r#"module.a["x.y"].module.b"#);
/// assert_eq!(module_of("data.aws_ami.ubuntu"), "");
/// ```
pub fn module_of(address: &str) -> &str {
    let b = address.as_bytes();
    let mut end = 0; // the end of the last complete module step
    let mut i = 0;
    while b[i..].starts_with(b"module.") {
        i += "module.".len();
        while i < b.len() && b[i] != b'.' && b[i] != b'[' {
            i += 1;
        }
        if i < b.len() && b[i] == b'[' {
            i = skip_brackets(b, i);
        }
        if i >= b.len() || b[i] != b'.' {
            // `module.x` alone is not a resource address: no module part.
            break;
        }
        end = i;
        i += 1;
    }
    &address[..end]
}

/// Skips `[...]` starting at `b[i] == b'['`, with quoted strings (and their escapes)
/// inside; returns the index after `]` (or the length, if unterminated).
pub(crate) fn skip_brackets(b: &[u8], mut i: usize) -> usize {
    let mut in_str = false;
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b']' if !in_str => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}
