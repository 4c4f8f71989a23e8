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

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use mancala_rules::{GameResult, Side};
use rusqlite::Connection;
use tokio::sync::{mpsc, Notify};
use tracing::Instrument;

use crate::anchors::Anchors;
use crate::backoff::{Backoff, Policy};
use crate::db::{self, DbError};
use crate::events::plan::{Open, Plan};
use crate::events::{self, Event, EventState};
use crate::lobby::{LobbyEvent, Seats};
use crate::pace::{expected_free_in, HouseRate, Lengths};
use crate::pairing::{Estimate, Look, Pairing, Start};
use crate::pools::Pool;
use crate::ratings::{Game, Rated, Tally};
use crate::store::{self, NewGame};
use arbiter_board::live::LiveHub;
use arbiter_core::engine::session::{Fault, Session};
use arbiter_core::play::game::{self, GamePlan, Played, Timeouts};
use arbiter_core::play::observe::{
    clocks_ms, GameObserver, GameStart, GameWatch, PlyEvent, ThinkingEvent,
};
use arbiter_core::play::runner::Job;
use arbiter_core::records::log::{GameLog, Termination};

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

/// A connected player (a version of a bot, [`crate::versions`]).
#[derive(Clone, Debug)]
pub struct Presence {
    pub slots: usize,
    pub games: Vec<String>,
    pub pools: Option<Vec<String>>,
    pub since: SystemTime,
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
    pairing: BTreeMap<String, Pairing>,
    backoff: Backoff,
    /// Games in progress per bot.
    busy: BTreeMap<String, usize>,
    playing: BTreeMap<i64, Playing>,
    /// Pools whose ratings are out of date.
    stale: BTreeSet<String>,
    /// Pool to look at first next time (so no pool takes every free slot).
    first_pool: usize,
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
    /// Since when each player has had a free slot (`--pairing-wait`).
    free_since: BTreeMap<String, Instant>,
    /// When each game in progress started.
    began: BTreeMap<i64, Instant>,
    /// How long each player's latest games lasted (pairing rule 3's patience).
    lengths: Lengths,
    /// When each two house bots last started a new pair (`--house-rate`).
    house_games: Option<HouseRate>,
}

/// An event's game: its event, its slot's job, and what its log is tagged
/// with (the event's name, its schedule).
#[derive(Clone, Debug)]
struct EventGame {
    event: i64,
    job: Job,
    name: String,
    schedule: Arc<arbiter_core::event::schedule::Schedule>,
}

/// How long an event waits for a player that is not connected before its
/// games are played without it (each lost at the start: a forfeit).
const EVENT_ABSENCE_GRACE: Duration = Duration::from_secs(30);

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

/// A refit waits at least this many times its own last duration after it,
/// so that however large the pool grows, its ratings take at most about
/// a tenth of one core (the fit's time grows with the players and their pairs).
const REFIT_SPACING: u32 = 10;

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

/// The live feed of one game, which also keeps its latest clocks in the
/// arena's state (the drain's deadline is the longest game's clocks).
struct ClockTap<'a> {
    inner: &'a dyn GameObserver,
    arena: &'a Arena,
    id: i64,
}

impl ClockTap<'_> {
    fn note(&self, clocks: [Option<u64>; 2]) {
        if let Some(c) = lock(&self.arena.state).clocks.get_mut(&self.id) {
            *c = arbiter_core::shutdown::InProgress::now(clocks);
        }
    }
}

impl GameObserver for ClockTap<'_> {
    fn game_started(&self, start: &GameStart<'_>) {
        self.note(start.clocks_ms);
        self.inner.game_started(start);
    }

    fn ply(&self, job: &Job, ply: &PlyEvent<'_>) {
        self.note(ply.clocks_ms);
        // why always: the plies are the snapshot's (`/api/live/snapshot`
        // polled with no page open, a page opened mid-game); only the
        // searches wait for a watcher.
        self.inner.ply(job, ply);
    }

    fn thinking(&self, job: &Job, thinking: &ThinkingEvent<'_>) {
        if self.inner.watched() {
            self.inner.thinking(job, thinking);
        }
    }
}

/// A new version's first pair, against the newest older version of its bot
/// among the free players `players` (when it has one): the first thing a
/// new version's author wants to know is whether it beats the last one.
fn first_pairs_of_new_versions(
    pairing: &mut Pairing,
    players: &BTreeMap<String, usize>,
    free: &mut BTreeMap<String, usize>,
    most: usize,
) -> Vec<Start> {
    use crate::versions::split;
    let mut out = Vec::new();
    for player in players.keys() {
        let (bot, n) = split(player);
        if n <= 1 || pairing.pairs_of(player) > 0 {
            continue;
        }
        let previous = players
            .keys()
            .filter(|k| {
                let (b, m) = split(k);
                b == bot && m < n
            })
            .max_by_key(|k| split(k).1);
        if let Some(previous) = previous {
            out.extend(pairing.start_pair(player, previous, free, most - out.len()));
        }
    }
    out
}

/// The plan of a playing `event` from its finished games in the database.
fn plan_of(conn: &Connection, pools: &[Pool], event: &Event) -> Result<Plan, String> {
    let index = pools
        .iter()
        .position(|p| p.name == event.pool)
        .ok_or_else(|| format!("no pool named {:?} on this server", event.pool))?;
    let finished = events::records(conn, event.id)
        .map_err(|e| e.to_string())?
        .iter()
        .map(|line| arbiter_core::records::jsonl::parse_line(line).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Plan::new(event, index, &pools[index], &finished)
}

/// What the pages say while the server drains.
pub const STOPPING: &str = "server stopping: no new game; the games in progress finish";

/// Whether a game's verdict is a strike against the bot that lost it
/// (see [`crate::backoff`]).
fn is_strike(termination: &Termination) -> bool {
    matches!(
        termination,
        Termination::Crash { .. }
            | Termination::Disconnect { .. }
            | Termination::Unresponsive { .. }
    )
}

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
            state.pairing.insert(pool.name.clone(), pairing);
            state.stale.insert(pool.name.clone());
        }
        for event in events::in_state(&writer, EventState::Playing)? {
            match plan_of(&writer, &config.pools, &event) {
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
        arena.live.publish(arbiter_board::live::LiveMsg::Event(
            arbiter_board::live::hub::EventMeta {
                event: format!(
                    "mancala arena: {}",
                    arena
                        .config
                        .pools
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                games: arena
                    .config
                    .pools
                    .iter()
                    .map(|p| p.game.to_string())
                    .collect(),
                // why none: the bots come and go; the ladder lists them.
                engines: Vec::new(),
                total: None,
                source: "arena".to_owned(),
            },
        ));
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

    /// Starts the drain: no new game from now on (the games in progress
    /// finish), and the live page says the server is stopping.
    pub fn stop_pairing(&self) {
        lock(&self.state).stopping = true;
        self.live.publish(arbiter_board::live::LiveMsg::Problems {
            problems: vec![STOPPING.to_owned()],
        });
        self.wake.notify_one();
    }

    /// Whether the server is stopping (no new game).
    pub fn is_stopping(&self) -> bool {
        lock(&self.state).stopping
    }

    /// Each game in progress's remaining clocks as of its last move, and
    /// when that was (the drain's deadline, [`arbiter_core::shutdown::over_by`]).
    pub fn in_progress(&self) -> Vec<arbiter_core::shutdown::InProgress> {
        let s = lock(&self.state);
        s.playing
            .keys()
            .map(|id| {
                s.clocks
                    .get(id)
                    .copied()
                    .unwrap_or_else(|| arbiter_core::shutdown::InProgress::now([None, None]))
            })
            .collect()
    }

    /// Aborts every game still in progress (a drain's deadline passed):
    /// never a result, counted nowhere; a game that ends later is not
    /// recorded. Returns how many.
    pub fn abort_playing(&self) -> usize {
        let ids: Vec<i64> = lock(&self.state).playing.keys().copied().collect();
        let w = lock(&self.writer);
        ids.into_iter()
            .filter(|&id| match store::abort(&w, id) {
                Ok(()) => true,
                Err(e) => {
                    tracing::error!("cannot abort game {id}: {e}");
                    false
                }
            })
            .count()
    }

    /// Until when `bot` is paused (seconds from now), if it is.
    pub fn paused_for(&self, bot: &str) -> Option<Duration> {
        let now = Instant::now();
        lock(&self.state)
            .backoff
            .paused_until(bot, now)
            .map(|until| until - now)
    }

    /// Whether `bot` (connected) plays in `pool`.
    pub fn plays_in(presence: &Presence, pool: &Pool) -> bool {
        presence.games.iter().any(|g| g == pool.game.as_str())
            && presence
                .pools
                .as_ref()
                .is_none_or(|named| named.iter().any(|p| p == &pool.name))
    }

    /// Runs the arena: takes the lobby's events and starts games (until
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

    /// The bots whose token is not revoked (read each time: a revocation by
    /// the admin command takes effect at the next pairing).
    fn active_bots(&self) -> BTreeSet<String> {
        let r = lock(&self.reader);
        let names = crate::bots::list(&r).map(|bots| {
            bots.into_iter()
                .filter(|b| b.revoked.is_none())
                .map(|b| b.name)
                .collect()
        });
        names.unwrap_or_else(|e| {
            tracing::error!("cannot read the bots: {e}");
            BTreeSet::new()
        })
    }

    /// Starts what the events and the pairing of each pool give for the
    /// free slots now.
    fn schedule(self: &Arc<Self>) {
        if self.is_stopping() {
            return;
        }
        let active = self.active_bots();
        let due = if self.opened.elapsed() < EVENT_GATHER {
            Vec::new()
        } else {
            events::in_state(&lock(&self.reader), EventState::Scheduled).unwrap_or_else(|e| {
                tracing::error!("cannot read the events: {e}");
                Vec::new()
            })
        };
        // Events cancelled by the organiser (`arena event cancel`) while playing.
        let playing: Option<BTreeSet<i64>> =
            match events::in_state(&lock(&self.reader), EventState::Playing) {
                Ok(all) => Some(all.into_iter().map(|e| e.id).collect()),
                Err(e) => {
                    tracing::error!("cannot read the events: {e}");
                    None
                }
            };
        let now = Instant::now();
        let mut starts: Vec<(usize, Start, i64, Option<EventGame>)> = Vec::new();
        {
            let mut guard = lock(&self.state);
            // why: borrow the state's fields apart, not through the guard.
            let s = &mut *guard;
            if let Some(playing) = playing {
                s.events.retain(|id, _| {
                    let on = playing.contains(id);
                    if !on {
                        tracing::info!(event = id, "event cancelled: no more of its games");
                    }
                    on
                });
            }
            for event in due {
                self.start_event(s, event, &active);
            }
            self.event_games(s, &active, now, &mut starts);
            // why: an event's players play its games, not the pool's, until it ends.
            let in_events: BTreeSet<String> = s
                .events
                .values()
                .flat_map(|p| p.players.iter().cloned())
                .collect();
            let mut free: BTreeMap<String, usize> = s
                .present
                .iter()
                .filter(|(player, _)| {
                    active.contains(crate::versions::bot_of(player))
                        && s.backoff.may_play(player, now)
                        && !in_events.contains(*player)
                })
                .map(|(bot, p)| {
                    let busy = s.busy.get(bot).copied().unwrap_or(0);
                    (bot.clone(), p.slots.saturating_sub(busy))
                })
                .filter(|(_, n)| *n > 0)
                .collect();
            // Who has waited longer than --pairing-wait with a free slot
            // (kept only with the flag: without it no one is impatient).
            let impatient: BTreeSet<String> = match self.config.pairing_wait {
                Some(wait) => {
                    s.free_since.retain(|player, _| free.contains_key(player));
                    for player in free.keys() {
                        s.free_since.entry(player.clone()).or_insert(now);
                    }
                    s.free_since
                        .iter()
                        .filter(|(_, since)| now.duration_since(**since) >= wait)
                        .map(|(player, _)| player.clone())
                        .collect()
                }
                None => BTreeSet::new(),
            };
            let n = self.config.pools.len();
            let first = s.first_pool % n.max(1);
            s.first_pool = s.first_pool.wrapping_add(1);
            for k in 0..n {
                let i = (first + k) % n;
                let pool = &self.config.pools[i];
                let mut here: BTreeMap<String, usize> = free
                    .iter()
                    .filter(|(bot, _)| {
                        s.present
                            .get(*bot)
                            .is_some_and(|p| Arena::plays_in(p, pool))
                    })
                    .map(|(b, n)| (b.clone(), *n))
                    .collect();
                let before = here.clone();
                // Who plays here now, free or in a game (not paused, not
                // revoked, not at an event): pairing rule 3 waits for the busy ones.
                let connected: BTreeSet<String> = s
                    .present
                    .iter()
                    .filter(|(player, p)| {
                        Arena::plays_in(p, pool)
                            && active.contains(crate::versions::bot_of(player))
                            && s.backoff.may_play(player, now)
                            && !in_events.contains(*player)
                    })
                    .map(|(player, _)| player.clone())
                    .collect();
                let room = self.room(s);
                let look = self.look(s, pool, &here, &connected, &impatient, now);
                let Some(pairing) = s.pairing.get_mut(&pool.name) else {
                    continue;
                };
                let mut got = first_pairs_of_new_versions(pairing, &before, &mut here, room);
                got.extend(pairing.next_looking(&mut here, &look, room.saturating_sub(got.len())));
                for (bot, n) in &before {
                    let used = n - here.get(bot).copied().unwrap_or(0);
                    if let Some(f) = free.get_mut(bot) {
                        *f -= used.min(*f);
                    }
                }
                for start in got {
                    if let Some(id) = self.begin(s, i, &start, None) {
                        starts.push((i, start, id, None));
                    }
                }
            }
        }
        for (pool, start, id, event) in starts {
            let arena = Arc::clone(self);
            // why a span: every log event of the game says which game it is.
            let span = tracing::error_span!(
                "game",
                id,
                pool = %self.config.pools[pool].name,
                south = %start.south,
                north = %start.north,
                event = event.as_ref().map(|e| e.event),
            );
            tokio::spawn(async move { arena.play(pool, start, id, event).await }.instrument(span));
        }
    }

    /// What the pairing of `pool` is told ([`Look`]): the ladder, when each
    /// `connected` player is expected free and how long each waits (rule
    /// 3), who has waited too long (`impatient`), and which two house bots
    /// may not start a pair now (rule 4: while another bot is free in
    /// `here`, or past `--house-rate`).
    fn look(
        &self,
        s: &mut State,
        pool: &Pool,
        here: &BTreeMap<String, usize>,
        connected: &BTreeSet<String>,
        impatient: &BTreeSet<String>,
        now: Instant,
    ) -> Look {
        let mut look = Look {
            estimates: Estimate::from_ladder(&self.ladder(&pool.name)),
            impatient: impatient.clone(),
            ..Look::default()
        };
        // Each player's games in progress, read once.
        let mut games: BTreeMap<&str, Vec<([&str; 2], Instant)>> = BTreeMap::new();
        for g in s.playing.values() {
            if let Some(began) = s.began.get(&g.id) {
                for p in [&g.south, &g.north] {
                    let game = ([g.south.as_str(), g.north.as_str()], *began);
                    games.entry(p.as_str()).or_default().push(game);
                }
            }
        }
        for player in connected {
            let has_free = here.get(player).is_some_and(|&n| n > 0);
            let of = games.get(player.as_str()).map_or(&[][..], Vec::as_slice);
            let soon = expected_free_in(&s.lengths, has_free, of, now);
            look.connected.insert(player.clone(), soon);
            if let Some(wait) = s.lengths.patience(player) {
                look.patience.insert(player.clone(), wait);
            }
        }
        let is_house = |p: &str| self.config.house.contains(crate::versions::bot_of(p));
        let house: Vec<&String> = connected.iter().filter(|p| is_house(p)).collect();
        if house.len() < 2 {
            return look;
        }
        let other_free = here.iter().any(|(p, &n)| n > 0 && !is_house(p));
        for (i, a) in house.iter().enumerate() {
            for b in &house[i + 1..] {
                let paced = s.house_games.as_ref().is_some_and(|r| !r.allows(a, b, now));
                if other_free || paced {
                    look.bar(a, b);
                }
            }
        }
        look
    }

    /// Games the server may still start (`--max-games`).
    fn room(&self, s: &State) -> usize {
        self.config
            .max_games
            .map_or(usize::MAX, |max| max.saturating_sub(s.started) as usize)
    }

    /// Records a game as started in pool `pool` and counts it in progress;
    /// its id, or `None` when the database refused it.
    fn begin(
        &self,
        s: &mut State,
        pool: usize,
        start: &Start,
        event: Option<&EventGame>,
    ) -> Option<i64> {
        let name = &self.config.pools[pool].name;
        let id = store::begin(
            &lock(&self.writer),
            &NewGame {
                pool: name,
                south: &start.south,
                north: &start.north,
                pair: start.pair,
                leg: start.leg,
                event: event.map(|e| (e.event, e.job.index)),
            },
        );
        match id {
            Ok(id) => {
                s.started += 1;
                for bot in [&start.south, &start.north] {
                    *s.busy.entry(bot.clone()).or_default() += 1;
                }
                let now = Instant::now();
                s.began.insert(id, now);
                let house = |p: &str| self.config.house.contains(crate::versions::bot_of(p));
                if event.is_none() && start.leg == 1 && house(&start.south) && house(&start.north) {
                    if let Some(r) = s.house_games.as_mut() {
                        r.started(&start.south, &start.north, now);
                    }
                }
                s.clocks
                    .insert(id, arbiter_core::shutdown::InProgress::now([None, None]));
                s.playing.insert(
                    id,
                    Playing {
                        id,
                        pool: name.clone(),
                        south: start.south.clone(),
                        north: start.north.clone(),
                    },
                );
                Some(id)
            }
            Err(e) => {
                tracing::error!("cannot record a new game: {e}");
                None
            }
        }
    }

    /// Starts a due event with the players connected to its pool now (not
    /// at another event), seeded by their rating; cancels it, saying why,
    /// when it cannot be played.
    fn start_event(&self, s: &mut State, event: Event, active: &BTreeSet<String>) {
        let id = event.id;
        let Some(pool) = self.config.pools.iter().find(|p| p.name == event.pool) else {
            let names: Vec<&str> = self.config.pools.iter().map(|p| p.name.as_str()).collect();
            let why = format!(
                "no pool named {:?} on this server (its pools: {})",
                event.pool,
                names.join(", ")
            );
            return self.cancel_event(id, &why);
        };
        // why by bot: one student, one seat (its other version included).
        let in_events: BTreeSet<&str> = s
            .events
            .values()
            .flat_map(|p| p.players.iter().map(|q| crate::versions::bot_of(q)))
            .collect();
        let mut players: Vec<String> = events::one_seat_per_bot(
            s.present
                .iter()
                .filter(|(player, p)| {
                    let bot = crate::versions::bot_of(player);
                    Arena::plays_in(p, pool) && active.contains(bot) && !in_events.contains(bot)
                })
                .map(|(player, _)| player.clone())
                .collect(),
        );
        if players.len() < 2 {
            let why = format!(
                "{} bot(s) connected to pool {} at the start ({}); an event needs two",
                players.len(),
                pool.name,
                if players.is_empty() {
                    "none".to_owned()
                } else {
                    players.join(", ")
                }
            );
            return self.cancel_event(id, &why);
        }
        // Seeds: the rated by rating, best first, then the others by name.
        let ladder = self.ladder(&pool.name);
        let rating = |p: &String| {
            ladder
                .iter()
                .find(|r| &r.name == p)
                .map_or(f64::NEG_INFINITY, |r| r.rating)
        };
        players.sort_by(|a, b| rating(b).total_cmp(&rating(a)).then(a.cmp(b)));
        let (rounds, note) =
            crate::events::plan::rounds_for(event.format, event.rounds, players.len());
        let started = events::start(&lock(&self.writer), id, &players, rounds, note.as_deref());
        let plan = started.map_err(|e| e.to_string()).and_then(|()| {
            let event = Event {
                players: players.clone(),
                played_rounds: Some(rounds),
                state: EventState::Playing,
                ..event
            };
            plan_of(&lock(&self.reader), &self.config.pools, &event)
        });
        match plan {
            Ok(plan) => {
                tracing::info!(event = id, pool = %pool.name, players = %players.join(", "), "event starts");
                s.events.insert(id, plan);
            }
            Err(e) => tracing::error!(event = id, "event cannot start: {e}"),
        }
    }

    fn cancel_event(&self, id: i64, why: &str) {
        tracing::warn!(event = id, "event cancelled: {why}");
        if let Err(e) = events::cancel(&lock(&self.writer), id, why) {
            tracing::error!(event = id, "cannot cancel the event: {e}");
        }
    }

    /// Starts the events' games whose players are free (in each event's
    /// schedule order), and those of a player away longer than
    /// [`EVENT_ABSENCE_GRACE`] (it loses them at the start); ends the
    /// events whose games are all played.
    fn event_games(
        &self,
        s: &mut State,
        active: &BTreeSet<String>,
        now: Instant,
        starts: &mut Vec<(usize, Start, i64, Option<EventGame>)>,
    ) {
        let players: BTreeSet<String> = s
            .events
            .values()
            .flat_map(|p| p.players.iter().cloned())
            .collect();
        s.absent.retain(|p, _| players.contains(p));
        for p in &players {
            if s.present.contains_key(p) && active.contains(crate::versions::bot_of(p)) {
                s.absent.remove(p);
            } else {
                s.absent.entry(p.clone()).or_insert(now);
            }
        }
        // why no pause here: an event's game is played when its turn comes;
        // a bot that keeps crashing loses it.
        let mut free: BTreeMap<String, usize> = players
            .iter()
            .filter_map(|p| {
                let slots = s.present.get(p)?.slots;
                Some((
                    p.clone(),
                    slots.saturating_sub(s.busy.get(p).copied().unwrap_or(0)),
                ))
            })
            .collect();
        let forfeits = |p: &String, absent: &BTreeMap<String, Instant>| {
            absent
                .get(p)
                .is_some_and(|since| now.duration_since(*since) >= EVENT_ABSENCE_GRACE)
        };
        let ids: Vec<i64> = s.events.keys().copied().collect();
        for id in ids {
            let open = match s.events.get(&id).map(Plan::open) {
                Some(Ok(open)) => open,
                Some(Err(e)) => {
                    tracing::error!(event = id, "event stalled: {e}");
                    continue;
                }
                None => continue,
            };
            match open {
                Open::Over(note) => {
                    if s.events.get(&id).is_some_and(Plan::is_playing) {
                        continue;
                    }
                    s.events.remove(&id);
                    tracing::info!(event = id, "event finished");
                    if let Err(e) = events::finish(&lock(&self.writer), id, note.as_deref()) {
                        tracing::error!(event = id, "cannot mark the event finished: {e}");
                    }
                }
                Open::Jobs(jobs) => {
                    for j in jobs {
                        if self.room(s) == 0 {
                            return;
                        }
                        let Some(plan) = s.events.get(&id) else { break };
                        let (south, north) = (
                            plan.players[j.job.south].clone(),
                            plan.players[j.job.north].clone(),
                        );
                        let ready = |p: &String| {
                            free.get(p).is_some_and(|&n| n > 0) || forfeits(p, &s.absent)
                        };
                        if !(ready(&south) && ready(&north)) {
                            continue;
                        }
                        for p in [&south, &north] {
                            if let Some(n) = free.get_mut(p) {
                                *n = n.saturating_sub(1);
                            }
                        }
                        let pool = plan.pool;
                        let start = Start {
                            south,
                            north,
                            pair: j.job.pair as u64,
                            leg: j.leg,
                        };
                        let game = EventGame {
                            event: id,
                            job: j.job,
                            name: plan.name.clone(),
                            schedule: Arc::clone(&plan.schedule),
                        };
                        if let Some(game_id) = self.begin(s, pool, &start, Some(&game)) {
                            if let Some(plan) = s.events.get_mut(&id) {
                                plan.started(game.job.index);
                            }
                            starts.push((pool, start, game_id, Some(game)));
                        }
                    }
                }
            }
        }
    }

    /// Plays one game and records it.
    async fn play(
        self: Arc<Self>,
        pool_index: usize,
        start: Start,
        id: i64,
        event: Option<EventGame>,
    ) {
        let pool = &self.config.pools[pool_index];
        let start_position = match &event {
            Some(e) => e.job.start_position.clone(),
            None => pool.opening(start.pair as usize),
        };
        let plan = GamePlan {
            game: pool.game,
            start_position,
            tc: [pool.tc; 2],
            max_plies: self.config.max_plies,
            adjudication: arbiter_core::play::adjudicate::Rules::default(),
            ponder: [false; 2],
        };
        let names = [start.south.clone(), start.north.clone()];
        let (played, sessions) = self.play_seated(pool, &plan, &names, id).await;
        let mut log = GameLog {
            event: format!("mancala arena {}", pool.name),
            site: "arena".to_owned(),
            date: arbiter_core::records::output::pgn_date(),
            round: id.to_string(),
            game: pool.game.to_string(),
            start_position: plan.start_position.clone(),
            south: names[0].clone(),
            north: names[1].clone(),
            result: Some(played.result),
            termination: played.termination.clone(),
            time_control: pool.tc.to_string(),
            moves: played.moves.clone(),
            scores: played.scores,
            partie: None,
            tags: BTreeMap::new(),
        };
        if let Some(e) = &event {
            // The event's name, the slot's round and its tags: the export of
            // an event is a tournament's log, `arbiter merge` reads it so.
            log.event = e.name.clone();
            log.round = e.job.round.clone();
            e.schedule.tag(&mut log, &e.job);
        }
        // why: a game cut off by our own stop (its engines killed, or the
        // server stopping at once) is never a result: aborted, counted nowhere.
        let cut_off = self.shutdown.stopping_now()
            || matches!(played.termination, Termination::Interrupted { .. });
        let recorded = {
            let mut w = lock(&self.writer);
            if cut_off {
                match store::abort(&w, id) {
                    Ok(()) => Err(DbError(format!(
                        "game {id} aborted: {}",
                        played.termination.detail()
                    ))),
                    Err(e) => Err(e),
                }
            } else {
                store::finish(&mut w, id, &log)
            }
        };
        match (&recorded, played.result) {
            (Err(e), _) => tracing::warn!("game {id} not recorded: {e}"),
            (Ok(()), result) => self.tally(&pool.name, id, &names, result),
        }
        // The game is in the database before the sessions go back (an
        // offender's shutdown grace would widen the window a kill loses it in).
        let offender = played.offender();
        for (side, session) in sessions {
            let fit = offender != Some(side);
            self.seats.release(&names[side.index()], session, fit).await;
        }
        if recorded.is_ok() {
            self.publish_finished(pool_index, id, &log);
        }
        let now = Instant::now();
        let mut s = lock(&self.state);
        s.playing.remove(&id);
        s.clocks.remove(&id);
        if let Some(began) = s.began.remove(&id) {
            // why only games with moves: one lost at the start says nothing
            // of how long the bots' games last.
            if !played.moves.is_empty() {
                for bot in &names {
                    s.lengths.note(bot, now.saturating_duration_since(began));
                }
            }
        }
        if let Some(e) = &event {
            if let Some(plan) = s.events.get_mut(&e.event) {
                plan.ended(e.job.index, recorded.is_ok().then_some(&log));
            }
        }
        for (side, bot) in Side::BOTH.into_iter().zip(&names) {
            if let Some(n) = s.busy.get_mut(bot) {
                *n = n.saturating_sub(1);
            }
            let strike = offender == Some(side) && is_strike(&played.termination);
            if let Some(pause) = s.backoff.record(bot, strike, now) {
                tracing::warn!(%bot, "paused for {pause:?} after repeated crashes or disconnects");
            }
        }
        s.stale.insert(pool.name.clone());
        drop(s);
        self.wake.notify_one();
    }

    /// Seats both bots and plays; a bot that cannot be seated or started
    /// loses by its fault. Returns the sessions seated.
    async fn play_seated(
        &self,
        pool: &Pool,
        plan: &GamePlan,
        names: &[String; 2],
        id: i64,
    ) -> (Played, Vec<(Side, Session)>) {
        let pool_options = &pool.options;
        let mut seated: Vec<(Side, Session)> = Vec::with_capacity(2);
        for side in Side::BOTH {
            let bot = &names[side.index()];
            let result = match self.seats.seat(bot, plan.game, pool_options).await {
                Ok(mut session) => {
                    match game::start(plan, &mut session, self.config.timeouts).await {
                        Ok(()) => Ok(session),
                        Err(fault) => Err((fault, Some(session))),
                    }
                }
                Err(fault) => Err((fault, None)),
            };
            match result {
                Ok(session) => seated.push((side, session)),
                Err((fault, session)) => {
                    let mut played = game::lost_at_start(side, &fault);
                    if session.is_none() {
                        let detail = format!("{bot} at start: {fault}");
                        played.termination = match fault {
                            Fault::Gone { .. } => game::gone(side, detail),
                            // why: a connection that closed before its game.
                            Fault::Dropped { .. } => Termination::Disconnect { side, detail },
                            _ => Termination::Unresponsive { side, detail },
                        };
                    }
                    seated.extend(session.map(|s| (side, s)));
                    let mut all: Vec<&mut Session> = seated.iter_mut().map(|(_, s)| s).collect();
                    game::send_gameover(&mut all, &played).await;
                    return (played, seated);
                }
            }
        }
        let (Some((_, mut north)), Some((_, mut south))) = (seated.pop(), seated.pop()) else {
            let played = Played {
                result: GameResult::Draw,
                termination: Termination::Interrupted {
                    detail: "internal: a session is missing".into(),
                },
                moves: Vec::new(),
                scores: None,
            };
            return (played, seated);
        };
        let job = Job {
            index: id as usize,
            round: id.to_string(),
            game: plan.game,
            south: 0,
            north: 1,
            start_position: plan.start_position.clone(),
            pair: 0,
        };
        let feed = arbiter_board::live::feed::game_feed(self.live.clone(), names.to_vec());
        let clocks = plan.tc.map(arbiter_core::play::tc::Clock::new);
        let tap = ClockTap {
            inner: feed.as_ref(),
            arena: self,
            id,
        };
        tap.game_started(&GameStart {
            job: &job,
            clocks_ms: clocks_ms(&clocks),
        });
        let watch = GameWatch {
            observer: &tap,
            job: &job,
        };
        let played = game::play_observed(
            plan,
            [&mut south, &mut north],
            self.config.timeouts,
            Some(&watch),
        )
        .await;
        (played, vec![(Side::South, south), (Side::North, north)])
    }

    /// Adds a game just recorded to its pool's tally, as [`store::tally`]
    /// reads it from the database.
    fn tally(&self, pool: &str, id: i64, names: &[String; 2], result: GameResult) {
        // why through split: the tally's keys are those the database's
        // bot and version columns give back.
        let key = |p: &str| {
            let (bot, n) = crate::versions::split(p);
            crate::versions::player(bot, n)
        };
        let (south, north) = (key(&names[0]), key(&names[1]));
        if let Some(t) = lock(&self.tallies).get_mut(pool) {
            t.tally.add(&Game {
                south: &south,
                north: &north,
                result,
            });
            t.last = t.last.max(id);
        }
    }

    fn publish_finished(&self, pool_index: usize, id: i64, log: &GameLog) {
        let pool = &self.config.pools[pool_index].name;
        let index = store::replay_index(&lock(&self.reader), pool, id);
        let Ok(index) = index else { return };
        self.live
            .publish(arbiter_board::live::LiveMsg::GameFinished(
                arbiter_board::live::hub::GameFinished::new(
                    Some(id as u64),
                    Some(pool_index),
                    index as usize,
                    log,
                ),
            ));
    }

    /// Recomputes the ratings of the pools with new games (`all`: every
    /// pool), at most once per `rating_interval`; each bot whose game count
    /// changed gets a rating history entry. When the anchors changed (the
    /// admin command, another process) every pool is recomputed.
    fn refresh_ratings(&self, all: bool) {
        let due = {
            let s = lock(&self.state);
            let interval = self.config.rating_interval.max(s.rated_in * REFIT_SPACING);
            s.rated_at.is_none_or(|at| at.elapsed() >= interval)
        };
        if !all && !due {
            return;
        }
        let anchors = match crate::anchors::for_players(&lock(&self.reader)) {
            Ok(a) => a,
            Err(e) => {
                tracing::error!("ratings: cannot read the anchors: {e}");
                return;
            }
        };
        let pools: Vec<String> = {
            let mut s = lock(&self.state);
            // why rated_at even when nothing is recomputed: the anchors are
            // read at most once per interval too.
            s.rated_at = Some(Instant::now());
            let changed = s.anchors.as_ref() != Some(&anchors);
            if !all && !changed && s.stale.is_empty() {
                return;
            }
            s.anchors = Some(anchors.clone());
            if all || changed {
                s.stale.clear();
                self.config.pools.iter().map(|p| p.name.clone()).collect()
            } else {
                std::mem::take(&mut s.stale).into_iter().collect()
            }
        };
        let started = Instant::now();
        for pool in pools {
            if let Err(e) = self.rate_pool(&pool, &anchors) {
                tracing::error!("ratings of {pool}: {e}");
            }
        }
        lock(&self.state).rated_in = started.elapsed();
    }

    fn rate_pool(&self, pool: &str, anchors: &Anchors) -> Result<(), DbError> {
        let started = Instant::now();
        // why a copy: the fit takes a while, and finishing games add to the tally.
        let Some((tally, last, known)) = lock(&self.tallies)
            .get_mut(pool)
            .map(|t| (t.tally.clone(), t.last, t.history.take()))
        else {
            return Ok(());
        };
        let rated = tally.rate(anchors);
        let fitted = started.elapsed();
        let mut known = match known {
            Some(known) => known,
            None => {
                let r = lock(&self.reader);
                let mut stmt = r.prepare(
                    "SELECT bot, max(games) FROM rating_history WHERE pool = ?1 GROUP BY bot",
                )?;
                let rows = stmt.query_map([pool], |r| Ok((r.get(0)?, r.get(1)?)))?;
                rows.collect::<Result<BTreeMap<String, i64>, _>>()?
            }
        };
        let written = {
            let w = lock(&self.writer);
            let tx = w.unchecked_transaction()?;
            let mut written = Vec::new();
            for r in &rated {
                if known.get(&r.name).copied() != Some(i64::from(r.games)) {
                    tx.execute(
                        "INSERT INTO rating_history (pool, bot, game, games, rating, margin, at) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                        rusqlite::params![pool, r.name, last, r.games, r.rating, r.interval],
                    )?;
                    written.push((r.name.clone(), i64::from(r.games)));
                }
            }
            tx.commit()?;
            written
        };
        known.extend(written);
        if let Some(t) = lock(&self.tallies).get_mut(pool) {
            t.history = Some(known);
        }
        lock(&self.ladders).insert(pool.to_owned(), rated);
        tracing::debug!(
            pool,
            games = tally.games(),
            "ratings refit in {:.1} ms (the fit {:.1} ms)",
            started.elapsed().as_secs_f64() * 1000.0,
            fitted.as_secs_f64() * 1000.0
        );
        Ok(())
    }
}
