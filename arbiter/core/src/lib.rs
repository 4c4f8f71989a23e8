//! The arbiter's core: runs UMI engines against each other and keeps the
//! record. No HTTP, TLS or database here: a match or a tournament builds
//! from this crate alone; the network (`arbiter-net`), the browser board
//! (`arbiter-board`) and the arena (`arbiter-arena`) build on it.
//!
//! One folder per room, each room a few modules with one job each:
//! - [`engine`]: one engine from outside — its spec ([`engine::config`]), its
//!   process ([`engine::process`]: start, talk, reliably end), the protocol
//!   session over it ([`engine::session`]: handshake, `go` → `bestmove`)
//!   through a [`engine::transport::Transport`] (a process, or a remote
//!   engine's [`engine::transport::Link`]), remote engines as an event sees
//!   them ([`engine::remote`]) and the conformance check ([`engine::check`]).
//! - [`play`]: games under clocks — time controls ([`play::tc`]), one game
//!   ([`play::game`]), openings, Partie, the concurrent runner, matches and
//!   the check before an event ([`play::preflight`]).
//! - [`event`]: tournaments — the deterministic schedule, slots, resume,
//!   extending rounds, shards, merge, and watching other processes' logs.
//! - [`stats`]: Elo, LOS, SPRT, pentanomial statistics, standings and
//!   crosstables ([`stats::rating`], [`stats::report`]); pure functions.
//! - [`records`]: the game log type ([`records::log`]), PGN and JSON lines
//!   writers/readers, the output files, [`records::tail`] (following growing
//!   logs) and [`records::verify`].
//! - [`compat`]: cutechess-cli and fastchess command lines, translated.
//! - [`shutdown`]: a signal's stop: the first drains, a second stops now.
//! - [`values`]: counts and seconds as flags and settings write them.

pub mod engine {
    //! One engine from outside: spec, process, protocol session, conformance,
    //! and the caps a server puts on how many run.
    pub mod cap;
    pub mod check;
    pub mod config;
    pub mod process;
    pub mod random_mover;
    pub mod remote;
    pub mod session;
    pub mod stderr_tail;
    pub mod transport;
    pub mod watchdog;
}

pub mod play {
    //! Games under clocks: time controls, one game, openings, Partie, the
    //! runner that plays many at once, and matches.
    pub mod adjudicate;
    pub mod admission;
    pub mod game;
    pub mod job;
    pub mod lag;
    pub mod matches;
    pub mod observe;
    pub mod openings;
    pub mod partie;
    pub mod preflight;
    pub mod runner;
    pub mod tc;
}

pub mod event {
    //! Tournaments: schedule, formats paired round by round, resume, extending
    //! rounds, shards, merge.
    pub mod extend;
    pub mod formats;
    pub mod merge;
    pub mod place;
    pub mod resume;
    pub mod running;
    pub mod schedule;
    pub mod slots;
    pub mod tournament;
    pub mod watch;
}

pub mod compat;
pub mod shutdown;
pub mod stats;
pub mod values;

pub mod records {
    //! What an event leaves behind: game logs, PGN, JSON lines, verification.
    pub mod jsonl;
    pub mod log;
    pub mod output;
    pub mod partie_check;
    pub mod pgn;
    pub mod slot;
    pub mod tail;
    pub mod verify;
}

#[doc(hidden)]
pub mod testing;

#[cfg(test)]
pub(crate) use testing::test_dir;
