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
    /// Remote engines' sessions no game holds now: those the pre-event
    /// check started, and those a game finished with.
    pub idle: IdleSessions,
}

/// The sessions of remote engines that no game holds: handshaken, options
/// set. The pre-event check ([`crate::cli::preflight`]) leaves one for each
/// remote engine, and every game gives its remote engines' sessions back
/// here when it ends, so that the next game of that engine, in whichever
/// slot, plays on it. why shared rather than kept by the slot (as a
/// process is): a bot holds only as many connections as it has engines
/// running; one left idle in the slot that last played it would be missing
/// where its next game is due (which then waited out `--remote-wait` and
/// was lost as a no-show).
#[derive(Clone)]
pub struct IdleSessions(Arc<IdleInner>);

struct IdleInner {
    sessions: std::sync::Mutex<Vec<(usize, Session)>>,
    /// Bumped whenever a session comes back.
    returned: tokio::sync::watch::Sender<u64>,
}

impl Default for IdleSessions {
    fn default() -> IdleSessions {
        IdleSessions(Arc::new(IdleInner {
            sessions: std::sync::Mutex::new(Vec::new()),
            returned: tokio::sync::watch::channel(0).0,
        }))
    }
}

impl std::fmt::Debug for IdleSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let engines: Vec<usize> = self.lock().iter().map(|(e, _)| *e).collect();
        f.debug_tuple("IdleSessions").field(&engines).finish()
    }
}

impl IdleSessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(usize, Session)>> {
        // why not fail on poison: the list is whole after any push or remove.
        self.0
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps `session` of engine `engine` (its index in the event).
    pub fn keep(&self, engine: usize, session: Session) {
        self.lock().push((engine, session));
        self.0.returned.send_modify(|n| *n += 1);
    }

    /// The games the kept session of `engine` plays, if one is kept.
    pub fn games(&self, engine: usize) -> Option<Vec<String>> {
        self.lock()
            .iter()
            .find(|(e, _)| *e == engine)
            .map(|(_, s)| s.games.clone())
    }

    /// A kept session of `engine`, taken.
    pub fn take(&self, engine: usize) -> Option<Session> {
        let mut kept = self.lock();
        let at = kept.iter().position(|(e, _)| *e == engine)?;
        Some(kept.swap_remove(at).1)
    }

    /// Shuts every kept session down (the event's end).
    pub async fn close(&self, grace: Duration) {
        let sessions = std::mem::take(&mut *self.lock());
        for (_, session) in sessions {
            session.shutdown(grace).await;
        }
    }
}

/// What a game gets for a remote engine: a session no game holds, or a
/// fresh connection to start one on.
pub enum Acquired {
    Session(Session),
    Link(RemoteLink),
}

impl RemoteEngines {
    /// A session of engine `engine` (`spec`, a remote engine) that plays
    /// `game`, or a fresh connection's link, whichever comes first. A
    /// session found gone or not playing `game` is shut down. The game
    /// waits while the bot is connected (its connections all busy in other
    /// games); once it has no connection open for `wait`, it is a no-show,
    /// a [`Fault::Dropped`].
    pub async fn acquire(
        &self,
        engine: usize,
        spec: &EngineSpec,
        game: &str,
        quit_grace: Duration,
    ) -> Result<Acquired, Fault> {
        let id = spec.remote.as_deref().unwrap_or(&spec.name);
        // why subscribed first: a session given back between the look
        // below and the wait is not missed.
        let mut returned = self.idle.0.returned.subscribe();
        let mut deadline = Instant::now() + self.wait;
        loop {
            while let Some(mut s) = self.idle.take(engine) {
                if s.is_alive() && s.plays(game) {
                    return Ok(Acquired::Session(s));
                }
                s.shutdown(quit_grace).await;
            }
            // why no deadline while connected: a bot whose connections all
            // play other games is busy, not absent. No two games wait on
            // each other: a game takes its engines in the order of their
            // index ([`crate::play::runner`]).
            if self.registry.open_count(id) > 0 {
                deadline = deadline.max(Instant::now() + self.wait);
            }
            // why a second at most: to see the bot's connections go.
            let look = deadline.min(Instant::now() + Duration::from_secs(1));
            tokio::select! {
                conn = self.registry.take(id, look) => match conn {
                    Some(conn) => return Ok(Acquired::Link(self.link_on(conn, spec))),
                    None if Instant::now() >= deadline => return Err(self.no_show(id)),
                    None => {}
                },
                _ = returned.changed() => {}
            }
        }
    }

    /// A fresh session's link for `spec` (a remote engine), waiting up to
    /// `wait` for a connection; none is a no-show, a [`Fault::Dropped`].
    pub async fn link(&self, spec: &EngineSpec) -> Result<RemoteLink, Fault> {
        let id = spec.remote.as_deref().unwrap_or(&spec.name);
        match self.registry.take(id, Instant::now() + self.wait).await {
            Some(conn) => Ok(self.link_on(conn, spec)),
            None => Err(self.no_show(id)),
        }
    }

    /// The fault of a remote engine not connected within `wait`.
    fn no_show(&self, id: &str) -> Fault {
        Fault::Dropped {
            reason: format!(
                "no-show: remote engine {id} was not connected within {:?}",
                self.wait
            ),
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
