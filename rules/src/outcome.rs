//! How a finished game ended.

use crate::Side;
use std::fmt;

/// The result of a finished game, written as in PGN.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    SouthWins,
    NorthWins,
    Draw,
}

impl GameResult {
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::SouthWins => Some(Side::South),
            GameResult::NorthWins => Some(Side::North),
            GameResult::Draw => None,
        }
    }

    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::South => GameResult::SouthWins,
            Side::North => GameResult::NorthWins,
        }
    }

    /// The result decided by two scores (more is better; equal is a draw).
    pub fn from_scores(scores: [u32; 2]) -> GameResult {
        use std::cmp::Ordering::*;
        match scores[0].cmp(&scores[1]) {
            Greater => GameResult::SouthWins,
            Less => GameResult::NorthWins,
            Equal => GameResult::Draw,
        }
    }

    /// Points scored by `side`, in half points (win 2, draw 1, loss 0).
    pub fn half_points(self, side: Side) -> u32 {
        match self.winner() {
            Some(w) if w == side => 2,
            Some(_) => 0,
            None => 1,
        }
    }

    /// `1-0` (South won), `0-1` (North won) or `1/2-1/2`.
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::SouthWins => "1-0",
            GameResult::NorthWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn from_pgn(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::SouthWins),
            "0-1" => Some(GameResult::NorthWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// Why a game ended under the rules (not forfeits: those belong to the arbiter).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// Bohnenspiel: the player to move has no bean on his side; the board is swept
    /// to the player who moved last.
    NoSeedsToMove,
    /// Bohnenspiel (Hemprich): every bean has been captured.
    BoardEmpty,
    /// Bohnenspiel: a position occurred for the third time; each player took the
    /// beans on his own side.
    Cycle,
    /// Bosh: a player could not fill a single hole at the start of a round.
    MatchWon,
    /// Kimasai and Kujifunza: the player to move has no legal move (or, in
    /// Kimasai, no stone).
    NoLegalMove,
    /// Kujifunza: the player to move has an empty front row.
    EmptyFrontRow,
    /// Kimasai: a position repeated (first repetition), drawn; Kujifunza: a
    /// position occurred for the third time, drawn; Oware: a position repeated
    /// since the last capture (first repetition), each player taking the seeds
    /// in his own row.
    Repetition,
    /// Kalah: a row is empty; each player took the seeds in his own row.
    RowEmpty,
    /// Oware: a store holds more than half the seeds, or both hold half.
    HalfTaken,
    /// Bosh: the position at the start of a round (the round number aside)
    /// occurred for the third time in the match. Drawn; the scores are the
    /// stones each player owns.
    RoundStartRepeated,
}

impl EndReason {
    /// A stable identifier in `snake_case` (the Python kit's `reason`).
    pub fn id(self) -> &'static str {
        match self {
            EndReason::NoSeedsToMove => "no_seeds_to_move",
            EndReason::BoardEmpty => "board_empty",
            EndReason::Cycle => "cycle",
            EndReason::MatchWon => "match_won",
            EndReason::NoLegalMove => "no_legal_move",
            EndReason::EmptyFrontRow => "empty_front_row",
            EndReason::Repetition => "repetition",
            EndReason::RoundStartRepeated => "round_start_repeated",
            EndReason::RowEmpty => "row_empty",
            EndReason::HalfTaken => "half_taken",
        }
    }

    /// Every reason, e.g. to read one back from its [`EndReason::describe`]
    /// text in a log.
    pub const ALL: &'static [EndReason] = &[
        EndReason::NoSeedsToMove,
        EndReason::BoardEmpty,
        EndReason::Cycle,
        EndReason::MatchWon,
        EndReason::NoLegalMove,
        EndReason::EmptyFrontRow,
        EndReason::Repetition,
        EndReason::RoundStartRepeated,
        EndReason::RowEmpty,
        EndReason::HalfTaken,
    ];

    /// The reason whose [`EndReason::describe`] is `text`.
    pub fn from_description(text: &str) -> Option<EndReason> {
        EndReason::ALL
            .iter()
            .copied()
            .find(|r| r.describe() == text)
    }

    /// A short lower-case description, used in logs.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::NoSeedsToMove => "player to move has no seeds",
            EndReason::BoardEmpty => "board empty",
            EndReason::Cycle => "cycle (third occurrence)",
            EndReason::MatchWon => "opponent cannot fill a hole",
            EndReason::NoLegalMove => "no legal move",
            EndReason::EmptyFrontRow => "empty front row",
            EndReason::Repetition => "repetition",
            EndReason::RoundStartRepeated => "round start repeated",
            EndReason::RowEmpty => "a row is empty",
            EndReason::HalfTaken => "half the seeds taken",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A finished game: who won, the final seed counts where the game scores seeds
/// (Bohnenspiel stores, Bosh reserves), and why it ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    pub result: GameResult,
    /// Final scores indexed by `Side::index()`, for games that count seeds.
    pub scores: Option<[u32; 2]>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(side: Side, reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::win_for(side),
            scores: None,
            reason,
        }
    }

    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            scores: None,
            reason,
        }
    }

    /// A result decided by final scores.
    pub fn by_scores(scores: [u32; 2], reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::from_scores(scores),
            scores: Some(scores),
            reason,
        }
    }
}
