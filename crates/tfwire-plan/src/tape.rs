//! Parsing: text encoding, the simd-json tape, and the reusable [`Parser`].

use crate::error::{Error, ErrorKind};
use crate::json::Json;
use tfwire_json::tape::{Document, TapeParser};

/// The bytes [`Parser::parse`] appends to its input (simd-json reads in 64-byte blocks).
/// Reserve them in the buffer's capacity when reading a large file to avoid a copy.
pub const INPUT_PADDING: usize = tfwire_json::tape::INPUT_PADDING;

/// Limits and options for [`Parser`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParserConfig {
    /// The deepest nesting of arrays and objects accepted. Default 1024 (simd-json's).
    pub max_depth: usize,
    /// The most JSON nodes (brackets, commas, colons and strings) accepted, checked in one
    /// pass before the parser allocates anything: its tape and index cost 28 bytes a node
    /// ([`tfwire_json::JSON_NODE_BYTES`]). Default 2^25 (at most 0.9 GiB of tape; real plans
    /// have about one node per 8 bytes, so this admits 256 MiB of them).
    pub max_nodes: usize,
}

impl ParserConfig {
    /// With `max_depth`.
    pub fn max_depth(mut self, n: usize) -> ParserConfig {
        self.max_depth = n;
        self
    }

    /// With `max_nodes`.
    pub fn max_nodes(mut self, n: usize) -> ParserConfig {
        self.max_nodes = n;
        self
    }
}

impl Default for ParserConfig {
    fn default() -> ParserConfig {
        ParserConfig {
            max_depth: tfwire_json::tape::DEFAULT_MAX_DEPTH,
            max_nodes: 1 << 25,
        }
    }
}

/// The text encoding an input was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark (what Terraform writes).
    Utf8,
    /// UTF-8 with a byte-order mark (skipped).
    Utf8Bom,
    /// UTF-16, little-endian (e.g. Windows PowerShell's `>` redirection); transcoded.
    Utf16Le,
    /// UTF-16, big-endian; transcoded.
    Utf16Be,
}

/// Parses JSON documents into [`Tape`]s, keeping simd-json's scratch buffers (and a spare
/// tape allocation, see [`Parser::recycle`]) between documents.
///
/// ```
/// let mut parser = tfwire_plan::Parser::new();
/// for text in [r#"{"format_version":"1.0"}"#, r#"{"version":4,"resources":[]}"#] {
///     let mut input = text.as_bytes().to_vec();
///     let tape = parser.parse(&mut input)?;
///     assert!(tape.root().as_object().is_some());
///     parser.recycle(tape);
/// }
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
pub struct Parser {
    config: ParserConfig,
    tapes: TapeParser,
}

impl Default for Parser {
    fn default() -> Parser {
        Parser::new()
    }
}

impl Parser {
    /// A parser with the default [`ParserConfig`].
    pub fn new() -> Parser {
        Parser::with_config(ParserConfig::default())
    }

    /// A parser with the given limits.
    pub fn with_config(config: ParserConfig) -> Parser {
        Parser {
            // Buffers grow to the input on first use; no input copy is ever made (the
            // padded entry point parses the caller's buffer in place).
            tapes: TapeParser::new(config.max_depth),
            config,
        }
    }

    /// The parser's configuration.
    pub fn config(&self) -> &ParserConfig {
        &self.config
    }

    /// Parses one JSON document.
    ///
    /// The input is read as UTF-8; a UTF-8 byte-order mark is skipped (overwritten with spaces), and UTF-16 (with a
    /// byte-order mark, or recognised by the zero bytes of its first character) is
    /// transcoded to UTF-8 in `input` first. The vector is used as the parse buffer:
    /// [`INPUT_PADDING`] bytes are appended, and string escapes are decoded in
    /// place, so its contents are not the original text afterwards. Every string of the
    /// tape borrows from it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Syntax`] with the byte offset for invalid JSON (including nesting deeper
    /// than [`ParserConfig::max_depth`], found before anything is allocated),
    /// [`ErrorKind::TooManyNodes`] beyond [`ParserConfig::max_nodes`], [`ErrorKind::Encoding`] for UTF-32 or broken UTF-16,
    /// [`ErrorKind::TooLarge`] for inputs of 4 GiB or more.
    pub fn parse<'a>(&mut self, input: &'a mut Vec<u8>) -> Result<Tape<'a>, Error> {
        self.parse_with(input, Pass::Shape)
    }

    /// Parses one JSON document of at most [`UNSHAPED_MAX_BYTES`] as [`Parser::parse`]
    /// does but without the shape pre-pass that finds, before anything is allocated, a
    /// document too deep or with too many nodes and the numbers beyond `f64`'s range: for a
    /// reader of many small documents (a fleet of states), where that pass is a quarter of
    /// the time. A larger document, or one larger than [`ParserConfig::max_nodes`], is
    /// parsed as by [`Parser::parse`].
    ///
    /// The tape is built at once: it costs up to 28 bytes per input byte (112 MiB at most)
    /// before simd-json refuses a document nested deeper than [`ParserConfig::max_depth`],
    /// no more than a valid document of the same size costs by either path (the node limit
    /// the pre-pass checks, [`ParserConfig::max_nodes`], is out of reach of a document this
    /// small). A valid document gives the same tape as [`Parser::parse`].
    ///
    /// # Errors
    ///
    /// Any error of [`Parser::parse`], and also a document holding a number beyond `f64`'s
    /// range (`1e400`), which [`Parser::parse`] reads. The error is simd-json's, not always
    /// the one [`Parser::parse`] gives (which places a depth error at its bracket), and
    /// `input` holds strings unescaped up to where simd-json stopped: on an error, parse an
    /// untouched copy of the document with [`Parser::parse`] for its tape or its error.
    ///
    /// ```
    /// let text = br#"{"version": 4, "serial": 1, "lineage": "l", "resources": []}"#;
    /// let mut parser = tfwire_plan::Parser::new();
    /// let mut buf = text.to_vec();
    /// assert!(parser.parse_unshaped(&mut buf).is_ok());
    /// let wide = br#"{"version": 4, "serial": 1e400, "lineage": "l", "resources": []}"#;
    /// assert!(parser.parse_unshaped(&mut wide.to_vec()).is_err());
    /// assert!(parser.parse(&mut wide.to_vec()).is_ok());
    /// ```
    pub fn parse_unshaped<'a>(&mut self, input: &'a mut Vec<u8>) -> Result<Tape<'a>, Error> {
        self.parse_with(input, Pass::Unshaped)
    }

    /// Parses a plan for a [`Summary`](crate::Summary) (or a [`Filter`](crate::Filter)):
    /// as [`Parser::parse`], but the values no summary reads (`before`, `after`,
    /// `after_unknown`, `*_sensitive` and `*_identity` of resource changes; `before`,
    /// `after` and `after_unknown` of output changes; `planned_values`, `prior_state`,
    /// `configuration`, `variables`, `checks`, `relevant_attributes`, `proposed_unknown`)
    /// are overwritten in `input` with `null` before simd-json sees it, so the tape holds one
    /// node for each instead of one per value inside: memory is the input plus a small
    /// amount per resource change. The model built from this tape has those members
    /// absent; its [`Summary`](crate::Summary) is the one of the whole document.
    ///
    /// A validating pre-pass finds those values and compacts `input` in place without them
    /// (a resource change's values are removed with their keys, the top-level ones replaced
    /// by `null`); the vector is then shrunk, so the memory of the dropped text is given back
    /// before the tape is built, and the tape's strings borrow the compacted text. Errors
    /// (from parsing, and from [`Tape::document`] and the other model builders) still give
    /// offsets in the text as it was. A document the pre-pass does not accept (not valid
    /// JSON, or unusual: `\u` escapes of surrogates) is parsed whole, as
    /// [`Parser::parse`] does: the errors are the same. The values left out are validated
    /// as JSON but not modelled, so a wrong kind of value there (`"planned_values": 5`)
    /// is not an error on this path.
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`].
    pub fn parse_summary<'a>(&mut self, input: &'a mut Vec<u8>) -> Result<Tape<'a>, Error> {
        self.parse_with(input, Pass::Skeleton(None))
    }

    /// Parses a plan for showing the changes at one address (`tfwire plan show ADDRESS`):
    /// as [`Parser::parse_summary`], but the resource changes and drift entries whose
    /// `address` or `previous_address` is `address` keep all their values, and so does the
    /// output change `NAME` when `address` is `output.NAME`; `provider_schemas` (a redacted
    /// plan's) is kept too. Every other change is modelled as for a summary (no values), so
    /// memory is the input plus the values of the changes asked for.
    ///
    /// ```
    /// let text = r#"{"format_version":"1.2","resource_changes":[
    ///   {"address":"a.x","change":{"actions":["create"],"before":null,"after":{"n":1}}},
    ///   {"address":"a.y","change":{"actions":["create"],"before":null,"after":{"n":2}}}]}"#;
    /// let mut parser = tfwire_plan::Parser::new();
    /// let mut input = text.as_bytes().to_vec();
    /// let tape = parser.parse_change(&mut input, "a.y")?;
    /// let arena = bumpalo::Bump::new();
    /// let plan = tape.plan(&arena)?;
    /// assert!(plan.resource_changes[0].change.after.is_none());
    /// assert_eq!(plan.resource_changes[1].change.after.unwrap().to_string(), r#"{"n":2}"#);
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`].
    pub fn parse_change<'a>(
        &mut self,
        input: &'a mut Vec<u8>,
        address: &str,
    ) -> Result<Tape<'a>, Error> {
        self.parse_with(input, Pass::Skeleton(Some(address)))
    }

    /// Parses `input` after `pass`: the shape check, the summary pre-pass (keeping the
    /// values at one address when given) or nothing.
    fn parse_with<'a>(
        &mut self,
        input: &'a mut Vec<u8>,
        pass: Pass<'_>,
    ) -> Result<Tape<'a>, Error> {
        let encoding = prepare(input)?;
        if encoding == Encoding::Utf8Bom {
            // White space to the parser, so that every offset counts from the input's
            // first byte.
            input[..3].fill(b' ');
        }
        let mut len = input.len();
        if len > u32::MAX as usize - INPUT_PADDING {
            return Err(Error::new(ErrorKind::TooLarge(len)));
        }
        // For a summary, the values it does not read are cut out first (errors map back);
        // a document that pass accepts has the shape the parser can afford, and the pass
        // says whether a number it kept may be beyond f64's range.
        let pass = match pass {
            // Larger documents are shape-checked (a document's nodes are at most its bytes).
            Pass::Unshaped if len > UNSHAPED_MAX_BYTES.min(self.config.max_nodes) => Pass::Shape,
            pass => pass,
        };
        let (skeleton, kept_shape) = match pass {
            Pass::Skeleton(keep) => tfwire_json::skeleton::compact_for_summary(
                input,
                0,
                INPUT_PADDING,
                (self.config.max_depth, self.config.max_nodes),
                keep,
            )
            .unzip(),
            // simd-json refuses what the shape pass would have found.
            Pass::Unshaped => (
                None,
                Some(tfwire_json::JsonShape {
                    nodes: len,
                    wide_numbers: false,
                }),
            ),
            Pass::Shape => (None, None),
        };
        // Errors count bytes of the input as given.
        let back = |e: Error| match &skeleton {
            Some(map) => e.map_offset(|at| map.original(at)),
            None => e,
        };
        len = input.len();
        // Nothing is allocated for a document too deep or too large to parse: unless the
        // summary pre-pass checked the limits already, this pass checks them (and says
        // whether a number may be beyond f64's range).
        let shape = match kept_shape {
            Some(shape) => shape,
            None => {
                tfwire_json::json_shape(&input[..len], self.config.max_depth, self.config.max_nodes)
                    .map_err(|e| {
                        back(match *e.kind() {
                            tfwire_json::ErrorKind::TooManyNodes { count, max } => {
                                Error::new(ErrorKind::TooManyNodes { count, max })
                            }
                            _ => syntax_error(&e),
                        })
                    })?
            }
        };
        input.resize(len + INPUT_PADDING, b' ');
        let doc = self
            .tapes
            .parse_document(input, len, &shape)
            .map_err(|e| back(syntax_error(&e)))?;
        Ok(Tape {
            doc,
            len,
            encoding,
            skeleton,
        })
    }

    /// Takes back a tape's node allocation for the next [`Parser::parse`].
    pub fn recycle(&mut self, tape: Tape<'_>) {
        self.tapes.recycle_document(tape.doc);
    }
}

/// The largest document [`Parser::parse_unshaped`] parses without the shape pre-pass:
/// 4 MiB.
pub const UNSHAPED_MAX_BYTES: usize = 4 << 20;

/// What runs over a document before simd-json.
#[derive(Clone, Copy)]
enum Pass<'k> {
    /// The shape check.
    Shape,
    /// The summary pre-pass, keeping the values at an address when given.
    Skeleton(Option<&'k str>),
    /// Nothing, for a document of at most [`UNSHAPED_MAX_BYTES`] (once transcoded to
    /// UTF-8); the shape check for a larger one.
    Unshaped,
}

/// A JSON error of the tape parser or shape check, in this crate's terms.
#[cold]
fn syntax_error(e: &tfwire_json::Error) -> Error {
    let (message, offset) = match e.kind() {
        tfwire_json::ErrorKind::Syntax(m) => (m.clone(), Some(e.offset())),
        tfwire_json::ErrorKind::UnplacedSyntax(m) => (m.clone(), None),
        tfwire_json::ErrorKind::TooDeep { max_depth } => (
            format!("arrays and objects nested deeper than {max_depth} levels"),
            Some(e.offset()),
        ),
        k => (k.to_string(), Some(e.offset())),
    };
    Error::new(ErrorKind::Syntax(message)).with_offset(offset)
}

/// Detects the text encoding of a JSON input and transcodes UTF-16 to UTF-8 in place, as
/// [`Parser::parse`] does first: for callers that hand JSON text to another reader (and
/// for showing the line of an error, whose offset counts bytes of the transcoded text).
/// A UTF-8 byte-order mark is left in place ([`Encoding::Utf8Bom`]: skip 3 bytes).
///
/// ```
/// let mut text = b"\xFF\xFE{\0}\0".to_vec();
/// assert_eq!(tfwire_plan::transcode(&mut text)?, tfwire_plan::Encoding::Utf16Le);
/// assert_eq!(text, b"{}");
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Encoding`] for UTF-32 and broken UTF-16.
pub fn transcode(input: &mut Vec<u8>) -> Result<Encoding, Error> {
    prepare(input)
}

/// Detects the text encoding; transcodes UTF-16 to UTF-8 in place.
fn prepare(input: &mut Vec<u8>) -> Result<Encoding, Error> {
    let b = input.as_slice();
    let enc = match b {
        [0xEF, 0xBB, 0xBF, ..] => return Ok(Encoding::Utf8Bom),
        [0xFF, 0xFE, 0, 0, ..] | [0, 0, 0xFE, 0xFF, ..] | [0, 0, 0, _, ..] | [_, 0, 0, 0, ..] => {
            return Err(Error::new(ErrorKind::Encoding(
                "the input is UTF-32, which is not supported; convert it to UTF-8".into(),
            )));
        }
        [0xFF, 0xFE, ..] => (Encoding::Utf16Le, 2),
        [0xFE, 0xFF, ..] => (Encoding::Utf16Be, 2),
        // JSON text never contains a NUL byte: a zero in either of the first two bytes is
        // the high half of an ASCII character in UTF-16.
        [c, 0, ..] if *c != 0 => (Encoding::Utf16Le, 0),
        [0, c, ..] if *c != 0 => (Encoding::Utf16Be, 0),
        _ => return Ok(Encoding::Utf8),
    };
    let (encoding, skip) = enc;
    let body = &b[skip..];
    if !body.len().is_multiple_of(2) {
        return Err(Error::new(ErrorKind::Encoding(format!(
            "the input looks like UTF-16 but has an odd number of bytes ({})",
            b.len()
        ))));
    }
    let units = body.chunks_exact(2).map(|p| match encoding {
        Encoding::Utf16Be => u16::from_be_bytes([p[0], p[1]]),
        _ => u16::from_le_bytes([p[0], p[1]]),
    });
    let mut out = Vec::with_capacity(body.len() / 2 + body.len() / 8 + INPUT_PADDING);
    let mut buf = [0u8; 4];
    for (i, c) in char::decode_utf16(units).enumerate() {
        match c {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
            Err(e) => {
                return Err(Error::new(ErrorKind::Encoding(format!(
                    "invalid UTF-16: unpaired surrogate 0x{:04X}",
                    e.unpaired_surrogate()
                )))
                .with_offset(Some(skip + 2 * i)));
            }
        }
    }
    *input = out;
    Ok(encoding)
}

/// A parsed JSON document: simd-json's tape, whose strings borrow from the input, with the
/// byte offset of any node found when asked (tfwire's [`Document`]).
///
/// Build the typed model with [`Tape::document`] (or [`Tape::plan`], [`Tape::state`],
/// [`Tape::raw_state`]); read any value untyped with [`Tape::root`].
pub struct Tape<'a> {
    doc: Document<'a>,
    len: usize,
    encoding: Encoding,
    /// From [`Parser::parse_summary`]: the map from the compacted text's offsets back to
    /// the input's.
    skeleton: Option<tfwire_json::skeleton::Shifts>,
}

impl<'a> Tape<'a> {
    /// The whole document as an untyped value.
    pub fn root(&self) -> Json<'_> {
        self.doc.root()
    }

    /// The input's text encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The number of tape nodes (one per JSON value and object key).
    pub fn node_count(&self) -> usize {
        self.doc.nodes().len()
    }

    /// The input length in bytes (after transcoding), without the padding; for a tape of
    /// [`Parser::parse_summary`], the length of the compacted text.
    pub fn input_len(&self) -> usize {
        self.len
    }

    /// Whether [`Parser::parse_summary`] cut values out of the input: the buffer no longer
    /// holds the text as given (error offsets still count bytes of that text).
    pub fn is_compacted(&self) -> bool {
        self.skeleton.is_some()
    }

    /// The offset in the parsed buffer of `offset` of the input as given: the same, unless
    /// [`Tape::is_compacted`] (then, for an offset inside text that was cut out, the offset
    /// where that text was).
    pub fn parsed_offset(&self, offset: usize) -> usize {
        match &self.skeleton {
            Some(map) => map.compacted(offset),
            None => offset,
        }
    }

    /// An error of the model built from this tape with its offset in the input as given
    /// (the tape of [`Parser::parse_summary`] reads a compacted text).
    pub(crate) fn original_offsets(&self, e: Error) -> Error {
        match &self.skeleton {
            Some(map) => e.map_offset(|at| map.original(at)),
            None => e,
        }
    }
}

impl core::fmt::Debug for Tape<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tape")
            .field("encoding", &self.encoding)
            .field("input_len", &self.len)
            .field("nodes", &self.doc.nodes().len())
            .finish()
    }
}
