//! The configuration a plan file carries: the dependency lock file
//! (`.terraform.lock.hcl`: which version of each provider was used) and the configuration
//! snapshot (`tfconfig/`: every module's `.tf` files), read with the `hcl-edit` crate and
//! written as the `configuration` member of `tofu show -json` / `terraform show -json`; and
//! the provider schema cache ([`SchemaCache`]) whose versions a plan's lock file selects.
//!
//! ```
//! use tfwire_config::LockFile;
//!
//! let lock = LockFile::parse(b"provider \"registry.opentofu.org/tfwire/tfwire\" {\n  version = \"1.0.0\"\n}\n")?;
//! assert_eq!(lock.providers()[0].version, "1.0.0");
//! # Ok::<(), tfwire_config::Error>(())
//! ```
//!
//! # What protects the caller
//!
//! Configuration files come from untrusted pull requests. hcl-edit's parser refuses
//! expressions, templates and blocks nested more than 64 levels deep (a parse error, not a
//! stack overflow), and [`Limits`] bounds what a snapshot may hold. Every failure is an
//! [`Error`] naming the file, the line, the column and the byte offset.

#![forbid(unsafe_code)]

mod configuration;
mod error;
mod lockfile;
mod schemas;

pub use configuration::{Client, Configuration, Limits};
pub use error::{Error, ErrorKind, Location};
pub use lockfile::{LockFile, LockedProvider};
pub use schemas::{
    CachedSchema, Filed, Outcome, ProviderAddress, SchemaCache, Selection, check_version,
};
