//! Adjudication: ending a game before the rules do, each way its own verdict.
//!
//! - **resign** (cutechess `-resign movecount=N score=S [twosided=true]`): an
//!   engine whose own score was `-S` or worse (in centi-seeds; a mate against
//!   it counts) on each of its last N moves loses. With `twosided=true` its
//!   opponent's score must also have been `+S` or better on each of the
//!   opponent's last N moves.
//! - **draw** (cutechess `-draw movenumber=M movecount=N score=S`): once at
//!   least M full moves (2·M plies) are played, a game in which both engines'
//!   scores stayed within `±S` on each of the last N moves of each (2·N plies
//!   in a row; a mate score is never within) is drawn.
//! - **decided** (`--adjudicate decided`, mancala only): the game ends as soon
//!   as the rules prove its result can no longer change
//!   ([`mancala_rules::Game::decided`]; Bohnenspiel: a store above 36).
//! - **tablebase** (`--adjudicate tb=DIR`, Bohnenspiel only, as cutechess's
//!   `-tb` for chess): the game ends as soon as its position is in the
//!   endgame database in DIR, with the result its exact value gives.
//!
//! Scores are the ones the engines reported with their moves (the last
//! `info score` before `bestmove`), from the mover's point of view. A move
//! without a score breaks every run of scores it belongs to: nothing is
//! adjudicated on silence. Pure logic: the game room asks after every move.

use std::sync::Arc;

use mancala_rules::{AnyGame, GameResult, Side};
use mancala_tablebase::Tablebase;

use crate::records::log::{Score, Termination};

/// `-resign movecount=N score=S [twosided=true]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// `-draw movenumber=M movecount=N score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `--adjudicate tb=DIR`: the database, opened once for the event.
#[derive(Clone)]
pub struct TablebaseRule(pub Arc<Tablebase>);

impl std::fmt::Debug for TablebaseRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TablebaseRule({})", self.0.dir().display())
    }
}

impl PartialEq for TablebaseRule {
    fn eq(&self, other: &TablebaseRule) -> bool {
        self.0.dir() == other.0.dir()
    }
}

impl Eq for TablebaseRule {}

/// Which adjudications are on for an event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub decided: bool,
    pub tablebase: Option<TablebaseRule>,
}

/// The verdict of the database on `game`'s position, if it is in it.
pub fn tablebase_verdict(tb: &Tablebase, game: &dyn AnyGame, plies: usize) -> Option<Verdict> {
    let position = game.position_string();
    let probe = match tb.probe_str(&position) {
        Ok(probe) => probe?,
        Err(e) => {
            tracing::warn!("tablebase adjudication skipped: {e}");
            return None;
        }
    };
    let detail = format!(
        "in the database after {plies} plies: value {:+} for {} to move, best play ends {}-{} (position {position})",
        probe.value, probe.side, probe.scores[0], probe.scores[1]
    );
    Some(Verdict {
        result: probe.result(),
        termination: Termination::TablebaseAdjudication { detail },
    })
}

/// A bad `--resign`/`--draw` argument; the message names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError(pub String);

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleError {}

/// `key=value` tokens as a lookup; every key must be one of `known`.
fn keyed<'a>(
    flag: &str,
    tokens: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, RuleError> {
    let mut pairs = Vec::new();
    for t in tokens {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| RuleError(format!("{flag}: expected key=value, got {t:?}")))?;
        if !known.contains(&k) {
            return Err(RuleError(format!(
                "{flag}: unknown key {k:?} (known: {})",
                known.join(", ")
            )));
        }
        pairs.push((k, v));
    }
    Ok(pairs)
}

fn required<T>(flag: &str, pairs: &[(&str, &str)], key: &str, min: T) -> Result<T, RuleError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let (_, v) = pairs
        .iter()
        .rev()
        .find(|(k, _)| *k == key)
        .ok_or_else(|| RuleError(format!("{flag}: {key}= is required")))?;
    let n: T = v
        .parse()
        .map_err(|_| RuleError(format!("{flag} {key}={v}: not a whole number")))?;
    if n < min {
        return Err(RuleError(format!(
            "{flag} {key}={v}: must be at least {min}"
        )));
    }
    Ok(n)
}

impl Rules {
    /// From `--resign`, `--draw` and `--adjudicate decided`.
    pub fn parse(resign: &[String], draw: &[String], decided: bool) -> Result<Rules, RuleError> {
        let resign = if resign.is_empty() {
            None
        } else {
            let p = keyed("--resign", resign, &["movecount", "score", "twosided"])?;
            let twosided = match p.iter().rev().find(|(k, _)| *k == "twosided") {
                None | Some((_, "false")) => false,
                Some((_, "true")) => true,
                Some((_, v)) => {
                    return Err(RuleError(format!(
                        "--resign twosided={v}: expected true or false"
                    )))
                }
            };
            Some(ResignRule {
                movecount: required("--resign", &p, "movecount", 1)?,
                score: required("--resign", &p, "score", 1)?,
                twosided,
            })
        };
        let draw = if draw.is_empty() {
            None
        } else {
            let p = keyed("--draw", draw, &["movenumber", "movecount", "score"])?;
            Some(DrawRule {
                movenumber: required("--draw", &p, "movenumber", 0)?,
                movecount: required("--draw", &p, "movecount", 1)?,
                score: required("--draw", &p, "score", 0)?,
            })
        };
        Ok(Rules {
            resign,
            draw,
            decided,
            tablebase: None,
        })
    }

    pub fn is_off(&self) -> bool {
        self.resign.is_none() && self.draw.is_none() && !self.decided && self.tablebase.is_none()
    }
}

/// An adjudication's verdict: the result and the termination to log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub termination: Termination,
}

/// Whether `score` is at least `s` above zero (`+1`), at least `s` below
/// (`-1`), or neither (`0`). Mates count at both ends.
fn sign_beyond(score: Score, s: i32) -> i8 {
    match score {
        Score::Mate(m) if m > 0 => 1,
        Score::Mate(_) => -1,
        Score::Cp(cp) if cp >= s => 1,
        Score::Cp(cp) if cp <= -s => -1,
        Score::Cp(_) => 0,
    }
}

/// The running counts of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Rules,
    /// Per side: own consecutive moves with a score of `-S` or worse.
    losing: [u32; 2],
    /// Per side: own consecutive moves with a score of `+S` or better.
    winning: [u32; 2],
    /// Consecutive plies with the mover's score within `±S` (draw rule).
    level: u32,
}

impl Adjudicator {
    pub fn new(rules: Rules) -> Adjudicator {
        Adjudicator {
            rules,
            losing: [0; 2],
            winning: [0; 2],
            level: 0,
        }
    }

    /// Called after each move: `mover` played it with `score` (its own
    /// report, `None` without one) and `game` is the position after it,
    /// `plies` moves into the game. `None`: play on.
    pub fn after_move(
        &mut self,
        mover: Side,
        score: Option<Score>,
        game: &dyn AnyGame,
        plies: usize,
    ) -> Option<Verdict> {
        if game.outcome().is_some() {
            return None;
        }
        if let Some(TablebaseRule(tb)) = &self.rules.tablebase {
            if let Some(verdict) = tablebase_verdict(tb, game, plies) {
                return Some(verdict);
            }
        }
        if self.rules.decided {
            if let Some(result) = game.decided() {
                let detail = format!(
                    "the result can no longer change after {plies} plies (position {})",
                    game.position_string()
                );
                return Some(Verdict {
                    result,
                    termination: Termination::DecidedAdjudication { detail },
                });
            }
        }
        if let Some(rule) = self.rules.resign {
            let i = mover.index();
            let sign = score.map(|s| sign_beyond(s, rule.score));
            self.losing[i] = if sign == Some(-1) {
                self.losing[i] + 1
            } else {
                0
            };
            self.winning[i] = if sign == Some(1) {
                self.winning[i] + 1
            } else {
                0
            };
            for side in [mover, mover.opponent()] {
                let lost = self.losing[side.index()] >= rule.movecount;
                let confirmed =
                    !rule.twosided || self.winning[side.opponent().index()] >= rule.movecount;
                if lost && confirmed {
                    let detail = format!(
                        "{side} scored -{} or worse on {} moves in a row{}",
                        rule.score,
                        rule.movecount,
                        if rule.twosided {
                            format!(", {} +{} or better", side.opponent(), rule.score)
                        } else {
                            String::new()
                        }
                    );
                    return Some(Verdict {
                        result: GameResult::win_for(side.opponent()),
                        termination: Termination::ResignAdjudication { detail },
                    });
                }
            }
        }
        if let Some(rule) = self.rules.draw {
            let level = matches!(score, Some(Score::Cp(cp)) if cp.abs() <= rule.score);
            self.level = if level { self.level + 1 } else { 0 };
            let full_moves = plies / 2;
            if self.level >= 2 * rule.movecount && full_moves >= rule.movenumber as usize {
                let detail = format!(
                    "both scores within ±{} for {} moves each, after {full_moves} full moves",
                    rule.score, rule.movecount
                );
                return Some(Verdict {
                    result: GameResult::Draw,
                    termination: Termination::DrawAdjudication { detail },
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
