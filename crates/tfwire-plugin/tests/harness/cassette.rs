//! Cassettes: a session recorded through the proxy, the file written and read back, sessions
//! appended by writers at once, hostile files refused with their line and byte, and
//! redaction of every kind of position.

use bytes::Bytes;
use prost::Message as _;
use std::sync::Arc;
use tfwire::mask::Masks;
use tfwire::schema::{Protocol, ProviderSchema};
use tfwire_plugin::cassette::{
    Call, CallStatus, Cassette, MAX_DEPTH, Recorder, Session, is_placeholder, masks_of, redact,
};
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tfplugin6::{
    self, DynamicValue, Schema, diagnostic, get_provider_schema, plan_resource_change, schema,
};
use tfwire_plugin::{Programs, SchemaRef};
use tfwire_tap_testkit::{schema_then_plan, through_proxy};

/// Every string that occurs in the messages of a session (protobuf bytes, base64 undone).
fn every_byte(session: &Session) -> Vec<u8> {
    let mut out = session.schema.to_vec();
    for c in &session.calls {
        for m in c.requests.iter().chain(&c.responses) {
            out.extend_from_slice(m);
        }
        out.extend_from_slice(c.status.message.as_bytes());
    }
    out
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn a_session_recorded_through_the_proxy() {
    let (channel, recorder) = through_proxy(Recorder::new(6)).await;
    // {"name": "a", "password": "pw-secret"}
    let state = Bytes::from_static(b"\x82\xa4name\xa1a\xa8password\xa9pw-secret");
    assert_eq!(
        schema_then_plan(channel.clone(), state.clone(), false).await,
        Some(state.clone())
    );
    let mut client = ProviderClient::new(channel);
    crate::read_store_state(&mut client).await;
    // A call the provider does not know: its status is recorded.
    let e = client
        .get_functions(tfplugin6::get_functions::Request {})
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unimplemented);

    let session = Arc::clone(&recorder).finish();
    assert_eq!(session.protocol, 6);
    // The schema, from the client's own GetProviderSchema call (the recorder did not fetch).
    let schemas = ProviderSchema::from_protobuf(&session.schema, Protocol::V6).unwrap();
    assert!(schemas.resources.contains_key("db"));
    let methods: Vec<&str> = session.calls.iter().map(|c| c.method.as_str()).collect();
    assert_eq!(
        methods,
        [
            "/tfplugin6.Provider/GetProviderSchema",
            "/tfplugin6.Provider/PlanResourceChange",
            "/tfplugin6.Provider/ReadStateBytes",
            "/tfplugin6.Provider/GetFunctions",
        ]
    );
    let plan = &session.calls[1];
    let request = plan_resource_change::Request::decode(plan.requests[0].clone()).unwrap();
    assert_eq!(request.proposed_new_state.unwrap().msgpack, state);
    let response = plan_resource_change::Response::decode(plan.responses[0].clone()).unwrap();
    assert_eq!(response.planned_state.unwrap().msgpack, state);
    assert_eq!(
        session.calls[2].responses.len(),
        3,
        "a stream keeps every message"
    );
    assert!(session.calls[..3].iter().all(|c| c.status.is_ok()));
    assert_eq!(
        session.calls[3].status.code,
        tonic::Code::Unimplemented as i32
    );

    // Written and read back: the same session. The call lines show the values, sensitive
    // ones masked, and only there the secret is absent from the text.
    let cassette = Cassette {
        sessions: vec![session.clone()],
    };
    let mut file = Vec::new();
    cassette.write(&mut file).unwrap();
    assert_eq!(Cassette::read(&file).unwrap(), cassette);
    let text = String::from_utf8(file).unwrap();
    let plan_line = text.lines().nth(2).unwrap();
    assert!(
        plan_line.contains(
            r#""type_name":"db","values":{"request.proposed_new_state":{"name":"a","password":"(sensitive)"}"#
        ),
        "{plan_line}"
    );

    // Redacted: the password is a placeholder in the request and the response alike.
    let mut redacted = session;
    redact(&mut redacted, &Masks::new()).unwrap();
    assert!(redacted.redacted);
    assert!(!contains(&every_byte(&redacted), "pw-secret"));
    let placeholder = Bytes::from_static(b"\x82\xa4name\xa1a\xa8password\xac(redacted-1)");
    let plan = &redacted.calls[1];
    let request = plan_resource_change::Request::decode(plan.requests[0].clone()).unwrap();
    assert_eq!(request.proposed_new_state.unwrap().msgpack, placeholder);
    let response = plan_resource_change::Response::decode(plan.responses[0].clone()).unwrap();
    assert_eq!(response.planned_state.unwrap().msgpack, placeholder);
    // Messages without secrets are kept byte for byte.
    assert_eq!(redacted.calls[0], cassette.sessions[0].calls[0]);
    assert_eq!(redacted.calls[2], cassette.sessions[0].calls[2]);
}

/// A cassette of several sessions, every field set or not: written, read back the same;
/// two files one after the other read as one cassette.
#[test]
fn round_trip() {
    let full = Session {
        id: Some("4242-1764262800000000000-0".into()),
        provider: Some("registry.opentofu.org/hashicorp/null".into()),
        version: Some("3.2.4".into()),
        protocol: 5,
        redacted: true,
        masks: vec!["*password*".into(), "**.env.value".into()],
        schema: Bytes::from_static(b"\x0a\x00\xff\x00"),
        identities: Some(Bytes::from_static(b"\x01")),
        calls: vec![
            Call {
                method: "/tfplugin5.Provider/ReadResource".into(),
                requests: vec![Bytes::from_static(b"\x0a\x04null\xff\xfe")],
                responses: vec![Bytes::new(), Bytes::from_static(b"x")],
                status: CallStatus {
                    code: 13,
                    message: "failed: \"quoted\"\n\u{2028}é\u{0}".into(),
                },
            },
            Call {
                method: "/plugin.GRPCStdio/StreamStdio".into(),
                requests: vec![],
                responses: vec![],
                status: CallStatus::OK,
            },
        ],
    };
    let empty = Session {
        protocol: 6,
        ..Session::default()
    };
    let cassette = Cassette {
        sessions: vec![full.clone(), empty.clone(), full],
    };
    let mut file = Vec::new();
    cassette.write(&mut file).unwrap();
    assert_eq!(Cassette::read(&file).unwrap(), cassette);
    assert!(file.ends_with(b"\n"));
    assert_eq!(
        file.iter().filter(|&&b| b == b'\n').count(),
        3 + 2 + 2,
        "a header per session and a line per call"
    );
    let mut twice = file.clone();
    twice.extend_from_slice(&file);
    assert_eq!(Cassette::read(&twice).unwrap().sessions.len(), 6);
    // Blank lines (and CRLF line ends) are tolerated, unknown members ignored.
    let text = String::from_utf8(file).unwrap();
    let loose = text.replace('\n', "\r\n\n").replace(
        "\"tfwire_cassette\":1",
        "\"tfwire_cassette\":1,\"note\":[1,{\"x\":null}]",
    );
    assert_eq!(Cassette::read(loose.as_bytes()).unwrap(), cassette);
    assert_eq!(Cassette::read(b"").unwrap(), Cassette::default());
}

/// Writers appending at once (threads here, tap processes in real runs: the lock is the
/// file's, taken by each open) never interleave: every session reads back whole.
#[test]
fn appends_from_several_writers() {
    let dir = std::env::temp_dir().join(format!("tfwire-cassette-append-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.jsonl");
    let _ = std::fs::remove_file(&path);
    let writers = 4;
    let each = 10;
    std::thread::scope(|s| {
        for w in 0..writers {
            let path = &path;
            s.spawn(move || {
                for i in 0..each {
                    // Large enough messages that unlocked writes would be split.
                    let big = Bytes::from(vec![w as u8; 200_000 + i]);
                    let session = Session {
                        provider: Some(format!("writer{w}")),
                        protocol: 6,
                        calls: vec![Call {
                            method: format!("/tfplugin6.Provider/Call{i}"),
                            requests: vec![big.clone()],
                            responses: vec![big],
                            status: CallStatus::OK,
                        }],
                        ..Session::default()
                    };
                    session.append_to(path).unwrap();
                }
            });
        }
    });
    let c = Cassette::read(&std::fs::read(&path).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(c.sessions.len(), writers * each);
    for w in 0..writers {
        let mine: Vec<&Session> = c
            .sessions
            .iter()
            .filter(|s| s.provider.as_deref() == Some(&format!("writer{w}")))
            .collect();
        assert_eq!(mine.len(), each);
        for (i, s) in mine.iter().enumerate() {
            assert_eq!(s.calls[0].method, format!("/tfplugin6.Provider/Call{i}"));
            assert_eq!(s.calls[0].requests[0].len(), 200_000 + i);
            assert!(s.calls[0].requests[0].iter().all(|&b| b == w as u8));
        }
    }
}

/// Files that are not cassettes: each refused with the line and byte offset of the fault,
/// none panics or allocates beyond its size.
#[test]
fn hostile_files() {
    let header = r#"{"tfwire_cassette":1,"protocol":6,"calls":1,"schema":""}"#;
    let call = r#"{"method":"/m","code":0,"requests":[""],"responses":[]}"#;
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    let marker = r#"{"tfwire_cassette_open":1,"session":"9-1-0","pid":9,"provider":null}"#;
    let closing = header.replace("\"calls\":1", "\"session\":\"9-1-0\",\"calls\":1");
    // Files of whole lines.
    let files: &[(&[&str], &str)] = &[
        (&["not json"], "cassette line 1 (byte 0): "),
        (
            &["[1,2]"],
            "cassette line 1 (byte 0): expected an object, found an array: every line of a cassette is a JSON object",
        ),
        (
            &[call],
            "cassette line 1 (byte 0): a call before any session header",
        ),
        (
            &[header],
            "cassette line 1 (byte 57): the session of line 1 announces 1 calls, the file ends after 0 (a write cut short?)",
        ),
        (
            &[header, header, call],
            "cassette line 2 (byte 57): a session header, but the session of line 1 announced 1 calls and has 0",
        ),
        (&[&deep], "cassette line 1 (byte 256): "),
        (
            &[header, call, marker],
            "cassette line 3 (byte 113): a recording tap (pid 9) started a session here for a provider of unknown address and was stopped before writing it",
        ),
        (
            // A marker inside a session: the session was cut short.
            &[&closing, marker, call],
            "cassette line 2 (byte 75): a session header, but the session of line 1 announced 1 calls and has 0",
        ),
        (
            &[marker, marker, &closing, call],
            "cassette line 2 (byte 105): the session id \"9-1-0\" was opened already on line 1",
        ),
        (
            &["{\"a\":\"\u{0}\"}"],
            "cassette line 1 (byte 0): invalid JSON: syntax error",
        ),
    ];
    // One member of a line changed: a session header or a marker alone (without a line
    // end), a call after a header.
    let edits: &[(&str, &str, &str, &str)] = &[
        (
            header,
            "\"tfwire_cassette\":1",
            "\"tfwire_cassette\":2",
            "cassette line 1 (byte 19): a session of format version 2; this reader knows version 1",
        ),
        (
            header,
            "\"calls\":1",
            "\"calls\":-1",
            "cassette line 1 (byte 42): calls: expected a non-negative integer, found the number -1",
        ),
        (
            // A count far beyond the file: refused at the end, nothing allocated for it.
            header,
            "\"calls\":1",
            "\"calls\":18446744073709551615",
            "announces 18446744073709551615 calls, the file ends after 0",
        ),
        (
            header,
            "\"schema\":\"\"",
            "\"schema\":\"@@\"",
            "cassette line 1 (byte 53): schema: not base64: byte 0x40 at offset 0",
        ),
        (
            call,
            "[\"\"]",
            "[\"A\"]",
            "cassette line 2 (byte 93): requests[0]: not base64",
        ),
        (
            call,
            "\"code\":0",
            "\"code\":4294967296",
            "cassette line 2 (byte 79): code: expected a gRPC status code",
        ),
        (
            call,
            "\"responses\":[]",
            "\"responses\":{}",
            "cassette line 2 (byte 109): responses: expected an array, found an object",
        ),
        (
            call,
            "\"method\":\"/m\",",
            "",
            "cassette line 2 (byte 57): the member \"method\" is missing",
        ),
        (
            marker,
            "\"tfwire_cassette_open\":1",
            "\"tfwire_cassette_open\":2",
            "cassette line 1 (byte 24): a marker of format version 2; this reader knows version 1",
        ),
        (
            marker,
            "\"pid\":9",
            "\"pid\":\"9\"",
            "cassette line 1 (byte 50): pid: expected a non-negative integer, found a string",
        ),
        (
            marker,
            "\"session\":\"9-1-0\",",
            "",
            "cassette line 1 (byte 0): the member \"session\" is missing",
        ),
    ];
    let whole = files.iter().map(|&(lines, want)| {
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        (input, want)
    });
    let edited = edits.iter().map(|&(line, from, to, want)| {
        let changed = line.replace(from, to);
        let input = if line == call {
            format!("{header}\n{changed}\n")
        } else {
            changed
        };
        (input, want)
    });
    let cases: Vec<(String, &str)> = whole.chain(edited).collect();
    assert_eq!(cases.len(), 21);
    for (input, want) in cases {
        let e = Cassette::read(input.as_bytes()).unwrap_err();
        assert_eq!(e.kind(), tfwire_plugin::ErrorKind::Cassette);
        assert!(
            e.to_string().starts_with(want)
                || (want.starts_with("announces") && e.to_string().contains(want)),
            "{input:?}:\n  got  {e}\n  want {want}"
        );
    }
    // Invalid UTF-8 and stray bytes in a line: errors, not panics.
    for input in [&b"\xff\xfe\n"[..], b"{\"tfwire_cassette\":1,\x80}", b"\x00"] {
        assert!(Cassette::read(input).is_err());
    }
}

/// A recording tap that starts a session appends a marker; the session written at its end
/// carries the same id and closes it. A marker no session closes (the tap was killed first)
/// makes the whole file an error naming the marker's line, the tap's pid and the provider;
/// a file without markers still reads; sessions of other taps in between do not matter.
#[test]
fn a_marker_without_its_session() {
    let dir = std::env::temp_dir().join(format!("tfwire-cassette-marker-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.jsonl");
    let _ = std::fs::remove_file(&path);
    let null = "registry.opentofu.org/hashicorp/null";
    let session = |id: &str| Session {
        id: Some(id.into()),
        provider: Some(null.into()),
        protocol: 5,
        calls: vec![Call {
            method: "/tfplugin5.Provider/GetMetadata".into(),
            requests: vec![Bytes::new()],
            responses: vec![Bytes::new()],
            status: CallStatus::OK,
        }],
        ..Session::default()
    };
    // Two taps at once: the first killed, the second writes its session.
    Session::open_marker(&path, "41-100-0", 41, Some(null)).unwrap();
    Session::open_marker(&path, "42-200-0", 42, None).unwrap();
    session("42-200-0").append_to(&path).unwrap();
    let file = std::fs::read(&path).unwrap();
    let e = Cassette::read(&file).unwrap_err();
    assert_eq!(e.kind(), tfwire_plugin::ErrorKind::Cassette);
    assert_eq!(
        e.to_string(),
        "cassette line 1 (byte 0): a recording tap (pid 41) started a session here for the \
         provider registry.opentofu.org/hashicorp/null and was stopped before writing it: \
         record again; the client kills a provider that has not exited 2 s after Shutdown"
    );
    // Once the first tap's session is there too, the file reads, ids and all.
    session("41-100-0").append_to(&path).unwrap();
    let c = Cassette::read(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(c.sessions, [session("42-200-0"), session("41-100-0")]);
    // A file of sessions without markers or ids (as written before markers) reads.
    let mut old = Vec::new();
    Cassette {
        sessions: vec![Session {
            id: None,
            ..session("")
        }],
    }
    .write(&mut old)
    .unwrap();
    assert!(!String::from_utf8_lossy(&old).contains("session"));
    assert_eq!(Cassette::read(&old).unwrap().sessions.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- redaction ----

fn attr(name: &str, ty: &str, sensitive: bool, write_only: bool) -> schema::Attribute {
    schema::Attribute {
        name: name.into(),
        r#type: Bytes::from(ty.as_bytes().to_vec()),
        optional: true,
        sensitive,
        write_only,
        ..Default::default()
    }
}

fn block(
    attributes: Vec<schema::Attribute>,
    block_types: Vec<schema::NestedBlock>,
) -> schema::Block {
    schema::Block {
        attributes,
        block_types,
        ..Default::default()
    }
}

fn nested(
    name: &str,
    nesting: schema::nested_block::NestingMode,
    b: schema::Block,
) -> schema::NestedBlock {
    schema::NestedBlock {
        type_name: name.into(),
        block: Some(b),
        nesting: nesting as i32,
        ..Default::default()
    }
}

/// Resource `t`: secrets in every kind of position; resource `u`: a sensitive unknown and a
/// sensitive null.
fn redaction_schema() -> get_provider_schema::Response {
    use schema::nested_block::NestingMode as N;
    let nested_attr = schema::Attribute {
        name: "nested".into(),
        nested_type: Some(schema::Object {
            attributes: vec![
                attr("pass", "\"string\"", true, false),
                attr("user", "\"string\"", false, false),
            ],
            nesting: schema::object::NestingMode::List as i32,
            ..Default::default()
        }),
        optional: true,
        ..Default::default()
    };
    let t = block(
        vec![
            attr(
                "conf",
                r#"["object",{"a":"string","b":"number"}]"#,
                true,
                false,
            ),
            attr("dyn", "\"dynamic\"", false, false),
            attr("env", r#"["map","string"]"#, true, false),
            attr("flag", "\"bool\"", true, false),
            attr("keys", r#"["list","string"]"#, true, false),
            attr("name", "\"string\"", false, false),
            nested_attr,
            attr("opened", r#"["map","string"]"#, false, false),
            attr("password", "\"string\"", true, false),
            attr("pin", "\"number\"", true, false),
            attr("tags", r#"["set","string"]"#, true, false),
            attr("wo", "\"string\"", false, true),
        ],
        vec![
            nested(
                "group",
                N::Set,
                block(
                    vec![
                        attr("n", "\"string\"", false, false),
                        attr("v", "\"string\"", true, false),
                    ],
                    vec![],
                ),
            ),
            nested(
                "rule",
                N::List,
                block(
                    vec![
                        attr("id", "\"string\"", false, false),
                        attr("key", "\"string\"", true, false),
                    ],
                    vec![],
                ),
            ),
            nested(
                "single",
                N::Single,
                block(vec![attr("s", "\"number\"", true, false)], vec![]),
            ),
            nested(
                "slot",
                N::Map,
                block(vec![attr("s", "\"string\"", true, false)], vec![]),
            ),
        ],
    );
    let u = block(
        vec![
            attr("other", "\"string\"", true, false),
            attr("secret", "\"string\"", true, false),
        ],
        vec![],
    );
    let mut r = get_provider_schema::Response::default();
    for (name, b) in [("t", t), ("u", u)] {
        r.resource_schemas.insert(
            name.into(),
            Schema {
                version: 0,
                block: Some(b),
            },
        );
    }
    r
}

const SECRETS: [&str; 16] = [
    "hunter2-pass",
    "write-only-1",
    "k-one-secret",
    "k-two-secret",
    "t-one-secret",
    "t-two-secret",
    "ENV_A_NAME",
    "env-a-secret",
    "env-b-secret",
    "conf-a-secret",
    "tok-abcdef1234",
    "nested-pass-1",
    "rule-key-secret",
    "group-v-secret",
    "slot-s-secret",
    "ENV_B_NAME",
];

#[test]
fn redaction_of_every_kind_of_position() {
    let schema = redaction_schema();
    let schemas = ProviderSchema::try_from(&schema).unwrap();
    let programs = Programs::new(schemas);
    let program = programs.get(SchemaRef::Resource("t")).unwrap();
    let config = br#"{"name":"n1","password":"hunter2-pass","pin":1234,"flag":true,"wo":"write-only-1",
      "keys":["k-one-secret","k-two-secret"],"tags":["t-one-secret","t-two-secret"],
      "env":{"ENV_A_NAME":"env-a-secret","ENV_B_NAME":"env-b-secret"},"conf":{"a":"conf-a-secret","b":7},
      "dyn":{"value":{"api_token":"tok-abcdef1234","ok":"fine"},"type":["object",{"api_token":"string","ok":"string"}]},
      "nested":[{"user":"u1","pass":"nested-pass-1"}],"opened":{"k":"v"},
      "rule":[{"id":"r1","key":"rule-key-secret"}],"group":[{"v":"group-v-secret","n":"g1"}],
      "slot":{"a":{"s":"slot-s-secret"}},"single":{"s":42}}"#;
    let arena = bumpalo::Bump::new();
    let value = tfwire::decode_json(&program, config, &arena).unwrap();
    let msgpack = Bytes::from(tfwire::encode_msgpack(&program, &value).unwrap());
    let dv = |m: &Bytes| {
        Some(DynamicValue {
            msgpack: m.clone(),
            json: Bytes::new(),
        })
    };
    let request = plan_resource_change::Request {
        type_name: "t".into(),
        config: dv(&msgpack),
        proposed_new_state: dv(&msgpack),
        prior_private: Bytes::from_static(b"{\"pw\":\"hunter2-pass\"}"),
        ..Default::default()
    };
    let response = plan_resource_change::Response {
        planned_state: dv(&msgpack),
        planned_private: Bytes::from_static(b"{\"pw\":\"hunter2-pass\"}"),
        diagnostics: vec![tfplugin6::Diagnostic {
            severity: diagnostic::Severity::Warning as i32,
            summary: "rotated".into(),
            detail: "the key rule-key-secret is old; env env-a-secret too".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    // {"other": null, "secret": unknown}
    let u_state = Bytes::from_static(b"\x82\xa5other\xc0\xa6secret\xd4\x00\x00");
    let u_request = plan_resource_change::Request {
        type_name: "u".into(),
        proposed_new_state: dv(&u_state),
        ..Default::default()
    };
    let mut session = Session {
        protocol: 6,
        schema: schema.encode_to_vec().into(),
        calls: vec![
            Call {
                method: "/tfplugin6.Provider/PlanResourceChange".into(),
                requests: vec![request.encode_to_vec().into()],
                responses: vec![response.encode_to_vec().into()],
                status: CallStatus::OK,
            },
            Call {
                method: "/tfplugin6.Provider/PlanResourceChange".into(),
                requests: vec![u_request.encode_to_vec().into()],
                responses: vec![],
                status: CallStatus::OK,
            },
            // A provider's log line (go-plugin's stdio stream) and an error status that
            // repeat secrets.
            Call {
                method: "/plugin.GRPCStdio/StreamStdio".into(),
                requests: vec![Bytes::new()],
                responses: vec![Bytes::from_static(b"\x12\x1alogged slot-s-secret here")],
                status: CallStatus {
                    code: 2,
                    message: "failed with group-v-secret".into(),
                },
            },
        ],
        ..Session::default()
    };
    let before = every_byte(&session);
    assert!(SECRETS.iter().all(|s| contains(&before, s)));
    let mut masks = Masks::new();
    masks.add("*token*").unwrap();
    redact(&mut session, &masks).unwrap();
    assert!(session.redacted);
    assert_eq!(session.masks, ["*token*"]);
    let after = every_byte(&session);
    for s in SECRETS {
        assert!(!contains(&after, s), "{s} is still in the session");
    }

    // Every position: same type, same shape; the same secret the same placeholder.
    let show = |m: &Bytes| {
        let arena = bumpalo::Bump::new();
        let mut d = tfwire::Decoder::default();
        let v = d.decode_msgpack(&program, m, &arena).unwrap();
        tfwire_plugin::redact::to_json_plain(&v)
    };
    let request =
        plan_resource_change::Request::decode(session.calls[0].requests[0].clone()).unwrap();
    let config = request.config.unwrap().msgpack;
    assert_eq!(
        show(&config),
        concat!(
            r#"{"conf":{"a":"(redacted-1)","b":2},"dyn":{"api_token":"(redacted-3)","ok":"fine"},"#,
            r#""env":{"(redacted-4)":"(redacted-5)","(redacted-6)":"(redacted-7)"},"flag":false,"#,
            r#""group":[{"n":"g1","v":"(redacted-8)"}],"keys":["(redacted-9)","(redacted-10)"],"#,
            r#""name":"n1","nested":[{"pass":"(redacted-11)","user":"u1"}],"opened":{"k":"v"},"#,
            r#""password":"(redacted-12)","pin":13,"rule":[{"id":"r1","key":"(redacted-14)"}],"#,
            r#""single":{"s":15},"slot":{"a":{"s":"(redacted-16)"}},"#,
            r#""tags":["(redacted-17)","(redacted-18)"],"wo":"(redacted-19)"}"#
        )
    );
    assert_eq!(request.proposed_new_state.unwrap().msgpack, config);
    let response =
        plan_resource_change::Response::decode(session.calls[0].responses[0].clone()).unwrap();
    assert_eq!(response.planned_state.unwrap().msgpack, config);
    // Outside the values: overwritten by as many `*`.
    assert_eq!(&response.planned_private[..], b"{\"pw\":\"************\"}");
    assert_eq!(
        response.diagnostics[0].detail,
        "the key *************** is old; env ************ too"
    );
    assert_eq!(
        session.calls[2].responses[0],
        Bytes::from_static(b"\x12\x1alogged ************* here")
    );
    assert_eq!(
        session.calls[2].status.message,
        "failed with **************"
    );
    // Unknown and null stay: the second call is unchanged.
    let u = plan_resource_change::Request::decode(session.calls[1].requests[0].clone()).unwrap();
    assert_eq!(u.proposed_new_state.unwrap().msgpack, u_state);

    // A placeholder is recognised, the masks travel with the session, and redacting again
    // keeps every string placeholder.
    assert!(is_placeholder("(redacted-12)"));
    assert_eq!(masks_of(&session).unwrap().patterns(), ["*token*"]);
    let once = session.clone();
    redact(&mut session, &masks).unwrap();
    let again =
        plan_resource_change::Request::decode(session.calls[0].requests[0].clone()).unwrap();
    let again = show(&again.config.unwrap().msgpack);
    assert_eq!(
        again.matches("(redacted-").count(),
        show(&config).matches("(redacted-").count()
    );
    assert_eq!(session.calls[2], once.calls[2]);

    // The redacted session writes and reads back as it is.
    let c = Cassette {
        sessions: vec![session],
    };
    let mut file = Vec::new();
    c.write(&mut file).unwrap();
    assert_eq!(Cassette::read(&file).unwrap(), c);
    let text = String::from_utf8(file).unwrap();
    assert!(SECRETS.iter().all(|s| !text.contains(s)));
}

/// A session whose schema does not convert, or whose message does not decode, is refused
/// (nothing could be redacted safely), and left as it was.
#[test]
fn redaction_refuses_what_it_cannot_read() {
    let mut session = Session {
        protocol: 6,
        schema: Bytes::from_static(b"\xff\xff"),
        ..Session::default()
    };
    let e = redact(&mut session, &Masks::new()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("the session's schema does not convert"),
        "{e}"
    );
    assert!(!session.redacted);

    let mut session = Session {
        protocol: 6,
        schema: redaction_schema().encode_to_vec().into(),
        calls: vec![Call {
            method: "/tfplugin6.Provider/PlanResourceChange".into(),
            requests: vec![
                plan_resource_change::Request {
                    type_name: "t".into(),
                    config: Some(DynamicValue {
                        msgpack: Bytes::from_static(b"\xa3abc"),
                        json: Bytes::new(),
                    }),
                    ..Default::default()
                }
                .encode_to_vec()
                .into(),
            ],
            responses: vec![Bytes::from_static(b"\x0a\xff")],
            status: CallStatus::OK,
        }],
        ..Session::default()
    };
    let kept = session.clone();
    let e = redact(&mut session, &Masks::new()).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "call 0 (/tfplugin6.Provider/PlanResourceChange), request 0: config: the value does not decode"
        ),
        "{e}"
    );
    assert_eq!(session, kept);
}

/// The stored state `UpgradeResourceState` gets as JSON is redacted by the schema when it
/// conforms to it (short secrets included), and left to the overwriting by value when not.
#[test]
fn redaction_of_the_stored_state() {
    use tfwire_plugin::tfplugin6::{RawState, upgrade_resource_state};
    let upgrade = |json: &'static str| {
        upgrade_resource_state::Request {
            type_name: "u".into(),
            version: 0,
            raw_state: Some(RawState {
                json: Bytes::from_static(json.as_bytes()),
                ..Default::default()
            }),
        }
        .encode_to_vec()
        .into()
    };
    // The upgraded state repeats the long secret: it is found in the older state too.
    let upgraded = upgrade_resource_state::Response {
        upgraded_state: Some(DynamicValue {
            msgpack: Bytes::from_static(b"\x82\xa5other\xc0\xa6secret\xacolder-secret"),
            json: Bytes::new(),
        }),
        ..Default::default()
    };
    let mut session = Session {
        protocol: 6,
        schema: redaction_schema().encode_to_vec().into(),
        calls: vec![
            Call {
                method: "/tfplugin6.Provider/UpgradeResourceState".into(),
                requests: vec![upgrade(r#"{"other": "ab", "secret": "xyz"}"#)],
                responses: vec![],
                status: CallStatus::OK,
            },
            Call {
                method: "/tfplugin6.Provider/UpgradeResourceState".into(),
                requests: vec![upgrade(r#"{"gone":1,"secret":"older-secret"}"#)],
                responses: vec![upgraded.encode_to_vec().into()],
                status: CallStatus::OK,
            },
        ],
        ..Session::default()
    };
    redact(&mut session, &Masks::new()).unwrap();
    let json = |c: usize| {
        upgrade_resource_state::Request::decode(session.calls[c].requests[0].clone())
            .unwrap()
            .raw_state
            .unwrap()
            .json
    };
    assert_eq!(
        &json(0)[..],
        br#"{"other":"(redacted-1)","secret":"(redacted-2)"}"#
    );
    assert_eq!(&json(1)[..], br#"{"gone":1,"secret":"************"}"#);
}
