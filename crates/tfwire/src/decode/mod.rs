//! Decoding: a compiled [`Program`] run over MessagePack (or JSON) tokens into arena values.
//!
//! ```
//! use tfwire::{Config, Decoder, Program, Type};
//! let program = Program::compile(&Type::from_json(r#"["list","string"]"#)?);
//! let mut decoder = Decoder::new(Config::default());
//! let mut arena = bumpalo::Bump::new();
//! for _ in 0..3 {
//!     let v = decoder.decode_msgpack(&program, &[0x92, 0xa1, b'a', 0xc0], &arena)?;
//!     assert_eq!(v.index(0).unwrap().as_str(), Some("a"));
//!     assert!(v.index(1).unwrap().is_null());
//!     arena.reset(); // values borrow the arena: reset it between messages
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! (The deviations from go-cty on odd input are documented in the crate docs, `lib.rs`:
//! this module is private, so its docs are not in rustdoc.)

#[cfg(feature = "bytes")]
mod chunk_store;
mod chunked;
pub(crate) mod collection;
mod config;
mod decoder;
mod dynamic_value;
pub(crate) mod fault;
mod json_structural;
mod json_tape;
mod json_text;
mod json_walk;
mod leaf;
mod machine;
mod msgpack;
mod refine;
pub(crate) mod shape;
mod source;

#[cfg(feature = "bytes")]
pub use chunk_store::ChunkStore;
pub use chunked::{ChunkedDecoder, Progress};
pub use config::Config;
pub use decoder::{Decoder, decode_json, decode_msgpack};
pub use dynamic_value::DynamicValue;
