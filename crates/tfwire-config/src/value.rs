//! Constant values as go-cty holds them after HCL evaluates an expression with no context,
//! type constraints (`type = list(string)`), the conversion of a value to a constraint, and
//! both written as go-cty's JSON (`ctyjson.Marshal`, `Type.MarshalJSON`).

use core::fmt;
use std::collections::BTreeMap;
use tfwire::Number;
use tfwire_json::JsonWriter;

/// A known value (go-cty's unknown values never come out of a context-free evaluation that
/// succeeds).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Val {
    /// A null of any type.
    Null,
    Bool(bool),
    /// The canonical decimal text (`Number::write_canonical`).
    Number(String),
    String(String),
    /// A tuple, list or set: a JSON array.
    Seq(Kind, Vec<Val>),
    /// An object or map: a JSON object (keys sorted, as Go writes them).
    Map(Kind, BTreeMap<String, Val>),
}

/// Which structural or collection type a [`Val::Seq`] or [`Val::Map`] has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A tuple or an object (the type of a literal).
    Structural,
    /// A list, set or map (after conversion).
    Collection,
}

impl Val {
    /// A number from its HCL literal text (`1.50`, `1e3`); `None` past tfwire's exponent
    /// range.
    pub(crate) fn number(text: &str) -> Option<Val> {
        let n = Number::parse(text).ok()?;
        if n.is_infinite() {
            return None;
        }
        let mut s = String::new();
        n.write_canonical(&mut s).ok()?;
        Some(Val::Number(s))
    }

    /// The value as a string, as HCL's templates and go-cty's conversion write it (`None`
    /// for a null or a collection).
    pub(crate) fn as_template_str(&self) -> Option<String> {
        match self {
            Val::String(s) => Some(s.clone()),
            Val::Number(n) => Some(n.clone()),
            Val::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// The value as `ctyjson.Marshal(val, val.Type())` writes it.
    pub(crate) fn write<W: fmt::Write>(&self, w: &mut JsonWriter<W>) -> fmt::Result {
        match self {
            Val::Null => w.null(),
            Val::Bool(b) => w.bool(*b),
            Val::Number(n) => w.number(n),
            Val::String(s) => w.string(s),
            Val::Seq(_, items) => {
                w.begin_array()?;
                for v in items {
                    v.write(w)?;
                }
                w.end_array()
            }
            Val::Map(_, items) => {
                w.begin_object()?;
                for (k, v) in items {
                    w.key(k)?;
                    v.write(w)?;
                }
                w.end_object()
            }
        }
    }
}

/// A type constraint.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ty {
    /// `any`: go-cty's dynamic pseudo-type.
    Any,
    String,
    Number,
    Bool,
    List(Box<Ty>),
    Set(Box<Ty>),
    Map(Box<Ty>),
    Tuple(Vec<Ty>),
    /// Attributes (sorted by name): type, whether optional, and the optional default.
    Object(BTreeMap<String, (Ty, bool, Option<Val>)>),
}

impl Ty {
    /// The type as go-cty's `MarshalJSON` writes it.
    pub(crate) fn write<W: fmt::Write>(&self, w: &mut JsonWriter<W>) -> fmt::Result {
        match self {
            Ty::Any => w.string("dynamic"),
            Ty::String => w.string("string"),
            Ty::Number => w.string("number"),
            Ty::Bool => w.string("bool"),
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => {
                w.begin_array()?;
                w.string(match self {
                    Ty::List(_) => "list",
                    Ty::Set(_) => "set",
                    _ => "map",
                })?;
                e.write(w)?;
                w.end_array()
            }
            Ty::Tuple(items) => {
                w.begin_array()?;
                w.string("tuple")?;
                w.begin_array()?;
                for t in items {
                    t.write(w)?;
                }
                w.end_array()?;
                w.end_array()
            }
            Ty::Object(attrs) => {
                w.begin_array()?;
                w.string("object")?;
                w.begin_object()?;
                for (k, (t, _, _)) in attrs {
                    w.key(k)?;
                    t.write(w)?;
                }
                w.end_object()?;
                if attrs.values().any(|(_, opt, _)| *opt) {
                    w.begin_array()?;
                    for (k, (_, opt, _)) in attrs {
                        if *opt {
                            w.string(k)?;
                        }
                    }
                    w.end_array()?;
                }
                w.end_array()
            }
        }
    }

    /// Converts `v` to this type as go-cty's `convert.Convert` does for the values a
    /// configuration can hold; `None` where the conversion fails (or is one this crate does
    /// not reproduce).
    pub(crate) fn convert(&self, v: &Val) -> Option<Val> {
        if *v == Val::Null {
            return Some(Val::Null);
        }
        match (self, v) {
            (Ty::Any, _) => Some(v.clone()),
            (Ty::String, _) => v.as_template_str().map(Val::String),
            (Ty::Number, Val::Number(_)) => Some(v.clone()),
            (Ty::Number, Val::String(s)) => Val::number(s.trim_start_matches('+')),
            (Ty::Bool, Val::Bool(_)) => Some(v.clone()),
            (Ty::Bool, Val::String(s)) => match s.as_str() {
                "true" => Some(Val::Bool(true)),
                "false" => Some(Val::Bool(false)),
                _ => None,
            },
            (Ty::List(e), Val::Seq(_, items)) => {
                let items: Option<Vec<Val>> = items.iter().map(|i| e.convert(i)).collect();
                Some(Val::Seq(Kind::Collection, unify_any(e, items?)?))
            }
            (Ty::Set(e), Val::Seq(_, items)) => {
                let items: Vec<Val> = items.iter().map(|i| e.convert(i)).collect::<Option<_>>()?;
                let mut items = unify_any(e, items)?;
                if !items
                    .iter()
                    .all(|v| matches!(v, Val::String(_) | Val::Number(_) | Val::Bool(_)))
                {
                    // go-cty orders sets of structural values by their hash: not reproduced.
                    return None;
                }
                items.sort_by(set_order);
                items.dedup();
                Some(Val::Seq(Kind::Collection, items))
            }
            (Ty::Map(e), Val::Map(_, items)) => {
                let items: Option<BTreeMap<String, Val>> = items
                    .iter()
                    .map(|(k, i)| Some((k.clone(), e.convert(i)?)))
                    .collect();
                let items = items?;
                let keys: Vec<String> = items.keys().cloned().collect();
                let values = unify_any(e, items.into_values().collect())?;
                Some(Val::Map(
                    Kind::Collection,
                    keys.into_iter().zip(values).collect(),
                ))
            }
            (Ty::Tuple(types), Val::Seq(_, items)) if types.len() == items.len() => {
                let items: Option<Vec<Val>> =
                    types.iter().zip(items).map(|(t, i)| t.convert(i)).collect();
                Some(Val::Seq(Kind::Structural, items?))
            }
            (Ty::Object(attrs), Val::Map(_, items)) => {
                if items.keys().any(|k| !attrs.contains_key(k)) {
                    return None;
                }
                let mut out = BTreeMap::new();
                for (k, (t, optional, default)) in attrs {
                    let v = match (items.get(k), optional) {
                        (Some(Val::Null), true) | (None, true) => match default {
                            Some(d) => t.convert(d)?,
                            None => Val::Null,
                        },
                        (Some(v), _) => t.convert(v)?,
                        (None, false) => return None,
                    };
                    out.insert(k.clone(), v);
                }
                Some(Val::Map(Kind::Structural, out))
            }
            _ => None,
        }
    }
}

/// The elements of a collection whose element type is `any`, converted to the one type
/// go-cty unifies them to: primitives of mixed kinds become strings when one is a string;
/// other mixes (a number and a bool, structural values of different shapes) are not
/// reproduced (`None`).
fn unify_any(e: &Ty, items: Vec<Val>) -> Option<Vec<Val>> {
    if *e != Ty::Any {
        return Some(items);
    }
    let kind = |v: &Val| match v {
        Val::Null => 0,
        Val::Bool(_) => 1,
        Val::Number(_) => 2,
        Val::String(_) => 3,
        Val::Seq(..) => 4,
        Val::Map(..) => 5,
    };
    let mut kinds: Vec<u8> = items.iter().map(kind).filter(|k| *k != 0).collect();
    kinds.sort_unstable();
    kinds.dedup();
    match kinds.as_slice() {
        [] | [_] => Some(items),
        ks if ks.iter().all(|k| (1..=3).contains(k)) && ks.contains(&3) => items
            .into_iter()
            .map(|v| match v {
                Val::Null => Some(Val::Null),
                v => v.as_template_str().map(Val::String),
            })
            .collect(),
        _ => None,
    }
}

/// go-cty's order of set elements for primitive types: strings by their text, numbers by
/// value, `false` before `true`.
fn set_order(a: &Val, b: &Val) -> core::cmp::Ordering {
    match (a, b) {
        (Val::Number(x), Val::Number(y)) => match (Number::parse(x), Number::parse(y)) {
            (Ok(x), Ok(y)) => x.cmp_exact(&y),
            _ => x.cmp(y),
        },
        (Val::String(x), Val::String(y)) => x.cmp(y),
        (Val::Bool(x), Val::Bool(y)) => x.cmp(y),
        _ => core::cmp::Ordering::Equal,
    }
}
