//! The cty → Arrow mapping: a column model ([`Col`]) built from a schema attribute or a
//! cty type, its Arrow data type, and the accumulators ([`Acc`]) that append tfwire's
//! decoded values to Arrow arrays.

use crate::error::Error;
use crate::marks::Marks;
use arrow_array::builder::{BooleanBuilder, Decimal128Builder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, ListArray, MapArray, StructArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use core::fmt::Write as _;
use std::sync::Arc;
use tfwire::schema::{Attribute, AttributeType, Block, NestedBlock, NestedType, Nesting};
use tfwire::{Type, Value};

/// Precision of the number columns' `Decimal128`.
pub const DECIMAL_PRECISION: u8 = 38;
/// Scale of the number columns' `Decimal128`: nine digits after the point.
pub const DECIMAL_SCALE: i8 = 9;

/// The shape of one column (or of a part of one), from a cty type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Col {
    String,
    Bool,
    Number,
    /// `list(T)`, `set(T)`, nested blocks and attributes of list or set nesting.
    List(Box<Col>),
    /// `map(T)`, map nesting.
    Map(Box<Col>),
    /// An object, a single or group nested block, or (`tuple`) a tuple's elements as
    /// fields `0`, `1`, ….
    Struct {
        fields: Vec<ColField>,
        tuple: bool,
    },
    /// `dynamic`: the value's JSON and its type's JSON.
    Dynamic,
}

/// A field of a struct column: name, shape, and whether the schema marks it sensitive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ColField {
    pub(crate) name: String,
    pub(crate) col: Col,
    pub(crate) sensitive: bool,
}

impl Col {
    /// The column of a cty type.
    pub(crate) fn of_type(ty: &Type) -> Col {
        match ty {
            Type::String => Col::String,
            Type::Bool => Col::Bool,
            Type::Number => Col::Number,
            Type::Dynamic => Col::Dynamic,
            Type::List(t) | Type::Set(t) => Col::List(Box::new(Col::of_type(t))),
            Type::Map(t) => Col::Map(Box::new(Col::of_type(t))),
            Type::Object(o) => Col::Struct {
                fields: o
                    .attributes()
                    .iter()
                    .map(|a| ColField {
                        name: a.name.clone(),
                        col: Col::of_type(&a.ty),
                        sensitive: false,
                    })
                    .collect(),
                tuple: false,
            },
            Type::Tuple(ts) => Col::Struct {
                fields: ts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| ColField {
                        name: i.to_string(),
                        col: Col::of_type(t),
                        sensitive: false,
                    })
                    .collect(),
                tuple: true,
            },
        }
    }

    /// The column of a schema attribute (nested attributes keep their `sensitive` flags).
    pub(crate) fn of_attribute(a: &Attribute) -> Col {
        match &a.ty {
            AttributeType::Type(t) => Col::of_type(t),
            AttributeType::Nested(n) => Col::of_nested(n),
        }
    }

    fn of_nested(n: &NestedType) -> Col {
        let obj = Col::Struct {
            fields: n.attributes.iter().map(ColField::of_attribute).collect(),
            tuple: false,
        };
        match n.nesting {
            Nesting::Single | Nesting::Group => obj,
            Nesting::List | Nesting::Set => Col::List(Box::new(obj)),
            Nesting::Map => Col::Map(Box::new(obj)),
        }
    }

    /// The column of a block's object (attributes, then nested block types, each in the
    /// schema's order).
    pub(crate) fn of_block(b: &Block) -> Col {
        let mut fields: Vec<ColField> = b.attributes.iter().map(ColField::of_attribute).collect();
        fields.extend(b.block_types.iter().map(|nb| ColField {
            name: nb.type_name.clone(),
            col: Col::of_nested_block(nb),
            sensitive: false,
        }));
        Col::Struct {
            fields,
            tuple: false,
        }
    }

    /// The column of a nested block type; it mirrors [`NestedBlock::implied_type`] (a list
    /// or map of blocks holding a `dynamic` attribute is itself `dynamic`).
    pub(crate) fn of_nested_block(nb: &NestedBlock) -> Col {
        if matches!(nb.implied_type(), Type::Dynamic) {
            return Col::Dynamic;
        }
        let obj = Col::of_block(&nb.block);
        match nb.nesting {
            Nesting::Single | Nesting::Group => obj,
            Nesting::List | Nesting::Set => Col::List(Box::new(obj)),
            Nesting::Map => Col::Map(Box::new(obj)),
        }
    }

    /// The paths `marks` marks in a value of this column, as cty path text after
    /// `path` (map members as key steps, object members as attribute steps). `None`
    /// (a value without a column: the long form) writes every member as an attribute step.
    pub(crate) fn marked_paths(
        col: Option<&Col>,
        marks: &Marks,
        path: &mut String,
        out: &mut Vec<String>,
    ) {
        match marks {
            Marks::None => {}
            Marks::All => out.push(path.strip_prefix('.').unwrap_or(path).to_owned()),
            Marks::Members(ms) => {
                for (k, m) in ms {
                    let len = path.len();
                    let (step, child) = match col {
                        Some(Col::Map(c)) => (
                            tfwire::PathStep::Key(std::borrow::Cow::Borrowed(k.as_str())),
                            Some(&**c),
                        ),
                        Some(Col::Struct { fields, .. }) => (
                            tfwire::PathStep::Attr(std::borrow::Cow::Borrowed(k.as_str())),
                            fields.iter().find(|f| f.name == *k).map(|f| &f.col),
                        ),
                        _ => (
                            tfwire::PathStep::Attr(std::borrow::Cow::Borrowed(k.as_str())),
                            None,
                        ),
                    };
                    let _ = write!(path, "{step}");
                    Col::marked_paths(child, m, path, out);
                    path.truncate(len);
                }
            }
            Marks::Elements(es) => {
                for (i, m) in es.iter().enumerate() {
                    let len = path.len();
                    let child = match col {
                        Some(Col::List(c)) => Some(&**c),
                        Some(Col::Struct {
                            fields,
                            tuple: true,
                        }) => fields.get(i).map(|f| &f.col),
                        _ => None,
                    };
                    let _ = write!(path, "[{i}]");
                    Col::marked_paths(child, m, path, out);
                    path.truncate(len);
                }
            }
        }
    }

    /// The Arrow data type.
    pub(crate) fn data_type(&self) -> DataType {
        match self {
            Col::String => DataType::Utf8,
            Col::Bool => DataType::Boolean,
            Col::Number => DataType::Decimal128(DECIMAL_PRECISION, DECIMAL_SCALE),
            Col::List(c) => list_of(c.data_type()),
            Col::Map(c) => map_of(c.data_type(), true),
            Col::Struct { fields, .. } => DataType::Struct(
                fields
                    .iter()
                    .map(|f| Field::new(&f.name, f.col.data_type(), true))
                    .collect(),
            ),
            Col::Dynamic => dynamic_type(),
        }
    }
}

impl ColField {
    fn of_attribute(a: &Attribute) -> ColField {
        ColField {
            name: a.name.clone(),
            col: Col::of_attribute(a),
            sensitive: a.sensitive,
        }
    }
}

/// `List<T>` with a nullable item field named `item` (Arrow's default).
pub(crate) fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, true)))
}

/// `Map<Utf8, T>`: entries `keys` (not null) and `values` (nullable).
pub(crate) fn map_of(values: DataType, sorted: bool) -> DataType {
    let entries = DataType::Struct(Fields::from(vec![
        Field::new("keys", DataType::Utf8, false),
        Field::new("values", values, true),
    ]));
    DataType::Map(Arc::new(Field::new("entries", entries, false)), sorted)
}

/// The column of a `dynamic` value: `{json: Utf8, type: Utf8}`.
pub(crate) fn dynamic_type() -> DataType {
    DataType::Struct(Fields::from(vec![
        Field::new("json", DataType::Utf8, true),
        Field::new("type", DataType::Utf8, true),
    ]))
}

/// What a value's walk collects beside the cells: paths withheld as sensitive, unknown
/// paths, and the exact text of numbers that did not fit.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    pub(crate) include_sensitive: bool,
    /// The path of the value being appended, as cty path text with a leading `.` for an
    /// attribute step (stripped when recorded).
    pub(crate) path: String,
    pub(crate) sensitive: Vec<String>,
    pub(crate) unknown: Vec<String>,
    pub(crate) inexact: Vec<(String, String)>,
    /// Scratch for number text.
    number: String,
}

impl Walk {
    pub(crate) fn reset(&mut self, include_sensitive: bool) {
        self.include_sensitive = include_sensitive;
        self.path.clear();
        self.sensitive.clear();
        self.unknown.clear();
        self.inexact.clear();
    }

    fn here(&self) -> String {
        self.path.strip_prefix('.').unwrap_or(&self.path).to_owned()
    }

    pub(crate) fn push_attr(&mut self, name: &str) -> usize {
        let len = self.path.len();
        let _ = write!(
            self.path,
            "{}",
            tfwire::PathStep::Attr(std::borrow::Cow::Borrowed(name))
        );
        len
    }

    fn push_key(&mut self, key: &str) -> usize {
        let len = self.path.len();
        let _ = write!(
            self.path,
            "{}",
            tfwire::PathStep::Key(std::borrow::Cow::Borrowed(key))
        );
        len
    }

    fn push_index(&mut self, i: usize) -> usize {
        let len = self.path.len();
        let _ = write!(self.path, "[{i}]");
        len
    }

    pub(crate) fn pop(&mut self, len: usize) {
        self.path.truncate(len);
    }
}

/// An accumulator of one Arrow array, built from its data type.
#[derive(Debug)]
pub(crate) enum Acc {
    Utf8(StringBuilder),
    Bool(BooleanBuilder),
    U64(UInt64Builder),
    Decimal(Decimal128Builder),
    List {
        field: FieldRef,
        offsets: Vec<i32>,
        nulls: NullBufferBuilder,
        child: Box<Acc>,
    },
    Map {
        field: FieldRef,
        sorted: bool,
        offsets: Vec<i32>,
        nulls: NullBufferBuilder,
        keys: StringBuilder,
        values: Box<Acc>,
    },
    Struct {
        fields: Fields,
        children: Vec<Acc>,
        nulls: NullBufferBuilder,
        len: usize,
    },
}

impl Acc {
    /// An empty accumulator for `dt` (one of the types this crate's columns use).
    pub(crate) fn new(dt: &DataType) -> Acc {
        match dt {
            DataType::Utf8 => Acc::Utf8(StringBuilder::new()),
            DataType::Boolean => Acc::Bool(BooleanBuilder::new()),
            DataType::UInt64 => Acc::U64(UInt64Builder::new()),
            DataType::Decimal128(p, s) => Acc::Decimal(
                Decimal128Builder::new()
                    .with_precision_and_scale(*p, *s)
                    .unwrap_or_else(|_| Decimal128Builder::new()),
            ),
            DataType::List(f) => Acc::List {
                field: f.clone(),
                offsets: vec![0],
                nulls: NullBufferBuilder::new(0),
                child: Box::new(Acc::new(f.data_type())),
            },
            DataType::Map(f, sorted) => {
                let values = match f.data_type() {
                    DataType::Struct(fs) if fs.len() == 2 => fs[1].data_type().clone(),
                    _ => DataType::Utf8,
                };
                Acc::Map {
                    field: f.clone(),
                    sorted: *sorted,
                    offsets: vec![0],
                    nulls: NullBufferBuilder::new(0),
                    keys: StringBuilder::new(),
                    values: Box::new(Acc::new(&values)),
                }
            }
            DataType::Struct(fs) => Acc::Struct {
                fields: fs.clone(),
                children: fs.iter().map(|f| Acc::new(f.data_type())).collect(),
                nulls: NullBufferBuilder::new(0),
                len: 0,
            },
            // Not a type this crate builds: a column of nulls would hide data, so the
            // column model never produces one.
            other => unreachable_type(other),
        }
    }

    /// Appends a null.
    pub(crate) fn push_null(&mut self) {
        match self {
            Acc::Utf8(b) => b.append_null(),
            Acc::Bool(b) => b.append_null(),
            Acc::U64(b) => b.append_null(),
            Acc::Decimal(b) => b.append_null(),
            Acc::List { offsets, nulls, .. } | Acc::Map { offsets, nulls, .. } => {
                let last = offsets.last().copied().unwrap_or(0);
                offsets.push(last);
                nulls.append_null();
            }
            Acc::Struct {
                children,
                nulls,
                len,
                ..
            } => {
                for c in children {
                    c.push_null();
                }
                nulls.append_null();
                *len += 1;
            }
        }
    }

    /// Appends a string or null (a `Utf8` accumulator).
    pub(crate) fn push_str(&mut self, s: Option<&str>) {
        match (self, s) {
            (Acc::Utf8(b), Some(s)) => b.append_value(s),
            (acc, _) => acc.push_null(),
        }
    }

    /// Appends an integer or null (a `UInt64` accumulator).
    pub(crate) fn push_u64(&mut self, n: Option<u64>) {
        match (self, n) {
            (Acc::U64(b), Some(n)) => b.append_value(n),
            (acc, _) => acc.push_null(),
        }
    }

    /// Appends a bool (a `Boolean` accumulator).
    pub(crate) fn push_bool(&mut self, v: Option<bool>) {
        match (self, v) {
            (Acc::Bool(b), Some(v)) => b.append_value(v),
            (acc, _) => acc.push_null(),
        }
    }

    /// Appends a list of strings, or null (a `List<Utf8>` accumulator).
    pub(crate) fn push_str_list<S: AsRef<str>>(&mut self, items: Option<&[S]>) {
        let Some(items) = items else {
            self.push_null();
            return;
        };
        if let Acc::List {
            offsets,
            nulls,
            child,
            ..
        } = self
        {
            for s in items {
                child.push_str(Some(s.as_ref()));
            }
            let last = offsets.last().copied().unwrap_or(0);
            offsets.push(last + i32::try_from(items.len()).unwrap_or(i32::MAX));
            nulls.append_non_null();
        }
    }

    /// Appends a map of strings (a `Map<Utf8, Utf8>` accumulator).
    pub(crate) fn push_str_map(&mut self, entries: &[(String, String)]) {
        if let Acc::Map {
            offsets,
            nulls,
            keys,
            values,
            ..
        } = self
        {
            for (k, v) in entries {
                keys.append_value(k);
                values.push_str(Some(v));
            }
            let last = offsets.last().copied().unwrap_or(0);
            offsets.push(last + i32::try_from(entries.len()).unwrap_or(i32::MAX));
            nulls.append_non_null();
        }
    }

    /// Appends a decoded value of column `col`, with its sensitivity and unknown markers.
    pub(crate) fn push_value(
        &mut self,
        col: &Col,
        value: Value<'_>,
        sensitive: &Marks,
        unknown: &Marks,
        walk: &mut Walk,
    ) -> Result<(), Error> {
        if unknown.is_all() || value.is_unknown() {
            walk.unknown.push(walk.here());
            self.push_null();
            return Ok(());
        }
        if sensitive.is_all() && !walk.include_sensitive {
            walk.sensitive.push(walk.here());
            self.push_null();
            return Ok(());
        }
        if value.is_null() {
            self.push_null();
            return Ok(());
        }
        match (self, col) {
            (acc @ Acc::Struct { .. }, Col::Dynamic) => {
                push_dynamic(acc, value, sensitive, unknown, walk)
            }
            (Acc::Utf8(b), Col::String) => {
                let s = value
                    .as_str()
                    .ok_or_else(|| mismatch("a string", value, walk))?;
                b.append_value(s);
                Ok(())
            }
            (Acc::Bool(b), Col::Bool) => {
                let v = value
                    .as_bool()
                    .ok_or_else(|| mismatch("a bool", value, walk))?;
                b.append_value(v);
                Ok(())
            }
            (Acc::Decimal(b), Col::Number) => {
                let n = value
                    .as_number()
                    .ok_or_else(|| mismatch("a number", value, walk))?;
                match decimal(n, &mut walk.number) {
                    Some(v) => b.append_value(v),
                    None => {
                        let text = walk.number.clone();
                        walk.inexact.push((walk.here(), text));
                        b.append_null();
                    }
                }
                Ok(())
            }
            (
                Acc::List {
                    offsets,
                    nulls,
                    child,
                    ..
                },
                Col::List(item),
            ) => {
                let items = value
                    .elements()
                    .ok_or_else(|| mismatch("a list or set", value, walk))?;
                for (i, v) in items.iter().enumerate() {
                    let at = walk.push_index(i);
                    let r = child.push_value(
                        item,
                        *v,
                        &sensitive.element(i),
                        &unknown.element(i),
                        walk,
                    );
                    walk.pop(at);
                    r?;
                }
                let last = offsets.last().copied().unwrap_or(0);
                offsets.push(last + len_i32(items.len(), walk)?);
                nulls.append_non_null();
                Ok(())
            }
            (
                Acc::Map {
                    offsets,
                    nulls,
                    keys,
                    values,
                    ..
                },
                Col::Map(item),
            ) => {
                let entries = match value.unwrap_dynamic() {
                    Value::Map(es) => es,
                    _ => return Err(mismatch("a map", value, walk)),
                };
                for (k, v) in entries {
                    keys.append_value(k);
                    let at = walk.push_key(k);
                    let r =
                        values.push_value(item, *v, &sensitive.member(k), &unknown.member(k), walk);
                    walk.pop(at);
                    r?;
                }
                let last = offsets.last().copied().unwrap_or(0);
                offsets.push(last + len_i32(entries.len(), walk)?);
                nulls.append_non_null();
                Ok(())
            }
            (
                Acc::Struct {
                    children,
                    nulls,
                    len,
                    ..
                },
                Col::Struct { fields, tuple },
            ) => {
                for (i, (f, acc)) in fields.iter().zip(children.iter_mut()).enumerate() {
                    let (v, at) = if *tuple {
                        let v = value
                            .elements()
                            .filter(|_| matches!(value.unwrap_dynamic(), Value::Tuple(_)))
                            .ok_or_else(|| mismatch("a tuple", value, walk))?;
                        (v.get(i).copied().unwrap_or(Value::Null), walk.push_index(i))
                    } else {
                        if !matches!(value.unwrap_dynamic(), Value::Object(_)) {
                            return Err(mismatch("an object", value, walk));
                        }
                        (
                            value.get(&f.name).unwrap_or(Value::Null),
                            walk.push_attr(&f.name),
                        )
                    };
                    let (s, u) = if *tuple {
                        (sensitive.element(i), unknown.element(i))
                    } else {
                        (sensitive.member(&f.name), unknown.member(&f.name))
                    };
                    let s = if f.sensitive { Marks::All } else { s };
                    let r = acc.push_value(&f.col, v, &s, &u, walk);
                    walk.pop(at);
                    r?;
                }
                nulls.append_non_null();
                *len += 1;
                Ok(())
            }
            (_, col) => Err(Error::new(format!(
                "the column model and its accumulator disagree at a {col:?} column"
            ))
            .with_path(walk.here())),
        }
    }

    /// The array, and the accumulator emptied for reuse.
    pub(crate) fn finish(&mut self) -> Result<ArrayRef, Error> {
        Ok(match self {
            Acc::Utf8(b) => Arc::new(b.finish()),
            Acc::Bool(b) => Arc::new(b.finish()),
            Acc::U64(b) => Arc::new(b.finish()),
            Acc::Decimal(b) => Arc::new(b.finish()),
            Acc::List {
                field,
                offsets,
                nulls,
                child,
            } => {
                let offsets =
                    OffsetBuffer::new(ScalarBuffer::from(core::mem::replace(offsets, vec![0])));
                let values = child.finish()?;
                Arc::new(ListArray::try_new(
                    field.clone(),
                    offsets,
                    values,
                    nulls.finish(),
                )?)
            }
            Acc::Map {
                field,
                sorted,
                offsets,
                nulls,
                keys,
                values,
            } => {
                let offsets =
                    OffsetBuffer::new(ScalarBuffer::from(core::mem::replace(offsets, vec![0])));
                let DataType::Struct(fs) = field.data_type() else {
                    return Err(Error::new("a map's entries are not a struct"));
                };
                let entries = StructArray::try_new(
                    fs.clone(),
                    vec![Arc::new(keys.finish()) as ArrayRef, values.finish()?],
                    None,
                )?;
                Arc::new(MapArray::try_new(
                    field.clone(),
                    offsets,
                    entries,
                    nulls.finish(),
                    *sorted,
                )?)
            }
            Acc::Struct {
                fields,
                children,
                nulls,
                len,
            } => {
                let n = core::mem::take(len);
                let nulls = nulls.finish();
                if fields.is_empty() {
                    Arc::new(StructArray::new_empty_fields(n, nulls))
                } else {
                    let arrays = children
                        .iter_mut()
                        .map(Acc::finish)
                        .collect::<Result<Vec<_>, _>>()?;
                    Arc::new(StructArray::try_new(fields.clone(), arrays, nulls)?)
                }
            }
        })
    }
}

#[cold]
fn unreachable_type(dt: &DataType) -> Acc {
    // The column model builds only the types above; keep the crate panic-free all the same.
    let _ = dt;
    Acc::Utf8(StringBuilder::new())
}

fn len_i32(n: usize, walk: &Walk) -> Result<i32, Error> {
    i32::try_from(n).map_err(|_| {
        Error::new(format!(
            "a collection of {n} elements is more than an Arrow list holds"
        ))
        .with_path(walk.here())
    })
}

#[cold]
fn mismatch(expected: &str, found: Value<'_>, walk: &Walk) -> Error {
    Error::new(format!(
        "{expected} is required, found {}",
        found.kind_name()
    ))
    .with_path(walk.here())
}

/// A value at a `dynamic` position: its JSON as go-cty writes it and its type's JSON. A
/// value with any unknown or (unless included) sensitive part is null as a whole, its path
/// listed.
fn push_dynamic(
    acc: &mut Acc,
    value: Value<'_>,
    sensitive: &Marks,
    unknown: &Marks,
    walk: &mut Walk,
) -> Result<(), Error> {
    if unknown.any() || !value.is_wholly_known() {
        walk.unknown.push(walk.here());
        acc.push_null();
        return Ok(());
    }
    if sensitive.any() && !walk.include_sensitive {
        walk.sensitive.push(walk.here());
        acc.push_null();
        return Ok(());
    }
    let ty = match value {
        Value::Dynamic(d) => d.ty.to_type().to_json(),
        _ => return Err(mismatch("a value with its type", value, walk)),
    };
    let mut json = String::new();
    tfwire_plan::ctyjson::write_known(&mut tfwire_plan::ctyjson::go_writer(&mut json), value)
        .map_err(|e| Error::new(e.to_string()).with_path(walk.here()))?;
    if let Acc::Struct {
        children,
        nulls,
        len,
        ..
    } = acc
    {
        children[0].push_str(Some(&json));
        children[1].push_str(Some(&ty));
        nulls.append_non_null();
        *len += 1;
    }
    Ok(())
}

/// The number as a `Decimal128(38, 9)` value, or `None` when it does not fit exactly (its
/// canonical text is then left in `text`).
pub(crate) fn decimal(n: tfwire::Number<'_>, text: &mut String) -> Option<i128> {
    const SCALE: i128 = 1_000_000_000;
    const MAX: i128 = 99_999_999_999_999_999_999_999_999_999_999_999_999;
    text.clear();
    let _ = n.write_canonical(text);
    match n {
        tfwire::Number::Int(i) => return Some(i128::from(i) * SCALE),
        tfwire::Number::Uint(u) => return Some(i128::from(u) * SCALE),
        _ => {}
    }
    parse_decimal(text, DECIMAL_SCALE as usize).filter(|v| v.abs() <= MAX)
}

/// Canonical decimal text (`-12.5`) as an integer scaled by 10^scale, if it has at most
/// `scale` fractional digits and no exponent.
pub(crate) fn parse_decimal(text: &str, scale: usize) -> Option<i128> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty()
        || frac.len() > scale
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || int.len() + scale > 38
    {
        return None;
    }
    let mut v: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        v = v.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    for _ in frac.len()..scale {
        v = v.checked_mul(10)?;
    }
    Some(if neg { -v } else { v })
}
