//! The document `show` draws: drift, changes, the `Plan:` line, outputs, in either
//! client's words.

use super::actions;
use super::differ;
use super::draw::{Opts, op_markup, render};
use super::fallback::schema_from_values;
use super::text::{attribute_name, color, word_wrap};
use super::value::{Dialect, Matcher, Val};
use crate::error::Error;
use crate::escape::{DEPTH_MAX, Padded, column_width, inline};
use std::borrow::Cow;
use std::fmt::Write as _;
use tfwire::schema::{Block, ProviderSchemas};
use tfwire_plan::{ActionTiming, ChangeKind, DiffOp, Json, Mode, Plan, ResourceChange};

/// The width OpenTofu wraps to when its output is not a terminal (on a terminal it takes
/// the terminal's width; tfwire always uses this one). It sets where the fixed sentences
/// wrap and the length of the rule under the drift section, nothing else.
const COLUMNS: usize = 78;

/// How the plan is drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// ANSI colours, as OpenTofu colours.
    pub color: bool,
    /// Whose words ("OpenTofu will perform ...", "Terraform will perform ...") and
    /// rendering rules.
    pub dialect: Dialect,
    /// Show unchanged attributes, blocks and elements too (`tofu show` shows them only
    /// for imports).
    pub all: bool,
    /// The planning mode, when the input records it (a binary plan file); otherwise it
    /// is inferred from the plan (see [`PlanMode`]).
    pub mode: Option<PlanMode>,
}

impl Options {
    fn terraform(&self) -> bool {
        self.dialect == Dialect::Terraform
    }

    /// The drawing options of a whole change or output.
    fn draw(&self) -> Opts {
        Opts {
            color: self.color,
            dialect: self.dialect,
            ..Opts::default()
        }
    }
}

struct Renderer<'p, 'a> {
    plan: &'p Plan<'a>,
    schemas: Option<&'p ProviderSchemas>,
    opts: Options,
}

/// One change with its diff.
struct Drawn<'p, 'a> {
    rc: &'p ResourceChange<'a>,
    kind: ChangeKind<'a>,
    diff: differ::Diff<'p>,
}

impl Drawn<'_, '_> {
    fn moved(&self) -> bool {
        self.rc
            .previous_address
            .is_some_and(|p| !p.is_empty() && p != self.rc.address)
    }

    fn importing(&self) -> bool {
        self.rc.change.importing.is_some()
    }
}

/// The whole plan as `tofu show -no-color PLANFILE` prints it (with colour markup expanded
/// when `opts.color`).
/// An action's configuration is drawn with its type's schema from `schemas` (their
/// `action_schemas`), or from its values when the schemas lack it.
pub fn render_plan(
    plan: &Plan<'_>,
    schemas: Option<&ProviderSchemas>,
    opts: Options,
) -> Result<String, Error> {
    actions::check(plan.action_invocations)?;
    Renderer {
        plan,
        schemas,
        opts,
    }
    .plan()
}

/// The section of one resource change (the lines `tofu show` prints for it, without the
/// blank line before), or `None` when `tofu show` would print nothing for it (a plain
/// no-op, a deleted data source); with the actions it triggers, as Terraform draws them
/// under it.
pub fn render_change(
    plan: &Plan<'_>,
    rc: &ResourceChange<'_>,
    schemas: Option<&ProviderSchemas>,
    opts: Options,
) -> Result<Option<String>, Error> {
    actions::check(plan.action_invocations)?;
    let r = Renderer {
        plan,
        schemas,
        opts,
    };
    let owned_schema;
    let schema = match r.schema(rc) {
        Some(b) => b,
        None => {
            owned_schema = schema_from_values(rc);
            &owned_schema
        }
    };
    let kind = kind_of(rc)?;
    let d = Drawn {
        rc,
        kind,
        diff: differ::block(
            &Val::of_change(&rc.change, Matcher::Always, opts.dialect),
            schema,
        ),
    };
    if kind == ChangeKind::Delete && rc.mode != Mode::Managed {
        return Ok(None);
    }
    // The actions a change triggers end in a newline of their own (the whole plan leaves
    // a blank line after them); the section does not.
    Ok(r.change(&d, Cause::Change).map(|mut text| {
        if text.ends_with('\n') {
            text.pop();
        }
        text
    }))
}

/// The line (or lines) `tofu show` prints for the output `name` under "Changes to
/// Outputs" (its name not aligned with others), or `None` when unchanged.
pub fn render_output(oc: &tfwire_plan::OutputChange<'_>, opts: Options) -> Option<String> {
    let d = differ::output(&Val::of_change(&oc.change, Matcher::Always, opts.dialect));
    if d.op == DiffOp::NoOp {
        return None;
    }
    let o = opts.draw();
    Some(format!(
        "{} {} = {}",
        color(op_markup(d.op), opts.color),
        attribute_name(oc.name),
        render(&d, 0, o)
    ))
}

/// The marker of a resource's change, as colour markup.
fn kind_markup(kind: ChangeKind<'_>, dialect: Dialect) -> &'static str {
    match kind {
        ChangeKind::Forget if dialect == Dialect::Terraform => " [red].[reset]",
        ChangeKind::Forget => "  [red].[reset]",
        ChangeKind::Replace {
            create_first: false,
        } => "[red]-[reset]/[green]+[reset]",
        ChangeKind::Replace { create_first: true } => "[green]+[reset]/[red]-[reset]",
        ChangeKind::ReplaceForget {
            create_first: false,
        } => "  [red].[reset]/[green]+[reset]",
        ChangeKind::ReplaceForget { create_first: true } => " [green]+[reset]/[red].[reset]",
        ChangeKind::Read => " [cyan]<=[reset]",
        ChangeKind::Create => op_markup(DiffOp::Create),
        ChangeKind::Delete => op_markup(DiffOp::Delete),
        ChangeKind::Update => op_markup(DiffOp::Update),
        ChangeKind::NoOp | ChangeKind::Other(_) => op_markup(DiffOp::NoOp),
    }
}

/// What the change does; an action list neither client draws is an error.
fn kind_of<'a>(rc: &ResourceChange<'a>) -> Result<ChangeKind<'a>, Error> {
    match rc.change.kind() {
        ChangeKind::Other(list) => {
            let names: Vec<&str> = list.iter().map(|a| a.name()).collect();
            Err(Error::new(format!(
                "{}: the action list [{}] is not one OpenTofu draws",
                rc.address,
                names.join(", ")
            )))
        }
        kind => Ok(kind),
    }
}

/// The planning mode, which a binary plan file records and the JSON does not. For a JSON
/// plan it is read from what the plan holds: a plan with resource changes is normal; one
/// without whose prior state holds managed resources, or that has drift, is refresh-only;
/// one without output changes whose configuration declares outputs, resources or module
/// calls is a destroy plan; any other is normal. It changes only the texts
/// of a plan without changes ("No objects need to be destroyed.", the refresh-only
/// sentences) and which drift is drawn (all of it in a refresh-only plan, else only what
/// `relevant_attributes` names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanMode {
    /// A plan of the changes the configuration needs.
    Normal,
    /// `-destroy`.
    Destroy,
    /// `-refresh-only`.
    RefreshOnly,
}

impl PlanMode {
    /// A normal plan has a change (if only a no-op) for every managed resource of the prior
    /// state and a change for every output of the configuration; a refresh-only plan has
    /// no resource changes at all; a destroy plan of an empty state has neither.
    fn of(plan: &Plan<'_>) -> PlanMode {
        if !plan.resource_changes.is_empty() {
            return PlanMode::Normal;
        }
        let managed_in_state = plan.prior_state.is_some_and(|s| {
            s.addresses()
                .any(|a| !a.starts_with("data.") && !a.contains(".data."))
        });
        if managed_in_state || !plan.resource_drift.is_empty() {
            return PlanMode::RefreshOnly;
        }
        let root = plan.configuration.and_then(|c| c.root_module());
        let declares_outputs = root.is_some_and(|m| m.outputs().next().is_some());
        let declares_resources = root.is_some_and(|m| {
            m.resources().any(|r| r.mode() == Some(Mode::Managed))
                || m.module_calls().next().is_some()
        });
        if plan.output_changes.is_empty() && (declares_outputs || declares_resources) {
            return PlanMode::Destroy;
        }
        PlanMode::Normal
    }
}

/// Why a change is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// Found by refreshing.
    Drift,
    /// Planned.
    Change,
    /// Terraform: planned for a later plan, for this reason (the words after `(`).
    Deferred(&'static str),
}

/// Terraform's words for the `reason` of a deferred change.
fn deferred_reason(reason: &str) -> &'static str {
    match reason {
        "instance_count_unknown" => "because the number of resource instances is unknown",
        "resource_config_unknown" => "because the resource configuration is unknown",
        "provider_config_unknown" => "because the provider configuration is unknown",
        "deferred_prereq" => "because a prerequisite for this resource is deferred",
        "absent_prereq" => "because a prerequisite for this resource has not yet been created",
        _ => "for an unknown reason",
    }
}

impl<'p, 'a> Renderer<'p, 'a> {
    /// Fixed text in the chosen tool's words.
    fn words(&self, s: &str) -> String {
        if self.opts.terraform() {
            s.replace("OpenTofu", "Terraform")
                .replace("tofu apply", "terraform apply")
        } else {
            s.to_string()
        }
    }

    fn c(&self, s: &str) -> String {
        color(s, self.opts.color)
    }

    fn wrap(&self, s: &str) -> String {
        word_wrap(&self.words(s), COLUMNS)
    }

    fn rule(&self) -> String {
        self.c(&format!("[dark_gray]\n{}", "─".repeat(COLUMNS - 1)))
    }

    fn schema(&self, rc: &ResourceChange<'_>) -> Option<&'p Block> {
        let p = self.schemas?.provider(rc.provider_name?)?;
        let map = match rc.mode {
            Mode::Managed => &p.resources,
            Mode::Data => &p.data_sources,
            _ => return None,
        };
        map.get(rc.type_name).map(|s| &s.block)
    }

    fn plan(&self) -> Result<String, Error> {
        let plan = self.plan;
        // Each resource's schema, or one made from its values when there is none.
        let blocks = |list: &'p [ResourceChange<'a>]| -> Vec<Cow<'p, Block>> {
            list.iter()
                .map(|rc| match self.schema(rc) {
                    Some(b) => Cow::Borrowed(b),
                    None => Cow::Owned(schema_from_values(rc)),
                })
                .collect()
        };
        let drift_blocks = blocks(plan.resource_drift);
        let change_blocks = blocks(plan.resource_changes);

        let mode = self.opts.mode.unwrap_or_else(|| PlanMode::of(plan));
        let mut drift = Vec::new();
        for (rc, schema) in plan.resource_drift.iter().zip(&drift_blocks) {
            let paths: Vec<_> = plan
                .relevant_attributes
                .iter()
                .filter(|ra| ra.resource.is_empty() || ra.resource == rc.address)
                .map(|ra| ra.attribute.and_then(|a| a.raw().as_array()))
                .collect();
            let matcher = if mode == PlanMode::RefreshOnly {
                Matcher::Always
            } else if paths.is_empty() {
                continue;
            } else {
                Matcher::paths(paths, true)
            };
            let v = Val::of_change(&rc.change, matcher, self.opts.dialect);
            drift.push(Drawn {
                rc,
                kind: kind_of(rc)?,
                diff: differ::block(&v, schema),
            });
        }
        let mut changes = Vec::new();
        for (rc, schema) in plan.resource_changes.iter().zip(&change_blocks) {
            let v = Val::of_change(&rc.change, Matcher::Always, self.opts.dialect);
            changes.push(Drawn {
                rc,
                kind: kind_of(rc)?,
                diff: differ::block(&v, schema),
            });
        }
        let mut outputs: Vec<(&str, differ::Diff<'_>)> = plan
            .output_changes
            .iter()
            .map(|oc| {
                (
                    oc.name,
                    differ::output(&Val::of_change(
                        &oc.change,
                        Matcher::Always,
                        self.opts.dialect,
                    )),
                )
            })
            .collect();
        outputs.sort_by(|x, y| x.0.cmp(y.0));

        let mut out = String::new();
        let errored = plan.errored == Some(true);
        let empty = !changes
            .iter()
            .any(|d| d.diff.op != DiffOp::NoOp || d.moved())
            && !outputs.iter().any(|(_, d)| d.op != DiffOp::NoOp);
        let have_drift = self.drift(&mut out, &drift, empty, mode);

        let mut shown = Vec::new();
        let mut counts: Vec<(ChangeKind<'_>, usize)> = Vec::new();
        let (mut importing, mut forgetting, mut any_action) = (0, 0, false);
        for d in &changes {
            if d.kind == ChangeKind::NoOp && !d.moved() && !d.importing() {
                continue;
            }
            if d.kind == ChangeKind::Delete && d.rc.mode != Mode::Managed {
                continue;
            }
            if matches!(d.rc.mode, Mode::Other(_)) {
                continue;
            }
            shown.push(d);
            if d.importing() {
                importing += 1;
            }
            if matches!(
                d.kind,
                ChangeKind::Forget
                    | ChangeKind::ReplaceForget {
                        create_first: false
                    }
            ) {
                forgetting += 1;
            }
            if d.kind != ChangeKind::NoOp {
                any_action = true;
                match counts.iter_mut().find(|(a, _)| *a == d.kind) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((d.kind, 1)),
                }
            }
        }
        let count = |a: ChangeKind<'_>| counts.iter().find(|(x, _)| *x == a).map_or(0, |(_, n)| *n);
        let outputs_text = self.outputs(&outputs);

        // Every invocation counts, those a lifecycle triggers too.
        let invoking = self.plan.action_invocations.len();
        let deferred = self.deferred()?;
        if shown.is_empty() && outputs_text.is_empty() && invoking == 0 {
            if errored {
                if have_drift {
                    out.push_str(&self.rule());
                    out.push('\n');
                }
                out.push_str(&self.c(&self.words(
                    "\n[reset][bold][red]Planning failed.[reset][bold] OpenTofu encountered an error while generating this plan.[reset]\n\n",
                )));
            } else if deferred.is_some() {
                if have_drift {
                    out.push_str(&self.rule());
                    out.push('\n');
                }
                out.push_str(&self.c(
                    "\n[reset][bold][green]No current changes.[reset][bold] This plan requires another plan to be applied first.[reset]\n\n",
                ));
            } else if mode == PlanMode::RefreshOnly {
                if have_drift {
                    return Ok(out);
                }
                out.push_str(&self.c(
                    "\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n",
                ));
                out.push_str(&self.wrap(
                    "OpenTofu has checked that the real remote objects still match the result of your most recent changes, and found no differences.",
                ));
                out.push('\n');
            } else if mode == PlanMode::Destroy {
                if have_drift {
                    out.push_str(&self.rule());
                    out.push('\n');
                }
                out.push_str(&self.c(
                    "\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n",
                ));
                out.push_str(&self.wrap(
                    "Either you have not created any objects yet or the existing objects were already deleted outside of OpenTofu.",
                ));
                out.push('\n');
            } else {
                if have_drift {
                    out.push_str(&self.rule());
                    out.push('\n');
                }
                out.push_str(&self.c(
                    "\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n",
                ));
                if have_drift {
                    out.push_str(&self.wrap(
                        "Your configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure.",
                    ));
                    out.push('\n');
                    return Ok(out);
                }
                out.push_str(&self.wrap(
                    "OpenTofu has compared your real infrastructure against your configuration and found no differences, so no changes are needed.",
                ));
                out.push('\n');
            }
        }
        if have_drift {
            out.push_str(&self.rule());
            out.push('\n');
        }
        if let Some(text) = &deferred {
            out.push_str(text);
            out.push_str(&self.rule());
            out.push('\n');
        }
        if any_action {
            out.push_str(&self.wrap(
                "\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:",
            ));
            out.push('\n');
            for (a, text) in [
                (ChangeKind::Create, "  [green]+[reset] create"),
                (
                    ChangeKind::Update,
                    if self.opts.terraform() {
                        "  [yellow]~[reset] update in-place"
                    } else {
                        "  [yellow]~[reset] update in-place (current -> planned)"
                    },
                ),
                (ChangeKind::Delete, "  [red]-[reset] destroy"),
                (
                    ChangeKind::Replace {
                        create_first: false,
                    },
                    "[red]-[reset]/[green]+[reset] destroy and then create replacement",
                ),
                (
                    ChangeKind::Replace { create_first: true },
                    "[green]+[reset]/[red]-[reset] create replacement and then destroy",
                ),
                (ChangeKind::Read, " [cyan]<=[reset] read (data resources)"),
                (
                    ChangeKind::ReplaceForget {
                        create_first: false,
                    },
                    "[red].[reset]/[green]+[reset] forget and then create replacement",
                ),
                (ChangeKind::Forget, "  [red].[reset] forget"),
            ] {
                // Terraform's legend has no line for forgetting.
                let terraform_lacks = self.opts.terraform()
                    && matches!(
                        a,
                        ChangeKind::Forget
                            | ChangeKind::ReplaceForget {
                                create_first: false
                            }
                    );
                if count(a) > 0 && !terraform_lacks {
                    out.push_str(&self.c(text));
                    out.push('\n');
                }
            }
        }
        if !shown.is_empty() || invoking > 0 {
            out.push_str(&self.words(if errored {
                "\nOpenTofu planned the following actions, but then encountered a problem:\n"
            } else {
                "\nOpenTofu will perform the following actions:\n"
            }));
            for d in &shown {
                if let Some(text) = self.change(d, Cause::Change) {
                    out.push('\n');
                    out.push_str(&text);
                    out.push('\n');
                }
            }
            let add = count(ChangeKind::Create)
                + count(ChangeKind::Replace {
                    create_first: false,
                })
                + count(ChangeKind::Replace { create_first: true })
                + count(ChangeKind::ReplaceForget {
                    create_first: false,
                })
                + count(ChangeKind::ReplaceForget { create_first: true });
            let destroy = count(ChangeKind::Delete)
                + count(ChangeKind::Replace {
                    create_first: false,
                })
                + count(ChangeKind::Replace { create_first: true });
            let update = count(ChangeKind::Update);
            // Terraform's `Plan:` line does not count what is forgotten.
            let forgetting = if self.opts.terraform() { 0 } else { forgetting };
            let line = match (importing > 0, forgetting > 0) {
                (true, true) => format!(
                    "{importing} to import, {add} to add, {update} to change, {destroy} to destroy, {forgetting} to forget."
                ),
                (true, false) => format!(
                    "{importing} to import, {add} to add, {update} to change, {destroy} to destroy."
                ),
                (false, true) => format!(
                    "{add} to add, {update} to change, {destroy} to destroy, {forgetting} to forget."
                ),
                (false, false) => {
                    format!("{add} to add, {update} to change, {destroy} to destroy.")
                }
            };
            if self.opts.terraform() {
                // Terraform colours the label alone.
                out.push_str(&self.c("\n[bold]Plan:[reset] "));
                out.push_str(&line);
                if invoking > 0 {
                    let _ = write!(out, " Actions: {invoking} to invoke.");
                }
                out.push('\n');
            } else {
                out.push_str(&self.c(&format!("\n[bold]Plan:[reset] {line}\n")));
            }
        }
        if let Some(text) = actions::render_invoked(
            self.plan.action_invocations,
            self.schemas,
            self.opts.color,
            |s| self.c(s),
        ) {
            out.push_str(&self.c("\nTerraform will invoke the following action(s):\n\n"));
            out.push_str(&text);
            out.push('\n');
        }
        if !outputs_text.is_empty() {
            out.push_str("\nChanges to Outputs:\n");
            out.push_str(&outputs_text);
            out.push('\n');
            if counts.is_empty() {
                out.push_str(&self.wrap(
                    "\nYou can apply this plan to save these new output values to the OpenTofu state, without changing any real infrastructure.",
                ));
                out.push('\n');
            }
        }
        Ok(out)
    }

    /// The drift section; whether there was one.
    fn drift(
        &self,
        out: &mut String,
        drift: &[Drawn<'_, '_>],
        plan_empty: bool,
        mode: PlanMode,
    ) -> bool {
        let refresh_only = mode == PlanMode::RefreshOnly;
        let shown: Vec<&Drawn<'_, '_>> = drift
            .iter()
            .filter(|d| refresh_only || d.diff.op != DiffOp::NoOp)
            .collect();
        if shown.is_empty() || plan_empty && !refresh_only {
            return false;
        }
        out.push_str(&self.c(
            &self.words(
                "\n[bold][cyan]Note:[reset][bold] Objects have changed outside of OpenTofu\n",
            ),
        ));
        out.push('\n');
        out.push_str(&self.wrap(
            "OpenTofu detected the following changes made outside of OpenTofu since the last \"tofu apply\" which may have affected this plan:\n",
        ));
        for d in shown {
            if let Some(text) = self.change(d, Cause::Drift) {
                out.push('\n');
                out.push_str(&text);
                out.push('\n');
            }
        }
        out.push_str(&self.wrap(if refresh_only {
            "\n\nThis is a refresh-only plan, so OpenTofu will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the OpenTofu state without changing any remote objects."
        } else {
            "\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes."
        }));
        out.push('\n');
        true
    }

    /// Terraform's deferred changes (`deferred_changes`: a reason and a resource change
    /// each): the `Note:` section drawing them, or `None` when the plan has none.
    fn deferred(&self) -> Result<Option<String>, Error> {
        if self.plan.deferred_changes.is_empty() {
            return Ok(None);
        }
        let mut out = self.c(
            "\n[bold][cyan]Note:[reset][bold] This is a partial plan, parts can only be known in the next plan / apply cycle.\n",
        );
        out.push('\n');
        for dc in self.plan.deferred_changes {
            let rc = &dc.resource_change;
            let owned;
            let schema = match self.schema(rc) {
                Some(b) => b,
                None => {
                    owned = schema_from_values(rc);
                    &owned
                }
            };
            let d = Drawn {
                rc,
                kind: kind_of(rc)?,
                diff: differ::block(
                    &Val::of_change(&rc.change, Matcher::Always, self.opts.dialect),
                    schema,
                ),
            };
            if let Some(text) = self.change(&d, Cause::Deferred(deferred_reason(dc.reason))) {
                out.push('\n');
                out.push_str(&text);
                out.push('\n');
            }
        }
        Ok(Some(out))
    }

    fn outputs(&self, outputs: &[(&str, differ::Diff<'_>)]) -> String {
        let width = column_width(outputs.iter().map(|(k, _)| attribute_name(k).len()));
        let o = self.opts.draw();
        let lines: Vec<String> = outputs
            .iter()
            .filter(|(_, d)| d.op != DiffOp::NoOp)
            .map(|(k, d)| {
                let name = attribute_name(k);
                format!(
                    "{} {} = {}",
                    self.c(op_markup(d.op)),
                    Padded::chars(&name, width),
                    render(d, 0, o)
                )
            })
            .collect();
        lines.join("\n")
    }

    /// One change's section, without the blank line before it.
    fn change(&self, d: &Drawn<'_, '_>, cause: Cause) -> Option<String> {
        if matches!(d.rc.mode, Mode::Other(_)) {
            return None;
        }
        if d.kind == ChangeKind::NoOp && !d.moved() && !d.importing() {
            return None;
        }
        let mut buf = self.c(&self.comment(d.rc, d.kind, cause));
        let mut o = self.opts.draw();
        // Terraform draws a forgotten object as unchanged.
        if d.kind == ChangeKind::Forget && !self.opts.terraform() {
            o.hide_symbols = true;
            o.no_null_suffix = true;
        }
        o.show_unchanged = d.importing() || self.opts.all;
        let keyword = if d.rc.mode == Mode::Managed {
            "resource"
        } else {
            "data"
        };
        let _ = write!(
            buf,
            "{} {keyword} \"{}\" \"{}\" {}",
            self.c(kind_markup(d.kind, self.opts.dialect)),
            inline(d.rc.type_name),
            inline(d.rc.name),
            render(&d.diff, 0, o)
        );
        // Terraform: the actions the change triggers, in the order they run.
        if cause == Cause::Change {
            for (when, title) in [
                (ActionTiming::Before, "before"),
                (ActionTiming::After, "after"),
            ] {
                let list = actions::triggered(self.plan.action_invocations, d.rc.address, when);
                if list.is_empty() {
                    continue;
                }
                buf.push_str(&self.c(&format!(
                    "\n\n    [bold]# Actions to be invoked {title} this change in order:[reset]\n"
                )));
                for ai in list {
                    buf.push_str(&actions::render_invocation(
                        ai,
                        self.schemas,
                        self.opts.color,
                    ));
                }
            }
        }
        Some(buf)
    }

    /// The `# address will be ...` lines, as colour markup.
    fn comment(&self, rc: &ResourceChange<'_>, kind: ChangeKind<'_>, cause: Cause) -> String {
        // The document's names are shown escaped (no control or bidirectional character,
        // no line break of their own): the same as OpenTofu's for any real address.
        let address = inline(rc.address);
        let disp = match rc.deposed {
            Some(k) if !k.is_empty() => format!("{address} (deposed object {})", inline(k)),
            _ => address.to_string(),
        };
        let reason = rc.action_reason.unwrap_or("");
        let previous_raw = rc.previous_address.unwrap_or("");
        let previous = inline(previous_raw);
        let deposed = rc.deposed.is_some_and(|k| !k.is_empty());
        let left_over = "\n  # (left over from a partially-failed replacement of this instance)";
        if let Cause::Deferred(why) = cause {
            return format!("[bold]  # {address}[reset] was deferred\n  #[reset] ({why})\n");
        }
        let mut buf = String::new();
        let mut printed_moved = false;
        // Terraform says "will be imported" or "(imported from ...)", not both.
        let mut printed_imported = false;
        let terraform = self.opts.terraform();
        let replaced = |buf: &mut String| match reason {
            "replace_because_tainted" => {
                let _ = write!(
                    buf,
                    "[bold]  # {disp}[reset] is tainted, so {}must be [bold][red]replaced[reset]",
                    if terraform { "" } else { "it " }
                );
            }
            "replace_by_request" => {
                let _ = write!(
                    buf,
                    "[bold]  # {disp}[reset] will be [bold][red]replaced[reset], as requested"
                );
            }
            "replace_by_triggers" => {
                let _ = write!(
                    buf,
                    "[bold]  # {disp}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by"
                );
            }
            _ => {
                let _ = write!(
                    buf,
                    "[bold]  # {disp}[reset] must be [bold][red]replaced[reset]"
                );
            }
        };
        match kind {
            ChangeKind::Create => {
                let _ = write!(buf, "[bold]  # {disp}[reset] will be created");
            }
            ChangeKind::Read => {
                let _ = write!(buf, "[bold]  # {disp}[reset] will be read during apply");
                buf.push_str(match reason {
                    "read_because_config_unknown" => {
                        "\n  # (config refers to values not yet known)"
                    }
                    "read_because_dependency_pending" => {
                        "\n  # (depends on a resource or a module with changes pending)"
                    }
                    "read_because_check_nested" => {
                        "\n  # (config will be reloaded to verify a check block)"
                    }
                    _ => "",
                });
            }
            ChangeKind::Update => {
                let _ = match cause {
                    Cause::Change | Cause::Deferred(_) => {
                        write!(buf, "[bold]  # {disp}[reset] will be updated in-place")
                    }
                    Cause::Drift => write!(buf, "[bold]  # {disp}[reset] has changed"),
                };
            }
            ChangeKind::Replace { .. } => replaced(&mut buf),
            ChangeKind::Delete => {
                let _ = match cause {
                    Cause::Change | Cause::Deferred(_) => {
                        write!(
                            buf,
                            "[bold]  # {disp}[reset] will be [bold][red]destroyed[reset]"
                        )
                    }
                    Cause::Drift => write!(buf, "[bold]  # {disp}[reset] has been deleted"),
                };
                let index = rc.raw.get("index").filter(|i| !i.is_null());
                match reason {
                    "delete_because_no_resource_config" => {
                        let _ = write!(
                            buf,
                            "\n  # (because {}.{} is not in configuration)",
                            inline(rc.type_name),
                            inline(rc.name)
                        );
                    }
                    "delete_because_no_move_target" => {
                        let _ = write!(
                            buf,
                            "\n  # (because {previous} was moved to {address}, which is not in configuration)"
                        );
                    }
                    "delete_because_no_module" => {
                        let _ = write!(
                            buf,
                            "\n  # (because {} is not in configuration)",
                            rc.module_address.unwrap_or("")
                        );
                    }
                    "delete_because_wrong_repetition" => {
                        buf.push_str(match index.map(|i| i.kind()) {
                            None => "\n  # (because resource uses count or for_each)",
                            Some(tfwire_plan::JsonKind::Number) => {
                                "\n  # (because resource does not use count)"
                            }
                            Some(tfwire_plan::JsonKind::String) => {
                                "\n  # (because resource does not use for_each)"
                            }
                            _ => "",
                        });
                    }
                    "delete_because_count_index" => {
                        let _ = write!(
                            buf,
                            "\n  # (because index [{}] is out of range for count)",
                            raw_text(index)
                        );
                    }
                    "delete_because_enabled_false" if !terraform => {
                        buf.push_str("\n  # (because enabled is false)");
                    }
                    "delete_because_each_key" => {
                        let _ = write!(
                            buf,
                            "\n  # (because key [{}] is not in for_each map)",
                            raw_text(index)
                        );
                    }
                    _ => {}
                }
                if deposed {
                    buf.push_str(left_over);
                }
            }
            ChangeKind::Forget if terraform => {
                if deposed {
                    let _ = write!(
                        buf,
                        "[bold] # {disp}[reset] will be removed from Terraform state, but [bold][red]will not be destroyed[reset]\n[bold] # (left over from a partially-failed replacement of this instance)"
                    );
                } else {
                    let _ = write!(
                        buf,
                        "[bold] # {disp}[reset] will no longer be managed by Terraform, but [bold][red]will not be destroyed[reset]"
                    );
                }
                buf.push_str("\n # (destroy = false is set in the configuration)");
            }
            ChangeKind::ReplaceForget { create_first: true } => {
                let _ = write!(
                    buf,
                    "[bold] # {disp}[reset] must be replaced, but the existing object will not be destroyed\n # (destroy = false is set in the configuration)"
                );
            }
            ChangeKind::Forget => {
                let _ = write!(
                    buf,
                    "[bold]  # {disp}[reset] will be removed from the {} state [bold][red]but will not be destroyed[reset]",
                    self.words("OpenTofu")
                );
                match reason {
                    "forgot_because_lifecycle_destroy_in_state" => buf.push_str(
                        " \n (because [bold]lifecycle.destroy = false[reset] was configured before this resource was removed from the configuration)",
                    ),
                    "forgot_because_lifecycle_destroy_in_config" => buf.push_str(
                        " \n (because [bold]lifecycle.destroy = false[reset] is set in the configuration)",
                    ),
                    _ => {}
                }
                if deposed {
                    buf.push_str(left_over);
                }
            }
            ChangeKind::ReplaceForget {
                create_first: false,
            } => {
                replaced(&mut buf);
                buf.push_str(" - [yellow]older instance will [bold]not[reset][yellow] be destroyed [reset]([bold]lifecycle.destroy = false[reset])");
                if deposed {
                    buf.push_str(left_over);
                }
            }
            // Not drawn: `action_of` rejects the lists neither client draws.
            ChangeKind::Other(_) => {}
            ChangeKind::NoOp => {
                if !previous_raw.is_empty() && previous_raw != rc.address {
                    let _ = write!(
                        buf,
                        "[bold]  # {previous}[reset] has moved to [bold]{disp}[reset]"
                    );
                    printed_moved = true;
                } else if rc.change.importing.is_some() {
                    let _ = write!(buf, "[bold]  # {disp}[reset] will be imported");
                    if rc.change.generated_config.is_some_and(|g| !g.is_empty()) {
                        buf.push_str("\n  #[reset] (config will be generated)");
                    }
                    printed_imported = self.opts.terraform();
                } else {
                    let _ = write!(
                        buf,
                        "{disp} has an action the plan renderer doesn't support (this is a bug)"
                    );
                }
            }
        }
        buf.push('\n');
        if !previous_raw.is_empty() && previous_raw != rc.address && !printed_moved {
            let _ = writeln!(buf, "  # [reset](moved from {previous})");
        }
        if let Some(imp) = rc.change.importing.filter(|_| !printed_imported) {
            // Terraform does not show an identity.
            let identity = imp.identity.filter(|_| !terraform);
            match (imp.id.filter(|i| !i.is_empty()), identity) {
                (Some(id), _) => {
                    let _ = writeln!(buf, "  # [reset](imported from \"{}\")", inline(id));
                }
                (None, Some(identity)) if !identity.is_null() => {
                    let _ = writeln!(
                        buf,
                        "  # [reset]imported using resource identity: {}",
                        indent_json(identity, "  # ", "  ")
                    );
                }
                _ => buf.push_str("  # [reset](will be imported first)\n"),
            }
        }
        if rc.change.importing.is_some() && matches!(kind, ChangeKind::Replace { .. }) {
            buf.push_str(
                "  # [reset][yellow]Warning: this will destroy the imported resource[reset]\n",
            );
        }
        buf
    }
}

/// An instance key as the clients print it in a delete reason: the JSON text Go's encoder
/// wrote (a string with `<`, `>`, `&` escaped, [`tfwire_json::write_go_safe_str`]).
fn raw_text(v: Option<Json<'_>>) -> String {
    let mut out = String::new();
    if let Some(j) = v {
        go_scalar(j, &mut out);
    }
    out
}

/// A scalar JSON value as Go's `encoding/json` wrote it: a string by
/// [`tfwire_json::write_go_safe_str`], a number as written.
fn go_scalar(v: Json<'_>, out: &mut String) {
    match (v.as_str(), v.as_number_text()) {
        (Some(s), _) => {
            let _ = tfwire_json::write_go_safe_str(out, s);
        }
        (_, Some(n)) => out.push_str(n),
        _ => {
            let _ = write!(out, "{v}");
        }
    }
}

/// JSON text indented as Go's `json.Indent` indents it (every line after the first starts
/// with `prefix`, each level adds `indent`), up to [`DEPTH_MAX`] levels: deeper lines are
/// indented as the 32nd level, so the output stays linear in the input. Strings and numbers
/// are written as Go wrote them ([`go_scalar`]).
fn indent_json(v: Json<'_>, prefix: &str, indent: &str) -> String {
    fn go(v: Json<'_>, depth: usize, prefix: &str, indent: &str, out: &mut String) {
        let nl = |out: &mut String, d: usize| {
            out.push('\n');
            out.push_str(prefix);
            out.push_str(&indent.repeat(d.min(DEPTH_MAX)));
        };
        if let Some(o) = v.as_object() {
            if o.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                nl(out, depth + 1);
                let _ = tfwire_json::write_go_safe_str(out, k);
                out.push_str(": ");
                go(x, depth + 1, prefix, indent, out);
            }
            nl(out, depth);
            out.push('}');
        } else if let Some(a) = v.as_array() {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                nl(out, depth + 1);
                go(x, depth + 1, prefix, indent, out);
            }
            nl(out, depth);
            out.push(']');
        } else {
            go_scalar(v, out);
        }
    }
    let mut out = String::new();
    go(v, 0, prefix, indent, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::{Options, PlanMode, render_plan};

    /// A recorded planning mode (a binary plan file's) is taken over the inferred one.
    #[test]
    fn recorded_mode_over_inferred() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/render");
        let mut json = std::fs::read(dir.join("no-changes/plan.json")).unwrap();
        json.reserve(tfwire_plan::INPUT_PADDING);
        let tape = tfwire_plan::Parser::new().parse(&mut json).unwrap();
        let arena = bumpalo::Bump::new();
        let plan = tape.plan(&arena).unwrap();
        let inferred = render_plan(plan, None, Options::default()).unwrap();
        let oracle = std::fs::read_to_string(dir.join("no-changes/plan.txt")).unwrap();
        assert_eq!(inferred, oracle);
        let normal = Options {
            mode: Some(PlanMode::Normal),
            ..Options::default()
        };
        assert_eq!(render_plan(plan, None, normal).unwrap(), oracle);
        let destroy = Options {
            mode: Some(PlanMode::Destroy),
            ..Options::default()
        };
        let text = render_plan(plan, None, destroy).unwrap();
        assert!(
            text.contains("No changes. No objects need to be destroyed."),
            "{text}"
        );
    }
}
