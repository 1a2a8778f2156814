//! Provider schemas: blocks, nested blocks and attributes, as `GetProviderSchema` and
//! `terraform providers schema -json` describe them, compiled into decoding programs.
//!
//! A resource's values are decoded against its schema block, whose *implied type* is an
//! object with one attribute per schema attribute and per nested block type (Terraform's
//! `configschema.Block.ImpliedType`): `SINGLE` and `GROUP` blocks nest an object, `LIST` a
//! list of objects, `SET` a set, `MAP` a map keyed by the block label — except that `LIST`
//! and `MAP` blocks whose contents have a `dynamic` attribute become `dynamic` (their values
//! are tuples and objects). A compiled block program also knows what the type alone cannot:
//! a `GROUP` block sent as null decodes as the block with every attribute null and no nested
//! blocks, and `LIST`/`SET` block counts must lie within `min_items..=max_items` (unless a
//! block holds an unknown value, when Terraform defers the check).
//!
//! Every kind a provider describes is read into [`ProviderSchema`], from `providers schema
//! -json` and from `GetProviderSchema` alike: resources, data sources, ephemeral and list
//! resources, actions and state stores (blocks); resource identities ([`IdentitySchema`]: an
//! object of typed attributes, versioned apart from the resource); functions ([`Function`]:
//! parameter and return types). A kind the reader does not know is named in
//! [`ProviderSchema::unread`], never dropped unseen.
//!
//! ```
//! use tfwire::schema::ProviderSchemas;
//! let doc = br#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/null":
//!   {"resource_schemas":{"null_resource":{"version":0,"block":{"attributes":{
//!     "id":{"type":"string","computed":true},"triggers":{"type":["map","string"],"optional":true}}}}}}}}"#;
//! let schemas = ProviderSchemas::from_json(doc)?;
//! let provider = schemas.provider("null").unwrap(); // short names find the full address
//! let block = &provider.resources["null_resource"].block;
//! assert_eq!(block.implied_type().to_string(), r#"["object",{"id":"string","triggers":["map","string"]}]"#);
//! let program = tfwire::Program::from_block(block);
//! # let _ = program;
//! # Ok::<(), tfwire::Error>(())
//! ```

mod cache;
mod json;
mod model;
mod proto;

pub use cache::{Kind, ProgramCache};
pub use model::{
    Attribute, AttributeType, Block, Function, IdentityAttribute, IdentitySchema, NestedBlock,
    NestedType, Nesting, Parameter, ProviderSchema, ProviderSchemas, Schema,
};
pub use proto::Protocol;
