//! `tfwire plan`: read `terraform show -json` plans.

use crate::failure::Failure;
use crate::input::Want;
use crate::mask::MaskArgs;
use crate::{input, output, schema, suggest};
use clap::{Subcommand, ValueEnum};
use std::io::IsTerminal;
use tfwire::TypedJson as _;
use tfwire::schema::ProviderSchemas;
use tfwire_json::{Escape, JsonWriter};
use tfwire_plan::{ChangeKind, ChangeSummary, Diff, Document, Filter, ResourceChange, Summary};
use tfwire_render::escape::{Inline, quote};
use tfwire_render::show;
use tfwire_render::summary as render_summary;

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
/// Lists every changed resource (no-op changes are left out unless moved or imported; the
/// JSON format lists them all),
/// marking moved resources (with their previous address), imports (with their ID, or the
/// resource identity when imported by identity), replacements (with the attributes that
/// force them), forgotten resources and deposed objects, then the resources changed
/// outside Terraform (drift), the changes deferred to a later plan (with the reason), and
/// the actions apply invokes (with what triggers each: a resource's lifecycle event, or
/// `-invoke`). The table and the tree end with the counts: `Changes:`, then `Drift:`,
/// `Outputs:`, `Deferred:` and `Actions: N to invoke` when there are any. The JSON format
/// also gives the numbers of the `Plan:` line the client that wrote the plan prints
/// (`plan_line`: Terraform's counts action invocations and says nothing of forgetting).
///
/// The default format is `table`, whether or not standard output is a terminal: a
/// format that changed when piped would surprise scripts and `| less`. On a terminal
/// the table is coloured unless NO_COLOR is set.
///
/// The JSON format is one object: format_version, terraform_version (if present), counts,
/// drift and deferred (create, update, delete, replace, read, no_op, forget, and joined keys
/// such as create+forget when they occur), changes, drift_changes and deferred_changes
/// (address, action, and previous_address, importing, import_id, import_identity,
/// import_unknown, action_reason, replace_paths, deposed, index_unknown and, for deferred
/// ones, deferred_reason when they apply), unfiltered ({"changes": n, "drift_changes": n}
/// of the whole plan) when filtered, outputs and output_changes, action_invocations and
/// deferred_action_invocations (address, type, provider_name, trigger: "lifecycle" with
/// triggered_by, event and on_failure, or "invoke" with calling_resource; deferred_reason),
/// client ("terraform" or "opentofu"), and plan_line (import, add, change, destroy, forget,
/// invoke, and text: the client's `Plan:` line, null when it prints none).
/// `no_op` is the one JSON spelling of the no-op action (keys and values, an identifier:
/// `.counts.no_op`); the table, tree and Markdown write `no-op`, as OpenTofu does;
/// --action and --fail-on take either.
///
/// The drift list is sorted like the changes: in document order in the table, tree and
/// JSON; in Markdown, by action in the order of the change sections.
///
/// Filters narrow the list and the counts; all given filters must match, and a filter
/// given several times (or with comma-separated values) matches any of its values.
/// Patterns (--type, --address, --module) are globs: `*` any text, `?` one character,
/// `\` quotes the next one; brackets are literal (`aws_instance.web[*]`).
///
/// The Markdown format names the attributes that change, never their values; a value the
/// masks (--mask, the mask file, the default list) match is treated as a sensitive one.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire plan summary plan.json\n  \
    tfwire plan summary --format markdown --max-bytes 65536 plan.json > comment.md\n  \
    tfwire plan summary --action replace,delete --module module.network plan.json\n  \
    tfwire plan summary --type 'aws_iam_*' --address '*[\"prod\"]*' plan.json\n  \
    tfwire plan summary --format tree --fail-on delete,replace plan.json\n  \
    terraform show -json plan.out | gzip | tfwire plan summary --format json -\n\n\
    Exit codes: 0 success, 1 input rejected or a change matched --fail-on, 2 usage error\n\
    (including a --max-bytes budget too small for even the totals) or, with\n\
    --detailed-exitcode, a plan with changes.")]
struct SummaryArgs {
    #[command(flatten)]
    masks: MaskArgs,
    /// The output format [default: table; markdown with --max-bytes].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Exit 2 when the plan (as filtered) has changes, 0 when it has none, as `terraform
    /// plan -detailed-exitcode` does (1 still means the input was rejected).
    #[arg(long)]
    detailed_exitcode: bool,
    /// Exit 1 (after printing the summary) when the plan (as filtered) has changes with
    /// one of these actions: create, update, delete, replace, read, forget, ...
    #[arg(long, value_name = "ACTION", value_delimiter = ',')]
    fail_on: Vec<String>,
    #[command(flatten)]
    color: ColorArgs,
    /// Markdown only: shrink the summary to at most N bytes (GitHub comments stop at
    /// 65536 characters): first collapse the details, then group the changes by resource
    /// type, then leave out groups (saying how many). The totals are always kept.
    #[arg(long, value_name = "N")]
    max_bytes: Option<usize>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Provider schemas (`tofu providers schema -json`, or a cache of them: `tfwire schema add`): check the plan against them
    /// before summarising it. Every resource value (`before` and `after` of each change and
    /// drift, `prior_state`, `planned_values`) is decoded with its resource type's schema,
    /// every identity (`before_identity`, `after_identity`, `importing.identity`, a
    /// resource's `identity` and its `identity_schema_version`) with the type's identity
    /// schema, every action's `config_values` with its action type's schema; a value that
    /// does not conform (with its path and byte), or a type the schemas lack, rejects the
    /// plan (exit 1) and nothing is summarised. A binary plan
    /// file's values are decoded with them in the first place.
    #[arg(long, value_name = "FILE|DIR")]
    schemas: Option<String>,
    #[command(flatten)]
    lock_file: crate::schema::LockFileArg,
    /// The plan: `show -json` output or a binary plan file (`tofu plan -out`), told apart
    /// by content (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "PLAN")]
    file: String,
}

/// With `--schemas`: every resource value of `doc` decodes with its resource type's
/// schema, every identity value with its identity schema (whose version must be the one the
/// document names), and every action configuration with its action type's schema, in place
/// on the document's tape (`show -json` writes values at `dynamic` positions as plain JSON).
fn check_values(
    doc: &Document<'_>,
    cache: &tfwire::schema::ProgramCache,
    name: &str,
    schemas_name: &str,
) -> Result<(), Failure> {
    use tfwire::schema::Kind;
    use tfwire_plan::Mode;
    use tfwire_plan::decode::{visit_action_configs, visit_identities, visit_values};
    let mut decoder = tfwire::Decoder::new(tfwire::Config::default().plain_dynamic(true));
    let mut arena = bumpalo::Bump::new();
    let schema_error =
        |e: tfwire::Error| format!("{} ({})", Inline(&e.to_string()), Inline(schemas_name));
    // Decodes one value with its program, in the arena emptied first.
    let mut conforms = |program: &tfwire::Program, json: tfwire_plan::Json<'_>| {
        arena.reset();
        match json.decode_typed(program, &mut decoder, &arena) {
            Ok(_) => Ok(()),
            Err(e) => Err(format!(
                "does not conform to the schema in {}: {}",
                Inline(schemas_name),
                Inline(&e.to_string())
            )),
        }
    };
    visit_values(doc, |site, json| {
        let which = site.role.member();
        let fail = |what: String| {
            Failure::Input(format!(
                "{}: {} {} ({which}): {what}",
                Inline(name),
                site.section,
                Inline(&site.address)
            ))
        };
        let kind = match site.mode {
            Mode::Managed => Kind::Resource,
            Mode::Data => Kind::DataSource,
            Mode::Other(m) => return Err(fail(format!("mode {} has no schema", quote(m)))),
        };
        let program = cache
            .get(site.provider_name.unwrap_or_default(), kind, site.type_name)
            .map_err(|e| fail(schema_error(e)))?;
        conforms(&program, json).map_err(fail)
    })?;
    visit_identities(doc, |site, json| {
        let fail = |what: String| {
            Failure::Input(format!(
                "{}: {} {} ({}): {what}",
                Inline(name),
                site.section,
                Inline(&site.address),
                site.role.member()
            ))
        };
        let provider = site.provider_name.unwrap_or_default();
        let schema = cache
            .identity(provider, site.type_name)
            .map_err(|e| fail(schema_error(e)))?;
        if let Some(v) = site.schema_version
            && i64::try_from(v).ok() != Some(schema.version)
        {
            // Terraform's `show -json` refuses such a state too: the value is of another
            // version of the identity schema (the provider upgrades it before use).
            return Err(fail(format!(
                "identity_schema_version is {v}, the identity schema in {} is version {}",
                Inline(schemas_name),
                schema.version
            )));
        }
        let program = cache
            .get(provider, Kind::Identity, site.type_name)
            .map_err(|e| fail(schema_error(e)))?;
        conforms(&program, json).map_err(fail)
    })?;
    let Document::Plan(plan) = doc else {
        return Ok(());
    };
    visit_action_configs(plan, |site, json| {
        let fail = |what: String| {
            Failure::Input(format!(
                "{}: {}[{}] {} (config_values): {what}",
                Inline(name),
                site.section,
                site.index,
                Inline(site.address)
            ))
        };
        let program = cache
            .get(
                site.provider_name.unwrap_or_default(),
                Kind::Action,
                site.type_name,
            )
            .map_err(|e| fail(schema_error(e)))?;
        conforms(&program, json).map_err(fail)
    })
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
    /// Leave out resources of this type (glob), e.g. 'aws_iam_*'.
    #[arg(long, value_name = "TYPE")]
    exclude_type: Vec<String>,
    /// Leave out resources at this address (glob; the address before a move counts too).
    #[arg(long, value_name = "GLOB")]
    exclude_address: Vec<String>,
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
        for t in &self.exclude_type {
            f = f.exclude_type_glob(t);
        }
        for a in &self.exclude_address {
            f = f.exclude_address_glob(a);
        }
        Ok(f)
    }

    /// What to say when the filters select nothing, with hints at the likely mistakes.
    fn nothing_matches(&self) -> String {
        let mut msg = format!("note: no resource change matches {}", self.describe());
        for m in &self.module {
            if m != "root" && !m.starts_with("module.") && !m.starts_with('*') {
                msg.push_str(&format!(
                    "\nhint: module addresses start with `module.`: --module module.{m}"
                ));
            }
        }
        for t in &self.type_name {
            if t.contains('.') {
                msg.push_str(&format!(
                    "\nhint: --type takes a resource type (e.g. aws_instance); for an address use --address '{t}'"
                ));
            }
        }
        for a in &self.address {
            if !a.contains(['*', '?']) && !a.contains('.') {
                msg.push_str(&format!(
                    "\nhint: --address takes a whole address (e.g. aws_instance.web[0]); for a type use --type {a}, or a glob: --address '*{a}*'"
                ));
            }
        }
        msg
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (flag, values) in [
            ("--action", &self.action),
            ("--type", &self.type_name),
            ("--address", &self.address),
            ("--module", &self.module),
            ("--exclude-type", &self.exclude_type),
            ("--exclude-address", &self.exclude_address),
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
    /// An aligned text table of the changes, then the counts (a column aligns on entries
    /// up to 128 characters; a longer one is written unpadded).
    Table,
    /// GitHub-flavoured Markdown, for pull request comments.
    Markdown,
    /// One JSON object.
    Json,
    /// The changes as a tree of modules, then the counts. Modules nest at most 32 levels:
    /// deeper steps are joined on one line, `(N more levels on one line) module.a.module.b`.
    Tree,
}

/// Show the plan as `tofu show -no-color PLANFILE` prints it (or `terraform show`, for a
/// plan Terraform wrote: see --wording), or one change of it.
///
/// With the provider schemas (--schemas, or those a redacted plan carries) the text is
/// OpenTofu's byte for byte where no mask applies (Terraform's, for a plan drawn with
/// Terraform's rules: its words, legend and headers, and where its renderer differs,
/// how lists are aligned, which empty strings count as null, write-only attributes,
/// forgotten objects, wholly unknown groups of blocks and strings holding JSON). The masks (--mask, the mask file and the
/// default list) hide values as sensitive ones are hidden, in the text and the JSON format
/// (tfwire's own view, masked too); the default list also hides values OpenTofu shows
/// (`password_wo_version`, an output named `not_secret`): with --no-default-masks and no
/// other mask the text is OpenTofu's. Without the schemas, what the JSON alone tells is still exact
/// (headers, reasons, moves, imports, ordering, the `Plan:` line, outputs); the values
/// are drawn from the JSON: nested blocks look like attributes holding lists or objects
/// (`block = [ { ... }, ]`, empty ones `= []`, sorted among the attributes and counted
/// as attributes when hidden); maps look like objects (keys unquoted, null members
/// shown, a removed entry without `-> null`); `# forces replacement` is said only of
/// top-level attributes with string, number or bool values; write-only attributes
/// (null in the JSON) are not listed.
///
/// The JSON records neither the terminal width nor the planning mode: prose wraps at 78
/// columns (OpenTofu's width when not writing to a terminal); `-destroy` or
/// `-refresh-only` is read from a binary plan file, and inferred for a JSON plan from what
/// it holds (no resource changes but managed resources in the prior state or drift:
/// refresh-only; no resource or output changes while the configuration declares some:
/// destroy); it changes only the texts of a plan without changes and which drift is drawn.
///
/// Limits of the drawing: `=` signs align on names up to 128 characters (a longer name
/// is written unpadded, the others align without it); values nest at most 32 levels deep,
/// deeper ones are drawn `# (nested deeper than 32 levels, not shown)`; a list's changed
/// middle (after its common first and last elements) is matched by the clients' longest
/// common subsequence up to 2^24 element pairs, above which its elements are shown
/// removed and added.
///
/// The JSON format is one object per change: address, action, and previous_address,
/// importing, import_id, import_identity, import_unknown, action_reason, replace_paths,
/// deposed and index_unknown when they apply (as `plan summary --format json` lists
/// changes), and `diff`: the
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
    #[command(flatten)]
    color: ColorArgs,
    #[command(flatten)]
    masks: MaskArgs,
    /// The output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    format: ShowFormat,
    /// Show unchanged attributes too.
    #[arg(long)]
    all: bool,
    /// The provider schemas (`tofu providers schema -json`, or a cache of them: `tfwire schema
    /// add`), for output identical to
    /// `tofu show`; without them (and without the schemas a redacted plan carries),
    /// blocks, maps and write-only attributes are drawn as the JSON shows them (see
    /// above). Required for a binary plan file, whose resource values are decoded with
    /// them (the schemas say which attributes are sensitive).
    #[arg(long, value_name = "FILE|DIR")]
    schemas: Option<String>,
    #[command(flatten)]
    lock_file: crate::schema::LockFileArg,
    /// Whose words and drawing rules to use: the client that wrote the plan (`auto`:
    /// Terraform for a plan with `applyable`/`complete`, which Terraform writes since 1.9,
    /// or a redacted plan; OpenTofu otherwise), OpenTofu's ("OpenTofu will perform ...")
    /// or Terraform's.
    #[arg(long, value_enum, default_value_t = Wording::Auto)]
    wording: Wording,
    /// The plan: `show -json` output or a binary plan file (`tofu plan -out`), told apart
    /// by content (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "PLAN")]
    file: String,
    /// The resource instance address, as `plan summary` prints it (the address before a
    /// move works too), or `output.NAME` for an output change. Without it, the whole plan
    /// is shown.
    #[arg(value_name = "ADDRESS")]
    address: Option<String>,
}

/// Whose words and drawing rules `plan show` and `state show` follow.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Wording {
    /// The client that wrote the document, as the document tells (a plan:
    /// `tfwire_plan::Plan::client`; a state: see `state show --help`).
    Auto,
    /// OpenTofu's: "OpenTofu will perform the following actions".
    Opentofu,
    /// Terraform's: "Terraform will perform the following actions".
    Terraform,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ShowFormat {
    /// A tree like `terraform plan`'s.
    Text,
    /// The merged view as JSON.
    Json,
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    match args.command {
        PlanCommand::Summary(a) => summary(a, limits),
        PlanCommand::Show(a) => show(a, limits),
    }
}

/// When to colour the output.
#[derive(clap::Args)]
struct ColorArgs {
    /// Colour the output: `auto` colours a terminal unless NO_COLOR is set or TERM is
    /// `dumb`, and colours any output when CLICOLOR_FORCE is set (not `0`).
    #[arg(long, value_enum, default_value_t = ColorMode::Auto, value_name = "WHEN")]
    color: ColorMode,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorMode {
    Auto,
    Always,
    Never,
}

impl ColorArgs {
    fn enabled(&self) -> bool {
        colour(self.color, std::io::stdout().is_terminal(), |k| {
            std::env::var_os(k)
        })
    }
}

/// Whether to colour: `always` and `never` as said; `auto` colours when `CLICOLOR_FORCE`
/// is set (not `0`), else a terminal whose `TERM` is not `dumb`; `NO_COLOR` (not empty)
/// turns `auto` off whatever else is set. `env` reads an environment variable.
fn colour(
    mode: ColorMode,
    terminal: bool,
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> bool {
    let env = |k: &str| env(k).filter(|v| !v.is_empty());
    match mode {
        ColorMode::Always => true,
        ColorMode::Never => false,
        ColorMode::Auto if env("NO_COLOR").is_some() => false,
        ColorMode::Auto if env("CLICOLOR_FORCE").is_some_and(|v| v != "0") => true,
        ColorMode::Auto => terminal && env("TERM").is_none_or(|t| t != "dumb"),
    }
}

fn summary(args: SummaryArgs, limits: input::Limits) -> Result<(), Failure> {
    let format = match (args.format, args.max_bytes) {
        (None, Some(_)) | (Some(Format::Markdown), _) => Format::Markdown,
        (Some(f), Some(_)) => {
            let name = match f {
                Format::Json => "json",
                Format::Tree => "tree",
                _ => "table",
            };
            return Err(Failure::Usage(format!(
                "--max-bytes applies to --format markdown, not --format {name}"
            )));
        }
        (Some(f), None) => f,
        (None, None) => Format::Table,
    };
    let filter = args.filters.filter()?;
    let mut fail_on = Filter::new();
    for a in &args.fail_on {
        fail_on = fail_on
            .action(a)
            .map_err(|e| Failure::Usage(format!("--fail-on: {e}")))?;
    }
    let name = input::display_name(&args.file).to_string();
    let masks = args.masks.masks()?;
    let versions = args.lock_file.versions(&args.file);
    let schemas = schema::cache(limits, args.schemas.as_deref(), versions)?;
    // Markdown shows which attributes change (a diff of the values), and `--schemas` checks
    // every value; otherwise a summary prints addresses and actions only, and reads the plan
    // without its values.
    let summary_only = format != Format::Markdown && args.schemas.is_none();
    input::with_document_for(
        limits,
        &args.file,
        Want::Plan(schemas.as_ref()),
        summary_only,
        |doc| {
            if let (Some(cache), Some(file), Document::Plan(_)) = (&schemas, &args.schemas, &doc) {
                check_values(&doc, cache, &name, input::display_name(file))?;
            }
            let plan = expect_plan(&name, doc)?;
            masked(plan, &masks, &name, |plan| {
                let mut summary = Summary::of(plan);
                if !filter.is_empty() {
                    summary = summary.filtered(&filter);
                    if summary.changes.is_empty() && summary.drift_changes.is_empty() {
                        eprintln!("{}", args.filters.nothing_matches());
                    }
                }
                let mut options = render_summary::Options::default();
                options.color = format != Format::Json && args.color.enabled();
                options.max_bytes = args.max_bytes;
                options.filters = args.filters.describe();
                let mut text = String::new();
                let written = match format {
                    Format::Json => {
                        render_summary::write_json(&mut text, &summary).map_err(Into::into)
                    }
                    Format::Table => render_summary::write_table(&mut text, &summary, &options)
                        .map_err(Into::into),
                    Format::Tree => render_summary::write_tree(&mut text, &summary, &options)
                        .map_err(Into::into),
                    Format::Markdown => {
                        render_summary::write_markdown(&mut text, plan, &summary, &options)
                    }
                };
                // Writing into a String fails in no other way.
                if let Err(render_summary::Error::Budget { max, need }) = written {
                    return Err(Failure::Usage(format!(
                        "--max-bytes {max} is too small: even the totals of this plan take \
                         {need} bytes"
                    )));
                }
                match format {
                    Format::Json => output::text(&text),
                    Format::Markdown => output::human(&text, false),
                    Format::Table | Format::Tree => output::human(&text, options.color),
                }?;
                gates(&summary, &fail_on, args.detailed_exitcode)
            })
        },
    )
}

/// The exit the CI gates ask for, after the summary is printed: 1 when a change matches
/// `--fail-on`, else 2 for changes (or 0 for none) under `--detailed-exitcode`.
fn gates(summary: &Summary<'_>, fail_on: &Filter, detailed: bool) -> Result<(), Failure> {
    if !fail_on.is_empty() {
        let hits: Vec<String> = summary
            .changes
            .iter()
            .filter(|c| fail_on.matches(c))
            .map(|c| {
                format!(
                    "{} ({})",
                    Inline(c.address),
                    Inline(&c.kind.key().replace('_', "-"))
                )
            })
            .collect();
        if !hits.is_empty() {
            return Err(Failure::Exit(
                1,
                Some(format!(
                    "tfwire: --fail-on: {} matching change(s): {}",
                    hits.len(),
                    hits.join(", ")
                )),
            ));
        }
    }
    if detailed {
        let resources = summary.changes.iter().any(|c| c.kind != ChangeKind::NoOp);
        // Output changes and action invocations (which make a plan applyable: Terraform's
        // `-detailed-exitcode` says 2) count only when nothing narrows the plan to resources.
        let unfiltered = summary.unfiltered.is_none();
        let outputs = unfiltered
            && (summary
                .output_changes
                .iter()
                .any(|o| o.kind != ChangeKind::NoOp)
                || !summary.action_invocations.is_empty());
        if resources || outputs {
            return Err(Failure::Exit(2, None));
        }
    }
    Ok(())
}

/// The provider schemas a redacted plan embeds (`provider_schemas`), loaded in place from
/// the plan's parsed document; `None`, with a warning on standard error, when they cannot
/// be loaded.
///
/// A warning, not a failure: the schemas only help the renderer (blocks drawn as blocks,
/// attributes sensitive by schema), and a plan renders correctly without them, as every
/// plan without embedded schemas does. Refusing the whole plan for them (say, a newer
/// schema format with a nesting mode this reader does not know) would leave the user with
/// nothing; dropping them silently would leave the user wondering why blocks look like
/// attributes. The warning names the path and byte offset in the plan; `--schemas FILE`
/// replaces the embedded schemas.
fn embedded_schemas(name: &str, ps: tfwire_plan::Json<'_>) -> Option<ProviderSchemas> {
    match ProviderSchemas::from_view(ps) {
        Ok(schemas) => Some(schemas),
        Err(e) => {
            let msg = format!(
                "warning: {}: the embedded provider schemas are not used ({e}); rendering without them",
                Inline(name)
            );
            eprintln!("{}", tfwire_render::escape::terminal(&msg, false));
            None
        }
    }
}

/// The plan in `doc`, or the error for a document of another kind.
fn expect_plan<'a>(name: &str, doc: Document<'a>) -> Result<&'a tfwire_plan::Plan<'a>, Failure> {
    match doc {
        Document::Plan(p) => Ok(p),
        other => Err(Failure::Input(format!(
            "{}: expected a plan, but this is {}",
            Inline(name),
            other.kind().describe()
        ))),
    }
}

fn show(args: ShowArgs, limits: input::Limits) -> Result<(), Failure> {
    let name = input::display_name(&args.file).to_string();
    let masks = args.masks.masks()?;
    let versions = args.lock_file.versions(&args.file);
    let cache = schema::cache(limits, args.schemas.as_deref(), versions)?;
    let mut human = show::Options {
        color: args.color.enabled(),
        dialect: show::Dialect::OpenTofu,
        all: args.all,
        mode: None,
    };
    // With an address, only that change's values are modelled.
    input::with_recorded_at(
        limits,
        &args.file,
        Want::PlanValues(cache.as_ref()),
        args.address.as_deref(),
        |doc, recorded| {
            use tfwire_planfile::proto::Mode;
            human.mode = recorded.mode.map(|m| match m {
                Mode::Normal => show::PlanMode::Normal,
                Mode::Destroy => show::PlanMode::Destroy,
                Mode::RefreshOnly => show::PlanMode::RefreshOnly,
            });
            let plan = expect_plan(&name, doc)?;
            let terraform = match args.wording {
                Wording::Auto => plan.client() == tfwire_plan::Client::Terraform,
                Wording::Opentofu => false,
                Wording::Terraform => true,
            };
            if terraform {
                human.dialect = show::Dialect::Terraform;
            }
            masked(plan, &masks, &name, |plan| {
                // A Terraform Cloud redacted plan carries its provider schemas.
                let embedded = match (&cache, plan.provider_schemas) {
                    (None, Some(ps)) => embedded_schemas(&name, ps),
                    _ => None,
                };
                let schemas = cache.as_ref().map(|c| c.schemas()).or(embedded.as_ref());
                let Some(address) = args.address.as_deref() else {
                    if args.format == ShowFormat::Json {
                        return Err(Failure::Usage(
                            "--format json shows one change: give its ADDRESS".into(),
                        ));
                    }
                    let text = show::render_plan(plan, schemas, human)
                        .map_err(|e| Failure::Input(format!("{}: {e}", Inline(&name))))?;
                    return output::human(&text, human.color);
                };
                if let Some(oc) = address
                    .strip_prefix("output.")
                    .and_then(|n| plan.output_changes.iter().find(|o| o.name == n))
                {
                    let text = match args.format {
                        ShowFormat::Json => {
                            let mut s = String::new();
                            let mut w = JsonWriter::new(&mut s, Escape::Safe);
                            // Writing to a String cannot fail.
                            let _ = (|| {
                                w.begin_object()?;
                                w.member_str("output", oc.name)?;
                                w.member_str("action", &oc.change.kind().key())?;
                                w.key("diff")?;
                                w.raw(&Diff::of(&oc.change).to_json())?;
                                w.end_object()
                            })();
                            s + "\n"
                        }
                        ShowFormat::Text => show::render_output(oc, human)
                            .map(|l| l + "\n")
                            .unwrap_or_default(),
                    };
                    return output::human(&text, human.color);
                }
                let mut found: Vec<&ResourceChange<'_>> = plan
                    .resource_changes
                    .iter()
                    .filter(|rc| rc.address == address)
                    .collect();
                if found.is_empty() {
                    found = plan
                        .resource_changes
                        .iter()
                        .filter(|rc| rc.previous_address == Some(address))
                        .collect();
                }
                if found.is_empty() {
                    let all: Vec<String> = plan
                        .resource_changes
                        .iter()
                        .map(|rc| rc.address.to_owned())
                        .collect();
                    return Err(Failure::Input(format!(
                        "{}: no resource change has the address {}{}",
                        Inline(&name),
                        quote(address),
                        suggest::near(address, &all, "tfwire plan summary", &args.file)
                    )));
                }
                let mut text = String::new();
                for (i, rc) in found.iter().enumerate() {
                    let diff = Diff::of(&rc.change);
                    match args.format {
                        ShowFormat::Json => {
                            text.push_str(&change_json(rc, &diff));
                            text.push('\n');
                        }
                        ShowFormat::Text => {
                            let section = show::render_change(plan, rc, schemas, human)
                                .map_err(|e| Failure::Input(format!("{}: {e}", Inline(&name))))?;
                            if let Some(section) = section {
                                if i > 0 {
                                    text.push('\n');
                                }
                                text.push_str(&section);
                                text.push('\n');
                            }
                        }
                    }
                }
                output::human(&text, human.color)
            })
        },
    )
}

/// Runs `f` on `plan` as the masks see it ([`tfwire_plan::with_masked_plan`]: the one place
/// a plan's readers learn what the masks hide).
fn masked<R>(
    plan: &tfwire_plan::Plan<'_>,
    masks: &tfwire::mask::Masks,
    name: &str,
    f: impl FnOnce(&tfwire_plan::Plan<'_>) -> Result<R, Failure>,
) -> Result<R, Failure> {
    tfwire_plan::with_masked_plan(plan, masks, f)
        .map_err(|e| Failure::Input(format!("{}: masks: {e}", Inline(name))))?
}

/// One change of `plan show --format json`: the change's members as `plan summary` writes
/// them ([`render_summary::write_change_members`], the one writer of that shape), then `diff`.
fn change_json(rc: &ResourceChange<'_>, diff: &Diff<'_>) -> String {
    let mut s = String::new();
    let mut w = JsonWriter::new(&mut s, Escape::Safe);
    // Writing to a String cannot fail.
    let _ = (|| {
        w.begin_object()?;
        render_summary::write_change_members(&mut w, &ChangeSummary::of(rc))?;
        w.key("diff")?;
        w.raw(&diff.to_json())?;
        w.end_object()
    })();
    s
}

#[cfg(test)]
mod tests {
    use super::{ColorMode, colour};

    /// Every case of `--color` and the environment (a terminal cannot be had in the tests
    /// that run the binary through pipes).
    #[test]
    fn colour_decision() {
        /// `--color`, whether stdout is a terminal, the environment, and the answer.
        type Case = (
            ColorMode,
            bool,
            &'static [(&'static str, &'static str)],
            bool,
        );
        let cases: &[Case] = &[
            (ColorMode::Always, false, &[("NO_COLOR", "1")], true),
            (ColorMode::Never, true, &[("CLICOLOR_FORCE", "1")], false),
            (ColorMode::Auto, true, &[], true),
            (ColorMode::Auto, false, &[], false),
            (ColorMode::Auto, true, &[("TERM", "dumb")], false),
            (ColorMode::Auto, true, &[("TERM", "xterm-256color")], true),
            (ColorMode::Auto, true, &[("NO_COLOR", "1")], false),
            (ColorMode::Auto, true, &[("NO_COLOR", "")], true),
            (ColorMode::Auto, false, &[("CLICOLOR_FORCE", "1")], true),
            (ColorMode::Auto, false, &[("CLICOLOR_FORCE", "0")], false),
            (
                ColorMode::Auto,
                false,
                &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")],
                true,
            ),
            (
                ColorMode::Auto,
                true,
                &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
                false,
            ),
        ];
        for (i, &(mode, terminal, vars, want)) in cases.iter().enumerate() {
            let env = |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            };
            assert_eq!(colour(mode, terminal, env), want, "case {i}");
        }
    }
}
