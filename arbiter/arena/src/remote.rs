//! Remote bots: the bots that connect to the arena's `/umi` (with `arbiter
//! connect` or the Python kit), through the remote room's endpoint and
//! registry ([`arbiter_net::remote`]), seen by the arena through its seam
//! ([`crate::lobby`]).
//!
//! - Tokens are the database's: the registry's [`Gate`] asks it at every
//!   connection, so a bot added while the server runs can connect at once
//!   and a revoked one is refused at once.
//! - Each connection is one slot. When it arrives it is handshaken (`umi`
//!   … `umiok`) to learn the games it plays, kept idle, and announced
//!   (`Arrived`, one slot); a game takes an idle one and gives it back. A
//!   connection that closes (idle, or after a game), or whose bot was
//!   revoked, is announced gone (`Left`).
//! - `/umi?pools=a,b` names the pools a connection plays in; without it, it
//!   joins every pool of a game it lists.
//! - A connection that drops mid-game has the grace of the remote-engines
//!   issue to come back: while a game of the bot waits for one, a new
//!   connection of that bot is left to the game for the grace, then, if
//!   the game did not take it, joins the idle ones.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mancala_rules::GameId;
use tokio::sync::mpsc;

use crate::db::DbError;
use crate::lobby::{LobbyEvent, TokenCheck};
use crate::pools::Pool;
use arbiter_core::contender::session::{Fault, Session};
use arbiter_core::play::lag::LagPolicy;
use arbiter_net::remote::conn::ConnState;
use arbiter_net::remote::link::{LinkSettings, OtherEngine, RemoteLink};
use arbiter_net::remote::registry::{Connection, Gate, Registry};

/// How remote bots are served.
#[derive(Clone, Copy, Debug)]
pub struct RemoteSettings {
    /// Time a fresh connection has for `umi` … `umiok`.
    pub handshake: Duration,
    /// Time a connection dropped mid-game has to come back (`--remote-grace`).
    pub grace: Duration,
    pub write_timeout: Duration,
    /// The most connections (games at once) of one bot (`--max-connections`).
    pub max_connections: usize,
    /// The checks a new version passes before it is paired (`None`:
    /// `--admission off`).
    pub admission: Option<AdmissionRule>,
}

/// How bots are admitted.
#[derive(Clone, Copy, Debug)]
pub struct AdmissionRule {
    pub limits: arbiter_core::play::admission_checks::Limits,
    /// After a failure, the time before a connection of that version is
    /// checked again (until then it is refused, told why).
    pub retry: Duration,
}

/// The registry's gate: the database decides who a token is.
struct ArenaGate {
    check: TokenCheck,
    /// House bots' names: played by the server itself, never by a connection.
    house: BTreeSet<String>,
    max_connections: usize,
    offered: mpsc::UnboundedSender<String>,
}

impl std::fmt::Debug for ArenaGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArenaGate")
            .field("house", &self.house)
            .field("max_connections", &self.max_connections)
            .finish_non_exhaustive()
    }
}

impl Gate for ArenaGate {
    fn identify(&self, token: &str) -> Option<String> {
        let bot = self.check.bot_of(token)?;
        if self.house.contains(&bot) {
            tracing::info!(%bot, "refused a connection: a house bot of this arena");
            return None;
        }
        Some(bot)
    }

    fn limit(&self, _remote: &str) -> usize {
        self.max_connections
    }

    fn offered(&self, remote: &str) {
        // why ignored: the receiver goes only when the server stops.
        let _ = self.offered.send(remote.to_owned());
    }

    fn refusal(&self, token: &str) -> Option<String> {
        let bot = self.check.bot_of(token)?;
        self.house.contains(&bot).then(|| {
            format!(
                "{bot} is a house bot of this arena: the server plays it itself (its --house), \
                 so its token connects nothing; give another bot's token (`arbiter arena bot add`)"
            )
        })
    }
}

/// A connection between games, handshaken.
struct Idle {
    session: Session,
    state: Arc<ConnState>,
    pools: Option<Vec<String>>,
}

/// A connection in a game: what is needed to take it back.
struct Away {
    id: u32,
    state: Arc<ConnState>,
    pools: Option<Vec<String>>,
}

/// The remote bots: the registry of their connections and the seam's side
/// of them.
pub struct RemoteBots {
    pub registry: Arc<Registry>,
    pools: Vec<Pool>,
    settings: RemoteSettings,
    /// A connection of its own to read revocations through.
    check: TokenCheck,
    lobby: mpsc::Sender<LobbyEvent>,
    idle: Mutex<BTreeMap<String, Vec<Idle>>>,
    away: Mutex<BTreeMap<String, Vec<Away>>>,
    /// Set by [`RemoteBots::stop`]: the reason every connection is closed for.
    stopping: Mutex<Option<String>>,
    /// One admission at a time per player (its other connections wait for
    /// the verdict rather than run the checks again).
    admitting: Mutex<BTreeMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The pools a connection's query names (`pools=a,b`), checked against the
/// arena's; `Ok(None)`: none named.
pub fn named_pools(query: Option<&str>, pools: &[Pool]) -> Result<Option<Vec<String>>, QueryError> {
    let Some(query) = query else { return Ok(None) };
    let mut named = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if key != "pools" {
            return Err(QueryError::Unknown(key.to_owned()));
        }
        let names: Vec<String> = value
            .split(',')
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect();
        if let Some(bad) = names.iter().find(|n| !pools.iter().any(|p| &p.name == *n)) {
            return Err(QueryError::NoPool(bad.clone()));
        }
        if names.is_empty() {
            return Err(QueryError::Empty);
        }
        named = Some(names);
    }
    Ok(named)
}

/// Why a connection's query is refused ([`named_pools`]): the close reason
/// the bot reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("unknown parameter {0:?} (only pools=NAME,NAME)")]
    Unknown(String),
    #[error("no pool {0:?} in this arena")]
    NoPool(String),
    #[error("pools= names no pool")]
    Empty,
}

/// Why a version is not admitted ([`RemoteBots`]' checks): the line the
/// engine reads (`info string`) and the close reason.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    #[error("the arena cannot read its admissions: {0}")]
    Read(#[source] DbError),
    #[error("the arena cannot record its admission: {0}")]
    Record(#[source] DbError),
    /// It failed the checks (now, or lately: `retry_in` seconds to wait).
    #[error("{detail}; retry in {retry_in} s")]
    Failed { detail: String, retry_in: u64 },
}

impl RemoteBots {
    /// The remote bots of an arena on `db`: the registry to serve `/umi`
    /// with, and the tasks that announce connections to `lobby`.
    pub fn start(
        db: &std::path::Path,
        pools: Vec<Pool>,
        house: BTreeSet<String>,
        settings: RemoteSettings,
        lobby: mpsc::Sender<LobbyEvent>,
    ) -> Result<Arc<RemoteBots>, crate::db::DbError> {
        let (offered, arrivals) = mpsc::unbounded_channel();
        let gate = ArenaGate {
            check: TokenCheck::open(db)?,
            house,
            max_connections: settings.max_connections,
            offered,
        };
        let bots = Arc::new(RemoteBots {
            registry: Registry::with_gate(Arc::new(gate)),
            pools,
            settings,
            check: TokenCheck::open(db)?,
            lobby,
            idle: Mutex::new(BTreeMap::new()),
            away: Mutex::new(BTreeMap::new()),
            stopping: Mutex::new(None),
            admitting: Mutex::new(BTreeMap::new()),
        });
        tokio::spawn(Arc::clone(&bots).take_arrivals(arrivals));
        tokio::spawn(Arc::clone(&bots).sweep());
        Ok(bots)
    }

    async fn take_arrivals(self: Arc<Self>, mut arrivals: mpsc::UnboundedReceiver<String>) {
        while let Some(bot) = arrivals.recv().await {
            tokio::spawn(Arc::clone(&self).arrive(bot));
        }
    }

    /// The server is stopping for `reason`: every idle connection is closed
    /// now (its close frame says why), a connection in a game when its game
    /// ends, and a new one at once.
    pub async fn stop(&self, reason: &str) {
        *lock(&self.stopping) = Some(reason.to_owned());
        let idle = std::mem::take(&mut *lock(&self.idle));
        for (bot, all) in idle {
            for i in all {
                i.state.close(reason);
                self.drop_session(&bot, i.session).await;
            }
        }
    }

    fn stopping(&self) -> Option<String> {
        lock(&self.stopping).clone()
    }

    /// Whether a game of `bot` (any of its versions) has lost its
    /// connection (and may be waiting for it to come back).
    fn awaits_reconnect(&self, bot: &str) -> bool {
        lock(&self.away).iter().any(|(player, all)| {
            crate::versions::bot_of(player) == bot && all.iter().any(|a| !a.state.is_live())
        })
    }

    /// Whether `player` (a version of a bot) has a live connection: an
    /// idle one open, or one in a game open (or back within its grace).
    fn live_now(&self, player: &str) -> bool {
        let idle = lock(&self.idle)
            .get(player)
            .is_some_and(|all| all.iter().any(|i| i.state.is_open()));
        idle || lock(&self.away)
            .get(player)
            .is_some_and(|all| all.iter().any(|a| a.state.is_live()))
    }

    /// Takes a fresh connection of `bot` and welcomes it.
    async fn arrive(self: Arc<Self>, bot: String) {
        if self.awaits_reconnect(&bot) {
            // why: the game's link takes it within the grace if it is the
            // dropped connection coming back; only then is it ours.
            tokio::time::sleep(self.settings.grace + Duration::from_millis(100)).await;
        }
        let Some(conn) = self.registry.take(&bot, tokio::time::Instant::now()).await else {
            return; // a game's link took it
        };
        let link = self.link_for(&bot, conn);
        self.welcome(bot, link).await;
    }

    /// A fresh connection of `bot` as a session's link. why the same
    /// engine only: a version is the process that plays; a connection of
    /// another `id name` that comes within a game's grace is no comeback
    /// of that game's engine, and is welcomed as a fresh one instead.
    fn link_for(self: &Arc<Self>, bot: &str, conn: Connection) -> RemoteLink {
        let bots = Arc::downgrade(self);
        let owner = bot.to_owned();
        let other: OtherEngine = Arc::new(move |link| {
            if let Some(bots) = bots.upgrade() {
                tokio::spawn(bots.welcome(owner.clone(), link));
            }
        });
        RemoteLink::new(
            conn,
            Arc::clone(&self.registry),
            bot.to_owned(),
            LinkSettings {
                grace: self.settings.grace,
                write_timeout: self.settings.write_timeout,
                lag: LagPolicy::Quota,
                tc: self.pools[0].tc,
            },
        )
        .same_engine_only(other)
    }

    /// Handshakes a fresh connection of `bot`, checks its version if it is
    /// new and announces it.
    async fn welcome(self: Arc<Self>, bot: String, mut link: RemoteLink) {
        if let Some(why) = self.stopping() {
            link.close(&why);
            return; // dropping it closes the socket
        }
        let pools = match named_pools(link.query(), &self.pools) {
            Ok(p) => p,
            Err(why) => {
                let why = why.to_string();
                tracing::warn!(%bot, "refused a connection: {why}");
                link.close(&why);
                return;
            }
        };
        // why this time control: the link's lag quota is sized by it; a
        // connection may join several pools, the first one it may join stands.
        let tc = self
            .pools
            .iter()
            .find(|p| pools.as_ref().is_none_or(|n| n.contains(&p.name)))
            .map_or_else(|| self.pools[0].tc, |p| p.tc);
        link.set_time_control(tc);
        let state = link.state();
        let mut session = match Session::start_remote(link, self.settings.handshake, None).await {
            Ok(s) => s,
            Err(fault) => {
                tracing::warn!(%bot, "a connection failed its handshake: {fault}");
                return;
            }
        };
        let games = session.games.clone();
        // why here: the engine's `id name`, known only after the handshake,
        // says which version of the bot this connection is.
        let player = match self.check.player(&bot, session.id_name.as_deref()) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(%bot, "cannot record the bot's version: {e}");
                state.close("the arena cannot record this engine's version");
                return;
            }
        };
        if let Some(rule) = self.settings.admission {
            if let Err(why) = self.admit(&player, &mut session, &pools, rule).await {
                let why = why.to_string();
                tracing::info!(%player, "not admitted: {why}");
                // why both: an engine behind `arbiter connect` sees the line,
                // the bridge (and a KGP bot, as an `error`) the close reason.
                let _ = session.send(&format!("info string {why}")).await;
                state.close(&why);
                session.shutdown(Duration::ZERO).await;
                return;
            }
        }
        lock(&self.idle)
            .entry(player.clone())
            .or_default()
            .push(Idle {
                session,
                state,
                pools: pools.clone(),
            });
        let _ = self
            .lobby
            .send(LobbyEvent::Arrived {
                bot: player,
                slots: 1,
                games,
                pools,
            })
            .await;
    }

    /// Admits `player` (a version of a bot) on this session: at once if it
    /// passed before; refused while a failure is younger than the retry
    /// time; else the checks run here, on the pool's game, and are recorded.
    async fn admit(
        &self,
        player: &str,
        session: &mut Session,
        pools: &Option<Vec<String>>,
        rule: AdmissionRule,
    ) -> Result<(), AdmitError> {
        let (bot, n) = crate::versions::split(player);
        let turn = Arc::clone(lock(&self.admitting).entry(player.to_owned()).or_default());
        let _turn = turn.lock().await;
        if let Some(a) = self.check.admission(bot, n).map_err(AdmitError::Read)? {
            if a.passed {
                return Ok(());
            }
            let wait = rule.retry.as_secs_f64() - a.age_secs;
            if wait > 0.0 {
                return Err(AdmitError::Failed {
                    detail: a.detail,
                    retry_in: wait.ceil() as u64,
                });
            }
        }
        // The first pool this connection may join: its game and clock.
        let Some(pool) = self.pools.iter().find(|p| {
            session.plays(p.game.as_str()) && pools.as_ref().is_none_or(|n| n.contains(&p.name))
        }) else {
            return Ok(()); // it plays in no pool: it will not be paired
        };
        tracing::info!(%player, pool = %pool.name, "admission checks");
        let verdict =
            arbiter_core::play::admission_checks::admit(session, pool.game, pool.tc, rule.limits)
                .await;
        self.check
            .record_admission(bot, n, &verdict)
            .map_err(AdmitError::Record)?;
        if verdict.passed() {
            tracing::info!(%player, "admitted");
            Ok(())
        } else {
            Err(AdmitError::Failed {
                detail: verdict.summary(),
                retry_in: rule.retry.as_secs(),
            })
        }
    }

    /// Every quarter second: idle connections that closed, or whose bot was
    /// revoked, are announced gone (the revoked ones are closed).
    async fn sweep(self: Arc<Self>) {
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let players: Vec<String> = lock(&self.idle).keys().cloned().collect();
            let revoked: BTreeSet<String> = players
                .into_iter()
                .filter(|p| !self.check.is_active(crate::versions::bot_of(p)))
                .collect();
            let mut gone: Vec<(String, Idle)> = Vec::new();
            {
                let mut idle = lock(&self.idle);
                for (bot, all) in idle.iter_mut() {
                    let mut keep = Vec::with_capacity(all.len());
                    for mut i in all.drain(..) {
                        if revoked.contains(bot) || !i.session.is_alive() {
                            gone.push((bot.clone(), i));
                        } else {
                            keep.push(i);
                        }
                    }
                    *all = keep;
                }
                idle.retain(|_, all| !all.is_empty());
            }
            for (bot, i) in gone {
                if revoked.contains(&bot) {
                    tracing::info!(%bot, "closed a connection: the bot was revoked");
                }
                self.drop_session(&bot, i.session).await;
            }
        }
    }

    /// Closes a session and announces its slot gone.
    async fn drop_session(&self, bot: &str, session: Session) {
        session.shutdown(Duration::ZERO).await;
        let _ = self
            .lobby
            .send(LobbyEvent::Left {
                bot: bot.to_owned(),
                slots: 1,
            })
            .await;
    }

    /// A session of `bot` (a player's key: one version of a bot).
    async fn seat_now(
        &self,
        bot: &str,
        game: GameId,
        options: &[(String, String)],
    ) -> Result<Session, Fault> {
        if !self.check.is_active(crate::versions::bot_of(bot)) {
            return Err(Fault::Dropped {
                reason: format!("{bot} was revoked"),
            });
        }
        let found = {
            let mut idle = lock(&self.idle);
            let all = idle.get_mut(bot);
            all.and_then(|all| {
                let k = all
                    .iter_mut()
                    .position(|i| i.session.is_alive() && i.session.plays(game.as_str()))?;
                Some(all.swap_remove(k))
            })
        };
        let Some(Idle {
            mut session,
            state,
            pools,
        }) = found
        else {
            return Err(Fault::Dropped {
                reason: format!("no open connection of {bot} that plays {game}"),
            });
        };
        if let Err(fault) = session.set_options(options).await {
            self.drop_session(bot, session).await;
            return Err(fault);
        }
        lock(&self.away)
            .entry(bot.to_owned())
            .or_default()
            .push(Away {
                id: session.pid(),
                state,
                pools,
            });
        Ok(session)
    }

    /// Takes back what [`RemoteBots::seat_now`] noted of `session`.
    fn back(&self, bot: &str, session: &Session) -> Option<Away> {
        let mut away = lock(&self.away);
        let all = away.get_mut(bot)?;
        // why not only by id: a connection that came back mid-game has a new one.
        let k = all
            .iter()
            .position(|a| a.id == session.pid())
            .or_else(|| all.iter().position(|a| !a.state.is_open()))
            .unwrap_or(0);
        let found = (k < all.len()).then(|| all.swap_remove(k));
        if all.is_empty() {
            away.remove(bot);
        }
        found
    }

    async fn release_now(&self, bot: &str, mut session: Session, fit: bool) {
        // why the latest: a connection back within the grace stands for
        // the one the game was seated on.
        let away = self.back(bot, &session).map(|a| Away {
            state: a.state.latest(),
            ..a
        });
        if let (Some(why), Some(a)) = (self.stopping(), away.as_ref()) {
            a.state.close(&why);
        }
        if fit
            && session.is_alive()
            && self.check.is_active(crate::versions::bot_of(bot))
            && self.stopping().is_none()
        {
            if let Some(a) = away {
                lock(&self.idle)
                    .entry(bot.to_owned())
                    .or_default()
                    .push(Idle {
                        session,
                        state: a.state,
                        pools: a.pools,
                    });
                return;
            }
        }
        self.drop_session(bot, session).await;
    }
}

crate::lobby::seats_by_async_methods!(RemoteBots, live_now);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_names_its_pools_in_the_query() {
        let pools = crate::pools::parse(
            r#"[{"name": "a", "game": "bohnenspiel", "each": "depth=1"},
                {"name": "b", "game": "bosh", "each": "depth=1"}]"#,
            std::path::Path::new("."),
        )
        .unwrap();
        assert_eq!(named_pools(None, &pools), Ok(None));
        assert_eq!(named_pools(Some(""), &pools), Ok(None));
        assert_eq!(
            named_pools(Some("pools=b"), &pools),
            Ok(Some(vec!["b".to_owned()]))
        );
        assert_eq!(
            named_pools(Some("pools=a,b"), &pools),
            Ok(Some(vec!["a".to_owned(), "b".to_owned()]))
        );
        let e = named_pools(Some("pools=a,zz"), &pools)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no pool \"zz\""), "{e}");
        let e = named_pools(Some("pool=a"), &pools).unwrap_err().to_string();
        assert!(e.contains("unknown parameter \"pool\""), "{e}");
        assert!(named_pools(Some("pools="), &pools).is_err());
    }
}
