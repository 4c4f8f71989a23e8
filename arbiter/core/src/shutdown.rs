//! How a long-running arbiter stops on a signal (SIGINT, SIGTERM, SIGHUP),
//! the one place every server takes it from (`arena run`, `serve`, a
//! `--live` match or tournament):
//!
//! - the **first** signal starts a **drain** ([`Phase::Draining`]): the
//!   server starts no new game, says so to its bots and pages, and lets the
//!   games in progress finish (up to its deadline, `--drain`), then exits 0;
//! - a **second** signal stops at once ([`Phase::Now`]): the engines are
//!   killed, and a game cut off so is never a result (see
//!   [`crate::contender::process::killed_by_arbiter`]);
//! - a command that does not drain (a plain match or tournament, `check`)
//!   stops at once at the first signal, as before.
//!
//! The phase is a value, not a process-wide state: [`Shutdown::new`]
//! makes a pair, the [`ShutdownTrigger`] that moves it on (the signal loop
//! of the binary) and the [`Shutdown`] that every server, event and game
//! task holding a clone watches ([`Shutdown::draining`], [`Shutdown::now`]);
//! a game that ends after [`Phase::Now`] is aborted, not scored
//! ([`Shutdown::stopping_now`]). Two servers in one process stop apart.

pub mod on_signal;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// The most a drain waits by default for the games in progress.
pub const MAX_DRAIN: Duration = Duration::from_secs(600);

/// Time a drain adds to a game's remaining clocks (its last moves' overhead).
pub const DRAIN_MARGIN: Duration = Duration::from_secs(5);

/// A game in progress as a drain sees it: both sides' remaining clocks in
/// milliseconds (`None`: no chess clock) as of its last move, and when
/// that move was played (or the game started).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InProgress {
    pub since: Instant,
    pub clocks: [Option<u64>; 2],
}

impl InProgress {
    /// Clocks as of now.
    pub fn now(clocks: [Option<u64>; 2]) -> InProgress {
        InProgress {
            since: Instant::now(),
            clocks,
        }
    }
}

/// When the games in progress are over by their clocks: each game's last
/// move, both its clocks and [`DRAIN_MARGIN`] (a game has no more time
/// than that: the arbiter forfeits a side whose clock runs out), at most
/// `cap`; a game without a chess clock (`st=`, depth, nodes) takes `cap`;
/// no game: `now`.
pub fn over_by(games: &[InProgress], now: Instant, cap: Instant) -> Instant {
    games
        .iter()
        .map(|g| match g.clocks {
            [Some(a), Some(b)] => g
                .since
                .checked_add(Duration::from_millis(a.saturating_add(b)) + DRAIN_MARGIN)
                .unwrap_or(cap),
            _ => cap,
        })
        .max()
        .unwrap_or(now)
        .min(cap)
}

/// A drain's default wait: until the games in progress that `games`
/// reports are over by their clocks (read again every second, since a move
/// adds its increment and starts the next deadline from there), at most
/// [`MAX_DRAIN`]; while none is in progress, the event is ending by itself. Returns when that time has come (the games left are
/// then cut off); a caller also watches the games themselves finish.
pub async fn clocks_run_out(games: impl Fn() -> Vec<InProgress>) {
    let started = Instant::now();
    let cap = started + MAX_DRAIN;
    loop {
        let now = Instant::now();
        let games = games();
        // why no games is no deadline: the games just finished and the
        // event is ending by itself (its report is being written).
        let until = if games.is_empty() {
            now + Duration::from_secs(1)
        } else {
            over_by(&games, now, cap)
        };
        if until <= now || now >= cap {
            return;
        }
        // why at most a second: a game that ends early must not keep the
        // wait on its (later) deadline, nor a new move's be missed long.
        tokio::time::sleep(
            until
                .saturating_duration_since(now)
                .min(Duration::from_secs(1)),
        )
        .await;
    }
}

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

type Reporter = Box<dyn Fn() -> Vec<InProgress> + Send + Sync>;

/// What the two ends of one shutdown share: the phase, and where the games
/// in progress are (for the default drain).
struct Shared {
    phase: watch::Sender<Phase>,
    games: Mutex<Option<Reporter>>,
}

/// The watching end of a shutdown: cloned into every server, event and
/// game task that stops with it. One made by [`Shutdown::default`] never
/// stops (a test's server, a command that does not drain).
#[derive(Clone)]
pub struct Shutdown(Arc<Shared>);

/// The stopping end of a shutdown, held by whoever decides to stop (the
/// signal loop of the binary, a server's own drain deadline, a test).
#[derive(Clone)]
pub struct ShutdownTrigger(Arc<Shared>);

impl Shutdown {
    /// A new shutdown, running: its trigger and its first watcher.
    pub fn new() -> (ShutdownTrigger, Shutdown) {
        let shared = Arc::new(Shared {
            phase: watch::channel(Phase::Running).0,
            games: Mutex::new(None),
        });
        (ShutdownTrigger(Arc::clone(&shared)), Shutdown(shared))
    }

    /// The phase now.
    pub fn phase(&self) -> Phase {
        *self.0.phase.borrow()
    }

    /// Whether no drain has started (a new game may start).
    pub fn is_running(&self) -> bool {
        self.phase() == Phase::Running
    }

    /// Whether the stop is at once ([`ShutdownTrigger::now`]): a game that
    /// ends now was cut off by our own stop.
    pub fn stopping_now(&self) -> bool {
        self.phase() == Phase::Now
    }

    /// Waits until the drain starts (or the stop is at once); at once if it
    /// has. Cancel-safe.
    pub async fn draining(&self) {
        self.wait_for(|p| p != Phase::Running).await
    }

    /// Waits until the stop is at once. Cancel-safe.
    pub async fn now(&self) {
        self.wait_for(|p| p == Phase::Now).await
    }

    async fn wait_for(&self, done: impl Fn(Phase) -> bool) {
        let mut rx = self.0.phase.subscribe();
        // why no error case: `self` holds the sender, so the channel is
        // never closed while this waits.
        let _ = rx.wait_for(|p| done(*p)).await;
    }

    /// Tells the trigger's holder where the games in progress are (a
    /// `--live` event's hub knows their clocks), for the default drain.
    pub fn report_games_with(&self, f: impl Fn() -> Vec<InProgress> + Send + Sync + 'static) {
        *lock(&self.0.games) = Some(Box::new(f));
    }
}

impl Default for Shutdown {
    /// A shutdown nothing can trigger.
    fn default() -> Self {
        Shutdown::new().1
    }
}

impl std::fmt::Debug for Shutdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Shutdown").field(&self.phase()).finish()
    }
}

impl ShutdownTrigger {
    /// Another watcher of this shutdown.
    pub fn shutdown(&self) -> Shutdown {
        Shutdown(Arc::clone(&self.0))
    }

    /// Starts the drain (the first signal). Nothing if already stopping.
    pub fn drain(&self) {
        self.0.phase.send_if_modified(|p| {
            let moved = *p == Phase::Running;
            if moved {
                *p = Phase::Draining;
            }
            moved
        });
    }

    /// Stops now (a second signal, or a drain's deadline): from here on a
    /// game that ends is aborted, never a result.
    pub fn now(&self) {
        self.0.phase.send_if_modified(|p| {
            let moved = *p != Phase::Now;
            *p = Phase::Now;
            moved
        });
    }

    /// The games in progress as [`Shutdown::report_games_with`] reports them.
    pub fn games_in_progress(&self) -> Vec<InProgress> {
        match lock(&self.0.games).as_ref() {
            Some(f) => f(),
            // why a game without clock: nothing reports the games, so the
            // drain cannot tell when they are over and waits the most.
            None => vec![InProgress::now([None, None])],
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `--drain SECONDS`: seconds, 0 allowed (the games in progress are
/// aborted at the first signal). Longer than [`MAX_DRAIN`] is allowed: the
/// cap is the default's only.
pub fn drain_arg(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(0.0) => Ok(0.0),
        _ => crate::values::seconds_arg(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_are_over_by_their_last_move_and_both_clocks() {
        let now = Instant::now();
        let cap = now + MAX_DRAIN;
        let at = |secs: u64, clocks| InProgress {
            since: now + Duration::from_secs(secs),
            clocks,
        };
        assert_eq!(over_by(&[], now, cap), now);
        assert_eq!(
            over_by(
                &[
                    at(0, [Some(1_000), Some(2_000)]),
                    at(4, [Some(500), Some(500)])
                ],
                now,
                cap
            ),
            now + Duration::from_secs(5) + DRAIN_MARGIN
        );
        assert_eq!(over_by(&[at(0, [Some(1_000), None])], now, cap), cap);
        assert_eq!(over_by(&[at(0, [Some(u64::MAX), Some(1)])], now, cap), cap);
    }

    #[tokio::test]
    async fn two_shutdowns_stop_apart() {
        let (one, watched) = Shutdown::new();
        let (_two, other) = Shutdown::new();
        let never = Shutdown::default();
        assert!(watched.is_running() && other.is_running());
        one.drain();
        watched.draining().await;
        assert_eq!(watched.phase(), Phase::Draining);
        assert!(!watched.stopping_now());
        one.drain();
        assert_eq!(
            watched.phase(),
            Phase::Draining,
            "a drain again moves nothing"
        );
        one.now();
        watched.now().await;
        assert!(one.shutdown().stopping_now());
        assert_eq!(other.phase(), Phase::Running);
        assert_eq!(never.phase(), Phase::Running);
        let waited = tokio::time::timeout(Duration::from_millis(50), other.draining()).await;
        assert!(waited.is_err(), "the other shutdown is still running");
    }

    #[test]
    fn the_games_in_progress_are_the_reported_ones() {
        let (trigger, shutdown) = Shutdown::new();
        assert_eq!(trigger.games_in_progress()[0].clocks, [None, None]);
        shutdown.report_games_with(Vec::new);
        assert!(trigger.games_in_progress().is_empty());
    }

    #[test]
    fn a_drain_argument_is_seconds_or_zero() {
        assert_eq!(drain_arg("0"), Ok(0.0));
        assert_eq!(drain_arg("2.5"), Ok(2.5));
        assert!(drain_arg("-1").is_err());
        assert!(drain_arg("soon").is_err());
    }
}
