//! `tfwire tap`: a transparent proxy between OpenTofu (or Terraform) and a provider, logging
//! every `DynamicValue` decoded with the provider's schema, sensitive attributes masked.

mod observe;

use crate::Failure;
use observe::{Upstream, Worker};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use tfwire_plugin::handshake::Handshake;
use tfwire_plugin::proxy::Forward;
use tfwire_plugin::tls::{self, Identity, SocketDir};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;

/// Run between OpenTofu and a provider, logging every value that passes.
///
/// Shim mode (`-- PROVIDER [ARGS]`): install a wrapper in the provider's place (a filesystem
/// mirror or a `dev_overrides` directory) that runs `exec tfwire tap --log FILE --
/// /path/to/real-provider "$@"`. The tap starts the provider, speaks go-plugin's handshake on
/// both sides (AutoMTLS included: a fresh certificate each way, each side trusting exactly the
/// other's) and forwards every call unchanged, known or not, streams included. It ends when the
/// provider does (OpenTofu stops it through go-plugin's controller) or on SIGTERM.
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
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire tap --log /tmp/tap.jsonl -- /opt/providers/terraform-provider-aws_v6.0.0\n  \
    tfwire tap --reattach \"$TF_REATTACH_PROVIDERS\" --log /tmp/tap.jsonl\n\n\
    Exit codes: 0 the provider ended (or SIGTERM) and every value decoded, 1 the provider could \
    not be started or reached, a value did not decode or (--validate) did not conform, \
    2 usage error.")]
pub(crate) struct Args {
    #[command(flatten)]
    masks: crate::mask::MaskArgs,
    /// Write every value as a JSON line to FILE (created or truncated).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Also report configuration values that do not conform to the schema beyond their type:
    /// required attributes null, computed-only attributes set, block counts outside
    /// min_items/max_items.
    #[arg(long)]
    validate: bool,
    /// Reattach mode: a TF_REATTACH_PROVIDERS value.
    #[arg(long, value_name = "JSON", conflicts_with = "provider")]
    reattach: Option<String>,
    /// Shim mode: the provider's executable and its arguments (after `--`).
    #[arg(last = true, value_name = "PROVIDER")]
    provider: Vec<String>,
}

/// The masks of this run, set once by [`run`] before any provider's programs are built
/// (see [`masks`]).
static MASKS: std::sync::OnceLock<tfwire::mask::Masks> = std::sync::OnceLock::new();

/// The masks the log applies: this run's, or the defaults when [`run`] has not set them.
pub(crate) fn masks() -> tfwire::mask::Masks {
    MASKS.get_or_init(tfwire::mask::Masks::defaults).clone()
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let _ = MASKS.set(args.masks.masks()?);
    if args.reattach.is_none() && args.provider.is_empty() {
        return Err(Failure::Usage(
            "tfwire tap needs a provider to start (`-- /path/to/provider`) or --reattach JSON"
                .into(),
        ));
    }
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
        Some(json) => runtime.block_on(reattach(json, handle, log, args.validate))?,
        None => runtime.block_on(shim(&args.provider, handle, log, args.validate))?,
    };
    // The runtime's tasks (connections) hold observers: end them, then the worker drains
    // what was sent and returns the figures.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    let mut stats = worker.finish();
    eprintln!("tfwire tap: {}", stats.summary_json());
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

/// Shim mode; returns the worker and how the provider ended.
async fn shim(
    command: &[String],
    handle: tokio::runtime::Handle,
    log: Option<Box<dyn std::io::Write + Send>>,
    validate: bool,
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
    let mut cmd = tokio::process::Command::new(&command[0]);
    cmd.args(&command[1..])
        .stdin(std::process::Stdio::inherit())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true);
    if let Some(id) = &upstream_id {
        cmd.env("PLUGIN_CLIENT_CERT", id.cert_pem());
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| Failure::Input(format!("starting {}: {e}", command[0])))?;
    let mut stdout =
        BufReader::new(child.stdout.take().ok_or_else(|| {
            Failure::Input("the provider's standard output is not a pipe".into())
        })?);
    let mut line = String::new();
    let n = stdout
        .read_line(&mut line)
        .await
        .map_err(|e| Failure::Input(format!("reading the provider's handshake: {e}")))?;
    if n == 0 {
        let status = child
            .wait()
            .await
            .map(|s| s.to_string())
            .unwrap_or_default();
        return Err(Failure::Input(format!(
            "{} ended ({status}) without printing its handshake line",
            command[0]
        )));
    }
    let up = Handshake::parse(&line).map_err(|e| Failure::Input(format!("{}: {e}", command[0])))?;
    if up.protocol != "grpc" || up.network != "unix" {
        return Err(Failure::Input(format!(
            "{} serves {} over {}: the tap forwards gRPC on unix sockets only",
            command[0], up.protocol, up.network
        )));
    }
    // The rest of the provider's standard output goes on to ours, as it came.
    tokio::spawn(async move {
        let _ = tokio::io::copy(&mut stdout, &mut tokio::io::stdout()).await;
    });
    let upstream_tls = match (&up.server_cert, &upstream_id) {
        (Some(cert), Some(id)) => {
            Some(tls::client_config(id, cert.clone().into()).map_err(tls_err)?)
        }
        (Some(_), None) => {
            return Err(Failure::Input(
                "the provider sent a certificate though OpenTofu asked for no TLS".into(),
            ));
        }
        (None, _) => None,
    };
    let channel = tls::connect(Path::new(&up.address), upstream_tls)
        .await
        .map_err(|e| Failure::Input(e.to_string()))?;
    let dir = SocketDir::new(
        std::env::var_os("PLUGIN_UNIX_SOCKET_DIR")
            .as_deref()
            .map(Path::new),
    )
    .map_err(|e| Failure::Input(format!("creating the tap's socket directory: {e}")))?;
    let path = dir.path().join("tap.sock");
    let listener = UnixListener::bind(&path)
        .map_err(|e| Failure::Input(format!("listening on {}: {e}", path.display())))?;
    let worker = Worker::start(
        vec![Upstream {
            label: None,
            channel: channel.clone(),
            handle,
        }],
        log,
        validate,
    );
    let forward_channel = channel.clone();
    let forward = Forward::new(channel, worker.observer(0));
    // The schema, asked for before OpenTofu is told where to connect (see `observe::Fetch`).
    forward
        .observer()
        .fetched(observe::fetch_schemas(forward_channel, protocol(up.app_version)).await);
    let ours = Handshake {
        address: path.display().to_string(),
        server_cert: server_tls.as_ref().map(|(id, _)| id.cert().to_vec()),
        ..up
    };
    let mut out = tokio::io::stdout();
    out.write_all(format!("{}\n", ours.to_line()).as_bytes())
        .await
        .and(out.flush().await)
        .map_err(|e| Failure::Input(format!("writing the handshake line: {e}")))?;
    let serve = forward
        .router()
        .serve_with_incoming(tls::incoming(listener, server_tls.map(|(_, c)| c)));
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| Failure::Input(format!("SIGTERM handler: {e}")))?;
    // SIGINT reaches the whole process group when the user presses Ctrl-C: like go-plugin's
    // servers, the tap ignores it and lets OpenTofu stop the provider.
    let _sigint = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
        .map_err(|e| Failure::Input(format!("SIGINT handler: {e}")))?;
    let ended = tokio::select! {
        status = child.wait() => match status {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => Err(Failure::Exit(1, Some(format!("tfwire tap: the provider ended: {s}")))),
            Err(e) => Err(Failure::Input(format!("waiting for the provider: {e}"))),
        },
        _ = sigterm.recv() => {
            let _ = child.kill().await;
            Ok(())
        }
        r = serve => match r {
            Ok(()) => Ok(()),
            Err(e) => Err(Failure::Input(format!("serving: {e}"))),
        },
    };
    drop(forward);
    drop(dir);
    Ok((worker, ended))
}

/// Reattach mode; returns the worker when SIGINT or SIGTERM arrives.
async fn reattach(
    json: &str,
    handle: tokio::runtime::Handle,
    log: Option<Box<dyn std::io::Write + Send>>,
    validate: bool,
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
    let mut out = String::from("{");
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
        upstreams.push(Upstream {
            label: Some(addr.to_owned()),
            channel: channel.clone(),
            handle: handle.clone(),
        });
        listeners.push((listener, channel));
        if i > 0 {
            out.push(',');
        }
        tfwire_plugin::redact::write_string(&mut out, addr);
        out.push(':');
        write_json(&mut out, p, Some(&path.display().to_string()));
    }
    out.push('}');
    let worker = Worker::start(upstreams, log, validate);
    let mut servers = tokio::task::JoinSet::new();
    for (i, (listener, channel)) in listeners.into_iter().enumerate() {
        let forward = Forward::new(channel, worker.observer(i));
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

/// Writes a JSON value back as text, with `Addr.String` replaced by `addr` (the reattach
/// configuration of one provider).
fn write_json(out: &mut String, v: tfwire_plan::Json<'_>, addr: Option<&str>) {
    use tfwire_plan::JsonKind;
    match v.kind() {
        JsonKind::Null => out.push_str("null"),
        JsonKind::Bool => out.push_str(if v.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        JsonKind::Number => match (v.as_i64(), v.as_f64()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (None, Some(f)) => out.push_str(&f.to_string()),
            (None, None) => out.push_str("null"),
        },
        JsonKind::String => {
            tfwire_plugin::redact::write_string(out, v.as_str().unwrap_or_default())
        }
        JsonKind::Array => {
            out.push('[');
            for (i, e) in v.as_array().into_iter().flat_map(|a| a.iter()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, e, None);
            }
            out.push(']');
        }
        JsonKind::Object => {
            out.push('{');
            for (i, (k, e)) in v.as_object().into_iter().flat_map(|o| o.iter()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                tfwire_plugin::redact::write_string(out, k);
                out.push(':');
                match (k, addr) {
                    ("Addr", Some(a)) => {
                        out.push_str("{\"Network\":\"unix\",\"String\":");
                        tfwire_plugin::redact::write_string(out, a);
                        out.push('}');
                    }
                    _ => write_json(out, e, None),
                }
            }
            out.push('}');
        }
    }
}
