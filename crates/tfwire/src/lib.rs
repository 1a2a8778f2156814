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
mod implied;
pub mod json;
pub mod lookup;
mod nfc;
mod number;
mod program;
mod proto;
pub mod schema;
mod text;
mod ty;
mod value;

#[cfg(feature = "bytes")]
pub use decode::ChunkStore;
pub use decode::{
    ChunkedDecoder, Config, Decoder, DynamicValue, Progress, decode_json, decode_msgpack,
};
pub use encode::{
    append_raw_msgpack, encode_json, encode_json_into, encode_msgpack, encode_msgpack_into,
};
pub use error::{Error, ErrorKind, Expected, Limit, Path, PathStep, line_column};
pub use implied::{implied_type_msgpack, implied_type_msgpack_wrapped};
pub use json::shape::{JSON_NODE_BYTES, JsonShapeError, check_json_shape};
pub use lookup::lookup;
pub use number::{MAX_DECIMAL_EXPONENT, MAX_PLAIN_ZEROS, Number, NumberError};
pub use program::Program;
pub use ty::{AttrTy, Attribute, ObjectType, Ty, Type, TypeError};
pub use value::{Dynamic, Refinements, Value};
