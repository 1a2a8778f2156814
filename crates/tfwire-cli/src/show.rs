//! `tfwire show -json`: the document `tofu show -json` / `terraform show -json` writes for
//! a plan file or a raw state, with provider schemas from a file or a cache directory, no
//! provider launched.

use crate::failure::Failure;
use crate::{input, schema};
use std::io::{IsTerminal, Write};
use tfwire::schema::ProgramCache;
use tfwire_config::Selection;
use tfwire_json::tape::{DEFAULT_MAX_DEPTH, INPUT_PADDING, TapeParser};
use tfwire_planfile::Planfile;
use tfwire_render::escape::Inline;

/// Write what `tofu show -json` / `terraform show -json` writes for a plan or state file.
///
/// The document is written byte for byte as the client writes it, without launching a
/// provider: the schemas come from --schemas, a `providers schema -json` document or a
/// cache directory (`tfwire schema add`). `-json` is spelled as the clients spell it (`--json` works too); this
/// command writes JSON only: for the human rendering, use `tfwire plan show` or `tfwire
/// state show`.
///
/// The input is told by its content: a plan file (`tofu plan -out`), or a raw state
/// (`terraform.tfstate`, version 4). A document `show -json` already wrote is refused, as
/// the clients refuse it.
///
/// With a cache directory, a plan file's own lock file says which version of each provider
/// to take; a state carries none: --lock-file, or else the cache's only version of each
/// provider the state names.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire show -json plan.tfplan --schemas ~/.cache/tfwire/schemas\n  \
    tfwire show -json terraform.tfstate --schemas schemas.json -o state.json")]
pub(crate) struct Args {
    /// Write the JSON document (`-json`, as the clients spell it, or `--json`).
    #[arg(long)]
    json: bool,
    /// The plan file or state file (`-`: standard input).
    #[arg(value_name = "PLANFILE|STATEFILE")]
    file: String,
    /// The provider schemas: a `providers schema -json` document, or a cache directory.
    #[arg(long, value_name = "FILE|DIR")]
    schemas: String,
    /// With --schemas DIR: the dependency lock file that says which version of each
    /// provider to take (a plan file's own lock file otherwise).
    #[arg(long, value_name = "FILE")]
    lock_file: Option<String>,
    /// Write the document to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
}

/// `-json` as the clients spell it: after the `show` command (not `plan show` or `state
/// show`), the argument `-json` is rewritten to `--json` before the command line is parsed
/// (clap's long options take two dashes).
pub(crate) fn spelling(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut show = false;
    let mut previous = std::ffi::OsString::new();
    args.map(|a| {
        if show && a == "-json" {
            return "--json".into();
        }
        show = show || (a == "show" && previous != "plan" && previous != "state");
        previous.clone_from(&a);
        a
    })
    .collect()
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    if !args.json {
        return Err(Failure::Usage(
            "tfwire show writes the `show -json` document only: give -json (the human \
             rendering is `tfwire plan show PLANFILE` or `tfwire state show STATE ADDRESS`)"
                .into(),
        ));
    }
    let name = input::display_name(&args.file);
    let bytes = input::read(limits, Some(&args.file))?;
    let mut text = if tfwire_planfile::is_zip(&bytes) || bytes.starts_with(b"tfplan") {
        let pf = Planfile::read_with(&bytes, &limits.planfile_config())
            .map_err(|e| Failure::Input(format!("{name}: {}", Inline(&e.to_string()))))?;
        let schemas = schemas(
            limits,
            &args,
            pf.lock_file(),
            &pf.plan.terraform_version,
            None,
        )?;
        let doc = plan_document(&pf, &schemas)
            .map_err(|e| Failure::Input(format!("{name}: {}", Inline(&e))))?;
        // The process ends once the document is written: the plan's thousands of values
        // go back to the system with it instead of being freed one by one first.
        std::mem::forget(pf);
        doc
    } else {
        let client = state_client(&bytes, name)?;
        let schemas = schemas(limits, &args, None, &client, Some(&bytes))?;
        state_document(bytes, &schemas)
            .map_err(|e| Failure::Input(format!("{name}: {}", Inline(&e))))?
    };
    text.push('\n');
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure::Input(format!("writing {}: {e}", Inline(path)))),
        None if std::io::stdout().is_terminal() => crate::output::human(&text, false),
        None => {
            // The document as the client writes it, byte for byte (on a terminal, the
            // characters that could act on it are written as JSON escapes: the same value).
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(Failure::Input(format!("writing standard output: {e}")))
                }
                _ => Ok(()),
            }
        }
    }
}

/// The schemas of --schemas: a document, or a cache directory's, chosen by --lock-file,
/// the plan file's own lock file, or the text of the state.
fn schemas(
    limits: input::Limits,
    args: &Args,
    own_lock: Option<&[u8]>,
    client: &str,
    named_in: Option<&[u8]>,
) -> Result<ProgramCache, Failure> {
    if !std::path::Path::new(&args.schemas).is_dir() {
        return Ok(ProgramCache::new(schema::load(
            limits,
            &args.schemas,
            schema::Versions::default(),
        )?));
    }
    let selection = Selection {
        client_version: Some(client).filter(|c| !c.is_empty()),
        named_in,
        ..Selection::default()
    };
    let doc = schema::from_cache(
        limits,
        &args.schemas,
        args.lock_file.as_deref(),
        own_lock,
        selection,
    )?;
    Ok(ProgramCache::new(doc))
}

/// A JSON input: a raw state of version 4 (its `terraform_version` returned), or refused
/// with what it is.
fn state_client(bytes: &[u8], name: &str) -> Result<String, Failure> {
    let fail = |m: String| Failure::Input(format!("{name}: {m}"));
    let mut buf = Vec::with_capacity(bytes.len() + INPUT_PADDING);
    buf.extend_from_slice(bytes);
    buf.resize(bytes.len() + INPUT_PADDING, b' ');
    let shape = tfwire_json::json_shape(bytes, DEFAULT_MAX_DEPTH, bytes.len())
        .map_err(|e| fail(format!("not a plan file, and not a JSON state: {e}")))?;
    let mut parser = TapeParser::new(DEFAULT_MAX_DEPTH);
    let doc = parser
        .parse_document(&mut buf, bytes.len(), &shape)
        .map_err(|e| fail(format!("not a plan file, and not a JSON state: {e}")))?;
    let root = doc.root();
    if root.get("format_version").is_some() {
        return Err(fail(
            "this is a `show -json` document already; give the plan file or the state file \
             it was written from"
                .into(),
        ));
    }
    match root.get("version").and_then(|v| v.as_u64()) {
        Some(4) => Ok(root
            .get("terraform_version")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()),
        Some(n) => Err(fail(format!(
            "a state of version {n}: only version 4 (Terraform 0.12 and later, OpenTofu) is read"
        ))),
        None => Err(fail(
            "neither a plan file nor a state (no `version` member)".into(),
        )),
    }
}

/// The whole `show -json` document of a plan file.
///
/// MERGE ADAPTER: calls `Planfile::to_json` (tfwire's subset: no `planned_values`,
/// `prior_state`, `configuration`) until `Planfile::show_json` is in the build; then this
/// body becomes `pf.show_json(schemas).map_err(|e| e.to_string())`.
fn plan_document(pf: &Planfile, schemas: &ProgramCache) -> Result<String, String> {
    pf.show_json(schemas).map_err(|e| e.to_string())
}

/// The `show -json` document of a raw state (version 4), parsed in place.
///
/// MERGE ADAPTER: tfwire-plan's state writer is not in this build; with it, this body
/// becomes `tfwire_plan::state_show_json(&mut state, schemas, None).map_err(|e|
/// e.to_string())`.
fn state_document(state: Vec<u8>, schemas: &ProgramCache) -> Result<String, String> {
    let mut state = state;
    tfwire_plan::state_show_json(&mut state, schemas, None).map_err(|e| e.to_string())
}
