//! `tfwire plan`: read `terraform show -json` plans.

use crate::Failure;
use crate::{input, output};
use clap::{Subcommand, ValueEnum};
use std::io::Write;
use tfwire_plan::{ChangeKind, Parser, Summary};

/// Read plans (`terraform show -json PLANFILE`, Terraform Cloud redacted plans).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: PlanCommand,
}

#[derive(Subcommand)]
enum PlanCommand {
    Summary(SummaryArgs),
}

/// Count a plan's changes per action and list them.
///
/// The JSON format is one object: format_version, terraform_version (if present), counts
/// and drift (create, update, delete, replace, read, no_op, forget, and joined keys such as
/// create+forget when they occur), and changes (address, action, and previous_address,
/// importing, action_reason, replace_paths, deposed when they apply).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  terraform show -json plan.out > plan.json && tfwire plan summary plan.json\n  \
                        terraform show -json plan.out | tfwire plan summary --format json -"
)]
struct SummaryArgs {
    /// The output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// The plan JSON file (`-`: standard input).
    #[arg(value_name = "PLAN")]
    file: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// An aligned text table of the changes (no-op changes left out), then the counts.
    Table,
    /// One JSON object.
    Json,
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        PlanCommand::Summary(a) => summary(a),
    }
}

fn summary(args: SummaryArgs) -> Result<(), Failure> {
    let name = input::display_name(&args.file);
    let mut bytes = input::read_document(&args.file, tfwire_plan::INPUT_PADDING)?;
    let fail = |e: tfwire_plan::Error| Failure::Input(format!("{name}: {e}"));
    let mut parser = Parser::new();
    let tape = parser.parse(&mut bytes).map_err(fail)?;
    drop(parser); // the scratch buffers are not needed any more
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).map_err(fail)?;
    let summary = Summary::of(plan);
    output::with_stdout(|out| match args.format {
        Format::Json => {
            out.write_all(summary.to_json().as_bytes())?;
            out.write_all(b"\n")
        }
        Format::Table => write_table(out, &summary),
    })
}

fn write_table(out: &mut dyn Write, s: &Summary<'_>) -> std::io::Result<()> {
    let mut title = String::from("Plan");
    match (s.format_version, s.terraform_version) {
        (Some(f), Some(t)) => title.push_str(&format!(" (format {f}, Terraform {t})")),
        (Some(f), None) => title.push_str(&format!(" (format {f})")),
        (None, Some(t)) => title.push_str(&format!(" (Terraform {t})")),
        (None, None) => {}
    }
    writeln!(out, "{title}")?;
    let rows: Vec<_> = s
        .changes
        .iter()
        .filter(|c| c.kind != ChangeKind::NoOp || c.previous_address.is_some() || c.importing)
        .map(|c| {
            let mut notes = Vec::new();
            if let Some(p) = c.previous_address {
                notes.push(format!("moved from {p}"));
            }
            if c.importing {
                notes.push(match c.import_id {
                    Some(id) => format!("imported (id {id})"),
                    None => "imported".to_string(),
                });
            }
            if let Some(r) = c.action_reason {
                notes.push(r.to_string());
            }
            if !c.replace_paths.is_empty() {
                let paths: Vec<String> = c.replace_paths.iter().map(|p| p.to_string()).collect();
                notes.push(format!("forced by {}", paths.join(", ")));
            }
            if let Some(d) = c.deposed {
                notes.push(format!("deposed object {d}"));
            }
            (
                c.kind.key().into_owned(),
                c.address.to_string(),
                notes.join("; "),
            )
        })
        .collect();
    if rows.is_empty() {
        writeln!(out, "\nNo changes.")?;
    } else {
        let wa = rows
            .iter()
            .map(|r| r.0.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let wb = rows
            .iter()
            .map(|r| r.1.chars().count())
            .max()
            .unwrap_or(0)
            .max(7);
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            format!("{:wa$}  {:wb$}  NOTES", "ACTION", "ADDRESS").trim_end()
        )?;
        for (a, b, n) in &rows {
            writeln!(out, "{}", format!("{a:wa$}  {b:wb$}  {n}").trim_end())?;
        }
    }
    writeln!(out)?;
    writeln!(out, "Changes: {}", counts_line(&s.counts))?;
    if s.drift.total() > 0 {
        writeln!(out, "Drift:   {}", counts_line(&s.drift))?;
    }
    Ok(())
}

fn counts_line(c: &tfwire_plan::Counts) -> String {
    let parts: Vec<String> = c
        .iter()
        .filter(|(k, n)| *n > 0 || matches!(*k, "create" | "update" | "replace" | "delete"))
        .map(|(k, n)| format!("{n} {}", k.replace('_', "-")))
        .collect();
    parts.join(", ")
}
