//! What an event leaves behind: game logs, PGN, JSON lines, verification.

pub mod jsonl;
pub mod log;
pub mod output;
pub mod partie_check;
pub mod pgn;
pub mod slot;
pub mod tail;
pub mod verify;
