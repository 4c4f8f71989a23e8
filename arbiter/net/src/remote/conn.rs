//! One connection's shared state: whether it is open and why it ended,
//! its round trip, what it delivers, and its count among the bot's open
//! connections. A leaf: the registry, the sockets, the links and KGP share
//! these types.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a connection delivers to the arbiter.
#[derive(Debug)]
pub enum Inbound {
    /// One UMI line (a text frame).
    Line(String),
    /// A text frame over the protocol's line limit, not kept.
    TooLong { bytes: usize },
}

/// What one connection's reader (its keeper, or the link that holds it;
/// for KGP its relay task) and its link share.
#[derive(Debug, Default)]
pub struct ConnState {
    open: AtomicBool,
    reason: Mutex<Option<String>>,
    /// Smoothed round trip, microseconds (0: none measured yet).
    rtt_us: AtomicU32,
    /// Set when the connection's task is done with the socket (its close
    /// frame or KGP's `goodbye` sent), and who waits for that.
    finished: AtomicBool,
    finish: tokio::sync::Notify,
    /// The connection that took this one's place in its game after it
    /// dropped (the engine back within the grace), if any.
    successor: Mutex<Option<Arc<ConnState>>>,
}

impl ConnState {
    pub fn new() -> ConnState {
        ConnState {
            open: AtomicBool::new(true),
            ..ConnState::default()
        }
    }

    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::SeqCst)
    }

    /// Marks the connection ended for `reason` (the first reason stays).
    pub fn close(&self, reason: &str) {
        let mut r = self.reason.lock().unwrap_or_else(|p| p.into_inner());
        if r.is_none() {
            *r = Some(reason.to_owned());
        }
        self.open.store(false, Ordering::SeqCst);
    }

    pub fn reason(&self) -> Option<String> {
        self.reason
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Notes that `next` took this (dropped) connection's place in its game.
    pub fn succeeded_by(&self, next: &Arc<ConnState>) {
        *self.successor.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::clone(next));
    }

    /// The connection that stands for this one now: its newest successor,
    /// or itself.
    pub fn latest(self: &Arc<Self>) -> Arc<ConnState> {
        let mut now = Arc::clone(self);
        loop {
            let next = now
                .successor
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone();
            match next {
                Some(next) => now = next,
                None => return now,
            }
        }
    }

    /// Whether this connection, or the one that took its place, is open.
    pub fn is_live(self: &Arc<Self>) -> bool {
        self.latest().is_open()
    }

    /// Says the connection's task is done with the socket.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.finish.notify_waiters();
    }

    /// Waits until the connection's task is done with the socket (so that
    /// an arbiter about to exit does not cut its last words off).
    pub async fn finished(&self) {
        let notified = self.finish.notified();
        tokio::pin!(notified);
        // why enabled before the look: a `finish` in between is not missed.
        notified.as_mut().enable();
        if self.finished.load(Ordering::SeqCst) {
            return;
        }
        notified.await;
    }

    /// Folds one ping's round trip into the smoothed one (weight 1/4, as
    /// TCP's SRTT does with 1/8: quick to follow, calm on one outlier).
    pub fn record_rtt(&self, rtt: Duration) {
        let sample = u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX);
        let old = self.rtt_us.load(Ordering::Relaxed);
        let new = if old == 0 {
            sample
        } else {
            ((u64::from(old) * 3 + u64::from(sample)) / 4) as u32
        };
        self.rtt_us.store(new.max(1), Ordering::Relaxed);
    }

    /// The smoothed round trip, if one was measured.
    pub fn rtt(&self) -> Option<Duration> {
        match self.rtt_us.load(Ordering::Relaxed) {
            0 => None,
            us => Some(Duration::from_micros(u64::from(us))),
        }
    }
}

/// The open connections of one remote id, counted by their [`Admission`]s.
/// why shared rather than a field under the registry's lock: a socket
/// drops its admission wherever it ends, and needs nothing of the
/// registry to do so.
#[derive(Debug, Default)]
pub struct OpenCount(Arc<AtomicUsize>);

impl OpenCount {
    /// Connections open now.
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// One more open connection, counted until its admission is dropped.
    pub fn admit(&self) -> Admission {
        self.0.fetch_add(1, Ordering::SeqCst);
        Admission(Arc::clone(&self.0))
    }
}

/// Counts a connection as open until dropped (its socket holds it).
#[derive(Debug)]
pub struct Admission(Arc<AtomicUsize>);

impl Drop for Admission {
    fn drop(&mut self) {
        // why saturating: never below zero, whatever the order of drops.
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }
}
