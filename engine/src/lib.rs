//! The reference engine: a game-generic alpha-beta search over the rules
//! library's [`mancala_rules::Game`] trait, behind the UMI protocol.

pub mod bench;
pub mod book;
pub mod control;
pub mod eval;
pub mod exact;
pub mod openings;
pub mod options;
pub mod search;
// why a re-export: the solver lives in the tablebase crate (the Python kit
// calls it too); `engine::solve` stays its name for the engine's callers.
pub use mancala_tablebase::kalah::solver as solve;
pub mod tb;
pub mod time;
pub mod tt;
pub mod umi;
