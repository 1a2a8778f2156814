//! Decoded values written as `show -json` writes them: go-cty's JSON of a value
//! (`ctyjson.Marshal`), the known parts of a value (unknowns left out of objects and maps,
//! `null` in sequences), the `after_unknown` tree and the `before_sensitive` /
//! `after_sensitive` trees, exactly as OpenTofu's `jsonplan` builds them.

use std::sync::OnceLock;
use tfwire::schema::{AttributeType, Block, Nesting};
use tfwire::{Number, Program, Ty, Type, Value};

/// A number as go-cty writes it in JSON (through tfwire's own writer).
fn number(out: &mut String, n: Number<'_>) -> Result<(), String> {
    static NUMBER: OnceLock<Program> = OnceLock::new();
    let program = NUMBER.get_or_init(|| Program::compile(&Type::Number));
    tfwire::encode_json_into(program, &Value::Number(n), out).map_err(|e| e.to_string())
}

fn string(out: &mut String, s: &str) {
    // Writing to a String cannot fail.
    let _ = tfwire_json::write_safe_str(out, s);
}

/// Writes a wholly known value as `show -json` writes it: go-cty's JSON
/// (`ctyjson.Marshal`), a value at a `dynamic` position written as its own value (OpenTofu
/// marshals values with their concrete types). For callers that decoded a plan or state
/// value typed and need its `show -json` text (the CLI's renderer draws a typed number
/// with the text written here).
///
/// ```
/// use tfwire::{Config, Decoder, Program, Type};
/// let ty: Type = r#"["object",{"id":"string","n":"number"}]"#.parse()?;
/// let program = Program::compile(&ty);
/// let mut decoder = Decoder::new(Config::default());
/// let arena = tfwire::bumpalo::Bump::new();
/// let value = decoder.decode_json(&program, br#"{"id":"a","n":1.50}"#, &arena)?;
/// let mut out = String::new();
/// tfwire_planfile::write_show_json(&mut out, value)?;
/// assert_eq!(out, r#"{"id":"a","n":1.5}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) for a value that is not wholly known,
/// or a number go-cty cannot write.
pub fn write_show_json(out: &mut String, v: Value<'_>) -> Result<(), crate::Error> {
    known(out, v).map_err(crate::Error::invalid)
}

/// `ctyjson.Marshal` of a wholly known value (a value at a dynamic position is written as
/// its own value: `show -json` marshals values with their concrete types).
pub(crate) fn known(out: &mut String, v: Value<'_>) -> Result<(), String> {
    match v {
        Value::Null => out.push_str("null"),
        Value::Unknown(_) => return Err("an unknown value where a known one is required".into()),
        Value::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Value::Number(n) => number(out, n)?,
        Value::String(s) => string(out, s),
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            out.push('[');
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                known(out, *e)?;
            }
            out.push(']');
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            out.push('{');
            for (i, (k, e)) in kvs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, k);
                out.push(':');
                known(out, *e)?;
            }
            out.push('}');
        }
        Value::Dynamic(d) => known(out, d.value)?,
    }
    Ok(())
}

/// The `after` of a change: the value if wholly known, else its known parts
/// (`omitUnknowns`); `None` when nothing is left (a wholly unknown value).
pub(crate) fn after(v: Value<'_>) -> Result<Option<String>, String> {
    let mut out = String::new();
    if v.is_wholly_known() {
        known(&mut out, v)?;
        return Ok(Some(out));
    }
    if v.unwrap_dynamic().is_unknown() {
        return Ok(None);
    }
    omit_unknowns(&mut out, v)?;
    Ok(Some(out))
}

fn omit_unknowns(out: &mut String, v: Value<'_>) -> Result<(), String> {
    match v {
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            out.push('[');
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if e.unwrap_dynamic().is_unknown() {
                    // Element order is how unknowns are correlated: null in its place.
                    out.push_str("null");
                } else {
                    omit_unknowns(out, *e)?;
                }
            }
            out.push(']');
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            out.push('{');
            let mut first = true;
            for (k, e) in kvs {
                if e.unwrap_dynamic().is_unknown() {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                string(out, k);
                out.push(':');
                omit_unknowns(out, *e)?;
            }
            out.push('}');
        }
        Value::Dynamic(d) => omit_unknowns(out, d.value)?,
        other => known(out, other)?,
    }
    Ok(())
}

/// `unknownAsBool`: `true` for unknown leaves, `false` for known ones, with the `false`
/// members of objects and maps left out.
pub(crate) fn unknown_as_bool(out: &mut String, v: Value<'_>) {
    match v {
        Value::Unknown(_) => out.push_str("true"),
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            out.push('[');
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                unknown_as_bool(out, *e);
            }
            out.push(']');
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            out.push('{');
            let mut first = true;
            let mut item = String::new();
            for (k, e) in kvs {
                item.clear();
                unknown_as_bool(&mut item, *e);
                member_unless_false(out, &mut first, k, &item);
            }
            out.push('}');
        }
        Value::Dynamic(d) => unknown_as_bool(out, d.value),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => out.push_str("false"),
    }
}

/// Writes the member `"k":item` of an object being written (`first`: whether none is written
/// yet) unless `item` is `false`: the members of these masks that mark nothing are left out.
fn member_unless_false(out: &mut String, first: &mut bool, k: &str, item: &str) {
    if item == "false" {
        return;
    }
    if !*first {
        out.push(',');
    }
    *first = false;
    string(out, k);
    out.push(':');
    out.push_str(item);
}

/// One step of a path into a value: an attribute, or an index (a list index as a number,
/// a map key as a string, a set element as itself).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<'a> {
    Attr(&'a str),
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
#[derive(Clone, Copy)]
pub(crate) enum Schema<'s> {
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

impl<'s> Schema<'s> {
    /// Whether attribute `name` of an object here is sensitive, and the schema of its value.
    fn attr(self, name: &str) -> (bool, Schema<'s>) {
        let attrs = match self {
            Schema::Block(b) => {
                if let Some(nb) = b.block_type(name) {
                    return (
                        false,
                        match nb.nesting {
                            Nesting::Single | Nesting::Group => Schema::Block(&nb.block),
                            _ => Schema::Blocks(&nb.block),
                        },
                    );
                }
                &b.attributes[..]
            }
            Schema::Attrs(a) => a,
            _ => return (false, Schema::None),
        };
        match attrs.iter().find(|a| a.name == name) {
            Some(a) => (
                a.sensitive,
                match &a.ty {
                    AttributeType::Nested(n) if n.nesting == Nesting::Single => {
                        Schema::Attrs(&n.attributes)
                    }
                    AttributeType::Nested(n) => Schema::AttrsMany(&n.attributes),
                    AttributeType::Type(_) => Schema::None,
                },
            ),
            None => (false, Schema::None),
        }
    }

    /// The schema of the elements of a collection here.
    fn element(self) -> Schema<'s> {
        match self {
            Schema::Blocks(b) => Schema::Block(b),
            Schema::AttrsMany(a) => Schema::Attrs(a),
            _ => Schema::None,
        }
    }
}

/// `SensitiveAsBoolWithPathValueMarks`: `true` where a sensitive path (from the plan) or a
/// sensitive attribute (from the schema) is, `false` elsewhere, with the `false` members
/// of objects and maps left out. `ty` is the value's type (for unknown collections).
///
/// Only the paths that lead to a node are carried down to it (the others are dropped at
/// the step where they part), so the walk costs the value's size plus the paths' lengths,
/// not their product.
pub(crate) struct Sensitive<'p, 'a> {
    pub(crate) marks: &'p [Vec<Step<'a>>],
}

impl Sensitive<'_, '_> {
    pub(crate) fn write(
        &self,
        out: &mut String,
        v: Value<'_>,
        ty: Ty<'_>,
        schema: Schema<'_>,
        marked: bool,
    ) {
        let marks: Vec<&[Step<'_>]> = self.marks.iter().map(Vec::as_slice).collect();
        walk(out, v, ty, schema, marked, &marks);
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
    out: &mut String,
    v: Value<'_>,
    ty: Ty<'_>,
    schema: Schema<'_>,
    marked: bool,
    marks: &[&[Step<'_>]],
) {
    if marked || marks.iter().any(|m| m.is_empty()) {
        out.push_str("true");
        return;
    }
    let (v, ty) = match v {
        Value::Dynamic(d) => (d.value, d.ty),
        v => (v, ty),
    };
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => out.push_str("false"),
        Value::Unknown(_) => out.push_str(match ty {
            Ty::List(_) | Ty::Set(_) | Ty::Tuple(_) => "[]",
            Ty::Map(_) | Ty::Object(_) => "{}",
            _ => "false",
        }),
        Value::List(es) | Value::Set(es) | Value::Tuple(es) => {
            out.push('[');
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
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
                walk(out, *e, ety, schema.element(), false, &next);
            }
            out.push(']');
        }
        Value::Map(kvs) | Value::Object(kvs) => {
            let is_map = matches!(v, Value::Map(_));
            out.push('{');
            let mut first = true;
            let mut item = String::new();
            for (k, e) in kvs {
                let (ety, sensitive, eschema) = if is_map {
                    let ety = match ty {
                        Ty::Map(t) => *t,
                        _ => Ty::Dynamic,
                    };
                    (ety, false, schema.element())
                } else {
                    let ety = ty.attr(k).map_or(Ty::Dynamic, |a| a.ty);
                    let (s, sch) = schema.attr(k);
                    (ety, s, sch)
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
                item.clear();
                walk(&mut item, *e, ety, eschema, sensitive, &next);
                member_unless_false(out, &mut first, k, &item);
            }
            out.push('}');
        }
        Value::Dynamic(_) => out.push_str("false"),
    }
}
