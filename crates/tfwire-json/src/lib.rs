//! The JSON layer of [tfwire](https://github.com/tfwire/tfwire): every crate of the
//! workspace reads and writes JSON text through this crate, so that a number, an escape or
//! an offset has one place to live.
//!
//! ```
//! use tfwire_json::{Escape, JsonWriter, json_shape, tape::{INPUT_PADDING, TapeParser}};
//!
//! // Read: the shape pass first (depth and size bounded before anything is allocated),
//! // then simd-json's tape, parsed in place with reused buffers.
//! let text = br#"{"id":"i-1","size":1e400,"tags":{"env":"prod"}}"#;
//! let shape = json_shape(text, 64, 1 << 20)?;
//! let mut buf = text.to_vec();
//! buf.resize(text.len() + INPUT_PADDING, b' ');
//! let mut parser = TapeParser::default();
//! let doc = parser.parse_document(&mut buf, text.len(), &shape)?;
//! let root = doc.root();
//! assert_eq!(root.get("tags").and_then(|t| t.get("env")).and_then(|v| v.as_str()), Some("prod"));
//! let size = root.get("size").unwrap();
//! assert_eq!((size.offset(), size.as_number().unwrap().to_string()), (Some(19), "1e400".into()));
//!
//! // Write: one writer, one of three escape rules, numbers checked.
//! let mut out = String::new();
//! let mut w = JsonWriter::new(&mut out, Escape::Safe);
//! w.begin_object()?;
//! w.member_str("id", "a\u{1b}b")?;
//! w.key("size")?;
//! w.number(doc.number_text(size.node_index().unwrap()))?;
//! w.end_object()?;
//! assert_eq!(out, r#"{"id":"a\u001bb","size":1e400}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The pieces, bottom up
//!
//! | module | what |
//! |---|---|
//! | [`swar`] | word-at-a-time byte tests, the workspace's one set |
//! | [`utf8`] | UTF-8 checks with an ASCII fast path |
//! | [`escape`] | the four escape rules ([`write_go_str`], [`write_canonical_str`], [`write_safe_str`], [`write_go_safe_str`]) and [`is_unsafe_char`] |
//! | [`write`](mod@write) | [`JsonWriter`]: whole documents, separators placed by the writer |
//! | [`scan`] | the byte-wise scanner: white space, strings, the number grammar ([`is_number`]) |
//! | [`shape`] | the shape pass ([`json_shape`]) every tape parse runs first |
//! | [`tape`] | simd-json's tape ([`TapeParser`](tape::TapeParser)), node offsets and numbers' exact text ([`Document`](tape::Document)) |
//! | [`view`] | [`Json`](view::Json): the untyped, borrowed view of one value |
//! | [`skeleton`] | the summary pre-pass of plan documents: the values a summary never reads cut out before the tape is built, on the same scanner |
//!
//! # Limits that protect the caller
//!
//! simd-json sizes its tape from the document before it checks the nesting depth; the shape
//! pass ([`json_shape`]) refuses a document nested deeper than the caller's limit or with more
//! nodes than its budget in one pass that allocates nothing, and every reader of the
//! workspace runs it first. Numbers beyond `f64`'s range keep their text; nothing is ever
//! rounded. A string printed for a person goes through [`write_safe_str`], which escapes
//! every control and bidirectional character.
//!
//! # Errors
//!
//! [`Error`]: an [`ErrorKind`] and a byte offset; line and column computed from the offset
//! only when asked ([`Error::line_column`]). Crates above wrap it in their own error (tfwire
//! adds the path to the value).
//!
//! # `unsafe`
//!
//! Three places, each block with a `// SAFETY:` comment naming the tests that exercise it:
//! the in-place parse of [`TapeParser::parse_document`](tape::TapeParser::parse_document)
//! (the document's text read again after simd-json unescaped strings into the same buffer,
//! without a copy), the ASCII fast path of [`utf8::utf8`] and the text of a plain decimal
//! whose words [`Locator::scalar_decimal`](tape::Locator::scalar_decimal) tested. Everything
//! else is safe code (`#![deny(unsafe_code)]`, allowed only there).
#![deny(unsafe_code)]
#![warn(missing_docs)]

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod error;
pub mod escape;
pub mod scan;
pub mod shape;
pub mod skeleton;
pub mod swar;
pub mod tape;
mod unicode_tables;
pub mod utf8;
pub mod view;
pub mod write;

pub use error::{Error, ErrorKind, line_column};
pub use escape::{
    Safe, is_unsafe_char, write_canonical_str, write_go_safe_str, write_go_str, write_safe_inline,
    write_safe_str,
};
pub use scan::is_number;
pub use shape::{JSON_NODE_BYTES, JsonShape, check_json_shape, json_shape};
pub use write::{Escape, JsonWriter};
