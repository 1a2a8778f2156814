//! The crate's one error type: a handshake line that is not one, a TLS setup that failed, a
//! cassette that does not read.
//!
//! (Schema messages that do not convert, and values that do not decode, are
//! [`tfwire::Error`]s: the core crate's error, with its path and offset.)

use core::fmt;

/// What failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// go-plugin's handshake line, or the base64 in it ([`crate::handshake`]).
    Handshake,
    /// A certificate that does not parse, a key that does not fit, a connection refused
    /// (the `tls` module, with the `tls` feature).
    #[cfg_attr(feature = "tls", doc = "")]
    #[cfg_attr(feature = "tls", doc = "See [`crate::tls`].")]
    Tls,
    /// A cassette that does not read, a session that does not redact, a file that does not
    /// take a session ([`crate::cassette`]).
    Cassette,
    /// A cassette that cannot be replayed: no session of the provider, sessions of several
    /// providers or protocols, a recorded message that does not read ([`crate::replay`]).
    Replay,
}

/// A handshake, TLS or cassette failure: its kind and what is wrong, in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, message: String) -> Error {
        Error { kind, message }
    }

    /// What failed.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        tfwire_json::write_safe_inline(f, &self.message)
    }
}

impl std::error::Error for Error {}
