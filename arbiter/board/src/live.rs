//! The live view of an event: `/live` (the page), `/ws/live` (a snapshot,
//! then every update as it happens) and `/api/live/standings` (the
//! standings JSON of `--standings-json`). Read-only: nothing here starts an
//! engine or changes the event. See `docs/live.md`.
//!
//! - [`hub`]: the snapshot and the bounded broadcast producers publish into.
//! - [`eval`]: a finished game's scores per ply, for its graph.
//! - [`feed`]: the producer of `--live` (tournament and match).
//! - [`socket`]: one page's WebSocket, dropped when it falls behind.
//! - [`watch`]: `arbiter serve --watch`, results logs of other processes
//!   fed into the hub.

pub mod eval;
pub mod feed;
pub mod hub;
pub mod socket;
pub mod watch;

use axum::extract::{FromRef, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

pub use hub::{LiveHub, LiveMsg, LiveState, Snapshot};

pub(crate) const LIVE_HTML: &str = include_str!("assets/live.html");

/// `GET /api/live/standings`: the latest standings, the same JSON as
/// `--standings-json` (`null` before the first one).
async fn standings(State(LiveState(live)): State<LiveState>) -> Response {
    match &live {
        Some(hub) => Json(hub.standings()).into_response(),
        None => socket::no_event(),
    }
}

/// `GET /api/live/snapshot`: the event as it is now (what `/ws/live` sends first).
async fn snapshot(State(LiveState(live)): State<LiveState>) -> Response {
    match &live {
        Some(hub) => Json(hub.snapshot()).into_response(),
        None => socket::no_event(),
    }
}

/// The live routes (the page, the socket and the JSON; its script is one
/// of [`crate::assets`]); `page`: the live page, its bar the server's.
pub fn routes<S>(page: crate::nav::Page) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    LiveState: FromRef<S>,
{
    Router::new()
        .route("/live", get(move || async move { page.respond() }))
        .route("/ws/live", get(socket::socket))
        .route("/api/live/standings", get(standings))
        .route("/api/live/snapshot", get(snapshot))
}
