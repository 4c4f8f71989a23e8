//! One arena game: both bots seated from the side each is on, the game
//! played by the same code as `arbiter match` (its plies fed to the live
//! view, its clocks kept for the drain), its record written, the sessions
//! given back, and the back-off, busy slots and game lengths updated.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use mancala_rules::{GameResult, Side};

use super::event_games::EventGame;
use super::{lock, Arena};
use crate::db::DbError;
use crate::pairing::Start;
use crate::pools::Pool;
use crate::store;
use arbiter_core::contender::session::{Fault, Session};
use arbiter_core::play::game::{self, GamePlan, Played};
use arbiter_core::play::observe::{
    clocks_ms, GameObserver, GameStart, GameWatch, PlyEvent, ThinkingEvent,
};
use arbiter_core::play::runner::Job;
use arbiter_core::records::log::{GameLog, Termination};

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
    /// Plays one game and records it.
    pub(super) async fn play(
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
                    Ok(()) => Err(DbError::Refused(format!(
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
}
