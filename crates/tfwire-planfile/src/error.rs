//! The crate's one error type.

use core::fmt;

/// Why a plan file was rejected: one line, saying what the file is and what to do.
///
/// ```
/// let err = tfwire_planfile::Planfile::read(b"tfplan\x00\x01").unwrap_err();
/// assert_eq!(err.kind(), &tfwire_planfile::ErrorKind::Legacy);
/// assert!(err.to_string().starts_with("a plan file of Terraform 0.11 or older"));
/// ```
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    kind: ErrorKind,
    /// Where: a member name, a resource address, an output name, with the field.
    context: Option<String>,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Not a ZIP archive (and not a recognised other format); the text says what it looks
    /// like.
    NotAPlanfile(String),
    /// A plan file of Terraform 0.11 or older (starts with `tfplan`).
    Legacy,
    /// An OpenTofu encrypted plan (a JSON envelope with `encryption_version`).
    Encrypted,
    /// A ZIP archive without a `tfplan` member.
    NotAPlan(String),
    /// The archive is damaged or hostile (truncated, bad central directory, compression
    /// method other than stored or deflate, a CRC mismatch, ...).
    Zip(String),
    /// A member declares or inflates to more than the configured limit.
    TooLarge {
        /// The member.
        member: String,
        /// The limit, in bytes ([`crate::Config::max_inflated_bytes`]).
        limit: u64,
    },
    /// The `tfplan` member would decode to more nodes than [`crate::Config::max_nodes`]
    /// allows (checked before it is decoded: a node is 8 bytes of decoded messages).
    TooManyNodes {
        /// The limit.
        max: u64,
    },
    /// The JSON document [`crate::Planfile::to_json`] writes would hold more than
    /// [`crate::Config::max_inflated_bytes`].
    DocumentTooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The `tfplan` member's format `version` is not the one this crate reads.
    UnsupportedVersion(u64),
    /// The `tfplan` member is not a valid protobuf `Plan` message.
    Protobuf(String),
    /// A field of the plan is invalid (an unknown action, a value that does not decode, a
    /// malformed address, ...).
    Invalid(String),
    /// A resource's provider schema is not among the given schemas.
    MissingSchema(String),
}

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            context: None,
        }))
    }

    #[cold]
    pub(crate) fn invalid(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Invalid(msg.into()))
    }

    /// Adds where the error happened (outermost last, e.g. `resource_changes[2]`).
    #[cold]
    pub(crate) fn at(mut self, context: impl fmt::Display) -> Error {
        self.0.context = Some(match self.0.context.take() {
            Some(inner) => format!("{context}: {inner}"),
            None => context.to_string(),
        });
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }
}

/// A JSON writer's refusal while the document was written (the workspace's
/// [`JsonWriter`](tfwire_json::JsonWriter) refuses a number that is not one).
impl From<fmt::Error> for Error {
    #[cold]
    fn from(_: fmt::Error) -> Error {
        Error::invalid("a value could not be written as JSON")
    }
}

/// An error of tfwire-plan's value writer or state writer, as an invalid field.
impl From<tfwire_plan::Error> for Error {
    #[cold]
    fn from(e: tfwire_plan::Error) -> Error {
        Error::invalid(e.to_string())
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error::new(kind)
    }
}

/// Writes through to a formatter with every character of [`tfwire_json::is_unsafe_char`]
/// escaped as JSON escapes it (`\n`, `\u001b`; [`tfwire_json::write_safe_inline`]): member
/// names, addresses and messages come from the file, and the error stays one line whatever
/// they hold.
struct OneLine<'a, 'b>(&'a mut fmt::Formatter<'b>);

impl fmt::Write for OneLine<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        tfwire_json::write_safe_inline(self.0, s)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let f = &mut OneLine(f);
        if let Some(c) = &self.0.context {
            write!(f, "{c}: ")?;
        }
        match &self.0.kind {
            ErrorKind::NotAPlanfile(what) => write!(
                f,
                "not a plan file ({what}); expected a binary plan (`tofu plan -out=FILE`) or \
                 its `tofu show -json` output"
            ),
            ErrorKind::Legacy => f.write_str(
                "a plan file of Terraform 0.11 or older (`tfplan` header), which tfwire does \
                 not read; make the plan again with Terraform 0.12 or later, or OpenTofu",
            ),
            ErrorKind::Encrypted => f.write_str(
                "an OpenTofu encrypted plan or state (`encryption_version`): tfwire cannot \
                 decrypt it; run `tofu show -json FILE` with the encryption configuration and \
                 read its output",
            ),
            ErrorKind::NotAPlan(what) => write!(
                f,
                "a ZIP archive but not a plan file ({what}); a plan file holds a `tfplan` member"
            ),
            ErrorKind::Zip(msg) => write!(f, "damaged plan file (ZIP archive): {msg}"),
            ErrorKind::TooLarge { member, limit } => write!(
                f,
                "the member `{member}` holds more than {limit} bytes, the limit \
                 (`Config::max_inflated_bytes`; a plan this large is more likely a ZIP bomb)"
            ),
            ErrorKind::TooManyNodes { max } => write!(
                f,
                "the `tfplan` member would decode to more than {max} nodes of 8 bytes \
                 (messages and their entries), the limit (`Config::max_nodes`; millions of \
                 entries in a few kilobytes are more likely a bomb)"
            ),
            ErrorKind::DocumentTooLarge { limit } => write!(
                f,
                "the plan's JSON document would hold more than {limit} bytes, the limit \
                 (`Config::max_inflated_bytes`)"
            ),
            ErrorKind::UnsupportedVersion(v) => write!(
                f,
                "plan file format version {v}; tfwire reads version {} (OpenTofu 1.x); use \
                 `tofu show -json FILE` with the OpenTofu that wrote it",
                crate::FORMAT_VERSION
            ),
            ErrorKind::Protobuf(msg) => write!(f, "the `tfplan` member is not a valid plan: {msg}"),
            ErrorKind::Invalid(msg) => f.write_str(msg),
            ErrorKind::MissingSchema(msg) => f.write_str(msg),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}: {self})", self.0.kind)
    }
}

impl std::error::Error for Error {}
