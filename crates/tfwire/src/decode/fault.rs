//! Why decoding stopped without a value: [`Fault`], decode's one internal fault type.

use super::config::Config;
use crate::error::{Error, ErrorKind, Limit, Path};

/// Why decoding stopped without a value: decode's one internal fault type, shared by the
/// token sources, the value helpers (and the encoders' type checks) and the state machine.
///
/// Each layer says what it knows: a source knows the offset, a helper neither offset nor
/// path, the machine both. The machine turns every other variant into [`Fault::Error`] (or
/// passes [`Fault::Pending`] on) on its cold path; [`Fault::into_error`] finishes any of them
/// at the top.
#[derive(Debug)]
pub(crate) enum Fault {
    /// The bytes fed so far end inside a token (streaming only): feed more and resume.
    Pending,
    /// Bad input at a byte offset, from a token source (or a position
    /// [`Source::locate`](source::Source::locate) turns into one); the path is added by the
    /// machine.
    Fail(ErrorKind, usize),
    /// Bad input, from a helper that knows neither offset nor path (the caller adds both).
    Kind(ErrorKind),
    /// A configured limit reached (an arena that refused memory is `Limit::ArenaBytes`);
    /// the caller adds the configured maximum, offset and path.
    Limit(Limit),
    /// A complete error: kind, offset and path.
    Error(Error),
}

impl Fault {
    /// The arena refused an allocation.
    pub(crate) const ARENA: Fault = Fault::Limit(Limit::ArenaBytes);

    /// The error this fault ends a decode with, at the root (the machine has added its path
    /// to what it reports already): `at` is where the input stopped, for the faults that
    /// carry no offset (an input that ends early is an unexpected end of input there).
    #[cold]
    pub(crate) fn into_error(self, config: &Config, at: usize) -> Error {
        match self {
            Fault::Pending => Error::new(ErrorKind::UnexpectedEof, at, Path::root()),
            Fault::Fail(kind, offset) => Error::new(kind, offset, Path::root()),
            Fault::Kind(kind) => Error::new(kind, at, Path::root()),
            Fault::Limit(limit) => Error::new(
                ErrorKind::LimitExceeded {
                    limit,
                    max: config.limit_max(limit),
                },
                at,
                Path::root(),
            ),
            Fault::Error(e) => e,
        }
    }
}

impl From<ErrorKind> for Fault {
    fn from(k: ErrorKind) -> Fault {
        Fault::Kind(k)
    }
}

impl From<Limit> for Fault {
    fn from(l: Limit) -> Fault {
        Fault::Limit(l)
    }
}
