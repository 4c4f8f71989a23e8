//! Watching games as they are played (`--live`): the runner tells an
//! optional [`GameObserver`] when a game starts and after each ply. The
//! observer must return at once (it only records and hands on); the game
//! loop never waits for a consumer. Without an observer nothing is built;
//! with one, every ply is told (borrowed: the observer keeps what it needs)
//! and a search's `info` lines only while [`GameObserver::watched`].

use mancala_rules::{AnyGame, Side};

use crate::play::job::Job;
use crate::play::tc::Clock;
use crate::records::log::{GameLog, Score};
use crate::stats::json::Report;

/// Remaining clock time of South and North in milliseconds; `None` for a
/// side without a chess clock (`st=`, depth or node limits).
pub fn clocks_ms(clocks: &[Clock; 2]) -> [Option<u64>; 2] {
    clocks.map(|c| c.remaining().map(|d| d.as_millis() as u64))
}

/// A game about to be played (both engines ready).
#[derive(Clone, Copy, Debug)]
pub struct GameStart<'a> {
    /// The game's seats and start position (for a Partie: this game's).
    pub job: &'a Job,
    pub clocks_ms: [Option<u64>; 2],
}

/// One ply just played and checked.
#[derive(Clone, Copy, Debug)]
pub struct PlyEvent<'a> {
    /// Plies played so far, this one included.
    pub ply: u32,
    pub mover: Side,
    pub mv: &'a str,
    /// The game after the move (`game.position_string()`: its position;
    /// worked out only by an observer that wants it).
    pub game: &'a dyn AnyGame,
    pub time_ms: u64,
    /// Clocks after the move.
    pub clocks_ms: [Option<u64>; 2],
    /// The mover's last `info` before its `bestmove`.
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub pv: &'a [umi::Move],
}

/// An `info` line of the engine to move, during its search.
#[derive(Clone, Copy, Debug)]
pub struct ThinkingEvent<'a> {
    /// The ply being thought about (1 for the first move).
    pub ply: u32,
    pub mover: Side,
    pub info: &'a umi::Info,
}

/// Told about every game of a run. Called from the game tasks: quick and
/// non-blocking, never awaiting.
pub trait GameObserver: Send + Sync {
    fn game_started(&self, start: &GameStart<'_>);
    fn ply(&self, job: &Job, ply: &PlyEvent<'_>);
    /// Each `info` line of a search in progress (every one: an observer
    /// that shows them picks how often).
    fn thinking(&self, _job: &Job, _thinking: &ThinkingEvent<'_>) {}
    /// Whether anyone follows the searches now (`--live`: a page is open).
    /// While no one does, the game loop hands it no search line and builds
    /// none (asked once a ply); the plies are told either way.
    fn watched(&self) -> bool {
        true
    }
}

/// What the game loop tells about one game: [`GameObserver`] for one job.
pub struct GameWatch<'a> {
    pub observer: &'a dyn GameObserver,
    pub job: &'a Job,
}

impl GameWatch<'_> {
    /// This watch, if anyone follows the searches now
    /// ([`GameObserver::watched`]): for the `info` lines only.
    pub fn now(&self) -> Option<&Self> {
        self.observer.watched().then_some(self)
    }

    pub fn ply(&self, ply: &PlyEvent<'_>) {
        self.observer.ply(self.job, ply);
    }

    pub fn thinking(&self, thinking: &ThinkingEvent<'_>) {
        self.observer.thinking(self.job, thinking);
    }
}

/// Told about an event's finished games, with the standings after each
/// (`--live`). Called from the results loop, after the game is logged.
pub trait EventObserver: Send {
    /// A finished job: its games as logged (a Partie has several), the
    /// standings after them, and the finished games of the event so far.
    fn finished(&mut self, job: &Job, logs: &[GameLog], standings: &Report, done: u64);
    /// The standings changed other than by a finished job (a stage of a
    /// Swiss ended: the format's own table is new), with the finished games
    /// of the event so far.
    fn standings(&mut self, standings: &Report, done: u64);
}
