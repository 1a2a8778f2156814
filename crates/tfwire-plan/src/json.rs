//! [`Json`]: an untyped, borrowed view of one JSON value on the parsed tape.
//!
//! Attribute values inside plans and states are JSON wire values. Without a provider schema
//! they are read through this view; strings borrow from the input, containers are slices of
//! the tape, and skipping a subtree is O(1) (the tape records each container's size).

use core::fmt;
use simd_json::StaticNode;
use simd_json::tape::Node;

/// One JSON value of a parsed document: a `Copy` view over the tape, two words wide.
///
/// Objects keep their members in document order; when a key occurs more than once,
/// [`Json::get`] returns the last occurrence (as JavaScript and Python do).
///
/// ```
/// let mut input = br#"{"tags":{"env":"prod"},"ports":[80,443]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let root = tape.root();
/// assert_eq!(root.get("tags").and_then(|t| t.get("env")).and_then(|v| v.as_str()), Some("prod"));
/// assert_eq!(root.get("ports").and_then(|p| p.index(1)).and_then(|v| v.as_u64()), Some(443));
/// assert_eq!(root.to_string(), r#"{"tags":{"env":"prod"},"ports":[80,443]}"#);
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Json<'a> {
    /// The value's node first, then (for containers) all nodes of its members.
    nodes: &'a [Node<'a>],
    /// The exact text of the numbers no `f64` holds (see [`Numbers`]).
    numbers: &'a Numbers,
}

/// The text of the numbers of a tape that an `f64` may not hold exactly: those written in
/// 16 characters or more (more digits than an `f64` keeps, an integer beyond 64 bits) or
/// beyond an `f64`'s normal range (`1e400`, `1e-400`), by node index. Usually empty: Terraform writes small integers
/// and short decimals, which the tape holds exactly.
#[derive(Debug, Default)]
pub(crate) struct Numbers {
    /// The address of the tape's first node.
    pub(crate) base: usize,
    /// Node index, then the range of its text in `text`; sorted by node index.
    pub(crate) entries: Vec<(u32, u32, u32)>,
    /// The texts, one after another.
    pub(crate) text: String,
}

impl Numbers {
    /// No numbers kept as text.
    pub(crate) const NONE: Numbers = Numbers {
        base: 0,
        entries: Vec::new(),
        text: String::new(),
    };

    /// The text of the number at `node` (a node of this tape), if it was kept.
    fn text_of(&self, node: &Node<'_>) -> Option<&str> {
        if self.entries.is_empty() {
            return None;
        }
        let at = (node as *const Node<'_> as usize).wrapping_sub(self.base)
            / core::mem::size_of::<Node<'_>>();
        let i = self
            .entries
            .binary_search_by_key(&at, |&(n, _, _)| n as usize)
            .ok()?;
        let (_, start, end) = self.entries[i];
        self.text.get(start as usize..end as usize)
    }
}

static NO_NUMBERS: Numbers = Numbers::NONE;

/// The kind of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
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

impl Kind {
    /// The kind's name with an article, for messages: `"an object"`, `"a string"`, `"null"`.
    pub const fn describe(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a bool",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

impl fmt::Display for Kind {
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
pub enum Number<'a> {
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

impl fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::U64(n) => write!(f, "{n}"),
            Number::I64(n) => write!(f, "{n}"),
            Number::F64(x) if x.is_finite() && x == x.trunc() && x.abs() < 1e17 => {
                write!(f, "{x:.0}")
            }
            Number::F64(x) if x.is_finite() => write!(f, "{x:?}"),
            // Not from a document (those keep their text): JSON has no infinity.
            Number::F64(_) => f.write_str("null"),
            Number::Decimal(text) => f.write_str(text),
        }
    }
}

impl<'a> Json<'a> {
    /// Wraps the nodes of one value (the value's node first).
    pub(crate) fn new(nodes: &'a [Node<'a>], numbers: &'a Numbers) -> Json<'a> {
        debug_assert!(!nodes.is_empty());
        let len = 1 + container_count(&nodes[0]);
        Json {
            nodes: &nodes[..len],
            numbers,
        }
    }

    /// The JSON `null` value.
    pub fn null() -> Json<'static> {
        static NULL: [Node<'static>; 1] = [Node::Static(StaticNode::Null)];
        Json {
            nodes: &NULL,
            numbers: &NO_NUMBERS,
        }
    }

    /// The value's kind.
    pub fn kind(&self) -> Kind {
        match self.nodes[0] {
            Node::String(_) => Kind::String,
            Node::Object { .. } => Kind::Object,
            Node::Array { .. } => Kind::Array,
            Node::Static(StaticNode::Null) => Kind::Null,
            Node::Static(StaticNode::Bool(_)) => Kind::Bool,
            Node::Static(_) => Kind::Number,
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
    pub fn as_number(&self) -> Option<Number<'a>> {
        match self.nodes[0] {
            Node::Static(StaticNode::U64(n)) => Some(Number::U64(n)),
            Node::Static(StaticNode::I64(n)) if n >= 0 => Some(Number::U64(n as u64)),
            Node::Static(StaticNode::I64(n)) => Some(Number::I64(n)),
            Node::Static(StaticNode::F64(x)) => Some(match self.numbers.text_of(&self.nodes[0]) {
                Some(text) => Number::Decimal(text),
                None => Number::F64(x),
            }),
            _ => None,
        }
    }

    /// The number as a `u64`, if this is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.as_number()? {
            Number::U64(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, if this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.as_number()? {
            Number::U64(n) => i64::try_from(n).ok(),
            Number::I64(n) => Some(n),
            Number::F64(_) | Number::Decimal(_) => None,
        }
    }

    /// The number as an `f64`: the nearest one (an infinity beyond `f64`'s range).
    pub fn as_f64(&self) -> Option<f64> {
        match self.nodes[0] {
            Node::Static(StaticNode::U64(n)) => Some(n as f64),
            Node::Static(StaticNode::I64(n)) => Some(n as f64),
            Node::Static(StaticNode::F64(x)) => Some(match self.numbers.text_of(&self.nodes[0]) {
                // A number beyond f64's range is `0.0` on the tape.
                Some(text) => text.parse().unwrap_or(x),
                None => x,
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
                numbers: self.numbers,
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
                numbers: self.numbers,
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

    /// The address of the value's first byte in the input, when the tape knows it (strings
    /// only).
    pub(crate) fn str_ptr(&self) -> Option<usize> {
        match self.nodes[0] {
            Node::String(s) => Some(s.as_ptr() as usize),
            _ => None,
        }
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
            Node::String(s) => write_json_str(f, s),
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
                    write_json_str(f, k)?;
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
            && (self.numbers.entries.is_empty() && other.numbers.entries.is_empty()
                || self.nodes.iter().zip(other.nodes).all(|(a, b)| {
                    !matches!(a, Node::Static(StaticNode::F64(_)))
                        || self.numbers.text_of(a) == other.numbers.text_of(b)
                }))
    }
}

/// Whether `c` must never reach a terminal or a JSON text raw: a C0 control, DEL, a C1
/// control (U+0080–U+009F, which include the 8-bit CSI U+009B), a bidirectional
/// control that reorders the text around it (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), or the line and paragraph separators U+2028 and U+2029 (which some
/// terminals, editors and JavaScript renderers treat as line breaks).
/// [`write_json_str`] writes these as `\u` escapes; the CLI writes every text for a
/// person with the same rule.
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// Writes `s` as a JSON string: `"` and `\` escaped, `\n`, `\r`, `\t` for those controls,
/// and `\u` with four hex digits for the other characters of [`is_unsafe_char`] (the rest
/// of C0, DEL, C1 and the bidirectional controls, which JSON would allow raw but which act
/// on a terminal); everything else verbatim.
///
/// ```
/// let mut s = String::new();
/// tfwire_plan::write_json_str(&mut s, "a\u{1b}[2J\u{9b}\u{202e}\u{7f}\n\"é")?;
/// assert_eq!(s, r#""a\u001b[2J\u009b\u202e\u007f\n\"é""#);
/// assert!(tfwire_plan::is_unsafe_char('\u{2066}') && !tfwire_plan::is_unsafe_char('é'));
/// assert!(tfwire_plan::is_unsafe_char('\u{2028}') && tfwire_plan::is_unsafe_char('\u{2029}'));
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_json_str(f: &mut impl fmt::Write, s: &str) -> fmt::Result {
    f.write_char('"')?;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if is_unsafe_char(c) => "",
            _ => continue,
        };
        f.write_str(&s[start..i])?;
        if esc.is_empty() {
            write!(f, "\\u{:04x}", u32::from(c))?;
        } else {
            f.write_str(esc)?;
        }
        start = i + c.len_utf8();
    }
    f.write_str(&s[start..])?;
    f.write_char('"')
}

/// A string quoted for a message: [`write_json_str`]'s escapes, the one style of every text
/// tfwire prints (`{:?}` would write Rust's `\u{1b}`).
pub(crate) struct Quoted<'s>(pub(crate) &'s str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_json_str(f, self.0)
    }
}

/// A JSON array: its elements in order.
#[derive(Clone, Copy)]
pub struct Array<'a> {
    len: usize,
    /// The nodes after the array's own node.
    nodes: &'a [Node<'a>],
    numbers: &'a Numbers,
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
            numbers: self.numbers,
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
    numbers: &'a Numbers,
}

impl<'a> Iterator for ArrayIter<'a> {
    type Item = Json<'a>;

    fn next(&mut self) -> Option<Json<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let v = Json::new(self.nodes, self.numbers);
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
    numbers: &'a Numbers,
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
            numbers: self.numbers,
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
    numbers: &'a Numbers,
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
        let v = Json::new(&self.nodes[1..], self.numbers);
        self.nodes = &self.nodes[1 + v.nodes.len()..];
        Some((key, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ObjectIter<'_> {}
