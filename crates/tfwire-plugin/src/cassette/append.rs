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
        // The whole session first, so that the lock is held for one write only.
        let mut bytes = Vec::new();
        let one = Cassette {
            sessions: vec![self.clone()],
        };
        one.write(&mut bytes).map_err(|x| {
            Error::new(
                ErrorKind::Cassette,
                format!("writing a session for {}: {x}", path.display()),
            )
        })?;
        append_locked(path, &bytes)
    }

    /// Appends to the cassette file at `path` (created when missing) the one line that says a
    /// recording tap (process `pid`) has started the session `id` of the provider `provider`
    /// (when known), under the same exclusive `flock` as [`Session::append_to`]. The session
    /// written at the end carries the same [`Session::id`]; a reader ([`Cassette::read`])
    /// refuses a file where a marker has no session, so that a tap killed before it wrote
    /// its session makes the cassette unusable instead of silently shorter.
    ///
    /// ```
    /// use tfwire_plugin::cassette::{Cassette, Session};
    /// let dir = std::env::temp_dir().join(format!("cassette-marker-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("c.jsonl");
    /// Session::open_marker(&path, "7-1", 7, Some("registry.opentofu.org/hashicorp/null"))?;
    /// let err = Cassette::read(&std::fs::read(&path)?).unwrap_err();
    /// assert!(err.to_string().contains("a recording tap (pid 7) started a session here"));
    /// Session { id: Some("7-1".into()), protocol: 5, ..Default::default() }.append_to(&path)?;
    /// assert_eq!(Cassette::read(&std::fs::read(&path)?)?.sessions.len(), 1);
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The file does not open, lock or take the write ([`ErrorKind::Cassette`], naming the
    /// path).
    pub fn open_marker(
        path: &Path,
        id: &str,
        pid: u32,
        provider: Option<&str>,
    ) -> Result<(), Error> {
        let mut line = super::format::marker_line(id, pid, provider);
        line.push('\n');
        append_locked(path, line.as_bytes())
    }
}

/// Appends `bytes` to the file at `path` (created when missing) in one write under an
/// exclusive `flock`.
fn append_locked(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let e = |what: &str, e: std::io::Error| {
        Error::new(
            ErrorKind::Cassette,
            format!("{what} {}: {e}", path.display()),
        )
    };
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|x| e("opening", x))?;
    rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
        .map_err(|x| e("locking", x.into()))?;
    let written = file.write_all(bytes).and_then(|()| file.flush());
    // Closing the file releases the lock.
    written.map_err(|x| e("appending to", x))
}
