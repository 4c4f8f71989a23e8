//! `Side` and `Outcome`: the players and how a finished game ended.

use mancala_rules::{EndReason, Outcome as RulesOutcome, Side as RulesSide};
use pyo3::prelude::*;

/// A player: `Side.SOUTH` opens every game (`p1` in the protocol), `Side.NORTH` is `p2`.
#[pyclass(module = "mancala", eq, eq_int, frozen, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    #[pyo3(name = "SOUTH")]
    South,
    #[pyo3(name = "NORTH")]
    North,
}

impl From<RulesSide> for Side {
    fn from(s: RulesSide) -> Side {
        match s {
            RulesSide::South => Side::South,
            RulesSide::North => Side::North,
        }
    }
}

impl From<Side> for RulesSide {
    fn from(s: Side) -> RulesSide {
        match s {
            Side::South => RulesSide::South,
            Side::North => RulesSide::North,
        }
    }
}

#[pymethods]
impl Side {
    /// The other player.
    fn opponent(&self) -> Side {
        RulesSide::from(*self).opponent().into()
    }

    /// `S` or `N`, as in position strings.
    #[getter]
    fn letter(&self) -> String {
        RulesSide::from(*self).letter().to_string()
    }

    /// 0 for South, 1 for North: the index into `scores` and `stores`.
    #[getter]
    fn index(&self) -> usize {
        RulesSide::from(*self).index()
    }

    fn __str__(&self) -> String {
        RulesSide::from(*self).to_string()
    }
}

/// A stable identifier for each way a game ends under the rules.
pub fn reason_id(reason: EndReason) -> &'static str {
    reason.id()
}

/// How a finished game ended. `str()` starts with `1-0` (South won), `0-1`
/// (North won) or `1/2-1/2`, followed by the reason in parentheses.
#[pyclass(module = "mancala", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome(pub RulesOutcome);

#[pymethods]
impl Outcome {
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.0.result.as_pgn()
    }

    /// The winning side, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<Side> {
        self.0.result.winner().map(Side::from)
    }

    /// Why the game ended: `no_seeds_to_move`, `board_empty`, `cycle`,
    /// `match_won`, `no_legal_move`, `empty_front_row`, `repetition` or
    /// `round_start_repeated`.
    #[getter]
    fn reason(&self) -> &'static str {
        reason_id(self.0.reason)
    }

    /// The reason in words, e.g. `player to move has no seeds`.
    #[getter]
    fn description(&self) -> &'static str {
        self.0.reason.describe()
    }

    /// Final `(south, north)` seed counts where the game scores seeds
    /// (Bohnenspiel stores, Bosh reserves), else `None`.
    #[getter]
    fn scores(&self) -> Option<(u32, u32)> {
        self.0.scores.map(|[s, n]| (s, n))
    }

    fn __str__(&self) -> String {
        let mut s = format!("{} ({}", self.0.result.as_pgn(), self.0.reason.describe());
        if let Some([south, north]) = self.0.scores {
            s.push_str(&format!("; South {south}, North {north}"));
        }
        s.push(')');
        s
    }

    fn __repr__(&self) -> String {
        format!("<Outcome {}>", self.__str__())
    }
}
