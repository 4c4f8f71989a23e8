//! The front of every listener the arbiter opens: `arbiter serve`, `--live`,
//! `serve --watch`, and whatever else is served through
//! [`crate::front::server::Server`] (every router mounted with
//! [`crate::front::server::Server::bind_tls`] gets all of this). It stands between
//! the socket and the application, so that no client — slow, idle, greedy
//! or hostile — can hold the server or starve the others:
//!
//! - [`accept`]: the accept loop. Errors back off (running out of file
//!   descriptors is survived: the loop waits and tries again instead of
//!   spinning), each connection is admitted or refused with a 503 and a
//!   logged reason.
//! - [`conn_limits`]: the connection limits, in all and per client address.
//! - [`conn`]: one connection: hyper's HTTP/1 server with its header-read
//!   deadline (a request's head must arrive within it, which also ends a
//!   keep-alive connection left idle that long), an idle deadline (no byte
//!   either way), WebSocket upgrades keeping their admission until they
//!   close.
//! - [`tls`]: TLS built in (`--tls-cert`/`--tls-key`), the handshake on
//!   each connection's own task within the header deadline; and the
//!   client's trust for the bridge's `wss://`.
//! - [`websocket`]: the settings of every WebSocket, served or (the bridge)
//!   opened.
//! - [`layers`]: what every request goes through: the `Host`/`Origin`
//!   [`guard`], a body size cap (413) and a deadline for the whole request,
//!   body included (408), from `tower-http`.
//!
//! Each limit has a default here and a flag on the command line
//! ([`crate::cli`]); docs/gui.md lists them ("Limits").

pub mod accept;
pub mod conn;
pub mod conn_limits;
pub mod guard;
pub mod layers;
pub mod server;
pub mod tls;
pub mod websocket;

use std::time::Duration;

pub use guard::{AllowedHosts, Refusal};

/// Connections at once, in all (`--max-connections`; lowered to what the
/// process's descriptor limit leaves room for, [`Limits::effective`]).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// Connections at once from one client address (`--max-connections-per-address`).
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 128;
/// Time for a request's head to arrive (`--header-timeout`).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Time without a byte either way before a connection is closed
/// (`--idle-timeout`; not for WebSockets: their pages have their own rules).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Time for a whole request, its body included (`--request-timeout`).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The largest request body (`--max-body`): the largest log the replay
/// page uploads.
pub const DEFAULT_MAX_BODY: usize = 32 * 1024 * 1024;

/// Descriptors kept free for everything but connections (engine pipes,
/// logs, the watch): at least this many, or a quarter of the limit.
const RESERVED_DESCRIPTORS: usize = 128;

/// The limits of one listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub request_timeout: Duration,
    pub max_body: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_body: DEFAULT_MAX_BODY,
        }
    }
}

impl Limits {
    /// These limits, with the connection limit lowered to what `descriptors`
    /// (the process's soft `RLIMIT_NOFILE`, if known) leaves room for after
    /// [`RESERVED_DESCRIPTORS`]: a server refusing connections with a 503
    /// stays in charge; one out of descriptors cannot even accept. The
    /// per-address limit is then at most half the limit in all, so that one
    /// address never holds every place.
    pub fn effective(mut self, descriptors: Option<usize>) -> Limits {
        if let Some(n) = descriptors {
            let room = n.saturating_sub(RESERVED_DESCRIPTORS.max(n / 4)).max(1);
            if room < self.max_connections {
                tracing::info!(
                    "at most {room} connections at once (not {}): the descriptor limit is {n}",
                    self.max_connections
                );
                self.max_connections = room;
            }
        }
        self.max_connections = self.max_connections.max(1);
        // why at most half: one address holding every place locks every
        // other client out (a flood of silent connections, or of TLS
        // handshakes never finished, from one machine).
        let share = (self.max_connections / 2).max(1);
        if self.max_connections_per_address > share {
            tracing::info!(
                "at most {share} connections at once from one address (not {}): \
                 half of the {} in all",
                self.max_connections_per_address,
                self.max_connections
            );
        }
        self.max_connections_per_address = self.max_connections_per_address.clamp(1, share);
        self
    }
}

/// The soft limit on this process's open descriptors, if it has one.
pub fn descriptor_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the one struct we pass, which outlives the call.
    let rc = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (rc == 0 && limit.rlim_cur != libc::RLIM_INFINITY)
        .then(|| usize::try_from(limit.rlim_cur).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_limit_fits_the_descriptor_limit() {
        let l = Limits::default();
        assert_eq!(l.effective(None), l);
        assert_eq!(l.effective(Some(1 << 20)), l, "room for the default");
        let small = l.effective(Some(256));
        assert_eq!(small.max_connections, 128);
        assert_eq!(small.max_connections_per_address, 64, "half of them");
        let big = l.effective(Some(4096));
        assert_eq!(big.max_connections, 1024);
        let tiny = l.effective(Some(10));
        assert_eq!(tiny.max_connections, 1);
        assert_eq!(tiny.max_connections_per_address, 1);
    }

    #[test]
    fn one_address_never_holds_every_place() {
        let given = |max, per_address| Limits {
            max_connections: max,
            max_connections_per_address: per_address,
            ..Limits::default()
        };
        assert_eq!(
            given(10, 128).effective(None).max_connections_per_address,
            5
        );
        assert_eq!(given(10, 10).effective(None).max_connections_per_address, 5);
        assert_eq!(given(10, 3).effective(None).max_connections_per_address, 3);
        assert_eq!(given(3, 3).effective(None).max_connections_per_address, 1);
    }
}
