//! The tap's observer: every frame handed (a cheap `Bytes` clone) to one worker thread that
//! decodes its values with the provider's schema, writes the JSONL log and keeps the
//! statistics. Nothing here runs on the forwarding path but a channel send that never waits:
//! the channel is bounded ([`QUEUE`] events), and when it is full (the decoder fell that far
//! behind) the event is dropped and counted (`dropped` in the summary), the call goes on.

use bytes::Bytes;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};
use tfwire::schema::ProviderSchema;
use tfwire::schema::{Block, Nesting, Protocol};
use tfwire::{Config, Decoder, Value};
use tfwire_plugin::Programs;
use tfwire_plugin::log::{Outcome, Record, Recorder};
use tfwire_plugin::proxy::{Frame, Observer};
use tfwire_plugin::rpc::{Direction, Message, Method};
use tonic::transport::Channel;

/// How many events wait for the worker at most; a frame or timing that finds the queue full
/// is dropped and counted rather than making its call wait.
pub(crate) const QUEUE: usize = 16 * 1024;

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

/// The observer of one provider's traffic (one per provider; all share the worker).
pub(crate) struct Tap {
    provider: usize,
    tx: SyncSender<Event>,
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
    /// The schema fetched before the tap printed its handshake line (shim mode).
    pub(crate) fn fetched(&self, result: Result<ProviderSchema, String>) {
        self.fetch.started.store(true, Ordering::Relaxed);
        *self.fetch.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        self.fetch.done.notify_all();
    }

    /// Starts fetching the provider's schema (once).
    pub(crate) fn start_fetch(&self, protocol: Protocol) {
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
        if let Err(TrySendError::Full(_)) = self.tx.try_send(event) {
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
#[derive(Clone)]
pub(crate) struct Upstream {
    /// The provider's label in the log (reattach mode: its address), if any.
    pub(crate) label: Option<String>,
    /// The channel to the provider.
    pub(crate) channel: Channel,
    /// The runtime to run the fetch on.
    pub(crate) handle: tokio::runtime::Handle,
}

/// Per-RPC counts.
#[derive(Default)]
struct Counts {
    calls: u64,
    frames: u64,
    bytes: u64,
}

/// The figures written at exit.
#[derive(Default)]
pub(crate) struct Stats {
    rpcs: BTreeMap<String, Counts>,
    pub(crate) values: u64,
    pub(crate) decode_errors: u64,
    pub(crate) invalid: u64,
    schema_fetches: u64,
    /// Frames and timings dropped because the worker's queue was full.
    pub(crate) dropped: u64,
    decode_ns: Vec<u64>,
    held_ns: Vec<u64>,
}

/// The `q`-quantile (0..=1) of `v` in microseconds, nearest rank; 0 when empty.
fn quantile_us(v: &mut [u64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_unstable();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1] as f64 / 1000.0
}

impl Stats {
    /// The summary as JSON (the `summary` member of the last log record).
    pub(crate) fn summary_json(&mut self) -> String {
        use core::fmt::Write as _;
        let mut s = String::from("{\"rpcs\":{");
        let (mut calls, mut frames, mut bytes) = (0, 0, 0);
        for (i, (name, c)) in self.rpcs.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = tfwire_json::write_safe_str(&mut s, name);
            let _ = write!(
                s,
                ":{{\"calls\":{},\"frames\":{},\"bytes\":{}}}",
                c.calls, c.frames, c.bytes
            );
            (calls, frames, bytes) = (calls + c.calls, frames + c.frames, bytes + c.bytes);
        }
        let (d50, d99) = (
            quantile_us(&mut self.decode_ns, 0.5),
            quantile_us(&mut self.decode_ns, 0.99),
        );
        let (h50, h99) = (
            quantile_us(&mut self.held_ns, 0.5),
            quantile_us(&mut self.held_ns, 0.99),
        );
        let _ = write!(
            s,
            "}},\"calls\":{calls},\"frames\":{frames},\"bytes\":{bytes},\"values\":{},\
             \"decode_errors\":{},\"invalid_values\":{},\"schema_fetches\":{},\"dropped\":{},\
             \"decode_us\":{{\"p50\":{d50:.1},\"p99\":{d99:.1}}},\
             \"added_us\":{{\"p50\":{h50:.1},\"p99\":{h99:.1}}}}}",
            self.values, self.decode_errors, self.invalid, self.schema_fetches, self.dropped
        );
        s
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

/// The worker: owns the log, the schemas and the statistics.
pub(crate) struct Worker {
    tx: Option<SyncSender<Event>>,
    dropped: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<Stats>>,
    providers: Vec<(Upstream, Arc<Fetch>)>,
}

impl Worker {
    /// Starts the worker for these providers, writing to `log` (when given).
    pub(crate) fn start(
        providers: Vec<Upstream>,
        log: Option<Box<dyn Write + Send>>,
        validate: bool,
    ) -> Worker {
        let (tx, rx) = sync_channel(QUEUE);
        let dropped = Arc::new(AtomicU64::new(0));
        let providers: Vec<(Upstream, Arc<Fetch>)> =
            providers.into_iter().map(|u| (u, Arc::default())).collect();
        let shared = providers.clone();
        let counted = dropped.clone();
        let thread = std::thread::Builder::new()
            .name("tfwire-tap-decode".into())
            .spawn(move || work(rx, shared, log, validate, counted))
            .ok();
        Worker {
            tx: Some(tx),
            dropped,
            thread,
            providers,
        }
    }

    /// The observer of provider `provider` (its index in the list given to `start`).
    pub(crate) fn observer(&self, provider: usize) -> Tap {
        let (upstream, fetch) = &self.providers[provider];
        Tap {
            provider,
            tx: self.tx.clone().unwrap_or_else(|| sync_channel(0).0),
            dropped: self.dropped.clone(),
            fetch: fetch.clone(),
            channel: upstream.channel.clone(),
            handle: upstream.handle.clone(),
        }
    }

    /// Waits until every frame sent so far is handled (the observers must be dropped first),
    /// and returns the statistics.
    pub(crate) fn finish(mut self) -> Stats {
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
    validate: bool,
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
                    p.set_schemas(s)
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
                p.set_schemas(s);
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
                    p.await_fetch(&mut stats);
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
                            if validate
                                && f.name == "config"
                                && matches!(outcome, Outcome::Value(_))
                                && let (Some(block), Ok(program)) =
                                    (programs.block(f.schema), programs.get(f.schema))
                            {
                                arena.reset();
                                if let Ok(value) =
                                    decoder.decode_dynamic_value(&program, f.value, &arena)
                                {
                                    check_config(&value, block, &mut String::new(), &mut problems);
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
        let line = format!(
            "{{\"time\":\"{}\",\"summary\":{}}}\n",
            rfc3339(SystemTime::now()),
            stats.summary_json()
        );
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
    if problems.is_empty() && label.is_none() {
        out.push('\n');
        return;
    }
    // The record's closing brace, put back below.
    out.pop();
    if !problems.is_empty() {
        out.push_str(",\"invalid\":[");
        for (i, problem) in problems.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = tfwire_json::write_safe_str(out, problem);
        }
        out.push(']');
    }
    if let Some(label) = label {
        out.push_str(",\"provider\":");
        let _ = tfwire_json::write_safe_str(out, label);
    }
    out.push_str("}\n");
}

impl Provider {
    fn set_schemas(&mut self, s: ProviderSchema) {
        self.programs = Some(Programs::new(s.clone()).with_masks(super::masks()));
        self.schemas = Some(s);
    }

    /// Waits for the schema fetch the observer started (once; at most 30 s).
    fn await_fetch(&mut self, stats: &mut Stats) {
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
                self.set_schemas(s);
            }
            Some(Err(e)) => self.fetch_failed = Some(e),
            None => self.fetch_failed = Some("the fetch took more than 30 s".into()),
        }
    }
}

pub(crate) async fn fetch_schemas(
    channel: Channel,
    protocol: Protocol,
) -> Result<ProviderSchema, String> {
    use prost::Message as _;
    use tfwire_plugin::{tfplugin5, tfplugin6};
    let e = |e: tonic::Status| format!("GetProviderSchema: {}", e.message());
    let (schema, ids) = match protocol {
        Protocol::V5 => {
            let mut c = tfplugin5::provider_client::ProviderClient::new(channel);
            let s = c
                .get_schema(tfplugin5::get_provider_schema::Request::default())
                .await
                .map_err(e)?;
            let ids = c
                .get_resource_identity_schemas(
                    tfplugin5::get_resource_identity_schemas::Request::default(),
                )
                .await
                .ok();
            (
                s.into_inner().encode_to_vec(),
                ids.map(|r| r.into_inner().encode_to_vec()),
            )
        }
        Protocol::V6 => {
            let mut c = tfplugin6::provider_client::ProviderClient::new(channel);
            let s = c
                .get_provider_schema(tfplugin6::get_provider_schema::Request::default())
                .await
                .map_err(e)?;
            let ids = c
                .get_resource_identity_schemas(
                    tfplugin6::get_resource_identity_schemas::Request::default(),
                )
                .await
                .ok();
            (
                s.into_inner().encode_to_vec(),
                ids.map(|r| r.into_inner().encode_to_vec()),
            )
        }
    };
    // The same conversion as for a response seen on the wire.
    let name = |n| Method::from_name(protocol, n).ok_or_else(|| format!("no method {n}"));
    let schema_method = name(if protocol == Protocol::V5 {
        "GetSchema"
    } else {
        "GetProviderSchema"
    })?;
    let mut schemas = match schema_method.decode(Direction::Response, schema.into()) {
        Ok(Message::ProviderSchema(s)) => (*s).map_err(|e| format!("provider schema: {e}"))?,
        Ok(_) => return Err("GetProviderSchema: an unexpected message".into()),
        Err(e) => return Err(format!("GetProviderSchema: {e}")),
    };
    if let Some(ids) = ids
        && let Ok(Message::IdentitySchemas(Ok(ids))) =
            name("GetResourceIdentitySchemas")?.decode(Direction::Response, ids.into())
    {
        schemas.identities = ids;
    }
    Ok(schemas)
}

/// What `--validate` checks of a configuration value beyond its type (which decoding checks):
/// required attributes set, computed-only attributes not set, and the number of nested blocks
/// within their `min_items`/`max_items`. Unknown values (not yet known when validating) pass.
fn check_config(value: &Value<'_>, block: &Block, path: &mut String, problems: &mut Vec<String>) {
    let Value::Object(entries) = value.unwrap_dynamic() else {
        return;
    };
    let get = |name: &str| {
        entries
            .binary_search_by(|(k, _)| (*k).cmp(name))
            .ok()
            .map(|i| entries[i].1)
    };
    for a in &block.attributes {
        let v = get(&a.name).unwrap_or(Value::Null);
        if a.required && matches!(v, Value::Null) {
            problems.push(format!("{path}.{}: required, but null", a.name));
        }
        if a.computed && !a.optional && !a.required && !matches!(v, Value::Null) {
            problems.push(format!(
                "{path}.{}: computed only, but set in configuration",
                a.name
            ));
        }
    }
    for b in &block.block_types {
        let v = get(&b.type_name).unwrap_or(Value::Null);
        let items: &[Value<'_>] = match v {
            Value::List(items) | Value::Set(items) => items,
            Value::Unknown(_) => continue,
            _ => &[],
        };
        let n = items.len() as u64;
        if matches!(b.nesting, Nesting::List | Nesting::Set) {
            if n < b.min_items {
                problems.push(format!(
                    "{path}.{}: {n} blocks, at least {} required",
                    b.type_name, b.min_items
                ));
            }
            if b.max_items > 0 && n > b.max_items {
                problems.push(format!(
                    "{path}.{}: {n} blocks, at most {} allowed",
                    b.type_name, b.max_items
                ));
            }
        }
        let len = path.len();
        match v {
            Value::List(items) | Value::Set(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push_str(&format!(".{}[{i}]", b.type_name));
                    check_config(item, &b.block, path, problems);
                    path.truncate(len);
                }
            }
            Value::Map(entries) => {
                for (k, item) in entries {
                    path.push_str(&format!(".{}[{k:?}]", b.type_name));
                    check_config(item, &b.block, path, problems);
                    path.truncate(len);
                }
            }
            Value::Object(_) => {
                path.push('.');
                path.push_str(&b.type_name);
                check_config(&v, &b.block, path, problems);
                path.truncate(len);
            }
            _ => {}
        }
    }
}

/// A time as RFC 3339 in UTC with microseconds (`2026-11-24T06:55:00.123456Z`).
pub(crate) fn rfc3339(t: SystemTime) -> String {
    let mut s = String::with_capacity(27);
    write_rfc3339(&mut s, t);
    s
}

/// Appends `t` as [`rfc3339`] does.
fn write_rfc3339(out: &mut String, t: SystemTime) {
    use core::fmt::Write as _;
    let d = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let _ = write!(
        out,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        d.subsec_micros()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_dates() {
        let at = |s: u64, us: u32| {
            rfc3339(
                SystemTime::UNIX_EPOCH + Duration::from_secs(s) + Duration::from_micros(us.into()),
            )
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z");
        // 2000-02-29 (a leap day of a century leap year) and 2100-03-01 (2100 is not leap).
        assert_eq!(at(951_782_400 + 3661, 7), "2000-02-29T01:01:01.000007Z");
        assert_eq!(at(4_107_542_400, 999_999), "2100-03-01T00:00:00.999999Z");
    }

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
            vec![Upstream {
                label: None,
                channel,
                handle: runtime.handle().clone(),
            }],
            Some(Box::new(log.clone())),
            validate,
        );
        (runtime, worker, log)
    }

    /// The log of a schema, a plan request holding a secret, and a response whose value does
    /// not decode: the secret masked, the error with its path, the summary last.
    #[test]
    fn log_redacts_and_reports_decode_errors() {
        use prost::Message as _;
        use tfwire_plugin::tfplugin6::{
            DynamicValue, Schema, get_provider_schema, plan_resource_change, schema,
        };
        let (_runtime, worker, log) = logging_worker(true);
        let tap = worker.observer(0);
        let attr = |name: &str, required: bool, sensitive: bool| schema::Attribute {
            name: name.into(),
            r#type: Bytes::from_static(b"\"string\""),
            optional: !required,
            required,
            sensitive,
            ..Default::default()
        };
        let mut response = get_provider_schema::Response::default();
        response.resource_schemas.insert(
            "db".into(),
            Schema {
                version: 0,
                block: Some(schema::Block {
                    attributes: vec![attr("name", true, false), attr("password", false, true)],
                    ..Default::default()
                }),
            },
        );
        let dv = |b: &'static [u8]| {
            Some(DynamicValue {
                msgpack: Bytes::from_static(b),
                json: Bytes::new(),
            })
        };
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
        for (method, direction, message, call) in frames {
            tap.frame(Frame {
                method,
                direction,
                message: &Bytes::from(message),
                call,
            });
        }
        drop(tap);
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
            DynamicValue, ResourceIdentityData, ResourceIdentitySchema, Schema,
            get_provider_schema, get_resource_identity_schemas, read_resource,
            resource_identity_schema, schema,
        };
        let (_runtime, worker, log) = logging_worker(false);
        let tap = worker.observer(0);
        let mut schemas = get_provider_schema::Response::default();
        schemas.resource_schemas.insert(
            "db".into(),
            Schema {
                version: 0,
                block: Some(schema::Block {
                    attributes: vec![schema::Attribute {
                        name: "name".into(),
                        r#type: Bytes::from_static(b"\"string\""),
                        optional: true,
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
            },
        );
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
                identity_data: Some(DynamicValue {
                    msgpack: Bytes::from_static(b),
                    json: Bytes::new(),
                }),
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
        for (method, direction, message, call) in frames {
            tap.frame(Frame {
                method,
                direction,
                message: &Bytes::from(message),
                call,
            });
        }
        drop(tap);
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

    /// A full queue never makes the forwarding side wait: the event is dropped and counted.
    #[test]
    fn full_queue_drops_and_counts() {
        let (runtime, channel) = runtime_and_channel();
        let (tx, rx) = sync_channel(2);
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
        assert_eq!(rx.try_iter().count(), 2);
        // Once the worker has gone, sends are ignored, not counted.
        drop(rx);
        tap.frame(frame);
        assert_eq!(tap.dropped.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn quantiles_nearest_rank() {
        let mut v: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(quantile_us(&mut v, 0.5), 50.0);
        assert_eq!(quantile_us(&mut v, 0.99), 99.0);
        assert_eq!(quantile_us(&mut Vec::<u64>::new(), 0.99), 0.0);
    }
}
