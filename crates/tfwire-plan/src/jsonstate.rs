//! The `show -json` document of a raw state: what `tofu show -json terraform.tfstate` and
//! `terraform show -json terraform.tfstate` write (the clients' `jsonstate`), from the raw
//! state and the provider schemas.

use crate::ctyjson::{self, SchemaAt, Sensitive, Step, Writer};
use crate::error::{Error, ErrorKind};
use crate::plan::Client;
use crate::rawstate::{RawInstance, RawResource, RawState};
use crate::values::{Index, Mode};
use bumpalo::Bump;
use std::collections::{HashMap, HashSet};
use tfwire::schema::{Kind, ProgramCache};
use tfwire::{Decoder, Number, Program, Type, TypedJson as _, Value};

/// Options of [`write_state_json`]: which client's document to write, and how large it may
/// grow.
///
/// ```
/// use tfwire_plan::{Client, StateJson};
/// let options = StateJson::new(Client::Terraform).max_document_bytes(1 << 20);
/// assert_eq!(options.client, Client::Terraform);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StateJson {
    /// The client whose `show -json` is written. The two differ in a resource's identity:
    /// OpenTofu writes the state's identity JSON as it is, then `identity_schema_version`;
    /// Terraform writes `identity_schema_version`, then the identity decoded with the
    /// identity schema (and refuses a state whose identity schema version differs). OpenTofu
    /// writes an output's `deprecated` and refuses ephemeral resources.
    pub client: Client,
    /// The most bytes the document may hold ([`ErrorKind::Invalid`] past it, checked after
    /// each resource instance). Default 512 MiB.
    pub max_document_bytes: u64,
}

impl StateJson {
    /// The options for `client`'s document, with the default limit.
    pub fn new(client: Client) -> StateJson {
        StateJson {
            client,
            max_document_bytes: 512 << 20,
        }
    }

    /// With `max_document_bytes`.
    pub fn max_document_bytes(mut self, n: u64) -> StateJson {
        self.max_document_bytes = n;
        self
    }
}

impl StateJson {
    /// The options for a state whose client is not known otherwise: Terraform's document
    /// when its providers come from Terraform's registry (`registry.terraform.io`, the
    /// address Terraform gives a provider without a host), OpenTofu's otherwise. Where the
    /// guess is wrong only resource identities (their members' order) and outputs'
    /// `deprecated` differ; a caller that knows the client says so with [`StateJson::new`].
    ///
    /// ```
    /// let mut input = br#"{"version":4,"resources":[{"mode":"managed","type":"t","name":"n",
    ///   "provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[]}]}"#.to_vec();
    /// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
    /// let arena = bumpalo::Bump::new();
    /// let state = tape.raw_state(&arena)?;
    /// assert_eq!(tfwire_plan::StateJson::guess(&state).client, tfwire_plan::Client::Terraform);
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    pub fn guess(state: &RawState<'_>) -> StateJson {
        let terraform = state.resources.iter().any(|r| {
            r.provider
                .and_then(provider_name)
                .is_some_and(|p| p.starts_with("registry.terraform.io/"))
        });
        StateJson::new(if terraform {
            Client::Terraform
        } else {
            Client::OpenTofu
        })
    }
}

/// `show -json` of a raw state file, for a caller holding its bytes (the `tfwire show -json
/// terraform.tfstate` command): parses `input` (in place, as [`crate::Parser`] does) and
/// writes [`write_state_json`]'s document with `options`, or with [`StateJson::guess`]'s
/// when `None`.
///
/// ```
/// use tfwire::schema::{ProgramCache, ProviderSchemas};
/// let schemas = ProgramCache::new(ProviderSchemas::from_json(br#"{"provider_schemas":{}}"#)?);
/// let mut input = br#"{"version":4,"terraform_version":"1.12.6","outputs":{
///   "greeting":{"value":"<hi>","type":"string"}},"resources":[]}"#.to_vec();
/// let doc = tfwire_plan::state_show_json(&mut input, &schemas, None)?;
/// assert_eq!(doc, concat!(r#"{"format_version":"1.0","terraform_version":"1.12.6","values":{"#,
///   r#""outputs":{"greeting":{"sensitive":false,"value":"\u003chi\u003e","type":"string"}},"#,
///   r#""root_module":{}}}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A document that is not a raw state of version 4 ([`ErrorKind::WrongDocument`]; a version
/// 3 state is refused too: the clients upgrade it with the providers first), and
/// [`write_state_json`]'s errors.
pub fn state_show_json(
    input: &mut Vec<u8>,
    schemas: &ProgramCache,
    options: Option<&StateJson>,
) -> Result<String, Error> {
    let mut parser = crate::Parser::new();
    let tape = parser.parse(input)?;
    let arena = Bump::new();
    let state = tape.raw_state(&arena)?;
    let options = options.copied().unwrap_or_else(|| StateJson::guess(&state));
    let mut out = String::new();
    write_state_json(&state, schemas, &options, &mut out)?;
    Ok(out)
}

/// The `format_version` of the state document.
const FORMAT_VERSION: &str = "1.0";

#[cold]
fn invalid(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Invalid(msg.into()))
}

/// Writes the `show -json` document of a raw state (version 4) to `out`: `format_version`,
/// `terraform_version`, `values` (root outputs with `sensitive`, `value` and `type`; the
/// module tree of resources, each instance with its values re-marshalled with the resource
/// type's schema, `sensitive_values` from the schema's sensitive attributes and the state's
/// `sensitive_attributes`, `depends_on`, `tainted`, `deposed_key`, identity) and `checks`,
/// byte for byte as the client of `options` writes it (tested on every state of the
/// real-client corpora). An empty state is `{"format_version":"1.0"}`, as the clients write
/// it. The same writer gives a plan's `prior_state`.
///
/// ```
/// use tfwire::schema::{ProgramCache, ProviderSchemas};
/// use tfwire_plan::{Client, StateJson};
/// let schemas = ProgramCache::new(ProviderSchemas::from_json(br#"{"provider_schemas":{
///   "registry.opentofu.org/hashicorp/random":{"resource_schemas":{"random_password":{
///     "version":0,"block":{"attributes":{"length":{"type":"number","required":true},
///     "result":{"type":"string","computed":true,"sensitive":true}}}}}}}}"#)?);
/// let mut input = br#"{"version":4,"terraform_version":"1.12.6","serial":1,"outputs":{},
///   "resources":[{"mode":"managed","type":"random_password","name":"p",
///   "provider":"provider[\"registry.opentofu.org/hashicorp/random\"]","instances":[
///   {"schema_version":0,"attributes":{"result":"<x>","length":3}}]}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let state = tape.raw_state(&arena)?;
/// let mut out = String::new();
/// tfwire_plan::write_state_json(&state, &schemas, &StateJson::new(Client::OpenTofu), &mut out)?;
/// assert_eq!(out, concat!(
///     r#"{"format_version":"1.0","terraform_version":"1.12.6","values":{"root_module":"#,
///     r#"{"resources":[{"address":"random_password.p","mode":"managed","type":"random_password","#,
///     r#""name":"p","provider_name":"registry.opentofu.org/hashicorp/random","schema_version":0,"#,
///     r#""values":{"length":3,"result":"\u003cx\u003e"},"sensitive_values":{"result":true}}]}}}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// Every error names the instance address: a resource type (or identity schema, for
/// Terraform) the schemas lack, a schema version that differs from the state's (as the
/// clients refuse it), values that do not conform to the schema, a malformed module or
/// provider address, legacy `attributes_flat`, a document larger than
/// [`StateJson::max_document_bytes`].
pub fn write_state_json(
    state: &RawState<'_>,
    schemas: &ProgramCache,
    options: &StateJson,
    out: &mut String,
) -> Result<(), Error> {
    let mut w = ctyjson::go_writer(out);
    w.begin_object()?;
    w.member_str("format_version", FORMAT_VERSION)?;
    let empty = state.outputs.is_empty() && state.resources.is_empty();
    if !empty {
        if let Some(v) = state.header.terraform_version {
            w.member_str("terraform_version", v)?;
        }
        w.key("values")?;
        w.begin_object()?;
        outputs(&mut w, state, options.client)?;
        w.key("root_module")?;
        modules(&mut w, state, schemas, options)?;
        w.end_object()?;
        if let Some(results) = state
            .check_results
            .and_then(|c| c.as_array())
            .filter(|a| !a.is_empty())
        {
            let mut records = state_checks(results).map_err(|e| e.in_key("check_results"))?;
            w.key("checks")?;
            write_checks(&mut w, &mut records).map_err(|e| e.in_key("check_results"))?;
        }
    }
    w.end_object()?;
    within(&w, options.max_document_bytes)
}

fn within(w: &Writer<'_>, limit: u64) -> Result<(), Error> {
    if w.get_ref().len() as u64 > limit {
        return Err(invalid(format!(
            "the document would hold more than {limit} bytes"
        )));
    }
    Ok(())
}

impl From<core::fmt::Error> for Error {
    #[cold]
    fn from(_: core::fmt::Error) -> Error {
        invalid("a value could not be written as JSON")
    }
}

/// `outputs`: sorted by name, each `{"sensitive", "value", "type"}`, the value re-marshalled
/// with its type; left out when the state has none.
fn outputs(w: &mut Writer<'_>, state: &RawState<'_>, client: Client) -> Result<(), Error> {
    if state.outputs.is_empty() {
        return Ok(());
    }
    let mut sorted: Vec<_> = state.outputs.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(b.name));
    w.key("outputs")?;
    w.begin_object()?;
    for o in sorted {
        let at = |e: Error| e.in_key(o.name).in_key("outputs");
        let ty_json =
            o.ty.ok_or_else(|| invalid("the output has no `type`"))
                .map_err(at)?;
        let ty = Type::from_json(&ty_json.to_string())
            .map_err(|e| invalid(format!("the output's type: {e}")).with_offset(ty_json.offset()))
            .map_err(at)?;
        let program = Program::compile(&ty);
        let arena = Bump::new();
        let value = match o.value {
            Some(v) => v
                .decode_typed(&program, &mut Decoder::default(), &arena)
                .map_err(|e| invalid(format!("the output's value: {e}")))
                .map_err(at)?,
            None => Value::Null,
        };
        w.key(o.name)?;
        w.begin_object()?;
        w.member_bool("sensitive", o.sensitive)?;
        if client == Client::OpenTofu
            && let Some(d) = o.raw.get("deprecated").and_then(|d| d.as_str())
            && !d.is_empty()
        {
            w.member_str("deprecated", d)?;
        }
        w.key("value")?;
        ctyjson::write_known(w, value).map_err(at)?;
        w.key("type")?;
        w.raw(&ty.to_json())?;
        w.end_object()?;
    }
    w.end_object()?;
    Ok(())
}

/// One step of a module instance address: `module.NAME` with its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ModuleStep<'a> {
    name: &'a str,
    key: Option<Index<'a>>,
}

/// The step `module.NAME` or `module.NAME[KEY]` at the start of `s`, and its length.
fn module_step(s: &str) -> Option<(ModuleStep<'_>, usize)> {
    let body = s.strip_prefix("module.")?;
    let name_len = body.find(['.', '[']).unwrap_or(body.len());
    if name_len == 0 {
        return None;
    }
    let (key, key_len) = instance_key(&body[name_len..])?;
    Some((
        ModuleStep {
            name: &body[..name_len],
            key,
        },
        "module.".len() + name_len + key_len,
    ))
}

/// The instance key `[0]` or `["k"]` at the start of `s` (none if `s` does not start with
/// `[`), and its length; `None` for a malformed key.
fn instance_key(s: &str) -> Option<(Option<Index<'_>>, usize)> {
    let Some(k) = s.strip_prefix('[') else {
        return Some((None, 0));
    };
    if let Some(q) = k.strip_prefix('"') {
        // A quoted key: up to the first unescaped quote.
        let mut escaped = false;
        for (i, c) in q.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    return q[i + 1..]
                        .starts_with(']')
                        .then_some((Some(Index::Str(&q[..i])), i + 4));
                }
                _ => {}
            }
        }
        None
    } else {
        let end = k.find(']')?;
        Some((Some(Index::Int(k[..end].parse().ok()?)), end + 2))
    }
}

/// The most module levels an address may nest (the document's module tree is written
/// recursively, one level a frame).
pub const MAX_MODULE_DEPTH: usize = 256;

/// The steps of a module instance address as the clients write it
/// (`module.a["x"].module.b[0]`), each with the text of the address up to it.
fn module_steps(addr: &str) -> Result<Vec<(ModuleStep<'_>, &str)>, Error> {
    let bad = || {
        invalid(format!(
            "invalid module address {}",
            tfwire_json::Safe(addr)
        ))
    };
    let mut out = Vec::new();
    let mut at = 0;
    while at < addr.len() {
        if out.len() == MAX_MODULE_DEPTH {
            return Err(invalid(format!(
                "a module address nested more than {MAX_MODULE_DEPTH} levels deep"
            )));
        }
        if !out.is_empty() {
            if !addr[at..].starts_with('.') {
                return Err(bad());
            }
            at += 1;
        }
        let (step, len) = module_step(&addr[at..]).ok_or_else(bad)?;
        at += len;
        out.push((step, &addr[..at]));
    }
    Ok(out)
}

/// The module instance addresses from the outermost to `addr` itself, as prefixes of it:
/// `module.a["x"].module.b` gives `module.a["x"]` and `module.a["x"].module.b` (none for
/// the root module, the empty address). `show -json` builds its `child_modules` trees from
/// them.
///
/// ```
/// assert_eq!(tfwire_plan::module_ancestors(r#"module.a["x.y"].module.b[0]"#)?,
///            [r#"module.a["x.y"]"#, r#"module.a["x.y"].module.b[0]"#]);
/// assert!(tfwire_plan::module_ancestors("").unwrap().is_empty());
/// assert!(tfwire_plan::module_ancestors("module.").is_err());
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Invalid`] for text that is not a module instance address, or one nested
/// more than [`MAX_MODULE_DEPTH`] levels deep.
pub fn module_ancestors(addr: &str) -> Result<Vec<&str>, Error> {
    Ok(module_steps(addr)?.into_iter().map(|(_, a)| a).collect())
}

/// Splits an address into its module instance part (`module.a["x"]`, empty in the root
/// module) and the rest.
fn split_module(addr: &str) -> (&str, &str) {
    let mut at = 0;
    while let Some((_, len)) = module_step(&addr[at..]) {
        if !addr[at + len..].starts_with('.') {
            break;
        }
        at += len + 1;
    }
    (addr[..at].trim_end_matches('.'), &addr[at..])
}

/// A configuration object's check results as a state or a plan records them, for
/// [`write_checks`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckRecord<'a> {
    /// The object's kind as a state writes it: `resource`, `output`, `check` or `var`.
    pub kind: &'a str,
    /// The configuration address (`module.a.aws_s3_bucket.b`, `check.c`, `var.v`).
    pub config_addr: &'a str,
    /// `pass`, `fail`, `error` or `unknown`.
    pub status: &'a str,
    /// Each instance: its address, status and failure messages.
    pub objects: Vec<(&'a str, &'a str, Vec<&'a str>)>,
}

impl<'a> CheckRecord<'a> {
    /// A record.
    pub fn new(
        kind: &'a str,
        config_addr: &'a str,
        status: &'a str,
        objects: Vec<(&'a str, &'a str, Vec<&'a str>)>,
    ) -> CheckRecord<'a> {
        CheckRecord {
            kind,
            config_addr,
            status,
            objects,
        }
    }
}

/// A state's `check_results` as records.
fn state_checks(results: crate::json::Array<'_>) -> Result<Vec<CheckRecord<'_>>, Error> {
    fn text<'a>(v: crate::json::Json<'a>, k: &'static str) -> Result<&'a str, Error> {
        v.get(k)
            .and_then(|s| s.as_str())
            .ok_or_else(|| Error::new(ErrorKind::Missing(k)).with_offset(v.offset()))
    }
    let mut out = Vec::new();
    for r in results {
        let mut objects = Vec::new();
        for o in r
            .get("objects")
            .and_then(|o| o.as_array())
            .into_iter()
            .flatten()
        {
            let messages = o
                .get("failure_messages")
                .and_then(|m| m.as_array())
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str())
                .collect();
            objects.push((text(o, "object_addr")?, text(o, "status")?, messages));
        }
        out.push(CheckRecord::new(
            text(r, "object_kind")?,
            text(r, "config_addr")?,
            text(r, "status")?,
            objects,
        ));
    }
    Ok(out)
}

/// Check results as `show -json` writes them (the clients' `jsonchecks`), for a state's
/// `checks` and a plan's: each configuration object with its kind and address parts, sorted
/// by address, each with its instances sorted by address and their failure messages sorted;
/// the members of each address in Go's map order.
///
/// ```
/// use tfwire_plan::CheckRecord;
/// let mut out = String::new();
/// let mut w = tfwire_plan::ctyjson::go_writer(&mut out);
/// let objects = vec![("module.m[\"a\"].aws_s3_bucket.b[0]", "fail", vec!["too <big>"])];
/// let mut records = vec![CheckRecord::new("resource", "module.m.aws_s3_bucket.b", "fail", objects)];
/// tfwire_plan::write_checks(&mut w, &mut records)?;
/// assert_eq!(out, concat!(
///     r#"[{"address":{"kind":"resource","mode":"managed","module":"module.m","name":"b","#,
///     r#""to_display":"module.m.aws_s3_bucket.b","type":"aws_s3_bucket"},"status":"fail","#,
///     r#""instances":[{"address":{"instance_key":0,"module":"module.m[\"a\"]","#,
///     r#""to_display":"module.m[\"a\"].aws_s3_bucket.b[0]"},"status":"fail","#,
///     r#""problems":[{"message":"too \u003cbig\u003e"}]}]}]"#));
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
///
/// # Errors
///
/// An unknown object kind, or a resource instance address whose key does not read (an
/// unknown key `[*]` among them), named with the configuration address.
pub fn write_checks(w: &mut Writer<'_>, records: &mut [CheckRecord<'_>]) -> Result<(), Error> {
    records.sort_by(|a, b| a.config_addr.cmp(b.config_addr));
    w.begin_array()?;
    for r in records.iter_mut() {
        let config_addr = r.config_addr;
        let at = |e: Error| e.in_key(config_addr);
        let kind = match r.kind {
            "resource" => "resource",
            "output" => "output_value",
            "check" => "check",
            "var" => "var",
            other => {
                return Err(at(invalid(format!(
                    "unsupported checkable object kind {}",
                    tfwire_json::Safe(other)
                ))));
            }
        };
        let (module, rest) = split_module(config_addr);
        let (mode, rest) = match rest.strip_prefix("data.") {
            Some(r) if kind == "resource" => ("data", r),
            _ => ("managed", rest),
        };
        let (first, name) = rest.split_once('.').unwrap_or(("", rest));
        w.begin_object()?;
        w.key("address")?;
        w.begin_object()?;
        w.member_str("kind", kind)?;
        if kind == "resource" {
            w.member_str("mode", mode)?;
        }
        if !module.is_empty() {
            w.member_str("module", module)?;
        }
        w.member_str("name", name)?;
        w.member_str("to_display", config_addr)?;
        if kind == "resource" {
            w.member_str("type", first)?;
        }
        w.end_object()?;
        w.member_str("status", r.status)?;
        if !r.objects.is_empty() {
            r.objects.sort_by(|a, b| a.0.cmp(b.0));
            w.key("instances")?;
            w.begin_array()?;
            for (addr, status, messages) in r.objects.iter_mut() {
                let (module, rest) = split_module(addr);
                w.begin_object()?;
                w.key("address")?;
                w.begin_object()?;
                if kind == "resource" {
                    let key = rest
                        .find('[')
                        .map_or(Some((None, 0)), |i| instance_key(&rest[i..]));
                    match key {
                        Some((Some(Index::Int(i)), _)) => {
                            w.key("instance_key")?;
                            w.raw(&i.to_string())?;
                        }
                        Some((Some(Index::Str(k)), _)) => w.member_str("instance_key", k)?,
                        Some((None, _)) => {}
                        None => {
                            return Err(at(invalid(format!(
                                "invalid instance address {}",
                                tfwire_json::Safe(addr)
                            ))));
                        }
                    }
                }
                if !module.is_empty() {
                    w.member_str("module", module)?;
                }
                w.member_str("to_display", addr)?;
                w.end_object()?;
                w.member_str("status", status)?;
                if !messages.is_empty() {
                    messages.sort_unstable();
                    w.key("problems")?;
                    w.begin_array()?;
                    for m in messages.iter() {
                        w.begin_object()?;
                        w.member_str("message", m)?;
                        w.end_object()?;
                    }
                    w.end_array()?;
                }
                w.end_object()?;
            }
            w.end_array()?;
        }
        w.end_object()?;
    }
    w.end_array()?;
    Ok(())
}

/// `InstanceKeyLess`: no key first, then numbers (in order), then strings (bytewise).
fn key_cmp(a: Option<Index<'_>>, b: Option<Index<'_>>) -> core::cmp::Ordering {
    use core::cmp::Ordering;
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Less,
        (_, None) => Ordering::Greater,
        (Some(Index::Int(x)), Some(Index::Int(y))) => x.cmp(&y),
        (Some(Index::Int(_)), Some(Index::Str(_))) => Ordering::Less,
        (Some(Index::Str(_)), Some(Index::Int(_))) => Ordering::Greater,
        (Some(Index::Str(x)), Some(Index::Str(y))) => x.cmp(y),
    }
}

/// `ResourceModeLess`: ephemeral, then data, then managed.
fn mode_rank(m: Mode<'_>) -> u8 {
    match m {
        Mode::Other(_) => 0,
        Mode::Data => 1,
        Mode::Managed => 2,
    }
}

/// The module tree: the root module's resources, then `child_modules` (every module
/// instance that holds resources, and its ancestors), each level sorted by address.
fn modules(
    w: &mut Writer<'_>,
    state: &RawState<'_>,
    schemas: &ProgramCache,
    options: &StateJson,
) -> Result<(), Error> {
    let mut tree = Tree::default();
    for (i, r) in state.resources.iter().enumerate() {
        let m = r.module.unwrap_or("");
        tree.resources.entry(m).or_default().push(r);
        let steps =
            module_steps(m).map_err(|e| e.in_key("module").in_index(i).in_key("resources"))?;
        let mut parent = "";
        for (_, prefix) in steps {
            if tree.seen.insert(prefix) {
                tree.children.entry(parent).or_default().push(prefix);
            }
            parent = prefix;
        }
    }
    tree.module(w, "", schemas, options)
}

/// The module instances of a state: each one's resources and child modules.
#[derive(Default)]
struct Tree<'s, 'a> {
    resources: HashMap<&'a str, Vec<&'s RawResource<'a>>>,
    children: HashMap<&'a str, Vec<&'a str>>,
    seen: HashSet<&'a str>,
}

impl Tree<'_, '_> {
    fn module(
        &mut self,
        w: &mut Writer<'_>,
        addr: &str,
        schemas: &ProgramCache,
        options: &StateJson,
    ) -> Result<(), Error> {
        w.begin_object()?;
        let mut resources = self.resources.remove(addr).unwrap_or_default();
        resources.sort_by(|a, b| {
            mode_rank(a.mode)
                .cmp(&mode_rank(b.mode))
                .then_with(|| a.type_name.cmp(b.type_name))
                .then_with(|| a.name.cmp(b.name))
        });
        if resources.iter().any(|r| !r.instances.is_empty()) {
            w.key("resources")?;
            w.begin_array()?;
            for r in resources {
                resource(w, r, schemas, options)?;
            }
            w.end_array()?;
        }
        if !addr.is_empty() {
            w.member_str("address", addr)?;
        }
        let mut children = self.children.remove(addr).unwrap_or_default();
        if !children.is_empty() {
            children.sort_unstable();
            w.key("child_modules")?;
            w.begin_array()?;
            for c in children {
                self.module(w, c, schemas, options)?;
            }
            w.end_array()?;
        }
        w.end_object()?;
        Ok(())
    }
}

/// The provider's source address in a provider configuration address
/// (`provider["registry.opentofu.org/hashicorp/aws"].east`, maybe after a module path).
fn provider_name(config: &str) -> Option<&str> {
    let at = config.find("provider[\"")?;
    let rest = &config[at + "provider[\"".len()..];
    let end = rest.find("\"]")?;
    Some(&rest[..end])
}

fn resource(
    w: &mut Writer<'_>,
    r: &RawResource<'_>,
    schemas: &ProgramCache,
    options: &StateJson,
) -> Result<(), Error> {
    let mut instances: Vec<&RawInstance<'_>> = r.instances.iter().collect();
    // Each instance's current object, then its deposed objects by key.
    instances.sort_by(|a, b| {
        key_cmp(a.index_key, b.index_key)
            .then_with(|| a.deposed.is_some().cmp(&b.deposed.is_some()))
            .then_with(|| a.deposed.cmp(&b.deposed))
    });
    for inst in instances {
        let addr = r.address(inst.index_key);
        instance(w, r, inst, schemas, options)
            .map_err(|e| invalid(format!("{addr}: {}", e.kind())).with_offset(e.offset()))?;
        within(w, options.max_document_bytes)?;
    }
    Ok(())
}

fn instance(
    w: &mut Writer<'_>,
    r: &RawResource<'_>,
    inst: &RawInstance<'_>,
    schemas: &ProgramCache,
    options: &StateJson,
) -> Result<(), Error> {
    let client = options.client;
    let config = r
        .provider
        .ok_or_else(|| invalid("the resource has no provider"))?;
    let provider = provider_name(config).ok_or_else(|| {
        invalid(format!(
            "invalid provider configuration address {}",
            tfwire_json::Safe(config)
        ))
    })?;
    let kind = match r.mode {
        Mode::Managed => Kind::Resource,
        Mode::Data => Kind::DataSource,
        Mode::Other("ephemeral") if client == Client::OpenTofu => {
            return Err(invalid("an ephemeral resource in the state"));
        }
        Mode::Other(m) => {
            return Err(invalid(format!(
                "unsupported resource mode {}",
                tfwire_json::Safe(m)
            )));
        }
    };
    let missing = || {
        invalid(format!(
            "no schema for {} {} of provider {provider} in the given schemas",
            kind.name(),
            tfwire_json::Safe(r.type_name)
        ))
    };
    let schema = schemas
        .schema(provider, kind, r.type_name)
        .map_err(|_| missing())?;
    let program = schemas
        .get(provider, kind, r.type_name)
        .map_err(|_| missing())?;
    let version = inst.schema_version.unwrap_or(0);
    if inst.deposed.is_none() && i64::try_from(version).ok() != Some(schema.version) {
        return Err(invalid(format!(
            "schema version {version} in the state does not match version {} of the provider's \
             schema",
            schema.version
        )));
    }
    if inst.attributes.is_none() && inst.attributes_flat.is_some() {
        return Err(invalid(
            "legacy `attributes_flat` (a state upgraded from version 3): the client \
             upgrades them with the provider; run `tofu refresh` or `terraform refresh` first",
        ));
    }
    let arena = Bump::new();
    let value = match inst.attributes.filter(|a| !a.is_null()) {
        Some(a) => a
            .decode_typed(&program, &mut Decoder::default(), &arena)
            .map_err(|e| invalid(format!("attributes: {e}")).with_offset(a.offset()))?,
        None => Value::Null,
    };
    let marks = sensitive_paths(inst, &arena);

    let addr = r.address(inst.index_key);
    w.begin_object()?;
    w.member_str("address", &addr.to_string())?;
    w.member_str("mode", r.mode.name())?;
    w.member_str("type", r.type_name)?;
    w.member_str("name", r.name)?;
    match inst.index_key {
        Some(Index::Int(i)) => {
            w.key("index")?;
            w.raw(&i.to_string())?;
        }
        Some(Index::Str(s)) => w.member_str("index", s)?,
        None => {}
    }
    w.member_str("provider_name", provider)?;
    w.key("schema_version")?;
    w.raw(&(if inst.deposed.is_none() { version } else { 0 }).to_string())?;
    if !value.is_null() {
        w.key("values")?;
        ctyjson::write_known(w, value).map_err(|e| e.in_key("values"))?;
    }
    w.key("sensitive_values")?;
    let ty = program.ty_in(&arena);
    Sensitive { marks: &marks }.write(w, value, ty, SchemaAt::Block(&schema.block), false)?;
    if !inst.dependencies.is_empty() {
        w.key("depends_on")?;
        w.begin_array()?;
        for d in inst.dependencies {
            w.string(d)?;
        }
        w.end_array()?;
    }
    if inst.status == Some("tainted") {
        w.member_bool("tainted", true)?;
    }
    if let Some(d) = inst.deposed {
        w.member_str("deposed_key", d)?;
    }
    if let Some(identity) = inst.identity.filter(|i| !i.is_null()) {
        let identity_version = inst.identity_schema_version.unwrap_or(0);
        match client {
            Client::Terraform => {
                let is = schemas.identity(provider, r.type_name).map_err(|_| {
                    invalid(format!(
                        "no identity schema for resource type {} of provider {provider} in \
                         the given schemas",
                        tfwire_json::Safe(r.type_name)
                    ))
                })?;
                if i64::try_from(identity_version).ok() != Some(is.version) {
                    return Err(invalid(format!(
                        "identity schema version {identity_version} in the state does not \
                         match version {} of the provider's identity schema",
                        is.version
                    )));
                }
                let program = schemas
                    .get(provider, Kind::Identity, r.type_name)
                    .map_err(|e| invalid(e.to_string()))?;
                let v = identity
                    .decode_typed(&program, &mut Decoder::default(), &arena)
                    .map_err(|e| {
                        invalid(format!("identity: {e}")).with_offset(identity.offset())
                    })?;
                w.key("identity_schema_version")?;
                w.raw(&identity_version.to_string())?;
                if !v.is_null() {
                    w.key("identity")?;
                    ctyjson::write_known(w, v).map_err(|e| e.in_key("identity"))?;
                }
            }
            _ => {
                w.key("identity")?;
                copy(w, identity)?;
                w.key("identity_schema_version")?;
                w.raw(&identity_version.to_string())?;
            }
        }
    }
    w.end_object()?;
    Ok(())
}

/// The state's `sensitive_attributes` as value paths ([`RawInstance::sensitive_paths`]
/// gives each path's steps; a number step is a list index, a string one a map key).
fn sensitive_paths<'a>(inst: &RawInstance<'_>, arena: &'a Bump) -> Vec<Vec<Step<'a>>> {
    inst.sensitive_paths()
        .iter()
        .map(|p| {
            p.steps()
                .iter()
                .map(|s| match s {
                    tfwire::PathStep::Attr(n) => Step::Attr(arena.alloc_str(n)),
                    tfwire::PathStep::Key(k) => Step::Index(Value::String(arena.alloc_str(k))),
                    tfwire::PathStep::Index(i) => Step::Index(Value::Number(Number::Uint(*i))),
                })
                .collect()
        })
        .collect()
}

/// Writes a JSON value as it is, compact, strings with the writer's escape rule (what Go's
/// `encoding/json` does to a `json.RawMessage`).
fn copy(w: &mut Writer<'_>, v: crate::json::Json<'_>) -> Result<(), Error> {
    use crate::json::JsonKind;
    match v.kind() {
        JsonKind::Object => {
            w.begin_object()?;
            for (k, e) in v.as_object().into_iter().flatten() {
                w.key(k)?;
                copy(w, e)?;
            }
            w.end_object()?;
        }
        JsonKind::Array => {
            w.begin_array()?;
            for e in v.as_array().into_iter().flatten() {
                copy(w, e)?;
            }
            w.end_array()?;
        }
        JsonKind::String => w.string(v.as_str().unwrap_or_default())?,
        _ => w.raw(&v.to_string())?,
    }
    Ok(())
}
