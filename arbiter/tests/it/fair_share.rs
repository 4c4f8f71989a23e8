//! Every listener's places are shared out by client address, so that one
//! address cannot hold them all: a flood from one loopback address
//! (127.0.0.2) and a bot from another (127.0.0.1) that still gets through —
//! for KGP greetings over TCP and over a WebSocket (`/kgp`), for `/umi`
//! upgrades that never authenticate, and for a TLS listener's connections
//! that never finish the handshake. Driven by the library; the deadlines
//! the flood could run into are set long, and nothing is timed.

use crate::common;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_net::remote::kgp::{self, KgpEndpoint};
use arbiter_net::remote::registry::Registry;
use arbiter_net::remote::tokens::Tokens;
use arbiter_net::remote::Limits;
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::{self, Message};

const KGP_TOKEN: &str = "fair-share-kgp-token-0123";
const UMI_TOKEN: &str = "fair-share-umi-token-0123";
/// Longer than the test: a flood connection is never closed for its silence.
const LONG: Duration = Duration::from_secs(600);

fn registry() -> Arc<Registry> {
    let mut tokens = Tokens::default();
    tokens.insert("kbot", KGP_TOKEN);
    tokens.insert("umibot", UMI_TOKEN);
    Registry::new(tokens, |_| 1)
}

fn limits() -> Limits {
    Limits {
        auth_deadline: LONG,
        ..Limits::default()
    }
}

fn kgp_endpoint(registry: &Arc<Registry>) -> Arc<KgpEndpoint> {
    let ids = BTreeSet::from(["kbot".to_owned()]);
    Arc::new(KgpEndpoint::new(
        registry.clone(),
        arbiter_net::remote::kgp::Speakers::Only(ids),
        limits(),
    ))
}

/// A TCP connection from loopback address `from` to `to`.
async fn connect_from(from: &str, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(format!("{from}:0").parse().expect("an address"))
        .expect("binds a loopback address");
    tokio::time::timeout(Duration::from_secs(60), socket.connect(to))
        .await
        .expect("connects before the guard")
        .expect("connects")
}

/// Waits (with a guard of a minute) until `remote` has a connection open.
async fn admitted(registry: &Registry, remote: &str) {
    let started = Instant::now();
    while registry.open_count(remote) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{remote} was not admitted in a minute"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn next_line<R: tokio::io::AsyncBufRead + Unpin>(
    lines: &mut tokio::io::Lines<R>,
) -> Option<String> {
    tokio::time::timeout(Duration::from_secs(60), lines.next_line())
        .await
        .expect("a line before the guard")
        .ok()
        .flatten()
}

/// 80 silent connections to `--kgp-listen` from 127.0.0.2: 8 are greeted
/// and hold their greeting, the others are told why and closed; a bot from
/// 127.0.0.1 is greeted and admitted (before: 64 greetings shared by all
/// addresses, and the bot got `error "too many connections at once"`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_kgp_connections_from_one_address_lock_no_bot_out() {
    let registry = registry();
    let addr = kgp::listen("127.0.0.1:0".parse().unwrap(), kgp_endpoint(&registry))
        .await
        .expect("listens");
    let mut flood = Vec::new();
    let mut refused = 0;
    for _ in 0..80 {
        let mut lines = BufReader::new(connect_from("127.0.0.2", addr).await).lines();
        let first = next_line(&mut lines).await.expect("a first line");
        if first == "kgp 1 0 0" {
            flood.push(lines);
        } else {
            assert!(
                first.starts_with("error \"refused: 127.0.0.2 holds its most KGP greetings")
                    && first.contains(&format!("({}, ", kgp::MAX_GREETINGS_PER_ADDRESS)),
                "{first}"
            );
            assert_eq!(next_line(&mut lines).await, None, "closed after");
            refused += 1;
        }
    }
    assert_eq!(flood.len(), kgp::MAX_GREETINGS_PER_ADDRESS);
    assert_eq!(refused, 80 - kgp::MAX_GREETINGS_PER_ADDRESS);

    let (r, mut w) = connect_from("127.0.0.1", addr).await.into_split();
    let mut lines = BufReader::new(r).lines();
    assert_eq!(next_line(&mut lines).await.as_deref(), Some("kgp 1 0 0"));
    w.write_all(format!("1 set auth:token \"{KGP_TOKEN}\"\r\n3 mode freeplay\r\n").as_bytes())
        .await
        .expect("sends");
    admitted(&registry, "kbot").await;
    drop(flood);
}

/// The remote endpoint's front, plain or TLS, with `max_connections`.
async fn endpoint(
    registry: &Arc<Registry>,
    kgp: Option<Arc<KgpEndpoint>>,
    max_connections: usize,
) -> SocketAddr {
    let endpoint = arbiter_net::remote::endpoint::Endpoint {
        registry: registry.clone(),
        limits: limits(),
    };
    let server = arbiter_net::front::server::Server::bind_tls(
        "127.0.0.1:0".parse().unwrap(),
        &[],
        None,
        |_| arbiter_net::remote::endpoint::routes(endpoint, kgp),
    )
    .await
    .expect("binds")
    .with_limits(arbiter_net::front::Limits {
        max_connections,
        header_timeout: LONG,
        idle_timeout: LONG,
        ..arbiter_net::front::Limits::default()
    })
    .without_host_guard();
    let addr = server.addr;
    tokio::spawn(server.run(std::future::pending()));
    addr
}

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A WebSocket to `path` from loopback address `from`, with `headers`.
async fn ws_from(
    from: &str,
    to: SocketAddr,
    path: &str,
    headers: &[(&'static str, String)],
) -> Result<Ws, tungstenite::Error> {
    use tungstenite::client::IntoClientRequest;
    let stream = connect_from(from, to).await;
    let mut request = format!("ws://{to}{path}").into_client_request().unwrap();
    for (name, value) in headers {
        request
            .headers_mut()
            .insert(*name, value.parse().expect("a header value"));
    }
    tokio::time::timeout(
        Duration::from_secs(60),
        tokio_tungstenite::client_async(request, stream),
    )
    .await
    .expect("an answer before the guard")
    .map(|(ws, _)| ws)
}

/// The next text frame.
async fn next_text(ws: &mut Ws) -> Option<String> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("a frame before the guard")?
            .ok()?;
        match frame {
            Message::Text(t) => return Some(t.as_str().to_owned()),
            Message::Close(_) => return None,
            _ => {}
        }
    }
}

/// 70 WebSockets to `/kgp` from 127.0.0.2 that say nothing after the
/// greeting: a bot from 127.0.0.1 over `/kgp` still gets its greeting and
/// is admitted (before: the first 64 took every greeting).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_kgp_websockets_from_one_address_lock_no_bot_out() {
    let registry = registry();
    let addr = endpoint(&registry, Some(kgp_endpoint(&registry)), 1024).await;
    let mut flood = Vec::new();
    for _ in 0..70 {
        let mut ws = ws_from("127.0.0.2", addr, "/kgp", &[])
            .await
            .expect("the upgrade");
        let first = next_text(&mut ws).await.expect("a first line");
        if first == "kgp 1 0 0" {
            flood.push(ws);
        } else {
            assert!(
                first.contains("127.0.0.2 holds its most KGP greetings"),
                "{first}"
            );
        }
    }
    assert_eq!(flood.len(), kgp::MAX_GREETINGS_PER_ADDRESS);

    let mut bot = ws_from("127.0.0.1", addr, "/kgp", &[])
        .await
        .expect("the upgrade");
    assert_eq!(next_text(&mut bot).await.as_deref(), Some("kgp 1 0 0"));
    for line in [
        format!("1 set auth:token \"{KGP_TOKEN}\""),
        "3 mode freeplay".into(),
    ] {
        bot.send(Message::Text(line.into())).await.expect("sends");
    }
    admitted(&registry, "kbot").await;
    drop(flood);
}

/// 30 `/umi` upgrades from 127.0.0.2 that never authenticate, over a front
/// of 20 connections: 127.0.0.2 holds at most half of them (the others are
/// answered 503), and a bot from 127.0.0.1 with its token in
/// `authorization: bearer …` (the scheme in lower case, RFC 7235) is
/// admitted (before: the flood held all 20, and `bearer` was refused 401).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthenticated_umi_upgrades_from_one_address_lock_no_bot_out() {
    let registry = registry();
    let addr = endpoint(&registry, None, 20).await;
    let mut flood = Vec::new();
    let mut refused = 0;
    for _ in 0..30 {
        match ws_from("127.0.0.2", addr, "/umi", &[]).await {
            Ok(ws) => flood.push(ws),
            Err(tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 503);
                refused += 1;
            }
            // why tolerated: a refusal read as a reset is still a refusal.
            Err(tungstenite::Error::Io(_)) => refused += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(flood.len(), 10, "half of --max-connections");
    assert_eq!(refused, 20);

    for (scheme, remote) in [("bearer", "umibot")] {
        let header = ("authorization", format!("{scheme} {UMI_TOKEN}"));
        let _bot = ws_from("127.0.0.1", addr, "/umi", &[header])
            .await
            .expect("the bot's upgrade");
        admitted(&registry, remote).await;
    }
    drop(flood);
}

/// A TLS listener of 20 connections and 30 connections from 127.0.0.2 that
/// never send a byte of the handshake: a client from 127.0.0.1 completes
/// its handshake and is answered (before: the flood held all 20 places).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_tls_handshakes_from_one_address_lock_no_client_out() {
    let scratch = common::Scratch::new("fair", "tls");
    let [ca, cert, key] = common::certificates(&scratch.0, "fair");
    let tls = arbiter_net::front::tls::Tls::from_pem_files(&cert, &key).expect("the certificate");
    let app = axum::Router::new().route("/", axum::routing::get(|| async { "answered" }));
    let server = arbiter_net::front::server::Server::bind_tls(
        "127.0.0.1:0".parse().unwrap(),
        &[],
        Some(tls),
        |_| app,
    )
    .await
    .expect("binds")
    .with_limits(arbiter_net::front::Limits {
        max_connections: 20,
        header_timeout: LONG,
        idle_timeout: LONG,
        ..arbiter_net::front::Limits::default()
    });
    let addr = server.addr;
    tokio::spawn(server.run(std::future::pending()));
    let mut flood = Vec::new();
    for _ in 0..30 {
        flood.push(connect_from("127.0.0.2", addr).await);
    }

    let config = arbiter_net::front::tls::client_config(Some(&ca)).expect("our CA");
    let name = rustls_pki_types::ServerName::try_from("127.0.0.1").expect("a name");
    let stream = connect_from("127.0.0.1", addr).await;
    let mut tls = tokio::time::timeout(
        Duration::from_secs(60),
        tokio_rustls::TlsConnector::from(config).connect(name, stream),
    )
    .await
    .expect("a handshake before the guard")
    .expect("the handshake");
    tls.write_all(
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .expect("sends");
    let mut answer = Vec::new();
    // why tolerate an error after the body: no close_notify before the close.
    let _ = tokio::time::timeout(Duration::from_secs(60), tls.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("answered"), "{answer}");

    // The flood: half the places, the rest refused and closed.
    let mut open = 0;
    for mut c in flood {
        let mut buf = [0u8; 512];
        match tokio::time::timeout(Duration::from_millis(200), c.read(&mut buf)).await {
            Err(_) => open += 1,
            Ok(Ok(n)) => assert!(
                String::from_utf8_lossy(&buf[..n]).contains("503"),
                "a refused one is answered 503"
            ),
            Ok(Err(_)) => {}
        }
    }
    assert_eq!(open, 10, "half of --max-connections held");
}
