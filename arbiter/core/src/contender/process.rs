//! The process room: start, talk to and reliably end one engine process.
//!
//! Engines are untrusted programs. Nothing they do — crash, hang, print an
//! endless line, flood stderr, fork children, ignore `quit` — may crash or hang
//! the arbiter or leave a process behind. The rules this module keeps:
//!
//! - Each engine runs in its **own process group** (`process_group(0)`, so its
//!   group id is its pid). Ending an engine kills the whole group with SIGKILL,
//!   which takes its children and grandchildren along (unless they deliberately
//!   left the group with `setsid`/`setpgid`; nothing short of cgroups catches those).
//! - The group is killed as soon as the engine's own process is seen to have
//!   exited (so stragglers die with it), by [`EngineProcess::shutdown`], by
//!   [`EngineProcess::kill`], on `Drop`, and by [`kill_all_engines`] (Ctrl-C,
//!   SIGTERM, SIGHUP).
//! - The engine gets `PR_SET_PDEATHSIG` (SIGKILL): it dies with the arbiter
//!   even when the arbiter is SIGKILLed; the [`crate::contender::watchdog`] then
//!   kills the rest of its group, and says what is not contained. Caveat:
//!   the kernel sends it when the *thread* that spawned the engine exits, so
//!   spawn engines from runtime worker threads (any async task), never from a
//!   `spawn_blocking` thread, which tokio ends when it has been idle a while.
//! - stdin and stdout are pipes; stderr goes to its log file through a pipe
//!   the arbiter drains at once, capped at [`LaunchSpec::stderr_max`] bytes
//!   per file (the rest is discarded), so it can never block the engine or
//!   fill the disk; without a log file it goes to `/dev/null`.
//! - Every read has a deadline ([`EngineProcess::read_line_until`]) and every
//!   write has one (the spec's `write_timeout`, or [`EngineProcess::send_until`]).
//! - Lines are capped at `max_line_len` bytes; the reader's memory stays bounded
//!   even for an endless line (the excess is discarded, see [`LineReader`]).
//!
//! Signals are sent with the `libc` crate (`killpg`): it is already in the
//! dependency tree through tokio, and two plain calls did not justify `nix`.
//!
//! Everything here needs a tokio runtime (with IO and time enabled).
//!
//! ```no_run
//! use std::time::Duration;
//! use arbiter_core::contender::process::{EngineProcess, LaunchSpec, ReadError};
//! use tokio::time::Instant;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let spec = LaunchSpec::new("./engines/foo").args(["--threads", "1"]).stderr_log("foo.stderr.log");
//! let mut engine = EngineProcess::spawn(&spec)?;
//! engine.send("umi").await?;
//! let deadline = Instant::now() + Duration::from_secs(5);
//! loop {
//!     match engine.read_line_until(deadline).await {
//!         Ok(line) if line == "umiok" => break,
//!         Ok(_other) => {}                       // id …, games …, info …
//!         Err(ReadError::Timeout) => break,       // verdict: no umiok in time
//!         Err(ReadError::Eof) => {
//!             let exit = engine.wait_exit_until(Instant::now() + Duration::from_secs(1)).await;
//!             eprintln!("engine died: {exit:?}");  // verdict: crash / EOF
//!             break;
//!         }
//!         Err(e) => return Err(e.into()),        // too long, not UTF-8, pipe error
//!     }
//! }
//! let _report = engine.shutdown(Duration::from_millis(500)).await; // quit, then SIGKILL
//! # Ok(()) }
//! ```

use std::fmt;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::{timeout, timeout_at, Instant};

use crate::contender::watchdog;

/// Default cap on the length of one line from an engine (without its `\n`).
pub const DEFAULT_MAX_LINE_LEN: usize = 64 * 1024;

/// Default time allowed for one line to be written into the engine's stdin
/// (only an engine that stops reading its input ever makes a write wait).
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long to wait for the kernel to report a SIGKILLed engine's exit before
/// giving up on reaping it ourselves (tokio's orphan reaper takes over then).
const REAP_LIMIT: Duration = Duration::from_secs(5);
/// How long shutdown waits for the stderr copy to reach the end of the pipe.
const STDERR_FLUSH_LIMIT: Duration = Duration::from_secs(1);

mod error;
mod groups;
mod launch;
mod pipe;
mod spec;
mod stderr;
mod traffic;

pub use error::{Exit, ReadError, ShutdownReport, SpawnError, WriteError};
pub use groups::{kill_adopted, kill_all_engines, killed_by_arbiter, live_engine_count};
pub use pipe::LineReader;
pub use spec::{LaunchSpec, DEFAULT_STDERR_MAX};
pub use traffic::{TrafficKind, TrafficLog, TrafficRecord};

use groups::{kill_group, live_groups};
use launch::{check_working_dir, resolve_program, spawn_error};
use pipe::pipe_has_input;
use stderr::{copy_capped, StderrSink};

/// One running engine. Dropping it kills its whole process group.
pub struct EngineProcess {
    name: String,
    child: Child,
    pid: u32,
    pgid: i32,
    stdin: Option<ChildStdin>,
    reader: LineReader<ChildStdout>,
    write_timeout: Duration,
    traffic: Option<Arc<dyn TrafficLog>>,
    /// Set once the engine's own process has been reaped.
    exit: Option<Exit>,
    /// Whether the group may still have processes (and is registered).
    group_live: bool,
    /// The task copying the stderr into its log file, if any.
    stderr_copy: Option<tokio::task::JoinHandle<()>>,
    /// When the last line was written or read (the instant the traffic log
    /// shows for it): what the arbiter's clocks measure turns with.
    last_line_at: std::time::Instant,
    /// A server's slot for this engine, handed back when it is dropped.
    slot: Option<crate::contender::cap::EngineSlot>,
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess")
            .field("name", &self.name)
            .field("pid", &self.pid)
            .field("exit", &self.exit)
            .field("group_live", &self.group_live)
            .finish_non_exhaustive()
    }
}

impl EngineProcess {
    /// Starts the engine described by `spec`, in its own process group.
    pub fn spawn(spec: &LaunchSpec) -> Result<EngineProcess, SpawnError> {
        // why: tokio's process API panics outside a runtime; we must not.
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(SpawnError::NoRuntime);
        }
        let program = resolve_program(&spec.command)?;
        if let Some(dir) = &spec.working_dir {
            check_working_dir(dir)?;
        }
        // why note whether the log is new: a log the engine never wrote to
        // is removed again at its end, so a run leaves no empty files behind.
        let stderr_file = match &spec.stderr_log {
            Some(path) => {
                let fresh = !path.exists();
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|source| SpawnError::StderrLog {
                        path: path.clone(),
                        source,
                    })?;
                Some(StderrSink {
                    file,
                    max: spec.stderr_max.unwrap_or(u64::MAX),
                    remove_if_empty: fresh.then(|| path.clone()),
                })
            }
            None => None,
        };
        // why always a pipe: only a reader in between can stop a file from
        // growing while the engine keeps writing (and never blocks it), and
        // can tell at the end whether anything was written.
        let stderr = if stderr_file.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };

        let mut command = Command::new(&program);
        command
            .args(&spec.args)
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .process_group(0)
            .kill_on_drop(true);
        if let Some(dir) = &spec.working_dir {
            command.current_dir(dir);
        }
        let arbiter = std::process::id();
        // SAFETY: the closure runs in the forked child before exec and only
        // makes async-signal-safe calls (prctl, getppid, _exit).
        unsafe {
            command.pre_exec(move || {
                // The kernel SIGKILLs the engine when the arbiter dies, even by
                // SIGKILL (see `watchdog` for what this does not cover).
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                // why: the arbiter may have died before the prctl took effect.
                if u32::try_from(libc::getppid()).ok() != Some(arbiter) {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let found = program.is_absolute() && program.exists();
        // why hold the registry across the fork: a sweep for adopted orphans
        // (another engine ending) must never mistake this new child for one.
        let mut groups = live_groups();
        let mut child = command
            .spawn()
            .map_err(|e| spawn_error(&spec.command, found, e))?;

        let stderr_copy = match (stderr_file, child.stderr.take()) {
            (Some(sink), Some(pipe)) => Some(tokio::spawn(copy_capped(pipe, sink))),
            _ => None,
        };
        let pid = child.id();
        let (Some(pid), Some(stdin), Some(stdout)) = (pid, child.stdin.take(), child.stdout.take())
        else {
            // Unreachable in practice (fresh child, both piped); fail cleanly anyway.
            return Err(SpawnError::Io {
                path: spec.command.clone(),
                source: io::Error::other("child started without its pipes"),
            });
        };
        let Ok(pgid) = i32::try_from(pid) else {
            return Err(SpawnError::Io {
                path: spec.command.clone(),
                source: io::Error::other("pid out of range"),
            });
        };
        groups.insert(pgid);
        watchdog::register(pgid, true);
        drop(groups);
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            pid,
            pgid,
            stdin: Some(stdin),
            reader: LineReader::new(stdout, spec.max_line_len),
            write_timeout: spec.write_timeout,
            traffic: None,
            exit: None,
            group_live: true,
            stderr_copy,
            last_line_at: std::time::Instant::now(),
            slot: None,
        })
    }

    /// Keeps `slot` (of a server's engine cap) until this process is ended.
    pub fn hold(&mut self, slot: crate::contender::cap::EngineSlot) {
        self.slot = Some(slot);
    }

    /// Sends every line read or written (and events) to `log`, or stops doing so.
    pub fn set_traffic_log(&mut self, log: Option<Arc<dyn TrafficLog>>) {
        self.traffic = log;
        self.note(&format!("started, pid {}", self.pid));
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's pid, which is also its process group id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Bytes allocated for buffering the engine's output (diagnostics, and the
    /// tests of the memory bound).
    pub fn read_buffer_capacity(&self) -> usize {
        self.reader.buffer_capacity()
    }

    /// Writes `line` and `\n`, then flushes, within the spec's `write_timeout`.
    pub async fn send(&mut self, line: &str) -> Result<(), WriteError> {
        self.send_lines(&[line]).await
    }

    /// Writes `line` and `\n`, then flushes, before `deadline`.
    pub async fn send_until(&mut self, line: &str, deadline: Instant) -> Result<(), WriteError> {
        self.send_lines_until(&[line], deadline).await
    }

    /// Writes `lines`, each with its `\n`, in one write (an engine woken
    /// once for `position` and `go`, not twice), within `write_timeout`.
    pub async fn send_lines(&mut self, lines: &[&str]) -> Result<(), WriteError> {
        self.send_lines_until(lines, Instant::now() + self.write_timeout)
            .await
    }

    async fn send_lines_until(
        &mut self,
        lines: &[&str],
        deadline: Instant,
    ) -> Result<(), WriteError> {
        if lines.iter().any(|line| line.contains(['\n', '\r'])) {
            return Err(WriteError::InvalidLine);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(WriteError::Closed);
        };
        let mut bytes = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let write = async {
            stdin.write_all(&bytes).await?;
            stdin.flush().await
        };
        let result = match timeout_at(deadline, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Err(WriteError::Closed),
            Ok(Err(e)) => Err(WriteError::Io(e)),
            Err(_) => Err(WriteError::Timeout),
        };
        match &result {
            Ok(()) => {
                for line in lines {
                    self.log_line(TrafficKind::ToEngine, line);
                }
            }
            Err(e) => {
                // why: after a failed or half-done write the stream is unusable.
                self.stdin = None;
                self.note(&format!("write of {:?} failed: {e}", lines.join("\n")));
            }
        }
        result
    }

    /// The next line from the engine's stdout, or why there is none by `deadline`.
    ///
    /// The engine's own process is watched as well as the pipe: once it has
    /// exited, what it wrote before exiting is still returned, and then
    /// [`ReadError::Eof`] — even if a descendant that escaped the group kill
    /// still holds the pipe open (a crash hidden behind a grandchild must not
    /// turn into a wait for the whole clock).
    pub async fn read_line_until(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let result = if self.exit.is_some() {
            self.read_available(deadline).await
        } else {
            let EngineProcess { child, reader, .. } = self;
            let read = async {
                tokio::select! {
                    line = reader.next_line() => Err(line),
                    status = child.wait() => Ok(status),
                }
            };
            match timeout_at(deadline, read).await {
                Err(_) => Err(ReadError::Timeout),
                Ok(Err(line)) => line,
                Ok(Ok(Ok(status))) => {
                    self.on_exit(status);
                    self.read_available(deadline).await
                }
                // why: `wait` fails only if the child was reaped elsewhere, which
                // this type never does; the pipe is then the only witness left.
                Ok(Ok(Err(_))) => match timeout_at(deadline, self.reader.next_line()).await {
                    Ok(result) => result,
                    Err(_) => Err(ReadError::Timeout),
                },
            }
        };
        match &result {
            Ok(line) => self.log_line(TrafficKind::FromEngine, line),
            Err(ReadError::Timeout) => {}
            Err(e) => self.note(&e.to_string()),
        }
        result
    }

    /// A line the engine has already sent, without waiting for one: `Ok(None)`
    /// when nothing complete is buffered and the pipe holds nothing more.
    /// For the arbiter's idle-time checks (a `bestmove` nobody asked for).
    /// A partial line is kept for the next read. End of output is
    /// [`ReadError::Eof`], as for [`EngineProcess::read_line_until`].
    pub async fn read_line_if_ready(&mut self) -> Result<Option<String>, ReadError> {
        let result = self.next_available().await;
        match &result {
            Ok(Some(line)) => self.log_line(TrafficKind::FromEngine, line),
            Ok(None) => {}
            Err(e) => self.note(&e.to_string()),
        }
        result
    }

    /// After the engine's exit: the lines already in the pipe, then `Eof`.
    async fn read_available(&mut self, deadline: Instant) -> Result<String, ReadError> {
        match timeout_at(deadline, self.next_available()).await {
            Ok(Ok(Some(line))) => Ok(line),
            Ok(Ok(None)) => {
                self.reader.eof = true;
                Err(ReadError::Eof)
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(ReadError::Timeout),
        }
    }

    /// A buffered line, or one read from what the pipe holds right now.
    async fn next_available(&mut self) -> Result<Option<String>, ReadError> {
        loop {
            if let Some(result) = self.reader.take_buffered() {
                return result.map(Some);
            }
            if self.reader.eof {
                return self.reader.next_line().await.map(Some);
            }
            if !pipe_has_input(&self.reader.inner) {
                return Ok(None);
            }
            // why a bound: the kernel said the pipe is readable, so this read
            // returns at once; the limit only guards against the unexpected.
            match timeout(REAP_LIMIT, self.reader.fill()).await {
                Ok(result) => result?,
                Err(_) => return Ok(None),
            }
        }
    }

    /// The engine's exit, if it has exited (does not wait). On seeing the exit
    /// the rest of its process group is killed.
    pub fn try_exit(&mut self) -> Option<Exit> {
        if self.exit.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.on_exit(status);
            }
        }
        self.exit
    }

    /// Waits until the engine exits or `deadline` passes (does not kill it).
    /// Useful after [`ReadError::Eof`] to tell a crash from a clean exit.
    pub async fn wait_exit_until(&mut self, deadline: Instant) -> Option<Exit> {
        if self.exit.is_none() {
            if let Ok(Ok(status)) = timeout_at(deadline, self.child.wait()).await {
                self.on_exit(status);
            }
        }
        self.exit
    }

    /// SIGKILLs the engine's process group now (does not wait; `shutdown` reaps).
    pub fn kill(&mut self) {
        if self.group_live {
            kill_group(self.pgid);
            self.note("killed (SIGKILL to its process group)");
        }
    }

    /// Ends the engine: writes `quit`, closes its stdin, and waits up to `grace`
    /// for it to exit (reading and logging whatever it still prints, so that a
    /// full stdout pipe cannot keep it from exiting); then SIGKILLs the whole
    /// process group and reaps the engine. Never hangs: the total wait is at
    /// most `grace` plus a few seconds for the kernel to deliver SIGKILL.
    pub async fn shutdown(mut self, grace: Duration) -> ShutdownReport {
        let deadline = Instant::now() + grace;
        let mut quit_sent = false;
        if self.try_exit().is_none() {
            quit_sent = self.send_until("quit", deadline).await.is_ok();
            self.stdin = None;
            if let Ok(status) = timeout_at(deadline, self.wait_draining()).await {
                self.on_exit(status);
            }
        }
        let forced = self.exit.is_none();
        if forced {
            self.kill();
            if let Ok(status) = timeout(REAP_LIMIT, self.wait_draining()).await {
                self.on_exit(status);
            }
        }
        // why wait for the copy: once shutdown returns, the stderr log holds
        // everything the engine wrote (a report may show its tail). Bounded,
        // since a descendant that left the group may still hold the pipe.
        if let Some(copy) = self.stderr_copy.take() {
            let _ = timeout(STDERR_FLUSH_LIMIT, copy).await;
        }
        ShutdownReport {
            exit: self.exit,
            quit_sent,
            forced,
        }
    }

    /// Waits for the engine's exit while reading (and logging) its output.
    /// Returns its status; an error from `wait` itself is treated as never.
    async fn wait_draining(&mut self) -> ExitStatus {
        let EngineProcess {
            child,
            reader,
            traffic,
            name,
            pid,
            ..
        } = self;
        let drain = async {
            loop {
                let (kind, text) = match reader.next_line().await {
                    Ok(line) => (TrafficKind::FromEngine, line),
                    Err(ReadError::Eof | ReadError::Io(_)) => break,
                    Err(e) => (TrafficKind::Event, e.to_string()),
                };
                record(traffic, name, *pid, kind, &text, std::time::Instant::now());
            }
            std::future::pending::<()>().await;
        };
        tokio::select! {
            status = child.wait() => match status {
                Ok(status) => status,
                // why: `wait` fails only if the child was already reaped elsewhere,
                // which this type never does; wait for the caller's timeout instead.
                Err(_) => std::future::pending().await,
            },
            () = drain => unreachable!("the drain future never completes"),
        }
    }

    /// Records the exit and kills whatever is left of the process group.
    fn on_exit(&mut self, status: ExitStatus) {
        let exit = Exit::from(status);
        self.exit = Some(exit);
        self.note(&exit.to_string());
        self.end_group();
    }

    /// Kills the group (stragglers) and forgets it. Called once the engine's own
    /// process is reaped or when it is dropped; never signals the group again,
    /// because after the group is gone its id may be reused.
    fn end_group(&mut self) {
        if self.group_live {
            kill_group(self.pgid);
            self.group_live = false;
            let mut groups = live_groups();
            groups.remove(&self.pgid);
            watchdog::register(self.pgid, false);
            if self.exit.is_some() {
                // The engine is reaped, so whatever of its descendants left its
                // group is now our child (we are a subreaper): end those too.
                let adopted = watchdog::sweep_adopted(&groups);
                drop(groups);
                if adopted > 0 {
                    self.note(&format!(
                        "killed {adopted} descendant(s) that had left its process group"
                    ));
                }
            }
        }
    }

    /// When the last line was written to the engine or read from it.
    pub fn last_line_at(&self) -> std::time::Instant {
        self.last_line_at
    }

    fn log(&self, kind: TrafficKind, text: &str) {
        self.log_at(kind, text, std::time::Instant::now());
    }

    fn log_at(&self, kind: TrafficKind, text: &str, at: std::time::Instant) {
        record(&self.traffic, &self.name, self.pid, kind, text, at);
    }

    /// Logs a line written or read, stamped with the instant it also keeps as
    /// [`EngineProcess::last_line_at`] (so the clocks and the log agree exactly).
    fn log_line(&mut self, kind: TrafficKind, text: &str) {
        self.last_line_at = std::time::Instant::now();
        self.log_at(kind, text, self.last_line_at);
    }

    fn note(&self, text: &str) {
        self.log(TrafficKind::Event, text);
    }
}

fn record(
    log: &Option<Arc<dyn TrafficLog>>,
    engine: &str,
    pid: u32,
    kind: TrafficKind,
    text: &str,
    at: std::time::Instant,
) {
    if let Some(log) = log {
        log.record(&TrafficRecord {
            at,
            engine,
            pid,
            kind,
            text,
        });
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // The engine's own process is unreaped here (or the group is already
        // ended), so its pid — the group id — cannot have been reused.
        // `kill_on_drop` then has tokio reap it in the background.
        self.end_group();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_outside_runtime_is_an_error() {
        let err = EngineProcess::spawn(&LaunchSpec::new("/bin/true")).unwrap_err();
        assert!(matches!(err, SpawnError::NoRuntime));
    }
}
