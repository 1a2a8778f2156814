//! The schema model: providers, their resource, data source, identity, action and function
//! schemas, blocks and attributes.

use crate::ty::Type;
use std::collections::BTreeMap;
use tfwire_json::Safe;

/// The schemas of every provider in a `providers schema -json` document (or the one provider
/// of a `GetProviderSchema` response), keyed by provider address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderSchemas {
    /// The document's `format_version`, when it has one.
    pub format_version: Option<String>,
    /// Provider address (e.g. `registry.terraform.io/hashicorp/aws`, or `aws` in format 0.1
    /// documents) → its schemas.
    pub providers: BTreeMap<String, ProviderSchema>,
}

impl ProviderSchemas {
    /// The provider at `address`: an exact key, or a short name (`aws`) matching exactly one
    /// full address (`…/aws`), or a full address whose last part is a short key of a format
    /// 0.1 document.
    pub fn provider(&self, address: &str) -> Option<&ProviderSchema> {
        self.provider_key(address).map(|k| &self.providers[k])
    }

    /// The key [`ProviderSchemas::provider`] resolves `address` to.
    pub fn provider_key(&self, address: &str) -> Option<&str> {
        if let Some((k, _)) = self.providers.get_key_value(address) {
            return Some(k);
        }
        let short = address.rsplit('/').next().unwrap_or(address);
        let mut found = self
            .providers
            .keys()
            .filter(|k| k.rsplit('/').next() == Some(short));
        match (found.next(), found.next()) {
            (Some(k), None) => Some(k),
            _ => None,
        }
    }
}

/// One provider's schemas.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderSchema {
    /// The provider configuration block.
    pub provider: Option<Schema>,
    /// The `provider_meta` block.
    pub provider_meta: Option<Schema>,
    /// Managed resource types.
    pub resources: BTreeMap<String, Schema>,
    /// Data sources.
    pub data_sources: BTreeMap<String, Schema>,
    /// Ephemeral resource types.
    pub ephemeral_resources: BTreeMap<String, Schema>,
    /// List resource types: the schema of a `list` block's `config` (`providers schema
    /// -json` prints it so too; the values a list call returns are typed by the managed
    /// resource type of the same name and its identity).
    pub list_resources: BTreeMap<String, Schema>,
    /// Managed resource type → its identity schema (`resource_identity_schemas`, or the
    /// `GetResourceIdentitySchemas` response).
    pub identities: BTreeMap<String, IdentitySchema>,
    /// Action types (`action_schemas`; the protocol's `ActionSchema.schema`).
    pub actions: BTreeMap<String, Schema>,
    /// Provider functions by name (`functions`).
    pub functions: BTreeMap<String, Function>,
    /// State store types (`state_store_schemas`; plugin protocol 6 only).
    pub state_stores: BTreeMap<String, Schema>,
    /// What the reader met and does not know, so that it can be reported rather than lost
    /// unseen: members of the provider's object in `providers schema -json` (a kind newer
    /// than this reader), or field numbers of a `GetProviderSchema` response (`"field 12"`);
    /// in the order met.
    pub unread: Vec<String>,
}

/// A managed resource type's identity schema: the attributes that identify an object of the
/// type (its implied type is an object of them; Terraform's `configschema.Object` with
/// `NestingSingle`, whose attributes are never optional in the type).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdentitySchema {
    /// The identity schema version (a change triggers `UpgradeResourceIdentity`).
    pub version: i64,
    /// The attributes, sorted by name.
    pub attributes: Vec<IdentityAttribute>,
}

impl IdentitySchema {
    /// The type of an identity value: an object with one attribute per identity attribute.
    pub fn implied_type(&self) -> Type {
        Type::object(
            self.attributes
                .iter()
                .map(|a| (a.name.clone(), a.ty.clone(), false)),
        )
    }

    /// The attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<&IdentityAttribute> {
        self.attributes
            .binary_search_by(|a| a.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.attributes[i])
    }

    /// Sorts the attributes; the name declared twice, as the message for it.
    pub(crate) fn sort(&mut self) -> Option<String> {
        self.attributes.sort_by(|a, b| a.name.cmp(&b.name));
        self.attributes
            .windows(2)
            .find(|w| w[0].name == w[1].name)
            .map(|w| format!("{} is declared twice", Safe(&w[1].name)))
    }
}

/// An attribute of an identity schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityAttribute {
    /// The name.
    pub name: String,
    /// The value's type.
    pub ty: Type,
    /// An `import` block's `identity` must set it.
    pub required_for_import: bool,
    /// An `import` block's `identity` may set it.
    pub optional_for_import: bool,
    /// Documentation.
    pub description: String,
}

/// A provider function's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The fixed positional parameters, in order.
    pub parameters: Vec<Parameter>,
    /// The variadic parameter, if the function takes any number of further arguments.
    pub variadic: Option<Parameter>,
    /// The return type (`dynamic` when it depends on the arguments).
    pub return_type: Type,
    /// A one-line summary.
    pub summary: String,
    /// Documentation.
    pub description: String,
    /// Why the function is deprecated, when it is ("" otherwise).
    pub deprecation_message: String,
}

impl Function {
    /// The type of argument `index` of a call: a fixed parameter's, past them the variadic
    /// parameter's (`None` when the call has too many arguments).
    pub fn argument(&self, index: usize) -> Option<&Type> {
        match self.parameters.get(index) {
            Some(p) => Some(&p.ty),
            None => self.variadic.as_ref().map(|p| &p.ty),
        }
    }
}

/// A parameter of a provider function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The name (documentation only: arguments are positional).
    pub name: String,
    /// The type an argument must conform to.
    pub ty: Type,
    /// A null argument is passed to the function (`is_nullable` in `providers schema
    /// -json`, `allow_null_value` in the protocol).
    pub allow_null: bool,
    /// An unknown argument is passed to the function rather than making the result unknown
    /// (protocol only: `providers schema -json` does not print it).
    pub allow_unknown: bool,
    /// Documentation.
    pub description: String,
}

/// A versioned schema: the top-level block of a resource, data source or provider.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    /// The schema version (a change triggers a state upgrade).
    pub version: i64,
    /// The top-level block.
    pub block: Block,
}

/// A block: attributes and nested block types (each sorted by name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// The attributes, sorted by name.
    pub attributes: Vec<Attribute>,
    /// The nested block types, sorted by type name.
    pub block_types: Vec<NestedBlock>,
    /// Documentation.
    pub description: String,
    /// Whether the block is deprecated.
    pub deprecated: bool,
}

/// An attribute of a block (or of a nested attribute object).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// The name.
    pub name: String,
    /// The value's type, or (protocol 6) its nested attributes.
    pub ty: AttributeType,
    /// Must be set in configuration.
    pub required: bool,
    /// May be set in configuration.
    pub optional: bool,
    /// Set by the provider.
    pub computed: bool,
    /// Its value is sensitive.
    pub sensitive: bool,
    /// Deprecated.
    pub deprecated: bool,
    /// Never stored in state or plan (protocol 5.8 / 6.8).
    pub write_only: bool,
    /// Documentation.
    pub description: String,
}

/// What an attribute holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeType {
    /// A value of this type.
    Type(Type),
    /// Nested attributes (protocol 6's `nested_type`).
    Nested(NestedType),
}

/// Protocol 6 nested attributes: an object of attributes, nested as one object, a list, a
/// set or a map of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NestedType {
    /// The attributes, sorted by name.
    pub attributes: Vec<Attribute>,
    /// How the objects nest (never [`Nesting::Group`]).
    pub nesting: Nesting,
}

/// How a nested block type's blocks (or a nested attribute's objects) are collected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nesting {
    /// At most one block: an object, or null when absent.
    Single,
    /// Like `Single`, but an absent block reads as a block of nulls.
    Group,
    /// A list of blocks, in order.
    List,
    /// A set of blocks.
    Set,
    /// A map of blocks keyed by their label.
    Map,
}

impl Nesting {
    /// The name used in `providers schema -json` (`single`, `group`, `list`, `set`, `map`).
    pub fn name(self) -> &'static str {
        match self {
            Nesting::Single => "single",
            Nesting::Group => "group",
            Nesting::List => "list",
            Nesting::Set => "set",
            Nesting::Map => "map",
        }
    }
}

/// A nested block type of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NestedBlock {
    /// The block type name (its attribute name in the implied object type).
    pub type_name: String,
    /// The blocks' schema.
    pub block: Block,
    /// How the blocks are collected.
    pub nesting: Nesting,
    /// Fewest blocks (`LIST`/`SET`).
    pub min_items: u64,
    /// Most blocks (`LIST`/`SET`; 0: no limit).
    pub max_items: u64,
}

impl Block {
    /// The implied type: an object with every attribute and nested block type (see the
    /// module documentation).
    pub fn implied_type(&self) -> Type {
        let mut attrs: Vec<(String, Type, bool)> = self
            .attributes
            .iter()
            .map(|a| (a.name.clone(), a.implied_type(), false))
            .collect();
        for nb in &self.block_types {
            attrs.push((nb.type_name.clone(), nb.implied_type(), false));
        }
        Type::object(attrs)
    }

    /// The attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes
            .binary_search_by(|a| a.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.attributes[i])
    }

    /// The nested block type called `name`.
    pub fn block_type(&self, name: &str) -> Option<&NestedBlock> {
        self.block_types
            .binary_search_by(|b| b.type_name.as_str().cmp(name))
            .ok()
            .map(|i| &self.block_types[i])
    }

    pub(crate) fn sort(&mut self) {
        self.attributes.sort_by(|a, b| a.name.cmp(&b.name));
        self.block_types
            .sort_by(|a, b| a.type_name.cmp(&b.type_name));
    }

    /// A name this (sorted) block uses twice, as the message for it: two attributes or two
    /// block types of one name, or an attribute and a block type (Terraform rejects such
    /// schemas; the implied object type would have the name twice).
    pub(crate) fn name_clash(&self) -> Option<String> {
        fn twice<'n>(names: &[&'n str]) -> Option<&'n str> {
            names.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
        }
        let attrs: Vec<&str> = self.attributes.iter().map(|a| a.name.as_str()).collect();
        let types: Vec<&str> = self
            .block_types
            .iter()
            .map(|b| b.type_name.as_str())
            .collect();
        if let Some(n) = twice(&attrs).or_else(|| twice(&types)) {
            return Some(format!("{} is declared twice", Safe(n)));
        }
        types
            .iter()
            .find(|t| attrs.binary_search(t).is_ok())
            .map(|n| format!("{} is both an attribute and a nested block type", Safe(n)))
    }
}

impl NestedBlock {
    /// The type of this block type's value in its parent's implied object type.
    pub fn implied_type(&self) -> Type {
        let ty = self.block.implied_type();
        match self.nesting {
            Nesting::Single | Nesting::Group => ty,
            Nesting::List if ty.has_dynamic() => Type::Dynamic,
            Nesting::List => Type::list(ty),
            Nesting::Set => Type::set(ty),
            Nesting::Map if ty.has_dynamic() => Type::Dynamic,
            Nesting::Map => Type::map(ty),
        }
    }
}

impl Attribute {
    /// An attribute called `name` of type `dynamic`, with no flags and no description: what
    /// a loader fills in.
    pub(crate) fn named(name: String) -> Attribute {
        Attribute {
            name,
            ty: AttributeType::Type(Type::Dynamic),
            required: false,
            optional: false,
            computed: false,
            sensitive: false,
            deprecated: false,
            write_only: false,
            description: String::new(),
        }
    }

    /// An optional attribute called `name` holding a value of type `ty`, with no other flag
    /// and no description: what a block stands for when only the names and types of its
    /// values are known (a provisioner's arguments, a resource drawn without a schema).
    ///
    /// ```
    /// use tfwire::schema::{Attribute, AttributeType};
    /// use tfwire::Type;
    /// let a = Attribute::optional("tags", Type::Dynamic);
    /// assert_eq!((a.name.as_str(), &a.ty), ("tags", &AttributeType::Type(Type::Dynamic)));
    /// assert!(a.optional && !a.required && !a.computed && !a.sensitive);
    /// ```
    pub fn optional(name: impl Into<String>, ty: Type) -> Attribute {
        Attribute {
            ty: AttributeType::Type(ty),
            optional: true,
            ..Attribute::named(name.into())
        }
    }

    /// The attribute's value type (for nested attributes: the object, or a list, set or map
    /// of objects, without optional-attribute markers).
    pub fn implied_type(&self) -> Type {
        match &self.ty {
            AttributeType::Type(t) => t.clone(),
            AttributeType::Nested(n) => n.implied_type(),
        }
    }
}

impl NestedType {
    /// The nested attributes' value type.
    pub fn implied_type(&self) -> Type {
        let obj = Type::object(
            self.attributes
                .iter()
                .map(|a| (a.name.clone(), a.implied_type(), false)),
        );
        match self.nesting {
            Nesting::Single | Nesting::Group => obj,
            Nesting::List => Type::list(obj),
            Nesting::Set => Type::set(obj),
            Nesting::Map => Type::map(obj),
        }
    }
}
