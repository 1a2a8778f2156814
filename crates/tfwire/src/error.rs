//! The crate's one error type: what went wrong, where in the value, and at which byte.

pub(crate) use crate::path::{Path, PathStep};
use core::fmt;
pub use tfwire_json::line_column;
use tfwire_json::{write_safe_inline, write_safe_str};

/// Writes through to a formatter with the characters of [`tfwire_json::is_unsafe_char`]
/// escaped ([`write_safe_inline`]), so an error message is one line whatever text of the
/// input it quotes.
struct OneLine<'a, 'b>(&'a mut fmt::Formatter<'b>);

impl fmt::Write for OneLine<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        write_safe_inline(self.0, s)
    }
}

/// Like [`write_safe_str`], for text from the input that may be long (a number of a million
/// digits): beyond 64 characters, its first 40 and last 16 around `…`, then its length.
pub(crate) fn write_excerpt(f: &mut impl fmt::Write, s: &str) -> fmt::Result {
    let n = s.chars().count();
    if n <= 64 {
        return write_safe_str(f, s);
    }
    let head: String = s.chars().take(40).collect();
    let tail: String = s.chars().skip(n - 16).collect();
    write_safe_str(f, &format!("{head}…{tail}"))?;
    write!(f, " ({n} characters)")
}

/// What was expected where a value of the wrong kind was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A string.
    String,
    /// A number.
    Number,
    /// A bool.
    Bool,
    /// A list (an array).
    List,
    /// A set (an array).
    Set,
    /// A map.
    Map,
    /// An object.
    Object,
    /// A tuple (an array).
    Tuple,
    /// The `[type, value]` array of a dynamic value (msgpack), or its `{"type", "value"}`
    /// object (JSON).
    DynamicWrapper,
    /// The type of a dynamic value: MessagePack binary (or string) holding type JSON.
    DynamicType,
    /// A map key (a string).
    MapKey,
    /// An attribute name (a string).
    AttributeName,
}

impl Expected {
    fn describe(self) -> &'static str {
        match self {
            Expected::String => "a string",
            Expected::Number => "a number",
            Expected::Bool => "a bool",
            Expected::List => "a list",
            Expected::Set => "a set",
            Expected::Map => "a map",
            Expected::Object => "an object",
            Expected::Tuple => "a tuple",
            Expected::DynamicWrapper => "a dynamic value",
            Expected::DynamicType => "the type of a dynamic value (binary type JSON)",
            Expected::MapKey => "a string map key",
            Expected::AttributeName => "a string attribute name",
        }
    }
}

/// Which configured limit an input exceeded (see [`crate::Config`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// `Config::max_depth`: containers and dynamic values nested deeper than allowed.
    Depth,
    /// `Config::max_input_bytes`: the input is larger than allowed.
    InputBytes,
    /// `Config::max_arena_bytes`: decoding would need more arena memory than allowed.
    ArenaBytes,
    /// `Config::max_collection_len`: a list, set, map, tuple or object with more elements
    /// than allowed.
    CollectionLen,
    /// `Config::max_amplification`: the decoded value would take more arena memory than
    /// that many times the input's size (plus [`crate::Config::AMPLIFICATION_ALLOWANCE`]).
    Amplification,
}

impl Limit {
    /// The name of the `Config` field that sets this limit.
    pub const fn config_field(self) -> &'static str {
        match self {
            Limit::Depth => "max_depth",
            Limit::InputBytes => "max_input_bytes",
            Limit::ArenaBytes => "max_arena_bytes",
            Limit::CollectionLen => "max_collection_len",
            Limit::Amplification => "max_amplification",
        }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before the value did.
    UnexpectedEof,
    /// Bytes follow a complete value.
    TrailingBytes,
    /// A value of the wrong kind: `found` names what the input holds (e.g. `"bool"`,
    /// `"array"`, `"nil"`).
    Mismatch {
        /// What the type calls for.
        expected: Expected,
        /// What the input holds.
        found: &'static str,
    },
    /// Text that is not a number (e.g. `"abc"` where a number is expected), or NaN.
    InvalidNumber(String),
    /// A number too large or too small to represent (an exponent beyond the supported range).
    NumberOutOfRange(String),
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// A JSON string where a bool is expected that is not `"true"`, `"false"`, `"1"` or `"0"`.
    InvalidBool(String),
    /// A MessagePack object with a different number of attributes than its type.
    AttributeCount {
        /// Attributes the type declares.
        expected: usize,
        /// Attributes the input holds.
        found: u64,
    },
    /// An attribute the object type does not declare.
    UnsupportedAttribute(String),
    /// An attribute given twice.
    DuplicateAttribute(String),
    /// A declared attribute that is absent (MessagePack objects must list every attribute).
    MissingAttribute(String),
    /// A tuple with a different number of elements than its type.
    TupleLength {
        /// Elements the type declares.
        expected: usize,
        /// Elements the input holds.
        found: u64,
    },
    /// A dynamic value's wrapper is malformed (wrong array length, missing `type` or
    /// `value`, an unexpected key).
    InvalidDynamic(String),
    /// The type JSON inside a dynamic value (or given as a type constraint) is malformed.
    ///
    /// Where the type JSON is text of the input (JSON input, [`crate::Type::from_json`],
    /// [`crate::canonical::parse`]) the error's offset is the offending byte itself. The type
    /// JSON of a MessagePack dynamic value is the payload of a binary: the error's offset is
    /// that of the binary, and `offset` the offending byte within the type JSON.
    InvalidType {
        /// What is wrong.
        message: String,
        /// Byte offset within the type JSON text, when it differs from the error's offset
        /// (a MessagePack dynamic value's type).
        offset: Option<usize>,
    },
    /// Elements of a list, set or map of `dynamic` that carry different types.
    InconsistentElementTypes {
        /// `list`, `set` or `map`.
        collection: &'static str,
        /// The type of the earlier elements (type JSON).
        first: String,
        /// The type of the offending element (type JSON).
        other: String,
    },
    /// A malformed refinement payload of an unknown value (MessagePack extension 12).
    InvalidRefinement(String),
    /// An invalid MessagePack marker (`0xc1`).
    InvalidMarker(u8),
    /// Invalid JSON syntax.
    Syntax(String),
    /// Invalid JSON that the tape parser (simd-json) rejected without naming a place: no
    /// value at all, invalid UTF-8 somewhere, or a fault its second stage reports at byte 0
    /// of a document that opens with a bracket. The error's offset is 0 and is not shown.
    UnplacedSyntax(String),
    /// JSON arrays and objects nested deeper than a document reader allows (found by
    /// [`tfwire_json::check_json_shape`] before anything is allocated; the message is the one the
    /// tape parser gives for the same fault).
    JsonTooDeep {
        /// The limit.
        max_depth: usize,
    },
    /// A JSON document with more nodes (brackets, commas, colons and strings) than a reader
    /// allows: its tape would take more memory than the caller allows (see
    /// [`tfwire_json::check_json_shape`]).
    TooManyNodes {
        /// The nodes counted.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A [`Path`] text that does not parse (see [`Path::parse`]); the error's offset is the
    /// byte in the text where the syntax breaks.
    InvalidPath {
        /// The text.
        text: String,
        /// What is wrong there (e.g. `expected ']'`).
        reason: &'static str,
    },
    /// A map key that is not a string.
    NonStringKey(&'static str),
    /// A block count outside `min_items..=max_items`.
    BlockCount {
        /// The nested block type's name.
        block: String,
        /// Blocks present.
        found: u64,
        /// Minimum allowed.
        min: u64,
        /// Maximum allowed (0: no maximum).
        max: u64,
    },
    /// A configured limit was exceeded.
    LimitExceeded {
        /// Which limit.
        limit: Limit,
        /// The configured value.
        max: u64,
    },
    /// A provider schema document or message that is malformed.
    InvalidSchema(String),
    /// A value cannot be encoded in the requested format (e.g. an unknown value as JSON), or
    /// breaks a rule every value must follow (e.g. map keys out of order).
    Unencodable(String),
    /// Text that is JSON but not the canonical form of a value (see [`crate::canonical`]).
    InvalidCanonical(String),
}

impl fmt::Display for ErrorKind {
    /// One line: text of the input that a message quotes is escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(&mut OneLine(f))
    }
}

impl ErrorKind {
    /// Whether the error's offset names a place in the input (shown by `Display`).
    fn is_placed(&self) -> bool {
        !matches!(self, ErrorKind::UnplacedSyntax(_))
    }

    fn write(&self, f: &mut impl fmt::Write) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEof => f.write_str("unexpected end of input"),
            ErrorKind::TrailingBytes => f.write_str("unexpected bytes after the end of the value"),
            ErrorKind::Mismatch { expected, found } => {
                write!(f, "{} is required, found {found}", expected.describe())
            }
            ErrorKind::InvalidNumber(text) => {
                f.write_str("a number is required, found ")?;
                write_excerpt(f, text)
            }
            ErrorKind::NumberOutOfRange(text) => {
                f.write_str("number out of range: ")?;
                write_excerpt(f, text)
            }
            ErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            ErrorKind::InvalidBool(text) => {
                f.write_str("a bool is required, found the string ")?;
                write_excerpt(f, text)?;
                if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false") {
                    write!(f, " (use lowercase \"{}\")", text.to_ascii_lowercase())?;
                }
                Ok(())
            }
            ErrorKind::AttributeCount { expected, found } => {
                write!(
                    f,
                    "an object with {expected} attributes is required ({found} given)"
                )
            }
            ErrorKind::UnsupportedAttribute(name) => {
                f.write_str("unsupported attribute ")?;
                write_safe_str(f, name)
            }
            ErrorKind::DuplicateAttribute(name) => {
                f.write_str("duplicate attribute ")?;
                write_safe_str(f, name)
            }
            ErrorKind::MissingAttribute(name) => {
                f.write_str("missing attribute ")?;
                write_safe_str(f, name)
            }
            ErrorKind::TupleLength { expected, found } => {
                write!(
                    f,
                    "a tuple of length {expected} is required ({found} given)"
                )
            }
            ErrorKind::InvalidDynamic(m) => write!(f, "invalid dynamic value: {m}"),
            ErrorKind::InvalidType { message, offset } => {
                write!(f, "invalid type: {message}")?;
                match offset {
                    Some(at) => write!(f, " (byte {at} of the type JSON)"),
                    None => Ok(()),
                }
            }
            ErrorKind::InconsistentElementTypes {
                collection,
                first,
                other,
            } => write!(
                f,
                "inconsistent {collection} element types: {first} then {other}"
            ),
            ErrorKind::InvalidRefinement(m) => write!(f, "invalid unknown value refinement: {m}"),
            ErrorKind::InvalidMarker(m) => write!(f, "invalid MessagePack marker 0x{m:02x}"),
            ErrorKind::Syntax(m) | ErrorKind::UnplacedSyntax(m) => write!(f, "invalid JSON: {m}"),
            ErrorKind::JsonTooDeep { max_depth } => write!(
                f,
                "invalid JSON: arrays and objects nested deeper than {max_depth} levels"
            ),
            ErrorKind::TooManyNodes { count, max } => write!(
                f,
                "the document has {count} JSON nodes (brackets, commas, colons and strings), \
                 more than the limit of {max}"
            ),
            ErrorKind::InvalidPath { text, reason } => {
                f.write_str("invalid path ")?;
                write_excerpt(f, text)?;
                write!(f, ": {reason}")
            }
            ErrorKind::NonStringKey(found) => {
                write!(f, "map keys must be strings, found {found}")
            }
            ErrorKind::BlockCount {
                block,
                found,
                min,
                max,
            } => {
                if *min == 0 && *max > 0 {
                    write!(f, "at most {max} ")?;
                } else if *max == 0 {
                    write!(f, "at least {min} ")?;
                } else if min == max {
                    write!(f, "exactly {min} ")?;
                } else {
                    write!(f, "between {min} and {max} ")?;
                }
                write_safe_str(f, block)?;
                let verb = if *min == 0 && *max > 0 {
                    "allowed"
                } else {
                    "required"
                };
                write!(f, " blocks are {verb} ({found} given)")
            }
            ErrorKind::LimitExceeded {
                limit: Limit::Amplification,
                max,
            } => write!(
                f,
                "limit exceeded: max_amplification is {max} (the decoded value would take more \
                 than {max} times the input's size, plus 1 MiB; raise Config::max_amplification)"
            ),
            ErrorKind::LimitExceeded { limit, max } => {
                write!(f, "limit exceeded: {} is {max}", limit.config_field())
            }
            ErrorKind::InvalidSchema(m) => write!(f, "invalid schema: {m}"),
            ErrorKind::Unencodable(m) => write!(f, "cannot encode: {m}"),
            ErrorKind::InvalidCanonical(m) => write!(f, "invalid canonical form: {m}"),
        }
    }
}

/// The crate's one error, whatever failed (decoding, encoding, parsing a type, a number, a
/// [`Path`], a JSON document or a schema): its [`ErrorKind`], the byte offset of the start of
/// the offending value, and the [`Path`] to it.
///
/// Displayed as `path: message (at byte N)`, e.g.
/// `.tags["env"]: a string is required, found bool (at byte 17)`.
///
/// The error is one pointer wide, so `Result<Value, Error>` stays small; it is built only
/// when something goes wrong.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorImpl>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct ErrorImpl {
    kind: ErrorKind,
    offset: usize,
    path: Path<'static>,
}

impl Error {
    /// An error of `kind` at byte `offset` of the input, at `path`.
    #[cold]
    pub fn new(kind: ErrorKind, offset: usize, path: Path<'static>) -> Error {
        Error(Box::new(ErrorImpl { kind, offset, path }))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Byte offset (in the input) of the start of the offending value.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// Where the offending value sits.
    pub fn path(&self) -> &Path<'static> {
        &self.0.path
    }

    /// Line and column (both from 1; the column counts bytes) of the offset in `input`,
    /// for showing errors in text inputs. Computed on demand.
    pub fn line_column(&self, input: &[u8]) -> (usize, usize) {
        line_column(input, self.offset())
    }

    /// Replaces the path (used by callers that decode a value nested inside a larger one).
    pub fn with_path(mut self, path: Path<'static>) -> Error {
        self.0.path = path;
        self
    }

    /// Shifts the offset by `base` (for values embedded at `base` in a larger input).
    pub fn with_base(mut self, base: usize) -> Error {
        self.0.offset += base;
        self
    }
}

/// The crate's one internal fault: an error on its way up through a walk (the encoders'
/// walk, the canonical parser, the type JSON parser, the JSON text scanner), with its kind
/// and offset, and the path collected while unwinding, innermost step first
/// ([`Fail::step`]). Boxed, so that a `Result` of the walk stays small. (The decoder's
/// state machine has its own frames and stop reasons, in `decode/`.)
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    kind: ErrorKind,
    at: usize,
    steps: Vec<PathStep<'static>>,
}

/// The result of one step of a recursive walk that fails with a [`Fail`].
pub(crate) type Step<T = ()> = Result<T, Box<Fail>>;

impl Fail {
    /// A failure of `kind` at byte `at`, with no path yet.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: ErrorKind, at: usize) -> Box<Fail> {
        Box::new(Fail {
            kind,
            at,
            steps: Vec::new(),
        })
    }

    /// An arena that refused an allocation, at byte `at`: the limit is not known where the
    /// allocation failed (`max` 0); callers that know it report it ([`Fail::is_arena`]).
    #[cold]
    #[inline(never)]
    pub(crate) fn arena(at: usize) -> Box<Fail> {
        Fail::new(
            ErrorKind::LimitExceeded {
                limit: Limit::ArenaBytes,
                max: 0,
            },
            at,
        )
    }

    /// Whether this is an arena's refusal ([`Fail::arena`]).
    pub(crate) fn is_arena(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::LimitExceeded {
                limit: Limit::ArenaBytes,
                ..
            }
        )
    }

    /// The byte offset.
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    /// The kind and offset (for a caller that reports the fault in its own terms). Takes
    /// the box a walk carries, so that no caller spells out the move out of it.
    #[allow(clippy::boxed_local)]
    pub(crate) fn into_parts(self: Box<Fail>) -> (ErrorKind, usize) {
        let Fail { kind, at, .. } = *self;
        (kind, at)
    }

    /// Adds the step of the enclosing container (called while unwinding).
    #[cold]
    pub(crate) fn step(mut self: Box<Fail>, s: PathStep<'static>) -> Box<Fail> {
        self.steps.push(s);
        self
    }

    /// The public error, its path read from the root.
    #[cold]
    pub(crate) fn into_error(self) -> Error {
        let Fail {
            kind,
            at,
            mut steps,
        } = self;
        steps.reverse();
        Error::new(kind, at, Path::from(steps))
    }
}

/// The JSON layer's error kind as this crate's.
fn json_kind(kind: tfwire_json::ErrorKind) -> ErrorKind {
    match kind {
        tfwire_json::ErrorKind::UnplacedSyntax(m) => ErrorKind::UnplacedSyntax(m),
        tfwire_json::ErrorKind::TooDeep { max_depth } => ErrorKind::JsonTooDeep { max_depth },
        tfwire_json::ErrorKind::TooManyNodes { count, max } => {
            ErrorKind::TooManyNodes { count, max }
        }
        tfwire_json::ErrorKind::Syntax(m) => ErrorKind::Syntax(m),
        // A kind added to the JSON layer later: its message, as a syntax error.
        other => ErrorKind::Syntax(other.to_string()),
    }
}

/// A JSON text's fault, at the root path (a caller that knows where the text sits adds the
/// path with [`Error::with_path`]).
impl From<tfwire_json::Error> for Error {
    #[cold]
    fn from(e: tfwire_json::Error) -> Error {
        let (kind, at) = e.into_parts();
        Error::new(json_kind(kind), at, Path::root())
    }
}

/// A JSON text's fault met inside a walk (the byte-wise scanner's), on its way up.
impl From<tfwire_json::Error> for Box<Fail> {
    #[cold]
    fn from(e: tfwire_json::Error) -> Box<Fail> {
        let (kind, at) = e.into_parts();
        Fail::new(json_kind(kind), at)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.0.kind)
            .field("offset", &self.0.offset)
            .field("path", &format_args!("{}", self.0.path))
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let mut out = OneLine(f);
        write!(out, "{}: ", self.0.path)?;
        self.0.kind.write(&mut out)?;
        if self.0.kind.is_placed() {
            write!(out, " (at byte {})", self.0.offset)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_terraform() {
        let p = Path::from(vec![
            PathStep::Attr("disks".into()),
            PathStep::Index(2),
            PathStep::Attr("size".into()),
        ]);
        assert_eq!(p.to_string(), ".disks[2].size");
        let p = Path::from(vec![
            PathStep::Attr("tags".into()),
            PathStep::Key("env".into()),
        ]);
        assert_eq!(p.to_string(), ".tags[\"env\"]");
        let p = Path::from(vec![
            PathStep::Attr("with space".into()),
            PathStep::Key("a\"b\n".into()),
        ]);
        assert_eq!(p.to_string(), "[\"with space\"][\"a\\\"b\\n\"]");
        assert_eq!(Path::root().to_string(), "(root)");
    }

    #[test]
    fn display_has_path_message_and_offset() {
        let e = Error::new(
            ErrorKind::Mismatch {
                expected: Expected::String,
                found: "bool",
            },
            17,
            Path::from(vec![
                PathStep::Attr("tags".into()),
                PathStep::Key("env".into()),
            ]),
        );
        assert_eq!(
            e.to_string(),
            ".tags[\"env\"]: a string is required, found bool (at byte 17)"
        );
        assert_eq!(core::mem::size_of::<Error>(), core::mem::size_of::<usize>());
    }

    /// One of each kind, with input text that would break a line where a kind quotes it.
    fn every_kind() -> Vec<ErrorKind> {
        let hostile = "a\nb\u{1b}[31m\u{202e}\"c";
        let kinds = vec![
            ErrorKind::UnexpectedEof,
            ErrorKind::TrailingBytes,
            ErrorKind::Mismatch {
                expected: Expected::String,
                found: "bool",
            },
            ErrorKind::InvalidNumber(hostile.into()),
            ErrorKind::NumberOutOfRange(hostile.into()),
            ErrorKind::InvalidUtf8,
            ErrorKind::InvalidBool(hostile.into()),
            ErrorKind::AttributeCount {
                expected: 2,
                found: 3,
            },
            ErrorKind::UnsupportedAttribute(hostile.into()),
            ErrorKind::DuplicateAttribute(hostile.into()),
            ErrorKind::MissingAttribute(hostile.into()),
            ErrorKind::TupleLength {
                expected: 2,
                found: 3,
            },
            ErrorKind::InvalidDynamic(hostile.into()),
            ErrorKind::InvalidType {
                message: hostile.into(),
                offset: None,
            },
            ErrorKind::InvalidType {
                message: hostile.into(),
                offset: Some(3),
            },
            ErrorKind::InconsistentElementTypes {
                collection: "list",
                first: "\"string\"".into(),
                other: "\"number\"".into(),
            },
            ErrorKind::InvalidRefinement(hostile.into()),
            ErrorKind::InvalidMarker(0xc1),
            ErrorKind::Syntax(hostile.into()),
            ErrorKind::UnplacedSyntax(hostile.into()),
            ErrorKind::JsonTooDeep { max_depth: 3 },
            ErrorKind::TooManyNodes { count: 9, max: 8 },
            ErrorKind::InvalidPath {
                text: hostile.into(),
                reason: "expected ']'",
            },
            ErrorKind::NonStringKey("nil"),
            ErrorKind::BlockCount {
                block: hostile.into(),
                found: 3,
                min: 1,
                max: 2,
            },
            ErrorKind::LimitExceeded {
                limit: Limit::Depth,
                max: 4,
            },
            ErrorKind::LimitExceeded {
                limit: Limit::Amplification,
                max: 4,
            },
            ErrorKind::InvalidSchema(hostile.into()),
            ErrorKind::Unencodable(hostile.into()),
            ErrorKind::InvalidCanonical(hostile.into()),
        ];
        // Adding a kind without a case here fails to compile (no wildcard arm).
        for k in &kinds {
            match k {
                ErrorKind::UnexpectedEof
                | ErrorKind::TrailingBytes
                | ErrorKind::Mismatch { .. }
                | ErrorKind::InvalidNumber(_)
                | ErrorKind::NumberOutOfRange(_)
                | ErrorKind::InvalidUtf8
                | ErrorKind::InvalidBool(_)
                | ErrorKind::AttributeCount { .. }
                | ErrorKind::UnsupportedAttribute(_)
                | ErrorKind::DuplicateAttribute(_)
                | ErrorKind::MissingAttribute(_)
                | ErrorKind::TupleLength { .. }
                | ErrorKind::InvalidDynamic(_)
                | ErrorKind::InvalidType { .. }
                | ErrorKind::InconsistentElementTypes { .. }
                | ErrorKind::InvalidRefinement(_)
                | ErrorKind::InvalidMarker(_)
                | ErrorKind::Syntax(_)
                | ErrorKind::UnplacedSyntax(_)
                | ErrorKind::JsonTooDeep { .. }
                | ErrorKind::TooManyNodes { .. }
                | ErrorKind::InvalidPath { .. }
                | ErrorKind::NonStringKey(_)
                | ErrorKind::BlockCount { .. }
                | ErrorKind::LimitExceeded { .. }
                | ErrorKind::InvalidSchema(_)
                | ErrorKind::Unencodable(_)
                | ErrorKind::InvalidCanonical(_) => {}
            }
        }
        kinds
    }

    #[test]
    fn every_kind_is_one_line_and_states_its_offset_once() {
        let unsafe_chars = |s: &str| s.chars().any(tfwire_json::is_unsafe_char);
        for kind in every_kind() {
            let text = kind.to_string();
            assert!(!unsafe_chars(&text), "{kind:?}: {text:?}");
            // The offset is the error's to state, not the kind's.
            assert!(
                !text.contains("at byte") && !text.contains("offset"),
                "{kind:?}: {text}"
            );
            let e = Error::new(
                kind.clone(),
                12345,
                Path::from(vec![PathStep::Key("k\n".into())]),
            );
            let shown = e.to_string();
            assert!(!unsafe_chars(&shown), "{kind:?}: {shown:?}");
            assert!(shown.starts_with("[\"k\\n\"]: "), "{shown}");
            let offsets = shown.matches("12345").count();
            if matches!(kind, ErrorKind::UnplacedSyntax(_)) {
                assert_eq!(offsets, 0, "{shown}");
            } else {
                assert_eq!(offsets, 1, "{shown}");
                assert!(shown.ends_with(" (at byte 12345)"), "{shown}");
            }
        }
    }

    #[test]
    fn json_errors_convert_with_their_offset() {
        let e = tfwire_json::check_json_shape(b"[[[", 2, 10).unwrap_err();
        let e = Error::from(e);
        assert_eq!(e.kind(), &ErrorKind::JsonTooDeep { max_depth: 2 });
        assert_eq!(
            e.to_string(),
            "(root): invalid JSON: arrays and objects nested deeper than 2 levels (at byte 2)"
        );
        let fail: Box<Fail> = tfwire_json::Error::syntax("invalid number", 7).into();
        assert_eq!(
            fail.into_parts(),
            (ErrorKind::Syntax("invalid number".into()), 7)
        );
        assert_eq!(line_column(b"{\n  \"a\": tru\n}", 9), (2, 8));
    }
}
