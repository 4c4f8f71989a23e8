//! The arbiter's core: runs UMI engines against each other and keeps the
//! record. No HTTP, TLS or database here: a match or a tournament builds
//! from this crate alone; the network (`arbiter-net`), the browser board
//! (`arbiter-board`) and the arena (`arbiter-arena`) build on it.
//!
//! One folder per room, each room a few modules with one job each:
//! - [`contender`]: whoever sits at a board — an engine from outside, a
//!   remote engine or the arbiter's own random mover: its spec
//!   ([`contender::config`]), its process ([`contender::process`]: start,
//!   talk, reliably end), the protocol session over it
//!   ([`contender::session`]: handshake, `go` → `bestmove`) through a
//!   [`contender::transport::Transport`] (a process, or a remote engine's
//!   [`contender::transport::Link`]), remote engines as an event sees them
//!   ([`contender::remote`]) and the conformance check ([`contender::check`]).
//!   (Named apart from the reference engine, the crate `engine`.)
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

pub mod compat;
pub mod contender;
pub mod event;
pub mod play;
pub mod records;
pub mod shutdown;
pub mod stats;
pub mod values;

// why a feature: the fixtures are for tests only; the crates whose tests
// use them enable `testing` in their [dev-dependencies].
#[cfg(any(test, feature = "testing"))]
pub mod testing;

#[cfg(test)]
pub(crate) use testing::test_dir;
