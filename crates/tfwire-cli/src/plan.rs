//! `tfwire plan`: read `terraform show -json` plans.

use crate::input::Want;
use crate::render::{self, Layout};
use crate::{Failure, input, markdown, output, suggest};
use clap::{Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use tfwire_plan::{ChangeKind, ChangeSummary, Diff, Document, Filter, ResourceChange, Summary};

/// Read plans: binary plan files (`tofu plan -out`), `terraform show -json PLANFILE`
/// output, Terraform Cloud redacted plans.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire plan summary plan.tfplan\n  \
    tfwire plan summary plan.json\n  \
    tfwire plan show plan.json 'aws_instance.web[0]'\n\n\
    Exit codes: 0 success, 1 input rejected (or address not found), 2 usage error.")]
pub(crate) struct Args {
    #[command(subcommand)]
    command: PlanCommand,
}

#[derive(Subcommand)]
enum PlanCommand {
    Summary(SummaryArgs),
    Show(ShowArgs),
}

/// Count a plan's changes per action and list them.
///
/// Lists every changed resource (no-op changes are left out unless moved or imported),
/// marking moved resources (with their previous address), imports, replacements (with
/// the attributes that force them), forgotten resources and deposed objects, then the
/// resources changed outside Terraform (drift).
///
/// The default format is `table`, whether or not standard output is a terminal: a
/// format that changed when piped would surprise scripts and `| less`. On a terminal
/// the table is coloured unless NO_COLOR is set.
///
/// The JSON format is one object: format_version, terraform_version (if present), counts
/// and drift (create, update, delete, replace, read, no_op, forget, and joined keys such as
/// create+forget when they occur), changes and drift_changes (address, action, and
/// previous_address, importing, action_reason, replace_paths, deposed when they apply),
/// and unfiltered ({"changes": n, "drift_changes": n} of the whole plan) when filtered.
///
/// Filters narrow the list and the counts; all given filters must match, and a filter
/// given several times (or with comma-separated values) matches any of its values.
/// Patterns (--type, --address, --module) are globs: `*` any text, `?` one character,
/// `\` quotes the next one; brackets are literal (`aws_instance.web[*]`).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire plan summary plan.json\n  \
    tfwire plan summary --format markdown --max-bytes 65536 plan.json > comment.md\n  \
    tfwire plan summary --action replace,delete --module module.network plan.json\n  \
    tfwire plan summary --type 'aws_iam_*' --address '*[\"prod\"]*' plan.json\n  \
    terraform show -json plan.out | gzip | tfwire plan summary --format json -\n\n\
    Exit codes: 0 success, 1 input rejected, 2 usage error (including a --max-bytes\n\
    budget too small for even the totals).")]
struct SummaryArgs {
    /// The output format [default: table; markdown with --max-bytes].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Markdown only: shrink the summary to at most N bytes (GitHub comments stop at
    /// 65536 characters): first collapse the details, then group the changes by resource
    /// type, then leave out groups (saying how many). The totals are always kept.
    #[arg(long, value_name = "N")]
    max_bytes: Option<usize>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Provider schemas (`tofu providers schema -json`), for a binary plan file: its
    /// resource values are decoded with them. Not needed for a summary.
    #[arg(long, value_name = "FILE")]
    schemas: Option<String>,
    /// The plan: `show -json` output or a binary plan file (`tofu plan -out`), told apart
    /// by content (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "PLAN")]
    file: String,
}

/// The filters of `plan summary`.
#[derive(clap::Args)]
struct FilterArgs {
    /// Only changes with this action: create, update, delete, replace, read, no-op,
    /// forget (or a joined key such as create+forget).
    #[arg(long, value_name = "ACTION", value_delimiter = ',')]
    action: Vec<String>,
    /// Only resources of this type (glob), e.g. aws_instance or 'aws_iam_*'.
    #[arg(long = "type", value_name = "TYPE")]
    type_name: Vec<String>,
    /// Only resources at this address (glob; the address before a move counts too),
    /// e.g. `module.app.aws_instance.web[*]`.
    #[arg(long, value_name = "GLOB")]
    address: Vec<String>,
    /// Only resources in this module or below it (glob), e.g. module.network; `root` for
    /// the root module's own resources.
    #[arg(long, value_name = "MODULE")]
    module: Vec<String>,
}

impl FilterArgs {
    fn filter(&self) -> Result<Filter, Failure> {
        let mut f = Filter::new();
        for a in &self.action {
            f = f
                .action(a)
                .map_err(|e| Failure::Usage(format!("--action: {e}")))?;
        }
        for t in &self.type_name {
            f = f.type_glob(t);
        }
        for a in &self.address {
            f = f.address_glob(a);
        }
        for m in &self.module {
            f = f.module(m);
        }
        Ok(f)
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (flag, values) in [
            ("--action", &self.action),
            ("--type", &self.type_name),
            ("--address", &self.address),
            ("--module", &self.module),
        ] {
            for v in values {
                parts.push(format!("{flag} {v}"));
            }
        }
        parts.join(" ")
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// An aligned text table of the changes, then the counts.
    Table,
    /// GitHub-flavoured Markdown, for pull request comments.
    Markdown,
    /// One JSON object.
    Json,
}

/// Show the change to one resource: its before/after values, attribute by attribute.
///
/// Prints the change as `terraform plan` does: `+` created, `-` deleted, `~` updated
/// attributes, nested values indented, `(known after apply)` for values known only after
/// apply and `(sensitive)` instead of sensitive values (which are never printed).
/// Unchanged attributes are counted, not shown, unless --all is given.
///
/// The JSON format is one object per change: address, action, previous_address,
/// action_reason, importing, replace_paths and deposed when they apply, and `diff`: the
/// merged view, a tree of nodes {"op": "create|update|delete|no_op",
/// "forces_replacement": true (if so), "attributes": {...} or "elements": [...] for
/// containers, "before"/"after" values for leaves ("after_unknown": true for unknown
/// values, "before_sensitive"/"after_sensitive": true instead of sensitive values)}.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire plan show plan.json aws_instance.web\n  \
    tfwire plan show plan.json 'module.app[\"eu\"].aws_s3_bucket.logs'\n  \
    tfwire plan show --format json plan.json 'aws_instance.web[0]' | jq .diff\n\n\
    Exit codes: 0 success, 1 input rejected or no such address (near matches are\n\
    suggested), 2 usage error.")]
struct ShowArgs {
    /// The output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    format: ShowFormat,
    /// Show unchanged attributes too.
    #[arg(long)]
    all: bool,
    /// Provider schemas (`tofu providers schema -json`): required for a binary plan file,
    /// whose resource values are decoded with them (the schemas say which attributes are
    /// sensitive).
    #[arg(long, value_name = "FILE")]
    schemas: Option<String>,
    /// The plan: `show -json` output or a binary plan file (`tofu plan -out`), told apart
    /// by content (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "PLAN")]
    file: String,
    /// The resource instance address, as `plan summary` prints it (the address before a
    /// move works too).
    #[arg(value_name = "ADDRESS")]
    address: String,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ShowFormat {
    /// A tree like `terraform plan`'s.
    Text,
    /// The merged view as JSON.
    Json,
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        PlanCommand::Summary(a) => summary(a),
        PlanCommand::Show(a) => show(a),
    }
}

/// Whether standard output should be coloured.
pub(crate) fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn summary(args: SummaryArgs) -> Result<(), Failure> {
    let format = match (args.format, args.max_bytes) {
        (None, Some(_)) | (Some(Format::Markdown), _) => Format::Markdown,
        (Some(f), Some(_)) => {
            let name = if f == Format::Json { "json" } else { "table" };
            return Err(Failure::Usage(format!(
                "--max-bytes applies to --format markdown, not --format {name}"
            )));
        }
        (Some(f), None) => f,
        (None, None) => Format::Table,
    };
    let filter = args.filters.filter()?;
    let name = input::display_name(&args.file).to_string();
    let schemas = input::schemas(args.schemas.as_deref())?;
    input::with_document(&args.file, Want::Plan(schemas.as_ref()), |doc| {
        let plan = expect_plan(&name, doc)?;
        let mut summary = Summary::of(plan);
        let mut rcs: Vec<&ResourceChange<'_>> = plan.resource_changes.iter().collect();
        if !filter.is_empty() {
            summary = summary.filtered(&filter);
            rcs.retain(|rc| filter.matches(&ChangeSummary::of(rc)));
        }
        match format {
            Format::Json => output::with_stdout(|out| writeln!(out, "{}", summary.to_json())),
            Format::Table => {
                let color = use_color();
                output::with_stdout(|out| write_table(out, &summary, color))
            }
            Format::Markdown => {
                let md = markdown::Summary {
                    summary: &summary,
                    changes: &rcs,
                    filters: args.filters.describe(),
                };
                let text = match args.max_bytes {
                    None => md.render(markdown::Level::Full),
                    Some(max) => md.fit(max).map_err(|need| {
                        Failure::Usage(format!(
                            "--max-bytes {max} is too small: even the totals of this plan \
                             take {need} bytes"
                        ))
                    })?,
                };
                output::with_stdout(|out| out.write_all(text.as_bytes()))
            }
        }
    })
}

/// The notes of a change, for humans: moved, imported, reason, forced by, deposed.
pub(crate) fn notes(c: &ChangeSummary<'_>) -> Vec<String> {
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
    if matches!(c.kind, ChangeKind::Forget) {
        notes.push("forgotten: removed from state, not destroyed".into());
    }
    if let ChangeKind::Replace { create_first: true } = c.kind {
        notes.push("create before destroy".into());
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
    notes
}

/// Whether a change is listed: every change but plain no-ops.
pub(crate) fn listed(c: &ChangeSummary<'_>) -> bool {
    c.kind != ChangeKind::NoOp || c.previous_address.is_some() || c.importing
}

fn write_table(out: &mut dyn Write, s: &Summary<'_>, color: bool) -> std::io::Result<()> {
    let mut title = String::from("Plan");
    match (s.format_version, s.terraform_version) {
        (Some(f), Some(t)) => title.push_str(&format!(" (format {f}, Terraform {t})")),
        (Some(f), None) => title.push_str(&format!(" (format {f})")),
        (None, Some(t)) => title.push_str(&format!(" (Terraform {t})")),
        (None, None) => {}
    }
    writeln!(out, "{title}")?;
    if let Some((n, _)) = s.unfiltered {
        writeln!(out, "Filtered: {} of {n} resource changes", s.changes.len())?;
    }
    let rows = |list: &[ChangeSummary<'_>], all: bool| -> Vec<(String, String, String)> {
        list.iter()
            .filter(|c| all || listed(c))
            .map(|c| {
                (
                    c.kind.key().into_owned(),
                    c.address.to_string(),
                    notes(c).join("; "),
                )
            })
            .collect()
    };
    let changes = rows(&s.changes, false);
    if changes.is_empty() {
        writeln!(out, "\nNo changes.")?;
    } else {
        writeln!(out)?;
        table(out, &changes, color)?;
    }
    let drift = rows(&s.drift_changes, true);
    if !drift.is_empty() {
        writeln!(out, "\nChanged outside Terraform (drift):\n")?;
        table(out, &drift, color)?;
    }
    writeln!(out)?;
    writeln!(out, "Changes: {}", counts_line(&s.counts))?;
    if s.drift.total() > 0 {
        writeln!(out, "Drift:   {}", counts_line(&s.drift))?;
    }
    Ok(())
}

fn table(
    out: &mut dyn Write,
    rows: &[(String, String, String)],
    color: bool,
) -> std::io::Result<()> {
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
    writeln!(
        out,
        "{}",
        format!("{:wa$}  {:wb$}  NOTES", "ACTION", "ADDRESS").trim_end()
    )?;
    for (a, b, n) in rows {
        let action = render::paint(&format!("{a:wa$}"), a, color);
        writeln!(out, "{}", format!("{action}  {b:wb$}  {n}").trim_end())?;
    }
    Ok(())
}

/// `3 create, 1 update, 0 replace, 2 delete, ...`: the four main keys always, the others
/// when not zero.
pub(crate) fn counts_line(c: &tfwire_plan::Counts) -> String {
    let parts: Vec<String> = c
        .iter()
        .filter(|(k, n)| *n > 0 || matches!(*k, "create" | "update" | "replace" | "delete"))
        .map(|(k, n)| format!("{n} {}", k.replace('_', "-")))
        .collect();
    parts.join(", ")
}

/// The plan in `doc`, or the error for a document of another kind.
fn expect_plan<'a>(name: &str, doc: Document<'a>) -> Result<&'a tfwire_plan::Plan<'a>, Failure> {
    match doc {
        Document::Plan(p) => Ok(p),
        other => Err(Failure::Input(format!(
            "{name}: expected a plan, but this is {}",
            other.kind().describe()
        ))),
    }
}

fn show(args: ShowArgs) -> Result<(), Failure> {
    let name = input::display_name(&args.file).to_string();
    let schemas = input::schemas(args.schemas.as_deref())?;
    input::with_document(&args.file, Want::PlanValues(schemas.as_ref()), |doc| {
        let plan = expect_plan(&name, doc)?;
        let mut found: Vec<&ResourceChange<'_>> = plan
            .resource_changes
            .iter()
            .filter(|rc| rc.display_address() == args.address.as_str())
            .collect();
        if found.is_empty() {
            found = plan
                .resource_changes
                .iter()
                .filter(|rc| rc.previous_address == Some(args.address.as_str()))
                .collect();
        }
        if found.is_empty() {
            let all: Vec<String> = plan
                .resource_changes
                .iter()
                .map(|rc| rc.display_address().into_owned())
                .collect();
            return Err(Failure::Input(format!(
                "{name}: no resource change has the address {:?}{}",
                args.address,
                suggest::near(&args.address, &all, "tfwire plan summary", &args.file)
            )));
        }
        let color = use_color();
        let mut text = String::new();
        for (i, rc) in found.iter().enumerate() {
            let diff = Diff::of(&rc.change);
            match args.format {
                ShowFormat::Json => {
                    text.push_str(&change_json(rc, &diff));
                    text.push('\n');
                }
                ShowFormat::Text => {
                    if i > 0 {
                        text.push('\n');
                    }
                    change_text(&mut text, rc, &diff, args.all, color);
                }
            }
        }
        output::with_stdout(|out| out.write_all(text.as_bytes()))
    })
}

fn change_json(rc: &ResourceChange<'_>, diff: &Diff<'_>) -> String {
    let c = ChangeSummary::of(rc);
    let mut s = String::from("{\"address\":");
    json_str(&mut s, &c.address);
    s.push_str(",\"action\":");
    json_str(&mut s, &c.kind.key());
    if let Some(p) = c.previous_address {
        s.push_str(",\"previous_address\":");
        json_str(&mut s, p);
    }
    if let Some(r) = c.action_reason {
        s.push_str(",\"action_reason\":");
        json_str(&mut s, r);
    }
    if let Some(imp) = rc.change.importing {
        s.push_str(",\"importing\":");
        s.push_str(&imp.raw.to_string());
    }
    if !c.replace_paths.is_empty() {
        s.push_str(",\"replace_paths\":[");
        for (i, p) in c.replace_paths.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&p.raw().to_string());
        }
        s.push(']');
    }
    if let Some(d) = c.deposed {
        s.push_str(",\"deposed\":");
        json_str(&mut s, d);
    }
    s.push_str(",\"diff\":");
    s.push_str(&diff.to_json());
    s.push('}');
    s
}

fn json_str(s: &mut String, v: &str) {
    // Writing to a String cannot fail.
    let _ = tfwire_plan::write_json_str(s, v);
}

/// What a change does, in words, and its marker.
fn describe(kind: ChangeKind<'_>) -> (&'static str, String) {
    match kind {
        ChangeKind::Create => ("+", "will be created".into()),
        ChangeKind::Update => ("~", "will be updated in-place".into()),
        ChangeKind::Delete => ("-", "will be destroyed".into()),
        ChangeKind::Replace {
            create_first: false,
        } => ("-/+", "must be replaced (destroyed, then created)".into()),
        ChangeKind::Replace { create_first: true } => (
            "+/-",
            "must be replaced (created, then the old object destroyed)".into(),
        ),
        ChangeKind::Read => ("<=", "will be read during apply".into()),
        ChangeKind::NoOp => (" ", "has no changes".into()),
        ChangeKind::Forget => (
            ".",
            "will no longer be managed (forgotten, not destroyed)".into(),
        ),
        other => ("~", format!("will be changed ({})", other.key())),
    }
}

fn change_text(out: &mut String, rc: &ResourceChange<'_>, diff: &Diff<'_>, all: bool, color: bool) {
    use std::fmt::Write as _;
    let c = ChangeSummary::of(rc);
    let (m, words) = describe(c.kind);
    let _ = writeln!(out, "  # {} {words}", c.address);
    if let Some(p) = c.previous_address {
        let _ = writeln!(out, "  # (moved from {p})");
    }
    if c.importing {
        match c.import_id {
            Some(id) => {
                let _ = writeln!(out, "  # (imported from id {id:?})");
            }
            None => {
                let _ = writeln!(out, "  # (imported)");
            }
        }
    }
    if let Some(r) = c.action_reason {
        let _ = writeln!(out, "  # (because {r})");
    }
    if let Some(d) = c.deposed {
        let _ = writeln!(out, "  # (deposed object {d})");
    }
    let keyword = if c.is_data() { "data" } else { "resource" };
    let _ = writeln!(
        out,
        "{} {keyword} {:?} {:?} {{",
        render::paint(&format!("{m:>3}"), m, color),
        c.type_name,
        c.name
    );
    let layout = Layout {
        markers: true,
        all,
        color,
    };
    if diff.children.is_empty() {
        // Not an object (or nothing known): show the value as a whole.
        if diff.op != tfwire_plan::DiffOp::NoOp || all {
            let _ = writeln!(out, "      # value: {}", leaf(diff));
        }
    } else {
        render::body(out, diff, 6, layout);
    }
    let _ = writeln!(out, "    }}");
}

fn leaf(d: &Diff<'_>) -> String {
    format!(
        "{} -> {}",
        render::value_text(d.before),
        render::value_text(d.after)
    )
}
