//! [`Summary`]: what a plan does, counted per action, with the per-resource list.

use crate::change::{Action, AttrPath, ChangeKind, ResourceChange, module_of};
use crate::json::write_json_str;
use crate::plan::Plan;
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

    /// Writes the counts as a JSON object.
    pub fn write_json(&self, out: &mut impl fmt::Write) -> fmt::Result {
        out.write_char('{')?;
        for (i, (k, n)) in self.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            write_json_str(out, k)?;
            write!(out, ":{n}")?;
        }
        out.write_char('}')
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

/// The numbers of OpenTofu's `Plan: …` line ([`Summary::plan_line`]). Its `Display` writes
/// the line as OpenTofu does (without colour): `to import` only when something is imported,
/// `to forget` only when something is forgotten.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlanLine {
    /// Resources imported (`importing` set), whatever else their change does.
    pub import: usize,
    /// Objects created: creates, replacements, forget-then-create.
    pub add: usize,
    /// Objects updated in place.
    pub change: usize,
    /// Objects destroyed: deletes of managed resources (deposed objects included) and
    /// replacements.
    pub destroy: usize,
    /// Objects removed from the state without being destroyed.
    pub forget: usize,
    /// The resource changes OpenTofu renders; it prints the line only when there is one.
    pub shown: usize,
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
        if self.forget > 0 {
            write!(f, ", {} to forget", self.forget)?;
        }
        f.write_str(".")
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
            action_reason: rc.action_reason,
            replace_paths: rc.change.replace_paths,
            deposed: rc.deposed,
            mode: rc.mode,
            type_name: rc.type_name,
            name: rc.name,
            module_address,
        }
    }

    /// Whether the change is to a data source (`data.` addresses).
    pub fn is_data(&self) -> bool {
        self.mode == Mode::Data
    }

    fn write_json(&self, out: &mut impl fmt::Write) -> fmt::Result {
        out.write_str("{\"address\":")?;
        write_json_str(out, self.address)?;
        out.write_str(",\"action\":")?;
        write_json_str(out, &self.kind.key())?;
        if let Some(p) = self.previous_address {
            out.write_str(",\"previous_address\":")?;
            write_json_str(out, p)?;
        }
        if self.importing {
            out.write_str(",\"importing\":true")?;
        }
        if let Some(id) = self.import_id {
            out.write_str(",\"import_id\":")?;
            write_json_str(out, id)?;
        }
        if let Some(r) = self.action_reason {
            out.write_str(",\"action_reason\":")?;
            write_json_str(out, r)?;
        }
        if !self.replace_paths.is_empty() {
            out.write_str(",\"replace_paths\":[")?;
            for (i, p) in self.replace_paths.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write!(out, "{}", p.raw())?;
            }
            out.write_char(']')?;
        }
        if let Some(d) = self.deposed {
            out.write_str(",\"deposed\":")?;
            write_json_str(out, d)?;
        }
        out.write_char('}')
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

impl OutputSummary<'_> {
    fn write_json(&self, out: &mut impl fmt::Write) -> fmt::Result {
        out.write_str("{\"name\":")?;
        write_json_str(out, self.name)?;
        out.write_str(",\"action\":")?;
        write_json_str(out, &self.kind.key())?;
        if self.sensitive {
            out.write_str(",\"sensitive\":true")?;
        }
        out.write_char('}')
    }
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
/// assert_eq!(summary.to_json(), concat!(
///     r#"{"format_version":"1.2","counts":{"create":1,"update":0,"delete":0,"replace":1,"#,
///     r#""read":0,"no_op":1,"forget":0},"drift":{"create":0,"update":0,"delete":0,"replace":0,"#,
///     r#""read":0,"no_op":0,"forget":0},"changes":[{"address":"a.x","action":"create"},"#,
///     r#"{"address":"a.y","action":"replace","action_reason":"replace_because_cannot_update"},"#,
///     r#"{"address":"a.z","action":"no_op","previous_address":"a.old"}],"drift_changes":[],"#,
///     r#""outputs":{"create":0,"update":0,"delete":0,"replace":0,"read":0,"no_op":0,"forget":0},"#,
///     r#""output_changes":[]}"#));
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
}

impl<'a> Summary<'a> {
    /// Summarises a plan.
    pub fn of(plan: &Plan<'a>) -> Summary<'a> {
        let mut counts = Counts::default();
        let mut changes = Vec::with_capacity(plan.resource_changes.len());
        for rc in plan.resource_changes {
            counts.add(rc.change.kind());
            changes.push(ChangeSummary::of(rc));
        }
        let mut drift = Counts::default();
        let mut drift_changes = Vec::with_capacity(plan.resource_drift.len());
        for rc in plan.resource_drift {
            drift.add(rc.change.kind());
            drift_changes.push(ChangeSummary::of(rc));
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
        }
    }

    /// The changes that are forgotten: removed from state without being destroyed.
    pub fn forgotten(&self) -> impl Iterator<Item = &ChangeSummary<'a>> {
        self.changes
            .iter()
            .filter(|c| matches!(c.kind, ChangeKind::Forget))
    }

    /// The changes that are moves (a `previous_address` that differs).
    pub fn moved(&self) -> impl Iterator<Item = &ChangeSummary<'a>> {
        self.changes.iter().filter(|c| c.previous_address.is_some())
    }

    /// The changes that import.
    pub fn imported(&self) -> impl Iterator<Item = &ChangeSummary<'a>> {
        self.changes.iter().filter(|c| c.importing)
    }

    /// The numbers of the `Plan: …` line that `tofu plan` and `tofu show` print for this
    /// plan, counted from the resource changes as OpenTofu (v1.12) counts them.
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
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    pub fn plan_line(&self) -> PlanLine {
        let mut line = PlanLine::default();
        for c in &self.changes {
            let forget_then_create =
                matches!(c.kind, ChangeKind::Other([Action::Forget, Action::Create]));
            // What OpenTofu leaves out of the list of changes it renders: no-ops that neither
            // move nor import, deleted data sources, ephemeral resources.
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
                _ if forget_then_create => {
                    line.add += 1;
                    line.forget += 1;
                }
                _ => {}
            }
        }
        line
    }

    /// Writes the summary as one JSON object:
    /// `{"format_version", "terraform_version" (if known), "counts", "drift", "changes",
    /// "drift_changes", "unfiltered" (after [`Summary::filtered`]), "outputs",
    /// "output_changes"}`. `outputs` counts the output changes per action and
    /// `output_changes` lists them (`name`, `action`, and `sensitive: true` for sensitive
    /// ones, whose values are never written).
    /// Each change has `address` and `action`, and `previous_address`, `importing`,
    /// `import_id`, `action_reason`, `replace_paths`, `deposed` when they apply. `drift_changes` lists
    /// the `resource_drift` entries in the same shape. `unfiltered` is
    /// `{"changes": n, "drift_changes": n}` of the whole plan. `format_version` is
    /// `null` for documents without one.
    pub fn write_json(&self, out: &mut impl fmt::Write) -> fmt::Result {
        out.write_str("{\"format_version\":")?;
        match self.format_version {
            Some(v) => write_json_str(out, v)?,
            None => out.write_str("null")?,
        }
        if let Some(v) = self.terraform_version {
            out.write_str(",\"terraform_version\":")?;
            write_json_str(out, v)?;
        }
        out.write_str(",\"counts\":")?;
        self.counts.write_json(out)?;
        out.write_str(",\"drift\":")?;
        self.drift.write_json(out)?;
        out.write_str(",\"changes\":[")?;
        for (i, c) in self.changes.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            c.write_json(out)?;
        }
        out.write_str("],\"drift_changes\":[")?;
        for (i, c) in self.drift_changes.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            c.write_json(out)?;
        }
        out.write_char(']')?;
        if let Some((changes, drift)) = self.unfiltered {
            write!(
                out,
                ",\"unfiltered\":{{\"changes\":{changes},\"drift_changes\":{drift}}}"
            )?;
        }
        out.write_str(",\"outputs\":")?;
        self.outputs.write_json(out)?;
        out.write_str(",\"output_changes\":[")?;
        for (i, o) in self.output_changes.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            o.write_json(out)?;
        }
        out.write_str("]}")
    }

    /// [`Summary::write_json`] into a string.
    pub fn to_json(&self) -> String {
        let mut s = String::with_capacity(128 + 64 * self.changes.len());
        // Writing to a String cannot fail.
        let _ = self.write_json(&mut s);
        s
    }
}
