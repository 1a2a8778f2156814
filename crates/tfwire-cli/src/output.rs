//! Writing results to standard output: buffered, quiet when the reader goes away
//! (`| head`); text (always through [`escape::terminal`], so nothing a document holds
//! can act on a terminal), and MessagePack as raw bytes or hex text.

use crate::failure::Failure;
use std::io::{self, Write};
use tfwire_render::escape;

/// Runs `f` with buffered standard output; a closed pipe ends the output quietly.
fn with_stdout(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Input(format!("writing standard output: {e}"))),
    }
}

/// Writes `text` and a newline to standard output: a line of JSON or hex (the escapes of
/// the last pass are JSON's own, so JSON stays the same value).
pub(crate) fn text(text: &str) -> Result<(), Failure> {
    let text = escape::terminal(text, false);
    with_stdout(|out| writeln!(out, "{text}"))
}

/// Writes text for a person (lines ending in newlines) to standard output, through the
/// last escaping pass; `color`: keep the colours the CLI added.
pub(crate) fn human(text: &str, color: bool) -> Result<(), Failure> {
    let text = escape::terminal(text, color);
    with_stdout(|out| out.write_all(text.as_bytes()))
}

/// Writes MessagePack bytes to standard output: raw, or as one line of lower-case hex.
pub(crate) fn msgpack(bytes: &[u8], hex: bool) -> Result<(), Failure> {
    if hex {
        let mut s = String::with_capacity(bytes.len() * 2);
        for b in bytes {
            s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        return text(&s);
    }
    with_stdout(|out| out.write_all(bytes))
}

/// A value that cannot be written in the requested format: the input is rejected. The
/// offset of an encoding error is in the output, which the user never sees: left out.
pub(crate) fn unencodable(e: tfwire::Error) -> Failure {
    Failure::Input(format!("{}: {}", e.path(), e.kind()))
}
