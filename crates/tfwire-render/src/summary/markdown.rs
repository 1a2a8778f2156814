//! [`write_markdown`]: a summary for pull request comments, and its shrinking to a byte
//! budget ([`Options::max_bytes`]): collapse the details, then group by resource type, then
//! leave out groups, always keeping the totals.
//!
//! Every string taken from the document (addresses, types, versions, reasons, paths,
//! action names tfwire does not know) is written by [`md_code`] (Markdown) or
//! [`html_code`] (inside the HTML of `<summary>`), so that it renders as inert text in
//! GitHub-flavoured Markdown: no link, image, mention, emphasis or HTML of its own.

use super::options::{Error, Options};
use super::words::{listed, notes, output_counts_line, trigger_words};
use crate::escape::{html, html_code, md_code};
use core::fmt;
use std::collections::HashMap;
use std::fmt::Write as _;
use tfwire_plan::{ChangeKind, ChangeSummary, Diff, Plan};

/// Writes `summary` (of `plan`, filtered or not) as GitHub-flavoured Markdown, as `tfwire
/// plan summary --format markdown` prints it: the headline (`### Plan: 1 to create, …`), a
/// table of the counts, the moves, imports and forgotten objects counted, the filter line
/// ([`Options::filters`]), then a collapsible section per action (replace, delete,
/// create, update, forget, read, other actions, moves and imports), for the drift and for
/// the deferred changes, each change by address with its notes and, for updates and
/// replacements, the attributes that change (their names, never their values); then the
/// action invocations, and a footer naming the plan format, the Terraform version and
/// tfwire's.
///
/// With [`Options::max_bytes`], the most detailed summary that fits: every change by
/// address; then sections collapsed; then destructive changes (replace, delete, forget) by
/// address and as many of the others as fit (the rest counted per resource type); then
/// changes grouped by type and as many groups as fit; the headline and the counts always.
///
/// # Errors
///
/// [`Error::Budget`] when not even the headline and the counts fit in the budget (nothing is
/// written); [`Error::Write`] when `out` fails.
pub fn write_markdown(
    out: &mut impl fmt::Write,
    plan: &Plan<'_>,
    summary: &tfwire_plan::Summary<'_>,
    options: &Options,
) -> Result<(), Error> {
    let md = Summary {
        summary,
        plan,
        filters: &options.filters,
    };
    let text = match options.max_bytes {
        None => md.render(Level::Full),
        Some(max) => md.fit(max).map_err(|need| Error::Budget { max, need })?,
    };
    Ok(out.write_str(&text)?)
}

/// How much of the summary to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// Every change, with notes and the attributes that change; sections open.
    Full,
    /// Every change with its notes; sections collapsed.
    Collapsed,
    /// Destructive changes (replace, delete, forget) listed by address with their notes;
    /// of the others, the first N listed and the rest counted per resource type.
    Listed(usize),
    /// Changes counted per resource type in each section, only the first N groups (then a
    /// count of what was left out); sections collapsed.
    Truncated(usize),
    /// The headline and the counts table.
    Totals,
}

/// A plan summary to write as Markdown.
struct Summary<'s, 'a> {
    /// The summary (filtered if filters were given).
    summary: &'s tfwire_plan::Summary<'a>,
    /// The plan summarised, whose resource changes the summary's
    /// [`position`](ChangeSummary::position) points at.
    plan: &'s Plan<'a>,
    /// The filters given, in words (empty: none).
    filters: &'s str,
}

/// Which list of the summary a section's items index.
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    /// `changes`.
    Changes,
    /// `drift_changes`.
    Drift,
    /// `deferred_changes`.
    Deferred,
}

/// A section: changes of one action (or the drift, or the deferred changes).
struct Section {
    /// The title, as HTML.
    title: String,
    marker: &'static str,
    /// Indexes into `list`.
    items: Vec<usize>,
    /// Which list; the drift and the deferred changes, of several actions, get an
    /// "Action" column.
    list: List,
    /// Whether rows get the "changes" column (updates and replacements).
    details: bool,
    /// Whether the changes destroy or forget objects: listed by address as long as
    /// anything is.
    destructive: bool,
}

const ORDER: [(&str, &str, &str); 6] = [
    ("replace", "-/+", "Replace"),
    ("delete", "-", "Delete"),
    ("create", "+", "Create"),
    ("update", "~", "Update"),
    ("forget", ".", "Forget (removed from state, not destroyed)"),
    ("read", "<=", "Read"),
];

/// The attributes shown per change before "and N more".
const ATTRS_SHOWN: usize = 8;

impl Summary<'_, '_> {
    fn sections(&self) -> Vec<Section> {
        let s = self.summary;
        let mut by_key: Vec<(String, Vec<usize>)> = Vec::new();
        let mut moved_only = Vec::new();
        for (i, c) in s.changes.iter().enumerate() {
            if !listed(c) {
                continue;
            }
            if c.kind == ChangeKind::NoOp {
                moved_only.push(i);
                continue;
            }
            let key = c.kind.key();
            match by_key.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => v.push(i),
                None => by_key.push((key.into_owned(), vec![i])),
            }
        }
        let mut out = Vec::new();
        for (key, marker, title) in ORDER {
            if let Some(at) = by_key.iter().position(|(k, _)| k == key) {
                let (_, items) = by_key.remove(at);
                out.push(Section {
                    title: html(title),
                    marker,
                    items,
                    list: List::Changes,
                    details: matches!(key, "replace" | "update"),
                    destructive: matches!(key, "replace" | "delete" | "forget"),
                });
            }
        }
        for (key, items) in by_key {
            let destructive = key.split('+').any(|a| matches!(a, "delete" | "forget"));
            out.push(Section {
                title: format!("Other: {}", html_code(&key)),
                marker: "~",
                items,
                list: List::Changes,
                details: true,
                destructive,
            });
        }
        if !moved_only.is_empty() {
            out.push(Section {
                title: html("Moved or imported, no other change"),
                marker: " ",
                items: moved_only,
                list: List::Changes,
                details: false,
                destructive: false,
            });
        }
        if !s.drift_changes.is_empty() {
            // Sorted like the changes: by action in the order of the change sections
            // (other actions, then no-ops, after them), in document order within one.
            let mut items: Vec<usize> = (0..s.drift_changes.len()).collect();
            items.sort_by_key(|&i| {
                let c = &s.drift_changes[i];
                let key = c.kind.key();
                match ORDER.iter().position(|(k, _, _)| *k == key) {
                    Some(at) => at,
                    None if c.kind == ChangeKind::NoOp => ORDER.len() + 1,
                    None => ORDER.len(),
                }
            });
            out.push(Section {
                title: html("Changed outside Terraform (drift)"),
                marker: "!",
                items,
                list: List::Drift,
                details: false,
                destructive: false,
            });
        }
        if !s.deferred_changes.is_empty() {
            out.push(Section {
                title: html("Deferred to a later plan"),
                marker: "…",
                items: (0..s.deferred_changes.len()).collect(),
                list: List::Deferred,
                details: false,
                destructive: false,
            });
        }
        out
    }

    /// The headline: `Plan: 3 to create, 1 to update, ...`.
    fn headline(&self) -> String {
        let c = &self.summary.counts;
        let mut parts = Vec::new();
        for (key, words) in [
            ("create", "to create"),
            ("update", "to update"),
            ("delete", "to delete"),
            ("replace", "to replace"),
            ("read", "to read"),
            ("forget", "to forget"),
        ] {
            let n = c.get(key);
            if n > 0 || matches!(key, "create" | "update" | "replace" | "delete") {
                parts.push(format!("{n} {words}"));
            }
        }
        for (key, n) in c.iter().skip(tfwire_plan::COUNT_KEYS.len()) {
            parts.push(format!("{n} {}", md_code(key)));
        }
        let actions = self.summary.action_invocations.len();
        if actions > 0 {
            parts.push(format!(
                "{actions} action{} to invoke",
                if actions == 1 { "" } else { "s" }
            ));
        }
        format!("### Plan: {}\n", parts.join(", "))
    }

    fn counts_table(&self) -> String {
        let c = &self.summary.counts;
        let keys: Vec<(&str, usize)> = c.iter().collect();
        let mut head = String::from("|");
        let mut rule = String::from("|");
        let mut row = String::from("|");
        for (k, n) in &keys {
            let label = match *k {
                "no_op" => "No change".to_string(),
                k if !tfwire_plan::COUNT_KEYS.contains(&k) => md_code(k),
                k => {
                    let mut s = k.to_string();
                    if let Some(f) = s.get_mut(..1) {
                        f.make_ascii_uppercase();
                    }
                    s
                }
            };
            let _ = write!(head, " {label} |");
            rule.push_str("---:|");
            let _ = write!(row, " {n} |");
        }
        format!("{head}\n{rule}\n{row}\n")
    }

    fn also(&self) -> String {
        let s = self.summary;
        let mut parts = Vec::new();
        let moved = s.moved().count();
        let imported = s.imported().count();
        let forgotten = s.forgotten().count();
        if moved > 0 {
            parts.push(format!("{moved} moved"));
        }
        if imported > 0 {
            parts.push(format!("{imported} imported"));
        }
        if forgotten > 0 {
            parts.push(format!("{forgotten} forgotten"));
        }
        let mut text = String::new();
        if !parts.is_empty() {
            let _ = write!(text, "**Also:** {}. ", parts.join(", "));
        }
        let drift = s.drift.total();
        if drift > 0 {
            let kinds: Vec<String> = s
                .drift
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| format!("{n} {}", action(k)))
                .collect();
            let _ = write!(
                text,
                "**Drift:** {drift} resource{} changed outside Terraform ({}).",
                if drift == 1 { "" } else { "s" },
                kinds.join(", ")
            );
        }
        let deferred = s.deferred.total() + s.deferred_action_invocations.len();
        if deferred > 0 {
            if !text.is_empty() {
                text.push('\n');
            }
            let _ = write!(
                text,
                "**Deferred:** {deferred} change{} left for a later plan: this plan is partial.",
                if deferred == 1 { "" } else { "s" }
            );
        }
        let changed_outputs: Vec<&tfwire_plan::OutputSummary<'_>> = s
            .output_changes
            .iter()
            .filter(|o| o.kind != ChangeKind::NoOp)
            .collect();
        if !changed_outputs.is_empty() {
            if !text.is_empty() {
                text.push('\n');
            }
            const NAMED: usize = 10;
            let names: Vec<String> = changed_outputs
                .iter()
                .take(NAMED)
                .map(|o| format!("{} {}", md_code(o.name), action(&o.kind.key())))
                .collect();
            let more = changed_outputs.len().saturating_sub(NAMED);
            let _ = write!(
                text,
                "**Outputs:** {} ({}{}).",
                output_counts_line(&s.outputs),
                names.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            );
        }
        if let Some((n, d)) = s.unfiltered {
            if !text.is_empty() {
                text.push('\n');
            }
            let _ = write!(
                text,
                "_Filtered with {}: {} of {n} resource changes",
                md_code(self.filters),
                s.changes.len()
            );
            if d > 0 {
                let _ = write!(text, ", {} of {d} drift entries", s.drift_changes.len());
            }
            text.push_str("._");
        }
        if text.is_empty() { text } else { text + "\n" }
    }

    fn footer(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = self.summary.format_version {
            parts.push(format!("plan format {}", md_code(f)));
        }
        if let Some(t) = self.summary.terraform_version {
            parts.push(format!("Terraform {}", md_code(t)));
        }
        parts.push(format!("tfwire {}", env!("CARGO_PKG_VERSION")));
        format!("<sub>{}</sub>\n", parts.join(" · "))
    }

    fn change(&self, sec: &Section, i: usize) -> &ChangeSummary<'_> {
        match sec.list {
            List::Changes => &self.summary.changes[i],
            List::Drift => &self.summary.drift_changes[i],
            List::Deferred => &self.summary.deferred_changes[i],
        }
    }

    /// The attributes that change, for the "changes" column.
    fn attrs(&self, i: usize) -> String {
        let rc = self.summary.changes[i]
            .position
            .and_then(|at| self.plan.resource_changes.get(at));
        let Some(rc) = rc else {
            return String::new();
        };
        let changed = Diff::of(&rc.change).changes();
        // A change to the whole value (the root path) names no attribute.
        let changed: Vec<_> = changed
            .into_iter()
            .filter(|(p, _, _)| !p.is_root())
            .collect();
        let mut parts: Vec<String> = changed
            .iter()
            .take(ATTRS_SHOWN)
            .map(|(p, _, _)| {
                let p = p.to_string();
                md_code(&p)
            })
            .collect();
        if changed.len() > ATTRS_SHOWN {
            parts.push(format!("and {} more", changed.len() - ATTRS_SHOWN));
        }
        parts.join(", ")
    }

    /// The grouped rows of a section: (type, count, notes), most changes first.
    fn groups(&self, sec: &Section) -> Vec<(String, usize, String)> {
        let mut at: HashMap<(&str, String), usize> = HashMap::new();
        let mut rows: Vec<(String, String, usize, usize, usize)> = Vec::new();
        for &i in &sec.items {
            let c = self.change(sec, i);
            let action = if sec.list != List::Changes {
                c.kind.key().into_owned()
            } else {
                String::new()
            };
            let k = (c.type_name, action.clone());
            let row = *at.entry(k).or_insert_with(|| {
                rows.push((c.type_name.to_string(), action, 0, 0, 0));
                rows.len() - 1
            });
            rows[row].2 += 1;
            rows[row].3 += usize::from(c.previous_address.is_some());
            rows[row].4 += usize::from(c.importing);
        }
        rows.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        rows.into_iter()
            .map(|(ty, action, n, moved, imported)| {
                let mut notes = Vec::new();
                if !action.is_empty() {
                    notes.push(self::action(&action));
                }
                if moved > 0 {
                    notes.push(format!("{moved} moved"));
                }
                if imported > 0 {
                    notes.push(format!("{imported} imported"));
                }
                (ty, n, notes.join(", "))
            })
            .collect()
    }

    /// Writes the table of `items` (changes of `sec`) by address, with notes, and with the
    /// attributes that change when `full`.
    fn list(
        &self,
        out: &mut String,
        sec: &Section,
        items: &[usize],
        full: bool,
        attrs: &mut HashMap<usize, String>,
    ) {
        if items.is_empty() {
            return;
        }
        let rows: Vec<(String, String, String)> = items
            .iter()
            .map(|&i| {
                let c = self.change(sec, i);
                let d = if full && sec.details {
                    attrs.entry(i).or_insert_with(|| self.attrs(i)).clone()
                } else {
                    String::new()
                };
                (md_code(c.address), notes(c, md_code).join("; "), d)
            })
            .collect();
        // Columns that would be empty in every row are left out.
        let with_notes = rows.iter().any(|r| !r.1.is_empty());
        let with_attrs = rows.iter().any(|r| !r.2.is_empty());
        let mut head = String::from("| Address |");
        let mut rule = String::from("|---|");
        if sec.list != List::Changes {
            head.push_str(" Action |");
            rule.push_str("---|");
        }
        if with_notes {
            head.push_str(" Notes |");
            rule.push_str("---|");
        }
        if with_attrs {
            head.push_str(" Changes |");
            rule.push_str("---|");
        }
        let _ = writeln!(out, "{head}\n{rule}");
        for (&i, (a, n, d)) in items.iter().zip(&rows) {
            let _ = write!(out, "| {a} |");
            if sec.list != List::Changes {
                let c = self.change(sec, i);
                let _ = write!(out, " {} |", action(&c.kind.key()));
            }
            if with_notes {
                let _ = write!(out, " {n} |");
            }
            if with_attrs {
                let _ = write!(out, " {d} |");
            }
            out.push('\n');
        }
    }

    /// The changes of a section not listed: counted per resource type (the five biggest
    /// types named).
    fn rest(&self, out: &mut String, sec: &Section, items: &[usize], after_rows: bool) {
        let mut types: Vec<(&str, usize)> = Vec::new();
        for &i in items {
            let t = self.change(sec, i).type_name;
            match types.iter_mut().find(|(x, _)| *x == t) {
                Some((_, n)) => *n += 1,
                None => types.push((t, 1)),
            }
        }
        types.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        const NAMED: usize = 5;
        let mut named: Vec<String> = types
            .iter()
            .take(NAMED)
            .map(|(t, n)| format!("{} {n}", md_code(t)))
            .collect();
        if types.len() > NAMED {
            named.push(format!("{} more types", types.len() - NAMED));
        }
        let _ = writeln!(
            out,
            "{}_{} {} change{} not listed to fit the size limit: {}._",
            if after_rows { "\n" } else { "" },
            if after_rows { "And" } else { "All" },
            items.len(),
            if items.len() == 1 { "" } else { "s" },
            named.join(", ")
        );
    }

    /// Writes the summary at one level.
    fn render(&self, level: Level) -> String {
        self.render_with(level, &mut HashMap::new())
    }

    fn render_with(&self, level: Level, attrs: &mut HashMap<usize, String>) -> String {
        let mut out = self.headline();
        out.push('\n');
        out.push_str(&self.counts_table());
        let also = self.also();
        if !also.is_empty() {
            out.push('\n');
            out.push_str(&also);
        }
        if level == Level::Totals {
            out.push_str(
                "\n_The list of changes was left out to fit the size limit; \
                 `tfwire plan summary` prints it._\n",
            );
            return out;
        }
        let sections = self.sections();
        let s = self.summary;
        if sections.is_empty()
            && s.action_invocations.is_empty()
            && s.deferred_action_invocations.is_empty()
        {
            out.push_str("\nNo changes.\n");
        }
        let mut budget = match level {
            Level::Truncated(n) | Level::Listed(n) => n,
            _ => usize::MAX,
        };
        for sec in &sections {
            let open = if level == Level::Full { " open" } else { "" };
            // A blank marker (moves and imports) would render as an empty box.
            let marker = match sec.marker.trim() {
                "" => String::new(),
                m => format!("<code>{}</code> ", html(m)),
            };
            let _ = write!(
                out,
                "\n<details{open}><summary>{marker}<strong>{}</strong> ({})</summary>\n\n",
                sec.title,
                sec.items.len()
            );
            match level {
                Level::Full | Level::Collapsed | Level::Listed(_) => {
                    let items: &[usize] = match level {
                        Level::Listed(_) if !sec.destructive => {
                            let n = sec.items.len().min(budget);
                            budget -= n;
                            &sec.items[..n]
                        }
                        _ => &sec.items,
                    };
                    self.list(&mut out, sec, items, level == Level::Full, attrs);
                    if items.len() < sec.items.len() {
                        self.rest(&mut out, sec, &sec.items[items.len()..], !items.is_empty());
                    }
                }
                Level::Truncated(_) => {
                    let groups = self.groups(sec);
                    let shown = groups.len().min(budget);
                    budget -= shown;
                    if shown > 0 {
                        out.push_str("| Resource type | Changes | Notes |\n|---|---:|---|\n");
                        for (ty, n, notes) in &groups[..shown] {
                            let _ = writeln!(out, "| {} | {n} | {notes} |", md_code(ty));
                        }
                    }
                    if shown < groups.len() {
                        let left: usize = groups[shown..].iter().map(|g| g.1).sum();
                        let types = groups.len() - shown;
                        let _ = writeln!(
                            out,
                            "{}_{} {} resource type{} ({left} change{}) left out to fit the size limit._",
                            if shown > 0 { "\n" } else { "" },
                            if shown > 0 { "And" } else { "All" },
                            types,
                            if types == 1 { "" } else { "s" },
                            if left == 1 { "" } else { "s" },
                        );
                    }
                }
                Level::Totals => {}
            }
            out.push_str("\n</details>\n");
        }
        let open = if level == Level::Full { " open" } else { "" };
        for (title, list) in [
            ("Actions to invoke", &s.action_invocations),
            (
                "Actions deferred to a later plan",
                &s.deferred_action_invocations,
            ),
        ] {
            if list.is_empty() {
                continue;
            }
            let _ = write!(
                out,
                "\n<details{open}><summary><code>&gt;</code> <strong>{}</strong> ({})</summary>\n\n",
                html(title),
                list.len()
            );
            actions(&mut out, list, matches!(level, Level::Truncated(_)));
            out.push_str("\n</details>\n");
        }
        if matches!(level, Level::Truncated(_)) && !sections.is_empty() {
            out.push_str(
                "\n_Changes are grouped by resource type to fit the size limit; \
                 `tfwire plan summary` lists every address._\n",
            );
        }
        out.push('\n');
        out.push_str(&self.footer());
        out
    }

    /// The most detailed summary that fits in `max` bytes: every change by address, then
    /// destructive changes (replace, delete, forget) by address and as many of the others
    /// as fit (the rest counted per resource type), then changes grouped by type and as
    /// many groups as fit; the headline and the counts always. `Err(n)` when not even
    /// the headline and the counts (n bytes) fit.
    fn fit(&self, max: usize) -> Result<String, usize> {
        let mut attrs = HashMap::new();
        for level in [Level::Full, Level::Collapsed] {
            let s = self.render_with(level, &mut attrs);
            if s.len() <= max {
                return Ok(s);
            }
        }
        let sections = self.sections();
        // The most rows (or groups) that fit: the length grows with the number kept.
        let most = |level: fn(usize) -> Level, total: usize, attrs: &mut HashMap<_, _>| {
            let (mut lo, mut hi) = (0, total + 1);
            let mut best = None;
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let s = self.render_with(level(mid), attrs);
                if s.len() <= max {
                    best = Some(s);
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            best
        };
        let rows: usize = sections
            .iter()
            .filter(|s| !s.destructive)
            .map(|s| s.items.len())
            .sum();
        if let Some(s) = most(Level::Listed, rows, &mut attrs) {
            return Ok(s);
        }
        let groups: usize = sections.iter().map(|sec| self.groups(sec).len()).sum();
        if let Some(s) = most(Level::Truncated, groups, &mut attrs) {
            return Ok(s);
        }
        let s = self.render_with(Level::Totals, &mut attrs);
        if s.len() <= max {
            return Ok(s);
        }
        Err(s.len())
    }
}

/// A table of action invocations: by address with what triggers each, or (`grouped`, to fit
/// a size limit) counted per action type.
fn actions(out: &mut String, list: &[tfwire_plan::ActionSummary<'_>], grouped: bool) {
    if grouped {
        let mut types: Vec<(&str, usize)> = Vec::new();
        for a in list {
            match types.iter_mut().find(|(t, _)| *t == a.type_name) {
                Some((_, n)) => *n += 1,
                None => types.push((a.type_name, 1)),
            }
        }
        types.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        out.push_str("| Action type | Invocations |\n|---|---:|\n");
        for (t, n) in types {
            let _ = writeln!(out, "| {} | {n} |", md_code(t));
        }
        return;
    }
    out.push_str("| Action | Triggered by |\n|---|---|\n");
    for a in list {
        let _ = writeln!(
            out,
            "| {} | {} |",
            md_code(a.address),
            trigger_words(a, md_code)
        );
    }
}

/// An action key as Markdown: the keys tfwire knows (and joins of them, such as
/// `create+forget`) as plain words (`no_op` as `no-op`), any other name from the document
/// as code.
fn action(key: &str) -> String {
    let known = key.split('+').all(|k| {
        tfwire_plan::COUNT_KEYS.contains(&k) || matches!(k, "no-op" | "create" | "delete")
    });
    if known {
        key.replace('_', "-")
    } else {
        md_code(key)
    }
}
