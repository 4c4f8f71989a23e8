//! The arbiter's integration tests, as one test binary (issue 37): each
//! module was a test binary of its own (`tests/<module>.rs`), and each of
//! those linked the whole stack again. A test keeps its old file's name as
//! its module path: `cargo test -p arbiter --test it match::` runs what
//! `--test match` ran, `--test it layers::` the layering checks.
//!
//! One process now runs every test, so a test that changes what the whole
//! process shares (the engine registry's `kill_all_engines`) starts itself
//! again alone: [`common::alone`].

mod common;

mod arena;
mod arena_stop;
mod barrier;
mod check;
mod fair_share;
mod formats;
mod front;
mod habits;
mod keys;
mod kgp;
mod layers;
mod limits_doc;
mod live;
mod live_stop;
mod r#match;
mod partie;
mod process;
mod remote;
mod runner;
mod serve;
mod show;
mod tablebase;
mod tournament;
mod watch;
