//! One live page's WebSocket: the snapshot first, then each message of the
//! hub as it comes. The page only listens (what it sends is never read).
//!
//! Two tasks per page, so that nothing waits on a slow browser: the
//! forwarder takes each message off the hub's broadcast and hands it to the
//! writer through a queue of [`QUEUED`] messages without waiting; the
//! writer sends them. A page slower than the event (its queue full, or
//! fallen behind the broadcast itself) skips ahead: the messages it missed
//! are replaced by a fresh snapshot once its writer has room. A page whose
//! messages take over [`SEND_TIMEOUT`] to go out (it stopped reading) is
//! dropped: its socket closed. The event never waits for a page. Messages
//! come serialised once for all pages, and the writer sends what has
//! queued up with one flush.

use std::time::Duration;

use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::SinkExt as _;
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc::{self, error::TrySendError};

use crate::live::hub::LiveState;
use crate::live::hub::{LiveHub, Snapshot};
use arbiter_net::front::websocket::serve_in_span;

/// A message as JSON text, shared by every page.
type Text = Arc<str>;

use crate::socket::SEND_TIMEOUT;
/// Messages waiting for a page's socket before the page skips ahead.
pub const QUEUED: usize = 256;
/// Largest message accepted from a page (it has nothing to say).
const MAX_INCOMING: usize = 4096;

/// What every live route answers on a server without a live event. why
/// here: the live routes ([`crate::live`]) use this socket, so the socket
/// may not use them.
pub(crate) fn no_event() -> Response {
    (StatusCode::NOT_FOUND, "no live event on this server").into_response()
}

/// `GET /ws/live`.
pub async fn socket(ws: WebSocketUpgrade, State(LiveState(live)): State<LiveState>) -> Response {
    let Some(hub) = live else {
        return no_event();
    };
    let ws = arbiter_net::front::websocket::upgrade(ws, MAX_INCOMING);
    serve_in_span(ws, move |socket| feed(socket, hub))
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

/// The `ended` message of an event over with `message`, as the hub sends it.
fn ended_text(message: &str) -> Text {
    let ended = crate::live::hub::LiveMsg::Ended {
        message: message.to_owned(),
    };
    Text::from(serde_json::to_string(&ended).unwrap_or_default())
}

/// The snapshot's text, and for an event that is over the `ended` message
/// after it: a page (or a script) that skipped ahead to the end hears of it
/// as one that read every message does.
fn snapshot_texts(snapshot: &Snapshot) -> Vec<Text> {
    let mut texts = vec![Text::from(snapshot_text(snapshot))];
    texts.extend(snapshot.ended.as_deref().map(ended_text));
    texts
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

/// Whether a message is the last one of an event.
fn is_end(text: &str) -> bool {
    text.starts_with(r#"{"type":"ended""#)
}

async fn feed(socket: WebSocket, hub: LiveHub) {
    let (queue, pending) = mpsc::channel(QUEUED);
    let guard = hub.page_writer();
    let writer = tokio::spawn(async move {
        let _guard = guard;
        write(socket, pending).await;
    });
    let (snapshot, mut rx) = hub.subscribe();
    for text in snapshot_texts(&snapshot) {
        if queue.try_send(text).is_err() {
            writer.abort();
            return;
        }
    }
    let mut over = snapshot.ended.is_some();
    drop(snapshot);
    // After the end the queue is closed: the writer sends what is in it and
    // a close frame, then finishes (the arbiter waits for that, bounded).
    while !over {
        let behind = match rx.recv().await {
            Ok(text) => {
                over = is_end(&text);
                match queue.try_send(text) {
                    Ok(()) => false,
                    Err(TrySendError::Full(_)) => true,
                    // The writer ended: the page left, or was dropped as stuck.
                    Err(TrySendError::Closed(_)) => return,
                }
            }
            Err(RecvError::Lagged(_)) => true,
            // The hub is gone: the writer sends what is queued.
            Err(RecvError::Closed) => return,
        };
        if behind {
            // A page slower than the event (a fast event, a slow browser)
            // skips ahead instead of being dropped: once its writer has
            // room again, it gets the state as it is now. A page that does
            // not read at all is dropped by its writer's timeout, which
            // closes the queue and ends this wait.
            drop(rx);
            let Ok(permits) = queue.reserve_many(2).await else {
                return;
            };
            let (snapshot, fresh) = hub.subscribe();
            for (permit, text) in permits.zip(snapshot_texts(&snapshot)) {
                permit.send(text);
            }
            over = snapshot.ended.is_some();
            rx = fresh;
            tracing::debug!("a live page fell behind; sent it the current snapshot");
        }
    }
}
