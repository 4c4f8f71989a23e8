//! What one game is to be: the [`GamePlan`] (game, start, clocks,
//! adjudication, pondering) and the [`Timeouts`] outside the clocks.

use std::time::Duration;

use mancala_rules::GameId;

use crate::play::tc::TimeControl;

/// What to play.
#[derive(Clone, Debug)]
pub struct GamePlan {
    pub game: GameId,
    /// The position string the game starts from (after any opening).
    pub start_position: String,
    /// Time controls of South and North.
    pub tc: [TimeControl; 2],
    /// Adjudicate a draw after this many plies.
    pub max_plies: Option<u32>,
    /// Resign, draw and decided adjudication ([`crate::play::adjudicate`]).
    pub adjudication: crate::play::adjudicate::Rules,
    /// Whether South's and North's engines ponder ([`crate::play::ponder`]).
    pub ponder: [bool; 2],
}

/// Waiting limits outside the clocks.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For `readyok`.
    pub ready: Duration,
    /// For `bestmove` when the time control has no clock (depth or nodes only).
    pub stall: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            ready: Duration::from_secs(10),
            stall: Duration::from_secs(60),
        }
    }
}
