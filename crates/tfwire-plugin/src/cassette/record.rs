//! Recording: an observer of the proxy that keeps every frame of every call, as the tap
//! forwards it, into a [`Session`].

use super::data::{Call, CallStatus, Session};
use crate::proxy::{Frame, Observer};
use crate::rpc::Direction;
use bytes::Bytes;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Collects one [`Session`]: a [`crate::proxy::Observer`] (install it alone, or beside
/// another observer with [`Recording`]) that keeps a copy of every frame of every call, in
/// the order the calls started, and each call's status.
///
/// A `Recorder` is a handle: clones share one session, so the caller keeps one to
/// [`Recorder::finish`] it when the proxy is done. The provider's schema comes from
/// [`Recorder::fetch_schema`] (the tap asks the provider itself when it starts, as clients
/// that cache schemas do not ask), or from the client's own `GetProviderSchema` call when
/// it makes one.
///
/// ```
/// use tfwire_plugin::cassette::Recorder;
/// use tfwire_plugin::proxy::{Frame, Observer};
/// use tfwire_plugin::rpc::Direction;
/// let recorder = Recorder::new(6);
/// let request = bytes::Bytes::new();
/// let response = bytes::Bytes::from_static(b"\x12\x02\x08\x01");
/// let method = "/tfplugin6.Provider/GetMetadata";
/// recorder.frame(Frame { method, direction: Direction::Request, message: &request, call: 0 });
/// recorder.frame(Frame { method, direction: Direction::Response, message: &response, call: 0 });
/// recorder.end(method, 0, Ok(()));
/// let session = recorder.finish();
/// assert_eq!(session.protocol, 6);
/// assert_eq!(session.calls[0].responses, [response]);
/// assert!(session.calls[0].status.is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Recorder {
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    session: Session,
    /// The calls by the proxy's number (numbered as they start).
    calls: BTreeMap<u64, Call>,
}

impl Recorder {
    /// A recorder of a provider speaking protocol `protocol` (5 or 6: the handshake's
    /// application version).
    pub fn new(protocol: u32) -> Recorder {
        let session = Session {
            protocol,
            ..Session::default()
        };
        Recorder {
            state: Arc::new(Mutex::new(State {
                session,
                calls: BTreeMap::new(),
            })),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the provider's address and version (either may be unknown).
    pub fn set_provider(&self, address: Option<String>, version: Option<String>) {
        let mut s = self.lock();
        s.session.provider = address;
        s.session.version = version;
    }

    /// Sets the session's id ([`Session::id`]): the one of the open marker the tap appended
    /// ([`Session::open_marker`]).
    pub fn set_id(&self, id: Option<String>) {
        self.lock().session.id = id;
    }

    /// Sets the provider's schema responses (protobuf): `GetProviderSchema` (protocol 5:
    /// `GetSchema`) and, when the provider has one, `GetResourceIdentitySchemas`.
    pub fn set_schema(&self, schema: Bytes, identities: Option<Bytes>) {
        let mut s = self.lock();
        s.session.schema = schema;
        s.session.identities = identities;
    }

    /// Asks the provider at `channel` for its schema and identity schemas and keeps both
    /// responses as they came ([`Recorder::set_schema`]). These calls are the recorder's own,
    /// not the client's: they are not among the session's calls.
    ///
    /// # Errors
    ///
    /// The schema call's gRPC status, as one line (a provider without
    /// `GetResourceIdentitySchemas` is no error: it has no identity schemas).
    pub async fn fetch_schema(&self, channel: tonic::transport::Channel) -> Result<(), String> {
        let protocol = self.lock().session.protocol;
        let (schema, ids) = if protocol >= 6 {
            (
                "/tfplugin6.Provider/GetProviderSchema",
                "/tfplugin6.Provider/GetResourceIdentitySchemas",
            )
        } else {
            (
                "/tfplugin5.Provider/GetSchema",
                "/tfplugin5.Provider/GetResourceIdentitySchemas",
            )
        };
        let mut grpc = tonic::client::Grpc::new(channel);
        let schema = crate::tap::empty_unary(&mut grpc, schema)
            .await
            .map_err(|e| format!("GetProviderSchema: {}", e.message()))?;
        let ids = crate::tap::empty_unary(&mut grpc, ids).await.ok();
        self.set_schema(schema, ids);
        Ok(())
    }

    /// The session recorded so far (the calls still running with the frames they had).
    pub fn finish(&self) -> Session {
        let s = self.lock();
        let mut session = s.session.clone();
        session.calls = s.calls.values().cloned().collect();
        session
    }
}

/// The schema responses a client's own calls carry, kept when the recorder has none.
fn schema_call(method: &str) -> Option<bool> {
    match method.rsplit('/').next() {
        Some("GetProviderSchema" | "GetSchema")
            if method.starts_with("/tfplugin") && method.contains(".Provider/") =>
        {
            Some(true)
        }
        Some("GetResourceIdentitySchemas") if method.starts_with("/tfplugin") => Some(false),
        _ => None,
    }
}

impl Observer for Recorder {
    fn frame(&self, frame: Frame<'_>) {
        // A copy: the frame's bytes are a slice of a larger HTTP/2 buffer, which a `Bytes`
        // clone would keep alive for the whole session.
        let message = Bytes::copy_from_slice(frame.message);
        let mut s = self.lock();
        if frame.direction == Direction::Response {
            match schema_call(frame.method) {
                Some(true) if s.session.schema.is_empty() => {
                    s.session.schema = message.clone();
                }
                Some(false) if s.session.identities.is_none() => {
                    s.session.identities = Some(message.clone());
                }
                _ => {}
            }
        }
        let call = s.calls.entry(frame.call).or_insert_with(|| Call {
            method: frame.method.to_owned(),
            ..Call::default()
        });
        match frame.direction {
            Direction::Request => call.requests.push(message),
            Direction::Response => call.responses.push(message),
        }
    }

    fn end(&self, method: &str, call: u64, status: Result<(), &tonic::Status>) {
        let mut s = self.lock();
        let call = s.calls.entry(call).or_insert_with(|| Call {
            method: method.to_owned(),
            ..Call::default()
        });
        call.status = match status {
            Ok(()) => CallStatus::OK,
            Err(e) => CallStatus {
                code: e.code() as i32,
                message: e.message().to_owned(),
            },
        };
    }
}

/// Two observers as one: every frame goes to `inner` and, when recording, to the recorder.
/// It dereferences to `inner`, so code written for the inner observer (the tap's
/// [`crate::tap::Tap`]) goes on calling it through the proxy's [`crate::proxy::Forward::observer`].
pub struct Recording<O> {
    inner: O,
    recorder: Option<Recorder>,
}

impl<O> Recording<O> {
    /// `inner`, and `recorder` when there is one.
    pub fn new(inner: O, recorder: Option<Recorder>) -> Recording<O> {
        Recording { inner, recorder }
    }

    /// The recorder, when recording.
    pub fn recorder(&self) -> Option<&Recorder> {
        self.recorder.as_ref()
    }
}

impl<O> core::ops::Deref for Recording<O> {
    type Target = O;

    fn deref(&self) -> &O {
        &self.inner
    }
}

impl<O: Observer> Observer for Recording<O> {
    fn frame(&self, frame: Frame<'_>) {
        if let Some(r) = &self.recorder {
            r.frame(frame);
        }
        self.inner.frame(frame);
    }

    fn forwarded(&self, frame: Frame<'_>, held: std::time::Duration) {
        self.inner.forwarded(frame, held);
    }

    fn end(&self, method: &str, call: u64, status: Result<(), &tonic::Status>) {
        if let Some(r) = &self.recorder {
            r.end(method, call, status);
        }
        self.inner.end(method, call, status);
    }
}

/// The provider's address and version from where its executable lies, when that is a
/// provider directory laid out as OpenTofu and Terraform lay them out (a filesystem mirror's
/// unpacked layout, a plugin cache, `.terraform/providers`):
/// `…/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE…`.
///
/// ```
/// use std::path::Path;
/// use tfwire_plugin::cassette::provider_from_path;
/// let p = Path::new(
///     "/m/registry.opentofu.org/hashicorp/null/3.2.4/linux_amd64/terraform-provider-null_v3.2.4_x5",
/// );
/// assert_eq!(
///     provider_from_path(p),
///     Some(("registry.opentofu.org/hashicorp/null".to_owned(), "3.2.4".to_owned())),
/// );
/// assert_eq!(provider_from_path(Path::new("/usr/bin/terraform-provider-null")), None);
/// ```
pub fn provider_from_path(path: &Path) -> Option<(String, String)> {
    let parts: Vec<&str> = path
        .iter()
        .rev()
        .take(6)
        .map(|c| c.to_str())
        .collect::<Option<_>>()?;
    let [file, os_arch, version, ty, namespace, host] = parts[..] else {
        return None;
    };
    let name = file.strip_prefix("terraform-provider-")?;
    let ok = name.starts_with(ty)
        && os_arch.contains('_')
        && version.chars().next().is_some_and(|c| c.is_ascii_digit())
        && host.contains('.')
        && !namespace.is_empty();
    ok.then(|| (format!("{host}/{namespace}/{ty}"), version.to_owned()))
}
