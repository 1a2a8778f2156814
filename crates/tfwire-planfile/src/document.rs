//! The `show -json` document of a plan file, assembled: tfwire's subset
//! ([`crate::Planfile::to_json`]) from the members [`crate::show`] writes, or the client's
//! whole document ([`crate::Planfile::show_json`]) with what [`crate::whole`] adds.

use crate::Dialect;
use crate::error::Error;
use crate::parallel::Budget;
use crate::proto;
use crate::relevant;
use crate::show::{
    Listed, action_invocations, checks, decode, deferred_reason, dynamic, join, key_programs,
    listed, output_change, path, resource_change_texts, resource_changes, within, write_path,
};
use crate::{JSON_FORMAT_VERSION, Planfile};
use bumpalo::Bump;
use tfwire::schema::ProgramCache;
use tfwire_plan::ctyjson as values;

/// Which document [`document`] writes.
#[derive(Clone, Copy)]
pub(crate) enum Form<'s> {
    /// [`Planfile::to_json`]'s: the members tfwire-plan's model reads, strings escaped for
    /// people, `resource_changes` always written.
    Tfwire,
    /// [`Planfile::show_json`]'s: the client's whole document, strings escaped as Go's
    /// `encoding/json` escapes them.
    Show {
        schemas: &'s ProgramCache,
        options: crate::ShowJson,
    },
}

/// Builds the document.
pub(crate) fn document(
    pf: &Planfile,
    schemas: Option<&ProgramCache>,
    form: Form<'_>,
) -> Result<String, Error> {
    let p = &pf.plan;
    let dialect = pf.dialect;
    let mut arena = Bump::new();
    let limit = pf.max_document_bytes;
    // About three bytes of JSON a byte of `tfplan` (four with `planned_values`, and two a
    // byte of the prior state), never more than the document may hold: the text is not
    // copied again and again as it grows.
    let tfplan = pf.tfplan_len as u64;
    let guess = match form {
        Form::Tfwire => tfplan.saturating_mul(3),
        Form::Show { .. } => tfplan
            .saturating_mul(4)
            .saturating_add((pf.state().map_or(0, <[u8]>::len) as u64).saturating_mul(2)),
    }
    .min(limit);
    let mut out = String::with_capacity(256 + usize::try_from(guess).unwrap_or(0));
    let mut writer = match form {
        Form::Tfwire => values::writer(&mut out),
        Form::Show { .. } => values::go_writer(&mut out),
    };
    let w = &mut writer;
    // The configuration snapshot, for the variables' defaults and `configuration`.
    let config = match form {
        Form::Show { options, .. } if options.configuration => {
            Some(crate::whole::configuration(pf)?)
        }
        _ => None,
    };
    let defaults = match &config {
        Some(c) => crate::whole::variable_defaults(c)?,
        None => Vec::new(),
    };
    w.begin_object()?;
    w.member_str("format_version", JSON_FORMAT_VERSION)?;
    if !p.terraform_version.is_empty() {
        w.member_str("terraform_version", &p.terraform_version)?;
    }
    let mut names: Vec<(&str, Option<&str>)> = p
        .variables
        .keys()
        .map(|n| (n.as_str(), None))
        .chain(
            defaults
                .iter()
                .filter(|(n, _)| !p.variables.contains_key(n))
                .map(|(n, v)| (n.as_str(), Some(v.as_str()))),
        )
        .collect();
    if !names.is_empty() {
        w.key("variables")?;
        names.sort_unstable();
        w.begin_object()?;
        for (name, default) in names {
            w.key(name)?;
            w.begin_object()?;
            w.key("value")?;
            match default {
                Some(text) => w.raw(text)?,
                None => {
                    let v = decode(dynamic(), &p.variables[name], &arena)
                        .map_err(|e| e.at(format_args!("variables[{name:?}]")))?;
                    values::write_known(w, v)
                        .map_err(|e| Error::from(e).at(format_args!("variables[{name:?}]")))?;
                }
            }
            w.end_object()?;
        }
        w.end_object()?;
    }
    // `resource_changes`, the largest member, is written by a second thread while this one
    // writes the members before it (`planned_values` above all); each writes its list in
    // chunks on threads of its own (crate::parallel). The changes' texts are charged
    // against the document limit on their own until they join the document: the two
    // together hold at most twice the limit for that time.
    let all: Vec<Listed<'_>> = p.resource_changes.iter().map(|rc| (rc, None)).collect();
    // Written even when empty in tfwire's document (the clients leave it out then), so that
    // the document is recognisable as a plan whatever else it lacks.
    let write_changes = matches!(form, Form::Tfwire) || all.iter().any(|(rc, _)| listed(rc));
    let escape = w.escape();
    std::thread::scope(|scope| -> Result<(), Error> {
        let changes = write_changes.then(|| {
            let all = &all;
            scope.spawn(move || -> Result<Vec<String>, Error> {
                // About two bytes of JSON a byte of `tfplan`: most of it is the changes.
                let hint = usize::try_from(tfplan.saturating_mul(2).min(limit)).unwrap_or(0);
                resource_change_texts(all, dialect, schemas, escape, &Budget::new(0, limit), hint)
                    .map_err(|e| e.at("resource_changes"))
            })
        });
        if let Form::Show { schemas, .. } = form {
            crate::whole::write_planned_values(w, pf, schemas, &mut arena, limit)?;
        }
        // In refresh-only mode every drifted object is listed; otherwise move-only drift is
        // part of the planned changes and left out here, as OpenTofu does.
        let refresh_only = p.ui_mode == proto::Mode::RefreshOnly as i32;
        let drift: Vec<Listed<'_>> = p
            .resource_drift
            .iter()
            .filter(|rc| {
                refresh_only
                    || rc.change.as_ref().map_or(0, |c| c.action) != proto::Action::Noop as i32
            })
            .map(|rc| (rc, None))
            .collect();
        if !drift.is_empty() {
            w.key("resource_drift")?;
            resource_changes(w, &drift, dialect, schemas, limit)
                .map_err(|e| e.at("resource_drift"))?;
        }
        if let Some(changes) = changes {
            let texts = changes.join().map_err(|_| {
                Error::invalid("the thread writing resource_changes stopped").at("resource_changes")
            })??;
            w.key("resource_changes")?;
            join(w, &texts)?;
            within(w, limit)?;
        }
        Ok(())
    })?;
    let extra = pf.terraform.as_ref();
    if let Some(deferred) = extra.map(|t| &t.deferred_changes).filter(|d| !d.is_empty()) {
        w.key("deferred_changes")?;
        let listed: Vec<Listed<'_>> = deferred
            .iter()
            .map(|d| (&d.change, Some(deferred_reason(d.reason))))
            .collect();
        resource_changes(w, &listed, dialect, schemas, limit)
            .map_err(|e| e.at("deferred_changes"))?;
    }
    if let Some(deferred) = extra
        .map(|t| &t.deferred_action_invocations)
        .filter(|d| !d.is_empty())
    {
        let section = "deferred_action_invocations";
        w.key(section)?;
        let listed = deferred
            .iter()
            .map(|d| {
                let ai = d.action_invocation.as_ref().ok_or_else(|| {
                    Error::invalid("the action invocation is missing").at(section)
                })?;
                Ok((
                    Some(deferred_reason(d.deferred.map_or(0, |d| d.reason))),
                    ai,
                ))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        action_invocations(w, section, &listed, schemas, &mut arena, limit)?;
    }
    if !p.output_changes.is_empty() {
        w.key("output_changes")?;
        let mut outputs: Vec<&proto::OutputChange> = p.output_changes.iter().collect();
        outputs.sort_by(|a, b| a.name.cmp(&b.name));
        w.begin_object()?;
        for oc in outputs {
            w.key(&oc.name)?;
            output_change(w, oc, dialect, &arena)
                .map_err(|e| e.at(format_args!("output_changes[{:?}]", oc.name)))?;
            arena.reset();
            within(w, limit)?;
        }
        w.end_object()?;
    }
    if let Some(actions) = extra
        .map(|t| &t.action_invocations)
        .filter(|a| !a.is_empty())
    {
        w.key("action_invocations")?;
        let listed: Vec<_> = actions.iter().map(|ai| (None, ai)).collect();
        action_invocations(w, "action_invocations", &listed, schemas, &mut arena, limit)?;
    }
    if let Form::Show { schemas, .. } = form {
        crate::whole::write_prior_state(w, pf, schemas, limit)?;
        if let Some(config) = &config {
            w.key("configuration")?;
            crate::whole::write_configuration(w, config, schemas, dialect)?;
        }
    }
    if !p.relevant_attributes.is_empty() {
        w.key("relevant_attributes")?;
        let attrs = &p.relevant_attributes;
        let programs = key_programs(attrs.iter().filter_map(|ra| ra.attr.as_ref()))?;
        let mut programs = programs.iter();
        let steps = attrs
            .iter()
            .map(|ra| match &ra.attr {
                Some(a) => path(a, &mut programs, &arena).map(Some),
                None => Ok(None),
            })
            .collect::<Result<Vec<_>, Error>>()?;
        // Each client's order follows its sort algorithm (crate::relevant): OpenTofu's
        // `sort.Slice` by resource address; Terraform's `sort.SliceStable` of the texts it
        // compares where tfwire can write them, otherwise by resource address, in the
        // file's order within one resource.
        let order = match dialect {
            Dialect::OpenTofu => relevant::slice(attrs.len(), |x, y| {
                attrs[x].resource.as_bytes() < attrs[y].resource.as_bytes()
            }),
            Dialect::Terraform => match attrs
                .iter()
                .zip(&steps)
                .map(|(ra, s)| relevant::go_text(&ra.resource, s.as_deref()))
                .collect::<Option<Vec<String>>>()
            {
                Some(t) => relevant::slice_stable(t.len(), |i, j| t[i] < t[j]),
                None => {
                    let mut order: Vec<usize> = (0..attrs.len()).collect();
                    order.sort_by(|&a, &b| attrs[a].resource.cmp(&attrs[b].resource));
                    order
                }
            },
        };
        w.begin_array()?;
        for i in order {
            w.begin_object()?;
            w.member_str("resource", &attrs[i].resource)?;
            w.key("attribute")?;
            write_path(w, steps[i].as_deref().unwrap_or_default())
                .map_err(|e| e.at("relevant_attributes"))?;
            w.end_object()?;
        }
        w.end_array()?;
    }
    if !p.check_results.is_empty() {
        w.key("checks")?;
        checks(w, &p.check_results).map_err(|e| e.at("checks"))?;
    }
    if !p.timestamp.is_empty() {
        w.member_str("timestamp", &p.timestamp)?;
    }
    // Terraform writes both, always; a plan file that holds either is Terraform's, and the
    // other was false (not written).
    if p.applyable.is_some() || p.complete.is_some() {
        w.member_bool("applyable", p.applyable == Some(true))?;
        w.member_bool("complete", p.complete == Some(true))?;
    }
    w.member_bool("errored", p.errored)?;
    w.end_object()?;
    within(w, limit)?;
    Ok(out)
}
