//! The record of one played game: [`GameLog`].
//!
//! A log holds what is needed to replay and judge a game (start position,
//! moves, result, why it ended) and what a reader wants to see (engines, time
//! control, time and evaluation per move). [`crate::records::pgn`] and
//! [`crate::records::jsonl`] write and read it; [`crate::records::verify`] checks it against
//! the rules.
//!
//! Conventions:
//! - `result` is `None` (written `*`) only for an [`Termination::Interrupted`]
//!   game: every game the arbiter finishes has a result.
//! - A forfeit ([`Termination::offender`] is `Some`) is a loss for the
//!   offender.
//! - An illegal move is recorded in the termination
//!   ([`Termination::IllegalMove`]), not in `moves`: `moves` holds only legal
//!   moves, so every log replays cleanly up to its last position, and the
//!   offending move is judged in that position.
//! - Move scores are from the mover's point of view, as the engine reported
//!   them.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use mancala_rules::{EndReason, GameResult, Side};
use serde::{Deserialize, Serialize};

use crate::stats::ScoredGame;

/// One game, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLog {
    pub event: String,
    pub site: String,
    /// The day the game started, `YYYY.MM.DD` as in PGN.
    pub date: String,
    /// Round within the event: `3`, or `3.1` for the first game of round 3.
    pub round: String,
    /// The rules' game id (`bohnenspiel`, `bosh`, …); the first field of
    /// `start_position` must agree.
    pub game: String,
    /// The position string the game started from.
    pub start_position: String,
    /// Engine names.
    pub south: String,
    pub north: String,
    /// `None` (`*`) only for interrupted games.
    #[serde(with = "serde_result")]
    pub result: Option<GameResult>,
    pub termination: Termination,
    /// The time control as text (see [`crate::play::tc::TimeControl`]); when the
    /// engines have different controls, the session writes both.
    pub time_control: String,
    /// The legal moves played, in order.
    pub moves: Vec<MoveRecord>,
    /// Final seed counts (South, North) for games that count seeds, as the
    /// rules report them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<[u32; 2]>,
    /// Set when the game is part of a Bohnenspiel Partie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partie: Option<PartieInfo>,
    /// Further tags (engine versions, opening name …). Keys are PGN tag
    /// names: letters, digits and `_`, none of the tags this type writes
    /// itself (see [`crate::records::pgn::RESERVED_TAGS`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
}

/// The game's place in a Bohnenspiel Partie (games in a row, totals summed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartieInfo {
    /// 1 for the first game of the Partie.
    pub index: u32,
    /// Partie bean totals of the South and North engines before this game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totals: Option<[u32; 2]>,
}

/// One move: its notation, the time it took, and what the engine said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(rename = "move")]
    pub mv: String,
    /// Thinking time as measured by the arbiter, milliseconds.
    pub time_ms: u64,
    /// The last score the engine reported, from the mover's point of view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
    /// The last depth the engine reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// A remote engine's measured round trip for this move, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lag_ms: Option<u64>,
    /// The part of it given back to its clock (`time_ms` is already net of
    /// it), milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comp_ms: Option<u64>,
    /// The move was not the engine's: a KGP bot sent none before its
    /// search ended, and KGP's random move was played for it
    /// (protocol-spec.md section 17.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kgp_random: bool,
}

impl MoveRecord {
    /// A move with its time and nothing else.
    pub fn new(mv: impl Into<String>, time_ms: u64) -> MoveRecord {
        MoveRecord {
            mv: mv.into(),
            time_ms,
            score: None,
            depth: None,
            lag_ms: None,
            comp_ms: None,
            kgp_random: false,
        }
    }
}

/// An engine's evaluation: centiseeds, or moves to mate (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl From<umi::ScoreValue> for Score {
    fn from(v: umi::ScoreValue) -> Score {
        match v {
            umi::ScoreValue::Cp(cp) => Score::Cp(cp),
            umi::ScoreValue::Mate(m) => Score::Mate(m),
        }
    }
}

impl fmt::Display for Score {
    /// `+35`, `-12`, `+0`, `+M3`, `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{cp:+}"),
            Score::Mate(m) if m < 0 => write!(f, "-M{}", m.unsigned_abs()),
            Score::Mate(m) => write!(f, "+M{m}"),
        }
    }
}

/// Why a score's text (`+35`, `-M2`, …) could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreError {
    /// Not a sign, an optional `M` and digits.
    Malformed { text: String },
    /// Digits that do not fit a score.
    TooLarge { text: String },
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::Malformed { text } => {
                write!(f, "bad score {text:?}: expected +35, -12, +M3 or -M2")
            }
            ScoreError::TooLarge { text } => write!(f, "bad score {text:?}: number too large"),
        }
    }
}

impl std::error::Error for ScoreError {}

impl FromStr for Score {
    type Err = ScoreError;

    fn from_str(s: &str) -> Result<Score, ScoreError> {
        let (negative, rest) = match s.as_bytes().first() {
            Some(b'+') => (false, &s[1..]),
            Some(b'-') => (true, &s[1..]),
            _ => (false, s),
        };
        let (mate, digits) = match rest.strip_prefix('M') {
            Some(d) => (true, d),
            None => (false, rest),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ScoreError::Malformed { text: s.to_owned() });
        }
        let value: i32 = digits
            .parse()
            .map_err(|_| ScoreError::TooLarge { text: s.to_owned() })?;
        let value = if negative { -value } else { value };
        Ok(if mate {
            Score::Mate(value)
        } else {
            Score::Cp(value)
        })
    }
}

/// Why a game ended. Serialized with a `kind` (the short snake_case name, see
/// [`Termination::kind`]), the offending `side` for forfeits, the offending
/// `move` for illegal moves, and a free-text `detail`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Termination {
    /// Over under the rules; `detail` is the rules' reason
    /// ([`EndReason::describe`]).
    Rules { detail: String },
    /// Stopped by the arbiter with a verdict: the ply limit (a draw).
    Adjudication { detail: String },
    /// cutechess's `-resign`: one engine's own score said it was lost for
    /// long enough; the result is a loss for it.
    ResignAdjudication { detail: String },
    /// cutechess's `-draw`: both engines' scores stayed near zero.
    DrawAdjudication { detail: String },
    /// The rules say the result can no longer change (`--adjudicate decided`).
    DecidedAdjudication { detail: String },
    /// The endgame database gives the result (`--adjudicate tb=DIR`).
    TablebaseAdjudication { detail: String },
    /// The engine sent a move that is not legal (or not a move); `detail` is
    /// why, e.g. the rules' error.
    IllegalMove {
        #[serde(with = "serde_side")]
        side: Side,
        #[serde(rename = "move")]
        mv: String,
        detail: String,
    },
    /// The engine exceeded its time (plus margin).
    TimeForfeit {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// A `bestmove` line that cannot be read; `detail` is the line.
    UnparseableBestmove {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// The search ended (or the engine stopped talking) without a `bestmove`.
    NoBestmove {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// The engine process died with a non-zero status or a signal.
    Crash {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// The engine closed its output (EOF) or exited normally mid-game.
    Disconnect {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// A `bestmove` that answers no `go`: a second one for the same `go`, or
    /// one sent while no search runs (after `readyok`, between moves or
    /// games). Never taken as an answer; `detail` says when it came.
    StrayBestmove {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// The engine did not answer `umi`/`isready` in time.
    Unresponsive {
        #[serde(with = "serde_side")]
        side: Side,
        detail: String,
    },
    /// The arbiter stopped before the game ended (result `*`).
    Interrupted { detail: String },
}

/// The termination kinds, as written in logs.
pub const TERMINATION_KINDS: [&str; 15] = [
    "rules",
    "adjudication",
    "resign_adjudication",
    "draw_adjudication",
    "decided_adjudication",
    "tablebase_adjudication",
    "illegal_move",
    "time_forfeit",
    "unparseable_bestmove",
    "no_bestmove",
    "crash",
    "disconnect",
    "stray_bestmove",
    "unresponsive",
    "interrupted",
];

impl Termination {
    /// An end under the rules.
    pub fn rules(reason: EndReason) -> Termination {
        Termination::Rules {
            detail: reason.describe().to_owned(),
        }
    }

    /// The short name written in logs (one of [`TERMINATION_KINDS`]).
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Rules { .. } => "rules",
            Termination::Adjudication { .. } => "adjudication",
            Termination::ResignAdjudication { .. } => "resign_adjudication",
            Termination::DrawAdjudication { .. } => "draw_adjudication",
            Termination::DecidedAdjudication { .. } => "decided_adjudication",
            Termination::TablebaseAdjudication { .. } => "tablebase_adjudication",
            Termination::IllegalMove { .. } => "illegal_move",
            Termination::TimeForfeit { .. } => "time_forfeit",
            Termination::UnparseableBestmove { .. } => "unparseable_bestmove",
            Termination::NoBestmove { .. } => "no_bestmove",
            Termination::Crash { .. } => "crash",
            Termination::Disconnect { .. } => "disconnect",
            Termination::StrayBestmove { .. } => "stray_bestmove",
            Termination::Unresponsive { .. } => "unresponsive",
            Termination::Interrupted { .. } => "interrupted",
        }
    }

    /// The side that forfeited, for forfeits.
    pub fn offender(&self) -> Option<Side> {
        match self {
            Termination::IllegalMove { side, .. }
            | Termination::TimeForfeit { side, .. }
            | Termination::UnparseableBestmove { side, .. }
            | Termination::NoBestmove { side, .. }
            | Termination::Crash { side, .. }
            | Termination::Disconnect { side, .. }
            | Termination::StrayBestmove { side, .. }
            | Termination::Unresponsive { side, .. } => Some(*side),
            Termination::Rules { .. }
            | Termination::Adjudication { .. }
            | Termination::ResignAdjudication { .. }
            | Termination::DrawAdjudication { .. }
            | Termination::DecidedAdjudication { .. }
            | Termination::TablebaseAdjudication { .. }
            | Termination::Interrupted { .. } => None,
        }
    }

    /// The offending move of an illegal-move forfeit.
    pub fn illegal_move(&self) -> Option<&str> {
        match self {
            Termination::IllegalMove { mv, .. } => Some(mv),
            _ => None,
        }
    }

    pub fn detail(&self) -> &str {
        match self {
            Termination::Rules { detail }
            | Termination::Adjudication { detail }
            | Termination::ResignAdjudication { detail }
            | Termination::DrawAdjudication { detail }
            | Termination::DecidedAdjudication { detail }
            | Termination::TablebaseAdjudication { detail }
            | Termination::IllegalMove { detail, .. }
            | Termination::TimeForfeit { detail, .. }
            | Termination::UnparseableBestmove { detail, .. }
            | Termination::NoBestmove { detail, .. }
            | Termination::Crash { detail, .. }
            | Termination::Disconnect { detail, .. }
            | Termination::StrayBestmove { detail, .. }
            | Termination::Unresponsive { detail, .. }
            | Termination::Interrupted { detail } => detail,
        }
    }

    /// Builds a termination from its parts (as stored in PGN tags). The
    /// message of an error names what is missing or unexpected.
    pub fn from_parts(
        kind: &str,
        side: Option<Side>,
        mv: Option<String>,
        detail: String,
    ) -> Result<Termination, String> {
        let need_side = || side.ok_or_else(|| format!("termination {kind} needs the offender"));
        let t = match kind {
            "rules" => Termination::Rules { detail },
            "adjudication" => Termination::Adjudication { detail },
            "resign_adjudication" => Termination::ResignAdjudication { detail },
            "draw_adjudication" => Termination::DrawAdjudication { detail },
            "decided_adjudication" => Termination::DecidedAdjudication { detail },
            "tablebase_adjudication" => Termination::TablebaseAdjudication { detail },
            "interrupted" => Termination::Interrupted { detail },
            "illegal_move" => Termination::IllegalMove {
                side: need_side()?,
                mv: mv
                    .clone()
                    .ok_or("termination illegal_move needs the offending move")?,
                detail,
            },
            "time_forfeit" => Termination::TimeForfeit {
                side: need_side()?,
                detail,
            },
            "unparseable_bestmove" => Termination::UnparseableBestmove {
                side: need_side()?,
                detail,
            },
            "no_bestmove" => Termination::NoBestmove {
                side: need_side()?,
                detail,
            },
            "crash" => Termination::Crash {
                side: need_side()?,
                detail,
            },
            "disconnect" => Termination::Disconnect {
                side: need_side()?,
                detail,
            },
            "stray_bestmove" => Termination::StrayBestmove {
                side: need_side()?,
                detail,
            },
            "unresponsive" => Termination::Unresponsive {
                side: need_side()?,
                detail,
            },
            _ => {
                return Err(format!(
                    "unknown termination {kind:?} (known: {})",
                    TERMINATION_KINDS.join(", ")
                ))
            }
        };
        if t.offender().is_none() && side.is_some() {
            return Err(format!("termination {kind} has no offender"));
        }
        if t.illegal_move().is_none() && mv.is_some() {
            return Err(format!("termination {kind} has no offending move"));
        }
        Ok(t)
    }
}

impl fmt::Display for Termination {
    /// A sentence for people: `illegal move 7 by South: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind().replace('_', " ");
        match (self.offender(), self.illegal_move()) {
            (Some(side), Some(mv)) => write!(f, "{kind} {mv} by {side}")?,
            (Some(side), None) => write!(f, "{kind} by {side}")?,
            (None, _) => f.write_str(&kind)?,
        }
        if !self.detail().is_empty() {
            write!(f, ": {}", self.detail())?;
        }
        Ok(())
    }
}

impl GameLog {
    /// The side to move in the start position (from its third field), or
    /// `None` if the position string has no such field.
    pub fn start_side(&self) -> Option<Side> {
        self.start_position
            .split_whitespace()
            .nth(2)
            .and_then(Side::from_letter)
    }

    /// The game for standings; `None` for an interrupted game.
    pub fn scored(&self) -> Option<ScoredGame> {
        Some(ScoredGame {
            south: self.south.clone(),
            north: self.north.clone(),
            result: self.result?,
            forfeit: self
                .termination
                .offender()
                .map(|_| self.termination.kind().to_owned()),
        })
    }
}

/// Parses `a/b` into two numbers (scores and totals).
pub(crate) fn parse_pair(s: &str) -> Option<[u32; 2]> {
    let (a, b) = s.split_once('/')?;
    let num = |t: &str| -> Option<u32> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    Some([num(a)?, num(b)?])
}

/// Results as PGN tokens; `None` is `*`.
pub(crate) mod serde_result {
    use mancala_rules::GameResult;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(r: &Option<GameResult>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.map_or("*", GameResult::as_pgn))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<GameResult>, D::Error> {
        let text = String::deserialize(d)?;
        if text == "*" {
            return Ok(None);
        }
        GameResult::from_pgn(&text).map(Some).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "bad result {text:?}: expected 1-0, 0-1, 1/2-1/2 or *"
            ))
        })
    }
}

/// Sides as `South`/`North`.
pub(crate) mod serde_side {
    use mancala_rules::Side;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(side)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_side(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("bad side {text:?}: expected South or North"))
        })
    }
}

/// `South` or `North`.
pub(crate) fn parse_side(s: &str) -> Option<Side> {
    match s {
        "South" => Some(Side::South),
        "North" => Some(Side::North),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub use crate::testing::rules_log;

    /// North to move at the start; North forfeits on an illegal move.
    pub fn illegal_log() -> GameLog {
        GameLog {
            event: "E".into(),
            site: "S".into(),
            date: "2024.05.02".into(),
            round: "1".into(),
            game: "bohnenspiel".into(),
            start_position: "bohnenspiel 0,7,7,7,7,7,7,6,6,6,6,6 N 0/0".into(),
            south: "Alpha".into(),
            north: "Beta".into(),
            result: Some(GameResult::SouthWins),
            termination: Termination::IllegalMove {
                side: Side::North,
                mv: "3".into(),
                detail: "illegal move 3: legal moves are 7 8 9 10 11 12".into(),
            },
            time_control: "st=1".into(),
            // North 8: 6 beans to 9..12, 1, 2 (pit 2 ends with 8, no capture);
            // South 3: 7 beans to 4..10 (pit 10 ends with 8). North to move
            // plays South's pit 3.
            moves: vec![MoveRecord::new("8", 10), MoveRecord::new("3", 999_999)],
            scores: None,
            partie: None,
            tags: BTreeMap::new(),
        }
    }

    #[test]
    fn scores_round_trip() {
        for (text, score) in [
            ("+35", Score::Cp(35)),
            ("-12", Score::Cp(-12)),
            ("+0", Score::Cp(0)),
            ("+M3", Score::Mate(3)),
            ("-M2", Score::Mate(-2)),
        ] {
            assert_eq!(score.to_string(), text);
            assert_eq!(text.parse::<Score>(), Ok(score));
        }
        assert_eq!("M4".parse::<Score>(), Ok(Score::Mate(4)));
        assert_eq!("17".parse::<Score>(), Ok(Score::Cp(17)));
        for bad in ["", "+", "M", "1.5", "+M", "x3", "99999999999"] {
            assert!(bad.parse::<Score>().is_err(), "{bad}");
        }
    }

    #[test]
    fn termination_parts() {
        for t in [rules_log().termination, illegal_log().termination] {
            let rebuilt = Termination::from_parts(
                t.kind(),
                t.offender(),
                t.illegal_move().map(str::to_owned),
                t.detail().to_owned(),
            );
            assert_eq!(rebuilt, Ok(t));
        }
        let t = Termination::from_parts("time_forfeit", Some(Side::South), None, "x".into());
        assert_eq!(
            t,
            Ok(Termination::TimeForfeit {
                side: Side::South,
                detail: "x".into()
            })
        );
        assert!(Termination::from_parts("crash", None, None, String::new())
            .unwrap_err()
            .contains("needs the offender"));
        assert!(
            Termination::from_parts("rules", Some(Side::South), None, String::new())
                .unwrap_err()
                .contains("has no offender")
        );
        assert!(Termination::from_parts("resign", None, None, String::new())
            .unwrap_err()
            .contains("unknown termination \"resign\""));
        assert_eq!(
            illegal_log().termination.to_string(),
            "illegal move 3 by North: illegal move 3: legal moves are 7 8 9 10 11 12"
        );
        assert_eq!(
            rules_log().termination.to_string(),
            "rules: player to move has no seeds"
        );
    }

    #[test]
    fn log_helpers() {
        assert_eq!(rules_log().start_side(), Some(Side::South));
        assert_eq!(illegal_log().start_side(), Some(Side::North));
        let scored = illegal_log().scored().unwrap();
        assert_eq!(scored.forfeit.as_deref(), Some("illegal_move"));
        assert_eq!(scored.result, GameResult::SouthWins);
        assert_eq!(rules_log().scored().unwrap().forfeit, None);
        let mut interrupted = rules_log();
        interrupted.result = None;
        assert_eq!(interrupted.scored(), None);
    }
}
