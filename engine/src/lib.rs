//! The reference engine: a game-generic alpha-beta search over the rules
//! library's [`mancala_rules::Game`] trait, behind the UMI protocol.

pub mod bench;
pub mod control;
pub mod eval;
pub mod openings;
pub mod options;
pub mod search;
pub mod solve;
pub mod tb;
pub mod time;
pub mod tt;
pub mod umi;
