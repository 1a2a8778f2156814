//! `tfwire schema`: what a provider schema document holds; and the `--schema` options that
//! let `decode` (and `encode`) use a resource's schema instead of a type.

use crate::failure::Failure;
use crate::{input, output};
use std::fmt::Write as _;
use tfwire::Program;
use tfwire::schema::{Block, ProgramCache, ProviderSchema, ProviderSchemas};
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

/// Loads `--schemas FILE` (`tofu providers schema -json`) as a program cache.
pub(crate) fn cache(
    limits: input::Limits,
    path: Option<&str>,
) -> Result<Option<ProgramCache>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    Ok(Some(ProgramCache::new(load(limits, path)?)))
}

pub(crate) fn load(limits: input::Limits, path: &str) -> Result<ProviderSchemas, Failure> {
    let bytes = input::read(limits, Some(path))?;
    let name = input::display_name(path);
    ProviderSchemas::from_json(&bytes).map_err(|e| Failure::Input(format!("{name}: {e}")))
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

/// List the providers and types of a schema document, or print a type's implied type.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  tfwire schema schemas.json\n  \
                        tfwire schema schemas.json --resource aws_instance\n  \
                        tfwire schema schemas.json --resource aws_ami --data-source --provider aws")]
pub(crate) struct Args {
    /// The `terraform providers schema -json` document (`-` for standard input).
    file: String,
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

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    if args.resource.is_some() {
        let select = Select {
            schema: Some(args.file.clone()),
            resource: args.resource.clone(),
            data_source: args.data_source,
            provider: args.provider.clone(),
        };
        return output::text(&select.block(limits)?.implied_type().to_json());
    }
    let doc = load(limits, &args.file)?;
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
