//! [`write_json`]: the summary as one JSON object, written with [`JsonWriter`]; and
//! [`write_change_members`], the one writer of a change's members, which `plan show --format
//! json` shares.

use core::fmt;
use tfwire_json::{Escape, JsonWriter};
use tfwire_plan::{
    ActionSummary, ActionTrigger, ChangeSummary, Client, Counts, OutputSummary, PlanLine, Summary,
};

/// Writes `s` as one JSON object (strings escaped for people: [`Escape::Safe`]):
/// `{"format_version", "terraform_version" (if known), "counts", "drift", "changes",
/// "drift_changes", "unfiltered" (after [`Summary::filtered`]), "outputs",
/// "output_changes", "deferred", "deferred_changes", "action_invocations",
/// "deferred_action_invocations", "client", "plan_line"}`.
///
/// - `counts`, `drift`, `deferred` and `outputs` count the resource changes, drift
///   entries, deferred changes and output changes per action: the seven standard keys
///   ([`tfwire_plan::COUNT_KEYS`]) always, then joined keys such as `create+forget`.
/// - `changes`, `drift_changes` and `deferred_changes` list them in the shape of
///   [`write_change_members`] (deferred ones with their `deferred_reason`).
/// - `output_changes` lists `name`, `action`, and `sensitive: true` for sensitive
///   ones, whose values are never written.
/// - `action_invocations` and `deferred_action_invocations` list the actions apply runs
///   (and those deferred): `address`, `type`, `provider_name` (when given), `trigger`
///   (`"lifecycle"`, `"invoke"`, or `null` when the document names none); for a lifecycle
///   trigger `triggered_by` (the resource instance address), `event` (as written,
///   `"AfterCreate"`), `on_failure` (as written) when given; for `-invoke`,
///   `calling_resource` when there is one; `deferred_reason` for a deferred invocation.
/// - `unfiltered` is `{"changes": n, "drift_changes": n}` of the whole plan.
/// - `client` is `"terraform"` or `"opentofu"` ([`tfwire_plan::Plan::client`]).
/// - `plan_line` holds the numbers of that client's `Plan:` line
///   ([`Summary::plan_line`]): `{"import", "add", "change", "destroy", "forget",
///   "invoke", "text"}`, `text` being the line as the client prints it, or `null` when
///   it prints none. After a filter, they count the selected changes (and every action).
///
/// `format_version` is `null` for documents without one.
///
/// ```
/// let mut input = br#"{"format_version":"1.2","resource_changes":[
///   {"address":"a.x","mode":"managed","type":"a","name":"x","change":{"actions":["create"]}},
///   {"address":"a.y","mode":"managed","type":"a","name":"y","change":{"actions":["delete","create"]},
///    "action_reason":"replace_because_cannot_update"},
///   {"address":"a.z","mode":"managed","type":"a","name":"z","previous_address":"a.old",
///    "change":{"actions":["no-op"]}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let summary = tfwire_plan::Summary::of(tape.plan(&arena)?);
/// let mut json = String::new();
/// tfwire_render::summary::write_json(&mut json, &summary)?;
/// assert_eq!(json, concat!(
///     r#"{"format_version":"1.2","counts":{"create":1,"update":0,"delete":0,"replace":1,"#,
///     r#""read":0,"no_op":1,"forget":0},"drift":{"create":0,"update":0,"delete":0,"replace":0,"#,
///     r#""read":0,"no_op":0,"forget":0},"changes":[{"address":"a.x","action":"create"},"#,
///     r#"{"address":"a.y","action":"replace","action_reason":"replace_because_cannot_update"},"#,
///     r#"{"address":"a.z","action":"no_op","previous_address":"a.old"}],"drift_changes":[],"#,
///     r#""outputs":{"create":0,"update":0,"delete":0,"replace":0,"read":0,"no_op":0,"forget":0},"#,
///     r#""output_changes":[],"deferred":{"create":0,"update":0,"delete":0,"replace":0,"read":0,"#,
///     r#""no_op":0,"forget":0},"deferred_changes":[],"action_invocations":[],"#,
///     r#""deferred_action_invocations":[],"client":"opentofu","plan_line":{"import":0,"add":2,"#,
///     r#""change":0,"destroy":1,"forget":0,"invoke":0,"text":"Plan: 2 to add, 0 to change, 1 to destroy."}}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_json(out: &mut impl fmt::Write, s: &Summary<'_>) -> fmt::Result {
    let mut w = JsonWriter::new(out as &mut dyn fmt::Write, Escape::Safe);
    summary(&mut w, s)
}

/// [`write_json`] into a string.
pub fn to_json(s: &Summary<'_>) -> String {
    let mut out = String::with_capacity(128 + 64 * s.changes.len());
    // Writing to a String cannot fail.
    let _ = write_json(&mut out, s);
    out
}

/// Writes the members of one change's object (the caller opens and closes it, and may add
/// members of its own): `address` and `action`, then, when they apply, `previous_address`,
/// `importing` (`true`), `import_id`, `import_identity` (the identity object as written),
/// `import_unknown` (`true`), `action_reason`, `replace_paths` (arrays of steps, as
/// written), `deposed`, `index_unknown` (`true`) and `deferred_reason`.
///
/// ```
/// use tfwire_json::{Escape, JsonWriter};
/// let mut input = br#"{"format_version":"1.2","resource_changes":[
///   {"address":"a.y","mode":"managed","type":"a","name":"y","change":{"actions":["delete","create"],
///    "replace_paths":[["ami"]]}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let plan = tape.plan(&arena)?;
/// let change = tfwire_plan::ChangeSummary::of(&plan.resource_changes[0]);
/// let mut out = String::new();
/// let mut w = JsonWriter::new(&mut out, Escape::Safe);
/// w.begin_object()?;
/// tfwire_render::summary::write_change_members(&mut w, &change)?;
/// w.member_bool("mine", true)?;
/// w.end_object()?;
/// assert_eq!(out, r#"{"address":"a.y","action":"replace","replace_paths":[["ami"]],"mine":true}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_change_members<W: fmt::Write>(
    w: &mut JsonWriter<W>,
    c: &ChangeSummary<'_>,
) -> fmt::Result {
    w.member_str("address", c.address)?;
    w.member_str("action", &c.kind.key())?;
    if let Some(p) = c.previous_address {
        w.member_str("previous_address", p)?;
    }
    if c.importing {
        w.member_bool("importing", true)?;
    }
    if let Some(id) = c.import_id {
        w.member_str("import_id", id)?;
    }
    if let Some(identity) = c.import_identity {
        w.key("import_identity")?;
        w.raw(&identity.to_string())?;
    }
    if c.import_unknown {
        w.member_bool("import_unknown", true)?;
    }
    if let Some(r) = c.action_reason {
        w.member_str("action_reason", r)?;
    }
    if !c.replace_paths.is_empty() {
        w.key("replace_paths")?;
        w.begin_array()?;
        for p in c.replace_paths {
            w.raw(&p.raw().to_string())?;
        }
        w.end_array()?;
    }
    if let Some(d) = c.deposed {
        w.member_str("deposed", d)?;
    }
    if c.index_unknown {
        w.member_bool("index_unknown", true)?;
    }
    if let Some(r) = c.deferred_reason {
        w.member_str("deferred_reason", r)?;
    }
    Ok(())
}

type Writer<'o> = JsonWriter<&'o mut dyn fmt::Write>;

fn summary(w: &mut Writer<'_>, s: &Summary<'_>) -> fmt::Result {
    w.begin_object()?;
    w.key("format_version")?;
    match s.format_version {
        Some(v) => w.string(v)?,
        None => w.null()?,
    }
    if let Some(v) = s.terraform_version {
        w.member_str("terraform_version", v)?;
    }
    counts(w, "counts", &s.counts)?;
    counts(w, "drift", &s.drift)?;
    changes(w, "changes", &s.changes)?;
    changes(w, "drift_changes", &s.drift_changes)?;
    if let Some((changes, drift)) = s.unfiltered {
        w.key("unfiltered")?;
        w.begin_object()?;
        w.member_uint("changes", changes as u64)?;
        w.member_uint("drift_changes", drift as u64)?;
        w.end_object()?;
    }
    counts(w, "outputs", &s.outputs)?;
    w.key("output_changes")?;
    w.begin_array()?;
    for o in &s.output_changes {
        output(w, o)?;
    }
    w.end_array()?;
    counts(w, "deferred", &s.deferred)?;
    changes(w, "deferred_changes", &s.deferred_changes)?;
    actions(w, "action_invocations", &s.action_invocations)?;
    actions(
        w,
        "deferred_action_invocations",
        &s.deferred_action_invocations,
    )?;
    w.member_str(
        "client",
        match s.client {
            Client::Terraform => "terraform",
            _ => "opentofu",
        },
    )?;
    w.key("plan_line")?;
    plan_line(w, &s.plan_line())?;
    w.end_object()
}

fn counts(w: &mut Writer<'_>, key: &str, counts: &Counts) -> fmt::Result {
    w.key(key)?;
    w.begin_object()?;
    for (k, n) in counts.iter() {
        w.member_uint(k, n as u64)?;
    }
    w.end_object()
}

fn changes(w: &mut Writer<'_>, key: &str, list: &[ChangeSummary<'_>]) -> fmt::Result {
    w.key(key)?;
    w.begin_array()?;
    for c in list {
        w.begin_object()?;
        write_change_members(w, c)?;
        w.end_object()?;
    }
    w.end_array()
}

fn output(w: &mut Writer<'_>, o: &OutputSummary<'_>) -> fmt::Result {
    w.begin_object()?;
    w.member_str("name", o.name)?;
    w.member_str("action", &o.kind.key())?;
    if o.sensitive {
        w.member_bool("sensitive", true)?;
    }
    w.end_object()
}

fn actions(w: &mut Writer<'_>, key: &str, list: &[ActionSummary<'_>]) -> fmt::Result {
    w.key(key)?;
    w.begin_array()?;
    for a in list {
        w.begin_object()?;
        w.member_str("address", a.address)?;
        w.member_str("type", a.type_name)?;
        if let Some(p) = a.provider_name {
            w.member_str("provider_name", p)?;
        }
        match &a.trigger {
            Some(ActionTrigger::Lifecycle(t)) => {
                w.member_str("trigger", "lifecycle")?;
                w.member_str("triggered_by", t.triggering_resource_address)?;
                if let Some(e) = t.event {
                    w.member_str("event", e.name())?;
                }
                if let Some(f) = t.on_failure {
                    w.member_str("on_failure", f)?;
                }
            }
            Some(ActionTrigger::Invoke {
                calling_resource_address,
                ..
            }) => {
                w.member_str("trigger", "invoke")?;
                if let Some(c) = calling_resource_address {
                    w.member_str("calling_resource", c)?;
                }
            }
            // None, or a trigger this version does not model.
            _ => {
                w.key("trigger")?;
                w.null()?;
            }
        }
        if let Some(r) = a.deferred_reason {
            w.member_str("deferred_reason", r)?;
        }
        w.end_object()?;
    }
    w.end_array()
}

fn plan_line(w: &mut Writer<'_>, line: &PlanLine) -> fmt::Result {
    w.begin_object()?;
    for (k, n) in [
        ("import", line.import),
        ("add", line.add),
        ("change", line.change),
        ("destroy", line.destroy),
        ("forget", line.forget),
        ("invoke", line.invoke),
    ] {
        w.member_uint(k, n as u64)?;
    }
    w.key("text")?;
    if line.is_printed() {
        w.string(&line.to_string())?;
    } else {
        w.null()?;
    }
    w.end_object()
}

#[cfg(test)]
mod tests {
    use super::to_json;

    /// Every optional member of a change, of an action invocation (each trigger, deferred)
    /// and of an output, with Terraform's `Plan:` line, in the order the format gives.
    #[test]
    fn every_member_in_order() {
        let mut input = br#"{"format_version":"1.2","terraform_version":"1.14.0",
          "applyable":true,"complete":false,
          "resource_changes":[
            {"address":"t.a","mode":"managed","type":"t","name":"a","previous_address":"t.old",
             "deposed":"d1","action_reason":"replace_because_tainted",
             "change":{"actions":["create","delete"],"replace_paths":[["x",0],["y"]],
               "importing":{"id":"i-1"}}},
            {"address":"t.o","mode":"managed","type":"t","name":"o",
             "change":{"actions":["update"],"importing":{"identity":{"name":"o","zone":"z\u001b"}}}}],
          "resource_drift":[
            {"address":"t.d","mode":"managed","type":"t","name":"d","change":{"actions":["create","forget"]}}],
          "output_changes":{
            "b":{"actions":["create"],"after_sensitive":true},
            "a":{"actions":["no-op"]}},
          "deferred_changes":[
            {"reason":"instance_count_unknown","resource_change":{"address":"t.f[*]","mode":"managed",
              "type":"t","name":"f","index_unknown":true,"change":{"actions":["create"],"importing":{"unknown":true}}}}],
          "action_invocations":[
            {"address":"action.w.n","type":"w","name":"n","provider_name":"p",
             "lifecycle_action_trigger":{"triggering_resource_address":"t.a",
               "action_trigger_event":"BeforeCreate","action_trigger_block_index":0,
               "actions_list_index":0,"on_failure":"ActionOnFailureHalt"}},
            {"address":"action.w.i","type":"w","name":"i",
             "invoke_action_trigger":{"calling_resource_address":"t.o"}},
            {"address":"action.w.none","type":"w","name":"none"}],
          "deferred_action_invocations":[
            {"reason":"deferred_prereq","action_invocation":{"address":"action.w.l","type":"w",
              "name":"l","invoke_action_trigger":{}}}]}"#
            .to_vec();
        let tape = tfwire_plan::Parser::new().parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let summary = tfwire_plan::Summary::of(tape.plan(&arena).unwrap());
        let json = to_json(&summary);
        for part in [
            r#"{"format_version":"1.2","terraform_version":"1.14.0","counts":{"create":0,"update":1,"delete":0,"replace":1,"#,
            r#""changes":[{"address":"t.a","action":"replace","previous_address":"t.old","importing":true,"import_id":"i-1","action_reason":"replace_because_tainted","replace_paths":[["x",0],["y"]],"deposed":"d1"},"#,
            r#"{"address":"t.o","action":"update","importing":true,"import_identity":{"name":"o","zone":"z\u001b"}}],"#,
            r#""drift":{"create":0,"update":0,"delete":0,"replace":0,"read":0,"no_op":0,"forget":0,"create+forget":1},"#,
            r#""output_changes":[{"name":"a","action":"no_op"},{"name":"b","action":"create","sensitive":true}],"#,
            r#""deferred_changes":[{"address":"t.f[*]","action":"create","importing":true,"import_unknown":true,"index_unknown":true,"deferred_reason":"instance_count_unknown"}],"#,
            r#""action_invocations":[{"address":"action.w.n","type":"w","provider_name":"p","trigger":"lifecycle","triggered_by":"t.a","event":"BeforeCreate","on_failure":"ActionOnFailureHalt"},"#,
            r#"{"address":"action.w.i","type":"w","trigger":"invoke","calling_resource":"t.o"},{"address":"action.w.none","type":"w","trigger":null}],"#,
            r#""deferred_action_invocations":[{"address":"action.w.l","type":"w","trigger":"invoke","deferred_reason":"deferred_prereq"}],"#,
            r#""client":"terraform","plan_line":{"import":2,"add":1,"change":1,"destroy":1,"forget":0,"invoke":3,"text":"Plan: 2 to import, 1 to add, 1 to change, 1 to destroy. Actions: 3 to invoke."}}"#,
        ] {
            assert!(json.contains(part), "{part}\nnot in\n{json}");
        }
        let filtered = summary.filtered(&tfwire_plan::Filter::new().action("update").unwrap());
        assert!(
            to_json(&filtered).contains(r#""unfiltered":{"changes":2,"drift_changes":1}"#),
            "{}",
            to_json(&filtered)
        );
    }
}
