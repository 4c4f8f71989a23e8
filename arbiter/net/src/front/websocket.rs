//! The WebSocket settings every socket of the arbiter shares, server side
//! (the board's play and analysis sockets, the live page, the remote
//! endpoint's `/umi`) and client side (the bridge, `arbiter connect`).

use axum::extract::ws::WebSocketUpgrade;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

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

/// A client's settings, the same as [`upgrade`]'s.
pub fn client_config(max_message: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message))
        .read_buffer_size(READ_BUFFER)
}
