//! One KGP bot's connection, over TCP or a WebSocket ([`Wire`]): the
//! greeting (`kgp 1 0 0`), the bot's `set auth:token` and `mode freeplay`,
//! then the relay between the connection and the arbiter's link through the
//! [`Adapter`]. The connection joins the remote engines' registry like a
//! `/umi` one, so a game takes it, replays onto it after a reconnect and
//! closes it exactly as it does those.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{timeout, timeout_at, Instant};

use crate::remote::conn::{Admission, ConnState, Inbound};
use crate::remote::frames::{close_frame, Bucket};
use crate::remote::kgp::adapter::{Adapter, Identity, Out};
use crate::remote::kgp::ended::{Ended, Refusal, SendError};
use crate::remote::kgp::endpoint::KgpEndpoint;
use crate::remote::kgp::lines::{Line, Lines};
use crate::remote::kgp::wire::{Arg, Command, MAX_LINE};
use crate::remote::registry::Opened;
use crate::remote::socket::CLOSED_BY_ARBITER;

/// Who the bot proved to be before `mode`.
struct Hello {
    remote: String,
    admission: Admission,
    identity: Identity,
}

/// How KGP lines travel: KGP is "a line protocol over TCP or WebSocket".
/// Everything above the transport (greeting, token, relay, limits) is the
/// same code for both.
pub trait Wire: Send {
    /// The next line the bot sent; `None` once it closed the connection.
    /// Cancel-safe: the relay `select!`s on it.
    fn recv(&mut self) -> impl Future<Output = io::Result<Option<Line>>> + Send;
    /// Sends one line (given without its line break).
    fn send_line(&mut self, line: &str) -> impl Future<Output = io::Result<()>> + Send;
    /// Ends the connection after the last line (the WebSocket's close frame;
    /// a TCP stream just closes when dropped).
    fn finish(&mut self, reason: &str) -> impl Future<Output = ()> + Send;
}

/// KGP over TCP: lines end with `\r\n` (`\n` accepted), at most
/// [`MAX_LINE`] bytes.
pub struct Tcp {
    lines: Lines<BufReader<OwnedReadHalf>>,
    w: OwnedWriteHalf,
}

impl Wire for Tcp {
    async fn recv(&mut self) -> io::Result<Option<Line>> {
        self.lines.next().await
    }

    async fn send_line(&mut self, line: &str) -> io::Result<()> {
        self.w.write_all(format!("{line}\r\n").as_bytes()).await
    }

    async fn finish(&mut self, _reason: &str) {}
}

/// KGP over a WebSocket: each text frame is one line (a trailing `\r\n` or
/// `\n` is allowed, a second line is not).
pub struct Ws(pub WebSocket);

/// The line a text frame carries.
fn frame_line(text: &str) -> io::Result<Line> {
    let line = text.strip_suffix('\n').unwrap_or(text);
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.contains(['\n', '\r']) {
        // why an error (the connection ends) rather than a KGP `error`: the
        // client framed its lines wrongly, and every later line would be too.
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a frame with more than one line (one KGP line per frame)",
        ));
    }
    Ok(if line.len() > MAX_LINE {
        Line::TooLong { bytes: line.len() }
    } else {
        Line::Text(line.to_owned())
    })
}

impl Wire for Ws {
    async fn recv(&mut self) -> io::Result<Option<Line>> {
        loop {
            // why a loop: WebSocket pings and pongs are the transport's (the
            // library answers pings); KGP's own `ping` is a line.
            match self.0.recv().await {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Err(e)) => return Err(io::Error::other(e)),
                Some(Ok(Message::Text(text))) => return frame_line(text.as_str()).map(Some),
                Some(Ok(Message::Binary(_))) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a binary frame (KGP lines are text frames)",
                    ))
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            }
        }
    }

    async fn send_line(&mut self, line: &str) -> io::Result<()> {
        self.0
            .send(Message::Text(line.to_owned().into()))
            .await
            .map_err(io::Error::other)
    }

    async fn finish(&mut self, reason: &str) {
        // why 1000 (normal): the bot was told why in KGP (`error`, `goodbye`).
        let _ = self.0.send(close_frame(1000, reason)).await;
    }
}

async fn send<W: Wire>(w: &mut W, c: &Command, ep: &KgpEndpoint) -> Result<(), SendError> {
    match timeout(ep.limits.write_timeout, w.send_line(&c.to_string())).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(SendError::Connection(e)),
        Err(_) => Err(SendError::Timeout(ep.limits.write_timeout)),
    }
}

/// Ends the connection, giving the close no longer than a line to go out.
async fn finish<W: Wire>(w: &mut W, reason: &str, ep: &KgpEndpoint) {
    let _ = timeout(ep.limits.write_timeout, w.finish(reason)).await;
}

/// Serves one accepted TCP connection, from `peer`, to its end.
pub async fn serve(stream: TcpStream, peer: SocketAddr, ep: Arc<KgpEndpoint>) {
    let _ = stream.set_nodelay(true);
    let (r, w) = stream.into_split();
    let wire = Tcp {
        lines: Lines::new(BufReader::new(r), MAX_LINE),
        w,
    };
    serve_on(wire, peer, ep).await;
}

/// Serves one KGP connection from `peer`, on either transport, to its
/// end. Its greeting (up to `mode`) holds one of the endpoint's greeting
/// places, counted in all and by `peer`'s address; a connection with none
/// left is told why (`error`) and closed.
pub async fn serve_on<W: Wire>(w: W, peer: SocketAddr, ep: Arc<KgpEndpoint>) {
    use tracing::Instrument;
    // why a span: every log event of the connection says whose it is.
    let span =
        tracing::error_span!("connection", %peer, proto = "kgp", bot = tracing::field::Empty);
    serve_in_span(w, peer, ep).instrument(span).await
}

async fn serve_in_span<W: Wire>(mut w: W, peer: SocketAddr, ep: Arc<KgpEndpoint>) {
    let permit = match ep.greetings.admit(peer.ip()) {
        Ok(permit) => permit,
        Err(full) => {
            let why = format!("refused: {full}; try again later");
            tracing::info!(%peer, "kgp: {why}");
            let _ = send(&mut w, &Command::error(None, &why), &ep).await;
            finish(&mut w, &why, &ep).await;
            return;
        }
    };
    let mut bucket = Bucket::new(ep.limits.lines_per_second, ep.limits.line_burst);
    if send(&mut w, &kgp_version(), &ep).await.is_err() {
        return;
    }
    let hello = match handshake(&mut w, &ep, &mut bucket, peer).await {
        Ok(h) => h,
        Err(why) => {
            let why = why.to_string();
            tracing::info!(%peer, "kgp: refused a bot: {why}");
            let _ = send(&mut w, &Command::error(None, &why), &ep).await;
            let _ = send(&mut w, &Command::new("goodbye"), &ep).await;
            finish(&mut w, &why, &ep).await;
            return;
        }
    };
    drop(permit);
    tracing::Span::current().record("bot", hello.remote.as_str());
    // why no query: a KGP connection has no upgrade request to carry pools.
    let Opened {
        id,
        state,
        inbound: in_tx,
        outbound: out_rx,
    } = ep
        .registry
        .open(&hello.remote, None, ep.limits.inbound_queue);
    tracing::info!(remote = %hello.remote, id, %peer, "kgp bot connected");
    let adapter = Adapter::new(&hello.remote, hello.identity);
    let mut relay = Relay {
        ep: ep.as_ref(),
        adapter,
        state: state.as_ref(),
        inbound: in_tx,
        bucket,
        pings: Pings::default(),
    };
    let ended = relay.run(&mut w, out_rx).await;
    let own = ended.to_string();
    state.close(&own);
    // why the state's reason: the first one stands, and the arbiter's (a
    // failed admission, a revoked bot, the server stopping) comes before
    // the `quit` that ends the relay.
    let reason = state.reason().unwrap_or(own);
    let clean = if reason == ended.to_string() {
        ended.is_clean()
    } else {
        // why a string here: the arbiter gave its reason as text, through
        // the connection's state; only its letting go is no fault.
        reason == CLOSED_BY_ARBITER
    };
    tracing::info!(remote = %hello.remote, id, "kgp connection dropped: {reason}");
    if !clean {
        let _ = send(&mut w, &Command::error(None, &reason), &ep).await;
    }
    let _ = send(&mut w, &Command::new("goodbye"), &ep).await;
    finish(&mut w, &reason, &ep).await;
    state.finish();
    drop(hello.admission);
}

fn kgp_version() -> Command {
    Command::new("kgp")
        .arg(Arg::Int(1))
        .arg(Arg::Int(0))
        .arg(Arg::Int(0))
}

/// A line that does not read: why, as an `error` for the bot.
fn refusal(line: Line) -> Result<Command, Command> {
    match line {
        Line::Text(t) => Command::parse(&t).map_err(|e| Command::error(None, &e.to_string())),
        Line::TooLong { bytes } => Err(Command::error(
            None,
            &format!("line of {bytes} bytes, over KGP's limit of {MAX_LINE}"),
        )),
        Line::NotUtf8 => Err(Command::error(None, "a line that is not UTF-8")),
    }
}

/// Reads the bot's `set` lines and its `mode` before the deadline; the
/// error is what to tell it before `goodbye`.
async fn handshake<W: Wire>(
    w: &mut W,
    ep: &KgpEndpoint,
    bucket: &mut Bucket,
    peer: SocketAddr,
) -> Result<Hello, Refusal> {
    let deadline = Instant::now() + ep.limits.auth_deadline;
    let mut token: Option<String> = None;
    let mut identity = Identity::default();
    let mode = loop {
        let line = match timeout_at(deadline, w.recv()).await {
            Err(_) => return Err(Refusal::NoMode(ep.limits.auth_deadline)),
            Ok(Err(e)) => return Err(Refusal::Connection(e)),
            Ok(Ok(None)) => return Err(Refusal::ClosedBeforeMode),
            Ok(Ok(Some(line))) => line,
        };
        if !bucket.take() {
            return Err(Refusal::Flood);
        }
        let c = match refusal(line) {
            Ok(c) => c,
            Err(e) => {
                send(w, &e, ep).await?;
                continue;
            }
        };
        match (c.name.as_str(), c.args.as_slice()) {
            ("mode", [m]) => break m.text().unwrap_or("").to_owned(),
            ("set", [key, value]) => match (key.text(), value.text()) {
                (Some("auth:token"), Some(t)) => token = Some(t.to_owned()),
                (Some("info:name"), Some(n)) => identity.name = Some(n.to_owned()),
                (Some("info:authors"), Some(a)) => identity.authors = Some(a.to_owned()),
                _ => {}
            },
            ("mode", _) => {
                let why = "mode takes one argument, the activity (freeplay)";
                send(w, &Command::error(c.id, why), ep).await?;
            }
            ("pong" | "ok" | "error", _) => {}
            (name, _) => {
                let why =
                    format!("{name} before mode: a client sends set lines, then mode freeplay");
                send(w, &Command::error(c.id, &why), ep).await?;
            }
        }
    };
    if mode != "freeplay" {
        return Err(Refusal::Activity(mode));
    }
    let token = token.ok_or(Refusal::NoToken)?;
    // why by the peer's address: a token guesser is refused, with when to
    // try again, after too many wrong ones (crate::remote::logins).
    let remote = ep.registry.identify_from(peer.ip(), Some(&token))?;
    if !ep.speakers.admits(&remote) {
        return Err(Refusal::NotKgp(remote));
    }
    let admission = ep.registry.admit(&remote)?;
    Ok(Hello {
        remote,
        admission,
        identity,
    })
}

/// The time after which an unanswered `ping` is sent again (a new id): a
/// fifth of the pong timeout (3 s of the default 15 s), at least the ping
/// interval. Why: a client may lose the `ping` line (or its `pong`)
/// without being dead; it is asked again before it is dropped.
pub fn ping_retry(limits: &crate::remote::limits::Limits) -> Duration {
    (limits.pong_timeout / 5).max(limits.ping_interval)
}
/// The unanswered pings kept (a `pong` to any of them counts).
const KEPT_PINGS: usize = 8;

/// The connection's pings: KGP's liveness check, and its round trip.
#[derive(Default)]
struct Pings {
    /// Those not answered yet: id and when each went out, oldest first.
    unanswered: Vec<(u64, Instant)>,
    /// When the first of them went out.
    since: Option<Instant>,
    /// The last time the bot said anything, or a search was under way
    /// (no pings then): the silence that counts starts after it.
    heard: Option<Instant>,
}

/// The connection's state while it is open.
struct Relay<'a> {
    ep: &'a KgpEndpoint,
    adapter: Adapter,
    state: &'a ConnState,
    inbound: mpsc::Sender<Inbound>,
    bucket: Bucket,
    pings: Pings,
}

impl Relay<'_> {
    /// Relays until the connection ends; returns why it ended.
    async fn run<W: Wire>(
        &mut self,
        w: &mut W,
        mut outbound: mpsc::Receiver<Vec<String>>,
    ) -> Ended {
        let mut pings = tokio::time::interval(self.ep.limits.ping_interval);
        pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        self.pings.heard = Some(Instant::now());
        loop {
            let timer = self.adapter.next_timer();
            let outs = tokio::select! {
                line = w.recv() => match line {
                    Err(e) => return Ended::Connection(e),
                    Ok(None) => return Ended::Closed,
                    Ok(Some(line)) => {
                        if !self.bucket.take() {
                            return Ended::Flood {
                                lines_per_second: self.ep.limits.lines_per_second,
                                burst: self.ep.limits.line_burst,
                            };
                        }
                        self.pings.heard = Some(Instant::now());
                        self.on_line(line)
                    }
                },
                lines = outbound.recv() => match lines {
                    None => return Ended::ByArbiter,
                    Some(lines) => {
                        let now = Instant::now();
                        lines.iter().flat_map(|line| self.adapter.on_umi(line, now)).collect()
                    }
                },
                () = sleep_until_some(timer) => self.adapter.on_timer(Instant::now()),
                _ = pings.tick() => match self.ping() {
                    Ok(outs) => outs,
                    Err(why) => return why,
                },
            };
            for out in outs {
                if let Err(why) = self.apply(out, w).await {
                    return why;
                }
            }
        }
    }

    /// The ping tick: no `ping` while a `state` is out (why: a client that
    /// writes its `pong` while the `state` waits unread in its buffer may
    /// lose the `state`); an unanswered one is sent again (a new id) after
    /// [`ping_retry`]; a bot silent for the pong timeout while a ping is
    /// unanswered is dropped.
    fn ping(&mut self) -> Result<Vec<Out>, Ended> {
        let now = Instant::now();
        if self.adapter.searching() {
            self.pings.heard = Some(now);
            return Ok(Vec::new());
        }
        let timeout = self.ep.limits.pong_timeout;
        if let Some(since) = self.pings.since {
            let quiet_from = self.pings.heard.map_or(since, |h| h.max(since));
            if now.saturating_duration_since(quiet_from) > timeout {
                return Err(Ended::NoPong {
                    pings: self.pings.unanswered.len(),
                    after: timeout,
                });
            }
        }
        let retry = ping_retry(&self.ep.limits);
        let due = self
            .pings
            .unanswered
            .last()
            .is_none_or(|&(_, at)| now.saturating_duration_since(at) >= retry);
        if !due {
            return Ok(Vec::new());
        }
        let id = self.adapter.next_id();
        self.pings.unanswered.push((id, now));
        if self.pings.unanswered.len() > KEPT_PINGS {
            self.pings.unanswered.remove(0);
        }
        self.pings.since.get_or_insert(now);
        Ok(vec![Out::Kgp(Command::new("ping").id(id))])
    }

    fn on_line(&mut self, line: Line) -> Vec<Out> {
        let c = match refusal(line) {
            Ok(c) => c,
            Err(e) => return vec![Out::Kgp(e)],
        };
        match c.name.as_str() {
            "ping" => vec![Out::Kgp(Command::new("pong").answering(c.id))],
            "pong" => {
                // why any unanswered one: the bot may have lost a ping and
                // answered its retry. A pong to none is ignored.
                let answered = self
                    .pings
                    .unanswered
                    .iter()
                    .find(|&&(id, _)| c.reference == Some(id));
                if let Some(&(_, sent)) = answered {
                    self.state.record_rtt(sent.elapsed());
                    self.pings.unanswered.clear();
                    self.pings.since = None;
                }
                Vec::new()
            }
            _ => self.adapter.on_kgp(&c),
        }
    }

    async fn apply<W: Wire>(&mut self, out: Out, w: &mut W) -> Result<(), Ended> {
        match out {
            Out::Kgp(c) => {
                self.bucket.credit(self.ep.limits.answer_credit);
                Ok(send(w, &c, self.ep).await?)
            }
            Out::Umi(line) => match self.inbound.try_send(Inbound::Line(line)) {
                Ok(()) => Ok(()),
                Err(mpsc::error::TrySendError::Full(_)) => {
                    Err(Ended::Unasked(self.ep.limits.inbound_queue))
                }
                Err(mpsc::error::TrySendError::Closed(_)) => Err(Ended::ByArbiter),
            },
            // why dropped when the queue is full: notes are for the log,
            // and between games nobody reads them.
            Out::Note(line) => {
                let _ = self.inbound.try_send(Inbound::Line(line));
                Ok(())
            }
            Out::Close(why) => Err(why),
        }
    }
}

async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_frame_is_one_line_with_or_without_its_break() {
        for frame in ["4 move 3", "4 move 3\n", "4 move 3\r\n"] {
            assert_eq!(frame_line(frame).unwrap(), Line::Text("4 move 3".into()));
        }
        let e = frame_line("4 move 3\n6 yield").unwrap_err();
        assert!(e.to_string().contains("more than one line"), "{e}");
        let long = "x".repeat(MAX_LINE + 1);
        assert_eq!(
            frame_line(&long).unwrap(),
            Line::TooLong {
                bytes: MAX_LINE + 1
            }
        );
    }
}
