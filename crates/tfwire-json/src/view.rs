//! [`Json`]: the untyped, borrowed view of one JSON value of a parsed [`Document`].
//!
//! Strings borrow from the input, containers are slices of the tape, skipping a subtree is
//! O(1) (the tape records each container's size), every value knows its byte offset, and
//! numbers are exact (read from their text where an `f64` may not hold them). tfwire-plan's
//! document model reads plans and states through it (and re-exports it), and tfwire's
//! `TypedJson::decode_typed` runs a compiled program over any value in place (from
//! [`Json::node_index`] and [`Json::document`]).
//!
//! # Why in the JSON layer
//!
//! The view is where the layer's pieces meet: the tape's nodes, their offsets, the exact
//! number text and the string writer of its `Display`. Any reader of JSON documents (the
//! schema loader of tfwire, the plan model of tfwire-plan) has the same view with the same
//! messages ([`JsonKind::describe`]) without depending on another reader.
//!
//! # Reading a model
//!
//! Readers that build a model from a document (tfwire's schema loader, tfwire-plan's plan
//! and state model) check each value with one set of helpers: [`Json::expect_object`],
//! [`Json::expect_str`], [`Json::opt_bool`], [`Json::expect_u64`] and their siblings, which
//! fail with one description, [`Unexpected`] (what was expected, what was found, where).
//! Each crate maps it into its own error once and adds the path it collects while
//! unwinding, so `expected a string, found a bool` reads the same from both.

use crate::escape::write_safe_str;
use crate::tape::{Document, Node, StaticNode};
use core::fmt;

/// One JSON value of a parsed document: a `Copy` view over the tape.
///
/// Objects keep their members in document order; when a key occurs more than once,
/// [`Json::get`] returns the last occurrence (as JavaScript and Python do).
///
/// ```
/// use tfwire_json::{json_shape, tape::{INPUT_PADDING, TapeParser}};
/// let text = br#"{"tags":{"env":"prod"},"ports":[80,443]}"#;
/// let mut buf = text.to_vec();
/// buf.resize(text.len() + INPUT_PADDING, b' ');
/// let shape = json_shape(text, 64, usize::MAX)?;
/// let mut parser = TapeParser::default();
/// let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
/// let root = doc.root();
/// assert_eq!(root.get("tags").and_then(|t| t.get("env")).and_then(|v| v.as_str()), Some("prod"));
/// assert_eq!(root.get("ports").and_then(|p| p.index(1)).and_then(|v| v.as_u64()), Some(443));
/// assert_eq!(root.to_string(), r#"{"tags":{"env":"prod"},"ports":[80,443]}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Json<'a> {
    /// The value's node first, then (for containers) all nodes of its members.
    nodes: &'a [Node<'a>],
    /// The document the nodes belong to: their offsets and number texts.
    doc: &'a Document<'a>,
}

impl<'a> Document<'a> {
    /// The whole document as an untyped [`Json`] value (`null` for a document without
    /// nodes).
    pub fn root(&self) -> Json<'_> {
        if self.nodes().is_empty() {
            return Json::null();
        }
        Json::new(self.nodes(), self)
    }
}

/// The document of values that belong to none ([`Json::null`]).
static NO_DOCUMENT: Document<'static> = Document::empty();

/// Whether a number needs its text to be exact (see [`JsonNumber`]): written in 16 characters
/// or more, or with an exponent that takes a nonzero number out of `f64`'s normal range
/// (`1e400`, set aside as `0.0` on the tape, `1e-400`, `5e-320`). `x` is the tape's value.
fn keeps_text(text: &str, x: f64) -> bool {
    text.len() >= 16
        || (!x.is_normal()
            && text.bytes().any(|b| b == b'e' || b == b'E')
            && text
                .bytes()
                .take_while(|&b| b != b'e' && b != b'E')
                .any(|b| matches!(b, b'1'..=b'9')))
}

/// The kind of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The kind's name with an article, for messages: `"an object"`, `"a string"`, `"null"`.
    pub const fn describe(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool => "a bool",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

impl fmt::Display for JsonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A JSON number, exactly as the document wrote it.
///
/// Integers that fit 64 bits are integers. Other numbers written in fewer than 16
/// characters (`0.5`, `3.14`, `2.5e3`: at most 15 significant digits, which an `f64` gives
/// back exactly as its shortest text) are `f64`s, unless beyond an `f64`'s normal range; the
/// rest (`1e400`, `1e-400`, `123456789012345678901234567890`, `0.12345678901234567`) keep
/// their text, so nothing is ever rounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JsonNumber<'a> {
    /// A non-negative integer.
    U64(u64),
    /// A negative integer.
    I64(i64),
    /// A short decimal, as the `f64` whose shortest text it is (`0.1` is the `f64` nearest
    /// to 0.1, displayed as `0.1`).
    F64(f64),
    /// A number kept as its JSON text, as written (see the type's documentation).
    Decimal(&'a str),
}

impl fmt::Display for JsonNumber<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            JsonNumber::U64(n) => write!(f, "{n}"),
            JsonNumber::I64(n) => write!(f, "{n}"),
            JsonNumber::F64(x) if x.is_finite() && x == x.trunc() && x.abs() < 1e17 => {
                write!(f, "{x:.0}")
            }
            JsonNumber::F64(x) if x.is_finite() => write!(f, "{x:?}"),
            // Not from a document (those keep their text): JSON has no infinity.
            JsonNumber::F64(_) => f.write_str("null"),
            JsonNumber::Decimal(text) => f.write_str(text),
        }
    }
}

impl<'a> Json<'a> {
    /// Wraps the nodes of one value of `doc` (a subslice of [`Document::nodes`], the
    /// value's node first; the slice may run past the value's last node).
    pub fn new(nodes: &'a [Node<'a>], doc: &'a Document<'a>) -> Json<'a> {
        debug_assert!(!nodes.is_empty());
        let len = 1 + container_count(&nodes[0]);
        Json {
            nodes: &nodes[..len],
            doc,
        }
    }

    /// The JSON `null` value.
    pub fn null() -> Json<'static> {
        static NULL: [Node<'static>; 1] = [Node::Static(StaticNode::Null)];
        Json {
            nodes: &NULL,
            doc: &NO_DOCUMENT,
        }
    }

    /// The index of the value's node in its document ([`Document::nodes`]; `None` for
    /// [`Json::null`]).
    pub fn node_index(&self) -> Option<usize> {
        self.doc.index_of(&self.nodes[0])
    }

    /// The document the value belongs to (`None` for [`Json::null`]): for a reader that
    /// walks the tape itself (tfwire's schema loader, its typed decode of a value).
    pub fn document(&self) -> Option<&'a Document<'a>> {
        self.node_index().map(|_| self.doc)
    }

    /// The value's tape nodes: its own node first, then (for a container) all nodes of its
    /// members.
    pub fn nodes(&self) -> &'a [Node<'a>] {
        self.nodes
    }

    /// The byte offset of the value in the input (`None` for [`Json::null`]).
    pub fn offset(&self) -> Option<usize> {
        self.node_index().map(|i| self.doc.offset(i))
    }

    /// The byte offset of the key of this value, when it is an object member (the node
    /// before it is its key); `None` otherwise.
    pub fn key_offset(&self) -> Option<usize> {
        let i = self.node_index()?.checked_sub(1)?;
        matches!(self.doc.nodes()[i], Node::String(_)).then(|| self.doc.offset(i))
    }

    /// The number at the value's node, given the tape's float `x` (see [`keeps_text`]).
    fn float(&self, x: f64) -> JsonNumber<'a> {
        let text = self.node_index().map_or("", |i| self.doc.number_text(i));
        if keeps_text(text, x) {
            JsonNumber::Decimal(text)
        } else {
            JsonNumber::F64(x)
        }
    }

    /// The value's kind.
    pub fn kind(&self) -> JsonKind {
        match self.nodes[0] {
            Node::String(_) => JsonKind::String,
            Node::Object { .. } => JsonKind::Object,
            Node::Array { .. } => JsonKind::Array,
            Node::Static(StaticNode::Null) => JsonKind::Null,
            Node::Static(StaticNode::Bool(_)) => JsonKind::Bool,
            Node::Static(_) => JsonKind::Number,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.nodes[0], Node::Static(StaticNode::Null))
    }

    /// The bool, if this is `true` or `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.nodes[0] {
            Node::Static(StaticNode::Bool(b)) => Some(b),
            _ => None,
        }
    }

    /// The string (borrowed from the input), if this is a string.
    pub fn as_str(&self) -> Option<&'a str> {
        match self.nodes[0] {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is a number.
    pub fn as_number(&self) -> Option<JsonNumber<'a>> {
        match self.nodes[0] {
            Node::Static(StaticNode::U64(n)) => Some(JsonNumber::U64(n)),
            Node::Static(StaticNode::I64(n)) if n >= 0 => Some(JsonNumber::U64(n as u64)),
            Node::Static(StaticNode::I64(n)) => Some(JsonNumber::I64(n)),
            Node::Static(StaticNode::F64(x)) => Some(self.float(x)),
            _ => None,
        }
    }

    /// The number's text exactly as the document wrote it (`1.50`, `-0`, `1E2` stay so), if
    /// this is a number of a document: for a reader that keeps numbers as written, as Go's
    /// `json.Decoder.UseNumber` does. `None` for any other value and for [`Json::null`].
    ///
    /// ```
    /// # use tfwire_json::{json_shape, tape::{INPUT_PADDING, TapeParser}};
    /// let text = br#"[1.50,-0,1E2,7]"#;
    /// let mut buf = text.to_vec();
    /// buf.resize(text.len() + INPUT_PADDING, b' ');
    /// let shape = json_shape(text, 64, usize::MAX)?;
    /// let mut parser = TapeParser::default();
    /// let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
    /// let texts: Vec<_> = doc.root().as_array().unwrap().iter().map(|n| n.as_number_text()).collect();
    /// assert_eq!(texts, [Some("1.50"), Some("-0"), Some("1E2"), Some("7")]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_number_text(&self) -> Option<&'a str> {
        if self.kind() != JsonKind::Number {
            return None;
        }
        let text = self.doc.number_text(self.node_index()?);
        (!text.is_empty()).then_some(text)
    }

    /// The number as a `u64`, if this is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.as_number()? {
            JsonNumber::U64(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, if this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.as_number()? {
            JsonNumber::U64(n) => i64::try_from(n).ok(),
            JsonNumber::I64(n) => Some(n),
            JsonNumber::F64(_) | JsonNumber::Decimal(_) => None,
        }
    }

    /// The number as an `f64`: the nearest one (an infinity beyond `f64`'s range).
    pub fn as_f64(&self) -> Option<f64> {
        match self.nodes[0] {
            Node::Static(StaticNode::U64(n)) => Some(n as f64),
            Node::Static(StaticNode::I64(n)) => Some(n as f64),
            Node::Static(StaticNode::F64(x)) => Some(match self.float(x) {
                // A number beyond f64's range is `0.0` on the tape.
                JsonNumber::Decimal(text) => text.parse().unwrap_or(x),
                _ => x,
            }),
            _ => None,
        }
    }

    /// The array, if this is an array.
    pub fn as_array(&self) -> Option<Array<'a>> {
        match self.nodes[0] {
            Node::Array { len, .. } => Some(Array {
                len,
                nodes: &self.nodes[1..],
                doc: self.doc,
            }),
            _ => None,
        }
    }

    /// The object, if this is an object.
    pub fn as_object(&self) -> Option<Object<'a>> {
        match self.nodes[0] {
            Node::Object { len, .. } => Some(Object {
                len,
                nodes: &self.nodes[1..],
                doc: self.doc,
            }),
            _ => None,
        }
    }

    /// The member `key` of an object (the last one if the key repeats); `None` if this is
    /// not an object or has no such member.
    pub fn get(&self, key: &str) -> Option<Json<'a>> {
        self.as_object()?.get(key)
    }

    /// The element `i` of an array; `None` if this is not an array or is too short.
    pub fn index(&self, i: usize) -> Option<Json<'a>> {
        self.as_array()?.get(i)
    }

    /// How many tape nodes this value spans (1 for a scalar).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the value contains (or is) `true` anywhere: for an unknown or sensitive
    /// marker tree, whether any leaf is marked.
    pub fn contains_true(&self) -> bool {
        self.nodes
            .iter()
            .any(|n| matches!(n, Node::Static(StaticNode::Bool(true))))
    }
}

/// What a reader of a document's model expected where the document holds something else:
/// the one description of the "expect an object (a string, ...) here" checks of
/// [`Json::expect_object`] and its siblings. Each crate maps it into its own error once
/// (tfwire's schema loader, tfwire-plan's document model), adding the path it collects
/// while unwinding; the message is the same in both.
///
/// ```
/// use tfwire_json::{json_shape, tape::{INPUT_PADDING, TapeParser}};
/// let text = br#"{"name":true,"count":-3}"#;
/// let mut buf = text.to_vec();
/// buf.resize(text.len() + INPUT_PADDING, b' ');
/// let shape = json_shape(text, 64, usize::MAX)?;
/// let mut parser = TapeParser::default();
/// let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
/// let root = doc.root().expect_object()?;
/// let e = root.get("name").unwrap().expect_str().unwrap_err();
/// assert_eq!(e.to_string(), "expected a string, found a bool");
/// assert_eq!(e.offset, Some(8));
/// let e = root.get("count").unwrap().expect_u64().unwrap_err();
/// assert_eq!(e.to_string(), "expected a non-negative integer, found the number -3");
/// let e = root.get("count").unwrap().expect_object().unwrap_err();
/// assert_eq!((e.expected, e.found, e.offset), ("an object", tfwire_json::view::JsonKind::Number, Some(21)));
/// assert_eq!(doc.root().get("missing").map(|v| v.opt_str()), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unexpected {
    /// What the reader called for, with an article (`"an object"`, `"a non-negative
    /// integer"`).
    pub expected: &'static str,
    /// The kind of value found.
    pub found: JsonKind,
    /// A number found: its text as written (at most 64 characters, then cut).
    pub number: Option<String>,
    /// The byte offset of the value found (`None` for [`Json::null`]).
    pub offset: Option<usize>,
}

/// `expected …, found …` (the offset is the embedding error's to show).
impl fmt::Display for Unexpected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found ", self.expected)?;
        match &self.number {
            Some(text) => write!(f, "the number {text}"),
            None => f.write_str(self.found.describe()),
        }
    }
}

impl std::error::Error for Unexpected {}

/// A number's text for a message: up to 64 characters, else its first 40 and last 16
/// around `…`.
fn number_excerpt(text: &str) -> String {
    if text.len() <= 64 {
        text.to_owned()
    } else {
        format!("{}…{}", &text[..40], &text[text.len() - 16..])
    }
}

/// Checks with precise errors, for readers that build a model from a document: each gives
/// the value in the form asked for, or an [`Unexpected`] naming what was expected, what was
/// found and where. The `opt_` forms take `null` (an absent property reads as `null` in
/// most formats) as `None`.
impl<'a> Json<'a> {
    /// The error for this value where `expected` was called for.
    #[cold]
    pub fn unexpected(&self, expected: &'static str) -> Unexpected {
        Unexpected {
            expected,
            found: self.kind(),
            number: self.as_number().map(|n| {
                // As the document wrote it (`1e3`, not `1000`), where there is a document.
                let text = self.node_index().map(|i| self.doc.number_text(i));
                match text.filter(|t| !t.is_empty()) {
                    Some(t) => number_excerpt(t),
                    None => number_excerpt(&n.to_string()),
                }
            }),
            offset: self.offset(),
        }
    }

    /// The object, or an error.
    ///
    /// # Errors
    ///
    /// [`Unexpected`] for any other kind.
    pub fn expect_object(&self) -> Result<Object<'a>, Unexpected> {
        self.as_object().ok_or_else(|| self.unexpected("an object"))
    }

    /// The array, or an error.
    ///
    /// # Errors
    ///
    /// [`Unexpected`] for any other kind.
    pub fn expect_array(&self) -> Result<Array<'a>, Unexpected> {
        self.as_array().ok_or_else(|| self.unexpected("an array"))
    }

    /// The string, or an error.
    ///
    /// # Errors
    ///
    /// [`Unexpected`] for any other kind.
    pub fn expect_str(&self) -> Result<&'a str, Unexpected> {
        self.as_str().ok_or_else(|| self.unexpected("a string"))
    }

    /// The bool, or an error.
    ///
    /// # Errors
    ///
    /// [`Unexpected`] for any other kind.
    pub fn expect_bool(&self) -> Result<bool, Unexpected> {
        self.as_bool().ok_or_else(|| self.unexpected("a bool"))
    }

    /// The non-negative integer that fits a `u64`, or an error.
    ///
    /// # Errors
    ///
    /// [`Unexpected`] for any other kind or number (an integer beyond `u64`'s range is
    /// said to be one).
    pub fn expect_u64(&self) -> Result<u64, Unexpected> {
        self.as_u64().ok_or_else(|| {
            self.unexpected(match self.as_number() {
                Some(JsonNumber::Decimal(t)) if t.bytes().all(|b| b.is_ascii_digit()) => {
                    "a non-negative integer of at most 18446744073709551615"
                }
                _ => "a non-negative integer",
            })
        })
    }

    /// The integer that fits an `i64`, or an error.
    ///
    /// # Errors
    ///
    /// [`Unexpected`] for any other kind or number (an integer beyond `i64`'s range is
    /// said to be one).
    pub fn expect_i64(&self) -> Result<i64, Unexpected> {
        self.as_i64().ok_or_else(|| {
            let integer = match self.as_number() {
                Some(JsonNumber::U64(_)) => true,
                Some(JsonNumber::Decimal(t)) => t
                    .strip_prefix('-')
                    .unwrap_or(t)
                    .bytes()
                    .all(|b| b.is_ascii_digit()),
                _ => false,
            };
            self.unexpected(if integer {
                "an integer from -9223372036854775808 to 9223372036854775807"
            } else {
                "an integer"
            })
        })
    }

    /// `None` for `null`, else the value.
    pub fn opt(&self) -> Option<Json<'a>> {
        (!self.is_null()).then_some(*self)
    }

    /// The string, `None` for `null`, or an error.
    ///
    /// # Errors
    ///
    /// As [`Json::expect_str`].
    pub fn opt_str(&self) -> Result<Option<&'a str>, Unexpected> {
        self.opt().map(|v| v.expect_str()).transpose()
    }

    /// The bool, `None` for `null`, or an error.
    ///
    /// # Errors
    ///
    /// As [`Json::expect_bool`].
    pub fn opt_bool(&self) -> Result<Option<bool>, Unexpected> {
        self.opt().map(|v| v.expect_bool()).transpose()
    }

    /// The non-negative integer, `None` for `null`, or an error.
    ///
    /// # Errors
    ///
    /// As [`Json::expect_u64`].
    pub fn opt_u64(&self) -> Result<Option<u64>, Unexpected> {
        self.opt().map(|v| v.expect_u64()).transpose()
    }

    /// The integer, `None` for `null`, or an error.
    ///
    /// # Errors
    ///
    /// As [`Json::expect_i64`].
    pub fn opt_i64(&self) -> Result<Option<i64>, Unexpected> {
        self.opt().map(|v| v.expect_i64()).transpose()
    }
}

fn container_count(node: &Node<'_>) -> usize {
    match *node {
        Node::Object { count, .. } | Node::Array { count, .. } => count,
        _ => 0,
    }
}

impl fmt::Debug for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Json({self})")
    }
}

/// Compact JSON text (no spaces), with strings escaped as JSON requires.
impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.nodes[0] {
            Node::String(s) => write_safe_str(f, s),
            Node::Static(StaticNode::Null) => f.write_str("null"),
            Node::Static(StaticNode::Bool(b)) => f.write_str(if b { "true" } else { "false" }),
            Node::Static(_) => match self.as_number() {
                Some(n) => write!(f, "{n}"),
                None => f.write_str("null"),
            },
            Node::Array { .. } => {
                f.write_str("[")?;
                for (i, v) in self.as_array().into_iter().flatten().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Node::Object { .. } => {
                f.write_str("{")?;
                for (i, (k, v)) in self.as_object().into_iter().flatten().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_safe_str(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Structural equality: same kinds, same members in the same order, equal numbers (numbers
/// kept as text compare by their text).
impl PartialEq for Json<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.nodes == other.nodes
            && self
                .nodes
                .iter()
                .zip(other.nodes)
                .all(|(a, b)| match (a, b) {
                    (Node::Static(StaticNode::F64(x)), Node::Static(StaticNode::F64(y))) => {
                        Json::new(core::slice::from_ref(a), self.doc).float(*x)
                            == Json::new(core::slice::from_ref(b), other.doc).float(*y)
                    }
                    _ => true,
                })
    }
}

/// A JSON array: its elements in order.
#[derive(Clone, Copy)]
pub struct Array<'a> {
    len: usize,
    /// The nodes after the array's own node.
    nodes: &'a [Node<'a>],
    doc: &'a Document<'a>,
}

impl<'a> Array<'a> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element `i` (O(i): earlier elements are skipped, each in O(1)).
    pub fn get(&self, i: usize) -> Option<Json<'a>> {
        self.iter().nth(i)
    }

    /// The elements in order.
    pub fn iter(&self) -> ArrayIter<'a> {
        ArrayIter {
            left: self.len,
            nodes: self.nodes,
            doc: self.doc,
        }
    }
}

impl<'a> IntoIterator for Array<'a> {
    type Item = Json<'a>;
    type IntoIter = ArrayIter<'a>;
    fn into_iter(self) -> ArrayIter<'a> {
        self.iter()
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The elements of an [`Array`].
#[derive(Clone)]
pub struct ArrayIter<'a> {
    left: usize,
    nodes: &'a [Node<'a>],
    doc: &'a Document<'a>,
}

impl<'a> Iterator for ArrayIter<'a> {
    type Item = Json<'a>;

    fn next(&mut self) -> Option<Json<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let v = Json::new(self.nodes, self.doc);
        self.nodes = &self.nodes[v.nodes.len()..];
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ArrayIter<'_> {}

/// A JSON object: its members in document order.
#[derive(Clone, Copy)]
pub struct Object<'a> {
    len: usize,
    /// The nodes after the object's own node: key, value, key, value, ...
    nodes: &'a [Node<'a>],
    doc: &'a Document<'a>,
}

impl<'a> Object<'a> {
    /// The number of members.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The member `key` (the last one if the key repeats).
    pub fn get(&self, key: &str) -> Option<Json<'a>> {
        let mut found = None;
        for (k, v) in self.iter() {
            if k == key {
                found = Some(v);
            }
        }
        found
    }

    /// The members in document order: key (borrowed from the input) and value.
    pub fn iter(&self) -> ObjectIter<'a> {
        ObjectIter {
            left: self.len,
            nodes: self.nodes,
            doc: self.doc,
        }
    }
}

impl<'a> IntoIterator for Object<'a> {
    type Item = (&'a str, Json<'a>);
    type IntoIter = ObjectIter<'a>;
    fn into_iter(self) -> ObjectIter<'a> {
        self.iter()
    }
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The members of an [`Object`].
#[derive(Clone)]
pub struct ObjectIter<'a> {
    left: usize,
    nodes: &'a [Node<'a>],
    doc: &'a Document<'a>,
}

impl<'a> Iterator for ObjectIter<'a> {
    type Item = (&'a str, Json<'a>);

    fn next(&mut self) -> Option<(&'a str, Json<'a>)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let key = match self.nodes[0] {
            Node::String(s) => s,
            // The tape always holds a string node for a key.
            _ => "",
        };
        let v = Json::new(&self.nodes[1..], self.doc);
        self.nodes = &self.nodes[1 + v.nodes.len()..];
        Some((key, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ObjectIter<'_> {}
