//! The arbiter's end of one remote engine: what a session reads and writes
//! lines through instead of a process's pipes
//! ([`arbiter_core::contender::transport::Transport::Remote`]).
//!
//! A dropped connection is not at once the engine's end: for `grace` the
//! link waits for the bot to come back with the same token, then replays
//! what a fresh instance needs — `umi` … `umiok`, the `setoption` lines,
//! the game's `newgame` and `isready` … `readyok`, and the `position`/`go`
//! of a search in progress — while the engine's clock keeps running (the
//! search's time is measured from the first `go`). Not back in time, the
//! link reports end of output and the session's verdict is `disconnect`.
//!
//! A link may be told to resume its game only on the same engine
//! ([`RemoteLink::same_engine_only`], the arena's: a version is the
//! process that plays): a connection whose handshake names another `id
//! name` does not take the game over. It is handed, with its answer to
//! `umi`, to whoever serves fresh connections, and the link waits on.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::remote::conn::{ConnState, Inbound};
use crate::remote::held::{Got, Held};
use crate::remote::registry::{Connection, Registry};
use arbiter_core::contender::process::{
    ReadError, ShutdownReport, TrafficKind, TrafficLog, TrafficRecord, WriteError,
};
use arbiter_core::contender::transport::{LagCharge, Link, LinkFuture};
use arbiter_core::play::lag::{LagPolicy, LagTracker};
use arbiter_core::play::tc::{TimeControl, TimeLimit};

/// Why the replay onto a fresh connection (after the engine reconnected)
/// failed; the link ends with it, after the reason the old one dropped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// No answer line (`umiok`, `readyok`) before the deadline.
    #[error("no {0} in time")]
    NotInTime(&'static str),
    /// The fresh connection dropped too, before the answer.
    #[error("closed again before {0}")]
    ClosedBefore(&'static str),
    #[error("could not send {line:?}")]
    Unsent {
        line: String,
        #[source]
        cause: WriteError,
    },
}

/// How a remote engine's link behaves.
#[derive(Clone, Copy, Debug)]
pub struct LinkSettings {
    /// How long a dropped connection may take to come back (`--remote-grace`).
    pub grace: Duration,
    /// Time allowed for a line to be handed to the connection.
    pub write_timeout: Duration,
    pub lag: LagPolicy,
    pub tc: TimeControl,
}

/// What a fresh instance must be told to stand where the old one stood.
#[derive(Debug, Default)]
struct Replay {
    options: Vec<String>,
    newgame: Option<String>,
    /// The `position` and `go` lines of the search not yet answered.
    search: Vec<String>,
    /// `isready` lines sent whose `readyok` has not come: the session waits
    /// for them (its ordering barrier, spec section 6), so a fresh instance
    /// is sent as many before the search.
    unanswered_isready: u32,
}

/// Takes a connection that came back as another engine (see
/// [`RemoteLink::same_engine_only`]).
pub type OtherEngine = Arc<dyn Fn(RemoteLink) + Send + Sync>;

pub struct RemoteLink {
    /// The connection's number (the traffic log's pid).
    id: u32,
    /// The remote id its token proved.
    remote: String,
    /// Its upgrade request's query (the arena's `pools=`).
    query: Option<String>,
    state: Arc<ConnState>,
    held: Held,
    registry: Arc<Registry>,
    /// The engine's name for the traffic log.
    name: String,
    settings: LinkSettings,
    traffic: Option<Arc<dyn TrafficLog>>,
    last_line_at: std::time::Instant,
    lag: LagTracker,
    replay: Replay,
    /// Set once the link gave up on the engine (its last connection's end).
    ended: Option<String>,
    /// The engine's `id name`, as its first handshake said (`None`: none
    /// yet, or it sent none).
    id_name: Option<String>,
    /// Its first `umiok` has come (what follows is no longer the handshake).
    handshaken: bool,
    /// The answer to a `umi` already sent on this connection (by a game's
    /// link that found it another engine's), for the session's own `umi`.
    answered: Option<Vec<String>>,
    /// Lines received before and served ahead of the connection's own.
    pending: VecDeque<String>,
    /// Where a connection that comes back as another engine goes (`None`:
    /// any connection of the remote id resumes the game).
    other_engine: Option<OtherEngine>,
}

impl RemoteLink {
    pub fn new(
        conn: Connection,
        registry: Arc<Registry>,
        name: impl Into<String>,
        settings: LinkSettings,
    ) -> RemoteLink {
        RemoteLink {
            id: conn.id,
            remote: conn.remote,
            query: conn.query,
            state: conn.state,
            held: Held::from(conn.pipe),
            registry,
            name: name.into(),
            lag: LagTracker::new(settings.lag, &settings.tc),
            settings,
            traffic: None,
            last_line_at: std::time::Instant::now(),
            replay: Replay::default(),
            ended: None,
            id_name: None,
            handshaken: false,
            answered: None,
            pending: VecDeque::new(),
            other_engine: None,
        }
    }

    /// Resumes a game after a drop only on a connection whose engine says
    /// the same `id name` as this one did; another engine's connection is
    /// given to `other` (with its answer to `umi`, served to the session
    /// that starts on it) and the link waits on for its own.
    pub fn same_engine_only(mut self, other: OtherEngine) -> RemoteLink {
        self.other_engine = Some(other);
        self
    }

    pub fn id(&self) -> u32 {
        self.id
    }

    /// The connection's shared state (the one open now).
    pub fn state(&self) -> Arc<ConnState> {
        Arc::clone(&self.state)
    }

    /// The query of the connection's upgrade request.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }

    /// Sizes the lag quota by `tc` (before the first game).
    pub fn set_time_control(&mut self, tc: TimeControl) {
        self.settings.tc = tc;
        self.lag = LagTracker::new(self.settings.lag, &tc);
    }

    pub fn set_traffic_log(&mut self, log: Option<Arc<dyn TrafficLog>>) {
        self.traffic = log;
        self.note(&format!(
            "connected as {}, connection {}",
            self.remote, self.id
        ));
    }

    fn record(&self, kind: TrafficKind, text: &str, at: std::time::Instant) {
        if let Some(log) = &self.traffic {
            log.record(&TrafficRecord {
                at,
                engine: &self.name,
                pid: self.id,
                kind,
                text,
            });
        }
    }

    fn note(&self, text: &str) {
        self.record(TrafficKind::Event, text, std::time::Instant::now());
    }

    fn log_line(&mut self, kind: TrafficKind, text: &str) {
        self.last_line_at = std::time::Instant::now();
        self.record(kind, text, self.last_line_at);
    }

    pub fn last_line_at(&self) -> std::time::Instant {
        self.last_line_at
    }

    pub fn is_open(&self) -> bool {
        self.ended.is_none() && self.state.is_open()
    }

    /// [`RemoteLink::is_open`], after reading what has arrived: a socket
    /// the game holds but does not read now (between games) has no other
    /// reader to see it end.
    pub fn poll_open(&mut self) -> bool {
        self.held.poll_open() && self.is_open()
    }

    pub fn drop_reason(&self) -> Option<String> {
        self.ended.clone().or_else(|| {
            (!self.state.is_open()).then(|| {
                self.state
                    .reason()
                    .unwrap_or_else(|| "connection closed".into())
            })
        })
    }

    /// Ends the connection now.
    pub fn close(&mut self, why: &str) {
        self.state.close(why);
        self.ended.get_or_insert_with(|| why.to_owned());
        self.held.close();
        self.note(why);
    }

    pub fn lag_charge(&mut self, elapsed: Duration) -> LagCharge {
        let lag = self.state.rtt().unwrap_or(Duration::ZERO);
        let compensation = self.lag.on_move(lag, elapsed);
        LagCharge { lag, compensation }
    }

    fn remember(&mut self, lines: &[&str]) {
        for line in lines {
            let first = line.split_whitespace().next().unwrap_or("");
            match first {
                "setoption" => self.replay.options.push((*line).to_owned()),
                "newgame" => {
                    self.replay.newgame = Some((*line).to_owned());
                    self.replay.search.clear();
                    self.lag.new_game();
                }
                "position" => {
                    self.replay.search.clear();
                    self.replay.search.push((*line).to_owned());
                }
                "go" | "ponderhit" => self.replay.search.push((*line).to_owned()),
                "isready" => self.replay.unanswered_isready += 1,
                _ => {}
            }
        }
    }

    pub async fn send_lines(&mut self, lines: &[&str]) -> Result<(), WriteError> {
        if lines.iter().any(|l| l.contains(['\n', '\r'])) {
            return Err(WriteError::InvalidLine);
        }
        if self.ended.is_some() {
            return Err(WriteError::Closed);
        }
        if let Some(answer) = self.answered.take() {
            if lines == ["umi"] {
                // why not sent again: the engine answered the `umi` a game's
                // link sent it; a second one is no fresh instance's first line.
                self.note("umi already answered on this connection");
                self.log_line(TrafficKind::ToEngine, "umi");
                self.pending.extend(answer);
                return Ok(());
            }
        }
        let waited_from = std::time::Instant::now();
        let mut reconnected = false;
        if !self.state.is_open() {
            // why: a `stop`, `gameover` or `quit` to an engine that is away
            // starts nothing; waiting out the grace for it would only hold
            // up the end of the game.
            let ending = lines.iter().all(|l| {
                matches!(
                    l.split_whitespace().next(),
                    Some("stop" | "gameover" | "quit")
                )
            });
            if ending {
                return Err(WriteError::Closed);
            }
            // why before `remember`: the replay is of what came before.
            let until = Instant::now() + self.settings.grace;
            if !self.reconnect(until, false).await {
                return Err(WriteError::Closed);
            }
            reconnected = true;
        }
        self.remember(lines);
        self.held.send(lines, self.settings.write_timeout).await?;
        for line in lines {
            self.log_line(TrafficKind::ToEngine, line);
        }
        if reconnected {
            // why: the clock ran while the engine was away; a search timed
            // from this write starts when the wait did.
            self.last_line_at = waited_from;
        }
        Ok(())
    }

    pub async fn read_line_until(&mut self, deadline: Instant) -> Result<String, ReadError> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                return self.received(Inbound::Line(line));
            }
            if self.ended.is_some() {
                return Err(ReadError::Eof);
            }
            match self.held.recv(deadline).await {
                Got::Nothing => return Err(ReadError::Timeout),
                Got::Item(item) => return self.received(item),
                Got::Ended => {
                    let grace_end = Instant::now() + self.settings.grace;
                    // why: a wait cut short by the answer's deadline (the
                    // clock's flag, for a search under a clock) is not a
                    // grace that ran out.
                    let cut_short = deadline < grace_end;
                    if !self.reconnect(deadline.min(grace_end), cut_short).await {
                        return Err(ReadError::Eof);
                    }
                }
            }
        }
    }

    fn received(&mut self, item: Inbound) -> Result<String, ReadError> {
        match item {
            Inbound::Line(line) => {
                if !self.handshaken {
                    match umi::Message::parse(&line) {
                        Ok(umi::Message::IdName(n)) => self.id_name = Some(n.as_str().to_owned()),
                        Ok(umi::Message::UmiOk) => self.handshaken = true,
                        _ => {}
                    }
                }
                match line.split_whitespace().next() {
                    Some("bestmove") => self.replay.search.clear(),
                    Some("readyok") => {
                        let n = &mut self.replay.unanswered_isready;
                        *n = n.saturating_sub(1);
                    }
                    _ => {}
                }
                self.log_line(TrafficKind::FromEngine, &line);
                Ok(line)
            }
            Inbound::TooLong { bytes } => {
                let e = ReadError::LineTooLong {
                    bytes,
                    limit: umi::MAX_LINE_BYTES,
                };
                self.note(&e.to_string());
                Err(e)
            }
        }
    }

    /// A line already received, without waiting. A dropped connection
    /// reads as nothing yet: whether it comes back is decided by the next
    /// write or read, within the grace.
    pub async fn read_line_if_ready(&mut self) -> Result<Option<String>, ReadError> {
        if let Some(line) = self.pending.pop_front() {
            return self.received(Inbound::Line(line)).map(Some);
        }
        if self.ended.is_some() {
            return Err(ReadError::Eof);
        }
        match self.held.try_recv().await {
            Got::Item(item) => self.received(item).map(Some),
            Got::Nothing => Ok(None),
            Got::Ended if self.settings.grace.is_zero() => {
                self.give_up();
                Err(ReadError::Eof)
            }
            Got::Ended => Ok(None),
        }
    }

    fn give_up(&mut self) {
        let reason = self
            .state
            .reason()
            .unwrap_or_else(|| "connection closed".into());
        self.ended.get_or_insert(reason);
    }

    /// Waits until `until` for the engine's next connection and replays the
    /// session onto it; `false` (and the link ended) if none came or the
    /// replay failed.
    /// `cut_short`: `until` is the answer's deadline, before the grace ends.
    async fn reconnect(&mut self, until: Instant, cut_short: bool) -> bool {
        let reason = self
            .state
            .reason()
            .unwrap_or_else(|| "connection closed".into());
        if self.settings.grace.is_zero() {
            self.ended = Some(reason);
            return false;
        }
        self.note(&format!(
            "connection dropped ({reason}); waiting up to {:?} for it to come back",
            until.saturating_duration_since(Instant::now())
        ));
        let waited_from = Instant::now();
        loop {
            let Some(conn) = self.registry.take(&self.remote, until).await else {
                let why = if cut_short {
                    format!(
                        "{reason}; {} ran out {:.1?} into the grace of {:?}, before it was back",
                        self.what_ran_out(),
                        waited_from.elapsed(),
                        self.settings.grace
                    )
                } else {
                    format!(
                        "{reason}; not back within the grace of {:?}",
                        self.settings.grace
                    )
                };
                self.note(&why);
                self.ended = Some(why);
                return false;
            };
            let mut fresh = RemoteLink::new(
                conn,
                Arc::clone(&self.registry),
                self.name.clone(),
                self.settings,
            );
            fresh.traffic = self.traffic.clone();
            fresh.other_engine = self.other_engine.clone();
            self.note(&format!("connection {} arrived", fresh.id));
            let deadline = until.max(Instant::now() + self.settings.grace);
            let answer = match fresh.answer_umi(deadline).await {
                Ok(answer) => answer,
                Err(why) => {
                    let why = format!("{reason}; the replay after reconnecting failed: {why}");
                    self.note(&why);
                    fresh.state.close(&why);
                    self.ended = Some(why);
                    return false;
                }
            };
            if let Some(other) = self.other_engine.clone() {
                if fresh.id_name != self.id_name {
                    self.note(&format!(
                        "connection {} is another engine (id name {}, not {}): it does not \
                         resume this game, which waits on for its own",
                        fresh.id,
                        shown(fresh.id_name.as_deref()),
                        shown(self.id_name.as_deref()),
                    ));
                    // why as fresh: whoever takes it starts a session on it,
                    // whose `umi` this answer serves.
                    fresh.id_name = None;
                    fresh.handshaken = false;
                    fresh.answered = Some(answer);
                    fresh.traffic = None;
                    other(fresh);
                    continue;
                }
            }
            self.id = fresh.id;
            self.state.succeeded_by(&fresh.state);
            self.state = Arc::clone(&fresh.state);
            // why the old one closed now: it ended; its socket is let go.
            self.held = std::mem::replace(&mut fresh.held, Held::gone());
            self.note(&format!("reconnected as connection {}", self.id));
            return match self.replay_rest(deadline).await {
                Ok(()) => true,
                Err(why) => {
                    let why = format!("{reason}; the replay after reconnecting failed: {why}");
                    self.note(&why);
                    self.state.close(&why);
                    self.ended = Some(why);
                    false
                }
            };
        }
    }

    /// `umi` on a fresh connection: the lines of its answer, `umiok` the last.
    async fn answer_umi(&mut self, deadline: Instant) -> Result<Vec<String>, ReplayError> {
        self.push("umi").await?;
        let mut answer = Vec::new();
        loop {
            match self.held.recv(deadline).await {
                Got::Nothing => return Err(ReplayError::NotInTime("umiok")),
                Got::Ended => return Err(ReplayError::ClosedBefore("umiok")),
                Got::Item(item) => {
                    if let Ok(line) = self.received(item) {
                        let done = line == "umiok";
                        answer.push(line);
                        if done {
                            return Ok(answer);
                        }
                    }
                }
            }
        }
    }

    /// What a deadline that ends a wait for the engine is: its clock, when
    /// a search under a clock is under way, else the timeout of its answer.
    fn what_ran_out(&self) -> &'static str {
        let searching = self
            .replay
            .search
            .iter()
            .any(|l| l.starts_with("go") || l.starts_with("ponderhit"));
        let clock = !matches!(self.settings.tc.limit, TimeLimit::Infinite);
        if searching && clock {
            "its clock"
        } else {
            "the time for its answer"
        }
    }

    /// What follows `umi` … `umiok` on the engine's fresh connection.
    async fn replay_rest(&mut self, deadline: Instant) -> Result<(), ReplayError> {
        let mut lines = std::mem::take(&mut self.replay.options);
        lines.extend(self.replay.newgame.clone());
        for line in &lines {
            self.push(line).await?;
        }
        self.replay.options = lines
            .into_iter()
            .filter(|l| l.starts_with("setoption"))
            .collect();
        self.push("isready").await?;
        // why counted: `expect` reads this readyok as any other.
        self.replay.unanswered_isready += 1;
        self.expect("readyok", deadline).await?;
        for _ in 0..self.replay.unanswered_isready {
            self.push("isready").await?;
        }
        for line in self.replay.search.clone() {
            self.push(&line).await?;
        }
        Ok(())
    }

    async fn push(&mut self, line: &str) -> Result<(), ReplayError> {
        match self.held.send(&[line], self.settings.write_timeout).await {
            Ok(()) => {
                self.log_line(TrafficKind::ToEngine, line);
                Ok(())
            }
            Err(e) => Err(ReplayError::Unsent {
                line: line.to_owned(),
                cause: e,
            }),
        }
    }

    async fn expect(&mut self, wanted: &'static str, deadline: Instant) -> Result<(), ReplayError> {
        loop {
            match self.held.recv(deadline).await {
                Got::Nothing => return Err(ReplayError::NotInTime(wanted)),
                Got::Ended => return Err(ReplayError::ClosedBefore(wanted)),
                Got::Item(item) => {
                    if let Ok(line) = self.received(item) {
                        if line == wanted {
                            return Ok(());
                        }
                    }
                }
            }
        }
    }

    /// `quit`, then the connection is closed (the bridge then starts a
    /// fresh engine for its next connection); waits up to `grace` for the
    /// connection's last frames to go out.
    pub async fn shutdown(mut self, grace: Duration) -> ShutdownReport {
        let quit_sent = self.is_open() && self.push("quit").await.is_ok();
        self.close("closed by the arbiter");
        // why wait: the event may end, and the arbiter exit, right after
        // this; its runtime would drop the connection's task before the
        // close frame (or KGP's `goodbye`) went out.
        let _ = tokio::time::timeout(grace, self.state.finished()).await;
        ShutdownReport {
            exit: None,
            quit_sent,
            forced: false,
        }
    }
}

/// An `id name` in a note.
fn shown(id_name: Option<&str>) -> String {
    id_name.map_or_else(|| "none".to_owned(), |n| format!("{n:?}"))
}

/// The session's side of the link (the core's transport trait): each call
/// is the link's own method.
impl Link for RemoteLink {
    fn id(&self) -> u32 {
        RemoteLink::id(self)
    }

    fn set_traffic_log(&mut self, log: Option<Arc<dyn TrafficLog>>) {
        RemoteLink::set_traffic_log(self, log)
    }

    fn send_lines<'a>(
        &'a mut self,
        lines: &'a [&'a str],
    ) -> LinkFuture<'a, Result<(), WriteError>> {
        Box::pin(RemoteLink::send_lines(self, lines))
    }

    fn read_line_until(&mut self, deadline: Instant) -> LinkFuture<'_, Result<String, ReadError>> {
        Box::pin(RemoteLink::read_line_until(self, deadline))
    }

    fn read_line_if_ready(&mut self) -> LinkFuture<'_, Result<Option<String>, ReadError>> {
        Box::pin(RemoteLink::read_line_if_ready(self))
    }

    fn last_line_at(&self) -> std::time::Instant {
        RemoteLink::last_line_at(self)
    }

    fn lag_charge(&mut self, elapsed: Duration) -> LagCharge {
        RemoteLink::lag_charge(self, elapsed)
    }

    fn shutdown(self: Box<Self>, grace: Duration) -> LinkFuture<'static, ShutdownReport> {
        Box::pin(RemoteLink::shutdown(*self, grace))
    }

    fn close(&mut self, why: &str) {
        RemoteLink::close(self, why)
    }

    fn poll_open(&mut self) -> bool {
        RemoteLink::poll_open(self)
    }

    fn drop_reason(&self) -> Option<String> {
        RemoteLink::drop_reason(self)
    }
}
