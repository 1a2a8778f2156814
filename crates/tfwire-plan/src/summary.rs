//! [`Summary`]: what a plan does, counted per action, with the per-resource list. The
//! summary is a model: `tfwire-render`'s `summary` module writes it (table, tree, Markdown,
//! JSON).

use crate::action::{ActionInvocation, ActionTrigger};
use crate::change::{AttrPath, ChangeKind, ResourceChange, module_of};
use crate::json::Json;
use crate::plan::{Client, Plan};
use crate::values::Mode;
use core::fmt;

/// The standard count keys, in output order.
pub const COUNT_KEYS: [&str; 7] = [
    "create", "update", "delete", "replace", "read", "no_op", "forget",
];

/// Changes counted by [`ChangeKind::key`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    standard: [usize; 7],
    /// Keys outside [`COUNT_KEYS`] (e.g. `create+forget`), in order of first occurrence.
    other: Vec<(String, usize)>,
}

impl Counts {
    /// Counts one change.
    pub fn add(&mut self, kind: ChangeKind<'_>) {
        let key = kind.key();
        match COUNT_KEYS.iter().position(|k| *k == key) {
            Some(i) => self.standard[i] += 1,
            None => match self.other.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => self.other.push((key.into_owned(), 1)),
            },
        }
    }

    /// The count under `key` (0 if none). For the standard kinds, index with the
    /// [`ChangeKind`] instead (`counts[ChangeKind::Create]`): a misspelt key is a compile
    /// error there, and a silent 0 here.
    pub fn get(&self, key: &str) -> usize {
        self.slot(key).copied().unwrap_or(0)
    }

    fn slot(&self, key: &str) -> Option<&usize> {
        match COUNT_KEYS.iter().position(|k| *k == key) {
            Some(i) => Some(&self.standard[i]),
            None => self.other.iter().find(|(k, _)| k == key).map(|(_, n)| n),
        }
    }

    /// Every key with its count: the seven standard keys (also when zero), then the others
    /// in order of first occurrence.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        COUNT_KEYS
            .iter()
            .copied()
            .zip(self.standard.iter().copied())
            .chain(self.other.iter().map(|(k, n)| (k.as_str(), *n)))
    }

    /// The number of changes counted.
    pub fn total(&self) -> usize {
        self.iter().map(|(_, n)| n).sum()
    }
}

/// `counts[kind]`: the changes of that kind (a replacement counts under `replace` whatever
/// its order; an action list outside the standard kinds under its own key).
///
/// ```
/// use tfwire_plan::{ChangeKind, Counts};
/// let mut counts = Counts::default();
/// counts.add(ChangeKind::Create);
/// counts.add(ChangeKind::Replace { create_first: true });
/// assert_eq!(counts[ChangeKind::Create], 1);
/// assert_eq!(counts[ChangeKind::Replace { create_first: false }], 1);
/// assert_eq!(counts[ChangeKind::Delete], 0);
/// ```
impl core::ops::Index<ChangeKind<'_>> for Counts {
    type Output = usize;

    fn index(&self, kind: ChangeKind<'_>) -> &usize {
        self.slot(&kind.key()).unwrap_or(&0)
    }
}

/// The numbers of the `Plan: …` line that the client which wrote the plan prints
/// ([`Summary::plan_line`]). Its `Display` writes the line as that client does (without
/// colour): OpenTofu's says `to import` only when something is imported and `to forget` only
/// when something is forgotten; Terraform's never counts what is forgotten, and ends with
/// ` Actions: N to invoke.` when actions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlanLine {
    /// Resources imported (`importing` set), whatever else their change does.
    pub import: usize,
    /// Objects created: creates, replacements (also those that forget the old object).
    pub add: usize,
    /// Objects updated in place.
    pub change: usize,
    /// Objects destroyed: deletes of managed resources (deposed objects included) and
    /// replacements that destroy the old object.
    pub destroy: usize,
    /// Objects removed from the state without being destroyed: forgets, and replacements
    /// that forget the old object. Terraform's line does not say it.
    pub forget: usize,
    /// Action invocations (`action_invocations`, Terraform): `Actions: N to invoke.`.
    pub invoke: usize,
    /// The resource changes the client renders.
    pub shown: usize,
    /// Whose line it is.
    pub client: Client,
}

impl Default for PlanLine {
    fn default() -> PlanLine {
        PlanLine {
            import: 0,
            add: 0,
            change: 0,
            destroy: 0,
            forget: 0,
            invoke: 0,
            shown: 0,
            client: Client::OpenTofu,
        }
    }
}

impl PlanLine {
    /// Whether the client prints the line: when it renders a resource change, or (Terraform)
    /// an action invocation.
    pub fn is_printed(&self) -> bool {
        self.shown > 0 || (self.client == Client::Terraform && self.invoke > 0)
    }
}

impl fmt::Display for PlanLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Plan: ")?;
        if self.import > 0 {
            write!(f, "{} to import, ", self.import)?;
        }
        write!(
            f,
            "{} to add, {} to change, {} to destroy",
            self.add, self.change, self.destroy
        )?;
        match self.client {
            Client::Terraform => {
                f.write_str(".")?;
                if self.invoke > 0 {
                    write!(f, " Actions: {} to invoke.", self.invoke)?;
                }
                Ok(())
            }
            _ => {
                if self.forget > 0 {
                    write!(f, ", {} to forget", self.forget)?;
                }
                f.write_str(".")
            }
        }
    }
}

/// One resource change in a [`Summary`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ChangeSummary<'a> {
    /// The resource instance address.
    pub address: &'a str,
    /// What the change does.
    pub kind: ChangeKind<'a>,
    /// The address before a `moved` block, when it differs.
    pub previous_address: Option<&'a str>,
    /// Whether the object is imported by this plan.
    pub importing: bool,
    /// The import ID, when imported by ID.
    pub import_id: Option<&'a str>,
    /// The resource identity the object is imported by (Terraform ≥ 1.12), when imported
    /// by identity: then its only stable name besides the address.
    pub import_identity: Option<Json<'a>>,
    /// Whether the import ID is not known yet (a deferred import).
    pub import_unknown: bool,
    /// Whether the instance key is not known yet (a deferred change, address `...[*]`).
    pub index_unknown: bool,
    /// Why the change is deferred to a later plan, for an entry of
    /// [`Summary::deferred_changes`] (`instance_count_unknown`, ...).
    pub deferred_reason: Option<&'a str>,
    /// Why these actions (`replace_because_tainted`, ...), when Terraform says.
    pub action_reason: Option<&'a str>,
    /// The attributes that force replacement.
    pub replace_paths: &'a [AttrPath<'a>],
    /// The deposed object's key, for a change to a deposed object.
    pub deposed: Option<&'a str>,
    /// The resource mode (`managed`, `data`, ...).
    pub mode: Mode<'a>,
    /// The resource type, e.g. `aws_instance`.
    pub type_name: &'a str,
    /// The resource's local name.
    pub name: &'a str,
    /// The module instance address (`module.a["x"].module.b`); empty in the root module.
    /// `module_address` when the document gives it, otherwise read from the address.
    pub module_address: &'a str,
    /// Where the change is in the plan's list it summarises (`resource_changes`,
    /// `resource_drift`, or `deferred_changes` for a deferred change), so that a reader of
    /// the summary can reach the whole [`ResourceChange`] (its values); `None` from
    /// [`ChangeSummary::of`], which sees one change alone.
    pub position: Option<usize>,
}

impl<'a> ChangeSummary<'a> {
    /// Summarises one resource change.
    pub fn of(rc: &ResourceChange<'a>) -> ChangeSummary<'a> {
        let address = rc.address;
        let module_address = rc.module_address.unwrap_or_else(|| module_of(address));
        ChangeSummary {
            previous_address: rc.previous_address.filter(|p| *p != address),
            address,
            kind: rc.change.kind(),
            importing: rc.change.importing.is_some(),
            import_id: rc.change.importing.and_then(|i| i.id),
            import_identity: rc.change.importing.and_then(|i| i.identity),
            import_unknown: rc.change.importing.is_some_and(|i| i.unknown),
            index_unknown: rc.index_unknown,
            deferred_reason: None,
            action_reason: rc.action_reason,
            replace_paths: rc.change.replace_paths,
            deposed: rc.deposed,
            mode: rc.mode,
            type_name: rc.type_name,
            name: rc.name,
            module_address,
            position: None,
        }
    }

    fn at(self, position: usize) -> ChangeSummary<'a> {
        ChangeSummary {
            position: Some(position),
            ..self
        }
    }

    /// Whether the change is to a data source (`data.` addresses).
    pub fn is_data(&self) -> bool {
        self.mode == Mode::Data
    }
}

/// One action invocation in a [`Summary`]: which action runs, and what makes it run.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ActionSummary<'a> {
    /// The action's address, e.g. `action.local_command.hello`.
    pub address: &'a str,
    /// The action type.
    pub type_name: &'a str,
    /// `provider_name`.
    pub provider_name: Option<&'a str>,
    /// What makes it run: a resource's lifecycle event or the command line (`-invoke`).
    pub trigger: Option<ActionTrigger<'a>>,
    /// Why it is deferred to a later plan, for an entry of
    /// [`Summary::deferred_action_invocations`].
    pub deferred_reason: Option<&'a str>,
}

impl<'a> ActionSummary<'a> {
    /// Summarises one action invocation.
    pub fn of(ai: &ActionInvocation<'a>) -> ActionSummary<'a> {
        ActionSummary {
            address: ai.address,
            type_name: ai.type_name,
            provider_name: ai.provider_name,
            trigger: ai.trigger,
            deferred_reason: None,
        }
    }
}

/// One output change in a [`Summary`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OutputSummary<'a> {
    /// The root module output's name.
    pub name: &'a str,
    /// What the change does (`create`, `update`, `delete` or `no_op`).
    pub kind: ChangeKind<'a>,
    /// Whether the value is sensitive before or after the change (it is never shown).
    pub sensitive: bool,
}

/// A plan's changes, counted per action, and the per-resource list.
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
/// assert_eq!(summary.counts.get("replace"), 1);
/// assert_eq!(summary.changes[2].previous_address, Some("a.old"));
/// assert_eq!(summary.changes[1].position, Some(1));
/// assert_eq!(summary.plan_line().to_string(), "Plan: 2 to add, 0 to change, 1 to destroy.");
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Summary<'a> {
    /// `format_version` (or a redacted plan's `plan_format_version`).
    pub format_version: Option<&'a str>,
    /// `terraform_version`.
    pub terraform_version: Option<&'a str>,
    /// `resource_changes` counted per action.
    pub counts: Counts,
    /// `resource_drift` counted per action.
    pub drift: Counts,
    /// Every resource change, in document order.
    pub changes: Vec<ChangeSummary<'a>>,
    /// Every `resource_drift` entry (changes made outside Terraform), in document order.
    pub drift_changes: Vec<ChangeSummary<'a>>,
    /// When the summary was narrowed by a [`Filter`](crate::Filter): how many resource changes and drift
    /// entries the whole plan has (the counts above are of the selected ones).
    pub unfiltered: Option<(usize, usize)>,
    /// `output_changes` counted per action (filters select resources: outputs stay).
    pub outputs: Counts,
    /// Every output change, sorted by name.
    pub output_changes: Vec<OutputSummary<'a>>,
    /// `deferred_changes` counted per action.
    pub deferred: Counts,
    /// Every deferred change (left for a later plan, with its
    /// [`deferred_reason`](ChangeSummary::deferred_reason)), in document order.
    pub deferred_changes: Vec<ChangeSummary<'a>>,
    /// Every action invocation, in document order (filters select resources: actions stay).
    pub action_invocations: Vec<ActionSummary<'a>>,
    /// Every deferred action invocation, in document order.
    pub deferred_action_invocations: Vec<ActionSummary<'a>>,
    /// The client that wrote the plan ([`Plan::client`]), whose `Plan:` line
    /// [`Summary::plan_line`] counts.
    pub client: Client,
}

impl<'a> Summary<'a> {
    /// Summarises a plan.
    pub fn of(plan: &Plan<'a>) -> Summary<'a> {
        let mut counts = Counts::default();
        let mut changes = Vec::with_capacity(plan.resource_changes.len());
        for (i, rc) in plan.resource_changes.iter().enumerate() {
            counts.add(rc.change.kind());
            changes.push(ChangeSummary::of(rc).at(i));
        }
        let mut drift = Counts::default();
        let mut drift_changes = Vec::with_capacity(plan.resource_drift.len());
        for (i, rc) in plan.resource_drift.iter().enumerate() {
            drift.add(rc.change.kind());
            drift_changes.push(ChangeSummary::of(rc).at(i));
        }
        let mut outputs = Counts::default();
        let mut output_changes: Vec<OutputSummary<'a>> = plan
            .output_changes
            .iter()
            .map(|oc| OutputSummary {
                name: oc.name,
                kind: oc.change.kind(),
                sensitive: [oc.change.before_sensitive, oc.change.after_sensitive]
                    .iter()
                    .flatten()
                    .any(|s| s.contains_true()),
            })
            .collect();
        output_changes.sort_by(|a, b| a.name.cmp(b.name));
        for o in &output_changes {
            outputs.add(o.kind);
        }
        let mut deferred = Counts::default();
        let mut deferred_changes = Vec::with_capacity(plan.deferred_changes.len());
        for (i, d) in plan.deferred_changes.iter().enumerate() {
            deferred.add(d.resource_change.change.kind());
            let mut c = ChangeSummary::of(&d.resource_change).at(i);
            c.deferred_reason = Some(d.reason);
            deferred_changes.push(c);
        }
        let deferred_action_invocations = plan
            .deferred_action_invocations
            .iter()
            .map(|d| {
                let mut a = ActionSummary::of(&d.action_invocation);
                a.deferred_reason = Some(d.reason);
                a
            })
            .collect();
        Summary {
            format_version: plan.format_version.or(plan.plan_format_version),
            terraform_version: plan.terraform_version,
            counts,
            drift,
            changes,
            drift_changes,
            unfiltered: None,
            outputs,
            output_changes,
            deferred,
            deferred_changes,
            action_invocations: plan
                .action_invocations
                .iter()
                .map(ActionSummary::of)
                .collect(),
            deferred_action_invocations,
            client: plan.client(),
        }
    }

    /// The changes that forget an object: remove it from the state without destroying it
    /// (forgets, and replacements that forget the old object).
    pub fn forgotten(&self) -> impl Iterator<Item = &ChangeSummary<'a>> {
        self.changes.iter().filter(|c| {
            matches!(
                c.kind,
                ChangeKind::Forget | ChangeKind::ReplaceForget { .. }
            )
        })
    }

    /// The changes that are moves (a `previous_address` that differs).
    pub fn moved(&self) -> impl Iterator<Item = &ChangeSummary<'a>> {
        self.changes.iter().filter(|c| c.previous_address.is_some())
    }

    /// The changes that import.
    pub fn imported(&self) -> impl Iterator<Item = &ChangeSummary<'a>> {
        self.changes.iter().filter(|c| c.importing)
    }

    /// The numbers of the `Plan: …` line that `plan` and `show` of the client which wrote
    /// the plan ([`Summary::client`]) print for it, counted from the resource changes as
    /// OpenTofu (v1.12) and Terraform (v1.16) count them: both leave out no-ops that neither
    /// move nor import, deleted data sources and ephemeral resources, and neither counts
    /// deferred changes. A replacement counts one to add and one to destroy; one that
    /// forgets the old object (`create+forget`, `forget+create`) one to add and one to
    /// forget; Terraform's line says nothing of forgetting, and counts every action
    /// invocation (`Actions: N to invoke.`).
    ///
    /// ```
    /// use tfwire_plan::Summary;
    /// let mut input = br#"{"format_version":"1.2","resource_changes":[
    ///   {"address":"a.x","mode":"managed","type":"a","name":"x","change":{"actions":["delete","create"]}},
    ///   {"address":"a.y","mode":"managed","type":"a","name":"y","change":{"actions":["no-op"],"importing":{"id":"i-1"}}},
    ///   {"address":"a.z","mode":"managed","type":"a","name":"z","change":{"actions":["forget"]}},
    ///   {"address":"data.d.r","mode":"data","type":"d","name":"r","change":{"actions":["read"]}}]}"#.to_vec();
    /// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
    /// let arena = bumpalo::Bump::new();
    /// let line = Summary::of(tape.plan(&arena)?).plan_line();
    /// assert_eq!((line.import, line.add, line.change, line.destroy, line.forget), (1, 1, 0, 1, 1));
    /// assert_eq!(line.to_string(), "Plan: 1 to import, 1 to add, 0 to change, 1 to destroy, 1 to forget.");
    ///
    /// // Terraform's words: no forget, and the actions.
    /// let mut input = br#"{"format_version":"1.2","applyable":true,"complete":true,"resource_changes":[
    ///   {"address":"a.x","mode":"managed","type":"a","name":"x","change":{"actions":["create","forget"]}}],
    ///   "action_invocations":[{"address":"action.t.n","type":"t","name":"n","invoke_action_trigger":{}}]}"#.to_vec();
    /// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
    /// let line = Summary::of(tape.plan(&arena)?).plan_line();
    /// assert_eq!(line.to_string(), "Plan: 1 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.");
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    pub fn plan_line(&self) -> PlanLine {
        let mut line = PlanLine {
            client: self.client,
            invoke: self.action_invocations.len(),
            ..PlanLine::default()
        };
        for c in &self.changes {
            // What both clients leave out of the list of changes they render: no-ops that
            // neither move nor import, deleted data sources, ephemeral resources.
            let moved = c.previous_address.is_some();
            if (matches!(c.kind, ChangeKind::NoOp) && !moved && !c.importing)
                || (matches!(c.kind, ChangeKind::Delete) && c.mode != Mode::Managed)
                || c.mode == Mode::Other("ephemeral")
            {
                continue;
            }
            line.shown += 1;
            line.import += usize::from(c.importing);
            match c.kind {
                ChangeKind::Create => line.add += 1,
                ChangeKind::Update => line.change += 1,
                ChangeKind::Delete => line.destroy += 1,
                ChangeKind::Replace { .. } => {
                    line.add += 1;
                    line.destroy += 1;
                }
                ChangeKind::Forget => line.forget += 1,
                ChangeKind::ReplaceForget { .. } => {
                    line.add += 1;
                    line.forget += 1;
                }
                _ => {}
            }
        }
        line
    }
}
