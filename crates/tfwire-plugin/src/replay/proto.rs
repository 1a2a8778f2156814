//! Requests as comparable trees: every protobuf field by its descriptor (the protocol's own
//! `.proto`, compiled at build time), every `DynamicValue` decoded with its schema
//! ([`super::value`]), the volatile fields left out.

use super::diff::Diff;
use super::value::{V, ValueTree};
use crate::rpc::{Direction, Method};
use bytes::Bytes;
use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type as FieldType};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// The protocol's descriptors, as the build compiled them.
const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/plugin.fds"));

/// The deepest nesting of messages read (the protocol's requests nest a few levels; a
/// hostile frame cannot recurse further).
const MAX_DEPTH: usize = 32;

/// The fields a request carries that say nothing about what it asks, left out of the
/// comparison (see the module documentation of [`crate::replay`] for why each).
pub const VOLATILE: [&str; 6] = [
    "client_capabilities",
    "terraform_version",
    "private",
    "prior_private",
    "planned_private",
    "source_private",
];

/// What a field holds, from its descriptor.
#[derive(Debug)]
enum Kind {
    /// A varint (ints, bools, enums).
    Varint,
    /// 8 bytes.
    Fixed64,
    /// 4 bytes.
    Fixed32,
    /// `string` or `bytes`.
    Bytes,
    /// A message of the named type.
    Message(String),
    /// A map field: its entry message's type.
    Map(String),
}

#[derive(Debug)]
struct FieldDesc {
    name: &'static str,
    kind: Kind,
    repeated: bool,
}

/// The message types, by full name (`.tfplugin6.PlanResourceChange.Request`), and the
/// request type of every method path.
#[derive(Debug, Default)]
struct Descriptors {
    messages: HashMap<String, HashMap<u32, FieldDesc>>,
    inputs: HashMap<String, String>,
}

fn descriptors() -> &'static Descriptors {
    static D: OnceLock<Descriptors> = OnceLock::new();
    D.get_or_init(|| {
        // Compiled by this crate's build from its own `.proto` files: they decode.
        let fds = prost_types::FileDescriptorSet::decode(DESCRIPTORS).unwrap_or_default();
        let mut d = Descriptors::default();
        let mut maps = Vec::new();
        for f in &fds.file {
            let prefix = format!(".{}", f.package());
            for m in &f.message_type {
                collect(&prefix, m, &mut d, &mut maps);
            }
            for s in &f.service {
                for m in &s.method {
                    d.inputs.insert(
                        format!("/{}.{}/{}", f.package(), s.name(), m.name()),
                        m.input_type().to_owned(),
                    );
                }
            }
        }
        // A repeated field of a map entry type is a map.
        for fields in d.messages.values_mut() {
            for f in fields.values_mut() {
                if let Kind::Message(t) = &f.kind
                    && maps.contains(t)
                {
                    f.kind = Kind::Map(t.clone());
                }
            }
        }
        d
    })
}

fn collect(
    prefix: &str,
    m: &prost_types::DescriptorProto,
    d: &mut Descriptors,
    maps: &mut Vec<String>,
) {
    let name = format!("{prefix}.{}", m.name());
    if m.options.as_ref().is_some_and(|o| o.map_entry()) {
        maps.push(name.clone());
    }
    let mut fields = HashMap::new();
    for f in &m.field {
        let kind = match f.r#type() {
            FieldType::Message | FieldType::Group => Kind::Message(f.type_name().to_owned()),
            FieldType::String | FieldType::Bytes => Kind::Bytes,
            FieldType::Double | FieldType::Fixed64 | FieldType::Sfixed64 => Kind::Fixed64,
            FieldType::Float | FieldType::Fixed32 | FieldType::Sfixed32 => Kind::Fixed32,
            _ => Kind::Varint,
        };
        fields.insert(
            u32::try_from(f.number()).unwrap_or(0),
            FieldDesc {
                // The descriptors live as long as the program: their names too.
                name: Box::leak(f.name().to_owned().into_boxed_str()),
                kind,
                repeated: f.label() == Label::Repeated,
            },
        );
    }
    d.messages.insert(name.clone(), fields);
    for n in &m.nested_type {
        collect(&name, n, d, maps);
    }
}

/// A request (or a part of one) as compared.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// A varint or fixed-size number.
    Scalar(u64),
    /// A string or `bytes` field.
    Bytes(Bytes),
    /// A message: its fields present, by number, each with its values in order (one for a
    /// singular field).
    Message(Vec<(u32, &'static str, Vec<Node>)>),
    /// A map field's entries, sorted by key.
    Map(Vec<(Node, Node)>),
    /// A `DynamicValue` (or `RawState.json`), decoded.
    Value(V),
}

/// Why a frame does not read as its method's request.
pub(crate) type Malformed = String;

/// What a tree is built with: the schema programs, the request's type name (for the
/// `DynamicValue`s' schemas), the method.
pub(crate) struct Context<'c> {
    pub(crate) method: Method,
    pub(crate) type_name: &'c str,
    pub(crate) values: &'c ValueTree<'c>,
}

/// The request frame `frame` of `method` as a tree.
pub(crate) fn request_tree(cx: &Context<'_>, frame: &Bytes) -> Result<Node, Malformed> {
    let d = descriptors();
    let Some(ty) = d.inputs.get(cx.method.path) else {
        return Ok(Node::Bytes(frame.clone()));
    };
    message(cx, d, ty, frame, None, 0)
}

/// The type name a request frame of `method` names (`""` when none, or when it does not
/// decode).
pub(crate) fn type_name(method: Method, frame: &Bytes) -> String {
    match method.decode(Direction::Request, frame.clone()) {
        Ok(crate::rpc::Message::Values(m)) => m.type_name().to_owned(),
        _ => String::new(),
    }
}

/// One wire field: its number and its payload.
enum Wire {
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Len(Bytes),
}

fn varint(b: &[u8], at: &mut usize) -> Result<u64, Malformed> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b
            .get(*at)
            .ok_or_else(|| format!("a varint runs past the end (at byte {at})"))?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(format!("a varint longer than 10 bytes (at byte {at})"))
}

fn fields(frame: &Bytes) -> Result<Vec<(u32, Wire)>, Malformed> {
    let b = &frame[..];
    let mut at = 0;
    let mut out = Vec::new();
    while at < b.len() {
        let start = at;
        let key = varint(b, &mut at)?;
        let number = u32::try_from(key >> 3)
            .map_err(|_| format!("field number out of range (at byte {start})"))?;
        let take = |at: &mut usize, n: usize| -> Result<&[u8], Malformed> {
            let s = b
                .get(*at..at.saturating_add(n))
                .ok_or_else(|| format!("field {number} runs past the end (at byte {start})"))?;
            *at += n;
            Ok(s)
        };
        let w = match key & 7 {
            0 => Wire::Varint(varint(b, &mut at)?),
            1 => Wire::Fixed64(u64::from_le_bytes(
                take(&mut at, 8)?.try_into().unwrap_or_default(),
            )),
            5 => Wire::Fixed32(u32::from_le_bytes(
                take(&mut at, 4)?.try_into().unwrap_or_default(),
            )),
            2 => {
                let n = usize::try_from(varint(b, &mut at)?).unwrap_or(usize::MAX);
                let s = at;
                take(&mut at, n)?;
                Wire::Len(frame.slice(s..s + n))
            }
            t => return Err(format!("wire type {t} of field {number} (at byte {start})")),
        };
        out.push((number, w));
    }
    Ok(out)
}

/// The top-level field a value sits under (its name and index in a repeated field): what
/// its schema is looked up by ([`Method::field_schema`]).
type Top = Option<(&'static str, Option<usize>)>;

fn message(
    cx: &Context<'_>,
    d: &Descriptors,
    ty: &str,
    frame: &Bytes,
    top: Top,
    depth: usize,
) -> Result<Node, Malformed> {
    if depth > MAX_DEPTH {
        return Err(format!("messages nested deeper than {MAX_DEPTH}"));
    }
    if ty.ends_with(".DynamicValue") {
        let dv = tfwire::DynamicValue::from_protobuf(frame).map_err(|e| e.to_string())?;
        return Ok(Node::Value(cx.values.dynamic(
            cx.method,
            cx.type_name,
            top,
            dv,
        )));
    }
    let Some(desc) = d.messages.get(ty) else {
        return Ok(Node::Bytes(frame.clone()));
    };
    let raw_state = ty.ends_with(".RawState");
    let mut out: Vec<(u32, &'static str, Vec<Node>)> = Vec::new();
    let mut indexes: HashMap<u32, usize> = HashMap::new();
    for (number, w) in fields(frame)? {
        let Some(f) = desc.get(&number) else {
            // A field of a newer protocol: compared as it came.
            let node = match w {
                Wire::Varint(v) | Wire::Fixed64(v) => Node::Scalar(v),
                Wire::Fixed32(v) => Node::Scalar(u64::from(v)),
                Wire::Len(b) => Node::Bytes(b),
            };
            push(&mut out, number, "(unknown field)", node, true);
            continue;
        };
        if VOLATILE.contains(&f.name) {
            continue;
        }
        let index = indexes.entry(number).or_default();
        let top = top.or(Some((f.name, f.repeated.then_some(*index))));
        *index += 1;
        let nodes: Vec<Node> = match (&f.kind, w) {
            (Kind::Message(t), Wire::Len(b)) => vec![message(cx, d, t, &b, top, depth + 1)?],
            (Kind::Map(t), Wire::Len(b)) => {
                let entry = message(cx, d, t, &b, top, depth + 1)?;
                let (k, v) = map_entry(entry);
                merge_map(&mut out, number, f.name, k, v);
                continue;
            }
            (Kind::Bytes, Wire::Len(b)) if raw_state && f.name == "json" => {
                vec![Node::Value(cx.values.raw_state(cx.type_name, &b))]
            }
            (Kind::Bytes, Wire::Len(b)) => vec![Node::Bytes(b)],
            // Packed repeated numbers.
            (Kind::Varint, Wire::Len(b)) => {
                let mut at = 0;
                let mut v = Vec::new();
                while at < b.len() {
                    v.push(Node::Scalar(varint(&b, &mut at)?));
                }
                v
            }
            (Kind::Fixed64, Wire::Len(b)) => b
                .chunks(8)
                .map(|c| Node::Scalar(u64::from_le_bytes(c.try_into().unwrap_or_default())))
                .collect(),
            (Kind::Fixed32, Wire::Len(b)) => b
                .chunks(4)
                .map(|c| {
                    Node::Scalar(u64::from(u32::from_le_bytes(
                        c.try_into().unwrap_or_default(),
                    )))
                })
                .collect(),
            (Kind::Varint | Kind::Fixed64, Wire::Varint(v) | Wire::Fixed64(v)) => {
                vec![Node::Scalar(v)]
            }
            (_, Wire::Fixed32(v)) => vec![Node::Scalar(u64::from(v))],
            (k, _) => return Err(format!("field {} ({k:?}): unexpected wire type", f.name)),
        };
        for n in nodes {
            push(&mut out, number, f.name, n, f.repeated);
        }
    }
    // proto3: a scalar at its default is the field absent.
    out.retain(|(_, _, v)| {
        !(v.len() == 1 && matches!(&v[0], Node::Scalar(0))
            || matches!(&v[..], [Node::Bytes(b)] if b.is_empty()))
    });
    out.sort_by_key(|(n, _, _)| *n);
    for (_, _, v) in &mut out {
        if let [Node::Map(entries)] = &mut v[..] {
            entries.sort_by(|a, b| key_order(&a.0).cmp(&key_order(&b.0)));
        }
    }
    Ok(Node::Message(out))
}

fn push(
    out: &mut Vec<(u32, &'static str, Vec<Node>)>,
    number: u32,
    name: &'static str,
    node: Node,
    repeated: bool,
) {
    match out.iter_mut().find(|(n, _, _)| *n == number) {
        // A singular field given twice: the last occurrence wins (protobuf's rule).
        Some((_, _, v)) if !repeated => *v = vec![node],
        Some((_, _, v)) => v.push(node),
        None => out.push((number, name, vec![node])),
    }
}

fn map_entry(entry: Node) -> (Node, Node) {
    let mut k = Node::Bytes(Bytes::new());
    let mut v = Node::Bytes(Bytes::new());
    if let Node::Message(fields) = entry {
        for (n, _, mut vs) in fields {
            match (n, vs.pop()) {
                (1, Some(x)) => k = x,
                (2, Some(x)) => v = x,
                _ => {}
            }
        }
    }
    (k, v)
}

fn merge_map(
    out: &mut Vec<(u32, &'static str, Vec<Node>)>,
    number: u32,
    name: &'static str,
    k: Node,
    v: Node,
) {
    let slot = match out.iter_mut().position(|(n, _, _)| *n == number) {
        Some(i) => &mut out[i].2,
        None => {
            out.push((number, name, vec![Node::Map(Vec::new())]));
            &mut out.last_mut().expect("pushed").2
        }
    };
    if let Some(Node::Map(entries)) = slot.first_mut() {
        // A key given twice: the last entry wins, as in protobuf.
        entries.retain(|(ek, _)| *ek != k);
        entries.push((k, v));
    }
}

fn key_order(k: &Node) -> (u8, u64, &[u8]) {
    match k {
        Node::Scalar(v) => (0, *v, &[]),
        Node::Bytes(b) => (1, 0, b),
        _ => (2, 0, &[]),
    }
}

impl Node {
    /// A hash consistent with [`Node::matches`] (`redacted`: sensitive positions hashed by
    /// their kind only).
    pub(crate) fn fingerprint(&self, redacted: bool, h: &mut impl Hasher) {
        match self {
            Node::Scalar(v) => (0u8, v).hash(h),
            Node::Bytes(b) => (1u8, &b[..]).hash(h),
            Node::Message(fields) => {
                2u8.hash(h);
                for (n, _, vs) in fields {
                    (n, vs.len()).hash(h);
                    for v in vs {
                        v.fingerprint(redacted, h);
                    }
                }
            }
            Node::Map(entries) => {
                (3u8, entries.len()).hash(h);
                for (k, v) in entries {
                    k.fingerprint(redacted, h);
                    v.fingerprint(redacted, h);
                }
            }
            Node::Value(v) => {
                4u8.hash(h);
                v.fingerprint(redacted, h);
            }
        }
    }

    /// Whether a request matches the recorded one (`self`): equal field by field, values
    /// compared as values (`redacted`: a sensitive position matches any value of its kind).
    pub(crate) fn matches(&self, found: &Node, redacted: bool) -> bool {
        let mut d = Diff::counting(1);
        diff(self, found, &mut String::new(), redacted, &mut d);
        d.count == 0
    }
}

/// Compares `expected` (recorded) with `found` (the new request) at `path`.
pub(crate) fn diff(expected: &Node, found: &Node, path: &mut String, redacted: bool, d: &mut Diff) {
    if d.full() {
        return;
    }
    match (expected, found) {
        (Node::Message(a), Node::Message(b)) => {
            let (mut i, mut j) = (0, 0);
            while (i < a.len() || j < b.len()) && !d.full() {
                let (na, nb) = (a.get(i).map(|f| f.0), b.get(j).map(|f| f.0));
                let len = path.len();
                match (na, nb) {
                    (Some(x), Some(y)) if x == y => {
                        field_path(path, a[i].1);
                        list(&a[i].2, &b[j].2, path, redacted, d);
                        i += 1;
                        j += 1;
                    }
                    (Some(x), y) if y.is_none_or(|y| x < y) => {
                        field_path(path, a[i].1);
                        d.add(path, || show_nodes(&a[i].2), || "(not set)".into());
                        i += 1;
                    }
                    _ => {
                        field_path(path, b[j].1);
                        d.add(path, || "(not set)".into(), || show_nodes(&b[j].2));
                        j += 1;
                    }
                }
                path.truncate(len);
            }
        }
        (Node::Map(a), Node::Map(b)) => {
            for (k, v) in a {
                let len = path.len();
                path.push_str(&format!("[{}]", show(k)));
                match b.iter().find(|(bk, _)| bk == k) {
                    Some((_, bv)) => diff(v, bv, path, redacted, d),
                    None => d.add(path, || show(v), || "(absent)".into()),
                }
                path.truncate(len);
            }
            for (k, v) in b {
                if !a.iter().any(|(ak, _)| ak == k) {
                    let len = path.len();
                    path.push_str(&format!("[{}]", show(k)));
                    d.add(path, || "(absent)".into(), || show(v));
                    path.truncate(len);
                }
            }
        }
        (Node::Value(a), Node::Value(b)) => super::value::diff(a, b, path, redacted, d),
        (a, b) if a == b => {}
        (a, b) => d.add(path, || show(a), || show(b)),
    }
}

fn field_path(path: &mut String, name: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(name);
}

fn list(a: &[Node], b: &[Node], path: &mut String, redacted: bool, d: &mut Diff) {
    if a.len() == 1 && b.len() == 1 {
        return diff(&a[0], &b[0], path, redacted, d);
    }
    for i in 0..a.len().max(b.len()) {
        let len = path.len();
        path.push_str(&format!("[{i}]"));
        match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) => diff(x, y, path, redacted, d),
            (Some(x), None) => d.add(path, || show(x), || "(absent)".into()),
            (None, Some(y)) => d.add(path, || "(absent)".into(), || show(y)),
            (None, None) => {}
        }
        path.truncate(len);
    }
}

fn show_nodes(v: &[Node]) -> String {
    match v {
        [one] => show(one),
        many => format!("{} values", many.len()),
    }
}

/// A node for a message: numbers as they are, text quoted, a message by its size.
pub(crate) fn show(n: &Node) -> String {
    match n {
        Node::Scalar(v) => v.to_string(),
        Node::Bytes(b) => match core::str::from_utf8(b) {
            Ok(s) => super::value::quote(s),
            Err(_) => format!("{} bytes", b.len()),
        },
        Node::Message(f) => format!("a message of {} fields", f.len()),
        Node::Map(e) => format!("a map of {} entries", e.len()),
        Node::Value(v) => v.show(),
    }
}
