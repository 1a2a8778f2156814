//! The cty → Arrow mapping per type, exact numbers, projection, hostile inputs, the
//! long-form and outputs tables, schema unions.

use crate::common::*;
use arrow_array::{RecordBatch, cast::AsArray};
use arrow_schema::{DataType, Field, Fields};
use std::sync::Arc;
use tfwire_arrow::{FleetSchemas, Options, TableBuilder};

const SCHEMA: &str = r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/acme/t":{
 "resource_schemas":{"t_all":{"version":2,"block":{
  "attributes":{
   "s":{"type":"string","optional":true},
   "b":{"type":"bool","optional":true},
   "n":{"type":"number","optional":true},
   "l":{"type":["list","string"],"optional":true},
   "st":{"type":["set","number"],"optional":true},
   "m":{"type":["map","string"],"optional":true},
   "o":{"type":["object",{"a":"string","b":"number"}],"optional":true},
   "tu":{"type":["tuple",["string","bool"]],"optional":true},
   "d":{"type":"dynamic","optional":true},
   "pw":{"type":"string","optional":true,"sensitive":true},
   "na":{"nested_type":{"nesting_mode":"list","attributes":{
      "k":{"type":"string","optional":true},"secret":{"type":"string","optional":true,"sensitive":true}}},"optional":true},
   "name":{"type":"string","optional":true}
  },
  "block_types":{
   "one":{"nesting_mode":"single","block":{"attributes":{"x":{"type":"string","optional":true}}}},
   "many":{"nesting_mode":"list","block":{"attributes":{"y":{"type":"number","optional":true}}}},
   "bag":{"nesting_mode":"set","block":{"attributes":{"z":{"type":"bool","optional":true}}}},
   "named":{"nesting_mode":"map","block":{"attributes":{"w":{"type":"string","optional":true}}}},
   "grp":{"nesting_mode":"group","block":{"attributes":{"g":{"type":"string","optional":true}}}}
  }}}},
 "data_source_schemas":{"t_all":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true}}}}}
}}}"#;

fn fleet_of(schema: &str, dir: &TempDir) -> Arc<FleetSchemas> {
    let cache = tfwire_config::SchemaCache::new(&dir.0, 1 << 20);
    cache
        .add(schema.as_bytes(), |_| Some("1.0.0".to_owned()))
        .unwrap();
    Arc::new(FleetSchemas::load(&cache).unwrap())
}

fn state(attributes: &str, sensitive: &str) -> Vec<u8> {
    format!(
        r#"{{"version":4,"serial":7,"lineage":"lin","outputs":{{"o1":{{"value":"v1","type":"string"}},"o2":{{"value":"hush-hush","type":"string","sensitive":true}}}},"resources":[
        {{"mode":"managed","type":"t_all","name":"r","provider":"provider[\"registry.terraform.io/acme/t\"]",
          "instances":[{{"schema_version":2,"attributes":{attributes},"sensitive_attributes":{sensitive}}}]}}]}}"#
    )
    .into_bytes()
}

fn batch(
    fleet: &Arc<FleetSchemas>,
    table: &str,
    doc: &[u8],
    projection: Option<Vec<usize>>,
    options: Options,
) -> RecordBatch {
    built(fleet, table, projection, options, ("doc.tfstate", doc))
}

fn list(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, true)))
}

fn map(values: DataType) -> DataType {
    let entries = DataType::Struct(Fields::from(vec![
        Field::new("keys", DataType::Utf8, false),
        Field::new("values", values, true),
    ]));
    DataType::Map(Arc::new(Field::new("entries", entries, false)), true)
}

fn strukt(fields: &[(&str, DataType)]) -> DataType {
    DataType::Struct(
        fields
            .iter()
            .map(|(n, t)| Field::new(*n, t.clone(), true))
            .collect(),
    )
}

#[test]
fn every_cty_type_has_its_arrow_type() {
    let dir = TempDir::new("mapping");
    let fleet = fleet_of(SCHEMA, &dir);
    let def = fleet.table("t_all").unwrap();
    let dec = DataType::Decimal128(38, 9);
    let want: Vec<(&str, DataType)> = vec![
        ("b", DataType::Boolean),
        (
            "d",
            strukt(&[("json", DataType::Utf8), ("type", DataType::Utf8)]),
        ),
        ("l", list(DataType::Utf8)),
        ("m", map(DataType::Utf8)),
        ("n", dec.clone()),
        (
            "na",
            list(strukt(&[("k", DataType::Utf8), ("secret", DataType::Utf8)])),
        ),
        ("attr_name", DataType::Utf8),
        ("o", strukt(&[("a", DataType::Utf8), ("b", dec.clone())])),
        ("pw", DataType::Utf8),
        ("s", DataType::Utf8),
        ("st", list(dec.clone())),
        (
            "tu",
            strukt(&[("0", DataType::Utf8), ("1", DataType::Boolean)]),
        ),
        ("bag", list(strukt(&[("z", DataType::Boolean)]))),
        ("grp", strukt(&[("g", DataType::Utf8)])),
        ("many", list(strukt(&[("y", dec.clone())]))),
        ("named", map(strukt(&[("w", DataType::Utf8)]))),
        ("one", strukt(&[("x", DataType::Utf8)])),
    ];
    let fields = def.schema.fields();
    let common = tfwire_arrow::COMMON_COLUMNS.len();
    let names: Vec<&str> = fields
        .iter()
        .take(common)
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, tfwire_arrow::COMMON_COLUMNS);
    let got: Vec<(&str, DataType)> = fields
        .iter()
        .skip(common)
        .map(|f| (f.name().as_str(), f.data_type().clone()))
        .collect();
    assert_eq!(got, want);
    assert!(fleet.table("data_t_all").is_some());
    let names: Vec<String> = fleet.tables().into_iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        ["data_t_all", "t_all", "resources", "attributes", "outputs"]
    );
}

const VALUES: &str = r#"{"s":"str","b":true,"n":12.5,"l":["a","b"],"st":[3,1,2],"m":{"z":"26","a":"1"},
  "o":{"a":"x","b":-0.000000001},"tu":["t",false],"d":{"value":{"k":[1,"two"]},"type":["object",{"k":["tuple",["number","string"]]}]},
  "pw":"p4ssword","na":[{"k":"k1","secret":"n3sted"}],"name":"attr",
  "one":{"x":"single"},"many":[{"y":1},{"y":2}],"bag":[{"z":true}],"named":{"first":{"w":"w1"}},"grp":{"g":"grouped"}}"#;

#[test]
fn values_land_in_their_columns() {
    let dir = TempDir::new("values");
    let fleet = fleet_of(SCHEMA, &dir);
    let doc = state(
        VALUES,
        r#"[[{"type":"get_attr","value":"l"},{"type":"index","value":{"value":1,"type":"number"}}]]"#,
    );
    let b = batch(&fleet, "t_all", &doc, None, Options::default());
    assert_eq!(b.num_rows(), 1);
    let s = |n: &str| str_cell(&b, n, 0);
    assert_eq!(s("address").as_deref(), Some("t_all.r"));
    assert_eq!(s("workspace").as_deref(), Some("ws"));
    assert_eq!(s("phase").as_deref(), Some("state"));
    assert_eq!(s("mode").as_deref(), Some("managed"));
    assert_eq!(s("name").as_deref(), Some("r"));
    assert_eq!(s("attr_name").as_deref(), Some("attr"));
    assert_eq!(s("lineage").as_deref(), Some("lin"));
    assert_eq!(
        b.column_by_name("serial")
            .unwrap()
            .as_primitive::<arrow_array::types::UInt64Type>()
            .value(0),
        7
    );
    assert_eq!(
        s("provider").as_deref(),
        Some(r#"provider["registry.terraform.io/acme/t"]"#)
    );
    let c = |n: &str, shape: Shape| cell(b.column_by_name(n).unwrap(), 0, &shape);
    use serde_json::json;
    assert_eq!(c("s", Shape::String), json!("str"));
    assert_eq!(c("b", Shape::Bool), json!(true));
    assert_eq!(c("n", Shape::Number), json!("12.5"));
    // Element 1 is sensitive: null, its path listed.
    assert_eq!(
        c("l", Shape::List(Box::new(Shape::String))),
        json!(["a", null])
    );
    // Sets in the order the state writes them.
    assert_eq!(
        c("st", Shape::List(Box::new(Shape::Number))),
        json!(["3", "1", "2"])
    );
    // Maps with sorted keys.
    let m = b.column_by_name("m").unwrap().as_map().value(0);
    let keys = m.column(0).as_string::<i32>();
    assert_eq!((keys.value(0), keys.value(1)), ("a", "z"));
    assert_eq!(
        c(
            "o",
            Shape::Object(vec![
                ("a".into(), Shape::String),
                ("b".into(), Shape::Number)
            ])
        ),
        json!({"a": "x", "b": "-0.000000001"})
    );
    assert_eq!(
        c("tu", Shape::Tuple(vec![Shape::String, Shape::Bool])),
        json!(["t", false])
    );
    let d = b.column_by_name("d").unwrap().as_struct();
    assert_eq!(
        d.column(0).as_string::<i32>().value(0),
        r#"{"k":[1,"two"]}"#
    );
    assert_eq!(
        d.column(1).as_string::<i32>().value(0),
        r#"["object",{"k":["tuple",["number","string"]]}]"#
    );
    // Schema-sensitive, at the top and nested.
    assert_eq!(c("pw", Shape::String), json!(null));
    let na = Shape::List(Box::new(Shape::Object(vec![
        ("k".into(), Shape::String),
        ("secret".into(), Shape::String),
    ])));
    assert_eq!(c("na", na), json!([{"k": "k1", "secret": null}]));
    assert_eq!(
        c(
            "many",
            Shape::List(Box::new(Shape::Object(vec![("y".into(), Shape::Number)])))
        ),
        json!([{"y": "1"}, {"y": "2"}])
    );
    assert_eq!(
        c(
            "named",
            Shape::Map(Box::new(Shape::Object(vec![("w".into(), Shape::String)])))
        ),
        json!({"first": {"w": "w1"}})
    );
    assert_eq!(
        c("grp", Shape::Object(vec![("g".into(), Shape::String)])),
        json!({"g": "grouped"})
    );
    let mut sens = strings(b.column_by_name("sensitive_paths").unwrap(), 0).unwrap();
    sens.sort();
    assert_eq!(sens, ["l[1]", "na[0].secret", "pw"]);
    // With include_sensitive, the values are there.
    let b = batch(
        &fleet,
        "t_all",
        &doc,
        None,
        Options {
            include_sensitive: true,
            ..Options::default()
        },
    );
    assert_eq!(str_cell(&b, "pw", 0).as_deref(), Some("p4ssword"));
    assert_eq!(
        strings(b.column_by_name("sensitive_paths").unwrap(), 0).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn numbers_are_exact_or_null_with_their_text() {
    let dir = TempDir::new("numbers");
    let fleet = fleet_of(SCHEMA, &dir);
    // Beyond f64 but within Decimal128(38, 9): exact. Beyond Decimal128: null, and the
    // exact text under its path.
    for (text, want) in [
        (
            "12345678901234567890.123456789",
            Some("12345678901234567890.123456789"),
        ),
        ("0.1", Some("0.1")),
        ("-7", Some("-7")),
        (
            "99999999999999999999999999999.999999999",
            Some("99999999999999999999999999999.999999999"),
        ),
        ("100000000000000000000000000000", None),
        ("0.0000000001", None),
        ("3.1415926535897932384626433832795028841971693993751", None),
        ("1e400", None),
    ] {
        let doc = state(&format!(r#"{{"n":{text},"st":[{text}]}}"#), "[]");
        let b = batch(&fleet, "t_all", &doc, None, Options::default());
        let got = cell(b.column_by_name("n").unwrap(), 0, &Shape::Number);
        let inexact = string_map(b.column_by_name("inexact_numbers").unwrap(), 0);
        match want {
            Some(w) => {
                assert_eq!(got, serde_json::json!(w), "{text}");
                assert!(inexact.is_empty(), "{text}");
            }
            None => {
                assert_eq!(got, serde_json::Value::Null, "{text}");
                assert_eq!(
                    inexact,
                    [
                        ("n".to_owned(), canon(text)),
                        ("st[0]".to_owned(), canon(text))
                    ],
                    "{text}"
                );
            }
        }
    }
}

/// A number beyond `f64`'s range sends the builder's first parse (without the shape
/// pre-pass) back to a whole parse of the document as it was: strings with escapes read
/// before the number are read right.
#[test]
fn a_wide_number_after_escaped_strings_reads_right() {
    let dir = TempDir::new("wide-after-escapes");
    let fleet = fleet_of(SCHEMA, &dir);
    let doc = state(r#"{"s":"a\"b\u00e9\\c","l":["x\ny"],"n":1e400}"#, "[]");
    let b = batch(&fleet, "t_all", &doc, None, Options::default());
    assert_eq!(str_cell(&b, "s", 0).as_deref(), Some("a\"bé\\c"));
    assert_eq!(
        cell(
            b.column_by_name("l").unwrap(),
            0,
            &Shape::List(Box::new(Shape::String))
        ),
        serde_json::json!(["x\ny"])
    );
    assert_eq!(
        string_map(b.column_by_name("inexact_numbers").unwrap(), 0),
        [("n".to_owned(), canon("1e400"))]
    );
}

#[test]
fn only_projected_attributes_are_decoded() {
    let dir = TempDir::new("projection");
    let fleet = fleet_of(SCHEMA, &dir);
    let def = fleet.table("t_all").unwrap();
    // `n` is malformed (a string where a number is required).
    let doc = state(r#"{"s":"ok","n":"not a number","b":false}"#, "[]");
    let s = def.schema.index_of("s").unwrap();
    let address = def.schema.index_of("address").unwrap();
    let mut b = TableBuilder::new(
        fleet.clone(),
        &def,
        Some(vec![address, s]),
        Options::default(),
    );
    b.add("doc.tfstate", "ws", &doc).unwrap();
    assert_eq!(b.decoded_values(), 1);
    let batch = b.finish().unwrap();
    assert_eq!(batch.num_columns(), 2);
    assert_eq!(str_cell(&batch, "s", 0).as_deref(), Some("ok"));
    // Projecting the malformed attribute fails, naming it with the document and offset.
    let n = def.schema.index_of("n").unwrap();
    let mut b = TableBuilder::new(fleet.clone(), &def, Some(vec![n]), Options::default());
    let e = b.add("doc.tfstate", "ws", &doc).unwrap_err();
    assert_eq!(e.source(), Some("doc.tfstate"));
    assert_eq!(e.address(), Some("t_all.r"));
    assert_eq!(e.path(), Some("n"));
    let at = String::from_utf8_lossy(&doc)
        .find("\"not a number\"")
        .unwrap();
    assert_eq!(e.offset(), Some(at), "{e}");
    assert!(e.to_string().contains("number"), "{e}");
    // An empty projection counts rows and decodes nothing.
    let mut b = TableBuilder::new(fleet.clone(), &def, Some(vec![]), Options::default());
    b.add("doc.tfstate", "ws", &doc).unwrap();
    b.add("doc.tfstate", "ws", &doc).unwrap();
    assert_eq!(b.decoded_values(), 0);
    assert_eq!(b.finish().unwrap().num_rows(), 2);
    // `sensitive_paths` speaks of every attribute: all are decoded (the malformed one fails).
    let sp = def.schema.index_of("sensitive_paths").unwrap();
    let mut b = TableBuilder::new(fleet.clone(), &def, Some(vec![sp]), Options::default());
    assert!(b.add("doc.tfstate", "ws", &doc).is_err());
    // A document that escapes letters of the type's name is read all the same.
    let escaped = String::from_utf8(doc.clone())
        .unwrap()
        .replace(r#""type":"t_all""#, r#""type":"t\u005fall""#);
    assert!(!escaped.contains("\"t_all\""));
    let mut b = TableBuilder::new(fleet.clone(), &def, Some(vec![address]), Options::default());
    b.add("escaped", "ws", escaped.as_bytes()).unwrap();
    assert_eq!(b.len(), 1);
    // A document without the type's name is not even parsed.
    let mut b = TableBuilder::new(fleet.clone(), &def, None, Options::default());
    b.add("junk", "ws", b"not json at all").unwrap();
    assert!(b.is_empty());
}

#[test]
fn hostile_inputs_are_errors_with_source_and_offset() {
    let dir = TempDir::new("hostile");
    let fleet = fleet_of(SCHEMA, &dir);
    let good = state(VALUES, "[]");
    let deep = format!(
        r#"{{"version":4,"resources":[{{"type":"t_all","x":{}1{}}}]}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("deep", deep.into_bytes()),
        ("wrong type of attributes", state(r#""t_all""#, "[]")),
        ("a string where a list is", state(r#"{"l":"t_all"}"#, "[]")),
        ("not a document", br#"{"t_all": 1}"#.to_vec()),
        (
            "a zip that is no plan",
            b"PK\x03\x04\x14\x00\x00\x00\x08\x00t_all garbage".to_vec(),
        ),
        ("huge declared size", {
            let mut z =
                std::fs::read(root().join("corpus/real-client/create/plan.tfplan")).unwrap();
            // Every local header's uncompressed size set to 4 GiB - 1.
            let mut i = 0;
            while i + 30 < z.len() {
                if z[i..i + 4] == *b"PK\x03\x04" || z[i..i + 4] == *b"PK\x01\x02" {
                    let at = if z[i + 2] == 3 { i + 22 } else { i + 24 };
                    z[at..at + 4].copy_from_slice(&[0xff, 0xff, 0xff, 0xff]);
                }
                i += 1;
            }
            z
        }),
    ];
    for (what, doc) in cases {
        let def = fleet.table("t_all").unwrap();
        let mut b = TableBuilder::new(fleet.clone(), &def, None, Options::default());
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            b.add("hostile.json", "ws", &doc)
        }));
        let r = r.unwrap_or_else(|_| panic!("{what}: panicked"));
        let e = r.expect_err(what);
        // In place: the same error, or the document given back to be read again (then
        // `add` reports it, as above); never a row.
        let mut c = TableBuilder::new(fleet.clone(), &def, None, Options::default());
        match c.add_in_place("hostile.json", "ws", &mut doc.clone()) {
            Ok(true) => panic!("{what}: added in place"),
            Ok(false) => {}
            Err(e2) => assert_eq!(e2.to_string(), e.to_string(), "{what}"),
        }
        c.add("good", "ws", &good).unwrap();
        assert_eq!(c.finish().unwrap().num_rows(), 1, "{what}: in place");
        assert_eq!(e.source(), Some("hostile.json"), "{what}: {e}");
        if !what.contains("zip") && what != "huge declared size" && what != "not a document" {
            assert!(e.offset().is_some(), "{what}: no offset in {e}");
        }
        // A document the JSON parser refuses fails where tfwire-plan's whole parse (with
        // its shape pre-pass) places the fault, whatever the builder's first parse found.
        if let Err(p) = tfwire_plan::Parser::new().parse(&mut doc.clone())
            && !what.contains("zip")
            && what != "huge declared size"
        {
            assert_eq!(e.offset(), p.offset(), "{what}: {e}; the parser: {p}");
        }
        // The builder is still usable after a failed document.
        b.add("good", "ws", &good).unwrap();
        assert_eq!(b.finish().unwrap().num_rows(), 1, "{what}");
    }
    // `sensitive_attributes` that is not a list hides the whole value (fail closed).
    let doc = state(r#"{"s":"x","pw":"y"}"#, r#""yes""#);
    let b = batch(&fleet, "t_all", &doc, None, Options::default());
    assert_eq!(str_cell(&b, "s", 0), None);
    // A marker tree that is not one fails closed.
    let plan = br#"{"format_version":"1.2","resource_changes":[{"address":"t_all.r","mode":"managed","type":"t_all","name":"r",
      "change":{"actions":["create"],"before":null,"after":{"s":"secret"},"after_unknown":{},"after_sensitive":"yes"}}]}"#;
    let def = fleet.table("t_all").unwrap();
    let e = TableBuilder::new(fleet.clone(), &def, None, Options::default())
        .add("p.json", "ws", plan)
        .unwrap_err();
    assert!(e.to_string().contains("marker tree"), "{e}");
    // A plan without sensitivity markers fails closed too.
    let plan = br#"{"format_version":"1.2","resource_changes":[{"address":"t_all.r","mode":"managed","type":"t_all","name":"r",
      "change":{"actions":["create"],"before":null,"after":{"s":"secret"},"after_unknown":{}}}]}"#;
    let e = TableBuilder::new(fleet.clone(), &def, None, Options::default())
        .add("p.json", "ws", plan)
        .unwrap_err();
    assert!(e.to_string().contains("no sensitivity markers"), "{e}");
}

#[test]
fn unknown_values_of_plans_are_null_with_their_paths() {
    let dir = TempDir::new("unknown");
    let fleet = fleet_of(SCHEMA, &dir);
    let plan = br#"{"format_version":"1.2","resource_changes":[{"address":"t_all.r","mode":"managed","type":"t_all","name":"r",
      "change":{"actions":["update"],"before":{"s":"old","l":["a"]},"after":{"l":["a"]},"after_unknown":{"s":true,"l":[false,true]},
      "before_sensitive":{},"after_sensitive":{}}}]}"#;
    let b = batch(&fleet, "t_all", plan, None, Options::default());
    assert_eq!(b.num_rows(), 2);
    assert_eq!(str_cell(&b, "phase", 0).as_deref(), Some("before"));
    assert_eq!(str_cell(&b, "s", 0).as_deref(), Some("old"));
    assert_eq!(str_cell(&b, "phase", 1).as_deref(), Some("after"));
    assert_eq!(str_cell(&b, "s", 1), None);
    assert_eq!(
        strings(b.column_by_name("actions").unwrap(), 1).unwrap(),
        ["update"]
    );
    assert_eq!(
        strings(b.column_by_name("unknown_paths").unwrap(), 1).unwrap(),
        ["s"]
    );
    // `resources` lists the unknown paths from the markers.
    let r = batch(&fleet, "resources", plan, None, Options::default());
    let mut unknown = strings(r.column_by_name("unknown_paths").unwrap(), 1).unwrap();
    unknown.sort();
    assert_eq!(unknown, ["l[1]", "s"]);
}

#[test]
fn outputs_and_the_long_form() {
    let dir = TempDir::new("long");
    let fleet = fleet_of(SCHEMA, &dir);
    let doc = state(r#"{"s":"x"}"#, "[]");
    let o = batch(&fleet, "outputs", &doc, None, Options::default());
    assert_eq!(o.num_rows(), 2);
    assert_eq!(str_cell(&o, "name", 0).as_deref(), Some("o1"));
    assert_eq!(str_cell(&o, "value", 0).as_deref(), Some(r#""v1""#));
    assert_eq!(str_cell(&o, "type", 0).as_deref(), Some(r#""string""#));
    assert_eq!(str_cell(&o, "value", 1), None);
    assert!(o.column_by_name("sensitive").unwrap().as_boolean().value(1));
    let o = batch(
        &fleet,
        "outputs",
        &doc,
        None,
        Options {
            include_sensitive: true,
            ..Options::default()
        },
    );
    assert_eq!(str_cell(&o, "value", 1).as_deref(), Some(r#""hush-hush""#));
    // A type no schema describes goes to the long form only.
    let other = br#"{"version":4,"resources":[{"mode":"managed","type":"x_thing","name":"a","instances":[
       {"attributes":{"tags":{"k":"v"},"list":[1,2.50],"pw":"hid"},"sensitive_attributes":[[{"type":"get_attr","value":"pw"}]]}]}]}"#;
    let l = batch(&fleet, "attributes", other, None, Options::default());
    let rows: Vec<(String, Option<String>)> = (0..l.num_rows())
        .map(|i| (str_cell(&l, "path", i).unwrap(), str_cell(&l, "value", i)))
        .collect();
    assert_eq!(
        rows,
        [
            ("tags.k".to_owned(), Some(r#""v""#.to_owned())),
            ("list[0]".to_owned(), Some("1".to_owned())),
            ("list[1]".to_owned(), Some("2.50".to_owned())),
            ("pw".to_owned(), None),
        ]
    );
    assert!(l.column_by_name("sensitive").unwrap().as_boolean().value(3));
    // A type with a schema is not in the long form.
    assert_eq!(
        batch(&fleet, "attributes", &doc, None, Options::default()).num_rows(),
        0
    );
    assert_eq!(
        batch(&fleet, "resources", other, None, Options::default()).num_rows(),
        1
    );
}

#[test]
fn a_type_table_is_the_union_of_the_cached_versions() {
    let dir = TempDir::new("union");
    let cache = tfwire_config::SchemaCache::new(&dir.0, 1 << 20);
    let v = |attrs: &str| {
        String::from(
            r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/acme/t":{"resource_schemas":{"t_u":{"version":0,"block":{"attributes":{"#,
        ) + attrs
            + "}}}}}}}"
    };
    cache.add(v(r#""old_name":{"type":"string","optional":true},"kept":{"type":"string","optional":true}"#).as_bytes(), |_| Some("4.9.0".into())).unwrap();
    cache.add(v(r#""new_name":{"type":"string","optional":true},"kept":{"type":"number","optional":true}"#).as_bytes(), |_| Some("4.10.0".into())).unwrap();
    let fleet = Arc::new(FleetSchemas::load(&cache).unwrap());
    let def = fleet.table("t_u").unwrap();
    let extra: Vec<(String, DataType)> = def
        .schema
        .fields()
        .iter()
        .skip(tfwire_arrow::COMMON_COLUMNS.len())
        .map(|f| (f.name().clone(), f.data_type().clone()))
        .collect();
    // 4.10.0 is the newest (numerically): its order and its type of `kept` first.
    assert_eq!(
        extra,
        [
            ("kept".to_owned(), DataType::Decimal128(38, 9)),
            ("new_name".to_owned(), DataType::Utf8),
            ("old_name".to_owned(), DataType::Utf8),
        ]
    );
    // Two providers with one type name: refused, naming both.
    let cache2 = TempDir::new("collide");
    let c = tfwire_config::SchemaCache::new(&cache2.0, 1 << 20);
    c.add(
        v(r#""a":{"type":"string","optional":true}"#).as_bytes(),
        |_| Some("1.0.0".into()),
    )
    .unwrap();
    c.add(
        v(r#""a":{"type":"string","optional":true}"#)
            .replace("acme/t", "other/t")
            .as_bytes(),
        |_| Some("1.0.0".into()),
    )
    .unwrap();
    let e = FleetSchemas::load(&c).unwrap_err().to_string();
    assert!(e.contains("acme/t") && e.contains("other/t"), "{e}");
}

#[test]
fn builders_cross_threads() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<TableBuilder>();
    send_sync::<FleetSchemas>();
    send_sync::<tfwire_arrow::TableDef>();
    send_sync::<tfwire_arrow::Input>();
    send_sync::<tfwire_arrow::Error>();
}

#[test]
fn version_3_states() {
    let dir = TempDir::new("v3");
    let fleet = fleet_of(SCHEMA, &dir);
    let doc = br#"{"version":3,"serial":4,"lineage":"old","modules":[
      {"path":["root"],"outputs":{"o":{"sensitive":false,"type":"string","value":"out"}},
       "resources":{"t_all.r":{"type":"t_all","provider":"provider.t","primary":{"id":"i-1","attributes":{"id":"i-1","s":"str","l.#":"1","l.0":"a"}}},
                    "x_other.q.1":{"type":"x_other","primary":{"id":"q","attributes":{"id":"q"}}}}},
      {"path":["root","net"],"resources":{"data.t_all.d":{"type":"t_all","primary":{"id":"d","attributes":{"id":"d"}}}}}]}"#;
    let r = batch(&fleet, "resources", doc, None, Options::default());
    let rows: Vec<(String, String, Option<String>, Option<String>)> = (0..r.num_rows())
        .map(|i| {
            (
                str_cell(&r, "address", i).unwrap(),
                str_cell(&r, "mode", i).unwrap(),
                str_cell(&r, "module", i),
                str_cell(&r, "index_key", i),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("t_all.r".to_owned(), "managed".to_owned(), None, None),
            (
                "x_other.q[1]".to_owned(),
                "managed".to_owned(),
                None,
                Some("1".to_owned())
            ),
            (
                "module.net.data.t_all.d".to_owned(),
                "data".to_owned(),
                Some("module.net".to_owned()),
                None
            ),
        ]
    );
    assert_eq!(str_cell(&r, "lineage", 0).as_deref(), Some("old"));
    // Flatmap attributes in the long form, whatever their type.
    let l = batch(&fleet, "attributes", doc, None, Options::default());
    let paths: Vec<(String, String)> = (0..l.num_rows())
        .map(|i| {
            (
                str_cell(&l, "path", i).unwrap(),
                str_cell(&l, "value", i).unwrap(),
            )
        })
        .collect();
    assert!(
        paths.contains(&("l.#".to_owned(), r#""1""#.to_owned())),
        "{paths:?}"
    );
    assert!(
        paths.contains(&("s".to_owned(), r#""str""#.to_owned())),
        "{paths:?}"
    );
    let o = batch(&fleet, "outputs", doc, None, Options::default());
    assert_eq!(str_cell(&o, "value", 0).as_deref(), Some(r#""out""#));
    // A type table refuses them: a flatmap cannot be typed.
    let def = fleet.table("t_all").unwrap();
    let e = TableBuilder::new(fleet.clone(), &def, None, Options::default())
        .add("v3.tfstate", "ws", doc)
        .unwrap_err();
    assert!(e.to_string().contains("flatmap"), "{e}");
    assert_eq!(e.address(), Some("t_all.r"));
}

/// `with_phases`: a document that cannot hold rows of the phases asked for is refused
/// unread (counted), one that may is read whole; `state` or an unknown phase refuses none.
#[test]
fn phases_refuse_documents_without_their_member() {
    let dir = TempDir::new("phases");
    let fleet = fleet_of(SCHEMA, &dir);
    let raw = state(r#"{"s":"x"}"#, "[]");
    let plan = |key: &str| {
        format!(
            r#"{{"format_version":"1.2","{key}":[{{"address":"t_all.r","mode":"managed","type":"t_all","name":"r",
              "change":{{"actions":["create"],"before":null,"after":{{"s":"x"}},"after_unknown":{{}},"after_sensitive":{{}}}}}}],
              "output_changes":{{"o":{{"actions":["create"],"before":null,"after":"v","after_unknown":false,"before_sensitive":false,"after_sensitive":false}}}}}}"#
        )
        .into_bytes()
    };
    let escaped = plan(r"resource\u005fchanges");
    let plan = plan("resource_changes");
    // (table, phases, document, refused unread)
    let cases: Vec<(&str, &[&str], &[u8], bool)> = vec![
        ("resources", &["before", "after"], &raw, true),
        ("resources", &["after"], &plan, false),
        ("resources", &["after"], &escaped, false),
        ("resources", &["drift_after"], &plan, true),
        ("resources", &["prior"], &plan, true),
        ("resources", &["state", "after"], &raw, false),
        ("resources", &["planned"], &raw, false),
        ("t_all", &["before", "after"], &raw, true),
        ("t_all", &["after"], &plan, false),
        ("outputs", &["after"], &raw, true),
        ("outputs", &["after"], &plan, false),
    ];
    for (table, phases, doc, refused) in cases {
        let def = fleet.table(table).unwrap();
        let mut b =
            TableBuilder::new(fleet.clone(), &def, None, Options::default()).with_phases(phases);
        b.add("doc", "ws", doc).unwrap();
        assert_eq!(b.refused(), usize::from(refused), "{table} {phases:?}");
        // A document read gives its rows (of every phase: the query filters them).
        let rows = b.finish().unwrap().num_rows();
        assert_eq!(rows == 0, refused, "{table} {phases:?}: {rows} rows");
    }
}
