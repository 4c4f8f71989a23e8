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

pub mod check;
pub mod cli;
pub mod config;
pub mod game;
pub mod jsonl;
pub mod log;
#[path = "match.rs"]
pub mod matches;
pub mod openings;
pub mod output;
pub mod partie;
pub mod pgn;
pub mod process;
pub mod runner;
pub mod session;
pub mod stats;
pub mod tc;
pub mod verify;
