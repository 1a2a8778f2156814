//! A tool may depend on anything.
pub use high::Thing;
