//! The worker thread and the observers that feed it.

use super::fetch::fetch_schemas;
use super::queue::{Receiver, SendError, Sender, queue};
use super::stats::{Counts, Stats};
use super::time::{rfc3339, write_rfc3339};
use super::validate::validate_config;
use crate::Programs;
use crate::log::{Outcome, Record, Recorder};
use crate::proxy::{Frame, Observer};
use crate::rpc::{Direction, Message, Method};
use bytes::Bytes;
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};
use tfwire::mask::Masks;
use tfwire::schema::{Protocol, ProviderSchema};
use tfwire::{Config, Decoder};
use tfwire_json::{Escape, JsonWriter};
use tonic::transport::Channel;

/// How many events wait for the worker at most; a frame or timing that finds the queue full
/// is dropped and counted rather than making its call wait.
pub const QUEUE: usize = 16 * 1024;

/// What the forwarding tasks tell the worker.
enum Event {
    Frame {
        provider: usize,
        method: String,
        direction: Direction,
        message: Bytes,
        call: u64,
        time: SystemTime,
    },
    Held(Duration),
}

/// The observer of one provider's traffic (one per provider; all share the worker):
/// [`Observer::frame`] and [`Observer::forwarded`] queue the frame or the time the proxy held
/// it for the worker, without waiting.
pub struct Tap {
    provider: usize,
    tx: Sender<Event>,
    /// Events dropped because the queue was full (shared by every observer).
    dropped: Arc<AtomicU64>,
    fetch: Arc<Fetch>,
    channel: Channel,
    handle: tokio::runtime::Handle,
}

/// The schema fetch of one provider: OpenTofu caches schemas, so most provider processes it
/// starts are never asked for theirs. In shim mode the tap asks before it prints its handshake
/// line (a process started only to validate is shut down a few milliseconds after its last
/// call, sometimes before it would have answered a later fetch); in reattach mode as soon as it
/// is connected. The worker waits for the answer when it meets a value before any
/// `GetProviderSchema` response.
#[derive(Default)]
struct Fetch {
    /// A fetch was started.
    started: AtomicBool,
    result: Mutex<Option<Result<ProviderSchema, String>>>,
    done: Condvar,
}

impl Tap {
    /// A schema the caller fetched itself ([`fetch_schemas`]; `tfwire tap` does so before it
    /// prints its handshake line): the worker decodes with it the values it meets before any
    /// `GetProviderSchema` response. Counted in [`Stats::schema_fetches`] when used.
    pub fn fetched(&self, result: Result<ProviderSchema, String>) {
        self.fetch.started.store(true, Ordering::Relaxed);
        *self.fetch.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        self.fetch.done.notify_all();
    }

    /// Starts fetching the provider's schema ([`fetch_schemas`], once) on the provider's
    /// runtime ([`Upstream::new`]); the worker waits for it (at most 30 s) when it meets a
    /// value before any `GetProviderSchema` response.
    pub fn start_fetch(&self, protocol: Protocol) {
        if self.fetch.started.swap(true, Ordering::Relaxed) {
            return;
        }
        let (fetch, channel) = (self.fetch.clone(), self.channel.clone());
        self.handle.spawn(async move {
            let r = fetch_schemas(channel, protocol).await;
            *fetch.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            fetch.done.notify_all();
        });
    }
}

impl Tap {
    /// Queues `event` for the worker without waiting: dropped (and counted) when the queue is
    /// full, ignored when the worker has ended.
    fn send(&self, event: Event) {
        if let Err(SendError::Full) = self.tx.send(event) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Observer for Tap {
    fn frame(&self, f: Frame<'_>) {
        self.send(Event::Frame {
            provider: self.provider,
            method: f.method.to_owned(),
            direction: f.direction,
            message: f.message.clone(),
            call: f.call,
            time: SystemTime::now(),
        });
    }

    fn forwarded(&self, _: Frame<'_>, held: Duration) {
        self.send(Event::Held(held));
    }
}

/// One provider, and where to fetch its schema if the tap does not see it go by.
#[derive(Clone, Debug)]
pub struct Upstream {
    label: Option<String>,
    channel: Channel,
    handle: tokio::runtime::Handle,
}

impl Upstream {
    /// The provider at `channel`; its schema is fetched on the runtime of `handle`.
    pub fn new(channel: Channel, handle: tokio::runtime::Handle) -> Upstream {
        Upstream {
            label: None,
            channel,
            handle,
        }
    }

    /// With a label: every line of the provider's values names it (`"provider"`), for a log
    /// of several providers.
    pub fn label(mut self, label: impl Into<String>) -> Upstream {
        self.label = Some(label.into());
        self
    }
}

/// What a [`Worker`] does beyond decoding and logging.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WorkerConfig {
    /// Check configurations beyond their type ([`super::validate_config`]); a line with
    /// problems has them as `"invalid"`, and [`Stats::invalid`] counts it. Default off.
    pub validate: bool,
    /// The masks values are logged with (on top of the schema's sensitive attributes).
    /// Default [`Masks::defaults`].
    pub masks: Masks,
    /// How many events wait for the worker at most. Default [`QUEUE`].
    pub queue: usize,
}

impl Default for WorkerConfig {
    fn default() -> WorkerConfig {
        WorkerConfig {
            validate: false,
            masks: Masks::defaults(),
            queue: QUEUE,
        }
    }
}

impl WorkerConfig {
    /// With `validate`.
    pub fn validate(mut self, on: bool) -> WorkerConfig {
        self.validate = on;
        self
    }

    /// With `masks`.
    pub fn masks(mut self, masks: Masks) -> WorkerConfig {
        self.masks = masks;
        self
    }
}

/// What the worker knows of one provider.
struct Provider {
    upstream: Upstream,
    schemas: Option<ProviderSchema>,
    programs: Option<Programs>,
    /// The schema fetch, shared with the observer.
    fetch: Arc<Fetch>,
    /// Why the fetched schema is not there.
    fetch_failed: Option<String>,
    /// The type name of each call's request, for its responses.
    calls: HashMap<u64, String>,
}

/// The worker: a thread that owns the log, the schemas and the statistics.
pub struct Worker {
    tx: Option<Sender<Event>>,
    dropped: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<Stats>>,
    providers: Vec<(Upstream, Arc<Fetch>)>,
}

impl Worker {
    /// Starts the worker for these providers, writing to `log` (when given) one JSON line per
    /// value ([`Record`], with `"invalid"` and `"provider"` when they apply) and a last line
    /// `{"time":…,"summary":…}` ([`Stats::summary_json`]). A log that fails to write is
    /// reported on standard error once; logging stops, the worker goes on.
    pub fn start(
        providers: Vec<Upstream>,
        log: Option<Box<dyn Write + Send>>,
        config: WorkerConfig,
    ) -> Worker {
        let (tx, rx) = queue(config.queue);
        let dropped = Arc::new(AtomicU64::new(0));
        let providers: Vec<(Upstream, Arc<Fetch>)> =
            providers.into_iter().map(|u| (u, Arc::default())).collect();
        let shared = providers.clone();
        let counted = dropped.clone();
        let thread = std::thread::Builder::new()
            .name("tfwire-tap-decode".into())
            .spawn(move || work(rx, shared, log, config, counted))
            .ok();
        Worker {
            tx: Some(tx),
            dropped,
            thread,
            providers,
        }
    }

    /// The observer of provider `provider` (its index in the list given to [`Worker::start`]).
    ///
    /// # Panics
    ///
    /// When there is no such provider.
    pub fn observer(&self, provider: usize) -> Tap {
        let (upstream, fetch) = &self.providers[provider];
        Tap {
            provider,
            tx: self.tx.clone().unwrap_or_else(|| queue(1).0),
            dropped: self.dropped.clone(),
            fetch: fetch.clone(),
            channel: upstream.channel.clone(),
            handle: upstream.handle.clone(),
        }
    }

    /// Waits until every frame sent so far is handled (the observers must be dropped first),
    /// and returns the statistics.
    pub fn finish(mut self) -> Stats {
        drop(self.tx.take());
        self.thread
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default()
    }
}

fn work(
    rx: Receiver<Event>,
    upstreams: Vec<(Upstream, Arc<Fetch>)>,
    mut log: Option<Box<dyn Write + Send>>,
    config: WorkerConfig,
    dropped: Arc<AtomicU64>,
) -> Stats {
    let mut providers: Vec<Provider> = upstreams
        .into_iter()
        .map(|(upstream, fetch)| Provider {
            upstream,
            schemas: None,
            programs: None,
            fetch,
            fetch_failed: None,
            calls: HashMap::new(),
        })
        .collect();
    let mut stats = Stats::default();
    // Reused for every value: the decoder, its arena and the masked JSON (`Recorder`), the
    // records of one frame and its time, so that a value of a size seen before is decoded,
    // masked and recorded with no heap allocation.
    let mut recorder = Recorder::new(Config::default());
    let mut out = String::new();
    let mut time_text = String::new();
    // `--validate` decodes configurations again, into values it walks.
    let mut decoder = Decoder::new(Config::default());
    let mut arena = bumpalo::Bump::new();
    let mut write_failed = false;
    for event in rx {
        let (provider, method, direction, message, call, time) = match event {
            Event::Held(d) => {
                stats
                    .held_ns
                    .push(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
                continue;
            }
            Event::Frame {
                provider,
                method,
                direction,
                message,
                call,
                time,
            } => (provider, method, direction, message, call, time),
        };
        let Some(p) = providers.get_mut(provider) else {
            continue;
        };
        let known = Method::from_path(&method);
        let name = known.map_or(method.as_str(), |m| m.name);
        if !stats.rpcs.contains_key(name) {
            stats.rpcs.insert(name.to_owned(), Counts::default());
        }
        let Some(counts) = stats.rpcs.get_mut(name) else {
            continue;
        };
        let first = direction == Direction::Request && !p.calls.contains_key(&call);
        counts.frames += 1;
        counts.bytes += message.len() as u64;
        let Some(m) = known else {
            // go-plugin's own services: counted, not decoded.
            if first {
                counts.calls += 1;
                p.calls.insert(call, String::new());
            }
            continue;
        };
        if first {
            counts.calls += 1;
        }
        time_text.clear();
        write_rfc3339(&mut time_text, time);
        let time = time_text.as_str();
        out.clear();
        match m.decode(direction, message) {
            Err(e) => {
                if direction == Direction::Request {
                    p.calls.insert(call, String::new());
                }
                stats.decode_errors += 1;
                let outcome = Outcome::Error(format!("protobuf: {e}"));
                record(
                    &mut out, time, m.name, direction, None, "", None, 0, None, &outcome,
                );
                end_line(&mut out, &[], p.upstream.label.as_deref());
            }
            Ok(Message::ProviderSchema(s)) => match *s {
                Ok(mut s) => {
                    // Identities come from their own call: a schema seen again after them
                    // (another GetProviderSchema) keeps them.
                    if let Some(old) = &p.schemas {
                        s.identities.clone_from(&old.identities);
                    }
                    p.set_schemas(s, &config.masks)
                }
                Err(e) => {
                    stats.decode_errors += 1;
                    let outcome = Outcome::Error(format!("provider schema: {e}"));
                    record(
                        &mut out, time, m.name, direction, None, "schema", None, 0, None, &outcome,
                    );
                    end_line(&mut out, &[], p.upstream.label.as_deref());
                }
            },
            Ok(Message::IdentitySchemas(Ok(ids))) => {
                let mut s = p.schemas.clone().unwrap_or_default();
                s.identities = ids;
                p.set_schemas(s, &config.masks);
            }
            Ok(Message::IdentitySchemas(Err(e))) => {
                stats.decode_errors += 1;
                let outcome = Outcome::Error(format!("identity schemas: {e}"));
                record(
                    &mut out,
                    time,
                    m.name,
                    direction,
                    None,
                    "identity_schemas",
                    None,
                    0,
                    None,
                    &outcome,
                );
                end_line(&mut out, &[], p.upstream.label.as_deref());
            }
            Ok(Message::Other) => {
                if direction == Direction::Request {
                    p.calls.insert(call, String::new());
                }
            }
            Ok(Message::Values(v)) => {
                let type_name = match direction {
                    Direction::Request => {
                        let t = v.type_name().to_owned();
                        p.calls.insert(call, t.clone());
                        t
                    }
                    Direction::Response => p.calls.get(&call).cloned().unwrap_or_default(),
                };
                let mut fields = Vec::new();
                v.dynamic_values(&type_name, &mut |f| fields.push(f));
                if !fields.is_empty() && p.programs.is_none() {
                    p.await_fetch(&mut stats, &config.masks);
                }
                for f in fields {
                    stats.values += 1;
                    let bytes = f.value.msgpack.len() + f.value.json.len();
                    let tn = (!f.schema.type_name().is_empty()).then(|| f.schema.type_name());
                    let no_schema;
                    let (outcome, us, problems) = match &p.programs {
                        None => {
                            no_schema = Outcome::Error(format!(
                                "no schema: the tap saw no GetProviderSchema response and fetched none ({})",
                                p.fetch_failed.as_deref().unwrap_or("no fetch was started")
                            ));
                            (&no_schema, None, Vec::new())
                        }
                        Some(programs) => {
                            let (outcome, took) = recorder.decode(programs, f.schema, f.value);
                            let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
                            stats.decode_ns.push(ns);
                            let mut problems = Vec::new();
                            if config.validate
                                && f.name == "config"
                                && matches!(outcome, Outcome::Value(_))
                                && let (Some(block), Ok(program)) =
                                    (programs.block(f.schema), programs.get(f.schema))
                            {
                                arena.reset();
                                if let Ok(value) =
                                    decoder.decode_dynamic_value(&program, f.value, &arena)
                                {
                                    problems = validate_config(&value, block);
                                }
                            }
                            (outcome, Some(ns as f64 / 1000.0), problems)
                        }
                    };
                    if matches!(outcome, Outcome::Error(_)) {
                        stats.decode_errors += 1;
                    }
                    if !problems.is_empty() {
                        stats.invalid += 1;
                    }
                    record(
                        &mut out, time, m.name, direction, tn, f.name, f.index, bytes, us, outcome,
                    );
                    end_line(&mut out, &problems, p.upstream.label.as_deref());
                }
            }
        }
        if let (Some(w), false, false) = (log.as_mut(), write_failed, out.is_empty())
            && let Err(e) = w.write_all(out.as_bytes())
        {
            eprintln!(
                "tfwire tap: writing the log failed ({e}); logging stops, forwarding goes on"
            );
            write_failed = true;
        }
    }
    // Every sender is gone: the count is final.
    stats.dropped = dropped.load(Ordering::Relaxed);
    if let (Some(w), false) = (log.as_mut(), write_failed) {
        let mut line = String::new();
        let mut j = JsonWriter::new(&mut line, Escape::Safe);
        let _ = (|| {
            j.begin_object()?;
            j.member_str("time", &rfc3339(SystemTime::now()))?;
            j.key("summary")?;
            j.raw(&stats.summary_json())?;
            j.end_object()
        })();
        line.push('\n');
        if let Err(e) = w.write_all(line.as_bytes()).and_then(|()| w.flush()) {
            eprintln!("tfwire tap: writing the log failed: {e}");
        }
    }
    stats
}

/// Appends one record of the log to `out` (tfwire-plugin's writer, shared with `tfwire dump`).
#[allow(clippy::too_many_arguments)]
fn record(
    out: &mut String,
    time: &str,
    rpc: &str,
    direction: Direction,
    type_name: Option<&str>,
    field: &str,
    index: Option<usize>,
    bytes: usize,
    decode_us: Option<f64>,
    outcome: &Outcome,
) {
    Record {
        time,
        rpc,
        direction,
        type_name,
        field,
        index,
        file: None,
        bytes,
        decode_us,
        outcome,
    }
    .write_json(out)
}

/// Ends the record just appended to `out`: `--validate`'s problems, the provider's label
/// (reattach mode), the newline.
fn end_line(out: &mut String, problems: &[String], label: Option<&str>) {
    if !problems.is_empty() || label.is_some() {
        // The record's closing brace, put back below.
        out.pop();
        out.push(',');
        let mut w = JsonWriter::new(&mut *out, Escape::Safe);
        let _ = (|| {
            if !problems.is_empty() {
                w.key("invalid")?;
                w.begin_array()?;
                for problem in problems {
                    w.string(problem)?;
                }
                w.end_array()?;
            }
            if let Some(label) = label {
                w.member_str("provider", label)?;
            }
            Ok::<(), core::fmt::Error>(())
        })();
        out.push('}');
    }
    out.push('\n');
}

impl Provider {
    fn set_schemas(&mut self, s: ProviderSchema, masks: &Masks) {
        self.programs = Some(Programs::new(s.clone()).with_masks(masks.clone()));
        self.schemas = Some(s);
    }

    /// Waits for the schema fetch the observer started (once; at most 30 s).
    fn await_fetch(&mut self, stats: &mut Stats, masks: &Masks) {
        if self.fetch_failed.is_some() || !self.fetch.started.load(Ordering::Relaxed) {
            return;
        }
        let guard = self.fetch.result.lock().unwrap_or_else(|e| e.into_inner());
        let (mut guard, _) = self
            .fetch
            .done
            .wait_timeout_while(guard, Duration::from_secs(30), |r| r.is_none())
            .unwrap_or_else(|e| e.into_inner());
        match guard.take() {
            Some(Ok(s)) => {
                drop(guard);
                stats.schema_fetches += 1;
                self.set_schemas(s, masks);
            }
            Some(Err(e)) => self.fetch_failed = Some(e),
            None => self.fetch_failed = Some("the fetch took more than 30 s".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full queue never makes the forwarding side wait: the event is dropped and counted.
    #[test]
    fn full_queue_drops_and_counts() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let endpoint = tonic::transport::Endpoint::from_static("http://127.0.0.1:9");
        let channel = runtime.block_on(async { endpoint.connect_lazy() });
        let (tx, mut rx) = queue(2);
        let tap = Tap {
            provider: 0,
            tx,
            dropped: Arc::default(),
            fetch: Arc::default(),
            channel,
            handle: runtime.handle().clone(),
        };
        let message = Bytes::from_static(b"");
        let frame = Frame {
            method: "/tfplugin6.Provider/GetProviderSchema",
            direction: Direction::Request,
            message: &message,
            call: 0,
        };
        // Nobody reads: two events fit, the next three are dropped, none blocks.
        for _ in 0..3 {
            tap.frame(frame);
        }
        tap.forwarded(frame, Duration::from_micros(5));
        tap.forwarded(frame, Duration::from_micros(5));
        assert_eq!(tap.dropped.load(Ordering::Relaxed), 3);
        assert_eq!(rx.by_ref().take(2).count(), 2);
        // Once the worker has gone, sends are ignored, not counted.
        drop(rx);
        tap.frame(frame);
        assert_eq!(tap.dropped.load(Ordering::Relaxed), 3);
    }
}
