//! A plugin server's client connections, counted, so that a server in a plugin's place (`tfwire
//! tap`, `tfwire replay`) knows when its client has gone (go-plugin's client closes its
//! connection when it is done with a plugin, then kills the plugin's process after 2 s).

use crate::tls::Conn;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio_stream::{Stream, StreamExt as _};
use tonic::transport::server::Connected;

/// The live connections: how many, and whether there ever was one.
#[derive(Default)]
pub struct Clients {
    live: AtomicUsize,
    seen: AtomicBool,
    changed: Notify,
}

impl Clients {
    /// Counts the connections of `incoming` while they last.
    pub fn track(
        self: &Arc<Self>,
        incoming: impl Stream<Item = io::Result<Conn>> + Send + 'static,
    ) -> impl Stream<Item = io::Result<Tracked>> + Send + 'static {
        let clients = self.clone();
        incoming.map(move |c| {
            c.map(|conn| {
                clients.live.fetch_add(1, Ordering::SeqCst);
                clients.seen.store(true, Ordering::SeqCst);
                Tracked {
                    conn,
                    clients: clients.clone(),
                }
            })
        })
    }

    /// Returns once a client has connected and every connection has closed since.
    pub async fn gone(&self) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if self.seen.load(Ordering::SeqCst) && self.live.load(Ordering::SeqCst) == 0 {
                return;
            }
            changed.await;
        }
    }
}

/// A connection, counted until it is dropped.
pub struct Tracked {
    conn: Conn,
    clients: Arc<Clients>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.clients.live.fetch_sub(1, Ordering::SeqCst);
        self.clients.changed.notify_waiters();
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().conn).poll_read(cx, buf)
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().conn).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().conn).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().conn).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().conn).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.conn.is_write_vectored()
    }
}

impl Connected for Tracked {
    type ConnectInfo = ();

    fn connect_info(&self) {}
}
