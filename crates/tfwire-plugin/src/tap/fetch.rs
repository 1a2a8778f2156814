//! The tap asking a provider for its schema.

use crate::rpc::{Direction, Message, Method};
use bytes::Bytes;
use tfwire::schema::{Protocol, ProviderSchema};
use tonic::client::Grpc;
use tonic::transport::Channel;

/// Asks the provider at `channel` (speaking `protocol`) for its schema and its resource
/// identity schemas, and converts them as a response seen on the wire is converted
/// ([`Method::decode`]). The identity schemas are optional (a provider that does not know
/// the call has none).
///
/// Both protocols' requests are empty messages, and the responses are read as raw frames
/// decoded by the method of the provider's protocol: one fetch serves both.
///
/// # Errors
///
/// The gRPC status of the schema call, or why its answer does not convert, as one line.
pub async fn fetch_schemas(channel: Channel, protocol: Protocol) -> Result<ProviderSchema, String> {
    let method =
        |name| Method::from_name(protocol, name).ok_or_else(|| format!("no method {name}"));
    let schema = method(match protocol {
        Protocol::V5 => "GetSchema",
        Protocol::V6 => "GetProviderSchema",
    })?;
    let identities = method("GetResourceIdentitySchemas")?;
    let mut grpc = Grpc::new(channel);
    let e = |e: tonic::Status| format!("GetProviderSchema: {}", e.message());
    let frame = call(&mut grpc, schema.path).await.map_err(e)?;
    let mut schemas = match schema.decode(Direction::Response, frame) {
        Ok(Message::ProviderSchema(s)) => (*s).map_err(|e| format!("provider schema: {e}"))?,
        Ok(_) => return Err("GetProviderSchema: an unexpected message".into()),
        Err(e) => return Err(format!("GetProviderSchema: {e}")),
    };
    if let Ok(frame) = call(&mut grpc, identities.path).await
        && let Ok(Message::IdentitySchemas(Ok(ids))) = identities.decode(Direction::Response, frame)
    {
        schemas.identities = ids;
    }
    Ok(schemas)
}

/// One unary call of `path` with an empty request message (both schema calls' requests have
/// no fields), the response kept as its raw frame.
pub(crate) async fn call(
    grpc: &mut Grpc<Channel>,
    path: &'static str,
) -> Result<Bytes, tonic::Status> {
    grpc.ready()
        .await
        .map_err(|e| tonic::Status::unavailable(e.to_string()))?;
    let path = tonic::codegen::http::uri::PathAndQuery::from_static(path);
    let response = grpc
        .unary(
            tonic::Request::new(Bytes::new()),
            path,
            crate::proxy::RawCodec,
        )
        .await?;
    Ok(response.into_inner())
}
