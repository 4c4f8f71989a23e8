//! Shared between the protocol thread and the search thread: when to stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Stop flag and deadlines of one search. The protocol thread sets `stop` and
/// starts the clock on `ponderhit`; the search polls it.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    /// While set, deadlines do not apply (pondering, `go infinite`).
    unlimited: AtomicBool,
    /// Set just before the search sends its `bestmove`.
    answered: AtomicBool,
    deadlines: Mutex<Deadlines>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Deadlines {
    /// Do not start another iteration after this.
    soft: Option<Instant>,
    /// Abandon the search at this instant.
    hard: Option<Instant>,
    /// The exact solver gives up at this instant (three quarters of the soft
    /// budget: the rest is the fallback search's).
    solve: Option<Instant>,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    pub fn set_answered(&self) {
        self.answered.store(true, Ordering::Release);
    }

    /// The search has sent (or is sending) its `bestmove`: only its thread's
    /// return is left.
    pub fn has_answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    pub fn set_unlimited(&self, unlimited: bool) {
        self.unlimited.store(unlimited, Ordering::Release);
    }

    pub fn is_unlimited(&self) -> bool {
        self.unlimited.load(Ordering::Acquire)
    }

    /// Sets the time budget counted from `from`.
    pub fn set_budget(&self, from: Instant, soft: Duration, hard: Duration) {
        if let Ok(mut d) = self.deadlines.lock() {
            d.soft = Some(from + soft);
            d.hard = Some(from + hard);
            d.solve = Some(from + soft * 3 / 4);
        }
    }

    fn deadlines(&self) -> Deadlines {
        self.deadlines.lock().map(|d| *d).unwrap_or_default()
    }

    /// The search must end now (stop, or the hard deadline passed).
    pub fn must_stop(&self, now: Instant) -> bool {
        self.is_stopped()
            || (!self.is_unlimited() && self.deadlines().hard.is_some_and(|h| now >= h))
    }

    /// The exact solver must give up (stop, or its share of the budget is
    /// gone); while unlimited (pondering, `go infinite`) only `stop` ends it.
    pub fn solver_must_stop(&self, now: Instant) -> bool {
        self.is_stopped()
            || (!self.is_unlimited() && self.deadlines().solve.is_some_and(|s| now >= s))
    }

    /// No new iteration should start.
    pub fn should_not_deepen(&self, now: Instant) -> bool {
        self.is_stopped()
            || (!self.is_unlimited() && self.deadlines().soft.is_some_and(|s| now >= s))
    }
}
