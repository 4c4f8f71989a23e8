//! The arena itself: who is connected ([`crate::lobby`]), the
//! continuous pairing of every pool, the games (each in its own task, with
//! sessions from the seam, played by the same game code as `arbiter
//! match`), their records in the database, the back-off of bots that keep
//! failing, and the ratings, recomputed as games finish.
//!
//! One task owns the scheduling: it wakes on a lobby event, a finished
//! game, or once a second (a pause that ran out), and starts whatever the
//! pairing gives. Nothing a connection sends reaches the database except
//! through a game's record, written by the arbiter.
//!
//! This file holds the arena's state, its opening and the scheduling
//! task's loop; the work is in the files beside it, one job each:
//! `starts` (what [`crate::schedule`] decides, recorded and spawned),
//! `event_games` (the events being played), `games` (one game played and
//! recorded), `rating` (the ratings as games finish), `publish` (what the
//! live view is told) and `drain` (no new game, the deadline, the aborts).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use rusqlite::Connection;
use tokio::sync::{mpsc, Notify};

use crate::anchors::Anchors;
use crate::backoff::{Backoff, Policy};
use crate::db::{self, DbError};
use crate::events::plan::Plan;
use crate::events::{self, EventState};
use crate::lobby::{LobbyEvent, Seats};
use crate::pace::{HouseRate, Lengths};
use crate::pairing::Pairing;
use crate::pools::Pool;
use crate::ratings::{Rated, Tally};
use crate::schedule::Book;
pub use crate::schedule::Presence;
use crate::store;
use arbiter_board::live::LiveHub;
use arbiter_core::play::game::Timeouts;

mod drain;
mod event_games;
mod games;
mod publish;
mod rating;
mod starts;

/// How the arena plays.
#[derive(Clone, Debug)]
pub struct Config {
    pub pools: Vec<Pool>,
    pub timeouts: Timeouts,
    pub max_plies: Option<u32>,
    pub backoff: Policy,
    /// The least time between two recomputations of a pool's ratings.
    pub rating_interval: Duration,
    /// Start no new game (the games in progress finish); for tests and a
    /// graceful stop.
    pub max_games: Option<u64>,
    /// Plies behind which the live views show games in progress
    /// (`--spectator-delay`; [`LiveHub::with_delay`]).
    pub spectator_delay: u32,
    /// The longest a free bot waits for a busy opponent it has met less
    /// (pairing rule 3; `--pairing-wait`): after it, rule 3 is lifted for
    /// it. `None`: as long as that opponent's game lasts.
    pub pairing_wait: Option<Duration>,
    /// The house bots (by bot): two of them start a new pair only while no
    /// other bot of the pool is free, and at most `house_rate` games an
    /// hour (pairing rule 4; `--house-rate`).
    pub house: BTreeSet<String>,
    pub house_rate: u32,
}

/// A game in progress.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Playing {
    pub id: i64,
    pub pool: String,
    pub south: String,
    pub north: String,
}

#[derive(Default)]
struct State {
    present: BTreeMap<String, Presence>,
    /// Each pool's pairing, and what the scheduling decision keeps between
    /// calls ([`crate::schedule::Book`]).
    book: Book,
    backoff: Backoff,
    /// Games in progress per bot.
    busy: BTreeMap<String, usize>,
    playing: BTreeMap<i64, Playing>,
    /// Pools whose ratings are out of date.
    stale: BTreeSet<String>,
    /// When the ratings were last recomputed (or the anchors last read).
    rated_at: Option<Instant>,
    /// How long the last recomputation took.
    rated_in: Duration,
    /// The anchors the ratings were last computed with.
    anchors: Option<Anchors>,
    started: u64,
    /// The server is stopping (a drain): no new game.
    stopping: bool,
    /// The latest clocks of each game in progress (for the drain's deadline).
    clocks: BTreeMap<i64, arbiter_core::shutdown::InProgress>,
    /// The events being played, by id.
    events: BTreeMap<i64, Plan>,
    /// Since when each absent player of an event has been away.
    absent: BTreeMap<String, Instant>,
    /// When each game in progress started.
    began: BTreeMap<i64, Instant>,
    /// How long each player's latest games lasted (pairing rule 3's patience).
    lengths: Lengths,
    /// When each two house bots last started a new pair (`--house-rate`).
    house_games: Option<HouseRate>,
}

/// How long a server that has just started waits before it starts an event
/// that is due: the bots that were connected before a restart need a
/// moment to connect again, and an event takes those connected when it starts.
pub const EVENT_GATHER: Duration = Duration::from_secs(10);

/// A pool's results, kept between refits so that a refit reads no game.
struct PoolTally {
    tally: Tally,
    /// The newest finished game in the tally.
    last: i64,
    /// Each player's games at its newest rating history entry (read once).
    history: Option<BTreeMap<String, i64>>,
}

/// The arena, shared by its tasks and the pages.
pub struct Arena {
    pub config: Config,
    pub db_path: PathBuf,
    /// The one connection that writes.
    writer: Mutex<Connection>,
    /// A connection the pages read through.
    reader: Mutex<Connection>,
    state: Mutex<State>,
    ladders: Mutex<BTreeMap<String, Vec<Rated>>>,
    /// Each pool's results so far, added to as games finish.
    tallies: Mutex<BTreeMap<String, PoolTally>>,
    seats: Arc<dyn Seats>,
    wake: Notify,
    pub live: LiveHub,
    /// When the server opened (events wait [`EVENT_GATHER`] after it).
    opened: Instant,
    /// The events' standings, kept up for the pages.
    pub standings: events::Standings,
    /// The server's stop: a game that ends once it stops at once is
    /// aborted, never a result.
    pub shutdown: arbiter_core::shutdown::Shutdown,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // why not unwrap: a panic in one game must not stop the arena.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the pages say while the server drains.
pub const STOPPING: &str = "server stopping: no new game; the games in progress finish";

impl Arena {
    /// Opens the arena on its database (migrated; games left `playing` by a
    /// server that died are marked aborted) and restores each pool's pairing
    /// from the recorded games. It stops with `shutdown`.
    pub fn open(
        config: Config,
        db_path: PathBuf,
        seats: Arc<dyn Seats>,
        shutdown: arbiter_core::shutdown::Shutdown,
    ) -> Result<Arc<Arena>, DbError> {
        let writer = db::open(&db_path)?;
        let aborted = store::abort_unfinished(&writer)?;
        if aborted > 0 {
            tracing::warn!("{aborted} game(s) in progress when the last server stopped: aborted");
        }
        let reader = db::open(&db_path)?;
        let mut house_games = HouseRate::new(config.house_rate);
        let now = Instant::now();
        // why two hours: the longest spacing (`--house-rate 1`).
        for (south, north, ago) in store::pairs_started_within(&writer, 2 * crate::pace::HOUR)? {
            let house = |p: &str| config.house.contains(crate::versions::bot_of(p));
            if house(&south) && house(&north) {
                house_games.started(&south, &north, now.checked_sub(ago).unwrap_or(now));
            }
        }
        let mut state = State {
            backoff: Backoff::new(config.backoff),
            house_games: Some(house_games),
            ..State::default()
        };
        let mut tallies = BTreeMap::new();
        for pool in &config.pools {
            let (tally, last) = store::tally(&writer, &pool.name)?;
            tallies.insert(
                pool.name.clone(),
                PoolTally {
                    tally,
                    last,
                    history: None,
                },
            );
            let legs = store::legs(&writer, &pool.name)?;
            let pairing = Pairing::restore(
                legs.iter()
                    .map(|(s, n, p, l)| (s.as_str(), n.as_str(), *p, *l)),
            );
            state.book.pairings.insert(pool.name.clone(), pairing);
            state.stale.insert(pool.name.clone());
        }
        for event in events::in_state(&writer, EventState::Playing)? {
            match Plan::of_playing(&writer, &config.pools, &event) {
                Ok(plan) => {
                    tracing::info!(event = event.id, "event resumes");
                    state.events.insert(event.id, plan);
                }
                Err(e) => tracing::error!(event = event.id, "event cannot resume: {e}"),
            }
        }
        let live = LiveHub::with_delay(config.spectator_delay);
        let arena = Arc::new(Arena {
            config,
            db_path,
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
            state: Mutex::new(state),
            ladders: Mutex::new(BTreeMap::new()),
            tallies: Mutex::new(tallies),
            seats,
            wake: Notify::new(),
            live,
            opened: Instant::now(),
            standings: events::Standings::default(),
            shutdown,
        });
        arena.publish_opened();
        arena.refresh_ratings(true);
        Ok(arena)
    }

    /// The pages' read connection.
    pub fn reader(&self) -> MutexGuard<'_, Connection> {
        lock(&self.reader)
    }

    /// The ratings of `pool` as last computed.
    pub fn ladder(&self, pool: &str) -> Vec<Rated> {
        lock(&self.ladders).get(pool).cloned().unwrap_or_default()
    }

    /// Who is connected now.
    pub fn present(&self) -> BTreeMap<String, Presence> {
        lock(&self.state).present.clone()
    }

    /// Who is connected now with a live instance: [`Arena::present`]
    /// without the players whose only slots are games waiting for a
    /// dropped connection to come back (what the bot page shows).
    pub fn live(&self) -> BTreeMap<String, Presence> {
        let mut present = self.present();
        present.retain(|player, _| self.seats.is_live(player));
        present
    }

    /// The games in progress.
    pub fn playing(&self) -> Vec<Playing> {
        lock(&self.state).playing.values().cloned().collect()
    }

    /// Until when `bot` is paused (seconds from now), if it is.
    pub fn paused_for(&self, bot: &str) -> Option<Duration> {
        let now = Instant::now();
        lock(&self.state)
            .backoff
            .paused_until(bot, now)
            .map(|until| until - now)
    }

    /// `max_games` have started, if given) until the lobby closes and the
    /// games in progress have finished.
    pub async fn run(self: Arc<Self>, mut events: mpsc::Receiver<LobbyEvent>) {
        let mut open = true;
        loop {
            tokio::select! {
                ev = events.recv(), if open => match ev {
                    Some(ev) => self.apply(ev),
                    None => open = false,
                },
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
            // why every waiting event first: a seat gives its slot back
            // (`Left`) before its game counts as over, so the pairing never
            // sees the slot of a connection just closed as free.
            while open {
                match events.try_recv() {
                    Ok(ev) => self.apply(ev),
                    Err(mpsc::error::TryRecvError::Empty) => break,
                    Err(mpsc::error::TryRecvError::Disconnected) => open = false,
                }
            }
            self.schedule();
            self.refresh_ratings(false);
            let s = lock(&self.state);
            if (!open || s.stopping) && s.playing.is_empty() {
                break;
            }
        }
        self.refresh_ratings(true);
    }

    fn apply(&self, ev: LobbyEvent) {
        let mut s = lock(&self.state);
        match ev {
            LobbyEvent::Arrived {
                bot,
                slots,
                games,
                pools,
            } => {
                tracing::info!(%bot, slots, "bot arrived");
                let p = s.present.entry(bot.clone()).or_insert_with(|| Presence {
                    slots: 0,
                    games: games.clone(),
                    pools: pools.clone(),
                    since: SystemTime::now(),
                });
                p.slots += slots;
                p.games = games;
                p.pools = pools;
                drop(s);
                self.seen(crate::versions::bot_of(&bot));
            }
            LobbyEvent::Left { bot, slots } => {
                tracing::info!(%bot, slots, "bot left");
                let gone = match s.present.get_mut(&bot) {
                    Some(p) => {
                        p.slots = p.slots.saturating_sub(slots);
                        p.slots == 0
                    }
                    None => false,
                };
                if gone {
                    s.present.remove(&bot);
                }
                drop(s);
                self.seen(crate::versions::bot_of(&bot));
            }
        }
    }

    fn seen(&self, bot: &str) {
        let w = lock(&self.writer);
        if let Err(e) = w.execute(
            "INSERT INTO seen (bot, at) VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) \
             ON CONFLICT (bot) DO UPDATE SET at = excluded.at",
            [bot],
        ) {
            tracing::error!("cannot record when {bot} was seen: {e}");
        }
    }
}
