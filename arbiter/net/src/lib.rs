//! The arbiter's network: the front every listener stands behind and the
//! engines that play over a connection.
//!
//! - [`front`]: the HTTP front of every listener ([`front::server::Server`]):
//!   connection limits, deadlines, body caps, the `Host`/`Origin` guard, TLS.
//! - [`remote`]: engines on other machines over WebSocket (`/umi`, tokens,
//!   grace, lag compensation), KGP bots, and the bridge `arbiter connect`.
//!   Its link is the core's [`arbiter_core::contender::transport::Link`]: a
//!   remote engine is a transport, not a new kind of game.

pub mod front;
pub mod remote;
