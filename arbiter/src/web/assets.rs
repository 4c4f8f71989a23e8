//! The page's scripts and style sheet, embedded in the binary (the board
//! works offline, with no build step): `/assets/<name>`. One ES module per
//! page (`play.js`, `analyse.js`, `replay.js`, `live.js`, started by
//! `page.js`), the board drawing (`board.js`) and the pieces they share.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const JS: &str = "text/javascript; charset=utf-8";

/// Every asset: its name under `/assets/`, its type and its text.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    ("page.js", JS, include_str!("assets/page.js")),
    ("dom.js", JS, include_str!("assets/dom.js")),
    ("board.js", JS, include_str!("assets/board.js")),
    ("moves.js", JS, include_str!("assets/moves.js")),
    ("graph.js", JS, include_str!("assets/graph.js")),
    ("animate.js", JS, include_str!("assets/animate.js")),
    ("choices.js", JS, include_str!("assets/choices.js")),
    ("play.js", JS, include_str!("assets/play.js")),
    ("analyse.js", JS, include_str!("assets/analyse.js")),
    ("replay.js", JS, include_str!("assets/replay.js")),
    ("live.js", JS, include_str!("assets/live.js")),
];

/// An embedded text as a response (never cached: a new binary's assets
/// are seen at once).
pub fn respond(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn serve(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, content_type, body)) => respond(content_type, body),
        None => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

/// `GET /assets/{name}`.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/assets/{name}", get(serve))
}
