//! One `/umi` connection's WebSocket with what reading it checks (the flood
//! bucket, one line a frame, no binary frames, the line limit) and its
//! pings. Whoever holds the connection reads and writes the socket itself:
//! the keeper task ([`keep`]) while it waits in the registry, the game's
//! own task ([`crate::remote::link`]) while a game holds it. why not a
//! relay task throughout: handing every line between the game's task and a
//! relay task cost two task switches a ply, most of the arbiter's own work
//! for a remote engine (sharing the socket's write half behind a lock
//! instead was slower still).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{FutureExt, SinkExt};
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::remote::conn::{Admission, ConnState, Inbound};
use crate::remote::frames::{send_close, umi_close, Bucket};
use crate::remote::limits::Limits;

/// What a game sends the keeper to take the socket: where to put it.
pub type Claim = oneshot::Sender<oneshot::Sender<UmiSocket>>;

/// The close frame's reason when the arbiter lets a connection go.
pub const CLOSED_BY_ARBITER: &str = "closed by the arbiter";

/// Why a `/umi` connection ended, as its reader or writer found it. The
/// text of each is the reason its state keeps and its close frame gives.
#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    /// A close frame, or the stream's end.
    #[error("the bot closed the connection")]
    Closed,
    /// The WebSocket failed, reading or writing.
    #[error("connection error: {0}")]
    Connection(#[source] axum::Error),
    /// More lines than the flood bucket allows.
    #[error("flood: more than {lines_per_second} lines a second (bursts of {burst})")]
    Flood { lines_per_second: u32, burst: u32 },
    /// More lines nobody asked for than the queue holds.
    #[error("{0} lines sent that nobody asked for")]
    Unasked(usize),
    #[error("a frame with more than one line (one UMI line per frame)")]
    MultiLine,
    #[error("a binary frame (UMI lines are text frames)")]
    Binary,
    /// The bot stopped reading: lines did not go out in the write timeout.
    #[error("stopped reading: a line did not go out in {0:?}")]
    WriteTimeout(Duration),
    /// The bot stopped reading: no pong for the pong timeout.
    #[error("stopped reading: no pong for {0:?}")]
    NoPong(Duration),
    /// The bot stopped reading: a ping did not go out in the write timeout.
    #[error("stopped reading: a ping did not go out")]
    PingTimeout,
}

impl SocketError {
    /// Whether the bot stopped reading (its writes timed out, or its pongs
    /// stopped), as opposed to closing, failing or flooding.
    pub fn stopped_reading(&self) -> bool {
        matches!(
            self,
            SocketError::WriteTimeout(_) | SocketError::NoPong(_) | SocketError::PingTimeout
        )
    }
}

/// How soon after a write the read must begin for the ping sent with the
/// write to give a round trip (a session reads at once after `go`).
const WRITE_READ_GAP: Duration = Duration::from_millis(5);

/// An authenticated `/umi` connection and its reading state.
#[derive(Debug)]
pub struct UmiSocket {
    ws: Exclusive,
    limits: Limits,
    state: Arc<ConnState>,
    /// Counts the connection as open until it is closed.
    admission: Admission,
    remote: String,
    id: u32,
    bucket: Bucket,
    /// Lines read and not yet asked for (by the keeper, or by a poll).
    queued: VecDeque<Inbound>,
    seq: u64,
    /// The ping whose pong gives a round trip: its number and when it went
    /// out. Only while nobody stopped reading since (see [`UmiSocket::read`]).
    awaiting: Option<(u64, Instant)>,
    next_ping: Instant,
    /// The oldest ping not answered since the last pong: its number and
    /// when it went out (for the pong timeout).
    unanswered: Option<(u64, Instant)>,
}

/// The socket, `Sync` as a session must be (a WebSocket is not) at no
/// cost: only ever reached through `&mut`, the lock is never taken.
#[derive(Debug)]
struct Exclusive(std::sync::Mutex<WebSocket>);

impl Exclusive {
    fn get(&mut self) -> &mut WebSocket {
        self.0
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn into_inner(self) -> WebSocket {
        self.0
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One step of reading.
enum Step {
    Item(Inbound),
    /// A frame or a ping that gives the reader nothing.
    Nothing,
    Deadline,
}

impl UmiSocket {
    pub fn new(
        ws: WebSocket,
        limits: Limits,
        state: Arc<ConnState>,
        admission: Admission,
        remote: String,
        id: u32,
    ) -> UmiSocket {
        UmiSocket {
            ws: Exclusive(std::sync::Mutex::new(ws)),
            bucket: Bucket::new(limits.lines_per_second, limits.line_burst),
            limits,
            state,
            admission,
            remote,
            id,
            queued: VecDeque::new(),
            seq: 0,
            awaiting: None,
            next_ping: Instant::now() + limits.ping_interval,
            unanswered: None,
        }
    }

    /// The next line, waiting until `deadline` (`Ok(None)` then); `Err`
    /// says why the connection ended (it is marked closed, and the caller
    /// closes the socket).
    pub async fn read(&mut self, deadline: Instant) -> Result<Option<Inbound>, SocketError> {
        if let Some(item) = self.queued.pop_front() {
            return Ok(Some(item));
        }
        self.forget_stale_ping();
        let began = Instant::now();
        let found = loop {
            match self.step(began, deadline).await {
                Ok(Step::Item(item)) => break Ok(Some(item)),
                Ok(Step::Deadline) => break Ok(None),
                Ok(Step::Nothing) => {}
                Err(why) => break Err(why),
            }
        };
        // why: a pong read in a later read would count the time nobody read
        // in its round trip.
        self.awaiting = None;
        self.ended(found)
    }

    /// A line already received, without waiting (`Ok(None)`: none yet).
    pub fn read_ready(&mut self) -> Result<Option<Inbound>, SocketError> {
        if let Some(item) = self.queued.pop_front() {
            return Ok(Some(item));
        }
        self.forget_stale_ping();
        let found = loop {
            // why now_or_never: a frame not yet whole stays in the socket
            // (`recv` is cancel safe), the next read finishes it.
            match self.ws.get().recv().now_or_never() {
                None => break Ok(None),
                Some(frame) => match self.frame(frame) {
                    Ok(Some(item)) => break Ok(Some(item)),
                    Ok(None) => {}
                    Err(why) => break Err(why),
                },
            }
        };
        self.ended(found)
    }

    /// Reads what has arrived into the queue, without waiting: `Err` says
    /// why the connection ended (for a holder that does not read now).
    pub fn poll_open(&mut self) -> Result<(), SocketError> {
        loop {
            match self.read_ready()? {
                None => return Ok(()),
                Some(item) => self.queue(item)?,
            }
        }
    }

    /// Writes `lines`, one frame each, in one flush (`position` and `go` go
    /// out together, as a process gets them in one write), after a ping if
    /// one is due. why the ping with the lines: the bot reads it before
    /// them, so its pong comes before its answer (a `bestmove` at once,
    /// from a fast engine) and the read that waits for the answer measures
    /// the round trip; a ping sent once the read began would be answered
    /// after it.
    pub async fn send(&mut self, lines: &[&str]) -> Result<(), SocketError> {
        let asked = u32::try_from(lines.len()).unwrap_or(u32::MAX);
        self.bucket
            .credit(asked.saturating_mul(self.limits.answer_credit));
        if Instant::now() >= self.next_ping {
            // why: a pong that came while nobody read is still unread;
            // without it the pong timeout would be judged wrong.
            self.poll_open()?;
        }
        let ping = match self.ping_due() {
            Ok(ping) => ping,
            Err(why) => return self.ended(Err(why)),
        };
        let write_timeout = self.limits.write_timeout;
        let ws = self.ws.get();
        let send = async {
            if let Some(ping) = ping {
                ws.feed(ping).await?;
            }
            for line in lines {
                ws.feed(Message::Text((*line).into())).await?;
            }
            ws.flush().await
        };
        let sent = match tokio::time::timeout(write_timeout, send).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(SocketError::Connection(e)),
            Err(_) => Err(SocketError::WriteTimeout(write_timeout)),
        };
        self.ended(sent)
    }

    /// Marks the connection closed when `result` says it ended.
    fn ended<T>(&self, result: Result<T, SocketError>) -> Result<T, SocketError> {
        if let Err(why) = &result {
            self.state.close(&why.to_string());
        }
        result
    }

    /// Queues a line read while nobody asked; too many is a flood.
    fn queue(&mut self, item: Inbound) -> Result<(), SocketError> {
        if self.queued.len() >= self.limits.inbound_queue {
            let why = SocketError::Unasked(self.limits.inbound_queue);
            self.state.close(&why.to_string());
            return Err(why);
        }
        self.queued.push_back(item);
        Ok(())
    }

    /// Reads one frame, or pings when one is due, or finds `deadline`
    /// passed. why pings wait for a read that `began` a ping interval ago:
    /// a bot that answers at once answers before its pong (its ping went
    /// with the lines, [`UmiSocket::send`]); one that thinks is pinged.
    async fn step(&mut self, began: Instant, deadline: Instant) -> Result<Step, SocketError> {
        let ping_at = self.next_ping.max(began + self.limits.ping_interval);
        let wake = deadline.min(ping_at);
        tokio::select! {
            // why biased: frames already here (a pong among them) are read
            // before a ping's time is judged.
            biased;
            frame = self.ws.get().recv() => Ok(match self.frame(frame)? {
                Some(item) => Step::Item(item),
                None => Step::Nothing,
            }),
            () = tokio::time::sleep_until(wake) => {
                if Instant::now() < ping_at {
                    return Ok(Step::Deadline);
                }
                self.ping().await?;
                Ok(Step::Nothing)
            }
        }
    }

    /// Checks one frame: a line for the reader, nothing, or why the
    /// connection ends.
    fn frame(
        &mut self,
        frame: Option<Result<Message, axum::Error>>,
    ) -> Result<Option<Inbound>, SocketError> {
        let frame = match frame {
            None => return Err(SocketError::Closed),
            Some(Err(e)) => return Err(SocketError::Connection(e)),
            Some(Ok(frame)) => frame,
        };
        match frame {
            Message::Text(text) => {
                if !self.bucket.take() {
                    return Err(SocketError::Flood {
                        lines_per_second: self.limits.lines_per_second,
                        burst: self.limits.line_burst,
                    });
                }
                let line = text.as_str();
                let line = line.strip_suffix('\n').unwrap_or(line);
                let line = line.strip_suffix('\r').unwrap_or(line);
                if line.contains(['\n', '\r']) {
                    return Err(SocketError::MultiLine);
                }
                Ok(Some(if line.len() > umi::MAX_LINE_BYTES {
                    Inbound::TooLong { bytes: line.len() }
                } else {
                    Inbound::Line(line.to_owned())
                }))
            }
            Message::Binary(_) => Err(SocketError::Binary),
            Message::Pong(payload) => {
                let n = <[u8; 8]>::try_from(payload.as_ref()).map(u64::from_be_bytes);
                if let Ok(n) = n {
                    if let Some((m, sent)) = self.awaiting {
                        if n == m {
                            self.state.record_rtt(sent.elapsed());
                            self.awaiting = None;
                        }
                    }
                    // why any of ours since the oldest unanswered: the bot
                    // reads; a pong it made up (not ours) proves nothing.
                    if self
                        .unanswered
                        .is_some_and(|(first, _)| (first..=self.seq).contains(&n))
                    {
                        self.unanswered = None;
                    }
                }
                Ok(None)
            }
            // tungstenite answers pings by itself.
            Message::Ping(_) => Ok(None),
            Message::Close(_) => Err(SocketError::Closed),
        }
    }

    /// A ping to send if one is due, its sending noted; `Err` if pings
    /// went unanswered for the pong timeout.
    fn ping_due(&mut self) -> Result<Option<Message>, SocketError> {
        let now = Instant::now();
        if now < self.next_ping {
            return Ok(None);
        }
        self.next_ping = now + self.limits.ping_interval;
        if let Some((_, since)) = self.unanswered {
            if now.duration_since(since) > self.limits.pong_timeout {
                return Err(SocketError::NoPong(self.limits.pong_timeout));
            }
        }
        if self.awaiting.is_some() {
            return Ok(None);
        }
        self.seq += 1;
        self.awaiting = Some((self.seq, now));
        self.unanswered.get_or_insert((self.seq, now));
        Ok(Some(Message::Ping(self.seq.to_be_bytes().to_vec().into())))
    }

    /// Pings if a ping is due (see [`UmiSocket::ping_due`]).
    async fn ping(&mut self) -> Result<(), SocketError> {
        let Some(ping) = self.ping_due()? else {
            return Ok(());
        };
        match tokio::time::timeout(self.limits.write_timeout, self.ws.get().send(ping)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(SocketError::Connection(e)),
            Err(_) => Err(SocketError::PingTimeout),
        }
    }

    /// Forgets the ping sent with the last lines if the read that follows
    /// them comes late: its pong may have waited unread meanwhile.
    fn forget_stale_ping(&mut self) {
        if self
            .awaiting
            .is_some_and(|(_, sent)| sent.elapsed() > WRITE_READ_GAP)
        {
            self.awaiting = None;
        }
    }

    /// Closes the connection for `reason`: marks it closed, gives its slot
    /// back, then sends the close frame (and reads on for the peer's, see
    /// [`send_close`]).
    pub async fn close(self, reason: &str) {
        let UmiSocket {
            ws,
            limits,
            state,
            admission,
            remote,
            id,
            ..
        } = self;
        state.close(reason);
        // why the state's reason: the first one given stands (the arena's
        // "server stopping", say), not the generic one of whoever lets the
        // socket go last.
        let reason = state.reason().unwrap_or_else(|| reason.to_owned());
        tracing::info!(remote = %remote, id, "remote connection dropped: {reason}");
        // The slot is free once the connection is closed for the arbiter;
        // the close handshake below must not hold it.
        drop(admission);
        let mut ws = ws.into_inner();
        send_close(&mut ws, umi_close(&reason), limits.write_timeout).await;
        state.finish();
    }

    /// [`UmiSocket::close`] in a task of its own (it may read on for 2 s).
    pub fn close_in_background(self, reason: &str) {
        let reason = reason.to_owned();
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => {
                rt.spawn(async move { self.close(&reason).await });
            }
            // why: no runtime (its end): dropping the socket is all there is.
            Err(_) => {
                self.state.close(&reason);
                self.state.finish();
            }
        }
    }
}

/// Keeps the connection while it waits in the registry: reads (queueing
/// the lines that come), pings, and hands the socket over when a game
/// claims it; closes it when it ends or when its [`Claim`] is dropped
/// unused (the arbiter let it go).
pub async fn keep(mut socket: UmiSocket, mut claim: oneshot::Receiver<oneshot::Sender<UmiSocket>>) {
    // why a year: the keeper has no deadline, only pings.
    let began = Instant::now();
    let never = began + Duration::from_secs(365 * 24 * 3600);
    let reason = loop {
        enum Event {
            Claimed(Result<oneshot::Sender<UmiSocket>, oneshot::error::RecvError>),
            Read(Result<Step, SocketError>),
        }
        let event = tokio::select! {
            biased;
            asked = &mut claim => Event::Claimed(asked),
            step = socket.step(began, never) => Event::Read(step),
        };
        match event {
            Event::Claimed(Ok(reply)) => {
                // why: the game's reading starts afresh (see `read`).
                socket.awaiting = None;
                if let Err(socket) = reply.send(socket) {
                    socket.close(CLOSED_BY_ARBITER).await;
                }
                return;
            }
            Event::Claimed(Err(_)) => break CLOSED_BY_ARBITER.to_owned(),
            Event::Read(Ok(Step::Item(item))) => {
                if let Err(why) = socket.queue(item) {
                    break why.to_string();
                }
            }
            Event::Read(Ok(_)) => {}
            Event::Read(Err(why)) => break why.to_string(),
        }
    };
    // why closed first: a game claiming it now must find it closed (the
    // reason known), and not wait for the close handshake.
    socket.state.close(&reason);
    drop(claim);
    socket.close(&reason).await;
}

/// Takes the socket from its keeper; `None` if the connection has ended.
pub async fn claim(claim: Claim) -> Option<UmiSocket> {
    let (reply, socket) = oneshot::channel();
    claim.send(reply).ok()?;
    socket.await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reasons a `/umi` connection ends with are what bots' close
    /// frames and the logs said when they were strings; callers tell them
    /// apart by variant.
    #[test]
    fn each_end_says_what_it_said_and_which_kind_it_is() {
        let flood = SocketError::Flood {
            lines_per_second: 1000,
            burst: 2000,
        };
        assert_eq!(
            flood.to_string(),
            "flood: more than 1000 lines a second (bursts of 2000)"
        );
        assert!(!flood.stopped_reading());
        let slow = SocketError::WriteTimeout(Duration::from_secs(10));
        assert_eq!(
            slow.to_string(),
            "stopped reading: a line did not go out in 10s"
        );
        assert!(slow.stopped_reading());
        let deaf = SocketError::NoPong(Duration::from_secs(15));
        assert_eq!(deaf.to_string(), "stopped reading: no pong for 15s");
        assert!(deaf.stopped_reading() && SocketError::PingTimeout.stopped_reading());
        assert_eq!(
            SocketError::Closed.to_string(),
            "the bot closed the connection"
        );
        assert_eq!(
            SocketError::Unasked(4096).to_string(),
            "4096 lines sent that nobody asked for"
        );
        let broken = SocketError::Connection(axum::Error::new(std::io::Error::other("reset")));
        assert_eq!(broken.to_string(), "connection error: reset");
        assert!(
            std::error::Error::source(&broken).is_some(),
            "the cause is kept"
        );
    }
}
