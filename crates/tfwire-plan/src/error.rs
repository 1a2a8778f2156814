//! The crate's one error type: what went wrong, where in the document, and at which byte.

use core::fmt;
use tfwire::{Path, PathStep};
use tfwire_json::Safe;
use tfwire_json::view::Unexpected;

/// Why a document was rejected.
///
/// Rendered as `path: message (at byte N)`, as tfwire's errors are, where the path is in the
/// document's own vocabulary (`.resource_changes[3].change.actions`, `(root)` for the
/// document itself) and the byte offset is given when it
/// is known: always for JSON syntax errors, and for model errors the offset of the
/// offending string or of the key that holds the offending value. Offsets count bytes of
/// the UTF-8 input (after transcoding, for UTF-16 input).
///
/// ```
/// let mut input = br#"{"format_version":"1.2","resource_changes":[{"change":{"actions":"create"}}]}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
/// let arena = bumpalo::Bump::new();
/// let err = tape.document(&arena).unwrap_err();
/// assert_eq!(err.to_string(),
///     ".resource_changes[0].change.actions: expected an array, found a string (at byte 65)");
/// assert_eq!(err.offset(), Some(65));
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    /// Path steps, innermost first (they are added while unwinding).
    rev_path: Vec<PathStep<'static>>,
    offset: Option<usize>,
    /// Whether the error is about a document (shown with its path, `(root)` for the
    /// document itself) rather than about an argument such as a filter's word.
    in_document: bool,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not valid JSON; the message is the JSON parser's.
    Syntax(String),
    /// The input's text encoding cannot be read (e.g. UTF-32, or UTF-16 with an unpaired
    /// surrogate).
    Encoding(String),
    /// The input is larger than the parser can address (4 GiB).
    TooLarge(usize),
    /// The document has more JSON nodes than [`crate::ParserConfig::max_nodes`] allows (checked
    /// before the parser allocates its tape, 28 bytes a node).
    TooManyNodes {
        /// The nodes counted (brackets, commas, colons and strings).
        count: usize,
        /// The limit.
        max: usize,
    },
    /// The JSON is valid but is not a plan, state or raw state file.
    NotADocument(String),
    /// The document has a version this crate does not read.
    UnsupportedVersion {
        /// The property holding the version (`format_version`, `version`, ...).
        property: &'static str,
        /// The version found, as written.
        found: String,
        /// The versions supported, for the message (e.g. `"0.x and 1.x"`).
        supported: &'static str,
    },
    /// A version string that is not `MAJOR.MINOR[.PATCH]`.
    InvalidVersion {
        /// The property holding the version.
        property: &'static str,
        /// The text found.
        found: String,
    },
    /// A property holds a value of the wrong kind (or a number of the wrong form): the
    /// shared JSON view's description ([`Unexpected`], also behind tfwire's schema loader
    /// errors), its offset the error's.
    Mismatch(Unexpected),
    /// A required property is absent.
    Missing(&'static str),
    /// A value of the right kind that the format does not allow (e.g. an empty action
    /// list, or a negative schema version).
    Invalid(String),
    /// The document's kind is not what the caller asked for (e.g. a state given to a
    /// command that reads plans).
    WrongDocument {
        /// What was asked for.
        expected: &'static str,
        /// What the document is.
        found: &'static str,
    },
}

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            rev_path: Vec::new(),
            offset: None,
            in_document: true,
        }))
    }

    /// An error about an argument (a [`Filter`](crate::Filter)'s word), not a document:
    /// shown without a path.
    #[cold]
    pub(crate) fn argument(kind: ErrorKind) -> Error {
        let mut e = Error::new(kind);
        e.0.in_document = false;
        e
    }

    #[cold]
    pub(crate) fn with_offset(mut self, offset: Option<usize>) -> Error {
        if self.0.offset.is_none() {
            self.0.offset = offset;
        }
        self
    }

    /// With the offset (if any) passed through `f`.
    #[cold]
    pub(crate) fn map_offset(mut self, f: impl FnOnce(usize) -> usize) -> Error {
        self.0.offset = self.0.offset.map(f);
        self
    }

    /// Adds an enclosing object member to the path (the error happened inside `key`).
    #[cold]
    pub(crate) fn in_key(mut self, key: &str) -> Error {
        self.0.rev_path.push(PathStep::attr(key.to_owned()));
        self
    }

    /// Adds an enclosing array element to the path.
    #[cold]
    pub(crate) fn in_index(mut self, i: usize) -> Error {
        self.0.rev_path.push(PathStep::Index(i as u64));
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset of the offending value (or of the key holding it), when known.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// Where in the document, e.g. `.resource_changes[3].change.actions`; the root for
    /// the whole document.
    pub fn path(&self) -> Path<'static> {
        self.0.rev_path.iter().rev().cloned().collect()
    }
}

/// The shared view's description of a value of the wrong kind, at its offset.
impl From<Unexpected> for Error {
    #[cold]
    fn from(u: Unexpected) -> Error {
        let offset = u.offset;
        Error::new(ErrorKind::Mismatch(u)).with_offset(offset)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Syntax(m) => write!(f, "invalid JSON: {m}"),
            ErrorKind::Encoding(m) => f.write_str(m),
            ErrorKind::TooLarge(n) => write!(
                f,
                "the input is {n} bytes; documents of 4 GiB or more are not supported"
            ),
            ErrorKind::TooManyNodes { count, max } => write!(
                f,
                "the document has {count} JSON nodes (brackets, commas, colons and strings), \
                 more than the limit of {max}"
            ),
            ErrorKind::NotADocument(m) => {
                write!(f, "not a Terraform/OpenTofu plan or state document: {m}")
            }
            ErrorKind::UnsupportedVersion {
                property,
                found,
                supported,
            } => write!(
                f,
                "unsupported {property} {}: this version of tfwire reads {supported}",
                Safe(found)
            ),
            ErrorKind::InvalidVersion { property, found } => {
                write!(
                    f,
                    "invalid {property} {}: expected MAJOR.MINOR (two numbers without \
                     leading zeros, e.g. \"1.2\")",
                    Safe(found)
                )
            }
            ErrorKind::Mismatch(u) => write!(f, "{u}"),
            ErrorKind::Missing(p) => write!(f, "the required property {} is missing", Safe(p)),
            ErrorKind::Invalid(m) => f.write_str(m),
            ErrorKind::WrongDocument { expected, found } => {
                write!(f, "expected {expected}, but this is {found}")
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The framing of tfwire's errors: the path always, `(root)` for the document itself
        // (`tfwire::Path`'s printer, which escapes the document's names).
        if self.0.in_document {
            write!(f, "{}: ", self.path())?;
        }
        write!(f, "{}", self.0.kind)?;
        if let Some(at) = self.0.offset {
            write!(f, " (at byte {at})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {}
