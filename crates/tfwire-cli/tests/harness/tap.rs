//! `tfwire tap`, Go-free.
//!
//! `--reattach`: an in-process tonic server (the tap tests' fake provider,
//! `tfwire-tap-testkit`: resource `db` with a sensitive `password`, planning echoes the
//! configuration) stands in for a provider in debug mode on a unix socket; the tap runs as a child process, prints the `TF_REATTACH_PROVIDERS` value to use
//! instead, forwards calls made through its socket, logs their values with the secrets
//! masked, records them in a redacted cassette, and on SIGTERM exits 0 and removes its
//! socket.
//!
//! Shim mode (`-- PROVIDER`): fake providers written as shell scripts (silent, flooding,
//! failing, serving a socket that never answers, ignoring SIGTERM, or pointing at the
//! in-process server) and every way the tap can end: each test asserts the exit code, the
//! message, that the tap returned (a generous bound: these are not speed tests), that no
//! process of the provider's group is left, and that the tap's `TMPDIR` is empty afterwards.

use crate::common::first_line;
use bytes::Bytes;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tfwire_plugin::tfplugin6::get_provider_schema;
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tls::{self, SocketDir};

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

/// Sends `signal` (`TERM`, `HUP`, `INT`) to `pid` (by the `kill` utility: the harness links
/// no libc bindings).
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {pid}: {status}");
}

/// Sends SIGTERM to `pid`.
fn sigterm(pid: u32) {
    signal(pid, "TERM");
}

/// The provider address the reattach tests give the fake provider.
const REATTACH_ADDRESS: &str = "registry.opentofu.org/test/db";

/// The fake provider served on a unix socket of a fresh directory, as a provider in debug
/// mode serves: the runtime serving it, the directory, the socket and the
/// `TF_REATTACH_PROVIDERS` value naming it.
fn fake_in_debug_mode() -> (
    tokio::runtime::Runtime,
    SocketDir,
    std::path::PathBuf,
    serde_json::Value,
) {
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
                .add_service(tfwire_tap_testkit::fake())
                .serve_with_incoming(tls::incoming(listener, None)),
        );
    }
    let reattach = serde_json::json!({
        REATTACH_ADDRESS: {
            "Protocol": "grpc",
            "ProtocolVersion": 6,
            "Pid": 4242,
            "Test": true,
            "Addr": {"Network": "unix", "String": provider_path.to_str().unwrap()},
        }
    });
    (runtime, dir, provider_path, reattach)
}

#[test]
fn reattach_forwards_logs_and_ends_on_sigterm() {
    let (runtime, dir, provider_path, reattach) = fake_in_debug_mode();
    let address = REATTACH_ADDRESS;
    let log = dir.path().join("tap.jsonl");
    let cassette = dir.path().join("cassette.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tfwire"))
        .args([
            "tap",
            "--mask",
            "name",
            "--log",
            log.to_str().unwrap(),
            "--record",
            cassette.to_str().unwrap(),
            "--redact",
            "--reattach",
        ])
        .arg(reattach.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let line = first_line(&mut child);
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
        tfwire_tap_testkit::schema_then_plan(channel, config(), true).await
    });
    assert_eq!(planned, Some(config()));

    // SIGTERM: a clean exit, the socket removed.
    let pid = child.id();
    sigterm(pid);
    let (code, stderr) = crate::common::ended(child, Duration::from_secs(30), "the tap (SIGTERM)");
    assert_eq!(code, Some(0), "{stderr}");
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

    // The cassette: one session, named by the reattach key, with the schema the tap asked
    // for and the client's calls, redacted: the secret (by its schema) and the name (by
    // `--mask name`) are placeholders, in the request and the response.
    let file = std::fs::read(&cassette).unwrap();
    let c = tfwire_plugin::cassette::Cassette::read(&file).unwrap();
    assert_eq!(c.sessions.len(), 1);
    let s = &c.sessions[0];
    assert_eq!(s.provider.as_deref(), Some(address));
    // The open marker the tap appended when it started, closed by the session's id.
    let first: serde_json::Value =
        serde_json::from_slice(file.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(first["tfwire_cassette_open"], 1, "{first}");
    assert_eq!(first["pid"], pid, "{first}");
    assert_eq!(first["provider"], address, "{first}");
    assert_eq!(first["session"].as_str(), s.id.as_deref(), "{first}");
    assert_eq!((s.protocol, s.redacted), (6, true));
    assert!(s.masks.iter().any(|m| m == "name"), "{:?}", s.masks);
    assert!(!s.schema.is_empty());
    let plan = s
        .calls
        .iter()
        .find(|c| c.method == "/tfplugin6.Provider/PlanResourceChange")
        .expect("the plan call");
    let redacted = b"\x82\xa4name\xac(redacted-1)\xa8password\xac(redacted-2)";
    for m in plan.requests.iter().chain(&plan.responses) {
        let at = m
            .windows(redacted.len())
            .position(|w| w == redacted)
            .map(|_| ());
        assert_eq!(at, Some(()), "{m:?}");
        assert!(!m.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()));
    }
    assert!(!String::from_utf8_lossy(&file).contains(SECRET));
    drop(dir);
}

/// A recording tap killed before it wrote its session (SIGKILL, as the client does to a
/// provider that has not exited 2 s after Shutdown) leaves its open marker: the cassette
/// then does not read, and `tfwire replay` refuses it naming the tap's pid and the provider.
#[test]
fn a_recording_tap_killed_before_writing_leaves_a_cassette_replay_refuses() {
    let (runtime, dir, _, reattach) = fake_in_debug_mode();
    let address = REATTACH_ADDRESS;
    let cassette = dir.path().join("cassette.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tfwire"))
        .args(["tap", "--record", cassette.to_str().unwrap(), "--reattach"])
        .arg(reattach.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let line = first_line(&mut child);
    let printed: serde_json::Value = serde_json::from_str(&line).unwrap();
    let tap_path = printed[address]["Addr"]["String"]
        .as_str()
        .unwrap()
        .to_owned();
    let planned = runtime.block_on(async {
        let channel = tls::connect(Path::new(&tap_path), None).await.unwrap();
        tfwire_tap_testkit::schema_then_plan(channel, config(), true).await
    });
    assert_eq!(planned, Some(config()));
    let pid = child.id();
    signal(pid, "KILL");
    child.wait().unwrap();

    let file = std::fs::read(&cassette).unwrap();
    let e = tfwire_plugin::cassette::Cassette::read(&file).unwrap_err();
    let want = format!(
        "cassette line 1 (byte 0): a recording tap (pid {pid}) started a session here for the \
         provider {address} and was stopped before writing it: record again; the client kills \
         a provider that has not exited 2 s after Shutdown"
    );
    assert_eq!(e.to_string(), want);
    let out = Command::new(env!("CARGO_BIN_EXE_tfwire"))
        .arg("replay")
        .arg(&cassette)
        .env_remove("TF_PLUGIN_MAGIC_COOKIE")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&want), "{stderr}");
    drop(dir);
}

/// The processes of process group `pgid` still alive (zombies aside), as `/proc` shows them.
fn group_members(pgid: u32) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`: the fields after the last ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            found.push(stat);
        }
    }
    found
}

/// What a run of the tap in shim mode left.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// A tap in shim mode around a fake provider: `body` is the shell script after the line that
/// records its process group (the group the tap put it in, whose leader is the tap's
/// watchdog), read from `/proc`.
struct Shim {
    work: SocketDir,
    child: std::process::Child,
    started: Instant,
    stdout: Option<std::thread::JoinHandle<String>>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Shim {
    fn start(body: &str, client_cert: Option<&str>, timeout: &str) -> Shim {
        Shim::start_with(body, client_cert, timeout, &[])
    }

    /// [`Shim::start`] with more options for the tap (before its `--`).
    fn start_with(body: &str, client_cert: Option<&str>, timeout: &str, options: &[&str]) -> Shim {
        use std::os::unix::fs::PermissionsExt;
        let work = SocketDir::new(None).unwrap();
        let tmp = work.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        let script = work.path().join("provider.sh");
        let pidfile = work.path().join("provider.pid");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho $(cut -d' ' -f5 /proc/$$/stat) > '{}'\n{body}\n",
                pidfile.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tfwire"));
        cmd.args(["tap", "--start-timeout", timeout])
            .args(options)
            .arg("--")
            .arg(&script)
            .env(
                "TF_PLUGIN_MAGIC_COOKIE",
                "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
            )
            .env("TMPDIR", &tmp)
            .env_remove("PLUGIN_UNIX_SOCKET_DIR")
            .env_remove("TFWIRE_TAP_START_TIMEOUT")
            .env_remove("PLUGIN_CLIENT_CERT")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(pem) = client_cert {
            cmd.env("PLUGIN_CLIENT_CERT", pem);
        }
        let mut child = cmd.spawn().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        Shim {
            work,
            child,
            started: Instant::now(),
            stdout: None,
            stderr: Some(stderr),
        }
    }

    /// Collects the tap's standard output on a thread (until then, the test reads it).
    fn drain_stdout(&mut self) {
        let mut out = self.child.stdout.take().unwrap();
        self.stdout = Some(std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            s
        }));
    }

    /// The provider's process group, once its script has recorded it.
    fn provider(&self) -> u32 {
        let pidfile = self.work.path().join("provider.pid");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(pid) = std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|t| t.trim().parse().ok())
            {
                return pid;
            }
            assert!(Instant::now() < deadline, "the provider did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the tap (it must return within `bound`), then checks that no process of the
    /// provider's group is left and that the tap's temporary directory is empty.
    fn finish(mut self, bound: Duration) -> Outcome {
        if self.stdout.is_none() {
            self.drain_stdout();
        }
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if self.started.elapsed() > bound {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "the tap did not return within {bound:?}: {}",
                    self.stderr.take().unwrap().join().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let stderr = self.stderr.take().unwrap().join().unwrap();
        let stdout = self.stdout.take().unwrap().join().unwrap();
        let pgid = self.provider();
        // A killed process's parent may take a moment to reap it.
        let deadline = Instant::now() + Duration::from_secs(5);
        until_none_left(deadline, &stderr, || {
            let left = group_members(pgid);
            (!left.is_empty())
                .then(|| format!("the provider's group {pgid} is still running: {left:?}"))
        });
        // (After a SIGKILL to the tap, its watchdog removes the directory: give it a moment.)
        until_none_left(deadline, &stderr, || {
            let left: Vec<_> = std::fs::read_dir(self.work.path().join("tmp"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            (!left.is_empty()).then(|| format!("left in TMPDIR: {left:?}"))
        });
        Outcome {
            code: status.code(),
            stdout,
            stderr,
        }
    }
}

/// Polls `left` every 50 ms until it answers `None`; past `deadline`, panics with its last
/// answer and the tap's standard error.
fn until_none_left(deadline: Instant, stderr: &str, left: impl Fn() -> Option<String>) {
    while let Some(left) = left() {
        assert!(Instant::now() < deadline, "{left}\n{stderr}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Generous: the tap must return, not be fast.
const RETURNS: Duration = Duration::from_secs(30);

/// Asserts exit 1 and a one-line error containing `message`.
fn fails_with(o: &Outcome, message: &str) {
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    let line = o
        .stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line in {:?}", o.stderr));
    assert!(line.contains(message), "{line:?} lacks {message:?}");
}

#[test]
fn tap_shim_provider_silent_times_out() {
    // A provider that prints nothing, and has a child of its own in its group.
    let o = Shim::start("sleep 1000 &\nexec sleep 1000", None, "1").finish(RETURNS);
    fails_with(
        &o,
        "provider.sh printed no handshake line within 1 s (--start-timeout, TFWIRE_TAP_START_TIMEOUT)",
    );
}

#[test]
fn tap_shim_start_timeout_from_the_environment() {
    let mut shim = Shim::start("exec sleep 1000", None, "1");
    // The flag wins over the variable; a bad variable is a usage error.
    let o = {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tfwire"));
        cmd.args(["tap", "--", "/bin/true"])
            .env("TF_PLUGIN_MAGIC_COOKIE", "x")
            .env("TFWIRE_TAP_START_TIMEOUT", "soon")
            .output()
            .unwrap()
    };
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: TFWIRE_TAP_START_TIMEOUT: expected a number of seconds above 0 and at most 86400, found \"soon\"\n"
    );
    shim.drain_stdout();
    fails_with(
        &shim.finish(RETURNS),
        "printed no handshake line within 1 s",
    );
}

#[test]
fn tap_shim_provider_flooding_without_newline() {
    // Gigabytes with no newline: one error after 64 KiB, in bounded memory.
    let o = Shim::start("exec cat /dev/zero", None, "60").finish(RETURNS);
    fails_with(
        &o,
        "provider.sh: no newline in the first 65536 bytes of the plugin's standard output: that is no handshake line (it starts \"\\0\\0",
    );
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
}

#[test]
fn tap_shim_provider_exits_early() {
    let o = Shim::start(
        "echo 'loading the configuration' >&2\necho 'boom: no credentials' >&2\nexit 3",
        None,
        "60",
    )
    .finish(RETURNS);
    fails_with(
        &o,
        "provider.sh ended (exit status: 3) before the tap could connect to it; its standard error: \"loading the configuration\\nboom: no credentials\"",
    );
    // Its standard error also passed through, as it came.
    assert!(
        o.stderr
            .starts_with("loading the configuration\nboom: no credentials\n"),
        "{}",
        o.stderr
    );
}

#[test]
fn tap_shim_provider_long_stderr_is_quoted_by_its_end() {
    let o = Shim::start(
        "i=0; while [ $i -lt 400 ]; do echo \"line $i of the provider's log\" >&2; i=$((i+1)); done\nexit 1",
        None,
        "60",
    )
    .finish(RETURNS);
    let line = o.stderr.lines().find(|l| l.starts_with("error: ")).unwrap();
    assert!(line.contains("ended (exit status: 1) before the tap could connect to it; the end of its standard error: \"…"), "{line}");
    assert!(line.ends_with("line 399 of the provider's log\""), "{line}");
    // 2 KiB of the end, escapes included (each line feed becomes two bytes).
    assert!(line.len() < 2 * 2048 + 300, "{}", line.len());
}

#[test]
fn tap_shim_bad_handshake_line() {
    let o = Shim::start("echo hello\nexec sleep 1000", None, "60").finish(RETURNS);
    fails_with(
        &o,
        "provider.sh: a handshake line has 4 to 6 fields separated by '|', found 1 in \"hello\"",
    );
}

/// A socket that accepts nothing (bound and listening, never answered).
fn mute_socket(dir: &Path) -> (std::os::unix::net::UnixListener, String) {
    let path = dir.join("mute.sock");
    let l = std::os::unix::net::UnixListener::bind(&path).unwrap();
    (l, path.display().to_string())
}

#[test]
fn tap_shim_socket_never_answers() {
    let work = SocketDir::new(None).unwrap();
    let (_listener, path) = mute_socket(work.path());
    let o = Shim::start(
        &format!("echo '1|6|unix|{path}|grpc|'\nexec sleep 1000"),
        None,
        "1",
    )
    .finish(RETURNS);
    fails_with(&o, "within 1 s (--start-timeout, TFWIRE_TAP_START_TIMEOUT)");
    assert!(o.stdout.is_empty(), "{}", o.stdout);
}

#[test]
fn tap_shim_socket_never_answers_automtls() {
    let work = SocketDir::new(None).unwrap();
    let (_listener, path) = mute_socket(work.path());
    let tofu = tls::Identity::generate_p521().unwrap();
    let provider = tls::Identity::generate_p521().unwrap();
    let cert = tfwire_plugin::handshake::base64_encode(provider.cert());
    let o = Shim::start(
        &format!("echo '1|6|unix|{path}|grpc|{cert}'\nexec sleep 1000"),
        Some(&tofu.cert_pem()),
        "1",
    )
    .finish(RETURNS);
    fails_with(
        &o,
        "provider.sh did not answer on its socket within 1 s (--start-timeout, TFWIRE_TAP_START_TIMEOUT)",
    );
}

#[test]
fn tap_shim_sigterm_while_starting_with_a_provider_ignoring_sigterm() {
    let shim = Shim::start("trap '' TERM\nwhile :; do sleep 1; done", None, "60");
    shim.provider();
    sigterm(shim.child.id());
    let o = shim.finish(RETURNS);
    fails_with(&o, "stopped by SIGTERM while ");
}

#[test]
fn tap_shim_sighup_while_starting() {
    let shim = Shim::start("exec sleep 1000", None, "60");
    shim.provider();
    signal(shim.child.id(), "HUP");
    fails_with(&shim.finish(RETURNS), "stopped by SIGHUP while ");
}

#[test]
fn tap_shim_sigint_goes_to_the_provider() {
    let shim = Shim::start(
        "trap 'echo interrupted >&2; exit 7' INT\nwhile :; do sleep 0.1; done",
        None,
        "60",
    );
    shim.provider();
    // The script sets its trap after recording its pid: let it.
    std::thread::sleep(Duration::from_millis(300));
    signal(shim.child.id(), "INT");
    fails_with(
        &shim.finish(RETURNS),
        "ended (exit status: 7) before the tap could connect to it; its standard error: \"interrupted\"",
    );
}

/// The in-process provider on a socket of `dir`, served on `runtime`.
fn serve_fake(runtime: &tokio::runtime::Runtime, dir: &Path) -> String {
    let path = dir.join("provider.sock");
    let _guard = runtime.enter();
    let listener = tokio::net::UnixListener::bind(&path).unwrap();
    runtime.spawn(
        tonic::transport::Server::builder()
            .add_service(tfwire_tap_testkit::fake())
            .serve_with_incoming(tls::incoming(listener, None)),
    );
    path.display().to_string()
}

/// A provider whose handshake line points at the in-process server and that then runs
/// `rest`: the tap serves; a call through it, then `end` ends it.
fn served(rest: &str, end: impl FnOnce(&Shim, &str)) -> Outcome {
    served_with(&[], rest, end)
}

/// [`served`] with more options for the tap.
fn served_with(options: &[&str], rest: &str, end: impl FnOnce(&Shim, &str)) -> Outcome {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let work = SocketDir::new(None).unwrap();
    let path = serve_fake(&runtime, work.path());
    let mut shim = Shim::start_with(
        &format!("echo '1|6|unix|{path}|grpc|'\n{rest}"),
        None,
        "60",
        options,
    );
    let mut line = String::new();
    let mut out = BufReader::new(shim.child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    let h = tfwire_plugin::handshake::Handshake::parse(&line)
        .unwrap_or_else(|e| panic!("the tap printed {line:?}: {e}"));
    let tmp = shim.work.path().join("tmp");
    assert!(
        Path::new(&h.address).starts_with(&tmp),
        "{} outside TMPDIR",
        h.address
    );
    runtime.block_on(async {
        let channel = tls::connect(Path::new(&h.address), None).await.unwrap();
        let schema = ProviderClient::new(channel)
            .get_provider_schema(get_provider_schema::Request {})
            .await
            .unwrap()
            .into_inner();
        assert!(schema.resource_schemas.contains_key("db"));
    });
    // The channel is dropped: the tap's only client has gone.
    end(&shim, &h.address);
    shim.stdout = Some(std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    }));
    shim.finish(RETURNS)
}

#[test]
fn tap_shim_client_gone_ends_a_provider_that_stays() {
    // go-plugin closes its connection when done; a provider that stays is ended after 1 s.
    let o = served("trap '' TERM\nexec sleep 1000", |_, _| {});
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

/// With `--record`, the session is in the cassette as soon as the client's last connection
/// has closed, before the tap's 1 s wait for its provider to end by itself (the client kills
/// the tap 2 s after asking it to shut down): here a provider that stays, so that the wait
/// is spent in full, and the session must be there well before it ends.
#[test]
fn tap_shim_record_writes_the_session_before_ending_the_provider() {
    let dir = SocketDir::new(None).unwrap();
    let cassette = dir.path().join("cassette.jsonl");
    let record = cassette.to_str().unwrap();
    let o = served_with(
        &[
            "--record",
            record,
            "--provider",
            "registry.opentofu.org/test/db",
        ],
        "trap '' TERM\nexec sleep 1000",
        |_, _| {
            // The client's channel has just been dropped.
            let gone = Instant::now();
            let c = loop {
                let file = std::fs::read(&cassette).unwrap_or_default();
                if let Ok(c) = tfwire_plugin::cassette::Cassette::read(&file)
                    && !c.sessions.is_empty()
                {
                    break c;
                }
                assert!(
                    gone.elapsed() < Duration::from_secs(1),
                    "no session within the tap's 1 s wait for its provider"
                );
                std::thread::sleep(Duration::from_millis(5));
            };
            assert_eq!(c.sessions.len(), 1);
            let s = &c.sessions[0];
            assert_eq!(s.provider.as_deref(), Some("registry.opentofu.org/test/db"));
            assert!(s.id.is_some());
            assert!(
                s.calls
                    .iter()
                    .any(|c| c.method == "/tfplugin6.Provider/GetProviderSchema"),
                "{:?}",
                s.calls
            );
        },
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    // Written once: the end of the tap adds nothing.
    let c = tfwire_plugin::cassette::Cassette::read(&std::fs::read(&cassette).unwrap()).unwrap();
    assert_eq!(c.sessions.len(), 1);
    drop(dir);
}

#[test]
fn tap_shim_provider_ends_after_serving() {
    let o = served("sleep 0.5\necho 'bye' >&2\nexit 4", |_, _| {});
    // Whichever came first (the client gone, or the provider's end), its status is reported.
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    assert!(o.stderr.contains("ended (exit status: 4)"), "{}", o.stderr);
    assert!(
        o.stderr.contains("its standard error: \"bye\""),
        "{}",
        o.stderr
    );
}

#[test]
fn tap_shim_sigterm_while_serving() {
    let o = served("exec sleep 1000", |shim, address| {
        assert!(Path::new(address).exists());
        sigterm(shim.child.id());
    });
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

#[test]
fn tap_shim_sigkill_of_the_tap_leaves_no_provider() {
    // Nothing in the tap runs after SIGKILL: its watchdog ends the group and removes the
    // socket directory.
    let shim = Shim::start("trap '' TERM\nsleep 1000 &\nexec sleep 1000", None, "60");
    shim.provider();
    signal(shim.child.id(), "KILL");
    let o = shim.finish(RETURNS);
    assert_eq!(o.code, None, "killed by a signal: {}", o.stderr);
}
