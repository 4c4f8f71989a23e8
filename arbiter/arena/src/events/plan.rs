//! A playing event's games: its schedule (the tournament's: Berger tables
//! for a round robin, the Swiss pairing stage by stage), which slots have
//! finished, which are in progress, and which may start now. Pure: the
//! server ([`crate::server`]) seats and plays what [`Plan::open`] gives.
//!
//! The schedule is rebuilt from the event's row and its finished games, so
//! a server that was stopped (or killed) carries on where it was: a slot
//! whose game was cut off has no finished game and is played again.

use std::collections::{BTreeSet, HashSet};

use arbiter_core::contender::config::EngineSpec;
use arbiter_core::event::formats::Pairer;
use arbiter_core::event::schedule::{EventSpec, Schedule};
use arbiter_core::event::tournament::{walk_stages, Results, StageWalk, TournamentError};
use arbiter_core::play::runner::Job;
use arbiter_core::records::log::GameLog;
use rusqlite::Connection;

use crate::db::DbError;
use crate::events::{Event, EventFormat};
use crate::pools::Pool;

/// Why an event's plan cannot be made, or its next games found.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The event names a pool this server does not have.
    #[error("no pool named {0:?} on this server")]
    NoPool(String),
    /// The event's format refuses its settings (the tournament's words).
    #[error("{0}")]
    Format(String),
    /// The schedule cannot be walked over the finished games.
    #[error("{0}")]
    Walk(TournamentError),
    /// A finished game's stored record does not parse.
    #[error(transparent)]
    Record(#[from] serde_json::Error),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// One game of the event to play: its slot's job, and whether it is the
/// first (1) or return (2) game of its pair.
#[derive(Clone, Debug)]
pub struct EventJob {
    pub job: Job,
    pub leg: u8,
}

/// What is left of an event.
#[derive(Clone, Debug)]
pub enum Open {
    /// These games (schedule order) may start: neither finished nor in
    /// progress. Empty while a Swiss round's last games are played.
    Jobs(Vec<EventJob>),
    /// Every game is played; the note says how it ended when not as asked.
    Over(Option<String>),
}

/// A playing event.
#[derive(Debug)]
pub struct Plan {
    pub id: i64,
    /// The pool's index in the server's pools.
    pub pool: usize,
    /// The players, in seat order (a job's `south`/`north` index them).
    pub players: Vec<String>,
    /// The logs' event name.
    pub name: String,
    /// Shared with the event's games in progress, which tag their logs with
    /// it when they end (the plan may be gone by then: a cancelled event).
    pub schedule: std::sync::Arc<Schedule>,
    pairer: Option<Pairer>,
    results: Results,
    playing: BTreeSet<usize>,
}

/// The logs' event name of event `id` in `pool`.
pub fn event_name(pool: &str, id: i64) -> String {
    format!("mancala arena {pool} event {id}")
}

/// The rounds an event of `players` plays: as asked, but a Swiss has at
/// most those of a round robin; the note says so when fewer.
pub fn rounds_for(format: EventFormat, asked: u32, players: usize) -> (u32, Option<String>) {
    let most = arbiter_core::event::formats::swiss::most_rounds(players) as u32;
    if format == EventFormat::Swiss && asked > most {
        let note = format!(
            "{asked} rounds asked; a Swiss of {players} bots has at most {most} (then every \
             pair has met), so {most} are played"
        );
        return (most, Some(note));
    }
    (asked, None)
}

impl Plan {
    /// The plan of `event` (playing: its players and rounds are fixed) in
    /// `pool`, the `pool_index`-th of the server's, with its finished
    /// games' records `finished`.
    pub fn new(
        event: &Event,
        pool_index: usize,
        pool: &Pool,
        finished: &[GameLog],
    ) -> Result<Plan, PlanError> {
        let rounds = event.played_rounds.unwrap_or(event.rounds) as usize;
        let spec = EventSpec {
            event: event_name(&pool.name, event.id),
            format: event.format.format(),
            games: vec![pool.game],
            rounds,
            engines: event.players.iter().map(|p| player_spec(p, pool)).collect(),
            openings: pool.openings.clone(),
            max_plies: None,
            tiebreak_pairs: 0,
        };
        let pairer = Pairer::of(&spec).map_err(PlanError::Format)?;
        let schedule = std::sync::Arc::new(Schedule::build(&spec));
        let mut results = Results::new();
        for g in finished {
            results.add(g);
        }
        Ok(Plan {
            id: event.id,
            pool: pool_index,
            players: event.players.clone(),
            name: spec.event,
            schedule,
            pairer,
            results,
            playing: BTreeSet::new(),
        })
    }

    /// The plan of a playing `event` from its finished games in the
    /// database, its pool found among the server's `pools`.
    pub fn of_playing(conn: &Connection, pools: &[Pool], event: &Event) -> Result<Plan, PlanError> {
        let index = pools
            .iter()
            .position(|p| p.name == event.pool)
            .ok_or_else(|| PlanError::NoPool(event.pool.clone()))?;
        let finished = crate::events::records(conn, event.id)?
            .iter()
            .map(|line| arbiter_core::records::jsonl::parse_line(line))
            .collect::<Result<Vec<_>, _>>()?;
        Plan::new(event, index, &pools[index], &finished)
    }

    /// The games that may start now, or that the event is over.
    pub fn open(&self) -> Result<Open, PlanError> {
        let jobs: Vec<Job> = match (&self.pairer, self.schedule.stages()) {
            (Some(pairer), Some(layout)) => {
                match walk_stages(pairer, layout, &self.results, &self.players)
                    .map_err(PlanError::Walk)?
                {
                    StageWalk::At { jobs, .. } => jobs,
                    StageWalk::Over { history } => {
                        let table = pairer.table(&self.players, &history);
                        return Ok(Open::Over(table.ended_early.map(|e| {
                            format!("ended after round {}: {}", e.after_round, e.reason)
                        })));
                    }
                }
            }
            _ => self.schedule.jobs().collect(),
        };
        let mut first = HashSet::new();
        let mut open = Vec::new();
        let mut left = false;
        for job in jobs {
            let leg = if first.insert(job.pair) { 1 } else { 2 };
            if self.results.has(job.index) {
                continue;
            }
            left = true;
            if !self.playing.contains(&job.index) {
                open.push(EventJob { job, leg });
            }
        }
        if !left && self.pairer.is_none() {
            return Ok(Open::Over(None));
        }
        Ok(Open::Jobs(open))
    }

    /// Slot `slot`'s game started.
    pub fn started(&mut self, slot: usize) {
        self.playing.insert(slot);
    }

    /// Slot `slot`'s game ended: with its finished `log`, or cut off (none:
    /// the slot is played again).
    pub fn ended(&mut self, slot: usize, log: Option<&GameLog>) {
        self.playing.remove(&slot);
        if let Some(log) = log {
            self.results.add(log);
        }
    }

    /// Whether a game of the event is in progress.
    pub fn is_playing(&self) -> bool {
        !self.playing.is_empty()
    }

    /// Writes the slot's tags (schedule, slot, pair, seats) into a game's log.
    pub fn tag(&self, log: &mut GameLog, job: &Job) {
        self.schedule.tag(log, job);
    }
}

/// A player as the schedule's fingerprint sees it: its name and the pool's
/// limits (it is never started: the arena seats it).
fn player_spec(player: &str, pool: &Pool) -> EngineSpec {
    EngineSpec {
        name: player.to_owned(),
        cmd: std::path::PathBuf::new(),
        args: Vec::new(),
        dir: None,
        options: pool.options.clone(),
        tc: pool.tc,
        stderr: None,
        stderr_max: None,
        ponder: false,
        restart: Default::default(),
        remote: Some(player.to_owned()),
        slots: None,
        lag: Default::default(),
        proto: Default::default(),
        keys: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::EventState;
    use mancala_rules::GameResult;

    fn pool() -> Pool {
        crate::pools::parse(
            r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]"#,
            std::path::Path::new("."),
        )
        .unwrap()
        .remove(0)
    }

    fn event(format: EventFormat, rounds: u32, players: &[&str]) -> Event {
        Event {
            id: 7,
            pool: "bohn".into(),
            format,
            rounds,
            played_rounds: Some(rounds),
            at: "2026-12-04T18:00:00Z".into(),
            created: "2026-12-04T17:00:00Z".into(),
            state: EventState::Playing,
            players: players.iter().map(|p| p.to_string()).collect(),
            started: None,
            ended: None,
            note: None,
        }
    }

    /// Plays every open game (South wins when `south_wins`, else a draw)
    /// until the event is over; returns the games in the order played.
    fn play_out(plan: &mut Plan, south_wins: bool) -> Vec<GameLog> {
        let mut played = Vec::new();
        loop {
            match plan.open().unwrap() {
                Open::Over(_) => return played,
                Open::Jobs(jobs) => {
                    assert!(!jobs.is_empty(), "nothing to play, yet not over");
                    for j in &jobs {
                        plan.started(j.job.index);
                    }
                    for j in jobs {
                        let mut log = crate::store::tests::log(
                            &plan.players[j.job.south],
                            &plan.players[j.job.north],
                        );
                        log.event = plan.name.clone();
                        log.round = j.job.round.clone();
                        log.result = Some(if south_wins {
                            GameResult::SouthWins
                        } else {
                            GameResult::Draw
                        });
                        plan.tag(&mut log, &j.job);
                        plan.ended(j.job.index, Some(&log));
                        played.push(log);
                    }
                }
            }
        }
    }

    #[test]
    fn a_round_robin_plays_every_pair_both_ways_once_per_round() {
        let e = event(EventFormat::RoundRobin, 2, &["a", "b", "c", "d/2"]);
        let mut plan = Plan::new(&e, 0, &pool(), &[]).unwrap();
        let games = play_out(&mut plan, true);
        assert_eq!(games.len(), 4 * 3 * 2);
        let mut met = std::collections::BTreeMap::new();
        for g in &games {
            *met.entry((g.south.clone(), g.north.clone())).or_insert(0) += 1;
        }
        assert_eq!(met.len(), 12, "{met:?}");
        assert!(met.values().all(|&n| n == 2), "{met:?}");
        // The standings are the merge's: every slot once, no warning.
        let lines: Vec<String> = games
            .iter()
            .map(arbiter_core::records::jsonl::to_line)
            .collect();
        let report = crate::events::standings(&lines).unwrap();
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["games"], 24, "{json}");
    }

    #[test]
    fn a_game_cut_off_is_played_again_and_a_restart_resumes() {
        let e = event(EventFormat::RoundRobin, 1, &["a", "b", "c"]);
        let mut plan = Plan::new(&e, 0, &pool(), &[]).unwrap();
        let Open::Jobs(jobs) = plan.open().unwrap() else {
            panic!("not over yet")
        };
        assert_eq!(jobs.len(), 6);
        assert_eq!(jobs.iter().filter(|j| j.leg == 1).count(), 3);
        plan.started(jobs[0].job.index);
        plan.started(jobs[1].job.index);
        let Open::Jobs(open) = plan.open().unwrap() else {
            panic!()
        };
        assert_eq!(open.len(), 4, "the two in progress are not open");
        // One ends, one is cut off (a stop): only the first counts.
        let mut log = crate::store::tests::log("a", "b");
        log.south = plan.players[jobs[0].job.south].clone();
        log.north = plan.players[jobs[0].job.north].clone();
        plan.tag(&mut log, &jobs[0].job);
        plan.ended(jobs[0].job.index, Some(&log));
        plan.ended(jobs[1].job.index, None);
        let Open::Jobs(open) = plan.open().unwrap() else {
            panic!()
        };
        assert_eq!(open.len(), 5);
        // A new server from the finished game alone sees the same.
        let again = Plan::new(&e, 0, &pool(), &[log]).unwrap();
        let Open::Jobs(reopened) = again.open().unwrap() else {
            panic!()
        };
        assert_eq!(
            reopened.iter().map(|j| j.job.index).collect::<Vec<_>>(),
            open.iter().map(|j| j.job.index).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_swiss_is_paired_round_by_round_and_capped_at_its_most_rounds() {
        assert_eq!(rounds_for(EventFormat::Swiss, 2, 4), (2, None));
        let (n, note) = rounds_for(EventFormat::Swiss, 9, 4);
        assert_eq!(n, 3);
        assert!(note.unwrap().contains("at most 3"));
        assert_eq!(rounds_for(EventFormat::RoundRobin, 9, 4), (9, None));
        let e = event(EventFormat::Swiss, 2, &["a", "b", "c", "d", "e"]);
        let mut plan = Plan::new(&e, 0, &pool(), &[]).unwrap();
        // Round 1 only, until its games are in.
        let Open::Jobs(first) = plan.open().unwrap() else {
            panic!()
        };
        assert_eq!(first.len(), 4, "two pairings, a bye");
        let games = play_out(&mut plan, false);
        assert_eq!(games.len(), 8);
        let rounds: BTreeSet<&str> = games
            .iter()
            .map(|g| g.round.split('.').next().unwrap())
            .collect();
        assert_eq!(rounds, BTreeSet::from(["1", "2"]));
    }
}
