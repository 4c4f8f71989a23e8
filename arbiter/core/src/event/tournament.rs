//! A tournament's games, played: the results loop (each game to the logs,
//! the standings, `--standings-json`, SPRT, the live feed and the
//! terminal, as it ends) and the stages of a Swiss or knockout, each paired
//! from the results before it. The command line sets the event up (logs,
//! resume, the runner and its checked engines) and prints through [`Say`].

use std::path::Path;

use crate::event::formats::{Pairer, Played, Stage, Table};
use crate::event::schedule::{EventSpec, Schedule, SlotKey, StageLayout};
use crate::play::matches::log_of;
use crate::play::observe::EventObserver;
use crate::play::runner::{Flow, Job, Kept, Runner};
use crate::records::log::GameLog;
use crate::records::output::{game_line, LogSink};
use crate::stats::json::Live;
use crate::stats::report::Tally;
use crate::stats::{Sprt, SprtState};

/// Why a tournament stopped short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentError {
    /// The results log is another event's: its game in a slot is not the
    /// pairing's (the command line's mistake).
    Foreign(String),
    /// A game of a stage did not finish, so the next cannot be paired.
    Unfinished(String),
    /// The runner or the results log failed.
    Failed(String),
    /// A stage that does not fit the schedule: a bug.
    Misfit(String),
}

impl std::fmt::Display for TournamentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TournamentError::Foreign(m)
            | TournamentError::Unfinished(m)
            | TournamentError::Failed(m)
            | TournamentError::Misfit(m) => f.write_str(m),
        }
    }
}

/// Where a running tournament's lines go (the terminal, under its progress
/// bar).
pub trait Say {
    /// A finished game's line (one per game, in the order they end).
    fn game(&mut self, line: &str);
    /// Any other line: the standings each round, a stage's end.
    fn line(&mut self, line: &str);
    /// The event stopped at a signal, with games of a stage unplayed.
    fn stopped(&mut self, line: &str);
}

/// The report with the format's own standings.
pub fn with_table(
    mut report: crate::stats::json::Report,
    table: &Table,
) -> crate::stats::json::Report {
    report.swiss = table.swiss.clone();
    report.knockout = table.knockout.clone();
    report.ended_early = table.ended_early.clone();
    report
}

/// The slot indices of tournament games.
pub fn finished_slots_of(games: &[GameLog]) -> impl Iterator<Item = usize> + '_ {
    games
        .iter()
        .filter_map(|g| crate::event::schedule::SlotKey::of(g).map(|k| k.index))
}

/// The jobs of the shard that are not finished yet, in order.
pub struct Pending {
    pub jobs: crate::event::schedule::Jobs,
    /// The slots finished by an earlier run.
    pub done: std::collections::BTreeSet<usize>,
    /// How many are left.
    pub left: usize,
}

impl Iterator for Pending {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        if self.left == 0 {
            return None;
        }
        let job = self.jobs.by_ref().find(|j| !self.done.contains(&j.index))?;
        self.left -= 1;
        Some(job)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// The finished games of a staged event by slot: the seats and South's half
/// points (what the pairing of the next stage needs).
#[derive(Debug, Default)]
pub struct Results(std::collections::BTreeMap<usize, ((usize, usize), u32)>);

impl Results {
    pub fn new() -> Results {
        Results::default()
    }

    /// Counts `g`, a finished game of the event (others are left out).
    pub fn add(&mut self, g: &GameLog) {
        let (Some(key), Some(result)) = (SlotKey::of(g), g.result) else {
            return;
        };
        if let Some(seats) = key.seats {
            self.0.insert(
                key.index,
                (seats, result.half_points(mancala_rules::Side::South)),
            );
        }
    }

    /// Whether slot `index` has a finished game.
    pub fn has(&self, index: usize) -> bool {
        self.0.contains_key(&index)
    }

    /// The first of `jobs` (stage `k`'s) whose finished game sits other
    /// engines than the pairing puts there: the log is another event's.
    fn foreign(&self, k: usize, jobs: &[Job], names: &[String]) -> Result<(), TournamentError> {
        for j in jobs {
            if let Some(&(seats, _)) = self.0.get(&j.index) {
                if seats != (j.south, j.north) {
                    let name = |i: usize| names.get(i).map_or("?", String::as_str);
                    return Err(TournamentError::Foreign(format!(
                        "the results log's game in slot {} is {} v {}, but the pairing of round \
                         {} puts {} v {} there; the log is not of this event (another engine \
                         order or results?); give the same arguments as the run that wrote it",
                        j.index,
                        name(seats.0),
                        name(seats.1),
                        k + 1,
                        name(j.south),
                        name(j.north)
                    )));
                }
            }
        }
        Ok(())
    }

    /// Stage `stage`'s results from its `jobs`' finished games, or the
    /// first job without one.
    fn played(&self, stage: Stage, jobs: &[Job], width: usize) -> Result<Played, usize> {
        let mut points = vec![(0, 0); stage.pairings.len()];
        for j in jobs {
            let Some(&(_, south)) = self.0.get(&j.index) else {
                return Err(j.index);
            };
            let i = j.pair % width.max(1);
            if j.south == stage.pairings[i].0 {
                points[i].0 += south;
                points[i].1 += 2 - south;
            } else {
                points[i].0 += 2 - south;
                points[i].1 += south;
            }
        }
        Ok(Played { stage, points })
    }
}

/// Where a staged event stands after its finished games ([`walk_stages`]).
#[derive(Clone, Debug)]
pub enum StageWalk {
    /// Stage `stage` (from 0) is paired: its `jobs`, some of them (those
    /// without a finished game) still to play; `history` is the stages before.
    At {
        stage: usize,
        jobs: Vec<Job>,
        history: Vec<Played>,
    },
    /// The format pairs no further stage: the event is over.
    Over { history: Vec<Played> },
}

/// Replays a Swiss's or knockout's pairing over its finished games: the
/// stages they complete, and the stage being played (the same pairing the
/// tournament's own loop, [`play_stages`], makes). For a server that plays
/// an event's games as its players are free (the arena's events).
pub fn walk_stages(
    pairer: &Pairer,
    layout: &StageLayout,
    results: &Results,
    names: &[String],
) -> Result<StageWalk, TournamentError> {
    let mut history: Vec<Played> = Vec::new();
    while let Some(stage) = pairer.next(&history) {
        let k = history.len();
        let jobs = stage_jobs(layout, k, &stage)?;
        results.foreign(k, &jobs, names)?;
        match results.played(stage, &jobs, layout.width) {
            Ok(played) => history.push(played),
            Err(_) => {
                return Ok(StageWalk::At {
                    stage: k,
                    jobs,
                    history,
                })
            }
        }
    }
    Ok(StageWalk::Over { history })
}

/// Stage `k`'s jobs with `stage`'s pairings.
fn stage_jobs(layout: &StageLayout, k: usize, stage: &Stage) -> Result<Vec<Job>, TournamentError> {
    layout.jobs(k, &stage.pairings).ok_or_else(|| {
        TournamentError::Misfit(format!(
            "stage {} of {} does not fit the schedule",
            k + 1,
            layout.stages
        ))
    })
}

/// The event as decided before the first game.
pub struct Planned<'a> {
    pub spec: &'a EventSpec,
    pub schedule: &'a Schedule,
    pub sprt: Option<Sprt>,
    pub names: &'a [String],
    /// Games of the shard finished by an earlier run.
    pub done_before: usize,
    /// Games the shard is expected to have.
    pub total: usize,
    /// Where the standings are written after every game (`--standings-json`).
    pub standings_json: Option<&'a Path>,
}

/// Plays the stages of a Swiss or knockout: each stage is paired from the
/// stages before (replayed from the log's games on a resume: the same seed
/// and results give the same pairings), its missing games are played, and
/// its results feed the next stage's pairing.
pub async fn play_stages(
    playing: &mut Playing<'_, '_>,
    pairer: &Pairer,
    layout: &StageLayout,
    results: &mut Results,
) -> Result<Vec<Played>, TournamentError> {
    let names = playing.planned.names;
    let mut history: Vec<Played> = Vec::new();
    playing.table = pairer.table(names, &history);
    while let Some(stage) = pairer.next(&history) {
        let k = history.len();
        let jobs = stage_jobs(layout, k, &stage)?;
        results.foreign(k, &jobs, names)?;
        let missing: Vec<Job> = jobs
            .iter()
            .filter(|j| !results.0.contains_key(&j.index))
            .cloned()
            .collect();
        if !missing.is_empty() {
            playing.run(missing, Some(&mut *results)).await?;
        }
        // why before the check below: a drain (the first signal of a
        // `--live` event, crate::shutdown) starts no game, so the stage is
        // short; the event then ends as drained, exit 0, not as an error.
        if !playing.runner.shutdown.is_running()
            && jobs.iter().any(|j| !results.0.contains_key(&j.index))
        {
            let line = format!(
                "Stopped in round {} (a signal): its games in progress finished, but the next \
                 round cannot be paired without the rest: run again with --resume to play them",
                k + 1
            );
            playing.say.stopped(&line);
            break;
        }
        let played = results.played(stage, &jobs, layout.width).map_err(|slot| {
            TournamentError::Unfinished(format!(
                "round {}: the game in slot {slot} did not finish (no result); the next round \
                 cannot be paired without it: run again with --resume to play it",
                k + 1
            ))
        })?;
        history.push(played);
        playing.table = pairer.table(names, &history);
        playing.publish();
        playing.say.line(&format!(
            "Stage {} of the {} is complete",
            k + 1,
            playing.planned.spec.format
        ));
    }
    Ok(history)
}

/// A run in progress: the runner (engines checked once), the counts, the
/// logs and the live page, shared by every batch of jobs.
pub struct Playing<'p, 'a> {
    planned: &'p Planned<'a>,
    pub runner: Runner,
    tally: &'p mut Tally,
    live: &'p mut Live,
    sink: &'p mut LogSink,
    feed: Option<&'p mut dyn EventObserver>,
    say: &'p mut dyn Say,
    /// Games ended so far, counted in the order they finish.
    ended: usize,
    /// For the live page's progress: finished games of the shard.
    played_here: usize,
    since_standings: usize,
    per_round: usize,
    /// The format's own standings, for the JSON report.
    pub table: Table,
    /// The slots' engines between batches of jobs.
    kept: Kept,
}

impl<'p, 'a> Playing<'p, 'a> {
    /// A run on `runner` (its engines already checked, [`crate::play::preflight`]).
    pub fn new(
        planned: &'p Planned<'a>,
        runner: Runner,
        tally: &'p mut Tally,
        live: &'p mut Live,
        sink: &'p mut LogSink,
        feed: Option<&'p mut dyn EventObserver>,
        say: &'p mut dyn Say,
    ) -> Playing<'p, 'a> {
        let per_round = match planned.schedule.stages() {
            Some(st) => st.per_stage(),
            None => planned.schedule.len() / planned.spec.rounds.max(1),
        }
        .max(1);
        let since_standings = tally.finished() as usize % per_round;
        Playing {
            planned,
            runner,
            tally,
            live,
            sink,
            feed,
            say,
            // why count here rather than show the slot: with several games
            // at once they end out of schedule order, and "2/72" before
            // "1/72" reads wrong; the lines count games in the order they
            // finish (the log's Slot tag keeps each game's place).
            ended: planned.done_before,
            played_here: 0,
            since_standings,
            per_round,
            table: Table::default(),
            kept: Kept::default(),
        }
    }

    /// Shuts the engines down.
    pub async fn close(self) {
        let grace = self.runner.quit_grace;
        self.kept.close(grace).await;
        self.runner.close_remote().await;
    }

    /// The report with the format's standings, to `--standings-json` and the
    /// live page (after a stage, whose end changes the format's table).
    fn publish(&mut self) {
        let Planned {
            names,
            sprt,
            standings_json,
            ..
        } = *self.planned;
        let report = with_table(
            crate::stats::json::report_from(names, self.tally, self.live, sprt.as_ref()),
            &self.table,
        );
        if let Some(path) = standings_json {
            crate::stats::json::write_or_warn(path, &report);
        }
        if let Some(feed) = self.feed.as_deref_mut() {
            feed.standings(
                &report,
                (self.planned.done_before + self.played_here) as u64,
            );
        }
    }

    /// Plays `jobs`, appending each game to the logs as it ends (and to
    /// `results`, for a staged format).
    pub async fn run<J>(
        &mut self,
        jobs: J,
        mut results: Option<&mut Results>,
    ) -> Result<(), TournamentError>
    where
        J: IntoIterator<Item = Job>,
        J::IntoIter: Send + 'static,
    {
        let Playing {
            planned,
            runner,
            tally,
            live,
            sink,
            feed,
            say,
            ended,
            played_here,
            since_standings,
            per_round,
            table,
            kept,
        } = self;
        let Planned {
            spec,
            schedule,
            sprt,
            names,
            done_before,
            total,
            standings_json,
        } = **planned;
        let total = total.max(done_before);
        let mut io_error = None;
        let finished = runner
            .run_kept(jobs, kept, |done| {
                let mut log = log_of(runner, &spec.event, &done);
                schedule.tag(&mut log, &done.job);
                // The game is on disk before anything else happens.
                if let Err(e) = sink.append(&log) {
                    io_error.get_or_insert(e);
                    return Flow::Stop;
                }
                *ended += 1;
                let mut line = game_line(*ended, total.max(*ended), &log);
                tally.add(&log);
                live.add(&log);
                let report = || {
                    with_table(
                        crate::stats::json::report_from(names, tally, live, sprt.as_ref()),
                        table,
                    )
                };
                if let Some(path) = standings_json {
                    crate::stats::json::write_or_warn(path, &report());
                }
                if let Some(feed) = feed.as_deref_mut() {
                    *played_here += 1;
                    let done_so_far = (done_before + *played_here) as u64;
                    feed.finished(
                        &done.job,
                        std::slice::from_ref(&log),
                        &report(),
                        done_so_far,
                    );
                }
                let mut flow = Flow::Continue;
                if let Some(s) = &sprt {
                    let (llr, state) = tally.sprt_status(s);
                    line.push_str(&format!(
                        "  [LLR {llr:.2} ({:.2}, {:.2})]",
                        s.lower_bound(),
                        s.upper_bound()
                    ));
                    if state != SprtState::Continue {
                        flow = Flow::Stop;
                    }
                }
                say.game(&line);
                *since_standings += 1;
                if *since_standings == *per_round {
                    *since_standings = 0;
                    say.line(&tally.short_standings(names));
                }
                if let Some(r) = results.as_deref_mut() {
                    r.add(&log);
                }
                flow
            })
            .await;
        finished.map_err(|e| TournamentError::Failed(e.to_string()))?;
        match io_error {
            Some(e) => Err(TournamentError::Failed(format!(
                "cannot write the results log ({e}); stopped starting games, the games written so far are safe"
            ))),
            None => Ok(()),
        }
    }
}
