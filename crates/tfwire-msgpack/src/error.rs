//! The tokenizer's error type.

use core::fmt;

/// Why a token could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The available bytes end inside a token; `needed` more bytes (at least 1) would finish
    /// it. Not a failure for an incremental reader: append bytes and read again.
    Incomplete {
        /// How many more bytes are needed to complete the token.
        needed: usize,
    },
    /// The marker `0xc1`, which the specification reserves and never uses.
    ReservedMarker,
}

/// A tokenizer error: its kind and the absolute offset of the token that caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Offset of the first byte of the offending token.
    pub offset: usize,
}

impl Error {
    /// Whether more input would resolve the error.
    #[inline]
    pub const fn is_incomplete(&self) -> bool {
        matches!(self.kind, ErrorKind::Incomplete { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Incomplete { needed } => write!(
                f,
                "unexpected end of input: {needed} more byte{} needed (at byte {})",
                if needed == 1 { "" } else { "s" },
                self.offset
            ),
            ErrorKind::ReservedMarker => {
                write!(
                    f,
                    "invalid MessagePack marker 0xc1 (at byte {})",
                    self.offset
                )
            }
        }
    }
}

impl std::error::Error for Error {}
