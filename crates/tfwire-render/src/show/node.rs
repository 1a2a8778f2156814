//! [`Node`]: the one value the renderer walks, either a document's untyped JSON, a value
//! decoded with its schema (`tfwire::Value`, as `state show --schemas` decodes it in place),
//! or a tree built for the renderer (the sensitivity marks `state show --schemas` merges
//! from the document and the schema), so that one renderer draws all three and nothing is
//! written out as JSON text only to be parsed again.
//!
//! A typed value reads as the JSON `show -json` writes for it (go-cty's `ctyjson.Marshal`):
//! lists, sets and tuples are arrays, maps and objects are objects, a value at a `dynamic`
//! position is its own value, and a number is go-cty's text of it.

use std::fmt;
use tfwire::Value;
use tfwire_json::{Escape, JsonWriter};
use tfwire_plan::{Array, ArrayIter, Json, JsonKind, JsonNumber, Object, ObjectIter};

/// One value the renderer draws (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    /// A value of a JSON document (plan or state): its numbers drawn as go-cty writes them.
    Json(Json<'a>),
    /// A value of JSON text the clients decode themselves, with `json.Decoder.UseNumber`: a
    /// string's content that is JSON (`jsonencode(...)`). Its numbers are drawn and
    /// compared as written (`1.50`, `-0`, `1E2`), as the clients' `json.Number`s.
    Written(Json<'a>),
    /// A value decoded with its schema. Never unknown: callers check
    /// [`Value::is_wholly_known`] (a state holds known values only); an unknown reads as
    /// null.
    Typed(Value<'a>),
    /// An object built for the renderer (arena-allocated members, in order; a key may occur
    /// twice, as in a document, and then reads as its last occurrence).
    Object(&'a [(&'a str, Node<'a>)]),
    /// An array built for the renderer.
    Array(&'a [Node<'a>]),
}

impl<'a> Node<'a> {
    /// The JSON kind the value is drawn as.
    pub(crate) fn kind(&self) -> JsonKind {
        match *self {
            Node::Json(j) | Node::Written(j) => j.kind(),
            Node::Typed(v) => match v.unwrap_dynamic() {
                Value::Null | Value::Unknown(_) | Value::Dynamic(_) => JsonKind::Null,
                Value::Bool(_) => JsonKind::Bool,
                Value::Number(_) => JsonKind::Number,
                Value::String(_) => JsonKind::String,
                Value::List(_) | Value::Set(_) | Value::Tuple(_) => JsonKind::Array,
                Value::Map(_) | Value::Object(_) => JsonKind::Object,
            },
            Node::Object(_) => JsonKind::Object,
            Node::Array(_) => JsonKind::Array,
        }
    }

    /// Whether the value is null.
    pub(crate) fn is_null(&self) -> bool {
        self.kind() == JsonKind::Null
    }

    /// The bool, if this is one.
    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Node::Json(j) | Node::Written(j) => j.as_bool(),
            Node::Typed(v) => v.as_bool(),
            Node::Object(_) | Node::Array(_) => None,
        }
    }

    /// The string, if this is one.
    pub(crate) fn as_str(&self) -> Option<&'a str> {
        match self {
            Node::Json(j) | Node::Written(j) => j.as_str(),
            Node::Typed(v) => v.as_str(),
            Node::Object(_) | Node::Array(_) => None,
        }
    }

    /// A number as OpenTofu writes it in plans: integers and decimals in positional
    /// notation, never with an exponent (`0.00000015`, not `1.5e-7`), and numbers kept as
    /// text as written (a typed number: go-cty's JSON text of it, which is positional and
    /// exact). `None` when this is not a number.
    pub(crate) fn number_text(&self) -> Option<String> {
        match self {
            Node::Json(j) => j.as_number().map(|n| match n {
                JsonNumber::F64(x) if x.is_finite() => format!("{x}"),
                other => other.to_string(),
            }),
            Node::Written(j) => j.as_number_text().map(str::to_string),
            Node::Typed(v) => v.as_number().map(|n| drawn(&typed_text(Value::Number(n)))),
            Node::Object(_) | Node::Array(_) => None,
        }
    }

    /// The text two numbers are compared by: a [`Node::Written`] number's as written (the
    /// clients compare `json.Number`s by their text: `1e2` and `1E2` differ), any other's
    /// JSON text.
    pub(crate) fn compared_text(&self) -> String {
        match self {
            Node::Written(j) => j
                .as_number_text()
                .map_or_else(|| j.to_string(), str::to_string),
            _ => self.to_string(),
        }
    }

    /// The members of an object (or map).
    pub(crate) fn as_object(&self) -> Option<Members<'a>> {
        match self {
            Node::Json(j) => j.as_object().map(Members::Json),
            Node::Written(j) => j.as_object().map(Members::Written),
            Node::Typed(v) => v.entries().map(Members::Typed),
            Node::Object(ms) => Some(Members::Built(ms)),
            Node::Array(_) => None,
        }
    }

    /// The elements of an array (list, set or tuple).
    pub(crate) fn as_array(&self) -> Option<Elements<'a>> {
        match self {
            Node::Json(j) => j.as_array().map(Elements::Json),
            Node::Written(j) => j.as_array().map(Elements::Written),
            Node::Typed(v) => v.elements().map(Elements::Typed),
            Node::Array(es) => Some(Elements::Built(es)),
            Node::Object(_) => None,
        }
    }
}

/// A number's `show -json` text as the renderer draws a document's number with that text
/// (the classification of [`JsonNumber`]): an integer that fits 64 bits as that integer
/// (`-0` is `0`), text of 16 characters or more (or an exponent beyond an `f64`'s normal
/// range) as written, any other number as the shortest positional text of its `f64`.
fn drawn(text: &str) -> String {
    if let Ok(n) = text.parse::<u64>() {
        return n.to_string();
    }
    if let Ok(n) = text.parse::<i64>() {
        return n.to_string();
    }
    let mut parts = text.split(['e', 'E']);
    let mantissa = parts.next().unwrap_or_default();
    let exponent = parts.next().is_some();
    match text.parse::<f64>() {
        Ok(x)
            if x.is_finite()
                && text.len() < 16
                && (x.is_normal()
                    || !exponent
                    || !mantissa.bytes().any(|b| b.is_ascii_digit() && b != b'0')) =>
        {
            format!("{x}")
        }
        _ => text.to_string(),
    }
}

/// `show -json`'s text of a typed value (`null` for one that is not wholly known, which
/// callers rule out).
fn typed_text(v: Value<'_>) -> String {
    let mut out = String::new();
    if tfwire_planfile::write_show_json(&mut out, v).is_err() {
        out.clear();
        out.push_str("null");
    }
    out
}

/// The value as JSON text, as the document holds it (a typed value: as `show -json` writes
/// it; a built one: compact, members in order).
impl fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Json(j) | Node::Written(j) => write!(f, "{j}"),
            Node::Typed(v) => f.write_str(&typed_text(*v)),
            Node::Object(_) | Node::Array(_) => {
                self.write_json(&mut JsonWriter::new(f, Escape::Safe))
            }
        }
    }
}

impl Node<'_> {
    /// Writes the value as [`Display`](fmt::Display) does, as one value of `w`'s document.
    fn write_json<W: fmt::Write>(&self, w: &mut JsonWriter<W>) -> fmt::Result {
        match self {
            Node::Json(j) | Node::Written(j) => w.raw(&j.to_string()),
            Node::Typed(v) => w.raw(&typed_text(*v)),
            Node::Object(members) => {
                w.begin_object()?;
                for (k, v) in members.iter() {
                    w.key(k)?;
                    v.write_json(w)?;
                }
                w.end_object()
            }
            Node::Array(elements) => {
                w.begin_array()?;
                for v in elements.iter() {
                    v.write_json(w)?;
                }
                w.end_array()
            }
        }
    }
}

/// The members of an object: a document's (in document order), a typed map's or
/// object's (sorted by key), or a built object's (in order).
#[derive(Clone, Copy)]
pub(crate) enum Members<'a> {
    Json(Object<'a>),
    Written(Object<'a>),
    Typed(&'a [(&'a str, Value<'a>)]),
    Built(&'a [(&'a str, Node<'a>)]),
}

impl<'a> Members<'a> {
    /// How many members there are.
    pub(crate) fn len(&self) -> usize {
        match self {
            Members::Json(o) | Members::Written(o) => o.len(),
            Members::Typed(es) => es.len(),
            Members::Built(ms) => ms.len(),
        }
    }

    /// The member `key`.
    pub(crate) fn get(&self, key: &str) -> Option<Node<'a>> {
        match self {
            Members::Json(o) => o.get(key).map(Node::Json),
            Members::Written(o) => o.get(key).map(Node::Written),
            Members::Typed(es) => es
                .binary_search_by(|(k, _)| (*k).cmp(key))
                .ok()
                .map(|i| Node::Typed(es[i].1)),
            // The last occurrence, as for a document's object.
            Members::Built(ms) => ms.iter().rev().find(|(k, _)| *k == key).map(|m| m.1),
        }
    }

    /// The members, keys with values.
    pub(crate) fn iter(&self) -> MemberIter<'a> {
        match *self {
            Members::Json(o) => MemberIter::Json(o.iter()),
            Members::Written(o) => MemberIter::Written(o.iter()),
            Members::Typed(es) => MemberIter::Typed(es.iter()),
            Members::Built(ms) => MemberIter::Built(ms.iter()),
        }
    }
}

/// The iterator of [`Members::iter`].
pub(crate) enum MemberIter<'a> {
    Json(ObjectIter<'a>),
    Written(ObjectIter<'a>),
    Typed(std::slice::Iter<'a, (&'a str, Value<'a>)>),
    Built(std::slice::Iter<'a, (&'a str, Node<'a>)>),
}

impl<'a> Iterator for MemberIter<'a> {
    type Item = (&'a str, Node<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            MemberIter::Json(it) => it.next().map(|(k, v)| (k, Node::Json(v))),
            MemberIter::Written(it) => it.next().map(|(k, v)| (k, Node::Written(v))),
            MemberIter::Typed(it) => it.next().map(|(k, v)| (*k, Node::Typed(*v))),
            MemberIter::Built(it) => it.next().copied(),
        }
    }
}

/// The elements of an array: a document's, a typed list's, set's or tuple's, or a built
/// array's.
#[derive(Clone, Copy)]
pub(crate) enum Elements<'a> {
    Json(Array<'a>),
    Written(Array<'a>),
    Typed(&'a [Value<'a>]),
    Built(&'a [Node<'a>]),
}

impl<'a> Elements<'a> {
    /// How many elements there are.
    pub(crate) fn len(&self) -> usize {
        match self {
            Elements::Json(a) | Elements::Written(a) => a.len(),
            Elements::Typed(es) => es.len(),
            Elements::Built(es) => es.len(),
        }
    }

    /// The elements in order.
    pub(crate) fn iter(&self) -> ElementIter<'a> {
        match *self {
            Elements::Json(a) => ElementIter::Json(a.iter()),
            Elements::Written(a) => ElementIter::Written(a.iter()),
            Elements::Typed(es) => ElementIter::Typed(es.iter()),
            Elements::Built(es) => ElementIter::Built(es.iter()),
        }
    }
}

/// The iterator of [`Elements::iter`].
pub(crate) enum ElementIter<'a> {
    Json(ArrayIter<'a>),
    Written(ArrayIter<'a>),
    Typed(std::slice::Iter<'a, Value<'a>>),
    Built(std::slice::Iter<'a, Node<'a>>),
}

impl<'a> Iterator for ElementIter<'a> {
    type Item = Node<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            ElementIter::Json(it) => it.next().map(Node::Json),
            ElementIter::Written(it) => it.next().map(Node::Written),
            ElementIter::Typed(it) => it.next().copied().map(Node::Typed),
            ElementIter::Built(it) => it.next().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Node;

    /// A typed number draws as the text the renderer drew when the value was written as
    /// `show -json` text and parsed again (what `state show --schemas` did before it drew
    /// typed values directly).
    #[test]
    fn typed_numbers_draw_as_their_show_json_text_parsed_again() {
        let program = tfwire::Program::compile(&tfwire::Type::Number);
        let texts = [
            "0",
            "-0",
            "1",
            "-17",
            "1.5",
            "1.50",
            "1e3",
            "2.5E-3",
            "1.5e-7",
            "0.1",
            "3.141592653589793",
            "0.12345678901234567",
            "123456789012345.6",
            "1e15",
            "1e21",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "123456789012345678901234567890",
            "1e400",
            "1e-400",
        ];
        for text in texts {
            let arena = bumpalo::Bump::new();
            let value = tfwire::Decoder::default()
                .decode_json(&program, text.as_bytes(), &arena)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            let mut written = String::new();
            tfwire_planfile::write_show_json(&mut written, value).unwrap();
            let mut doc = format!("[{written}]").into_bytes();
            let tape = tfwire_plan::Parser::new().parse(&mut doc).unwrap();
            let parsed = tape.root().index(0).unwrap();
            let typed = Node::Typed(value);
            assert_eq!(
                typed.number_text(),
                Node::Json(parsed).number_text(),
                "{text}"
            );
            assert_eq!(typed.to_string(), written, "{text}");
        }
    }
}
