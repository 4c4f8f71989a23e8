//! The arbiter: runs UMI engines against each other and keeps the record.
//!
//! Pure building blocks (no processes, little I/O):
//! - [`tc`]: time controls (cutechess syntax) and the game clock.
//! - [`config`]: engine specs from `--engine`/`--each` tokens and engines files.
//! - [`stats`]: Elo, LOS, SPRT, pentanomial statistics, match reports,
//!   standings, crosstables.
//! - [`log`]: the game log type; [`pgn`] and [`jsonl`] write and read it;
//!   [`verify`] replays logs with the rules.

pub mod config;
pub mod jsonl;
pub mod log;
pub mod pgn;
pub mod stats;
pub mod tc;
pub mod verify;
