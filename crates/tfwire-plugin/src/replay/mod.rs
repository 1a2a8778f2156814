//! Replaying a [`Cassette`]: a provider's recorded answers, given to the requests that match
//! the recorded ones **by value**.
//!
//! A [`Replayer`] holds the sessions of one provider. [`Replayer::answer`] takes a call (its
//! gRPC path and its request messages) and returns the recorded responses and status of a
//! recorded call whose requests match, or a [`Mismatch`] naming the RPC, the type and the
//! first path where the nearest recorded request differs. [`service`] serves a replayer as a
//! gRPC server of raw frames, the way [`crate::proxy::Forward`] forwards them; `tfwire replay`
//! runs it behind go-plugin's handshake in a provider's place.
//!
//! # An in-process harness
//!
//! A test replays a cassette without any process: serve the replayer on a socket and call
//! it with the generated clients.
//!
//! ```
//! use std::sync::Arc;
//! use tfwire_plugin::cassette::{Call, CallStatus, Cassette, Session};
//! use tfwire_plugin::replay::{Replayer, service};
//! use tfwire_plugin::tfplugin6::{self, provider_client::ProviderClient};
//! use prost::Message as _;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A provider with one resource type, `db` {name: string, password: string (sensitive)} ...
//! let attr = |name: &str, sensitive| tfplugin6::schema::Attribute {
//!     name: name.into(), r#type: b"\"string\"".to_vec().into(), optional: true, sensitive,
//!     ..Default::default()
//! };
//! let mut schema = tfplugin6::get_provider_schema::Response::default();
//! schema.resource_schemas.insert("db".into(), tfplugin6::Schema {
//!     version: 0,
//!     block: Some(tfplugin6::schema::Block {
//!         attributes: vec![attr("name", false), attr("password", true)],
//!         ..Default::default()
//!     }),
//! });
//! // ... and the one call recorded: ReadResource of {name = "a", password = "pw"}.
//! let dv = |msgpack: &'static [u8]| Some(tfplugin6::DynamicValue {
//!     msgpack: msgpack.into(), json: Default::default(),
//! });
//! let request = tfplugin6::read_resource::Request {
//!     type_name: "db".into(),
//!     current_state: dv(b"\x82\xa4name\xa1a\xa8password\xa2pw"),
//!     ..Default::default()
//! };
//! let response = tfplugin6::read_resource::Response {
//!     new_state: dv(b"\x82\xa4name\xa1a\xa8password\xa2pw"),
//!     ..Default::default()
//! };
//! let cassette = Cassette { sessions: vec![Session {
//!     protocol: 6,
//!     schema: schema.encode_to_vec().into(),
//!     calls: vec![Call {
//!         method: "/tfplugin6.Provider/ReadResource".into(),
//!         requests: vec![request.encode_to_vec().into()],
//!         responses: vec![response.encode_to_vec().into()],
//!         status: CallStatus::OK,
//!     }],
//!     ..Default::default()
//! }] };
//!
//! // Served in this process, on a local port.
//! let replay = service(Arc::new(Replayer::new(cassette)?));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let addr = listener.local_addr()?;
//! tokio::spawn(replay.router().serve_with_incoming(
//!     tokio_stream::wrappers::TcpListenerStream::new(listener),
//! ));
//! let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))?.connect().await?;
//! let mut client = ProviderClient::new(channel);
//!
//! // The same state, its map written in the other order: the recorded answer.
//! let mut same = request.clone();
//! same.current_state = dv(b"\x82\xa8password\xa2pw\xa4name\xa1a");
//! let answer = client.read_resource(same).await?.into_inner();
//! assert_eq!(answer.new_state, response.new_state);
//!
//! // Another name: an error that says where, the sensitive value never shown.
//! let mut other = request.clone();
//! other.current_state = dv(b"\x82\xa4name\xa1b\xa8password\xa2xx");
//! let e = client.read_resource(other).await.unwrap_err();
//! assert_eq!(e.code(), tonic::Code::FailedPrecondition);
//! assert_eq!(
//!     e.message(),
//!     "tfwire replay: ReadResource of \"db\": no recorded call matches; the nearest \
//!      (sessions[0].calls[0]) differs in 2 places, first at current_state.name: \
//!      expected \"a\", found \"b\"",
//! );
//! # Ok(()) }
//! ```
//!
//! # Matching
//!
//! Each request is read with its method's request type from the protocol's own descriptors
//! (every field by name, a map as its entries in key order, a singular field given twice as
//! its last occurrence), and every `DynamicValue` in it is decoded with the session's schema
//! (the [`crate::rpc`] table says which schema types which field) and compared as a value:
//! MessagePack or JSON, map entries in any order, numbers as go-cty compares them (integers
//! exactly, other numbers at float64 precision), set elements in any order, an unknown
//! value's refinements by what they say (not how they are spelled). A `DynamicValue` that has
//! no schema (or does not decode with it) is compared by its bytes. `UpgradeResourceState`'s
//! `raw_state.json` (the stored state) is decoded with the resource type's schema when it
//! conforms to it, else compared as bytes.
//!
//! ## Volatile fields
//!
//! These fields are left out of the comparison ([`VOLATILE`]):
//!
//! - `client_capabilities` (every request that has one): what the client can handle
//!   (deferrals, write-only attributes), which changes with the client's version, not with
//!   what the plan asks;
//! - `terraform_version` (`ConfigureProvider`, `Configure`): the client's version;
//! - `private`, `prior_private`, `planned_private`, `source_private` (`ReadResource`,
//!   `PlanResourceChange`, `ApplyResourceChange`, `MoveResourceState`, `RenewEphemeralResource`,
//!   `CloseEphemeralResource`): opaque blobs the provider produced earlier (SDKv2 keeps its
//!   timeouts and schema version there, some providers a timestamp). The client only hands
//!   them back; what they belong to is compared in the state values beside them, and a
//!   redacted cassette replaces them.
//!
//! ## Redacted sessions
//!
//! In a session marked [`Session::redacted`], every value at a sensitive or write-only
//! position (by the schema) was replaced by a placeholder of its type; there a request's
//! value matches the recorded placeholder when both are null, both unknown, or both known.
//!
//! ## Which recorded call answers
//!
//! Every recorded call of the method whose requests match is a candidate. Recorded calls are
//! answered in their recorded order: the first candidate not answered yet, preferring the
//! session the last session-specific call came from (the client starts the provider once per
//! command, and the cassette holds a session for each), then later sessions; once every
//! candidate has answered, the last one answers again. The calls every provider process gets
//! (`GetProviderSchema`, `GetMetadata`, `GetResourceIdentitySchemas`, `GetFunctions`,
//! `ValidateProviderConfig`, `ConfigureProvider`, `StopProvider` and their protocol 5
//! names) match in every session and do not move that preference; when no recorded call
//! answers them, the schema calls answer with the session's schema responses and the stop
//! calls with an empty response. go-plugin's own services (controller, stdio, broker,
//! health) are answered by [`service`] itself, never from the cassette.
//!
//! With no candidate, the nearest recorded call of the method and type (the one whose
//! requests differ in the fewest places) makes the [`Mismatch`]: the RPC, the type name,
//! the first differing path (`config.tags["env"]`, `prior_state.size`; one in the
//! configuration before one in another field, since the configuration is what a person
//! edits; a volatile field never), and the recorded and the new value there, each
//! `"(sensitive)"` at a sensitive position.
//!
//! In a redacted session, a matched request's values at its placeholders' positions are
//! also put back into the recorded responses (the same secret has the same placeholder
//! throughout a session): a client checks a planned value of a non-computed attribute
//! against its configuration, and a placeholder would fail that check.
//!
//! # Limits
//!
//! A request's messages are read with a bound on nesting (32 messages deep) and, by
//! [`service`], on their number and size (100,000 messages, 1 GiB per call); the search
//! for the nearest call compares at most 10,000 recorded calls, counting at most 64
//! differences each; a replayer keeps the first 1,000 mismatches.

mod diff;
mod proto;
mod restore;
mod service;
mod value;

pub use proto::VOLATILE;
pub use service::{Replay, service};

use crate::Programs;
use crate::cassette::{CallStatus, Cassette, Session};
use crate::rpc::Method;
use crate::{Error, ErrorKind};
use bytes::Bytes;
use core::fmt;
use diff::Diff;
use proto::{Context, Node};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hasher};
use std::sync::Mutex;
use tfwire::schema::{Protocol, ProviderSchema};
use value::ValueTree;

/// The most recorded calls a mismatch is compared with to find the nearest.
const MAX_NEAREST: usize = 10_000;

/// The differences counted per recorded call when looking for the nearest.
const MAX_COUNTED: usize = 64;

/// The mismatches a replayer keeps (later ones are counted only).
const MAX_KEPT: usize = 1_000;

/// The calls every provider process gets, matched in any session (see the module
/// documentation).
const COMMON: [&str; 11] = [
    "GetProviderSchema",
    "GetSchema",
    "GetMetadata",
    "GetResourceIdentitySchemas",
    "GetFunctions",
    "ValidateProviderConfig",
    "PrepareProviderConfig",
    "ConfigureProvider",
    "Configure",
    "StopProvider",
    "Stop",
];

/// What a recorded call answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The response messages, in order (protobuf, as the provider sent them).
    pub responses: Vec<Bytes>,
    /// How the call ended.
    pub status: CallStatus,
    /// The recorded call: its session's and its own index in the cassette
    /// (`sessions[s].calls[c]`); `None` for an answer made from a session's schema
    /// responses, or the empty answer of a stop call none recorded.
    pub recorded: Option<(usize, usize)>,
}

/// Why no recorded call answers a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The RPC (`PlanResourceChange`; the gRPC path for a method outside the protocol).
    pub rpc: String,
    /// The type the request names (resource, data source, function...), when it names one.
    pub type_name: Option<String>,
    /// The first path where the nearest recorded request differs (`config.tags["env"]`);
    /// `type_name` when no call of that type was recorded; empty when no call of the RPC was.
    pub path: String,
    /// The recorded value there (`"(sensitive)"` at a sensitive position).
    pub expected: String,
    /// The request's value there.
    pub found: String,
    /// The nearest recorded call (`sessions[s].calls[c]`), when there is one.
    pub nearest: Option<(usize, usize)>,
    /// In how many places the nearest recorded call differs (counted up to 64).
    pub differences: usize,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = format!("tfwire replay: {}", self.rpc);
        if let Some(t) = &self.type_name {
            text.push_str(&format!(" of {}", value::quote(t)));
        }
        match self.nearest {
            Some((s, c)) => text.push_str(&format!(
                ": no recorded call matches; the nearest (sessions[{s}].calls[{c}]) differs in \
                 {} place{}, first at {}: expected {}, found {}",
                self.differences,
                if self.differences == 1 { "" } else { "s" },
                self.path,
                self.expected,
                self.found
            )),
            None if self.path.is_empty() => {
                text.push_str(&format!(": the cassette holds no {} call", self.rpc));
            }
            None => text.push_str(&format!(
                ": no recorded call matches: {} is {}; recorded: {}",
                self.path, self.found, self.expected
            )),
        }
        tfwire_json::write_safe_inline(f, &text)
    }
}

impl std::error::Error for Mismatch {}

/// `FailedPrecondition`: the cassette lacks what the call needs. (Not `Unimplemented` or
/// `NotFound`, which some clients take as "this provider has no such call" and go on
/// without it: a mismatch must stop the run.)
impl From<Mismatch> for tonic::Status {
    fn from(m: Mismatch) -> tonic::Status {
        tonic::Status::failed_precondition(m.to_string())
    }
}

/// A recorded call, read.
struct Recorded {
    method: String,
    type_name: String,
    /// The requests as trees (empty for a method outside the protocol: compared as bytes).
    trees: Vec<Node>,
    requests: Vec<Bytes>,
    responses: Vec<Bytes>,
    status: CallStatus,
}

/// A session, read.
struct Replayed {
    /// Its index in the cassette.
    number: usize,
    group: usize,
    redacted: bool,
    schema: Bytes,
    identities: Option<Bytes>,
    calls: Vec<Recorded>,
}

/// The key of the index: method, schema group, redacted, fingerprint of the requests.
type Key = (String, usize, bool, u64);

/// Which calls answered, and the mismatches.
#[derive(Default)]
struct State {
    used: HashMap<(usize, usize), ()>,
    hint: Option<usize>,
    mismatches: Vec<Mismatch>,
    mismatch_count: usize,
    /// How long each answer took, in µs (the first [`MAX_TIMED`]).
    times: Vec<u32>,
    calls: usize,
}

/// The answers whose time is kept for [`Replayer::stats`].
const MAX_TIMED: usize = 1 << 20;

/// What a replayer did: calls answered (or not), and how long finding an answer took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls asked ([`Replayer::answer`]).
    pub calls: usize,
    /// Calls no recorded call matched.
    pub mismatches: usize,
    /// The median time of an answer (reading the request, matching, restoring), in µs.
    pub p50_us: u64,
    /// The 99th percentile of that time, in µs.
    pub p99_us: u64,
}

/// The recorded sessions of one provider, answering calls (see the module documentation).
pub struct Replayer {
    sessions: Vec<Replayed>,
    /// The programs of each distinct schema (sessions of one provider version share one).
    groups: Vec<Programs>,
    index: HashMap<Key, Vec<(usize, usize)>>,
    /// The calls by method and type name, for the nearest.
    by_type: HashMap<(String, String), Vec<(usize, usize)>>,
    protocol: u32,
    provider: Option<String>,
    version: Option<String>,
    state: Mutex<State>,
}

impl fmt::Debug for Replayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replayer")
            .field("provider", &self.provider)
            .field("protocol", &self.protocol)
            .field("sessions", &self.sessions.len())
            .finish_non_exhaustive()
    }
}

#[cold]
fn err(message: String) -> Error {
    Error::new(ErrorKind::Replay, message)
}

impl Replayer {
    /// Replays every session of `cassette`, which must be of one provider (sessions whose
    /// provider is unknown count as that one) and one protocol version.
    ///
    /// # Errors
    ///
    /// A cassette with no session, sessions of several providers (choose one with
    /// [`Replayer::for_provider`]) or protocols, a schema that does not read, a recorded
    /// request that does not read as its method's.
    pub fn new(cassette: Cassette) -> Result<Replayer, Error> {
        let mut providers: Vec<&str> = cassette
            .sessions
            .iter()
            .filter_map(|s| s.provider.as_deref())
            .collect();
        providers.sort_unstable();
        providers.dedup();
        if providers.len() > 1 {
            return Err(err(format!(
                "the cassette holds sessions of {} providers ({}): choose one",
                providers.len(),
                providers.join(", ")
            )));
        }
        let sessions = cassette.sessions.into_iter().enumerate().collect();
        Replayer::build(sessions)
    }

    /// Replays the sessions of `cassette` whose provider is `provider`
    /// (`registry.opentofu.org/hashicorp/null`; the host may be left out, as in
    /// `hashicorp/null`), and those whose provider is unknown.
    ///
    /// # Errors
    ///
    /// No session of that provider; otherwise as [`Replayer::new`].
    pub fn for_provider(cassette: Cassette, provider: &str) -> Result<Replayer, Error> {
        let recorded: Vec<String> = cassette
            .sessions
            .iter()
            .filter_map(|s| s.provider.clone())
            .collect();
        let same = |p: &str| p == provider || p.ends_with(&format!("/{provider}"));
        let sessions: Vec<(usize, Session)> = cassette
            .sessions
            .into_iter()
            .enumerate()
            .filter(|(_, s)| s.provider.as_deref().is_none_or(same))
            .collect();
        if sessions.is_empty() {
            let mut recorded = recorded;
            recorded.sort_unstable();
            recorded.dedup();
            return Err(err(format!(
                "the cassette holds no session of {provider:?} (it holds {})",
                recorded.join(", ")
            )));
        }
        Replayer::build(sessions)
    }

    fn build(sessions: Vec<(usize, Session)>) -> Result<Replayer, Error> {
        let Some((_, first)) = sessions.first() else {
            return Err(err("the cassette holds no session".into()));
        };
        let protocol = first.protocol;
        let provider = sessions.iter().find_map(|(_, s)| s.provider.clone());
        let version = sessions.iter().find_map(|(_, s)| s.version.clone());
        let mut groups: Vec<Programs> = Vec::new();
        let mut group_keys: Vec<(Bytes, Option<Bytes>, Vec<String>)> = Vec::new();
        let mut replayed = Vec::new();
        for (number, s) in sessions {
            if s.protocol != protocol {
                return Err(err(format!(
                    "sessions[{number}] speaks protocol {}, an earlier one {protocol}: a \
                     provider process speaks one",
                    s.protocol
                )));
            }
            let key = (s.schema.clone(), s.identities.clone(), s.masks.clone());
            let group = match group_keys.iter().position(|k| *k == key) {
                Some(g) => g,
                None => {
                    groups.push(programs(&s, number)?);
                    group_keys.push(key);
                    groups.len() - 1
                }
            };
            let mut calls = Vec::with_capacity(s.calls.len());
            for (c, call) in s.calls.into_iter().enumerate() {
                let (type_name, trees) = match Method::from_path(&call.method) {
                    Some(m) => {
                        let type_name = call
                            .requests
                            .first()
                            .map(|r| proto::type_name(m, r))
                            .unwrap_or_default();
                        let cx = Context {
                            method: m,
                            type_name: &type_name,
                            values: &ValueTree {
                                programs: &groups[group],
                            },
                        };
                        let trees = call
                            .requests
                            .iter()
                            .enumerate()
                            .map(|(i, r)| {
                                proto::request_tree(&cx, r).map_err(|e| {
                                    err(format!(
                                        "sessions[{number}].calls[{c}] ({}): request {i} does \
                                         not read: {e}",
                                        m.name
                                    ))
                                })
                            })
                            .collect::<Result<Vec<_>, _>>()?;
                        (type_name, trees)
                    }
                    None => (String::new(), Vec::new()),
                };
                calls.push(Recorded {
                    method: call.method,
                    type_name,
                    trees,
                    requests: call.requests,
                    responses: call.responses,
                    status: call.status,
                });
            }
            replayed.push(Replayed {
                number,
                group,
                redacted: s.redacted,
                schema: s.schema,
                identities: s.identities,
                calls,
            });
        }
        let mut index: HashMap<Key, Vec<(usize, usize)>> = HashMap::new();
        let mut by_type: HashMap<(String, String), Vec<(usize, usize)>> = HashMap::new();
        for (si, s) in replayed.iter().enumerate() {
            for (ci, c) in s.calls.iter().enumerate() {
                let print = fingerprint(&c.trees, &c.requests, s.redacted);
                index
                    .entry((c.method.clone(), s.group, s.redacted, print))
                    .or_default()
                    .push((si, ci));
                by_type
                    .entry((c.method.clone(), c.type_name.clone()))
                    .or_default()
                    .push((si, ci));
            }
        }
        Ok(Replayer {
            sessions: replayed,
            groups,
            index,
            by_type,
            protocol,
            provider,
            version,
            state: Mutex::default(),
        })
    }

    /// The plugin protocol's major version the sessions speak (5 or 6).
    pub fn protocol(&self) -> u32 {
        self.protocol
    }

    /// The provider's address, when the cassette names it.
    pub fn provider(&self) -> Option<&str> {
        self.provider.as_deref()
    }

    /// The provider's version, when the cassette names it.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The number of sessions replayed.
    pub fn sessions(&self) -> usize {
        self.sessions.len()
    }

    /// The recorded responses (and status) for a call of `method` (its gRPC path) with
    /// these request messages, or why none matches (see the module documentation).
    ///
    /// # Errors
    ///
    /// A [`Mismatch`] when no recorded call matches (also kept: [`Replayer::mismatches`]).
    // A mismatch is the rare, slow path (the nearest call is searched for it); the error is
    // the value itself, which a caller logs and turns into a status, not a boxed one.
    #[allow(clippy::result_large_err)]
    pub fn answer(&self, method: &str, requests: &[Bytes]) -> Result<Answer, Mismatch> {
        let started = std::time::Instant::now();
        let answer = self.find(method, requests);
        let us = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.calls += 1;
        if state.times.len() < MAX_TIMED {
            state.times.push(us);
        }
        answer
    }

    /// The calls so far and the time their answers took.
    pub fn stats(&self) -> Stats {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut times = state.times.clone();
        times.sort_unstable();
        let at = |q: usize| {
            times
                .get((times.len() * q / 100).min(times.len().saturating_sub(1)))
                .map_or(0, |&t| u64::from(t))
        };
        Stats {
            calls: state.calls,
            mismatches: state.mismatch_count,
            p50_us: at(50),
            p99_us: at(99),
        }
    }

    #[allow(clippy::result_large_err)]
    fn find(&self, method: &str, requests: &[Bytes]) -> Result<Answer, Mismatch> {
        let m = Method::from_path(method);
        let rpc = m.map_or(method, |m| m.name);
        let type_name = match (m, requests.first()) {
            (Some(m), Some(r)) => proto::type_name(m, r),
            _ => String::new(),
        };
        // The request as a tree for each schema group (usually one).
        let trees = |group: usize| -> Result<Vec<Node>, String> {
            let Some(m) = m else {
                return Ok(Vec::new());
            };
            let cx = Context {
                method: m,
                type_name: &type_name,
                values: &ValueTree {
                    programs: &self.groups[group],
                },
            };
            requests
                .iter()
                .map(|r| proto::request_tree(&cx, r))
                .collect()
        };
        let mut by_group: HashMap<usize, Vec<Node>> = HashMap::new();
        let mut candidates = Vec::new();
        let mut combos: Vec<(usize, bool)> = self
            .sessions
            .iter()
            .map(|s| (s.group, s.redacted))
            .collect();
        combos.sort_unstable();
        combos.dedup();
        for (group, redacted) in combos {
            let tree = match by_group.get(&group) {
                Some(t) => t,
                None => {
                    let t = trees(group).map_err(|e| self.malformed(rpc, &type_name, e))?;
                    by_group.entry(group).or_insert(t)
                }
            };
            let print = fingerprint(tree, requests, redacted);
            if let Some(calls) = self.index.get(&(method.to_owned(), group, redacted, print)) {
                for &(s, c) in calls {
                    let call = &self.sessions[s].calls[c];
                    if same(&call.trees, tree, &call.requests, requests, redacted) {
                        candidates.push((s, c));
                    }
                }
            }
        }
        candidates.sort_unstable();
        let common = COMMON.contains(&rpc);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((s, c)) = choose(&candidates, &state) {
            state.used.insert((s, c), ());
            if !common {
                state.hint = Some(s);
            }
            drop(state);
            let session = &self.sessions[s];
            let call = &session.calls[c];
            let mut responses = call.responses.clone();
            if session.redacted
                && let (Some(m), Some(tree)) = (m, by_group.get(&session.group))
            {
                let mut secrets = restore::Secrets::default();
                for (a, b) in call.trees.iter().zip(tree) {
                    secrets.pair(a, b);
                }
                if !secrets.is_empty() {
                    responses = restore::restore(
                        m,
                        &type_name,
                        &self.groups[session.group],
                        &responses,
                        &secrets,
                    );
                }
            }
            return Ok(Answer {
                responses,
                status: call.status.clone(),
                recorded: Some((self.sessions[s].number, c)),
            });
        }
        drop(state);
        if let Some(a) = self.fallback(rpc) {
            return Ok(a);
        }
        let mismatch = self.nearest(method, requests, &type_name, &mut by_group, &trees);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.mismatch_count += 1;
        if state.mismatches.len() < MAX_KEPT {
            state.mismatches.push(mismatch.clone());
        }
        Err(mismatch)
    }

    /// The mismatches so far (the first 1,000), and how many there were in all.
    pub fn mismatches(&self) -> (Vec<Mismatch>, usize) {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (state.mismatches.clone(), state.mismatch_count)
    }

    /// The answer of a call every provider process gets, when none was recorded.
    fn fallback(&self, rpc: &str) -> Option<Answer> {
        let first = self.sessions.first()?;
        let responses = match rpc {
            "GetProviderSchema" | "GetSchema" => vec![first.schema.clone()],
            "GetResourceIdentitySchemas" => vec![first.identities.clone()?],
            "StopProvider" | "Stop" => vec![Bytes::new()],
            _ => return None,
        };
        Some(Answer {
            responses,
            status: CallStatus::OK,
            recorded: None,
        })
    }

    fn malformed(&self, rpc: &str, type_name: &str, e: String) -> Mismatch {
        Mismatch {
            rpc: rpc.to_owned(),
            type_name: (!type_name.is_empty()).then(|| type_name.to_owned()),
            path: "(request)".into(),
            expected: "a message of the method's request type".into(),
            found: format!("a message that does not read: {e}"),
            nearest: None,
            differences: 0,
        }
    }

    /// The mismatch of a request no recorded call matches: against the nearest recorded
    /// call of the method and type.
    fn nearest(
        &self,
        method: &str,
        requests: &[Bytes],
        type_name: &str,
        by_group: &mut HashMap<usize, Vec<Node>>,
        trees: &dyn Fn(usize) -> Result<Vec<Node>, String>,
    ) -> Mismatch {
        let rpc = Method::from_path(method).map_or(method, |m| m.name);
        let mut mismatch = Mismatch {
            rpc: rpc.to_owned(),
            type_name: (!type_name.is_empty()).then(|| type_name.to_owned()),
            path: String::new(),
            expected: String::new(),
            found: String::new(),
            nearest: None,
            differences: 0,
        };
        let Some(calls) = self.by_type.get(&(method.to_owned(), type_name.to_owned())) else {
            let mut types: Vec<&str> = self
                .by_type
                .keys()
                .filter(|(m, _)| m == method)
                .map(|(_, t)| t.as_str())
                .collect();
            if !types.is_empty() {
                types.sort_unstable();
                let shown: Vec<String> = types.iter().take(8).map(|t| value::quote(t)).collect();
                mismatch.path = "type_name".into();
                mismatch.found = value::quote(type_name);
                mismatch.expected = format!(
                    "{}{}",
                    shown.join(", "),
                    if types.len() > 8 { ", …" } else { "" }
                );
            }
            return mismatch;
        };
        let mut best: Option<(usize, (usize, usize), Diff)> = None;
        for &(s, c) in calls.iter().take(MAX_NEAREST) {
            let session = &self.sessions[s];
            let call = &session.calls[c];
            let tree = match by_group.entry(session.group) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => match trees(session.group) {
                    Ok(t) => e.insert(t),
                    Err(_) => continue,
                },
            };
            let mut d = Diff::counting(MAX_COUNTED);
            let mut path = String::new();
            for i in 0..call.trees.len().max(tree.len()) {
                match (call.trees.get(i), tree.get(i)) {
                    (Some(a), Some(b)) => {
                        proto::diff(a, b, &mut path, session.redacted, &mut d);
                    }
                    _ => d.add(
                        "(messages)",
                        || format!("{} request messages", call.trees.len()),
                        || format!("{}", tree.len()),
                    ),
                }
            }
            if call.trees.is_empty() && call.requests != requests {
                d.add("(request)", || "other bytes".into(), || "these".into());
            }
            if best.as_ref().is_none_or(|b| d.count < b.0) && d.first.is_some() {
                best = Some((d.count, (session.number, c), d));
            }
        }
        if let Some((count, at, d)) = best
            && let Some((path, expected, found)) = d.first
        {
            mismatch.path = path;
            mismatch.expected = expected;
            mismatch.found = found;
            mismatch.nearest = Some(at);
            mismatch.differences = count;
        }
        mismatch
    }
}

fn programs(s: &Session, number: usize) -> Result<Programs, Error> {
    let protocol = if s.protocol >= 6 {
        Protocol::V6
    } else {
        Protocol::V5
    };
    let mut schema = ProviderSchema::from_protobuf(&s.schema, protocol)
        .map_err(|e| err(format!("sessions[{number}]: its schema does not read: {e}")))?;
    if let Some(ids) = &s.identities {
        schema.add_identities_from_protobuf(ids).map_err(|e| {
            err(format!(
                "sessions[{number}]: its identity schemas do not read: {e}"
            ))
        })?;
    }
    let masks = crate::cassette::masks_of(s)
        .map_err(|e| err(format!("sessions[{number}]: {}", e.message())))?;
    Ok(Programs::new(schema).with_masks(masks))
}

/// The fingerprint of a call's requests: their trees, or their bytes for a method outside
/// the protocol.
fn fingerprint(trees: &[Node], requests: &[Bytes], redacted: bool) -> u64 {
    let mut h = DefaultHasher::new();
    if trees.is_empty() {
        std::hash::Hash::hash(requests, &mut h);
    } else {
        h.write_usize(trees.len());
        for t in trees {
            t.fingerprint(redacted, &mut h);
        }
    }
    h.finish()
}

fn same(a: &[Node], b: &[Node], ra: &[Bytes], rb: &[Bytes], redacted: bool) -> bool {
    if a.is_empty() && b.is_empty() {
        return ra == rb;
    }
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.matches(y, redacted))
}

/// The candidate to answer (see the module documentation), or `None` when there is none.
fn choose(candidates: &[(usize, usize)], state: &State) -> Option<(usize, usize)> {
    let unused = || {
        candidates
            .iter()
            .copied()
            .filter(|k| !state.used.contains_key(k))
    };
    let hinted = state.hint.and_then(|h| {
        unused()
            .find(|(s, _)| *s == h)
            .or_else(|| unused().find(|(s, _)| *s > h))
    });
    hinted.or_else(|| unused().next()).or_else(|| {
        state
            .hint
            .and_then(|h| candidates.iter().rev().find(|(s, _)| *s == h).copied())
            .or_else(|| candidates.last().copied())
    })
}
