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
//! - [`security`]: `Host` / `Origin` checks against DNS rebinding and
//!   cross-site use.
//! - [`socket`]: the WebSocket settings both sockets use.
//! - [`state`]: what handlers share, passed explicitly.
//! - [`live`]: the live view of a running event (`--live`, `serve --watch`).

pub mod analyse;
pub mod board;
pub mod edit;
pub mod kept;
pub mod live;
pub mod play;
pub mod replay;
pub mod security;
pub mod socket;
pub mod state;
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

use crate::web::security::AllowedHosts;
use crate::web::state::{AppState, EngineInfo, ServeConfig};

const INDEX_HTML: &str = include_str!("assets/index.html");
const BOARD_JS: &str = include_str!("assets/board.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// `SO_SNDBUF` of one connection; a failure only leaves the default.
fn set_send_buffer(stream: &tokio::net::TcpStream, bytes: usize) {
    use std::os::fd::AsRawFd;
    let value = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
    // SAFETY: a valid socket descriptor, an int option of the right size.
    let rc = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            std::ptr::from_ref(&value).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if rc != 0 {
        tracing::debug!(
            "cannot bound a connection's send buffer: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// Largest log the page may upload for replay.
const MAX_UPLOAD: usize = 32 * 1024 * 1024;

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
        .route(
            "/assets/board.js",
            get(|| async { asset("text/javascript; charset=utf-8", BOARD_JS) }),
        )
        .route(
            "/assets/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/config", get(config))
        .route("/api/view", get(position_view))
        .route("/api/start", get(start_view))
        .route("/api/logs", get(replay::list_files))
        .route("/api/logs/{file}", get(replay::from_file))
        .merge(live::routes())
}

/// Every route behind the `Host`/`Origin` guard, then the state.
fn guarded(routes: Router<AppState>, state: AppState, allowed: AllowedHosts) -> Router {
    routes
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            allowed,
            security::guard,
        ))
        .with_state(state)
}

/// The whole application, every route behind the `Host`/`Origin` guard.
pub fn router(state: AppState, allowed: AllowedHosts) -> Router {
    let routes = read_only()
        .route("/", get(index))
        .route("/play", get(index))
        .route("/analyse", get(index))
        .route(
            "/api/replay",
            post(replay::from_upload).layer(DefaultBodyLimit::max(MAX_UPLOAD)),
        )
        .route("/ws/play", get(play::socket))
        .route("/ws/analyse", get(analyse::socket))
        .route("/api/position", get(analyse::position))
        .route("/api/export", get(analyse::export))
        .route("/api/edit", get(edit::handler));
    guarded(routes, state, allowed)
}

/// The server of `--live`: the live page and the replay of the event's log,
/// nothing that starts an engine (`/` is the live page).
pub fn live_router(state: AppState, allowed: AllowedHosts) -> Router {
    let routes = read_only().route("/", get(|| async { axum::response::Redirect::to("/live") }));
    guarded(routes, state, allowed)
}

/// A bound server, not yet serving: its address is known (port 0 picks one).
pub struct Server {
    listener: TcpListener,
    router: Router,
    pub addr: SocketAddr,
    /// The kernel send buffer of each connection, when bounded.
    send_buffer: Option<usize>,
    /// Whether each connection sends at once (`TCP_NODELAY`).
    nodelay: bool,
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
    /// page may be reached by (its address and `extra_hosts`).
    pub async fn bind_with(
        listen: SocketAddr,
        extra_hosts: &[String],
        make: impl FnOnce(AllowedHosts) -> Router,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(listen).await?;
        let addr = listener.local_addr()?;
        let mut allowed = AllowedHosts::for_address(addr);
        for h in extra_hosts {
            allowed.allow(h.clone());
        }
        let router = make(allowed);
        Ok(Server {
            listener,
            router,
            addr,
            send_buffer: None,
            nodelay: false,
        })
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
        format!("http://{host}:{}/", self.addr.port())
    }

    /// Serves until the process ends.
    pub async fn run(self) -> std::io::Result<()> {
        use axum::serve::ListenerExt;
        let (send_buffer, nodelay) = (self.send_buffer, self.nodelay);
        if send_buffer.is_none() && !nodelay {
            return axum::serve(self.listener, self.router).await;
        }
        let listener = self.listener.tap_io(move |stream| {
            if let Some(bytes) = send_buffer {
                set_send_buffer(stream, bytes);
            }
            if nodelay {
                if let Err(e) = stream.set_nodelay(true) {
                    tracing::debug!("cannot set TCP_NODELAY on a connection: {e}");
                }
            }
        });
        axum::serve(listener, self.router).await
    }
}
