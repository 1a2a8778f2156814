//! The crate's one error: what is wrong with a JSON text, and at which byte.

use core::fmt;

/// What is wrong with a JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Invalid JSON syntax at the error's offset (the message says what).
    Syntax(String),
    /// Invalid JSON that the tape parser (simd-json) rejected without naming a place: no
    /// value at all, invalid UTF-8 somewhere, or a fault its second stage reports at byte 0
    /// of a document that opens with a bracket. The error's offset is 0 and is not shown.
    UnplacedSyntax(String),
    /// Arrays and objects nested deeper than the reader allows (found by the shape pass,
    /// [`crate::json_shape`], before anything is allocated).
    TooDeep {
        /// The limit.
        max_depth: usize,
    },
    /// More nodes (brackets, commas, colons and strings) than the reader allows: the tape
    /// would take more memory than the caller allows (see [`crate::json_shape`]).
    TooManyNodes {
        /// The nodes counted.
        count: usize,
        /// The limit.
        max: usize,
    },
}

impl ErrorKind {
    /// Whether the error's offset names a place in the input (shown by `Display`).
    pub fn is_placed(&self) -> bool {
        !matches!(self, ErrorKind::UnplacedSyntax(_))
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Syntax(m) | ErrorKind::UnplacedSyntax(m) => {
                f.write_str("invalid JSON: ")?;
                crate::escape::write_safe_inline(f, m)
            }
            ErrorKind::TooDeep { max_depth } => write!(
                f,
                "invalid JSON: arrays and objects nested deeper than {max_depth} levels"
            ),
            ErrorKind::TooManyNodes { count, max } => write!(
                f,
                "the document has {count} JSON nodes (brackets, commas, colons and strings), \
                 more than the limit of {max}"
            ),
        }
    }
}

/// A JSON text this crate refused: its [`ErrorKind`] and the byte offset of the offending
/// byte (or of the start of the offending value). Displayed as `message (at byte N)`; one
/// pointer wide, built only when something goes wrong.
///
/// Crates above wrap it in their own error (tfwire adds the path to the value).
///
/// ```
/// let e = tfwire_json::json_shape(b"[[[", 2, 100).unwrap_err();
/// assert_eq!(e.offset(), 2);
/// assert_eq!(e.to_string(), "invalid JSON: arrays and objects nested deeper than 2 levels (at byte 2)");
/// assert_eq!(e.line_column(b"[[["), (1, 3));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<(ErrorKind, usize)>);

impl Error {
    /// An error of `kind` at byte `offset`.
    #[cold]
    #[inline(never)]
    pub fn new(kind: ErrorKind, offset: usize) -> Error {
        Error(Box::new((kind, offset)))
    }

    /// An [`ErrorKind::Syntax`] error with `message` at byte `offset`.
    #[cold]
    #[inline(never)]
    pub fn syntax(message: &str, offset: usize) -> Error {
        Error::new(ErrorKind::Syntax(message.to_owned()), offset)
    }

    /// What is wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.0
    }

    /// The byte offset in the input.
    pub fn offset(&self) -> usize {
        self.0.1
    }

    /// The kind and the offset, for a caller that reports the error in its own terms.
    pub fn into_parts(self) -> (ErrorKind, usize) {
        *self.0
    }

    /// Line and column of the offset in `input` (see [`line_column`]).
    pub fn line_column(&self, input: &[u8]) -> (usize, usize) {
        line_column(input, self.offset())
    }
}

/// Line and column (from 1; the column counts bytes) of byte `offset` in `input`, computed
/// when an error is shown (never while parsing).
///
/// ```
/// assert_eq!(tfwire_json::line_column(b"{\n  \"a\": tru\n}", 9), (2, 8));
/// ```
pub fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(input.len());
    let before = &input[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", self.kind())
            .field("offset", &self.offset())
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind())?;
        if self.kind().is_placed() {
            write!(f, " (at byte {})", self.offset())?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column() {
        let text = b"{\n  \"a\": tru\n}";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 9), (2, 8));
        assert_eq!(line_column(text, 100), (3, 2));
    }

    #[test]
    fn messages_are_one_line() {
        let e = Error::new(ErrorKind::UnplacedSyntax("a\nb".into()), 0);
        assert_eq!(e.to_string(), "invalid JSON: a\\nb");
        let e = Error::new(ErrorKind::TooManyNodes { count: 9, max: 8 }, 4);
        assert_eq!(
            e.to_string(),
            "the document has 9 JSON nodes (brackets, commas, colons and strings), more than \
             the limit of 8 (at byte 4)"
        );
        assert_eq!(core::mem::size_of::<Error>(), core::mem::size_of::<usize>());
    }
}
