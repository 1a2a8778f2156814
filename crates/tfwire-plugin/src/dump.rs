//! Decoding a folder of captured values (`TF_LOG_SDK_PROTO_DATA_DIR`), as `tfwire dump`
//! does: the folder's files given one at a time by name and content, with its index when
//! there is one.
//!
//! terraform-plugin-go writes each `DynamicValue` it receives or sends to a file named
//! `{TIME}_{RPC}_{MESSAGE}_{FIELD}.{msgpack|json}`; [`Dump::entry`] turns one such file into
//! one JSON line ([`Record`]). The RPC, message and field say what kind of schema types the
//! value, from the table the tap decodes messages with ([`Method::field_schema`]): a
//! resource's state, an identity, a list resource's or action's configuration, a function's
//! argument N (`Arguments_N`, the line's `index`) or result. The line names the field as the
//! tap's log does (`planned_state`, `imported_resources.identity` for a file of the message
//! `Response_ImportedResource`; a streamed `Event` is a response). The files do not name the
//! resource type or function: it is read from an index ([`Index`]: `index.json` of the
//! project's real-client corpus, or the `index.jsonl` its test provider writes) or inferred
//! by decoding the value with every schema of its kind. An index entry that names a schema
//! kind (`resource_identity`, `function`, ...) other than the field's makes an error line.
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
//! The index is parsed only after a shape pass ([`tfwire_json::json_shape`]) has checked
//! its nesting (1024 levels) and its node count ([`DumpConfig::max_nodes`]); values are
//! decoded with [`DumpConfig::decoder`]'s limits. Inferring a value's type decodes it with
//! one schema after another until two accept it, and at most
//! [`DumpConfig::max_inference_bytes`] bytes in all (the value's size times the schemas
//! tried): past that, the line is an error naming the limit. Each line is returned as it
//! is made, so memory holds one value at a time. Reading the files (regular files only,
//! their size bounded) is the caller's: a file it would not read is given as `Err(why)`,
//! and becomes an error line.

use crate::log::{Outcome, Record};
use crate::rpc::{Direction, Method};
use crate::{Programs, SchemaRef};
use std::collections::HashMap;
use tfwire::schema::Protocol;
use tfwire::{Config, Decoder, DynamicValue};
use tfwire_json::tape::{INPUT_PADDING, TapeParser};

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
                tfwire_json::json_shape(text, tfwire_json::tape::DEFAULT_MAX_DEPTH, max_nodes)
                    .map_err(|e| e.to_string())?;
            let mut buf = Vec::with_capacity(text.len() + INPUT_PADDING);
            buf.extend_from_slice(text);
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let doc = parser
                .parse_document(&mut buf, text.len(), &shape)
                .map_err(|e| e.to_string())?;
            let root = doc.root();
            let entries: Vec<tfwire_json::view::Json<'_>> = if whole {
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
    /// The field as the tap names it ([`crate::Field::name`]): `config`,
    /// `imported_resources.identity`, `arguments`.
    field: String,
    /// The element of a repeated field the name gives (`Arguments_2`).
    index: Option<usize>,
    json: bool,
}

/// The messages a file name may give, the way their values travel, and the prefix of their
/// fields' names in [`crate::Field::name`]. `Response_ImportedResource` holds one of
/// `ImportResourceState`'s imported resources; `Event` is a streamed response.
const MESSAGES: [(&str, Direction, &str); 4] = [
    ("Request_", Direction::Request, ""),
    (
        "Response_ImportedResource_",
        Direction::Response,
        "imported_resources.",
    ),
    ("Response_", Direction::Response, ""),
    ("Event_", Direction::Response, ""),
];

fn parse_name(name: &str) -> Option<Name<'_>> {
    let (stem, ext) = name.rsplit_once('.')?;
    let json = match ext {
        "msgpack" => false,
        "json" => true,
        _ => return None,
    };
    let (time, rest) = stem.split_once('_')?;
    let (rpc, rest) = rest.split_once('_')?;
    let (direction, nested, field) = MESSAGES
        .iter()
        .find_map(|(m, d, nested)| Some((*d, *nested, rest.strip_prefix(m)?)))?;
    if field.is_empty() {
        return None;
    }
    // `Arguments_2`: element 2 of the repeated field `arguments`.
    let (field, index) = match field.rsplit_once('_') {
        Some((f, i)) if !f.is_empty() && i.bytes().all(|b| b.is_ascii_digit()) => match i.parse() {
            Ok(i) => (f, Some(i)),
            Err(_) => (field, None),
        },
        _ => (field, None),
    };
    Some(Name {
        time,
        rpc,
        direction,
        field: format!("{nested}{}", snake(field)),
        index,
        json,
    })
}

/// Whether `name` is the name of a value file (`{TIME}_{RPC}_{MESSAGE}_{FIELD}.msgpack` or
/// `.json`, `MESSAGE` one of `Request`, `Response`, `Response_ImportedResource` and `Event`;
/// not private state): the files [`Dump::entry`] makes a line of. A caller reads only those.
pub fn is_value_file(name: &str) -> bool {
    parse_name(name).is_some_and(|n| !n.field.ends_with("private"))
}

/// Where a file's value sits: a field of a method's request or response, which the tap's
/// table ([`Method::field_schema`]) types.
#[derive(Clone, Copy)]
struct Slot<'n> {
    method: Method,
    direction: Direction,
    field: &'n str,
    index: Option<usize>,
}

impl Slot<'_> {
    /// The slot of a file, when its RPC is one of the plugin protocol's (protocol 6 first:
    /// the methods both protocols share type their fields alike).
    fn of<'n>(n: &'n Name<'_>) -> Option<Slot<'n>> {
        let method = Method::from_name(Protocol::V6, n.rpc)
            .or_else(|| Method::from_name(Protocol::V5, n.rpc))?;
        let slot = Slot {
            method,
            direction: n.direction,
            field: &n.field,
            index: n.index,
        };
        slot.schema("").is_some().then_some(slot)
    }

    /// What the value is decoded with in a call of `call`.
    fn schema<'c>(&self, call: &'c str) -> Option<SchemaRef<'c>> {
        self.method
            .field_schema(self.direction, self.field, self.index, call)
    }

    /// Whether the schema depends on a type name (a resource type, a function, ...).
    fn named(&self) -> bool {
        self.schema("x").is_some_and(|r| !r.type_name().is_empty())
    }
}

/// The name an `index.json` entry gives the kind of schema `r` (its `schema`; see the
/// real-client corpus's README).
fn index_kind(r: SchemaRef<'_>) -> &'static str {
    match r {
        SchemaRef::Provider => "provider",
        SchemaRef::ProviderMeta => "provider_meta",
        SchemaRef::Resource(_) => "resource",
        SchemaRef::DataSource(_) => "data_source",
        SchemaRef::EphemeralResource(_) => "ephemeral_resource",
        SchemaRef::ListResource(_) => "list_resource",
        SchemaRef::Identity(_) => "resource_identity",
        SchemaRef::Action(_) => "action",
        SchemaRef::StateStore(_) => "state_store",
        SchemaRef::FunctionArgument(..) | SchemaRef::FunctionResult(_) => "function",
        SchemaRef::Bool => "bool",
        SchemaRef::Number => "number",
        SchemaRef::Provisioner => "provisioner",
        SchemaRef::ProvisionerConnection => "provisioner_connection",
    }
}

/// The type names of the schemas of `sample`'s kind (for inferring a file's type).
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
        SchemaRef::FunctionArgument(..) | SchemaRef::FunctionResult(_) => {
            return p.functions.keys().map(String::as_str).collect();
        }
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
            index: n.index,
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
        let no_schema = |t| {
            let what = format!(
                "no schema types the field {}{} of {} {}",
                n.field,
                n.index.map(|i| format!("[{i}]")).unwrap_or_default(),
                n.rpc,
                n.direction.name()
            );
            (t, Outcome::Error(what), false)
        };
        let Some(slot) = Slot::of(n) else {
            return no_schema(type_name);
        };
        // An index that names the kind of schema must name the field's.
        if let Some(said) = listed.and_then(|(_, k)| k.as_deref()) {
            let kind = slot.schema("").map_or("", index_kind);
            if said != kind {
                return (
                    type_name,
                    Outcome::Error(format!(
                        "the index types this value with a {said} schema, but the field {} of \
                         {} {} holds a {kind} value",
                        n.field,
                        n.rpc,
                        n.direction.name()
                    )),
                    false,
                );
            }
        }
        let programs = self.programs;
        let named = type_name.as_deref().or((!slot.named()).then_some(""));
        let Some(call) = named else {
            return self.infer(slot, value);
        };
        match slot.schema(call) {
            Some(r) => {
                let o = programs.redacted_json(&mut self.decoder, &self.arena, r, value);
                (type_name, o, false)
            }
            None => no_schema(type_name),
        }
    }

    /// No index: the one schema of the kind that accepts the value. Stops at the second
    /// that does, and when the bytes decoded would pass the inference limit.
    fn infer(
        &mut self,
        slot: Slot<'_>,
        value: DynamicValue<'_>,
    ) -> (Option<String>, Outcome, bool) {
        let all = slot
            .schema("")
            .map(|r| candidates(self.programs, r))
            .unwrap_or_default();
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
            let Some(r) = slot.schema(t) else { continue };
            let o = self
                .programs
                .redacted_json(&mut self.decoder, &self.arena, r, value);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The synthetic schemas of every kind (functions, identities, list resources, actions).
    fn programs() -> Programs {
        let doc = tfwire::schema::ProviderSchemas::from_json(include_bytes!(
            "../../../corpus/schemas-synthetic/kinds.json"
        ))
        .unwrap();
        Programs::new(doc.providers["registry.terraform.io/example/kinds"].clone())
    }

    fn s(v: &str) -> Vec<u8> {
        [&[0xa0 | v.len() as u8][..], v.as_bytes()].concat()
    }

    /// The `value` or `error` of each line, by file.
    fn dump(files: &[(&str, Vec<u8>)]) -> Vec<(String, String)> {
        let programs = programs();
        let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, &b[..])).collect();
        let (lines, _) = dump_entries(&programs, &entries, DumpConfig::default()).unwrap();
        lines
            .iter()
            .map(|l| {
                let file = l
                    .split("\"file\":\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                let at = l
                    .find(",\"value\":")
                    .or_else(|| l.find(",\"error\":"))
                    .unwrap();
                (file.to_owned(), l[at + 1..l.len() - 1].to_owned())
            })
            .collect()
    }

    #[test]
    fn file_names_give_the_tap_s_field_names() {
        let n = parse_name("1_CallFunction_Request_Arguments_12.msgpack").unwrap();
        assert_eq!(
            (n.rpc, n.field.as_str(), n.index),
            ("CallFunction", "arguments", Some(12))
        );
        let n =
            parse_name("1_ImportResourceState_Response_ImportedResource_Identity.json").unwrap();
        assert_eq!(
            (n.direction, n.field.as_str(), n.json),
            (Direction::Response, "imported_resources.identity", true)
        );
        let n = parse_name("1_ListResource_Event_ResourceObject.msgpack").unwrap();
        assert_eq!(
            (n.direction, n.field.as_str()),
            (Direction::Response, "resource_object")
        );
        assert!(parse_name("1_ListResource_Reply_ResourceObject.msgpack").is_none());
        assert!(parse_name("1_ListResource_Event_.msgpack").is_none());
        assert!(!is_value_file(
            "1_PlanResourceChange_Response_PlannedPrivate.msgpack"
        ));
        // Digits past usize are part of the name, which no table knows.
        let n = parse_name("1_CallFunction_Request_Arguments_99999999999999999999999.msgpack");
        assert_eq!(n.unwrap().index, None);
    }

    #[test]
    fn every_kind_decodes_with_its_schema() {
        let index = br#"{"provider":"p","files":[
            {"file":"1_CallFunction_Request_Arguments_0.msgpack","type_name":"join_path","schema":"function"},
            {"file":"1_CallFunction_Request_Arguments_3.msgpack","type_name":"join_path","schema":"function"},
            {"file":"1_CallFunction_Response_Result.msgpack","type_name":"join_path","schema":"function"},
            {"file":"2_ListResource_Request_Config.msgpack","type_name":"kinds_thing","schema":"list_resource"},
            {"file":"2_ListResource_Event_Identity.msgpack","type_name":"kinds_thing","schema":"resource_identity"},
            {"file":"3_ImportResourceState_Response_ImportedResource_Identity.msgpack","type_name":"kinds_thing"},
            {"file":"4_InvokeAction_Request_Config.msgpack","type_name":"kinds_restart","schema":"action"},
            {"file":"5_ReadResource_Response_NewIdentity.msgpack","type_name":"kinds_thing","schema":"resource"}
        ]}"#;
        let identity = [
            &[0x83][..],
            &s("id"),
            &s("i-1"),
            &s("region"),
            &[0xc0],
            &s("tags"),
            &[0xc0],
        ]
        .concat();
        let lines = dump(&[
            ("index.json", index.to_vec()),
            ("1_CallFunction_Request_Arguments_0.msgpack", s("/")),
            // Past the two fixed parameters: the variadic one.
            ("1_CallFunction_Request_Arguments_3.msgpack", s("c")),
            ("1_CallFunction_Response_Result.msgpack", s("a/c")),
            (
                "2_ListResource_Request_Config.msgpack",
                [&[0x82][..], &s("filter"), &[0x90], &s("region"), &s("r")].concat(),
            ),
            ("2_ListResource_Event_Identity.msgpack", identity.clone()),
            (
                "3_ImportResourceState_Response_ImportedResource_Identity.msgpack",
                identity.clone(),
            ),
            (
                "4_InvokeAction_Request_Config.msgpack",
                [
                    &[0x82][..],
                    &s("force"),
                    &[0xc3],
                    &s("target"),
                    &[0x91, 0x81],
                    &s("id"),
                    &s("x"),
                ]
                .concat(),
            ),
            // The index's kind must be the field's.
            (
                "5_ReadResource_Response_NewIdentity.msgpack",
                identity.clone(),
            ),
            // A fixed type, whatever the type name.
            (
                "6_ValidateListResourceConfig_Request_Limit.msgpack",
                vec![0x05],
            ),
            ("7_GetFunctions_Response_Functions.msgpack", vec![0x80]),
        ]);
        let id = r#""value":{"id":"i-1","region":null,"tags":null}"#;
        let want = [
            (
                "1_CallFunction_Request_Arguments_0.msgpack",
                r#""value":"/""#,
            ),
            (
                "1_CallFunction_Request_Arguments_3.msgpack",
                r#""value":"c""#,
            ),
            ("1_CallFunction_Response_Result.msgpack", r#""value":"a/c""#),
            (
                "2_ListResource_Request_Config.msgpack",
                r#""value":{"filter":[],"region":"r"}"#,
            ),
            ("2_ListResource_Event_Identity.msgpack", id),
            (
                "3_ImportResourceState_Response_ImportedResource_Identity.msgpack",
                id,
            ),
            (
                "4_InvokeAction_Request_Config.msgpack",
                r#""value":{"force":true,"target":[{"id":"x"}]}"#,
            ),
            (
                "5_ReadResource_Response_NewIdentity.msgpack",
                r#""error":"the index types this value with a resource schema, but the field new_identity of ReadResource response holds a resource_identity value""#,
            ),
            (
                "6_ValidateListResourceConfig_Request_Limit.msgpack",
                r#""value":5"#,
            ),
            (
                "7_GetFunctions_Response_Functions.msgpack",
                r#""error":"no schema types the field functions of GetFunctions response""#,
            ),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(f, v)| (f.to_string(), v.to_string()))
            .collect();
        assert_eq!(lines, want);
    }

    /// Without an index a function's values are typed by the one function whose type
    /// accepts them.
    #[test]
    fn a_function_is_inferred_like_a_resource_type() {
        let lines = dump(&[
            // `parse` takes a string too: two functions accept it.
            ("1_CallFunction_Request_Arguments_0.msgpack", s("/")),
            // Only `join_path` takes a list second.
            (
                "1_CallFunction_Request_Arguments_1.msgpack",
                vec![0x91, 0xa1, b'a'],
            ),
        ]);
        assert_eq!(
            lines[0].1,
            r#""error":"the type is not named by an index and more than one of the 3 schemas of its kind decode it""#
        );
        assert_eq!(lines[1].1, r#""value":["a"],"type_inferred":true"#);
    }
}
