//! `GetProviderSchema` (and `GetResourceIdentitySchemas`) responses as tfwire schemas
//! ([`ProviderSchema`], the model `providers schema -json` documents load into too).
//!
//! There is one protobuf reader of provider schemas: tfwire's
//! ([`ProviderSchema::from_protobuf`], [`ProviderSchema::add_identities_from_protobuf`]). The
//! tap hands it the frame's bytes as they came (the table in [`crate::rpc`] decodes schema
//! responses with it), and the conversions below give it a message already decoded by prost
//! (encoded again first: schemas are read once a run). Why that reader and not one over the
//! generated types: see the crate's README.

use prost::Message as _;
use std::collections::BTreeMap;
use tfwire::Error;
use tfwire::schema::{IdentitySchema, Protocol, ProviderSchema};

impl TryFrom<&crate::tfplugin5::get_provider_schema::Response> for ProviderSchema {
    type Error = Error;

    /// Reads the response with [`ProviderSchema::from_protobuf`] (protocol 5).
    fn try_from(
        r: &crate::tfplugin5::get_provider_schema::Response,
    ) -> Result<ProviderSchema, Error> {
        ProviderSchema::from_protobuf(&r.encode_to_vec(), Protocol::V5)
    }
}

impl TryFrom<&crate::tfplugin6::get_provider_schema::Response> for ProviderSchema {
    type Error = Error;

    /// Reads the response with [`ProviderSchema::from_protobuf`] (protocol 6).
    fn try_from(
        r: &crate::tfplugin6::get_provider_schema::Response,
    ) -> Result<ProviderSchema, Error> {
        ProviderSchema::from_protobuf(&r.encode_to_vec(), Protocol::V6)
    }
}

/// The identity schemas of a `GetResourceIdentitySchemas` response frame (either protocol:
/// the message is the same), by resource type (for [`ProviderSchema::identities`]).
pub(crate) fn identities(frame: &[u8]) -> Result<BTreeMap<String, IdentitySchema>, Error> {
    let mut p = ProviderSchema::default();
    p.add_identities_from_protobuf(frame)?;
    Ok(p.identities)
}

/// The identity schemas of a protocol 5 `GetResourceIdentitySchemas` response, by resource
/// type (for [`ProviderSchema::identities`]).
pub fn identities_v5(
    r: &crate::tfplugin5::get_resource_identity_schemas::Response,
) -> Result<BTreeMap<String, IdentitySchema>, Error> {
    identities(&r.encode_to_vec())
}

/// The identity schemas of a protocol 6 `GetResourceIdentitySchemas` response, by resource
/// type (for [`ProviderSchema::identities`]).
pub fn identities_v6(
    r: &crate::tfplugin6::get_resource_identity_schemas::Response,
) -> Result<BTreeMap<String, IdentitySchema>, Error> {
    identities(&r.encode_to_vec())
}
