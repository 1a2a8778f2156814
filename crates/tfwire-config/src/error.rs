//! The crate's one error type.

use core::fmt;

/// Why a configuration file or lock file was rejected: the file, where in it (line, column
/// and byte offset) and what was expected.
///
/// ```
/// let err = tfwire_config::LockFile::parse(b"provider \"x\" {").unwrap_err();
/// assert_eq!(err.file(), ".terraform.lock.hcl");
/// assert!(err.to_string().starts_with(".terraform.lock.hcl:1:"));
/// ```
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    file: String,
    at: Option<Location>,
}

/// A place in a file: one-based line and column, zero-based byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub column: usize,
    /// The byte offset, from 0.
    pub offset: usize,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file is not UTF-8.
    NotUtf8,
    /// The file is not valid HCL native syntax; the parser's message (it says what it
    /// expected).
    Syntax(String),
    /// The file is valid HCL but not what it should hold (a lock file's provider block
    /// without a `version`, a value of the wrong kind, ...).
    Invalid(String),
    /// A file or the snapshot is larger than the limit given.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// What the configuration asks for is not supported by this version of tfwire.
    Unsupported(String),
    /// A file or directory could not be read or written (the operating system's message).
    Io(String),
    /// A schema cache lacks the schema of a provider at the version wanted.
    NotCached {
        /// The provider's address.
        address: String,
        /// The version wanted, when one is known.
        version: Option<String>,
        /// The versions of that provider the cache holds.
        cached: Vec<String>,
    },
    /// Nothing says which version of a provider to use: the lock file does not list it, or
    /// none was given and the cache holds several.
    VersionUnknown {
        /// The provider's address.
        address: String,
        /// The versions of that provider the cache holds.
        cached: Vec<String>,
    },
}

impl Error {
    /// An error of `kind` in `file`, at `at` if known.
    pub fn new(kind: ErrorKind, file: impl Into<String>, at: Option<Location>) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            file: file.into(),
            at,
        }))
    }

    /// The error from hcl-edit's parser, in `file`.
    pub(crate) fn syntax(file: &str, e: &hcl_edit::parser::Error) -> Error {
        let l = e.location();
        Error::new(
            ErrorKind::Syntax(e.message().to_owned()),
            file,
            Some(Location {
                line: l.line(),
                column: l.column(),
                offset: l.offset(),
            }),
        )
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The file, as named in the snapshot (or `.terraform.lock.hcl`).
    pub fn file(&self) -> &str {
        &self.0.file
    }

    /// Where in the file, if known.
    pub fn location(&self) -> Option<Location> {
        self.0.at
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.file)?;
        if let Some(l) = self.0.at {
            write!(f, ":{}:{} (byte {})", l.line, l.column, l.offset)?;
        }
        f.write_str(": ")?;
        match &self.0.kind {
            ErrorKind::NotUtf8 => f.write_str("not UTF-8 text"),
            ErrorKind::Syntax(m) => write!(f, "invalid HCL: {m}"),
            ErrorKind::Invalid(m) => f.write_str(m),
            ErrorKind::TooLarge { limit } => write!(f, "larger than the limit of {limit} bytes"),
            ErrorKind::Unsupported(m) => write!(f, "not supported: {m}"),
            ErrorKind::Io(m) => f.write_str(m),
            ErrorKind::NotCached {
                address,
                version,
                cached,
            } => {
                match version {
                    Some(v) => write!(f, "no schema of provider {address} version {v} is cached")?,
                    None => write!(f, "no schema of provider {address} is cached")?,
                }
                write!(f, " (cached versions: {})", versions(cached))
            }
            ErrorKind::VersionUnknown { address, cached } if cached.len() > 1 => write!(
                f,
                "several versions of provider {address} are cached ({}) and nothing says which \
                 to take",
                versions(cached)
            ),
            ErrorKind::VersionUnknown { address, .. } => {
                write!(f, "no version is known for provider {address}")
            }
        }
    }
}

/// A list of versions for a message.
fn versions(cached: &[String]) -> String {
    if cached.is_empty() {
        "none".into()
    } else {
        cached.join(", ")
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}
