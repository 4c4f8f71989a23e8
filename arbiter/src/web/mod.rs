//! `arbiter serve`: the browser board. A local HTTP + WebSocket server (axum
//! on tokio) with the page embedded in the binary; see `docs/gui.md`.
//!
//! - [`board`]: a position laid out for the page (holes in screen order).
//! - [`table`]: one game as the authority (rules, clocks, end).
//! - [`play`]: a game over a WebSocket, engines through the session code.
//! - [`kept`]: the engines a page keeps between its games.
//! - [`edit`]: the analysis page's board editing (a draft position).
//! - [`analyse`]: positions and lines checked by the rules; one engine under
//!   `go infinite` per WebSocket.
//! - [`replay`]: logs read with the PGN / JSON-lines readers.
//! - [`security`]: the `Host` / `Origin` types, from the front
//!   ([`crate::front::guard`], which checks every request of every listener).
//! - [`socket`]: the WebSocket settings both sockets use.
//! - [`state`]: what handlers share, passed explicitly.
//! - [`stopping`]: the drain at the first signal (refusals, the games in
//!   progress counted).
//! - [`live`]: the live view of a running event (`--live`, `serve --watch`).

pub mod analyse;
pub mod assets;
pub mod board;
pub mod edit;
pub mod ending;
pub mod kept;
pub mod live;
pub mod play;
pub mod replay;
pub mod socket;
pub mod state;
pub mod stopping;
pub mod table;

use std::net::SocketAddr;

use axum::extract::{DefaultBodyLimit, Query};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use mancala_rules::GameId;
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;

use crate::front::Limits;
use crate::web::state::{AppState, EngineInfo, ServeConfig};

/// The `Host` / `Origin` guard's types, where they were before the front
/// took the guard over.
pub mod security {
    pub use crate::front::guard::{AllowedHosts, Refusal};
}
use security::AllowedHosts;

const INDEX_HTML: &str = include_str!("assets/index.html");

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
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
/// server's logs, the start positions and the live view.
fn read_only() -> Router<AppState> {
    Router::new()
        .route("/replay", get(index))
        .merge(assets::routes())
        .route("/api/config", get(config))
        .route("/api/view", get(position_view))
        .route("/api/start", get(start_view))
        .route("/api/logs", get(replay::list_files))
        .route("/api/logs/{file}", get(replay::from_file))
        .merge(live::routes())
}

/// Every route, the fallback, then the state. The `Host`/`Origin` guard is
/// the front's: [`Server`] puts it before whatever it serves (`allowed` is
/// what it checks; the routers take it for callers that build on them).
fn finish(routes: Router<AppState>, state: AppState, _allowed: AllowedHosts) -> Router {
    routes.fallback(not_found).with_state(state)
}

/// The whole application (served behind the front's guard and limits).
pub fn router(state: AppState, allowed: AllowedHosts) -> Router {
    let routes = read_only()
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
    let routes = read_only().route("/", get(|| async { axum::response::Redirect::to("/live") }));
    finish(routes, state, allowed)
}

/// The state of the `--live` server: `hub` on `/live`, the event's results
/// log (if it writes one) for the replay links, no engines.
pub fn live_state(hub: live::LiveHub, results_log: Option<std::path::PathBuf>) -> AppState {
    let config = ServeConfig {
        engines: Vec::new(),
        logs: results_log.into_iter().collect(),
        timeouts: crate::play::game::Timeouts::default(),
        handshake_timeout: std::time::Duration::from_secs(10),
        quit_grace: std::time::Duration::from_millis(500),
        max_plies: None,
        stderr_dir: None,
        tablebase: None,
        remote: None,
    };
    AppState::with_live(config, hub)
}

/// A bound server, not yet serving: its address is known (port 0 picks one).
/// It serves through the [`crate::front`]: every request of whatever router
/// it was given is guarded (`Host`/`Origin`) and limited ([`Limits`]).
pub struct Server {
    listener: TcpListener,
    router: Router,
    pub addr: SocketAddr,
    /// The kernel send buffer of each connection, when bounded.
    send_buffer: Option<usize>,
    /// The hosts its requests may name; `None`: any (see
    /// [`Server::without_host_guard`]).
    allowed: Option<AllowedHosts>,
    limits: Limits,
    /// Whether each connection sends at once (`TCP_NODELAY`).
    nodelay: bool,
    /// TLS on every connection (`https://`, `wss://`).
    tls: Option<crate::front::tls::Tls>,
}

impl Server {
    /// Binds `listen`; the page may be reached by its address, and by the
    /// `extra_hosts` (`name:port`) too.
    pub async fn bind(
        listen: SocketAddr,
        config: ServeConfig,
        extra_hosts: &[String],
    ) -> std::io::Result<Server> {
        Server::bind_with(listen, extra_hosts, |allowed| {
            router(AppState::new(config), allowed)
        })
        .await
    }

    /// Binds `listen` and serves the router `make` builds for the hosts the
    /// page may be reached by (its address and `extra_hosts`), plain.
    pub async fn bind_with(
        listen: SocketAddr,
        extra_hosts: &[String],
        make: impl FnOnce(AllowedHosts) -> Router,
    ) -> std::io::Result<Server> {
        Server::bind_tls(listen, extra_hosts, None, make).await
    }

    /// [`Server::bind_with`], serving every connection over `tls` when
    /// given (`--tls-cert`/`--tls-key`, [`crate::cli::tls::TlsArgs`]):
    /// `https://` pages, `wss://` sockets, and the `Origin` guard expects
    /// `https://` pages.
    pub async fn bind_tls(
        listen: SocketAddr,
        extra_hosts: &[String],
        tls: Option<crate::front::tls::Tls>,
        make: impl FnOnce(AllowedHosts) -> Router,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(listen).await?;
        let addr = listener.local_addr()?;
        let mut allowed = AllowedHosts::for_address(addr);
        if tls.is_some() {
            allowed = allowed.over_tls();
        }
        for h in extra_hosts {
            allowed.allow(h.clone());
        }
        let router = make(allowed.clone());
        Ok(Server {
            listener,
            router,
            addr,
            send_buffer: None,
            allowed: Some(allowed),
            limits: Limits::default(),
            nodelay: false,
            tls,
        })
    }

    /// Serves under `limits` instead of the defaults.
    pub fn with_limits(mut self, limits: Limits) -> Server {
        self.limits = limits;
        self
    }

    /// Bounds each connection's kernel send buffer to about `bytes` (the
    /// kernel otherwise grows it to megabytes for a page that does not
    /// read, and the server would not notice the page is stuck).
    pub fn with_send_buffer(mut self, bytes: usize) -> Server {
        self.send_buffer = Some(bytes);
        self
    }

    /// Sends every write at once (`TCP_NODELAY`): for a line protocol of
    /// small frames (the remote engines' `/umi`), where Nagle's algorithm
    /// with the peer's delayed ACK would hold a `bestmove` back ~40 ms.
    pub fn with_nodelay(mut self) -> Server {
        self.nodelay = true;
        self
    }

    /// Serves requests whatever `Host` and `Origin` they name, under the
    /// same limits: for an endpoint whose clients are programs that
    /// authenticate themselves (the remote engines' `/umi`, by token), which
    /// reach a `0.0.0.0` listener by any name the organiser gave them; the
    /// guard protects pages that act on a browser's behalf without one.
    pub fn without_host_guard(mut self) -> Server {
        self.allowed = None;
        self
    }

    /// Whether it serves TLS (its URLs are `https://`, `wss://`).
    pub fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// The address to open in a browser.
    pub fn url(&self) -> String {
        let host = if self.addr.ip().is_unspecified() {
            "127.0.0.1".to_owned()
        } else {
            match self.addr {
                SocketAddr::V4(a) => a.ip().to_string(),
                SocketAddr::V6(a) => format!("[{}]", a.ip()),
            }
        };
        let scheme = if self.is_tls() { "https" } else { "http" };
        format!("{scheme}://{host}:{}/", self.addr.port())
    }

    /// Serves until the process ends.
    pub async fn run(self) -> std::io::Result<()> {
        let front = crate::front::accept::Front {
            app: self.router,
            allowed: self.allowed,
            limits: self.limits,
            send_buffer: self.send_buffer,
            nodelay: self.nodelay,
            tls: self.tls,
        };
        crate::front::accept::run(self.listener, front).await
    }
}
