//! The accept loop of a listener. Each connection is admitted
//! ([`super::conn_limits`]) and served on a task of its own
//! ([`super::conn`]), or refused: a short `503 Service Unavailable` naming
//! the limit, then closed. Every refused connection gets its 503, however
//! many come at once: it is written in the loop itself, with bounded work
//! (one read of what already arrived, one write that does not wait, see
//! [`refuse`]), so a flood cannot hold the loop. Refusals are logged, at
//! most one line a second (a flood of refused connections must not flood
//! the log too).
//!
//! An accept error other than a connection's own (reset before it was
//! accepted, …) means the process is out of something — descriptors,
//! memory — until connections end: the loop waits, 5 ms doubling up to a
//! second, and tries again, instead of spinning on the error; it logs the
//! first error of such a run. Connections already open are served on
//! meanwhile, and their deadlines free descriptors.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;

use super::conn_limits::{Admission, Full};
use super::guard::AllowedHosts;
use super::{conn, layers, Limits};

/// Refused connections read on after their answer at once (see
/// [`refuse`]); beyond, a refused connection is closed after its answer.
pub const LINGERING_REFUSALS: usize = 64;
/// The longest a refused connection is read on after its answer.
pub const REFUSAL_LINGER: Duration = Duration::from_secs(1);
/// The most bytes of a refused connection's request read before its
/// answer goes out (the rest, if any, while it lingers).
const REFUSAL_READ: usize = 64 * 1024;
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
    let lingering = Arc::new(Semaphore::new(LINGERING_REFUSALS));
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
                refuse(stream, peer, full, &lingering);
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

/// The answer of a refused connection: a 503 naming the limit.
fn refusal(full: Full) -> String {
    let body = format!("refused: {full}; try again later\n");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Answers a connection that has no place with a 503 naming the limit, at
/// once and without waiting: what the client already sent is read (at most
/// [`REFUSAL_READ`] bytes), the answer is written in one non-blocking write
/// (a fresh socket's send buffer has room for it; a client that shrank its
/// window to nothing gets no answer) and the write side is shut. why read
/// first: closing a socket with unread input resets the connection, and the
/// client may lose the answer. Then, while fewer than
/// [`LINGERING_REFUSALS`] do, the connection is read on for
/// [`REFUSAL_LINGER`] on a task of its own (for a request still on its
/// way); beyond, it is closed now.
fn refuse(stream: TcpStream, peer: SocketAddr, full: Full, lingering: &Arc<Semaphore>) {
    // why std: tokio's `try_write` waits for the reactor to have seen the
    // socket writable, which a socket accepted a moment ago it has not; a
    // tokio socket is non-blocking, and so is its std form.
    let stream = match stream.into_std() {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(%peer, "refused connection closed unanswered: {e}");
            return;
        }
    };
    drain(&stream, REFUSAL_READ);
    let answer = refusal(full);
    match (&stream).write(answer.as_bytes()) {
        Ok(n) if n == answer.len() => {}
        Ok(_) | Err(_) => tracing::debug!(%peer, "no room for a refused connection's answer"),
    }
    let _ = stream.shutdown(Shutdown::Write);
    let Ok(permit) = Arc::clone(lingering).try_acquire_owned() else {
        drain(&stream, REFUSAL_READ);
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let Ok(mut stream) = TcpStream::from_std(stream) else {
            return;
        };
        let _ = tokio::time::timeout(REFUSAL_LINGER, async {
            let mut sink = [0u8; 4096];
            while stream.read(&mut sink).await? > 0 {}
            Ok::<(), io::Error>(())
        })
        .await;
        tracing::debug!(%peer, "refused connection closed");
    });
}

/// Reads and drops what has arrived on non-blocking `stream`, at most
/// about `most` bytes; never waits.
fn drain(stream: &std::net::TcpStream, most: usize) {
    let mut sink = [0u8; 4096];
    let mut read = 0;
    while read < most {
        match (&*stream).read(&mut sink) {
            Ok(n) if n > 0 => read += n,
            _ => return,
        }
    }
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
