//! The remote room: engines that run on their authors' machines and play
//! over the network. A remote engine is a transport, not a new kind of game:
//! its session is the same code as a process's
//! ([`arbiter_core::contender::transport::Transport`]), so the handshake, option
//! checks, the arbiter's own clock, legality, verdicts and logs do not
//! change; only the pipe does.
//!
//! - [`endpoint`]: the `/umi` WebSocket (tokens, limits, ping/pong).
//! - [`registry`]: the connected instances of each remote engine.
//! - [`socket`]: a `/umi` connection's socket, read by whoever holds it.
//! - [`link`]: one connection as a session's transport (grace, replay).
//! - [`lag`]: lag compensation (a per-game quota, lichess-style).
//! - [`tokens`]: the tokens, compared in constant time.
//! - [`refusal`]: the HTTP answer (401, 403, 429 with `Retry-After`) to a
//!   refused upgrade, on `/umi` and `/kgp`.
//! - [`logins`]: failed token checks by client address (a guesser is
//!   refused, `429` with `Retry-After`).
//! - [`bridge`]: `arbiter connect`, a local engine relayed to an arbiter.
//! - [`kgp`]: Kalah bots speaking the Kalah Game Protocol, over TCP or a
//!   WebSocket (`/kgp` on this endpoint).
//!
//! The wire is specified in protocol-spec.md (section 16).

pub mod bridge;
pub mod conn;
pub mod endpoint;
pub mod frames;
mod held;
pub mod kgp;
pub mod limits;
pub mod link;
pub mod logins;
pub mod refusal;
pub mod registry;
pub mod socket;
pub mod tokens;

pub use limits::Limits;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::remote::link::{LinkSettings, RemoteLink};
use crate::remote::registry::Registry;
use crate::remote::tokens::Tokens;
use arbiter_core::contender::config::EngineSpec;
use arbiter_core::contender::remote::{Connections, RemoteEngines};
use arbiter_core::contender::transport::{Link, LinkFuture};

/// Where the remote engines of an event connect: the endpoint's registry,
/// as the core's [`Connections`] (a fresh connection becomes a
/// [`RemoteLink`] with the event's grace and write timeout).
#[derive(Clone, Debug)]
pub struct Links {
    pub registry: Arc<Registry>,
    /// How long a dropped connection may take to come back (`--remote-grace`).
    pub grace: Duration,
    pub write_timeout: Duration,
}

impl Links {
    /// The event's remote engines, connecting here; a game waits `wait`
    /// (`--remote-wait`) for one that is not connected.
    pub fn engines(self, wait: Duration) -> RemoteEngines {
        RemoteEngines {
            connections: Arc::new(self),
            wait,
            idle: Default::default(),
        }
    }

    fn link_on(&self, conn: registry::Connection, spec: &EngineSpec) -> RemoteLink {
        RemoteLink::new(
            conn,
            Arc::clone(&self.registry),
            spec.name.clone(),
            LinkSettings {
                grace: self.grace,
                write_timeout: self.write_timeout,
                lag: spec.lag,
                tc: spec.tc,
            },
        )
    }
}

impl Connections for Links {
    fn take<'a>(
        &'a self,
        spec: &'a EngineSpec,
        deadline: Instant,
    ) -> LinkFuture<'a, Option<Box<dyn Link>>> {
        Box::pin(async move {
            let id = spec.remote.as_deref().unwrap_or(&spec.name);
            let conn = self.registry.take(id, deadline).await?;
            Some(Box::new(self.link_on(conn, spec)) as Box<dyn Link>)
        })
    }

    fn open_count(&self, id: &str) -> usize {
        self.registry.open_count(id)
    }

    fn wait_for<'a>(
        &'a self,
        ids: &'a [String],
        deadline: Instant,
    ) -> LinkFuture<'a, Result<(), Vec<String>>> {
        Box::pin(self.registry.wait_for(ids, deadline))
    }
}

/// Connections at once from one address to the endpoint (the front's
/// default for pages is 128). why more: a course's or a club's bots often
/// share one address (a lab behind NAT) and a bot opens a connection per
/// game it plays at once; what one bot may hold is its token's limit
/// (`slots=`), and a connection that does not authenticate is closed after
/// [`Limits::auth_deadline`].
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 512;

/// Binds the endpoint on `listen` through the shared web front
/// ([`crate::front::server::Server::bind_tls`], so it has the listeners' limits, and
/// TLS when `tls` is given) and serves it in the background; returns the
/// bound address.
pub async fn listen(
    listen: SocketAddr,
    registry: Arc<Registry>,
    limits: Limits,
    tls: Option<crate::front::tls::Tls>,
) -> std::io::Result<SocketAddr> {
    listen_with_kgp(listen, registry, limits, tls, None).await
}

/// [`listen`], also serving KGP bots over a WebSocket at `/kgp` when `kgp`
/// is given (through the same front, limits and TLS as `/umi`).
pub async fn listen_with_kgp(
    listen: SocketAddr,
    registry: Arc<Registry>,
    limits: Limits,
    tls: Option<crate::front::tls::Tls>,
    kgp: Option<Arc<kgp::endpoint::KgpEndpoint>>,
) -> std::io::Result<SocketAddr> {
    let endpoint = endpoint::Endpoint { registry, limits };
    // why the allowed hosts are not used: see `endpoint::routes`.
    let server = crate::front::server::Server::bind_tls(listen, &[], tls, |_allowed| {
        endpoint::routes(endpoint, kgp)
    })
    .await?
    .with_limits(crate::front::Limits {
        max_connections_per_address: MAX_CONNECTIONS_PER_ADDRESS,
        ..crate::front::Limits::default()
    })
    .with_nodelay()
    .without_host_guard();
    let addr = server.addr;
    tokio::spawn(async move {
        if let Err(e) = server.run(std::future::pending()).await {
            tracing::error!("the remote endpoint stopped: {e}");
        }
    });
    Ok(addr)
}

/// A registry for `specs`' remote engines, each allowed `slots=` (or
/// `concurrency`) connections.
pub fn registry_for(specs: &[EngineSpec], tokens: Tokens, concurrency: usize) -> Arc<Registry> {
    let limits: Vec<(String, usize)> = specs
        .iter()
        .filter_map(|s| {
            s.remote
                .clone()
                .map(|id| (id, s.slots.unwrap_or(concurrency)))
        })
        .collect();
    Registry::new(tokens, move |id| {
        limits
            .iter()
            .find(|(i, _)| i == id)
            .map_or(concurrency, |(_, n)| *n)
    })
}
