//! [`write_table`]: the summary as aligned text tables, then the counts.

use super::options::Options;
use super::words::{
    Row, action_rows, counts_line, footer, listed, notes, output_counts_line, paint,
};
use crate::escape::{Inline, Padded, column_width, inline};
use core::fmt;
use tfwire_plan::{ChangeKind, ChangeSummary, Summary};

/// Writes `s` as `tfwire plan summary --format table` prints it: a title (`Plan (format 1.2,
/// Terraform 1.9.8)`), `Filtered: N of M resource changes` after a filter, then tables
/// (ACTION, ADDRESS, NOTES) of the listed changes (no-ops only when moved or imported), the
/// drift, the deferred changes, the action invocations (and those deferred) and the output
/// changes (ACTION, OUTPUT, NOTES), each table when not empty, then the counts: `Changes:`,
/// and `Drift:`, `Outputs:`, `Deferred:`, `Actions: N to invoke` when there are any.
///
/// A column is as wide as its longest entry up to [`ALIGN_MAX`](crate::escape::ALIGN_MAX)
/// characters; a longer entry is written unpadded. Every string of the document is escaped
/// for a terminal ([`inline`]); with [`Options::color`], the actions are coloured (ANSI).
pub fn write_table(out: &mut impl fmt::Write, s: &Summary<'_>, options: &Options) -> fmt::Result {
    write(out, s, options.color)
}

fn write(out: &mut dyn fmt::Write, s: &Summary<'_>, color: bool) -> fmt::Result {
    out.write_str("Plan")?;
    match (
        s.format_version.map(Inline),
        s.terraform_version.map(Inline),
    ) {
        (Some(f), Some(t)) => write!(out, " (format {f}, Terraform {t})")?,
        (Some(f), None) => write!(out, " (format {f})")?,
        (None, Some(t)) => write!(out, " (Terraform {t})")?,
        (None, None) => {}
    }
    writeln!(out)?;
    if let Some((n, _)) = s.unfiltered {
        writeln!(out, "Filtered: {} of {n} resource changes", s.changes.len())?;
    }
    let rows = |list: &[ChangeSummary<'_>], all: bool| -> Vec<Row> {
        list.iter()
            .filter(|c| all || listed(c))
            .map(|c| {
                (
                    inline(&c.kind.key().replace('_', "-")).into_owned(),
                    inline(c.address).into_owned(),
                    notes(c, |s| inline(s).into_owned()).join("; "),
                )
            })
            .collect()
    };
    let changes = rows(&s.changes, false);
    if changes.is_empty() {
        writeln!(out, "\nNo changes.")?;
    } else {
        writeln!(out)?;
        table(out, "ADDRESS", &changes, color)?;
    }
    let outputs: Vec<Row> = s
        .output_changes
        .iter()
        .filter(|o| o.kind != ChangeKind::NoOp)
        .map(|o| {
            let note = if o.sensitive { "sensitive" } else { "" };
            (
                o.kind.key().into_owned(),
                inline(o.name).into_owned(),
                note.to_string(),
            )
        })
        .collect();
    let with_outputs = !outputs.is_empty();
    for (title, second, rows) in [
        (
            "Changed outside Terraform (drift)",
            "ADDRESS",
            rows(&s.drift_changes, true),
        ),
        (
            "Deferred to a later plan",
            "ADDRESS",
            rows(&s.deferred_changes, true),
        ),
        (
            "Actions to invoke",
            "ADDRESS",
            action_rows(&s.action_invocations, "invoke"),
        ),
        (
            "Actions deferred to a later plan",
            "ADDRESS",
            action_rows(&s.deferred_action_invocations, "defer"),
        ),
        ("Output changes", "OUTPUT", outputs),
    ] {
        if !rows.is_empty() {
            writeln!(out, "\n{title}:\n")?;
            table(out, second, &rows, color)?;
        }
    }
    writeln!(out)?;
    writeln!(out, "Changes: {}", counts_line(&s.counts))?;
    if s.drift.total() > 0 {
        writeln!(out, "Drift:   {}", counts_line(&s.drift))?;
    }
    if with_outputs {
        writeln!(out, "Outputs: {}", output_counts_line(&s.outputs))?;
    }
    footer(out, s)
}

/// An aligned table of escaped rows: ACTION, `second` (ADDRESS or OUTPUT), NOTES.
fn table(out: &mut dyn fmt::Write, second: &str, rows: &[Row], color: bool) -> fmt::Result {
    let wa = column_width(rows.iter().map(|r| r.0.chars().count())).max(6);
    let wb = column_width(rows.iter().map(|r| r.1.chars().count())).max(second.len());
    let head = format!(
        "{}  {}  NOTES",
        Padded::chars("ACTION", wa),
        Padded::chars(second, wb)
    );
    writeln!(out, "{}", head.trim_end())?;
    for (a, b, n) in rows {
        let action = paint(&Padded::chars(a, wa).to_string(), a, color);
        let line = format!("{action}  {}  {n}", Padded::chars(b, wb));
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
