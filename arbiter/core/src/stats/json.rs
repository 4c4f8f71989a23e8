//! The event report as JSON, for programs: standings, crosstable, Elo with
//! its interval, LOS, per-engine verdict counts and, with two engines, the
//! match statistics and SPRT. Written by `--standings-json FILE` (replaced
//! atomically after every game) and printed by `arbiter merge --json`.
//! docs/tournaments.md describes every field.
//!
//! Numbers that the model cannot give (an Elo at a 100 % score, an interval
//! from too few games, LOS without a decisive game) are `null`, never a
//! made-up value.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use mancala_rules::Side;
use serde::Serialize;

use crate::records::log::GameLog;
use crate::stats::report::{self, Tally};
use crate::stats::{EloEstimate, Penta, Sprt, SprtState};

/// The version of this layout; bumped when a field changes meaning.
pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    pub format: u32,
    /// Finished games (with a result) and interrupted ones (`*`).
    pub games: u32,
    pub interrupted: u32,
    pub standings: Vec<EngineLine>,
    /// Terminations of the finished games by kind.
    pub terminations: BTreeMap<String, u32>,
    /// Two-engine events only: the first engine against the second.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<MatchLine>,
    /// `--format swiss`: the Swiss table with its tie-breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swiss: Option<Vec<crate::stats::formats::SwissLine>>,
    /// `--format knockout`: the bracket, round by round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knockout: Option<Vec<Vec<crate::stats::formats::Encounter>>>,
    /// `--format swiss` that stopped before its last round (no pairing of
    /// the next round without a repeat): `after_round`, `reason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_early: Option<crate::event::formats::EndedEarly>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct EngineLine {
    pub rank: usize,
    pub name: String,
    pub games: u32,
    pub points: f64,
    /// Points per game, 0 to 1; `null` without a game.
    pub score: Option<f64>,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub sonneborn_berger: f64,
    /// Elo relative to the field average (maximum likelihood).
    pub elo: f64,
    /// Half the 95 % interval; `null` when unbounded.
    pub elo_margin: Option<f64>,
    /// Likelihood of superiority over the engine ranked next; `null` for the
    /// last or when unknown.
    pub los_next: Option<f64>,
    /// Finished games of this engine by outcome for it, then termination kind.
    pub verdicts: Verdicts,
    /// Against each opponent (by name) that it met.
    pub crosstable: BTreeMap<String, Cell>,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Verdicts {
    pub won: BTreeMap<String, u32>,
    pub drawn: BTreeMap<String, u32>,
    pub lost: BTreeMap<String, u32>,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Cell {
    pub points: f64,
    pub games: u32,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Elo {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub margin: f64,
}

impl Elo {
    /// `None` unless every number is finite.
    fn of(e: EloEstimate) -> Option<Elo> {
        // why `+ 0.0`: an even score gives −0, which JSON would spell "-0.0".
        let elo = Elo {
            elo: e.elo + 0.0,
            lower: e.lower + 0.0,
            upper: e.upper + 0.0,
            margin: e.margin() + 0.0,
        };
        [elo.elo, elo.lower, elo.upper, elo.margin]
            .iter()
            .all(|x| x.is_finite())
            .then_some(elo)
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MatchLine {
    pub first: String,
    pub second: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: Option<f64>,
    pub draw_ratio: Option<f64>,
    /// From the game results (trinomial).
    pub elo: Option<Elo>,
    pub los: Option<f64>,
    /// Game pairs by the first engine's points: 0, ½, 1, 1½, 2.
    pub pentanomial: [u32; 5],
    pub pair_elo: Option<Elo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtLine>,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct SprtLine {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// `continue`, `H0` or `H1`.
    pub state: &'static str,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// What the JSON report needs beyond a [`Tally`], kept as counts too: each
/// engine's finished games by outcome and termination kind, and the
/// interrupted games. Constant memory however long the event.
#[derive(Clone, Debug, Default)]
pub struct Live {
    verdicts: BTreeMap<String, Verdicts>,
    interrupted: u32,
}

impl Live {
    /// Counts one game (its engines' verdicts, or one more interrupted game).
    pub fn add(&mut self, g: &GameLog) {
        let Some(result) = g.result else {
            self.interrupted += 1;
            return;
        };
        let kind = g.termination.kind().to_owned();
        for (name, side) in [(&g.south, Side::South), (&g.north, Side::North)] {
            let v = self.verdicts.entry(name.clone()).or_default();
            let bucket = match result.half_points(side) {
                2 => &mut v.won,
                1 => &mut v.drawn,
                _ => &mut v.lost,
            };
            *bucket.entry(kind.clone()).or_default() += 1;
        }
    }

    /// Takes back one game counted by [`Live::add`].
    pub fn remove(&mut self, g: &GameLog) {
        let Some(result) = g.result else {
            self.interrupted -= 1;
            return;
        };
        let kind = g.termination.kind();
        for (name, side) in [(&g.south, Side::South), (&g.north, Side::North)] {
            let Some(v) = self.verdicts.get_mut(name) else {
                continue;
            };
            let bucket = match result.half_points(side) {
                2 => &mut v.won,
                1 => &mut v.drawn,
                _ => &mut v.lost,
            };
            report::decrement(bucket, kind);
            if *v == Verdicts::default() {
                self.verdicts.remove(name);
            }
        }
    }
}

/// The report of `games` (any order) among `names`.
pub fn report(names: &[String], games: &[GameLog], sprt: Option<&Sprt>) -> Report {
    let mut games = games.to_vec();
    report::sort_games(&mut games);
    let mut running = Running::new(names);
    for g in &games {
        running.add(g);
    }
    running.report(sprt)
}

/// The report kept game by game in constant memory (a [`Tally`] and a
/// [`Live`]): what `arbiter match --standings-json` rewrites after each game.
#[derive(Clone, Debug)]
pub struct Running {
    names: Vec<String>,
    tally: Tally,
    live: Live,
}

impl Running {
    pub fn new(names: &[String]) -> Running {
        Running {
            names: names.to_vec(),
            tally: Tally::new(names),
            live: Live::default(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, g: &GameLog) {
        self.tally.add(g);
        self.live.add(g);
    }

    /// The report of the games counted so far.
    pub fn report(&self, sprt: Option<&Sprt>) -> Report {
        report_from(&self.names, &self.tally, &self.live, sprt)
    }
}

/// The report from running counts (what a long event keeps).
pub fn report_from(names: &[String], tally: &Tally, live: &Live, sprt: Option<&Sprt>) -> Report {
    let st = tally.standings(names);
    let (order, fit) = tally.ratings(&st);
    let mut verdicts: Vec<Verdicts> = order
        .iter()
        .map(|n| live.verdicts.get(n).cloned().unwrap_or_default())
        .collect();
    let terminations = tally.terminations();
    let standings = st
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| EngineLine {
            rank: i + 1,
            name: e.name.clone(),
            games: e.wdl.games(),
            points: e.points(),
            score: e.wdl.score(),
            wins: e.wdl.wins,
            draws: e.wdl.draws,
            losses: e.wdl.losses,
            sonneborn_berger: e.sonneborn_berger,
            elo: fit.elo[i] + 0.0,
            elo_margin: finite(fit.margin(i)),
            los_next: (i + 1 < order.len()).then(|| fit.los(i, i + 1)).flatten(),
            verdicts: std::mem::take(&mut verdicts[i]),
            crosstable: st.cross[i]
                .iter()
                .enumerate()
                .filter(|&(j, c)| j != i && c.games > 0)
                .map(|(j, c)| {
                    (
                        order[j].clone(),
                        Cell {
                            points: f64::from(c.half_points) / 2.0,
                            games: c.games,
                        },
                    )
                })
                .collect(),
        })
        .collect();
    let head_to_head = (names.len() == 2).then(|| {
        let (wdl, penta) = tally.head_to_head();
        MatchLine {
            first: names[0].clone(),
            second: names[1].clone(),
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            score: wdl.score(),
            draw_ratio: wdl.draw_ratio(),
            elo: wdl.elo().and_then(Elo::of),
            los: wdl.los(),
            pentanomial: penta.counts,
            pair_elo: penta.elo().and_then(Elo::of),
            sprt: sprt.map(|s| {
                let (llr, state) = tally.sprt_status(s);
                SprtLine {
                    elo0: s.elo0,
                    elo1: s.elo1,
                    alpha: s.alpha,
                    beta: s.beta,
                    llr,
                    lower_bound: s.lower_bound(),
                    upper_bound: s.upper_bound(),
                    state: match state {
                        SprtState::Continue => "continue",
                        SprtState::AcceptH0 => "H0",
                        SprtState::AcceptH1 => "H1",
                    },
                }
            }),
        }
    });
    Report {
        format: FORMAT,
        games: tally.finished(),
        interrupted: live.interrupted,
        standings,
        terminations,
        head_to_head,
        swiss: None,
        knockout: None,
        ended_early: None,
    }
}

/// `report` with the match section's pair statistics (and the SPRT from
/// them) taken from `penta`: for `arbiter match`, whose logs carry no pair
/// tags, the match itself counts its game pairs.
pub fn with_pairs(mut report: Report, penta: &Penta, sprt: Option<&Sprt>) -> Report {
    if let Some(m) = report.head_to_head.as_mut() {
        m.pentanomial = penta.counts;
        m.pair_elo = penta.elo().and_then(Elo::of);
        if let (Some(line), Some(s)) = (m.sprt.as_mut(), sprt) {
            if penta.pairs() > 0 {
                line.llr = s.llr_penta(penta);
                line.state = match s.state(line.llr) {
                    SprtState::Continue => "continue",
                    SprtState::AcceptH0 => "H0",
                    SprtState::AcceptH1 => "H1",
                };
            }
        }
    }
    report
}

/// The report as pretty JSON text.
pub fn to_text(report: &Report) -> String {
    // why: serialising these plain structs cannot fail (string keys, no
    // non-finite floats: those are `None` above).
    serde_json::to_string_pretty(report).unwrap_or_default() + "\n"
}

/// Replaces `path` with the report: written to a temporary file beside it,
/// synced, then renamed, so a reader never sees half a file.
pub fn write_atomically(path: &Path, report: &Report) -> std::io::Result<()> {
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other(format!("{} is not a file name", path.display())))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(to_text(report).as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// [`write_atomically`] of the report of `games`; a failure is logged as a
/// warning and never stops the event (the results logs are the record).
pub fn update(path: &Path, names: &[String], games: &[GameLog], sprt: Option<&Sprt>) {
    write_or_warn(path, &report(names, games, sprt));
}

/// [`write_atomically`], a failure logged as a warning.
pub fn write_or_warn(path: &Path, report: &Report) {
    if let Err(e) = write_atomically(path, report) {
        tracing::warn!("cannot write the standings to {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests;
