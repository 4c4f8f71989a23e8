//! The session room: one engine spoken to over UMI. It knows the protocol's
//! order of things (handshake, options, `isready`, `position`/`go` →
//! `bestmove`) and turns every way an engine can fail into a typed
//! [`Fault`], which the game turns into a verdict. It trusts nothing the
//! engine says: every read has a deadline, every line is parsed.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;
use umi::{Message, OptionDecl, ScoreValue};

use crate::engine::process::{
    EngineProcess, Exit, LaunchSpec, ReadError, ShutdownReport, SpawnError, TrafficLog, WriteError,
};

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
    /// The engine does not declare an option it was configured with.
    NoSuchOption { name: String },
    /// A `bestmove` that answers no `go` (a second one for the same `go`, or
    /// one sent while no search runs); `when` says where it was found.
    StrayBestmove { line: String, when: &'static str },
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
            Fault::NoSuchOption { name } => write!(f, "the engine has no option {name:?}"),
            Fault::StrayBestmove { line, when } => {
                write!(f, "{line:?} {when}, when no search was running")
            }
        }
    }
}

impl std::error::Error for Fault {}

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
    /// From writing `go` to reading `bestmove`, on the arbiter's monotonic clock.
    pub elapsed: Duration,
}

/// One engine process under the protocol.
pub struct Session {
    process: EngineProcess,
    /// What the engine calls itself (`id name`), if it said.
    pub id_name: Option<String>,
    /// Game ids from `games`.
    pub games: Vec<String>,
    pub options: Vec<OptionDecl>,
}

/// How long to wait for the engine to die after EOF, to read its status.
const EXIT_GRACE: Duration = Duration::from_millis(500);

impl Session {
    /// Starts the engine and runs the handshake (`umi` … `umiok`).
    pub async fn start(
        spec: &LaunchSpec,
        timeout: Duration,
        traffic: Option<Arc<dyn TrafficLog>>,
    ) -> Result<Session, Fault> {
        let mut process = EngineProcess::spawn(spec).map_err(Fault::Spawn)?;
        process.set_traffic_log(traffic);
        let mut s = Session {
            process,
            id_name: None,
            games: Vec::new(),
            options: Vec::new(),
        };
        match s.handshake(Instant::now() + timeout).await {
            Ok(()) => Ok(s),
            Err(fault) => {
                // why shut down rather than drop: the process is reaped and its
                // stderr log is complete before the caller reports the fault.
                s.process.shutdown(Duration::ZERO).await;
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
        self.process.pid()
    }

    pub fn plays(&self, game: &str) -> bool {
        self.games.iter().any(|g| g == game)
    }

    /// Sends `setoption` for each pair, after checking the engine declared it.
    pub async fn set_options(&mut self, options: &[(String, String)]) -> Result<(), Fault> {
        for (name, value) in options {
            if !self.options.iter().any(|o| o.name().matches(name)) {
                return Err(Fault::NoSuchOption { name: name.clone() });
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

    /// `isready` … `readyok`, sent while no search runs: a `bestmove` before
    /// `readyok` answers no `go` ([`Fault::StrayBestmove`]).
    pub async fn ready(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("isready").await?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.read_until(deadline, "readyok").await?;
            if line == "readyok" {
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
            match self.process.read_line_if_ready().await {
                Ok(None) | Err(ReadError::Timeout) => return Ok(true),
                Ok(Some(line)) if is_bestmove(&line) => {
                    return Err(Fault::StrayBestmove {
                        line: clip(&line),
                        when,
                    })
                }
                Ok(Some(_)) => {}
                Err(ReadError::InvalidUtf8 { lossy }) if is_bestmove(&lossy) => {
                    return Err(Fault::StrayBestmove {
                        line: clip(&lossy),
                        when,
                    })
                }
                Err(ReadError::InvalidUtf8 { .. } | ReadError::LineTooLong { .. }) => {}
                Err(ReadError::Eof | ReadError::Io(_)) => return Ok(false),
            }
        }
    }

    /// Sends any protocol line (`newgame …`, `gameover …`).
    pub async fn send(&mut self, line: &str) -> Result<(), Fault> {
        match self.process.send(line).await {
            Ok(()) => Ok(()),
            Err(WriteError::InvalidLine) => Err(Fault::Garbled {
                line: line.to_owned(),
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
        self.check_idle("before go").await?;
        self.send(position).await?;
        self.send(go).await?;
        let started = Instant::now();
        let (mut score, mut depth) = (None, None);
        let mut pv = Vec::new();
        let mut last_other: Option<String> = None;
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
            match Message::parse(&line) {
                Ok(Message::BestMove { best, ponder }) => {
                    let elapsed = started.elapsed();
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
                    });
                }
                Ok(Message::BestMoveNone) => return Err(Fault::NoMove),
                Ok(Message::Info(info)) => {
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
        let _ = self.process.send("stop").await;
    }

    /// `quit`, then after `grace` the process group is killed; always reaped.
    pub async fn shutdown(self, grace: Duration) -> Option<Exit> {
        self.process.shutdown(grace).await.exit
    }

    /// `quit`, then after `grace` the process group is killed; the full report
    /// (whether it exited by itself, and how).
    pub async fn quit(self, grace: Duration) -> ShutdownReport {
        self.process.shutdown(grace).await
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
        self.process.kill();
    }

    pub fn is_alive(&mut self) -> bool {
        self.process.try_exit().is_none()
    }

    async fn read_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<String, Fault> {
        match self.process.read_line_until(deadline).await {
            Ok(line) => Ok(line),
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
            Err(ReadError::InvalidUtf8 { lossy }) if is_bestmove(&lossy) => Err(Fault::Garbled {
                line: clip(&lossy),
                problem: "bestmove line is not valid UTF-8".into(),
            }),
            Err(ReadError::InvalidUtf8 { .. }) => Ok(String::new()),
            Err(ReadError::Eof | ReadError::Io(_)) => Err(self.gone().await),
        }
    }

    async fn gone(&mut self) -> Fault {
        let exit = self
            .process
            .wait_exit_until(Instant::now() + EXIT_GRACE)
            .await;
        Fault::Gone { exit }
    }
}

/// Whether `line` is a `bestmove` message (well-formed or not).
fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}
