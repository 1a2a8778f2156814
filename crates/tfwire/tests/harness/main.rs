//! One harness for tfwire's integration tests: the conformance corpus, the JSON and
//! MessagePack paths, encoding, schemas, streaming, lookups, paths, limits and truncation. (The
//! allocation counter, `tests/alloc.rs`, is its own binary: it installs a global
//! allocator.)
//!
//! `TFWIRE_TEST=substring` limits the table-driven cases to those whose name contains it
//! (the one filter variable of every crate's harness).

mod conformance;
mod corpus_files;
mod encode;
mod json;
mod limits;
mod lookup;
mod paths;
mod roundtrip;
mod schema;
mod streaming;
mod support;
mod transcribed;
mod truncation;
