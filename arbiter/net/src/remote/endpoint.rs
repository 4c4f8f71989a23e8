//! The `/umi` WebSocket endpoint: authenticates a bot, then offers its
//! connection to the games (one UMI line per text frame, read and written
//! by whoever holds it, [`crate::remote::socket`]). A connection is dropped,
//! with a logged reason, when it misbehaves: binary frames, more than one
//! line in a frame, a flood of lines, a frame far over the line limit, pings
//! it never answers (a bot that stops reading), lines that do not go out in
//! time. A token that proves nobody is a failure of the client's address;
//! an address with too many is refused before its token is looked at
//! ([`crate::remote::logins`]): `429` with `Retry-After`, as is a bot over
//! its connection limit ([`refusal`]).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use tokio::sync::oneshot;
use tokio::time::Instant;
use tracing::Instrument;

use crate::remote::conn::{Admission, ConnState};
use crate::remote::frames::{configure, send_close, umi_close};
use crate::remote::kgp::endpoint::KgpEndpoint;
use crate::remote::limits::Limits;
use crate::remote::refusal::refusal;
use crate::remote::registry::{Connection, Pipe, Refused, Registry};
use crate::remote::socket::{self, UmiSocket};

/// What the endpoint's handlers share.
#[derive(Clone)]
pub struct Endpoint {
    pub registry: Arc<Registry>,
    pub limits: Limits,
}

/// The router of the remote endpoint: `/umi`, and `/kgp` (KGP over a
/// WebSocket, [`crate::remote::kgp::websocket`]) when the event has KGP bots.
///
/// It is not behind the board's `Host`/`Origin` guard: a bot connects to a
/// listener on `0.0.0.0:9000` by whatever name the organiser's machine has,
/// and a bot in a browser sends its page's `Origin`. The token is what
/// guards it (a page from another site cannot know it).
pub fn routes(endpoint: Endpoint, kgp: Option<Arc<KgpEndpoint>>) -> Router {
    let router = match kgp {
        Some(kgp) => umi(endpoint).merge(crate::remote::kgp::websocket(kgp)),
        None => umi(endpoint),
    };
    router.fallback(|| async {
        (
            StatusCode::NOT_FOUND,
            "no such page; bots connect to /umi (KGP bots to /kgp)",
        )
    })
}

/// `/umi` alone, without a fallback: to merge into a server of other pages
/// (the arena's).
pub fn umi(endpoint: Endpoint) -> Router {
    Router::new()
        .route("/umi", get(upgrade))
        .with_state(endpoint)
}

/// Who a connection is, once known.
enum Auth {
    /// By its upgrade request's `Authorization: Bearer` header (the scheme
    /// in any case).
    Header(String, Admission),
    /// To be read from its first frame.
    FirstFrame,
}

/// The client's address, which its failed logins are counted by. why a
/// stand-in: a router served outside the front has no peer (all its
/// clients then share one address's count).
pub(crate) fn peer_ip(peer: Option<&Extension<ConnectInfo<SocketAddr>>>) -> IpAddr {
    peer.map_or(IpAddr::from([0, 0, 0, 0]), |p| p.0 .0.ip())
}

async fn upgrade(
    State(ep): State<Endpoint>,
    RawQuery(query): RawQuery,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // why a span: every log event of the connection says whose it is (its
    // peer, and its bot once known); a game that claims it has its own.
    let span = tracing::error_span!(
        "connection",
        peer = %peer.as_ref().map_or_else(|| "?".to_owned(), |p| p.0 .0.to_string()),
        bot = tracing::field::Empty,
    );
    let _entered = span.enter();
    let ip = peer_ip(peer.as_ref());
    let auth = match headers.get(header::AUTHORIZATION) {
        None => {
            // why before the upgrade: a locked-out address is told so in
            // HTTP, with when to try again, whichever way it authenticates.
            if let Err(why) = ep.registry.may_try(ip) {
                tracing::info!("remote: refused an upgrade: {why}");
                return refusal(&why);
            }
            Auth::FirstFrame
        }
        Some(value) => {
            // why any case: RFC 7235 makes the scheme case-insensitive.
            let token = value.to_str().ok().and_then(crate::remote::tokens::bearer);
            let admitted = ep
                .registry
                .identify_from(ip, token)
                .and_then(|remote| Ok((ep.registry.admit(&remote)?, remote)));
            match admitted {
                Ok((admission, remote)) => Auth::Header(remote, admission),
                Err(why) => {
                    tracing::info!("remote: refused an upgrade: {why}");
                    return refusal(&why);
                }
            }
        }
    };
    drop(_entered);
    configure(ws, &ep.limits)
        .on_upgrade(move |socket| serve(socket, ep, auth, query, ip).instrument(span))
        .into_response()
}

/// Why a connection without an `Authorization` header did not
/// authenticate with its first frame (what its close frame says).
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("no auth frame in time")]
    NotInTime,
    #[error("closed before authenticating")]
    Closed,
    #[error("first frame is not `auth <token>`")]
    NotAuth,
    /// The registry refused the token or the connection.
    #[error(transparent)]
    Refused(#[from] Refused),
}

/// Reads the `auth <token>` first frame before the deadline.
async fn first_frame_auth(
    socket: &mut WebSocket,
    ep: &Endpoint,
    ip: IpAddr,
) -> Result<(String, Admission), AuthError> {
    let deadline = Instant::now() + ep.limits.auth_deadline;
    let frame = match tokio::time::timeout_at(deadline, socket.recv()).await {
        Err(_) => return Err(AuthError::NotInTime),
        Ok(None | Some(Err(_))) => return Err(AuthError::Closed),
        Ok(Some(Ok(frame))) => frame,
    };
    let Message::Text(text) = frame else {
        return Err(AuthError::NotAuth);
    };
    let token = text
        .as_str()
        .trim_end_matches(['\r', '\n'])
        .strip_prefix("auth ")
        .ok_or(AuthError::NotAuth)?;
    let remote = ep.registry.identify_from(ip, Some(token.trim()))?;
    let admission = ep.registry.admit(&remote)?;
    Ok((remote, admission))
}

async fn serve(mut socket: WebSocket, ep: Endpoint, auth: Auth, query: Option<String>, ip: IpAddr) {
    let (remote, admission) = match auth {
        Auth::Header(remote, admission) => (remote, admission),
        Auth::FirstFrame => match first_frame_auth(&mut socket, &ep, ip).await {
            Ok(found) => found,
            Err(why) => {
                tracing::info!("remote: dropped an unauthenticated connection: {why}");
                let why = why.to_string();
                send_close(&mut socket, umi_close(&why), ep.limits.write_timeout).await;
                return;
            }
        },
    };
    tracing::Span::current().record("bot", remote.as_str());
    let id = ep.registry.next_id();
    let state = Arc::new(ConnState::new());
    let (claim, claimed) = oneshot::channel();
    tracing::info!(remote = %remote, id, "remote engine connected");
    let socket = UmiSocket::new(
        socket,
        ep.limits,
        Arc::clone(&state),
        admission,
        remote.clone(),
        id,
    );
    ep.registry.offer(Connection {
        id,
        remote,
        query,
        pipe: Pipe::Socket(claim),
        state,
    });
    // This task keeps the connection until a game claims it.
    socket::keep(socket, claimed).await;
}
