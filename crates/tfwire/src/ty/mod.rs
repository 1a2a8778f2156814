//! Type constraints: the cty type system as Terraform's schemas and the wire carry it.
//!
//! Two representations of the same types:
//! - [`Type`], owned: what callers build, parse from type JSON, print, hash and compile into a
//!   [`Program`](crate::Program).
//! - [`Ty`], borrowed and `Copy`, living in a `bumpalo` arena: what a decoded dynamic value
//!   carries, parsed from the wire without touching the heap.
//!
//! Both print as the compact type JSON of `Schema.Attribute.type` and
//! `terraform providers schema -json` (go-cty's `MarshalType`):
//!
//! ```
//! use tfwire::Type;
//! let t = Type::from_json(r#"["object",{"tags":["map","string"],"id":"string"},["tags"]]"#)?;
//! assert_eq!(t.to_string(), r#"["object",{"id":"string","tags":["map","string"]},["tags"]]"#);
//! assert_eq!(t, Type::object([("id", Type::String, false), ("tags", Type::map(Type::String), true)]));
//! # Ok::<(), tfwire::Error>(())
//! ```

mod arena;
pub(crate) mod json;
mod owned;
pub(crate) mod tape;

pub use arena::{AttrTy, Ty};
pub use owned::{ObjectAttribute, ObjectType, Type};
