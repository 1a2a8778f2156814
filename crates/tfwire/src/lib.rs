#![deny(unsafe_op_in_unsafe_fn)]
//! Exact, zero-copy decoding (and encoding) of the values Terraform and OpenTofu exchange
//! with providers: the `DynamicValue` of the plugin protocol, MessagePack or JSON, laid out by
//! a cty type constraint.
//!
//! ```
//! use tfwire::{Program, Type};
//!
//! // Compile the type once (programs are Send + Sync) ...
//! let ty = Type::from_json(r#"["object",{"name":"string","tags":["map","string"]}]"#)?;
//! let program = Program::compile(&ty);
//!
//! // ... and decode many values into an arena. Strings borrow from the input.
//! let msgpack = b"\x82\xa4name\xa3web\xa4tags\x81\xa3env\xa4prod";
//! let arena = bumpalo::Bump::new();
//! let value = tfwire::decode_msgpack(&program, msgpack, &arena)?;
//! assert_eq!(value.get("name").unwrap().as_str(), Some("web"));
//! assert_eq!(value.get("tags").unwrap().get("env").unwrap().as_str(), Some("prod"));
//! assert_eq!(tfwire::canonical::to_string(&value),
//!            r#"["object",{"name":["string","web"],"tags":["map",{"env":["string","prod"]}]}]"#);
//!
//! // Encoding gives go-cty's bytes back.
//! assert_eq!(tfwire::encode_msgpack(&program, &value)?, msgpack);
//!
//! // Errors name the value and the byte.
//! let err = tfwire::decode_msgpack(&program, b"\x82\xa4name\xc3\xa4tags\xc0", &arena).unwrap_err();
//! assert_eq!(err.to_string(), ".name: a string is required, found bool (at byte 6)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # In a proxy
//!
//! A proxy between OpenTofu and a provider sees each value as the `DynamicValue` field of a
//! gRPC message: with prost-generated types, a struct with `msgpack` and `json` byte fields.
//! The usual loop keeps one [`Decoder`] and one arena per connection task (or thread),
//! decodes each message's value borrowing the message's bytes, and resets the arena between
//! messages, so a warm decoder allocates nothing on the heap:
//!
//! ```
//! use tfwire::{Config, Decoder, DynamicValue};
//! use tfwire::schema::{Kind, ProgramCache, ProviderSchemas};
//!
//! /// What prost generates for `tfplugin6.DynamicValue` (`bytes::Bytes` fields work alike).
//! struct PbDynamicValue { msgpack: Vec<u8>, json: Vec<u8> }
//!
//! // Schemas once per provider (from `providers schema -json`, or from the provider's
//! // `GetProviderSchema` response with `ProviderSchema::from_protobuf`), programs cached.
//! let schemas = ProviderSchemas::from_json(br#"{"format_version":"1.0","provider_schemas":{
//!   "registry.opentofu.org/hashicorp/null":{"resource_schemas":{"null_resource":{"version":0,
//!   "block":{"attributes":{"id":{"type":"string","computed":true},
//!   "triggers":{"type":["map","string"],"optional":true}}}}}}}}"#)?;
//! let cache = ProgramCache::new(schemas);
//! let program = cache.get("registry.opentofu.org/hashicorp/null", Kind::Resource, "null_resource")?;
//!
//! let mut decoder = Decoder::new(Config::default());
//! let mut arena = tfwire::bumpalo::Bump::new();
//! let messages = [
//!     PbDynamicValue { msgpack: b"\x82\xa2id\xa11\xa8triggers\x81\xa1k\xa1v".to_vec(), json: vec![] },
//!     PbDynamicValue { msgpack: vec![], json: br#"{"id":"2","triggers":null}"#.to_vec() },
//! ];
//! for pb in &messages {
//!     let dv = DynamicValue { msgpack: &pb.msgpack, json: &pb.json };
//!     let value = decoder.decode_dynamic_value(&program, dv, &arena)?;
//!     assert!(value.get("id").unwrap().as_str().is_some());
//!     arena.reset(); // the value borrowed the arena: drop it, then reuse the memory
//! }
//! // A whole protobuf message: `DynamicValue::from_protobuf` reads a `DynamicValue`'s
//! // encoding without copying (field 1 msgpack, field 2 json).
//! let dv = DynamicValue::from_protobuf(b"\x0a\x10\x82\xa2id\xa13\xa8triggers\xc0")?;
//! assert_eq!(decoder.decode_dynamic_value(&program, dv, &arena)?.get("id").unwrap().as_str(), Some("3"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Threads: [`Program`], [`schema::ProgramCache`] (programs in an `Arc`) and [`Type`] are
//! `Send + Sync`, shared by every task; a [`Decoder`] is `Send` and holds scratch reused from
//! one decode to the next, so each task or thread owns one (`&mut self`); a [`Value`] is
//! `Send + Sync` but borrows its arena and the input, so it lives as long as both. The
//! `bumpalo` arena is `Send`, not `Sync`: one per task. `crates/tfwire-plugin` builds the
//! rest of a proxy on this (the plugin protocol's messages, each value with its schema, a
//! raw-frame forwarding tonic service).
//!
//! ```
//! fn send_sync<T: Send + Sync>() {}
//! fn send<T: Send>() {}
//! send_sync::<tfwire::Program>();
//! send_sync::<tfwire::schema::ProgramCache>();
//! send_sync::<tfwire::Type>();
//! send_sync::<tfwire::Value<'static>>();
//! send::<tfwire::Decoder>();
//! send::<tfwire::bumpalo::Bump>();
//! ```
//!
//! # Where tfwire departs from go-cty
//!
//! The conformance README lets a decoder reject inputs go-cty accepts by accident; tfwire
//! rejects, with an error naming the value:
//! - bytes after the complete value (go-cty ignores them);
//! - strings that are not valid UTF-8 (go-cty keeps the bytes);
//! - map keys that are not strings, including nil (go-cty reads `""`, and for some keys
//!   loses its place in the input);
//! - an object whose attribute count matches but which repeats a key and so misses another
//!   (go-cty returns an object of another type), and an empty map or array for an object or
//!   tuple type with attributes/elements (likewise);
//! - a truncated extension at the end of the input (go-cty 1.12 reads an unknown).
//!
//! and accepts, as go-cty does: binary wherever a string is expected (keys, numbers, the
//! type of a dynamic value), a dynamic value wrapped twice (`[“dynamic”, [T, v]]`), and
//! decimal strings with `+`, leading zeros, `.5`, `5.` and exponents. It rejects Go's binary
//! exponent (`"1p3"`), which go-cty accepts.
//!
//! # How the crate is built
//!
//! Its modules are layered: each uses only modules below it, and no two use each other (a
//! test over every crate of the workspace checks the file-level graph). From the bottom:
//!
//! - the ground floor, over the workspace's JSON layer (the `tfwire-json` crate: tape, view,
//!   scanner, writers): UTF-8 and ASCII tests (`text`), [`Error`] and [`Path`], exact numbers
//!   ([`Number`]), NFC normalization, [`glob`] patterns;
//! - types ([`Type`], [`Ty`] and type JSON, from text or from a tape) and arena values
//!   ([`Value`]);
//! - provider schemas ([`schema`]: the model, read from `providers schema -json` or from the
//!   protocol's protobuf), and compiled [`Program`]s of types and schema blocks, with
//!   [`schema::ProgramCache`] above both;
//! - the decoders ([`Decoder`]: the limits of [`Config`], token sources for MessagePack and
//!   JSON, and the one state machine they feed) and the encoders (one walk over a value and
//!   its type, a sink per format);
//! - what is built on those: [`lookup()`], [`implied_type_msgpack`], [`canonical`] form,
//!   [`mask`]s and, with the `arbitrary` feature, generators.
//!
//! # Cargo features
//!
//! - `bytes`: `ChunkStore`, to feed `bytes::Bytes` chunks to the
//!   chunked decoder without copying them.
//! - `arbitrary`: generators of arbitrary types and of values of them (`tfwire::arbitrary`),
//!   for property tests and fuzzing.
//!
//! # What protects the caller
//!
//! Every limit in [`Config`] has a safe default: nesting depth, input size, arena bytes and
//! collection length. Declared lengths are checked against the bytes left before anything is
//! reserved, so a 5-byte `array32` header claiming 4 billion elements fails at once. The
//! decoder never recurses over the input, never panics on bad input, and reports every
//! failure as an [`Error`] with a path and a byte offset.
//!
//! # Errors
//!
//! Every fallible function of the crate returns the one [`Error`]: an [`ErrorKind`] (what
//! went wrong: what was expected and what was found), the byte offset of the start of the
//! offending value ([`Error::line_column`] for text) and its [`Path`] in Terraform's
//! vocabulary, collected while unwinding. Parsing a type ([`Type::from_json`]), a number
//! ([`Number::parse`]) or a [`Path`] reports through it too, and a JSON layer's
//! [`tfwire_json::Error`] converts into it (`?`) at the root path. It displays as one line,
//! `path: message (at byte N)`, the offset stated once, and whatever text of the input a
//! message quotes escaped ([`tfwire_json::write_safe_inline`]):
//!
//! ```
//! let e = tfwire::Type::from_json(r#"["map","\u001b[31m"]"#).unwrap_err();
//! assert_eq!(e.kind().to_string(), r#"invalid type: invalid primitive type name "\u001b[31m""#);
//! assert_eq!(e.offset(), 7);
//! ```

/// The arena crate values are decoded into (`tfwire::bumpalo::Bump`), re-exported so that a
/// caller's `Bump` is always the version tfwire's API takes.
pub use bumpalo;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod canonical;
mod decode;
mod encode;
mod error;
pub mod glob;
mod implied;
pub mod lookup;
pub mod mask;
mod nfc;
mod number;
pub mod path;
mod program;
mod proto;
pub mod schema;
mod text;
mod ty;
mod typed_json;
mod value;

#[cfg(feature = "bytes")]
pub use decode::ChunkStore;
pub use decode::{
    ChunkedDecoder, Config, Decoder, DynamicValue, Progress, decode_json, decode_msgpack,
};
pub use encode::{
    append_raw_msgpack, encode_json, encode_json_into, encode_msgpack, encode_msgpack_into,
};
pub use error::{Error, ErrorKind, Expected, Limit, line_column};
pub use implied::{implied_type_msgpack, implied_type_msgpack_wrapped};
pub use lookup::lookup;
pub use number::{MAX_DECIMAL_EXPONENT, MAX_PLAIN_ZEROS, Number};
pub use path::{Path, PathStep};
pub use program::Program;
pub use ty::{AttrTy, ObjectAttribute, ObjectType, Ty, Type};
pub use typed_json::TypedJson;
pub use value::{Dynamic, Refinements, Value};
