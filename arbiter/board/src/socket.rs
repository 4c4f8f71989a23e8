//! What the play and analysis sockets both do while an engine starts (their
//! settings are every socket's, [`arbiter_net::front::websocket`]).

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};

/// The longest one message to a page may take to go out before the page is
/// taken for gone (it stopped reading but kept its connection): a live page
/// is dropped, a play page's game ends and its engines with it.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends `text` to a page. `false`: the socket is gone, or the page stopped
/// reading (the message did not go out within [`SEND_TIMEOUT`]); the caller
/// then ends what the page had, as for a closed tab.
pub async fn send_text(socket: &mut WebSocket, text: String) -> bool {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
        Ok(sent) => sent.is_ok(),
        Err(_) => {
            tracing::info!("a page stopped reading; its socket is closed");
            false
        }
    }
}

/// What a page's messages get while [`while_open`] runs something.
pub enum Meanwhile<'a> {
    /// An error saying this (the play page: "still starting").
    Refuse(&'a str),
    /// Kept, in order, for the caller to handle next (the analysis page:
    /// the board moved on while the last search stopped); at most
    /// [`KEPT_AT_MOST`], the rest are refused with this text.
    Keep(&'a mut std::collections::VecDeque<String>, &'a str),
}

/// The most messages [`Meanwhile::Keep`] keeps.
pub const KEPT_AT_MOST: usize = 64;

/// Runs `work` (an engine's start, a search's stop) while watching the page:
/// its output, or `None` when the page closed its socket or stopped reading
/// meanwhile — `work` is then dropped at once, and with it every engine
/// process it started or held (a closed tab ends its engines whatever they
/// are doing). A message the page sends meanwhile is kept or refused
/// ([`Meanwhile`]); a refusal goes out within [`SEND_TIMEOUT`] like every
/// message.
pub async fn while_open<T>(
    socket: &mut WebSocket,
    work: impl std::future::Future<Output = T>,
    mut meanwhile: Meanwhile<'_>,
) -> Option<T> {
    tokio::pin!(work);
    loop {
        tokio::select! {
            done = &mut work => return Some(done),
            msg = socket.recv() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                Some(Ok(Message::Text(text))) => {
                    let busy = match &mut meanwhile {
                        Meanwhile::Keep(kept, _) if kept.len() < KEPT_AT_MOST => {
                            kept.push_back(text.to_string());
                            continue;
                        }
                        Meanwhile::Keep(_, busy) | Meanwhile::Refuse(busy) => *busy,
                    };
                    let reply = serde_json::json!({"type": "error", "message": busy});
                    if !send_text(socket, reply.to_string()).await {
                        return None;
                    }
                }
                Some(Ok(_)) => {}
            },
        }
    }
}
