//! The WebSocket settings the play and analysis sockets share.

use std::time::Duration;

use axum::extract::ws::WebSocketUpgrade;

/// The longest one message to a page may take to go out before the page is
/// taken for gone (it stopped reading but kept its connection): a live page
/// is dropped, a play page's game ends and its engines with it.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// The read buffer of one socket. The pages send short JSON messages; the
/// default (128 KiB) costs a 128 KiB `memset` every time the socket is polled
/// for a message (tungstenite zero-fills its whole free buffer before each
/// read), which a game's socket is once per move: that was 8% of the
/// server's CPU with 50 games at once. Longer messages still arrive (the
/// buffer grows for them); `max_message` bounds them.
const READ_BUFFER: usize = 4 * 1024;

/// `ws` with the server's limits: at most `max_message` bytes a message.
pub fn configure(ws: WebSocketUpgrade, max_message: usize) -> WebSocketUpgrade {
    ws.max_message_size(max_message)
        .read_buffer_size(READ_BUFFER)
}
