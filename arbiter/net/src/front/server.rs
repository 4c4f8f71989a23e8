//! A listener, bound and not yet serving: whatever router it is given is
//! served through the front (guard, limits, TLS). Every server the arbiter
//! opens is one: the board, the live view, the arena, the remote endpoint.

use std::net::SocketAddr;

use axum::Router;
use tokio::net::TcpListener;

use crate::front::{AllowedHosts, Limits};

/// A bound server, not yet serving: its address is known (port 0 picks one).
/// It serves through the [`crate::front`]: every request of whatever router
/// it was given is guarded (`Host`/`Origin`) and limited ([`Limits`]).
pub struct Server {
    listener: TcpListener,
    router: Router,
    pub addr: SocketAddr,
    /// The kernel send buffer of each connection, when bounded.
    send_buffer: Option<usize>,
    /// The hosts its requests may name; `None`: any (see
    /// [`Server::without_host_guard`]).
    allowed: Option<AllowedHosts>,
    limits: Limits,
    /// Whether each connection sends at once (`TCP_NODELAY`).
    nodelay: bool,
    /// TLS on every connection (`https://`, `wss://`).
    tls: Option<crate::front::tls::Tls>,
}

impl Server {
    /// Binds `listen` and serves the router `make` builds for the hosts the
    /// page may be reached by (its address and `extra_hosts`), over `tls`
    /// when given (`--tls-cert`/`--tls-key`): `https://` pages, `wss://`
    /// sockets, and the `Origin` guard expects `https://` pages.
    pub async fn bind_tls(
        listen: SocketAddr,
        extra_hosts: &[String],
        tls: Option<crate::front::tls::Tls>,
        make: impl FnOnce(AllowedHosts) -> Router,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(listen).await?;
        let addr = listener.local_addr()?;
        let mut allowed = AllowedHosts::for_address(addr);
        if tls.is_some() {
            allowed = allowed.over_tls();
        }
        for h in extra_hosts {
            allowed.allow(h.clone());
        }
        let router = make(allowed.clone());
        Ok(Server {
            listener,
            router,
            addr,
            send_buffer: None,
            allowed: Some(allowed),
            limits: Limits::default(),
            nodelay: false,
            tls,
        })
    }

    /// Serves under `limits` instead of the defaults.
    pub fn with_limits(mut self, limits: Limits) -> Server {
        self.limits = limits;
        self
    }

    /// Bounds each connection's kernel send buffer to about `bytes` (the
    /// kernel otherwise grows it to megabytes for a page that does not
    /// read, and the server would not notice the page is stuck).
    pub fn with_send_buffer(mut self, bytes: usize) -> Server {
        self.send_buffer = Some(bytes);
        self
    }

    /// Sends every write at once (`TCP_NODELAY`): for a line protocol of
    /// small frames (the remote engines' `/umi`), where Nagle's algorithm
    /// with the peer's delayed ACK would hold a `bestmove` back ~40 ms.
    pub fn with_nodelay(mut self) -> Server {
        self.nodelay = true;
        self
    }

    /// Serves requests whatever `Host` and `Origin` they name, under the
    /// same limits: for an endpoint whose clients are programs that
    /// authenticate themselves (the remote engines' `/umi`, by token), which
    /// reach a `0.0.0.0` listener by any name the organiser gave them; the
    /// guard protects pages that act on a browser's behalf without one.
    pub fn without_host_guard(mut self) -> Server {
        self.allowed = None;
        self
    }

    /// Whether it serves TLS (its URLs are `https://`, `wss://`).
    pub fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// The address to open in a browser.
    pub fn url(&self) -> String {
        let host = if self.addr.ip().is_unspecified() {
            "127.0.0.1".to_owned()
        } else {
            match self.addr {
                SocketAddr::V4(a) => a.ip().to_string(),
                SocketAddr::V6(a) => format!("[{}]", a.ip()),
            }
        };
        let scheme = if self.is_tls() { "https" } else { "http" };
        format!("{scheme}://{host}:{}/", self.addr.port())
    }

    /// Serves until `shutdown` completes (`std::future::pending()`: until
    /// the process ends), then accepts no more connections and returns;
    /// the connections open go on, each to its own end (a game in progress
    /// over a socket is still played).
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) -> std::io::Result<()> {
        let front = crate::front::accept::Front {
            app: self.router,
            allowed: self.allowed,
            limits: self.limits,
            send_buffer: self.send_buffer,
            nodelay: self.nodelay,
            tls: self.tls,
        };
        tokio::select! {
            served = crate::front::accept::run(self.listener, front) => served,
            () = shutdown => Ok(()),
        }
    }
}
