//! A transparent gRPC proxy: every call forwarded to an upstream channel as raw frames, each
//! frame shown to an [`Observer`] on the way.
//!
//! The proxy decodes nothing it forwards: a frame is a `Bytes` slice of the HTTP/2 body,
//! passed on as it came (the observer may decode it, [`crate::rpc::decode`]). Every call is
//! forwarded as a bidirectional stream, which on the wire is also what unary and one-way
//! streaming calls are, so methods this crate does not know pass through too. The services
//! routed are those of the plugin protocol and of go-plugin ([`SERVICES`]).

use crate::rpc::Direction;
use bytes::{Buf, BufMut, Bytes};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;
use tokio_stream::{Stream, StreamExt};
use tonic::body::Body;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::{Service, http};
use tonic::server::NamedService;
use tonic::transport::Channel;
use tonic::{Request, Response, Status, Streaming};

/// The gRPC services a plugin serves: the plugin protocol's and go-plugin's own.
pub const SERVICES: [&str; 7] = [
    "tfplugin5.Provider",
    "tfplugin5.Provisioner",
    "tfplugin6.Provider",
    "plugin.GRPCStdio",
    "plugin.GRPCController",
    "plugin.GRPCBroker",
    "grpc.health.v1.Health",
];

/// One frame on its way through the proxy.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// The call's gRPC path (`/tfplugin6.Provider/PlanResourceChange`).
    pub method: &'a str,
    /// Which way it travels.
    pub direction: Direction,
    /// The protobuf message (without gRPC's 5-byte prefix).
    pub message: &'a Bytes,
    /// The call's number (calls are numbered from 0 as they start), to pair a response with
    /// its request.
    pub call: u64,
}

/// What the proxy tells about the traffic. Called on the proxy's tasks: keep it quick (or
/// hand the frame, a cheap `Bytes` clone, to another task).
pub trait Observer: Send + Sync + 'static {
    /// A frame, before it is forwarded.
    fn frame(&self, frame: Frame<'_>);

    /// A frame was handed on, `held` after it reached the proxy (for a call's first request
    /// frame: after the call's headers did, so the upstream call's setup counts). The time the
    /// proxy adds to the frame, HTTP/2 and TLS aside.
    fn forwarded(&self, frame: Frame<'_>, held: std::time::Duration) {
        let _ = (frame, held);
    }

    /// A call ended, with its gRPC status (`Ok(())` when it ended without an error).
    fn end(&self, method: &str, call: u64, status: Result<(), &Status>) {
        let _ = (method, call, status);
    }
}

/// The codec of raw frames: bytes in, the same bytes out.
///
/// Its buffers are [`RAW_BUFFER`] bytes: a frame is handed on as a slice of the read buffer
/// (kept alive by the observer's copy of it), so with tonic's 8 KiB default every message of
/// more than 8 KiB grew the buffer by reallocating (a copy) and a new buffer was allocated
/// for nearly every message; with 64 KiB a buffer holds several of the messages OpenTofu and
/// providers usually exchange before the next one is allocated.
#[derive(Clone, Copy, Debug, Default)]
pub struct RawCodec;

/// The size of [`RawCodec`]'s read and write buffers: 64 KiB.
pub const RAW_BUFFER: usize = 64 * 1024;

/// tonic's own threshold for handing encoded messages on: 32 KiB.
const YIELD_THRESHOLD: usize = 32 * 1024;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }

    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::new(RAW_BUFFER, YIELD_THRESHOLD)
    }
}

impl Decoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        let n = src.remaining();
        Ok(Some(src.copy_to_bytes(n)))
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::new(RAW_BUFFER, YIELD_THRESHOLD)
    }
}

/// The forwarding service: served by [`Forward::router`] under every name of [`SERVICES`],
/// all sharing one upstream channel and observer.
pub struct Forward<O> {
    upstream: Channel,
    observer: Arc<O>,
    calls: Arc<std::sync::atomic::AtomicU64>,
}

impl<O> Clone for Forward<O> {
    fn clone(&self) -> Self {
        Forward {
            upstream: self.upstream.clone(),
            observer: self.observer.clone(),
            calls: self.calls.clone(),
        }
    }
}

impl<O: Observer> Forward<O> {
    /// Forwards to `upstream`, showing every frame to `observer`.
    pub fn new(upstream: Channel, observer: O) -> Forward<O> {
        Forward {
            upstream,
            observer: Arc::new(observer),
            calls: Arc::default(),
        }
    }

    /// The observer.
    pub fn observer(&self) -> &Arc<O> {
        &self.observer
    }
}

type BoxStream = Pin<Box<dyn Stream<Item = Result<Bytes, Status>> + Send>>;
/// A boxed future, as the services here return them.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// One call: forwards its request stream upstream, and the response stream back.
struct Call<O> {
    forward: Forward<O>,
    path: Arc<str>,
    call: u64,
    /// When the call's headers reached the proxy.
    started: Instant,
}

impl<O: Observer> Service<Request<Streaming<Bytes>>> for Call<O> {
    type Response = Response<BoxStream>;
    type Error = Status;
    type Future = BoxFuture<Result<Response<BoxStream>, Status>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Status>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Streaming<Bytes>>) -> Self::Future {
        let (forward, path, call) = (self.forward.clone(), self.path.clone(), self.call);
        let started = self.started;
        Box::pin(async move {
            let (metadata, extensions, frames) = request.into_parts();
            let (o, p) = (forward.observer.clone(), path.clone());
            let mut first = Some(started);
            // A client stream that fails ends the upstream request stream; the error itself
            // reaches the client from its own side.
            let frames = frames.map_while(Result::ok).map(move |message| {
                let t = first.take().unwrap_or_else(Instant::now);
                let frame = Frame {
                    method: &p,
                    direction: Direction::Request,
                    message: &message,
                    call,
                };
                o.frame(frame);
                o.forwarded(frame, t.elapsed());
                message
            });
            let mut client = tonic::client::Grpc::new(forward.upstream.clone());
            client
                .ready()
                .await
                .map_err(|e| Status::unavailable(format!("upstream: {e}")))?;
            let pq = http::uri::PathAndQuery::try_from(&*path)
                .map_err(|e| Status::internal(format!("method path: {e}")))?;
            let request = Request::from_parts(metadata, extensions, frames);
            let response = match client.streaming(request, pq, RawCodec).await {
                Ok(r) => r,
                Err(s) => {
                    forward.observer.end(&path, call, Err(&s));
                    return Err(s);
                }
            };
            let (metadata, frames, extensions) = response.into_parts();
            let o = forward.observer.clone();
            let mut done = false;
            let frames = frames.map(move |r| {
                match &r {
                    Ok(message) => {
                        let t = Instant::now();
                        let frame = Frame {
                            method: &path,
                            direction: Direction::Response,
                            message,
                            call,
                        };
                        o.frame(frame);
                        o.forwarded(frame, t.elapsed());
                    }
                    Err(s) if !done => {
                        done = true;
                        o.end(&path, call, Err(s));
                    }
                    Err(_) => {}
                }
                r
            });
            let frames: BoxStream = Box::pin(frames);
            Ok(Response::from_parts(metadata, frames, extensions))
        })
    }
}

/// [`Forward`] as a tower service of HTTP requests.
pub struct Named<O> {
    forward: Forward<O>,
}

impl<O> Clone for Named<O> {
    fn clone(&self) -> Self {
        Named {
            forward: self.forward.clone(),
        }
    }
}

impl<O: Observer> Service<http::Request<Body>> for Named<O> {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<Result<http::Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<Body>) -> Self::Future {
        let call = self
            .forward
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let c = Call {
            forward: self.forward.clone(),
            path: req.uri().path().into(),
            call,
            started: Instant::now(),
        };
        Box::pin(async move {
            let mut grpc = tonic::server::Grpc::new(RawCodec);
            Ok(grpc.streaming(c, req).await)
        })
    }
}

/// What [`router`] serves: a tower service of HTTP requests answering every method of its
/// services, as [`Named`] (the forwarder) and [`crate::replay::Replay`] do.
pub trait Served:
    Service<
        http::Request<Body>,
        Response = http::Response<Body>,
        Error = Infallible,
        Future = BoxFuture<Result<http::Response<Body>, Infallible>>,
    > + Clone
    + Send
    + Sync
    + 'static
{
}

impl<S> Served for S where
    S: Service<
            http::Request<Body>,
            Response = http::Response<Body>,
            Error = Infallible,
            Future = BoxFuture<Result<http::Response<Body>, Infallible>>,
        > + Clone
        + Send
        + Sync
        + 'static
{
}

macro_rules! named {
    ($($t:ident $n:literal;)*) => {$(
        #[doc = concat!("`", $n, "`, routed to the service inside.")]
        #[derive(Clone)]
        pub struct $t<S>(S);

        impl<S> NamedService for $t<S> {
            const NAME: &'static str = $n;
        }

        impl<S: Served> Service<http::Request<Body>> for $t<S> {
            type Response = http::Response<Body>;
            type Error = Infallible;
            type Future = BoxFuture<Result<http::Response<Body>, Infallible>>;

            fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
                self.0.poll_ready(cx)
            }

            fn call(&mut self, req: http::Request<Body>) -> Self::Future {
                self.0.call(req)
            }
        }
    )*};
}

named! {
    Tfplugin5Provider "tfplugin5.Provider";
    Tfplugin5Provisioner "tfplugin5.Provisioner";
    Tfplugin6Provider "tfplugin6.Provider";
    GrpcStdio "plugin.GRPCStdio";
    GrpcController "plugin.GRPCController";
    GrpcBroker "plugin.GRPCBroker";
    Health "grpc.health.v1.Health";
}

/// A tonic router serving `service` under every name of [`SERVICES`].
pub fn router<S: Served>(service: S) -> tonic::transport::server::Router {
    tonic::transport::Server::builder()
        .add_service(Tfplugin5Provider(service.clone()))
        .add_service(Tfplugin5Provisioner(service.clone()))
        .add_service(Tfplugin6Provider(service.clone()))
        .add_service(GrpcStdio(service.clone()))
        .add_service(GrpcController(service.clone()))
        .add_service(GrpcBroker(service.clone()))
        .add_service(Health(service))
}

impl<O: Observer> Forward<O> {
    /// A tonic router with every service of [`SERVICES`] forwarded.
    pub fn router(&self) -> tonic::transport::server::Router {
        router(Named {
            forward: self.clone(),
        })
    }
}

/// Serves `forward` on `listener` until the listener fails.
pub async fn serve<O: Observer>(
    listener: tokio::net::TcpListener,
    forward: Forward<O>,
) -> Result<(), tonic::transport::Error> {
    forward
        .router()
        .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener))
        .await
}
