//! The rules of the mancala games, one module per game behind one trait.
//!
//! - [`Game`]: a position of one game: legal moves, playing a move, game end,
//!   hashing, the position string (`Display`/`FromStr`) and a human board.
//! - [`GameRecord`]: a game from its start, with the history-dependent rules
//!   (cycles, repetition, and in Bosh repeated round starts over the whole
//!   match) that a position alone cannot apply.
//! - [`perft`]: leaf counts for testing move generators.
//! - [`AnyGame`], [`with_game!`]: games chosen by id at run time.
//! - [`trace`]: the sowing trace of a move, step by step ([`Traced`]).
//!
//! The normative rules are the project's own pages in `docs/rules/` (one per
//! game); each game module's documentation restates the clauses it implements.

mod any;
pub mod display;
mod error;
mod game;
mod game_id;
pub mod layout;
mod outcome;
pub mod perft;
pub mod position;
mod record;
mod side;
pub mod trace;
pub mod vectors;
mod zobrist;

pub mod games {
    //! One module per game.
    pub mod bohnenspiel;
    pub mod bosh;
    pub mod kalah;
    pub mod kimasai;
    pub mod kujifunza;
    pub mod oware;
    pub mod pit;
}

pub use any::{
    divide_str, game_from_position, new_game, normalize_position, perft_str, render_position,
    start_position, AnyGame,
};
pub use error::{Field, MoveError, MoveSyntaxError, PositionError};
pub use game::{Game, Repetition, RepetitionEffect, Round};
pub use game_id::GameId;
pub use layout::Layout;
pub use outcome::{EndReason, GameResult, Outcome};
pub use record::GameRecord;
pub use side::Side;
pub use trace::{trace_move, MoveTrace, Observer, Step, Traced};
