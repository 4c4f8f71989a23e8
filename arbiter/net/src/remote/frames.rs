//! What every bot's WebSocket shares, `/umi` and KGP's `/kgp` alike: the
//! frame limit, the close frames and how they are sent, and the flood
//! bucket. A leaf: the endpoint, the sockets and KGP use it, it uses none.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use tokio::time::Instant;

use crate::remote::limits::Limits;

/// `ws` with the endpoint's limits on what one frame may be: for `/umi`
/// and for KGP's `/kgp` alike.
pub(crate) fn configure(ws: WebSocketUpgrade, limits: &Limits) -> WebSocketUpgrade {
    // why a margin over the line limit: a frame a little too long is a
    // protocol fault of the game (reported like a process's overlong line);
    // one far beyond it is not read at all.
    crate::front::websocket::upgrade(ws, limits.max_frame)
}

/// How long a closing connection reads on for the peer's close frame.
pub const CLOSE_LINGER: Duration = Duration::from_secs(2);

/// Sends `frame` (a close frame), then reads and drops what the peer still
/// sends until its own close frame, its end, or [`CLOSE_LINGER`]. why: a
/// socket closed with unread bytes in its receive buffer (a flooder's
/// backlog) is answered by the kernel with a reset, and the peer then loses
/// the close frame and the reason it carries.
pub(crate) async fn send_close(socket: &mut WebSocket, frame: Message, write_timeout: Duration) {
    if !matches!(
        tokio::time::timeout(write_timeout, socket.send(frame)).await,
        Ok(Ok(()))
    ) {
        return;
    }
    let _ = tokio::time::timeout(CLOSE_LINGER, async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// The close frame of a `/umi` connection dropped for `reason` (1008:
/// policy violation, the reason says which).
pub(crate) fn umi_close(reason: &str) -> Message {
    close_frame(1008, reason)
}

/// A close frame with `code` and `reason`, clipped to fit (also KGP's over a
/// WebSocket, [`crate::remote::kgp::conn`]).
pub(crate) fn close_frame(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: clipped(reason).into(),
    }))
}

/// A close reason clipped to fit a close frame (at most 123 bytes): its
/// first 100 characters, but a clipped reason that ends `; retry in N s`
/// keeps that end (protocol-spec 16.2: the client waits N seconds).
pub(crate) fn clipped(reason: &str) -> String {
    const MOST: usize = 100;
    let fit = |text: &str, chars: usize| {
        let mut text: String = text.chars().take(chars).collect();
        while text.len() > 120 {
            text.pop();
        }
        text
    };
    if reason.chars().count() <= MOST && reason.len() <= 120 {
        return reason.to_owned();
    }
    match reason.rsplit_once("; retry in ") {
        Some((head, secs)) if secs.len() < 24 => {
            let tail = format!("…; retry in {secs}");
            let text = fit(head, MOST - tail.chars().count());
            if text.len() + tail.len() <= 120 {
                return text + &tail;
            }
            fit(reason, MOST)
        }
        _ => fit(reason, MOST),
    }
}

/// A token bucket: `rate` lines a second, bursts of `burst` (also the KGP
/// listener's, [`crate::remote::kgp`]).
#[derive(Debug)]
pub(crate) struct Bucket {
    level: f64,
    at: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    pub(crate) fn new(rate: u32, burst: u32) -> Bucket {
        Bucket {
            level: f64::from(burst),
            at: Instant::now(),
            rate: f64::from(rate),
            burst: f64::from(burst),
        }
    }

    /// Adds `n` lines to the bucket (at most to its burst): the answers a
    /// line just sent to the bot asks for.
    pub(crate) fn credit(&mut self, n: u32) {
        self.level = (self.level + f64::from(n)).min(self.burst);
    }

    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.rate;
        self.level = (self.level + refill).min(self.burst);
        self.at = now;
        if self.level >= 1.0 {
            self.level -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Bucket;

    #[test]
    fn a_credit_refills_the_bucket_up_to_its_burst_only() {
        // why a rate of 1 a second: the test's own time adds next to nothing.
        let mut b = Bucket::new(1, 3);
        assert!((0..3).all(|_| b.take()));
        assert!(!b.take(), "empty");
        b.credit(2);
        assert!(b.take() && b.take());
        assert!(!b.take(), "two lines credited, two taken");
        b.credit(100);
        assert!((0..3).all(|_| b.take()));
        assert!(!b.take(), "a credit never goes over the burst");
    }
}
