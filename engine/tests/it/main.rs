//! The engine's integration tests, as one test binary (issue 37): each
//! module was a test binary of its own (`tests/<module>.rs`), [`common`]
//! the engine driven over pipes that several share. A test keeps its old
//! file's name as its module path: `cargo test -p engine --test it
//! endgames::` runs what `--test endgames` ran.

mod common;

mod book;
mod bosh_rounds;
mod cli;
mod endgames;
mod exact;
mod kalah_minimax;
mod multipv;
mod position_games;
mod solve;
mod spec_sessions;
mod strength;
mod tablebase;
mod umi;
