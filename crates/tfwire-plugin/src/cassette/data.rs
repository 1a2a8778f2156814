//! The cassette's data: sessions of calls, each message kept as the protobuf bytes that
//! crossed the wire.

use bytes::Bytes;

/// The format's version, written in every session's header line; a reader refuses a
/// session of another version.
pub const FORMAT: u32 = 1;

/// A recording: every session of every provider process the tap saw, in the order they
/// were written to the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cassette {
    /// The sessions, in file order.
    pub sessions: Vec<Session>,
}

/// One provider process as the tap saw it, from its start to its end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    /// The provider's source address (`registry.opentofu.org/hashicorp/null`), when known.
    pub provider: Option<String>,
    /// The provider's version (`3.2.4`), when known.
    pub version: Option<String>,
    /// The plugin protocol's major version (5 or 6): the handshake's application version.
    pub protocol: u32,
    /// Whether every sensitive and write-only value, and every value the masks matched,
    /// was replaced by a placeholder ([`crate::cassette::redact()`]).
    pub redacted: bool,
    /// The mask patterns ([`tfwire::mask::Masks::patterns`]) the redaction applied besides
    /// the schema's markers (empty when not redacted): a replayer needs them to know which
    /// recorded positions hold placeholders.
    pub masks: Vec<String>,
    /// The provider's `GetProviderSchema` (protocol 5: `GetSchema`) response, as protobuf,
    /// as the tap fetched it when the provider started.
    pub schema: Bytes,
    /// The provider's `GetResourceIdentitySchemas` response, as protobuf, when it answered
    /// one (providers older than the call do not).
    pub identities: Option<Bytes>,
    /// The recording tap's id for this session (`PID-NANOSECONDS-N`), the same as in the
    /// open marker ([`Session::open_marker`]) the tap appended when it started: a reader
    /// pairs the two, and refuses a marker that no session closes. `None` in files written
    /// without markers.
    pub id: Option<String>,
    /// The calls the client made, in the order they started.
    pub calls: Vec<Call>,
}

/// One gRPC call: its messages each way, in order, and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Call {
    /// The gRPC path (`/tfplugin6.Provider/PlanResourceChange`).
    pub method: String,
    /// The request messages (protobuf, without gRPC's 5-byte prefix), in order: one for a
    /// unary call.
    pub requests: Vec<Bytes>,
    /// The response messages, in order.
    pub responses: Vec<Bytes>,
    /// How the call ended.
    pub status: CallStatus,
}

/// A call's gRPC status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallStatus {
    /// The gRPC code (0: OK).
    pub code: i32,
    /// The status message (empty when OK).
    pub message: String,
}

impl CallStatus {
    /// The status of a call that ended without an error.
    pub const OK: CallStatus = CallStatus {
        code: 0,
        message: String::new(),
    };

    /// Whether the call ended without an error.
    pub fn is_ok(&self) -> bool {
        self.code == 0
    }
}
