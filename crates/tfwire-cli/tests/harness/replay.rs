//! `tfwire replay`, Go-free: the binary started as a client starts a provider (magic cookie,
//! AutoMTLS certificate, protocol versions, socket directory), called through its handshake
//! line under TLS, stopped by go-plugin's controller; started by a parent that dies; in
//! reattach mode, ended by SIGTERM. Each test bounds how long the process takes to end.

use crate::common::first_line;
use bytes::Bytes;
use prost::Message as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tfwire_plugin::cassette::{Call, CallStatus, Cassette, Session};
use tfwire_plugin::handshake::Handshake;
use tfwire_plugin::proxy::RawCodec;
use tfwire_plugin::tfplugin6::{self, provider_client::ProviderClient};
use tfwire_plugin::tls::{self, Identity, SocketDir};

/// How long a replay may take to end once told to (these are not speed tests).
const ENDS_WITHIN: Duration = Duration::from_secs(20);

fn dv(msgpack: &'static [u8]) -> Option<tfplugin6::DynamicValue> {
    Some(tfplugin6::DynamicValue {
        msgpack: Bytes::from_static(msgpack),
        json: Bytes::new(),
    })
}

fn read(state: &'static [u8]) -> tfplugin6::read_resource::Request {
    tfplugin6::read_resource::Request {
        type_name: "db".into(),
        current_state: dv(state),
        ..Default::default()
    }
}

/// A cassette file of the testkit's provider (`db {name, password (sensitive)}`) with one
/// ReadResource.
fn cassette(dir: &Path) -> PathBuf {
    let response = tfplugin6::read_resource::Response {
        new_state: dv(b"\x82\xa4name\xa1a\xa8password\xa2pw"),
        ..Default::default()
    };
    let c = Cassette {
        sessions: vec![Session {
            provider: Some("registry.opentofu.org/acme/db".into()),
            version: Some("1.0.0".into()),
            protocol: 6,
            schema: tfwire_tap_testkit::db_schema().encode_to_vec().into(),
            calls: vec![Call {
                method: "/tfplugin6.Provider/ReadResource".into(),
                requests: vec![
                    read(b"\x82\xa4name\xa1a\xa8password\xa2pw")
                        .encode_to_vec()
                        .into(),
                ],
                responses: vec![response.encode_to_vec().into()],
                status: CallStatus::OK,
            }],
            ..Default::default()
        }],
    };
    let path = dir.join("cassette.jsonl");
    let mut file = std::fs::File::create(&path).unwrap();
    c.write(&mut file).unwrap();
    path
}

fn tfwire() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tfwire"));
    cmd.env_remove("PLUGIN_CLIENT_CERT")
        .env_remove("PLUGIN_UNIX_SOCKET_DIR")
        .env_remove("PLUGIN_PROTOCOL_VERSIONS")
        .env_remove("TF_PLUGIN_MAGIC_COOKIE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Waits for `child` to end within [`ENDS_WITHIN`]; its exit code and standard error.
fn ended(child: Child) -> (Option<i32>, String) {
    crate::common::ended(child, ENDS_WITHIN, "tfwire replay")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// As OpenTofu starts it: AutoMTLS, the handshake line, a call that matches and one that
/// does not (its error, also on standard error), then the controller's Shutdown ends it with
/// exit status 1 (one call matched nothing), its socket directory removed.
#[test]
fn replay_shim_answers_under_automtls_and_ends_on_shutdown() {
    let work = SocketDir::new(None).unwrap();
    let path = cassette(work.path());
    let sockets = work.path().join("sockets");
    std::fs::create_dir(&sockets).unwrap();
    let tofu = Identity::generate_p521().unwrap();
    let mut child = tfwire()
        .arg("replay")
        .arg(&path)
        .env(
            "TF_PLUGIN_MAGIC_COOKIE",
            "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
        )
        .env("PLUGIN_CLIENT_CERT", tofu.cert_pem())
        .env("PLUGIN_PROTOCOL_VERSIONS", "5,6")
        .env("PLUGIN_UNIX_SOCKET_DIR", &sockets)
        .spawn()
        .unwrap();
    let line = first_line(&mut child);
    let h = Handshake::parse(&line).unwrap_or_else(|e| panic!("printed {line:?}: {e}"));
    assert_eq!((h.app_version, h.network.as_str()), (6, "unix"));
    assert!(Path::new(&h.address).starts_with(&sockets), "{}", h.address);
    let server_cert = h.server_cert.clone().expect("a certificate under AutoMTLS");
    runtime().block_on(async {
        let config = tls::client_config(&tofu, server_cert.into()).unwrap();
        let channel = tls::connect(Path::new(&h.address), Some(config))
            .await
            .unwrap();
        let mut client = ProviderClient::new(channel.clone());
        // The map in the other order: the recorded answer.
        let got = client
            .read_resource(read(b"\x82\xa8password\xa2pw\xa4name\xa1a"))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(got.new_state, dv(b"\x82\xa4name\xa1a\xa8password\xa2pw"));
        let e = client
            .read_resource(read(b"\x82\xa4name\xa1b\xa8password\xa2pw"))
            .await
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::FailedPrecondition);
        let mut grpc = tonic::client::Grpc::new(channel);
        grpc.ready().await.unwrap();
        grpc.unary(
            tonic::Request::new(Bytes::new()),
            "/plugin.GRPCController/Shutdown".parse().unwrap(),
            RawCodec,
        )
        .await
        .unwrap();
    });
    let (code, stderr) = ended(child);
    assert_eq!(code, Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert_eq!(
        lines[0],
        "tfwire replay: ReadResource of \"db\": no recorded call matches; the nearest \
         (sessions[0].calls[0]) differs in 1 place, first at current_state.name: expected \
         \"a\", found \"b\""
    );
    // The summary: both ReadResource calls (Shutdown is go-plugin's, not the cassette's).
    let summary: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let summary = &summary["summary"];
    assert_eq!(
        (summary["calls"].as_u64(), summary["unmatched"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(summary["answer_us"]["p99"].as_u64() >= summary["answer_us"]["p50"].as_u64());
    assert_eq!(lines[2], "tfwire replay: 1 call matched no recorded call");
    assert_eq!(std::fs::read_dir(&sockets).unwrap().count(), 0);
}

/// Started by a process that then dies (SIGKILL: nothing tells the replay), it ends by
/// itself.
#[test]
fn replay_ends_when_its_parent_does() {
    parent_dies(false);
}

/// The parent dies while the replay is still starting (blocked reading its cassette from a
/// FIFO): once up, it ends all the same (the parent it watches is the one it started with).
#[test]
fn replay_ends_when_its_parent_dies_while_it_starts() {
    parent_dies(true);
}

/// Kills the replay of pid `.0` should a failed test leave it running (its command line is
/// checked first: the pid may be another process's by then).
struct KillIfLeft(String);

impl Drop for KillIfLeft {
    fn drop(&mut self) {
        let cmdline = std::fs::read(format!("/proc/{}/cmdline", self.0)).unwrap_or_default();
        if cmdline.split(|&b| b == 0).any(|arg| arg == b"replay") {
            let _ = Command::new("kill").arg("-9").arg(&self.0).status();
        }
    }
}

/// A parent (a shell) starts `tfwire replay` in the background, prints its pid and waits;
/// it is killed once the replay is up, or, `early`, while the replay waits to read its
/// cassette from a FIFO (fed after the kill). The replay must end by itself.
fn parent_dies(early: bool) {
    let work = SocketDir::new(None).unwrap();
    let mut path = cassette(work.path());
    let bytes = std::fs::read(&path).unwrap();
    if early {
        let fifo = work.path().join("cassette.fifo");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        path = fifo;
    }
    let out = work.path().join("replay.out");
    let mut parent = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" replay \"$1\" >\"$2\" 2>&1 & echo $!; exec sleep 1000")
        .arg(env!("CARGO_BIN_EXE_tfwire"))
        .arg(&path)
        .arg(&out)
        .env("TF_PLUGIN_MAGIC_COOKIE", "x")
        .env_remove("PLUGIN_CLIENT_CERT")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = first_line(&mut parent);
    let pid = pid.trim().to_owned();
    let _reaper = KillIfLeft(pid.clone());
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| !r.trim_start().starts_with('Z'))
        })
    };
    let started = Instant::now();
    if early {
        // Blocked opening the FIFO (the kernel's wait for a writer).
        while std::fs::read_to_string(format!("/proc/{pid}/wchan"))
            .ok()
            .as_deref()
            != Some("wait_for_partner")
        {
            assert!(
                started.elapsed() < ENDS_WITHIN,
                "the replay did not open its cassette"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    } else {
        // Up once it has printed its handshake line.
        while !std::fs::read_to_string(&out).is_ok_and(|s| s.starts_with("1|6|unix|")) {
            assert!(started.elapsed() < ENDS_WITHIN, "the replay did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert!(alive(&pid));
    parent.kill().unwrap();
    parent.wait().unwrap();
    let killed = Instant::now();
    if early {
        std::fs::write(&path, &bytes).unwrap();
    }
    while alive(&pid) {
        assert!(
            killed.elapsed() < ENDS_WITHIN,
            "the replay outlived its parent"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    if early {
        let out = std::fs::read_to_string(&out).unwrap();
        assert!(
            out.starts_with("1|6|unix|"),
            "it started, then ended: {out}"
        );
    }
}

/// Reattach mode: the TF_REATTACH_PROVIDERS value, calls through it, SIGTERM ends it (exit
/// 0: every call matched).
#[test]
fn replay_reattach_ends_on_sigterm() {
    let work = SocketDir::new(None).unwrap();
    let path = cassette(work.path());
    let mut child = tfwire()
        .args(["replay", "--reattach"])
        .arg(&path)
        .spawn()
        .unwrap();
    let line = first_line(&mut child);
    let json: serde_json::Value = serde_json::from_str(&line).unwrap();
    let p = &json["registry.opentofu.org/acme/db"];
    assert_eq!(p["ProtocolVersion"], 6);
    assert_eq!(p["Pid"], child.id());
    assert_eq!(p["Addr"]["Network"], "unix");
    let socket = p["Addr"]["String"].as_str().unwrap().to_owned();
    runtime().block_on(async {
        let channel = tls::connect(Path::new(&socket), None).await.unwrap();
        // Two clients in turn, as two commands reattach.
        for _ in 0..2 {
            let got = ProviderClient::new(channel.clone())
                .read_resource(read(b"\x82\xa4name\xa1a\xa8password\xa2pw"))
                .await
                .unwrap()
                .into_inner();
            assert!(got.new_state.is_some());
        }
    });
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (code, stderr) = ended(child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!Path::new(&socket).exists());
}

/// Started by hand, without --reattach: a usage error. A cassette that does not read: exit
/// 1, the file named.
#[test]
fn replay_usage_and_input_errors() {
    let work = SocketDir::new(None).unwrap();
    let path = cassette(work.path());
    let (code, stderr) = ended(tfwire().arg("replay").arg(&path).spawn().unwrap());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("(TF_PLUGIN_MAGIC_COOKIE is not set); to run it by hand, use --reattach"),
        "{stderr}"
    );
    let bad = work.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"tfwire_cassette\":99}\n").unwrap();
    let (code, stderr) = ended(
        tfwire()
            .args(["replay", "--reattach"])
            .arg(&bad)
            .spawn()
            .unwrap(),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: {}: ", bad.display())),
        "{stderr}"
    );
    let (code, stderr) = ended(
        tfwire()
            .args(["replay", "--reattach", "--provider", "acme/queue"])
            .arg(&path)
            .spawn()
            .unwrap(),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "the cassette holds no session of \"acme/queue\" (it holds \
             registry.opentofu.org/acme/db)\n"
        ),
        "{stderr}"
    );
}
