//! The configuration a plan file carries: the dependency lock file
//! (`.terraform.lock.hcl`: which version of each provider was used) and the configuration
//! snapshot (`tfconfig/`: every module's `.tf` files), read with the `hcl-edit` crate and
//! written as the `configuration` member of `tofu show -json` / `terraform show -json`; and
//! the provider schema cache ([`SchemaCache`]) whose versions a plan's lock file selects.
//!
//! ```
//! use tfwire::schema::{ProgramCache, ProviderSchemas};
//! use tfwire_config::{Client, Configuration, Limits, LockFile};
//! use tfwire_json::{Escape, JsonWriter};
//!
//! let lock = LockFile::parse(b"provider \"registry.opentofu.org/tfwire/tfwire\" {\n  version = \"1.0.0\"\n}\n")?;
//! assert_eq!(lock.providers()[0].version, "1.0.0");
//!
//! // The `tfconfig/` members of a plan file, and the providers' schemas.
//! let files: [(&str, &[u8]); 2] = [
//!     ("modules.json", br#"[{"Key":"","Dir":"."}]"#),
//!     ("m-/main.tf", b"output \"n\" {\n  value = 1 + var.x\n}\n"),
//! ];
//! let config = Configuration::read(&files, &Limits::default())?;
//! let schemas = ProgramCache::new(ProviderSchemas::default());
//! let mut out = String::new();
//! config.write_json(&mut JsonWriter::new(&mut out, Escape::Go), &schemas, Client::OpenTofu)?;
//! assert_eq!(out, r#"{"root_module":{"outputs":{"n":{"expression":{"references":["var.x"]}}}}}"#);
//! # Ok::<(), tfwire_config::Error>(())
//! ```
//!
//! # Number literals beyond binary64's range
//!
//! HCL reads a number literal as a 512-bit binary float, so `index = 1e400` or a 400-digit
//! integer is valid configuration; hcl-edit reads literals as `f64` and refuses those. When a
//! file fails to parse and holds such tokens, each is replaced by as many `0`s (offsets,
//! lines and columns unchanged) and the file parsed again; a replaced token that does not
//! come back as a number literal at exactly its byte range (it was inside a string, a
//! heredoc, a comment or a name) is put back and the file parsed once more (three parses at
//! most, each linear). The literals keep their original text in a decor prefix that starts
//! with a NUL, which no prefix the parser reads starts with, and constants are computed from
//! that text, exactly, as from any other literal's. A syntax error is reported at its place
//! in the text as written.
//!
//! # What protects the caller
//!
//! Configuration files come from untrusted pull requests. hcl-edit's parser refuses
//! expressions, templates and blocks nested more than 64 levels deep (a parse error, not a
//! stack overflow); [`Limits`] bounds the bytes, files and modules a snapshot may hold;
//! modules nest at most 100 levels; evaluating an expression's constant value has a work
//! budget (past it the value is left out, as for anything this crate does not evaluate) and
//! its arithmetic bounded operands. Every failure is an [`Error`] naming the file, and
//! where known the line, the column and the byte offset.

#![forbid(unsafe_code)]

mod bigfloat;
mod blocktoattr;
mod configuration;
mod error;
mod expr;
mod jsonconfig;
mod lockfile;
mod manifest;
mod module;
mod num;
mod parse;
mod schemas;
mod value;

pub use configuration::{Configuration, Limits};
pub use error::{Error, ErrorKind, Location};
pub use jsonconfig::Client;
pub use lockfile::{LockFile, LockedProvider};
pub use schemas::{
    CachedSchema, Filed, Outcome, ProviderAddress, SchemaCache, Selection, check_version,
};
