//! The proxy between a client and a provider (both in this process, on 127.0.0.1): calls
//! pass through unchanged, known or not; every frame reaches the observer, and its values
//! decode with the schema the provider sent.

use bytes::Bytes;
use std::sync::Mutex;
use tfwire_plugin::Programs;
use tfwire_plugin::proxy::{Forward, Frame, Observer, RawCodec};
use tfwire_plugin::rpc::{Direction, Message, Method};
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tfplugin6::provider_server::{Provider, ProviderServer};
use tfwire_plugin::tfplugin6::{
    Diagnostic, DynamicValue, Schema, get_provider_schema, plan_resource_change, read_state_bytes,
    schema, write_state_bytes,
};
use tonic::codegen::BoxStream;
use tonic::{Request, Response, Status, Streaming};

/// A provider with one resource type, `db {name, password (sensitive)}`, that plans the
/// proposed state as is, and a state store whose state `id` reads as three chunks (a server
/// stream) and that answers a write (a client stream) with the bytes it got, in a
/// diagnostic's summary.
struct Fake;

#[tonic::async_trait]
impl Provider for Fake {
    async fn get_provider_schema(
        &self,
        _: Request<get_provider_schema::Request>,
    ) -> Result<Response<get_provider_schema::Response>, Status> {
        let attr = |name: &str, sensitive| schema::Attribute {
            name: name.into(),
            r#type: Bytes::from_static(b"\"string\""),
            optional: true,
            sensitive,
            ..Default::default()
        };
        let mut r = get_provider_schema::Response::default();
        r.resource_schemas.insert(
            "db".into(),
            Schema {
                version: 0,
                block: Some(schema::Block {
                    attributes: vec![attr("name", false), attr("password", true)],
                    ..Default::default()
                }),
            },
        );
        Ok(Response::new(r))
    }

    async fn plan_resource_change(
        &self,
        req: Request<plan_resource_change::Request>,
    ) -> Result<Response<plan_resource_change::Response>, Status> {
        Ok(Response::new(plan_resource_change::Response {
            planned_state: req.into_inner().proposed_new_state,
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

#[derive(Default)]
struct Record(Mutex<Vec<(String, Direction, Bytes, u64)>>);

impl Observer for Record {
    fn frame(&self, f: Frame<'_>) {
        self.0
            .lock()
            .unwrap()
            .push((f.method.to_owned(), f.direction, f.message.clone(), f.call));
    }
}

async fn listen() -> (tokio::net::TcpListener, String) {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = format!("http://{}", l.local_addr().unwrap());
    (l, addr)
}

#[tokio::test]
async fn calls_pass_through_and_every_frame_is_observed() {
    let (up, up_addr) = listen().await;
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(ProviderServer::new(Fake))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(up)),
    );
    let upstream = tonic::transport::Endpoint::from_shared(up_addr)
        .unwrap()
        .connect_lazy();
    let forward = Forward::new(upstream, Record::default());
    let record = forward.observer().clone();
    let (px, px_addr) = listen().await;
    tokio::spawn(tfwire_plugin::proxy::serve(px, forward));

    let channel = tonic::transport::Endpoint::from_shared(px_addr.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = ProviderClient::new(channel.clone());
    let schema = client
        .get_provider_schema(get_provider_schema::Request {})
        .await
        .unwrap()
        .into_inner();
    assert!(schema.resource_schemas.contains_key("db"));
    // {"name": "a", "password": "pw-secret"}
    let state = Bytes::from_static(b"\x82\xa4name\xa1a\xa8password\xa9pw-secret");
    let planned = client
        .plan_resource_change(plan_resource_change::Request {
            type_name: "db".into(),
            proposed_new_state: Some(DynamicValue {
                msgpack: state.clone(),
                json: Bytes::new(),
            }),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(planned.planned_state.unwrap().msgpack, state);

    // A method the provider does not have: its answer comes back through the proxy.
    let mut raw = tonic::client::Grpc::new(channel);
    raw.ready().await.unwrap();
    let e = raw
        .unary(
            Request::new(Bytes::new()),
            "/tfplugin6.Provider/NoSuchMethod".parse().unwrap(),
            RawCodec,
        )
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unimplemented, "{e}");

    // What the observer saw: both calls, both ways, decodable with the provider's schema.
    let frames = record.0.lock().unwrap().clone();
    let seen: Vec<(&str, Direction)> = frames.iter().map(|f| (f.0.as_str(), f.1)).collect();
    assert_eq!(
        &seen[..4],
        [
            ("/tfplugin6.Provider/GetProviderSchema", Direction::Request),
            ("/tfplugin6.Provider/GetProviderSchema", Direction::Response),
            ("/tfplugin6.Provider/PlanResourceChange", Direction::Request),
            (
                "/tfplugin6.Provider/PlanResourceChange",
                Direction::Response
            ),
        ]
    );
    let m = Method::from_path(&frames[1].0).unwrap();
    let Message::ProviderSchema(schemas) =
        m.decode(Direction::Response, frames[1].2.clone()).unwrap()
    else {
        panic!("a schema")
    };
    let programs = Programs::new((*schemas).clone().unwrap());
    let arena = bumpalo::Bump::new();
    let mut decoder = tfwire::Decoder::default();
    let m = Method::from_path(&frames[2].0).unwrap();
    let Message::Values(request) = m.decode(Direction::Request, frames[2].2.clone()).unwrap()
    else {
        panic!("values")
    };
    let mut lines = Vec::new();
    request.dynamic_values("", &mut |f| {
        lines.push(programs.redacted_json(&mut decoder, &arena, f.schema, f.value));
    });
    assert_eq!(
        lines,
        [tfwire_plugin::log::Outcome::Value(
            r#"{"name":"a","password":"(sensitive)"}"#.into()
        )]
    );
    // With a mask, the attribute no schema marks is hidden the same way.
    let mut masks = tfwire::mask::Masks::new();
    masks.add("name").unwrap();
    let masked = Programs::new((*schemas).clone().unwrap()).with_masks(masks);
    let mut lines = Vec::new();
    request.dynamic_values("", &mut |f| {
        lines.push(masked.redacted_json(&mut decoder, &arena, f.schema, f.value));
    });
    assert_eq!(
        lines,
        [tfwire_plugin::log::Outcome::Value(
            r#"{"name":"(sensitive)","password":"(sensitive)"}"#.into()
        )]
    );
    assert_eq!(
        frames[2].3, frames[3].3,
        "a response carries its request's call number"
    );
}

/// The streams of the protocol pass through too: a server stream (ReadStateBytes, the shape of
/// ListResource and InvokeAction) and a client stream (WriteStateBytes), every message in
/// order, each seen by the observer as one frame of its call.
#[tokio::test]
async fn server_and_client_streams_pass_through() {
    let (up, up_addr) = listen().await;
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(ProviderServer::new(Fake))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(up)),
    );
    let upstream = tonic::transport::Endpoint::from_shared(up_addr)
        .unwrap()
        .connect_lazy();
    let forward = Forward::new(upstream, Record::default());
    let record = forward.observer().clone();
    let (px, px_addr) = listen().await;
    tokio::spawn(tfwire_plugin::proxy::serve(px, forward));
    let channel = tonic::transport::Endpoint::from_shared(px_addr)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = ProviderClient::new(channel);

    let mut read = client
        .read_state_bytes(read_state_bytes::Request {
            type_name: "store".into(),
            state_id: "s1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut state = Vec::new();
    while let Some(chunk) = read.message().await.unwrap() {
        state.extend_from_slice(&chunk.bytes);
    }
    assert_eq!(state, br#"{"id":s1}"#);

    let chunks = ["{\"serial\":", "7", "}"].map(|b| write_state_bytes::RequestChunk {
        bytes: Bytes::from_static(b.as_bytes()),
        ..Default::default()
    });
    let written = client
        .write_state_bytes(tokio_stream::iter(chunks))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(written.diagnostics[0].summary, r#"{"serial":7}"#);

    // Every message a frame: one request and three response chunks, then three request
    // chunks and one response, each stream's frames with one call number.
    let frames = record.0.lock().unwrap().clone();
    let seen: Vec<(&str, Direction)> = frames.iter().map(|f| (f.0.as_str(), f.1)).collect();
    let (read_path, write_path) = (
        "/tfplugin6.Provider/ReadStateBytes",
        "/tfplugin6.Provider/WriteStateBytes",
    );
    use Direction::{Request as Rq, Response as Rs};
    assert_eq!(
        seen,
        [
            (read_path, Rq),
            (read_path, Rs),
            (read_path, Rs),
            (read_path, Rs),
            (write_path, Rq),
            (write_path, Rq),
            (write_path, Rq),
            (write_path, Rs),
        ]
    );
    assert!(frames[..4].iter().all(|f| f.3 == frames[0].3));
    assert!(frames[4..].iter().all(|f| f.3 == frames[4].3));
    assert_ne!(frames[0].3, frames[4].3);
    // Each frame decodes as its method's message.
    for f in &frames {
        let m = Method::from_path(&f.0).unwrap();
        m.decode(f.1, f.2.clone())
            .unwrap_or_else(|e| panic!("{} {:?}: {e}", f.0, f.1));
    }
}
