//! The page's scripts and style sheet, embedded in the binary (the board
//! works offline, with no build step): `/assets/<name>`. One ES module per
//! page (`play.js`, `analyse.js`, `replay.js`, `live.js`, started by
//! `page.js`), the board drawing (`board.js`) and the pieces they share.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The type of a script.
pub const JS: &str = "text/javascript; charset=utf-8";
/// The type of a style sheet.
pub const CSS: &str = "text/css; charset=utf-8";

/// An asset: its name under `/assets/`, its type and its text.
pub type Asset = (&'static str, &'static str, &'static str);

/// The board's assets (every page's helpers, `dom.js`, among them).
const ASSETS: &[Asset] = &[
    ("style.css", CSS, include_str!("assets/style.css")),
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

/// Whether the board has an asset called `name` (another page set's must
/// not take its name).
pub fn is_board_asset(name: &str) -> bool {
    ASSETS.iter().any(|(n, _, _)| *n == name)
}

/// `GET /assets/{name}`: the board's assets.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    routes_with(&[])
}

/// `GET /assets/{name}`: the board's assets, then `extra` (another page
/// set's, the arena's), from one table.
pub fn routes_with<S: Clone + Send + Sync + 'static>(extra: &'static [Asset]) -> Router<S> {
    let serve = move |Path(name): Path<String>| async move {
        match ASSETS.iter().chain(extra).find(|(n, _, _)| *n == name) {
            Some((_, content_type, body)) => respond(content_type, body),
            None => (StatusCode::NOT_FOUND, "no such page").into_response(),
        }
    };
    Router::new().route("/assets/{name}", get(serve))
}
