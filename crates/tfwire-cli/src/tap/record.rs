//! `tfwire tap --record`: one recorder per provider the tap serves. Each recorder appends an
//! open marker to the cassette when it starts, and its session as soon as the provider has
//! ended or the client's last connection closed (before the tap's own teardown: the client
//! kills a provider process that has not exited 2 s after asking it to shut down).

use crate::Failure;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tfwire::mask::Masks;
use tfwire_plugin::cassette::{Recorder, Session, provider_from_path, redact};

/// How long the recorder waits for the provider's schema.
const FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Where sessions go and how.
pub(crate) struct Record {
    path: PathBuf,
    redact: Option<Masks>,
    address: Option<String>,
    version: Option<String>,
    recorders: Mutex<Vec<Recorder>>,
    /// The sessions started so far (for their ids).
    started: std::sync::atomic::AtomicUsize,
    /// The first failure to write a session, reported at the end.
    failed: Mutex<Option<String>>,
}

impl Record {
    /// Records to `path`; `redact`: the masks to redact with, when redacting.
    pub(crate) fn new(
        path: PathBuf,
        redact: Option<Masks>,
        address: Option<String>,
        version: Option<String>,
    ) -> Record {
        Record {
            path,
            redact,
            address,
            version,
            recorders: Mutex::default(),
            started: std::sync::atomic::AtomicUsize::new(0),
            failed: Mutex::default(),
        }
    }

    /// A recorder for one provider speaking `protocol`, its address from the flags, else
    /// from `label` (reattach mode: the provider's address), else from where its executable
    /// lies; its schema asked of it now.
    pub(crate) async fn start(
        &self,
        protocol: u32,
        executable: Option<&Path>,
        label: Option<&str>,
        channel: tonic::transport::Channel,
    ) -> Recorder {
        let recorder = Recorder::new(protocol);
        let found = executable.and_then(provider_from_path);
        let address = self
            .address
            .clone()
            .or_else(|| label.map(str::to_owned))
            .or_else(|| found.as_ref().map(|f| f.0.clone()));
        let version = self.version.clone().or_else(|| found.map(|f| f.1));
        // The open marker: a reader refuses the cassette if this tap is killed before its
        // session is written.
        let n = self
            .started
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let ns = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let pid = std::process::id();
        let id = format!("{pid}-{ns}-{n}");
        if let Err(e) = Session::open_marker(&self.path, &id, pid, address.as_deref()) {
            self.fail(format!("--record: {e}"));
        }
        recorder.set_id(Some(id));
        recorder.set_provider(address, version);
        // The provider answered the tap's own schema call already: the bound is for a
        // provider that stops answering in between.
        match tokio::time::timeout(FETCH_TIMEOUT, recorder.fetch_schema(channel)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => eprintln!("tfwire tap: --record: {e}"),
            Err(_) => eprintln!(
                "tfwire tap: --record: the provider did not return its schema within {} s",
                FETCH_TIMEOUT.as_secs()
            ),
        }
        self.recorders
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(recorder.clone());
        recorder
    }

    /// Remembers the first failure (returned by [`Record::finish`]); says the others at once.
    fn fail(&self, message: String) {
        let mut f = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_some() {
            eprintln!("tfwire tap: {message}");
        } else {
            *f = Some(message);
        }
    }

    /// Appends every session not written yet (redacted when asked) to the cassette, now. A
    /// session that does not redact is not written (it would hold secrets); its failure, like
    /// one to append, is returned by [`Record::finish`].
    pub(crate) fn write(&self) {
        let recorders =
            std::mem::take(&mut *self.recorders.lock().unwrap_or_else(|e| e.into_inner()));
        for r in recorders {
            let mut session = r.finish();
            if let Some(masks) = &self.redact
                && let Err(e) = redact(&mut session, masks)
            {
                self.fail(format!(
                    "--redact: {e} (the session was not written: it would hold secrets)"
                ));
                continue;
            }
            if let Err(e) = session.append_to(&self.path) {
                self.fail(format!("--record: {e}"));
            }
        }
    }

    /// Writes what is left ([`Record::write`]); the first failure of the recording, if any.
    pub(crate) fn finish(self) -> Result<(), Failure> {
        self.write();
        match self.failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(m) => Err(Failure::Input(m)),
            None => Ok(()),
        }
    }
}
