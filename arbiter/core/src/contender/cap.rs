//! Caps on engine processes for servers: at most so many at once in all, and
//! at most so many for one connection (a page's socket). Each engine a
//! server starts holds an [`EngineSlot`] for as long as its process lives
//! ([`crate::contender::session::Session::hold`]): the slot is handed back when
//! the process is ended and reaped, however it ends. A start beyond a cap is
//! refused at once with a message that names the cap ([`CapReached`]); it
//! never waits for a slot (a page would not know why nothing happens).
//!
//! Counted with tokio's semaphores (permits that come back on drop), which
//! is what they are for.

use std::fmt;
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Engines a server runs at once by default (`--max-engines`).
pub const DEFAULT_MAX_ENGINES: usize = 32;
/// Engines one connection runs at once by default (`--max-engines-per-page`):
/// a game of two engines.
pub const DEFAULT_MAX_ENGINES_PER_CONNECTION: usize = 2;

/// A server's engine cap, shared by all its connections; cheap to clone.
#[derive(Clone, Debug)]
pub struct EngineCap {
    all: Arc<Semaphore>,
    max: usize,
    per_connection: usize,
}

impl Default for EngineCap {
    fn default() -> EngineCap {
        EngineCap::new(DEFAULT_MAX_ENGINES, DEFAULT_MAX_ENGINES_PER_CONNECTION)
    }
}

impl EngineCap {
    /// At most `max` engines in all, `per_connection` for one connection
    /// (each at least 1: a cap of 0 would be a server that cannot play).
    pub fn new(max: usize, per_connection: usize) -> EngineCap {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        EngineCap {
            all: Arc::new(Semaphore::new(max)),
            max,
            per_connection: per_connection.clamp(1, max),
        }
    }

    /// The cap of one new connection.
    pub fn for_connection(&self) -> ConnectionEngines {
        ConnectionEngines {
            all: self.all.clone(),
            max: self.max,
            own: Arc::new(Semaphore::new(self.per_connection)),
            per_connection: self.per_connection,
        }
    }

    /// Engines running now under this cap.
    pub fn running(&self) -> usize {
        self.max - self.all.available_permits()
    }
}

/// One connection's share of a server's [`EngineCap`].
#[derive(Debug)]
pub struct ConnectionEngines {
    all: Arc<Semaphore>,
    max: usize,
    own: Arc<Semaphore>,
    per_connection: usize,
}

impl ConnectionEngines {
    /// A slot for one more engine, or why there is none.
    pub fn take(&self) -> Result<EngineSlot, CapReached> {
        let own = self
            .own
            .clone()
            .try_acquire_owned()
            .map_err(|_| CapReached::Connection {
                max: self.per_connection,
            })?;
        let all = self
            .all
            .clone()
            .try_acquire_owned()
            .map_err(|_| CapReached::Server { max: self.max })?;
        Ok(EngineSlot {
            _own: own,
            _all: all,
        })
    }
}

/// The right of one engine process to run; handed back when dropped.
#[derive(Debug)]
pub struct EngineSlot {
    _own: OwnedSemaphorePermit,
    _all: OwnedSemaphorePermit,
}

/// Why an engine was not started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapReached {
    /// The server runs its most engines.
    Server { max: usize },
    /// This connection runs its most engines.
    Connection { max: usize },
}

impl fmt::Display for CapReached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapReached::Server { max } => write!(
                f,
                "the server runs its most engines at once ({max}, --max-engines): \
                 try again when a game or an analysis ends"
            ),
            CapReached::Connection { max } => write!(
                f,
                "this page runs its most engines at once ({max}, --max-engines-per-page)"
            ),
        }
    }
}

impl std::error::Error for CapReached {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_come_back_when_dropped_and_each_cap_is_named() {
        let cap = EngineCap::new(3, 2);
        let a = cap.for_connection();
        let b = cap.for_connection();
        let a1 = a.take().expect("first");
        let _a2 = a.take().expect("second");
        assert_eq!(a.take().unwrap_err(), CapReached::Connection { max: 2 });
        let _b1 = b.take().expect("third in all");
        assert_eq!(b.take().unwrap_err(), CapReached::Server { max: 3 });
        assert_eq!(cap.running(), 3);
        drop(a1);
        assert_eq!(cap.running(), 2);
        let _b2 = b.take().expect("a slot came back");
        assert!(CapReached::Server { max: 3 }
            .to_string()
            .contains("--max-engines"));
    }

    #[test]
    fn a_refused_server_slot_hands_back_the_connection_slot() {
        let cap = EngineCap::new(1, 2);
        let a = cap.for_connection();
        let b = cap.for_connection();
        let _held = a.take().expect("the one slot");
        assert_eq!(b.take().unwrap_err(), CapReached::Server { max: 1 });
        // `b` still has both of its own slots: the failed take kept none.
        drop(_held);
        let _b1 = b.take().expect("b's first");
    }

    #[test]
    fn caps_of_zero_mean_one() {
        let cap = EngineCap::new(0, 0);
        let c = cap.for_connection();
        let _one = c.take().expect("one engine");
        assert!(c.take().is_err());
    }
}
