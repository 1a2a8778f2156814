//! `tap`: what the tap adds to a provider call, measured against the same call made directly,
//! in one run.
//!
//! ```text
//! cargo run --release -p tfwire-benches --bin tap
//! cargo run --release -p tfwire-benches --bin tap -- --pin        # client+provider on CPU 0, tap on CPU 1
//! cargo run --release -p tfwire-benches --bin tap -- --quick      # answers checked, a few calls (CI)
//! ```
//!
//! The parts, all in this process, each on a thread of its own with a current-thread tokio
//! runtime:
//! - the provider stand-in: `tfwire-tap-testkit`'s fake protocol 6 provider (`PlanResourceChange`
//!   answers the proposed state as the planned state), served on a unix socket under AutoMTLS
//!   (`tfwire_plugin::tls`: a fresh certificate each side, each side pinning the other's), as
//!   go-plugin serves a provider;
//! - the taps: what `tfwire tap` runs in shim mode, on the same transport: `proxy::Forward`
//!   served on a unix socket under AutoMTLS, forwarding to the provider over its own TLS
//!   connection, its observer the tap's `Worker` (decode with the schema fetched first,
//!   `tfwire_plugin::tap::fetch_schemas`, mask, log). Three of them: `tap` (no `--log`: values
//!   decoded, nothing written), `tap+log` (`--log` to a file, through a 64 KiB `BufWriter` as
//!   the CLI does), `tap+slow-log` (a log sink that sleeps 5 ms on every write until the
//!   measurement ends: the worker falls behind at once);
//! - the client (the main thread): a `tfplugin6` client over one connection per path, as
//!   OpenTofu keeps one per provider.
//!
//! Every call is `PlanResourceChange` of resource `db` whose proposed state is a MessagePack
//! object of 100 B, 10 kB or 1 MB (a long `name`); every answer is checked (the planned state
//! is the value sent), and at the end each tap's worker must have decoded every value of every
//! call it forwarded without an error, and the log must hold one line per value.
//!
//! Latency: sequential calls, the paths interleaved in blocks of 100 calls; the percentiles
//! (p50, p99, p99.9) of each path, and the added latency at each percentile (the tap's
//! percentile minus the direct one). Throughput: 10 kB calls from 1, 8 and 64 concurrent
//! streams on the path's one connection for a fixed time, calls per second, the median of
//! three interleaved rounds, and the ratio against direct. Prints a table on standard error
//! and one JSON line per measurement on standard output.
//!
//! `--pin` pins the client and the provider to CPU 0 and the tap (its runtime and its worker)
//! to CPU 1, so that the tap never competes with the ends of the call for a core. `--only
//! PATH` runs one path (`direct`, `tap`, `tap+log`, `tap+slow-log`) for `--seconds S` at the
//! size `--size N`, for a profiler, and prints the CPU time each thread spent per call (the
//! tap's cost, whatever else loads the machine). `--quick`: a few calls of each size, answers checked,
//! nothing asserted about time (`benches/ci.sh`).

use bytes::Bytes;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tfwire::schema::Protocol;
use tfwire_plugin::proxy::Forward;
use tfwire_plugin::tap::{Stats, Upstream, Worker, WorkerConfig, fetch_schemas};
use tfwire_plugin::tfplugin6::provider_client::ProviderClient;
use tfwire_plugin::tfplugin6::{DynamicValue, plan_resource_change};
use tfwire_plugin::tls::{self, Identity};
use tokio::net::UnixListener;
use tonic::transport::Channel;

/// The sizes of the values, in bytes.
const SIZES: [usize; 3] = [100, 10_000, 1_000_000];

/// The concurrent streams of the throughput runs.
const STREAMS: [usize; 3] = [1, 8, 64];

/// The tap paths, in the order they are measured.
const TAPS: [Mode; 3] = [Mode::Tap, Mode::TapLog, Mode::TapSlowLog];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Direct,
    Tap,
    TapLog,
    TapSlowLog,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Direct => "direct",
            Mode::Tap => "tap",
            Mode::TapLog => "tap+log",
            Mode::TapSlowLog => "tap+slow-log",
        }
    }

    fn parse(s: &str) -> Option<Mode> {
        [Mode::Direct, Mode::Tap, Mode::TapLog, Mode::TapSlowLog]
            .into_iter()
            .find(|m| m.name() == s)
    }
}

struct Options {
    quick: bool,
    pin: bool,
    only: Option<Mode>,
    size: usize,
    seconds: f64,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        quick: false,
        pin: false,
        only: None,
        size: 10_000,
        seconds: 10.0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--quick" => o.quick = true,
            "--pin" => o.pin = true,
            "--only" => {
                let v = value("--only")?;
                o.only = Some(Mode::parse(&v).ok_or(format!("--only: no path {v:?}"))?);
            }
            "--size" => {
                o.size = value("--size")?
                    .parse()
                    .map_err(|e| format!("--size: {e}"))?
            }
            "--seconds" => {
                o.seconds = value("--seconds")?
                    .parse()
                    .map_err(|e| format!("--seconds: {e}"))?
            }
            _ => return Err(format!("unknown argument {a:?}")),
        }
    }
    Ok(o)
}

/// Pins the calling thread (and the threads it starts from now on) to `cpu`.
fn pin(cpu: usize) {
    let mut set = rustix::thread::CpuSet::new();
    set.set(cpu);
    if let Err(e) = rustix::thread::sched_setaffinity(None, &set) {
        eprintln!("tap: pinning to CPU {cpu}: {e}");
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// A MessagePack object `{"name": "xxx…", "password": "p"}` (the fake provider's `db`) of
/// exactly `size` bytes (at least 24).
fn value(size: usize) -> Bytes {
    let mut v = vec![0x82, 0xa4];
    v.extend_from_slice(b"name");
    let tail = 1 + 8 + 2; // fixstr "password", fixstr "p"
    let fixed = v.len() + tail;
    // The string's header: 1 byte (fixstr, up to 31), 2 (str8), 3 (str16) or 5 (str32).
    let n = [1usize, 2, 3, 5]
        .into_iter()
        .map(|h| (h, size.saturating_sub(fixed + h)))
        .find(|&(h, n)| match h {
            1 => n < 32,
            2 => n < 256,
            3 => n < 65_536,
            _ => true,
        })
        .map_or(0, |(_, n)| n);
    match n {
        0..32 => v.push(0xa0 | n as u8),
        32..256 => v.extend_from_slice(&[0xd9, n as u8]),
        256..65_536 => {
            v.push(0xda);
            v.extend_from_slice(&(n as u16).to_be_bytes());
        }
        _ => {
            v.push(0xdb);
            v.extend_from_slice(&(n as u32).to_be_bytes());
        }
    }
    v.resize(v.len() + n, b'x');
    v.extend_from_slice(b"\xa8password\xa1p");
    assert_eq!(v.len(), size, "the value's size");
    Bytes::from(v)
}

/// The identities of one run: the client's (OpenTofu's, also the tap's towards the provider:
/// one certificate both servers pin), the provider's, the tap's.
struct Identities {
    client: Identity,
    provider: Identity,
    tap: Identity,
}

/// A log sink that sleeps on every write while `slow` is set.
struct SlowLog {
    slow: Arc<AtomicBool>,
}

impl Write for SlowLog {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.slow.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A tap running on a thread of its own; ended by [`Tap::finish`].
struct Tap {
    socket: PathBuf,
    stop: tokio::sync::oneshot::Sender<()>,
    thread: std::thread::JoinHandle<Stats>,
    log: Option<PathBuf>,
}

impl Tap {
    /// What `tfwire tap` does in shim mode once the provider is up: connect under TLS, fetch
    /// the schema, start the worker, serve under TLS.
    fn start(
        mode: Mode,
        ids: &Identities,
        dir: &Path,
        pin_cpu: Option<usize>,
        slow: Arc<AtomicBool>,
    ) -> Tap {
        let socket = dir.join(format!("{}.sock", mode.name()));
        let log_path = (mode == Mode::TapLog).then(|| dir.join("tap.jsonl"));
        let upstream_tls = tls::client_config(&ids.client, ids.provider.cert().clone())
            .expect("the tap's client TLS");
        let server_tls =
            tls::server_config(&ids.tap, ids.client.cert().clone()).expect("the tap's server TLS");
        let provider_socket = dir.join("provider.sock");
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (path, log_file) = (socket.clone(), log_path.clone());
        let thread = std::thread::Builder::new()
            .name(mode.name().into())
            .spawn(move || {
                if let Some(cpu) = pin_cpu {
                    pin(cpu);
                }
                let rt = runtime();
                let log: Option<Box<dyn Write + Send>> = match (mode, log_file) {
                    (Mode::TapLog, Some(p)) => Some(Box::new(std::io::BufWriter::with_capacity(
                        1 << 16,
                        std::fs::File::create(p).expect("the log file"),
                    ))),
                    (Mode::TapSlowLog, _) => Some(Box::new(SlowLog { slow })),
                    _ => None,
                };
                let worker = rt.block_on(async {
                    let channel = tls::connect(&provider_socket, Some(upstream_tls))
                        .await
                        .expect("the tap connects to the provider");
                    let schemas = fetch_schemas(channel.clone(), Protocol::V6).await;
                    let worker = Worker::start(
                        vec![Upstream::new(
                            channel.clone(),
                            tokio::runtime::Handle::current(),
                        )],
                        log,
                        WorkerConfig::default(),
                    );
                    let forward = Forward::new(channel, worker.observer(0));
                    forward.observer().fetched(schemas);
                    let listener = UnixListener::bind(&path).expect("the tap's socket");
                    let serve = forward.router().serve_with_incoming_shutdown(
                        tls::incoming(listener, Some(server_tls)),
                        async {
                            let _ = stopped.await;
                        },
                    );
                    let _ = ready_tx.send(());
                    serve.await.expect("the tap serves");
                    worker
                });
                // As the CLI: the connections' tasks hold observers; end them, then drain.
                rt.shutdown_timeout(Duration::from_millis(500));
                worker.finish()
            })
            .expect("the tap's thread");
        ready_rx.recv().expect("the tap started");
        Tap {
            socket,
            stop,
            thread,
            log: log_path,
        }
    }

    fn finish(self) -> (Stats, Option<PathBuf>) {
        let _ = self.stop.send(());
        (self.thread.join().expect("the tap's thread"), self.log)
    }
}

/// The provider stand-in on `dir/provider.sock` under TLS, on a thread of its own.
fn start_provider(ids: &Identities, dir: &Path, pin_cpu: Option<usize>) {
    let config =
        tls::server_config(&ids.provider, ids.client.cert().clone()).expect("the provider's TLS");
    let listener = std::os::unix::net::UnixListener::bind(dir.join("provider.sock"))
        .expect("the provider's socket");
    listener
        .set_nonblocking(true)
        .expect("a non-blocking socket");
    std::thread::Builder::new()
        .name("provider".into())
        .spawn(move || {
            if let Some(cpu) = pin_cpu {
                pin(cpu);
            }
            let rt = runtime();
            rt.block_on(async move {
                let listener = UnixListener::from_std(listener).expect("a tokio socket");
                let _ = tonic::transport::Server::builder()
                    .add_service(tfwire_tap_testkit::fake())
                    .serve_with_incoming(tls::incoming(listener, Some(config)))
                    .await;
            });
        })
        .expect("the provider's thread");
}

/// The CPU time of each thread of this process so far: its id, its name (`client` for the
/// main thread, `tfwire-tap-deco` for a worker: Linux keeps 15 bytes of a name), nanoseconds
/// (the first field of `/proc/self/task/ID/schedstat`). Empty where `/proc` is not there.
fn thread_cpu() -> Vec<(u32, String, u64)> {
    let me = std::process::id();
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for t in tasks.flatten() {
        let Some(tid) = t.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let read = |f: &str| std::fs::read_to_string(t.path().join(f)).unwrap_or_default();
        let ns = read("schedstat")
            .split_whitespace()
            .next()
            .and_then(|x| x.parse().ok())
            .unwrap_or(0);
        let name = if tid == me {
            "client".to_owned()
        } else {
            read("comm").trim().to_owned()
        };
        out.push((tid, name, ns));
    }
    out.sort();
    out
}

type Client = ProviderClient<Channel>;

/// One `PlanResourceChange` of `value`; panics unless the planned state is `value`.
async fn call(client: &mut Client, value: &Bytes) {
    let request = plan_resource_change::Request {
        type_name: "db".into(),
        proposed_new_state: Some(DynamicValue {
            msgpack: value.clone(),
            json: Bytes::new(),
        }),
        ..Default::default()
    };
    let planned = client
        .plan_resource_change(request)
        .await
        .expect("the plan")
        .into_inner()
        .planned_state
        .expect("a planned state");
    assert!(
        planned.msgpack == *value,
        "the planned state is not the value sent"
    );
}

/// The `q`-quantile of sorted `xs` (nearest rank), in microseconds.
fn quantile(xs: &[Duration], q: f64) -> f64 {
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1].as_secs_f64() * 1e6
}

/// Calls made through each path, to check the workers' counts against.
#[derive(Default)]
struct Counted {
    calls: [u64; 4],
}

impl Counted {
    fn add(&mut self, m: Mode, n: u64) {
        self.calls[m as usize] += n;
    }
}

struct Bench {
    rt: tokio::runtime::Runtime,
    clients: Vec<(Mode, Client)>,
    counted: Counted,
}

impl Bench {
    fn client(&self, m: Mode) -> Client {
        self.clients
            .iter()
            .find(|(x, _)| *x == m)
            .map(|(_, c)| c.clone())
            .expect("a client for the path")
    }

    /// Sequential calls of `value`, `calls` per path in blocks of 100, interleaved; the
    /// latencies of each path, sorted.
    fn latency(&mut self, modes: &[Mode], value: &Bytes, calls: usize) -> Vec<Vec<Duration>> {
        let mut clients: Vec<Client> = modes.iter().map(|&m| self.client(m)).collect();
        let mut out: Vec<Vec<Duration>> = vec![Vec::with_capacity(calls); modes.len()];
        let block = 100.min(calls);
        self.rt.block_on(async {
            // Warm-up: connections, buffers, the workers' arenas.
            for c in &mut clients {
                for _ in 0..block.min(20) {
                    call(c, value).await;
                }
            }
            let mut done = 0;
            while done < calls {
                let n = block.min(calls - done);
                for (c, o) in clients.iter_mut().zip(&mut out) {
                    for _ in 0..n {
                        let t = Instant::now();
                        call(c, value).await;
                        o.push(t.elapsed());
                    }
                }
                done += n;
            }
        });
        for (m, _) in modes.iter().zip(&out) {
            self.counted.add(*m, (calls + block.min(20)) as u64);
        }
        for o in &mut out {
            o.sort_unstable();
        }
        out
    }

    /// Calls per second of `streams` concurrent callers of `value` on path `m` for `time`.
    fn throughput(&mut self, m: Mode, value: &Bytes, streams: usize, time: Duration) -> f64 {
        let client = self.client(m);
        let n = self.rt.block_on(async {
            let deadline = Instant::now() + time;
            let mut tasks = tokio::task::JoinSet::new();
            for _ in 0..streams {
                let (mut c, v) = (client.clone(), value.clone());
                tasks.spawn(async move {
                    let mut n = 0u64;
                    while Instant::now() < deadline {
                        call(&mut c, &v).await;
                        n += 1;
                    }
                    n
                });
            }
            let mut total = 0;
            while let Some(n) = tasks.join_next().await {
                total += n.expect("a caller");
            }
            total
        });
        self.counted.add(m, n);
        n as f64 / time.as_secs_f64()
    }
}

fn size_name(size: usize) -> String {
    match size {
        s if s >= 1_000_000 => format!("{} MB", s / 1_000_000),
        s if s >= 1_000 => format!("{} kB", s / 1_000),
        s => format!("{s} B"),
    }
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tap: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("tfwire-tap-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let r = run(&o, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tap: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(o: &Options, dir: &Path) -> Result<(), String> {
    let (near, far) = if o.pin {
        (Some(0), Some(1))
    } else {
        (None, None)
    };
    if let Some(cpu) = near {
        pin(cpu);
    }
    let ids = Identities {
        client: Identity::generate().map_err(|e| e.to_string())?,
        provider: Identity::generate().map_err(|e| e.to_string())?,
        tap: Identity::generate().map_err(|e| e.to_string())?,
    };
    start_provider(&ids, dir, near);
    let slow = Arc::new(AtomicBool::new(true));
    let taps: Vec<(Mode, Tap)> = TAPS
        .into_iter()
        .filter(|m| o.only.is_none_or(|x| x == *m))
        .map(|m| (m, Tap::start(m, &ids, dir, far, slow.clone())))
        .collect();
    let rt = runtime();
    let mut clients = Vec::new();
    let to_provider =
        tls::client_config(&ids.client, ids.provider.cert().clone()).map_err(|e| e.to_string())?;
    let to_tap =
        tls::client_config(&ids.client, ids.tap.cert().clone()).map_err(|e| e.to_string())?;
    rt.block_on(async {
        let c = tls::connect(&dir.join("provider.sock"), Some(to_provider)).await?;
        clients.push((Mode::Direct, ProviderClient::new(c)));
        for (m, t) in &taps {
            let c = tls::connect(&t.socket, Some(to_tap.clone())).await?;
            clients.push((*m, ProviderClient::new(c)));
        }
        Ok::<(), tfwire_plugin::Error>(())
    })
    .map_err(|e| e.to_string())?;
    let mut bench = Bench {
        rt,
        clients,
        counted: Counted::default(),
    };

    if let Some(m) = o.only {
        // For a profiler: one path, one size, sequential calls for a while.
        let v = value(o.size);
        let mut c = bench.client(m);
        // Warm-up, then the threads' CPU time from here.
        bench.rt.block_on(async {
            for _ in 0..20 {
                call(&mut c, &v).await;
            }
        });
        bench.counted.add(m, 20);
        let before = thread_cpu();
        let deadline = Instant::now() + Duration::from_secs_f64(o.seconds);
        let n = bench.rt.block_on(async {
            let mut n = 0u64;
            while Instant::now() < deadline {
                call(&mut c, &v).await;
                n += 1;
            }
            n
        });
        bench.counted.add(m, n);
        let after = thread_cpu();
        eprintln!(
            "tap: {n} calls of {} through {} in {} s; CPU time per call by thread:",
            size_name(o.size),
            m.name(),
            o.seconds
        );
        for (tid, name, ns) in &after {
            let was = before.iter().find(|t| t.0 == *tid).map_or(0, |t| t.2);
            let us = (ns - was) as f64 / 1000.0 / n.max(1) as f64;
            eprintln!("  {name:<18} {us:8.1} us");
            println!(
                "{{\"kind\": \"cpu\", \"path\": \"{}\", \"bytes\": {}, \"thread\": \"{name}\", \"cpu_us_per_call\": {us:.1}}}",
                m.name(),
                o.size
            );
        }
    } else {
        let modes = [Mode::Direct, Mode::Tap, Mode::TapLog, Mode::TapSlowLog];
        eprintln!(
            "{:<7} {:<13} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
            "size", "path", "p50 us", "p99 us", "p99.9 us", "+p50 us", "+p99 us", "+p99.9 us"
        );
        for size in SIZES {
            let calls = match (o.quick, size) {
                (true, _) => 50,
                (false, s) if s >= 1_000_000 => 1_000,
                (false, _) => 20_000,
            };
            let v = value(size);
            let lat = bench.latency(&modes, &v, calls);
            let direct = [0.5, 0.99, 0.999].map(|q| quantile(&lat[0], q));
            for (m, l) in modes.iter().zip(&lat) {
                let p = [0.5, 0.99, 0.999].map(|q| quantile(l, q));
                let added = [p[0] - direct[0], p[1] - direct[1], p[2] - direct[2]];
                eprintln!(
                    "{:<7} {:<13} {:>9.1} {:>9.1} {:>9.1} {:>10} {:>10} {:>10}",
                    size_name(size),
                    m.name(),
                    p[0],
                    p[1],
                    p[2],
                    if *m == Mode::Direct {
                        String::new()
                    } else {
                        format!("{:.1}", added[0])
                    },
                    if *m == Mode::Direct {
                        String::new()
                    } else {
                        format!("{:.1}", added[1])
                    },
                    if *m == Mode::Direct {
                        String::new()
                    } else {
                        format!("{:.1}", added[2])
                    },
                );
                println!(
                    "{{\"kind\": \"latency\", \"bytes\": {size}, \"path\": \"{}\", \"calls\": {calls}, \
                     \"p50_us\": {:.1}, \"p99_us\": {:.1}, \"p999_us\": {:.1}, \"added_p50_us\": {:.1}, \
                     \"added_p99_us\": {:.1}, \"added_p999_us\": {:.1}}}",
                    m.name(),
                    p[0],
                    p[1],
                    p[2],
                    added[0],
                    added[1],
                    added[2]
                );
            }
        }
        let (time, rounds) = if o.quick {
            (Duration::from_millis(50), 1)
        } else {
            (Duration::from_secs(1), 3)
        };
        let v = value(10_000);
        eprintln!(
            "\nthroughput, 10 kB calls ({} s, median of {rounds} rounds)",
            time.as_secs_f64()
        );
        eprintln!(
            "{:<8} {:>12} {:>16} {:>16} {:>16}",
            "streams", "direct /s", "tap", "tap+log", "tap+slow-log"
        );
        for streams in STREAMS {
            let mut per: Vec<Vec<f64>> = vec![Vec::new(); modes.len()];
            for round in 0..rounds {
                // The order rotates from round to round.
                for k in 0..modes.len() {
                    let i = (k + round) % modes.len();
                    per[i].push(bench.throughput(modes[i], &v, streams, time));
                }
            }
            let med: Vec<f64> = per
                .iter()
                .map(|x| tfwire_benches::timing::median(x))
                .collect();
            let ratio = |i: usize| med[i] / med[0];
            eprintln!(
                "{:<8} {:>12.0} {:>9.0} ({:.2}x) {:>9.0} ({:.2}x) {:>9.0} ({:.2}x)",
                streams,
                med[0],
                med[1],
                ratio(1),
                med[2],
                ratio(2),
                med[3],
                ratio(3)
            );
            println!(
                "{{\"kind\": \"throughput\", \"bytes\": 10000, \"streams\": {streams}, \
                 \"direct_per_s\": {:.0}, \"tap_ratio\": {:.3}, \"tap_log_ratio\": {:.3}, \
                 \"tap_slow_log_ratio\": {:.3}}}",
                med[0],
                ratio(1),
                ratio(2),
                ratio(3)
            );
        }
    }
    // The client's connections close with its runtime (their tasks run on it), so that each
    // tap's graceful shutdown ends.
    let Bench {
        rt,
        clients,
        counted,
    } = bench;
    drop(clients);
    drop(rt);
    slow.store(false, Ordering::Relaxed);
    for (m, t) in taps {
        let (stats, log) = t.finish();
        let calls = counted.calls[m as usize];
        let lines = log
            .as_deref()
            .map(|p| std::fs::read(p).map(|b| b.iter().filter(|&&c| c == b'\n').count()));
        eprintln!(
            "tap: {}: {calls} calls, {} values decoded, {} decode errors, {} events dropped (queue full){}",
            m.name(),
            stats.values,
            stats.decode_errors,
            stats.dropped,
            match &lines {
                Some(Ok(n)) => format!(", {n} log lines"),
                _ => String::new(),
            }
        );
        println!(
            "{{\"kind\": \"worker\", \"path\": \"{}\", \"calls\": {calls}, \"values\": {}, \
             \"decode_errors\": {}, \"dropped\": {}}}",
            m.name(),
            stats.values,
            stats.decode_errors,
            stats.dropped
        );
        // A response whose request frame was dropped from a full queue has no resource type
        // to decode with: an error, one per dropped request at most; any other is a failure.
        if stats.decode_errors > stats.dropped {
            return Err(format!("{}: values did not decode", m.name()));
        }
        // Each call: a request and a response with one value each; a frame dropped from the
        // queue is not decoded (only the slow log's tap is expected to drop).
        if stats.dropped == 0 && stats.values != 2 * calls {
            return Err(format!(
                "{}: {} values decoded for {calls} calls",
                m.name(),
                stats.values
            ));
        }
        if m == Mode::TapSlowLog && !o.quick && o.only.is_none() && stats.dropped == 0 {
            return Err("tap+slow-log: the slow log never filled the queue".into());
        }
        match lines {
            // One line a value, and the summary.
            Some(Ok(n)) if n as u64 != stats.values + 1 => {
                return Err(format!(
                    "{}: {n} log lines for {} values",
                    m.name(),
                    stats.values
                ));
            }
            Some(Err(e)) => return Err(format!("reading the log: {e}")),
            _ => {}
        }
    }
    Ok(())
}
