//! Writing results: text lines, and MessagePack as raw bytes or hex text.

use crate::Failure;
use std::io::Write;

/// Writes `text` and a newline to standard output.
pub(crate) fn text(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(write_failed)
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
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(write_failed)
}

/// A value that cannot be written in the requested format: the input is rejected. The
/// offset of an encoding error is in the output, which the user never sees: left out.
pub(crate) fn unencodable(e: tfwire::Error) -> Failure {
    Failure::Input(format!("{}: {}", e.path(), e.kind()))
}

fn write_failed(e: std::io::Error) -> Failure {
    Failure::Input(format!("writing standard output: {e}"))
}
