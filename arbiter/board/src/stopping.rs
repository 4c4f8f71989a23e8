//! How `arbiter serve` drains at the first signal ([`arbiter_core::shutdown`]):
//! new play and analysis sockets are refused with [`STOPPING`], open pages
//! are told ([`notice`]) and close, analyses at once, a play page when its
//! game in progress has ended; the drain waits for every socket
//! ([`Sockets`]) until `--drain` runs out.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use tokio::sync::watch;

use crate::socket::send_text;

/// What a page hears when the server stops.
pub const STOPPING: &str =
    "server stopping: no new game or analysis; a game in progress may finish";

/// The `stopping` message an open page's status line shows.
pub fn notice() -> String {
    serde_json::json!({"type": "stopping", "message": STOPPING}).to_string()
}

/// A socket opened once the server is stopping: an error saying so, then
/// the close frame.
pub async fn refuse(mut socket: WebSocket) {
    let refusal = serde_json::json!({"type": "error", "message": STOPPING});
    if send_text(&mut socket, refusal.to_string()).await {
        let _ = socket.send(Message::Close(None)).await;
    }
}

/// How many play and analysis sockets are open (a drain waits for none).
#[derive(Clone)]
pub struct Sockets(Arc<watch::Sender<usize>>);

impl Default for Sockets {
    fn default() -> Self {
        Sockets(Arc::new(watch::channel(0).0))
    }
}

/// One open socket, counted while it is held.
pub struct Open(Arc<watch::Sender<usize>>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// How a drain ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Drained {
    /// Every socket closed.
    Finished,
    /// The deadline came with this many sockets still open (pages whose
    /// games went on).
    TimedOut(usize),
}

impl Sockets {
    /// Counts one more socket until the ticket is dropped.
    pub fn open(&self) -> Open {
        self.0.send_modify(|n| *n += 1);
        Open(self.0.clone())
    }

    /// The sockets open now.
    pub fn count(&self) -> usize {
        *self.0.borrow()
    }

    /// Waits until no socket is open, or `deadline` has passed.
    pub async fn drained(&self, deadline: Duration) -> Drained {
        let mut rx = self.0.subscribe();
        // why the bool: the watch's borrow must end inside the timeout.
        let none = async { rx.wait_for(|n| *n == 0).await.is_ok() };
        match tokio::time::timeout(deadline, none).await {
            Ok(_) => Drained::Finished,
            Err(_) => Drained::TimedOut(self.count()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_count_follows_the_tickets_and_the_drain_waits_for_none() {
        let sockets = Sockets::default();
        let one = sockets.open();
        let two = sockets.open();
        assert_eq!(sockets.count(), 2);
        drop(one);
        assert_eq!(
            sockets.drained(Duration::ZERO).await,
            Drained::TimedOut(1),
            "a socket is still open"
        );
        drop(two);
        assert_eq!(sockets.drained(Duration::ZERO).await, Drained::Finished);
    }
}
