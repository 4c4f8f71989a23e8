//! The arbiter: runs UMI engines against each other and keeps the record.
//!
//! One folder per room, each room a few modules with one job each:
//! - [`engine`]: one engine from outside — its spec ([`engine::config`]), its
//!   process ([`engine::process`]: start, talk, reliably end), the protocol
//!   session over it ([`engine::session`]: handshake, `go` → `bestmove`) and
//!   the conformance check ([`engine::check`]).
//! - [`play`]: games under clocks — time controls ([`play::tc`]), one game
//!   ([`play::game`]), openings, Partie, the concurrent runner and matches.
//! - [`event`]: tournaments — the deterministic schedule, slots, resume,
//!   extending rounds, shards, merge, and watching other processes' logs.
//! - [`stats`]: Elo, LOS, SPRT, pentanomial statistics, standings and
//!   crosstables ([`stats::rating`], [`stats::report`]); pure functions.
//! - [`records`]: the game log type ([`records::log`]), PGN and JSON lines
//!   writers/readers, the output files, [`records::tail`] (following growing
//!   logs) and [`records::verify`].
//! - [`front`]: the HTTP front of every listener: connection limits,
//!   deadlines, body caps, the `Host`/`Origin` guard.
//! - [`web`]: `arbiter serve`, the browser board (play, analyse, replay), and
//!   the live event view ([`web::live`]: hub, page, `--watch`).
//! - [`cli`]: the command line (flags, defaults, printing: [`cli::check`],
//!   [`cli::tournament`]); library modules never depend on it, the binary is
//!   a thin shell over it.
//! - [`compat`]: cutechess-cli and fastchess command lines, translated.
//! - [`remote`]: engines on other machines over WebSocket (`/umi`, tokens,
//!   grace, lag compensation) and the bridge `arbiter connect`.
//! - [`shutdown`]: a signal's stop: the first drains, a second stops now.
//! - [`values`]: counts and seconds as flags and settings write them.
//! - [`arena`]: `arbiter arena`, the standing server where bots are paired,
//!   rated and watched.

pub mod arena;
pub mod cli;
pub mod compat;

pub mod engine {
    //! One engine from outside: spec, process, protocol session, conformance,
    //! and the caps a server puts on how many run.
    pub mod cap;
    pub mod check;
    pub mod config;
    pub mod process;
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
    pub mod watch;
}

pub mod remote;
pub mod shutdown;
pub mod stats;
pub mod values;

pub mod front;

pub mod web;

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

/// An empty scratch directory for one unit test, `arbiter-<name>-<pid>` in
/// the temporary directory (what an earlier run left there is removed).
#[cfg(test)]
pub(crate) fn test_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}
