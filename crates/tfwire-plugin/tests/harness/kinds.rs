//! The values of the protocol's newer calls decode with the schema of their kind: identities
//! (`ListResource.Event.identity`, `UpgradeResourceIdentity`, the identity fields of
//! `ReadResource`, `PlanResourceChange`, `ApplyResourceChange`, `ImportResourceState`) with
//! the resource type's identity schema, a listed `resource_object` with the resource type's
//! schema, action configurations (`PlanAction`, `InvokeAction`) with the action type's,
//! ephemeral resources, state stores, and `CallFunction` arguments with each parameter's
//! type (the variadic one past the fixed ones). The schemas are `kinds.json` (synthetic, in
//! the shapes Terraform prints), sent as the `GetProviderSchema` and
//! `GetResourceIdentitySchemas` responses a tap sees; the frames are built with prost.

use bytes::Bytes;
use prost::Message as _;
use tfwire::schema::{Protocol, ProviderSchema, ProviderSchemas};
use tfwire_plugin::log::{Outcome, Recorder};
use tfwire_plugin::rpc::{Direction, Message, Method};
use tfwire_plugin::tfplugin6 as p6;
use tfwire_plugin::{Programs, SchemaRef};

/// MessagePack of a few shapes, written by hand.
fn s(v: &str) -> Vec<u8> {
    [&[0xa0 | v.len() as u8][..], v.as_bytes()].concat()
}
fn map(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut out = vec![0x80 | entries.len() as u8];
    for (k, v) in entries {
        out.extend(s(k));
        out.extend(v);
    }
    out
}
fn arr(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![0x90 | items.len() as u8];
    for i in items {
        out.extend(i);
    }
    out
}
fn dv(msgpack: Vec<u8>) -> p6::DynamicValue {
    p6::DynamicValue {
        msgpack: msgpack.into(),
        json: Bytes::new(),
    }
}
fn id(msgpack: Vec<u8>) -> p6::ResourceIdentityData {
    p6::ResourceIdentityData {
        identity_data: Some(dv(msgpack)),
    }
}

/// The schemas as a tap gets them: from the two responses, through `Method::decode`.
fn programs() -> Programs {
    let text = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/schemas-synthetic/kinds.json"),
    )
    .unwrap();
    let doc = ProviderSchemas::from_json(&text).unwrap();
    let p = doc.provider("registry.terraform.io/example/kinds").unwrap();
    let method = |n| Method::from_name(Protocol::V6, n).unwrap();
    let bytes = crate::schema::v6::response(p).encode_to_vec();
    let Ok(Message::ProviderSchema(s)) =
        method("GetProviderSchema").decode(Direction::Response, bytes.into())
    else {
        panic!("GetProviderSchema")
    };
    let mut schemas: ProviderSchema = (*s).unwrap();
    let bytes = crate::schema::v6::identities(&p.identities).encode_to_vec();
    let Ok(Message::IdentitySchemas(ids)) =
        method("GetResourceIdentitySchemas").decode(Direction::Response, bytes.into())
    else {
        panic!("GetResourceIdentitySchemas")
    };
    schemas.identities = ids.unwrap();
    assert_eq!(&schemas, p, "the tap's schemas are the document's");
    Programs::new(schemas)
}

/// Every value of a frame: (field, index, schema, decoded JSON or error).
fn values(
    programs: &Programs,
    method: &str,
    direction: Direction,
    call: &str,
    frame: Vec<u8>,
) -> Vec<(String, Option<usize>, String, Outcome)> {
    let m = Method::from_name(Protocol::V6, method).unwrap();
    let Message::Values(msg) = m.decode(direction, frame.into()).unwrap() else {
        panic!("{method}: no values")
    };
    let mut recorder = Recorder::new(tfwire::Config::default());
    let mut out = Vec::new();
    msg.dynamic_values(call, &mut |f| {
        let (outcome, _) = recorder.decode(programs, f.schema, f.value);
        out.push((
            f.name.to_owned(),
            f.index,
            format!("{:?}", f.schema),
            outcome.clone(),
        ));
    });
    out
}

fn ok(
    field: &str,
    index: Option<usize>,
    schema: &str,
    json: &str,
) -> (String, Option<usize>, String, Outcome) {
    (
        field.into(),
        index,
        schema.into(),
        Outcome::Value(json.into()),
    )
}

#[test]
fn identities_actions_ephemeral_state_store_and_function_values_decode_with_their_schemas() {
    let programs = programs();
    let identity = || {
        map(&[
            ("id", s("i-1")),
            ("region", s("eu")),
            ("tags", arr(&[s("a")])),
        ])
    };
    let identity_json = r#"{"id":"i-1","region":"eu","tags":["a"]}"#;
    let state = || map(&[("id", s("i-1")), ("region", s("eu"))]);
    let state_json = r#"{"id":"i-1","region":"eu"}"#;
    let t = "kinds_thing";

    // ListResource: the request's config with the list resource schema; each event's
    // identity with the identity schema, its resource object with the resource schema.
    let request = p6::list_resource::Request {
        type_name: t.into(),
        config: Some(dv(map(&[
            ("filter", arr(&[map(&[("name", s("web"))])])),
            ("region", s("eu")),
        ]))),
        include_resource_object: true,
        limit: 10,
    };
    assert_eq!(
        values(
            &programs,
            "ListResource",
            Direction::Request,
            "",
            request.encode_to_vec()
        ),
        [ok(
            "config",
            None,
            r#"ListResource("kinds_thing")"#,
            r#"{"filter":[{"name":"web"}],"region":"eu"}"#
        )]
    );
    let event = p6::list_resource::Event {
        identity: Some(id(identity())),
        display_name: "thing".into(),
        resource_object: Some(dv(state())),
        diagnostic: Vec::new(),
    };
    assert_eq!(
        values(
            &programs,
            "ListResource",
            Direction::Response,
            t,
            event.encode_to_vec()
        ),
        [
            ok(
                "identity",
                None,
                r#"Identity("kinds_thing")"#,
                identity_json
            ),
            ok(
                "resource_object",
                None,
                r#"Resource("kinds_thing")"#,
                state_json
            ),
        ]
    );

    // UpgradeResourceIdentity: the upgraded identity (the request's raw identity is JSON of
    // an older version: not a DynamicValue).
    let upgraded = p6::upgrade_resource_identity::Response {
        upgraded_identity: Some(id(identity())),
        diagnostics: Vec::new(),
    };
    assert_eq!(
        values(
            &programs,
            "UpgradeResourceIdentity",
            Direction::Response,
            t,
            upgraded.encode_to_vec()
        ),
        [ok(
            "upgraded_identity",
            None,
            r#"Identity("kinds_thing")"#,
            identity_json
        )]
    );

    // The identity fields of the resource calls.
    let read = p6::read_resource::Request {
        type_name: t.into(),
        current_state: Some(dv(state())),
        current_identity: Some(id(identity())),
        ..Default::default()
    };
    assert_eq!(
        values(
            &programs,
            "ReadResource",
            Direction::Request,
            "",
            read.encode_to_vec()
        ),
        [
            ok(
                "current_state",
                None,
                r#"Resource("kinds_thing")"#,
                state_json
            ),
            ok(
                "current_identity",
                None,
                r#"Identity("kinds_thing")"#,
                identity_json
            ),
        ]
    );
    let planned = p6::plan_resource_change::Response {
        planned_state: Some(dv(state())),
        planned_identity: Some(id(identity())),
        ..Default::default()
    };
    assert_eq!(
        values(
            &programs,
            "PlanResourceChange",
            Direction::Response,
            t,
            planned.encode_to_vec()
        ),
        [
            ok(
                "planned_state",
                None,
                r#"Resource("kinds_thing")"#,
                state_json
            ),
            ok(
                "planned_identity",
                None,
                r#"Identity("kinds_thing")"#,
                identity_json
            ),
        ]
    );
    let applied = p6::apply_resource_change::Response {
        new_state: Some(dv(state())),
        new_identity: Some(id(identity())),
        ..Default::default()
    };
    assert_eq!(
        values(
            &programs,
            "ApplyResourceChange",
            Direction::Response,
            t,
            applied.encode_to_vec()
        ),
        [
            ok("new_state", None, r#"Resource("kinds_thing")"#, state_json),
            ok(
                "new_identity",
                None,
                r#"Identity("kinds_thing")"#,
                identity_json
            ),
        ]
    );
    let import = p6::import_resource_state::Request {
        type_name: t.into(),
        id: String::new(),
        identity: Some(id(identity())),
        ..Default::default()
    };
    assert_eq!(
        values(
            &programs,
            "ImportResourceState",
            Direction::Request,
            "",
            import.encode_to_vec()
        ),
        [ok(
            "identity",
            None,
            r#"Identity("kinds_thing")"#,
            identity_json
        )]
    );
    let imported = p6::import_resource_state::Response {
        imported_resources: vec![p6::import_resource_state::ImportedResource {
            type_name: t.into(),
            state: Some(dv(state())),
            identity: Some(id(identity())),
            ..Default::default()
        }],
        ..Default::default()
    };
    assert_eq!(
        values(
            &programs,
            "ImportResourceState",
            Direction::Response,
            t,
            imported.encode_to_vec()
        ),
        [
            ok(
                "imported_resources.state",
                Some(0),
                r#"Resource("kinds_thing")"#,
                state_json
            ),
            ok(
                "imported_resources.identity",
                Some(0),
                r#"Identity("kinds_thing")"#,
                identity_json
            ),
        ]
    );

    // Actions: the configuration with the action type's schema (a set of blocks).
    let config = || {
        map(&[
            ("force", vec![0xc3]),
            ("target", arr(&[map(&[("id", s("x"))])])),
        ])
    };
    let config_json = r#"{"force":true,"target":[{"id":"x"}]}"#;
    for method in ["ValidateActionConfig", "PlanAction", "InvokeAction"] {
        let frame = match method {
            "PlanAction" => p6::plan_action::Request {
                action_type: "kinds_restart".into(),
                config: Some(dv(config())),
                ..Default::default()
            }
            .encode_to_vec(),
            "InvokeAction" => p6::invoke_action::Request {
                action_type: "kinds_restart".into(),
                config: Some(dv(config())),
                ..Default::default()
            }
            .encode_to_vec(),
            _ => p6::validate_action_config::Request {
                action_type: "kinds_restart".into(),
                config: Some(dv(config())),
            }
            .encode_to_vec(),
        };
        assert_eq!(
            values(&programs, method, Direction::Request, "", frame),
            [ok(
                "config",
                None,
                r#"Action("kinds_restart")"#,
                config_json
            )],
            "{method}"
        );
    }

    // Ephemeral resources: config and result; the sensitive value is masked (even null).
    let open = p6::open_ephemeral_resource::Request {
        type_name: "kinds_token".into(),
        config: Some(dv(map(&[("scope", s("read")), ("value", vec![0xc0])]))),
        ..Default::default()
    };
    assert_eq!(
        values(
            &programs,
            "OpenEphemeralResource",
            Direction::Request,
            "",
            open.encode_to_vec()
        ),
        [ok(
            "config",
            None,
            r#"EphemeralResource("kinds_token")"#,
            r#"{"scope":"read","value":"(sensitive)"}"#
        )]
    );
    let opened = p6::open_ephemeral_resource::Response {
        result: Some(dv(map(&[("scope", s("read")), ("value", s("secret"))]))),
        ..Default::default()
    };
    let got = values(
        &programs,
        "OpenEphemeralResource",
        Direction::Response,
        "kinds_token",
        opened.encode_to_vec(),
    );
    assert_eq!(got.len(), 1);
    let Outcome::Value(json) = &got[0].3 else {
        panic!("{got:?}")
    };
    assert!(
        json.starts_with(r#"{"scope":"read","value":"#) && !json.contains("secret"),
        "{json}"
    );

    // State stores.
    let store = p6::validate_state_store_config::Request {
        type_name: "kinds_store".into(),
        config: Some(dv(map(&[("bucket", s("b")), ("lock", vec![0xc2])]))),
    };
    assert_eq!(
        values(
            &programs,
            "ValidateStateStoreConfig",
            Direction::Request,
            "",
            store.encode_to_vec()
        ),
        [ok(
            "config",
            None,
            r#"StateStore("kinds_store")"#,
            r#"{"bucket":"b","lock":false}"#
        )]
    );

    // CallFunction: each argument with its parameter's type, the variadic type past them;
    // the result with the return type.
    let call = p6::call_function::Request {
        name: "join_path".into(),
        arguments: vec![dv(s("/")), dv(arr(&[s("a")])), dv(s("b")), dv(s("c"))],
    };
    assert_eq!(
        values(
            &programs,
            "CallFunction",
            Direction::Request,
            "",
            call.encode_to_vec()
        ),
        [
            ok(
                "arguments",
                Some(0),
                r#"FunctionArgument("join_path", 0)"#,
                r#""/""#
            ),
            ok(
                "arguments",
                Some(1),
                r#"FunctionArgument("join_path", 1)"#,
                r#"["a"]"#
            ),
            ok(
                "arguments",
                Some(2),
                r#"FunctionArgument("join_path", 2)"#,
                r#""b""#
            ),
            ok(
                "arguments",
                Some(3),
                r#"FunctionArgument("join_path", 3)"#,
                r#""c""#
            ),
        ]
    );
    let result = p6::call_function::Response {
        result: Some(dv(s("/a/b/c"))),
        error: None,
    };
    assert_eq!(
        values(
            &programs,
            "CallFunction",
            Direction::Response,
            "join_path",
            result.encode_to_vec()
        ),
        [ok(
            "result",
            None,
            r#"FunctionResult("join_path")"#,
            r#""/a/b/c""#
        )]
    );
    // One argument too many for a function without a variadic parameter: no schema.
    let call = p6::call_function::Request {
        name: "parse".into(),
        arguments: vec![dv(s("x")), dv(s("y"))],
    };
    let got = values(
        &programs,
        "CallFunction",
        Direction::Request,
        "",
        call.encode_to_vec(),
    );
    assert_eq!(got[0].3, Outcome::Value(r#""x""#.into()));
    assert_eq!(
        got[1].3,
        Outcome::Error(r#"invalid schema: no schema for argument 1 of function "parse""#.into())
    );

    // An identity that is not of the identity schema is an error with its path; and the
    // resource schema would not have typed the identity (it has no `tags`).
    let bad = p6::list_resource::Event {
        identity: Some(id(map(&[
            ("id", s("i-1")),
            ("region", s("eu")),
            ("tags", s("a")),
        ]))),
        ..Default::default()
    };
    let got = values(
        &programs,
        "ListResource",
        Direction::Response,
        t,
        bad.encode_to_vec(),
    );
    let Outcome::Error(e) = &got[0].3 else {
        panic!("{got:?}")
    };
    assert!(e.starts_with(".tags: "), "{e}");
    let program = programs.get(SchemaRef::Resource(t)).unwrap();
    let arena = bumpalo::Bump::new();
    assert!(tfwire::decode_msgpack(&program, &identity(), &arena).is_err());
}
