//! The remote room: engines that run on their authors' machines and play
//! over the network. A remote engine is a transport, not a new kind of game:
//! its session is the same code as a process's
//! ([`crate::engine::transport::Transport`]), so the handshake, option
//! checks, the arbiter's own clock, legality, verdicts and logs do not
//! change; only the pipe does.
//!
//! - [`endpoint`]: the `/umi` WebSocket (tokens, limits, ping/pong).
//! - [`registry`]: the connected instances of each remote engine.
//! - [`socket`]: a `/umi` connection's socket, read by whoever holds it.
//! - [`link`]: one connection as a session's transport (grace, replay).
//! - [`lag`]: lag compensation (a per-game quota, lichess-style).
//! - [`tokens`]: the tokens, compared in constant time.
//! - [`bridge`]: `arbiter connect`, a local engine relayed to an arbiter.
//! - [`kgp`]: Kalah bots speaking the Kalah Game Protocol, over TCP or a
//!   WebSocket (`/kgp` on this endpoint).
//!
//! The wire is specified in protocol-spec.md (section 16).

pub mod bridge;
pub mod endpoint;
mod held;
pub mod kgp;
pub mod lag;
pub mod link;
pub mod registry;
pub mod socket;
pub mod tokens;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::engine::config::EngineSpec;
use crate::engine::session::{Fault, Session};
use crate::remote::link::{LinkSettings, RemoteLink};
use crate::remote::registry::Registry;
use crate::remote::tokens::Tokens;

/// The endpoint's limits on what one connection may do.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection without a token in its upgrade request has to
    /// send `auth <token>`.
    pub auth_deadline: Duration,
    /// The largest frame read at all; a text frame longer than the
    /// protocol's line limit but within this is a protocol fault of the
    /// game, a longer one ends the connection.
    pub max_frame: usize,
    /// Lines a second a bot may send on average, and in one burst.
    pub lines_per_second: u32,
    pub line_burst: u32,
    /// Lines received and not yet read by a game; more is a flood.
    pub inbound_queue: usize,
    pub ping_interval: Duration,
    /// No pong for this long: the bot stopped reading, and is dropped.
    pub pong_timeout: Duration,
    /// Time a frame may take to go out.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            auth_deadline: Duration::from_secs(5),
            max_frame: 2 * umi::MAX_LINE_BYTES,
            // why these: an engine's `info` lines come a few dozen a second;
            // a thousand a second is an engine printing every node.
            lines_per_second: 1000,
            line_burst: 2000,
            inbound_queue: 4096,
            ping_interval: Duration::from_secs(1),
            pong_timeout: Duration::from_secs(15),
            write_timeout: Duration::from_secs(10),
        }
    }
}

/// The remote engines of an event: their registry and how the games wait
/// for them.
#[derive(Clone, Debug)]
pub struct RemoteEngines {
    pub registry: Arc<Registry>,
    /// How long a game waits for a remote engine that is not connected
    /// (`--remote-wait`): then it is a no-show.
    pub wait: Duration,
    /// How long a dropped connection may take to come back (`--remote-grace`).
    pub grace: Duration,
    pub write_timeout: Duration,
    /// Sessions the pre-event check started, kept for their engine's first
    /// game.
    pub checked: Checked,
}

/// The sessions of remote engines checked before the first game
/// ([`crate::cli::preflight`]): handshaken, options set, each kept for its
/// engine's first game. why kept, not closed as a checked process is: a
/// bot that holds one connection would otherwise have spent it on the check.
#[derive(Clone, Default)]
pub struct Checked(Arc<std::sync::Mutex<Vec<(usize, Session)>>>);

impl std::fmt::Debug for Checked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let engines: Vec<usize> = self.lock().iter().map(|(e, _)| *e).collect();
        f.debug_tuple("Checked").field(&engines).finish()
    }
}

impl Checked {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(usize, Session)>> {
        // why not fail on poison: the list is whole after any push or remove.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps `session` of engine `engine` (its index in the event).
    pub fn keep(&self, engine: usize, session: Session) {
        self.lock().push((engine, session));
    }

    /// The games the kept session of `engine` plays, if one is kept.
    pub fn games(&self, engine: usize) -> Option<Vec<String>> {
        self.lock()
            .iter()
            .find(|(e, _)| *e == engine)
            .map(|(_, s)| s.games.clone())
    }

    /// The kept session of `engine`, taken.
    pub fn take(&self, engine: usize) -> Option<Session> {
        let mut kept = self.lock();
        let at = kept.iter().position(|(e, _)| *e == engine)?;
        Some(kept.swap_remove(at).1)
    }
}

impl RemoteEngines {
    /// A fresh session's link for `spec` (a remote engine), waiting up to
    /// `wait` for a connection; none is a no-show, a [`Fault::Dropped`].
    pub async fn link(&self, spec: &EngineSpec) -> Result<RemoteLink, Fault> {
        let id = spec.remote.as_deref().unwrap_or(&spec.name);
        match self.registry.take(id, Instant::now() + self.wait).await {
            Some(conn) => Ok(RemoteLink::new(
                conn,
                Arc::clone(&self.registry),
                spec.name.clone(),
                LinkSettings {
                    grace: self.grace,
                    write_timeout: self.write_timeout,
                    lag: spec.lag,
                    tc: spec.tc,
                },
            )),
            None => Err(Fault::Dropped {
                reason: format!(
                    "no-show: remote engine {id} was not connected within {:?}",
                    self.wait
                ),
            }),
        }
    }

    /// Waits until every remote engine of `specs` has a connection, up to
    /// `wait`; the error names those missing.
    pub async fn wait_for_all(&self, specs: &[EngineSpec]) -> Result<(), String> {
        let ids: Vec<String> = specs.iter().filter_map(|s| s.remote.clone()).collect();
        self.registry
            .wait_for(&ids, Instant::now() + self.wait)
            .await
            .map_err(|missing| {
                format!(
                    "remote engine(s) not connected after {:?} (--remote-wait): {}",
                    self.wait,
                    missing.join(", ")
                )
            })
    }
}

/// The ids of the remote engines among `specs`.
pub fn remote_ids(specs: &[EngineSpec]) -> Vec<String> {
    specs.iter().filter_map(|s| s.remote.clone()).collect()
}

/// Connections at once from one address to the endpoint (the front's
/// default for pages is 128). why more: a course's or a club's bots often
/// share one address (a lab behind NAT) and a bot opens a connection per
/// game it plays at once; what one bot may hold is its token's limit
/// (`slots=`), and a connection that does not authenticate is closed after
/// [`Limits::auth_deadline`].
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 512;

/// Binds the endpoint on `listen` through the shared web front
/// ([`crate::web::Server::bind_tls`], so it has the listeners' limits, and
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
    kgp: Option<Arc<kgp::KgpEndpoint>>,
) -> std::io::Result<SocketAddr> {
    let endpoint = endpoint::Endpoint { registry, limits };
    // why the allowed hosts are not used: see `endpoint::routes`.
    let server =
        crate::web::Server::bind_tls(listen, &[], tls, |_allowed| endpoint::routes(endpoint, kgp))
            .await?
            .with_limits(crate::front::Limits {
                max_connections_per_address: MAX_CONNECTIONS_PER_ADDRESS,
                ..crate::front::Limits::default()
            })
            .with_nodelay()
            .without_host_guard();
    let addr = server.addr;
    tokio::spawn(async move {
        if let Err(e) = server.run().await {
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
