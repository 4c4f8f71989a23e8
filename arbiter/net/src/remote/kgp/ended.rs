//! Why a KGP connection ended ([`Ended`]), or was refused before `mode`
//! ([`Refusal`]), typed: the relay tells a clean end (the bot left, the
//! arbiter let it go) from a fault to tell the bot about by variant. The
//! text of each is what the bot's `error` line, the close frame and the
//! log say.

use std::io;
use std::time::Duration;

use crate::remote::registry::Refused;

/// A line that did not go out.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("connection error: {0}")]
    Connection(#[source] io::Error),
    /// The bot stopped reading: the line did not go out in the write timeout.
    #[error("stopped reading: a line did not go out in {0:?}")]
    Timeout(Duration),
}

/// Why a connection that got past `mode` ended.
#[derive(Debug, thiserror::Error)]
pub enum Ended {
    /// The stream's end, or a close frame.
    #[error("the bot closed the connection")]
    Closed,
    /// The bot's `goodbye`.
    #[error("the bot said goodbye")]
    Goodbye,
    /// The arbiter let the connection go (`quit`, or its end of the relay
    /// dropped); the same words as a `/umi` connection's
    /// ([`crate::remote::socket::CLOSED_BY_ARBITER`]).
    #[error("closed by the arbiter")]
    ByArbiter,
    /// Reading failed (a wrongly framed WebSocket line among them).
    #[error("connection error: {0}")]
    Connection(#[source] io::Error),
    #[error("flood: more than {lines_per_second} lines a second (bursts of {burst})")]
    Flood { lines_per_second: u32, burst: u32 },
    /// More answers than the arbiter's queue holds, nobody reading them.
    #[error("{0} lines sent that nobody asked for")]
    Unasked(usize),
    /// Silent for the pong timeout with pings unanswered.
    #[error("stopped answering: no pong to {pings} pings in {after:?}")]
    NoPong { pings: usize, after: Duration },
    #[error(transparent)]
    Send(#[from] SendError),
}

impl Ended {
    /// Whether the end is nobody's fault, so the bot is told only `goodbye`
    /// (no `error` line).
    pub fn is_clean(&self) -> bool {
        matches!(self, Ended::Closed | Ended::Goodbye | Ended::ByArbiter)
    }
}

/// Why a bot was refused before `mode`: what it is told before `goodbye`.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("no `mode freeplay` within {0:?}")]
    NoMode(Duration),
    #[error("connection error: {0}")]
    Connection(#[source] io::Error),
    #[error("closed before `mode`")]
    ClosedBeforeMode,
    #[error("flood: too many lines")]
    Flood,
    #[error("unsupported activity {0:?}: this arbiter plays freeplay")]
    Activity(String),
    #[error(
        "no `set auth:token \"<token>\"` before mode: each bot of an event has a token from its organiser"
    )]
    NoToken,
    /// The registry refused the token or the connection.
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error("{0} is not a KGP bot of this event (it connects to /umi)")]
    NotKgp(String),
    #[error(transparent)]
    Send(#[from] SendError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_are_the_reasons_bots_and_logs_were_given() {
        let t = Duration::from_secs(5);
        assert_eq!(Ended::ByArbiter.to_string(), "closed by the arbiter");
        assert_eq!(
            Ended::Flood {
                lines_per_second: 1000,
                burst: 2000
            }
            .to_string(),
            "flood: more than 1000 lines a second (bursts of 2000)"
        );
        assert_eq!(
            Ended::from(SendError::Timeout(t)).to_string(),
            "stopped reading: a line did not go out in 5s"
        );
        assert_eq!(
            Refusal::NoToken.to_string(),
            "no `set auth:token \"<token>\"` before mode: each bot of an event has a token from its organiser"
        );
        assert_eq!(
            Refusal::Activity("tournament".into()).to_string(),
            "unsupported activity \"tournament\": this arbiter plays freeplay"
        );
        assert!(Ended::Goodbye.is_clean() && !Ended::Unasked(3).is_clean());
        let cause = io::Error::other("reset");
        let e = Ended::Connection(cause);
        assert_eq!(e.to_string(), "connection error: reset");
        assert!(std::error::Error::source(&e).is_some(), "the cause is kept");
    }
}
