//! Decoded values written as `show -json` writes them: go-cty's JSON of a value
//! (`ctyjson.Marshal`), the known parts of a value (unknowns left out of objects and maps,
//! `null` in sequences), the `after_unknown` tree and the `before_sensitive` /
//! `after_sensitive` / `sensitive_values` trees, exactly as the clients' `jsonplan` and
//! `jsonstate` build them. The plan file reader (tfwire-planfile) writes its documents with
//! these functions, and the state writer ([`crate::write_state_json`]) with the same ones.
//!
//! ```
//! use tfwire::{Decoder, Program, Type};
//! use tfwire_plan::ctyjson::{self, Sensitive, SchemaAt};
//! let ty: Type = r#"["object",{"id":"string","tags":["map","string"]}]"#.parse()?;
//! let program = Program::compile(&ty);
//! let arena = tfwire::bumpalo::Bump::new();
//! let v = Decoder::default().decode_json(&program, br#"{"tags":{"a":"<b>"},"id":"x"}"#, &arena)?;
//! let mut out = String::new();
//! ctyjson::write_known(&mut ctyjson::go_writer(&mut out), v)?;
//! assert_eq!(out, r#"{"id":"x","tags":{"a":"\u003cb\u003e"}}"#);
//! out.clear();
//! Sensitive { marks: &[] }.write(&mut ctyjson::go_writer(&mut out), v, program.ty().to_ty(&arena), SchemaAt::None, false)?;
//! assert_eq!(out, r#"{"tags":{}}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{Error, ErrorKind};
use core::fmt;
use core::ops::Range;
use std::sync::OnceLock;
use tfwire::schema::{AttributeType, Block, Nesting};
use tfwire::{Number, Program, Ty, Type, Value};
use tfwire_json::{Escape, JsonWriter};

/// The writer documents are written with: into a `String`, strings and keys with the
/// writer's escape rule ([`writer`], [`go_writer`]).
pub type Writer<'o> = JsonWriter<&'o mut String>;

/// A [`Writer`] appending to `out`, with the escape rule for people ([`Escape::Safe`]):
/// tfwire's own documents.
pub fn writer(out: &mut String) -> Writer<'_> {
    JsonWriter::new(out, Escape::Safe)
}

/// A [`Writer`] appending to `out` with Go's `encoding/json` rule ([`Escape::Go`]: `<`, `>`
/// and `&` as `\u003c`, `\u003e`, `\u0026`): the clients' own `show -json` documents.
pub fn go_writer(out: &mut String) -> Writer<'_> {
    JsonWriter::new(out, Escape::Go)
}

/// A number as go-cty writes it in JSON (through tfwire's own writer, straight into the
/// output).
fn number(w: &mut Writer<'_>, n: Number<'_>) -> Result<(), Error> {
    static NUMBER: OnceLock<Program> = OnceLock::new();
    let program = NUMBER.get_or_init(|| Program::compile(&Type::Number));
    // The separator, then tfwire's writer appends one JSON number (nothing on an error).
    w.raw("")?;
    tfwire::encode_json_into(program, &Value::Number(n), w.get_mut())
        .map_err(|e| invalid(e.to_string()))
}

#[cold]
fn invalid(msg: impl Into<String>) -> Error {
    Error::argument(ErrorKind::Invalid(msg.into()))
}

/// Writes a wholly known value as `show -json` writes it: go-cty's JSON
/// (`ctyjson.Marshal`), a value at a `dynamic` position written as its own value (the
/// clients marshal values with their concrete types).
///
/// # Errors
///
/// [`ErrorKind::Invalid`] for a value that is not wholly known, or a number go-cty cannot
/// write.
pub fn write_known(w: &mut Writer<'_>, v: Value<'_>) -> Result<(), Error> {
    match v {
        Value::Null => w.null()?,
        Value::Unknown(_) => {
            return Err(invalid("an unknown value where a known one is required"));
        }
        Value::Bool(b) => w.bool(b)?,
        Value::Number(n) => number(w, n)?,
        Value::String(s) => w.string(s)?,
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            w.begin_array()?;
            for e in es {
                write_known(w, *e)?;
            }
            w.end_array()?;
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            w.begin_object()?;
            for (k, e) in kvs {
                w.key(k)?;
                write_known(w, *e)?;
            }
            w.end_object()?;
        }
        Value::Dynamic(d) => write_known(w, d.value)?,
    }
    Ok(())
}

/// Whether the `after` of a change is written: unless it is wholly unknown. `known`: whether
/// it is wholly known ([`Value::is_wholly_known`], a walk of the value the caller makes once).
pub fn has_after(v: Value<'_>, known: bool) -> bool {
    known || !v.unwrap_dynamic().is_unknown()
}

/// The `after` of a change: the value if wholly `known`, else its known parts
/// (`omitUnknowns`); for a value [`has_after`] accepts.
///
/// # Errors
///
/// As [`write_known`].
pub fn write_after(w: &mut Writer<'_>, v: Value<'_>, known: bool) -> Result<(), Error> {
    if known {
        write_known(w, v)
    } else {
        omit_unknowns(w, v)
    }
}

fn omit_unknowns(w: &mut Writer<'_>, v: Value<'_>) -> Result<(), Error> {
    match v {
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            w.begin_array()?;
            for e in es {
                if e.unwrap_dynamic().is_unknown() {
                    // Element order is how unknowns are correlated: null in its place.
                    w.null()?;
                } else {
                    omit_unknowns(w, *e)?;
                }
            }
            w.end_array()?;
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            w.begin_object()?;
            for (k, e) in kvs {
                if e.unwrap_dynamic().is_unknown() {
                    continue;
                }
                w.key(k)?;
                omit_unknowns(w, *e)?;
            }
            w.end_object()?;
        }
        Value::Dynamic(d) => omit_unknowns(w, d.value)?,
        other => write_known(w, other)?,
    }
    Ok(())
}

/// `unknownAsBool`: `true` for unknown leaves, `false` for known ones, with the `false`
/// members of objects and maps left out.
///
/// # Errors
///
/// Only the writer's.
pub fn unknown_as_bool(w: &mut Writer<'_>, v: Value<'_>) -> fmt::Result {
    match v {
        Value::Unknown(_) => w.bool(true),
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            w.begin_array()?;
            for e in es {
                unknown_as_bool(w, *e)?;
            }
            w.end_array()
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            w.begin_object()?;
            for (k, e) in kvs {
                // A known primitive is `false`: left out.
                if !known_primitive(*e) {
                    w.key(k)?;
                    unknown_as_bool(w, *e)?;
                }
            }
            w.end_object()
        }
        Value::Dynamic(d) => unknown_as_bool(w, d.value),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => w.bool(false),
    }
}

/// Whether [`unknown_as_bool`] writes `false` for `v`: a known primitive (at any depth of
/// `dynamic`).
fn known_primitive(v: Value<'_>) -> bool {
    match v {
        Value::Dynamic(d) => known_primitive(d.value),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
        _ => false,
    }
}

/// One step of a path into a value: an attribute, or an index (a list index as a number,
/// a map key as a string, a set element as itself).
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// An attribute of an object.
    Attr(&'a str),
    /// An element of a collection: a list index (a number), a map key (a string), a set
    /// element (the element itself).
    Index(Value<'a>),
}

/// Whether a step of the walk (`walked`) matches a step of a sensitive path (`mark`).
///
/// Without a schema, maps read as objects and sets as tuples, so a map key also matches an
/// attribute of that name and a set element (a non-number index) matches every element of
/// a sequence: when in doubt a value is hidden, never shown.
fn step_eq(walked: &Step<'_>, mark: &Step<'_>) -> bool {
    match (walked, mark) {
        (Step::Attr(x), Step::Attr(y)) => x == y,
        (Step::Attr(x), Step::Index(y)) | (Step::Index(y), Step::Attr(x)) => {
            y.unwrap_dynamic().as_str() == Some(x)
        }
        (Step::Index(x), Step::Index(y)) => match (x.unwrap_dynamic(), y.unwrap_dynamic()) {
            (Value::Number(m), Value::Number(n)) => m.cty_eq(&n),
            (Value::Number(_), Value::String(_)) => false,
            (Value::Number(_), _) => true,
            (x, y) => x == y,
        },
    }
}

/// What the provider schema says about a position of a value: which attributes of the
/// objects there are sensitive.
#[derive(Clone, Copy, Debug)]
pub enum SchemaAt<'s> {
    /// Nothing known: no attribute is sensitive by the schema.
    None,
    /// An object of this block.
    Block(&'s Block),
    /// A collection of objects of this block.
    Blocks(&'s Block),
    /// An object of these nested attributes.
    Attrs(&'s [tfwire::schema::Attribute]),
    /// A collection of objects of these nested attributes.
    AttrsMany(&'s [tfwire::schema::Attribute]),
}

impl<'s> SchemaAt<'s> {
    /// Whether attribute `name` of an object here is sensitive, and the schema of its value.
    fn attr(self, name: &str) -> (bool, SchemaAt<'s>) {
        let attrs = match self {
            SchemaAt::Block(b) => {
                if let Some(nb) = b.block_type(name) {
                    return (
                        false,
                        match nb.nesting {
                            Nesting::Single | Nesting::Group => SchemaAt::Block(&nb.block),
                            _ => SchemaAt::Blocks(&nb.block),
                        },
                    );
                }
                &b.attributes[..]
            }
            SchemaAt::Attrs(a) => a,
            _ => return (false, SchemaAt::None),
        };
        // Attributes are sorted by name in a schema tfwire read; one built by hand may not be.
        let found = match attrs.binary_search_by(|a| a.name.as_str().cmp(name)) {
            Ok(i) => Some(&attrs[i]),
            Err(_) => attrs.iter().find(|a| a.name == name),
        };
        match found {
            Some(a) => (
                a.sensitive,
                match &a.ty {
                    AttributeType::Nested(n) if n.nesting == Nesting::Single => {
                        SchemaAt::Attrs(&n.attributes)
                    }
                    AttributeType::Nested(n) => SchemaAt::AttrsMany(&n.attributes),
                    AttributeType::Type(_) => SchemaAt::None,
                },
            ),
            None => (false, SchemaAt::None),
        }
    }

    /// The schema of the elements of a collection here.
    fn element(self) -> SchemaAt<'s> {
        match self {
            SchemaAt::Blocks(b) => SchemaAt::Block(b),
            SchemaAt::AttrsMany(a) => SchemaAt::Attrs(a),
            _ => SchemaAt::None,
        }
    }
}

/// `SensitiveAsBoolWithPathValueMarks`: `true` where a sensitive path (from the plan) or a
/// sensitive attribute (from the schema) is, `false` elsewhere, with the `false` members
/// of objects and maps left out. `ty` is the value's type (for unknown collections).
/// The same tree is a state's `sensitive_values` (`jsonstate`'s `SensitiveAsBool`).
///
/// Only the paths that lead to a node are carried down to it (the others are dropped at
/// the step where they part), so the walk costs the value's size plus the paths' lengths,
/// not their product.
#[derive(Clone, Copy, Debug)]
pub struct Sensitive<'p, 'a> {
    /// The sensitive paths (each a list of steps from the value's root).
    pub marks: &'p [Vec<Step<'a>>],
}

impl Sensitive<'_, '_> {
    /// Writes the tree of `v` (of type `ty`, in a position `schema` describes; everything
    /// `true` when `marked`).
    ///
    /// # Errors
    ///
    /// Only the writer's.
    pub fn write(
        &self,
        w: &mut Writer<'_>,
        v: Value<'_>,
        ty: Ty<'_>,
        schema: SchemaAt<'_>,
        marked: bool,
    ) -> fmt::Result {
        let mut marks: Vec<&[Step<'_>]> = self.marks.iter().map(Vec::as_slice).collect();
        let all = 0..marks.len();
        walk(w, v, ty, schema, marked, all, &mut marks)
    }
}

/// Pushes onto `marks` the marks of `marks[of]` that continue below `step`, each without
/// its first step, and returns where they are.
fn below<'m, 'a>(
    marks: &mut Vec<&'m [Step<'a>]>,
    of: &Range<usize>,
    step: &Step<'_>,
) -> Range<usize> {
    let start = marks.len();
    for i in of.clone() {
        let m = marks[i];
        if m.first().is_some_and(|s| step_eq(step, s)) {
            marks.push(&m[1..]);
        }
    }
    start..marks.len()
}

/// Whether [`walk`] writes `false` for `v`: a known primitive (or a value of a
/// `dynamic` type inside a `dynamic` one), or an unknown that is no collection, neither
/// marked nor reached by a mark's end.
fn writes_false(v: Value<'_>, ty: Ty<'_>, marked: bool, marks: &[&[Step<'_>]]) -> bool {
    if marked || marks.iter().any(|m| m.is_empty()) {
        return false;
    }
    let (v, ty) = match v {
        Value::Dynamic(d) => (d.value, d.ty),
        v => (v, ty),
    };
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Dynamic(_) => {
            true
        }
        Value::Unknown(_) => !matches!(
            ty,
            Ty::List(_) | Ty::Set(_) | Ty::Tuple(_) | Ty::Map(_) | Ty::Object(_)
        ),
        Value::List(_) | Value::Set(_) | Value::Tuple(_) | Value::Map(_) | Value::Object(_) => {
            false
        }
    }
}

/// The tree of `v`, the marks that reach it being `marks[at]` (the marks below are pushed
/// after them while its members are written, and taken off again).
fn walk<'m, 'a>(
    w: &mut Writer<'_>,
    v: Value<'_>,
    ty: Ty<'_>,
    schema: SchemaAt<'_>,
    marked: bool,
    at: Range<usize>,
    marks: &mut Vec<&'m [Step<'a>]>,
) -> fmt::Result {
    if marked || marks[at.clone()].iter().any(|m| m.is_empty()) {
        return w.bool(true);
    }
    let (v, ty) = match v {
        Value::Dynamic(d) => (d.value, d.ty),
        v => (v, ty),
    };
    let top = marks.len();
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => w.bool(false),
        Value::Unknown(_) => match ty {
            Ty::List(_) | Ty::Set(_) | Ty::Tuple(_) => {
                w.begin_array()?;
                w.end_array()
            }
            Ty::Map(_) | Ty::Object(_) => {
                w.begin_object()?;
                w.end_object()
            }
            _ => w.bool(false),
        },
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            w.begin_array()?;
            for (i, e) in es.iter().enumerate() {
                let ety = match ty {
                    Ty::List(t) | Ty::Set(t) => *t,
                    Ty::Tuple(ts) => ts.get(i).copied().unwrap_or(Ty::Dynamic),
                    _ => Ty::Dynamic,
                };
                let next = if at.is_empty() {
                    top..top
                } else {
                    let key = match v {
                        Value::Set(_) => *e,
                        _ => Value::Number(Number::Int(i as i64)),
                    };
                    below(marks, &at, &Step::Index(key))
                };
                walk(w, *e, ety, schema.element(), false, next, marks)?;
                marks.truncate(top);
            }
            w.end_array()
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            let is_map = matches!(v, Value::Map(_));
            // The type's attributes are sorted by name, as the value's are: the one at the
            // same position is almost always the one.
            let attrs = match ty {
                Ty::Object(attrs) if !is_map => attrs,
                _ => &[],
            };
            w.begin_object()?;
            for (i, (k, e)) in kvs.iter().enumerate() {
                let (sensitive, eschema) = if is_map {
                    (false, schema.element())
                } else {
                    schema.attr(k)
                };
                let next = if at.is_empty() {
                    top..top
                } else if is_map {
                    below(marks, &at, &Step::Index(Value::String(k)))
                } else {
                    below(marks, &at, &Step::Attr(k))
                };
                let ety = match ty {
                    Ty::Map(t) if is_map => *t,
                    _ if is_map => Ty::Dynamic,
                    _ => match attrs.get(i) {
                        Some(a) if a.name == *k => a.ty,
                        _ => ty.attr(k).map_or(Ty::Dynamic, |a| a.ty),
                    },
                };
                // What is `false` (neither sensitive nor marked, nothing unknown to show)
                // is left out.
                if !writes_false(*e, ety, sensitive, &marks[next.clone()]) {
                    w.key(k)?;
                    walk(w, *e, ety, eschema, sensitive, next, marks)?;
                }
                marks.truncate(top);
            }
            w.end_object()
        }
        Value::Dynamic(_) => w.bool(false),
    }
}
