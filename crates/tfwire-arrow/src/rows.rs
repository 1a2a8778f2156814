//! Rows of a document: every resource instance object with where it sits (phase, address,
//! provider, ...), its value and the markers that go with it; every output.

use crate::error::Error;
use crate::marks::Marks;
use std::borrow::Cow;
use tfwire_plan::{Document, Json, RawInstance, ResourceChange};

/// What the common columns hold for one row.
#[derive(Debug)]
pub(crate) struct Meta<'a> {
    pub(crate) phase: &'static str,
    pub(crate) actions: Option<Vec<&'a str>>,
    pub(crate) address: Cow<'a, str>,
    pub(crate) module: Option<Cow<'a, str>>,
    pub(crate) mode: &'a str,
    pub(crate) type_name: &'a str,
    pub(crate) name: &'a str,
    pub(crate) index_key: Option<String>,
    pub(crate) deposed: Option<&'a str>,
    pub(crate) provider: Option<&'a str>,
    pub(crate) schema_version: Option<u64>,
    pub(crate) identity: Option<Json<'a>>,
    pub(crate) serial: Option<u64>,
    pub(crate) lineage: Option<&'a str>,
}

/// Where a row's sensitivity markers come from.
#[derive(Debug)]
pub(crate) enum Sensitivity<'a> {
    /// A marker tree (`sensitive_values`, `before_sensitive`, `after_sensitive`); `None`
    /// when the document has none for the value.
    Tree(Option<Json<'a>>),
    /// A raw state's `sensitive_attributes`.
    Raw(&'a RawInstance<'a>),
}

/// One resource instance object in one phase.
#[derive(Debug)]
pub(crate) struct Object<'a> {
    pub(crate) meta: Meta<'a>,
    pub(crate) value: Option<Json<'a>>,
    pub(crate) sensitive: Sensitivity<'a>,
    pub(crate) unknown: Option<Json<'a>>,
    /// The value is a raw state's: `dynamic` values are wrapped (`{"value","type"}`).
    pub(crate) wrapped_dynamic: bool,
    /// The value is a legacy flatmap (`attributes_flat`, or a version 3 state's
    /// `primary.attributes`): strings keyed by flatmap paths, not typed.
    pub(crate) flat: bool,
}

impl Object<'_> {
    /// The sensitivity marks, failing closed: a value with no markers at all (an old
    /// document that predates them) cannot say what is sensitive, and is an error.
    pub(crate) fn sensitive_marks(&self) -> Result<Marks, Error> {
        match &self.sensitive {
            Sensitivity::Raw(inst) => Ok(Marks::from_paths(&inst.sensitive_paths())),
            Sensitivity::Tree(None) if self.value.is_some_and(|v| !v.is_null()) => Err(Error::new(
                "the document gives no sensitivity markers for this value (sensitive_values, \
                 before_sensitive or after_sensitive), so what is sensitive cannot be told: \
                 refused (pass include_sensitive to read it anyway)",
            )
            .with_address(self.meta.address.to_string())),
            Sensitivity::Tree(t) => {
                Marks::from_json(*t).map_err(|e| e.with_address(self.meta.address.to_string()))
            }
        }
    }

    /// The unknown marks.
    pub(crate) fn unknown_marks(&self) -> Result<Marks, Error> {
        Marks::from_json(self.unknown).map_err(|e| e.with_address(self.meta.address.to_string()))
    }
}

/// One output in one phase.
#[derive(Debug)]
pub(crate) struct OutputRow<'a> {
    pub(crate) phase: &'static str,
    pub(crate) name: &'a str,
    pub(crate) value: Option<Json<'a>>,
    pub(crate) ty: Option<Json<'a>>,
    /// The whole output is sensitive (its `sensitive` flag), or its markers.
    pub(crate) sensitive: bool,
    pub(crate) sensitive_tree: Option<Json<'a>>,
    pub(crate) unknown: Option<Json<'a>>,
}

fn index_text(i: Option<tfwire_plan::Index<'_>>) -> Option<String> {
    i.map(|i| {
        let s = i.to_string();
        s.strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .map_or(s.clone(), str::to_owned)
    })
}

/// A raw state's `serial` and `lineage` (versions 3 and 4 write them alike), from its
/// top-level members.
fn serial_lineage(raw: Json<'_>) -> (Option<u64>, Option<&str>) {
    (
        raw.get("serial").and_then(|v| v.as_u64()),
        raw.get("lineage").and_then(|v| v.as_str()),
    )
}

fn module_of(address: &str) -> Option<Cow<'_, str>> {
    let m = tfwire_plan::module_of(address);
    (!m.is_empty()).then_some(Cow::Borrowed(m))
}

/// Visits the values a document holds as state, before its other rows: a `show -json`
/// state's (phase `state`) or a plan's prior state (phase `prior`).
fn visit_state_values<'a>(
    doc: &Document<'a>,
    visit: impl FnOnce(Option<tfwire_plan::Values<'a>>, &'static str) -> Result<(), Error>,
) -> Result<(), Error> {
    match doc {
        Document::State(state) => visit(state.values, "state"),
        Document::Plan(plan) => visit(plan.prior_state.and_then(|s| s.values), "prior"),
        Document::RawState(_) | Document::LegacyState(_) => Ok(()),
    }
}

/// Every resource instance object of a document, in document order; with `only`, only
/// those of that mode and type (the others cost no address or row).
pub(crate) fn visit_objects<'a>(
    doc: &Document<'a>,
    only: Option<(&str, &str)>,
    f: &mut dyn FnMut(Object<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let wanted = |mode: &str, type_name: &str| only.is_none_or(|o| o == (mode, type_name));
    let f = &mut |o: Object<'a>| {
        if wanted(o.meta.mode, o.meta.type_name) {
            f(o)
        } else {
            Ok(())
        }
    };
    visit_state_values(doc, |values, phase| values_objects(values, phase, f))?;
    match doc {
        Document::State(_) => {}
        Document::Plan(plan) => {
            for rc in plan.resource_changes {
                change_objects(rc, ("before", "after"), f)?;
            }
            for rc in plan.resource_drift {
                change_objects(rc, ("drift_before", "drift_after"), f)?;
            }
        }
        Document::RawState(state) => {
            let (serial, lineage) = serial_lineage(state.raw);
            for r in state.resources {
                if !wanted(r.mode.name(), r.type_name) {
                    continue;
                }
                for inst in r.instances {
                    let address = r.address(inst.index_key).to_string();
                    let flat = inst.attributes.is_none() && inst.attributes_flat.is_some();
                    f(Object {
                        meta: Meta {
                            phase: "state",
                            actions: None,
                            address: Cow::Owned(address),
                            module: r.module.filter(|m| !m.is_empty()).map(Cow::Borrowed),
                            mode: r.mode.name(),
                            type_name: r.type_name,
                            name: r.name,
                            index_key: index_text(inst.index_key),
                            deposed: inst.deposed,
                            provider: r.provider,
                            schema_version: inst.schema_version,
                            identity: inst.identity.filter(|v| !v.is_null()),
                            serial,
                            lineage,
                        },
                        value: if flat {
                            inst.attributes_flat
                        } else {
                            inst.attributes
                        },
                        sensitive: Sensitivity::Raw(inst),
                        unknown: None,
                        wrapped_dynamic: true,
                        flat,
                    })?;
                }
            }
        }
        Document::LegacyState(state) => {
            let (serial, lineage) = serial_lineage(state.raw);
            for m in state.modules {
                for r in m.resources {
                    let address = r.address(m.path);
                    let (mode, rest) = match r.key.strip_prefix("data.") {
                        Some(rest) => ("data", rest),
                        None => ("managed", r.key),
                    };
                    let mut parts = rest.split('.');
                    let type_name = r.type_name.or_else(|| parts.next()).unwrap_or("");
                    let name = rest.split('.').nth(1).unwrap_or("");
                    let module = (m.path.len() > 1).then(|| {
                        Cow::Owned(
                            m.path[1..]
                                .iter()
                                .map(|p| format!("module.{p}"))
                                .collect::<Vec<_>>()
                                .join("."),
                        )
                    });
                    let index_key = rest.split('.').nth(2).map(str::to_owned);
                    let primary = r.primary;
                    f(Object {
                        meta: Meta {
                            phase: "state",
                            actions: None,
                            address: Cow::Owned(address),
                            module,
                            mode,
                            type_name,
                            name,
                            index_key,
                            deposed: None,
                            provider: r.provider,
                            schema_version: None,
                            identity: None,
                            serial,
                            lineage,
                        },
                        value: primary.and_then(|p| p.get("attributes")),
                        sensitive: Sensitivity::Tree(Some(Json::null())),
                        unknown: None,
                        wrapped_dynamic: true,
                        flat: true,
                    })?;
                }
            }
        }
    }
    Ok(())
}

fn values_objects<'a>(
    values: Option<tfwire_plan::Values<'a>>,
    phase: &'static str,
    f: &mut dyn FnMut(Object<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(values) = values else {
        return Ok(());
    };
    for r in values.resources() {
        f(Object {
            meta: Meta {
                phase,
                actions: None,
                address: Cow::Borrowed(r.address),
                module: module_of(r.address),
                mode: r.mode.name(),
                type_name: r.type_name,
                name: r.name,
                index_key: index_text(r.index),
                deposed: r.deposed_key,
                provider: r.provider_name,
                schema_version: r.schema_version,
                identity: r.identity.filter(|v| !v.is_null()),
                serial: None,
                lineage: None,
            },
            value: r.values,
            sensitive: Sensitivity::Tree(r.sensitive_values),
            unknown: None,
            wrapped_dynamic: false,
            flat: false,
        })?;
    }
    Ok(())
}

fn change_objects<'a>(
    rc: &ResourceChange<'a>,
    (before, after): (&'static str, &'static str),
    f: &mut dyn FnMut(Object<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let c = &rc.change;
    let actions: Vec<&'a str> = c.actions.iter().map(|a| a.name()).collect();
    let meta = |phase, identity: Option<Json<'a>>| Meta {
        phase,
        actions: Some(actions.clone()),
        address: Cow::Borrowed(rc.address),
        module: rc
            .module_address
            .filter(|m| !m.is_empty())
            .map(Cow::Borrowed),
        mode: rc.mode.name(),
        type_name: rc.type_name,
        name: rc.name,
        index_key: index_text(rc.index),
        deposed: rc.deposed,
        provider: rc.provider_name,
        schema_version: None,
        identity: identity.filter(|v| !v.is_null()),
        serial: None,
        lineage: None,
    };
    if c.before.is_some_and(|v| !v.is_null()) {
        f(Object {
            meta: meta(before, c.before_identity),
            value: c.before,
            sensitive: Sensitivity::Tree(c.before_sensitive),
            unknown: None,
            wrapped_dynamic: false,
            flat: false,
        })?;
    }
    let after_unknown = c.after_unknown.is_some_and(|u| u.as_bool() == Some(true));
    if c.after.is_some_and(|v| !v.is_null()) || after_unknown {
        f(Object {
            meta: meta(after, c.after_identity),
            value: c.after,
            sensitive: Sensitivity::Tree(c.after_sensitive.or(
                // A wholly unknown value has nothing to hide.
                if after_unknown {
                    Some(Json::null())
                } else {
                    None
                },
            )),
            unknown: c.after_unknown,
            wrapped_dynamic: false,
            flat: false,
        })?;
    }
    Ok(())
}

/// The outputs a state holds (a `show -json` state's, a plan's prior state's or a raw
/// state's), as rows of `phase`.
fn state_outputs<'a>(
    outputs: &'a [tfwire_plan::Output<'a>],
    phase: &'static str,
    f: &mut dyn FnMut(OutputRow<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    for o in outputs {
        f(OutputRow {
            phase,
            name: o.name,
            value: o.value,
            ty: o.ty,
            sensitive: o.sensitive,
            sensitive_tree: None,
            unknown: None,
        })?;
    }
    Ok(())
}

/// Every output of a document.
pub(crate) fn visit_outputs<'a>(
    doc: &Document<'a>,
    f: &mut dyn FnMut(OutputRow<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    visit_state_values(doc, |vs, phase| {
        state_outputs(vs.map(|v| v.outputs).unwrap_or(&[]), phase, f)
    })?;
    match doc {
        Document::State(_) => {}
        Document::Plan(p) => {
            for oc in p.output_changes {
                let c = &oc.change;
                if c.before.is_some_and(|v| !v.is_null()) {
                    f(OutputRow {
                        phase: "before",
                        name: oc.name,
                        value: c.before,
                        ty: None,
                        sensitive: false,
                        sensitive_tree: c.before_sensitive,
                        unknown: None,
                    })?;
                }
                let after_unknown = c.after_unknown.is_some_and(|u| u.as_bool() == Some(true));
                if c.after.is_some_and(|v| !v.is_null()) || after_unknown {
                    f(OutputRow {
                        phase: "after",
                        name: oc.name,
                        value: c.after,
                        ty: None,
                        sensitive: false,
                        sensitive_tree: c.after_sensitive,
                        unknown: c.after_unknown,
                    })?;
                }
            }
        }
        Document::RawState(s) => state_outputs(s.outputs, "state", f)?,
        Document::LegacyState(s) => {
            for m in s.modules.iter().filter(|m| m.path.len() <= 1) {
                for (name, o) in m
                    .outputs
                    .and_then(|o| o.as_object())
                    .into_iter()
                    .flat_map(|o| o.iter())
                {
                    f(OutputRow {
                        phase: "state",
                        name,
                        value: o.get("value"),
                        ty: None,
                        sensitive: o
                            .get("sensitive")
                            .and_then(|s| s.as_bool())
                            .unwrap_or(false),
                        sensitive_tree: None,
                        unknown: None,
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// A JSON value's text as compact JSON (numbers as written, strings escaped as
/// serde_json escapes them).
pub(crate) fn json_text(v: Json<'_>) -> String {
    let mut out = String::new();
    let _ = write_json(
        &mut tfwire_json::JsonWriter::new(&mut out, tfwire_json::Escape::Canonical),
        v,
    );
    out
}

fn write_json(w: &mut tfwire_json::JsonWriter<&mut String>, v: Json<'_>) -> core::fmt::Result {
    if let Some(o) = v.as_object() {
        w.begin_object()?;
        for (k, m) in o.iter() {
            w.key(k)?;
            write_json(w, m)?;
        }
        return w.end_object();
    }
    if let Some(a) = v.as_array() {
        w.begin_array()?;
        for m in a.iter() {
            write_json(w, m)?;
        }
        return w.end_array();
    }
    if let Some(s) = v.as_str() {
        return w.string(s);
    }
    if let Some(b) = v.as_bool() {
        return w.bool(b);
    }
    match v.as_number_text() {
        Some(text) => w.number(text),
        None => w.null(),
    }
}
