//! `GetProviderSchema` (and `GetResourceIdentitySchemas`) responses as tfwire schemas
//! ([`ProviderSchema`], the model `providers schema -json` documents load into too).
//!
//! tfwire's core crate keeps its own small protobuf reader
//! ([`tfwire::schema::ProviderSchema::from_protobuf`]): it has no gRPC dependency and reads a
//! response straight from the bytes of a frame. This crate converts the generated prost types
//! instead: once a proxy has decoded a message with prost (as tonic services do), walking the
//! typed message is simpler than encoding it again. Both read every kind (resources, data
//! sources, ephemeral and list resources, actions, state stores, functions, identities); the
//! two readings are checked to agree on every corpus schema (`tests/harness/schema.rs`).

use std::collections::BTreeMap;
use tfwire::schema::{
    Attribute, AttributeType, Block, Function, IdentityAttribute, IdentitySchema, NestedBlock,
    NestedType, Nesting, Parameter, ProviderSchema, Schema,
};
use tfwire::{Error, ErrorKind, Path, Type};

fn invalid(m: String) -> Error {
    Error::new(ErrorKind::InvalidSchema(m), 0, Path::root())
}

/// Parses a type JSON field (`Attribute.type`, `Function.Parameter.type`, ...).
fn type_json(json: &[u8], what: &dyn Fn() -> String) -> Result<Type, Error> {
    let text = core::str::from_utf8(json)
        .map_err(|_| invalid(format!("{}: the type is not valid UTF-8", what())))?;
    // The message was decoded already: the error has no offset in it, the type JSON's own
    // offset goes into the message.
    Type::from_json(text).map_err(|e| {
        let message = match e.kind() {
            ErrorKind::InvalidType { message, .. } => message.clone(),
            k => k.to_string(),
        };
        Error::new(
            ErrorKind::InvalidType {
                message: format!("{}: {message}", what()),
                offset: Some(e.offset()),
            },
            0,
            Path::root(),
        )
    })
}

fn nesting(v: i32, group: bool, what: &dyn Fn() -> String) -> Result<Nesting, Error> {
    Ok(match v {
        1 => Nesting::Single,
        2 => Nesting::List,
        3 => Nesting::Set,
        4 => Nesting::Map,
        5 if group => Nesting::Group,
        _ => return Err(invalid(format!("{}: invalid nesting mode {v}", what()))),
    })
}

fn count(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// Blocks and nested attributes deeper than this are rejected (as the core reader does).
const MAX_DEPTH: usize = 64;

macro_rules! convert {
    ($m:ident, $response:ident, nested: $has_nested:tt) => {
        impl TryFrom<&crate::$m::Schema> for Schema {
            type Error = Error;

            /// Converts a `Schema` message.
            fn try_from(s: &crate::$m::Schema) -> Result<Schema, Error> {
                let block = match &s.block {
                    Some(b) => $m::block(b, 0, &|| "the schema".into())?,
                    None => Block::default(),
                };
                Ok(Schema {
                    version: s.version,
                    block,
                })
            }
        }

        impl TryFrom<&crate::$m::$response::Response> for ProviderSchema {
            type Error = Error;

            /// Converts a `GetProviderSchema` response (identities come from
            /// `GetResourceIdentitySchemas`: see [`identities_v6`]).
            fn try_from(r: &crate::$m::$response::Response) -> Result<ProviderSchema, Error> {
                let map = |m: &std::collections::HashMap<String, crate::$m::Schema>| {
                    m.iter()
                        .map(|(k, v)| {
                            Schema::try_from(v)
                                .map(|s| (k.clone(), s))
                                .map_err(|e| context(e, k))
                        })
                        .collect::<Result<BTreeMap<_, _>, Error>>()
                };
                let optional = |s: &Option<crate::$m::Schema>| s.as_ref().map(Schema::try_from).transpose();
                let mut functions = BTreeMap::new();
                for (name, f) in &r.functions {
                    let what = |i: &str| format!("function {name:?} {i}");
                    let parameter = |p: &crate::$m::function::Parameter, i: &str| {
                        Ok::<_, Error>(Parameter {
                            name: p.name.clone(),
                            ty: type_json(&p.r#type, &|| what(i))?,
                            allow_null: p.allow_null_value,
                            allow_unknown: p.allow_unknown_values,
                            description: p.description.clone(),
                        })
                    };
                    let return_type = match &f.r#return {
                        Some(p) => type_json(&p.r#type, &|| what("return"))?,
                        // Terraform cannot read a function without one either.
                        None => return Err(invalid(what("has no return type"))),
                    };
                    functions.insert(
                        name.clone(),
                        Function {
                            parameters: f
                                .parameters
                                .iter()
                                .enumerate()
                                .map(|(i, p)| parameter(p, &format!("parameter {i}")))
                                .collect::<Result<_, _>>()?,
                            variadic: f
                                .variadic_parameter
                                .as_ref()
                                .map(|p| parameter(p, "variadic parameter"))
                                .transpose()?,
                            return_type,
                            summary: f.summary.clone(),
                            description: f.description.clone(),
                            deprecation_message: f.deprecation_message.clone(),
                        },
                    );
                }
                // An action without a schema message has the default (empty) one, as a map
                // entry without a value has in the core reader.
                let actions = r
                    .action_schemas
                    .iter()
                    .map(|(k, a)| {
                        let s = match &a.schema {
                            Some(s) => Schema::try_from(s).map_err(|e| context(e, k))?,
                            None => Schema::default(),
                        };
                        Ok((k.clone(), s))
                    })
                    .collect::<Result<_, Error>>()?;
                Ok(ProviderSchema {
                    provider: optional(&r.provider)?,
                    provider_meta: optional(&r.provider_meta)?,
                    resources: map(&r.resource_schemas)?,
                    data_sources: map(&r.data_source_schemas)?,
                    ephemeral_resources: map(&r.ephemeral_resource_schemas)?,
                    list_resources: map(&r.list_resource_schemas)?,
                    identities: BTreeMap::new(),
                    actions,
                    functions,
                    state_stores: convert!(@state_stores $m, r, map),
                    // prost keeps no unknown fields.
                    unread: Vec::new(),
                })
            }
        }

        pub(crate) mod $m {
            use super::*;
            use crate::$m::{get_resource_identity_schemas, schema};

            pub(crate) fn identities(
                r: &get_resource_identity_schemas::Response,
            ) -> Result<BTreeMap<String, IdentitySchema>, Error> {
                let mut out = BTreeMap::new();
                for (name, s) in &r.identity_schemas {
                    let attributes = s
                        .identity_attributes
                        .iter()
                        .map(|a| {
                            let ty = type_json(&a.r#type, &|| {
                                format!("identity of {name:?}: attribute {:?}", a.name)
                            })?;
                            Ok(IdentityAttribute {
                                name: a.name.clone(),
                                ty,
                                required_for_import: a.required_for_import,
                                optional_for_import: a.optional_for_import,
                                description: a.description.clone(),
                            })
                        })
                        .collect::<Result<Vec<_>, Error>>()?;
                    let mut attributes: Vec<IdentityAttribute> = attributes;
                    attributes.sort_by(|a, b| a.name.cmp(&b.name));
                    if let Some(w) = attributes.windows(2).find(|w| w[0].name == w[1].name) {
                        return Err(invalid(format!(
                            "identity of {name:?}: {:?} is declared twice",
                            w[1].name
                        )));
                    }
                    out.insert(
                        name.clone(),
                        IdentitySchema {
                            version: s.version,
                            attributes,
                        },
                    );
                }
                Ok(out)
            }

            pub(crate) fn block(
                b: &schema::Block,
                depth: usize,
                what: &dyn Fn() -> String,
            ) -> Result<Block, Error> {
                if depth > MAX_DEPTH {
                    return Err(invalid(format!("{}: blocks nested more than {MAX_DEPTH} deep", what())));
                }
                let mut out = Block {
                    attributes: b
                        .attributes
                        .iter()
                        .map(|a| attribute(a, depth, what))
                        .collect::<Result<_, _>>()?,
                    block_types: b
                        .block_types
                        .iter()
                        .map(|nb| {
                            let what = || format!("{}: block {:?}", what(), nb.type_name);
                            Ok(NestedBlock {
                                type_name: nb.type_name.clone(),
                                block: match &nb.block {
                                    Some(b) => block(b, depth + 1, &what)?,
                                    None => Block::default(),
                                },
                                nesting: nesting(nb.nesting, true, &what)?,
                                min_items: count(nb.min_items),
                                max_items: count(nb.max_items),
                            })
                        })
                        .collect::<Result<_, Error>>()?,
                    description: b.description.clone(),
                    deprecated: b.deprecated,
                };
                out.attributes.sort_by(|a, b| a.name.cmp(&b.name));
                out.block_types.sort_by(|a, b| a.type_name.cmp(&b.type_name));
                Ok(out)
            }

            fn attribute(
                a: &schema::Attribute,
                depth: usize,
                what: &dyn Fn() -> String,
            ) -> Result<Attribute, Error> {
                let what = || format!("{}: attribute {:?}", what(), a.name);
                let ty = convert!(@attr_type $has_nested, a, depth, &what);
                Ok(Attribute {
                    name: a.name.clone(),
                    ty,
                    required: a.required,
                    optional: a.optional,
                    computed: a.computed,
                    sensitive: a.sensitive,
                    deprecated: a.deprecated,
                    write_only: a.write_only,
                    description: a.description.clone(),
                })
            }

            convert!(@nested_fn $has_nested);
        }
    };
    (@state_stores tfplugin6, $r:ident, $map:ident) => { $map(&$r.state_store_schemas)? };
    (@state_stores tfplugin5, $r:ident, $map:ident) => { BTreeMap::new() };
    (@attr_type true, $a:ident, $depth:ident, $what:expr) => {
        match &$a.nested_type {
            Some(o) => AttributeType::Nested(nested_type(o, $depth + 1, $what)?),
            None => AttributeType::Type(type_json(&$a.r#type, $what)?),
        }
    };
    (@attr_type false, $a:ident, $depth:ident, $what:expr) => {{
        let _ = $depth;
        AttributeType::Type(type_json(&$a.r#type, $what)?)
    }};
    (@nested_fn true) => {
        fn nested_type(
            o: &schema::Object,
            depth: usize,
            what: &dyn Fn() -> String,
        ) -> Result<NestedType, Error> {
            if depth > MAX_DEPTH {
                return Err(invalid(format!("{}: nested attributes more than {MAX_DEPTH} deep", what())));
            }
            let mut attributes = o
                .attributes
                .iter()
                .map(|a| attribute(a, depth, what))
                .collect::<Result<Vec<_>, _>>()?;
            attributes.sort_by(|a, b| a.name.cmp(&b.name));
            Ok(NestedType {
                attributes,
                nesting: nesting(o.nesting, false, what)?,
            })
        }
    };
    (@nested_fn false) => {};
}

fn context(e: Error, name: &str) -> Error {
    match e.kind() {
        ErrorKind::InvalidSchema(m) => invalid(format!("{name:?}: {m}")),
        ErrorKind::InvalidType { message, offset } => Error::new(
            ErrorKind::InvalidType {
                message: format!("{name:?}: {message}"),
                offset: *offset,
            },
            0,
            Path::root(),
        ),
        _ => e,
    }
}

convert!(tfplugin5, get_provider_schema, nested: false);
convert!(tfplugin6, get_provider_schema, nested: true);

/// The identity schemas of a protocol 5 `GetResourceIdentitySchemas` response, by resource
/// type (for [`ProviderSchema::identities`]).
pub fn identities_v5(
    r: &crate::tfplugin5::get_resource_identity_schemas::Response,
) -> Result<BTreeMap<String, IdentitySchema>, Error> {
    tfplugin5::identities(r)
}

/// The identity schemas of a protocol 6 `GetResourceIdentitySchemas` response, by resource
/// type (for [`ProviderSchema::identities`]).
pub fn identities_v6(
    r: &crate::tfplugin6::get_resource_identity_schemas::Response,
) -> Result<BTreeMap<String, IdentitySchema>, Error> {
    tfplugin6::identities(r)
}
