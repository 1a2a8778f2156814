//! Decoded values: `Copy`, borrowed, living in a `bumpalo` arena.

use crate::number::Number;
use crate::ty::Ty;

/// A cty value, borrowed from the input and an arena.
///
/// A `Value` holds only references, slices and `Copy` scalars (the arena never runs `Drop`):
/// strings borrow from the input whenever they were sent in NFC (nearly always), collections
/// are slices in the arena. Copying a `Value` copies 24 bytes.
///
/// Which variants appear is decided by the type the value was decoded with: a `["list", T]`
/// position yields `List`, `Null` or `Unknown`, and so on. At a `"dynamic"` position a value
/// that carries a concrete type is a [`Value::Dynamic`] holding that type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// A null value.
    Null,
    /// An unknown value, wholly unknown (`None`) or with refinements.
    Unknown(Option<&'a Refinements<'a>>),
    /// A bool.
    Bool(bool),
    /// A number, exact.
    Number(Number<'a>),
    /// A string, NFC-normalized.
    String(&'a str),
    /// A list, in order.
    List(&'a [Value<'a>]),
    /// A set, without duplicates, in the order the elements first arrived.
    Set(&'a [Value<'a>]),
    /// A map, sorted by key (bytewise), keys unique and NFC-normalized.
    Map(&'a [(&'a str, Value<'a>)]),
    /// An object: every attribute of its type, sorted by name.
    Object(&'a [(&'a str, Value<'a>)]),
    /// A tuple, in order.
    Tuple(&'a [Value<'a>]),
    /// A value at a `"dynamic"` position, with the concrete type it was sent with.
    Dynamic(&'a Dynamic<'a>),
}

/// A value together with its type, at a `"dynamic"` position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dynamic<'a> {
    /// The value's type (never contains optional-attribute markers; contains `dynamic` only
    /// where the value holds null or unknown values of unknown type).
    pub ty: Ty<'a>,
    /// The value.
    pub value: Value<'a>,
}

/// What is known about an unknown value (MessagePack extension 12).
///
/// Only refinements that go-cty keeps are present: a value refined as definitely null is
/// decoded as a known null instead, and refinements that pin the value down completely
/// (equal inclusive number bounds, equal length bounds of a list) decode to the known value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Refinements<'a> {
    /// The value is definitely not null.
    pub not_null: bool,
    /// A string value starts with this prefix.
    pub prefix: Option<&'a str>,
    /// Lower bound of a number: the bound and whether it is inclusive.
    pub lower: Option<(Number<'a>, bool)>,
    /// Upper bound of a number: the bound and whether it is inclusive.
    pub upper: Option<(Number<'a>, bool)>,
    /// Inclusive lower bound on a collection's length.
    pub len_lower: Option<u64>,
    /// Inclusive upper bound on a collection's length.
    pub len_upper: Option<u64>,
}

impl Refinements<'_> {
    /// Whether nothing is refined (such an unknown is written as a plain unknown).
    pub fn is_empty(&self) -> bool {
        *self == Refinements::default()
    }
}

impl<'a> Value<'a> {
    /// The value inside a [`Value::Dynamic`] (or `self`).
    #[inline]
    pub fn unwrap_dynamic(self) -> Value<'a> {
        match self {
            Value::Dynamic(d) => d.value,
            v => v,
        }
    }

    /// Whether the value is null.
    pub fn is_null(&self) -> bool {
        matches!(self.unwrap_dynamic(), Value::Null)
    }

    /// Whether the value is unknown (at the top level).
    pub fn is_unknown(&self) -> bool {
        matches!(self.unwrap_dynamic(), Value::Unknown(_))
    }

    /// Whether the value is wholly known: no unknown anywhere inside it.
    pub fn is_wholly_known(&self) -> bool {
        match *self {
            Value::Unknown(_) => false,
            Value::List(vs) | Value::Set(vs) | Value::Tuple(vs) => {
                vs.iter().all(Value::is_wholly_known)
            }
            Value::Map(es) | Value::Object(es) => es.iter().all(|(_, v)| v.is_wholly_known()),
            Value::Dynamic(d) => d.value.is_wholly_known(),
            _ => true,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&'a str> {
        match self.unwrap_dynamic() {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bool, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.unwrap_dynamic() {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<Number<'a>> {
        match self.unwrap_dynamic() {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The elements of a list, set or tuple.
    pub fn elements(&self) -> Option<&'a [Value<'a>]> {
        match self.unwrap_dynamic() {
            Value::List(v) | Value::Set(v) | Value::Tuple(v) => Some(v),
            _ => None,
        }
    }

    /// The entries of a map or object (sorted by key or attribute name).
    pub fn entries(&self) -> Option<&'a [(&'a str, Value<'a>)]> {
        match self.unwrap_dynamic() {
            Value::Map(e) | Value::Object(e) => Some(e),
            _ => None,
        }
    }

    /// The attribute of an object (or element of a map) called `name`.
    ///
    /// ```
    /// # use tfwire::{Program, Type};
    /// let program = Program::compile(&Type::from_json(r#"["object",{"id":"string","n":"number"}]"#)?);
    /// let bump = bumpalo::Bump::new();
    /// let v = tfwire::decode_msgpack(&program, &[0x82, 0xa2, b'i', b'd', 0xa1, b'x', 0xa1, b'n', 0x07], &bump)?;
    /// assert_eq!(v.get("id").and_then(|v| v.as_str()), Some("x"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<Value<'a>> {
        let es = self.entries()?;
        es.binary_search_by(|(k, _)| (*k).cmp(name))
            .ok()
            .map(|i| es[i].1)
    }

    /// The `i`th element of a list, set or tuple.
    pub fn index(&self, i: usize) -> Option<Value<'a>> {
        self.elements()?.get(i).copied()
    }

    /// A short name of the variant, for messages: `null`, `unknown`, `bool`, `number`,
    /// `string`, `list`, `set`, `map`, `object`, `tuple` (a dynamic value names its content).
    pub fn kind_name(&self) -> &'static str {
        match self.unwrap_dynamic() {
            Value::Null => "null",
            Value::Unknown(_) => "unknown",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Map(_) => "map",
            Value::Object(_) => "object",
            Value::Tuple(_) => "tuple",
            Value::Dynamic(_) => "dynamic",
        }
    }
}
