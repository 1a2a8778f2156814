//! Compiled programs for every type of a provider, compiled once and shared.

use super::model::{IdentitySchema, ProviderSchema, ProviderSchemas, Schema};
use crate::error::{Error, ErrorKind, Path};
use crate::program::Program;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use tfwire_json::Safe;

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
    /// A managed resource type's identity: the program decodes an identity value (an object
    /// of the identity attributes, [`super::IdentitySchema::implied_type`]).
    Identity,
    /// An action type: the program decodes an action's configuration.
    Action,
    /// A state store type (plugin protocol 6).
    StateStore,
}

impl Kind {
    /// The words for a schema of this kind in messages (`resource type`, `identity of`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Resource => "resource type",
            Kind::DataSource => "data source",
            Kind::EphemeralResource => "ephemeral resource type",
            Kind::ListResource => "list resource type",
            Kind::Provider => "provider schema",
            Kind::ProviderMeta => "provider_meta schema",
            Kind::Identity => "identity schema for resource type",
            Kind::Action => "action type",
            Kind::StateStore => "state store type",
        }
    }
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
    /// By [`key`]: looked up without allocating.
    programs: RwLock<HashMap<Box<[u8]>, Arc<Program>>>,
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

    fn provider(&self, provider: &str) -> Result<&ProviderSchema, Error> {
        self.schemas
            .provider(provider)
            .ok_or_else(|| not_found(format!("no provider {}", Safe(provider))))
    }

    /// The identity schema of the managed resource type `type_name` in the provider at
    /// `provider` (resolved as [`ProviderSchemas::provider`] does).
    pub fn identity(&self, provider: &str, type_name: &str) -> Result<&IdentitySchema, Error> {
        self.provider(provider)?
            .identities
            .get(type_name)
            .ok_or_else(|| missing(provider, Kind::Identity, type_name))
    }

    /// The schema of `type_name` of `kind` in the provider at `provider` (resolved as
    /// [`ProviderSchemas::provider`] does). An identity schema is no [`Schema`] (it has no
    /// block): [`ProgramCache::identity`] finds it.
    pub fn schema(&self, provider: &str, kind: Kind, type_name: &str) -> Result<&Schema, Error> {
        let p = self.provider(provider)?;
        let map = match kind {
            Kind::Resource => &p.resources,
            Kind::DataSource => &p.data_sources,
            Kind::EphemeralResource => &p.ephemeral_resources,
            Kind::ListResource => &p.list_resources,
            Kind::Action => &p.actions,
            Kind::StateStore => &p.state_stores,
            Kind::Identity => {
                return Err(not_found(format!(
                    "an identity schema has no block (the {} of {})",
                    kind.name(),
                    Safe(type_name)
                )));
            }
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
        map.get(type_name)
            .ok_or_else(|| missing(provider, kind, type_name))
    }

    /// The program for `type_name`, compiled on first use.
    pub fn get(&self, provider: &str, kind: Kind, type_name: &str) -> Result<Arc<Program>, Error> {
        let key_provider = self.schemas.provider_key(provider).unwrap_or(provider);
        let name = if matches!(kind, Kind::Provider | Kind::ProviderMeta) {
            ""
        } else {
            type_name
        };
        let key = key(key_provider, kind, name);
        if let Some(p) = self
            .programs
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key[..])
        {
            return Ok(p.clone());
        }
        let program = Arc::new(match kind {
            Kind::Identity => Program::compile(&self.identity(provider, type_name)?.implied_type()),
            _ => Program::from_block(&self.schema(provider, kind, type_name)?.block),
        });
        let mut map = self.programs.write().unwrap_or_else(|e| e.into_inner());
        Ok(map.entry(key[..].into()).or_insert(program).clone())
    }
}

/// The key of a program in [`ProgramCache`]'s map: the kind, the length of the provider's
/// key (so that no two pairs of names make the same key, whatever bytes they hold), the
/// provider's key and the type name; on the stack when short.
fn key(provider: &str, kind: Kind, name: &str) -> smallvec::SmallVec<[u8; 128]> {
    let mut key = smallvec::SmallVec::with_capacity(provider.len() + name.len() + 9);
    key.push(kind as u8);
    key.extend_from_slice(&(provider.len() as u64).to_le_bytes());
    key.extend_from_slice(provider.as_bytes());
    key.extend_from_slice(name.as_bytes());
    key
}

fn not_found(what: String) -> Error {
    Error::new(ErrorKind::InvalidSchema(what), 0, Path::root())
}

/// `PROVIDER has no KIND TYPE`.
fn missing(provider: &str, kind: Kind, type_name: &str) -> Error {
    not_found(format!(
        "{} has no {} {}",
        Safe(provider),
        kind.name(),
        Safe(type_name)
    ))
}

#[cfg(test)]
mod tests {
    use super::{Kind, key};

    #[test]
    fn keys_never_collide() {
        assert_ne!(
            key("a\0b", Kind::Resource, "c"),
            key("a", Kind::Resource, "b\0c")
        );
        assert_ne!(
            key("ab", Kind::Resource, "c"),
            key("a", Kind::Resource, "bc")
        );
        assert_ne!(
            key("a", Kind::Resource, "b"),
            key("a", Kind::DataSource, "b")
        );
        assert_eq!(key("a", Kind::Resource, "b"), key("a", Kind::Resource, "b"));
    }
}
