//! The registry: the remote engines' connections, per remote id, waiting to
//! be given a game. The endpoint adds every authenticated connection; a game
//! slot takes one (waiting up to `--remote-wait` for it) and holds it for as
//! long as the engine plays there, exactly as it would hold a process.

use std::collections::{BTreeMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::remote::conn::{Admission, ConnState, Inbound, OpenCount};
use crate::remote::logins::{FailedLogins, Locked, LoginLimit};
use crate::remote::socket::Claim;
use crate::remote::tokens::Tokens;

/// One authenticated connection: one remote engine instance.
#[derive(Debug)]
pub struct Connection {
    /// A number for the traffic log (where a process shows its pid).
    pub id: u32,
    /// The remote id its token proved (`remote=alice`).
    pub remote: String,
    /// The query of its upgrade request (`/umi?pools=a,b` gives
    /// `pools=a,b`), for a [`Gate`]'s owner to read; unused otherwise.
    pub query: Option<String>,
    pub pipe: Pipe,
    pub state: Arc<ConnState>,
}

/// How a game reads and writes a connection's lines.
#[derive(Debug)]
pub enum Pipe {
    /// Through the transport's own task (KGP's, which translates lines).
    Channels {
        inbound: mpsc::Receiver<Inbound>,
        /// Lines to send, each batch written at once (`position` and `go`
        /// together); dropping it closes the connection.
        outbound: mpsc::Sender<Vec<String>>,
    },
    /// A `/umi` socket, which its keeper hands over to the game that
    /// claims it (dropping the claim unused closes the connection).
    Socket(Claim),
}

/// The transport's ends of a connection [`Registry::open`] offered: lines
/// that arrive go to `inbound`, lines to send come from `outbound`.
#[derive(Debug)]
pub struct Opened {
    pub id: u32,
    pub state: Arc<ConnState>,
    pub inbound: mpsc::Sender<Inbound>,
    pub outbound: mpsc::Receiver<Vec<String>>,
}

#[derive(Debug, Default)]
struct Pool {
    idle: VecDeque<Connection>,
    /// Connections of this id now open (idle or playing).
    open: OpenCount,
    limit: usize,
}

/// Who tokens belong to when the ids are not a list fixed at start: the
/// arena's database, where bots are added and revoked while it runs
/// (the arena crate). Without one, the registry's [`Tokens`] decide.
pub trait Gate: Send + Sync + std::fmt::Debug {
    /// The remote id `token` proves now (asked at every connection).
    fn identify(&self, token: &str) -> Option<String>;
    /// The most connections `remote` may have open at once.
    fn limit(&self, remote: &str) -> usize;
    /// An authenticated connection of `remote` was just offered.
    fn offered(&self, remote: &str);
    /// Why `token`, which [`Gate::identify`] refused, proves an id that
    /// may not connect here (an arena's house bot: the server plays it
    /// itself); `None`: it proves nobody (an unknown token).
    fn refusal(&self, _token: &str) -> Option<String> {
        None
    }
}

/// How long a connection over its remote id's limit is told to wait before
/// it tries again (HTTP `Retry-After: 5`). why a few seconds: a place frees
/// when one of the id's games ends or one of its connections closes, which
/// nobody can foresee; a bridge trying every 5 s costs the endpoint nothing
/// and takes a freed place soon.
pub const BUSY_RETRY_AFTER: Duration = Duration::from_secs(5);

/// Why a connection is not let in (what the endpoints tell the client:
/// [`Refused::retry_secs`] is HTTP's `Retry-After`, in whole seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The token proves no remote engine (HTTP 401).
    UnknownToken,
    /// The client's address failed too many token checks lately; its token
    /// was not looked at (HTTP 429).
    TooManyFailures { locked: Locked, limit: LoginLimit },
    /// The remote id has its limit of connections open (HTTP 429).
    AtLimit { remote: String, limit: usize },
    /// The id is nobody this registry serves.
    NotHere { remote: String },
    /// The token is good but its id may not connect (HTTP 403): why.
    NotAllowed { reason: String },
}

impl Refused {
    /// When to try again, in whole seconds; `None`: trying again does not
    /// help.
    pub fn retry_secs(&self) -> Option<u64> {
        match self {
            Refused::TooManyFailures { locked, .. } => Some(locked.retry_secs()),
            Refused::AtLimit { .. } => Some(BUSY_RETRY_AFTER.as_secs()),
            Refused::UnknownToken | Refused::NotHere { .. } | Refused::NotAllowed { .. } => None,
        }
    }
}

impl std::error::Error for Refused {}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::UnknownToken => write!(f, "unknown token"),
            Refused::TooManyFailures { locked, limit } => write!(
                f,
                "too many failed token checks from this address ({} within {} s); \
                 try again in {} s",
                limit.failures,
                limit.window.as_secs(),
                locked.retry_secs()
            ),
            Refused::AtLimit { remote, limit } => write!(
                f,
                "{remote} already has {limit} connection(s), its limit; try again in {} s",
                BUSY_RETRY_AFTER.as_secs()
            ),
            Refused::NotHere { remote } => {
                write!(f, "{remote} is not a remote engine of this event")
            }
            Refused::NotAllowed { reason } => f.write_str(reason),
        }
    }
}

/// The connections of every remote engine.
#[derive(Debug)]
pub struct Registry {
    tokens: Tokens,
    gate: Option<Arc<dyn Gate>>,
    /// Failed token checks by client address, shared by every way in
    /// (`/umi`, `/kgp`, KGP over TCP).
    logins: Mutex<FailedLogins>,
    pools: Mutex<BTreeMap<String, Pool>>,
    /// Bumped whenever a connection arrives.
    arrivals: watch::Sender<u64>,
    next_id: AtomicU32,
}

impl Registry {
    /// A registry for the ids of `tokens`, each allowed `limit(id)` open
    /// connections at once.
    pub fn new(tokens: Tokens, limit: impl Fn(&str) -> usize) -> Arc<Registry> {
        let pools = tokens
            .iter()
            .map(|(id, _)| {
                let pool = Pool {
                    limit: limit(id).max(1),
                    ..Pool::default()
                };
                (id.to_owned(), pool)
            })
            .collect();
        Arc::new(Registry {
            tokens,
            gate: None,
            logins: Mutex::new(FailedLogins::new(LoginLimit::default())),
            pools: Mutex::new(pools),
            arrivals: watch::channel(0).0,
            next_id: AtomicU32::new(1),
        })
    }

    /// A registry whose ids and tokens `gate` decides (none known at start).
    pub fn with_gate(gate: Arc<dyn Gate>) -> Arc<Registry> {
        Arc::new(Registry {
            tokens: Tokens::default(),
            gate: Some(gate),
            logins: Mutex::new(FailedLogins::new(LoginLimit::default())),
            pools: Mutex::new(BTreeMap::new()),
            arrivals: watch::channel(0).0,
            next_id: AtomicU32::new(1),
        })
    }

    fn pools(&self) -> MutexGuard<'_, BTreeMap<String, Pool>> {
        self.pools.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn logins(&self) -> MutexGuard<'_, FailedLogins> {
        self.logins.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The remote id a token belongs to.
    pub fn identify(&self, token: &str) -> Option<String> {
        match &self.gate {
            Some(gate) => gate.identify(token),
            None => self.tokens.identify(token).map(str::to_owned),
        }
    }

    /// Whether a client at `peer` may have a token checked now: refused
    /// while its address is locked out by its failed token checks
    /// ([`crate::remote::logins`]).
    pub fn may_try(&self, peer: IpAddr) -> Result<(), Refused> {
        let mut logins = self.logins();
        let limit = logins.limit();
        logins
            .check(peer, std::time::Instant::now())
            .map_err(|locked| Refused::TooManyFailures { locked, limit })
    }

    /// The remote id `token` (none: the client gave none that reads)
    /// proves, presented from `peer`: refused without a look at the token
    /// while `peer` is locked out; a token that proves nobody is a failure
    /// of `peer`'s.
    pub fn identify_from(&self, peer: IpAddr, token: Option<&str>) -> Result<String, Refused> {
        self.may_try(peer)?;
        if let Some(remote) = token.and_then(|t| self.identify(t)) {
            return Ok(remote);
        }
        // why counted as a failure too: whatever the token proves, it let
        // nobody in (the same count for every way of being refused here).
        self.logins().failed(peer, std::time::Instant::now());
        let gate = self.gate.as_ref();
        match token.and_then(|t| gate.and_then(|g| g.refusal(t))) {
            Some(reason) => Err(Refused::NotAllowed { reason }),
            None => Err(Refused::UnknownToken),
        }
    }

    /// Lets one more connection of `remote` in, or says why not.
    pub fn admit(self: &Arc<Registry>, remote: &str) -> Result<Admission, Refused> {
        let mut pools = self.pools();
        if let Some(gate) = &self.gate {
            // why here: a gate's ids are not known until they connect.
            let limit = gate.limit(remote).max(1);
            pools.entry(remote.to_owned()).or_default().limit = limit;
        }
        let Some(pool) = pools.get_mut(remote) else {
            return Err(Refused::NotHere {
                remote: remote.to_owned(),
            });
        };
        if pool.open.get() >= pool.limit {
            return Err(Refused::AtLimit {
                remote: remote.to_owned(),
                limit: pool.limit,
            });
        }
        Ok(pool.open.admit())
    }

    /// A number for a new connection.
    pub fn next_id(&self) -> u32 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Registers a newly authenticated connection of `remote` and offers it
    /// (as [`Registry::offer`]): the transport's ends of it.
    pub fn open(&self, remote: &str, query: Option<String>, inbound_queue: usize) -> Opened {
        let id = self.next_id();
        let state = Arc::new(ConnState::new());
        let (inbound, in_rx) = mpsc::channel(inbound_queue);
        let (out_tx, outbound) = mpsc::channel(64);
        self.offer(Connection {
            id,
            remote: remote.to_string(),
            query,
            pipe: Pipe::Channels {
                inbound: in_rx,
                outbound: out_tx,
            },
            state: Arc::clone(&state),
        });
        Opened {
            id,
            state,
            inbound,
            outbound,
        }
    }

    /// Puts an authenticated connection where a game can take it.
    pub fn offer(&self, connection: Connection) {
        let remote = connection.remote.clone();
        if let Some(pool) = self.pools().get_mut(&connection.remote) {
            pool.idle.push_back(connection);
        }
        self.arrivals.send_modify(|n| *n += 1);
        if let Some(gate) = &self.gate {
            gate.offered(&remote);
        }
    }

    /// An open connection of `remote`, waiting for one until `deadline`.
    pub async fn take(&self, remote: &str, deadline: Instant) -> Option<Connection> {
        let mut arrivals = self.arrivals.subscribe();
        loop {
            if let Some(c) = self.take_now(remote) {
                return Some(c);
            }
            match tokio::time::timeout_at(deadline, arrivals.changed()).await {
                Ok(Ok(())) => {}
                _ => return self.take_now(remote),
            }
        }
    }

    fn take_now(&self, remote: &str) -> Option<Connection> {
        let mut pools = self.pools();
        let pool = pools.get_mut(remote)?;
        while let Some(c) = pool.idle.pop_front() {
            if c.state.is_open() {
                return Some(c);
            }
        }
        None
    }

    /// Waits until every id of `remotes` has an idle open connection, or
    /// `deadline`; `Err` lists those still missing.
    pub async fn wait_for(&self, remotes: &[String], deadline: Instant) -> Result<(), Vec<String>> {
        let mut arrivals = self.arrivals.subscribe();
        loop {
            let missing = self.missing(remotes);
            if missing.is_empty() {
                return Ok(());
            }
            match tokio::time::timeout_at(deadline, arrivals.changed()).await {
                Ok(Ok(())) => {}
                _ => {
                    let missing = self.missing(remotes);
                    return if missing.is_empty() {
                        Ok(())
                    } else {
                        Err(missing)
                    };
                }
            }
        }
    }

    fn missing(&self, remotes: &[String]) -> Vec<String> {
        let pools = self.pools();
        remotes
            .iter()
            .filter(|id| {
                !pools
                    .get(*id)
                    .is_some_and(|p| p.idle.iter().any(|c| c.state.is_open()))
            })
            .cloned()
            .collect()
    }

    /// Open connections of `remote` (idle or playing).
    pub fn open_count(&self, remote: &str) -> usize {
        self.pools().get(remote).map_or(0, |p| p.open.get())
    }
}
