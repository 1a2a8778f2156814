//! [`Error`]: why a plan cannot be drawn.

use core::fmt;

/// Why a plan cannot be drawn: something the `show` renderer needs is missing or is not one
/// of the forms either client draws (an action list neither client draws, an action
/// invocation without a trigger or with an unknown trigger event). The message names the
/// offending value by its path in the document (or the resource's address) and, where the
/// document records it, the byte offset it starts at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: Box<str>,
}

impl Error {
    #[cold]
    pub(crate) fn new(message: String) -> Error {
        Error {
            message: message.into_boxed_str(),
        }
    }

    /// The message, as [`Display`](fmt::Display) writes it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
