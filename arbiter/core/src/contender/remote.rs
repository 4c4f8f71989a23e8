//! Remote engines as an event sees them: where their connections come from
//! (a [`Connections`], the network crate's endpoint), the sessions no game
//! holds, and how a game waits for one. The wire itself is the network
//! crate's; here a connection is a [`Link`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::contender::config::EngineSpec;
use crate::contender::session::{Fault, Session};
use crate::contender::transport::{Link, LinkFuture};

/// Where a remote engine's connections come from: the network crate's
/// endpoint (its registry of connected bots).
pub trait Connections: Send + Sync + std::fmt::Debug {
    /// A fresh connection of `spec`'s remote engine as a session's link,
    /// waiting until `deadline`; `None`: none came.
    fn take<'a>(
        &'a self,
        spec: &'a EngineSpec,
        deadline: Instant,
    ) -> LinkFuture<'a, Option<Box<dyn Link>>>;
    /// The connections remote engine `id` has open (held by games or not).
    fn open_count(&self, id: &str) -> usize;
    /// Waits until each of `ids` has a connection, up to `deadline`; the
    /// error lists those missing.
    fn wait_for<'a>(
        &'a self,
        ids: &'a [String],
        deadline: Instant,
    ) -> LinkFuture<'a, Result<(), Vec<String>>>;
}

/// The remote engines of an event: where they connect and how the games
/// wait for them.
#[derive(Clone, Debug)]
pub struct RemoteEngines {
    pub connections: Arc<dyn Connections>,
    /// How long a game waits for a remote engine that is not connected
    /// (`--remote-wait`): then it is a no-show.
    pub wait: Duration,
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
// why not boxed: made once per game for each remote side, and at once
// taken apart.
#[allow(clippy::large_enum_variant)]
pub enum Acquired {
    Session(Session),
    Link(Box<dyn Link>),
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
            if self.connections.open_count(id) > 0 {
                deadline = deadline.max(Instant::now() + self.wait);
            }
            // why a second at most: to see the bot's connections go.
            let look = deadline.min(Instant::now() + Duration::from_secs(1));
            tokio::select! {
                link = self.connections.take(spec, look) => match link {
                    Some(link) => return Ok(Acquired::Link(link)),
                    None if Instant::now() >= deadline => return Err(self.no_show(id)),
                    None => {}
                },
                _ = returned.changed() => {}
            }
        }
    }

    /// A fresh session's link for `spec` (a remote engine), waiting up to
    /// `wait` for a connection; none is a no-show, a [`Fault::Dropped`].
    pub async fn link(&self, spec: &EngineSpec) -> Result<Box<dyn Link>, Fault> {
        let id = spec.remote.as_deref().unwrap_or(&spec.name);
        match self
            .connections
            .take(spec, Instant::now() + self.wait)
            .await
        {
            Some(link) => Ok(link),
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

    /// Waits until every remote engine of `specs` has a connection, up to
    /// `wait`; the error names those missing.
    pub async fn wait_for_all(&self, specs: &[EngineSpec]) -> Result<(), NotConnected> {
        let ids: Vec<String> = specs.iter().filter_map(|s| s.remote.clone()).collect();
        self.connections
            .wait_for(&ids, Instant::now() + self.wait)
            .await
            .map_err(|missing| NotConnected {
                wait: self.wait,
                missing,
            })
    }
}

/// Remote engines that had not connected when [`RemoteEngines::wait_for_all`]
/// stopped waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotConnected {
    /// How long it waited (`--remote-wait`).
    pub wait: Duration,
    /// The ids of the engines missing.
    pub missing: Vec<String>,
}

impl fmt::Display for NotConnected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "remote engine(s) not connected after {:?} (--remote-wait): {}",
            self.wait,
            self.missing.join(", ")
        )
    }
}

impl std::error::Error for NotConnected {}

/// The ids of the remote engines among `specs`.
pub fn remote_ids(specs: &[EngineSpec]) -> Vec<String> {
    specs.iter().filter_map(|s| s.remote.clone()).collect()
}
