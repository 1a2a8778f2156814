//! Parsing: text encoding, the simd-json tape, and the reusable [`Parser`].

use crate::error::{Error, ErrorKind};
use crate::json::{Json, Numbers};
use tfwire::json::tape::{Node, StaticNode, SyntaxError, TapeParser};

/// The bytes [`Parser::parse`] appends to its input (simd-json reads in 64-byte blocks).
/// Reserve them in the buffer's capacity when reading a large file to avoid a copy.
pub const INPUT_PADDING: usize = tfwire::json::tape::INPUT_PADDING;

/// Limits and options for [`Parser`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The deepest nesting of arrays and objects accepted. Default 1024 (simd-json's).
    pub max_depth: usize,
    /// The most JSON nodes (brackets, commas, colons and strings) accepted, checked in one
    /// pass before the parser allocates anything: its tape and index cost 28 bytes a node
    /// ([`tfwire::JSON_NODE_BYTES`]). Default 2^25 (at most 0.9 GiB of tape; real plans
    /// have about one node per 8 bytes, so this admits 256 MiB of them).
    pub max_nodes: usize,
}

impl Config {
    /// With `max_depth`.
    pub fn max_depth(mut self, n: usize) -> Config {
        self.max_depth = n;
        self
    }

    /// With `max_nodes`.
    pub fn max_nodes(mut self, n: usize) -> Config {
        self.max_nodes = n;
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_depth: tfwire::json::tape::DEFAULT_MAX_DEPTH,
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
    config: Config,
    tapes: TapeParser,
}

impl Default for Parser {
    fn default() -> Parser {
        Parser::new()
    }
}

impl Parser {
    /// A parser with the default [`Config`].
    pub fn new() -> Parser {
        Parser::with_config(Config::default())
    }

    /// A parser with the given limits.
    pub fn with_config(config: Config) -> Parser {
        Parser {
            // Buffers grow to the input on first use; no input copy is ever made (the
            // padded entry point parses the caller's buffer in place).
            tapes: TapeParser::new(config.max_depth),
            config,
        }
    }

    /// The parser's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Parses one JSON document.
    ///
    /// The input is read as UTF-8; a UTF-8 byte-order mark is skipped, and UTF-16 (with a
    /// byte-order mark, or recognised by the zero bytes of its first character) is
    /// transcoded to UTF-8 in `input` first. The vector is used as the parse buffer:
    /// [`INPUT_PADDING`] bytes are appended, and string escapes are decoded in
    /// place, so its contents are not the original text afterwards. Every string of the
    /// tape borrows from it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Syntax`] with the byte offset for invalid JSON (including nesting deeper
    /// than [`Config::max_depth`], found before anything is allocated),
    /// [`ErrorKind::TooManyNodes`] beyond [`Config::max_nodes`], [`ErrorKind::Encoding`] for UTF-32 or broken UTF-16,
    /// [`ErrorKind::TooLarge`] for inputs of 4 GiB or more.
    pub fn parse<'a>(&mut self, input: &'a mut Vec<u8>) -> Result<Tape<'a>, Error> {
        self.parse_with(input, false)
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
        self.parse_with(input, true)
    }

    fn parse_with<'a>(&mut self, input: &'a mut Vec<u8>, summary: bool) -> Result<Tape<'a>, Error> {
        let encoding = prepare(input)?;
        let start = if encoding == Encoding::Utf8Bom { 3 } else { 0 };
        let mut len = input.len();
        if len - start > u32::MAX as usize - INPUT_PADDING {
            return Err(Error::new(ErrorKind::TooLarge(len)));
        }
        // For a summary, the values it does not read are cut out first (errors map back);
        // a document that pass accepts has the shape the parser can afford.
        let skeleton = if summary {
            crate::skeleton::compact_for_summary(
                input,
                start,
                INPUT_PADDING,
                self.config.max_depth,
                self.config.max_nodes,
            )
        } else {
            None
        };
        // Nothing is allocated for a document too deep or too large to parse.
        if skeleton.is_none() {
            tfwire::check_json_shape(
                &input[start..],
                self.config.max_depth,
                self.config.max_nodes,
            )
            .map_err(|e| match e {
                tfwire::JsonShapeError::TooManyNodes { count, max_nodes } => {
                    Error::new(ErrorKind::TooManyNodes {
                        count,
                        max: max_nodes,
                    })
                }
                e @ tfwire::JsonShapeError::TooDeep { at, .. } => {
                    Error::new(ErrorKind::Syntax(e.to_string())).with_offset(Some(at + start))
                }
                _ => Error::new(ErrorKind::Syntax(e.to_string())),
            })?;
        }
        len = input.len();
        // The texts of long numbers, taken now: once simd-json has the input, only its
        // strings can be read.
        let mut numbers = Numbers::NONE;
        if long_numbers(&input[start..], &mut numbers) {
            hide_huge_numbers(&mut input[start..], &numbers);
        }
        input.resize(len + INPUT_PADDING, b' ');
        let base = input.as_ptr() as usize;
        let inner = self
            .tapes
            .parse(&mut input[start..], len - start)
            .map_err(|e| {
                let e = syntax_error(&e, start, &self.config);
                match &skeleton {
                    Some(map) => e.map_offset(|at| map.original(at)),
                    None => e,
                }
            })?;
        if !numbers.entries.is_empty() {
            attach_numbers(&inner.0, self.tapes.structural_indexes(), &mut numbers);
        }
        numbers.input = (base, len);
        Ok(Tape {
            inner,
            base,
            len,
            encoding,
            numbers,
            skeleton,
        })
    }

    /// Takes back a tape's node allocation for the next [`Parser::parse`].
    pub fn recycle(&mut self, tape: Tape<'_>) {
        self.tapes.recycle(tape.inner);
    }
}

#[cold]
fn syntax_error(e: &SyntaxError, start: usize, config: &Config) -> Error {
    Error::new(ErrorKind::Syntax(e.message(config.max_depth)))
        .with_offset(e.offset().map(|at| at + start))
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

/// A parsed JSON document: simd-json's tape, whose strings borrow from the input.
///
/// Build the typed model with [`Tape::document`] (or [`Tape::plan`], [`Tape::state`],
/// [`Tape::raw_state`]); read any value untyped with [`Tape::root`].
pub struct Tape<'a> {
    inner: tfwire::json::tape::Tape<'a>,
    base: usize,
    len: usize,
    encoding: Encoding,
    numbers: Numbers,
    /// From [`Parser::parse_summary`]: the map from the compacted text's offsets back to
    /// the input's.
    skeleton: Option<crate::skeleton::Shifts>,
}

impl<'a> Tape<'a> {
    /// The whole document as an untyped value.
    pub fn root(&self) -> Json<'_> {
        Json::new(&self.inner.0, &self.numbers)
    }

    /// The input's text encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The number of tape nodes (one per JSON value and object key).
    pub fn node_count(&self) -> usize {
        self.inner.0.len()
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

    pub(crate) fn locator(&self) -> Locator {
        Locator {
            base: self.base,
            len: self.len,
        }
    }
}

impl core::fmt::Debug for Tape<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tape")
            .field("encoding", &self.encoding)
            .field("input_len", &self.len)
            .field("nodes", &self.inner.0.len())
            .finish()
    }
}

/// Finds, in JSON text, every run that may be a number value whose text an `f64` might not
/// give back exactly (16 characters or more, or beyond `f64`'s normal range), and keeps its
/// offset and text
/// in `out.entries` (offset in place of the node index, for [`attach_numbers`]). A run is a
/// digit or `-` after `:`, `,` or `[` (and whitespace), then number characters; runs inside
/// strings are kept too and dropped later (no number node starts there).
///
/// Returns whether a run is beyond `f64`'s range (simd-json refuses those).
fn long_numbers(input: &[u8], out: &mut Numbers) -> bool {
    let mut huge = false;
    let is_num = |b: u8| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
    for at in memchr::memchr3_iter(b':', b',', b'[', input) {
        let mut i = at + 1;
        while input
            .get(i)
            .is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        {
            i += 1;
        }
        if !input
            .get(i)
            .is_some_and(|&b| b == b'-' || b.is_ascii_digit())
        {
            continue;
        }
        let end = i + input[i..]
            .iter()
            .position(|&b| !is_num(b))
            .unwrap_or(input.len() - i);
        let run = &input[i..end];
        if run.len() < 16 && !short_but_inexact(run) {
            continue;
        }
        let (Ok(offset), Ok(from), Ok(text)) = (
            u32::try_from(i),
            u32::try_from(out.text.len()),
            core::str::from_utf8(run),
        ) else {
            continue;
        };
        huge |= beyond_f64(text);
        out.text.push_str(text);
        out.entries.push((offset, from, out.text.len() as u32));
    }
    huge
}

/// Whether a number written in fewer than 16 characters (so at most 15 significant digits,
/// which an `f64` holds exactly as its shortest text) still needs its text: when it has an
/// exponent that takes it beyond `f64`'s normal range (`1e400`, `1e-400`, `5e-320`).
fn short_but_inexact(run: &[u8]) -> bool {
    if !run.iter().any(|&b| b == b'e' || b == b'E') {
        return false;
    }
    let nonzero = run
        .iter()
        .take_while(|&&b| b != b'e' && b != b'E')
        .any(|&b| matches!(b, b'1'..=b'9'));
    core::str::from_utf8(run)
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .is_some_and(|x| x.is_infinite() || (nonzero && !x.is_normal()))
}

/// Whether `text` is a JSON number beyond `f64`'s range (text that is not a JSON number is
/// left for simd-json to reject).
fn beyond_f64(text: &str) -> bool {
    tfwire::json::is_number(text.as_bytes()) && text.parse::<f64>().is_ok_and(f64::is_infinite)
}

/// Overwrites each number value beyond `f64`'s range (`1e400`, a 400-digit integer) with
/// `0.0` and spaces, which simd-json reads as an `f64` node; the text kept in `numbers` is
/// what that node reads as afterwards. Runs inside strings are left alone (a scan for quotes
/// and escapes tells them apart; only done when such a run exists).
#[cold]
fn hide_huge_numbers(input: &mut [u8], numbers: &Numbers) {
    let mut quotes = memchr::memchr2_iter(b'"', b'\\', input).peekable();
    let (mut in_string, mut escaped_until) = (false, 0);
    let mut huge = Vec::new();
    for &(offset, from, to) in &numbers.entries {
        let offset = offset as usize;
        while let Some(q) = quotes.next_if(|&q| q < offset) {
            if q < escaped_until {
                continue;
            }
            if input[q] == b'\\' {
                escaped_until = q + 2;
            } else {
                in_string = !in_string;
            }
        }
        let text = &numbers.text[from as usize..to as usize];
        if !in_string && beyond_f64(text) {
            huge.push((offset, text.len()));
        }
    }
    for (offset, len) in huge {
        let run = &mut input[offset..offset + len];
        run.fill(b' ');
        run[..3].copy_from_slice(b"0.0");
    }
}

/// Replaces the offsets in `numbers.entries` by the tape indexes of the `f64` number nodes
/// that start there, dropping the rest. The nodes and the structural indexes (every value's
/// start and every `:` `,` `]` `}`) come in document order; the grammar says which
/// structural each node has, so the punctuation need not be read.
fn attach_numbers(nodes: &[Node<'_>], structurals: &[u32], numbers: &mut Numbers) {
    let candidates = core::mem::take(&mut numbers.entries);
    numbers.base = nodes.as_ptr() as usize;
    let mut next = candidates.iter().peekable();
    // Open containers: members left, and whether it is an object.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let (mut i, mut s) = (0usize, 0usize);
    while let (Some(node), Some(&offset)) = (nodes.get(i), structurals.get(s)) {
        s += 1;
        let mut done = true;
        match *node {
            Node::Array { len, .. } | Node::Object { len, .. } if len > 0 => {
                let object = matches!(node, Node::Object { .. });
                open.push((len, object));
                if object {
                    // The first key and its `:`.
                    i += 1;
                    s += 2;
                }
                done = false;
            }
            // The closing bracket of an empty container.
            Node::Array { .. } | Node::Object { .. } => s += 1,
            Node::Static(StaticNode::F64(_)) => {
                while next.next_if(|c| c.0 < offset).is_some() {}
                if let Some(&(_, from, to)) = next.next_if(|c| c.0 == offset) {
                    numbers.entries.push((i as u32, from, to));
                }
            }
            _ => {}
        }
        i += 1;
        // After a value: the `,` (then the next key and `:`) or closing bracket that
        // follows, for each container the value ends.
        while done && let Some(top) = open.last_mut() {
            s += 1;
            top.0 -= 1;
            if top.0 > 0 {
                if top.1 {
                    i += 1;
                    s += 2;
                }
                break;
            }
            open.pop();
        }
    }
}

/// Turns string addresses back into byte offsets of the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Locator {
    base: usize,
    len: usize,
}

impl Locator {
    /// The byte offset of the opening quote of a string that the tape borrowed from the
    /// input.
    pub(crate) fn str_offset(&self, s: &str) -> Option<usize> {
        let p = s.as_ptr() as usize;
        (p > self.base && p <= self.base + self.len).then(|| p - self.base - 1)
    }

    /// The byte offset of a value, when the tape knows it: a string's opening quote; for
    /// an object, its first key; for an array, its first element's offset.
    pub(crate) fn offset(&self, v: Json<'_>) -> Option<usize> {
        let mut v = v;
        loop {
            if let Some(p) = v.str_ptr() {
                return (p > self.base && p <= self.base + self.len).then(|| p - self.base - 1);
            }
            if let Some((k, _)) = v.as_object().and_then(|o| o.iter().next()) {
                return self.str_offset(k);
            }
            v = v.as_array()?.get(0)?;
        }
    }
}
