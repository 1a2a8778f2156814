//! A [`Replayer`] as a gRPC server of raw frames.

use super::{Mismatch, Replayer};
use crate::proxy::{BoxFuture, RawCodec};
use bytes::Bytes;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio_stream::Stream;
use tonic::body::Body;
use tonic::codegen::{Service, http};
use tonic::{Request, Response, Status, Streaming};

/// The most request messages one call may send (a client stream: `WriteStateBytes`).
const MAX_REQUESTS: usize = 100_000;

/// The most bytes the request messages of one call may hold in all.
const MAX_REQUEST_BYTES: usize = 1 << 30;

/// go-controller's `Shutdown`: the client is done with the plugin.
const SHUTDOWN: &str = "/plugin.GRPCController/Shutdown";

/// The health check go-plugin's client may make.
const HEALTH: &str = "/grpc.health.v1.Health/Check";

/// A `grpc.health.v1.HealthCheckResponse` with status `SERVING`.
const SERVING: &[u8] = &[0x08, 0x01];

type BoxStream = Pin<Box<dyn Stream<Item = Result<Bytes, Status>> + Send>>;
type Hook<T> = Arc<dyn Fn(&T) + Send + Sync>;

/// A replayer served: answers every call of [`crate::proxy::SERVICES`] from the cassette
/// (see [`crate::replay`]), except go-plugin's own services, answered here: the controller's
/// `Shutdown` (an empty answer, then the shutdown hook), the health check (`SERVING`), and
/// `Unimplemented` for the stdio and broker streams (go-plugin's client goes on without
/// them, as it does with a plugin that has none).
#[derive(Clone)]
pub struct Replay {
    replayer: Arc<Replayer>,
    on_shutdown: Hook<()>,
    on_mismatch: Hook<Mismatch>,
}

/// Serves `replayer` (see [`Replay`]).
pub fn service(replayer: Arc<Replayer>) -> Replay {
    Replay {
        replayer,
        on_shutdown: Arc::new(|_| {}),
        on_mismatch: Arc::new(|_| {}),
    }
}

impl Replay {
    /// Calls `f` when the client asks the plugin to shut down (go-plugin's controller).
    pub fn on_shutdown(mut self, f: impl Fn() + Send + Sync + 'static) -> Replay {
        self.on_shutdown = Arc::new(move |()| f());
        self
    }

    /// Calls `f` with every mismatch, before the call is answered with it.
    pub fn on_mismatch(mut self, f: impl Fn(&Mismatch) + Send + Sync + 'static) -> Replay {
        self.on_mismatch = Arc::new(f);
        self
    }

    /// The replayer.
    pub fn replayer(&self) -> &Arc<Replayer> {
        &self.replayer
    }

    /// A tonic router with every service of [`crate::proxy::SERVICES`] answered.
    pub fn router(&self) -> tonic::transport::server::Router {
        crate::proxy::router(self.clone())
    }
}

impl Service<http::Request<Body>> for Replay {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<Result<http::Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<Body>) -> Self::Future {
        let call = Answering {
            replay: self.clone(),
            path: req.uri().path().into(),
        };
        Box::pin(async move {
            let mut grpc = tonic::server::Grpc::new(RawCodec);
            Ok(grpc.streaming(call, req).await)
        })
    }
}

/// One call.
struct Answering {
    replay: Replay,
    path: Arc<str>,
}

fn stream(frames: Vec<Bytes>, end: Option<Status>) -> Response<BoxStream> {
    let items = frames.into_iter().map(Ok).chain(end.map(Err));
    Response::new(Box::pin(tokio_stream::iter(items)))
}

impl Service<Request<Streaming<Bytes>>> for Answering {
    type Response = Response<BoxStream>;
    type Error = Status;
    type Future = BoxFuture<Result<Response<BoxStream>, Status>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Status>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Streaming<Bytes>>) -> Self::Future {
        let (replay, path) = (self.replay.clone(), self.path.clone());
        Box::pin(async move {
            match &*path {
                SHUTDOWN => {
                    (replay.on_shutdown)(&());
                    return Ok(stream(vec![Bytes::new()], None));
                }
                HEALTH => return Ok(stream(vec![Bytes::from_static(SERVING)], None)),
                p if p.starts_with("/plugin.") || p.starts_with("/grpc.") => {
                    return Err(Status::unimplemented(format!(
                        "tfwire replay does not serve {p}"
                    )));
                }
                _ => {}
            }
            let mut frames = request.into_inner();
            let mut requests = Vec::new();
            let mut bytes = 0usize;
            while let Some(m) = frames.message().await? {
                bytes += m.len();
                requests.push(m);
                if requests.len() > MAX_REQUESTS || bytes > MAX_REQUEST_BYTES {
                    return Err(Status::resource_exhausted(format!(
                        "tfwire replay: {path}: more than {MAX_REQUESTS} request messages or \
                         {MAX_REQUEST_BYTES} bytes in one call"
                    )));
                }
            }
            match replay.replayer.answer(&path, &requests) {
                Ok(a) => {
                    let end = (!a.status.is_ok())
                        .then(|| Status::new(tonic::Code::from(a.status.code), a.status.message));
                    match end {
                        Some(s) if a.responses.is_empty() => Err(s),
                        end => Ok(stream(a.responses, end)),
                    }
                }
                Err(m) => {
                    (replay.on_mismatch)(&m);
                    Err(m.into())
                }
            }
        })
    }
}
