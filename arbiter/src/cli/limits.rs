//! The flags of a listener's limits (`serve`, and `--live` of `match` and
//! `tournament`) and of a server's engine caps (`serve`); the defaults are
//! the front's and the engine cap's (docs/gui.md, "Limits").

use std::time::Duration;

use clap::Args;

use arbiter_core::contender::cap::{
    EngineCap, DEFAULT_MAX_ENGINES, DEFAULT_MAX_ENGINES_PER_CONNECTION,
};
use arbiter_net::front::{self, Limits};

/// The most connections, engines, or bytes a flag may name.
const MAX_COUNT: u64 = 1 << 30;

fn count_arg(text: &str) -> Result<usize, String> {
    let n = super::count_in(text, 1, MAX_COUNT)?;
    usize::try_from(n).map_err(|e| e.to_string())
}

/// The help headings of these flags. why on each flag, not the structs'
/// `next_help_heading`: clap keeps that heading on for the flags declared
/// after a flattened struct, filing them under it.
pub const LIMITS_HEADING: &str = "Server limits (serve; --live)";
pub const CAPS_HEADING: &str = "Engine caps";

/// A listener's limits (each connection, each request).
#[derive(Args, Clone, Debug)]
pub struct LimitArgs {
    /// Connections at once in all; more are answered 503 (lowered to what
    /// the descriptor limit, `ulimit -n`, leaves room for).
    #[arg(long, help_heading = LIMITS_HEADING, value_name = "N", default_value_t = front::DEFAULT_MAX_CONNECTIONS, value_parser = count_arg)]
    pub max_connections: usize,
    /// Connections at once from one client address; more are answered 503
    /// (at most half of --max-connections: one address never holds all).
    #[arg(long, help_heading = LIMITS_HEADING, value_name = "N", default_value_t = front::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, value_parser = count_arg)]
    pub max_connections_per_address: usize,
    /// Seconds a request's head (line and headers) may take to arrive; a
    /// connection idle between requests for as long is closed too.
    #[arg(long, help_heading = LIMITS_HEADING, value_name = "SECONDS", default_value_t = front::DEFAULT_HEADER_TIMEOUT.as_secs_f64(), value_parser = super::seconds_arg)]
    pub header_timeout: f64,
    /// Seconds without a byte either way before a connection is closed
    /// (not a WebSocket's).
    #[arg(long, help_heading = LIMITS_HEADING, value_name = "SECONDS", default_value_t = front::DEFAULT_IDLE_TIMEOUT.as_secs_f64(), value_parser = super::seconds_arg)]
    pub idle_timeout: f64,
    /// Seconds a whole request, its body included, may take (then 408).
    #[arg(long, help_heading = LIMITS_HEADING, value_name = "SECONDS", default_value_t = front::DEFAULT_REQUEST_TIMEOUT.as_secs_f64(), value_parser = super::seconds_arg)]
    pub request_timeout: f64,
    /// The largest request body in bytes, e.g. an uploaded log (then 413).
    #[arg(long, help_heading = LIMITS_HEADING, value_name = "BYTES", default_value_t = front::DEFAULT_MAX_BODY, value_parser = count_arg)]
    pub max_body: usize,
}

impl LimitArgs {
    /// The limits these flags name (the seconds were checked by clap).
    pub fn limits(&self) -> Limits {
        let secs = |s: f64| Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX);
        Limits {
            max_connections: self.max_connections,
            max_connections_per_address: self.max_connections_per_address,
            header_timeout: secs(self.header_timeout),
            idle_timeout: secs(self.idle_timeout),
            request_timeout: secs(self.request_timeout),
            max_body: self.max_body,
        }
    }
}

/// A server's engine caps.
#[derive(Args, Clone, Debug)]
pub struct EngineCapArgs {
    /// Engine processes the server runs at once, for all pages; a page
    /// asking for one more is told so.
    #[arg(long, help_heading = CAPS_HEADING, value_name = "N", default_value_t = DEFAULT_MAX_ENGINES, value_parser = count_arg)]
    pub max_engines: usize,
    /// Engine processes one page (one socket) runs at once.
    #[arg(long, help_heading = CAPS_HEADING, value_name = "N", default_value_t = DEFAULT_MAX_ENGINES_PER_CONNECTION, value_parser = count_arg)]
    pub max_engines_per_page: usize,
}

impl EngineCapArgs {
    pub fn cap(&self) -> EngineCap {
        EngineCap::new(self.max_engines, self.max_engines_per_page)
    }
}
