//! Compiled programs for every [`SchemaRef`] of a provider, compiled on first use.

use crate::values::SchemaRef;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use tfwire::schema::{Block, ProviderSchema, Schema};
use tfwire::{Error, ErrorKind, Path, Program, Type};

/// The key of a compiled program: the kind of [`SchemaRef`] and its index, then (in the inner
/// map, looked up by `&str` so that finding a compiled program allocates nothing) its name.
type Key = (u8, usize);

/// A provider's schemas ([`ProviderSchema`]) and the programs compiled from them, shared by every thread of a
/// proxy (`Sync`). A program is compiled the first time a value needs it.
///
/// ```
/// use tfwire::schema::{IdentityAttribute, IdentitySchema, ProviderSchema};
/// use tfwire_plugin::{Programs, SchemaRef};
/// let mut schemas = ProviderSchema::default();
/// let id = IdentityAttribute {
///     name: "id".into(), ty: tfwire::Type::String, required_for_import: true,
///     optional_for_import: false, description: String::new(),
/// };
/// schemas.identities.insert("x".into(), IdentitySchema { version: 0, attributes: vec![id] });
/// let programs = Programs::new(schemas);
/// let p = programs.get(SchemaRef::Identity("x"))?;
/// assert!(std::sync::Arc::ptr_eq(&p, &programs.get(SchemaRef::Identity("x"))?));
/// assert_eq!(
///     programs.get(SchemaRef::Resource("y")).unwrap_err().kind().to_string(),
///     r#"invalid schema: no schema for resource "y""#,
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Programs {
    schemas: ProviderSchema,
    programs: RwLock<HashMap<Key, HashMap<String, Arc<Program>>>>,
    masks: tfwire::mask::Masks,
}

fn key(r: SchemaRef<'_>) -> Key {
    let (tag, index) = match r {
        SchemaRef::Provider => (0, 0),
        SchemaRef::ProviderMeta => (1, 0),
        SchemaRef::Resource(_) => (2, 0),
        SchemaRef::DataSource(_) => (3, 0),
        SchemaRef::EphemeralResource(_) => (4, 0),
        SchemaRef::ListResource(_) => (5, 0),
        SchemaRef::Identity(_) => (6, 0),
        SchemaRef::Action(_) => (7, 0),
        SchemaRef::StateStore(_) => (8, 0),
        SchemaRef::FunctionArgument(_, i) => (9, i),
        SchemaRef::FunctionResult(_) => (10, 0),
        SchemaRef::Bool => (11, 0),
        SchemaRef::Number => (12, 0),
        SchemaRef::Provisioner => (13, 0),
        SchemaRef::ProvisionerConnection => (14, 0),
    };
    (tag, index)
}

fn missing(r: SchemaRef<'_>) -> Error {
    let what = match r {
        SchemaRef::Provider => "the provider".to_owned(),
        SchemaRef::ProviderMeta => "provider_meta".to_owned(),
        SchemaRef::Resource(n) => format!("resource {n:?}"),
        SchemaRef::DataSource(n) => format!("data source {n:?}"),
        SchemaRef::EphemeralResource(n) => format!("ephemeral resource {n:?}"),
        SchemaRef::ListResource(n) => format!("list resource {n:?}"),
        SchemaRef::Identity(n) => format!("the identity of {n:?}"),
        SchemaRef::Action(n) => format!("action {n:?}"),
        SchemaRef::StateStore(n) => format!("state store {n:?}"),
        SchemaRef::FunctionArgument(n, i) => format!("argument {i} of function {n:?}"),
        SchemaRef::FunctionResult(n) => format!("the result of function {n:?}"),
        SchemaRef::Bool | SchemaRef::Number => unreachable!("fixed types always have a program"),
        SchemaRef::Provisioner => "the provisioner".to_owned(),
        SchemaRef::ProvisionerConnection => "the provisioner connection".to_owned(),
    };
    Error::new(
        ErrorKind::InvalidSchema(format!("no schema for {what}")),
        0,
        Path::root(),
    )
}

/// What a program is compiled from.
enum Source<'s> {
    Block(&'s Block),
    Type(&'s Type),
    Owned(Type),
}

impl Programs {
    /// Programs for these schemas.
    pub fn new(schemas: ProviderSchema) -> Programs {
        Programs {
            schemas,
            programs: RwLock::default(),
            masks: tfwire::mask::Masks::new(),
        }
    }

    /// These programs with masks: [`Programs::redacted_json`] and
    /// [`Programs::write_redacted`] (the tap's log, `tfwire dump`) hide every value they
    /// match as they hide a sensitive attribute (see [`crate::redact`]). The resource type
    /// scoping a pattern is the type the value belongs to ([`SchemaRef::type_name`]).
    pub fn with_masks(mut self, masks: tfwire::mask::Masks) -> Programs {
        self.masks = masks;
        self
    }

    /// The masks (none unless set with [`Programs::with_masks`]).
    pub fn masks(&self) -> &tfwire::mask::Masks {
        &self.masks
    }

    /// The schemas.
    pub fn schemas(&self) -> &ProviderSchema {
        &self.schemas
    }

    /// The schema block of a value, for the values decoded with a block (the provider, resource,
    /// data source, ephemeral, list resource, action and state store schemas).
    pub fn block(&self, r: SchemaRef<'_>) -> Option<&Block> {
        self.schema(r).map(|s| &s.block)
    }

    fn schema(&self, r: SchemaRef<'_>) -> Option<&Schema> {
        let p = &self.schemas;
        match r {
            SchemaRef::Provider => p.provider.as_ref(),
            SchemaRef::ProviderMeta => p.provider_meta.as_ref(),
            SchemaRef::Resource(n) => p.resources.get(n),
            SchemaRef::DataSource(n) => p.data_sources.get(n),
            SchemaRef::EphemeralResource(n) => p.ephemeral_resources.get(n),
            SchemaRef::ListResource(n) => p.list_resources.get(n),
            SchemaRef::Action(n) => p.actions.get(n),
            SchemaRef::StateStore(n) => p.state_stores.get(n),
            _ => None,
        }
    }

    fn source(&self, r: SchemaRef<'_>) -> Option<Source<'_>> {
        if let Some(s) = self.schema(r) {
            return Some(Source::Block(&s.block));
        }
        Some(match r {
            SchemaRef::Identity(n) => Source::Owned(self.schemas.identities.get(n)?.implied_type()),
            SchemaRef::FunctionArgument(n, i) => {
                Source::Type(self.schemas.functions.get(n)?.argument(i)?)
            }
            SchemaRef::FunctionResult(n) => {
                Source::Type(&self.schemas.functions.get(n)?.return_type)
            }
            SchemaRef::Bool => Source::Owned(Type::Bool),
            SchemaRef::Number => Source::Owned(Type::Number),
            _ => return None,
        })
    }

    /// The program that decodes values of `r`, compiled on first use; an
    /// [`ErrorKind::InvalidSchema`] error when the schemas do not describe `r`.
    pub fn get(&self, r: SchemaRef<'_>) -> Result<Arc<Program>, Error> {
        let k = key(r);
        if let Some(p) = self
            .programs
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&k)
            .and_then(|m| m.get(r.type_name()))
        {
            return Ok(p.clone());
        }
        let program = Arc::new(match self.source(r).ok_or_else(|| missing(r))? {
            Source::Block(b) => Program::from_block(b),
            Source::Type(t) => Program::compile(t),
            Source::Owned(t) => Program::compile(&t),
        });
        let mut map = self.programs.write().unwrap_or_else(|e| e.into_inner());
        Ok(map
            .entry(k)
            .or_default()
            .entry(r.type_name().to_owned())
            .or_insert(program)
            .clone())
    }
}
