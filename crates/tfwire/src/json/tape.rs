//! simd-json's tape, the one way the workspace parses a JSON document in bulk.
//!
//! A [`TapeParser`] keeps simd-json's scratch buffers, a spare tape allocation and the node
//! offsets between documents, so a warm parser allocates nothing. tfwire's typed JSON decode
//! ([`crate::Decoder::decode_json`]), its schema loader ([`crate::schema::ProviderSchemas`])
//! and tfwire-plan's document model all parse through it; the tape's [`Node`]s are the shared
//! untyped model, and [`Decoder::decode_json_nodes`](crate::Decoder::decode_json_nodes) runs a
//! compiled [`Program`](crate::Program) over any subtree of it.
//!
//! # simd-json's features
//!
//! The workspace enables simd-json once, here (the dependency is tfwire's): no serde, runtime
//! CPU detection, SWAR number parsing, and `big-int-as-float`. The last makes an integer
//! beyond 64 bits a float node instead of a syntax error, so a plan holding one still parses;
//! no reader of the tape takes such a float's value (the typed decoder reads every float
//! node's text at its offset, the plan model keeps the text of every number an `f64` may not
//! hold). Since every crate goes through this module, `cargo test -p tfwire` and workspace
//! builds run the same code.

use simd_json::ErrorType;
pub use simd_json::StaticNode;
pub use simd_json::tape::Node;

/// The bytes simd-json reads past the end of the input: a buffer handed to
/// [`TapeParser::parse`] holds the document and then this many more bytes.
pub const INPUT_PADDING: usize = simd_json::INPUT_PADDING;

/// The deepest nesting simd-json accepts by default (1024).
pub const DEFAULT_MAX_DEPTH: usize = simd_json::DEFAULT_MAX_DEPTH;

/// A parsed document: the tape's nodes, the first the root.
pub type Tape<'a> = simd_json::tape::Tape<'a>;

/// What the typed decoder needs of a tape besides its nodes: where each node stands, and
/// the exact text of its numbers (see
/// [`Decoder::decode_json_nodes`](crate::Decoder::decode_json_nodes)).
///
/// Node indexes count from the first node handed to the decoder.
pub trait TapeText<'a> {
    /// The byte offset of node `node` in the document, for errors; `node` may be the number
    /// of nodes (the end).
    fn offset(&self, node: usize) -> usize;

    /// The exact text of the number node `node` (RFC 8259 grammar): the decoder reads every
    /// number it does not take as a 64-bit integer from it.
    fn number_text(&self, node: usize) -> &'a str;

    /// The document the nodes were parsed from, if at hand: the type JSON of a dynamic
    /// value is then read from it (with the byte-wise reader's exact error offsets), not
    /// from the tape. `None` by default.
    fn text(&self) -> Option<&'a [u8]> {
        None
    }
}

impl<'a, T: TapeText<'a> + ?Sized> TapeText<'a> for &T {
    fn offset(&self, node: usize) -> usize {
        (**self).offset(node)
    }

    fn number_text(&self, node: usize) -> &'a str {
        (**self).number_text(node)
    }

    fn text(&self) -> Option<&'a [u8]> {
        (**self).text()
    }
}

/// Parses JSON documents into simd-json tapes, reusing its buffers.
///
/// ```
/// use tfwire::json::tape::{INPUT_PADDING, Node, TapeParser};
/// let mut parser = TapeParser::new(64);
/// let text = br#"{"a":[1,2.50]}"#;
/// let mut buf = text.to_vec();
/// buf.resize(text.len() + INPUT_PADDING, b' ');
/// let tape = parser.parse(&mut buf, text.len()).unwrap();
/// assert!(matches!(tape.0[0], Node::Object { len: 1, count: 4 }));
/// // The byte offset of every node (here of the number 2.50) while the parser holds them.
/// let offsets = parser.node_offsets(text);
/// assert_eq!(offsets[4], 8);
/// parser.recycle(tape);
/// ```
pub struct TapeParser {
    buffers: simd_json::Buffers,
    spare: Option<Tape<'static>>,
    offsets: Vec<u32>,
}

impl core::fmt::Debug for TapeParser {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TapeParser").finish_non_exhaustive()
    }
}

impl Default for TapeParser {
    fn default() -> TapeParser {
        TapeParser::new(DEFAULT_MAX_DEPTH)
    }
}

impl TapeParser {
    /// A parser that rejects nesting deeper than `max_depth`. Its buffers grow to the largest
    /// document parsed.
    pub fn new(max_depth: usize) -> TapeParser {
        TapeParser {
            buffers: simd_json::Buffers::with_max_depth(0, max_depth),
            spare: None,
            offsets: Vec::new(),
        }
    }

    /// Parses `buf[..len]` in place (strings are unescaped where they stand; number bytes are
    /// never rewritten) into a tape whose strings borrow `buf`. `buf` must hold at least
    /// `len + INPUT_PADDING` bytes.
    ///
    /// # Errors
    ///
    /// The [`SyntaxError`] simd-json found (also when `buf` is too short).
    pub fn parse<'a>(&mut self, buf: &'a mut [u8], len: usize) -> Result<Tape<'a>, SyntaxError> {
        let mut tape = self
            .spare
            .take()
            .map_or_else(|| simd_json::tape::Tape(Vec::new()), Tape::reset);
        if buf.len() < len + INPUT_PADDING {
            return Err(SyntaxError {
                error: None,
                index: len,
                container: false,
            });
        }
        let container = matches!(
            buf[..len].iter().find(|b| !b.is_ascii_whitespace()),
            Some(b'{' | b'[')
        );
        match simd_json::fill_tape_padded(buf, len, &mut self.buffers, &mut tape) {
            Ok(()) => Ok(tape),
            Err(e) => {
                self.spare = Some(tape.reset());
                Err(SyntaxError {
                    index: e.index().min(len),
                    error: Some(e),
                    container,
                })
            }
        }
    }

    /// Takes back a tape's node allocation for the next [`TapeParser::parse`].
    pub fn recycle(&mut self, tape: Tape<'_>) {
        self.spare = Some(tape.reset());
    }

    /// The byte offset of every node of the tape last parsed, in tape order, given the text
    /// it was parsed from (before its strings were unescaped: any copy of it, or the buffer
    /// itself where no string had an escape). Computed on each call; the vector is reused.
    pub fn node_offsets(&mut self, input: &[u8]) -> &[u32] {
        let n = node_offsets(input, self.buffers.structural_indexes(), &mut self.offsets);
        &self.offsets[..n]
    }

    /// simd-json's structural indexes of the document last parsed: the byte offset of every
    /// bracket, colon, comma, string and scalar, in document order (the input for
    /// [`TapeParser::node_offsets`], for a caller that no longer holds the text).
    pub fn structural_indexes(&self) -> &[u32] {
        self.buffers.structural_indexes()
    }
}

/// Fills `offsets` with the byte offset of every tape node: the structural indexes that
/// open a value (strings, scalars, `[`, `{`).
///
/// Branch-free (every index is written, and kept by advancing past it only when it opens a
/// value): which structurals are punctuation follows the document, so a filter's branch is
/// mispredicted often, and this loop took a third of the time of simd-json's own second stage.
///
/// The offsets are the first `n` entries of `offsets` (`n` returned); the vector only ever
/// grows, so a warm decoder neither allocates nor zero-fills it.
fn node_offsets(input: &[u8], structurals: &[u32], offsets: &mut Vec<u32>) -> usize {
    /// Bytes that open a value (`true`); punctuation (`:` `,` `]` `}`) does not.
    const OPENS: [bool; 256] = {
        let mut t = [true; 256];
        t[b':' as usize] = false;
        t[b',' as usize] = false;
        t[b']' as usize] = false;
        t[b'}' as usize] = false;
        t
    };
    if offsets.len() < structurals.len() {
        offsets.resize(structurals.len(), 0);
    }
    let mut n = 0;
    for &i in structurals {
        offsets[n] = i;
        // simd-json's last structural index may be the end of the input: not a value.
        n += usize::from(input.get(i as usize).is_some_and(|&b| OPENS[b as usize]));
    }
    n
}

/// A document simd-json rejected: what it found, where.
#[derive(Debug)]
pub struct SyntaxError {
    /// What simd-json found; `None` for a buffer too short for the document.
    error: Option<simd_json::Error>,
    /// Where, at most the document's length.
    index: usize,
    /// Whether the document starts with `[` or `{` (after white space).
    container: bool,
}

impl SyntaxError {
    /// The message, in the words every tfwire JSON reader uses (never simd-json's own
    /// `Debug` names); `max_depth` is the depth the parser was given.
    #[cold]
    pub fn message(&self, max_depth: usize) -> String {
        match &self.error {
            Some(e) => super::shape::syntax_message(e.error(), e.character(), max_depth),
            None => format!("the buffer holds fewer than {INPUT_PADDING} bytes after the document"),
        }
    }

    /// The byte offset simd-json reported, if it points at the fault: `None` where it does
    /// not (no value at all, invalid UTF-8 somewhere, and byte 0 of a document that starts
    /// with a container, which simd-json reports for faults found in its second stage).
    pub fn offset(&self) -> Option<usize> {
        match self.error.as_ref().map(simd_json::Error::error) {
            Some(ErrorType::NoStructure | ErrorType::InvalidUtf8) => None,
            _ if self.index == 0 && self.container => None,
            _ => Some(self.index),
        }
    }

    /// The offset simd-json reported, as it is (see [`SyntaxError::offset`]), at most the
    /// document's length.
    pub fn raw_offset(&self) -> usize {
        self.index
    }

    /// The 1-based line and column of [`SyntaxError::offset`] in `input`, when there is one.
    pub fn line_column(&self, input: &[u8]) -> Option<(usize, usize)> {
        self.offset().map(|at| crate::line_column(input, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &[u8]) -> SyntaxError {
        let mut buf = text.to_vec();
        buf.resize(text.len() + INPUT_PADDING, b' ');
        TapeParser::default()
            .parse(&mut buf, text.len())
            .unwrap_err()
    }

    #[test]
    fn syntax_errors_have_a_place() {
        let text = b"{\"a\":\n  [1, ]}";
        let e = parse_err(text);
        assert!(!e.message(DEFAULT_MAX_DEPTH).is_empty());
        let (line, _) = e.line_column(text).unwrap();
        assert_eq!(line, 2);
        // Too short a buffer is an error, not a read past its end.
        let mut short = b"[1]".to_vec();
        assert!(TapeParser::default().parse(&mut short, 3).is_err());
        // Nothing to parse: a message, at the end.
        let e = parse_err(b"");
        assert!(!e.message(DEFAULT_MAX_DEPTH).is_empty());
        assert!(e.offset().is_none_or(|at| at == 0));
    }

    #[test]
    fn a_warm_parser_reuses_its_tape() {
        let mut p = TapeParser::default();
        for text in [&b"[1,\"x\",{\"k\":null}]"[..], b"{}", b"[[],[[]]]"] {
            let mut buf = text.to_vec();
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let tape = p.parse(&mut buf, text.len()).unwrap();
            let n = tape.0.len();
            p.recycle(tape);
            assert_eq!(p.node_offsets(text).len(), n);
        }
    }
}
