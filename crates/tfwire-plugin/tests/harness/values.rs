//! The protocol table (`src/rpc.rs`) against the protocol's own descriptors: every RPC of
//! every service has its entry, and every `DynamicValue` of every message is found, with the
//! right schema.
//!
//! The messages are read from the protocol's own descriptors (compiled from the `.proto`
//! files at build time): for each method and direction, a frame is built with every
//! `DynamicValue` field set (and every `ResourceIdentityData`, repeated fields twice, nested
//! messages that hold values filled the same way), decoded with [`Method::decode`], and the
//! fields [`DynamicValues::dynamic_values`] yields must be exactly those set, each with the
//! kind of schema its method and field name say (identities with the identity schema, action
//! configurations with the action's, ...).

use bytes::Bytes;
use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type as FieldType};
use prost_types::{DescriptorProto, FileDescriptorSet};
use std::collections::{BTreeMap, BTreeSet};
use tfwire::schema::Protocol;
use tfwire_plugin::SchemaRef;
use tfwire_plugin::rpc::{Direction, Message, Method};

const TYPE_NAME: &str = "tn";

struct Descriptors(BTreeMap<String, DescriptorProto>);

impl Descriptors {
    fn load() -> Descriptors {
        let fds =
            FileDescriptorSet::decode(&include_bytes!(concat!(env!("OUT_DIR"), "/plugin.fds"))[..])
                .unwrap();
        let mut all = BTreeMap::new();
        fn add(prefix: &str, m: &DescriptorProto, all: &mut BTreeMap<String, DescriptorProto>) {
            let name = format!("{prefix}.{}", m.name());
            for n in &m.nested_type {
                add(&name, n, all);
            }
            all.insert(name, m.clone());
        }
        for f in &fds.file {
            for m in &f.message_type {
                add(&format!(".{}", f.package()), m, &mut all);
            }
        }
        Descriptors(all)
    }

    fn is_leaf(name: &str) -> bool {
        name.ends_with(".DynamicValue") || name.ends_with(".ResourceIdentityData")
    }

    /// Whether a message holds a `DynamicValue` (itself or nested), `RawState` aside.
    fn holds_values(&self, name: &str, depth: usize) -> bool {
        if Self::is_leaf(name) {
            return true;
        }
        depth < 4
            && self.0[name].field.iter().any(|f| {
                f.r#type() == FieldType::Message && self.holds_values(f.type_name(), depth + 1)
            })
    }

    /// Encodes `name` with every value field set; pushes the names expected.
    fn fill(&self, name: &str, prefix: &str, out: &mut Vec<u8>, expected: &mut Vec<String>) {
        for f in &self.0[name].field {
            let field_name = format!("{prefix}{}", f.name());
            if f.r#type() == FieldType::String && f.name().contains("type_name")
                || f.name() == "action_type"
                || f.name() == "name" && name.ends_with("CallFunction.Request")
            {
                prost::encoding::string::encode(f.number() as u32, &TYPE_NAME.to_owned(), out);
                continue;
            }
            if f.r#type() != FieldType::Message || !self.holds_values(f.type_name(), 0) {
                continue;
            }
            let times = if f.label() == Label::Repeated { 2 } else { 1 };
            for _ in 0..times {
                let mut inner = Vec::new();
                if f.type_name().ends_with(".DynamicValue") {
                    // msgpack: a fixstr naming the field, so values can be told apart.
                    let mut mp = vec![0xa0 | field_name.len() as u8];
                    mp.extend_from_slice(field_name.as_bytes());
                    prost::encoding::bytes::encode(1, &mp, &mut inner);
                    expected.push(field_name.clone());
                } else if f.type_name().ends_with(".ResourceIdentityData") {
                    let mut dv = Vec::new();
                    prost::encoding::bytes::encode(1, &vec![0xc0], &mut dv);
                    prost::encoding::bytes::encode(1, &dv, &mut inner);
                    expected.push(field_name.clone());
                } else {
                    self.fill(
                        f.type_name(),
                        &format!("{field_name}."),
                        &mut inner,
                        expected,
                    );
                }
                prost::encoding::bytes::encode(f.number() as u32, &inner, out);
            }
        }
    }
}

/// The message type of a method's requests or responses, from the service descriptors.
fn message_types() -> BTreeMap<String, (String, String)> {
    let fds =
        FileDescriptorSet::decode(&include_bytes!(concat!(env!("OUT_DIR"), "/plugin.fds"))[..])
            .unwrap();
    let mut out = BTreeMap::new();
    for f in &fds.file {
        for s in &f.service {
            for m in &s.method {
                out.insert(
                    format!("/{}.{}/{}", f.package(), s.name(), m.name()),
                    (m.input_type().to_owned(), m.output_type().to_owned()),
                );
            }
        }
    }
    out
}

/// The kind of schema a value is decoded with, from the names alone (the protocol's own
/// naming, independent of the table in `rpc.rs`): identities by the field's name; a list
/// call's resource object by the resource type; otherwise by what the method is about.
fn expected_kind(method: &str, field: &str) -> &'static str {
    if field.ends_with("identity") {
        return "Identity";
    }
    if field == "provider_meta" {
        return "ProviderMeta";
    }
    match (method, field) {
        ("ValidateListResourceConfig", "include_resource_object") => return "Bool",
        ("ValidateListResourceConfig", "limit") => return "Number",
        ("ListResource", "resource_object") => return "Resource",
        ("CallFunction", "arguments") => return "FunctionArgument",
        ("CallFunction", "result") => return "FunctionResult",
        ("ProvisionResource", "connection") => return "ProvisionerConnection",
        _ => {}
    }
    if method.contains("ListResource") {
        "ListResource"
    } else if method.contains("Action") {
        "Action"
    } else if method.contains("EphemeralResource") {
        "EphemeralResource"
    } else if method.contains("StateStore") {
        "StateStore"
    } else if method.contains("Provisioner") || method == "ProvisionResource" {
        "Provisioner"
    } else if method.contains("DataSource") || method == "ValidateDataResourceConfig" {
        "DataSource"
    } else if matches!(
        method,
        "ValidateProviderConfig" | "PrepareProviderConfig" | "Configure" | "ConfigureProvider"
    ) {
        "Provider"
    } else {
        "Resource"
    }
}

#[test]
fn every_dynamic_value_of_every_message_is_found() {
    let d = Descriptors::load();
    let types = message_types();
    let (mut messages, mut values) = (0, 0);
    // Every RPC of every service of the protocol's own descriptors has its table entry, and
    // the table has no other.
    assert_eq!(
        types.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        Method::all().map(|m| m.path).collect::<BTreeSet<_>>(),
        "the table's methods are the services' RPCs"
    );
    for (path, (req, resp)) in &types {
        let method = Method::from_path(path)
            .unwrap_or_else(|| panic!("{path}: an RPC of the protocol with no table entry"));
        for (direction, ty) in [(Direction::Request, req), (Direction::Response, resp)] {
            let what = format!("{} {}", method.path, direction.name());
            let (mut frame, mut expected) = (Vec::new(), Vec::new());
            d.fill(ty, "", &mut frame, &mut expected);
            let decoded = method
                .decode(direction, Bytes::from(frame))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let mut found = Vec::new();
            match decoded {
                Message::Values(m) => {
                    let call = if direction == Direction::Request {
                        ""
                    } else {
                        TYPE_NAME
                    };
                    m.dynamic_values(call, &mut |f| {
                        let name = f.name.to_owned();
                        if !f.value.msgpack.starts_with(&[0xc0]) {
                            // The bytes name the field they were put in.
                            assert_eq!(&f.value.msgpack[1..], name.as_bytes(), "{what}");
                        }
                        assert_eq!(
                            f.schema.type_name(),
                            match f.schema {
                                SchemaRef::Provider
                                | SchemaRef::ProviderMeta
                                | SchemaRef::Bool
                                | SchemaRef::Number
                                | SchemaRef::Provisioner
                                | SchemaRef::ProvisionerConnection => "",
                                _ => TYPE_NAME,
                            },
                            "{what} {name}"
                        );
                        // The table a value seen without its message is typed by
                        // (`tfwire dump`) says the same.
                        assert_eq!(
                            method.field_schema(direction, &name, f.index, f.schema.type_name()),
                            Some(f.schema),
                            "{what} {name}"
                        );
                        let kind = format!("{:?}", f.schema);
                        let kind = kind.split('(').next().unwrap_or_default();
                        assert_eq!(kind, expected_kind(method.name, &name), "{what} {name}");
                        found.push(name);
                    });
                }
                Message::Other => {}
                Message::ProviderSchema(_) | Message::IdentitySchemas(_) => {}
            }
            messages += 1;
            values += found.len();
            let (e, f): (BTreeSet<_>, BTreeSet<_>) =
                (expected.iter().collect(), found.iter().collect());
            assert_eq!(e, f, "{what}");
            assert_eq!(
                expected.len(),
                found.len(),
                "{what}: repeated fields yield each element"
            );
        }
    }
    eprintln!("{messages} messages, {values} values");
    assert_eq!(
        Method::all().filter(|m| m.protocol == Protocol::V6).count(),
        36
    );
}

/// `Method::all` lists the methods in the order of the `.proto` files (protocol 5, then 6),
/// their services and RPCs: a method's index in it (the fuzz targets' inputs name methods by
/// it) stays as the protocol orders them.
#[test]
fn methods_are_listed_in_the_protocol_s_order() {
    let fds =
        FileDescriptorSet::decode(&include_bytes!(concat!(env!("OUT_DIR"), "/plugin.fds"))[..])
            .unwrap();
    let mut files: Vec<_> = fds.file.iter().collect();
    files.sort_by_key(|f| f.package().to_owned());
    let declared: Vec<String> = files
        .iter()
        .flat_map(|f| {
            f.service.iter().flat_map(move |s| {
                s.method
                    .iter()
                    .map(move |m| format!("/{}.{}/{}", f.package(), s.name(), m.name()))
            })
        })
        .collect();
    let listed: Vec<&str> = Method::all().map(|m| m.path).collect();
    assert_eq!(listed, declared);
}
