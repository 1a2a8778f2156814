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
//! use tfwire::schema::ProviderSchema;
//! use tfwire_plugin::{Programs, SchemaRef, DynamicValues};
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
//! let programs = Programs::new(ProviderSchema::try_from(&response)?);
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
//! # A minimal proxy
//!
//! [`proxy::Forward`] is a tower service that forwards every gRPC call, whatever its method
//! and however many messages it streams, to an upstream channel as raw frames, and shows each
//! frame to an observer on the way (`tests/harness/proxy.rs` runs one between a client and a provider).
//! A tap between OpenTofu and a provider is a tonic server around it:
//!
//! ```no_run
//! use tfwire_plugin::proxy::{Forward, Frame, Observer};
//!
//! struct Log;
//! impl Observer for Log {
//!     fn frame(&self, frame: Frame<'_>) {
//!         eprintln!("{} {:?} {} bytes", frame.method, frame.direction, frame.message.len());
//!     }
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // The provider listens here (its handshake line tells where).
//! let upstream = tonic::transport::Endpoint::from_static("http://127.0.0.1:50051").connect().await?;
//! let forward = Forward::new(upstream, Log);
//! // OpenTofu connects here.
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! tfwire_plugin::proxy::serve(listener, forward).await?;
//! # Ok(()) }
//! ```
//!
//! What the proxy does not understand it still forwards: unknown methods of the routed
//! services ([`proxy::SERVICES`]: the protocol's and go-plugin's own `plugin.GRPCStdio`,
//! `plugin.GRPCController`, `plugin.GRPCBroker`), streams in either direction. Services
//! outside that list are answered `Unimplemented` by the proxy itself. [`rpc::decode`] turns a frame of a known method into its
//! `DynamicValue`s.
//! [`cassette`] records what crosses the proxy; [`replay`] answers from a recording, in a
//! provider's place, matching requests by value (its documentation shows an in-process
//! harness).
//! [`tap`] is the observer `tfwire tap` runs: a worker thread decoding and logging every
//! value, with the run's statistics.
//!
//! Between OpenTofu and a provider the proxy also speaks go-plugin's side of the connection:
//! [`handshake`] reads (at most [`handshake::MAX_LINE_BYTES`], 64 KiB, as go-plugin's client
//! does) and writes the line a plugin prints to say where it listens, and the
//! `tls` module (feature `tls`) provides AutoMTLS over unix sockets, as `tfwire tap` uses them.

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

pub mod cassette;
#[cfg(feature = "tls")]
pub mod clients;
pub mod dump;
mod error;
pub mod handshake;
pub mod log;
mod programs;
pub mod proxy;

pub mod redact;
pub mod replay;
pub mod rpc;
mod schema;
pub mod tap;
#[cfg(feature = "tls")]
pub mod tls;
mod values;

pub use error::{Error, ErrorKind};
pub use programs::Programs;
pub use schema::{identities_v5, identities_v6};
pub use values::{DynamicValues, Field, SchemaRef};
