//! `tfwire tap`: a transparent proxy between OpenTofu (or Terraform) and a provider, logging
//! every `DynamicValue` decoded with the provider's schema, sensitive attributes masked.

mod child;
mod record;

use crate::Failure;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tfwire_json::{Escape, JsonWriter};
use tfwire_plugin::cassette::Recording;
use tfwire_plugin::handshake::{Handshake, LineReader};
use tfwire_plugin::proxy::Forward;
use tfwire_plugin::tap::{Upstream, Worker, WorkerConfig, fetch_schemas};
use tfwire_plugin::tls::{self, Identity, SocketDir};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::UnixListener;

/// Run between OpenTofu and a provider, logging every value that passes.
///
/// Shim mode (`-- PROVIDER [ARGS]`): install a wrapper in the provider's place (a filesystem
/// mirror or a `dev_overrides` directory) that runs `exec tfwire tap --log FILE --
/// /path/to/real-provider "$@"`. The tap starts the provider, speaks go-plugin's handshake on
/// both sides (AutoMTLS included: a fresh certificate each way, each side trusting exactly the
/// other's) and forwards every call unchanged, known or not, streams included. It ends when the
/// provider does (OpenTofu stops it through go-plugin's controller), when OpenTofu's last
/// connection closes (the provider then has 1 s to end by itself), or on SIGTERM or SIGHUP;
/// SIGINT is passed on to the provider.
///
/// The provider runs in a process group of its own, and on every way out (its start failed
/// or timed out, a signal, OpenTofu gone, the provider ended) the tap ends the whole group
/// (SIGTERM, 1 s, SIGKILL) and removes its temporary directory, which holds its socket and
/// the provider's (the provider's PLUGIN_UNIX_SOCKET_DIR). Limits of the start, as
/// go-plugin's client has them: the handshake line is at most 64 KiB (65,536 bytes, newline
/// included); the provider has --start-timeout (default 60 s) to print it, answer on its
/// socket and return its schema. A provider that ends before that fails the tap (exit 1) with
/// its exit status and the end of its standard error (at most 2 KiB). A watchdog process
/// ends the group and removes the directory even when the tap is killed by SIGKILL.
///
/// Reattach mode (`--reattach JSON`): JSON is the `TF_REATTACH_PROVIDERS` value a provider in
/// debug mode printed. The tap listens on a socket of its own for each provider, prints the
/// `TF_REATTACH_PROVIDERS` value to give OpenTofu instead, and runs until SIGINT or SIGTERM.
///
/// The log (`--log FILE`, JSON lines): one record per value with `time`, `rpc`, `direction`,
/// `type_name`, `field`, `bytes`, `decode_us` and `value` (sensitive and write-only
/// attributes "(sensitive)") or `error` (path, message, byte offset), then a last record
/// `{"time":…,"summary":{…}}`: calls, frames and bytes per RPC, values, decode errors, and the
/// p50/p99 of decode time and of the time the tap held a frame. The summary also goes to
/// standard error at exit. Values are decoded on a thread of their own, never on the
/// forwarding path, and a value that does not decode never stops the call. Values the masks
/// match (see the Masks options) are "(sensitive)" in the log too.
///
/// The cassette (`--record FILE`, JSON Lines, appended under an exclusive lock): one session
/// per provider the tap served (address, version, protocol, schema, every call's messages in
/// order and its status), for `tfwire replay`, written as soon as the provider has ended or
/// the client's last connection closed. When it starts, the tap appends a line that marks
/// the session open: a tap killed before it wrote its session leaves a cassette that
/// `tfwire replay` refuses, naming the tap's pid. With `--redact`, every value the
/// schema marks sensitive or write-only, and every value the masks match, is a placeholder of
/// the same type (`"(redacted-N)"`, `N`, `false`; the same secret, the same N), and those
/// strings are overwritten with `*` wherever else they occur (diagnostics, private state,
/// provider logs); the session says `"redacted":true`. A session that cannot be redacted is
/// not written (exit 1).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire tap --log /tmp/tap.jsonl -- /opt/providers/terraform-provider-aws_v6.0.0\n  \
    tfwire tap --reattach \"$TF_REATTACH_PROVIDERS\" --log /tmp/tap.jsonl\n  \
    tfwire tap --record /tmp/cassette.jsonl --redact -- /opt/providers/terraform-provider-aws_v6.0.0\n\n\
    Exit codes: 0 the provider ended (or SIGTERM) and every value decoded, 1 the provider could \
    not be started or reached, a value did not decode or (--validate) did not conform, the \
    cassette (--record) could not be written or its session redacted, \
    2 usage error.")]
pub(crate) struct Args {
    #[command(flatten)]
    masks: crate::mask::MaskArgs,
    /// Write every value as a JSON line to FILE (created or truncated).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Append the provider's session (its schema, every call and status) to the cassette
    /// FILE when the tap ends (created when missing; several taps may append at once).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With --record: replace every sensitive, write-only and masked value by a placeholder
    /// of the same type, so that the cassette can be shared.
    #[arg(long, requires = "record")]
    redact: bool,
    /// With --record: the provider's source address (registry.opentofu.org/hashicorp/null),
    /// when it cannot be read from the provider's path (…/HOST/NS/TYPE/VERSION/OS_ARCH/…).
    #[arg(long = "provider", value_name = "ADDR", requires = "record")]
    provider_address: Option<String>,
    /// With --record: the provider's version (3.2.4), when not in its path.
    #[arg(long, value_name = "VERSION", requires = "record")]
    provider_version: Option<String>,
    /// Also report configuration values that do not conform to the schema beyond their type:
    /// required attributes null, computed-only attributes set, block counts outside
    /// min_items/max_items.
    #[arg(long)]
    validate: bool,
    /// Shim mode: how long the provider has to print its handshake line, answer on its
    /// socket and return its schema, in seconds (fractions allowed, at most 86400); then the
    /// tap ends the provider and exits 1. Default: TFWIRE_TAP_START_TIMEOUT, else 60
    /// (go-plugin's StartTimeout).
    #[arg(long, value_name = "SECONDS")]
    start_timeout: Option<String>,
    /// The tap's own watchdog (started by the tap, not by hand): when its standard input ends,
    /// which happens whenever the tap ends, removes DIR (the tap's socket directory) and
    /// sends SIGKILL to its own process group, which the provider joined.
    #[arg(long, hide = true, value_name = "DIR")]
    watch_dir: Option<PathBuf>,
    /// Reattach mode: a TF_REATTACH_PROVIDERS value.
    #[arg(long, value_name = "JSON", conflicts_with = "provider")]
    reattach: Option<String>,
    /// Shim mode: the provider's executable and its arguments (after `--`).
    #[arg(last = true, value_name = "PROVIDER")]
    provider: Vec<String>,
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    if let Some(dir) = &args.watch_dir {
        child::watchdog(dir);
        return Ok(());
    }
    let config = WorkerConfig::default()
        .validate(args.validate)
        .masks(args.masks.masks()?);
    if args.reattach.is_none() && args.provider.is_empty() {
        return Err(Failure::Usage(
            "tfwire tap needs a provider to start (`-- /path/to/provider`) or --reattach JSON"
                .into(),
        ));
    }
    let record = match &args.record {
        Some(path) => Some(record::Record::new(
            path.clone(),
            args.redact.then(|| args.masks.masks()).transpose()?,
            args.provider_address.clone(),
            args.provider_version.clone(),
        )),
        None => None,
    };
    let log: Option<Box<dyn std::io::Write + Send>> = match &args.log {
        None => None,
        Some(p) => Some(Box::new(std::io::BufWriter::with_capacity(
            1 << 16,
            std::fs::File::create(p)
                .map_err(|e| Failure::Input(format!("--log {}: {e}", p.display())))?,
        ))),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Input(format!("starting the runtime: {e}")))?;
    let handle = runtime.handle().clone();
    let (worker, ended) = match &args.reattach {
        Some(json) => runtime.block_on(reattach(json, handle, log, config, record.as_ref()))?,
        None => {
            let timeout = start_timeout(args.start_timeout.as_deref())?;
            runtime.block_on(shim(
                &args.provider,
                timeout,
                handle,
                log,
                config,
                record.as_ref(),
            ))?
        }
    };
    // The sessions first (shim and reattach wrote them already when the provider ended;
    // this writes any left): the client kills the tap soon after its provider is asked to
    // shut down, and the recorder has every frame already.
    let recorded = record.map_or(Ok(()), record::Record::finish);
    // The runtime's tasks (connections) hold observers: end them, then the worker drains
    // what was sent and returns the figures.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    let mut stats = worker.finish();
    eprintln!("tfwire tap: {}", stats.summary_json());
    recorded?;
    if stats.dropped > 0 {
        eprintln!(
            "tfwire tap: the decoder fell behind: {} frames or timings were not logged (the calls \
             were forwarded)",
            stats.dropped
        );
    }
    if stats.decode_errors > 0 || stats.invalid > 0 {
        return Err(Failure::Exit(
            1,
            Some(format!(
                "tfwire tap: {} of {} values did not decode, {} did not conform (see the log)",
                stats.decode_errors, stats.values, stats.invalid
            )),
        ));
    }
    ended
}

/// The default of `--start-timeout`: go-plugin's `StartTimeout`.
const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(60);

/// The start timeout: `--start-timeout`, else `TFWIRE_TAP_START_TIMEOUT`, else 60 s.
fn start_timeout(flag: Option<&str>) -> Result<Duration, Failure> {
    let (text, origin) = match (flag, std::env::var("TFWIRE_TAP_START_TIMEOUT")) {
        (Some(t), _) => (t.to_owned(), "--start-timeout"),
        (None, Ok(t)) => (t, "TFWIRE_TAP_START_TIMEOUT"),
        (None, Err(_)) => return Ok(DEFAULT_START_TIMEOUT),
    };
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= 86_400.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            Failure::Usage(format!(
                "{origin}: expected a number of seconds above 0 and at most 86400, found {text:?}"
            ))
        })
}

/// A duration in seconds, for messages (`60 s`, `0.5 s`).
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Why the provider's start failed.
enum StartFailure {
    /// What the provider printed, or how it answered, failed (the message).
    Output(String),
    /// The provider ended.
    Ended(std::process::ExitStatus),
    /// The start timed out, or a signal ended it (the message).
    Message(String),
}

/// What the provider's start was waiting for, for the timeout's message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Line,
    Connect,
    Schema,
}

/// What ends the tap from outside: `SIGTERM` and `SIGHUP` end it (and the provider's
/// group); `SIGINT` is passed on to the provider's group (see [`Signals::next`]).
struct Signals {
    term: tokio::signal::unix::Signal,
    hup: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Result<Signals, Failure> {
        use tokio::signal::unix::{SignalKind, signal};
        let handler =
            |kind, name| signal(kind).map_err(|e| Failure::Input(format!("{name} handler: {e}")));
        Ok(Signals {
            term: handler(SignalKind::terminate(), "SIGTERM")?,
            hup: handler(SignalKind::hangup(), "SIGHUP")?,
            int: handler(SignalKind::interrupt(), "SIGINT")?,
        })
    }

    /// The next signal that ends the tap (its name). `SIGINT` reaches the whole foreground
    /// group when the user presses Ctrl-C; the provider, in a group of its own, gets it from
    /// the tap instead, as it would without the tap (go-plugin's servers ignore it and let
    /// OpenTofu stop them), and the tap goes on as long as the provider does.
    async fn next(&mut self, provider: Option<rustix::process::Pid>) -> &'static str {
        loop {
            tokio::select! {
                _ = self.term.recv() => return "SIGTERM",
                _ = self.hup.recv() => return "SIGHUP",
                _ = self.int.recv() => {
                    if let Some(g) = provider {
                        let _ = rustix::process::kill_process_group(
                            g,
                            rustix::process::Signal::INT,
                        );
                    }
                }
            }
        }
    }
}

/// Shim mode; returns the worker and how the provider ended. The provider's process group is
/// ended, and the tap's socket directory (which holds the provider's socket too) removed, on
/// every way out of this function.
async fn shim(
    command: &[String],
    start_timeout: Duration,
    handle: tokio::runtime::Handle,
    log: Option<Box<dyn std::io::Write + Send>>,
    config: WorkerConfig,
    record: Option<&record::Record>,
) -> Result<(Worker, Result<(), Failure>), Failure> {
    if std::env::var_os("TF_PLUGIN_MAGIC_COOKIE").is_none() {
        return Err(Failure::Usage(
            "tfwire tap -- PROVIDER is started by OpenTofu or Terraform in the provider's place \
             (TF_PLUGIN_MAGIC_COOKIE is not set); to run it by hand, use --reattach"
                .into(),
        ));
    }
    // AutoMTLS: OpenTofu's certificate, which our server will require.
    let client_cert = match std::env::var("PLUGIN_CLIENT_CERT") {
        Ok(pem) if !pem.is_empty() => {
            Some(tls::cert_from_pem(&pem).map_err(|e| Failure::Input(e.to_string()))?)
        }
        _ => None,
    };
    let tls_err = |e: tfwire_plugin::Error| Failure::Input(format!("TLS: {e}"));
    // A fresh identity each way: towards the provider (client) and towards OpenTofu (server).
    let (upstream_id, server_tls) = match client_cert {
        Some(client) => {
            let down = Identity::generate().map_err(tls_err)?;
            let config = tls::server_config(&down, client).map_err(tls_err)?;
            (
                Some(Identity::generate().map_err(tls_err)?),
                Some((down, config)),
            )
        }
        None => (None, None),
    };
    let dir = SocketDir::new(
        std::env::var_os("PLUGIN_UNIX_SOCKET_DIR")
            .as_deref()
            .map(Path::new),
    )
    .map_err(|e| Failure::Input(format!("creating the tap's socket directory: {e}")))?;
    let mut signals = Signals::new()?;
    let name = std::ffi::OsString::from(&command[0]);
    let (mut provider, mut stdout) = child::Provider::spawn(
        command,
        upstream_id.as_ref().map(Identity::cert_pem).as_deref(),
        dir.path(),
    )?;

    // The start, bounded by the start timeout: the handshake line, the connection to the
    // provider's socket, its schema.
    let stage = std::cell::Cell::new(Stage::Line);
    let eof = std::cell::Cell::new(false);
    let start = async {
        let mut reader = LineReader::new();
        let mut buf = vec![0u8; 8192];
        let rest = loop {
            let n = stdout
                .read(&mut buf)
                .await
                .map_err(|e| format!("reading the handshake line: {e}"))?;
            if n == 0 {
                eof.set(true);
                break Vec::new();
            }
            if let Some(used) = reader.feed(&buf[..n]).map_err(|e| e.to_string())? {
                break buf[used..n].to_vec();
            }
        };
        if !reader.is_complete() && reader.line().is_empty() {
            return Err(String::from(
                "its standard output ended without a handshake line",
            ));
        }
        let up = reader.handshake().map_err(|e| e.to_string())?;
        if up.protocol != "grpc" || up.network != "unix" {
            return Err(format!(
                "it serves {} over {}: the tap forwards gRPC on unix sockets only",
                up.protocol, up.network
            ));
        }
        let upstream_tls = match (&up.server_cert, &upstream_id) {
            (Some(cert), Some(id)) => {
                Some(tls::client_config(id, cert.clone().into()).map_err(|e| format!("TLS: {e}"))?)
            }
            (Some(_), None) => {
                return Err("it sent a certificate though OpenTofu asked for no TLS".into());
            }
            (None, _) => None,
        };
        stage.set(Stage::Connect);
        let channel = tls::connect(Path::new(&up.address), upstream_tls)
            .await
            .map_err(|e| e.to_string())?;
        stage.set(Stage::Schema);
        let schemas = fetch_schemas(channel.clone(), protocol(up.app_version)).await;
        Ok::<_, String>((up, rest, channel, schemas))
    };
    let group = provider.group();
    let shown = child::inline(&name.to_string_lossy());
    let started = tokio::select! {
        r = tokio::time::timeout(start_timeout, start) => match r {
            Ok(Ok(s)) => Ok(s),
            Ok(Err(e)) => Err(StartFailure::Output(e)),
            Err(_) => Err(StartFailure::Message(format!(
                "{shown} {} within {} (--start-timeout, TFWIRE_TAP_START_TIMEOUT)",
                match stage.get() {
                    Stage::Line => "printed no handshake line",
                    Stage::Connect => "did not answer on its socket",
                    Stage::Schema => "did not answer GetProviderSchema",
                },
                seconds(start_timeout),
            ))),
        },
        status = provider.wait() => Err(match status {
            Ok(s) => StartFailure::Ended(s),
            Err(Failure::Input(e)) => StartFailure::Message(e),
            Err(_) => StartFailure::Message("waiting for the provider".into()),
        }),
        signal = signals.next(group) => Err(StartFailure::Message(
            format!("stopped by {signal} while {shown} was starting")
        )),
    };
    let started = match started {
        Ok(s) => Ok(s),
        Err(StartFailure::Message(m)) => Err(m),
        Err(StartFailure::Ended(s)) => Err(provider
            .ended(&name, s, "before the tap could connect to it")
            .await),
        // A provider whose output ends has usually ended: its status says more.
        Err(StartFailure::Output(e)) if !eof.get() => Err(format!("{shown}: {e}")),
        Err(StartFailure::Output(e)) => {
            match tokio::time::timeout(child::GRACE, provider.wait()).await {
                Ok(Ok(s)) if stage.get() == Stage::Line => Err(provider
                    .ended(&name, s, "before the tap could connect to it")
                    .await),
                _ => Err(format!("{shown}: {e}{}", provider.stderr_tail().await)),
            }
        }
    };
    let (up, rest, channel, schemas) = match started {
        Ok(s) => s,
        Err(e) => {
            provider.stop().await;
            drop(dir);
            return Err(Failure::Input(e));
        }
    };
    // The rest of the provider's standard output goes on to ours, as it came.
    tokio::spawn(async move {
        let mut out = tokio::io::stdout();
        if out.write_all(&rest).await.is_ok() {
            let _ = tokio::io::copy(&mut stdout, &mut out).await;
        }
    });
    let path = dir.path().join("tap.sock");
    let listener = match UnixListener::bind(&path) {
        Ok(l) => l,
        Err(e) => {
            provider.stop().await;
            return Err(Failure::Input(format!(
                "listening on {}: {e}",
                path.display()
            )));
        }
    };
    let worker = Worker::start(vec![Upstream::new(channel.clone(), handle)], log, config);
    let recorder = match record {
        Some(r) => {
            let executable = Path::new(&command[0]);
            Some(
                r.start(up.app_version, Some(executable), None, channel.clone())
                    .await,
            )
        }
        None => None,
    };
    let forward = Forward::new(channel, Recording::new(worker.observer(0), recorder));
    // The schema, asked for before OpenTofu is told where to connect (see `tfwire_plugin::tap::Tap::fetched`).
    forward.observer().fetched(schemas);
    let ours = Handshake {
        address: path.display().to_string(),
        server_cert: server_tls.as_ref().map(|(id, _)| id.cert().to_vec()),
        ..up
    };
    let mut out = tokio::io::stdout();
    if let Err(e) = out
        .write_all(format!("{}\n", ours.to_line()).as_bytes())
        .await
        .and(out.flush().await)
    {
        provider.stop().await;
        return Ok((
            worker,
            Err(Failure::Input(format!("writing the handshake line: {e}"))),
        ));
    }
    let clients = Arc::new(tfwire_plugin::clients::Clients::default());
    let serve = forward
        .router()
        .serve_with_incoming(clients.track(tls::incoming(listener, server_tls.map(|(_, c)| c))));
    let ended = tokio::select! {
        status = provider.wait() => match status {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => Err(Failure::Exit(1, Some(format!(
                "tfwire tap: {}",
                provider.ended(&name, s, "while the tap served it").await
            )))),
            Err(e) => Err(e),
        },
        _ = signals.next(group) => {
            provider.stop().await;
            Ok(())
        }
        () = clients.gone() => {
            // The client's last call is over: the session is complete.
            if let Some(r) = record {
                r.write();
            }
            match provider.reap().await {
                Some(s) if !s.success() => Err(Failure::Exit(1, Some(format!(
                    "tfwire tap: {}",
                    provider.ended(&name, s, "after OpenTofu closed its connection").await
                )))),
                _ => Ok(()),
            }
        }
        r = serve => match r {
            Ok(()) => Ok(()),
            Err(e) => Err(Failure::Input(format!("serving: {e}"))),
        },
    };
    if let Some(r) = record {
        r.write();
    }
    // Whatever ended the tap, nothing of the provider's group stays behind.
    provider.stop().await;
    drop(forward);
    drop(dir);
    Ok((worker, ended))
}

/// Reattach mode; returns the worker when SIGINT or SIGTERM arrives.
async fn reattach(
    json: &str,
    handle: tokio::runtime::Handle,
    log: Option<Box<dyn std::io::Write + Send>>,
    config: WorkerConfig,
    record: Option<&record::Record>,
) -> Result<(Worker, Result<(), Failure>), Failure> {
    let mut bytes = json.as_bytes().to_vec();
    let tape = tfwire_plan::Parser::new()
        .parse(&mut bytes)
        .map_err(|e| Failure::Input(format!("--reattach: {e}")))?;
    let root = tape.root();
    let providers = root.as_object().ok_or_else(|| {
        Failure::Input("--reattach: a TF_REATTACH_PROVIDERS value is a JSON object".into())
    })?;
    let dir = SocketDir::new(None)
        .map_err(|e| Failure::Input(format!("creating the tap's socket directory: {e}")))?;
    let mut upstreams = Vec::new();
    let mut versions = Vec::new();
    let mut listeners = Vec::new();
    let mut out = String::new();
    let mut w = JsonWriter::new(&mut out, Escape::Safe);
    let _ = w.begin_object();
    for (i, (addr, p)) in providers.iter().enumerate() {
        let a = p.get("Addr");
        let network = a.and_then(|a| a.get("Network")).and_then(|n| n.as_str());
        let target = a.and_then(|a| a.get("String")).and_then(|n| n.as_str());
        let (Some("unix"), Some(target)) = (network, target) else {
            return Err(Failure::Input(format!(
                "--reattach: {addr:?}: Addr must be {{\"Network\":\"unix\",\"String\":PATH}}"
            )));
        };
        let channel = tls::connect(Path::new(target), None)
            .await
            .map_err(|e| Failure::Input(format!("--reattach: {addr:?}: {e}")))?;
        let path = dir.path().join(format!("tap-{i}.sock"));
        let listener = UnixListener::bind(&path)
            .map_err(|e| Failure::Input(format!("listening on {}: {e}", path.display())))?;
        versions.push(protocol(
            p.get("ProtocolVersion")
                .and_then(|v| v.as_u64())
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(5),
        ));
        upstreams.push(Upstream::new(channel.clone(), handle.clone()).label(addr));
        listeners.push((listener, channel, addr.to_owned()));
        let _ = w
            .key(addr)
            .and_then(|()| write_json(&mut w, p, json, Some(&path.display().to_string())));
    }
    let _ = w.end_object();
    let worker = Worker::start(upstreams, log, config);
    let mut servers = tokio::task::JoinSet::new();
    for (i, (listener, channel, addr)) in listeners.into_iter().enumerate() {
        let recorder = match record {
            Some(r) => {
                let app = if versions[i] == tfwire::schema::Protocol::V6 {
                    6
                } else {
                    5
                };
                Some(r.start(app, None, Some(&addr), channel.clone()).await)
            }
            None => None,
        };
        let forward = Forward::new(channel, Recording::new(worker.observer(i), recorder));
        forward.observer().start_fetch(versions[i]);
        servers.spawn(
            forward
                .router()
                .serve_with_incoming(tls::incoming(listener, None)),
        );
    }
    {
        let stdout = std::io::stdout();
        let mut o = stdout.lock();
        writeln!(o, "{out}")
            .and_then(|()| o.flush())
            .map_err(|e| Failure::Input(format!("writing standard output: {e}")))?;
    }
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| Failure::Input(format!("SIGTERM handler: {e}")))?;
    let ended = tokio::select! {
        _ = sigterm.recv() => Ok(()),
        _ = tokio::signal::ctrl_c() => Ok(()),
        Some(r) = servers.join_next() => match r {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Failure::Input(format!("serving: {e}"))),
            Err(e) => Err(Failure::Input(format!("serving: {e}"))),
        },
    };
    servers.abort_all();
    while servers.join_next().await.is_some() {}
    if let Some(r) = record {
        r.write();
    }
    drop(dir);
    Ok((worker, ended))
}

/// The plugin protocol of a handshake's application version.
fn protocol(app_version: u32) -> tfwire::schema::Protocol {
    if app_version >= 6 {
        tfwire::schema::Protocol::V6
    } else {
        tfwire::schema::Protocol::V5
    }
}

/// Writes a JSON value of the document `src` back, numbers from their exact text, with
/// `Addr` replaced by the unix socket `addr` (the reattach configuration of one provider).
fn write_json(
    w: &mut JsonWriter<&mut String>,
    v: tfwire_plan::Json<'_>,
    src: &str,
    addr: Option<&str>,
) -> core::fmt::Result {
    use tfwire_plan::JsonKind;
    match v.kind() {
        JsonKind::Null => w.null(),
        JsonKind::Bool => w.bool(v.as_bool() == Some(true)),
        JsonKind::Number => {
            // The number as written, found by the JSON layer's own number grammar.
            let text = v.offset().and_then(|o| {
                let end = tfwire_json::scan::number_end(src.as_bytes(), o).ok()?;
                src.get(o..end)
            });
            match (text, v.as_number()) {
                (Some(text), _) => w.number(text),
                (None, Some(n)) => w.number(&n.to_string()),
                (None, None) => w.null(),
            }
        }
        JsonKind::String => w.string(v.as_str().unwrap_or_default()),
        JsonKind::Array => {
            w.begin_array()?;
            for e in v.as_array().into_iter().flat_map(|a| a.iter()) {
                write_json(w, e, src, None)?;
            }
            w.end_array()
        }
        JsonKind::Object => {
            w.begin_object()?;
            for (k, e) in v.as_object().into_iter().flat_map(|o| o.iter()) {
                w.key(k)?;
                match (k, addr) {
                    ("Addr", Some(a)) => {
                        w.begin_object()?;
                        w.member_str("Network", "unix")?;
                        w.member_str("String", a)?;
                        w.end_object()?;
                    }
                    _ => write_json(w, e, src, None)?,
                }
            }
            w.end_object()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reattach configuration is written back as it came, numbers to the letter, with
    /// only `Addr` replaced.
    #[test]
    fn reattach_json_keeps_numbers_exact() {
        let src = r#"{"Pid":12,"Test":true,"X":[1e400,0.10,-0,12345678901234567890123],"Addr":{"Network":"unix","String":"/a"},"S":"q\"u"}"#;
        let mut bytes = src.as_bytes().to_vec();
        let tape = tfwire_plan::Parser::new().parse(&mut bytes).unwrap();
        let mut out = String::new();
        write_json(
            &mut JsonWriter::new(&mut out, Escape::Safe),
            tape.root(),
            src,
            Some("/tap.sock"),
        )
        .unwrap();
        assert_eq!(out, src.replace("/a", "/tap.sock"));
    }
}
