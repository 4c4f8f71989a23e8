//! One live page's WebSocket: the snapshot first, then each message of the
//! hub as it comes. The page only listens (anything it sends is ignored). A
//! page that falls [`super::hub::CHANNEL_CAPACITY`] messages behind, or
//! whose socket does not take a message within [`SEND_TIMEOUT`], is dropped
//! (closed with a reason): the event never waits for a browser.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;

use crate::web::live::hub::{LiveHub, Snapshot};
use crate::web::state::AppState;

/// The longest one message may take to go out before the page is dropped.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
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

/// Why a page was let go.
enum Drop {
    Left,
    Lagged(u64),
    Stuck,
    Closed,
}

async fn send_text(socket: &mut WebSocket, text: String) -> Result<(), Drop> {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(Drop::Left),
        Err(_) => Err(Drop::Stuck),
    }
}

async fn feed(mut socket: WebSocket, hub: LiveHub) {
    let (snapshot, mut rx) = hub.subscribe();
    let outcome = async {
        let first = serde_json::to_string(&First {
            kind: "snapshot",
            snapshot: &snapshot,
        })
        .map_err(|_| Drop::Closed)?;
        send_text(&mut socket, first).await?;
        drop(snapshot);
        loop {
            tokio::select! {
                msg = rx.recv() => match msg {
                    Ok(m) => {
                        // why: plain structs with string keys; cannot fail.
                        let text = serde_json::to_string(&m).map_err(|_| Drop::Closed)?;
                        send_text(&mut socket, text).await?;
                    }
                    Err(RecvError::Lagged(n)) => return Err(Drop::Lagged(n)),
                    Err(RecvError::Closed) => return Err(Drop::Closed),
                },
                incoming = socket.recv() => match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Err(Drop::Left),
                    Some(Ok(_)) => {}
                },
            }
        }
    }
    .await;
    let reason = match outcome {
        Ok(()) | Err(Drop::Left) | Err(Drop::Closed) => return,
        Err(Drop::Lagged(n)) => {
            tracing::warn!("live page dropped: it fell {n} messages behind");
            "too slow: fell behind the event; reload the page"
        }
        Err(Drop::Stuck) => {
            tracing::warn!(
                "live page dropped: a message took over {}s to go out",
                SEND_TIMEOUT.as_secs()
            );
            "too slow: not reading; reload the page"
        }
    };
    // A courtesy: a page that lagged may still read its close frame.
    let close = Message::Close(Some(CloseFrame {
        code: axum::extract::ws::close_code::POLICY,
        reason: Utf8Bytes::from_static(reason),
    }));
    let _ = tokio::time::timeout(Duration::from_secs(1), socket.send(close)).await;
}
