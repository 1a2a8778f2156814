//! The crate's one error type.

use core::fmt;

/// Why a document, a schema cache, an input or an export failed: the input it concerns
/// (`source`), the resource instance address and the cty path inside its value where
/// known, the byte offset in the input where known, and what was expected against what
/// was found (the message).
///
/// Displayed on one line: `SOURCE: ADDRESS PATH: MESSAGE (at byte N)`.
///
/// ```
/// let e = tfwire_arrow::Error::new("a string is required, found bool")
///     .with_source("prod/terraform.tfstate")
///     .with_address("aws_s3_bucket.logs")
///     .with_path("tags[\"env\"]")
///     .with_offset(412);
/// assert_eq!(e.to_string(),
///     "prod/terraform.tfstate: aws_s3_bucket.logs tags[\"env\"]: a string is required, found bool (at byte 412)");
/// assert_eq!(e.offset(), Some(412));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorImpl>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct ErrorImpl {
    source: Option<String>,
    address: Option<String>,
    path: Option<String>,
    offset: Option<usize>,
    message: String,
    unreadable: bool,
}

impl Error {
    /// An error with this message and nothing else known yet.
    #[cold]
    pub fn new(message: impl Into<String>) -> Error {
        Error(Box::new(ErrorImpl {
            source: None,
            address: None,
            path: None,
            offset: None,
            message: message.into(),
            unreadable: false,
        }))
    }

    /// With the input it concerns (kept if already set: the innermost source wins).
    #[must_use]
    pub fn with_source(mut self, source: impl Into<String>) -> Error {
        if self.0.source.is_none() {
            self.0.source = Some(source.into());
        }
        self
    }

    /// With the resource instance address (kept if already set).
    #[must_use]
    pub fn with_address(mut self, address: impl Into<String>) -> Error {
        if self.0.address.is_none() {
            self.0.address = Some(address.into());
        }
        self
    }

    /// With the cty path text inside the value (kept if already set).
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Error {
        if self.0.path.is_none() {
            self.0.path = Some(path.into());
        }
        self
    }

    /// With the byte offset in the input (kept if already set).
    #[must_use]
    pub fn with_offset(mut self, offset: usize) -> Error {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }

    /// Marks the error as the input being no state or plan at all (not JSON, not a plan
    /// file, another kind of document): what [`crate::Options::skip_unreadable`] skips.
    #[must_use]
    pub fn unreadable(mut self) -> Error {
        self.0.unreadable = true;
        self
    }

    /// Whether the input is no state or plan at all (see [`Error::unreadable`]).
    pub fn is_unreadable(&self) -> bool {
        self.0.unreadable
    }

    /// The input's path or URL, when known.
    pub fn source(&self) -> Option<&str> {
        self.0.source.as_deref()
    }

    /// The resource instance address, when known.
    pub fn address(&self) -> Option<&str> {
        self.0.address.as_deref()
    }

    /// The cty path text inside the value, when known.
    pub fn path(&self) -> Option<&str> {
        self.0.path.as_deref()
    }

    /// The byte offset in the input, when known.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// What went wrong: expected against found.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        let inline = |f: &mut fmt::Formatter<'_>, s: &str| tfwire_json::write_safe_inline(f, s);
        if let Some(s) = &e.source {
            inline(f, s)?;
            f.write_str(": ")?;
        }
        if let Some(a) = &e.address {
            inline(f, a)?;
            f.write_str(if e.path.is_some() { " " } else { ": " })?;
        }
        if let Some(p) = &e.path {
            inline(f, p)?;
            f.write_str(": ")?;
        }
        inline(f, &e.message)?;
        if let Some(o) = e.offset {
            write!(f, " (at byte {o})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

impl From<tfwire::Error> for Error {
    #[cold]
    fn from(e: tfwire::Error) -> Error {
        let offset = e.offset();
        let path = e.path().to_string();
        let mut out = Error::new(e.kind().to_string()).with_offset(offset);
        if path != "(root)" {
            out = out.with_path(path.strip_prefix('.').unwrap_or(&path).to_owned());
        }
        out
    }
}

impl From<tfwire_plan::Error> for Error {
    #[cold]
    fn from(e: tfwire_plan::Error) -> Error {
        let mut out = Error::new(e.to_string());
        if let Some(o) = e.offset() {
            out = out.with_offset(o);
        }
        out
    }
}

impl From<tfwire_planfile::Error> for Error {
    #[cold]
    fn from(e: tfwire_planfile::Error) -> Error {
        Error::new(e.to_string())
    }
}

impl From<tfwire_config::Error> for Error {
    #[cold]
    fn from(e: tfwire_config::Error) -> Error {
        Error::new(e.to_string())
    }
}

impl From<arrow_schema::ArrowError> for Error {
    #[cold]
    fn from(e: arrow_schema::ArrowError) -> Error {
        Error::new(format!("arrow: {e}"))
    }
}

impl From<parquet::errors::ParquetError> for Error {
    #[cold]
    fn from(e: parquet::errors::ParquetError) -> Error {
        Error::new(format!("parquet: {e}"))
    }
}

impl From<object_store::Error> for Error {
    #[cold]
    fn from(e: object_store::Error) -> Error {
        Error::new(format!("object store: {e}"))
    }
}
