//! One game of a schedule, as a runner takes it: who plays which side of
//! which game from which position.

use mancala_rules::GameId;

/// One game of a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Position in the schedule, from 0.
    pub index: usize,
    /// The round label for logs (`3`, `3.1`).
    pub round: String,
    pub game: GameId,
    /// Engine indices (into [`crate::play::runner::Runner::engines`]) of South and North.
    pub south: usize,
    pub north: usize,
    pub start_position: String,
    /// Which opening/pair this game belongs to (games of a pair share it).
    pub pair: usize,
}
