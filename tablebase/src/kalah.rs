//! Kalah endgame databases (`kalah`, whose boards `kalah-6x6` shares).
//!
//! The value of a board is the mover's net future gain under best play: the
//! seeds he puts into his store from here on (sowings, captures) plus his
//! row at the end, minus the same for the opponent. It lies in `−n..=n` for
//! `n` seeds on the board and does not depend on the stores, so there is one
//! entry per board seen from the mover, indexed like Bohnenspiel's
//! ([`crate::index`]: the mover's six holes, then the opponent's six in
//! sowing order). Both Kalah games have the same rules apart from the seed
//! count, so the boards of `kalah-6x6` with at most 48 seeds on the board
//! have the same values; the files are named `kalah`.
//!
//! Unlike Bohnenspiel's, the moves inside a layer form no cycles
//! ([`solve`]), so a layer is solved in one pass, exactly, with nothing
//! flagged.

pub mod board;
pub mod check;
pub mod probe;
pub mod solve;
pub mod solver;
