#![forbid(unsafe_code)]
//! Test support shared by the tap tests of `tfwire-plugin` and `tfwire-cli` (unpublished):
//! a fake protocol 6 provider ([`Fake`]), its schema ([`db_schema`], [`attribute`]), an
//! observer that records every frame ([`Record`]) and a proxy between a client and the fake
//! provider in this process ([`through_proxy`]).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use tfwire_plugin::tfplugin6::{get_provider_schema, provider_client::ProviderClient};
//! use tfwire_tap_testkit::{Record, through_proxy};
//! let (channel, record) = through_proxy(Record::default()).await;
//! let schema = ProviderClient::new(channel)
//!     .get_provider_schema(get_provider_schema::Request {})
//!     .await
//!     .unwrap();
//! assert!(schema.into_inner().resource_schemas.contains_key("db"));
//! assert_eq!(record.0.lock().unwrap().len(), 2, "a request and its response");
//! # }
//! ```

use bytes::Bytes;
use std::sync::{Arc, Mutex};
use tfwire_plugin::proxy::{Forward, Frame, Observer};
use tfwire_plugin::rpc::Direction;
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tfplugin6::provider_server::{Provider, ProviderServer};
use tfwire_plugin::tfplugin6::{
    Diagnostic, DynamicValue, Schema, get_provider_schema, plan_resource_change, read_state_bytes,
    schema, write_state_bytes,
};
use tonic::codegen::BoxStream;
use tonic::transport::Channel;
use tonic::{Request, Response, Status, Streaming};

/// An optional attribute of type `ty` (its type JSON: `b"\"string\""`).
pub fn attribute(name: &str, ty: &'static [u8], sensitive: bool) -> schema::Attribute {
    schema::Attribute {
        name: name.into(),
        r#type: Bytes::from_static(ty),
        optional: true,
        sensitive,
        ..Default::default()
    }
}

/// A `GetProviderSchema` response with one resource type, `db`, of these attributes.
pub fn schema_of(attributes: Vec<schema::Attribute>) -> get_provider_schema::Response {
    let mut r = get_provider_schema::Response::default();
    r.resource_schemas.insert(
        "db".into(),
        Schema {
            version: 0,
            block: Some(schema::Block {
                attributes,
                ..Default::default()
            }),
        },
    );
    r
}

/// [`Fake`]'s schema: resource `db {name, password (sensitive)}`, both optional strings.
pub fn db_schema() -> get_provider_schema::Response {
    schema_of(vec![
        attribute("name", b"\"string\"", false),
        attribute("password", b"\"string\"", true),
    ])
}

/// A provider with one resource type ([`db_schema`]) that plans the proposed state (or, when
/// the request has none, the configuration) as is, and a state store whose state `id` reads
/// as three chunks (a server stream) and that answers a write (a client stream) with the
/// bytes it got, in a diagnostic's summary.
pub struct Fake;

#[tonic::async_trait]
impl Provider for Fake {
    async fn get_provider_schema(
        &self,
        _: Request<get_provider_schema::Request>,
    ) -> Result<Response<get_provider_schema::Response>, Status> {
        Ok(Response::new(db_schema()))
    }

    async fn plan_resource_change(
        &self,
        req: Request<plan_resource_change::Request>,
    ) -> Result<Response<plan_resource_change::Response>, Status> {
        let req = req.into_inner();
        Ok(Response::new(plan_resource_change::Response {
            planned_state: req.proposed_new_state.or(req.config),
            ..Default::default()
        }))
    }

    async fn read_state_bytes(
        &self,
        req: Request<read_state_bytes::Request>,
    ) -> Result<Response<BoxStream<read_state_bytes::ResponseChunk>>, Status> {
        let id = req.into_inner().state_id;
        let chunks: Vec<Result<read_state_bytes::ResponseChunk, Status>> =
            [&b"{\"id\":"[..], id.as_bytes(), b"}"]
                .into_iter()
                .map(|b| {
                    Ok(read_state_bytes::ResponseChunk {
                        bytes: Bytes::copy_from_slice(b),
                        ..Default::default()
                    })
                })
                .collect();
        Ok(Response::new(Box::pin(tokio_stream::iter(chunks))))
    }

    async fn write_state_bytes(
        &self,
        req: Request<Streaming<write_state_bytes::RequestChunk>>,
    ) -> Result<Response<write_state_bytes::Response>, Status> {
        let mut chunks = req.into_inner();
        let mut got = Vec::new();
        while let Some(chunk) = chunks.message().await? {
            got.extend_from_slice(&chunk.bytes);
        }
        Ok(Response::new(write_state_bytes::Response {
            diagnostics: vec![Diagnostic {
                summary: String::from_utf8_lossy(&got).into_owned(),
                ..Default::default()
            }],
        }))
    }
}

/// [`Fake`] as a tonic service.
pub fn fake() -> ProviderServer<Fake> {
    ProviderServer::new(Fake)
}

/// An observer that records every frame: method, direction, message, call number.
#[derive(Default)]
pub struct Record(pub Mutex<Vec<(String, Direction, Bytes, u64)>>);

impl Observer for Record {
    fn frame(&self, f: Frame<'_>) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push((
            f.method.to_owned(),
            f.direction,
            f.message.clone(),
            f.call,
        ));
    }
}

async fn listen() -> (tokio::net::TcpListener, String) {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port on 127.0.0.1");
    let addr = format!("http://{}", l.local_addr().expect("its address"));
    (l, addr)
}

/// [`Fake`] on 127.0.0.1, a proxy in front of it showing every frame to `observer`, and a
/// channel to the proxy; with the observer, shared with the proxy. Runs on the current tokio
/// runtime.
pub async fn through_proxy<O: Observer>(observer: O) -> (Channel, Arc<O>) {
    let (up, up_addr) = listen().await;
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(fake())
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(up)),
    );
    let upstream = tonic::transport::Endpoint::from_shared(up_addr)
        .expect("an address")
        .connect_lazy();
    let forward = Forward::new(upstream, observer);
    let shared = forward.observer().clone();
    let (px, px_addr) = listen().await;
    tokio::spawn(tfwire_plugin::proxy::serve(px, forward));
    let channel = tonic::transport::Endpoint::from_shared(px_addr)
        .expect("an address")
        .connect()
        .await
        .expect("the proxy answers");
    (channel, shared)
}

/// What a client does first through a tap: asks `channel` for the schema (which must have
/// [`Fake`]'s resource `db`), then plans a `db` whose `value` (MessagePack) is the
/// configuration (`config`) or the proposed new state; returns the planned state's bytes.
pub async fn schema_then_plan(channel: Channel, value: Bytes, config: bool) -> Option<Bytes> {
    let mut client = ProviderClient::new(channel);
    let schema = client
        .get_provider_schema(get_provider_schema::Request {})
        .await
        .expect("the schema")
        .into_inner();
    assert!(schema.resource_schemas.contains_key("db"));
    let value = Some(DynamicValue {
        msgpack: value,
        json: Bytes::new(),
    });
    let mut request = plan_resource_change::Request {
        type_name: "db".into(),
        ..Default::default()
    };
    if config {
        request.config = value;
    } else {
        request.proposed_new_state = value;
    }
    let planned = client
        .plan_resource_change(request)
        .await
        .expect("the plan")
        .into_inner();
    planned.planned_state.map(|v| v.msgpack)
}
