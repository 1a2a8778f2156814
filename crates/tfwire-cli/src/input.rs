//! Reading inputs: a file or standard input (`-`), gzip-compressed or not; text in UTF-8
//! (with or without a byte-order mark) or UTF-16; hex text. And the documents (plans and
//! states) built from them, with errors that point at the offending line.

use crate::failure::Failure;
use crate::report;
use flate2::bufread::GzDecoder;
use std::io::Read;
use tfwire::schema::ProgramCache;
use tfwire_plan::{Document, Parser};
use tfwire_planfile::Planfile;

/// The default of `--max-input-bytes`: the most an input may hold, after gzip inflation.
pub(crate) const DEFAULT_MAX_INPUT_BYTES: usize = 256 << 20;

/// The input limit (`--max-input-bytes`): built by `main` from the arguments and handed to
/// every reader, with the limits derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    max_input_bytes: usize,
}

impl Limits {
    /// The limits for inputs of at most `max_input_bytes` bytes.
    pub(crate) fn new(max_input_bytes: usize) -> Limits {
        Limits { max_input_bytes }
    }

    /// The most bytes an input may hold, after gzip inflation (`--max-input-bytes`).
    pub(crate) fn max_input_bytes(self) -> usize {
        self.max_input_bytes
    }

    /// The most nodes a document may hold: one per 8 bytes of the input limit. The one rule
    /// for every reader that counts elements before it allocates them: the JSON plan and
    /// state reader (nodes of JSON) and the binary plan reader (nodes of 8 bytes of decoded
    /// protobuf messages).
    pub(crate) fn max_nodes(self) -> usize {
        self.max_input_bytes / 8
    }

    /// The binary plan file reader's limits: members inflate to at most the input limit
    /// together, the `tfplan` message decodes to at most [`Limits::max_nodes`] nodes, and
    /// the JSON document written for the plan holds at most the input limit.
    pub(crate) fn planfile_config(self) -> tfwire_planfile::Config {
        tfwire_planfile::Config::default()
            .max_inflated_bytes(self.max_input_bytes as u64)
            .max_nodes(self.max_nodes())
    }

    /// The decoder configuration every command uses: the input limit applied.
    pub(crate) fn decoder_config(self) -> tfwire::Config {
        tfwire::Config::default().max_input_bytes(self.max_input_bytes)
    }
}

/// The message for an input beyond the limit.
#[cold]
fn too_large(max: usize, name: &str, what: &str) -> Failure {
    Failure::Input(format!(
        "{name}: {what} more than {max} bytes, the input limit; raise it with --max-input-bytes"
    ))
}

/// Reads `path` (`-` or none: standard input) with `spare` bytes of capacity left over
/// (so that a parser can pad the buffer without reallocating), inflating gzip input
/// (recognised by its magic bytes `1f 8b`) as a stream. Neither the input nor its
/// inflated text may exceed the input limit: reading stops one byte past it.
///
/// Memory: a file is read into one buffer of its size (plus `spare`). Gzip input is
/// inflated as it is read (the compressed bytes pass through a small buffer, never held
/// whole), into a buffer sized by the gzip trailer's length of the last member when the
/// input is a file; a buffer whose final size is unknown (a pipe, several gzip members)
/// grows by at most [`GROWTH_CHUNK`] at a time (a quarter of what it holds while smaller),
/// so that it never reserves twice what it will hold.
pub(crate) fn read_raw(
    limits: Limits,
    path: Option<&str>,
    spare: usize,
) -> Result<Vec<u8>, Failure> {
    let name = display_name(path.unwrap_or("-"));
    let io = |e: std::io::Error| Failure::Input(format!("{name}: {e}"));
    let max = limits.max_input_bytes();
    match path {
        None | Some("-") => read_from(std::io::stdin().lock(), None, max, spare, name),
        Some(p) => {
            let mut file = std::fs::File::open(p).map_err(io)?;
            let meta = file.metadata().map_err(io)?;
            // A FIFO or a device (`/dev/stdin`) has no size to go by.
            let size = meta.is_file().then_some(meta.len());
            if let Some(len) = size.filter(|&len| len > max as u64) {
                return Err(too_large(max, name, &format!("the file has {len} bytes,")));
            }
            let hint = match size {
                // Deflate inflates at most 1032-fold: a forged trailer reserves no more.
                Some(len) => Some(SizeHint {
                    len,
                    inflated: gzip_trailer_size(&mut file, len)
                        .map_err(io)?
                        .map(|n| n.min(len.saturating_mul(1032))),
                }),
                None => None,
            };
            read_from(file, hint, max, spare, name)
        }
    }
}

/// The most a buffer whose final size is unknown grows by at once.
const GROWTH_CHUNK: usize = 16 << 20;

/// What is known of an input's size before it is read: a regular file's.
#[derive(Clone, Copy)]
struct SizeHint {
    /// The file's length.
    len: u64,
    /// The inflated length its gzip trailer records (`ISIZE`, of the last member, modulo
    /// 2^32), when the file looks gzip-compressed.
    inflated: Option<u64>,
}

/// The inflated length the gzip trailer of the file (of `len` bytes) records, when the
/// file starts with the gzip magic bytes; the file is left at its start.
fn gzip_trailer_size(file: &mut std::fs::File, len: u64) -> std::io::Result<Option<u64>> {
    use std::io::{Seek, SeekFrom};
    if len < 18 {
        return Ok(None); // shorter than an empty gzip member
    }
    let mut magic = [0u8; 2];
    file.read_exact(&mut magic)?;
    let mut size = None;
    if magic == [0x1f, 0x8b] {
        let mut trailer = [0u8; 4];
        file.seek(SeekFrom::End(-4))?;
        file.read_exact(&mut trailer)?;
        size = Some(u64::from(u32::from_le_bytes(trailer)));
    }
    file.seek(SeekFrom::Start(0))?;
    Ok(size)
}

/// Reads all of `r` (see [`read_raw`]).
fn read_from(
    r: impl Read,
    hint: Option<SizeHint>,
    max: usize,
    spare: usize,
    name: &str,
) -> Result<Vec<u8>, Failure> {
    let io = |e: std::io::Error| Failure::Input(format!("{name}: {e}"));
    let mut input = Input::new(r);
    let head = input.peek(6).map_err(io)?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let capacity = hint
            .and_then(|h| h.inflated)
            .map_or(0, |n| n.min(max as u64 + 1) as usize);
        return gunzip(&mut input, capacity, max, spare, name);
    }
    if let Some(what) = compressed_other(head) {
        return Err(Failure::Input(format!(
            "{name}: the input is {what}; tfwire reads gzip only: decompress it first"
        )));
    }
    let capacity = hint.map_or(0, |h| h.len.min(max as u64 + 1) as usize);
    let mut buf = Vec::with_capacity(capacity.saturating_add(spare));
    fill(&mut input, &mut buf, max + 1, spare).map_err(io)?;
    if buf.len() > max {
        return Err(too_large(max, name, "the input has"));
    }
    Ok(buf)
}

/// Reads `r` to its end into `buf`, stopping at `limit` bytes in `buf`, and leaves `spare`
/// bytes of capacity unused. The buffer grows only when it is full (a quarter of what it
/// holds at a time, at least 64 KiB and at most [`GROWTH_CHUNK`]): a buffer sized for the
/// input is never reallocated, one of unknown size never reserves twice what it holds.
fn fill(r: &mut impl Read, buf: &mut Vec<u8>, limit: usize, spare: usize) -> std::io::Result<()> {
    loop {
        let room = (buf.capacity().saturating_sub(buf.len()))
            .saturating_sub(spare)
            .min(limit.saturating_sub(buf.len()));
        if room == 0 {
            if buf.len() >= limit {
                return Ok(());
            }
            // Full: read a little to learn whether there is more before growing.
            let mut probe = [0u8; 64];
            let want = probe.len().min(limit - buf.len());
            let n = loop {
                match r.read(&mut probe[..want]) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    other => break other?,
                }
            };
            if n == 0 {
                return Ok(());
            }
            let grow = (buf.len() / 4).clamp(64 << 10, GROWTH_CHUNK);
            buf.reserve_exact(n + grow + spare);
            buf.extend_from_slice(&probe[..n]);
            continue;
        }
        let got = r.by_ref().take(room as u64).read_to_end(buf)?;
        if got < room {
            return Ok(()); // the end of the input
        }
    }
}

/// A buffered reader that can look ahead a few bytes (the magic bytes of a compressed
/// input, of the next gzip member) and counts what it has handed out.
struct Input<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// Bytes consumed from the input so far: the offset of the next byte.
    consumed: u64,
}

impl<R: Read> Input<R> {
    fn new(inner: R) -> Input<R> {
        Input {
            inner,
            buf: vec![0; 64 << 10].into_boxed_slice(),
            pos: 0,
            end: 0,
            consumed: 0,
        }
    }

    /// The next `n` bytes (fewer when the input ends before), left unread.
    fn peek(&mut self, n: usize) -> std::io::Result<&[u8]> {
        if self.end - self.pos < n {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            while self.end < n {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => break,
                    Ok(k) => self.end += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.pos..self.end.min(self.pos + n)])
    }
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        if self.pos == self.end && out.len() >= self.buf.len() {
            // A large read bypasses the buffer.
            let n = self.inner.read(out)?;
            self.consumed += n as u64;
            return Ok(n);
        }
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(out.len());
            out[..n].copy_from_slice(&have[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> std::io::BufRead for Input<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.end {
            self.pos = 0;
            self.end = 0;
            self.end = self.inner.read(&mut self.buf)?;
        }
        Ok(&self.buf[self.pos..self.end])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.pos);
        self.pos += n;
        self.consumed += n as u64;
    }
}

/// Compression formats tfwire does not read, by their magic bytes (none of them can start
/// a MessagePack value, a JSON document or hex text that tfwire would accept).
fn compressed_other(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 4] = [
        (b"\xfd7zXZ\x00", "xz-compressed"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed"),
        (b"BZh", "bzip2-compressed"),
        (b"\x04\x22\x4d\x18", "lz4-compressed"),
    ];
    MAGIC
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|&(_, what)| what)
}

/// Inflates gzip input member by member as it is read (concatenated members are one
/// stream, as `gzip -d` reads them) into a buffer of `capacity` bytes to start with,
/// stopping one byte past the input limit. Zero bytes after the last member (block
/// padding) are ignored, as `gzip -d` ignores them; anything else after it is an error that
/// says where the gzip data ended. The compressed input may not exceed the limit either.
fn gunzip<R: Read>(
    input: &mut Input<R>,
    capacity: usize,
    max: usize,
    spare: usize,
    name: &str,
) -> Result<Vec<u8>, Failure> {
    let io = |e: std::io::Error| Failure::Input(format!("{name}: {e}"));
    let mut out = Vec::with_capacity(capacity.saturating_add(spare));
    loop {
        let at = input.consumed;
        fill(&mut GzDecoder::new(&mut *input), &mut out, max + 1, spare).map_err(|e| {
            Failure::Input(format!(
                "{name}: reading gzip-compressed input (the member at byte {at}): {e}"
            ))
        })?;
        if out.len() > max {
            return Err(too_large(
                max,
                name,
                "the gzip-compressed input inflates to",
            ));
        }
        if input.consumed > max as u64 {
            return Err(too_large(max, name, "the input has"));
        }
        if !input.peek(2).map_err(io)?.starts_with(&[0x1f, 0x8b]) {
            break;
        }
    }
    // What follows the last member: nothing, or zero padding.
    let end = input.consumed;
    let mut excerpt = Vec::new();
    let mut garbage = false;
    loop {
        use std::io::BufRead;
        let chunk = input.fill_buf().map_err(io)?;
        if chunk.is_empty() {
            break;
        }
        let n = chunk.len();
        garbage |= chunk.iter().any(|&b| b != 0);
        if excerpt.len() < 9 {
            excerpt.extend(chunk.iter().take(9 - excerpt.len()));
        }
        input.consume(n);
        if input.consumed > max as u64 {
            return Err(too_large(max, name, "the input has"));
        }
    }
    if garbage {
        return Err(Failure::Input(format!(
            "{name}: {} bytes after the end of the gzip data (at byte {end}) are neither \
             another gzip member nor zero padding; they start with {}",
            input.consumed - end,
            hex_excerpt(&excerpt)
        )));
    }
    if out.starts_with(&[0x1f, 0x8b]) {
        return Err(Failure::Input(format!(
            "{name}: the input is gzip-compressed twice (the inflated data is gzip again); \
             inflate it once first"
        )));
    }
    out.reserve_exact(spare);
    Ok(out)
}

/// The first bytes of `b` as hex, for messages.
fn hex_excerpt(b: &[u8]) -> String {
    let shown: Vec<String> = b.iter().take(8).map(|x| format!("{x:02x}")).collect();
    let more = if b.len() > 8 { " …" } else { "" };
    format!("{}{more}", shown.join(" "))
}

/// Reads a value input (`decode`, `encode`): raw bytes, gzip inflated.
pub(crate) fn read(limits: Limits, path: Option<&str>) -> Result<Vec<u8>, Failure> {
    read_raw(limits, path, 0)
}

/// Text input (JSON, hex): UTF-16 transcoded to UTF-8, a UTF-8 byte-order mark dropped.
pub(crate) fn text(mut bytes: Vec<u8>, name: &str) -> Result<Vec<u8>, Failure> {
    let enc =
        tfwire_plan::transcode(&mut bytes).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if enc == tfwire_plan::Encoding::Utf8Bom {
        bytes.drain(..3);
    }
    Ok(bytes)
}

/// Decodes hex text (whitespace ignored). A character that is not a hex digit is named
/// with its byte offset in the text before the digit count is checked.
pub(crate) fn unhex(text: &[u8]) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut high: Option<(u8, usize)> = None;
    for (at, &b) in text.iter().enumerate() {
        if b.is_ascii_whitespace() {
            continue;
        }
        let Some(d) = (b as char).to_digit(16) else {
            let first = text[at..].utf8_chunks().next();
            let shown = match first.and_then(|c| c.valid().chars().next()) {
                Some(c) if !c.is_control() => tfwire_render::escape::quote(&c.to_string()),
                _ => format!("byte 0x{b:02x}"),
            };
            return Err(Failure::Input(format!(
                "hex input: {shown} at byte {at} is not a hex digit"
            )));
        };
        match high.take() {
            None => high = Some((d as u8, at)),
            Some((h, _)) => out.push(h << 4 | d as u8),
        }
    }
    if let Some((_, at)) = high {
        return Err(Failure::Input(format!(
            "hex input has an odd number of digits (the last, at byte {at}, has no pair)"
        )));
    }
    Ok(out)
}

/// The name to show for an input in messages.
pub(crate) fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

/// What a command reads from a binary plan file (a JSON document is read as it is).
#[derive(Clone, Copy)]
pub(crate) enum Want<'s> {
    /// The plan; resource values are decoded with the provider schemas when given, else
    /// with the types the values imply (enough for summaries, which print no values).
    Plan(Option<&'s ProgramCache>),
    /// The plan, to print its values: provider schemas are required for a plan file, whose
    /// recorded sensitive paths need not cover the attributes a schema declares sensitive.
    PlanValues(Option<&'s ProgramCache>),
    /// The prior state (the `tfstate` member).
    State,
}

/// Reads, parses and models a plan or state document, and runs `f` on it. A rejected
/// document is reported with its path, byte offset and the offending line.
///
/// Binary plan files (`tofu plan -out`) are recognised by their content (a ZIP archive, or
/// the `tfplan` header of Terraform 0.11 and older), whatever the file's name: the plan is
/// read as the JSON document `tofu show -json` prints for it, or its prior state, as `want`
/// says.
pub(crate) fn with_document<R>(
    limits: Limits,
    path: &str,
    want: Want<'_>,
    f: impl FnOnce(Document<'_>) -> Result<R, Failure>,
) -> Result<R, Failure> {
    with_recorded(limits, path, want, |doc, _| f(doc))
}

/// What a binary plan file records that its JSON form (and a `show -json` document) does
/// not.
#[derive(Clone, Copy, Default)]
pub(crate) struct Recorded {
    /// The planning mode (`-destroy`, `-refresh-only`): `tofu show` words a plan without
    /// changes, and chooses the drift it draws, by it.
    pub(crate) mode: Option<tfwire_planfile::proto::Mode>,
}

/// [`with_document`], also passing what a binary plan file records beyond its JSON form
/// (nothing for a JSON document).
pub(crate) fn with_recorded<R>(
    limits: Limits,
    path: &str,
    want: Want<'_>,
    f: impl FnOnce(Document<'_>, Recorded) -> Result<R, Failure>,
) -> Result<R, Failure> {
    with_parsed(limits, path, want, Only::All, f)
}

/// [`with_recorded`] for `plan show ADDRESS`: with an address, the document is parsed with
/// [`Parser::parse_change`], which keeps the values of the changes at that address only
/// (the model `f` gets has every other change's values absent).
pub(crate) fn with_recorded_at<R>(
    limits: Limits,
    path: &str,
    want: Want<'_>,
    address: Option<&str>,
    f: impl FnOnce(Document<'_>, Recorded) -> Result<R, Failure>,
) -> Result<R, Failure> {
    with_parsed(
        limits,
        path,
        want,
        address.map_or(Only::All, Only::Change),
        f,
    )
}

/// What of a document is modelled.
#[derive(Clone, Copy)]
enum Only<'x> {
    /// Everything ([`Parser::parse`]).
    All,
    /// What a summary reads ([`Parser::parse_summary`]).
    Summary,
    /// What a summary reads, and the values of the changes at one address
    /// ([`Parser::parse_change`]).
    Change(&'x str),
}

/// [`with_document`], or, when `summary_only`, for a command that reads a plan's summary
/// only (addresses, actions, reasons: no values): the document is then parsed with
/// [`Parser::parse_summary`], which leaves the values out of the tape (`before`, `after`,
/// `planned_values`, ...). The model `f` gets has those members absent; errors are the
/// same as [`with_document`]'s.
pub(crate) fn with_document_for<R>(
    limits: Limits,
    path: &str,
    want: Want<'_>,
    summary_only: bool,
    f: impl FnOnce(Document<'_>) -> Result<R, Failure>,
) -> Result<R, Failure> {
    let only = if summary_only {
        Only::Summary
    } else {
        Only::All
    };
    with_parsed(limits, path, want, only, |doc, _| f(doc))
}

fn with_parsed<R>(
    limits: Limits,
    path: &str,
    want: Want<'_>,
    only: Only<'_>,
    f: impl FnOnce(Document<'_>, Recorded) -> Result<R, Failure>,
) -> Result<R, Failure> {
    let mut bytes = read_raw(limits, Some(path), tfwire_plan::INPUT_PADDING)?;
    let from_planfile = tfwire_planfile::is_zip(&bytes) || bytes.starts_with(b"tfplan");
    let mut recorded = Recorded::default();
    if from_planfile {
        (bytes, recorded) = planfile(limits, path, &bytes, want)?;
    }
    let config = tfwire_plan::ParserConfig::default().max_nodes(limits.max_nodes());
    let mut parser = Parser::with_config(config);
    let parsed = match only {
        Only::All => parser.parse(&mut bytes),
        Only::Summary => parser.parse_summary(&mut bytes),
        Only::Change(address) => parser.parse_change(&mut bytes, address),
    };
    // Where the error is in `bytes` when that is not the text as given (the summary path
    // cuts values out of it).
    let mut parsed_at = None;
    let error = match parsed {
        Ok(tape) => {
            drop(parser); // the scratch buffers are not needed any more
            let arena = bumpalo::Bump::new();
            match tape.document(&arena) {
                Ok(doc) => return f(doc, recorded),
                Err(e) => {
                    if tape.is_compacted() {
                        parsed_at = Some(e.offset().map_or(0, |at| tape.parsed_offset(at)));
                    }
                    e
                }
            }
        }
        Err(e) => e,
    };
    let name = display_name(path);
    if from_planfile {
        // The document was written by tfwire-planfile: no line of the file to show.
        return Err(Failure::Input(format!(
            "{name}: reading the plan file: {error}"
        )));
    }
    if matches!(error.kind(), tfwire_plan::ErrorKind::NotADocument(_))
        && tfwire_planfile::looks_encrypted(&bytes)
    {
        return Err(Failure::Input(format!(
            "{name}: {}",
            tfwire_planfile::Error::from(tfwire_planfile::ErrorKind::Encrypted)
        )));
    }
    Err(document_error(limits, path, &error, &bytes, parsed_at))
}

/// The largest input read again to show the line of an error.
const REREAD_MAX_BYTES: usize = 64 << 20;

/// The JSON document of a binary plan file that `want` asks for.
fn planfile(
    limits: Limits,
    path: &str,
    bytes: &[u8],
    want: Want<'_>,
) -> Result<(Vec<u8>, Recorded), Failure> {
    let name = display_name(path);
    // One line, whatever member names or addresses the file holds.
    let fail = |e: tfwire_planfile::Error| {
        use tfwire_planfile::ErrorKind::{DocumentTooLarge, TooLarge, TooManyNodes};
        let raise = match e.kind() {
            TooLarge { .. } | TooManyNodes { .. } | DocumentTooLarge { .. } => {
                "; raise it with --max-input-bytes"
            }
            _ => "",
        };
        Failure::Input(format!(
            "{name}: {}{raise}",
            tfwire_render::escape::Inline(&e.to_string())
        ))
    };
    let mut pf = Planfile::read_with(bytes, &limits.planfile_config()).map_err(fail)?;
    let recorded = Recorded {
        mode: tfwire_planfile::proto::Mode::try_from(pf.plan.ui_mode).ok(),
    };
    let mut out = match want {
        Want::Plan(schemas) | Want::PlanValues(schemas @ Some(_)) => {
            pf.to_json(schemas).map_err(fail)?.into_bytes()
        }
        Want::PlanValues(None) => {
            return Err(Failure::Usage(format!(
                "{name} is a binary plan file: its values are shown only with the provider \
                 schemas, which say which attributes are sensitive; give --schemas FILE \
                 (`tofu providers schema -json` in the plan's working directory)"
            )));
        }
        Want::State => match pf.take_state() {
            Some(s) => s,
            None => {
                return Err(Failure::Input(format!(
                    "{name}: this plan file holds no prior state (no `tfstate` member)"
                )));
            }
        },
    };
    // Exact: a state taken from the archive has the room already, and a document is not
    // worth twice its size.
    out.reserve_exact(tfwire_plan::INPUT_PADDING);
    Ok((out, recorded))
}

/// A rejected document: `NAME: MESSAGE`, then the line at the error's offset with a caret.
/// The text is read again from the file when there is one (the parser decodes string
/// escapes in place, so `parsed` may differ from the file); standard input is shown
/// from `parsed`. When `parsed` is not the text as given ([`Parser::parse_summary`] cut
/// values out of it), `parsed_at` is where the error is in it: a file is then read again
/// whatever its size, and standard input shows the line of `parsed` (its line and column
/// count the text as parsed).
#[cold]
pub(crate) fn document_error(
    limits: Limits,
    path: &str,
    e: &tfwire_plan::Error,
    parsed: &[u8],
    parsed_at: Option<usize>,
) -> Failure {
    let name = display_name(path);
    let mut msg = format!("{name}: {e}");
    if let tfwire_plan::ErrorKind::TooManyNodes { .. } = e.kind() {
        msg.push_str(" (one per 8 bytes of --max-input-bytes); raise it with --max-input-bytes");
        return Failure::Input(msg);
    }
    if let Some(offset) = e.offset() {
        // Not for a large input: that would hold it twice (the parsed text differs from
        // the file only inside strings with escapes).
        let text = (path != "-" && (parsed_at.is_some() || parsed.len() <= REREAD_MAX_BYTES))
            .then(|| read_raw(limits, Some(path), 0).ok())
            .flatten()
            .and_then(|mut t| tfwire_plan::transcode(&mut t).ok().map(|_| t));
        let (text, at) = match text.as_deref() {
            Some(text) => (text, offset),
            None => (parsed, parsed_at.unwrap_or(offset)),
        };
        msg.push('\n');
        msg.push_str(&report::snippet(name, text, at));
    }
    Failure::Input(msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A reader that hands out at most `step` bytes per read, as a slow pipe does.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn a_buffer_sized_for_the_input_is_filled_without_growing() {
        let data: Vec<u8> = (0..300_000u32).map(|i| i as u8).collect();
        let mut buf = Vec::with_capacity(data.len() + 64);
        let before = buf.capacity();
        fill(&mut &data[..], &mut buf, usize::MAX, 64).unwrap();
        assert_eq!(buf, data);
        assert_eq!(buf.capacity(), before);
        assert!(buf.capacity() - buf.len() >= 64);
    }

    #[test]
    fn a_buffer_of_unknown_size_grows_by_bounded_steps() {
        let data = vec![7u8; 5 << 20];
        let mut buf = Vec::new();
        fill(&mut &data[..], &mut buf, usize::MAX, 64).unwrap();
        assert_eq!(buf.len(), data.len());
        // Never a doubling: at most a quarter (and 64 KiB) over what it holds.
        assert!(buf.capacity() <= data.len() + data.len() / 4 + (64 << 10) + 64 + 64);
        assert!(buf.capacity() - buf.len() >= 64);
        // The limit stops reading one byte past the most allowed.
        let mut small = Vec::new();
        fill(&mut &data[..], &mut small, 1000, 0).unwrap();
        assert_eq!(small.len(), 1000);
    }

    #[test]
    fn magic_bytes_and_gzip_members_split_across_reads_are_recognised() {
        let text = br#"{"format_version":"1.2","values":[1,2,3]}"#;
        let half = text.len() / 2;
        let mut two = gzip(&text[..half]);
        two.extend(gzip(&text[half..]));
        two.extend([0u8; 5]); // zero padding after the last member
        for step in [1, 2, 3, 7, 1 << 20] {
            let mut input = Input::new(Trickle { data: &two, step });
            assert_eq!(input.peek(6).unwrap()[..2], [0x1f, 0x8b], "step {step}");
            let Ok(out) = gunzip(&mut input, 0, DEFAULT_MAX_INPUT_BYTES, 16, "t") else {
                panic!("step {step}: the gzip input is rejected")
            };
            assert_eq!(out, text, "step {step}");
            assert!(out.capacity() - out.len() >= 16);
            let Ok(plain) = read_from(
                Trickle { data: text, step },
                None,
                DEFAULT_MAX_INPUT_BYTES,
                8,
                "t",
            ) else {
                panic!("step {step}: the plain input is rejected")
            };
            assert_eq!(plain, text, "step {step}");
        }
    }
}
