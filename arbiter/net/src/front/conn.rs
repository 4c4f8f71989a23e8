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
//! - The connection is served in a span naming its peer (`conn{peer=…}`),
//!   so every log line of its requests, and of the sockets they open
//!   ([`super::websocket::serve_in_span`]), says whose it is.

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

use super::conn_limits::Ticket;
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
/// a deadline (logged at `info` with the reason, in the connection's span:
/// its peer).
pub async fn serve<S>(stream: S, peer: SocketAddr, ticket: Ticket, app: Router, limits: Limits)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    use tracing::Instrument;
    // why error level: a span is shown only when its level is enabled; at
    // ERROR it names the connection on every warning the default filter
    // (`warn`) lets through (as the games' spans do).
    let span = tracing::error_span!("conn", %peer);
    serve_in_span(stream, peer, ticket, app, limits)
        .instrument(span)
        .await
}

async fn serve_in_span<S>(stream: S, peer: SocketAddr, ticket: Ticket, app: Router, limits: Limits)
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
                    tracing::info!("connection closed: {e}");
                }
                return;
            }
            () = tokio::time::sleep_until(idle_at) => {
                if progress.last() + limits.idle_timeout <= Instant::now() {
                    tracing::info!(
                        "connection closed: no byte either way for {}s (--idle-timeout)",
                        limits.idle_timeout.as_secs_f64()
                    );
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use axum::routing::get;
    use axum::Router;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use crate::front::server::Server;

    /// What the test's subscriber wrote.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let mut log = self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            log.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
        type Writer = Captured;

        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }

    /// A handler's warning says which connection (its peer) and which
    /// route it was for, without being told: the front's spans do, under
    /// the default filter (`warn`). (A current-thread runtime, so the
    /// subscriber set for this thread sees the connection's task.)
    #[tokio::test]
    async fn a_log_line_of_a_connection_names_its_peer_and_route() {
        let captured = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(captured.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::WARN)
            .finish();
        let _default = tracing::subscriber::set_default(subscriber);
        let app = Router::new().route(
            "/hello",
            get(|| async {
                tracing::warn!("answering");
                "hi"
            }),
        );
        let server = Server::bind_tls(([127, 0, 0, 1], 0).into(), &[], None, |_| app)
            .await
            .expect("binds on loopback");
        let addr = server.addr;
        let serving = tokio::spawn(server.run(std::future::pending::<()>()));
        let mut client = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connects");
        let me = client.local_addr().expect("the client's address");
        let request =
            format!("GET /hello?secret=1 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        client.write_all(request.as_bytes()).await.expect("sends");
        let mut answer = String::new();
        tokio::time::timeout(Duration::from_secs(60), client.read_to_string(&mut answer))
            .await
            .expect("answered in time")
            .expect("reads");
        serving.abort();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let log = captured.0.lock().expect("the log").clone();
        let log = String::from_utf8_lossy(&log);
        let line = log
            .lines()
            .find(|l| l.contains("answering"))
            .unwrap_or_else(|| panic!("the handler's line in {log}"));
        assert!(line.contains(&format!("peer={me}")), "{line}");
        assert!(line.contains("route=/hello"), "{line}");
        assert!(!line.contains("secret"), "no query in the log: {line}");
    }
}
