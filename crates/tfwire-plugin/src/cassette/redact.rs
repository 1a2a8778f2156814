//! Redaction: a session with every secret replaced, to share.
//!
//! [`redact`] walks every `DynamicValue` of every message of a session, requests and
//! responses alike, decoded with the session's own schema (as the tap decodes them), and
//! replaces by a placeholder **of the same type**:
//!
//! - every value of an attribute the schema marks `sensitive` or `write_only`, at any depth
//!   (nested blocks and nested attributes, in lists, sets and maps of them);
//! - every value a mask matches ([`tfwire::mask`]: the tap's `--mask`/`--mask-file` and its
//!   default patterns, on the value's path from the resource type), whether the schema
//!   describes it or not (dynamic values, function arguments, identities).
//!
//! The value is re-encoded by tfwire's own encoder ([`tfwire::encode_msgpack`]; a value sent
//! as JSON, [`tfwire::encode_json`]) and the message re-encoded around it (only the lengths
//! of the enclosing protobuf fields change; every other byte is kept).
//!
//! # Placeholders
//!
//! A replayed plan must still decode, type-check and render as the recorded one did (the
//! clients print `(sensitive value)` for these positions whatever they hold), so a
//! placeholder keeps the value's type and shape:
//!
//! - a string becomes `"(redacted-N)"`, a number `N`, a bool `false`;
//! - `N` counts the distinct secret values of the session from 1 (one counter for strings and
//!   numbers): the same secret gets the same placeholder wherever it occurs (a
//!   configuration's password and the state's, a request's and its response's), so that
//!   values equal in the recording stay equal, and values that differ stay different (a set
//!   keeps its elements apart, hence its length). The numbers tell nothing of the secrets but
//!   that equality;
//! - a list, tuple or set keeps its length, each element a placeholder of its own type; a
//!   map keeps its length, its keys (secret too: a sensitive map's keys are part of the
//!   secret) renamed as strings are, its values placeholders; an object keeps its attribute
//!   names (they are its type); a dynamic value keeps its type;
//! - a null stays null and an unknown stays unknown (refinements included): neither holds a
//!   secret, and both change how a client renders a plan.
//!
//! A set of bools is the one shape whose length may shrink (`[true, false]` becomes two
//! `false`, which the client reads as one): its rendering is `(sensitive value)` anyway.
//!
//! # Outside the values
//!
//! Secrets also travel outside `DynamicValue`s: a provider may repeat one in a diagnostic, in
//! its private state blob, in its log lines (go-plugin's `GRPCStdio` stream), in a gRPC status
//! message. The stored state reaches `UpgradeResourceState` as JSON (`raw_state`): when it
//! conforms to the resource type's current schema it is redacted as a value is (and written
//! back as go-cty's JSON); a state of an older schema version does not, and is left to what
//! follows. These are not values the schema types, so they are handled by value: every
//! string the walk above replaced, of at least [`MIN_SCRUB_BYTES`] bytes, is then overwritten
//! wherever else its bytes occur in the session, in every message of every method and in
//! every status message, by as many `*` (same length, so every protobuf, MessagePack and
//! JSON length around it stays right, and UTF-8 text stays UTF-8). Shorter strings are
//! replaced at their typed positions only: overwriting every occurrence of a two-byte string
//! would corrupt unrelated bytes. Private blobs are otherwise kept as they are (they are the
//! provider's bookkeeping, passed back to it verbatim; a replayer does not compare them).
//! A value in a non-secret position that equals a secret is overwritten too: it would tell
//! the secret.
//!
//! Numbers and bools are replaced at their typed positions only (their text is too common to
//! look for).

use super::data::Session;
use super::show::schemas_of;
use crate::error::{Error, ErrorKind};
use crate::rpc::{Direction, Message, Method};
use crate::{Programs, SchemaRef};
use bumpalo::Bump;
use bytes::Bytes;
use std::collections::{BTreeSet, HashMap};
use tfwire::mask::{Cursor, Masks};
use tfwire::schema::{Attribute, AttributeType, NestedBlock, Nesting};
use tfwire::{Dynamic, Number, Value};

/// Strings at least this long that were redacted are also overwritten wherever else they
/// occur in the session (see the module docs).
pub const MIN_SCRUB_BYTES: usize = 6;

fn err(what: String) -> Error {
    Error::new(ErrorKind::Cassette, what)
}

/// Replaces every sensitive and write-only value of `session`, and every value `masks`
/// match, by a placeholder of the same type, in requests and responses alike, then
/// overwrites those secrets wherever else they occur (see the module docs), and marks the
/// session [`Session::redacted`]. A placeholder string is kept as it is, so redacting a
/// redacted session again changes none of its strings.
///
/// ```
/// use tfwire_plugin::cassette::{redact, Call, CallStatus, Session};
/// use tfwire_plugin::tfplugin6::{get_provider_schema, schema, DynamicValue, Schema};
/// use tfwire_plugin::tfplugin6::plan_resource_change;
/// use prost::Message as _;
/// let attr = |name: &str, sensitive| schema::Attribute {
///     name: name.into(), r#type: b"\"string\"".to_vec().into(), optional: true, sensitive,
///     ..Default::default()
/// };
/// let mut schema = get_provider_schema::Response::default();
/// schema.resource_schemas.insert("db".into(), Schema {
///     version: 0,
///     block: Some(schema::Block {
///         attributes: vec![attr("name", false), attr("password", true)],
///         ..Default::default()
///     }),
/// });
/// let request = plan_resource_change::Request {
///     type_name: "db".into(),
///     config: Some(DynamicValue {
///         msgpack: b"\x82\xa4name\xa1a\xa8password\xa6hunter".to_vec().into(),
///         json: Default::default(),
///     }),
///     ..Default::default()
/// };
/// let mut session = Session {
///     protocol: 6,
///     schema: schema.encode_to_vec().into(),
///     calls: vec![Call {
///         method: "/tfplugin6.Provider/PlanResourceChange".into(),
///         requests: vec![request.encode_to_vec().into()],
///         responses: vec![],
///         status: CallStatus::OK,
///     }],
///     ..Default::default()
/// };
/// redact(&mut session, &tfwire::mask::Masks::new())?;
/// assert!(session.redacted);
/// let redacted = plan_resource_change::Request::decode(session.calls[0].requests[0].clone())?;
/// assert_eq!(
///     &redacted.config.unwrap().msgpack[..],
///     b"\x82\xa4name\xa1a\xa8password\xac(redacted-1)",
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The session's schema does not convert (nothing could be redacted safely without it), or
/// a message of a protocol method, or a value in it, does not decode or re-encode: the error
/// names the call, the message and the field. The session is left unchanged on error.
pub fn redact(session: &mut Session, masks: &Masks) -> Result<(), Error> {
    let schemas = schemas_of(session).map_err(|e| {
        err(format!(
            "the session's schema does not convert, so its values cannot be redacted: {e}"
        ))
    })?;
    let programs = Programs::new(schemas);
    let mut secrets = Secrets::default();
    let mut calls = session.calls.clone();
    for (n, call) in calls.iter_mut().enumerate() {
        let Some(method) = Method::from_path(&call.method) else {
            continue;
        };
        let at = |d: Direction, i: usize| format!("call {n} ({}), {} {i}", call.method, d.name());
        // The call's type name, from its first request (responses name none).
        let type_name = call
            .requests
            .first()
            .and_then(|m| match method.decode(Direction::Request, m.clone()) {
                Ok(Message::Values(v)) => Some(v.type_name().to_owned()),
                _ => None,
            })
            .unwrap_or_default();
        let mut out = Vec::with_capacity(call.requests.len());
        for (i, m) in call.requests.iter().enumerate() {
            out.push(
                message(
                    method,
                    Direction::Request,
                    m,
                    &type_name,
                    &programs,
                    masks,
                    &mut secrets,
                )
                .map_err(|e| err(format!("{}: {e}", at(Direction::Request, i))))?,
            );
        }
        call.requests = out;
        let mut out = Vec::with_capacity(call.responses.len());
        for (i, m) in call.responses.iter().enumerate() {
            out.push(
                message(
                    method,
                    Direction::Response,
                    m,
                    &type_name,
                    &programs,
                    masks,
                    &mut secrets,
                )
                .map_err(|e| err(format!("{}: {e}", at(Direction::Response, i))))?,
            );
        }
        call.responses = out;
    }
    let scrub = Scrub::new(secrets.scrub.iter().map(String::as_bytes));
    for call in &mut calls {
        for m in call.requests.iter_mut().chain(call.responses.iter_mut()) {
            if let Some(s) = scrub.apply(m) {
                *m = Bytes::from(s);
            }
        }
        if let Some(s) = scrub.apply(call.status.message.as_bytes()) {
            call.status.message = String::from_utf8_lossy(&s).into_owned();
        }
    }
    session.calls = calls;
    session.redacted = true;
    for p in masks.patterns() {
        if !session.masks.contains(p) {
            session.masks.push(p.clone());
        }
    }
    Ok(())
}

/// The strings to overwrite wherever they occur, by their first [`MIN_SCRUB_BYTES`] bytes:
/// one pass over a message finds them all, however many there are.
struct Scrub<'s> {
    by_prefix: HashMap<&'s [u8], Vec<&'s [u8]>>,
}

impl<'s> Scrub<'s> {
    fn new(secrets: impl Iterator<Item = &'s [u8]>) -> Scrub<'s> {
        let mut by_prefix: HashMap<&[u8], Vec<&[u8]>> = HashMap::new();
        for s in secrets.filter(|s| s.len() >= MIN_SCRUB_BYTES) {
            by_prefix.entry(&s[..MIN_SCRUB_BYTES]).or_default().push(s);
        }
        Scrub { by_prefix }
    }

    /// `bytes` with every occurrence of every secret overwritten by `*`, or `None` when
    /// none occurs.
    fn apply(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        if self.by_prefix.is_empty() || bytes.len() < MIN_SCRUB_BYTES {
            return None;
        }
        let mut out: Option<Vec<u8>> = None;
        for i in 0..=bytes.len() - MIN_SCRUB_BYTES {
            let Some(candidates) = self.by_prefix.get(&bytes[i..i + MIN_SCRUB_BYTES]) else {
                continue;
            };
            for s in candidates {
                if bytes[i..].starts_with(s) {
                    out.get_or_insert_with(|| bytes.to_vec())[i..i + s.len()].fill(b'*');
                }
            }
        }
        out
    }
}

/// One message with its values redacted (the same `Bytes` when nothing changed).
fn message(
    method: Method,
    direction: Direction,
    frame: &Bytes,
    type_name: &str,
    programs: &Programs,
    masks: &Masks,
    secrets: &mut Secrets,
) -> Result<Bytes, String> {
    let decoded = match method.decode(direction, frame.clone()) {
        Ok(Message::Values(v)) => v,
        Ok(_) => return Ok(frame.clone()),
        Err(e) => return Err(format!("the message does not decode: {e}")),
    };
    let mut fields = Vec::new();
    decoded.dynamic_values(type_name, &mut |f| {
        let label = match f.index {
            Some(i) => format!("{}[{i}]", f.name),
            None => f.name.to_owned(),
        };
        fields.push((label, f.schema, f.value, true));
    });
    // The stored state `UpgradeResourceState` gets as JSON: redacted by the resource type's
    // schema when it conforms to it (a state of the current schema version); otherwise only
    // the overwriting by value reaches it.
    let raw = (method.name == "UpgradeResourceState" && direction == Direction::Request)
        .then(|| raw_state(method, frame))
        .flatten();
    let raw_type = decoded.type_name();
    if let Some(json) = raw.as_ref().filter(|j| !j.is_empty()) {
        let value = tfwire::DynamicValue { msgpack: &[], json };
        fields.push((
            "raw_state.json".to_owned(),
            SchemaRef::Resource(raw_type),
            value,
            false,
        ));
    }
    let base = frame.as_ptr() as usize;
    let mut replacements: Vec<(core::ops::Range<usize>, Vec<u8>)> = Vec::new();
    let arena = Bump::new();
    let mut decoder = tfwire::Decoder::new(tfwire::Config::default());
    for (field, schema, value, required) in fields {
        let program = match programs.get(schema) {
            Ok(p) => p,
            Err(_) if !required => continue,
            Err(e) => return Err(format!("{field}: no schema to redact it with: {e}")),
        };
        let v = match decoder.decode_dynamic_value(&program, value, &arena) {
            Ok(v) => v,
            Err(_) if !required => continue,
            Err(e) => return Err(format!("{field}: the value does not decode: {e}")),
        };
        let mut walk = Walk {
            masks,
            arena: &arena,
            secrets,
            changed: false,
        };
        let at = masks.start(schema.type_name());
        let redacted = match programs.block(schema) {
            Some(b) => walk.object(v, &b.attributes, &b.block_types, &at),
            None if matches!(schema, SchemaRef::Bool | SchemaRef::Number) => v,
            None => walk.plain(v, &at),
        };
        if !walk.changed {
            continue;
        }
        let (slice, bytes) = if value.msgpack.is_empty() {
            let json = tfwire::encode_json(&program, &redacted)
                .map_err(|e| format!("{field}: the redacted value does not encode: {e}"))?;
            (value.json, json.into_bytes())
        } else {
            let m = tfwire::encode_msgpack(&program, &redacted)
                .map_err(|e| format!("{field}: the redacted value does not encode: {e}"))?;
            (value.msgpack, m)
        };
        let start = (slice.as_ptr() as usize)
            .checked_sub(base)
            .filter(|s| s + slice.len() <= frame.len())
            .ok_or_else(|| format!("{field}: the value is not inside its message"))?;
        replacements.push((start..start + slice.len(), bytes));
    }
    if replacements.is_empty() {
        return Ok(frame.clone());
    }
    let mut out = Vec::with_capacity(frame.len());
    rewrite(frame, 0, &replacements, &mut out)?;
    Ok(Bytes::from(out))
}

/// The `raw_state.json` of an `UpgradeResourceState` request (a slice of `frame`).
fn raw_state(method: Method, frame: &Bytes) -> Option<Bytes> {
    use prost::Message as _;
    let raw = match method.protocol {
        tfwire::schema::Protocol::V5 => {
            crate::tfplugin5::upgrade_resource_state::Request::decode(frame.clone())
                .ok()?
                .raw_state?
                .json
        }
        tfwire::schema::Protocol::V6 => {
            crate::tfplugin6::upgrade_resource_state::Request::decode(frame.clone())
                .ok()?
                .raw_state?
                .json
        }
    };
    Some(raw)
}

/// Writes the protobuf message `msg` (which starts at `offset` in the frame) to `out` with
/// each replacement's range (frame offsets) replaced by its bytes: a length-delimited field
/// whose payload is exactly a range gets the new bytes and length; one whose payload holds a
/// range is a message, rewritten the same way with its new length; everything else is copied.
pub(crate) fn rewrite(
    msg: &[u8],
    offset: usize,
    replacements: &[(core::ops::Range<usize>, Vec<u8>)],
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let mut i = 0;
    while i < msg.len() {
        let field_start = i;
        let tag = varint(msg, &mut i)?;
        match tag & 7 {
            0 => {
                varint(msg, &mut i)?;
            }
            1 => i += 8,
            5 => i += 4,
            2 => {
                let tag_end = i;
                let len = usize::try_from(varint(msg, &mut i)?)
                    .map_err(|_| "a protobuf length beyond memory".to_owned())?;
                let p = i;
                let end = p
                    .checked_add(len)
                    .filter(|e| *e <= msg.len())
                    .ok_or_else(|| {
                        format!(
                            "a protobuf field past the message's end (byte {})",
                            offset + p
                        )
                    })?;
                let range = offset + p..offset + end;
                let exact = replacements.iter().find(|(r, _)| *r == range);
                let inside = replacements
                    .iter()
                    .any(|(r, _)| r.start >= range.start && r.end <= range.end && *r != range);
                if let Some((_, bytes)) = exact {
                    out.extend_from_slice(&msg[field_start..tag_end]);
                    put_varint(out, bytes.len() as u64);
                    out.extend_from_slice(bytes);
                } else if inside {
                    let mut sub = Vec::with_capacity(len);
                    rewrite(&msg[p..end], offset + p, replacements, &mut sub)?;
                    out.extend_from_slice(&msg[field_start..tag_end]);
                    put_varint(out, sub.len() as u64);
                    out.extend_from_slice(&sub);
                } else {
                    out.extend_from_slice(&msg[field_start..end]);
                }
                i = end;
                continue;
            }
            w => {
                return Err(format!(
                    "protobuf wire type {w} at byte {} (groups are not used by the protocol)",
                    offset + field_start
                ));
            }
        }
        if i > msg.len() {
            return Err(format!(
                "a protobuf field past the message's end (byte {})",
                offset + field_start
            ));
        }
        out.extend_from_slice(&msg[field_start..i]);
    }
    Ok(())
}

fn varint(b: &[u8], i: &mut usize) -> Result<u64, String> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let Some(&x) = b.get(*i) else {
            return Err(format!("a protobuf varint cut short at byte {i}"));
        };
        *i += 1;
        n |= u64::from(x & 0x7f) << shift;
        if x & 0x80 == 0 {
            return Ok(n);
        }
    }
    Err(format!(
        "a protobuf varint longer than 10 bytes before byte {i}"
    ))
}

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The session's secrets: each distinct one's placeholder number, and the strings to look
/// for elsewhere.
#[derive(Default)]
struct Secrets {
    numbers: HashMap<(bool, String), u64>,
    scrub: BTreeSet<String>,
}

impl Secrets {
    /// The placeholder number of a string (`true`) or number (`false`, its canonical text).
    fn number(&mut self, string: bool, text: &str) -> u64 {
        let next = self.numbers.len() as u64 + 1;
        if string && !is_placeholder(text) {
            self.scrub.insert(text.to_owned());
        }
        *self
            .numbers
            .entry((string, text.to_owned()))
            .or_insert(next)
    }
}

/// Whether a string is a redaction's placeholder (`(redacted-N)`): in a redacted session,
/// such a string stands for a secret, whatever the position.
///
/// ```
/// use tfwire_plugin::cassette::redact::is_placeholder;
/// assert!(is_placeholder("(redacted-12)"));
/// assert!(!is_placeholder("(redacted-)") && !is_placeholder("redacted-1"));
/// ```
pub fn is_placeholder(s: &str) -> bool {
    s.strip_prefix("(redacted-")
        .and_then(|r| r.strip_suffix(')'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// One value's walk: the schema and masks say what is secret, [`Walk::hide`] replaces it.
struct Walk<'m, 'a> {
    masks: &'m Masks,
    arena: &'a Bump,
    secrets: &'m mut Secrets,
    changed: bool,
}

impl<'a> Walk<'_, 'a> {
    /// A value of a block (or nested attribute object).
    fn object(
        &mut self,
        v: Value<'a>,
        attrs: &[Attribute],
        blocks: &[NestedBlock],
        at: &Cursor,
    ) -> Value<'a> {
        if at.is_masked() {
            return self.hide(v);
        }
        let (entries, map) = match v {
            Value::Object(e) => (e, false),
            Value::Map(e) => (e, true),
            Value::Dynamic(d) => {
                let inner = self.object(d.value, attrs, blocks, at);
                return self.rewrap(d, inner);
            }
            other => return self.plain(other, at),
        };
        let mut out = Vec::with_capacity(entries.len());
        for &(name, x) in entries {
            let at = self.masks.step(at, name);
            let x = if at.is_masked() {
                self.hide(x)
            } else if let Ok(a) = attrs.binary_search_by(|a| a.name.as_str().cmp(name)) {
                self.attribute(x, &attrs[a], &at)
            } else if let Ok(b) = blocks.binary_search_by(|b| b.type_name.as_str().cmp(name)) {
                let nb = &blocks[b];
                self.collection(
                    x,
                    nb.nesting,
                    &nb.block.attributes,
                    &nb.block.block_types,
                    &at,
                )
            } else {
                self.plain(x, &at)
            };
            out.push((name, x));
        }
        let out = self.arena.alloc_slice_fill_iter(out);
        if map {
            Value::Map(out)
        } else {
            Value::Object(out)
        }
    }

    fn attribute(&mut self, v: Value<'a>, a: &Attribute, at: &Cursor) -> Value<'a> {
        if a.sensitive || a.write_only {
            return self.hide(v);
        }
        match &a.ty {
            AttributeType::Type(_) => self.plain(v, at),
            AttributeType::Nested(n) => self.collection(v, n.nesting, &n.attributes, &[], at),
        }
    }

    /// Blocks (or nested attribute objects) nested as one object, a list, a set or a map.
    fn collection(
        &mut self,
        v: Value<'a>,
        nesting: Nesting,
        attrs: &[Attribute],
        blocks: &[NestedBlock],
        at: &Cursor,
    ) -> Value<'a> {
        if let Value::Dynamic(d) = v {
            let inner = self.collection(d.value, nesting, attrs, blocks, at);
            return self.rewrap(d, inner);
        }
        match (nesting, v) {
            (Nesting::Single | Nesting::Group, _) => self.object(v, attrs, blocks, at),
            (_, Value::List(e) | Value::Set(e) | Value::Tuple(e)) => {
                let out: Vec<_> = e
                    .iter()
                    .map(|&x| self.object(x, attrs, blocks, at))
                    .collect();
                let out = self.arena.alloc_slice_fill_iter(out);
                match v {
                    Value::List(_) => Value::List(out),
                    Value::Set(_) => Value::Set(out),
                    _ => Value::Tuple(out),
                }
            }
            (_, Value::Map(e) | Value::Object(e)) => {
                let mut out = Vec::with_capacity(e.len());
                for &(k, x) in e {
                    let at = self.masks.step(at, k);
                    out.push((k, self.object(x, attrs, blocks, &at)));
                }
                let out = self.arena.alloc_slice_fill_iter(out);
                if matches!(v, Value::Map(_)) {
                    Value::Map(out)
                } else {
                    Value::Object(out)
                }
            }
            _ => self.plain(v, at),
        }
    }

    /// A value without a schema below it: only masks can hide parts of it.
    fn plain(&mut self, v: Value<'a>, at: &Cursor) -> Value<'a> {
        if at.is_masked() {
            return self.hide(v);
        }
        if at.is_dead() {
            return v;
        }
        match v {
            Value::List(e) | Value::Set(e) | Value::Tuple(e) => {
                let out: Vec<_> = e.iter().map(|&x| self.plain(x, at)).collect();
                let out = self.arena.alloc_slice_fill_iter(out);
                match v {
                    Value::List(_) => Value::List(out),
                    Value::Set(_) => Value::Set(out),
                    _ => Value::Tuple(out),
                }
            }
            Value::Map(e) | Value::Object(e) => {
                let mut out = Vec::with_capacity(e.len());
                for &(k, x) in e {
                    let at = self.masks.step(at, k);
                    out.push((k, self.plain(x, &at)));
                }
                let out = self.arena.alloc_slice_fill_iter(out);
                if matches!(v, Value::Map(_)) {
                    Value::Map(out)
                } else {
                    Value::Object(out)
                }
            }
            Value::Dynamic(d) => {
                let inner = self.plain(d.value, at);
                self.rewrap(d, inner)
            }
            other => other,
        }
    }

    fn rewrap(&mut self, d: &'a Dynamic<'a>, value: Value<'a>) -> Value<'a> {
        Value::Dynamic(self.arena.alloc(Dynamic { ty: d.ty, value }))
    }

    /// The placeholder of a secret value (see the module docs).
    fn hide(&mut self, v: Value<'a>) -> Value<'a> {
        match v {
            Value::Null | Value::Unknown(_) => v,
            Value::Bool(b) => {
                self.changed |= b;
                Value::Bool(false)
            }
            Value::Number(n) => {
                let mut text = String::new();
                let _ = n.write_canonical(&mut text);
                let k = self.secrets.number(false, &text);
                self.changed = true;
                Value::Number(Number::Int(k as i64))
            }
            Value::String(s) if is_placeholder(s) => v,
            Value::String(s) => {
                let k = self.secrets.number(true, s);
                let p = format!("(redacted-{k})");
                self.changed |= p != s;
                Value::String(self.arena.alloc_str(&p))
            }
            Value::List(e) | Value::Set(e) | Value::Tuple(e) => {
                let out: Vec<_> = e.iter().map(|&x| self.hide(x)).collect();
                let out = self.arena.alloc_slice_fill_iter(out);
                match v {
                    Value::List(_) => Value::List(out),
                    Value::Set(_) => Value::Set(out),
                    _ => Value::Tuple(out),
                }
            }
            Value::Object(e) => {
                let out: Vec<_> = e.iter().map(|&(k, x)| (k, self.hide(x))).collect();
                Value::Object(self.arena.alloc_slice_fill_iter(out))
            }
            Value::Map(e) => {
                let mut out = Vec::with_capacity(e.len());
                for &(k, x) in e {
                    let n = self.secrets.number(true, k);
                    let key = format!("(redacted-{n})");
                    self.changed |= key != k;
                    out.push((&*self.arena.alloc_str(&key), self.hide(x)));
                }
                out.sort_by(|a, b| a.0.cmp(b.0));
                Value::Map(self.arena.alloc_slice_fill_iter(out))
            }
            Value::Dynamic(d) => {
                let inner = self.hide(d.value);
                self.rewrap(d, inner)
            }
        }
    }
}

/// The masks a redacted session was redacted with ([`Session::masks`]), to tell which of
/// its positions hold placeholders.
///
/// # Errors
///
/// A pattern of the file that is not one ([`ErrorKind::Cassette`]).
pub fn masks_of(session: &Session) -> Result<Masks, Error> {
    let mut masks = Masks::new();
    for p in &session.masks {
        masks
            .add(p)
            .map_err(|e| err(format!("the session's mask {p:?}: {e}")))?;
    }
    Ok(masks)
}
