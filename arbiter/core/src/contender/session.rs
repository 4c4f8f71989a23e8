//! The session room: one engine spoken to over UMI. It knows the protocol's
//! order of things (handshake, options, `isready`, `position`/`go` →
//! `bestmove`) and turns every way an engine can fail into a typed
//! [`Fault`], which the game turns into a verdict. It trusts nothing the
//! engine says: every read has a deadline, every line is parsed.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;
use umi::{Message, OptionDecl, OptionKind, ScoreValue};

use crate::contender::process::{
    EngineProcess, Exit, LaunchSpec, ReadError, ShutdownReport, SpawnError, TrafficLog, WriteError,
};
use crate::contender::transport::{LagCharge, Link, Transport};

/// How an engine failed the protocol.
#[derive(Debug)]
pub enum Fault {
    /// The process could not be started.
    Spawn(SpawnError),
    /// No answer (`umiok`, `readyok` or `bestmove`) before the deadline.
    /// `last_line`: the last line the engine sent meanwhile that was not
    /// search information (junk, an unknown message), to show what it did.
    Timeout {
        waiting_for: &'static str,
        last_line: Option<String>,
    },
    /// The engine closed its output or died; `exit` is its status if known.
    Gone { exit: Option<Exit> },
    /// The engine sent a line that breaks the protocol where a specific
    /// answer was due (a malformed `bestmove`, an overlong line).
    Garbled { line: String, problem: String },
    /// `bestmove (none)` although the position has legal moves.
    NoMove,
    /// A remote engine's connection ended (or none came: a no-show);
    /// `reason` says how.
    Dropped { reason: String },
    /// The engine does not declare an option it was configured with.
    NoSuchOption { name: String },
    /// A configured option's value does not fit the engine's declaration
    /// (a spin out of its range, a combo value not among its vars, a check
    /// neither true nor false): `fits` says what would.
    BadOptionValue {
        name: String,
        value: String,
        fits: String,
    },
    /// The engine's `games` line does not list the game it was started for.
    WrongGame { game: String, games: String },
    /// A `bestmove` that answers no `go` (a second one for the same `go`, or
    /// one sent while no search runs); `when` says where it was found.
    StrayBestmove { line: String, when: &'static str },
    /// A `bestmove` during `go ponder`, before `ponderhit` or `stop` (spec
    /// section 6): it answers nothing.
    BestmoveWhilePondering { line: String },
}

impl Fault {
    /// A crash (non-zero exit, signal) as opposed to a clean disconnect.
    pub fn is_crash(&self) -> bool {
        matches!(self, Fault::Gone { exit: Some(e) } if !e.success())
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Spawn(e) => write!(f, "could not start: {e}"),
            Fault::Timeout {
                waiting_for,
                last_line: None,
            } => write!(f, "no {waiting_for} in time"),
            Fault::Timeout {
                waiting_for,
                last_line: Some(line),
            } => write!(f, "no {waiting_for} in time (last line: {line:?})"),
            Fault::Gone { exit: Some(e) } => write!(f, "engine {e}"),
            Fault::Gone { exit: None } => f.write_str("engine closed its output"),
            Fault::Garbled { line, problem } => write!(f, "{problem}: {line:?}"),
            Fault::NoMove => f.write_str("bestmove (none) in a position with legal moves"),
            Fault::Dropped { reason } => write!(f, "remote engine disconnected: {reason}"),
            Fault::NoSuchOption { name } => write!(f, "the engine has no option {name:?}"),
            Fault::BadOptionValue { name, value, fits } => {
                write!(f, "option {name:?}: value {value:?} does not fit: {fits}")
            }
            Fault::WrongGame { game, games } => {
                write!(
                    f,
                    "engine does not play {game}: {:?}",
                    format!("games {games}")
                )
            }
            Fault::StrayBestmove { line, when } => {
                write!(f, "{line:?} {when}, when no search was running")
            }
            Fault::BestmoveWhilePondering { line } => {
                write!(f, "{line:?} during go ponder, before ponderhit or stop")
            }
        }
    }
}

impl std::error::Error for Fault {}

/// What values would fit an option of `kind`, when `value` does not.
fn misfit(kind: &OptionKind, value: &str) -> Option<String> {
    match kind {
        OptionKind::Check { .. } => {
            (value != "true" && value != "false").then(|| "true or false".to_owned())
        }
        OptionKind::Spin { min, max, .. } => match value.trim().parse::<i64>() {
            Ok(n) if (*min..=*max).contains(&n) => None,
            _ => Some(format!("a whole number from {min} to {max}")),
        },
        OptionKind::Combo { vars, .. } => {
            (!vars.iter().any(|v| v.as_str().eq_ignore_ascii_case(value))).then(|| {
                let vars: Vec<&str> = vars.iter().map(|v| v.as_str()).collect();
                format!("one of {}", vars.join(", "))
            })
        }
        OptionKind::Button | OptionKind::String { .. } => None,
    }
}

/// What the engine said about its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub mv: String,
    pub ponder: Option<String>,
    /// From the last `info` line before `bestmove` that carried them.
    pub score: Option<ScoreValue>,
    pub depth: Option<u32>,
    /// The last `pv` an `info` line gave (empty if none did); kept as parsed,
    /// so a game nobody watches pays no copy.
    pub pv: Vec<umi::Move>,
    /// From writing `go` to reading `bestmove`, on the arbiter's monotonic
    /// clock, less the lag compensation of a remote engine: the time its
    /// clock is charged.
    pub elapsed: Duration,
    /// A remote engine's measured lag and compensation for this move.
    pub lag: Option<LagCharge>,
    /// The move is KGP's random move for a bot that sent none
    /// ([`is_kgp_random`] said so before the `bestmove`).
    pub kgp_random: bool,
}

/// Whether an `info string` text is the KGP adapter's word that the
/// `bestmove` after it is KGP's random move, not the bot's
/// (`kgp: no move before stop; random move`, protocol-spec.md 17.2).
pub fn is_kgp_random(text: &str) -> bool {
    text.starts_with("kgp: ") && text.ends_with("; random move")
}

/// The same for a whole line from the engine.
pub fn is_kgp_random_line(line: &str) -> bool {
    line.trim()
        .strip_prefix("info string ")
        .is_some_and(is_kgp_random)
}

/// One engine under the protocol, through a process or a connection.
pub struct Session {
    transport: Transport,
    /// What the engine calls itself (`id name`), if it said.
    pub id_name: Option<String>,
    /// Game ids from `games`.
    pub games: Vec<String>,
    pub options: Vec<OptionDecl>,
    /// Set by [`Session::enable_ponder`].
    ponders: bool,
    /// The ordering barrier ([`Barrier`]).
    barrier: Barrier,
}

/// The ordering barrier that keeps a stale `bestmove` from being taken for
/// the answer to a later `go` (spec section 6). The engine answers `isready`
/// after everything it wrote before reading it, so a `bestmove` read before
/// that `readyok` was written before the engine saw the `go` that follows
/// the `isready`: it answers an earlier search. Over a connection a second
/// `bestmove` can arrive a round trip after the first, well after the check
/// made before the next `go`; the barrier needs no wait to catch it.
///
/// why counted, not a flag: the conformance check and the game's start send
/// `isready` of their own; every one sent is answered by one `readyok`.
#[derive(Debug)]
struct Barrier {
    /// A `bestmove` was read (or nothing is known yet) since the last
    /// `isready` was sent: the next `go` goes out behind an `isready`.
    due: bool,
    /// `isready` lines sent whose `readyok` has not been read yet; a
    /// `bestmove` read while this is not zero is stale.
    unanswered: u32,
}

/// The `when` of a stale `bestmove` found by the barrier.
const BEFORE_BARRIER: &str = "before the readyok of the isready sent ahead of the go \
     (it answers an earlier go)";

/// How long to wait for the engine to die after EOF, to read its status.
const EXIT_GRACE: Duration = Duration::from_millis(500);

impl Session {
    /// Starts the engine and runs the handshake (`umi` … `umiok`).
    pub async fn start(
        spec: &LaunchSpec,
        timeout: Duration,
        traffic: Option<Arc<dyn TrafficLog>>,
    ) -> Result<Session, Fault> {
        let process = EngineProcess::spawn(spec).map_err(Fault::Spawn)?;
        Session::over(Transport::Process(process), timeout, traffic).await
    }

    /// Runs the handshake with a remote engine over its connection.
    pub async fn start_remote(
        link: impl Link + 'static,
        timeout: Duration,
        traffic: Option<Arc<dyn TrafficLog>>,
    ) -> Result<Session, Fault> {
        Session::start_on_link(Box::new(link), timeout, traffic).await
    }

    /// [`Session::start_remote`] over a link already boxed.
    pub async fn start_on_link(
        link: Box<dyn Link>,
        timeout: Duration,
        traffic: Option<Arc<dyn TrafficLog>>,
    ) -> Result<Session, Fault> {
        Session::over(Transport::Remote(link), timeout, traffic).await
    }

    /// The handshake over `transport`; on a fault the transport is ended.
    async fn over(
        mut transport: Transport,
        timeout: Duration,
        traffic: Option<Arc<dyn TrafficLog>>,
    ) -> Result<Session, Fault> {
        transport.set_traffic_log(traffic);
        let mut s = Session {
            transport,
            id_name: None,
            games: Vec::new(),
            options: Vec::new(),
            ponders: false,
            barrier: Barrier {
                due: true,
                unanswered: 0,
            },
        };
        match s.handshake(Instant::now() + timeout).await {
            Ok(()) => Ok(s),
            Err(fault) => {
                // why shut down rather than drop: the process is reaped and its
                // stderr log is complete before the caller reports the fault.
                s.transport.shutdown(Duration::ZERO).await;
                Err(fault)
            }
        }
    }

    /// `umi` … `umiok`, keeping what the engine declares on the way.
    async fn handshake(&mut self, deadline: Instant) -> Result<(), Fault> {
        let s = self;
        s.send("umi").await?;
        loop {
            let line = s.read_until(deadline, "umiok").await?;
            match Message::parse(&line) {
                Ok(Message::UmiOk) => return Ok(()),
                Ok(Message::IdName(n)) => s.id_name = Some(n.as_str().to_owned()),
                Ok(Message::Games(g)) => {
                    s.games = g.iter().map(|n| n.as_str().to_owned()).collect()
                }
                Ok(Message::Option(o)) => s.options.push(o),
                // Anything else during the handshake is ignored, as UCI GUIs do.
                _ => {}
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.transport.pid()
    }

    pub fn plays(&self, game: &str) -> bool {
        self.games.iter().any(|g| g == game)
    }

    /// Sends `setoption` for each pair, after checking the engine declared
    /// it and that the value fits the declaration (spec section 5: a value
    /// that does not is a malformed `setoption`, which the engine ignores).
    pub async fn set_options(&mut self, options: &[(String, String)]) -> Result<(), Fault> {
        for (name, value) in options {
            let Some(decl) = self.options.iter().find(|o| o.name().matches(name)) else {
                return Err(Fault::NoSuchOption { name: name.clone() });
            };
            if let Some(fits) = misfit(decl.kind(), value) {
                return Err(Fault::BadOptionValue {
                    name: name.clone(),
                    value: value.clone(),
                    fits,
                });
            }
            let line = if value.is_empty() {
                format!("setoption name {name}")
            } else {
                format!("setoption name {name} value {value}")
            };
            self.send(&line).await?;
        }
        Ok(())
    }

    /// Whether the engine declares the check option `Ponder`: as in
    /// cutechess, only such an engine is sent `go ponder`.
    pub fn can_ponder(&self) -> bool {
        self.options
            .iter()
            .any(|o| o.name().matches("Ponder") && matches!(o.kind(), OptionKind::Check { .. }))
    }

    /// For an engine configured with `ponder`: `setoption name Ponder value
    /// true` (unless `options` set `Ponder` already), as cutechess does, and
    /// [`Session::ponders`] from then on. An engine without the option is
    /// told nothing and never ponders (a warning says so), nor does one whose
    /// `options` set `Ponder` to `false`.
    pub async fn enable_ponder(
        &mut self,
        name: &str,
        options: &[(String, String)],
    ) -> Result<(), Fault> {
        if !self.can_ponder() {
            tracing::warn!(
                engine = name,
                "ponder is set, but the engine declares no Ponder check option: it does not ponder"
            );
            return Ok(());
        }
        match options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Ponder"))
        {
            Some((_, value)) => self.ponders = !value.eq_ignore_ascii_case("false"),
            None => {
                self.send("setoption name Ponder value true").await?;
                self.ponders = true;
            }
        }
        Ok(())
    }

    /// Whether the engine is to ponder in games ([`Session::enable_ponder`]).
    pub fn ponders(&self) -> bool {
        self.ponders
    }

    /// `isready` … `readyok`, sent while no search runs: a `bestmove` before
    /// `readyok` answers no `go` ([`Fault::StrayBestmove`]). Waits for the
    /// `readyok` of every `isready` sent so far (one sent with a `go` whose
    /// search failed may still be unanswered).
    pub async fn ready(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("isready").await?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.read_until(deadline, "readyok").await?;
            if is_readyok(&line) && self.barrier.unanswered == 0 {
                return Ok(());
            }
            if is_bestmove(&line) {
                return Err(Fault::StrayBestmove {
                    line: clip(&line),
                    when: "before readyok",
                });
            }
        }
    }

    /// Reads what the engine has already sent while no search runs, without
    /// waiting: info and unknown lines are dropped (they are in the traffic
    /// log), a `bestmove` is a [`Fault::StrayBestmove`], end of output is
    /// [`Fault::Gone`]. `when` names the moment for the verdict.
    pub async fn check_idle(&mut self, when: &'static str) -> Result<(), Fault> {
        match self.stray_bestmove(when).await? {
            true => Ok(()),
            false => Err(self.gone().await),
        }
    }

    /// [`Session::check_idle`] without the verdict on end of output:
    /// `Ok(false)` when the engine's output has ended.
    async fn stray_bestmove(&mut self, when: &'static str) -> Result<bool, Fault> {
        loop {
            match self.transport.read_line_if_ready().await {
                Ok(None) | Err(ReadError::Timeout) => return Ok(true),
                Ok(Some(line)) => {
                    self.saw(&line);
                    if is_bestmove(&line) {
                        return Err(self.stray(&line, when));
                    }
                }
                Err(ReadError::InvalidUtf8 { lossy }) if is_bestmove(&lossy) => {
                    self.saw(&lossy);
                    return Err(self.stray(&lossy, when));
                }
                Err(ReadError::InvalidUtf8 { .. } | ReadError::LineTooLong { .. }) => {}
                Err(ReadError::Eof | ReadError::Io(_)) => return Ok(false),
            }
        }
    }

    /// Sends any protocol line (`newgame …`, `gameover …`).
    pub async fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.send_lines(&[line]).await
    }

    /// Sends `lines` in one write (see [`EngineProcess::send_lines`]).
    pub async fn send_lines(&mut self, lines: &[&str]) -> Result<(), Fault> {
        match self.transport.send_lines(lines).await {
            Ok(()) => {
                let readies = lines.iter().filter(|l| l.trim() == "isready").count();
                if readies > 0 {
                    self.barrier.due = false;
                    self.barrier.unanswered += readies as u32;
                }
                Ok(())
            }
            Err(WriteError::InvalidLine) => Err(Fault::Garbled {
                line: lines.join("\n"),
                problem: "arbiter line with a line break".into(),
            }),
            Err(_) => Err(self.gone().await),
        }
    }

    /// Sends `position` and `go`, then waits for `bestmove` until `deadline`
    /// (the clock's flag plus a grace). The time is measured from writing `go`.
    ///
    /// Exactly one `bestmove` answers a `go`: one already sent before the
    /// `go` (a second answer to the previous `go`, one sent on `readyok` or
    /// between moves) is a [`Fault::StrayBestmove`], never an answer, and so
    /// is a second one found right behind the answer.
    pub async fn go(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<BestMove, Fault> {
        self.go_watched(position, go, deadline, None).await
    }

    /// [`Session::go`], handing `on_info` each `info` line of the search as
    /// it comes (`--live`).
    pub async fn go_watched(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
        on_info: Option<&(dyn Fn(&umi::Info) + Sync)>,
    ) -> Result<BestMove, Fault> {
        self.check_idle("before go").await?;
        self.send_search(position, go).await?;
        let started = self.transport.last_line_at();
        self.bestmove(started, deadline, on_info).await
    }

    /// `position` and `go` in one write, behind an `isready` when a
    /// `bestmove` was read since the last one ([`Barrier`]): the `readyok`
    /// then comes before anything the engine says about this search.
    /// why in the same write, not waited for before the `go`: the barrier
    /// costs no round trip; what came before `readyok` is judged when read.
    async fn send_search(&mut self, position: &str, go: &str) -> Result<(), Fault> {
        if self.barrier.due {
            self.send_lines(&["isready", position, go]).await
        } else {
            self.send_lines(&[position, go]).await
        }
    }

    /// [`Session::go`] for the turn that began with the `stop` ending a ponder
    /// search ([`Session::stop_ponder`]): the time is measured from `stopped`,
    /// and the `go` line is made by `go` from the time since then, taken
    /// right before it is written (its clock fields are the clocks then).
    pub async fn go_after_stop(
        &mut self,
        position: &str,
        go: impl FnOnce(Duration) -> String,
        stopped: std::time::Instant,
        deadline: Instant,
    ) -> Result<BestMove, Fault> {
        self.check_idle("before go").await?;
        self.send_search(position, &go(stopped.elapsed())).await?;
        self.bestmove(stopped, deadline, None).await
    }

    /// Sends `position` and `go ponder …` and returns at once: the engine
    /// ponders until [`Session::ponderhit`] or [`Session::stop_ponder`].
    pub async fn go_ponder(&mut self, position: &str, go: &str) -> Result<(), Fault> {
        self.check_idle("before go ponder").await?;
        self.send_search(position, go).await
    }

    /// `ponderhit` to a pondering engine: its turn starts with that line, and
    /// its `bestmove` is the move (timed from `ponderhit`). A `bestmove` it
    /// sent before (while pondering) is a [`Fault::BestmoveWhilePondering`].
    pub async fn ponderhit(&mut self, deadline: Instant) -> Result<BestMove, Fault> {
        self.check_pondering().await?;
        self.send("ponderhit").await?;
        let started = self.transport.last_line_at();
        self.bestmove(started, deadline, None).await
    }

    /// `stop` to a pondering engine, then its `bestmove` (whatever it says,
    /// discarded: it answers the ponder search, not a turn) until
    /// `deadline`. Returns when `stop` was written (the turn of an engine
    /// whose ponder move was not played starts there, spec section 7). A
    /// `bestmove` sent before `stop` is a [`Fault::BestmoveWhilePondering`].
    pub async fn stop_ponder(&mut self, deadline: Instant) -> Result<std::time::Instant, Fault> {
        self.check_pondering().await?;
        self.send("stop").await?;
        let stopped = self.transport.last_line_at();
        loop {
            let line = self.read_until(deadline, "bestmove after stop").await?;
            if is_bestmove(&line) {
                // why: the answer to the ponder search comes after the
                // readyok sent ahead of its `go ponder`; one before it is
                // the previous search's.
                if self.barrier.unanswered > 0 {
                    return Err(self.stray(&line, BEFORE_BARRIER));
                }
                return Ok(stopped);
            }
        }
    }

    /// What a pondering engine has sent so far, without waiting: a
    /// `bestmove` breaks the spec (none before `ponderhit` or `stop`).
    async fn check_pondering(&mut self) -> Result<(), Fault> {
        match self.stray_bestmove("").await {
            Ok(true) => Ok(()),
            Ok(false) => Err(self.gone().await),
            Err(Fault::StrayBestmove { line, when }) if when != BEFORE_BARRIER => {
                Err(Fault::BestmoveWhilePondering { line })
            }
            Err(fault) => Err(fault),
        }
    }

    /// Reads until `bestmove` (or `deadline`): the answer to the search that
    /// began at `started`, with the last score and depth reported.
    async fn bestmove(
        &mut self,
        started: std::time::Instant,
        deadline: Instant,
        on_info: Option<&(dyn Fn(&umi::Info) + Sync)>,
    ) -> Result<BestMove, Fault> {
        let (mut score, mut depth) = (None, None);
        let mut pv = Vec::new();
        let mut last_other: Option<String> = None;
        let mut kgp_random = false;
        loop {
            let line = match self.read_until(deadline, "bestmove").await {
                Ok(line) => line,
                Err(Fault::Timeout { waiting_for, .. }) => {
                    return Err(Fault::Timeout {
                        waiting_for,
                        last_line: last_other,
                    })
                }
                Err(fault) => return Err(fault),
            };
            if is_bestmove(&line) && self.barrier.unanswered > 0 {
                return Err(self.stray(&line, BEFORE_BARRIER));
            }
            match Message::parse(&line) {
                Ok(Message::BestMove { best, ponder }) => {
                    // why the stamp of the line: the time charged is exactly
                    // the time between the two lines of the traffic log.
                    let measured = self
                        .transport
                        .last_line_at()
                        .saturating_duration_since(started);
                    // why here: the compensation is part of what the move
                    // cost, decided once, where the time is measured.
                    let lag = self.transport.lag_charge(measured);
                    let elapsed =
                        measured.saturating_sub(lag.map_or(Duration::ZERO, |l| l.compensation));
                    // why not `check_idle`: an engine that exits right after its
                    // answer has still answered; its exit is for the next `go`.
                    self.stray_bestmove("right after the bestmove that answered the go")
                        .await?;
                    return Ok(BestMove {
                        mv: best.as_str().to_owned(),
                        ponder: ponder.map(|p| p.as_str().to_owned()),
                        score,
                        depth,
                        pv,
                        elapsed,
                        lag,
                        kgp_random,
                    });
                }
                Ok(Message::BestMoveNone) => return Err(Fault::NoMove),
                Ok(Message::Info(info)) => {
                    if let Some(f) = on_info {
                        f(&info);
                    }
                    kgp_random |= info
                        .string
                        .as_ref()
                        .is_some_and(|t| is_kgp_random(t.as_str()));
                    if let Some(s) = info.score {
                        score = Some(s.value);
                    }
                    depth = info.depth.or(depth);
                    if !info.pv.is_empty() {
                        pv = info.pv;
                    }
                }
                Err(e) if line.split_whitespace().next() == Some("bestmove") => {
                    return Err(Fault::Garbled {
                        line: clip(&line),
                        problem: format!("malformed bestmove ({e})"),
                    });
                }
                // Other lines (unknown, malformed info) are the engine's
                // business; the last one is kept to explain a timeout.
                _ if !line.trim().is_empty() => last_other = Some(clip(&line)),
                _ => {}
            }
        }
    }

    /// Tells the engine to stop searching (after a flag), without waiting.
    pub async fn stop(&mut self) {
        let _ = self.transport.send_lines(&["stop"]).await;
    }

    /// `quit`, then after `grace` the process group is killed; always reaped.
    pub async fn shutdown(self, grace: Duration) -> Option<Exit> {
        self.transport.shutdown(grace).await.exit
    }

    /// `quit`, then after `grace` the process group is killed; the full report
    /// (whether it exited by itself, and how).
    pub async fn quit(self, grace: Duration) -> ShutdownReport {
        self.transport.shutdown(grace).await
    }

    /// The next line from the engine, whatever it is (for callers that drive
    /// the protocol themselves, such as the conformance check).
    pub async fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<String, Fault> {
        self.read_until(deadline, waiting_for).await
    }

    /// Kills the engine now (for an engine that misbehaved).
    pub fn kill(&mut self) {
        self.transport.kill();
    }

    /// Keeps `slot` (of a server's engine cap) until the engine is ended.
    pub fn hold(&mut self, slot: crate::contender::cap::EngineSlot) {
        self.transport.hold(slot);
    }

    pub fn is_alive(&mut self) -> bool {
        self.transport.is_alive()
    }

    /// Whether the engine is a remote one (a connection, not a process).
    pub fn is_remote(&self) -> bool {
        matches!(self.transport, Transport::Remote(_))
    }

    async fn read_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<String, Fault> {
        match self.transport.read_line_until(deadline).await {
            Ok(line) => {
                self.saw(&line);
                Ok(line)
            }
            Err(ReadError::Timeout) => Err(Fault::Timeout {
                waiting_for,
                last_line: None,
            }),
            Err(ReadError::LineTooLong { bytes, limit }) => Err(Fault::Garbled {
                line: format!("<{bytes}+ bytes>"),
                problem: format!("line longer than {limit} bytes while waiting for {waiting_for}"),
            }),
            // why: a `bestmove` that is not UTF-8 is an unreadable answer, at once
            // (skipping it would wait out the clock); any other such line is an
            // unknown line, ignored as the spec says.
            Err(ReadError::InvalidUtf8 { lossy }) if is_bestmove(&lossy) => {
                self.saw(&lossy);
                Err(Fault::Garbled {
                    line: clip(&lossy),
                    problem: "bestmove line is not valid UTF-8".into(),
                })
            }
            Err(ReadError::InvalidUtf8 { .. }) => Ok(String::new()),
            Err(ReadError::Eof | ReadError::Io(_)) => Err(self.gone().await),
        }
    }

    /// Keeps the [`Barrier`] up to date with a line read from the engine.
    fn saw(&mut self, line: &str) {
        if is_readyok(line) {
            self.barrier.unanswered = self.barrier.unanswered.saturating_sub(1);
        } else if is_bestmove(line) {
            self.barrier.due = true;
        }
    }

    /// The verdict on a `bestmove` that answers nothing: found `when`, or,
    /// read before the barrier's `readyok`, [`BEFORE_BARRIER`].
    fn stray(&self, line: &str, when: &'static str) -> Fault {
        let when = if self.barrier.unanswered > 0 {
            BEFORE_BARRIER
        } else {
            when
        };
        Fault::StrayBestmove {
            line: clip(line),
            when,
        }
    }

    async fn gone(&mut self) -> Fault {
        if let Some(reason) = self.transport.drop_reason() {
            return Fault::Dropped { reason };
        }
        let exit = self
            .transport
            .wait_exit_until(Instant::now() + EXIT_GRACE)
            .await;
        Fault::Gone { exit }
    }
}

fn is_readyok(line: &str) -> bool {
    line.trim() == "readyok"
}

/// Whether `line` is a `bestmove` message (well-formed or not).
fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}

#[cfg(test)]
mod option_value_tests {
    use super::*;

    #[test]
    fn a_value_fits_its_declaration_or_says_what_would() {
        let spin = OptionKind::Spin {
            default: 20,
            min: 1,
            max: 20,
        };
        assert_eq!(misfit(&spin, "3"), None);
        assert_eq!(misfit(&spin, "20"), None);
        for bad in ["0", "21", "three", "", "1.5"] {
            assert_eq!(
                misfit(&spin, bad).as_deref(),
                Some("a whole number from 1 to 20"),
                "{bad}"
            );
        }
        let check = OptionKind::Check { default: false };
        assert_eq!(misfit(&check, "true"), None);
        assert_eq!(misfit(&check, "yes").as_deref(), Some("true or false"));
        let var = |v: &str| umi::ComboValue::new(v).unwrap();
        let combo = OptionKind::Combo {
            default: var("Fast"),
            vars: vec![var("Fast"), var("Strong")],
        };
        assert_eq!(misfit(&combo, "strong"), None);
        assert_eq!(
            misfit(&combo, "Weak").as_deref(),
            Some("one of Fast, Strong")
        );
        assert_eq!(misfit(&OptionKind::Button, ""), None);
        let text = OptionKind::String {
            default: umi::Text::new("x").unwrap(),
        };
        assert_eq!(misfit(&text, "anything at all"), None);
    }
}
