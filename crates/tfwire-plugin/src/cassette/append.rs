//! Appending a session to a cassette file, under an exclusive lock.

use super::data::{Cassette, Session};
use crate::error::{Error, ErrorKind};
use std::io::Write as _;
use std::path::Path;

impl Session {
    /// Appends this session to the cassette file at `path` (created when missing), as one
    /// write under an exclusive `flock` on the file: the tap processes of one OpenTofu
    /// command (a provider is started several times per command, sometimes at once) each
    /// append their own session, and no two interleave. What is already in the file is
    /// neither read nor rewritten.
    ///
    /// ```
    /// use tfwire_plugin::cassette::{Cassette, Session};
    /// let dir = std::env::temp_dir().join(format!("cassette-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("c.jsonl");
    /// Session { protocol: 5, ..Default::default() }.append_to(&path)?;
    /// Session { protocol: 6, ..Default::default() }.append_to(&path)?;
    /// let c = Cassette::read(&std::fs::read(&path)?)?;
    /// assert_eq!(c.sessions.iter().map(|s| s.protocol).collect::<Vec<_>>(), [5, 6]);
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The file does not open, lock or take the write ([`ErrorKind::Cassette`], naming the
    /// path).
    pub fn append_to(&self, path: &Path) -> Result<(), Error> {
        let e = |what: &str, e: std::io::Error| {
            Error::new(
                ErrorKind::Cassette,
                format!("{what} {}: {e}", path.display()),
            )
        };
        // The whole session first, so that the lock is held for one write only.
        let mut bytes = Vec::new();
        let one = Cassette {
            sessions: vec![self.clone()],
        };
        one.write(&mut bytes)
            .map_err(|x| e("writing a session for", x))?;
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|x| e("opening", x))?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|x| e("locking", x.into()))?;
        let written = file.write_all(&bytes).and_then(|()| file.flush());
        // Closing the file releases the lock.
        written.map_err(|x| e("appending to", x))
    }
}
