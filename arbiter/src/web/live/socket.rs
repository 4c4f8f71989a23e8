//! One live page's WebSocket: the snapshot first, then each message of the
//! hub as it comes. The page only listens (what it sends is never read).
//!
//! Two tasks per page, so that nothing waits on a slow browser: the
//! forwarder takes each message off the hub's broadcast and hands it to the
//! writer through a queue of [`QUEUED`] messages without waiting; the
//! writer sends them. A page is dropped (its socket closed) when that
//! queue is full, when it fell behind the broadcast itself
//! (`RecvError::Lagged`), or when its messages take over [`SEND_TIMEOUT`]
//! to go out. The event never waits for a page. Messages come serialised
//! once for all pages, and the writer sends what has queued up with one
//! flush.

use std::time::Duration;

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt as _;
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc::{self, error::TrySendError};

use crate::web::live::hub::{LiveHub, Snapshot};
use crate::web::state::AppState;

/// A message as JSON text, shared by every page.
type Text = Arc<str>;

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

/// Messages written before one flush, when they queue up.
const BATCH: usize = 64;

/// Writes the messages waiting now (at most [`BATCH`], at least `first`)
/// and flushes them together: one system call for many small messages.
async fn write_batch(
    socket: &mut WebSocket,
    first: Text,
    queue: &mut mpsc::Receiver<Text>,
) -> Result<(), axum::Error> {
    socket.feed(message(first)).await?;
    for _ in 1..BATCH {
        match queue.try_recv() {
            Ok(text) => socket.feed(message(text)).await?,
            Err(_) => break,
        }
    }
    socket.flush().await
}

fn message(text: Text) -> Message {
    Message::Text(Utf8Bytes::from(text.as_ref()))
}

/// Sends what the forwarder queues; ends when the queue closes, the page
/// leaves, or a batch does not go out in time.
async fn write(mut socket: WebSocket, mut queue: mpsc::Receiver<Text>) {
    while let Some(first) = queue.recv().await {
        match tokio::time::timeout(SEND_TIMEOUT, write_batch(&mut socket, first, &mut queue)).await
        {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return,
            Err(_) => {
                tracing::warn!(
                    "live page dropped: its messages took over {}s to go out",
                    SEND_TIMEOUT.as_secs()
                );
                return;
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), socket.send(Message::Close(None))).await;
}

async fn feed(socket: WebSocket, hub: LiveHub) {
    let (snapshot, mut rx) = hub.subscribe_text();
    let (queue, pending) = mpsc::channel(QUEUED);
    let writer = tokio::spawn(write(socket, pending));
    if queue
        .try_send(Text::from(snapshot_text(&snapshot)))
        .is_err()
    {
        writer.abort();
        return;
    }
    drop(snapshot);
    loop {
        let text = match rx.recv().await {
            Ok(text) => text,
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
