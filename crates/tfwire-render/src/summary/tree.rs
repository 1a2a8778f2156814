//! [`write_tree`]: the listed changes under their modules, then the counts.

use super::options::Options;
use super::words::{action_rows, counts_line, footer, listed, notes, output_counts_line, paint};
use crate::escape::{DEPTH_MAX, Inline, inline};
use core::fmt;
use std::collections::HashMap;
use tfwire_plan::{ChangeSummary, Summary};

/// Writes `s` as `tfwire plan summary --format tree` prints it: `root`, then the listed
/// changes (no-ops only when moved or imported) under their modules, root module first,
/// each change by its address in its module with its notes; then the drift and the deferred
/// changes as trees of their own, the action invocations (and those deferred), and the
/// counts (as [`write_table`](super::write_table) ends).
///
/// Modules nest at most [`DEPTH_MAX`] levels deep: the steps of a deeper module path are
/// joined on the last level's line after a marker, `(N more levels on one line)`. Every
/// string of the document is escaped for a terminal ([`inline`]); with
/// [`Options::color`], the actions are coloured (ANSI).
pub fn write_tree(out: &mut impl fmt::Write, s: &Summary<'_>, options: &Options) -> fmt::Result {
    write(out, s, options.color)
}

/// The module instance steps of a module address: `module.a["x.y"].module.b` →
/// `["module.a[\"x.y\"]", "module.b"]` (dots and brackets inside quoted keys kept).
fn module_steps(address: &str) -> Vec<&str> {
    let b = address.as_bytes();
    let mut steps = Vec::new();
    let (mut start, mut i) = (0, 0);
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    while i < b.len() {
        let c = b[i];
        if quoted {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => quoted = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => quoted = true,
                b'[' => depth += 1,
                b']' => depth = depth.saturating_sub(1),
                b'.' if depth == 0 && address[i + 1..].starts_with("module.") && i > start => {
                    steps.push(&address[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    if start < b.len() {
        steps.push(&address[start..]);
    }
    steps
}

/// The steps of `module_address` as the tree draws them: at most [`DEPTH_MAX`] levels, the
/// last of which holds every step from there on (with the number of steps it joins beyond
/// the first, 0 for a single step).
fn tree_steps(module_address: &str) -> Vec<(&str, usize)> {
    let mut steps: Vec<(&str, usize)> = module_steps(module_address)
        .into_iter()
        .map(|s| (s, 0))
        .collect();
    if steps.len() > DEPTH_MAX {
        let joined = steps.len() - DEPTH_MAX;
        // Every step is a slice of `module_address`; the last level runs from the first
        // joined step to the end.
        let from = steps[DEPTH_MAX - 1].0.as_ptr() as usize - module_address.as_ptr() as usize;
        steps.truncate(DEPTH_MAX - 1);
        steps.push((&module_address[from..], joined));
    }
    steps
}

/// A module's changes and its child modules, for the tree view.
#[derive(Default)]
struct ModuleNode<'s> {
    changes: Vec<&'s ChangeSummary<'s>>,
    /// The child modules in order of first appearance: name, the steps the name joins
    /// beyond its first (see [`tree_steps`]), node.
    children: Vec<(&'s str, usize, ModuleNode<'s>)>,
    /// Where each child's name is in `children`.
    index: HashMap<&'s str, usize>,
}

impl<'s> ModuleNode<'s> {
    fn insert(&mut self, steps: &[(&'s str, usize)], c: &'s ChangeSummary<'s>) {
        let mut node = self;
        for &(name, joined) in steps {
            let at = match node.index.get(name) {
                Some(&at) => at,
                None => {
                    node.children.push((name, joined, ModuleNode::default()));
                    node.index.insert(name, node.children.len() - 1);
                    node.children.len() - 1
                }
            };
            node = &mut node.children[at].2;
        }
        node.changes.push(c);
    }

    fn write(&self, out: &mut dyn fmt::Write, prefix: &str, color: bool) -> fmt::Result {
        let n = self.changes.len() + self.children.len();
        let mut k = 0;
        for c in &self.changes {
            k += 1;
            let (branch, _) = branch(k == n);
            let key = c.kind.key();
            let marker = paint(
                &format!("{:7}", inline(&key.replace('_', "-"))),
                &key,
                color,
            );
            let local = c
                .address
                .strip_prefix(c.module_address)
                .map_or(c.address, |a| a.trim_start_matches('.'));
            let local = Inline(local);
            let notes = notes(c, |s| inline(s).into_owned()).join("; ");
            let line = if notes.is_empty() {
                format!("{prefix}{branch}{marker} {local}")
            } else {
                format!("{prefix}{branch}{marker} {local}  ({notes})")
            };
            writeln!(out, "{}", line.trim_end())?;
        }
        for (name, joined, child) in &self.children {
            k += 1;
            let (branch, indent) = branch(k == n);
            if *joined > 0 {
                writeln!(
                    out,
                    "{prefix}{branch}({joined} more levels on one line) {}",
                    Inline(name)
                )?;
            } else {
                writeln!(out, "{prefix}{branch}{}", Inline(name))?;
            }
            child.write(out, &format!("{prefix}{indent}"), color)?;
        }
        Ok(())
    }
}

/// The branch drawn before an entry and the indent of its children.
fn branch(last: bool) -> (&'static str, &'static str) {
    if last {
        ("└── ", "    ")
    } else {
        ("├── ", "│   ")
    }
}

fn write(out: &mut dyn fmt::Write, s: &Summary<'_>, color: bool) -> fmt::Result {
    let mut root = ModuleNode::default();
    for c in s.changes.iter().filter(|c| listed(c)) {
        root.insert(&tree_steps(c.module_address), c);
    }
    writeln!(out, "root")?;
    root.write(out, "", color)?;
    for (title, changes) in [
        ("Changed outside Terraform (drift):", &s.drift_changes),
        ("Deferred to a later plan:", &s.deferred_changes),
    ] {
        if changes.is_empty() {
            continue;
        }
        let mut tree = ModuleNode::default();
        for c in changes {
            tree.insert(&tree_steps(c.module_address), c);
        }
        writeln!(out, "\n{title}")?;
        writeln!(out, "root")?;
        tree.write(out, "", color)?;
    }
    for (title, list, marker) in [
        ("Actions to invoke:", &s.action_invocations, "invoke"),
        (
            "Actions deferred to a later plan:",
            &s.deferred_action_invocations,
            "defer",
        ),
    ] {
        if list.is_empty() {
            continue;
        }
        writeln!(out, "\n{title}")?;
        for (i, (_, address, words)) in action_rows(list, marker).iter().enumerate() {
            let (branch, _) = branch(i + 1 == list.len());
            writeln!(out, "{branch}{marker:7} {address}  ({words})")?;
        }
    }
    writeln!(out)?;
    writeln!(out, "Changes: {}", counts_line(&s.counts))?;
    if s.drift.total() > 0 {
        writeln!(out, "Drift:   {}", counts_line(&s.drift))?;
    }
    if s.outputs.total() > s.outputs.get("no_op") {
        writeln!(out, "Outputs: {}", output_counts_line(&s.outputs))?;
    }
    footer(out, s)
}
