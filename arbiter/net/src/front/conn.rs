//! One admitted connection, served by hyper's HTTP/1 server:
//!
//! - hyper's `header_read_timeout`: a request's head (line and headers) must
//!   arrive within [`super::Limits::header_timeout`] of the server starting
//!   to wait for it. That closes a slowloris connection (a byte a second is
//!   not enough), a connection that never sends anything, and a keep-alive
//!   connection left idle between requests.
//! - The idle deadline: a connection over which no byte has gone either way
//!   for [`super::Limits::idle_timeout`] is closed, whatever it was doing (a
//!   client that stopped reading its answer holds nothing for long).
//! - A WebSocket upgrade takes the connection out of hyper's hands: its
//!   [`Tracked`] stream, with the admission [`Ticket`], goes with it, so the
//!   place is held until the socket closes. The pages' sockets have their
//!   own rules for a page that stops reading (`web::socket::SEND_TIMEOUT`).
//! - Every request carries its connection's peer address, axum's
//!   [`ConnectInfo`] (the KGP WebSocket's greetings are counted by address).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Instant;

use super::admission::Ticket;
use super::Limits;

/// When a connection last moved a byte, in milliseconds since it opened.
#[derive(Debug)]
struct Progress {
    opened: Instant,
    last_ms: AtomicU64,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            opened: Instant::now(),
            last_ms: AtomicU64::new(0),
        }
    }

    fn touch(&self) {
        let ms = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    fn last(&self) -> Instant {
        self.opened + std::time::Duration::from_millis(self.last_ms.load(Ordering::Relaxed))
    }
}

/// A connection's stream that notes each byte moved, and holds the
/// connection's place for as long as it lives.
pub struct Tracked<S> {
    inner: S,
    progress: Arc<Progress>,
    _ticket: Ticket,
}

impl<S: AsyncRead + Unpin> AsyncRead for Tracked<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.progress.touch();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Tracked<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.progress.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.progress.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Serves `app` on one admitted connection until it closes, or is closed by
/// a deadline (logged at `info` with the peer and the reason).
pub async fn serve<S>(stream: S, peer: SocketAddr, ticket: Ticket, app: Router, limits: Limits)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let progress = Arc::new(Progress::new());
    let io = TokioIo::new(Tracked {
        inner: stream,
        progress: progress.clone(),
        _ticket: ticket,
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .serve_connection(
            io,
            TowerToHyperService::new(tower_http::add_extension::AddExtension::new(
                app,
                ConnectInfo(peer),
            )),
        )
        .with_upgrades();
    tokio::pin!(connection);
    loop {
        let idle_at = progress.last() + limits.idle_timeout;
        tokio::select! {
            done = connection.as_mut() => {
                if let Err(e) = done {
                    // A header deadline, a client gone mid-request, a bad request.
                    tracing::info!(%peer, "connection closed: {e}");
                }
                return;
            }
            () = tokio::time::sleep_until(idle_at) => {
                if progress.last() + limits.idle_timeout <= Instant::now() {
                    tracing::info!(
                        %peer,
                        "connection closed: no byte either way for {}s (--idle-timeout)",
                        limits.idle_timeout.as_secs_f64()
                    );
                    return;
                }
            }
        }
    }
}
