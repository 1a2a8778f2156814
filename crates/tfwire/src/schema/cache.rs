//! Compiled programs for every type of a provider, compiled once and shared.

use super::{ProviderSchema, ProviderSchemas, Schema};
use crate::error::{Error, ErrorKind, Path};
use crate::json::Safe;
use crate::program::Program;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// What kind of schema a type name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A managed resource type.
    Resource,
    /// A data source.
    DataSource,
    /// An ephemeral resource type.
    EphemeralResource,
    /// A list resource type.
    ListResource,
    /// The provider's configuration block (the type name is ignored).
    Provider,
    /// The provider's `provider_meta` block (the type name is ignored).
    ProviderMeta,
}

/// Programs compiled from provider schemas on first use and shared afterwards, keyed by
/// (provider, kind, type name). `Sync`: one cache serves every thread of a proxy.
///
/// ```
/// use tfwire::schema::{Kind, ProgramCache, ProviderSchemas};
/// let doc = br#"{"provider_schemas":{"registry.terraform.io/hashicorp/null":{"resource_schemas":
///   {"null_resource":{"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}"#;
/// let cache = ProgramCache::new(ProviderSchemas::from_json(doc)?);
/// let a = cache.get("null", Kind::Resource, "null_resource")?;
/// let b = cache.get("registry.terraform.io/hashicorp/null", Kind::Resource, "null_resource")?;
/// assert!(std::sync::Arc::ptr_eq(&a, &b)); // compiled once
/// # Ok::<(), tfwire::Error>(())
/// ```
#[derive(Debug)]
pub struct ProgramCache {
    schemas: ProviderSchemas,
    programs: RwLock<HashMap<(String, Kind, String), Arc<Program>>>,
}

impl ProgramCache {
    /// A cache over these schemas.
    pub fn new(schemas: ProviderSchemas) -> ProgramCache {
        ProgramCache {
            schemas,
            programs: RwLock::new(HashMap::new()),
        }
    }

    /// A cache over one provider's schemas, as a proxy has them: from that provider's
    /// `GetProviderSchema` response ([`ProviderSchema::from_protobuf`]). `address` is the
    /// key lookups resolve as [`ProviderSchemas::provider`] does (a full address, or any
    /// name: with one provider, its last part after `/` also finds it).
    ///
    /// ```
    /// use tfwire::schema::{Kind, ProgramCache, ProviderSchemas};
    /// # let doc = br#"{"provider_schemas":{"p":{"resource_schemas":
    /// #   {"null_resource":{"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}"#;
    /// # let schema = ProviderSchemas::from_json(doc)?.providers.remove("p").unwrap();
    /// // `schema`: ProviderSchema::from_protobuf(&response_bytes, Protocol::V6)?
    /// let cache = ProgramCache::for_provider("registry.opentofu.org/hashicorp/null", schema);
    /// let program = cache.get("registry.opentofu.org/hashicorp/null", Kind::Resource, "null_resource")?;
    /// let arena = bumpalo::Bump::new();
    /// let v = tfwire::decode_msgpack(&program, b"\x81\xa2id\xa1x", &arena)?;
    /// assert_eq!(v.get("id").unwrap().as_str(), Some("x"));
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn for_provider(address: impl Into<String>, schema: ProviderSchema) -> ProgramCache {
        let mut schemas = ProviderSchemas::default();
        schemas.providers.insert(address.into(), schema);
        ProgramCache::new(schemas)
    }

    /// The schemas.
    pub fn schemas(&self) -> &ProviderSchemas {
        &self.schemas
    }

    /// The schema of `type_name` of `kind` in the provider at `provider` (resolved as
    /// [`ProviderSchemas::provider`] does).
    pub fn schema(&self, provider: &str, kind: Kind, type_name: &str) -> Result<&Schema, Error> {
        let not_found = |what: String| Error::new(ErrorKind::InvalidSchema(what), 0, Path::root());
        let p = self
            .schemas
            .provider(provider)
            .ok_or_else(|| not_found(format!("no provider {}", Safe(provider))))?;
        let map = match kind {
            Kind::Resource => &p.resources,
            Kind::DataSource => &p.data_sources,
            Kind::EphemeralResource => &p.ephemeral_resources,
            Kind::ListResource => &p.list_resources,
            Kind::Provider => {
                return p
                    .provider
                    .as_ref()
                    .ok_or_else(|| not_found("no provider schema".into()));
            }
            Kind::ProviderMeta => {
                return p
                    .provider_meta
                    .as_ref()
                    .ok_or_else(|| not_found("no provider_meta schema".into()));
            }
        };
        map.get(type_name).ok_or_else(|| {
            not_found(format!(
                "{} has no {kind:?} {}",
                Safe(provider),
                Safe(type_name)
            ))
        })
    }

    /// The program for `type_name`, compiled on first use.
    pub fn get(&self, provider: &str, kind: Kind, type_name: &str) -> Result<Arc<Program>, Error> {
        let key_provider = self.schemas.provider_key(provider).unwrap_or(provider);
        let name = if matches!(kind, Kind::Provider | Kind::ProviderMeta) {
            ""
        } else {
            type_name
        };
        let key = (key_provider.to_owned(), kind, name.to_owned());
        if let Some(p) = self
            .programs
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(p.clone());
        }
        let program = Arc::new(Program::from_block(
            &self.schema(provider, kind, type_name)?.block,
        ));
        let mut map = self.programs.write().unwrap_or_else(|e| e.into_inner());
        Ok(map.entry(key).or_insert(program).clone())
    }
}
