//! Typed values: every resource value of a document with where it sits.
//!
//! Resource values inside documents are JSON wire values. This crate reads them untyped
//! ([`Json`]); decoding them as typed values needs the provider schema of the resource
//! type (from `terraform providers schema -json`, or a redacted plan's embedded
//! `provider_schemas`) compiled into a `tfwire::Program` (a
//! [`tfwire::schema::ProgramCache`] compiles each once). [`TypedJson::decode_typed`](tfwire::TypedJson::decode_typed) (and
//! [`crate::Change::after_typed`], [`crate::Change::before_typed`],
//! [`crate::Resource::values_typed`]) then runs tfwire's JSON state machine over the value's
//! nodes of the document's tape, in place. A [`ValueDecoder`] is handed each value with
//! its [`ValueSite`], which says everything needed to choose the schema (provider, mode,
//! resource type, schema version) and which value of the resource it is.
//!
//! ```
//! use tfwire_plan::decode::{ValueRole, ValueSite};
//! let mut input = br#"{"format_version":"1.2","resource_changes":[{"address":"aws_s3_bucket.b",
//!   "mode":"managed","type":"aws_s3_bucket","name":"b",
//!   "provider_name":"registry.terraform.io/hashicorp/aws",
//!   "change":{"actions":["update"],"before":{"bucket":"old"},"after":{"bucket":"new"}}}]}"#.to_vec();
//! let tape = tfwire_plan::Parser::new().parse(&mut input)?;
//! let arena = bumpalo::Bump::new();
//! let doc = tape.document(&arena)?;
//!
//! // Any closure `FnMut(&ValueSite, Json) -> Result<T, E>` is a decoder; a schema-backed
//! // decoder would pick its compiled program by `site.provider_name` and `site.type_name`.
//! let mut decoder = |site: &ValueSite<'_>, value: tfwire_plan::Json<'_>| {
//!     Ok::<_, std::convert::Infallible>(format!("{:?} {}", site.role, value.get("bucket").unwrap()))
//! };
//! let decoded = tfwire_plan::decode::decode_values(&doc, &mut decoder).unwrap();
//! assert_eq!(decoded.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>(),
//!            [r#"Before "old""#, r#"After "new""#]);
//! # Ok::<(), tfwire_plan::Error>(())
//! ```

use crate::change::ResourceChange;
use crate::document::Document;
use crate::json::Json;
use crate::rawstate::{RawInstance, RawResource};
use crate::values::{Mode, Resource, Values};
use std::borrow::Cow;

/// Which value of a resource a [`ValueSite`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRole {
    /// `values` of a resource in a values representation (`planned_values`, a state's
    /// `values`, `prior_state`).
    Values,
    /// `change.before` of a resource change.
    Before,
    /// `change.after` of a resource change: unknown values are absent or `null` (see
    /// [`crate::Merged`]).
    After,
    /// `attributes` of a raw state instance.
    Attributes,
    /// `identity` of a resource in a values representation or of a raw state instance
    /// (only [`visit_identities`] yields it; the site's `schema_version` is the
    /// `identity_schema_version`).
    Identity,
    /// `change.before_identity` of a resource change ([`visit_identities`]).
    BeforeIdentity,
    /// `change.after_identity` of a resource change ([`visit_identities`]).
    AfterIdentity,
    /// `change.importing.identity`: the identity an `import` block gave
    /// ([`visit_identities`]).
    ImportingIdentity,
}

impl ValueRole {
    /// The member the value is, as written in the document (`change.before`, `identity`,
    /// `change.importing.identity`, ...).
    pub fn member(self) -> &'static str {
        match self {
            ValueRole::Before => "change.before",
            ValueRole::After => "change.after",
            ValueRole::Values => "values",
            ValueRole::Attributes => "attributes",
            ValueRole::Identity => "identity",
            ValueRole::BeforeIdentity => "change.before_identity",
            ValueRole::AfterIdentity => "change.after_identity",
            ValueRole::ImportingIdentity => "change.importing.identity",
        }
    }
}

/// Where a resource value sits: what a schema-driven decoder needs to choose the schema.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ValueSite<'a> {
    /// The resource instance address.
    pub address: Cow<'a, str>,
    /// The provider: `provider_name` of plans and `show -json` states
    /// (`registry.terraform.io/hashicorp/aws`, or a legacy short name such as `aws`), or a
    /// raw state's `provider` configuration address.
    pub provider_name: Option<&'a str>,
    /// The resource mode (picks `resource_schemas` or `data_source_schemas`).
    pub mode: Mode<'a>,
    /// The resource type.
    pub type_name: &'a str,
    /// The schema version the value conforms to, when the document says.
    pub schema_version: Option<u64>,
    /// Which value of the resource.
    pub role: ValueRole,
    /// For a resource change, whether it is in `resource_drift` rather than
    /// `resource_changes`.
    pub drift: bool,
    /// The member of the document the resource is under, for messages: `prior_state`,
    /// `planned_values`, `resource_changes`, `resource_drift` or `deferred_changes` in a
    /// plan, `values` in a
    /// `show -json` state, `resources` in a raw state.
    pub section: &'static str,
}

/// Decodes resource values given where they sit. Implemented for every closure
/// `FnMut(&ValueSite, Json) -> Result<T, E>`.
pub trait ValueDecoder<'a> {
    /// The decoded value.
    type Output;
    /// Why decoding failed.
    type Error;

    /// Decodes one value.
    ///
    /// # Errors
    ///
    /// Whatever the decoder rejects.
    fn decode(
        &mut self,
        site: &ValueSite<'a>,
        value: Json<'a>,
    ) -> Result<Self::Output, Self::Error>;
}

impl<'a, F, T, E> ValueDecoder<'a> for F
where
    F: FnMut(&ValueSite<'a>, Json<'a>) -> Result<T, E>,
{
    type Output = T;
    type Error = E;

    fn decode(&mut self, site: &ValueSite<'a>, value: Json<'a>) -> Result<T, E> {
        self(site, value)
    }
}

/// Calls `f` with every resource value of a document and its site, in document order:
/// for a plan, `prior_state`, `planned_values`, then each of `resource_changes`,
/// `resource_drift` and `deferred_changes` (`before` then `after`); for states, each
/// resource's values.
/// Absent and `null` values are skipped.
///
/// # Errors
///
/// The first error `f` returns.
pub fn visit_values<'a, E>(
    doc: &Document<'a>,
    mut f: impl FnMut(&ValueSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    walk(doc, Which::Values, &mut f)
}

/// What [`walk`] visits: resource values ([`visit_values`]) or identities
/// ([`visit_identities`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Values,
    Identities,
}

/// The walk of [`visit_values`] and [`visit_identities`]: the same sections of a document in
/// the same order (changes deferred by the plan have values only).
fn walk<'a, E>(
    doc: &Document<'a>,
    which: Which,
    f: &mut impl FnMut(&ValueSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    match doc {
        Document::Plan(p) => {
            if let Some(v) = p.prior_state.and_then(|s| s.values) {
                visit_resources(&v, "prior_state", which, f)?;
            }
            if let Some(v) = p.planned_values {
                visit_resources(&v, "planned_values", which, f)?;
            }
            let lists = [
                (false, "resource_changes", p.resource_changes),
                (true, "resource_drift", p.resource_drift),
            ];
            for (drift, section, list) in lists {
                for rc in list {
                    match which {
                        Which::Values => visit_change(rc, drift, section, f)?,
                        Which::Identities => visit_change_identities(rc, drift, section, f)?,
                    }
                }
            }
            if which == Which::Values {
                for d in p.deferred_changes {
                    visit_change(&d.resource_change, false, "deferred_changes", f)?;
                }
            }
        }
        Document::State(s) => {
            if let Some(v) = s.values {
                visit_resources(&v, "values", which, f)?;
            }
        }
        Document::RawState(s) => {
            for r in s.resources {
                for inst in r.instances {
                    let (role, value, version) = match which {
                        Which::Values => {
                            (ValueRole::Attributes, inst.attributes, inst.schema_version)
                        }
                        Which::Identities => (
                            ValueRole::Identity,
                            inst.identity.filter(|j| !j.is_null()),
                            inst.identity_schema_version,
                        ),
                    };
                    if let Some(v) = value {
                        f(&site_of_instance(r, inst, role, version), v)?;
                    }
                }
            }
        }
        // Version 3 attributes are flatmaps of strings, not wire values.
        Document::LegacyState(_) => {}
    }
    Ok(())
}

fn visit_resources<'a, E>(
    values: &Values<'a>,
    section: &'static str,
    which: Which,
    f: &mut impl FnMut(&ValueSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    for r in values.resources() {
        let mut site = site_of_resource(r, section);
        let value = match which {
            Which::Values => r.values,
            Which::Identities => {
                site.role = ValueRole::Identity;
                site.schema_version = r.identity_schema_version;
                r.identity.filter(|j| !j.is_null())
            }
        };
        if let Some(v) = value {
            f(&site, v)?;
        }
    }
    Ok(())
}

fn site_of_resource<'a>(r: &Resource<'a>, section: &'static str) -> ValueSite<'a> {
    ValueSite {
        address: Cow::Borrowed(r.address),
        provider_name: r.provider_name,
        mode: r.mode,
        type_name: r.type_name,
        schema_version: r.schema_version,
        role: ValueRole::Values,
        drift: false,
        section,
    }
}

fn site_of_change<'a>(
    rc: &ResourceChange<'a>,
    role: ValueRole,
    drift: bool,
    section: &'static str,
) -> ValueSite<'a> {
    ValueSite {
        address: Cow::Borrowed(rc.address),
        provider_name: rc.provider_name,
        mode: rc.mode,
        type_name: rc.type_name,
        schema_version: None,
        role,
        drift,
        section,
    }
}

/// The site of a raw state instance's value (its attributes, or its identity).
fn site_of_instance<'a>(
    r: &RawResource<'a>,
    inst: &RawInstance<'a>,
    role: ValueRole,
    schema_version: Option<u64>,
) -> ValueSite<'a> {
    ValueSite {
        address: Cow::Owned(r.address(inst.index_key).to_string()),
        provider_name: r.provider,
        mode: r.mode,
        type_name: r.type_name,
        schema_version,
        role,
        drift: false,
        section: "resources",
    }
}

fn visit_change<'a, E>(
    rc: &ResourceChange<'a>,
    drift: bool,
    section: &'static str,
    f: &mut impl FnMut(&ValueSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    let mut site = site_of_change(rc, ValueRole::Before, drift, section);
    if let Some(v) = rc.change.before {
        f(&site, v)?;
    }
    if let Some(v) = rc.change.after {
        site.role = ValueRole::After;
        f(&site, v)?;
    }
    Ok(())
}

/// Calls `f` with every resource identity value of a document (typed by the resource type's
/// identity schema, not its schema) and its site, in document order: for a plan, the
/// `identity` of each resource of `prior_state` and `planned_values`, then each change of
/// `resource_changes` and `resource_drift` (`importing.identity`, `before_identity`,
/// `after_identity`); for states, each resource's or instance's `identity`. The site's
/// `schema_version` is the document's `identity_schema_version` (changes have none). Absent
/// and `null` identities are skipped.
///
/// ```
/// use tfwire_plan::decode::{ValueRole, visit_identities};
/// let mut input = br#"{"format_version":"1.2","resource_changes":[{"address":"x.a","mode":"managed",
///   "type":"x","name":"a","provider_name":"registry.terraform.io/h/x","change":{"actions":["update"],
///   "before":{},"after":{},"before_identity":{"id":"1"},"after_identity":{"id":"2"}}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let doc = tape.document(&arena)?;
/// let mut seen = Vec::new();
/// visit_identities(&doc, |site, v| {
///     seen.push((site.role.member(), v.get("id").and_then(|id| id.as_str())));
///     Ok::<_, ()>(())
/// }).unwrap();
/// assert_eq!(seen, [("change.before_identity", Some("1")), ("change.after_identity", Some("2"))]);
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
///
/// # Errors
///
/// The first error `f` returns.
pub fn visit_identities<'a, E>(
    doc: &Document<'a>,
    mut f: impl FnMut(&ValueSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    walk(doc, Which::Identities, &mut f)
}

/// The identities of a change: `importing.identity`, `before_identity`, `after_identity`.
fn visit_change_identities<'a, E>(
    rc: &ResourceChange<'a>,
    drift: bool,
    section: &'static str,
    f: &mut impl FnMut(&ValueSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    let mut site = site_of_change(rc, ValueRole::ImportingIdentity, drift, section);
    let c = &rc.change;
    for (role, v) in [
        (
            ValueRole::ImportingIdentity,
            c.importing.and_then(|i| i.identity),
        ),
        (ValueRole::BeforeIdentity, c.before_identity),
        (ValueRole::AfterIdentity, c.after_identity),
    ] {
        if let Some(v) = v.filter(|j| !j.is_null()) {
            site.role = role;
            f(&site, v)?;
        }
    }
    Ok(())
}

/// Where an action's configuration sits in a plan: what a schema-driven decoder needs to
/// choose the action type's schema.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ActionSite<'a> {
    /// `address`: the action instance address (`action.bufo_print.success`).
    pub address: &'a str,
    /// `provider_name`.
    pub provider_name: Option<&'a str>,
    /// `type`: the action type.
    pub type_name: &'a str,
    /// The member of the plan the invocation is under: `action_invocations`, or
    /// `deferred_action_invocations` (whose elements hold it as `action_invocation`).
    pub section: &'static str,
    /// The invocation's index in that list.
    pub index: usize,
}

/// Calls `f` with the `config_values` of every action invocation of a plan (Terraform ≥
/// 1.14: [`crate::Plan::action_invocations`], then the `action_invocation` of each of
/// [`crate::Plan::deferred_action_invocations`]), in document order. Unknown values are
/// absent from `config_values` (as from a change's `after`). Invocations without a
/// `config_values` object, or without a `type`, are skipped.
///
/// # Errors
///
/// The first error `f` returns.
pub fn visit_action_configs<'a, E>(
    plan: &crate::Plan<'a>,
    mut f: impl FnMut(&ActionSite<'a>, Json<'a>) -> Result<(), E>,
) -> Result<(), E> {
    let invoked = plan
        .action_invocations
        .iter()
        .enumerate()
        .map(|(index, ai)| ("action_invocations", index, ai));
    let deferred = plan
        .deferred_action_invocations
        .iter()
        .enumerate()
        .map(|(index, d)| ("deferred_action_invocations", index, &d.action_invocation));
    for (section, index, ai) in invoked.chain(deferred) {
        let Some(config) = ai.config_values.filter(|_| !ai.type_name.is_empty()) else {
            continue;
        };
        let site = ActionSite {
            address: ai.address,
            provider_name: ai.provider_name,
            type_name: ai.type_name,
            section,
            index,
        };
        f(&site, config)?;
    }
    Ok(())
}

/// Runs a [`ValueDecoder`] over every resource value of a document (in the order of
/// [`visit_values`]) and collects the results with their sites.
///
/// # Errors
///
/// The decoder's first error.
pub fn decode_values<'a, D: ValueDecoder<'a>>(
    doc: &Document<'a>,
    decoder: &mut D,
) -> Result<Vec<(ValueSite<'a>, D::Output)>, D::Error> {
    let mut out = Vec::new();
    visit_values(doc, |site, v| {
        out.push((site.clone(), decoder.decode(site, v)?));
        Ok(())
    })?;
    Ok(out)
}
