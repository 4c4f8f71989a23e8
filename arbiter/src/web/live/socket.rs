//! One live page's WebSocket: the snapshot first, then each message of the
//! hub as it comes. The page only listens (what it sends is never read).
//!
//! Two tasks per page, so that nothing waits on a slow browser: the
//! forwarder takes each message off the hub's broadcast and hands it to the
//! writer through a queue of [`QUEUED`] messages without waiting; the
//! writer sends them. A page is dropped (its socket closed) when that
//! queue is full, when it fell behind the broadcast itself
//! (`RecvError::Lagged`), or when one message takes over [`SEND_TIMEOUT`]
//! to go out. The event never waits for a page.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc::{self, error::TrySendError};

use crate::web::live::hub::{LiveHub, Snapshot};
use crate::web::state::AppState;

/// The longest one message may take to go out before the page is dropped.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Messages waiting for a page's socket before the page is dropped.
pub const QUEUED: usize = 256;
/// Largest message accepted from a page (it has nothing to say).
const MAX_INCOMING: usize = 4096;

/// `GET /ws/live`.
pub async fn socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let Some(hub) = state.live.clone() else {
        return super::no_event();
    };
    ws.max_message_size(MAX_INCOMING)
        .on_upgrade(move |socket| feed(socket, hub))
        .into_response()
}

/// The first message: the snapshot, tagged like the others.
#[derive(Serialize)]
struct First<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    snapshot: &'a Snapshot,
}

fn snapshot_text(snapshot: &Snapshot) -> String {
    // why `unwrap_or_default`: plain structs with string keys and no
    // non-finite floats cannot fail to serialise.
    serde_json::to_string(&First {
        kind: "snapshot",
        snapshot,
    })
    .unwrap_or_default()
}

/// Sends what the forwarder queues; ends when the queue closes, the page
/// leaves, or a message does not go out in time.
async fn write(mut socket: WebSocket, mut queue: mpsc::Receiver<String>) {
    while let Some(text) = queue.recv().await {
        match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return,
            Err(_) => {
                tracing::warn!(
                    "live page dropped: a message took over {}s to go out",
                    SEND_TIMEOUT.as_secs()
                );
                return;
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), socket.send(Message::Close(None))).await;
}

async fn feed(socket: WebSocket, hub: LiveHub) {
    let (snapshot, mut rx) = hub.subscribe();
    let (queue, pending) = mpsc::channel(QUEUED);
    let writer = tokio::spawn(write(socket, pending));
    if queue.try_send(snapshot_text(&snapshot)).is_err() {
        writer.abort();
        return;
    }
    drop(snapshot);
    loop {
        let text = match rx.recv().await {
            Ok(m) => serde_json::to_string(&m).unwrap_or_default(),
            Err(RecvError::Lagged(n)) => {
                tracing::warn!("live page dropped: it fell {n} messages behind the event");
                break;
            }
            // The hub is gone: the event is over; the writer sends what is queued.
            Err(RecvError::Closed) => return,
        };
        match queue.try_send(text) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                tracing::warn!(
                    "live page dropped: {QUEUED} messages waiting for its socket (not reading)"
                );
                break;
            }
            // The writer ended: the page left, or was dropped as stuck.
            Err(TrySendError::Closed(_)) => return,
        }
    }
    // why abort: the writer may be blocked on the stuck socket; aborting
    // drops the socket, which closes the connection.
    writer.abort();
}
