//! simd-json's tape, the one way the workspace parses a JSON document in bulk.
//!
//! A [`TapeParser`] keeps simd-json's scratch buffers, a spare tape allocation and the node
//! offsets between documents, so a warm parser allocates nothing. tfwire's typed JSON decode
//! (`Decoder::decode_json`), its schema loader and tfwire-plan's document model all parse
//! through it; the tape's [`Node`]s are the shared untyped model, and tfwire's
//! `Decoder::decode_json_nodes` runs a compiled program over any subtree of it.
//!
//! # simd-json's features
//!
//! The workspace enables simd-json once, here (the dependency is this crate's): no serde, runtime
//! CPU detection, SWAR number parsing, and `big-int-as-float`. The last makes an integer
//! beyond 64 bits a float node instead of a syntax error, so a plan holding one still parses;
//! no reader of the tape takes such a float's value where it may be inexact (every number's
//! text is read at its node's offset: [`TapeText::number_text`], [`Document::number_text`]).
//! A number beyond `f64`'s range (`1e400`) is still simd-json's syntax error; a
//! [`Document`] sets such numbers aside before parsing ([`TapeParser::parse_document`]).
//! Since every crate goes through this module, `cargo test -p tfwire-json` and workspace
//! builds run the same code.

use crate::error::{Error, ErrorKind};
use core::sync::atomic::{AtomicU64, Ordering};
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
/// the exact text of its numbers (see tfwire's `Decoder::decode_json_nodes`).
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
/// use tfwire_json::tape::{INPUT_PADDING, Node, TapeParser};
/// let mut parser = TapeParser::new(64);
/// let text = br#"{"a":[1,2.50]}"#;
/// let mut buf = text.to_vec();
/// buf.resize(text.len() + INPUT_PADDING, b' ');
/// let tape = parser.parse(&mut buf, text.len()).unwrap();
/// assert!(matches!(tape.0[0], Node::Object { len: 1, count: 4 }));
/// parser.recycle(tape);
/// // With byte offsets and numbers' exact text: a document (here the number 2.50, node 4).
/// let mut buf = text.to_vec();
/// buf.resize(text.len() + INPUT_PADDING, b' ');
/// let shape = tfwire_json::json_shape(text, 64, usize::MAX).unwrap();
/// let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
/// assert_eq!((doc.offset(4), doc.number_text(4)), (8, "2.50"));
/// parser.recycle_document(doc);
/// ```
pub struct TapeParser {
    buffers: simd_json::Buffers,
    spare: Option<Tape<'static>>,
    max_depth: usize,
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
            max_depth,
        }
    }

    /// Parses `buf[..len]` in place (strings are unescaped where they stand; number bytes are
    /// never rewritten) into a tape whose strings borrow `buf`. `buf` must hold at least
    /// `len + INPUT_PADDING` bytes.
    ///
    /// # Errors
    ///
    /// What simd-json found (also when `buf` is too short): [`ErrorKind::Syntax`] at the
    /// offending byte, or [`ErrorKind::UnplacedSyntax`] where simd-json names no place (no
    /// value at all, invalid UTF-8 somewhere, and byte 0 of a document that starts with a
    /// container, which simd-json reports for faults found in its second stage).
    pub fn parse<'a>(&mut self, buf: &'a mut [u8], len: usize) -> Result<Tape<'a>, Error> {
        fill(&mut self.buffers, &mut self.spare, self.max_depth, buf, len)
    }

    /// Parses `buf[..len]` in place into a [`Document`]: the tape, and the exact text of
    /// every number, with no copy of the input. `shape` is what
    /// [`json_shape`](crate::json_shape) found in `buf[..len]` (the caller runs it first, to
    /// refuse a document too deep or too large before anything is allocated).
    ///
    /// No offset is computed while parsing: the document finds a node's byte offset when
    /// asked ([`Document::offset`]; for errors and for the text of numbers), a string's from
    /// where its slice lies in the buffer, any other node's by reading the numbers,
    /// literals and punctuation between it and the last node found or the next string (no
    /// per-node array, and simd-json's structural indexes are not kept).
    ///
    /// Numbers beyond `f64`'s range (`1e400`, a 400-digit integer), which simd-json refuses,
    /// are handled here, once for the workspace: when `shape` says the document may hold one,
    /// each such number is set aside (its text kept by the document) and overwritten in
    /// `buf` with `0.0` and spaces before simd-json runs, so the document parses and
    /// [`Document::number_text`] still gives the number as written. (tfwire's
    /// `Decoder::decode_json`, which parses a copy of its
    /// input, needs no such step: a tape it cannot build sends it to the byte-wise reader,
    /// which reads every number as text.)
    ///
    /// `buf` must hold at least `len + INPUT_PADDING` bytes. Afterwards `buf[..len]` holds
    /// the document with its strings unescaped in place (see [`TapeParser::parse`]).
    ///
    /// ```
    /// use tfwire_json::tape::{INPUT_PADDING, Node, TapeParser};
    /// let text = br#"{"a":[0.10,1e400],"b":"x"}"#;
    /// let mut buf = text.to_vec();
    /// buf.resize(text.len() + INPUT_PADDING, b' ');
    /// let shape = tfwire_json::json_shape(text, 64, usize::MAX).unwrap();
    /// let mut parser = TapeParser::default();
    /// let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
    /// assert!(matches!(doc.nodes()[3], Node::Static(_)));
    /// assert_eq!((doc.offset(3), doc.number_text(3)), (6, "0.10"));
    /// assert_eq!((doc.offset(4), doc.number_text(4)), (11, "1e400"));
    /// assert_eq!(doc.offset(6), 22);
    /// parser.recycle_document(doc);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TapeParser::parse`].
    #[allow(unsafe_code)]
    pub fn parse_document<'a>(
        &mut self,
        buf: &'a mut [u8],
        len: usize,
        shape: &crate::shape::JsonShape,
    ) -> Result<Document<'a>, Error> {
        let mut wide = Vec::new();
        let mut wide_text = String::new();
        if shape.wide_numbers && len <= buf.len() {
            set_aside_wide_numbers(&mut buf[..len], &mut wide, &mut wide_text);
        }
        let size = buf.len();
        let ptr = buf.as_mut_ptr();
        // SAFETY: `ptr` and `size` are those of `buf`, which is borrowed for `'a`; the
        // mutable slice made here is the only one used from now on (`buf` itself is not
        // used again) and is given to simd-json, which writes unescaped strings through it
        // and returns; the tape keeps only shared `&'a str`s into it.
        // Exercised by: `tape::tests` (documents_know_every_offset_and_number_text,
        // documents_agree_with_a_reading_of_the_text), the plan/state corpus harness of
        // tfwire-plan, and the schema loader's tests; run under Miri as the report and
        // `benches/README.md` say.
        let parse_buf: &'a mut [u8] = unsafe { core::slice::from_raw_parts_mut(ptr, size) };
        let tape = fill(
            &mut self.buffers,
            &mut self.spare,
            self.max_depth,
            parse_buf,
            len,
        )?;
        // SAFETY: from here on, for all of `'a`, nothing writes to the buffer (the mutable
        // slice above was consumed by `fill`, and the tape's strings are shared), so a
        // shared view of its first `len` bytes aliases only shared borrows. The view reads
        // numbers and punctuation, which simd-json never rewrites, and opening quotes; it
        // is made from `ptr`, the pointer the strings' slice was derived from. Why not safe
        // code: the text must be read after parsing (numbers' texts and offsets), and the
        // safe ways are a copy of the whole document (what the typed decode does; a plan
        // reader would hold the input twice) or a pre-scan copying number texts out before
        // parsing (it costs a second pass over the whole text).
        // Exercised by the same tests as the slice above.
        let text: &'a [u8] = unsafe { core::slice::from_raw_parts(ptr.cast_const(), len) };
        Ok(Document {
            tape,
            loc: Locator::new(text, ptr as usize, &[]),
            wide,
            wide_text,
        })
    }

    /// Takes back a [`Document`]'s tape for the next parse.
    pub fn recycle_document(&mut self, doc: Document<'_>) {
        self.spare = Some(doc.tape.reset());
    }

    /// Takes back a tape's node allocation for the next [`TapeParser::parse`].
    pub fn recycle(&mut self, tape: Tape<'_>) {
        self.spare = Some(tape.reset());
    }

    /// simd-json's structural indexes of the document last parsed: the byte offset of every
    /// bracket, colon, comma, string and scalar, in document order.
    pub fn structural_indexes(&self) -> &[u32] {
        self.buffers.structural_indexes()
    }
}

/// Parses `buf[..len]` into a tape with `buffers` (see [`TapeParser::parse`]), taking the
/// tape's allocation from `spare` (and giving it back on an error).
fn fill<'a>(
    buffers: &mut simd_json::Buffers,
    spare: &mut Option<Tape<'static>>,
    max_depth: usize,
    buf: &'a mut [u8],
    len: usize,
) -> Result<Tape<'a>, Error> {
    let mut tape = spare
        .take()
        .map_or_else(|| simd_json::tape::Tape(Vec::new()), Tape::reset);
    if buf.len() < len + INPUT_PADDING {
        *spare = Some(tape.reset());
        return Err(Error::new(
            ErrorKind::Syntax(format!(
                "the buffer holds fewer than {INPUT_PADDING} bytes after the document"
            )),
            len,
        ));
    }
    let container = matches!(
        buf[..len].iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    );
    match simd_json::fill_tape_padded(buf, len, buffers, &mut tape) {
        Ok(()) => Ok(tape),
        Err(e) => {
            *spare = Some(tape.reset());
            Err(syntax_error(&e, len, container, max_depth))
        }
    }
}

/// A JSON document parsed in place by [`TapeParser::parse_document`]: its tape, simd-json's
/// structural indexes, and the buffer's text. The one way the workspace maps a tape node
/// back to its text: byte offsets ([`Document::offset`]) and the exact text of numbers
/// ([`Document::number_text`], read with the workspace's one number grammar) are found when
/// asked, never for every node (the document holds no per-node array besides the tape).
pub struct Document<'a> {
    tape: Tape<'a>,
    /// Offsets and number texts, read from the parse buffer's document bytes (no
    /// structural index kept: see [`Locator`]).
    loc: Locator<'a, 'static>,
    /// Numbers beyond `f64`'s range, set aside before parsing: their offset, then the
    /// range of their text in `wide_text`; sorted by offset.
    wide: Vec<(u32, u32, u32)>,
    wide_text: String,
}

impl core::fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Document")
            .field("nodes", &self.tape.0.len())
            .field("len", &self.loc.text().len())
            .finish_non_exhaustive()
    }
}

impl<'a> Document<'a> {
    /// An empty document (no nodes), for values that stand on their own (a constant
    /// `null`).
    pub const fn empty() -> Document<'static> {
        Document {
            tape: simd_json::tape::Tape(Vec::new()),
            loc: Locator::new(&[], 0, &[]),
            wide: Vec::new(),
            wide_text: String::new(),
        }
    }

    /// The tape's nodes, the first the root.
    pub fn nodes(&self) -> &[Node<'a>] {
        &self.tape.0
    }

    /// The byte offset of node `node` in the document; the document's length for `node`
    /// past the last node.
    ///
    /// A string's offset is found at once (from where its slice lies in the buffer); any
    /// other node's by reading the text between it and the last node found, or back from
    /// the next string's opening quote (the workspace's one offset mechanism, `Locator`).
    #[inline]
    pub fn offset(&self, node: usize) -> usize {
        self.loc.offset(&self.tape.0, node)
    }

    /// The index of `node`, a reference into [`Document::nodes`] (`None` for a node of
    /// another tape).
    #[inline]
    pub fn index_of(&self, node: &Node<'_>) -> Option<usize> {
        let at = (node as *const Node<'_> as usize).wrapping_sub(self.tape.0.as_ptr() as usize)
            / core::mem::size_of::<Node<'_>>();
        (at < self.tape.0.len()).then_some(at)
    }

    /// The exact text of the number node `node`, as the document wrote it (RFC 8259
    /// grammar); empty for a node that is not a number.
    pub fn number_text(&self, node: usize) -> &str {
        if !self.wide.is_empty() {
            let at = self.offset(node);
            if let Ok(k) = self.wide.binary_search_by_key(&at, |w| w.0 as usize) {
                let (_, from, to) = self.wide[k];
                return &self.wide_text[from as usize..to as usize];
            }
        }
        self.loc.number_text(&self.tape.0, node)
    }

    /// The offsets and number texts of the subtree whose first node is `first`, for tfwire's
    /// `Decoder::decode_json_nodes` over it.
    pub fn subtree(&self, first: usize) -> Subtree<'_> {
        Subtree { doc: self, first }
    }
}

/// A subtree of a [`Document`] as [`TapeText`] (see [`Document::subtree`]): node indexes
/// count from its first node.
#[derive(Clone, Copy, Debug)]
pub struct Subtree<'d> {
    doc: &'d Document<'d>,
    first: usize,
}

impl<'d> TapeText<'d> for Subtree<'d> {
    #[inline]
    fn offset(&self, node: usize) -> usize {
        self.doc.offset(self.first + node)
    }

    #[inline]
    fn number_text(&self, node: usize) -> &'d str {
        self.doc.number_text(self.first + node)
    }
}

/// The workspace's one way from a tape node to its byte offset in the text it was parsed
/// from (and so to a number's exact text): [`Document`] (the plan reader's tape) and the
/// typed decoder's tape source both ask it, lazily, only for the nodes that need it (floats'
/// texts, errors, dynamic values' types).
///
/// # How a node is found
///
/// - A **string**'s offset is where its slice lies: simd-json unescapes in place, one byte
///   after the opening quote, which it never moves (checked: the byte there must be `"`).
/// - Any **other node** is counted to from the last node found (the cursor), or from a
///   string node near it. Between two strings there are only numbers, literals, brackets,
///   punctuation and white space, so the count is exact. It steps over simd-json's
///   structural indexes that open a value (`opens_value`) when the caller still holds them
///   (the typed decode: the parser's buffers), else over the text itself (the plan reader,
///   whose memory budget has no room for the index: 4 bytes per structural, kept as long
///   as the document).
///
/// # Why two steps behind one door
///
/// Both steps give the same offsets (`tests::the_locator_finds_every_node`, against a
/// reference computed from the text alone). They are not merged into one because a text
/// step cannot be made as cheap as the index step on numbers: stepping over an integer in
/// the text reads every byte of it (up to 20 digits and a separator), the index step reads
/// two `u32`s whatever the integer's length. Measured (callgrind, typed JSON decode of
/// numbers-1m, per decode): 79.9 M instructions with the index step, 112 M when the typed
/// decoder stepped over the text; the text step here (a byte-class table, the
/// cursor kept at the end of the last number read, no tape scan before stepping) is
/// measured in `benches/README.md` (the section on the one offset mechanism). So the index is used
/// where it costs nothing to keep, and the text where keeping it would cost memory; the
/// string rule, the cursor, the bounds and the number text are one code path.
pub struct Locator<'a, 's> {
    /// The document's bytes: numbers and punctuation as written, and the strings' opening
    /// quotes (strings themselves may be unescaped in place: never read from here).
    text: &'a [u8],
    /// The address of the buffer simd-json parsed (the text itself, or a copy of it).
    base: usize,
    /// simd-json's structural indexes for the text, or empty (step over the text).
    structurals: &'s [u32],
    /// Where the last search stopped, `n << 32 | i`. With structural indexes: `n` nodes
    /// start before structural index `i`. Over the text: node `n` starts at byte `i`, or
    /// (the high bit of `i` set) ends at byte `i` (a number whose text was read).
    /// `u64::MAX`: none yet (over the text). Atomic (relaxed: plain loads and stores) only so that a
    /// [`Document`] stays `Sync`; every value stored is a true pair, so a race costs time,
    /// never a wrong offset.
    cursor: AtomicU64,
}

/// The cursor's mark for "the node ends here" (over the text).
const ENDS: usize = 1 << 31;

impl<'a, 's> Locator<'a, 's> {
    /// A locator over `text`, parsed by simd-json at address `base` (strings unescaped
    /// there in place), with the parse's structural indexes if the caller holds them.
    pub const fn new(text: &'a [u8], base: usize, structurals: &'s [u32]) -> Self {
        Locator {
            text,
            base,
            structurals,
            // Over the index, counting may always start at node 0, structural 0.
            cursor: AtomicU64::new(if structurals.is_empty() { u64::MAX } else { 0 }),
        }
    }

    /// The text the offsets index.
    #[inline]
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The byte offset of node `node` of `nodes` (the tape parsed from the text); the
    /// text's length for `node` past the last node.
    #[inline]
    pub fn offset(&self, nodes: &[Node<'_>], node: usize) -> usize {
        if node >= nodes.len() {
            return self.text.len();
        }
        match self.string_offset(nodes, node) {
            Some(at) => at,
            None => match self.after_string(nodes, node) {
                Some(at) => at,
                None if self.structurals.is_empty() => self.text_offset(nodes, node),
                None => self.index_offset(nodes, node),
            },
        }
    }

    /// The offset of node `node` (not a string) when the node before it is a string
    /// followed, in the text, by a `:` or a `,`: an object's value after its key, or an
    /// array's element after a string element. The node starts after that separator.
    /// The string's closing quote is found without a search when the string had no
    /// escape: its unescaped length is then its length in the text, and a quote there
    /// not preceded by a backslash can only be the closing one (a quote inside a string is
    /// always escaped). `None` otherwise (the caller counts structurals).
    #[inline]
    fn after_string(&self, nodes: &[Node<'_>], node: usize) -> Option<usize> {
        let Some(Node::String(s)) = nodes.get(node.checked_sub(1)?) else {
            return None;
        };
        let open = self.string_offset(nodes, node - 1)?;
        let close = open + 1 + s.len();
        if self.text.get(close) != Some(&b'"') || (!s.is_empty() && self.text[close - 1] == b'\\') {
            return None;
        }
        let sep = crate::scan::skip_ws(self.text, close + 1);
        match self.text.get(sep) {
            Some(b':' | b',') => Some(crate::scan::skip_ws(self.text, sep + 1)),
            _ => None,
        }
    }

    /// The exact text of the number node `node` (RFC 8259 grammar, read with
    /// [`crate::scan`]); empty for a node that is not a number. The cursor is left at the
    /// number's end, so the next number asked for (the next float of a list) is counted to
    /// from there.
    #[inline]
    pub fn number_text(&self, nodes: &[Node<'_>], node: usize) -> &'a str {
        let at = self.offset(nodes, node);
        // (`Err` only for a node that is not a number: its text is then empty.)
        let end = crate::scan::number_end(self.text, at).unwrap_or(at);
        if self.structurals.is_empty() && end > at && end < ENDS {
            self.remember(node, end | ENDS);
        }
        // The number grammar is ASCII (`utf8` checks that first).
        crate::utf8::utf8(&self.text[at..end]).unwrap_or("")
    }

    /// The position in simd-json's structural indexes of node `node`, an array (or any node
    /// that is not a string), found as [`Locator::offset`] finds its offset; `None` when the
    /// locator steps over the text (it holds no index) or for a string node.
    ///
    /// In an array whose elements are all scalars (numbers, strings, `true`, `false`,
    /// `null`), element `j` is structural `i + 1 + 2 j` (each scalar is one structural, each
    /// followed by a `,` or the `]`): see [`Locator::scalar_pairs`].
    pub fn structural_index(&self, nodes: &[Node<'_>], node: usize) -> Option<usize> {
        if self.structurals.is_empty()
            || node >= nodes.len()
            || matches!(nodes[node], Node::String(_))
        {
            return None;
        }
        let at = self.index_offset(nodes, node);
        let i = (self.cursor.load(Ordering::Relaxed) & 0xFFFF_FFFF) as usize;
        (self.structurals.get(i).map(|&s| s as usize) == Some(at)).then_some(i)
    }

    /// The structurals of the `n` elements of the array at structural `i` (from
    /// [`Locator::structural_index`]), a pair for each: where the element starts, and the
    /// `,` or `]` after it. Exact while the elements before are scalars (numbers, strings,
    /// `true`, `false`, `null`: one structural each, each followed by a `,` or the `]`): a
    /// caller reads the pairs in order and stops at the first element that is not one.
    /// `None` past the index's end (or without an index).
    #[inline]
    pub fn scalar_pairs(&self, i: usize, n: usize) -> Option<&'s [[u32; 2]]> {
        let len = n.checked_mul(2)?;
        let run = self.structurals.get(i.checked_add(1)?..)?.get(..len)?;
        Some(run.as_chunks::<2>().0)
    }

    /// The exact text of the scalar number whose structural pair is `pair` (from
    /// [`Locator::scalar_pairs`]): the bytes from its start up to the next structural, white
    /// space after it left out, when they are a number of the RFC 8259 grammar; `None`
    /// otherwise. Reads the number's own bytes, not the structurals before it.
    #[inline]
    pub fn scalar_number_text(&self, [at, next]: [u32; 2]) -> Option<&'a str> {
        let (at, mut end) = (at as usize, next as usize);
        let text = self.text.get(at..end)?;
        if !matches!(text.first(), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        while end > at && matches!(self.text[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
            end -= 1;
        }
        let text = &self.text[at..end];
        // simd-json checked the grammar of the number it parsed here; that it is the whole
        // of these bytes is checked again (cheaply) only in debug builds.
        debug_assert_eq!(crate::scan::number_end(self.text, at), Ok(end));
        crate::utf8::utf8(text)
    }

    /// The text of the scalar number whose structural pair is `pair` (as
    /// [`Locator::scalar_number_text`]) when it is a decimal with a point and without an
    /// exponent, of 8 to 64 bytes, ending in a digit (no white space before the next
    /// structural); `None` for any other (the caller reads it with
    /// [`Locator::scalar_number_text`]). Meant for a node simd-json parsed as a float: its
    /// bytes are then a number of the JSON grammar, so one look at each of its words answers
    /// all: a byte with bit `0x40` or `0x80` is an exponent (`e`, `E`) or not ASCII, and after
    /// the first byte (a digit or `-`), one without bit `0x10` that is neither is the point
    /// (digits have it; white space cannot come before the last byte, a digit). The words are
    /// the first eight bytes, the last eight (overlapping) and those between, each looked at
    /// behind a test of the length (no loop: at most eight words).
    #[inline]
    #[allow(unsafe_code)]
    pub fn scalar_decimal(&self, [at, next]: [u32; 2]) -> Option<&'a str> {
        use crate::swar::{load, splat};
        let t = self.text.get(at as usize..next as usize)?;
        let n = t.len();
        if !(8..=64).contains(&n) {
            return None;
        }
        let (first, last) = (load(t, 0), load(t, n - 8));
        if !matches!(first as u8, b'-' | b'0'..=b'9') || !((last >> 56) as u8).is_ascii_digit() {
            return None;
        }
        // `all`: the bytes' common bits (bit `0x10` clear in one of them: a point); `any`:
        // every bit of any byte (`0xc0`: an exponent, or not ASCII). The first byte's `0x10`
        // set, in both words that hold it: a leading `-` is not a point.
        let first = first | 0x10;
        let mut all = first & (last | (u64::from(n == 8) * 0x10));
        let mut any = first | last;
        for k in [8, 16, 24, 32, 40, 48] {
            if k + 8 >= n {
                break;
            }
            let w = load(t, k);
            all &= w;
            any |= w;
        }
        if any & splat(0xc0) != 0 || all & splat(0x10) == splat(0x10) {
            return None;
        }
        // SAFETY: every byte of `t` was in a word tested above (bytes `0..8`, `n-8..n` and
        // every `k..k+8` with `k + 8 < n`), and none has its high bit (`any & 0x80 == 0`):
        // `t` is ASCII, so valid UTF-8. Measured: the walk over `icount`'s
        // json_decode/numbers-1m takes 5.36 M instructions, 6.93 M with `utf8::utf8` here
        // (its test again, out of line), 11.1 M with `core::str::from_utf8`. Checked by
        // `tests::scalar_decimal_refuses_what_is_not_a_plain_decimal` and tfwire's
        // `json::arrays_of_numbers_read_alike_by_both_readers`.
        Some(unsafe { core::str::from_utf8_unchecked(t) })
    }

    /// The offset of the opening quote of the string node `node`, if it is one.
    #[inline]
    fn string_offset(&self, nodes: &[Node<'_>], node: usize) -> Option<usize> {
        let Some(Node::String(s)) = nodes.get(node) else {
            return None;
        };
        let at = (s.as_ptr() as usize)
            .wrapping_sub(self.base)
            .wrapping_sub(1);
        (self.text.get(at) == Some(&b'"')).then_some(at)
    }

    /// Stores the cursor (`node`, `at`); a pair beyond 32 bits each is not kept.
    #[inline]
    fn remember(&self, node: usize, at: usize) {
        if let (Ok(n), Ok(i)) = (u32::try_from(node), u32::try_from(at)) {
            self.cursor
                .store((u64::from(n) << 32) | u64::from(i), Ordering::Relaxed);
        }
    }

    /// A node that is not a string, by counting structural indexes that open a value,
    /// forward from the cursor, or from the nearest string node within 64 before it
    /// (found in the index by binary search) when that is closer.
    #[inline]
    fn index_offset(&self, nodes: &[Node<'_>], node: usize) -> usize {
        let packed = self.cursor.load(Ordering::Relaxed);
        let (mut n, mut i) = ((packed >> 32) as usize, (packed & 0xFFFF_FFFF) as usize);
        if node < n {
            (n, i) = (0, 0);
        }
        if node - n > 64
            && let Some((j, at)) = (node - 64..node)
                .rev()
                .find_map(|j| Some((j, self.string_offset(nodes, j)?)))
            && let Ok(k) = self.structurals.binary_search(&(at as u32))
        {
            (n, i) = (j, k);
        }
        while let Some(&at) = self.structurals.get(i) {
            if opens_value(self.text, at) {
                if n == node {
                    // Both fit in 32 bits: simd-json indexes its input (and so its
                    // structurals and nodes, fewer than its bytes) with `u32`s.
                    self.cursor
                        .store(((n as u64) << 32) | i as u64, Ordering::Relaxed);
                    return at as usize;
                }
                n += 1;
            }
            i += 1;
        }
        self.text.len()
    }

    /// A node that is not a string, by reading the text: forward from the cursor (where no
    /// string lies between: a quote stops the step), else back from the next string's
    /// opening quote (or the end of the text).
    #[cold]
    #[inline(never)]
    fn text_offset(&self, nodes: &[Node<'_>], node: usize) -> usize {
        let packed = self.cursor.load(Ordering::Relaxed);
        let (k, at) = ((packed >> 32) as usize, (packed & 0xFFFF_FFFF) as usize);
        let forward = if packed == u64::MAX || k > node {
            None
        } else if at & ENDS != 0 {
            // Node `k` ends at `at`: the next value starts after the separators.
            let next = skip_separators(self.text, at & !ENDS);
            if k == node {
                starts_backward(self.text, at & !ENDS, 1)
            } else {
                next.and_then(|next| starts_forward(self.text, next, node - k - 1))
            }
        } else {
            starts_forward(self.text, at, node - k)
        };
        let found = forward.or_else(|| {
            // The next string after the node, or the end.
            let (m, end) = (node + 1..nodes.len())
                .find_map(|m| Some((m, self.string_offset(nodes, m)?)))
                .unwrap_or((nodes.len(), self.text.len()));
            starts_backward(self.text, end, m - node)
        });
        match found {
            Some(at) => {
                if at < ENDS {
                    self.remember(node, at);
                }
                at
            }
            None => self.text.len(),
        }
    }
}

/// Byte classes of text between strings: 1 a separator (white space, `,` `:` `]` `}`), 2 a
/// bracket that opens a value, 3 a quote (a string: the text step stops), 0 anything else
/// (inside a number or a literal).
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let seps = *b" \t\n\r,:]}";
    let mut i = 0;
    while i < seps.len() {
        t[seps[i] as usize] = 1;
        i += 1;
    }
    t[b'[' as usize] = 2;
    t[b'{' as usize] = 2;
    t[b'"' as usize] = 3;
    t
};

/// The first byte from `at` that is not a separator; `None` at a quote or the end.
#[inline]
fn skip_separators(text: &[u8], mut at: usize) -> Option<usize> {
    loop {
        match CLASS[*text.get(at)? as usize] {
            1 => at += 1,
            3 => return None,
            _ => return Some(at),
        }
    }
}

/// The start of the `count`-th value after the one starting at `at`, if no string lies
/// between (`None` at a quote or the end of the text).
#[inline]
fn starts_forward(text: &[u8], mut at: usize, count: usize) -> Option<usize> {
    for _ in 0..count {
        // Past the value at `at`: a bracket, or a number or literal.
        match CLASS[*text.get(at)? as usize] {
            2 => at += 1,
            3 => return None,
            _ => {
                at += 1;
                while text.get(at).is_some_and(|&b| CLASS[b as usize] == 0) {
                    at += 1;
                }
            }
        }
        at = skip_separators(text, at)?;
    }
    (CLASS[*text.get(at)? as usize] != 3).then_some(at)
}

/// The start of the `count`-th value before `end` (a value's start, or the end of the
/// text), in text holding no string between them.
fn starts_backward(text: &[u8], mut end: usize, count: usize) -> Option<usize> {
    for _ in 0..count {
        let mut i = end.checked_sub(1)?;
        while CLASS[*text.get(i)? as usize] == 1 {
            i = i.checked_sub(1)?;
        }
        if CLASS[text[i] as usize] != 2 {
            while i > 0 && CLASS[text[i - 1] as usize] == 0 {
                i -= 1;
            }
        }
        end = i;
    }
    Some(end)
}

/// The bytes a number token may follow (JSON whitespace, `[`, `,`, `:`).
const BEFORE_NUMBER: [bool; 256] = delimiters(b" \t\r\n[,:");
/// The bytes a number token may be followed by (JSON whitespace, `,`, `]`, `}`).
const AFTER_NUMBER: [bool; 256] = delimiters(b" \t\r\n,]}");

const fn delimiters(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// Overwrites each number of `text` beyond `f64`'s range (`1e400`, `-1e400`, a 400-digit
/// integer) with `0.0` and spaces, which simd-json reads as a float, keeping its offset and
/// its text (appended to `kept`) in `out`. Strings are skipped.
#[cold]
fn set_aside_wide_numbers(text: &mut [u8], out: &mut Vec<(u32, u32, u32)>, kept: &mut String) {
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                let Some(at) = crate::shape::closing_quote(text, i + 1) else {
                    return;
                };
                i = at;
            }
            b'-' | b'0'..=b'9' => {
                let end = crate::scan::number(text, i).unwrap_or(i + 1).max(i + 1);
                let run = core::str::from_utf8(&text[i..end]).unwrap_or("");
                // Only a whole token: `7-1e400` is not a number followed by one, and must
                // stay invalid for simd-json to refuse.
                let whole = (i == 0 || BEFORE_NUMBER[text[i - 1] as usize])
                    && text.get(end).is_none_or(|&b| AFTER_NUMBER[b as usize]);
                if whole
                    && end - i >= 3
                    && crate::scan::is_number(run.as_bytes())
                    && run.parse::<f64>().is_ok_and(f64::is_infinite)
                    && let (Ok(at), Ok(from)) = (u32::try_from(i), u32::try_from(kept.len()))
                {
                    kept.push_str(run);
                    out.push((at, from, kept.len() as u32));
                    let run = &mut text[i..end];
                    run.fill(b' ');
                    run[..3].copy_from_slice(b"0.0");
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// Whether simd-json's structural index `at` in `input` opens a value (a string, a scalar,
/// `[` or `{`): punctuation (`:` `,` `]` `}`) does not, nor the end of the input (simd-json's
/// last index may be there). The rule that maps tape nodes to structural indexes (the
/// [`Locator`]'s step over them).
#[inline]
pub fn opens_value(input: &[u8], at: u32) -> bool {
    input
        .get(at as usize)
        .is_some_and(|&b| !crate::shape::is_close_or_separator(b))
}

/// The error for a document simd-json rejected (`len` bytes long; `container`: it starts
/// with `[` or `{`), in the words every tfwire JSON reader uses
/// (never simd-json's own `Debug` names); `max_depth` is the depth the parser was given.
#[cold]
#[inline(never)]
fn syntax_error(e: &simd_json::Error, len: usize, container: bool, max_depth: usize) -> Error {
    let message = crate::shape::syntax_message(e.error(), e.character(), max_depth);
    let index = e.index().min(len);
    let placed = match e.error() {
        ErrorType::NoStructure | ErrorType::InvalidUtf8 => false,
        _ => !(index == 0 && container),
    };
    if placed {
        Error::new(ErrorKind::Syntax(message), index)
    } else {
        Error::new(ErrorKind::UnplacedSyntax(message), 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &[u8]) -> Error {
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
        assert!(matches!(e.kind(), ErrorKind::Syntax(m) if !m.is_empty()));
        let (line, _) = e.line_column(text);
        assert_eq!(line, 2);
        // Too short a buffer is an error, not a read past its end.
        let mut short = b"[1]".to_vec();
        assert!(TapeParser::default().parse(&mut short, 3).is_err());
        // Nothing to parse: the end.
        let e = parse_err(b"");
        assert_eq!(
            e.to_string(),
            "invalid JSON: unexpected end of input (at byte 0)"
        );
        // Invalid UTF-8 somewhere: no place, and none shown.
        let e = parse_err(b"[\"\xff\"]");
        assert_eq!(e.to_string(), "invalid JSON: the input is not valid UTF-8");
        assert!(matches!(e.kind(), ErrorKind::UnplacedSyntax(_)));
    }

    #[test]
    fn documents_know_every_offset_and_number_text() {
        let big = format!("-{}", "9".repeat(400));
        let text = format!(
            r#"{{"s":"1e400 \" 1e400","a":[1e400, {big},0.10,-0,5e-320],"e":"\u0041","n":1E+999}}"#
        );
        let text = text.as_bytes();
        let shape = crate::shape::json_shape(text, 8, usize::MAX).unwrap();
        assert!(shape.wide_numbers);
        let mut buf = text.to_vec();
        buf.resize(text.len() + INPUT_PADDING, b' ');
        let mut parser = TapeParser::default();
        let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
        let numbers: Vec<(usize, &str)> = (0..doc.nodes().len())
            .filter(|&i| {
                matches!(
                    doc.nodes()[i],
                    Node::Static(StaticNode::F64(_) | StaticNode::I64(_) | StaticNode::U64(_))
                )
            })
            .map(|i| (doc.offset(i), doc.number_text(i)))
            .collect();
        let find = |t: &str| {
            let from = text.windows(3).position(|w| w == b"[1e").unwrap();
            from + text[from..]
                .windows(t.len())
                .position(|w| w == t.as_bytes())
                .unwrap()
        };
        assert_eq!(
            numbers,
            [
                (find("1e400"), "1e400"),
                (find(&big), big.as_str()),
                (find("0.10"), "0.10"),
                (find("-0,"), "-0"),
                (find("5e-320"), "5e-320"),
                (find("1E+999"), "1E+999"),
            ]
        );
        // Strings keep their numbers and escapes.
        assert!(matches!(doc.nodes()[2], Node::String("1e400 \" 1e400")));
        assert_eq!(doc.offset(doc.nodes().len()), text.len());
        parser.recycle_document(doc);
        // Without the shape's word, such a number is simd-json's syntax error.
        let mut buf = b"[1e400]".to_vec();
        buf.resize(7 + INPUT_PADDING, b' ');
        let plain = crate::shape::json_shape(b"[1]", 8, 10).unwrap();
        assert!(parser.parse_document(&mut buf, 7, &plain).is_err());
    }

    #[test]
    fn only_whole_wide_numbers_are_set_aside() {
        // Set aside, `7-1e400` would read as `70.0`: invalid JSON must stay invalid.
        for bad in [
            "[7-1e400]",
            "[1e400-1]",
            "[71e400e]",
            "{\"a\":7-1e400}",
            "[--1e400]",
        ] {
            let text = bad.as_bytes();
            let shape = crate::shape::json_shape(text, 8, 100).unwrap();
            assert!(shape.wide_numbers, "{bad}");
            let mut buf = text.to_vec();
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let parsed = TapeParser::default().parse_document(&mut buf, text.len(), &shape);
            assert!(parsed.is_err(), "{bad} is accepted");
        }
        for good in ["[1e400]", "[ -1e400 ,1E+999]", "{\"a\":\n1e400}"] {
            let text = good.as_bytes();
            let shape = crate::shape::json_shape(text, 8, 100).unwrap();
            let mut buf = text.to_vec();
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let mut parser = TapeParser::default();
            assert!(
                parser.parse_document(&mut buf, text.len(), &shape).is_ok(),
                "{good}"
            );
        }
    }

    #[test]
    fn documents_agree_with_a_reading_of_the_text() {
        let big = "7".repeat(320);
        let text = format!(
            r#" {{"a":[1,2.5,-3e2,[],{{}},"",true,null,"x\"y",[[0.125]]],"b\u0041":{{"c":[{big},1e999,"",{{"":false}}]}},
              "n":[{nums}],"e":"","f":-0.0}} "#,
            nums = (0..300)
                .map(|k| format!("{k}.5"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let text = text.as_bytes();
        let shape = crate::shape::json_shape(text, 16, usize::MAX).unwrap();
        let mut parser = TapeParser::default();
        // Every node's offset by a plain recursive reading of the text (no simd-json).
        let mut copy = text.to_vec();
        copy.resize(text.len() + INPUT_PADDING, b' ');
        let mut plain = text.to_vec();
        plain.resize(text.len() + INPUT_PADDING, b' ');
        // simd-json refuses 1e999 and the long integer without the document's setting
        // aside of wide numbers.
        assert!(parser.parse(&mut plain, text.len()).is_err());
        let reference = reference_offsets(text);
        let n = reference.len();
        let doc = parser
            .parse_document(&mut copy, text.len(), &shape)
            .unwrap();
        assert_eq!(doc.nodes().len(), n);
        // Forwards, backwards, and in a scattered order: the cursor never gives a wrong
        // offset.
        let forwards: Vec<usize> = (0..n).collect();
        let scattered: Vec<usize> = (0..n).map(|k| (k * 7919) % n).collect();
        for order in [
            forwards.clone(),
            forwards.into_iter().rev().collect(),
            scattered,
        ] {
            for i in order {
                assert_eq!(doc.offset(i), reference[i], "node {i}");
            }
        }
        assert_eq!(doc.offset(n), text.len());
        let wide = (0..n).find(|&i| doc.number_text(i) == "1e999");
        assert!(wide.is_some());
        let long = (0..n).find(|&i| doc.number_text(i) == big);
        assert!(long.is_some());
        assert_eq!(doc.number_text(0), "");
        parser.recycle_document(doc);
    }

    /// The offset of every value of `text` in tape order (each object's key before its
    /// value), by a plain recursive reading of the text: the reference the [`Locator`] is
    /// checked against, computed without simd-json, its structural indexes or the tape.
    fn reference_offsets(text: &[u8]) -> Vec<usize> {
        fn ws(t: &[u8], mut i: usize) -> usize {
            while i < t.len() && matches!(t[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            i
        }
        fn string_end(t: &[u8], mut i: usize) -> usize {
            i += 1;
            while t[i] != b'"' {
                i += if t[i] == b'\\' { 2 } else { 1 };
            }
            i + 1
        }
        fn value(t: &[u8], i: usize, out: &mut Vec<usize>) -> usize {
            let mut i = ws(t, i);
            out.push(i);
            match t[i] {
                b'"' => string_end(t, i),
                b'[' | b'{' => {
                    let close = if t[i] == b'[' { b']' } else { b'}' };
                    i = ws(t, i + 1);
                    if t[i] == close {
                        return i + 1;
                    }
                    loop {
                        if close == b'}' {
                            i = ws(t, i);
                            out.push(i);
                            i = ws(t, string_end(t, i));
                            assert_eq!(t[i], b':');
                            i += 1;
                        }
                        i = ws(t, value(t, i, out));
                        i += 1;
                        if t[i - 1] == close {
                            return i;
                        }
                    }
                }
                _ => {
                    while i < t.len() && !b" \t\n\r,]}".contains(&t[i]) {
                        i += 1;
                    }
                    i
                }
            }
        }
        let mut out = Vec::new();
        value(text, 0, &mut out);
        out
    }

    /// Asks `offset` for every node in several orders (forwards, and for documents small
    /// enough, backwards and scattered) and checks each answer against `expected`.
    fn check_every_node(what: &str, n: usize, expected: &[usize], offset: impl Fn(usize) -> usize) {
        assert_eq!(n, expected.len(), "{what}: node count");
        let mut orders: Vec<Vec<usize>> = vec![(0..n).collect()];
        if n < 20_000 {
            orders.push((0..n).rev().collect());
            orders.push((0..n).map(|k| (k * 7919) % n).collect());
        }
        for order in orders {
            for i in order {
                assert_eq!(offset(i), expected[i], "{what}: node {i}");
            }
        }
    }

    /// Every node's offset, by the one mechanism in both of its steps (over the text, as
    /// [`Document`] uses it, and over the structural indexes, as the typed decoder does),
    /// for every JSON payload and plan of the corpus and some made-up documents (escapes,
    /// white space, nested empty containers, numbers beyond `f64`'s range), against
    /// [`reference_offsets`]. Numbers' texts are checked against the reference too.
    #[test]
    fn the_locator_finds_every_node() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut docs: Vec<(String, Vec<u8>)> = Vec::new();
        // Under Miri (which the parse tests of this module run under), the made-up
        // documents only: the corpus would take hours there.
        let dirs: &[&str] = if cfg!(miri) {
            &[]
        } else {
            &["payloads", "real-client", "plans", "states"]
        };
        for dir in dirs {
            let mut stack = vec![root.join(dir)];
            while let Some(d) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&d) else {
                    continue;
                };
                for e in entries.flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "json") {
                        docs.push((p.display().to_string(), std::fs::read(&p).unwrap()));
                    }
                }
            }
        }
        let corpus = docs.len();
        assert!(cfg!(miri) || docs.iter().filter(|d| d.0.contains("payloads")).count() >= 5);
        assert!(cfg!(miri) || corpus > 100, "{corpus} corpus documents");
        let made_up = [
            " [ ] ".to_string(),
            "{\n\t\"a\\\"\\\\\" : [ [ ] , { } , [ [ { } ] ] ] ,\r\n \"\\u00e9\\n\":-0.0e+1 }"
                .into(),
            r#"[[[1,[2.5],{"":[]}],true],false,null,"\"]",{"k":{"l":[{"m":-1E-3}]}},7]"#.into(),
            format!(
                r#"{{"s":"1e400 \" 1e400","a":[1e400, -{},0.10,-0,5e-320],"n":1E+999 }}"#,
                "9".repeat(400)
            ),
            // Values right after strings (a key, an element), whose offset is read after the
            // string's closing quote: escaped quotes and backslashes where that quote
            // would be, white space around the separator, a string closing a container.
            r#"{"ab\"":1,"\\":2,"x\\\"":[3],"":4,"q" : 5 ,"r"	:	6.5,"s\u0041":null}"#.into(),
            r#"["s",1,"t\"",2,"\\",3,"",true,[{"a":"b"},7,["c"],8.25,"\"" ,-0]]"#.into(),
            format!(
                "[{}]",
                (0..3000)
                    .map(|k| format!("{k}.5, {k} ,true"))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        ];
        docs.extend(
            made_up
                .iter()
                .map(|d| (d.chars().take(30).collect(), d.clone().into_bytes())),
        );
        let mut parser = TapeParser::new(1024);
        let mut checked = 0;
        for (name, text) in &docs {
            let Ok(shape) = crate::shape::json_shape(text, 1024, usize::MAX) else {
                continue;
            };
            let want = reference_offsets(text);
            let is_number = |n: &Node<'_>| {
                matches!(
                    n,
                    Node::Static(StaticNode::F64(_) | StaticNode::I64(_) | StaticNode::U64(_))
                )
            };
            let number_at = |at: usize| {
                let end = (at..text.len())
                    .find(|&i| b" \t\n\r,]}".contains(&text[i]))
                    .unwrap_or(text.len());
                core::str::from_utf8(&text[at..end]).unwrap()
            };
            // Over the text: the plan reader's document.
            let mut buf = text.clone();
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let doc = match parser.parse_document(&mut buf, text.len(), &shape) {
                Ok(doc) => doc,
                // Invalid documents of the corpus (kept there to be refused).
                Err(_) if name.contains("corpus") => continue,
                Err(e) => panic!("{name}: {e}"),
            };
            let n = doc.nodes().len();
            check_every_node(&format!("{name} (text)"), n, &want, |i| doc.offset(i));
            assert_eq!(doc.offset(n), text.len());
            for i in (0..n).filter(|&i| is_number(&doc.nodes()[i])) {
                assert_eq!(doc.number_text(i), number_at(want[i]), "{name}: node {i}");
            }
            parser.recycle_document(doc);
            // Over the structural indexes: the typed decoder's source (simd-json refuses
            // numbers beyond `f64`'s range there: those documents go to the byte-wise
            // reader).
            let mut copy = text.clone();
            copy.resize(text.len() + INPUT_PADDING, b' ');
            let base = copy.as_ptr() as usize;
            if let Ok(tape) = parser.parse(&mut copy, text.len()) {
                let loc = Locator::new(text, base, parser.structural_indexes());
                check_every_node(&format!("{name} (index)"), tape.0.len(), &want, |i| {
                    loc.offset(&tape.0, i)
                });
                for i in (0..tape.0.len()).filter(|&i| is_number(&tape.0[i])) {
                    assert_eq!(
                        loc.number_text(&tape.0, i),
                        number_at(want[i]),
                        "{name}: node {i}"
                    );
                }
                parser.recycle(tape);
            } else {
                // A document with a number beyond `f64`'s range (the made-up `1e400` one, a
                // real client's plan holding go-cty's 401-digit integers).
                assert!(shape.wide_numbers, "{name}");
            }
            checked += 1;
        }
        // Every made-up document, and all but the corpus's invalid ones.
        assert!(
            checked >= made_up.len() && (cfg!(miri) || checked > 100),
            "{checked}"
        );
    }

    /// `scalar_decimal` reads a float of an array of scalars when it is a plain decimal (a
    /// point, no exponent, 8 to 64 bytes, no white space after it) and refuses every other
    /// literal, whose text `scalar_number_text` then reads: each literal below, alone in an
    /// array and in the middle of one, with and without white space around it.
    #[test]
    fn scalar_decimal_refuses_what_is_not_a_plain_decimal() {
        let plain = [
            "1234.567",
            "-123.456",
            "0.000001",
            "-0.00000",
            "12345678.9",
            "2933568871211445515.4324745483838182873",
            &format!("1.{}", "7".repeat(62)),
        ];
        let other = [
            "1.5",
            "-1.5e10",
            "12345.6E-3",
            "123456e+07",
            "18446744073709551616",
            "-9223372036854775809",
            "123456789012",
            &format!("1.{}", "7".repeat(63)),
            // An exponent in every word between the first and the last eight bytes.
            "12345678.9e0000000000000001",
            &format!("1.{}e{}1", "2".repeat(48), "0".repeat(12)),
            &format!("1.{}E+{}3", "2".repeat(18), "0".repeat(19)),
        ];
        let mut parser = TapeParser::new(64);
        for (literal, want) in plain
            .iter()
            .map(|l| (l, true))
            .chain(other.iter().map(|l| (l, false)))
        {
            for text in [
                format!("[{literal}]"),
                format!("[1,{literal},2.5]"),
                format!("[ {literal} ]"),
                format!("[\n{literal}\n,0]"),
            ] {
                let mut copy = text.clone().into_bytes();
                copy.resize(text.len() + INPUT_PADDING, b' ');
                let base = copy.as_ptr() as usize;
                let tape = parser.parse(&mut copy, text.len()).unwrap();
                let loc = Locator::new(text.as_bytes(), base, parser.structural_indexes());
                let e = (1..tape.0.len())
                    .find(|&j| loc.number_text(&tape.0, j) == *literal)
                    .expect("the literal's node");
                let open = loc.structural_index(&tape.0, 0).unwrap();
                let pairs = loc.scalar_pairs(open, tape.0.len() - 1).unwrap();
                let pair = pairs[e - 1];
                let got = loc.scalar_decimal(pair);
                let trailing_space =
                    text.contains(&format!("{literal} ")) || text.contains(&format!("{literal}\n"));
                if want && !trailing_space {
                    assert_eq!(got, Some(*literal), "{text}");
                } else {
                    assert_eq!(got, None, "{text}");
                }
                assert_eq!(loc.scalar_number_text(pair), Some(*literal), "{text}");
                parser.recycle(tape);
            }
        }
    }

    #[test]
    fn a_warm_parser_reuses_its_tape() {
        let mut p = TapeParser::default();
        let mut first = None;
        // The largest document first: every later tape fits in its allocation.
        for text in [&b"[1,\"x\",{\"k\":null}]"[..], b"{}", b"[[],[[]]]"] {
            let mut buf = text.to_vec();
            buf.resize(text.len() + INPUT_PADDING, b' ');
            let tape = p.parse(&mut buf, text.len()).unwrap();
            assert_eq!(tape.0.len(), reference_offsets(text).len());
            let at = tape.0.as_ptr() as usize;
            assert_eq!(*first.get_or_insert(at), at, "a new tape allocation");
            p.recycle(tape);
        }
    }
}
