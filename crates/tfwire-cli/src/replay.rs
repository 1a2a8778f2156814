//! `tfwire replay`: a provider stand-in answering from a cassette.

use crate::Failure;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tfwire_json::{Escape, JsonWriter};
use tfwire_plugin::cassette::Cassette;
use tfwire_plugin::clients::Clients;
use tfwire_plugin::handshake::{CORE_PROTOCOL_VERSION, Handshake};
use tfwire_plugin::replay::{Replay, Replayer, service};
use tfwire_plugin::tls::{self, Identity, SocketDir};
use tokio::net::UnixListener;
use tokio::signal::unix::{SignalKind, signal};

/// How long the server may take to answer Shutdown and the calls under way before the
/// process ends anyway (go-plugin's client kills a plugin 2 s after asking it to shut down).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Answer as a provider from a cassette recorded by `tfwire tap --record`, with no provider,
/// no credentials and no network.
///
/// Shim mode (the default): install a wrapper in the provider's place (a filesystem mirror or
/// a `dev_overrides` directory) that runs `exec tfwire replay /path/cassette.jsonl "$@"`.
/// OpenTofu or Terraform starts it as it starts the provider: it speaks go-plugin's
/// handshake (the protocol version the cassette recorded, AutoMTLS when the client asks for
/// it) and answers every call from the cassette, matching requests by value: the same values
/// match however they are encoded (MessagePack or JSON, map order, an unknown's refinements),
/// and the client's version, capabilities and the provider's private blobs are not compared.
/// It ends when the client stops it (go-plugin's controller), when the client's last
/// connection closes, on SIGTERM or SIGHUP, or when its parent process ends (SIGINT is
/// ignored, as go-plugin's servers ignore it: the client stops its providers itself).
///
/// Reattach mode (`--reattach`): listen, print the TF_REATTACH_PROVIDERS value to give the
/// client (the cassette must name its provider, or --provider), and run until SIGINT or
/// SIGTERM (or the parent ends), answering every command that reattaches.
///
/// A call no recorded call matches gets a gRPC error (FailedPrecondition) naming the RPC,
/// the resource type and the first path where the nearest recorded request differs
/// (`config.tags["env"]: expected "prod", found "dev"`; sensitive values shown as
/// "(sensitive)"); the same line goes to standard error, and the exit status is then 1.
///
/// At its end it writes one JSON line to standard error: `{"summary":{"calls":N,
/// "unmatched":M,"answer_us":{"p50":…,"p99":…}}}` (the time an answer took, from the request
/// read to the answer found).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    # A wrapper in a filesystem mirror, in the provider's place:\n  \
    #   .../registry.opentofu.org/hashicorp/null/3.2.4/linux_amd64/terraform-provider-null_v3.2.4\n  \
    #!/bin/sh\n  \
    exec tfwire replay /work/bug/null.cassette.jsonl \"$@\"\n\n  \
    # Reattach mode:\n  \
    tfwire replay --reattach cassette.jsonl > reattach.json &\n  \
    until [ -s reattach.json ]; do sleep 0.1; done\n  \
    TF_REATTACH_PROVIDERS=\"$(cat reattach.json)\" tofu plan\n  \
    kill %1\n\n\
    Exit codes: 0 every call was answered, 1 the cassette could not be read or replayed, or a \
    call matched no recorded call, 2 usage error.")]
pub(crate) struct Args {
    /// The cassette (`tfwire tap --record FILE`).
    #[arg(value_name = "CASSETTE")]
    cassette: PathBuf,
    /// Replay the sessions of this provider only (`registry.opentofu.org/hashicorp/null`, or
    /// without the host: `hashicorp/null`); needed when the cassette holds several.
    #[arg(long, value_name = "ADDR")]
    provider: Option<String>,
    /// Reattach mode: print the TF_REATTACH_PROVIDERS value and serve until SIGINT or
    /// SIGTERM.
    #[arg(long)]
    reattach: bool,
    /// Arguments a client passes to a provider it starts (ignored).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

pub(crate) fn run(args: Args, limits: crate::input::Limits) -> Result<(), Failure> {
    // The parent as the process starts: should it end while the cassette is read or the
    // server set up, the change is seen all the same.
    let parent = rustix::process::getppid();
    let input = |e: String| Failure::Input(format!("{}: {e}", args.cassette.display()));
    let bytes = std::fs::read(&args.cassette).map_err(|e| input(e.to_string()))?;
    if bytes.len() > limits.max_input_bytes() {
        return Err(input(format!(
            "{} bytes, more than --max-input-bytes ({})",
            bytes.len(),
            limits.max_input_bytes()
        )));
    }
    let cassette = Cassette::read(&bytes).map_err(|e| input(e.to_string()))?;
    drop(bytes);
    let replayer = match &args.provider {
        Some(p) => Replayer::for_provider(cassette, p),
        None => Replayer::new(cassette),
    }
    .map_err(|e| input(e.to_string()))?;
    if !args.reattach && std::env::var_os("TF_PLUGIN_MAGIC_COOKIE").is_none() {
        return Err(Failure::Usage(
            "tfwire replay CASSETTE is started by OpenTofu or Terraform in the provider's place \
             (TF_PLUGIN_MAGIC_COOKIE is not set); to run it by hand, use --reattach"
                .into(),
        ));
    }
    let replayer = Arc::new(replayer);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Input(format!("starting the runtime: {e}")))?;
    let ended = runtime.block_on(serve(
        replayer.clone(),
        args.reattach,
        args.provider,
        parent,
    ));
    runtime.shutdown_timeout(Duration::from_millis(500));
    ended?;
    let stats = replayer.stats();
    eprintln!(
        "{{\"summary\":{{\"calls\":{},\"unmatched\":{},\"answer_us\":{{\"p50\":{},\"p99\":{}}}}}}}",
        stats.calls, stats.mismatches, stats.p50_us, stats.p99_us
    );
    match stats.mismatches {
        0 => Ok(()),
        n => Err(Failure::Exit(
            1,
            Some(format!(
                "tfwire replay: {n} call{} matched no recorded call",
                if n == 1 { "" } else { "s" }
            )),
        )),
    }
}

/// Serves until the client is done (see [`Args`]).
async fn serve(
    replayer: Arc<Replayer>,
    reattach: bool,
    provider: Option<String>,
    started_by: Option<rustix::process::Pid>,
) -> Result<(), Failure> {
    let protocol = replayer.protocol();
    if let Ok(versions) = std::env::var("PLUGIN_PROTOCOL_VERSIONS")
        && !reattach
        && !versions
            .split(',')
            .any(|v| v.trim() == protocol.to_string())
    {
        return Err(Failure::Input(format!(
            "the cassette speaks protocol {protocol}; the client asks for {versions}"
        )));
    }
    let tls_err = |e: tfwire_plugin::Error| Failure::Input(format!("TLS: {e}"));
    // AutoMTLS: the client's certificate, which our server will require.
    let server_tls = match std::env::var("PLUGIN_CLIENT_CERT") {
        Ok(pem) if !pem.is_empty() && !reattach => {
            let client = tls::cert_from_pem(&pem).map_err(tls_err)?;
            let id = Identity::generate().map_err(tls_err)?;
            let config = tls::server_config(&id, client).map_err(tls_err)?;
            Some((id, config))
        }
        _ => None,
    };
    let parent = std::env::var_os("PLUGIN_UNIX_SOCKET_DIR").filter(|_| !reattach);
    let dir = SocketDir::new(parent.as_deref().map(std::path::Path::new))
        .map_err(|e| Failure::Input(format!("creating the socket directory: {e}")))?;
    let path = dir.path().join("replay.sock");
    let listener = UnixListener::bind(&path)
        .map_err(|e| Failure::Input(format!("listening on {}: {e}", path.display())))?;
    // The controller's Shutdown: true once it came.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let replay: Replay = service(replayer.clone())
        .on_shutdown(move || {
            let _ = stop.send(true);
        })
        .on_mismatch(|m| eprintln!("{m}"));
    // A started provider ends on Shutdown (a reattached one outlives each client).
    let shutdown_asked = move || {
        let mut stopped = stopped.clone();
        async move {
            if reattach || stopped.wait_for(|s| *s).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    };
    let line = if reattach {
        let address = provider
            .or_else(|| replayer.provider().map(str::to_owned))
            .ok_or_else(|| {
                Failure::Usage(
                    "--reattach: the cassette names no provider: give its address with --provider"
                        .into(),
                )
            })?;
        reattach_json(&address, protocol, &path.display().to_string())
    } else {
        Handshake {
            core_version: CORE_PROTOCOL_VERSION,
            app_version: protocol,
            network: "unix".into(),
            address: path.display().to_string(),
            protocol: "grpc".into(),
            server_cert: server_tls.as_ref().map(|(id, _)| id.cert().to_vec()),
        }
        .to_line()
    };
    {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| Failure::Input(format!("writing standard output: {e}")))?;
    }
    let clients = Arc::new(Clients::default());
    let incoming = clients.track(tls::incoming(listener, server_tls.map(|(_, c)| c)));
    // On Shutdown the server answers it and every call under way, then ends.
    let server = replay
        .router()
        .serve_with_incoming_shutdown(incoming, shutdown_asked());
    let handler =
        |kind, name| signal(kind).map_err(|e| Failure::Input(format!("{name} handler: {e}")));
    let mut term = handler(SignalKind::terminate(), "SIGTERM")?;
    let mut hup = handler(SignalKind::hangup(), "SIGHUP")?;
    let mut int = handler(SignalKind::interrupt(), "SIGINT")?;
    let interrupted = async {
        loop {
            int.recv().await;
            if reattach {
                return;
            }
        }
    };
    let gone = async {
        // A reattached provider outlives each client; a started one ends with its client.
        if reattach {
            std::future::pending::<()>().await;
        }
        clients.gone().await;
    };
    // Should the client keep its connection after Shutdown, the server is not waited for.
    let shutdown = async {
        shutdown_asked().await;
        tokio::time::sleep(SHUTDOWN_GRACE).await;
    };
    let ended = tokio::select! {
        r = server => r.map_err(|e| Failure::Input(format!("serving: {e}"))),
        _ = term.recv() => Ok(()),
        _ = hup.recv() => Ok(()),
        () = interrupted => Ok(()),
        () = gone => Ok(()),
        () = shutdown => Ok(()),
        () = orphaned(started_by) => Ok(()),
    };
    drop(dir);
    ended
}

/// Returns once the process that started this one (`parent`, read when it started) has
/// ended: its parent is another.
async fn orphaned(parent: Option<rustix::process::Pid>) {
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if rustix::process::getppid() != parent {
            return;
        }
    }
}

/// The `TF_REATTACH_PROVIDERS` value of one provider at `path`.
fn reattach_json(address: &str, protocol: u32, path: &str) -> String {
    let mut out = String::new();
    let mut w = JsonWriter::new(&mut out, Escape::Safe);
    // Writing to a String cannot fail.
    let _ = (|| {
        w.begin_object()?;
        w.key(address)?;
        w.begin_object()?;
        w.member_str("Protocol", "grpc")?;
        w.key("ProtocolVersion")?;
        w.number(&protocol.to_string())?;
        w.key("Pid")?;
        w.number(&std::process::id().to_string())?;
        w.key("Test")?;
        w.bool(true)?;
        w.key("Addr")?;
        w.begin_object()?;
        w.member_str("Network", "unix")?;
        w.member_str("String", path)?;
        w.end_object()?;
        w.end_object()?;
        w.end_object()
    })();
    out
}
