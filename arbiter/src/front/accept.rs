//! The accept loop of a listener. Each connection is admitted
//! ([`super::admission`]) and served on a task of its own
//! ([`super::conn`]), or refused: a short `503 Service Unavailable` naming
//! the limit, then closed. Refusals are logged, at most one line a second
//! (a flood of refused connections must not flood the log too).
//!
//! An accept error other than a connection's own (reset before it was
//! accepted, …) means the process is out of something — descriptors,
//! memory — until connections end: the loop waits, 5 ms doubling up to a
//! second, and tries again, instead of spinning on the error; it logs the
//! first error of such a run. Connections already open are served on
//! meanwhile, and their deadlines free descriptors.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;

use super::admission::{Admission, Full};
use super::guard::AllowedHosts;
use super::{conn, layers, Limits};

/// Refused connections being answered at once; beyond, a refused
/// connection is closed without an answer.
const ANSWERING_REFUSALS: usize = 64;
/// The longest a refused connection is kept to be answered.
const REFUSAL_LIMIT: Duration = Duration::from_secs(1);
const FIRST_BACKOFF: Duration = Duration::from_millis(5);
const LONGEST_BACKOFF: Duration = Duration::from_secs(1);

/// What to do with each accepted connection.
pub struct Front {
    pub app: Router,
    /// The `Host`/`Origin` guard's hosts; `None`: no guard.
    pub allowed: Option<AllowedHosts>,
    pub limits: Limits,
    /// `SO_SNDBUF` of each connection, when bounded.
    pub send_buffer: Option<usize>,
    /// `TCP_NODELAY` on each connection (small frames of a line protocol).
    pub nodelay: bool,
    /// TLS on every connection (`--tls-cert`/`--tls-key`); `None`: plain.
    pub tls: Option<super::tls::Tls>,
}

/// Serves `front` on `listener` until the process ends.
pub async fn run(listener: TcpListener, front: Front) -> io::Result<()> {
    let limits = front.limits.effective(super::descriptor_limit());
    let admission = Admission::new(limits.max_connections, limits.max_connections_per_address);
    let app = layers::wrap(front.app, front.allowed, &limits);
    let answering = Arc::new(Semaphore::new(ANSWERING_REFUSALS));
    let mut refusals = Throttle::default();
    let mut backoff = None::<Duration>;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => {
                backoff = None;
                accepted
            }
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                let wait = backoff.map_or(FIRST_BACKOFF, |b| (b * 2).min(LONGEST_BACKOFF));
                if backoff.is_none() {
                    tracing::warn!(
                        "cannot accept connections ({e}); retrying, the open ones are served on"
                    );
                }
                backoff = Some(wait);
                tokio::time::sleep(wait).await;
                continue;
            }
        };
        match admission.admit(peer.ip()) {
            Ok(ticket) => {
                if let Some(bytes) = front.send_buffer {
                    set_send_buffer(&stream, bytes);
                }
                if front.nodelay {
                    if let Err(e) = stream.set_nodelay(true) {
                        tracing::debug!("cannot set TCP_NODELAY on a connection: {e}");
                    }
                }
                let app = app.clone();
                match front.tls.clone() {
                    None => {
                        tokio::spawn(conn::serve(stream, peer, ticket, app, limits));
                    }
                    // why on the connection's task: a slow handshake must
                    // not hold the accept loop; the ticket holds its place.
                    Some(tls) => {
                        tokio::spawn(async move {
                            match tls.accept(stream, limits.header_timeout).await {
                                Ok(stream) => conn::serve(stream, peer, ticket, app, limits).await,
                                Err(e) => tracing::info!(
                                    %peer,
                                    "connection closed: TLS handshake failed: {e} \
                                     (a plain http:// or ws:// client of a TLS listener?)"
                                ),
                            }
                        });
                    }
                }
            }
            Err(full) => {
                refusals.note(|n| {
                    tracing::warn!(
                        "connection from {peer} refused: {full} ({n} refused this second)"
                    )
                });
                if let Ok(permit) = answering.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        let _permit = permit;
                        refuse(stream, peer, full).await;
                    });
                }
            }
        }
    }
}

/// Errors of one connection, not of the listener (see `accept(2)`).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Answers a connection that has no place with a 503 naming the limit,
/// within [`REFUSAL_LIMIT`].
async fn refuse(mut stream: TcpStream, peer: SocketAddr, full: Full) {
    let body = format!("refused: {full}; try again later\n");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let deadline = Instant::now() + REFUSAL_LIMIT;
    let _ = tokio::time::timeout_at(deadline, async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        // why read what the client sent: closing a socket with unread input
        // resets the connection, and the client may lose the answer.
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
    tracing::debug!(%peer, "refused connection closed");
}

/// Counts events and lets one log line through a second.
#[derive(Default)]
struct Throttle {
    since: Option<Instant>,
    count: usize,
}

impl Throttle {
    fn note(&mut self, log: impl FnOnce(usize)) {
        let now = Instant::now();
        self.count += 1;
        let due = self
            .since
            .is_none_or(|t| now.duration_since(t) >= Duration::from_secs(1));
        if due {
            log(self.count);
            self.since = Some(now);
            self.count = 0;
        }
    }
}

/// `SO_SNDBUF` of one connection; a failure only leaves the default.
fn set_send_buffer(stream: &TcpStream, bytes: usize) {
    use std::os::fd::AsRawFd;
    let value = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
    // SAFETY: a valid socket descriptor, an int option of the right size.
    let rc = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            std::ptr::from_ref(&value).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if rc != 0 {
        tracing::debug!(
            "cannot bound a connection's send buffer: {}",
            std::io::Error::last_os_error()
        );
    }
}
