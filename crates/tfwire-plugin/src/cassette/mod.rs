//! Cassettes: what a provider said during a run, recorded by `tfwire tap --record` and
//! replayed by `tfwire replay` in the provider's place.
//!
//! A [`Cassette`] is a list of [`Session`]s, one per provider process (OpenTofu and Terraform
//! start a provider several times per command: validate, plan, apply), each with the
//! provider's address, version and protocol, its schema responses, and every [`Call`] the
//! client made: its gRPC method, its request and response messages in order (a stream keeps
//! all of its messages) and its status. Messages are kept as the protobuf bytes that crossed
//! the wire, so that a replayer answers with exactly what the provider sent.
//!
//! # The file: JSON Lines
//!
//! ```text
//! {"tfwire_cassette_open":1,"session":"81234-1764262800123456789-0","pid":81234,"provider":"registry.opentofu.org/hashicorp/null"}
//! {"tfwire_cassette":1,"session":"81234-1764262800123456789-0","provider":"registry.opentofu.org/hashicorp/null","version":"3.2.4","protocol":5,"redacted":false,"calls":3,"schema":"CgQI…","identities":null}
//! {"method":"/tfplugin5.Provider/GetMetadata","code":0,"message":"","requests":[""],"responses":["EgIIAQ…"]}
//! {"method":"/tfplugin5.Provider/PlanResourceChange","code":0,"message":"","requests":["CgZudWxs…"],"responses":["CmQK…"],"type_name":"null_resource","values":{"request.prior_state":null,"request.proposed_new_state":{"id":"(known after apply)","triggers":{"a":"1"}},…}}
//! ```
//!
//! A session is a header line (the key `tfwire_cassette` holds the format version,
//! [`FORMAT`]) followed by exactly `calls` call lines; a file is any number of sessions, and
//! of open markers (the key `tfwire_cassette_open`, also the format version), each a line of
//! its own between sessions. Why this shape:
//!
//! - **Appending without rewriting.** Each tap process appends its session when its provider
//!   ends ([`Session::append_to`], one write under an exclusive `flock`): nothing in the file
//!   is read or rewritten, and sessions of providers running at once never interleave. The
//!   header's call count makes a session cut short (a tap killed mid-write) an error of the
//!   reader instead of a silently shorter recording.
//! - **A session never written is an error too.** The client kills a provider process (the
//!   tap) that has not exited 2 s after asking it to shut down; on a slow machine or a large
//!   plan a tap may not get to write its session. So a recording tap appends, when it starts,
//!   a marker line ([`Session::open_marker`]: the tap's pid, a session id unique per process
//!   (`PID-NANOSECONDS-N`), the provider's address when known), and the session's header
//!   carries the same id ([`Session::id`]). A reader refuses a file where a marker has no
//!   session, naming the marker's line, the pid and the provider: a replay then fails at
//!   once instead of answering from a recording that lacks calls. Markers and ids are
//!   optional: a file without them (written before they existed, or by hand) reads as
//!   before, so the format stays version 1; a reader older than markers refuses a file that
//!   has them (a line with neither a header key nor a call's members).
//! - **Diffable.** One line per call: two recordings of the same plan differ by the lines of
//!   the calls that differ. Each call line also shows every `DynamicValue` of the call as
//!   JSON (`values`, decoded with the session's schema, keyed `request.config`,
//!   `response.planned_state`, `response[2].resource_object` for the third message of a
//!   stream, `request.arguments[1]`), written as the tap's log writes values: sensitive and
//!   write-only attributes as `"(sensitive)"`, unknowns as `"(known after apply)"`. That
//!   view is for people and `diff` only: a reader ignores it (and any other member it does
//!   not know) and takes the messages from their bytes.
//! - **Exact.** The messages themselves are standard base64 (without padding) of the
//!   protobuf bytes: a replayer answers with the bytes the provider sent, not with a
//!   re-encoding of a readable form. Protobuf inside JSON costs a third more than the bytes
//!   (base64), and the readable view about as much again.
//! - **Compact enough.** The schema is written once per session. Measured: OpenTofu's plan
//!   of 2,000 resources of the e2e provider records 3 sessions in 4,018 lines, 2.27 MB
//!   (0.73 MB of base64 messages, 0.94 MB of readable values, 5 KB of schema per session),
//!   123 KB under `gzip -9`. A ZIP of protobuf files would be smaller but neither appendable
//!   under a lock nor readable in a bug report; compressing the file is left to the user.
//!
//! Reading ([`Cassette::read`]) is bounded for a file of unknown origin (a cassette attached
//! to a bug report): every limit ([`MAX_LINE_BYTES`], [`MAX_DEPTH`], [`MAX_SESSIONS`],
//! [`MAX_MESSAGES`]) and every malformed line is an [`crate::Error`] naming the line and the
//! byte offset. The messages are decoded by whoever uses them, with the session's schema.
//!
//! # Recording
//!
//! [`Recorder`] is a [`crate::proxy::Observer`]: installed in the proxy (beside the tap's own
//! observer: [`Recording`]) it keeps every frame of every call; [`Recorder::finish`] returns
//! the [`Session`]. [`redact()`] makes a session shareable. [`provider_from_path`] finds the
//! provider's address and version from where its executable lies.

mod append;
mod data;
mod format;
mod record;
pub mod redact;
mod show;

pub use data::{Call, CallStatus, Cassette, FORMAT, Session};
pub use format::{MAX_DEPTH, MAX_LINE_BYTES, MAX_MESSAGES, MAX_SESSIONS};
pub use record::{Recorder, Recording, provider_from_path};
pub use redact::{is_placeholder, masks_of, redact};
