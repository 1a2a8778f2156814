//! Every corpus provider schema, sent as a `GetProviderSchema` response of protocol 5 and of
//! protocol 6, reads back the same through the prost conversion (`Schemas::try_from`) and
//! through tfwire's own protobuf reader (`ProviderSchema::from_protobuf`), and equal to the
//! schema it was made from.

use prost::Message;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tfwire::schema::{
    Attribute, AttributeType, Block, NestedType, Protocol, ProviderSchema, ProviderSchemas, Schema,
};
use tfwire_plugin::{Schemas, tfplugin5, tfplugin6};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// Writes a schema as protobuf messages of both protocols (the generated types of each).
macro_rules! to_proto {
    ($local:ident, $m:ident, $nested:tt) => {
        mod $local {
            use super::*;
            use tfwire_plugin::$m::{get_provider_schema, schema};

            pub(super) fn response(p: &ProviderSchema) -> get_provider_schema::Response {
                let map = |m: &std::collections::BTreeMap<String, Schema>| {
                    m.iter()
                        .map(|(k, s)| (k.clone(), self::schema(s)))
                        .collect::<HashMap<_, _>>()
                };
                let mut r = get_provider_schema::Response {
                    provider: p.provider.as_ref().map(self::schema),
                    provider_meta: p.provider_meta.as_ref().map(self::schema),
                    resource_schemas: map(&p.resources),
                    data_source_schemas: map(&p.data_sources),
                    ..Default::default()
                };
                r.ephemeral_resource_schemas = map(&p.ephemeral_resources);
                r.list_resource_schemas = map(&p.list_resources);
                r
            }

            fn schema(s: &Schema) -> tfwire_plugin::$m::Schema {
                tfwire_plugin::$m::Schema {
                    version: s.version,
                    block: Some(block(&s.block)),
                }
            }

            fn block(b: &Block) -> schema::Block {
                schema::Block {
                    attributes: b.attributes.iter().map(attribute).collect(),
                    block_types: b
                        .block_types
                        .iter()
                        .map(|nb| schema::NestedBlock {
                            type_name: nb.type_name.clone(),
                            block: Some(block(&nb.block)),
                            nesting: nesting(nb.nesting),
                            min_items: nb.min_items as i64,
                            max_items: nb.max_items as i64,
                        })
                        .collect(),
                    description: b.description.clone(),
                    deprecated: b.deprecated,
                    ..Default::default()
                }
            }

            fn nesting(n: tfwire::schema::Nesting) -> i32 {
                use tfwire::schema::Nesting::*;
                match n {
                    Single => 1,
                    List => 2,
                    Set => 3,
                    Map => 4,
                    Group => 5,
                }
            }

            fn attribute(a: &Attribute) -> schema::Attribute {
                #[allow(unused_mut)]
                let mut out = schema::Attribute {
                    name: a.name.clone(),
                    r#type: a.implied_type().to_string().into_bytes().into(),
                    description: a.description.clone(),
                    required: a.required,
                    optional: a.optional,
                    computed: a.computed,
                    sensitive: a.sensitive,
                    deprecated: a.deprecated,
                    write_only: a.write_only,
                    ..Default::default()
                };
                to_proto!(@nested $nested, a, out);
                out
            }

            to_proto!(@object_fn $nested);
        }
    };
    (@nested true, $a:ident, $out:ident) => {
        if let AttributeType::Nested(n) = &$a.ty {
            $out.r#type = Default::default();
            $out.nested_type = Some(object(n));
        }
    };
    (@nested false, $a:ident, $out:ident) => {};
    (@object_fn true) => {
        fn object(n: &NestedType) -> schema::Object {
            schema::Object {
                attributes: n.attributes.iter().map(attribute).collect(),
                nesting: nesting(n.nesting),
                ..Default::default()
            }
        }
    };
    (@object_fn false) => {};
}

to_proto!(v5, tfplugin5, false);
to_proto!(v6, tfplugin6, true);

/// What protocol 5 can say of a schema: nested attributes become their implied type.
fn flatten(p: &ProviderSchema) -> ProviderSchema {
    fn block(b: &Block) -> Block {
        let mut b = b.clone();
        for a in &mut b.attributes {
            if let AttributeType::Nested(_) = a.ty {
                a.ty = AttributeType::Type(a.implied_type());
            }
        }
        for nb in &mut b.block_types {
            nb.block = block(&nb.block);
        }
        b
    }
    let mut p = p.clone();
    for s in p
        .provider
        .iter_mut()
        .chain(p.provider_meta.iter_mut())
        .chain(p.resources.values_mut())
        .chain(p.data_sources.values_mut())
        .chain(p.ephemeral_resources.values_mut())
        .chain(p.list_resources.values_mut())
    {
        s.block = block(&s.block);
    }
    p
}

#[test]
fn corpus_schemas_read_the_same_both_ways() {
    let mut paths = Vec::new();
    files(&corpus().join("schemas"), &mut paths);
    files(&corpus().join("schemas-synthetic"), &mut paths);
    paths.sort();
    let (mut providers, mut bytes_total) = (0, 0);
    for path in &paths {
        let Ok(doc) = ProviderSchemas::from_json(&std::fs::read(path).unwrap()) else {
            // schemas-synthetic holds invalid documents too; tfwire's own tests cover them.
            assert!(
                path.starts_with(corpus().join("schemas-synthetic")),
                "{}",
                path.display()
            );
            continue;
        };
        for (addr, p) in &doc.providers {
            let what = format!("{} {addr}", path.display());
            providers += 1;
            // Protocol 6: nested attributes as they are.
            let bytes = v6::response(p).encode_to_vec();
            bytes_total += bytes.len();
            let decoded =
                tfplugin6::get_provider_schema::Response::decode(bytes.as_slice()).unwrap();
            let converted = Schemas::try_from(&decoded).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(&converted.provider, p, "{what}: v6 prost conversion");
            let raw = ProviderSchema::from_protobuf(&bytes, Protocol::V6).unwrap();
            assert_eq!(&raw, p, "{what}: v6 tfwire reader");
            // Protocol 5: nested attributes flattened to their types.
            let flat = flatten(p);
            let bytes = v5::response(p).encode_to_vec();
            let decoded =
                tfplugin5::get_provider_schema::Response::decode(bytes.as_slice()).unwrap();
            let converted = Schemas::try_from(&decoded).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(converted.provider, flat, "{what}: v5 prost conversion");
            let raw = ProviderSchema::from_protobuf(&bytes, Protocol::V5).unwrap();
            assert_eq!(raw, flat, "{what}: v5 tfwire reader");
        }
    }
    eprintln!("{providers} providers, {bytes_total} bytes of protocol 6 responses");
    assert!(providers > 70, "{providers} providers");
}
