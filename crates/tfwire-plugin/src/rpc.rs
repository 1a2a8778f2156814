//! The plugin protocol's methods by gRPC path, and the `DynamicValue`s of their frames.
//!
//! A proxy that forwards raw frames looks the method up by the request's path
//! ([`Method::from_path`]) and decodes a frame only when it wants its values
//! ([`decode`]); an unknown method is simply not decoded.

use crate::values::{DynamicValues, SchemaRef};
use bytes::Bytes;
use prost::Message as _;
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

macro_rules! methods {
    ($($proto:ident $service:literal $pkg:ident $name:ident ($req:tt $($rq:ident)::+) ($resp:tt $($rs:ident)::+);)*) => {
        /// Every method: (protocol, service, name, decode request, decode response, the
        /// request's field schemas, the response's).
        const METHODS: &[(Protocol, &str, &str, Decode, Decode, SchemaOf, SchemaOf)] = &[
            $((
                Protocol::$proto,
                concat!("/", stringify!($pkg), ".", $service, "/", stringify!($name)),
                stringify!($name),
                methods!(@d $req $pkg $($rq)::+),
                methods!(@d $resp $pkg $($rs)::+),
                methods!(@s $req $pkg $($rq)::+),
                methods!(@s $resp $pkg $($rs)::+),
            ),)*
        ];
    };
    (@s v $pkg:ident $($m:ident)::+) => { <crate::$pkg::$($m)::+ as DynamicValues>::schema_of };
    (@s $other:ident $pkg:ident $($m:ident)::+) => { no_values };
    (@d v $pkg:ident $($m:ident)::+) => { values::<crate::$pkg::$($m)::+> };
    (@d o $pkg:ident $($m:ident)::+) => { other::<crate::$pkg::$($m)::+> };
    (@d schema $pkg:ident $($m:ident)::+) => {
        |b| Ok(Message::ProviderSchema(Box::new(
            ProviderSchema::try_from(&crate::$pkg::$($m)::+::decode(b)?)),
        ))
    };
    (@d ids $pkg:ident $($m:ident)::+) => {
        |b| {
            let r = crate::$pkg::$($m)::+::decode(b)?;
            Ok(Message::IdentitySchemas(methods!(@ids $pkg r)))
        }
    };
    (@ids tfplugin5 $r:ident) => { crate::schema::identities_v5(&$r) };
    (@ids tfplugin6 $r:ident) => { crate::schema::identities_v6(&$r) };
}

methods! {
    V5 "Provider" tfplugin5 GetMetadata (o get_metadata::Request) (o get_metadata::Response);
    V5 "Provider" tfplugin5 GetSchema (o get_provider_schema::Request) (schema get_provider_schema::Response);
    V5 "Provider" tfplugin5 GetResourceIdentitySchemas (o get_resource_identity_schemas::Request) (ids get_resource_identity_schemas::Response);
    V5 "Provider" tfplugin5 PrepareProviderConfig (v prepare_provider_config::Request) (v prepare_provider_config::Response);
    V5 "Provider" tfplugin5 ValidateResourceTypeConfig (v validate_resource_type_config::Request) (o validate_resource_type_config::Response);
    V5 "Provider" tfplugin5 ValidateDataSourceConfig (v validate_data_source_config::Request) (o validate_data_source_config::Response);
    V5 "Provider" tfplugin5 UpgradeResourceState (v upgrade_resource_state::Request) (v upgrade_resource_state::Response);
    V5 "Provider" tfplugin5 UpgradeResourceIdentity (v upgrade_resource_identity::Request) (v upgrade_resource_identity::Response);
    V5 "Provider" tfplugin5 Configure (v configure::Request) (o configure::Response);
    V5 "Provider" tfplugin5 ReadResource (v read_resource::Request) (v read_resource::Response);
    V5 "Provider" tfplugin5 PlanResourceChange (v plan_resource_change::Request) (v plan_resource_change::Response);
    V5 "Provider" tfplugin5 ApplyResourceChange (v apply_resource_change::Request) (v apply_resource_change::Response);
    V5 "Provider" tfplugin5 ImportResourceState (v import_resource_state::Request) (v import_resource_state::Response);
    V5 "Provider" tfplugin5 MoveResourceState (v move_resource_state::Request) (v move_resource_state::Response);
    V5 "Provider" tfplugin5 ReadDataSource (v read_data_source::Request) (v read_data_source::Response);
    V5 "Provider" tfplugin5 GenerateResourceConfig (v generate_resource_config::Request) (v generate_resource_config::Response);
    V5 "Provider" tfplugin5 ValidateEphemeralResourceConfig (v validate_ephemeral_resource_config::Request) (o validate_ephemeral_resource_config::Response);
    V5 "Provider" tfplugin5 OpenEphemeralResource (v open_ephemeral_resource::Request) (v open_ephemeral_resource::Response);
    V5 "Provider" tfplugin5 RenewEphemeralResource (o renew_ephemeral_resource::Request) (o renew_ephemeral_resource::Response);
    V5 "Provider" tfplugin5 CloseEphemeralResource (o close_ephemeral_resource::Request) (o close_ephemeral_resource::Response);
    V5 "Provider" tfplugin5 ListResource (v list_resource::Request) (v list_resource::Event);
    V5 "Provider" tfplugin5 ValidateListResourceConfig (v validate_list_resource_config::Request) (o validate_list_resource_config::Response);
    V5 "Provider" tfplugin5 GetFunctions (o get_functions::Request) (o get_functions::Response);
    V5 "Provider" tfplugin5 CallFunction (v call_function::Request) (v call_function::Response);
    V5 "Provider" tfplugin5 ValidateActionConfig (v validate_action_config::Request) (o validate_action_config::Response);
    V5 "Provider" tfplugin5 PlanAction (v plan_action::Request) (o plan_action::Response);
    V5 "Provider" tfplugin5 InvokeAction (v invoke_action::Request) (o invoke_action::Event);
    V5 "Provider" tfplugin5 Stop (o stop::Request) (o stop::Response);
    V5 "Provisioner" tfplugin5 GetSchema (o get_provisioner_schema::Request) (o get_provisioner_schema::Response);
    V5 "Provisioner" tfplugin5 ValidateProvisionerConfig (v validate_provisioner_config::Request) (o validate_provisioner_config::Response);
    V5 "Provisioner" tfplugin5 ProvisionResource (v provision_resource::Request) (o provision_resource::Response);
    V5 "Provisioner" tfplugin5 Stop (o stop::Request) (o stop::Response);
    V6 "Provider" tfplugin6 GetMetadata (o get_metadata::Request) (o get_metadata::Response);
    V6 "Provider" tfplugin6 GetProviderSchema (o get_provider_schema::Request) (schema get_provider_schema::Response);
    V6 "Provider" tfplugin6 GetResourceIdentitySchemas (o get_resource_identity_schemas::Request) (ids get_resource_identity_schemas::Response);
    V6 "Provider" tfplugin6 ValidateProviderConfig (v validate_provider_config::Request) (o validate_provider_config::Response);
    V6 "Provider" tfplugin6 ValidateResourceConfig (v validate_resource_config::Request) (o validate_resource_config::Response);
    V6 "Provider" tfplugin6 ValidateDataResourceConfig (v validate_data_resource_config::Request) (o validate_data_resource_config::Response);
    V6 "Provider" tfplugin6 UpgradeResourceState (v upgrade_resource_state::Request) (v upgrade_resource_state::Response);
    V6 "Provider" tfplugin6 UpgradeResourceIdentity (v upgrade_resource_identity::Request) (v upgrade_resource_identity::Response);
    V6 "Provider" tfplugin6 ConfigureProvider (v configure_provider::Request) (o configure_provider::Response);
    V6 "Provider" tfplugin6 ReadResource (v read_resource::Request) (v read_resource::Response);
    V6 "Provider" tfplugin6 PlanResourceChange (v plan_resource_change::Request) (v plan_resource_change::Response);
    V6 "Provider" tfplugin6 ApplyResourceChange (v apply_resource_change::Request) (v apply_resource_change::Response);
    V6 "Provider" tfplugin6 ImportResourceState (v import_resource_state::Request) (v import_resource_state::Response);
    V6 "Provider" tfplugin6 MoveResourceState (v move_resource_state::Request) (v move_resource_state::Response);
    V6 "Provider" tfplugin6 ReadDataSource (v read_data_source::Request) (v read_data_source::Response);
    V6 "Provider" tfplugin6 GenerateResourceConfig (v generate_resource_config::Request) (v generate_resource_config::Response);
    V6 "Provider" tfplugin6 ValidateEphemeralResourceConfig (v validate_ephemeral_resource_config::Request) (o validate_ephemeral_resource_config::Response);
    V6 "Provider" tfplugin6 OpenEphemeralResource (v open_ephemeral_resource::Request) (v open_ephemeral_resource::Response);
    V6 "Provider" tfplugin6 RenewEphemeralResource (o renew_ephemeral_resource::Request) (o renew_ephemeral_resource::Response);
    V6 "Provider" tfplugin6 CloseEphemeralResource (o close_ephemeral_resource::Request) (o close_ephemeral_resource::Response);
    V6 "Provider" tfplugin6 ListResource (v list_resource::Request) (v list_resource::Event);
    V6 "Provider" tfplugin6 ValidateListResourceConfig (v validate_list_resource_config::Request) (o validate_list_resource_config::Response);
    V6 "Provider" tfplugin6 GetFunctions (o get_functions::Request) (o get_functions::Response);
    V6 "Provider" tfplugin6 CallFunction (v call_function::Request) (v call_function::Response);
    V6 "Provider" tfplugin6 ValidateActionConfig (v validate_action_config::Request) (o validate_action_config::Response);
    V6 "Provider" tfplugin6 PlanAction (v plan_action::Request) (o plan_action::Response);
    V6 "Provider" tfplugin6 InvokeAction (v invoke_action::Request) (o invoke_action::Event);
    V6 "Provider" tfplugin6 ValidateStateStoreConfig (v validate_state_store_config::Request) (o validate_state_store_config::Response);
    V6 "Provider" tfplugin6 ConfigureStateStore (v configure_state_store::Request) (o configure_state_store::Response);
    V6 "Provider" tfplugin6 ReadStateBytes (o read_state_bytes::Request) (o read_state_bytes::ResponseChunk);
    V6 "Provider" tfplugin6 WriteStateBytes (o write_state_bytes::RequestChunk) (o write_state_bytes::Response);
    V6 "Provider" tfplugin6 LockState (o lock_state::Request) (o lock_state::Response);
    V6 "Provider" tfplugin6 UnlockState (o unlock_state::Request) (o unlock_state::Response);
    V6 "Provider" tfplugin6 GetStates (o get_states::Request) (o get_states::Response);
    V6 "Provider" tfplugin6 DeleteState (o delete_state::Request) (o delete_state::Response);
    V6 "Provider" tfplugin6 StopProvider (o stop_provider::Request) (o stop_provider::Response);
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

    /// Every method of both protocols.
    pub fn all() -> impl Iterator<Item = Method> {
        (0..METHODS.len()).map(Method::at)
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
