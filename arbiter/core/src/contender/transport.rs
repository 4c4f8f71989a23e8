//! The transport room: the pipe a [`crate::contender::session::Session`] speaks
//! UMI lines through. A local engine is a process (stdin/stdout); a remote
//! one is a connection, a [`Link`] (the network crate's WebSocket link
//! implements it). The session (handshake, options, clocks, verdicts) is
//! the same code for both: only reading and writing lines, and what "the
//! engine ended" means, differ.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::contender::process::{
    EngineProcess, Exit, ReadError, ShutdownReport, TrafficLog, WriteError,
};

/// A future a [`Link`] returns: boxed, so that links are objects (the core
/// does not know the network's types).
pub type LinkFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A remote engine's connection as a session's pipe: what the session needs
/// of it. why a trait: the games, clocks and verdicts live in the core,
/// which builds without the network; the network crate's link (WebSocket,
/// grace, replay, lag) implements this.
pub trait Link: Send + Sync {
    /// The connection's number (the traffic log's `engine(id)`).
    fn id(&self) -> u32;
    fn set_traffic_log(&mut self, log: Option<Arc<dyn TrafficLog>>);
    fn send_lines<'a>(&'a mut self, lines: &'a [&'a str])
        -> LinkFuture<'a, Result<(), WriteError>>;
    fn read_line_until(&mut self, deadline: Instant) -> LinkFuture<'_, Result<String, ReadError>>;
    fn read_line_if_ready(&mut self) -> LinkFuture<'_, Result<Option<String>, ReadError>>;
    /// When the last line was written or read.
    fn last_line_at(&self) -> std::time::Instant;
    /// The lag compensation for a move that took `elapsed`.
    fn lag_charge(&mut self, elapsed: Duration) -> LagCharge;
    /// `quit`, then the connection is closed.
    fn shutdown(self: Box<Self>, grace: Duration) -> LinkFuture<'static, ShutdownReport>;
    /// Ends the connection now.
    fn close(&mut self, why: &str);
    /// Whether the connection is open, after reading what has arrived.
    fn poll_open(&mut self) -> bool;
    /// Why the connection ended, if it did.
    fn drop_reason(&self) -> Option<String>;
}

/// What the network cost one move of a remote engine, and what of it the
/// clock gave back ([`crate::play::lag`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LagCharge {
    /// The connection's measured round trip when the move arrived.
    pub lag: Duration,
    /// The part of `lag` not charged to the engine's clock.
    pub compensation: Duration,
}

/// One engine's line pipe.
// why not boxed: a session keeps its one transport for its life (never
// moved in a hot path); a box would add an indirection to every line read.
#[allow(clippy::large_enum_variant)]
pub enum Transport {
    Process(EngineProcess),
    Remote(Box<dyn Link>),
}

impl Transport {
    /// The process id, or for a remote engine its connection's number (the
    /// traffic log's `engine(id)`).
    pub fn pid(&self) -> u32 {
        match self {
            Transport::Process(p) => p.pid(),
            Transport::Remote(r) => r.id(),
        }
    }

    pub fn set_traffic_log(&mut self, log: Option<Arc<dyn TrafficLog>>) {
        match self {
            Transport::Process(p) => p.set_traffic_log(log),
            Transport::Remote(r) => r.set_traffic_log(log),
        }
    }

    pub async fn send_lines(&mut self, lines: &[&str]) -> Result<(), WriteError> {
        match self {
            Transport::Process(p) => p.send_lines(lines).await,
            Transport::Remote(r) => r.send_lines(lines).await,
        }
    }

    pub async fn read_line_until(&mut self, deadline: Instant) -> Result<String, ReadError> {
        match self {
            Transport::Process(p) => p.read_line_until(deadline).await,
            Transport::Remote(r) => r.read_line_until(deadline).await,
        }
    }

    pub async fn read_line_if_ready(&mut self) -> Result<Option<String>, ReadError> {
        match self {
            Transport::Process(p) => p.read_line_if_ready().await,
            Transport::Remote(r) => r.read_line_if_ready().await,
        }
    }

    /// When the last line was written or read (what the clocks measure).
    pub fn last_line_at(&self) -> std::time::Instant {
        match self {
            Transport::Process(p) => p.last_line_at(),
            Transport::Remote(r) => r.last_line_at(),
        }
    }

    /// The lag compensation for a move that took `elapsed` (none for a
    /// process: a pipe has no network to make up for).
    pub fn lag_charge(&mut self, elapsed: Duration) -> Option<LagCharge> {
        match self {
            Transport::Process(_) => None,
            Transport::Remote(r) => Some(r.lag_charge(elapsed)),
        }
    }

    /// `quit`, then the end: a process is killed after `grace` and reaped;
    /// a connection is closed.
    pub async fn shutdown(self, grace: Duration) -> ShutdownReport {
        match self {
            Transport::Process(p) => p.shutdown(grace).await,
            Transport::Remote(r) => r.shutdown(grace).await,
        }
    }

    /// Keeps `slot` (of a server's engine cap) until the engine is ended.
    /// A connection is no process of this machine: its slot is given back
    /// at once (the cap bounds processes; connections have their own limits).
    pub fn hold(&mut self, slot: crate::contender::cap::EngineSlot) {
        match self {
            Transport::Process(p) => p.hold(slot),
            Transport::Remote(_) => drop(slot),
        }
    }

    pub fn kill(&mut self) {
        match self {
            Transport::Process(p) => p.kill(),
            Transport::Remote(r) => r.close("killed by the arbiter"),
        }
    }

    pub fn is_alive(&mut self) -> bool {
        match self {
            Transport::Process(p) => p.try_exit().is_none(),
            Transport::Remote(r) => r.poll_open(),
        }
    }

    /// After end of output: the process's exit, waited for until
    /// `deadline` (`None` for a connection, see [`Transport::drop_reason`]).
    pub async fn wait_exit_until(&mut self, deadline: Instant) -> Option<Exit> {
        match self {
            Transport::Process(p) => p.wait_exit_until(deadline).await,
            Transport::Remote(_) => None,
        }
    }

    /// Why a remote engine's connection ended, if it did.
    pub fn drop_reason(&self) -> Option<String> {
        match self {
            Transport::Process(_) => None,
            Transport::Remote(r) => r.drop_reason(),
        }
    }
}
