//! The browser board and the live view: `arbiter serve` (play, analyse,
//! replay), `--live` and `serve --watch`. A local HTTP + WebSocket server
//! (axum on tokio, behind [`arbiter_net::front`]) with the pages embedded
//! in the binary; see `docs/gui.md` and `docs/live.md`.
//!
//! - [`board`]: a position laid out for the page (holes in screen order).
//! - [`table`]: one game as the authority (rules, clocks, end).
//! - [`play`]: a game over a WebSocket, engines through the session code.
//! - [`kept`]: the engines a page keeps between its games.
//! - [`edit`]: the analysis page's board editing (a draft position).
//! - [`analyse`]: positions and lines checked by the rules; one engine under
//!   `go infinite` per WebSocket.
//! - [`games`]: logs read with the PGN / JSON-lines readers, games worked
//!   out ply by ply (pure: no handler, no state).
//! - [`replay`]: the replay page's handlers (`/api/logs`, `/api/replay`).
//! - [`socket`]: the WebSocket settings both sockets use.
//! - [`state`]: what handlers share, passed explicitly.
//! - [`stopping`]: the drain at the first signal (refusals, the games in
//!   progress counted).
//! - [`live`]: the live view of a running event (`--live`, `serve --watch`).
//! - [`nav`]: each server's navigation bar on the pages it shares.

pub mod analyse;
pub mod assets;
pub mod board;
pub mod edit;
pub mod ending;
pub mod games;
pub mod kept;
pub mod live;
pub mod nav;
pub mod play;
pub mod replay;
pub mod serve;
pub mod socket;
pub mod state;
pub mod stopping;
pub mod table;

use axum::extract::{DefaultBodyLimit, Query};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use mancala_rules::GameId;
use serde::{Deserialize, Serialize};

use crate::state::{AppState, EngineInfo, ServeConfig};

use arbiter_net::front::guard::AllowedHosts;

const INDEX_HTML: &str = include_str!("assets/index.html");

async fn index() -> Response {
    assets::respond("text/html; charset=utf-8", INDEX_HTML)
}

/// What the page offers: games and engines.
#[derive(Serialize)]
struct PageConfig {
    games: Vec<&'static str>,
    engines: Vec<EngineInfo>,
    default_tc: &'static str,
}

async fn config(axum::extract::State(state): axum::extract::State<AppState>) -> Json<PageConfig> {
    Json(PageConfig {
        games: GameId::ALL.iter().map(|g| g.as_str()).collect(),
        engines: state.engine_infos(),
        default_tc: play::DEFAULT_TC,
    })
}

#[derive(Deserialize)]
struct PositionQuery {
    position: String,
}

/// `GET /api/view?position=…`: a position checked and laid out (the
/// analysis page's setup), or a clear error.
async fn position_view(Query(q): Query<PositionQuery>) -> Response {
    match board::view(&q.position) {
        Ok(v) => Json(v).into_response(),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, format!("position: {e}")).into_response(),
    }
}

#[derive(Deserialize)]
struct GameQuery {
    game: String,
}

/// `GET /api/start?game=…`: a game's start position, laid out.
async fn start_view(Query(q): Query<GameQuery>) -> Response {
    match q.game.parse::<GameId>() {
        Ok(id) => match board::view(&mancala_rules::start_position(id)) {
            Ok(v) => Json(v).into_response(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        },
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()).into_response(),
    }
}

async fn not_found() -> (StatusCode, &'static str) {
    (StatusCode::NOT_FOUND, "no such page")
}

/// What every page needs, read-only: the assets, the replay of the
/// server's logs, the start positions and the live view; `nav`: the
/// server's pages, for the replay and live pages' bar (`None`: the board's
/// own, as the HTML has it).
fn read_only(extra_assets: &'static [assets::Asset], nav: Option<nav::Nav>) -> Router<AppState> {
    let (replay_page, live_page) = match nav {
        Some(links) => (
            nav::Page::new(nav::with_nav(INDEX_HTML, links, "/replay")),
            nav::Page::new(nav::with_nav(live::LIVE_HTML, links, "/live")),
        ),
        None => (
            nav::Page::from_static(INDEX_HTML),
            nav::Page::from_static(live::LIVE_HTML),
        ),
    };
    Router::new()
        .route("/replay", get(move || async move { replay_page.respond() }))
        .merge(assets::routes_with(extra_assets))
        .route("/api/config", get(config))
        .route("/api/view", get(position_view))
        .route("/api/start", get(start_view))
        .route("/api/logs", get(replay::list_files))
        .route("/api/logs/{file}", get(replay::from_file))
        .merge(live::routes(live_page))
}

/// Every route, the fallback, then the state. The `Host`/`Origin` guard is
/// the front's: [`arbiter_net::front::server::Server`] puts it before whatever it serves (`allowed` is
/// what it checks; the routers take it for callers that build on them).
fn finish(routes: Router<AppState>, state: AppState, _allowed: AllowedHosts) -> Router {
    routes.fallback(not_found).with_state(state)
}

/// The whole application (served behind the front's guard and limits).
pub fn router(state: AppState, allowed: AllowedHosts) -> Router {
    let routes = read_only(&[], None)
        .route("/", get(index))
        .route("/play", get(index))
        .route("/analyse", get(index))
        .route(
            "/api/replay",
            // why no axum limit (2 MB): the front's `--max-body` is the cap
            // of an uploaded log.
            post(replay::from_upload).layer(DefaultBodyLimit::disable()),
        )
        .route("/ws/play", get(play::socket))
        .route("/ws/analyse", get(analyse::socket))
        .route("/api/position", get(analyse::position))
        .route("/api/export", get(analyse::export))
        .route("/api/edit", get(edit::handler));
    finish(routes, state, allowed)
}

/// The server of `--live`: the live page and the replay of the event's log,
/// nothing that starts an engine (`/` is the live page).
pub fn live_router(state: AppState, allowed: AllowedHosts) -> Router {
    live_router_with(state, allowed, &[], nav::LIVE_NAV)
}

/// [`live_router`], its asset table also serving `extra_assets` (the
/// arena's pages' scripts and style), its pages' bar linking to `nav`
/// (the server's pages: no link to a page it does not serve).
pub fn live_router_with(
    state: AppState,
    allowed: AllowedHosts,
    extra_assets: &'static [assets::Asset],
    nav: nav::Nav,
) -> Router {
    let routes = read_only(extra_assets, Some(nav))
        .route("/", get(|| async { axum::response::Redirect::to("/live") }));
    finish(routes, state, allowed)
}

/// The state of the `--live` server: `hub` on `/live`, the event's results
/// log (if it writes one) for the replay links, no engines.
pub fn live_state(hub: live::LiveHub, results_log: Option<std::path::PathBuf>) -> AppState {
    let config = ServeConfig {
        engines: Vec::new(),
        logs: results_log.into_iter().collect(),
        timeouts: arbiter_core::play::game::Timeouts::default(),
        handshake_timeout: std::time::Duration::from_secs(10),
        quit_grace: std::time::Duration::from_millis(500),
        max_plies: None,
        stderr_dir: None,
        tablebase: None,
        remote: None,
    };
    AppState::with_live(config, hub)
}

/// Each connection's kernel send buffer on the live server: with the page's
/// queue ([`socket::QUEUED`]) what a page that stopped reading may hold up.
const LIVE_SEND_BUFFER: usize = 32 * 1024;

/// Binds `addr` and serves the live page in its own task, reachable by its
/// address and `extra_hosts`, showing games in progress `delay` plies
/// behind ([`live::LiveHub::with_delay`]); the finished games link into
/// `results_log` (`--jsonout`), under `limits`, over `tls` if given. A bind
/// error comes back at once (before any game).
pub async fn start_live(
    addr: std::net::SocketAddr,
    extra_hosts: &[String],
    delay: u32,
    results_log: Option<std::path::PathBuf>,
    limits: arbiter_net::front::Limits,
    tls: Option<arbiter_net::front::tls::Tls>,
) -> std::io::Result<live::feed::LiveEvent> {
    let hub = live::LiveHub::with_delay(delay);
    let state = live_state(hub.clone(), results_log.clone());
    let server = arbiter_net::front::server::Server::bind_tls(addr, extra_hosts, tls, |allowed| {
        live_router(state, allowed)
    })
    .await?
    .with_send_buffer(LIVE_SEND_BUFFER)
    .with_limits(limits);
    let url = format!("{}live", server.url());
    tokio::spawn(async move {
        if let Err(e) = server.run(std::future::pending()).await {
            // The event goes on; only the page is gone.
            tracing::error!("the live page stopped: {e}");
        }
    });
    Ok(live::feed::LiveEvent::new(hub, url, results_log))
}
