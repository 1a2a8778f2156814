#![forbid(unsafe_code)]
//! The Terraform/OpenTofu plugin protocol, versions 5 and 6, for Rust: the messages and
//! tonic services of `tfplugin5` (5.11) and `tfplugin6` (6.11), the provider schemas as
//! tfwire schemas, and every `DynamicValue` of every message with the schema that types it.
//!
//! Types and services are generated at build time from the protocol's own `.proto` files
//! (`proto/`, MPL-2.0) by prost and tonic, with protox as the protobuf compiler (pure Rust:
//! no `protoc` needed). Every `bytes` field is a [`bytes::Bytes`], so a message decoded from
//! a tonic body borrows its values from the frame instead of copying them.
//!
//! ```
//! use tfwire_plugin::tfplugin6::{get_provider_schema, schema, Schema};
//! use tfwire_plugin::{Programs, SchemaRef, Schemas, DynamicValues};
//!
//! // A GetProviderSchema response, as a provider sends it ...
//! let attr = |name: &str, ty: &str, sensitive| schema::Attribute {
//!     name: name.into(), r#type: ty.as_bytes().to_vec().into(), optional: true, sensitive,
//!     ..Default::default()
//! };
//! let mut response = get_provider_schema::Response::default();
//! response.resource_schemas.insert("db".into(), Schema {
//!     version: 0,
//!     block: Some(schema::Block {
//!         attributes: vec![attr("name", "\"string\"", false), attr("password", "\"string\"", true)],
//!         ..Default::default()
//!     }),
//! });
//! // ... becomes tfwire schemas, compiled on demand ...
//! let programs = Programs::new(Schemas::try_from(&response)?);
//! let program = programs.get(SchemaRef::Resource("db"))?;
//!
//! // ... which decode the values of any message that refers to them.
//! let request = tfwire_plugin::tfplugin6::plan_resource_change::Request {
//!     type_name: "db".into(),
//!     config: Some(tfwire_plugin::tfplugin6::DynamicValue {
//!         msgpack: b"\x82\xa4name\xa1a\xa8password\xa2pw".to_vec().into(),
//!         json: Default::default(),
//!     }),
//!     ..Default::default()
//! };
//! let arena = bumpalo::Bump::new();
//! let mut decoder = tfwire::Decoder::new(tfwire::Config::default());
//! request.dynamic_values("", &mut |field| {
//!     let value = decoder.decode_dynamic_value(&program, field.value, &arena).unwrap();
//!     let block = programs.block(field.schema).unwrap();
//!     // Written as JSON with the sensitive attribute masked.
//!     assert_eq!(tfwire_plugin::redact::to_json(&value, block), r#"{"name":"a","password":"(sensitive)"}"#);
//! });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!

#[allow(missing_docs, unreachable_pub, clippy::all, rustdoc::all)]
mod generated {
    pub mod tfplugin5 {
        tonic::include_proto!("tfplugin5");
    }
    pub mod tfplugin6 {
        tonic::include_proto!("tfplugin6");
    }
}

/// Protocol 5 (`tfplugin5.proto` 5.11): messages, `provider_client`/`provider_server`,
/// `provisioner_client`/`provisioner_server`.
pub use generated::tfplugin5;
/// Protocol 6 (`tfplugin6.proto` 6.11): messages, `provider_client`/`provider_server`.
pub use generated::tfplugin6;

pub mod log;
mod programs;

pub mod redact;
pub mod rpc;
mod schema;
mod values;

pub use programs::Programs;
pub use schema::{Function, Schemas};
pub use values::{DynamicValues, Field, SchemaRef};
