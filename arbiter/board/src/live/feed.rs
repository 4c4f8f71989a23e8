//! The producer of `--live` (`arbiter tournament` and `arbiter match`): it
//! binds the live server before any game starts, then turns the runner's
//! game events and the results loop's finished games into [`LiveMsg`]s.
//! Everything here only publishes into the hub (never waits); the server
//! runs in its own task, so a failure there never touches the event.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mancala_rules::Side;

use crate::board;
use crate::live::hub::{
    EngineLine, EventMeta, GameFinished, GameStarted, LiveHub, LiveMsg, PlyFigures, Progress,
    Thinking, FINISHED_KEPT,
};
use arbiter_core::contender::config::EngineSpec;
use arbiter_core::play::observe::{
    EventObserver, GameObserver, GameStart, PlyEvent, ThinkingEvent,
};
use arbiter_core::play::runner::Job;
use arbiter_core::records::log::{GameLog, Score};
use arbiter_core::stats::json::Report;

/// The longest the arbiter waits, at the end, for the pages to be sent the
/// last messages before it exits. A page that reads gets its `ended`
/// message however far behind it was (2 s was too short for a page a few
/// hundred messages behind on a loaded machine: 9 of 10 were cut off); a
/// page that stopped reading is dropped by its writer after
/// [`super::socket`]'s send limit, which ends the wait sooner.
const FLUSH_LIMIT: Duration = Duration::from_secs(crate::socket::SEND_TIMEOUT.as_secs() + 5);

/// The least time between two lines of one search shown on the page (an
/// engine may print hundreds a second; a reader follows a few).
const THINKING_INTERVAL: Duration = Duration::from_millis(250);

/// A running live server and what feeds it.
pub struct LiveEvent {
    pub hub: LiveHub,
    /// The page's address.
    pub url: String,
    /// The results log the replay links point into (index 0 of the
    /// server's logs), if the event writes one.
    log: Option<PathBuf>,
    /// Index in that log of the next game appended.
    next_index: usize,
    total: Option<u64>,
}

impl LiveEvent {
    /// The feed of a live server at `url` publishing into `hub`; the
    /// finished games link into `results_log`.
    pub fn new(hub: LiveHub, url: String, results_log: Option<PathBuf>) -> LiveEvent {
        LiveEvent {
            hub,
            url,
            log: results_log,
            next_index: 0,
            total: None,
        }
    }

    /// Announces the event.
    pub fn event(&mut self, meta: EventMeta) {
        self.total = meta.total;
        self.hub.publish(LiveMsg::Event(meta));
    }

    /// The games already in the results log (`--resume`): the newest are
    /// listed, and new games are numbered after them.
    pub fn logged(&mut self, games: &[GameLog]) {
        let skip = games.len().saturating_sub(FINISHED_KEPT);
        for (i, g) in games.iter().enumerate().skip(skip) {
            self.publish_finished(None, i, g);
        }
        self.next_index = games.len();
    }

    /// The standings and how far the event is.
    pub fn standings(&self, report: &Report, done: u64) {
        self.hub.publish(LiveMsg::Standings(report.clone()));
        self.hub.publish(LiveMsg::Progress(Progress {
            done,
            total: self.total,
            eta_secs: None,
        }));
    }

    fn publish_finished(&self, id: Option<u64>, index: usize, log: &GameLog) {
        self.hub.publish(LiveMsg::GameFinished(GameFinished::new(
            id,
            self.log.as_ref().map(|_| 0),
            index,
            log,
        )));
    }

    /// What the runner tells about games in progress.
    pub fn game_observer(&self, engines: &[EngineSpec]) -> Arc<dyn GameObserver> {
        game_feed(
            self.hub.clone(),
            engines.iter().map(|e| e.name.clone()).collect(),
        )
    }

    /// The event is over: says so to the pages and gives them a moment to
    /// be sent the last messages.
    pub async fn end(&self, message: String) {
        self.hub.publish(LiveMsg::Ended { message });
        self.hub.flush(FLUSH_LIMIT).await;
    }
}

impl EventObserver for LiveEvent {
    fn finished(&mut self, job: &Job, logs: &[GameLog], standings: &Report, done: u64) {
        for (k, log) in logs.iter().enumerate() {
            // The last game of a job is the one on the page's board.
            let id = (k + 1 == logs.len()).then_some(job.index as u64);
            self.publish_finished(id, self.next_index, log);
            self.next_index += 1;
        }
        LiveEvent::standings(self, standings, done);
    }

    fn standings(&mut self, standings: &Report, done: u64) {
        LiveEvent::standings(self, standings, done);
    }
}

/// An observer that shows games in progress on `hub`, the job's engine
/// indices naming `names` (the arena: one per game, South's and North's).
pub fn game_feed(hub: LiveHub, names: Vec<String>) -> Arc<dyn GameObserver> {
    Arc::new(GameFeed {
        hub,
        names,
        shown: Mutex::default(),
    })
}

/// Games in progress, from the game tasks.
struct GameFeed {
    hub: LiveHub,
    names: Vec<String>,
    /// When each game's search was last shown, and for which ply.
    shown: Mutex<HashMap<u64, (u32, Instant)>>,
}

/// Entries kept in [`GameFeed`]'s map before it is cleared (bounded
/// without an end-of-game hook; games in progress are far fewer, and a
/// cleared entry only costs one more thinking line).
const FEED_ENTRIES: usize = 4096;

fn side(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

impl GameFeed {
    fn name(&self, engine: usize) -> String {
        self.names.get(engine).cloned().unwrap_or_default()
    }
}

impl GameObserver for GameFeed {
    /// Searches are shown only while a page is open: with none, their
    /// lines cost a look at the subscriber count a ply.
    fn watched(&self) -> bool {
        self.hub.subscribers() > 0
    }

    fn game_started(&self, start: &GameStart<'_>) {
        let job = start.job;
        let board = match board::view(&job.start_position) {
            Ok(b) => b,
            Err(e) => {
                tracing::debug!("live: start position not shown: {e}");
                return;
            }
        };
        self.hub.publish(LiveMsg::GameStarted(GameStarted {
            id: job.index as u64,
            round: job.round.clone(),
            game: job.game.to_string(),
            south: self.name(job.south),
            north: self.name(job.north),
            board,
            clocks_ms: start.clocks_ms,
        }));
    }

    /// The move and the mover's figures go to the hub as they are: it
    /// builds the board from the moves when someone reads the event (at
    /// once while a page is open), so a ply with no reader costs little.
    fn ply(&self, job: &Job, ply: &PlyEvent<'_>) {
        let figures = PlyFigures {
            ply: ply.ply,
            side: side(ply.mover),
            time_ms: ply.time_ms,
            clocks_ms: ply.clocks_ms,
            depth: ply.depth,
            score: ply.score,
            pv: ply.pv.iter().map(|m| m.as_str().to_owned()).collect(),
        };
        self.hub.ply(job.index as u64, ply.mv, figures);
    }

    fn thinking(&self, job: &Job, t: &ThinkingEvent<'_>) {
        let info = t.info;
        // Lines with neither a score nor a line (currmove, nodes) say
        // nothing the page shows.
        if info.score.is_none() && info.pv.is_empty() {
            return;
        }
        let id = job.index as u64;
        let now = Instant::now();
        {
            // why not `lock().unwrap()`: a panic elsewhere must not stop games.
            let mut shown = self.shown.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(&(ply, at)) = shown.get(&id) {
                // The first line of each search goes out; then a few a second.
                if ply == t.ply && now.duration_since(at) < THINKING_INTERVAL {
                    return;
                }
            }
            if shown.len() > FEED_ENTRIES {
                shown.clear();
            }
            shown.insert(id, (t.ply, now));
        }
        self.hub.publish(LiveMsg::Thinking(Thinking {
            id,
            side: side(t.mover),
            ply: t.ply,
            engine: EngineLine {
                depth: info.depth,
                score: info.score.map(|s| Score::from(s.value).to_string()),
                pv: info.pv.iter().map(|m| m.as_str().to_owned()).collect(),
            },
        }));
    }
}
