//! How a long-running arbiter stops on a signal (SIGINT, SIGTERM, SIGHUP),
//! the one place every server takes it from (`arena run`, `serve`, a
//! `--live` match or tournament):
//!
//! - the **first** signal starts a **drain** ([`Phase::Draining`]): the
//!   server starts no new game, says so to its bots and pages, and lets the
//!   games in progress finish (up to its deadline, `--drain`), then exits 0;
//! - a **second** signal stops at once ([`Phase::Now`]): the engines are
//!   killed, and a game cut off so is never a result (see
//!   [`crate::engine::process::killed_by_arbiter`]);
//! - a command that does not drain (a plain match or tournament, `check`)
//!   stops at once at the first signal, as before.
//!
//! The phase is process-wide: the signal loop in `cli::main` moves it on,
//! the servers watch it ([`watch`]), and a game that ends after
//! [`Phase::Now`] is aborted, not scored ([`stopping_now`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::sync::watch;

/// The most a drain waits by default for the games in progress.
pub const MAX_DRAIN: Duration = Duration::from_secs(600);

/// Where the stop is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No signal yet.
    Running,
    /// One signal: no new game; the games in progress finish.
    Draining,
    /// A second signal (or the drain's deadline): stop now.
    Now,
}

/// A signal that stops the arbiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Interrupt,
    Terminate,
    Hangup,
}

impl Stop {
    /// The signal's number (the exit status is 128 + it).
    pub fn number(self) -> i32 {
        match self {
            Stop::Interrupt => libc::SIGINT,
            Stop::Terminate => libc::SIGTERM,
            Stop::Hangup => libc::SIGHUP,
        }
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::Interrupt => "interrupted (SIGINT)",
            Stop::Terminate => "terminated (SIGTERM)",
            Stop::Hangup => "hung up (SIGHUP)",
        })
    }
}

/// The three stopping signals, listened to for the process's life (held
/// between signals, so that a second one sent right after the first is
/// never missed).
pub struct Signals {
    interrupt: Option<tokio::signal::unix::Signal>,
    terminate: Option<tokio::signal::unix::Signal>,
    hangup: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    /// Starts listening. A signal whose handler cannot be installed is not
    /// listened to (the others still are).
    pub fn new() -> Signals {
        use tokio::signal::unix::{signal, SignalKind};
        Signals {
            interrupt: signal(SignalKind::interrupt()).ok(),
            terminate: signal(SignalKind::terminate()).ok(),
            hangup: signal(SignalKind::hangup()).ok(),
        }
    }

    /// The next signal.
    pub async fn next(&mut self) -> Stop {
        async fn one(s: &mut Option<tokio::signal::unix::Signal>, stop: Stop) -> Stop {
            if let Some(s) = s {
                if s.recv().await.is_some() {
                    return stop;
                }
            }
            // why: no handler, or a stream that ended, delivers nothing.
            std::future::pending().await
        }
        tokio::select! {
            s = one(&mut self.interrupt, Stop::Interrupt) => s,
            s = one(&mut self.terminate, Stop::Terminate) => s,
            s = one(&mut self.hangup, Stop::Hangup) => s,
        }
    }
}

impl Default for Signals {
    fn default() -> Self {
        Signals::new()
    }
}

fn phase() -> &'static watch::Sender<Phase> {
    static PHASE: OnceLock<watch::Sender<Phase>> = OnceLock::new();
    PHASE.get_or_init(|| watch::channel(Phase::Running).0)
}

/// Set with [`Phase::Now`], read without a lock by the game tasks.
static NOW: AtomicBool = AtomicBool::new(false);

/// Watches the phase (a server's drain waits on it).
pub fn watch() -> watch::Receiver<Phase> {
    phase().subscribe()
}

/// The phase now.
pub fn current() -> Phase {
    *phase().borrow()
}

/// Starts the drain (the first signal). Nothing if already stopping.
pub fn drain() {
    phase().send_if_modified(|p| {
        let moved = *p == Phase::Running;
        if moved {
            *p = Phase::Draining;
        }
        moved
    });
}

/// Stops now (a second signal, or a drain's deadline): from here on a game
/// that ends is aborted, never a result.
pub fn now() {
    NOW.store(true, Ordering::SeqCst);
    phase().send_if_modified(|p| {
        let moved = *p != Phase::Now;
        *p = Phase::Now;
        moved
    });
}

/// Whether the arbiter is stopping at once ([`now`]): a game that ends now
/// was cut off by our own stop.
pub fn stopping_now() -> bool {
    NOW.load(Ordering::SeqCst)
}

/// Waits until the drain starts (or the stop is at once); at once if it has.
pub async fn draining(rx: &mut watch::Receiver<Phase>) {
    let _ = rx.wait_for(|p| *p != Phase::Running).await;
}

/// Waits until the stop is at once.
pub async fn stopped_now(rx: &mut watch::Receiver<Phase>) {
    let _ = rx.wait_for(|p| *p == Phase::Now).await;
}

/// `--drain SECONDS`: seconds, 0 allowed (the games in progress are
/// aborted at the first signal). Longer than [`MAX_DRAIN`] is allowed: the
/// cap is the default's only.
pub fn drain_arg(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(0.0) => Ok(0.0),
        _ => crate::cli::seconds_arg(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drain_argument_is_seconds_or_zero() {
        assert_eq!(drain_arg("0"), Ok(0.0));
        assert_eq!(drain_arg("2.5"), Ok(2.5));
        assert!(drain_arg("-1").is_err());
        assert!(drain_arg("soon").is_err());
    }
}
