//! `tfwire dump`: a `TF_LOG_SDK_PROTO_DATA_DIR` directory as JSON lines, decoded with the
//! provider's schemas, sensitive attributes masked.

use crate::failure::Failure;
use crate::schema::provider;
use crate::{input, output};
use std::collections::HashMap;
use std::path::Path;
use tfwire::schema::ProviderSchemas;
use tfwire::{Config, Decoder, DynamicValue};
use tfwire_plugin::log::{Outcome, Record};
use tfwire_plugin::rpc::Direction;
use tfwire_plugin::{Programs, SchemaRef, Schemas};

/// Decode a directory of raw plugin protocol values (`TF_LOG_SDK_PROTO_DATA_DIR`).
///
/// terraform-plugin-go writes each `DynamicValue` it receives or sends to a file named
/// `{TIME}_{RPC}_{MESSAGE}_{FIELD}.{msgpack|json}`. `dump` prints one JSON line per file, in
/// file name order: `time`, `rpc`, `direction`, `type_name` (when known), `field`, `file`,
/// `bytes`, and `value` (plain JSON; every attribute the schema marks sensitive or write-only
/// is "(sensitive)", unknown values are "(known after apply)") or `error` (the path inside
/// the value, the message and the byte offset). Values the masks match (see the Masks
/// options) are "(sensitive)" too.
///
/// The files do not name the resource type. It is read from an index beside them when there
/// is one (`index.json` of the project's real-client corpus, or the `index.jsonl` its test
/// provider writes); otherwise the value is decoded with every schema of its kind, and the
/// type is the one schema that accepts it (`"type_inferred":true`), or an error line says how
/// many did. Private state (`*Private` fields) and empty files are not values and are skipped.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tfwire dump proto-data/ --schemas schemas.json\n\n\
                  Exit codes: 0 every value decoded, 1 a value did not decode (all lines are \
                  printed first) or the input was rejected, 2 usage error."
)]
pub(crate) struct Args {
    #[command(flatten)]
    masks: crate::mask::MaskArgs,
    /// The directory of captured values.
    dir: String,
    /// The provider's schemas: a `providers schema -json` document.
    #[arg(long, value_name = "FILE")]
    schemas: String,
    /// The provider (full address or short name), when the document has several; by default
    /// the index's provider, or the document's only one.
    #[arg(long, value_name = "ADDR")]
    provider: Option<String>,
}

/// What types the values of an RPC: the schema kind of its fields.
fn kind_of(rpc: &str, field: &str) -> Option<fn(&str) -> SchemaRef<'_>> {
    if field.contains("identity") {
        return Some(|t| SchemaRef::Identity(t));
    }
    if field == "provider_meta" {
        return Some(|_| SchemaRef::ProviderMeta);
    }
    Some(match rpc {
        "ValidateResourceConfig"
        | "ValidateResourceTypeConfig"
        | "UpgradeResourceState"
        | "ReadResource"
        | "PlanResourceChange"
        | "ApplyResourceChange"
        | "ImportResourceState"
        | "MoveResourceState"
        | "GenerateResourceConfig" => |t| SchemaRef::Resource(t),
        "ValidateDataResourceConfig" | "ValidateDataSourceConfig" | "ReadDataSource" => {
            |t| SchemaRef::DataSource(t)
        }
        "ValidateProviderConfig" | "PrepareProviderConfig" | "ConfigureProvider" | "Configure" => {
            |_| SchemaRef::Provider
        }
        "ValidateEphemeralResourceConfig" | "OpenEphemeralResource" => {
            |t| SchemaRef::EphemeralResource(t)
        }
        "ListResource" if field == "resource_object" => |t| SchemaRef::Resource(t),
        "ListResource" => |t| SchemaRef::ListResource(t),
        "ValidateListResourceConfig" if field == "include_resource_object" => |_| SchemaRef::Bool,
        "ValidateListResourceConfig" if field == "limit" => |_| SchemaRef::Number,
        "ValidateListResourceConfig" => |t| SchemaRef::ListResource(t),
        "ValidateActionConfig" | "PlanAction" | "InvokeAction" => |t| SchemaRef::Action(t),
        "ValidateStateStoreConfig" | "ConfigureStateStore" => |t| SchemaRef::StateStore(t),
        _ => return None,
    })
}

/// `PriorState` → `prior_state`.
fn snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// One file's name, split.
struct Name<'a> {
    time: &'a str,
    rpc: &'a str,
    direction: Direction,
    field: String,
    json: bool,
}

fn parse_name(name: &str) -> Option<Name<'_>> {
    let (stem, ext) = name.rsplit_once('.')?;
    let json = match ext {
        "msgpack" => false,
        "json" => true,
        _ => return None,
    };
    let mut parts = stem.splitn(4, '_');
    let (time, rpc, message, field) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let direction = match message {
        "Request" => Direction::Request,
        "Response" => Direction::Response,
        _ => return None,
    };
    Some(Name {
        time,
        rpc,
        direction,
        field: snake(field),
        json,
    })
}

/// What an index says of a file: its type name, and (`index.json`) its schema kind.
#[derive(Default)]
struct Index {
    provider: Option<String>,
    files: HashMap<String, (Option<String>, Option<String>)>,
}

fn read_index(dir: &Path) -> Result<Option<Index>, Failure> {
    let json = dir.join("index.json");
    let jsonl = dir.join("index.jsonl");
    let mut index = Index::default();
    let entry = |index: &mut Index, e: tfwire_plan::Json<'_>| {
        let s = |k: &str| e.get(k).and_then(|v| v.as_str()).map(str::to_owned);
        if let Some(file) = s("file") {
            index.files.insert(file, (s("type_name"), s("schema")));
        }
    };
    if json.exists() {
        let name = json.display().to_string();
        let mut bytes = input::read(Some(&name))?;
        let tape = tfwire_plan::Parser::new()
            .parse(&mut bytes)
            .map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        let root = tape.root();
        index.provider = root
            .get("provider")
            .and_then(|p| p.as_str())
            .map(str::to_owned);
        let files = root
            .get("files")
            .and_then(|f| f.as_array())
            .ok_or_else(|| Failure::Input(format!("{name}: no \"files\" array")))?;
        for e in files.iter() {
            entry(&mut index, e);
        }
        return Ok(Some(index));
    }
    if jsonl.exists() {
        let name = jsonl.display().to_string();
        let text = input::read(Some(&name))?;
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let mut bytes = line.to_vec();
            let tape = tfwire_plan::Parser::new()
                .parse(&mut bytes)
                .map_err(|e| Failure::Input(format!("{name}:{}: {e}", n + 1)))?;
            entry(&mut index, tape.root());
        }
        return Ok(Some(index));
    }
    Ok(None)
}

/// The schema kind an `index.json` entry names.
fn kind_named(kind: &str) -> Option<fn(&str) -> SchemaRef<'_>> {
    Some(match kind {
        "resource" => |t| SchemaRef::Resource(t),
        "data_source" => |t| SchemaRef::DataSource(t),
        "ephemeral_resource" => |t| SchemaRef::EphemeralResource(t),
        "list_resource" => |t| SchemaRef::ListResource(t),
        "provider" => |_| SchemaRef::Provider,
        "provider_meta" => |_| SchemaRef::ProviderMeta,
        _ => return None,
    })
}

/// The type names of the schemas of `kind` (for inferring a file's type).
fn candidates<'p>(programs: &'p Programs, sample: SchemaRef<'_>) -> Vec<&'p str> {
    let p = &programs.schemas().provider;
    let keys = match sample {
        SchemaRef::Resource(_) => p.resources.keys(),
        SchemaRef::DataSource(_) => p.data_sources.keys(),
        SchemaRef::EphemeralResource(_) => p.ephemeral_resources.keys(),
        SchemaRef::ListResource(_) => p.list_resources.keys(),
        _ => return Vec::new(),
    };
    keys.map(String::as_str).collect()
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let dir = Path::new(&args.dir);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.dir)))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    let index = read_index(dir)?;
    let doc = ProviderSchemas::from_json(&input::read(Some(&args.schemas))?)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.schemas)))?;
    let wanted = args
        .provider
        .clone()
        .or_else(|| index.as_ref().and_then(|i| i.provider.clone()));
    let (_, schema) = provider(&doc, wanted.as_deref())?;
    let programs = Programs::new(Schemas {
        provider: schema.clone(),
        ..Schemas::default()
    })
    .with_masks(args.masks.masks()?);
    let mut decoder = Decoder::new(Config::default());
    let mut arena = bumpalo::Bump::new();
    let (mut values, mut errors) = (0usize, 0usize);
    let mut out = String::new();
    for name in &names {
        let Some(n) = parse_name(name) else { continue };
        if n.field.ends_with("private") {
            continue;
        }
        let bytes = input::read(Some(&dir.join(name).display().to_string()))?;
        if bytes.is_empty() {
            continue;
        }
        let value = if n.json {
            DynamicValue {
                msgpack: b"",
                json: &bytes,
            }
        } else {
            DynamicValue {
                msgpack: &bytes,
                json: b"",
            }
        };
        let listed = index.as_ref().and_then(|i| i.files.get(name));
        let type_name = listed.and_then(|(t, _)| t.clone());
        let kind = match listed.and_then(|(_, k)| k.as_deref()) {
            Some(k) => kind_named(k),
            None => kind_of(n.rpc, &n.field),
        };
        let mut inferred = false;
        let (type_name, outcome) = match (kind, type_name) {
            (None, t) => (
                t,
                Outcome::Error(format!(
                    "no schema types the field {} of {} {}",
                    n.field,
                    n.rpc,
                    n.direction.name()
                )),
            ),
            (Some(k), Some(t)) => {
                let o = programs.redacted_json(&mut decoder, &arena, k(&t), value);
                (Some(t), o)
            }
            (Some(k), None) if k("").type_name().is_empty() && k("x").type_name().is_empty() => (
                None,
                programs.redacted_json(&mut decoder, &arena, k(""), value),
            ),
            (Some(k), None) => {
                // No index: the one schema of the kind that accepts the value.
                let all = candidates(&programs, k(""));
                let ok: Vec<(&str, Outcome)> = all
                    .iter()
                    .map(|t| {
                        (
                            *t,
                            programs.redacted_json(&mut decoder, &arena, k(t), value),
                        )
                    })
                    .filter(|(_, o)| matches!(o, Outcome::Value(_)))
                    .collect();
                arena.reset();
                match <[_; 1]>::try_from(ok) {
                    Ok([(t, o)]) => {
                        inferred = true;
                        (Some(t.to_owned()), o)
                    }
                    Err(ok) => (
                        None,
                        Outcome::Error(format!(
                            "the type is not named by an index and {} of the {} schemas of its kind decode it",
                            ok.len(),
                            all.len()
                        )),
                    ),
                }
            }
        };
        arena.reset();
        values += 1;
        errors += usize::from(matches!(outcome, Outcome::Error(_)));
        let mut line = Record {
            time: n.time,
            rpc: n.rpc,
            direction: n.direction,
            type_name: type_name.as_deref(),
            field: &n.field,
            index: None,
            file: Some(name),
            bytes: bytes.len(),
            decode_us: None,
            outcome: &outcome,
        }
        .to_json();
        if inferred {
            line.insert_str(line.len() - 1, ",\"type_inferred\":true");
        }
        out.push_str(&line);
        out.push('\n');
    }
    // One JSON line per value; nothing at all for a directory without values.
    if !out.is_empty() {
        output::text(out.trim_end_matches('\n'))?;
    }
    if errors > 0 {
        return Err(Failure::Input(format!(
            "{errors} of {values} values did not decode (see the \"error\" lines)"
        )));
    }
    Ok(())
}
