//! The proxy between a client and a provider (both in this process, on 127.0.0.1): calls
//! pass through unchanged, known or not; every frame reaches the observer, and its values
//! decode with the schema the provider sent. The provider is the tap tests' fake
//! (`tfwire-tap-testkit`).

use bytes::Bytes;
use tfwire_plugin::Programs;
use tfwire_plugin::proxy::RawCodec;
use tfwire_plugin::rpc::{Direction, Message, Method};
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tfplugin6::write_state_bytes;
use tfwire_tap_testkit::{Record, schema_then_plan, through_proxy};
use tonic::Request;

#[tokio::test]
async fn calls_pass_through_and_every_frame_is_observed() {
    let (channel, record) = through_proxy(Record::default()).await;
    // {"name": "a", "password": "pw-secret"}
    let state = Bytes::from_static(b"\x82\xa4name\xa1a\xa8password\xa9pw-secret");
    let planned = schema_then_plan(channel.clone(), state.clone(), false).await;
    assert_eq!(planned, Some(state));

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
    let (channel, record) = through_proxy(Record::default()).await;
    let mut client = ProviderClient::new(channel);

    let state = crate::read_store_state(&mut client).await;
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
