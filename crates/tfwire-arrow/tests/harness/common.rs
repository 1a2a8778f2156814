//! Helpers: schema caches from `schemas.json`, Arrow cells as JSON, expected values from
//! the documents.

use arrow_array::{Array, ArrayRef, RecordBatch, cast::AsArray};
use arrow_schema::DataType;
use serde_json::{Map, Value as J};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tfwire_arrow::FleetSchemas;

#[path = "tempdir.rs"]
mod tempdir;
pub(crate) use tempdir::TempDir;

#[path = "../../../tfwire/tests/harness/decimal.rs"]
mod decimal;
/// Canonical decimal text of a JSON number's text: plain, no exponent, no `+`, no leading
/// zeros, no trailing fractional zeros, `0` for zero.
pub(crate) use decimal::normalize_decimal as canon;

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A schema cache holding `schemas.json` (every provider at `version`), loaded.
pub(crate) fn fleet(schemas_json: &Path, dir: &TempDir, version: &str) -> Arc<FleetSchemas> {
    let cache = tfwire_config::SchemaCache::new(&dir.0, 256 << 20);
    let doc = std::fs::read(schemas_json).unwrap();
    cache.add(&doc, |_| Some(version.to_owned())).unwrap();
    Arc::new(FleetSchemas::load(&cache).unwrap())
}

pub(crate) fn read_json(path: &Path) -> J {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Whether a canonical number fits Decimal128(38, 9).
pub(crate) fn fits(canonical: &str) -> bool {
    let body = canonical.trim_start_matches('-');
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    frac.len() <= 9 && int.len() <= 29
}

/// A decimal cell's canonical text.
pub(crate) fn decimal_text(v: i128, scale: u32) -> String {
    let neg = v < 0;
    let s = v.unsigned_abs().to_string();
    let s = format!(
        "{}{}",
        "0".repeat((scale as usize + 1).saturating_sub(s.len())),
        s
    );
    let (i, f) = s.split_at(s.len() - scale as usize);
    canon(&format!("{}{i}.{f}", if neg { "-" } else { "" }))
}

/// One cell as JSON, its shape told by the cty type (JSON of `schemas.json`: a type, or
/// `{"block": ..}`/`{"nested_type": ..}` wrappers handled by the caller). Numbers become
/// strings of canonical text; a `dynamic` cell becomes its parsed `json` field.
pub(crate) fn cell(array: &ArrayRef, row: usize, ty: &Shape) -> J {
    if array.is_null(row) {
        return J::Null;
    }
    match ty {
        Shape::String => J::String(array.as_string::<i32>().value(row).to_owned()),
        Shape::Bool => J::Bool(array.as_boolean().value(row)),
        Shape::Number => {
            let DataType::Decimal128(_, s) = array.data_type() else {
                panic!("not a decimal")
            };
            J::String(decimal_text(
                array
                    .as_primitive::<arrow_array::types::Decimal128Type>()
                    .value(row),
                *s as u32,
            ))
        }
        Shape::List(item) => {
            let l = array.as_list::<i32>().value(row);
            J::Array((0..l.len()).map(|i| cell(&l, i, item)).collect())
        }
        Shape::Map(item) => {
            let m = array.as_map();
            let entries = m.value(row);
            let keys = entries.column(0).as_string::<i32>().clone();
            let values = entries.column(1).clone();
            let mut out = Map::new();
            for i in 0..entries.len() {
                out.insert(keys.value(i).to_owned(), cell(&values, i, item));
            }
            J::Object(out)
        }
        Shape::Object(fields) => {
            let s = array.as_struct();
            let mut out = Map::new();
            for (name, f) in fields {
                let col = s
                    .column_by_name(name)
                    .unwrap_or_else(|| panic!("no field {name}"));
                out.insert(name.clone(), cell(col, row, f));
            }
            J::Object(out)
        }
        Shape::Tuple(items) => {
            let s = array.as_struct();
            J::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| cell(s.column(i), row, t))
                    .collect(),
            )
        }
        Shape::Dynamic => {
            let s = array.as_struct();
            let json = s.column(0).as_string::<i32>().value(row);
            numbers_as_text(serde_json::from_str(json).unwrap())
        }
    }
}

/// Numbers as canonical text strings, everywhere in a value (for `dynamic` cells compared
/// with document values).
pub(crate) fn numbers_as_text(v: J) -> J {
    match v {
        J::Number(n) => J::String(canon(&n.to_string())),
        J::Array(a) => J::Array(a.into_iter().map(numbers_as_text).collect()),
        J::Object(o) => J::Object(
            o.into_iter()
                .map(|(k, v)| (k, numbers_as_text(v)))
                .collect(),
        ),
        v => v,
    }
}

/// The shape of a value, from `schemas.json`.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    String,
    Bool,
    Number,
    List(Box<Shape>),
    Map(Box<Shape>),
    Object(Vec<(String, Shape)>),
    Tuple(Vec<Shape>),
    Dynamic,
}

/// An attribute or block type: its shape and whether the schema marks it sensitive, with
/// the same for nested attributes.
#[derive(Clone, Debug)]
pub(crate) struct Attr {
    pub(crate) name: String,
    pub(crate) shape: Shape,
    pub(crate) sensitive: bool,
    /// Nested attributes/blocks of an object shape (their sensitive flags).
    pub(crate) nested: Vec<Attr>,
}

pub(crate) fn shape_of_type(t: &J) -> Shape {
    match t {
        J::String(s) => match s.as_str() {
            "string" => Shape::String,
            "bool" => Shape::Bool,
            "number" => Shape::Number,
            "dynamic" => Shape::Dynamic,
            other => panic!("type {other}"),
        },
        J::Array(a) => match a[0].as_str().unwrap() {
            "list" | "set" => Shape::List(Box::new(shape_of_type(&a[1]))),
            "map" => Shape::Map(Box::new(shape_of_type(&a[1]))),
            "object" => {
                let mut fs: Vec<(String, Shape)> = a[1]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), shape_of_type(v)))
                    .collect();
                fs.sort_by(|x, y| x.0.cmp(&y.0));
                Shape::Object(fs)
            }
            "tuple" => Shape::Tuple(a[1].as_array().unwrap().iter().map(shape_of_type).collect()),
            other => panic!("type {other}"),
        },
        _ => panic!("type {t}"),
    }
}

fn attr_of(name: &str, a: &J) -> Attr {
    let sensitive = a["sensitive"].as_bool().unwrap_or(false);
    if let Some(t) = a.get("type") {
        return Attr {
            name: name.into(),
            shape: shape_of_type(t),
            sensitive,
            nested: vec![],
        };
    }
    let nt = &a["nested_type"];
    let nested: Vec<Attr> = sorted(nt["attributes"].as_object().unwrap())
        .map(|(k, v)| attr_of(k, v))
        .collect();
    let obj = Shape::Object(
        nested
            .iter()
            .map(|a| (a.name.clone(), a.shape.clone()))
            .collect(),
    );
    let shape = match nt["nesting_mode"].as_str().unwrap() {
        "single" | "group" => obj,
        "list" | "set" => Shape::List(Box::new(obj)),
        "map" => Shape::Map(Box::new(obj)),
        m => panic!("nesting {m}"),
    };
    Attr {
        name: name.into(),
        shape,
        sensitive,
        nested,
    }
}

fn sorted(m: &Map<String, J>) -> impl Iterator<Item = (&String, &J)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v.into_iter()
}

/// A block's attributes then its block types, each sorted by name (the table's order).
pub(crate) fn block_attrs(block: &J) -> Vec<Attr> {
    let mut out: Vec<Attr> = block
        .get("attributes")
        .and_then(J::as_object)
        .map(|m| sorted(m).map(|(k, v)| attr_of(k, v)).collect())
        .unwrap_or_default();
    for (k, bt) in block
        .get("block_types")
        .and_then(J::as_object)
        .map(|m| sorted(m).collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let nested = block_attrs(&bt["block"]);
        let obj = Shape::Object({
            let mut fs: Vec<(String, Shape)> = nested
                .iter()
                .map(|a| (a.name.clone(), a.shape.clone()))
                .collect();
            fs.sort_by(|x, y| x.0.cmp(&y.0));
            fs
        });
        let has_dynamic = format!("{:?}", obj).contains("Dynamic");
        let shape = match bt["nesting_mode"].as_str().unwrap() {
            "single" | "group" => obj,
            "list" | "set" if has_dynamic => Shape::Dynamic,
            "map" if has_dynamic => Shape::Dynamic,
            "list" | "set" => Shape::List(Box::new(obj)),
            "map" => Shape::Map(Box::new(obj)),
            m => panic!("nesting {m}"),
        };
        out.push(Attr {
            name: k.clone(),
            shape,
            sensitive: false,
            nested,
        });
    }
    out
}

/// The expected cell of a document value: sensitive (marked, or by the schema) and
/// unknown parts null, numbers as canonical text (null when they do not fit, their path
/// and text collected), a dynamic value whole (null if anything inside is marked).
#[allow(clippy::too_many_arguments)]
pub(crate) fn expected(
    v: &J,
    shape: &Shape,
    nested: &[Attr],
    sens: &J,
    unk: &J,
    include_sensitive: bool,
    path: &str,
    out: &mut Outcome,
) -> J {
    if unk == &J::Bool(true) {
        out.unknown.push(path.trim_start_matches('.').to_owned());
        return J::Null;
    }
    if sens == &J::Bool(true) && !include_sensitive {
        out.sensitive.push(path.trim_start_matches('.').to_owned());
        return J::Null;
    }
    if v.is_null() {
        return J::Null;
    }
    // The expected cell of element `i` of a list, a set or a tuple.
    let mut element = |e: &J, shape: &Shape, nested: &[Attr], i: usize| {
        expected(
            e,
            shape,
            nested,
            idx(sens, i),
            idx(unk, i),
            include_sensitive,
            &format!("{path}[{i}]"),
            out,
        )
    };
    match shape {
        Shape::String | Shape::Bool => v.clone(),
        Shape::Number => {
            let c = canon(&v.as_number().unwrap().to_string());
            if fits(&c) {
                J::String(c)
            } else {
                out.inexact
                    .push((path.trim_start_matches('.').to_owned(), c));
                J::Null
            }
        }
        Shape::Dynamic => {
            if marked(unk) {
                out.unknown.push(path.trim_start_matches('.').to_owned());
                return J::Null;
            }
            if marked(sens) && !include_sensitive {
                out.sensitive.push(path.trim_start_matches('.').to_owned());
                return J::Null;
            }
            numbers_as_text(v.clone())
        }
        Shape::List(item) => J::Array(
            v.as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(i, e)| element(e, item, nested, i))
                .collect(),
        ),
        Shape::Map(item) => J::Object(
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, e)| {
                    let p = format!("{path}[{}]", serde_json::to_string(k).unwrap());
                    (
                        k.clone(),
                        expected(
                            e,
                            item,
                            nested,
                            mem(sens, k),
                            mem(unk, k),
                            include_sensitive,
                            &p,
                            out,
                        ),
                    )
                })
                .collect(),
        ),
        Shape::Object(fields) => J::Object(
            fields
                .iter()
                .map(|(k, f)| {
                    let sub = nested.iter().find(|a| &a.name == k);
                    let s = if sub.is_some_and(|a| a.sensitive) {
                        &J::Bool(true)
                    } else {
                        mem(sens, k)
                    };
                    let nn = sub.map(|a| a.nested.as_slice()).unwrap_or(&[]);
                    let e = expected(
                        v.get(k).unwrap_or(&J::Null),
                        f,
                        nn,
                        s,
                        mem(unk, k),
                        include_sensitive,
                        &format!("{path}.{k}"),
                        out,
                    );
                    (k.clone(), e)
                })
                .collect(),
        ),
        Shape::Tuple(items) => J::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, t)| element(v.get(i).unwrap_or(&J::Null), t, &[], i))
                .collect(),
        ),
    }
}

static NULL: J = J::Null;

fn idx(m: &J, i: usize) -> &J {
    match m {
        J::Bool(true) => m,
        J::Array(a) => a.get(i).unwrap_or(&NULL),
        _ => &NULL,
    }
}

fn mem<'a>(m: &'a J, k: &str) -> &'a J {
    match m {
        J::Bool(true) => m,
        J::Object(o) => o.get(k).unwrap_or(&NULL),
        _ => &NULL,
    }
}

pub(crate) fn marked(m: &J) -> bool {
    match m {
        J::Bool(b) => *b,
        J::Array(a) => a.iter().any(marked),
        J::Object(o) => o.values().any(marked),
        _ => false,
    }
}

/// Paths and texts collected by [`expected`].
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) sensitive: Vec<String>,
    pub(crate) unknown: Vec<String>,
    pub(crate) inexact: Vec<(String, String)>,
}

/// A `List<Utf8>` cell.
pub(crate) fn strings(array: &ArrayRef, row: usize) -> Option<Vec<String>> {
    if array.is_null(row) {
        return None;
    }
    let l = array.as_list::<i32>().value(row);
    let s = l.as_string::<i32>();
    Some((0..s.len()).map(|i| s.value(i).to_owned()).collect())
}

/// A `Map<Utf8, Utf8>` cell.
pub(crate) fn string_map(array: &ArrayRef, row: usize) -> Vec<(String, String)> {
    let e = array.as_map().value(row);
    let k = e.column(0).as_string::<i32>();
    let v = e.column(1).as_string::<i32>();
    (0..e.len())
        .map(|i| (k.value(i).to_owned(), v.value(i).to_owned()))
        .collect()
}

pub(crate) fn str_cell(batch: &RecordBatch, name: &str, row: usize) -> Option<String> {
    let c = batch.column_by_name(name).unwrap();
    (!c.is_null(row)).then(|| c.as_string::<i32>().value(row).to_owned())
}

/// `sensitive_attributes` paths as a marker tree: the same tree as the clients'
/// `sensitive_values` for these paths (get_attr steps and index steps); a path under an
/// already marked one changes nothing.
pub(crate) fn raw_marks(paths: &J) -> J {
    let mut tree = J::Null;
    for p in paths.as_array().into_iter().flatten() {
        let mut node = &mut tree;
        for step in p.as_array().unwrap() {
            let key = match step["type"].as_str().unwrap() {
                "get_attr" => J::String(step["value"].as_str().unwrap().into()),
                _ => step["value"]["value"].clone(),
            };
            if *node == J::Bool(true) {
                break;
            }
            match key {
                J::String(k) => {
                    if !node.is_object() {
                        *node = J::Object(Default::default());
                    }
                    node = node.as_object_mut().unwrap().entry(k).or_insert(J::Null);
                }
                J::Number(n) => {
                    let i = n.as_u64().unwrap() as usize;
                    if !node.is_array() {
                        *node = J::Array(vec![]);
                    }
                    let a = node.as_array_mut().unwrap();
                    while a.len() <= i {
                        a.push(J::Null);
                    }
                    node = &mut a[i];
                }
                _ => unreachable!(),
            }
        }
        *node = J::Bool(true);
    }
    tree
}

/// The batch of `table` from one document, built twice: through `TableBuilder::add` and
/// through `TableBuilder::add_in_place` (the document read again into `add` when the
/// in-place parse gives it back, as the fleet's scan does); both must agree.
pub(crate) fn built(
    fleet: &std::sync::Arc<tfwire_arrow::FleetSchemas>,
    table: &str,
    projection: Option<Vec<usize>>,
    options: tfwire_arrow::Options,
    (source, bytes): (&str, &[u8]),
) -> RecordBatch {
    let def = fleet.table(table).unwrap();
    let builder =
        || tfwire_arrow::TableBuilder::new(fleet.clone(), &def, projection.clone(), options);
    let mut b = builder();
    b.add(source, "ws", bytes)
        .unwrap_or_else(|e| panic!("{source}: {e}"));
    let copied = b.finish().unwrap();
    let mut b = builder();
    let mut document = Vec::with_capacity(bytes.len() + tfwire_plan::INPUT_PADDING);
    document.extend_from_slice(bytes);
    let added = b
        .add_in_place(source, "ws", &mut document)
        .unwrap_or_else(|e| panic!("{source}, in place: {e}"));
    if !added {
        b.add(source, "ws", bytes)
            .unwrap_or_else(|e| panic!("{source}, again: {e}"));
    }
    let in_place = b.finish().unwrap();
    assert_eq!(copied, in_place, "{source}: add and add_in_place differ");
    copied
}
