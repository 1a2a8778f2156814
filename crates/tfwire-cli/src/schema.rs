//! `tfwire schema`: what a provider schema document holds; and the `--schema` options that
//! let `decode` (and `encode`) use a resource's schema instead of a type.

use crate::failure::Failure;
use crate::{input, output};
use std::fmt::Write as _;
use tfwire::Program;
use tfwire::schema::{Block, ProgramCache, ProviderSchema, ProviderSchemas};
use tfwire_config::{LockFile, Outcome, ProviderAddress, SchemaCache, Selection};
use tfwire_planfile::Planfile;
use tfwire_render::escape::{Inline, quote};

/// Choosing a block in a `providers schema -json` document.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct Select {
    /// A `terraform providers schema -json` document to take the type from (with --resource).
    #[arg(long, value_name = "FILE")]
    pub(crate) schema: Option<String>,
    /// The resource type (or, with --data-source, data source) whose schema to use; not
    /// needed when FILE is a bare block.
    #[arg(long, value_name = "TYPE", requires = "schema")]
    pub(crate) resource: Option<String>,
    /// --resource names a data source.
    #[arg(long, requires = "schema")]
    pub(crate) data_source: bool,
    /// The provider (full address or short name); needed when the document has several.
    #[arg(long, value_name = "ADDR", requires = "schema")]
    pub(crate) provider: Option<String>,
}

impl Select {
    /// The selected block.
    pub(crate) fn block(&self, limits: input::Limits) -> Result<Block, Failure> {
        let path = self
            .schema
            .as_deref()
            .ok_or_else(|| Failure::Usage("--schema is required".into()))?;
        let bytes = input::read(limits, Some(path))?;
        if looks_like_block(&bytes) {
            // A bare block (a schema's "block", terraform-json's SchemaBlock): no type to choose.
            return Block::from_json(&bytes).map_err(|e| Failure::Input(format!("{path}: {e}")));
        }
        let doc = ProviderSchemas::from_json(&bytes)
            .map_err(|e| Failure::Input(format!("{path}: {e}")))?;
        let (addr, p) = provider(&doc, self.provider.as_deref())?;
        let Some(name) = &self.resource else {
            return Err(Failure::Usage(
                "--resource TYPE is required with --schema".into(),
            ));
        };
        let (map, what) = if self.data_source {
            (&p.data_sources, "data source")
        } else {
            (&p.resources, "resource type")
        };
        match map.get(name) {
            Some(s) => Ok(s.block.clone()),
            None => Err(Failure::Input(format!(
                "{}: {} has no {what} {}{}",
                Inline(path),
                Inline(addr),
                quote(name),
                suggest(map.keys(), name)
            ))),
        }
    }

    /// The program for the selected block.
    pub(crate) fn program(&self, limits: input::Limits) -> Result<Program, Failure> {
        Ok(Program::from_block(&self.block(limits)?))
    }
}

/// Whether a document is a bare block rather than a `providers schema -json` document.
fn looks_like_block(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let has = |k: &[u8]| head.windows(k.len()).any(|w| w == k);
    !has(b"\"provider_schemas\"")
        && !has(b"\"format_version\"")
        && (has(b"\"attributes\"") || has(b"\"block_types\""))
}

/// Where the versions of a `--schemas DIR` cache come from: `--lock-file`, else the
/// lock file of the input (a plan file), else the only cached version of each provider the
/// input names.
#[derive(Clone, Copy, Default)]
pub(crate) struct Versions<'a> {
    /// `--lock-file FILE`.
    pub(crate) lock_file: Option<&'a str>,
    /// The document the schemas are for (read once more, for its lock file or its text).
    pub(crate) input: Option<&'a str>,
}

/// `--lock-file FILE` of a command that reads a JSON document or a plan file.
#[derive(clap::Args)]
pub(crate) struct LockFileArg {
    /// With --schemas DIR for a JSON document (which carries no lock file): the dependency
    /// lock file that says which version of each provider to take (without it, the
    /// cache's only version of each provider the document names). A plan file's own lock
    /// file is used otherwise.
    #[arg(long, value_name = "FILE")]
    lock_file: Option<String>,
}

impl LockFileArg {
    /// The versions for the schemas of `input` (the document's file name).
    pub(crate) fn versions<'a>(&'a self, input: &'a str) -> Versions<'a> {
        Versions {
            lock_file: self.lock_file.as_deref(),
            input: Some(input),
        }
    }
}

/// Loads `--schemas FILE|DIR` (`tofu providers schema -json`, or a cache of them) as a
/// program cache.
pub(crate) fn cache(
    limits: input::Limits,
    path: Option<&str>,
    versions: Versions<'_>,
) -> Result<Option<ProgramCache>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    Ok(Some(ProgramCache::new(load(limits, path, versions)?)))
}

/// Loads `--schemas FILE|DIR`: the document, or the schemas a cache directory holds for
/// the versions `versions` gives.
pub(crate) fn load(
    limits: input::Limits,
    path: &str,
    versions: Versions<'_>,
) -> Result<ProviderSchemas, Failure> {
    if std::path::Path::new(path).is_dir() {
        let mut lock = None;
        let mut named_in = None;
        let mut client = None;
        if versions.lock_file.is_none()
            && let Some(input) = versions.input.filter(|i| *i != "-")
        {
            let bytes = input::read(limits, Some(input))?;
            if tfwire_planfile::is_zip(&bytes) {
                let name = input::display_name(input);
                let pf = Planfile::read_with(&bytes, &limits.planfile_config())
                    .map_err(|e| Failure::Input(format!("{name}: {}", Inline(&e.to_string()))))?;
                lock = pf.lock_file().map(<[u8]>::to_vec);
                client = Some(pf.plan.terraform_version);
            } else {
                named_in = Some(bytes);
            }
        }
        let selection = Selection {
            client_version: client.as_deref(),
            named_in: named_in.as_deref(),
            ..Selection::default()
        };
        return from_cache(limits, path, versions.lock_file, lock.as_deref(), selection);
    }
    let bytes = input::read(limits, Some(path))?;
    let name = input::display_name(path);
    ProviderSchemas::from_json(&bytes).map_err(|e| Failure::Input(format!("{name}: {e}")))
}

/// The schemas of a cache directory, the versions chosen by `--lock-file` (when given), or
/// else by `own_lock` (the input's own lock file), or else as `selection` says.
pub(crate) fn from_cache(
    limits: input::Limits,
    dir: &str,
    lock_file: Option<&str>,
    own_lock: Option<&[u8]>,
    selection: Selection<'_>,
) -> Result<ProviderSchemas, Failure> {
    let given = lock_file
        .map(|f| input::read(limits, Some(f)))
        .transpose()?;
    let lock = match (lock_file, given.as_deref().or(own_lock)) {
        (_, None) => None,
        (name, Some(bytes)) => Some(LockFile::parse(bytes).map_err(|e| {
            let name = name.map_or("the plan file's lock file", input::display_name);
            Failure::Input(format!("{}: {}", Inline(name), Inline(&e.to_string())))
        })?),
    };
    let cache = SchemaCache::new(dir, limits.max_input_bytes());
    let selection = Selection {
        lock: lock.as_ref(),
        ..selection
    };
    cache.select(&selection).map_err(|e| {
        cache_failure(
            &e,
            dir,
            "pass --lock-file FILE (the configuration's .terraform.lock.hcl)",
        )
    })
}

/// A cache error, with what to run when a schema is missing, and `which` when nothing says
/// which version to take.
fn cache_failure(e: &tfwire_config::Error, dir: &str, which: &str) -> Failure {
    use tfwire_config::ErrorKind::{NotCached, VersionUnknown};
    let hint = match e.kind() {
        NotCached { address, .. } => {
            let client = if address.starts_with("registry.terraform.io/") {
                "terraform"
            } else {
                "tofu"
            };
            format!(
                "; fill it, in the plan's working directory: `{client} providers schema -json > \
                 s.json && tfwire schema add --plan PLANFILE --cache {} s.json`",
                Inline(dir)
            )
        }
        VersionUnknown { .. } => format!(": {which}"),
        _ => String::new(),
    };
    Failure::Input(format!("{}{hint}", Inline(&e.to_string())))
}

pub(crate) fn provider<'d>(
    doc: &'d ProviderSchemas,
    addr: Option<&str>,
) -> Result<(&'d str, &'d ProviderSchema), Failure> {
    match addr {
        Some(a) => {
            let key = doc.provider_key(a).ok_or_else(|| {
                Failure::Input(format!(
                    "no provider {} in the document (it has: {})",
                    quote(a),
                    list(doc.providers.keys())
                ))
            })?;
            Ok((key, &doc.providers[key]))
        }
        None if doc.providers.len() == 1 => {
            let (k, p) = doc.providers.iter().next().expect("one provider");
            Ok((k, p))
        }
        // The document is what lacks a provider: an input error, not a usage error.
        None if doc.providers.is_empty() => Err(Failure::Input(
            "the document has no provider schemas".into(),
        )),
        None => Err(Failure::Usage(format!(
            "the document has {} providers: choose one with --provider ({})",
            doc.providers.len(),
            list(doc.providers.keys())
        ))),
    }
}

/// At most this many names are listed in one message.
const LISTED: usize = 10;

/// The first [`LISTED`] names, comma-separated, and how many more there are.
fn list<'a>(names: impl ExactSizeIterator<Item = &'a String>) -> String {
    let n = names.len();
    let mut shown: Vec<String> = names.take(LISTED).map(|n| Inline(n).to_string()).collect();
    if shown.is_empty() {
        return "none".into();
    }
    let more = n - shown.len();
    let more = if more > 0 {
        format!(" and {more} more; `tfwire schema FILE` lists them")
    } else {
        String::new()
    };
    shown.dedup();
    format!("{}{more}", shown.join(", "))
}

/// " (did you mean …?)" for the names that share the longest prefix with `name`.
fn suggest<'a>(names: impl Iterator<Item = &'a String>, name: &str) -> String {
    let common = |a: &str| {
        a.bytes()
            .zip(name.bytes())
            .take_while(|(x, y)| x == y)
            .count()
    };
    let mut best: Vec<(usize, &str)> = names
        .map(|n| (common(n), n.as_str()))
        .filter(|(c, _)| *c >= 3)
        .collect();
    best.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let top = best.first().map_or(0, |b| b.0);
    best.retain(|b| b.0 == top);
    best.truncate(3);
    if best.is_empty() {
        String::new()
    } else {
        format!(
            " (did you mean {}?)",
            best.iter()
                .map(|(_, n)| quote(n))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// List the providers and types of a schema document, or print a type's implied type; or
/// file schema documents into a cache directory (`schema add`) and list it (`schema list`).
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  tfwire schema schemas.json\n  \
                  tfwire schema schemas.json --resource aws_instance\n  \
                  tfwire schema schemas.json --resource aws_ami --data-source --provider aws\n  \
                  tfwire schema add --plan plan.tfplan --cache ~/.cache/tfwire/schemas s.json\n  \
                  tfwire schema list --cache ~/.cache/tfwire/schemas"
)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Option<CacheCommand>,
    /// The `terraform providers schema -json` document (`-` for standard input).
    file: Option<String>,
    /// Print the implied type JSON of this resource type (or, with --data-source, data
    /// source).
    #[arg(long, value_name = "TYPE")]
    resource: Option<String>,
    /// --resource names a data source.
    #[arg(long, requires = "resource")]
    data_source: bool,
    /// The provider (full address or short name); needed with --resource when the document
    /// has several.
    #[arg(long, value_name = "ADDR")]
    provider: Option<String>,
}

/// The schema cache: a directory of `providers schema -json` documents, one a provider and
/// version, `DIR/<host>/<namespace>/<type>/<version>.json`, that `--schemas DIR` reads.
#[derive(clap::Subcommand)]
enum CacheCommand {
    Add(AddArgs),
    List(ListArgs),
}

/// File `providers schema -json` documents into a schema cache directory.
///
/// Each provider of each document is filed as `DIR/<host>/<namespace>/<type>/<version>.json`
/// (a `providers schema -json` document of that provider alone), under the version the
/// plan file's lock file (or --lock-file, or --version) gives; built-in providers
/// (`terraform.io/builtin/...`) take the version of the client that made the plan. A
/// provider with no known version is an error and nothing is filed; filing the same schema
/// again changes nothing. Each file is written whole (a temporary file renamed). Prints one
/// line a provider: `added|unchanged|replaced ADDRESS VERSION FILE`.
#[derive(clap::Args)]
struct AddArgs {
    /// The cache directory (created when needed).
    #[arg(long, value_name = "DIR")]
    cache: String,
    /// The plan file (`tofu plan -out`) whose lock file gives the versions; built-in
    /// providers (`terraform.io/builtin/...`) take the version of the client that planned.
    #[arg(long, value_name = "PLANFILE", conflicts_with = "lock_file")]
    plan: Option<String>,
    /// The dependency lock file (`.terraform.lock.hcl`) that gives the versions.
    #[arg(long, value_name = "FILE")]
    lock_file: Option<String>,
    /// The version of one provider, over what the lock file says (repeatable).
    #[arg(long = "version", value_name = "ADDR=VERSION")]
    versions: Vec<String>,
    /// The `providers schema -json` documents (`-` for standard input).
    #[arg(required = true, value_name = "DOC")]
    docs: Vec<String>,
}

/// List the schemas of a cache directory: address and version, one a line.
#[derive(clap::Args)]
struct ListArgs {
    /// The cache directory.
    #[arg(long, value_name = "DIR")]
    cache: String,
}

fn add(args: AddArgs, limits: input::Limits) -> Result<(), Failure> {
    let normal = |a: &str| ProviderAddress::parse(a).map(|a| a.to_string());
    let mut known: std::collections::BTreeMap<String, String> = Default::default();
    let mut client = None;
    let (lock, name) = match (&args.plan, &args.lock_file) {
        (Some(plan), _) => {
            let bytes = input::read(limits, Some(plan))?;
            let name = input::display_name(plan);
            let pf = Planfile::read_with(&bytes, &limits.planfile_config())
                .map_err(|e| Failure::Input(format!("{name}: {}", Inline(&e.to_string()))))?;
            client = Some(pf.plan.terraform_version.clone());
            (pf.lock_file().map(<[u8]>::to_vec), name)
        }
        (None, Some(file)) => (Some(input::read(limits, Some(file))?), file.as_str()),
        (None, None) => (None, ""),
    };
    if let Some(bytes) = lock {
        let lock = LockFile::parse(&bytes)
            .map_err(|e| Failure::Input(format!("{}: {}", Inline(name), Inline(&e.to_string()))))?;
        for p in lock.providers() {
            known.insert(
                normal(&p.address).map_err(Failure::Input)?,
                p.version.clone(),
            );
        }
    }
    for v in &args.versions {
        let Some((addr, version)) = v.split_once('=') else {
            return Err(Failure::Usage(format!(
                "--version {}: expected ADDR=VERSION",
                Inline(v)
            )));
        };
        known.insert(normal(addr).map_err(Failure::Usage)?, version.to_owned());
    }
    let version_of = |key: &str| {
        let a = ProviderAddress::parse(key).ok()?;
        known.get(&a.to_string()).cloned().or_else(|| {
            a.is_builtin()
                .then(|| client.clone().filter(|c| !c.is_empty()))
                .flatten()
        })
    };
    let cache = SchemaCache::new(&args.cache, limits.max_input_bytes());
    let mut out = String::new();
    for doc in &args.docs {
        let bytes = input::read(limits, Some(doc))?;
        let filed = cache.add(&bytes, version_of).map_err(|e| {
            let which = "give --plan PLANFILE, --lock-file FILE or --version ADDR=VERSION";
            let e = cache_failure(&e, &args.cache, which);
            match e {
                Failure::Input(m) => {
                    Failure::Input(format!("{}: {m}", Inline(input::display_name(doc))))
                }
                other => other,
            }
        })?;
        for f in filed {
            let what = match f.outcome {
                Outcome::Added => "added",
                Outcome::Unchanged => "unchanged",
                Outcome::Replaced => "replaced",
            };
            let _ = writeln!(
                out,
                "{what} {} {} {}",
                f.address,
                Inline(&f.version),
                Inline(&f.path.display().to_string())
            );
        }
    }
    output::human(&out, false)
}

fn list_cache(args: ListArgs, limits: input::Limits) -> Result<(), Failure> {
    let cache = SchemaCache::new(&args.cache, limits.max_input_bytes());
    let mut out = String::new();
    for e in cache
        .entries()
        .map_err(|e| cache_failure(&e, &args.cache, ""))?
    {
        let _ = writeln!(out, "{} {}", e.address, Inline(&e.version));
    }
    output::human(&out, false)
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    match args.command {
        Some(CacheCommand::Add(a)) => return add(a, limits),
        Some(CacheCommand::List(a)) => return list_cache(a, limits),
        None => {}
    }
    let Some(file) = args.file.clone() else {
        return Err(Failure::Usage(
            "give a `providers schema -json` document, or `add`/`list` with --cache DIR".into(),
        ));
    };
    if args.resource.is_some() {
        let select = Select {
            schema: Some(file),
            resource: args.resource.clone(),
            data_source: args.data_source,
            provider: args.provider.clone(),
        };
        return output::text(&select.block(limits)?.implied_type().to_json());
    }
    let doc = load(limits, &file, Versions::default())?;
    let mut out = String::new();
    for (addr, p) in &doc.providers {
        if args
            .provider
            .as_deref()
            .is_some_and(|want| doc.provider_key(want) != Some(addr.as_str()))
        {
            continue;
        }
        let _ = writeln!(out, "{}", Inline(addr));
        let names = |m: &std::collections::BTreeMap<String, tfwire::schema::Schema>| {
            m.keys().cloned().collect::<Vec<_>>()
        };
        for (label, list) in [
            ("resource", names(&p.resources)),
            ("identity", p.identities.keys().cloned().collect()),
            ("data source", names(&p.data_sources)),
            ("ephemeral resource", names(&p.ephemeral_resources)),
            ("list resource", names(&p.list_resources)),
            ("action", names(&p.actions)),
            ("function", p.functions.keys().cloned().collect()),
            ("state store", names(&p.state_stores)),
        ] {
            for name in list {
                let _ = writeln!(out, "  {label:<18} {}", Inline(&name));
            }
        }
        // Kinds newer than this reader: named, so that nothing is left out unseen.
        for key in &p.unread {
            let _ = writeln!(out, "  {:<18} {}", "(not read)", Inline(key));
        }
    }
    output::human(&out, false)
}
