//! Every `DynamicValue` of every request and response, with the schema it is decoded with.
//!
//! A `DynamicValue` is opaque without its type: a resource's state is decoded with the
//! resource type's schema, a provider configuration with the provider schema, a function's
//! third argument with that parameter's type. [`DynamicValues`] tells, for one message, which
//! values it holds and with what each must be decoded ([`SchemaRef`]); [`crate::Programs`]
//! turns a `SchemaRef` into a compiled [`tfwire::Program`].
//!
//! Responses name no type: their values are typed by the request of the same call, so
//! [`DynamicValues::dynamic_values`] takes the request's [`DynamicValues::type_name`].
//! Private state (`private` fields) is opaque provider data, not a `DynamicValue`, and is never
//! yielded; nor are `RawState` fields (state JSON of an older schema version, or of another
//! provider's resource type).
//!
//! ```
//! use tfwire_plugin::tfplugin6::{plan_resource_change, DynamicValue};
//! use tfwire_plugin::{DynamicValues, SchemaRef};
//! let request = plan_resource_change::Request {
//!     type_name: "null_resource".into(),
//!     config: Some(DynamicValue { msgpack: vec![0xc0].into(), json: Default::default() }),
//!     ..Default::default()
//! };
//! let mut found = Vec::new();
//! request.dynamic_values("", &mut |f| found.push((f.name, f.schema)));
//! assert_eq!(found, [("config", SchemaRef::Resource("null_resource"))]);
//! // The response's planned state is typed by the request's resource type.
//! let response = plan_resource_change::Response {
//!     planned_state: Some(DynamicValue { msgpack: vec![0xc0].into(), json: Default::default() }),
//!     ..Default::default()
//! };
//! let mut found = Vec::new();
//! response.dynamic_values(request.type_name(), &mut |f| found.push((f.name, f.schema)));
//! assert_eq!(found, [("planned_state", SchemaRef::Resource("null_resource"))]);
//! ```

use tfwire::DynamicValue;

/// What a `DynamicValue` is decoded with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaRef<'a> {
    /// The provider configuration schema.
    Provider,
    /// The `provider_meta` schema.
    ProviderMeta,
    /// A managed resource type's schema.
    Resource(&'a str),
    /// A data source's schema.
    DataSource(&'a str),
    /// An ephemeral resource type's schema.
    EphemeralResource(&'a str),
    /// A list resource type's schema.
    ListResource(&'a str),
    /// A managed resource type's identity schema.
    Identity(&'a str),
    /// An action type's schema.
    Action(&'a str),
    /// A state store type's schema (protocol 6).
    StateStore(&'a str),
    /// Argument `index` of a call of the named function.
    FunctionArgument(&'a str, usize),
    /// The result of the named function.
    FunctionResult(&'a str),
    /// A fixed `bool` (`ValidateListResourceConfig.include_resource_object`).
    Bool,
    /// A fixed `number` (`ValidateListResourceConfig.limit`).
    Number,
    /// A provisioner's configuration (protocol 5; the provisioner's own schema).
    Provisioner,
    /// A provisioner's `connection` block (protocol 5).
    ProvisionerConnection,
}

impl SchemaRef<'_> {
    /// The type or resource name it refers to ("" when none).
    pub fn type_name(&self) -> &str {
        match *self {
            SchemaRef::Resource(n)
            | SchemaRef::DataSource(n)
            | SchemaRef::EphemeralResource(n)
            | SchemaRef::ListResource(n)
            | SchemaRef::Identity(n)
            | SchemaRef::Action(n)
            | SchemaRef::StateStore(n)
            | SchemaRef::FunctionArgument(n, _)
            | SchemaRef::FunctionResult(n) => n,
            _ => "",
        }
    }
}

/// One `DynamicValue` of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'m> {
    /// The field's name in the message (`config`, `prior_state`, ...; for values inside
    /// nested messages the path, e.g. `imported_resources.state`, `new_identity`).
    pub name: &'static str,
    /// The element's index in a repeated field (`CallFunction.arguments`,
    /// `ImportResourceState.imported_resources`).
    pub index: Option<usize>,
    /// The value, borrowed from the message.
    pub value: DynamicValue<'m>,
    /// What to decode it with.
    pub schema: SchemaRef<'m>,
}

/// A plugin protocol message that may carry `DynamicValue`s.
pub trait DynamicValues {
    /// The type name a request's values are typed by (resource, data source, ephemeral, list
    /// resource, action or state store type, or function name); `""` for messages without one.
    /// A response's values are typed by its request's name.
    fn type_name(&self) -> &str {
        ""
    }

    /// Calls `f` with every `DynamicValue` present in the message (absent optional messages
    /// are skipped), in field order. `call` is the type name of the call's request (see
    /// [`DynamicValues::type_name`]; requests ignore it).
    fn dynamic_values<'m>(&'m self, call: &'m str, f: &mut dyn FnMut(Field<'m>));

    /// What the field `name` ([`Field::name`]; `index`: [`Field::index`]) of this message
    /// is decoded with, in a call of `call` (the request's type name); `None` when the
    /// message has no such `DynamicValue` field. The same table [`DynamicValues::dynamic_values`]
    /// yields, for a value seen without its message (a captured file,
    /// [`crate::rpc::Method::field_schema`]).
    ///
    /// ```
    /// use tfwire_plugin::tfplugin6::call_function;
    /// use tfwire_plugin::{DynamicValues, SchemaRef};
    /// assert_eq!(
    ///     call_function::Request::schema_of("arguments", Some(2), "digest"),
    ///     Some(SchemaRef::FunctionArgument("digest", 2)),
    /// );
    /// assert_eq!(call_function::Request::schema_of("result", None, "digest"), None);
    /// ```
    fn schema_of<'c>(name: &str, index: Option<usize>, call: &'c str) -> Option<SchemaRef<'c>>
    where
        Self: Sized;
}

/// Yields `value` when present.
pub(crate) fn emit<'m, D: AsDynamicValue>(
    f: &mut dyn FnMut(Field<'m>),
    name: &'static str,
    index: Option<usize>,
    value: Option<&'m D>,
    schema: SchemaRef<'m>,
) {
    if let Some(v) = value.and_then(|v| v.as_dynamic_value()) {
        f(Field {
            name,
            index,
            value: v,
            schema,
        });
    }
}

/// `DynamicValue` and `ResourceIdentityData` (which wraps one), of either protocol.
pub(crate) trait AsDynamicValue {
    fn as_dynamic_value(&self) -> Option<DynamicValue<'_>>;
}

/// The `DynamicValue` views of both protocols' messages (the [`DynamicValues`] impls come
/// from the table in [`crate::rpc`]).
macro_rules! common {
    ($m:ident) => {
        impl AsDynamicValue for crate::$m::DynamicValue {
            fn as_dynamic_value(&self) -> Option<DynamicValue<'_>> {
                Some(DynamicValue {
                    msgpack: &self.msgpack,
                    json: &self.json,
                })
            }
        }

        impl AsDynamicValue for crate::$m::ResourceIdentityData {
            fn as_dynamic_value(&self) -> Option<DynamicValue<'_>> {
                self.identity_data
                    .as_ref()
                    .and_then(|d| d.as_dynamic_value())
            }
        }

        impl<'x> From<&'x crate::$m::DynamicValue> for DynamicValue<'x> {
            fn from(d: &'x crate::$m::DynamicValue) -> DynamicValue<'x> {
                DynamicValue {
                    msgpack: &d.msgpack,
                    json: &d.json,
                }
            }
        }
    };
}

common!(tfplugin5);
common!(tfplugin6);
