//! Every corpus provider schema, sent as a `GetProviderSchema` response (and its identities as
//! a `GetResourceIdentitySchemas` response) of protocol 5 and of protocol 6 encoded by the
//! generated types, reads back with the one protobuf reader (`ProviderSchema::from_protobuf`,
//! `add_identities_from_protobuf`) from the frame's bytes as the tap does, and from the
//! decoded prost message (`ProviderSchema::try_from`, `identities_v5`/`_v6`), equal to the
//! schema it was made from: every kind
//! (resources, data sources, ephemeral and list resources, actions, state stores, functions,
//! identities).

use prost::Message;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tfwire::schema::{
    Attribute, AttributeType, Block, Function, IdentitySchema, NestedType, Parameter, Protocol,
    ProviderSchema, ProviderSchemas, Schema,
};
use tfwire_plugin::{identities_v5, identities_v6, tfplugin5, tfplugin6};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// Writes a schema as protobuf messages of both protocols (the generated types of each).
macro_rules! to_proto {
    ($local:ident, $m:ident, $nested:tt) => {
        pub(crate) mod $local {
            use super::*;
            use tfwire_plugin::$m::{
                function, get_provider_schema, get_resource_identity_schemas, resource_identity_schema,
                schema, ActionSchema, ResourceIdentitySchema,
            };

            pub(crate) fn identities(
                p: &std::collections::BTreeMap<String, IdentitySchema>,
            ) -> get_resource_identity_schemas::Response {
                get_resource_identity_schemas::Response {
                    identity_schemas: p
                        .iter()
                        .map(|(k, s)| {
                            let attrs = s
                                .attributes
                                .iter()
                                .map(|a| resource_identity_schema::IdentityAttribute {
                                    name: a.name.clone(),
                                    r#type: a.ty.to_string().into_bytes().into(),
                                    required_for_import: a.required_for_import,
                                    optional_for_import: a.optional_for_import,
                                    description: a.description.clone(),
                                })
                                .collect();
                            (
                                k.clone(),
                                ResourceIdentitySchema {
                                    version: s.version,
                                    identity_attributes: attrs,
                                },
                            )
                        })
                        .collect(),
                    ..Default::default()
                }
            }

            fn parameter(p: &Parameter) -> function::Parameter {
                function::Parameter {
                    name: p.name.clone(),
                    r#type: p.ty.to_string().into_bytes().into(),
                    allow_null_value: p.allow_null,
                    allow_unknown_values: p.allow_unknown,
                    description: p.description.clone(),
                    ..Default::default()
                }
            }

            fn function(f: &Function) -> tfwire_plugin::$m::Function {
                tfwire_plugin::$m::Function {
                    parameters: f.parameters.iter().map(parameter).collect(),
                    variadic_parameter: f.variadic.as_ref().map(parameter),
                    r#return: Some(function::Return {
                        r#type: f.return_type.to_string().into_bytes().into(),
                    }),
                    summary: f.summary.clone(),
                    description: f.description.clone(),
                    deprecation_message: f.deprecation_message.clone(),
                    ..Default::default()
                }
            }

            pub(crate) fn response(p: &ProviderSchema) -> get_provider_schema::Response {
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
                r.functions = p.functions.iter().map(|(k, f)| (k.clone(), function(f))).collect();
                r.action_schemas = p
                    .actions
                    .iter()
                    .map(|(k, s)| (k.clone(), ActionSchema { schema: Some(self::schema(s)) }))
                    .collect();
                to_proto!(@state_stores $nested, r, p, map);
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
    (@state_stores true, $r:ident, $p:ident, $map:ident) => {
        $r.state_store_schemas = $map(&$p.state_stores);
    };
    // Protocol 5 has no state stores (field 10 is reserved).
    (@state_stores false, $r:ident, $p:ident, $map:ident) => {};
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

/// What protocol 5 can say of a schema: nested attributes become their implied type; no
/// state stores.
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
        .chain(p.actions.values_mut())
    {
        s.block = block(&s.block);
    }
    p.state_stores.clear();
    p
}

/// Every `schemas.json` of the corpus (the real clients' scenarios, planfiles, render
/// cases, ...) and every document of `schemas/` and `schemas-synthetic/`.
fn corpus_documents() -> Vec<PathBuf> {
    let mut all = Vec::new();
    crate::corpus_files::json_files(&corpus(), &mut all);
    let mut paths: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| {
            p.starts_with(corpus().join("schemas"))
                || p.starts_with(corpus().join("schemas-synthetic"))
                || p.file_name().is_some_and(|n| n == "schemas.json")
        })
        .collect();
    paths.sort();
    paths
}

#[test]
fn corpus_schemas_read_the_same_both_ways() {
    let paths = corpus_documents();
    let (mut providers, mut bytes_total) = (0, 0);
    // How many of each kind were compared, so that a kind no document has is seen.
    let mut kinds = [0usize; 6];
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
            // Every member of every corpus provider is a kind the loader reads.
            assert_eq!(p.unread, Vec::<String>::new(), "{what}");
            providers += 1;
            for (i, n) in [
                p.ephemeral_resources.len(),
                p.list_resources.len(),
                p.identities.len(),
                p.actions.len(),
                p.functions.len(),
                p.state_stores.len(),
            ]
            .into_iter()
            .enumerate()
            {
                kinds[i] += n;
            }
            // Protocol 6: nested attributes as they are.
            let bytes = v6::response(p).encode_to_vec();
            let ids = v6::identities(&p.identities).encode_to_vec();
            bytes_total += bytes.len() + ids.len();
            let decoded =
                tfplugin6::get_provider_schema::Response::decode(bytes.as_slice()).unwrap();
            let mut converted =
                ProviderSchema::try_from(&decoded).unwrap_or_else(|e| panic!("{what}: {e}"));
            let decoded_ids =
                tfplugin6::get_resource_identity_schemas::Response::decode(ids.as_slice()).unwrap();
            converted.identities = identities_v6(&decoded_ids).unwrap();
            assert_eq!(&converted, p, "{what}: v6 prost conversion");
            let mut raw = ProviderSchema::from_protobuf(&bytes, Protocol::V6).unwrap();
            raw.add_identities_from_protobuf(&ids).unwrap();
            assert_eq!(&raw, p, "{what}: v6 tfwire reader");
            // Protocol 5: nested attributes flattened to their types.
            let flat = flatten(p);
            let bytes = v5::response(p).encode_to_vec();
            let ids = v5::identities(&p.identities).encode_to_vec();
            let decoded =
                tfplugin5::get_provider_schema::Response::decode(bytes.as_slice()).unwrap();
            let mut converted =
                ProviderSchema::try_from(&decoded).unwrap_or_else(|e| panic!("{what}: {e}"));
            let decoded_ids =
                tfplugin5::get_resource_identity_schemas::Response::decode(ids.as_slice()).unwrap();
            converted.identities = identities_v5(&decoded_ids).unwrap();
            assert_eq!(converted, flat, "{what}: v5 prost conversion");
            let mut raw = ProviderSchema::from_protobuf(&bytes, Protocol::V5).unwrap();
            raw.add_identities_from_protobuf(&ids).unwrap();
            assert_eq!(raw, flat, "{what}: v5 tfwire reader");
        }
    }
    eprintln!(
        "{} documents, {providers} providers, {bytes_total} bytes of protocol 6 responses; \
         ephemeral, list, identity, action, function, state store schemas: {kinds:?}",
        paths.len()
    );
    assert!(providers > 70, "{providers} providers");
    // The corpus has real documents with each of these kinds (terraform-json's testdata,
    // the built-in provider's functions and identity in the Terraform scenarios); state
    // stores only in the synthetic document.
    assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
}
