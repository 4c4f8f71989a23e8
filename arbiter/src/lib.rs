//! The arbiter: runs UMI engines against each other and keeps the record.
//!
//! Rooms, each with one job:
//! - [`process`]: start, talk to and reliably end one engine process.
//! - [`session`]: one engine under the protocol (handshake, `go` → `bestmove`).
//! - [`check`]: `arbiter check`, one engine's conformance to the protocol.
//!
//! Pure building blocks (no processes, little I/O):
//! - [`tc`]: time controls (cutechess syntax) and the game clock.
//! - [`config`]: engine specs from `--engine`/`--each` tokens and engines files.
//! - [`stats`]: Elo, LOS, SPRT, pentanomial statistics, standings, crosstables.
//! - [`log`]: the game log type; [`pgn`] and [`jsonl`] write and read it;
//!   [`verify`] replays logs with the rules.
//!
//! Tournaments:
//! - [`schedule`]: the deterministic schedule, its fingerprint, shards.
//! - [`tournament`]: `arbiter tournament` (and `merge`) on top of the runner.
//! - [`resume`]: reading results logs back (truncated last line, resume).
//! - [`merge`]: combining the logs of one event.
//! - [`rating`]: maximum-likelihood Elo of a whole field.
//! - [`report`]: standings, crosstable, Elo, match report of an event.

pub mod check;
pub mod cli;
pub mod config;
pub mod game;
pub mod jsonl;
pub mod log;
#[path = "match.rs"]
pub mod matches;
pub mod merge;
pub mod openings;
pub mod output;
pub mod partie;
pub mod pgn;
pub mod process;
pub mod rating;
pub mod report;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod stats;
pub mod tc;
pub mod tournament;
pub mod verify;
