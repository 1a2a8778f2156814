//! Decoding a folder of captured values (`TF_LOG_SDK_PROTO_DATA_DIR`), as `tfwire dump`
//! does: the folder's files given one at a time by name and content, with its index when
//! there is one.
//!
//! terraform-plugin-go writes each `DynamicValue` it receives or sends to a file named
//! `{TIME}_{RPC}_{MESSAGE}_{FIELD}.{msgpack|json}`; [`Dump::entry`] turns one such file into
//! one JSON line ([`Record`]). The files do not name the resource type: it is read from an
//! index ([`Index`]: `index.json` of the project's real-client corpus, or the `index.jsonl`
//! its test provider writes) or inferred by decoding the value with every schema of its
//! kind.
//!
//! ```
//! use tfwire_plugin::dump::{Dump, DumpConfig};
//! use tfwire_plugin::Programs;
//! let programs = Programs::new(tfwire::schema::ProviderSchema::default());
//! let mut dump = Dump::new(&programs, None, DumpConfig::default());
//! // A provider configuration (`{}` in MessagePack), with no provider schema given.
//! let line = dump
//!     .entry("1_ConfigureProvider_Request_Config.msgpack", Ok(&[0x80]))
//!     .unwrap();
//! assert!(line.ends_with(r#""bytes":1,"error":"invalid schema: no schema for the provider"}"#));
//! // A file the caller would not read (a FIFO) is an error line too.
//! let line = dump
//!     .entry("2_ConfigureProvider_Request_Config.msgpack", Err("a FIFO"))
//!     .unwrap();
//! assert!(line.ends_with(r#""bytes":0,"error":"a FIFO"}"#));
//! // Other files are not values.
//! assert_eq!(dump.entry("notes.txt", Ok(b"x")), None);
//! assert_eq!((dump.values(), dump.errors()), (2, 2));
//! ```
//!
//! # What protects the caller
//!
//! The index is parsed only after a shape pass ([`tfwire::json::json_shape`]) has checked
//! its nesting (1024 levels) and its node count ([`DumpConfig::max_nodes`]); values are
//! decoded with [`DumpConfig::decoder`]'s limits. Inferring a value's type decodes it with
//! one schema after another until two accept it, and at most
//! [`DumpConfig::max_inference_bytes`] bytes in all (the value's size times the schemas
//! tried): past that, the line is an error naming the limit. Each line is returned as it
//! is made, so memory holds one value at a time. Reading the files (regular files only,
//! their size bounded) is the caller's: a file it would not read is given as `Err(why)`,
//! and becomes an error line.

use crate::log::{Outcome, Record};
use crate::rpc::Direction;
use crate::{Programs, SchemaRef};
use std::collections::HashMap;
use tfwire::json::tape::{INPUT_PADDING, TapeParser};
use tfwire::{Config, Decoder, DynamicValue};

/// The names of the index files, in the order they are looked for.
pub const INDEX_NAMES: [&str; 2] = ["index.json", "index.jsonl"];

/// Limits of a [`Dump`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DumpConfig {
    /// The decoder's configuration (its input limit bounds each value).
    pub decoder: Config,
    /// The most JSON nodes an index may hold (checked before it is parsed). Default 2^25.
    pub max_nodes: usize,
    /// The most bytes decoded to infer one value's type: the value's size times the
    /// schemas tried. Default 256 MiB.
    pub max_inference_bytes: u64,
}

impl Default for DumpConfig {
    fn default() -> DumpConfig {
        DumpConfig {
            decoder: Config::default(),
            max_nodes: 1 << 25,
            max_inference_bytes: 256 << 20,
        }
    }
}

impl DumpConfig {
    /// With `decoder`.
    pub fn decoder(mut self, c: Config) -> DumpConfig {
        self.decoder = c;
        self
    }

    /// With `max_nodes`.
    pub fn max_nodes(mut self, n: usize) -> DumpConfig {
        self.max_nodes = n;
        self
    }

    /// With `max_inference_bytes`.
    pub fn max_inference_bytes(mut self, n: u64) -> DumpConfig {
        self.max_inference_bytes = n;
        self
    }
}

/// What an index says of the files: the provider, and each file's type name and schema
/// kind.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The provider the values belong to (`index.json`'s `provider`).
    pub provider: Option<String>,
    files: HashMap<String, (Option<String>, Option<String>)>,
}

impl Index {
    /// Reads an index: `index.json` (an object with `provider` and a `files` array) or
    /// `index.jsonl` (one object a line), as `name` says. Each entry names its `file`, and
    /// may give its `type_name` and `schema` kind.
    ///
    /// ```
    /// let index = tfwire_plugin::dump::Index::parse(
    ///     "index.json",
    ///     br#"{"provider":"p","files":[{"file":"f.msgpack","type_name":"t"}]}"#,
    ///     1000,
    /// )?;
    /// assert_eq!(index.provider.as_deref(), Some("p"));
    /// assert_eq!(index.type_name("f.msgpack"), Some("t"));
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A one-line message (`line N: ` first for `index.jsonl`): invalid JSON with its byte
    /// offset, more than `max_nodes` nodes, nesting deeper than 1024, or an `index.json`
    /// without a `files` array.
    pub fn parse(name: &str, bytes: &[u8], max_nodes: usize) -> Result<Index, String> {
        let mut index = Index::default();
        let mut parser = TapeParser::default();
        let mut each = |text: &[u8], index: &mut Index, whole: bool| -> Result<(), String> {
            let shape =
                tfwire::json::json_shape(text, tfwire::json::tape::DEFAULT_MAX_DEPTH, max_nodes)
                    .map_err(|e| e.to_string())?;
            let mut buf = Vec::with_capacity(text.len() + INPUT_PADDING);
            buf.extend_from_slice(text);
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let doc = parser
                .parse_document(&mut buf, text.len(), &shape)
                .map_err(|e| e.to_string())?;
            let root = doc.root();
            let entries: Vec<tfwire::json::view::Json<'_>> = if whole {
                index.provider = root
                    .get("provider")
                    .and_then(|p| p.as_str())
                    .map(str::to_owned);
                let files = root
                    .get("files")
                    .and_then(|f| f.as_array())
                    .ok_or_else(|| "no \"files\" array".to_string())?;
                files.iter().collect()
            } else {
                vec![root]
            };
            for e in entries {
                let s = |k: &str| e.get(k).and_then(|v| v.as_str()).map(str::to_owned);
                if let Some(file) = s("file") {
                    index.files.insert(file, (s("type_name"), s("schema")));
                }
            }
            Ok(())
        };
        if name.ends_with(".jsonl") {
            for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                each(line, &mut index, false).map_err(|e| format!("line {}: {e}", n + 1))?;
            }
        } else {
            each(bytes, &mut index, true)?;
        }
        Ok(index)
    }

    /// The type name the index gives `file`.
    pub fn type_name(&self, file: &str) -> Option<&str> {
        self.files.get(file).and_then(|(t, _)| t.as_deref())
    }
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

/// Whether `name` is the name of a value file (`{TIME}_{RPC}_{MESSAGE}_{FIELD}.msgpack` or
/// `.json`, not private state): the files [`Dump::entry`] makes a line of. A caller reads
/// only those.
pub fn is_value_file(name: &str) -> bool {
    parse_name(name).is_some_and(|n| !n.field.ends_with("private"))
}

/// The schema kind an `index.json` entry names.
fn kind_named(kind: &str) -> Option<fn(&str) -> SchemaRef<'_>> {
    Some(match kind {
        "resource" => |t| SchemaRef::Resource(t),
        "data_source" => |t| SchemaRef::DataSource(t),
        "ephemeral_resource" => |t| SchemaRef::EphemeralResource(t),
        "list_resource" => |t| SchemaRef::ListResource(t),
        "identity" => |t| SchemaRef::Identity(t),
        "action" => |t| SchemaRef::Action(t),
        "state_store" => |t| SchemaRef::StateStore(t),
        "provider" => |_| SchemaRef::Provider,
        "provider_meta" => |_| SchemaRef::ProviderMeta,
        _ => return None,
    })
}

/// The type names of the schemas of `kind` (for inferring a file's type).
fn candidates<'p>(programs: &'p Programs, sample: SchemaRef<'_>) -> Vec<&'p str> {
    let p = programs.schemas();
    let keys = match sample {
        SchemaRef::Resource(_) => p.resources.keys(),
        SchemaRef::DataSource(_) => p.data_sources.keys(),
        SchemaRef::EphemeralResource(_) => p.ephemeral_resources.keys(),
        SchemaRef::ListResource(_) => p.list_resources.keys(),
        SchemaRef::Action(_) => p.actions.keys(),
        SchemaRef::StateStore(_) => p.state_stores.keys(),
        SchemaRef::Identity(_) => return p.identities.keys().map(String::as_str).collect(),
        _ => return Vec::new(),
    };
    keys.map(String::as_str).collect()
}

/// A folder's values, decoded one file at a time.
pub struct Dump<'p> {
    programs: &'p Programs,
    index: Option<Index>,
    config: DumpConfig,
    decoder: Decoder,
    arena: bumpalo::Bump,
    values: usize,
    errors: usize,
}

impl<'p> Dump<'p> {
    /// Decodes values with `programs`, naming types from `index` when there is one.
    pub fn new(programs: &'p Programs, index: Option<Index>, config: DumpConfig) -> Dump<'p> {
        Dump {
            programs,
            index,
            decoder: Decoder::new(config.decoder),
            config,
            arena: bumpalo::Bump::new(),
            values: 0,
            errors: 0,
        }
    }

    /// The values seen so far (lines made).
    pub fn values(&self) -> usize {
        self.values
    }

    /// The lines made so far that are errors.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// The line of the file `name` (one JSON object, no newline): `None` for a file that is
    /// not a value ([`is_value_file`]) or is empty. `content` is the file's bytes, or why
    /// the caller did not read them (a FIFO, a file past the input limit, ...), which
    /// becomes the line's `error`.
    pub fn entry(&mut self, name: &str, content: Result<&[u8], &str>) -> Option<String> {
        let n = parse_name(name)?;
        if n.field.ends_with("private") {
            return None;
        }
        let (bytes, outcome, type_name, inferred) = match content {
            Ok([]) => return None,
            Err(why) => (&[][..], Outcome::Error(why.to_string()), None, false),
            Ok(bytes) => {
                let (type_name, outcome, inferred) = self.decode(name, &n, bytes);
                (bytes, outcome, type_name, inferred)
            }
        };
        self.arena.reset();
        self.values += 1;
        self.errors += usize::from(matches!(outcome, Outcome::Error(_)));
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
        Some(line)
    }

    fn decode(
        &mut self,
        name: &str,
        n: &Name<'_>,
        bytes: &[u8],
    ) -> (Option<String>, Outcome, bool) {
        let value = if n.json {
            DynamicValue {
                msgpack: b"",
                json: bytes,
            }
        } else {
            DynamicValue {
                msgpack: bytes,
                json: b"",
            }
        };
        let listed = self.index.as_ref().and_then(|i| i.files.get(name));
        let type_name = listed.and_then(|(t, _)| t.clone());
        let kind = match listed.and_then(|(_, k)| k.as_deref()) {
            Some(k) => kind_named(k),
            None => kind_of(n.rpc, &n.field),
        };
        let programs = self.programs;
        match (kind, type_name) {
            (None, t) => (
                t,
                Outcome::Error(format!(
                    "no schema types the field {} of {} {}",
                    n.field,
                    n.rpc,
                    n.direction.name()
                )),
                false,
            ),
            (Some(k), Some(t)) => {
                let o = programs.redacted_json(&mut self.decoder, &self.arena, k(&t), value);
                (Some(t), o, false)
            }
            (Some(k), None) if k("").type_name().is_empty() && k("x").type_name().is_empty() => (
                None,
                programs.redacted_json(&mut self.decoder, &self.arena, k(""), value),
                false,
            ),
            (Some(k), None) => self.infer(k, value),
        }
    }

    /// No index: the one schema of the kind that accepts the value. Stops at the second
    /// that does, and when the bytes decoded would pass the inference limit.
    fn infer(
        &mut self,
        k: fn(&str) -> SchemaRef<'_>,
        value: DynamicValue<'_>,
    ) -> (Option<String>, Outcome, bool) {
        let all = candidates(self.programs, k(""));
        let size = (value.msgpack.len() + value.json.len()).max(1) as u64;
        let mut found: Option<(&str, Outcome)> = None;
        let mut spent = 0u64;
        for t in &all {
            spent = spent.saturating_add(size);
            if spent > self.config.max_inference_bytes {
                return (
                    None,
                    Outcome::Error(format!(
                        "the type is not named by an index, and trying the {} schemas of its \
                         kind on this {size}-byte value would decode more than {} bytes, the \
                         inference limit (the input limit; raise it with --max-input-bytes, \
                         or name the type in an index)",
                        all.len(),
                        self.config.max_inference_bytes
                    )),
                    false,
                );
            }
            let o = self
                .programs
                .redacted_json(&mut self.decoder, &self.arena, k(t), value);
            self.arena.reset();
            if matches!(o, Outcome::Value(_)) {
                if found.is_some() {
                    return (
                        None,
                        Outcome::Error(format!(
                            "the type is not named by an index and more than one of the {} \
                             schemas of its kind decode it",
                            all.len()
                        )),
                        false,
                    );
                }
                found = Some((t, o));
            }
        }
        match found {
            Some((t, o)) => (Some(t.to_owned()), o, true),
            None => (
                None,
                Outcome::Error(format!(
                    "the type is not named by an index and none of the {} schemas of its kind \
                     decode it",
                    all.len()
                )),
                false,
            ),
        }
    }
}

/// Decodes a whole folder given as `(file name, content)` entries (the index among them,
/// by its name, [`INDEX_NAMES`]), one line per value, in the entries' order.
///
/// # Errors
///
/// An index that does not read ([`Index::parse`]), with its name.
pub fn dump_entries(
    programs: &Programs,
    entries: &[(&str, &[u8])],
    config: DumpConfig,
) -> Result<(Vec<String>, usize), String> {
    let mut index = None;
    for wanted in INDEX_NAMES {
        if let Some((name, bytes)) = entries.iter().find(|(n, _)| *n == wanted) {
            index = Some(
                Index::parse(name, bytes, config.max_nodes).map_err(|e| format!("{name}: {e}"))?,
            );
            break;
        }
    }
    let mut dump = Dump::new(programs, index, config);
    let lines = entries
        .iter()
        .filter_map(|(name, bytes)| dump.entry(name, Ok(bytes)))
        .collect();
    Ok((lines, dump.errors()))
}
