//! `tfwire tap --record`: one recorder per provider the tap serves, each session appended to
//! the cassette when the tap ends.

use crate::Failure;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tfwire::mask::Masks;
use tfwire_plugin::cassette::{Recorder, provider_from_path, redact};

/// How long the recorder waits for the provider's schema.
const FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Where sessions go and how.
pub(crate) struct Record {
    path: PathBuf,
    redact: Option<Masks>,
    address: Option<String>,
    version: Option<String>,
    recorders: Mutex<Vec<Recorder>>,
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

    /// Appends every session (redacted when asked) to the cassette.
    pub(crate) fn finish(self) -> Result<(), Failure> {
        let recorders = self
            .recorders
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        for r in recorders {
            let mut session = r.finish();
            if let Some(masks) = &self.redact {
                redact(&mut session, masks).map_err(|e| {
                    Failure::Input(format!(
                        "--redact: {e} (the session was not written: it would hold secrets)"
                    ))
                })?;
            }
            session
                .append_to(&self.path)
                .map_err(|e| Failure::Input(format!("--record: {e}")))?;
        }
        Ok(())
    }
}
