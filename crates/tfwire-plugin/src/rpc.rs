//! The plugin protocol's methods by gRPC path, and the `DynamicValue`s of their frames.
//!
//! One table ([`Method`]s and every [`DynamicValues`] impl come from it) says, for every RPC
//! of both protocols, its messages and which of their fields are `DynamicValue`s typed by
//! which schema.
//!
//! A proxy that forwards raw frames looks the method up by the request's path
//! ([`Method::from_path`]) and decodes a frame only when it wants its values
//! ([`decode`]); an unknown method is simply not decoded.

use crate::values::{DynamicValues, Field, SchemaRef, emit};
use bytes::Bytes;
use std::collections::BTreeMap;
use tfwire::schema::Protocol;
use tfwire::schema::{IdentitySchema, ProviderSchema};

/// Which way a frame travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the client (OpenTofu) to the provider.
    Request,
    /// From the provider to the client.
    Response,
}

impl Direction {
    /// `request` or `response`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
        }
    }
}

/// A method of `tfplugin5.Provider`, `tfplugin5.Provisioner` or `tfplugin6.Provider`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Method {
    /// The protocol's major version.
    pub protocol: Protocol,
    /// The RPC's name (`PlanResourceChange`).
    pub name: &'static str,
    /// The gRPC path (`/tfplugin6.Provider/PlanResourceChange`).
    pub path: &'static str,
    index: u8,
}

/// A decoded frame.
pub enum Message {
    /// A message that may carry `DynamicValue`s.
    Values(Box<dyn DynamicValues + Send + Sync>),
    /// A `GetProviderSchema` (protocol 5: `GetSchema`) response, converted.
    ProviderSchema(Box<Result<ProviderSchema, tfwire::Error>>),
    /// A `GetResourceIdentitySchemas` response: the identity schemas by resource type.
    IdentitySchemas(Result<BTreeMap<String, IdentitySchema>, tfwire::Error>),
    /// A message of a known method that carries no `DynamicValue`.
    Other,
}

impl core::fmt::Debug for Message {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Message::Values(_) => f.write_str("Values"),
            Message::ProviderSchema(s) => f.debug_tuple("ProviderSchema").field(s).finish(),
            Message::IdentitySchemas(s) => f.debug_tuple("IdentitySchemas").field(s).finish(),
            Message::Other => f.write_str("Other"),
        }
    }
}

fn values<M: DynamicValues + prost::Message + Default + Send + Sync + 'static>(
    b: Bytes,
) -> Result<Message, prost::DecodeError> {
    Ok(Message::Values(Box::new(M::decode(b)?)))
}

fn other<M: prost::Message + Default>(b: Bytes) -> Result<Message, prost::DecodeError> {
    M::decode(b).map(|_| Message::Other)
}

type Decode = fn(Bytes) -> Result<Message, prost::DecodeError>;

/// [`DynamicValues::schema_of`] of a message.
type SchemaOf = for<'c> fn(&str, Option<usize>, &'c str) -> Option<SchemaRef<'c>>;

/// [`SchemaOf`] of a message that carries no `DynamicValue`.
fn no_values<'c>(_: &str, _: Option<usize>, _: &'c str) -> Option<SchemaRef<'c>> {
    None
}

/// One row of [`METHODS`]: protocol, gRPC path, name, decode request, decode response, the
/// request's field schemas, the response's.
type Row = (
    Protocol,
    &'static str,
    &'static str,
    Decode,
    Decode,
    SchemaOf,
    SchemaOf,
);

/// The table: one entry per RPC, for the packages that have it. An entry gives the service,
/// the RPC's name, and its request and response messages, each one of:
///
/// - `(o module::Message)`: a message without `DynamicValue`s;
/// - `(schema module::Response)`: a provider schema, read from the frame by
///   [`ProviderSchema::from_protobuf`];
/// - `(ids module::Response)`: the identity schemas, read from the frame by
///   [`ProviderSchema::add_identities_from_protobuf`];
/// - `(v module::Message [type_name_field] { fields })`: a message with `DynamicValue`s; the
///   optional `[field]` is the string field naming the call's type (a request's; a
///   response's values are typed by its request's), and each field is one of
///   - `name: Kind`: a singular `DynamicValue` (or `ResourceIdentityData`) typed by the
///     schema [`SchemaRef`]`::Kind` (of the call's type where the kind takes a name);
///   - `name: [Kind]`: a repeated `DynamicValue`, element `i` typed by `Kind(call, i)`;
///   - `name: [type_field => sub: Kind, ...]`: a repeated message whose `sub` fields are
///     `DynamicValue`s typed by each element's own `type_field` (named `name.sub`).
///
/// From it come [`Method`] (paths, names, decoders) and every [`DynamicValues`] impl
/// (`dynamic_values`, `schema_of`, `type_name`): the tap, `dump`, redaction and validation all
/// read values through those. `tests/harness/values.rs` checks the table against the
/// protocol's descriptors: every RPC of every service, every `DynamicValue` reachable from
/// its messages.
macro_rules! protocol {
    ($([$($pkg:ident)+] $service:literal $name:ident $req:tt $resp:tt;)*) => {
        const METHODS: &[Row] = &[
            $($((
                protocol!(@protocol $pkg),
                concat!("/", stringify!($pkg), ".", $service, "/", stringify!($name)),
                stringify!($name),
                protocol!(@decode $pkg $req),
                protocol!(@decode $pkg $resp),
                protocol!(@schema_of $pkg $req),
                protocol!(@schema_of $pkg $resp),
            ),)+)*
        ];
        $($(
            protocol!(@impl $pkg $req);
            protocol!(@impl $pkg $resp);
        )+)*
    };
    (@protocol tfplugin5) => { Protocol::V5 };
    (@protocol tfplugin6) => { Protocol::V6 };
    (@decode $pkg:ident (o $mo:ident::$ms:ident)) => { other::<crate::$pkg::$mo::$ms> };
    (@decode $pkg:ident (v $mo:ident::$ms:ident $($rest:tt)*)) => { values::<crate::$pkg::$mo::$ms> };
    (@decode $pkg:ident (schema $mo:ident::$ms:ident)) => {
        |b| Ok(Message::ProviderSchema(Box::new(ProviderSchema::from_protobuf(
            &b,
            protocol!(@protocol $pkg),
        ))))
    };
    (@decode $pkg:ident (ids $mo:ident::$ms:ident)) => {
        |b| Ok(Message::IdentitySchemas(crate::schema::identities(&b)))
    };
    (@schema_of $pkg:ident (v $mo:ident::$ms:ident $($rest:tt)*)) => {
        <crate::$pkg::$mo::$ms as DynamicValues>::schema_of
    };
    (@schema_of $pkg:ident ($other:ident $mo:ident::$ms:ident)) => { no_values };
    (@impl $pkg:ident (v $mo:ident::$ms:ident [$($tn:ident)?] { $($field:ident: $spec:tt),* $(,)? })) => {
        impl DynamicValues for crate::$pkg::$mo::$ms {
            $(
                fn type_name(&self) -> &str {
                    &self.$tn
                }
            )?

            #[allow(unused_variables)]
            fn dynamic_values<'m>(&'m self, call: &'m str, f: &mut dyn FnMut(Field<'m>)) {
                $( let call: &'m str = &self.$tn; )?
                $( protocol!(@emit self f call $field $spec); )*
            }

            #[allow(unused_variables)]
            fn schema_of<'c>(name: &str, index: Option<usize>, call: &'c str) -> Option<SchemaRef<'c>> {
                $( protocol!(@field_schema name index call $field $spec); )*
                None
            }
        }
    };
    (@impl $pkg:ident ($other:ident $mo:ident::$ms:ident)) => {};
    (@emit $self:ident $f:ident $call:ident $field:ident [$tf:ident => $($sub:ident: $kind:ident),*]) => {
        for (i, r) in $self.$field.iter().enumerate() {
            let t = r.$tf.as_str();
            $( emit(
                $f,
                concat!(stringify!($field), ".", stringify!($sub)),
                Some(i),
                r.$sub.as_ref(),
                protocol!(@ref $kind t),
            ); )*
        }
    };
    (@emit $self:ident $f:ident $call:ident $field:ident [$kind:ident]) => {
        for (i, a) in $self.$field.iter().enumerate() {
            emit($f, stringify!($field), Some(i), Some(a), SchemaRef::$kind($call, i));
        }
    };
    (@emit $self:ident $f:ident $call:ident $field:ident $kind:ident) => {
        emit($f, stringify!($field), None, $self.$field.as_ref(), protocol!(@ref $kind $call));
    };
    (@field_schema $name:ident $index:ident $call:ident $field:ident [$tf:ident => $($sub:ident: $kind:ident),*]) => {
        $( if $name == concat!(stringify!($field), ".", stringify!($sub)) {
            return Some(protocol!(@ref $kind $call));
        } )*
    };
    (@field_schema $name:ident $index:ident $call:ident $field:ident [$kind:ident]) => {
        if let (stringify!($field), Some(i)) = ($name, $index) {
            return Some(SchemaRef::$kind($call, i));
        }
    };
    (@field_schema $name:ident $index:ident $call:ident $field:ident $kind:ident) => {
        if ($name, $index) == (stringify!($field), None) {
            return Some(protocol!(@ref $kind $call));
        }
    };
    (@ref Provider $c:ident) => { SchemaRef::Provider };
    (@ref ProviderMeta $c:ident) => { SchemaRef::ProviderMeta };
    (@ref Bool $c:ident) => { SchemaRef::Bool };
    (@ref Number $c:ident) => { SchemaRef::Number };
    (@ref Provisioner $c:ident) => { SchemaRef::Provisioner };
    (@ref ProvisionerConnection $c:ident) => { SchemaRef::ProvisionerConnection };
    (@ref $kind:ident $c:ident) => { SchemaRef::$kind($c) };
}

protocol! {
    [tfplugin5 tfplugin6] "Provider" GetMetadata (o get_metadata::Request) (o get_metadata::Response);
    [tfplugin5] "Provider" GetSchema (o get_provider_schema::Request) (schema get_provider_schema::Response);
    [tfplugin6] "Provider" GetProviderSchema (o get_provider_schema::Request) (schema get_provider_schema::Response);
    [tfplugin5 tfplugin6] "Provider" GetResourceIdentitySchemas (o get_resource_identity_schemas::Request) (ids get_resource_identity_schemas::Response);
    [tfplugin5] "Provider" PrepareProviderConfig (v prepare_provider_config::Request [] { config: Provider }) (v prepare_provider_config::Response [] { prepared_config: Provider });
    [tfplugin6] "Provider" ValidateProviderConfig (v validate_provider_config::Request [] { config: Provider }) (o validate_provider_config::Response);
    [tfplugin5] "Provider" ValidateResourceTypeConfig (v validate_resource_type_config::Request [type_name] { config: Resource }) (o validate_resource_type_config::Response);
    [tfplugin6] "Provider" ValidateResourceConfig (v validate_resource_config::Request [type_name] { config: Resource }) (o validate_resource_config::Response);
    [tfplugin5] "Provider" ValidateDataSourceConfig (v validate_data_source_config::Request [type_name] { config: DataSource }) (o validate_data_source_config::Response);
    [tfplugin6] "Provider" ValidateDataResourceConfig (v validate_data_resource_config::Request [type_name] { config: DataSource }) (o validate_data_resource_config::Response);
    [tfplugin5 tfplugin6] "Provider" UpgradeResourceState (v upgrade_resource_state::Request [type_name] {}) (v upgrade_resource_state::Response [] { upgraded_state: Resource });
    [tfplugin5 tfplugin6] "Provider" UpgradeResourceIdentity (v upgrade_resource_identity::Request [type_name] {}) (v upgrade_resource_identity::Response [] { upgraded_identity: Identity });
    [tfplugin5] "Provider" Configure (v configure::Request [] { config: Provider }) (o configure::Response);
    [tfplugin6] "Provider" ConfigureProvider (v configure_provider::Request [] { config: Provider }) (o configure_provider::Response);
    [tfplugin5 tfplugin6] "Provider" ReadResource (v read_resource::Request [type_name] { current_state: Resource, provider_meta: ProviderMeta, current_identity: Identity }) (v read_resource::Response [] { new_state: Resource, new_identity: Identity });
    [tfplugin5 tfplugin6] "Provider" PlanResourceChange (v plan_resource_change::Request [type_name] { prior_state: Resource, proposed_new_state: Resource, config: Resource, provider_meta: ProviderMeta, prior_identity: Identity }) (v plan_resource_change::Response [] { planned_state: Resource, planned_identity: Identity });
    [tfplugin5 tfplugin6] "Provider" ApplyResourceChange (v apply_resource_change::Request [type_name] { prior_state: Resource, planned_state: Resource, config: Resource, provider_meta: ProviderMeta, planned_identity: Identity }) (v apply_resource_change::Response [] { new_state: Resource, new_identity: Identity });
    [tfplugin5 tfplugin6] "Provider" ImportResourceState (v import_resource_state::Request [type_name] { identity: Identity }) (v import_resource_state::Response [] { imported_resources: [type_name => state: Resource, identity: Identity] });
    [tfplugin5 tfplugin6] "Provider" MoveResourceState (v move_resource_state::Request [target_type_name] {}) (v move_resource_state::Response [] { target_state: Resource, target_identity: Identity });
    [tfplugin5 tfplugin6] "Provider" ReadDataSource (v read_data_source::Request [type_name] { config: DataSource, provider_meta: ProviderMeta }) (v read_data_source::Response [] { state: DataSource });
    [tfplugin5 tfplugin6] "Provider" GenerateResourceConfig (v generate_resource_config::Request [type_name] { state: Resource }) (v generate_resource_config::Response [] { config: Resource });
    [tfplugin5 tfplugin6] "Provider" ValidateEphemeralResourceConfig (v validate_ephemeral_resource_config::Request [type_name] { config: EphemeralResource }) (o validate_ephemeral_resource_config::Response);
    [tfplugin5 tfplugin6] "Provider" OpenEphemeralResource (v open_ephemeral_resource::Request [type_name] { config: EphemeralResource }) (v open_ephemeral_resource::Response [] { result: EphemeralResource });
    [tfplugin5 tfplugin6] "Provider" RenewEphemeralResource (o renew_ephemeral_resource::Request) (o renew_ephemeral_resource::Response);
    [tfplugin5 tfplugin6] "Provider" CloseEphemeralResource (o close_ephemeral_resource::Request) (o close_ephemeral_resource::Response);
    [tfplugin5 tfplugin6] "Provider" ListResource (v list_resource::Request [type_name] { config: ListResource }) (v list_resource::Event [] { identity: Identity, resource_object: Resource });
    [tfplugin5 tfplugin6] "Provider" ValidateListResourceConfig (v validate_list_resource_config::Request [type_name] { config: ListResource, include_resource_object: Bool, limit: Number }) (o validate_list_resource_config::Response);
    [tfplugin5 tfplugin6] "Provider" GetFunctions (o get_functions::Request) (o get_functions::Response);
    [tfplugin5 tfplugin6] "Provider" CallFunction (v call_function::Request [name] { arguments: [FunctionArgument] }) (v call_function::Response [] { result: FunctionResult });
    [tfplugin5 tfplugin6] "Provider" ValidateActionConfig (v validate_action_config::Request [action_type] { config: Action }) (o validate_action_config::Response);
    [tfplugin5 tfplugin6] "Provider" PlanAction (v plan_action::Request [action_type] { config: Action }) (o plan_action::Response);
    [tfplugin5 tfplugin6] "Provider" InvokeAction (v invoke_action::Request [action_type] { config: Action }) (o invoke_action::Event);
    [tfplugin6] "Provider" ValidateStateStoreConfig (v validate_state_store_config::Request [type_name] { config: StateStore }) (o validate_state_store_config::Response);
    [tfplugin6] "Provider" ConfigureStateStore (v configure_state_store::Request [type_name] { config: StateStore }) (o configure_state_store::Response);
    [tfplugin6] "Provider" ReadStateBytes (o read_state_bytes::Request) (o read_state_bytes::ResponseChunk);
    [tfplugin6] "Provider" WriteStateBytes (o write_state_bytes::RequestChunk) (o write_state_bytes::Response);
    [tfplugin6] "Provider" LockState (o lock_state::Request) (o lock_state::Response);
    [tfplugin6] "Provider" UnlockState (o unlock_state::Request) (o unlock_state::Response);
    [tfplugin6] "Provider" GetStates (o get_states::Request) (o get_states::Response);
    [tfplugin6] "Provider" DeleteState (o delete_state::Request) (o delete_state::Response);
    [tfplugin5] "Provider" Stop (o stop::Request) (o stop::Response);
    [tfplugin6] "Provider" StopProvider (o stop_provider::Request) (o stop_provider::Response);
    [tfplugin5] "Provisioner" GetSchema (o get_provisioner_schema::Request) (o get_provisioner_schema::Response);
    [tfplugin5] "Provisioner" ValidateProvisionerConfig (v validate_provisioner_config::Request [] { config: Provisioner }) (o validate_provisioner_config::Response);
    [tfplugin5] "Provisioner" ProvisionResource (v provision_resource::Request [] { config: Provisioner, connection: ProvisionerConnection }) (o provision_resource::Response);
    [tfplugin5] "Provisioner" Stop (o stop::Request) (o stop::Response);
}

impl Method {
    /// The method at a gRPC path (`/tfplugin6.Provider/PlanResourceChange`), if it is one of
    /// the plugin protocol's.
    pub fn from_path(path: &str) -> Option<Method> {
        METHODS.iter().position(|m| m.1 == path).map(Method::at)
    }

    /// The protocol's method called `name` (`PlanResourceChange`; `GetSchema` is the
    /// provider's, not the provisioner's).
    pub fn from_name(protocol: Protocol, name: &str) -> Option<Method> {
        METHODS
            .iter()
            .position(|m| m.0 == protocol && m.2 == name)
            .map(Method::at)
    }

    /// Every method of both protocols: protocol 5's, then protocol 6's, each in the order of
    /// its `.proto` services.
    pub fn all() -> impl Iterator<Item = Method> {
        let of = |p: Protocol| (0..METHODS.len()).filter(move |&i| METHODS[i].0 == p);
        of(Protocol::V5).chain(of(Protocol::V6)).map(Method::at)
    }

    fn at(i: usize) -> Method {
        let m = &METHODS[i];
        Method {
            protocol: m.0,
            path: m.1,
            name: m.2,
            index: u8::try_from(i).expect("fewer than 256 methods"),
        }
    }

    /// What the `DynamicValue` field `name` (`index`: its element in a repeated field) of
    /// this method's `direction` message is decoded with, in a call of `call` (the request's
    /// type name, [`DynamicValues::type_name`]); `None` when that message has no such field.
    /// The field names are [`crate::Field::name`]'s (streamed events are responses).
    ///
    /// ```
    /// use tfwire::schema::Protocol;
    /// use tfwire_plugin::SchemaRef;
    /// use tfwire_plugin::rpc::{Direction, Method};
    /// let list = Method::from_name(Protocol::V6, "ListResource").unwrap();
    /// assert_eq!(
    ///     list.field_schema(Direction::Response, "identity", None, "x_thing"),
    ///     Some(SchemaRef::Identity("x_thing")),
    /// );
    /// assert_eq!(list.field_schema(Direction::Request, "identity", None, "x_thing"), None);
    /// ```
    pub fn field_schema<'c>(
        &self,
        direction: Direction,
        name: &str,
        index: Option<usize>,
        call: &'c str,
    ) -> Option<SchemaRef<'c>> {
        let m = &METHODS[usize::from(self.index)];
        match direction {
            Direction::Request => (m.5)(name, index, call),
            Direction::Response => (m.6)(name, index, call),
        }
    }

    /// Decodes one frame (a protobuf message, without gRPC's 5-byte prefix) of this method.
    /// `bytes` fields slice `frame`: nothing is copied.
    pub fn decode(
        &self,
        direction: Direction,
        frame: Bytes,
    ) -> Result<Message, prost::DecodeError> {
        let m = &METHODS[usize::from(self.index)];
        match direction {
            Direction::Request => (m.3)(frame),
            Direction::Response => (m.4)(frame),
        }
    }
}

/// Decodes one frame of the method at `path`: `None` for a method this crate does not know.
pub fn decode(
    path: &str,
    direction: Direction,
    frame: Bytes,
) -> Option<Result<Message, prost::DecodeError>> {
    Method::from_path(path).map(|m| m.decode(direction, frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method path of the generated clients (read from the generated code itself) is
    /// in the table, and the table has no other.
    #[test]
    fn table_matches_generated_services() {
        let mut generated = std::collections::BTreeSet::new();
        for src in [
            include_str!(concat!(env!("OUT_DIR"), "/tfplugin5.rs")),
            include_str!(concat!(env!("OUT_DIR"), "/tfplugin6.rs")),
        ] {
            for part in src.split('"').skip(1).step_by(2) {
                if part.starts_with("/tfplugin") {
                    generated.insert(part);
                }
            }
        }
        let table: std::collections::BTreeSet<_> = Method::all().map(|m| m.path).collect();
        assert_eq!(generated, table);
    }

    #[test]
    fn lookups() {
        for p in [
            "/tfplugin5.Provider/GetSchema",
            "/tfplugin5.Provisioner/GetSchema",
            "/tfplugin6.Provider/StopProvider",
        ] {
            assert_eq!(Method::from_path(p).map(|m| m.path), Some(p));
        }
        assert!(Method::from_path("/plugin.GRPCStdio/StreamStdio").is_none());
        let names: std::collections::HashSet<_> = Method::all().map(|m| m.path).collect();
        assert_eq!(names.len(), METHODS.len(), "paths are unique");
    }
}
