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

/// A number as go-cty writes it in JSON (through tfwire's own writer, into `text`, which
/// the caller keeps to reuse for the next number).
fn number(w: &mut Writer<'_>, n: Number<'_>, text: &mut String) -> Result<(), Error> {
    static NUMBER: OnceLock<Program> = OnceLock::new();
    let program = NUMBER.get_or_init(|| Program::compile(&Type::Number));
    text.clear();
    tfwire::encode_json_into(program, &Value::Number(n), text)
        .map_err(|e| invalid(e.to_string()))?;
    // tfwire's writer wrote one JSON number.
    w.raw(text)?;
    Ok(())
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
    known_with(w, v, &mut String::new())
}

/// [`write_known`], numbers written through `text`.
fn known_with(w: &mut Writer<'_>, v: Value<'_>, text: &mut String) -> Result<(), Error> {
    match v {
        Value::Null => w.null()?,
        Value::Unknown(_) => {
            return Err(invalid("an unknown value where a known one is required"));
        }
        Value::Bool(b) => w.bool(b)?,
        Value::Number(n) => number(w, n, text)?,
        Value::String(s) => w.string(s)?,
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            w.begin_array()?;
            for e in es {
                known_with(w, *e, text)?;
            }
            w.end_array()?;
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            w.begin_object()?;
            for (k, e) in kvs {
                w.key(k)?;
                known_with(w, *e, text)?;
            }
            w.end_object()?;
        }
        Value::Dynamic(d) => known_with(w, d.value, text)?,
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
        omit_unknowns(w, v, &mut String::new())
    }
}

fn omit_unknowns(w: &mut Writer<'_>, v: Value<'_>, text: &mut String) -> Result<(), Error> {
    match v {
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            w.begin_array()?;
            for e in es {
                if e.unwrap_dynamic().is_unknown() {
                    // Element order is how unknowns are correlated: null in its place.
                    w.null()?;
                } else {
                    omit_unknowns(w, *e, text)?;
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
                omit_unknowns(w, *e, text)?;
            }
            w.end_object()?;
        }
        Value::Dynamic(d) => omit_unknowns(w, d.value, text)?,
        other => known_with(w, other, text)?,
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
            let mut item = String::new();
            for (k, e) in kvs {
                item.clear();
                unknown_as_bool(&mut JsonWriter::new(&mut item, w.escape()), *e)?;
                member_unless_false(w, k, &item)?;
            }
            w.end_object()
        }
        Value::Dynamic(d) => unknown_as_bool(w, d.value),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => w.bool(false),
    }
}

/// Writes the member `"k":item` unless `item` (JSON this module wrote) is `false`: the
/// members of these masks that mark nothing are left out.
fn member_unless_false(w: &mut Writer<'_>, k: &str, item: &str) -> fmt::Result {
    if item == "false" {
        return Ok(());
    }
    w.key(k)?;
    w.raw(item)
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
        match attrs.iter().find(|a| a.name == name) {
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
        let marks: Vec<&[Step<'_>]> = self.marks.iter().map(Vec::as_slice).collect();
        walk(w, v, ty, schema, marked, &marks)
    }
}

/// The marks that continue below `step`, each without its first step.
fn below<'m, 'a>(marks: &[&'m [Step<'a>]], step: &Step<'_>) -> Vec<&'m [Step<'a>]> {
    marks
        .iter()
        .filter(|m| m.first().is_some_and(|s| step_eq(step, s)))
        .map(|m| &m[1..])
        .collect()
}

fn walk(
    w: &mut Writer<'_>,
    v: Value<'_>,
    ty: Ty<'_>,
    schema: SchemaAt<'_>,
    marked: bool,
    marks: &[&[Step<'_>]],
) -> fmt::Result {
    if marked || marks.iter().any(|m| m.is_empty()) {
        return w.bool(true);
    }
    let (v, ty) = match v {
        Value::Dynamic(d) => (d.value, d.ty),
        v => (v, ty),
    };
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
                let key = match v {
                    Value::Set(_) => *e,
                    _ => Value::Number(Number::Int(i as i64)),
                };
                let ety = match ty {
                    Ty::List(t) | Ty::Set(t) => *t,
                    Ty::Tuple(ts) => ts.get(i).copied().unwrap_or(Ty::Dynamic),
                    _ => Ty::Dynamic,
                };
                let next = if marks.is_empty() {
                    Vec::new()
                } else {
                    below(marks, &Step::Index(key))
                };
                walk(w, *e, ety, schema.element(), false, &next)?;
            }
            w.end_array()
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            let is_map = matches!(v, Value::Map(_));
            w.begin_object()?;
            let mut item = String::new();
            for (k, e) in kvs {
                let (sensitive, eschema) = if is_map {
                    (false, schema.element())
                } else {
                    schema.attr(k)
                };
                let step = if is_map {
                    Step::Index(Value::String(k))
                } else {
                    Step::Attr(k)
                };
                let next = if marks.is_empty() {
                    Vec::new()
                } else {
                    below(marks, &step)
                };
                // A known primitive neither sensitive nor marked is `false`: left out.
                let leaf = match e {
                    Value::Dynamic(d) => d.value,
                    e => *e,
                };
                if !sensitive
                    && next.is_empty()
                    && matches!(
                        leaf,
                        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_)
                    )
                {
                    continue;
                }
                let ety = match ty {
                    Ty::Map(t) if is_map => *t,
                    _ if is_map => Ty::Dynamic,
                    _ => ty.attr(k).map_or(Ty::Dynamic, |a| a.ty),
                };
                item.clear();
                walk(
                    &mut JsonWriter::new(&mut item, w.escape()),
                    *e,
                    ety,
                    eschema,
                    sensitive,
                    &next,
                )?;
                member_unless_false(w, k, &item)?;
            }
            w.end_object()
        }
        Value::Dynamic(_) => w.bool(false),
    }
}
