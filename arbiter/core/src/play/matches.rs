//! The match room: two engines, one game id, N games played in pairs with
//! colours swapped (both games of a pair from the same opening).

use std::collections::BTreeMap;
use std::fmt::Write;

use mancala_rules::{GameId, Side};

use crate::play::game::Played;
use crate::play::observe::EventObserver;
use crate::play::openings::Openings;
use crate::play::runner::{Finished, Flow, Job, Runner};
use crate::records::log::{GameLog, PartieInfo};
use crate::records::output::{game_line, pgn_date, LogSink};
use crate::stats::json;
use crate::stats::{match_report, Penta, Sprt, SprtState, Wdl};

/// A match to play.
pub struct MatchPlan {
    pub game: GameId,
    pub games: usize,
    pub openings: Openings,
    pub event: String,
    /// Stop starting games once this test is decided (`--sprt`).
    pub sprt: Option<Sprt>,
    /// Rewritten with the JSON standings after every game.
    pub standings_json: Option<std::path::PathBuf>,
}

/// What the match produced, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: [String; 2],
    /// First engine's results, overall and by the side it played.
    pub total: Wdl,
    pub as_south: Wdl,
    pub as_north: Wdl,
    pub penta: Penta,
    pub terminations: BTreeMap<String, u32>,
    /// The sequential test, when one was run.
    pub sprt: Option<Sprt>,
}

impl MatchSummary {
    pub fn add(&mut self, log: &GameLog, first_is_south: bool) {
        let Some(result) = log.result else { return };
        let side = if first_is_south {
            Side::South
        } else {
            Side::North
        };
        self.total.add_result(result, side);
        if first_is_south {
            self.as_south.add_result(result, side);
        } else {
            self.as_north.add_result(result, side);
        }
        *self
            .terminations
            .entry(log.termination.kind().to_owned())
            .or_default() += 1;
    }

    /// The final report: the cutechess-style score, Elo, pentanomial and SPRT
    /// lines ([`match_report`]), then results by side and terminations.
    pub fn render(&self) -> String {
        let [a, b] = &self.names;
        let mut out = match_report(a, b, &self.total, Some(&self.penta), self.sprt.as_ref());
        for (label, s) in [("as South", &self.as_south), ("as North", &self.as_north)] {
            let _ = writeln!(
                out,
                "  {a} {label}: {} - {} - {}",
                s.wins, s.losses, s.draws
            );
        }
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(out, "Terminations: {}", terms.join(", "));
        out
    }
}

impl MatchSummary {
    /// The test's log-likelihood ratio: from the game pairs once there are
    /// complete pairs, from the games before.
    pub fn llr(&self, sprt: &Sprt) -> (f64, SprtState) {
        let llr = if self.penta.pairs() > 0 {
            sprt.llr_penta(&self.penta)
        } else {
            sprt.llr_wdl(&self.total)
        };
        (llr, sprt.state(llr))
    }
}

/// Builds the log of a finished job (without `--partie`).
pub fn log_of(runner: &Runner, event: &str, done: &Finished) -> GameLog {
    game_log(runner, event, &done.job, &done.played, None)
}

/// The logs of every game a finished job played: the game itself, or each
/// game of its Partie with its seats and [`PartieInfo`].
pub fn logs_of(runner: &Runner, event: &str, done: &Finished) -> Vec<GameLog> {
    if done.partie.is_empty() {
        return vec![log_of(runner, event, done)];
    }
    done.partie
        .iter()
        .map(|g| {
            let job = Job {
                south: g.south,
                north: g.north,
                round: format!("{}.{}", done.job.round, g.info.index),
                ..done.job.clone()
            };
            game_log(runner, event, &job, &g.played, Some(g.info))
        })
        .collect()
}

/// Builds one game's log.
pub fn game_log(
    runner: &Runner,
    event: &str,
    job: &Job,
    played: &Played,
    partie: Option<PartieInfo>,
) -> GameLog {
    let (s, n) = (&runner.engines[job.south], &runner.engines[job.north]);
    let time_control = if s.tc == n.tc {
        s.tc.to_string()
    } else {
        format!("{} / {}", s.tc, n.tc)
    };
    GameLog {
        event: event.to_owned(),
        site: "local".to_owned(),
        date: pgn_date(),
        round: job.round.clone(),
        game: job.game.to_string(),
        start_position: job.start_position.clone(),
        south: s.name.clone(),
        north: n.name.clone(),
        result: Some(played.result),
        termination: played.termination.clone(),
        time_control,
        moves: played.moves.clone(),
        scores: played.scores,
        partie,
        tags: BTreeMap::new(),
    }
}

/// The schedule of a two-engine match: game `2k` has the first engine as
/// South, game `2k+1` swaps colours; both start from opening `k`. Generated
/// as it is played, so a match of any length starts in constant memory.
pub fn schedule(plan: &MatchPlan) -> impl Iterator<Item = Job> + Send + 'static {
    let (game, openings) = (plan.game, plan.openings.clone());
    (0..plan.games).map(move |i| {
        let pair = i / 2;
        let (south, north) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
        Job {
            index: i,
            round: format!("{}", i + 1),
            game,
            south,
            north,
            start_position: openings.for_pair(game, pair),
            pair,
        }
    })
}

/// Plays the match, appending each game to `sink` as it ends and printing a
/// line per game with `report`.
pub async fn run(
    runner: &Runner,
    plan: &MatchPlan,
    sink: &mut LogSink,
    report: impl FnMut(&str),
) -> std::io::Result<MatchSummary> {
    run_observed(runner, plan, sink, report, None).await
}

/// [`run`], telling `events` (`--live`) of each finished game with the
/// standings after it.
pub async fn run_observed(
    runner: &Runner,
    plan: &MatchPlan,
    sink: &mut LogSink,
    mut report: impl FnMut(&str),
    mut events: Option<&mut dyn EventObserver>,
) -> std::io::Result<MatchSummary> {
    let jobs = schedule(plan);
    let total = plan.games;
    let mut summary = MatchSummary {
        names: [
            runner.engines[0].name.clone(),
            runner.engines[1].name.clone(),
        ],
        sprt: plan.sprt,
        ..MatchSummary::default()
    };
    // The first game's points of each pair still waiting for its second game.
    let mut pair_points: BTreeMap<usize, u32> = BTreeMap::new();
    let mut io_error = None;
    let mut finished = 0;
    // The standings as counts (constant memory however long the match),
    // for --standings-json and --live.
    let mut standings = json::Running::new(&summary.names);
    let counting = plan.standings_json.is_some() || events.is_some();
    runner
        .run(jobs, |done| {
            finished += 1;
            let logs = logs_of(runner, &plan.event, &done);
            for log in &logs {
                if let Err(e) = sink.append(log) {
                    io_error.get_or_insert(e);
                    return Flow::Stop;
                }
            }
            // With --partie the match counts Partien; the summary line is the Partie's.
            let log = if done.partie.is_empty() {
                logs[0].clone()
            } else {
                game_log(runner, &plan.event, &done.job, &done.played, None)
            };
            if !done.partie.is_empty() {
                for g in &logs {
                    report(&format!(
                        "  partie game {}: {} vs {}: {} {{{}}}",
                        g.round,
                        g.south,
                        g.north,
                        g.result.map_or("*", |r| r.as_pgn()),
                        g.termination
                    ));
                }
            }
            let first_is_south = done.job.south == 0;
            summary.add(&log, first_is_south);
            if let Some(result) = log.result {
                let side = if first_is_south {
                    Side::South
                } else {
                    Side::North
                };
                let points = result.half_points(side);
                match pair_points.remove(&done.job.pair) {
                    Some(first) => summary.penta.add_games(first, points),
                    None => {
                        pair_points.insert(done.job.pair, points);
                    }
                }
            }
            let w = &summary.total;
            let mut line = format!(
                "{}  [{} {:.1} - {:.1} {}]",
                game_line(finished, total, &log),
                summary.names[0],
                w.points(),
                w.games() as f64 - w.points(),
                summary.names[1]
            );
            let mut flow = Flow::Continue;
            if let Some(sprt) = &plan.sprt {
                let (llr, state) = summary.llr(sprt);
                line.push_str(&format!("  [LLR {llr:.2}]"));
                if state != SprtState::Continue {
                    // Games in flight finish and are logged; no new one starts.
                    flow = Flow::Stop;
                }
            }
            let report_now = counting.then(|| {
                for g in &logs {
                    standings.add(g);
                }
                let r = standings.report(plan.sprt.as_ref());
                json::with_pairs(r, &summary.penta, plan.sprt.as_ref())
            });
            // Published before the line is printed: whoever reads the line
            // finds the page up to date.
            if let (Some(events), Some(r)) = (events.as_deref_mut(), &report_now) {
                events.finished(&done.job, &logs, r, finished as u64);
            }
            report(&line);
            if let (Some(path), Some(r)) = (&plan.standings_json, &report_now) {
                json::write_or_warn(path, r);
            }
            flow
        })
        .await
        .map_err(std::io::Error::other)?;
    match io_error {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}
