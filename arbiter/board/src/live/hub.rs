//! The live event hub: what a running event (or a log watcher) tells the
//! live page. Producers [`LiveHub::publish`] a [`LiveMsg`]: the hub folds it
//! into its [`Snapshot`] and broadcasts it, as JSON text serialised once,
//! to every subscriber. Publishing never blocks and never awaits: the broadcast is bounded, and a receiver
//! that falls behind loses messages (`RecvError::Lagged`; the WebSocket
//! handler then sends its page a fresh snapshot) instead of holding up a game.
//!
//! A new subscriber gets the snapshot and a receiver taken under one lock,
//! so it sees every message after the snapshot exactly once.
//!
//! A ply comes in cheap ([`LiveHub::ply`]: its move and the mover's figures,
//! no board). While no one subscribes, the hub only keeps the moves; the
//! board, the move's steps and the message are built from them when the
//! event is read (a snapshot, `/api/live/snapshot`, a page opening), so a
//! script polling the JSON sees every game at its current ply and `--live`
//! with no reader costs a move kept a ply.
//!
//! A hub may show games in progress a number of plies behind
//! ([`LiveHub::with_delay`], the arena's `--spectator-delay`): then every
//! view of a game in progress — the snapshot, the stream, the JSON — is
//! built only up to `plies played − delay`, the engines' searches are not
//! shown at all (their lines name the moves to come), nor the shown plies'
//! principal variations, and a finished game is shown whole. So a bot's
//! author cannot read the bot's game from the public page while it plays.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde::Serialize;
use tokio::sync::broadcast;

use crate::board::{self, BoardView};
use crate::games::{summary, GameSummary};
use crate::live::eval::{ply_scores, PlyScore};
use arbiter_core::records::log::{GameLog, Score};
use arbiter_core::stats::json::Report;

/// Messages a subscriber may fall behind by before it loses some.
pub const CHANNEL_CAPACITY: usize = 1024;
/// Finished games kept in the snapshot (the newest); older ones are in the
/// results log.
pub const FINISHED_KEPT: usize = 200;
/// Finished games whose scores per ply (their graph) the snapshot keeps,
/// the newest: a page opened later graphs those; the others are in the
/// results log's replay.
pub const GRAPHS_KEPT: usize = 20;

/// The event as a whole.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventMeta {
    pub event: String,
    /// Game ids played (`bohnenspiel`, …).
    pub games: Vec<String>,
    /// Engine names, in the event's order.
    pub engines: Vec<String>,
    /// Games of the event (of this shard), when known.
    pub total: Option<u64>,
    /// What feeds the page: `tournament`, `match` or `watch`.
    pub source: String,
}

/// How far the event is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    /// Finished games (resumed ones included).
    pub done: u64,
    pub total: Option<u64>,
    /// Seconds left at the rate of the games finished since the hub started;
    /// producers leave it `None` and the hub fills it in.
    pub eta_secs: Option<f64>,
}

/// Remaining clock time of South and North in milliseconds (`None`: no
/// chess clock, e.g. `st=` or depth limits).
pub type ClocksMs = [Option<u64>; 2];

/// A game that has started.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameStarted {
    /// The game's key while it is in progress (a schedule slot).
    pub id: u64,
    pub round: String,
    pub game: String,
    pub south: String,
    pub north: String,
    /// The start position, laid out.
    pub board: BoardView,
    pub clocks_ms: ClocksMs,
}

/// What an engine said about its move (its last `info` before `bestmove`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EngineLine {
    pub depth: Option<u32>,
    /// `+35` (centiseeds), `-M3`, as in the logs.
    pub score: Option<String>,
    pub pv: Vec<String>,
}

/// One ply of a game in progress.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyPlayed {
    pub id: u64,
    /// Plies played so far (1 after the first move).
    pub ply: u32,
    /// `south` or `north`: who moved.
    pub side: &'static str,
    #[serde(rename = "move")]
    pub mv: String,
    pub time_ms: u64,
    /// The board after the move.
    pub board: BoardView,
    /// The move's steps from the rules library (the page marks the holes
    /// the move changed); empty when the position before is not known.
    pub steps: Vec<mancala_rules::Step>,
    pub clocks_ms: ClocksMs,
    pub engine: EngineLine,
}

/// A ply as the game loop tells it ([`LiveHub::ply`]): what cannot be
/// worked out again from the moves, kept as is (no board, no text) until
/// someone reads the event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlyFigures {
    /// Plies played so far (1 after the first move).
    pub ply: u32,
    /// `south` or `north`: who moved.
    pub side: &'static str,
    pub time_ms: u64,
    pub clocks_ms: ClocksMs,
    /// The mover's last `info` before its `bestmove`.
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub pv: Vec<String>,
}

impl PlyFigures {
    fn engine(&self) -> EngineLine {
        EngineLine {
            depth: self.depth,
            score: self.score.map(|s| s.to_string()),
            pv: self.pv.clone(),
        }
    }
}

/// What the engine to move has said so far in its search (its latest
/// `info`, at most a few a second: [`crate::live::feed`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thinking {
    pub id: u64,
    /// `south` or `north`: who is thinking.
    pub side: &'static str,
    /// The ply it is thinking about (1 for the first move).
    pub ply: u32,
    pub engine: EngineLine,
}

/// A finished game: its summary and where to replay it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameFinished {
    /// The in-progress key it had (`None` for a game read from a log).
    pub id: Option<u64>,
    /// The results log it is in: `/replay?log=<log>&game=<summary.index>`
    /// (`None`: the event writes no log the page can read).
    pub log: Option<usize>,
    pub summary: GameSummary,
    /// Each ply's mover and logged score, for the game's evaluation graph
    /// (empty when no ply has a score, and in the snapshot for games older
    /// than the [`GRAPHS_KEPT`] newest).
    pub scores: Vec<PlyScore>,
}

impl GameFinished {
    /// Game `index` of the results log `log` (the replay link), `game`.
    pub fn new(id: Option<u64>, log: Option<usize>, index: usize, game: &GameLog) -> GameFinished {
        GameFinished {
            id,
            log,
            summary: summary(index, game),
            scores: ply_scores(game),
        }
    }
}

/// One update of the live page, as sent on `/ws/live` (`{"type": …}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LiveMsg {
    Event(EventMeta),
    /// The standings, same JSON as `--standings-json`.
    Standings(Report),
    Progress(Progress),
    GameStarted(GameStarted),
    Ply(PlyPlayed),
    Thinking(Thinking),
    GameFinished(GameFinished),
    /// The event is over (the message says why, and what happens next).
    Ended {
        message: String,
    },
    /// What is wrong now (replaces the previous list; empty: nothing), e.g.
    /// a watched log that stopped being followed.
    Problems {
        problems: Vec<String>,
    },
}

/// A game in progress: how it started and its latest ply.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveGame {
    pub start: GameStarted,
    pub last: Option<PlyPlayed>,
    /// The search in progress, until its move is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking: Option<Thinking>,
}

/// Everything a new page needs to draw the event as it is now.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Snapshot {
    pub event: Option<EventMeta>,
    pub standings: Option<Report>,
    pub progress: Option<Progress>,
    /// Games in progress, by id.
    pub playing: Vec<LiveGame>,
    /// The newest finished games, oldest first (at most [`FINISHED_KEPT`]).
    pub finished: Vec<GameFinished>,
    /// Finished games seen in all (the list above may be shorter).
    pub finished_count: u64,
    /// Set once the event is over.
    pub ended: Option<String>,
    /// The latest [`LiveMsg::Problems`].
    pub problems: Vec<String>,
    /// How many plies behind the games in progress are shown (absent: 0,
    /// as they are played).
    #[serde(skip_serializing_if = "is_zero")]
    pub delay_plies: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A game in progress as kept: as last built, and the plies since.
struct Playing {
    shown: LiveGame,
    /// The position after `shown.last` (the start before the first ply),
    /// where the moves not yet built go on from.
    position: String,
    /// The plies played since `shown.last`, not yet built (no one read the
    /// event since, or they are within the delay).
    unshown: Unshown<PlyFigures>,
    /// Plies played so far, shown or not.
    plies: u32,
    /// The latest clocks, shown or not (a drain's deadline).
    clocks: ClocksMs,
    /// When the latest ply was played (or the game started): its clocks
    /// count from there (a drain's deadline).
    since: tokio::time::Instant,
}

impl Playing {
    /// Builds the newest ply `delay` plies behind the game (its board and
    /// steps) from the moves kept; whether there was one to build.
    fn build(&mut self, id: u64, delay: u32) -> bool {
        let n = self.unshown.len().saturating_sub(delay as usize);
        if n == 0 {
            return false;
        }
        let (moves, figures) = self.unshown.take(n);
        let Some(figures) = figures else {
            return false; // cannot happen: `Unshown` keeps the figures needed
        };
        match replay(&self.position, &moves) {
            Ok((mv, board, steps)) => {
                self.position.clone_from(&board.position);
                let mut engine = figures.engine();
                if delay > 0 {
                    // why: a mover's principal variation goes on past its
                    // move with the moves it expects next, the very plies
                    // the delay hides.
                    engine.pv.clear();
                }
                self.shown.last = Some(PlyPlayed {
                    id,
                    ply: figures.ply,
                    side: figures.side,
                    mv,
                    time_ms: figures.time_ms,
                    board,
                    steps,
                    clocks_ms: figures.clocks_ms,
                    engine,
                });
                true
            }
            // Cannot happen for moves the game loop checked; the game's
            // board then stays at its last shown ply.
            Err(e) => {
                tracing::debug!("live: game {id} not shown past its last ply: {e}");
                false
            }
        }
    }
}

/// Why a ply of a game in progress cannot be built (cannot happen for
/// moves the game loop checked; logged at debug if it does).
#[derive(Debug, thiserror::Error)]
enum Unbuilt {
    #[error("no move")]
    NoMove,
    /// The start position, or a board after a move, breaks the rules.
    #[error(transparent)]
    Position(#[from] mancala_rules::PositionError),
    #[error("{mv}: {source}")]
    Move {
        mv: String,
        source: mancala_rules::MoveError,
    },
    #[error("{mv}: {source}")]
    Trace {
        mv: String,
        source: mancala_rules::trace::TraceMoveError,
    },
}

/// `moves` played from `position`: the last move (canonical), the board
/// after it and its steps.
fn replay(
    position: &str,
    moves: &[String],
) -> Result<(String, BoardView, Vec<mancala_rules::Step>), Unbuilt> {
    let Some((last, earlier)) = moves.split_last() else {
        return Err(Unbuilt::NoMove);
    };
    let before = if earlier.is_empty() {
        position.to_owned()
    } else {
        let mut game = mancala_rules::game_from_position(position)?;
        for mv in earlier {
            game.play(mv).map_err(|source| Unbuilt::Move {
                mv: mv.clone(),
                source,
            })?;
        }
        game.position_string()
    };
    let trace = mancala_rules::trace_move(&before, last).map_err(|source| Unbuilt::Trace {
        mv: last.clone(),
        source,
    })?;
    let board = board::view(&trace.after)?;
    Ok((trace.mv, board, trace.steps))
}

/// The snapshot as kept (games in progress by id for quick updates).
#[derive(Default)]
struct State {
    /// Plies the games in progress are shown behind ([`LiveHub::with_delay`]).
    delay: u32,
    event: Option<EventMeta>,
    standings: Option<Report>,
    progress: Option<Progress>,
    playing: BTreeMap<u64, Playing>,
    finished: VecDeque<GameFinished>,
    finished_count: u64,
    ended: Option<String>,
    problems: Vec<String>,
    /// For the ETA: when and at how many games the first progress came.
    rate_base: Option<(Instant, u64)>,
}

impl State {
    /// The event as it is now (each game in progress built to its latest ply).
    fn snapshot(&mut self) -> Snapshot {
        for (id, g) in self.playing.iter_mut() {
            g.build(*id, self.delay);
        }
        Snapshot {
            event: self.event.clone(),
            standings: self.standings.clone(),
            progress: self.progress.clone(),
            playing: self.playing.values().map(|g| g.shown.clone()).collect(),
            finished: self.finished.iter().cloned().collect(),
            finished_count: self.finished_count,
            ended: self.ended.clone(),
            problems: self.problems.clone(),
            delay_plies: self.delay,
        }
    }

    /// Folds `msg` in; fills the ETA of a progress message. Whether it is
    /// to be sent: with a delay, a built ply and a search are not (see
    /// [`LiveHub::with_delay`]).
    fn apply(&mut self, msg: &mut LiveMsg) -> bool {
        match msg {
            LiveMsg::Event(e) => self.event = Some(e.clone()),
            LiveMsg::Standings(r) => self.standings = Some(r.clone()),
            LiveMsg::Progress(p) => {
                if p.eta_secs.is_none() {
                    p.eta_secs = self.eta(p);
                }
                self.progress = Some(p.clone());
            }
            LiveMsg::GameStarted(g) => {
                self.playing.insert(
                    g.id,
                    Playing {
                        position: g.board.position.clone(),
                        shown: LiveGame {
                            start: g.clone(),
                            last: None,
                            thinking: None,
                        },
                        unshown: Unshown::new(self.delay),
                        plies: 0,
                        clocks: g.clocks_ms,
                        since: tokio::time::Instant::now(),
                    },
                );
            }
            LiveMsg::Ply(p) => {
                if self.delay > 0 {
                    // why dropped: a built ply cannot be held back; a
                    // delayed hub takes plies through `LiveHub::ply` only.
                    tracing::debug!("live: a built ply of game {} not shown (delayed hub)", p.id);
                    return false;
                }
                if let Some(g) = self.playing.get_mut(&p.id) {
                    g.position.clone_from(&p.board.position);
                    g.unshown.clear();
                    g.plies = p.ply;
                    g.clocks = p.clocks_ms;
                    g.shown.last = Some(p.clone());
                    g.shown.thinking = None;
                    g.since = tokio::time::Instant::now();
                }
            }
            LiveMsg::Thinking(t) => {
                if self.delay > 0 {
                    return false;
                }
                if let Some(g) = self.playing.get_mut(&t.id) {
                    // why the ply check: a line that comes after its move
                    // was played (it was on its way) is old news.
                    if t.ply == g.plies + 1 {
                        g.shown.thinking = Some(t.clone());
                    }
                }
            }
            LiveMsg::GameFinished(f) => {
                if let Some(id) = f.id {
                    self.playing.remove(&id);
                }
                self.finished.push_back(f.clone());
                while self.finished.len() > FINISHED_KEPT {
                    self.finished.pop_front();
                }
                // why one at a time: each game pushed moves one past the
                // newest kept graphs, so the snapshot stays bounded.
                let older = self.finished.len().checked_sub(GRAPHS_KEPT + 1);
                if let Some(old) = older.and_then(|i| self.finished.get_mut(i)) {
                    old.scores = Vec::new();
                }
                self.finished_count += 1;
            }
            LiveMsg::Ended { message } => {
                self.playing.clear();
                self.ended = Some(message.clone());
            }
            LiveMsg::Problems { problems } => self.problems = problems.clone(),
        }
        true
    }

    /// Seconds left at the rate since the first progress message.
    fn eta(&mut self, p: &Progress) -> Option<f64> {
        let now = Instant::now();
        let (since, base) = *self.rate_base.get_or_insert((now, p.done));
        let total = p.total?;
        let played = p.done.checked_sub(base).filter(|&n| n > 0)?;
        let per_game = now.duration_since(since).as_secs_f64() / played as f64;
        Some(per_game * total.saturating_sub(p.done) as f64)
    }
}

struct Inner {
    state: Mutex<State>,
    /// The messages as JSON text, serialised once however many pages read
    /// them ([`LiveHub::subscribe`]); nothing is serialised without one.
    text: broadcast::Sender<Arc<str>>,
    /// Page writers still running ([`LiveHub::page_writer`]).
    writers: AtomicUsize,
}

/// Held by a page's writer while it runs; [`LiveHub::flush`] waits for
/// every one to be dropped.
pub struct WriterGuard {
    hub: LiveHub,
}

impl Drop for WriterGuard {
    fn drop(&mut self) {
        self.hub.inner.writers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The hub; cheap to clone (every clone is the same hub).
#[derive(Clone)]
pub struct LiveHub {
    inner: Arc<Inner>,
}

/// What the live routes read of a server's state: its live event, if any.
/// (The server's state provides it, `FromRef`; the live room does not know
/// that state, which knows the hub.) why here, not beside the routes: the
/// routes' socket ([`crate::live::socket`]) reads it too, and a type the
/// routes' module held would tie it and its socket in a circle.
#[derive(Clone, Debug)]
pub struct LiveState(pub Option<LiveHub>);

impl Default for LiveHub {
    fn default() -> LiveHub {
        LiveHub::new()
    }
}

impl std::fmt::Debug for LiveHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveHub")
            .field("subscribers", &self.subscribers())
            .finish()
    }
}

impl LiveHub {
    pub fn new() -> LiveHub {
        LiveHub::with_capacity(CHANNEL_CAPACITY)
    }

    /// A hub that shows games in progress `plies` plies behind (0: as
    /// they are played): the snapshot and the stream show a game in
    /// progress only up to `plies played − plies` (its start position
    /// before that), without its engines' searches or the shown plies'
    /// principal variations; a finished game is shown whole. Plies come in
    /// through [`LiveHub::ply`] only (a [`LiveMsg::Ply`] published, built
    /// already, is dropped).
    pub fn with_delay(plies: u32) -> LiveHub {
        let hub = LiveHub::new();
        hub.state().delay = plies;
        hub
    }

    /// Plies the games in progress are shown behind.
    pub fn delay(&self) -> u32 {
        self.state().delay
    }

    /// A hub whose subscribers may fall `capacity` messages behind.
    pub fn with_capacity(capacity: usize) -> LiveHub {
        let (text, _) = broadcast::channel(capacity.max(1));
        LiveHub {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                text,
                writers: AtomicUsize::new(0),
            }),
        }
    }

    // why not `lock().unwrap()`: a panic elsewhere while the lock was held
    // must not make every later publish panic (that would stop the event).
    fn state(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Folds `msg` into the snapshot and sends it to every subscriber.
    /// Never blocks on a subscriber; with none, only the snapshot changes.
    pub fn publish(&self, mut msg: LiveMsg) {
        let mut state = self.state();
        let send = state.apply(&mut msg);
        // why under the lock: a subscriber taking the snapshot then sees
        // this message either in it or on its receiver, never both or none.
        if send && self.inner.text.receiver_count() > 0 {
            // why `unwrap_or_default`: plain structs with string keys and
            // no non-finite floats cannot fail to serialise.
            let text = serde_json::to_string(&msg).unwrap_or_default();
            // An error only means the last subscriber just left.
            let _ = self.inner.text.send(Arc::from(text));
        }
    }

    /// Game `id`'s ply `mv` with its `figures`, as the game loop tells it.
    /// Never blocks on a subscriber. With none, the move is only kept (the
    /// ply is built when the event is read); with one, the ply the view
    /// shows now (this one, or with a delay the one that many behind) is
    /// built and sent as [`LiveMsg::Ply`]. A ply of a game the hub never
    /// saw start is ignored.
    pub fn ply(&self, id: u64, mv: &str, figures: PlyFigures) {
        let mut state = self.state();
        let delay = state.delay;
        let Some(g) = state.playing.get_mut(&id) else {
            return;
        };
        g.plies = figures.ply;
        g.clocks = figures.clocks_ms;
        g.unshown.push(mv.to_owned(), figures);
        g.since = tokio::time::Instant::now();
        g.shown.thinking = None;
        // why under the lock, as in `publish`: a subscriber sees this ply
        // either in its snapshot or on its receiver.
        if self.inner.text.receiver_count() > 0 {
            if let (true, Some(last)) = (g.build(id, delay), &g.shown.last) {
                let text = serde_json::to_string(&LiveMsg::Ply(last.clone())).unwrap_or_default();
                let _ = self.inner.text.send(Arc::from(text));
            }
        }
    }

    /// The event as it is now, and every message after it as its JSON
    /// text (what a page is sent).
    pub fn subscribe(&self) -> (Snapshot, broadcast::Receiver<Arc<str>>) {
        let mut state = self.state();
        (state.snapshot(), self.inner.text.subscribe())
    }

    /// The event as it is now.
    pub fn snapshot(&self) -> Snapshot {
        self.state().snapshot()
    }

    /// The latest standings, if any were published.
    pub fn standings(&self) -> Option<Report> {
        self.state().standings.clone()
    }

    /// Counts a page writer until the guard is dropped.
    pub fn page_writer(&self) -> WriterGuard {
        self.inner.writers.fetch_add(1, Ordering::SeqCst);
        WriterGuard { hub: self.clone() }
    }

    /// Waits (at most `limit`) until every subscriber has received every
    /// message published so far and every page writer has finished (they
    /// finish after [`LiveMsg::Ended`]); for the end of an event, before
    /// the process exits.
    pub async fn flush(&self, limit: std::time::Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        let drained =
            || self.inner.text.is_empty() && self.inner.writers.load(Ordering::SeqCst) == 0;
        while !drained() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Each game in progress's remaining clocks as of its last ply, and
    /// when that was (a drain's deadline, [`arbiter_core::shutdown::over_by`]).
    pub fn in_progress(&self) -> Vec<arbiter_core::shutdown::InProgress> {
        self.state()
            .playing
            .values()
            .map(|g| arbiter_core::shutdown::InProgress {
                since: g.since,
                clocks: g.clocks,
            })
            .collect()
    }

    /// Subscribers now (pages and other consumers).
    pub fn subscribers(&self) -> usize {
        self.inner.text.receiver_count()
    }
}

#[cfg(test)]
mod tests;
mod unshown;

use unshown::Unshown;
