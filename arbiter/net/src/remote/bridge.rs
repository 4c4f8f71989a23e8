//! `arbiter connect`: the bridge a bot author runs at home. It starts the
//! author's engine as a local process (the process room's code: its own
//! process group, killed on exit, stderr kept) and relays its lines over one
//! WebSocket connection per slot, one text frame a line. A connection that
//! ends takes its engine with it; the bridge then reconnects, with backoff,
//! and starts a fresh engine for the fresh connection — which is how the
//! arbiter replaces a remote engine (`restart=on`, or after a fault): it
//! closes the connection and waits for the next one. A refusal for now
//! (HTTP 429: the bot has its limit of connections open, or its address
//! failed too many token checks) is logged with the arbiter's reason, and
//! tried again after the arbiter's `Retry-After`; a token the arbiter does
//! not know (401) stops the bridge.
//!
//! The engine is started when the arbiter's first line comes (its `umi`),
//! not when the connection opens: a connection the arbiter closes at once
//! (`server stopping`) starts none. A close whose reason says `retry in N
//! s` (the arena's failed admission) is waited out before the next
//! connection, so a refused bot runs one engine per try, not one per
//! reconnect. Every reason the arbiter gives for a close (other than the
//! plain `closed by the arbiter` of a restart) is printed at the default
//! log level, with when the bridge tries again.
//!
//! The author's `option.X` settings ([`Options`]) are the one thing the
//! bridge adds to the arbiter's lines: sent after the arbiter's own
//! `setoption` lines, so that the author's value of an option wins.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::TlsError;
use tokio_tungstenite::tungstenite::http::{header, HeaderValue, StatusCode};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::Connector;

use crate::remote::socket::CLOSED_BY_ARBITER;
use arbiter_core::contender::process::{EngineProcess, LaunchSpec, ReadError, WriteError};

/// What the bridge needs.
#[derive(Clone, Debug)]
pub struct BridgeConfig {
    /// `ws://host:port/umi`, or `wss://` (then `tls` is its trust).
    pub url: String,
    /// The TLS client of a `wss://` URL: the roots its certificate must
    /// chain to (`--ca`, or the webpki roots).
    pub tls: Option<Arc<rustls::ClientConfig>>,
    pub token: String,
    /// The engine; `{slot}` in its stderr log's name is not needed: each
    /// slot gets `launch_for(slot)`.
    pub launch: Vec<LaunchSpec>,
    /// First pause before reconnecting after a failed attempt; doubled after
    /// each failure, up to `max_backoff`, and back to this once connected.
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// Stop after this many connections per slot (`None`: never; tests).
    pub connections: Option<usize>,
    /// The author's engine options (`--engine option.X=V`), in order.
    pub options: Vec<(String, String)>,
}

/// Why the bridge stopped.
#[derive(Debug)]
pub enum BridgeError {
    /// The arbiter refused the token: retrying would not help.
    Refused(String),
    /// The URL is not a WebSocket URL.
    BadUrl(String),
    /// TLS cannot work as configured: the arbiter's certificate is not
    /// trusted, or one side speaks TLS and the other does not.
    Tls(String),
}

impl std::fmt::Display for BridgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BridgeError::Refused(why) => write!(f, "the arbiter refused the connection: {why}"),
            BridgeError::BadUrl(why) | BridgeError::Tls(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for BridgeError {}

/// The pause before the next connection after one that was served (a
/// short one, so that an arbiter that keeps closing at once is not flooded).
const RECONNECT_PAUSE: Duration = Duration::from_millis(100);

/// The longest `Retry-After` the bridge waits; a longer one is waited for
/// this long (a bridge left running overnight tries again within the hour
/// whatever a proxy in front of the arbiter said).
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);

/// How one connection went.
enum Outcome {
    /// It was served, for this long; how it ended.
    Served(Duration, Ended),
    /// It could not be made (the arbiter is not up, the network).
    Failed(String),
    /// The arbiter said to try again later (HTTP 429): why, and after how
    /// long (its `Retry-After`, if it gave one in seconds).
    Later(String, Option<Duration>),
}

/// What a refusal's answer says: its body (trimmed, at most a line), or
/// its status when it has none.
fn said(response: &tokio_tungstenite::tungstenite::http::Response<Option<Vec<u8>>>) -> String {
    let body = response
        .body()
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let line: String = body
        .trim()
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    if line.is_empty() {
        format!("HTTP {}", response.status())
    } else {
        line
    }
}

/// How a served connection ended.
struct Ended {
    why: String,
    /// The reason in the arbiter's close frame, when it closed the
    /// connection with one other than the plain [`CLOSED_BY_ARBITER`].
    said: Option<String>,
}

impl Ended {
    fn by_us(why: impl Into<String>) -> Ended {
        Ended {
            why: why.into(),
            said: None,
        }
    }

    /// The arbiter closed the connection, with `reason` (maybe empty);
    /// `told`: the text of the arbiter's last `info string` to the engine.
    fn by_arbiter(reason: &str, told: Option<&str>) -> Ended {
        let reason = reason.trim();
        if reason.is_empty() || reason == CLOSED_BY_ARBITER {
            return Ended::by_us("closed by the arbiter");
        }
        // why: a close frame's reason is clipped to 100 characters; the
        // arena says the whole of it in an `info string` just before.
        let head = reason.split("…; retry in ").next().unwrap_or(reason);
        let reason = told
            .filter(|full| full.len() > reason.len() && full.starts_with(head))
            .unwrap_or(reason);
        Ended {
            why: format!("closed by the arbiter: {reason}"),
            said: Some(reason.to_owned()),
        }
    }
}

/// The wait a close reason asks for: its last `retry in N s` (or `try
/// again in N s`), capped at [`MAX_RETRY_AFTER`]; `None` when it names none.
pub fn retry_in(reason: &str) -> Option<Duration> {
    ["retry in ", "try again in "].iter().find_map(|key| {
        let (_, rest) = reason.rsplit_once(key)?;
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || !rest[digits..].starts_with(" s") {
            return None;
        }
        let secs: u64 = rest[..digits].parse().ok()?;
        Some(Duration::from_secs(secs).min(MAX_RETRY_AFTER))
    })
}

/// A `Retry-After` in seconds (RFC 9110 also allows a date, which the
/// arbiter never sends; a date is read as no value).
pub fn retry_after(value: Option<&HeaderValue>) -> Option<Duration> {
    let secs: u64 = value?.to_str().ok()?.trim().parse().ok()?;
    Some(Duration::from_secs(secs).min(MAX_RETRY_AFTER))
}

/// Runs every slot until the token is refused (or, with `connections`, the
/// slots have made that many connections).
pub async fn run(config: BridgeConfig) -> Result<(), BridgeError> {
    if !(config.url.starts_with("ws://") || config.url.starts_with("wss://")) {
        return Err(BridgeError::BadUrl(format!(
            "{}: expected a ws:// URL such as ws://host:9000/umi",
            config.url
        )));
    }
    let mut slots = tokio::task::JoinSet::new();
    for (slot, launch) in config.launch.iter().cloned().enumerate() {
        let config = config.clone();
        slots.spawn(async move { run_slot(&config, slot, launch).await });
    }
    let mut result = Ok(());
    while let Some(done) = slots.join_next().await {
        match done {
            Ok(Err(e)) => {
                result = Err(e);
                slots.abort_all();
            }
            Ok(Ok(())) => {}
            Err(e) if e.is_cancelled() => {}
            Err(e) => tracing::error!("a bridge slot failed: {e}"),
        }
    }
    result
}

async fn run_slot(
    config: &BridgeConfig,
    slot: usize,
    launch: LaunchSpec,
) -> Result<(), BridgeError> {
    let mut backoff = config.backoff;
    let mut made = 0;
    loop {
        let pause = match connect_once(config, &launch).await? {
            Outcome::Served(lasted, ended) => {
                made += 1;
                match ended.said.as_deref().map(|said| (said, retry_in(said))) {
                    // why the arbiter's time: it said when a try can succeed
                    // (a failed admission is refused until then); sooner, the
                    // bridge would only start engines to be refused.
                    Some((said, Some(after))) => {
                        let pause = after.max(config.backoff);
                        // why cut: the bridge's own words say when.
                        let said = said
                            .rsplit_once("; retry in ")
                            .map_or(said, |(reason, _)| reason);
                        tracing::warn!(
                            slot = slot + 1,
                            "the arbiter closed the connection: {said}; retrying in {} s",
                            pause.as_secs_f64().ceil()
                        );
                        pause
                    }
                    // why backoff: a reason is the arbiter's, not a restart
                    // (`server stopping`, a revoked token, a bad query): at
                    // once again would be closed again.
                    Some((said, None)) => {
                        // why reset after a long connection: the backoff is
                        // for closes in a row, not for one a day ago.
                        if lasted >= config.max_backoff {
                            backoff = config.backoff;
                        }
                        let pause = backoff;
                        backoff = (backoff * 2).min(config.max_backoff);
                        tracing::warn!(
                            slot = slot + 1,
                            "the arbiter closed the connection: {said}; retrying in {} s",
                            pause.as_secs_f64()
                        );
                        pause
                    }
                    None => {
                        tracing::info!(
                            slot = slot + 1,
                            "connection ended after {lasted:?}: {}",
                            ended.why
                        );
                        // why at once: the arbiter closes a connection to
                        // replace the engine (`restart=on`, a fault) and
                        // waits for the next.
                        backoff = config.backoff;
                        RECONNECT_PAUSE
                    }
                }
            }
            Outcome::Failed(why) => {
                tracing::warn!(slot = slot + 1, "cannot connect to {}: {why}", config.url);
                let pause = backoff;
                backoff = (backoff * 2).min(config.max_backoff);
                pause
            }
            // why the arbiter's time: it said when a try can succeed (a
            // place free, its lock on this address over); sooner is refused.
            Outcome::Later(why, after) => {
                let pause = after.unwrap_or(backoff).max(config.backoff);
                tracing::warn!(
                    slot = slot + 1,
                    "the arbiter refused the connection for now (HTTP 429): {why}; \
                     trying again in {} s{}",
                    pause.as_secs_f64().ceil(),
                    if after.is_some() {
                        " (its Retry-After)"
                    } else {
                        ""
                    }
                );
                if after.is_none() {
                    backoff = (backoff * 2).min(config.max_backoff);
                }
                pause
            }
        };
        if config.connections.is_some_and(|n| made >= n) {
            return Ok(());
        }
        tokio::time::sleep(pause).await;
    }
}

/// One connection with one fresh engine, relayed until either ends.
async fn connect_once(config: &BridgeConfig, launch: &LaunchSpec) -> Result<Outcome, BridgeError> {
    let mut request = config
        .url
        .as_str()
        .into_client_request()
        .map_err(|e| BridgeError::BadUrl(format!("{}: {e}", config.url)))?;
    let bearer = HeaderValue::from_str(&format!("Bearer {}", config.token))
        .map_err(|_| BridgeError::Refused("the token is not a valid header value".into()))?;
    request.headers_mut().insert(header::AUTHORIZATION, bearer);
    let ws_config = crate::front::websocket::client_config(2 * umi::MAX_LINE_BYTES);
    let connector = config.tls.clone().map(Connector::Rustls);
    let connecting =
        tokio_tungstenite::connect_async_tls_with_config(request, Some(ws_config), true, connector);
    let mut ws = match connecting.await {
        Ok((ws, _)) => ws,
        Err(WsError::Http(response)) if response.status() == StatusCode::UNAUTHORIZED => {
            return Err(BridgeError::Refused(said(&response)))
        }
        Err(WsError::Http(response)) if response.status() == StatusCode::TOO_MANY_REQUESTS => {
            let after = retry_after(response.headers().get(header::RETRY_AFTER));
            return Ok(Outcome::Later(said(&response), after));
        }
        Err(WsError::Http(response)) => {
            return Ok(Outcome::Failed(format!(
                "HTTP {}: {}",
                response.status(),
                said(&response)
            )))
        }
        Err(e) => return tls_fault(&config.url, e).map(Outcome::Failed),
    };
    let started = Instant::now();
    // why not at once: a connection closed before its first line (the
    // arbiter stopping, a bad query) needs no engine.
    let first = match first_line(&mut ws).await {
        Ok(line) => line,
        Err(ended) => {
            let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
            return Ok(Outcome::Served(started.elapsed(), ended));
        }
    };
    let mut engine = match EngineProcess::spawn(launch) {
        Ok(engine) => engine,
        Err(e) => {
            let _ = ws.close(None).await;
            return Ok(Outcome::Failed(format!("cannot start the engine: {e}")));
        }
    };
    let mut options = Options::new(&config.options);
    let ended = relay(&mut ws, &mut engine, &mut options, first).await;
    engine.shutdown(Duration::from_millis(500)).await;
    let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(None)).await;
    Ok(Outcome::Served(started.elapsed(), ended))
}

/// The arbiter's first line on a fresh connection, or how the connection
/// ended before one came.
async fn first_line(ws: &mut Socket) -> Result<String, Ended> {
    loop {
        match ws.next().await {
            None => return Err(Ended::by_us("the arbiter closed the connection")),
            Some(Err(e)) => return Err(Ended::by_us(format!("connection error: {e}"))),
            Some(Ok(Message::Text(line))) => return Ok(line.as_str().to_owned()),
            Some(Ok(Message::Close(frame))) => {
                return Err(Ended::by_arbiter(
                    frame.as_ref().map_or("", |f| f.reason.as_str()),
                    None,
                ))
            }
            // Pings are answered by tungstenite; nothing else is sent.
            Some(Ok(_)) => {}
        }
    }
}

/// A connection error as a reason to retry, or, when TLS cannot work as
/// configured (retrying would fail the same way), the bridge's error.
fn tls_fault(url: &str, e: WsError) -> Result<String, BridgeError> {
    // why both: tokio-rustls reports a failed handshake as an I/O error
    // wrapping rustls's, tungstenite's own TLS code as its `Tls` error.
    let tls = match &e {
        WsError::Tls(TlsError::Rustls(why)) => Some(&**why),
        WsError::Io(io) => io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>()),
        _ => None,
    };
    match tls {
        Some(rustls::Error::InvalidCertificate(why)) => Err(BridgeError::Tls(format!(
            "{url}: the arbiter's certificate is not trusted ({why:?}); \
             give the CA that signed it with --ca FILE"
        ))),
        Some(why) => Err(BridgeError::Tls(format!(
            "{url}: TLS handshake failed ({why}); does the arbiter serve TLS \
             (--tls-cert)? If not, connect to ws://"
        ))),
        // why this reading: a TLS listener answers a plain request with a
        // TLS alert record (or closes), which is no HTTP response at all.
        None if url.starts_with("ws://")
            && matches!(e, WsError::HttpFormat(_) | WsError::Protocol(_)) =>
        {
            Err(BridgeError::Tls(format!(
                "{url}: the arbiter did not answer with HTTP ({e}); if it serves TLS \
                 (--tls-cert), connect to wss://"
            )))
        }
        None => Ok(e.to_string()),
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The author's options on one connection: which the engine declared (its
/// `option name …` lines), and whether the arbiter has sent `umi` or a
/// `setoption` since they were last sent.
pub struct Options<'a> {
    wanted: &'a [(String, String)],
    declared: Vec<String>,
    due: bool,
}

impl<'a> Options<'a> {
    pub fn new(wanted: &'a [(String, String)]) -> Options<'a> {
        Options {
            wanted,
            declared: Vec::new(),
            due: false,
        }
    }

    /// Notes an engine's line (an option it declares).
    pub fn from_engine(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("option name ") {
            // why " type ": an option's name may hold spaces (spec section 4).
            let name = rest.split(" type ").next().unwrap_or(rest).trim();
            self.declared.push(name.to_owned());
        }
    }

    /// The lines to send the engine before the arbiter's `line`: the
    /// author's `setoption`s before the first command after the arbiter's
    /// own (`umi`, `setoption`), each an option the engine declared; an
    /// undeclared one is left out with a warning, as the arbiter would
    /// refuse to send it.
    pub fn before_arbiter(&mut self, line: &str) -> Vec<String> {
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "umi" => {
                self.declared.clear();
                self.due = true;
                Vec::new()
            }
            "setoption" => {
                self.due = true;
                Vec::new()
            }
            "quit" | "" => Vec::new(),
            _ if self.due => {
                self.due = false;
                let mut lines = Vec::new();
                for (name, value) in self.wanted {
                    let declared = self.declared.iter().any(|d| d.eq_ignore_ascii_case(name));
                    if !declared {
                        tracing::warn!(
                            "option.{name}: the engine declares no option {name:?}; not sent"
                        );
                        continue;
                    }
                    lines.push(if value.is_empty() {
                        format!("setoption name {name}")
                    } else {
                        format!("setoption name {name} value {value}")
                    });
                }
                lines
            }
            _ => Vec::new(),
        }
    }
}

/// Relays lines both ways, `first` (the arbiter's first line) first,
/// until either side ends.
async fn relay(
    ws: &mut Socket,
    engine: &mut EngineProcess,
    options: &mut Options<'_>,
    first: String,
) -> Ended {
    // why a far deadline: the engine speaks when it wants; the arbiter
    // keeps the clocks.
    let far = || Instant::now() + Duration::from_secs(24 * 3600);
    if let Err(why) = to_engine(engine, options, &first).await {
        return Ended::by_us(why.to_string());
    }
    // The arbiter's last `info string` (see `Ended::by_arbiter`).
    let mut told: Option<String> = None;
    loop {
        tokio::select! {
            frame = ws.next() => match frame {
                None => return Ended::by_us("the arbiter closed the connection"),
                Some(Err(e)) => return Ended::by_us(format!("connection error: {e}")),
                Some(Ok(Message::Text(line))) => {
                    if let Some(text) = line.as_str().strip_prefix("info string ") {
                        told = Some(text.to_owned());
                    }
                    if let Err(why) = to_engine(engine, options, line.as_str()).await {
                        return Ended::by_us(why.to_string());
                    }
                }
                Some(Ok(Message::Close(frame))) => {
                    return Ended::by_arbiter(
                        frame.as_ref().map_or("", |f| f.reason.as_str()),
                        told.as_deref(),
                    );
                }
                // Pings are answered by tungstenite; nothing else is sent.
                Some(Ok(_)) => {}
            },
            line = engine.read_line_until(far()) => match line {
                Ok(line) => {
                    options.from_engine(&line);
                    if let Err(e) = ws.send(Message::Text(line.into())).await {
                        return Ended::by_us(format!("connection error: {e}"));
                    }
                }
                Err(ReadError::Timeout) => {}
                // why skip: the arbiter sees the same as from a process
                // whose unreadable line it dropped (spec section 9).
                Err(ReadError::LineTooLong { .. } | ReadError::InvalidUtf8 { .. }) => {}
                Err(ReadError::Eof | ReadError::Io(_)) => {
                    return Ended::by_us(match engine.wait_exit_until(Instant::now() + Duration::from_millis(500)).await {
                        Some(exit) => format!("the engine ended ({exit})"),
                        None => "the engine closed its output".into(),
                    })
                }
            },
        }
    }
}

/// The local engine did not take a line (the bridge then ends).
#[derive(Debug, thiserror::Error)]
#[error("the engine did not take a line: {0}")]
struct NotTaken(#[source] WriteError);

/// The arbiter's `line` to the engine, after the author's options due
/// before it.
async fn to_engine(
    engine: &mut EngineProcess,
    options: &mut Options<'_>,
    line: &str,
) -> Result<(), NotTaken> {
    for own in options.before_arbiter(line) {
        engine.send(&own).await.map_err(NotTaken)?;
    }
    engine.send(line).await.map_err(NotTaken)
}

#[cfg(test)]
mod tests {
    use super::{retry_after, retry_in, HeaderValue, Options, MAX_RETRY_AFTER};
    use std::time::Duration;

    #[test]
    fn a_retry_after_in_seconds_is_read_and_capped() {
        let read = |v: &str| retry_after(Some(&HeaderValue::from_str(v).unwrap()));
        assert_eq!(read("5"), Some(Duration::from_secs(5)));
        assert_eq!(read(" 42 "), Some(Duration::from_secs(42)));
        assert_eq!(read("999999"), Some(MAX_RETRY_AFTER));
        assert_eq!(read("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(read("-1"), None);
        assert_eq!(retry_after(None), None);
    }

    #[test]
    fn a_close_reason_says_how_long_to_wait() {
        let secs = |n| Some(Duration::from_secs(n));
        assert_eq!(
            retry_in("admission failed: FAIL isready: no readyok in 5 s; retry in 10 s"),
            secs(10)
        );
        assert_eq!(
            retry_in("alice already has 2 connection(s), its limit; try again in 5 s"),
            secs(5)
        );
        assert_eq!(retry_in("retry in 99999 s"), Some(MAX_RETRY_AFTER));
        assert_eq!(retry_in("server stopping"), None);
        assert_eq!(retry_in("retry in soon"), None);
        assert_eq!(retry_in("retry in 10 seconds or so"), secs(10));
        assert_eq!(retry_in("retry in 10"), None);
    }

    #[test]
    fn the_authors_options_follow_the_arbiters_and_only_declared_ones() {
        let wanted = vec![
            ("Level".to_owned(), "6".to_owned()),
            ("Missing".to_owned(), "1".to_owned()),
        ];
        let mut o = Options::new(&wanted);
        assert!(o.before_arbiter("umi").is_empty());
        o.from_engine("option name Level type spin default 10 min 1 max 20");
        o.from_engine("umiok");
        assert!(o.before_arbiter("setoption name Level value 9").is_empty());
        assert_eq!(
            o.before_arbiter("isready"),
            ["setoption name Level value 6"]
        );
        // Once sent, not again until the arbiter sets options again.
        assert!(o.before_arbiter("newgame bohnenspiel").is_empty());
        assert!(o.before_arbiter("setoption name Level value 3").is_empty());
        assert_eq!(
            o.before_arbiter("isready"),
            ["setoption name Level value 6"]
        );
    }
}
