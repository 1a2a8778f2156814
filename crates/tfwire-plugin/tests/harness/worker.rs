//! The tap's worker (`tfwire_plugin::tap`) through its public API: values logged with
//! secrets masked, decode errors with their path, `--validate`'s problems, identities from
//! their own call, the summary last.

use bytes::Bytes;
use std::io::Write;
use tfwire_plugin::proxy::{Frame, Observer};
use tfwire_plugin::rpc::Direction;
use tfwire_plugin::tap::{Upstream, Worker, WorkerConfig};
use tfwire_tap_testkit::{attribute, schema_of};

/// A log in memory.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A current-thread runtime and a channel to nowhere (connected lazily, never used).
fn runtime_and_channel() -> (tokio::runtime::Runtime, tonic::transport::Channel) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let channel = {
        let _guard = runtime.enter();
        tonic::transport::Endpoint::from_static("http://127.0.0.1:9").connect_lazy()
    };
    (runtime, channel)
}

/// A worker for one provider that logs to memory (`validate`: check values as the tap's
/// --validate does).
fn logging_worker(validate: bool) -> (tokio::runtime::Runtime, Worker, Shared) {
    let (runtime, channel) = runtime_and_channel();
    let log = Shared::default();
    let worker = Worker::start(
        vec![Upstream::new(channel, runtime.handle().clone())],
        Some(Box::new(log.clone())),
        WorkerConfig::default().validate(validate),
    );
    (runtime, worker, log)
}

/// A protocol 6 `DynamicValue` of these MessagePack bytes.
fn dv(msgpack: &'static [u8]) -> Option<tfwire_plugin::tfplugin6::DynamicValue> {
    Some(tfwire_plugin::tfplugin6::DynamicValue {
        msgpack: Bytes::from_static(msgpack),
        json: Bytes::new(),
    })
}

/// Shows `frames` (method, direction, message, call) to provider 0's observer, in order.
fn feed<const N: usize>(worker: &Worker, frames: [(&str, Direction, Vec<u8>, u64); N]) {
    let tap = worker.observer(0);
    for (method, direction, message, call) in frames {
        tap.frame(Frame {
            method,
            direction,
            message: &Bytes::from(message),
            call,
        });
    }
}

/// The log of a schema, a plan request holding a secret, and a response whose value does
/// not decode: the secret masked, the error with its path, the summary last.
#[test]
fn log_redacts_and_reports_decode_errors() {
    use prost::Message as _;
    use tfwire_plugin::tfplugin6::{plan_resource_change, schema};
    let (_runtime, worker, log) = logging_worker(true);
    // `name` is required (for --validate), `password` sensitive.
    let response = schema_of(vec![
        schema::Attribute {
            required: true,
            optional: false,
            ..attribute("name", b"\"string\"", false)
        },
        attribute("password", b"\"string\"", true),
    ]);
    let request = plan_resource_change::Request {
        type_name: "db".into(),
        // {"name": null, "password": "hunter2-secret"}: name is required (--validate).
        config: dv(b"\x82\xa4name\xc0\xa8password\xaehunter2-secret"),
        ..Default::default()
    };
    let planned = plan_resource_change::Response {
        // {"name": true, ...}: a bool where the schema says string.
        planned_state: dv(b"\x82\xa4name\xc3\xa8password\xc0"),
        ..Default::default()
    };
    let (config_len, planned_len) = (
        request.config.as_ref().unwrap().msgpack.len(),
        planned.planned_state.as_ref().unwrap().msgpack.len(),
    );
    let frames: [(&str, Direction, Vec<u8>, u64); 3] = [
        (
            "/tfplugin6.Provider/GetProviderSchema",
            Direction::Response,
            response.encode_to_vec(),
            0,
        ),
        (
            "/tfplugin6.Provider/PlanResourceChange",
            Direction::Request,
            request.encode_to_vec(),
            1,
        ),
        (
            "/tfplugin6.Provider/PlanResourceChange",
            Direction::Response,
            planned.encode_to_vec(),
            1,
        ),
    ];
    feed(&worker, frames);
    let mut stats = worker.finish();
    assert_eq!(
        (stats.values, stats.decode_errors, stats.invalid),
        (2, 1, 1)
    );
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let strip = |l: &str| {
        // time and decode_us vary: checked for presence, then cut out.
        let t = l.find(",\"rpc\"").unwrap();
        let mut l = format!("{{{}", &l[t + 1..]);
        if let Some(d) = l.find(",\"decode_us\":") {
            let end = l[d + 1..].find(',').unwrap() + d + 1;
            l.replace_range(d..end, "");
        }
        l
    };
    assert_eq!(
        strip(lines[0]),
        format!(
            r#"{{"rpc":"PlanResourceChange","direction":"request","type_name":"db","field":"config","bytes":{config_len},"value":{{"name":null,"password":"(sensitive)"}},"invalid":[".name: required, but null"]}}"#
        )
    );
    let prefix = format!(
        r#"{{"rpc":"PlanResourceChange","direction":"response","type_name":"db","field":"planned_state","bytes":{planned_len},"error":"#
    );
    assert!(strip(lines[1]).starts_with(&prefix), "{}", lines[1]);
    assert!(
        lines[1].contains(".name"),
        "the error names the path: {}",
        lines[1]
    );
    assert!(
        lines[2].contains(&format!("\"summary\":{}", stats.summary_json())),
        "{}",
        lines[2]
    );
}

/// Identities from GetResourceIdentitySchemas decode the identity fields of later calls,
/// also after a second GetProviderSchema response (which names no identities).
#[test]
fn identities_survive_a_later_provider_schema() {
    use prost::Message as _;
    use tfwire_plugin::tfplugin6::{
        ResourceIdentityData, ResourceIdentitySchema, get_resource_identity_schemas, read_resource,
        resource_identity_schema,
    };
    let (_runtime, worker, log) = logging_worker(false);
    let schemas = schema_of(vec![attribute("name", b"\"string\"", false)]);
    let mut ids = get_resource_identity_schemas::Response::default();
    ids.identity_schemas.insert(
        "db".into(),
        ResourceIdentitySchema {
            version: 0,
            identity_attributes: vec![resource_identity_schema::IdentityAttribute {
                name: "id".into(),
                r#type: Bytes::from_static(b"\"number\""),
                required_for_import: true,
                ..Default::default()
            }],
        },
    );
    let identity = |b: &'static [u8]| {
        Some(ResourceIdentityData {
            identity_data: dv(b),
        })
    };
    let request = read_resource::Request {
        type_name: "db".into(),
        current_identity: identity(b"\x81\xa2id\x07"),
        ..Default::default()
    };
    let response = read_resource::Response {
        new_identity: identity(b"\x81\xa2id\x08"),
        ..Default::default()
    };
    let frames: [(&str, Direction, Vec<u8>, u64); 5] = [
        (
            "/tfplugin6.Provider/GetProviderSchema",
            Direction::Response,
            schemas.encode_to_vec(),
            0,
        ),
        (
            "/tfplugin6.Provider/GetResourceIdentitySchemas",
            Direction::Response,
            ids.encode_to_vec(),
            1,
        ),
        (
            "/tfplugin6.Provider/GetProviderSchema",
            Direction::Response,
            schemas.encode_to_vec(),
            2,
        ),
        (
            "/tfplugin6.Provider/ReadResource",
            Direction::Request,
            request.encode_to_vec(),
            3,
        ),
        (
            "/tfplugin6.Provider/ReadResource",
            Direction::Response,
            response.encode_to_vec(),
            3,
        ),
    ];
    feed(&worker, frames);
    let stats = worker.finish();
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert_eq!((stats.values, stats.decode_errors), (2, 0), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains(r#""field":"current_identity","bytes":5,"#)
            && lines[0].ends_with(r#""value":{"id":7}}"#),
        "{text}"
    );
    assert!(
        lines[1].contains(r#""field":"new_identity","bytes":5,"#)
            && lines[1].ends_with(r#""value":{"id":8}}"#),
        "{text}"
    );
}
