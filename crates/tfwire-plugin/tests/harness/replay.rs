//! Replaying a cassette in process: a `Replayer` served on a local socket, called with the
//! generated tfplugin6 and tfplugin5 clients. Requests match by value (MessagePack spelled
//! otherwise, JSON instead of MessagePack, maps in another order, refinements spelled
//! otherwise, volatile fields changed); equal calls are answered in recorded order; a request
//! that matches nothing gets an error naming the RPC, the type and the first differing path.

use bytes::Bytes;
use prost::Message as _;
use std::sync::{Arc, Mutex};
use tfwire_plugin::cassette::{Call, CallStatus, Cassette, Session};
use tfwire_plugin::replay::{Mismatch, Replayer, service};
use tfwire_plugin::{tfplugin5, tfplugin6};
use tfwire_tap_testkit::{attribute, schema_of};
use tonic::transport::Channel;

const READ: &str = "/tfplugin6.Provider/ReadResource";
const PLAN: &str = "/tfplugin6.Provider/PlanResourceChange";

/// `db {name: string, password: string (sensitive), tags: map(string), size: number}`.
fn schema() -> Bytes {
    schema_of(vec![
        attribute("name", b"\"string\"", false),
        attribute("password", b"\"string\"", true),
        attribute("size", b"\"number\"", false),
        attribute("tags", b"[\"map\",\"string\"]", false),
    ])
    .encode_to_vec()
    .into()
}

fn dv(msgpack: &[u8]) -> Option<tfplugin6::DynamicValue> {
    Some(tfplugin6::DynamicValue {
        msgpack: Bytes::copy_from_slice(msgpack),
        json: Bytes::new(),
    })
}

/// A db object: name, password, size 1, tags {env = "prod", team = "a"}, in attribute order.
const STATE: &[u8] =
    b"\x84\xa4name\xa1a\xa8password\xa2pw\xa4size\x01\xa4tags\x82\xa3env\xa4prod\xa4team\xa1a";

fn read(state: &[u8]) -> tfplugin6::read_resource::Request {
    tfplugin6::read_resource::Request {
        type_name: "db".into(),
        current_state: dv(state),
        ..Default::default()
    }
}

fn answer(state: &[u8], private: &'static [u8]) -> Bytes {
    tfplugin6::read_resource::Response {
        new_state: dv(state),
        private: Bytes::from_static(private),
        ..Default::default()
    }
    .encode_to_vec()
    .into()
}

fn call(method: &str, request: impl prost::Message, response: Bytes) -> Call {
    Call {
        method: method.into(),
        requests: vec![request.encode_to_vec().into()],
        responses: vec![response],
        status: CallStatus::OK,
    }
}

fn session(calls: Vec<Call>) -> Session {
    Session {
        provider: Some("registry.opentofu.org/acme/db".into()),
        protocol: 6,
        schema: schema(),
        calls,
        ..Default::default()
    }
}

/// Serves `cassette` on a local port; returns a channel to it and the mismatches it logged.
async fn serve(cassette: Cassette) -> (Channel, Arc<Mutex<Vec<Mismatch>>>) {
    let logged = Arc::new(Mutex::new(Vec::new()));
    let l = logged.clone();
    let replay = service(Arc::new(Replayer::new(cassette).unwrap()))
        .on_mismatch(move |m| l.lock().unwrap().push(m.clone()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(
        replay
            .router()
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    (channel, logged)
}

fn v6(channel: Channel) -> tfplugin6::provider_client::ProviderClient<Channel> {
    tfplugin6::provider_client::ProviderClient::new(channel)
}

/// One recorded ReadResource answers requests that carry the same values however they are
/// written: integers in a wider encoding, strings in str8, the map's entries and the
/// object's attributes in another order, JSON instead of MessagePack; the private blob and
/// the client's capabilities are not compared.
#[tokio::test]
async fn same_values_spelled_otherwise_match() {
    let recorded = answer(STATE, b"p1");
    let (channel, logged) = serve(Cassette {
        sessions: vec![session(vec![call(READ, read(STATE), recorded.clone())])],
    })
    .await;
    let mut client = v6(channel);
    let spellings: [&[u8]; 3] = [
        STATE,
        // size as uint8 (0xcc 0x01), name as str8 (0xd9 0x01), tags' entries and the
        // attributes in reverse order.
        b"\x84\xa4tags\x82\xa4team\xa1a\xa3env\xa4prod\xa4size\xcc\x01\xa8password\xa2pw\xa4name\xd9\x01a",
        // size as a float64 1.0.
        b"\x84\xa4name\xa1a\xa8password\xa2pw\xa4size\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00\xa4tags\x82\xa3env\xa4prod\xa4team\xa1a",
    ];
    for state in spellings {
        let mut r = read(state);
        r.private = Bytes::from_static(b"another blob");
        r.client_capabilities = Some(tfplugin6::ClientCapabilities {
            deferral_allowed: true,
            write_only_attributes_allowed: true,
        });
        let got = client.read_resource(r).await.unwrap().into_inner();
        assert_eq!(Bytes::from(got.encode_to_vec()), recorded, "{state:x?}");
    }
    let mut json = read(b"");
    json.current_state = Some(tfplugin6::DynamicValue {
        msgpack: Bytes::new(),
        json: Bytes::from_static(
            br#"{"tags":{"team":"a","env":"prod"},"size":1.0,"password":"pw","name":"a"}"#,
        ),
    });
    let got = client.read_resource(json).await.unwrap().into_inner();
    assert_eq!(Bytes::from(got.encode_to_vec()), recorded);
    assert!(logged.lock().unwrap().is_empty());
}

/// An unknown's refinements match by what they say, not by how the extension's map is
/// written; other refinements do not match.
#[tokio::test]
async fn refinements_spelled_otherwise_match() {
    // {name: unknown (not null, prefix "ab"), password: null, size: null, tags: null}
    let state = |refined: &[u8]| {
        let mut s = b"\x84\xa4name".to_vec();
        s.push(0xc7);
        s.push(u8::try_from(refined.len()).unwrap());
        s.push(0x0c);
        s.extend_from_slice(refined);
        s.extend_from_slice(b"\xa8password\xc0\xa4size\xc0\xa4tags\xc0");
        s
    };
    let recorded = state(b"\x82\x01\xc2\x02\xa2ab");
    let (channel, _) = serve(Cassette {
        sessions: vec![session(vec![call(
            READ,
            read(&recorded),
            answer(&recorded, b""),
        )])],
    })
    .await;
    let mut client = v6(channel);
    // The keys in the other order, the key 1 as a uint8.
    let same = state(b"\x82\x02\xa2ab\xcc\x01\xc2");
    assert!(client.read_resource(read(&same)).await.is_ok());
    let other = state(b"\x82\x01\xc2\x02\xa2ac");
    let e = client.read_resource(read(&other)).await.unwrap_err();
    assert_eq!(
        e.message(),
        "tfwire replay: ReadResource of \"db\": no recorded call matches; the nearest \
         (sessions[0].calls[0]) differs in 1 place, first at current_state.name: expected \
         (known after apply) (not null, prefix \"ab\"), found (known after apply) (not null, \
         prefix \"ac\")"
    );
}

/// Equal requests recorded several times are answered in recorded order, across sessions,
/// then the last answer again; the calls every provider process gets answer in any session.
#[tokio::test]
async fn repeated_calls_answer_in_order() {
    let schema_call = Call {
        method: "/tfplugin6.Provider/GetProviderSchema".into(),
        requests: vec![Bytes::new()],
        responses: vec![schema()],
        status: CallStatus::OK,
    };
    let (channel, _) = serve(Cassette {
        sessions: vec![
            session(vec![
                schema_call.clone(),
                call(READ, read(STATE), answer(STATE, b"first")),
                call(READ, read(STATE), answer(STATE, b"second")),
            ]),
            session(vec![
                schema_call,
                call(READ, read(STATE), answer(STATE, b"third")),
            ]),
        ],
    })
    .await;
    let mut client = v6(channel);
    let mut privates = Vec::new();
    for _ in 0..5 {
        let schema = client
            .get_provider_schema(tfplugin6::get_provider_schema::Request {})
            .await
            .unwrap()
            .into_inner();
        assert!(schema.resource_schemas.contains_key("db"));
        let r = client
            .read_resource(read(STATE))
            .await
            .unwrap()
            .into_inner();
        privates.push(String::from_utf8(r.private.to_vec()).unwrap());
    }
    assert_eq!(privates, ["first", "second", "third", "third", "third"]);
    // StopProvider, never recorded, still answers.
    let stop = client
        .stop_provider(tfplugin6::stop_provider::Request {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(stop.error, "");
}

/// A request that matches nothing: the error names the RPC, the type and the first path
/// where the nearest recorded request differs, sensitive values masked; a type never
/// recorded, a method never recorded, each said so. Every mismatch is also handed to the
/// hook (the CLI's standard error).
#[tokio::test]
async fn mismatch_errors_name_the_path() {
    let (channel, logged) = serve(Cassette {
        sessions: vec![session(vec![
            call(READ, read(STATE), answer(STATE, b"")),
            call(
                PLAN,
                tfplugin6::plan_resource_change::Request {
                    type_name: "db".into(),
                    config: dv(STATE),
                    ..Default::default()
                },
                Bytes::new(),
            ),
        ])],
    })
    .await;
    let mut client = v6(channel);
    let cases: [(&[u8], &str); 4] = [
        (
            b"\x84\xa4name\xa1a\xa8password\xa2pw\xa4size\x01\xa4tags\x82\xa3env\xa3dev\xa4team\xa1a",
            r#"first at current_state.tags["env"]: expected "prod", found "dev""#,
        ),
        (
            b"\x84\xa4name\xa1a\xa8password\xa2pw\xa4size\x02\xa4tags\x82\xa3env\xa4prod\xa4team\xa1a",
            "first at current_state.size: expected 1, found 2",
        ),
        (
            b"\x84\xa4name\xa1a\xa8password\xa2PW\xa4size\x01\xa4tags\x82\xa3env\xa4prod\xa4team\xa1a",
            r#"first at current_state.password: expected "(sensitive)" (one value), found "(sensitive)" (another)"#,
        ),
        (
            b"\x84\xa4name\xa1a\xa8password\xa2pw\xa4size\x01\xa4tags\x81\xa3env\xa4prod",
            r#"first at current_state.tags["team"]: expected "a", found (absent)"#,
        ),
    ];
    for (state, end) in cases {
        let e = client.read_resource(read(state)).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::FailedPrecondition);
        assert_eq!(
            e.message(),
            format!(
                "tfwire replay: ReadResource of \"db\": no recorded call matches; the nearest \
                 (sessions[0].calls[0]) differs in 1 place, {end}"
            )
        );
        assert!(!e.message().contains("PW"));
    }
    let mut other = read(STATE);
    other.type_name = "queue".into();
    let e = client.read_resource(other).await.unwrap_err();
    assert_eq!(
        e.message(),
        "tfwire replay: ReadResource of \"queue\": no recorded call matches: type_name is \
         \"queue\"; recorded: \"db\""
    );
    let e = client
        .read_data_source(tfplugin6::read_data_source::Request {
            type_name: "db".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        e.message(),
        "tfwire replay: ReadDataSource of \"db\": the cassette holds no ReadDataSource call"
    );
    let logged = logged.lock().unwrap();
    assert_eq!(logged.len(), 6);
    assert_eq!(logged[1].path, "current_state.size");
    assert_eq!(
        (logged[1].expected.as_str(), logged[1].found.as_str()),
        ("1", "2")
    );
    assert_eq!(logged[1].type_name.as_deref(), Some("db"));
    assert_eq!(logged[1].rpc, "ReadResource");
}

/// In a redacted session a sensitive position matches any value of its kind, and the
/// answer gets the request's own secret back where the recorded one had its placeholder.
#[tokio::test]
async fn redacted_sessions_match_and_restore_secrets() {
    let redacted =
        b"\x84\xa4name\xa1a\xa8password\xac(redacted-1)\xa4size\x01\xa4tags\x82\xa3env\xa4prod\xa4team\xa1a";
    let mut s = session(vec![call(READ, read(redacted), answer(redacted, b""))]);
    s.redacted = true;
    let (channel, _) = serve(Cassette { sessions: vec![s] }).await;
    let mut client = v6(channel);
    let got = client
        .read_resource(read(STATE))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(got.new_state, dv(STATE));
    // A null where the recording had a value does not match.
    let null_password =
        b"\x84\xa4name\xa1a\xa8password\xc0\xa4size\x01\xa4tags\x82\xa3env\xa4prod\xa4team\xa1a";
    let e = client.read_resource(read(null_password)).await.unwrap_err();
    assert!(
        e.message()
            .ends_with(r#"first at current_state.password: expected "(sensitive)", found null"#),
        "{}",
        e.message()
    );
}

/// Protocol 5: the same matching, through the tfplugin5 client.
#[tokio::test]
async fn protocol_5() {
    let mut schema5 = tfplugin5::get_provider_schema::Response::default();
    schema5.resource_schemas.insert(
        "db".into(),
        tfplugin5::Schema {
            version: 0,
            block: Some(tfplugin5::schema::Block {
                attributes: vec![tfplugin5::schema::Attribute {
                    name: "name".into(),
                    r#type: Bytes::from_static(b"\"string\""),
                    optional: true,
                    ..Default::default()
                }],
                ..Default::default()
            }),
        },
    );
    let dv5 = |m: &'static [u8]| {
        Some(tfplugin5::DynamicValue {
            msgpack: Bytes::from_static(m),
            json: Bytes::new(),
        })
    };
    let request = |m| tfplugin5::plan_resource_change::Request {
        type_name: "db".into(),
        config: dv5(m),
        proposed_new_state: dv5(m),
        prior_private: Bytes::from_static(b"{\"schema_version\":\"0\"}"),
        ..Default::default()
    };
    let response = tfplugin5::plan_resource_change::Response {
        planned_state: dv5(b"\x81\xa4name\xa1a"),
        legacy_type_system: true,
        ..Default::default()
    };
    let (channel, _) = serve(Cassette {
        sessions: vec![Session {
            protocol: 5,
            schema: schema5.encode_to_vec().into(),
            calls: vec![call(
                "/tfplugin5.Provider/PlanResourceChange",
                request(b"\x81\xa4name\xa1a"),
                response.encode_to_vec().into(),
            )],
            ..Default::default()
        }],
    })
    .await;
    let mut client = tfplugin5::provider_client::ProviderClient::new(channel);
    let mut r = request(b"\x81\xa4name\xd9\x01a");
    r.prior_private = Bytes::new();
    let got = client.plan_resource_change(r).await.unwrap().into_inner();
    assert_eq!(got, response);
    let e = client
        .plan_resource_change(request(b"\x81\xa4name\xa1b"))
        .await
        .unwrap_err();
    assert!(
        e.message().ends_with(
            r#"(sessions[0].calls[0]) differs in 2 places, first at config.name: expected "a", found "b""#
        ),
        "{}",
        e.message()
    );
}

/// A cassette that cannot be replayed says why.
#[test]
fn cassettes_that_cannot_be_replayed() {
    let mut other = session(vec![]);
    other.provider = Some("registry.opentofu.org/acme/queue".into());
    let two = Cassette {
        sessions: vec![session(vec![]), other],
    };
    assert_eq!(
        Replayer::new(two.clone()).unwrap_err().to_string(),
        "the cassette holds sessions of 2 providers (registry.opentofu.org/acme/db, \
         registry.opentofu.org/acme/queue): choose one"
    );
    let one = Replayer::for_provider(two.clone(), "acme/queue").unwrap();
    assert_eq!(one.provider(), Some("registry.opentofu.org/acme/queue"));
    assert_eq!(
        Replayer::for_provider(two, "acme/cache")
            .unwrap_err()
            .to_string(),
        "the cassette holds no session of \"acme/cache\" (it holds \
         registry.opentofu.org/acme/db, registry.opentofu.org/acme/queue)"
    );
    let mut bad = session(vec![Call {
        method: READ.into(),
        requests: vec![Bytes::from_static(b"\x0a\x09db")],
        responses: vec![],
        status: CallStatus::OK,
    }]);
    bad.protocol = 6;
    assert_eq!(
        Replayer::new(Cassette {
            sessions: vec![bad]
        })
        .unwrap_err()
        .to_string(),
        "sessions[0].calls[0] (ReadResource): request 0 does not read: field 1 runs past the \
         end (at byte 0)"
    );
    assert_eq!(
        Replayer::new(Cassette::default()).unwrap_err().to_string(),
        "the cassette holds no session"
    );
}
