//! A facade: declarations and re-exports only.
mod b;
pub(crate) mod c;
pub use b::{Thing, make};
pub(crate) use c::{helper, Other};
