//! What one connection to the endpoint may do: its frames, lines and pings.

use std::time::Duration;

/// The endpoint's limits on what one connection may do.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection without a token in its upgrade request has to
    /// send `auth <token>`.
    pub auth_deadline: Duration,
    /// The largest frame read at all; a text frame longer than the
    /// protocol's line limit but within this is a protocol fault of the
    /// game, a longer one ends the connection.
    pub max_frame: usize,
    /// Lines a second a bot may send on average, and in one burst.
    pub lines_per_second: u32,
    pub line_burst: u32,
    /// Lines a bot may send besides for each line the arbiter sends it
    /// (up to the burst): its answers.
    pub answer_credit: u32,
    /// Lines received and not yet read by a game; more is a flood.
    pub inbound_queue: usize,
    pub ping_interval: Duration,
    /// No pong for this long: the bot stopped reading, and is dropped.
    pub pong_timeout: Duration,
    /// Time a frame may take to go out.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            auth_deadline: Duration::from_secs(5),
            max_frame: 2 * umi::MAX_LINE_BYTES,
            // why these: an engine's `info` lines come a few dozen a second;
            // a thousand a second is an engine printing every node.
            lines_per_second: 1000,
            line_burst: 2000,
            // why: a fast engine answers each `position`/`go` and `isready` at
            // once (`info`, `bestmove`, `readyok`); over loopback a game then
            // goes at thousands of plies a second, each answered lines
            // the bot was asked for, never a flood.
            answer_credit: 8,
            inbound_queue: 4096,
            ping_interval: Duration::from_secs(1),
            pong_timeout: Duration::from_secs(15),
            write_timeout: Duration::from_secs(10),
        }
    }
}
