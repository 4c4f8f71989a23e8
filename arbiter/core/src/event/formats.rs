//! Formats whose rounds are paired from the results before them: the Swiss
//! system ([`swiss`]) and the knockout ([`knockout`]). Each is a pure
//! function from the stages played so far (pairings and points) to the next
//! stage's pairings, so the same seed and results give the same event: a
//! resumed run replays the log's stages through it and carries on.
//!
//! A *stage* is one colour-swapped pair of games per pairing and game id
//! (slots in [`crate::event::schedule::StageLayout`]). A Swiss round is one
//! stage; a knockout round is one stage per pair of its encounters (and per
//! tie-break pair).

pub mod knockout;
pub mod matching;
pub mod swiss;

use crate::event::schedule::{EventSpec, Format};
use crate::stats::formats::{Encounter, SwissLine};

/// The pairings of one stage: the first engine of a pairing is South in the
/// pair's first game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    pub pairings: Vec<(usize, usize)>,
    /// The engine that sits the stage out (a Swiss of an odd field).
    pub bye: Option<usize>,
}

/// A stage with its results: the half points each engine of each pairing
/// scored in the stage's games (all game ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub stage: Stage,
    pub points: Vec<(u32, u32)>,
}

/// The pairing system of a staged format.
#[derive(Clone, Debug)]
pub enum Pairer {
    Swiss(swiss::Swiss),
    Knockout(knockout::Knockout),
}

/// A Swiss that stopped before its last round: the round after
/// `after_round` had no pairing without a repeat (`ended_early` in the
/// standings JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EndedEarly {
    /// The last round played (all its games finished).
    pub after_round: usize,
    pub reason: String,
}

/// The format's own standings, for the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub swiss: Option<Vec<SwissLine>>,
    pub knockout: Option<Vec<Vec<Encounter>>>,
    /// A Swiss whose next round cannot be paired.
    pub ended_early: Option<EndedEarly>,
}

impl Pairer {
    /// The pairing system of `spec`, `None` for a fixed format; an error
    /// says why the event cannot be paired (too many Swiss rounds).
    pub fn of(spec: &EventSpec) -> Result<Option<Pairer>, String> {
        let n = spec.engines.len();
        Ok(match spec.format {
            Format::Swiss => Some(Pairer::Swiss(swiss::Swiss::new(
                n,
                spec.rounds,
                spec.games.len(),
            )?)),
            Format::Knockout => Some(Pairer::Knockout(knockout::Knockout {
                n,
                pairs: spec.rounds,
                tiebreak: spec.tiebreak_pairs,
            })),
            _ => None,
        })
    }

    /// The next stage after `history`, `None` when the event is over.
    pub fn next(&self, history: &[Played]) -> Option<Stage> {
        match self {
            Pairer::Swiss(s) => s.next(history),
            Pairer::Knockout(k) => k.next(history),
        }
    }

    /// The format's standings after `history`.
    pub fn table(&self, names: &[String], history: &[Played]) -> Table {
        match self {
            Pairer::Swiss(s) => Table {
                swiss: Some(s.table(names, history)),
                knockout: None,
                ended_early: s.ended_early(history),
            },
            Pairer::Knockout(k) => Table {
                swiss: None,
                knockout: Some(k.table(names, history)),
                ended_early: None,
            },
        }
    }

    /// The standings as text (after the usual report).
    pub fn render(&self, names: &[String], history: &[Played]) -> String {
        let table = self.table(names, history);
        let mut out = String::new();
        if let Some(lines) = &table.swiss {
            out.push_str(&crate::stats::formats::render_swiss(lines));
        }
        if let Some(e) = &table.ended_early {
            out.push_str(&format!(
                "Swiss ended early, after round {}: {}\n",
                e.after_round, e.reason
            ));
        }
        if let Some(rounds) = &table.knockout {
            out.push_str(&crate::stats::formats::render_bracket(rounds));
            if let Some(w) = self.winner(history) {
                out.push_str(&format!("Knockout winner: {}\n", names[w]));
            }
        }
        out
    }

    /// A knockout's winner once it is decided.
    pub fn winner(&self, history: &[Played]) -> Option<usize> {
        match self {
            Pairer::Swiss(_) => None,
            Pairer::Knockout(k) => k.winner(history),
        }
    }
}
