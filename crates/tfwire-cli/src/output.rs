//! Writing to standard output: buffered, and quiet when the reader goes away (`| head`).

use crate::Failure;
use std::io::{self, Write};

/// Runs `f` with buffered standard output; a closed pipe ends the output quietly.
pub(crate) fn with_stdout(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Input(format!("writing standard output: {e}"))),
    }
}
