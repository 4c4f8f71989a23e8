//! The KGP room: Kalah bots written for the Kalah Game Protocol (KGP, the
//! line protocol of FAU's Kalah tournaments, in which the bot is the client)
//! join an event unchanged as remote engines (`--engine remote=NAME
//! proto=kgp`). They connect over TCP to `--kgp-listen` (KGP's port 2671
//! on loopback by default), or over a WebSocket to `/kgp` on
//! `--remote-listen` (one KGP line per text frame; the same front, limits
//! and TLS as `/umi`), prove who they are with `set auth:token`, and
//! from then on are remote engines like any other: the [`adapter`] turns
//! their KGP into UMI for the arbiter's session code, so the arbiter's own
//! clock, its legality checks, verdicts, logs and `--resume` are those of
//! every engine.
//!
//! - [`wire`]: KGP's command grammar, with typed errors.
//! - [`board`]: the board literal and move numbers from the mover's seat.
//! - [`budget`]: when the arbiter says `stop` (a KGP bot's time manager).
//! - [`adapter`]: a KGP bot as a UMI engine.
//! - [`conn`]: one connection, on either transport: greeting, token, relay.
//! - [`ended`]: why a connection ended or was refused, typed.
//! - [`endpoint`]: what the connections share (tokens, greetings, limits).
//! - [`lines`]: lines off the socket with KGP's length cap.
//!
//! protocol-spec.md section 17 describes what an arbiter speaking KGP does.

pub mod adapter;
pub mod board;
pub mod budget;
pub mod conn;
pub mod ended;
pub mod endpoint;
pub mod lines;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::response::Response;
use axum::routing::get;
use axum::{Extension, Router};
use tokio::net::TcpListener;

pub use endpoint::{KgpEndpoint, Speakers, GAMES, MAX_GREETINGS, MAX_GREETINGS_PER_ADDRESS, PORT};

/// Listens for KGP bots on `addr` (TCP) and serves them in the background;
/// returns the bound address. The endpoint may be shared with the
/// WebSocket route ([`websocket`]): one token check, one greeting limit
/// (shared by address over both transports).
pub async fn listen(
    addr: SocketAddr,
    endpoint: impl Into<Arc<KgpEndpoint>>,
) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let endpoint: Arc<KgpEndpoint> = endpoint.into();
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => {
                    tokio::spawn(conn::serve(stream, peer, Arc::clone(&endpoint)));
                }
                Err(e) => {
                    // why a pause: out of file descriptors, accept fails at
                    // once again; spinning would starve the games.
                    tracing::warn!("kgp: accept failed: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
            }
        }
    });
    Ok(bound)
}

/// `/kgp`: KGP over a WebSocket, each text frame one line, to merge into the
/// remote engines' endpoint ([`crate::remote::endpoint::routes`]).
pub fn websocket(endpoint: Arc<KgpEndpoint>) -> Router {
    Router::new()
        .route("/kgp", get(upgrade))
        .with_state(endpoint)
}

async fn upgrade(
    State(ep): State<Arc<KgpEndpoint>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    ws: WebSocketUpgrade,
) -> Response {
    // why no token here: a KGP bot proves who it is in the protocol
    // (`set auth:token`), on either transport. why a stand-in address: a
    // router served outside the front has no peer (its greetings then
    // share one address's quota).
    let peer = peer.map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |p| p.0 .0);
    // why before the upgrade: an address locked out by its failed token
    // checks is told so in HTTP, with when to try again, as on `/umi`.
    if let Err(why) = ep.registry.may_try(peer.ip()) {
        tracing::info!(%peer, "kgp: refused an upgrade: {why}");
        return crate::remote::refusal::refusal(&why);
    }
    crate::remote::frames::configure(ws, &ep.limits)
        .on_upgrade(move |socket| conn::serve_on(conn::Ws(socket), peer, ep))
}
