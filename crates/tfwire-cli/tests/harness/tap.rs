//! `tfwire tap --reattach`, Go-free: an in-process tonic server stands in for a provider in
//! debug mode on a unix socket; the tap runs as a child process, prints the
//! `TF_REATTACH_PROVIDERS` value to use instead, forwards calls made through its socket, logs
//! their values with the secrets masked, and on SIGTERM exits 0 and removes its socket.

use bytes::Bytes;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tfplugin6::provider_server::{Provider, ProviderServer};
use tfwire_plugin::tfplugin6::{
    DynamicValue, Schema, get_provider_schema, plan_resource_change, schema,
};
use tfwire_plugin::tls::{self, SocketDir};
use tonic::{Request, Response, Status};

/// A provider with one resource, `db`, whose `password` is sensitive; planning echoes the
/// configuration.
struct Fake;

#[tonic::async_trait]
impl Provider for Fake {
    async fn get_provider_schema(
        &self,
        _: Request<get_provider_schema::Request>,
    ) -> Result<Response<get_provider_schema::Response>, Status> {
        let attr = |name: &str, sensitive: bool| schema::Attribute {
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
        r: Request<plan_resource_change::Request>,
    ) -> Result<Response<plan_resource_change::Response>, Status> {
        Ok(Response::new(plan_resource_change::Response {
            planned_state: r.into_inner().config,
            ..Default::default()
        }))
    }
}

const SECRET: &str = "hunter2-reattach-secret";

/// `{"name": "a", "password": SECRET}` as MessagePack.
fn config() -> Bytes {
    let mut b = vec![0x82, 0xa4];
    b.extend_from_slice(b"name");
    b.extend_from_slice(&[0xa1, b'a', 0xa8]);
    b.extend_from_slice(b"password");
    b.push(0xa0 | u8::try_from(SECRET.len()).unwrap());
    b.extend_from_slice(SECRET.as_bytes());
    b.into()
}

/// Sends SIGTERM to `pid` (by the `kill` utility: the harness links no libc bindings).
fn sigterm(pid: u32) {
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -TERM {pid}: {status}");
}

#[test]
fn reattach_forwards_logs_and_ends_on_sigterm() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let dir = SocketDir::new(None).unwrap();
    let provider_path = dir.path().join("provider.sock");
    {
        let _guard = runtime.enter();
        let listener = tokio::net::UnixListener::bind(&provider_path).unwrap();
        runtime.spawn(
            tonic::transport::Server::builder()
                .add_service(ProviderServer::new(Fake))
                .serve_with_incoming(tls::incoming(listener, None)),
        );
    }
    let address = "registry.opentofu.org/test/db";
    let reattach = serde_json::json!({
        address: {
            "Protocol": "grpc",
            "ProtocolVersion": 6,
            "Pid": 4242,
            "Test": true,
            "Addr": {"Network": "unix", "String": provider_path.to_str().unwrap()},
        }
    });
    let log = dir.path().join("tap.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tfwire"))
        .args([
            "tap",
            "--mask",
            "name",
            "--log",
            log.to_str().unwrap(),
            "--reattach",
        ])
        .arg(reattach.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let printed: serde_json::Value = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("the tap printed {line:?}, not JSON: {e}"));
    // The same configuration, with the tap's own socket as the address.
    let tap_path = printed[address]["Addr"]["String"]
        .as_str()
        .unwrap_or_else(|| panic!("no Addr.String in {printed}"))
        .to_owned();
    let mut expected = reattach.clone();
    expected[address]["Addr"]["String"] = tap_path.clone().into();
    assert_eq!(printed, expected);
    assert_ne!(Path::new(&tap_path), provider_path);

    // Calls through the tap reach the provider and come back unchanged.
    let planned = runtime.block_on(async {
        let channel = tls::connect(Path::new(&tap_path), None).await.unwrap();
        let mut client = ProviderClient::new(channel);
        let schema = client
            .get_provider_schema(get_provider_schema::Request {})
            .await
            .unwrap()
            .into_inner();
        assert!(schema.resource_schemas.contains_key("db"));
        client
            .plan_resource_change(plan_resource_change::Request {
                type_name: "db".into(),
                config: Some(DynamicValue {
                    msgpack: config(),
                    json: Bytes::new(),
                }),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .planned_state
    });
    assert_eq!(planned.map(|v| v.msgpack), Some(config()));

    // SIGTERM: a clean exit, the socket removed.
    sigterm(child.id());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the tap did not end on SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    // The summary with its latency figures, for `--nocapture` readers.
    eprint!("{stderr}");
    assert!(!Path::new(&tap_path).exists(), "{tap_path} is left behind");
    assert!(
        !Path::new(&tap_path).parent().unwrap().exists(),
        "the tap's socket directory is left behind"
    );

    // The log: both values of the plan call, the secret and the masked name hidden, the
    // summary last.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains(SECRET), "{text}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // `password` by its schema, `name` by `--mask name`.
    let masked = serde_json::json!({"name": "(sensitive)", "password": "(sensitive)"});
    for (direction, field) in [("request", "config"), ("response", "planned_state")] {
        let r = records
            .iter()
            .find(|r| r["direction"] == direction && r["field"] == field)
            .unwrap_or_else(|| panic!("no {direction} {field} record in {text}"));
        assert_eq!(r["rpc"], "PlanResourceChange", "{r}");
        assert_eq!(r["type_name"], "db", "{r}");
        assert_eq!(r["provider"], address, "{r}");
        assert_eq!(r["bytes"], config().len(), "{r}");
        assert_eq!(r["value"], masked, "{r}");
    }
    let summary = &records.last().unwrap()["summary"];
    assert_eq!(
        summary["rpcs"]["PlanResourceChange"]["calls"], 1,
        "{summary}"
    );
    assert_eq!(summary["values"], 2, "{summary}");
    assert_eq!(summary["decode_errors"], 0, "{summary}");
    // The same summary went to standard error.
    assert!(stderr.contains("\"decode_errors\":0"), "{stderr}");
    drop(dir);
}
