//! The WebSocket settings every socket of the arbiter shares, server side
//! (the board's play and analysis sockets, the live page, the remote
//! endpoint's `/umi`) and client side (the bridge, `arbiter connect`).

use std::future::Future;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::response::Response;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tracing::Instrument;

/// The read buffer of one socket. What goes through these sockets are short
/// messages (a page's JSON, one UMI line a frame); tungstenite's default
/// (128 KiB) costs a 128 KiB `memset` every time the socket is polled for a
/// message (it zero-fills its whole free buffer before each read): that was
/// 8% of `serve`'s CPU with 50 games at once, and a remote engine's socket
/// is read several times a ply. Longer messages still arrive (the buffer
/// grows for them); the message size limit bounds them.
pub const READ_BUFFER: usize = 4 * 1024;

/// An upgrade with the shared settings: at most `max_message` bytes a
/// message, and a frame no longer than that either.
pub fn upgrade(ws: WebSocketUpgrade, max_message: usize) -> WebSocketUpgrade {
    ws.max_message_size(max_message)
        .max_frame_size(max_message)
        .read_buffer_size(READ_BUFFER)
}

/// `ws.on_upgrade(serve)`, the socket served in the span of the request
/// that opened it: its connection's peer and its route. why: axum serves an
/// upgraded socket on a task of its own, whose log lines would otherwise
/// name neither.
pub fn serve_in_span<F, Fut>(ws: WebSocketUpgrade, serve: F) -> Response
where
    F: FnOnce(WebSocket) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let span = tracing::Span::current();
    ws.on_upgrade(move |socket| serve(socket).instrument(span))
}

/// A client's settings, the same as [`upgrade`]'s.
pub fn client_config(max_message: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message))
        .read_buffer_size(READ_BUFFER)
}
