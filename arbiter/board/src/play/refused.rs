//! Why a game of the play page could not start ([`StartError`]), why one
//! side's engine could not ([`EngineError`]), and why the human's move was
//! not played ([`MoveRefused`]), typed; their text is what the page is told.

use mancala_rules::{GameId, PositionError, Side};

use crate::analyse::OptionError;
use crate::table::PlayError;
use arbiter_core::contender::cap::CapReached;
use arbiter_core::contender::session::Fault;
use arbiter_core::play::tc::TcError;

/// Why a game did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("name a game or a position")]
    NoStart,
    /// The request's `game` is no game.
    #[error(transparent)]
    Game(PositionError),
    #[error("time control {text:?}: {source}")]
    TimeControl { text: String, source: TcError },
    /// The start position breaks the rules.
    #[error("position: {0}")]
    Position(#[source] PositionError),
    #[error("an engine needs a time control (e.g. 60+1 or st=1)")]
    Untimed,
    #[error("{side} engine {name}: {source}")]
    Engine {
        side: Side,
        name: String,
        source: EngineError,
    },
}

/// Why one side's engine is not ready to play.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// `known`: the engines this server has, comma-separated.
    #[error("no such engine (this server has: human, {known})")]
    NoSuchEngine { known: String },
    /// The pages run as many engines as they may.
    #[error(transparent)]
    Cap(#[from] CapReached),
    #[error("does not play {game} (it plays: {plays})")]
    Game { game: GameId, plays: String },
    #[error(transparent)]
    Option(#[from] OptionError),
    /// It failed to start, to take its options or its `newgame`.
    #[error(transparent)]
    Fault(#[from] Fault),
}

/// Why the human's move was not played.
#[derive(Debug, thiserror::Error)]
pub enum MoveRefused {
    #[error("it is the engine's turn ({0})")]
    EngineToMove(Side),
    #[error(transparent)]
    Play(#[from] PlayError),
}
