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

use std::collections::BTreeSet;
use std::fmt;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
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

/// Bytes asked of the pipe per read.
const READ_CHUNK: usize = 8 * 1024;

// ---------------------------------------------------------------------------
// The spec
// ---------------------------------------------------------------------------

/// How to start one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    /// A label for logs and traffic records (default: the command's file name).
    pub name: String,
    /// The program. A path with a `/` is taken relative to the *arbiter's*
    /// current directory (not `working_dir`); a bare name is looked up in `PATH`.
    pub command: PathBuf,
    pub args: Vec<String>,
    /// The engine's current directory (default: the arbiter's).
    pub working_dir: Option<PathBuf>,
    /// Extra environment variables, on top of the arbiter's environment.
    pub env: Vec<(String, String)>,
    /// Where the engine's stderr goes (appended to; created if missing, and
    /// removed again when the engine ends without writing to it).
    /// `None` discards it.
    pub stderr_log: Option<PathBuf>,
    /// The longest line accepted from the engine, in bytes, without `\r\n`.
    pub max_line_len: usize,
    /// Time allowed for one line to be written by [`EngineProcess::send`].
    pub write_timeout: Duration,
    /// The most bytes the stderr log file may hold ([`DEFAULT_STDERR_MAX`];
    /// `None`: no cap). Once the file has reached it, a note says so and the
    /// rest of the engine's stderr is read and discarded.
    pub stderr_max: Option<u64>,
}

/// Default cap on an engine's stderr log file (16 MiB).
pub const DEFAULT_STDERR_MAX: u64 = 16 << 20;

impl LaunchSpec {
    pub fn new(command: impl Into<PathBuf>) -> LaunchSpec {
        let command = command.into();
        let name = command.file_name().map_or_else(
            || command.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        LaunchSpec {
            name,
            command,
            args: Vec::new(),
            working_dir: None,
            env: Vec::new(),
            stderr_log: None,
            max_line_len: DEFAULT_MAX_LINE_LEN,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            stderr_max: Some(DEFAULT_STDERR_MAX),
        }
    }

    /// Caps the stderr log file at `bytes` (`None`: no cap).
    pub fn stderr_max(mut self, bytes: Option<u64>) -> Self {
        self.stderr_max = bytes;
        self
    }

    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn working_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.working_dir = Some(dir.into());
        self
    }

    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    pub fn stderr_log(mut self, path: impl Into<PathBuf>) -> Self {
        self.stderr_log = Some(path.into());
        self
    }

    pub fn max_line_len(mut self, bytes: usize) -> Self {
        self.max_line_len = bytes;
        self
    }

    pub fn write_timeout(mut self, limit: Duration) -> Self {
        self.write_timeout = limit;
        self
    }
}

// ---------------------------------------------------------------------------
// Errors and results
// ---------------------------------------------------------------------------

/// Why an engine could not be started. Paths are shown as the spec gave them.
#[derive(Debug)]
pub enum SpawnError {
    /// The program does not exist (or is not in `PATH`).
    NotFound { path: PathBuf },
    /// The program exists but cannot be executed; `reason` says why.
    NotExecutable { path: PathBuf, reason: String },
    /// The working directory is missing or not a directory.
    WorkingDir { path: PathBuf, reason: String },
    /// The stderr log file could not be opened.
    StderrLog { path: PathBuf, source: io::Error },
    /// Called outside a tokio runtime.
    NoRuntime,
    /// Any other failure to start the program.
    Io { path: PathBuf, source: io::Error },
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpawnError::NotFound { path } => {
                write!(f, "engine binary {} not found", path.display())
            }
            SpawnError::NotExecutable { path, reason } => {
                write!(
                    f,
                    "engine binary {} is not executable: {reason}",
                    path.display()
                )
            }
            SpawnError::WorkingDir { path, reason } => {
                write!(f, "engine working directory {}: {reason}", path.display())
            }
            SpawnError::StderrLog { path, source } => {
                write!(
                    f,
                    "cannot open engine stderr log {}: {source}",
                    path.display()
                )
            }
            SpawnError::NoRuntime => {
                f.write_str("engines can only be started inside a tokio runtime")
            }
            SpawnError::Io { path, source } => {
                write!(f, "cannot start engine {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for SpawnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SpawnError::StderrLog { source, .. } | SpawnError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a line could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The deadline passed first. Nothing is lost: a partly received line stays
    /// buffered for the next read.
    Timeout,
    /// The engine closed its stdout (usually: it exited or crashed). Bytes after
    /// the last `\n` are discarded. Every later read returns `Eof` at once.
    Eof,
    /// A line longer than the limit. `bytes` is how much of it had been seen when
    /// it was rejected (the whole line, or just past the limit for a line still
    /// arriving). The rest of that line is skipped by the following reads, so
    /// the next successful read is the line after it.
    LineTooLong { bytes: usize, limit: usize },
    /// The line is not UTF-8. It is consumed; `lossy` is its text with invalid
    /// sequences replaced by U+FFFD, for the log.
    InvalidUtf8 { lossy: String },
    /// The pipe failed.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Timeout => f.write_str("no line before the deadline"),
            ReadError::Eof => f.write_str("engine closed its output"),
            ReadError::LineTooLong { bytes, limit } => {
                write!(f, "line too long ({bytes} bytes seen, limit {limit})")
            }
            ReadError::InvalidUtf8 { lossy } => write!(f, "line is not valid UTF-8: {lossy:?}"),
            ReadError::Io(e) => write!(f, "reading engine output: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Why a line could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The engine's stdin is closed (it exited, closed it, or an earlier write
    /// failed or timed out).
    Closed,
    /// The engine did not take the line before the deadline (it stopped reading
    /// and the pipe is full). Its stdin is considered closed from then on.
    Timeout,
    /// The line contains `\n` or `\r`, which would split it into several commands.
    InvalidLine,
    Io(io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Closed => f.write_str("engine input is closed"),
            WriteError::Timeout => f.write_str("engine did not read its input in time"),
            WriteError::InvalidLine => f.write_str("a protocol line cannot contain a line break"),
            WriteError::Io(e) => write!(f, "writing to engine: {e}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// How an engine process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited by itself with this code.
    Code(i32),
    /// It was killed by a signal (SIGKILL when the arbiter had to kill it).
    Signal { signal: i32, core_dumped: bool },
}

impl Exit {
    /// Exit code 0.
    pub fn success(self) -> bool {
        self == Exit::Code(0)
    }
}

impl From<ExitStatus> for Exit {
    fn from(status: ExitStatus) -> Exit {
        match (status.code(), status.signal()) {
            (Some(code), _) => Exit::Code(code),
            (None, Some(signal)) => Exit::Signal {
                signal,
                core_dumped: status.core_dumped(),
            },
            // why: `wait` only reports terminated processes, which have one or the
            // other; keep the raw status rather than invent a meaning.
            (None, None) => Exit::Code(status.into_raw()),
        }
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Code(code) => write!(f, "exited with code {code}"),
            Exit::Signal {
                signal,
                core_dumped,
            } => {
                write!(f, "killed by signal {signal}")?;
                if let Some(name) = signal_name(signal) {
                    write!(f, " ({name})")?;
                }
                if core_dumped {
                    f.write_str(", core dumped")?;
                }
                Ok(())
            }
        }
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        _ => return None,
    })
}

/// What [`EngineProcess::shutdown`] saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShutdownReport {
    /// How the engine ended; `None` only if it could not be reaped even after
    /// SIGKILL (left to tokio's background reaper).
    pub exit: Option<Exit>,
    /// Whether `quit` was written successfully.
    pub quit_sent: bool,
    /// Whether the grace period ran out and the group had to be SIGKILLed.
    pub forced: bool,
}

// ---------------------------------------------------------------------------
// Protocol traffic log
// ---------------------------------------------------------------------------

/// Which way a traffic record went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrafficKind {
    /// A line the arbiter wrote to the engine (without its `\n`).
    ToEngine,
    /// A line read from the engine (without `\r\n`).
    FromEngine,
    /// Something that is not a line: start, EOF, an over-long or non-UTF-8 line,
    /// exit, kill.
    Event,
}

/// One record of protocol traffic.
#[derive(Clone, Copy, Debug)]
pub struct TrafficRecord<'a> {
    /// Monotonic time of the event.
    pub at: std::time::Instant,
    /// The spec's name of the engine.
    pub engine: &'a str,
    pub pid: u32,
    pub kind: TrafficKind,
    pub text: &'a str,
}

/// Receives protocol traffic (the `--debug` option). Called inline on the
/// engine's task, so it must be quick and must not block for long.
pub trait TrafficLog: Send + Sync {
    fn record(&self, record: &TrafficRecord<'_>);
}

impl<F> TrafficLog for F
where
    F: Fn(&TrafficRecord<'_>) + Send + Sync,
{
    fn record(&self, record: &TrafficRecord<'_>) {
        self(record)
    }
}

// ---------------------------------------------------------------------------
// The registry of live process groups
// ---------------------------------------------------------------------------

/// Process groups of engines that may still have live processes.
static LIVE_GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live_groups() -> MutexGuard<'static, BTreeSet<i32>> {
    // why: a panic elsewhere while holding the lock must not stop Ctrl-C cleanup.
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// SIGKILLs the process group of every engine that is still live (for the Ctrl-C
/// handler: call it from the task that awaited `tokio::signal::ctrl_c()`, not
/// from a raw signal handler, as it takes a lock). Returns how many groups were
/// signalled. It does not reap: the owners do that (or the arbiter exits).
pub fn kill_all_engines() -> usize {
    // why before the kill: an engine seen dead from here on died by our
    // hand, and its game must not be charged to it (see [`killed_by_arbiter`]).
    KILLED_ALL.store(true, std::sync::atomic::Ordering::SeqCst);
    live_groups()
        .iter()
        .filter(|&&pgid| kill_group(pgid))
        .count()
}

/// Set by [`kill_all_engines`]: the arbiter killed its engines itself (it is
/// stopping), so an engine gone from then on did not crash.
static KILLED_ALL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the arbiter has killed its engines itself ([`kill_all_engines`],
/// a stop at once): an engine seen gone since is no crash of its own, and
/// its game is interrupted, never scored ([`crate::play::game::gone`]).
pub fn killed_by_arbiter() -> bool {
    KILLED_ALL.load(std::sync::atomic::Ordering::SeqCst)
}

/// Kills and reaps every process this arbiter adopted as a subreaper (the
/// descendants of ended engines that had left their group), sparing live
/// engines. For the very end of the arbiter, after [`kill_all_engines`].
pub fn kill_adopted() -> usize {
    let groups = live_groups();
    // why wait: an engine SIGKILLed a moment ago (by [`kill_all_engines`])
    // hands its escaped descendants to us only once it has exited; swept
    // before that, they were not our children yet and outlived the arbiter
    // (a signal's race, seen 1 run in 3).
    wait_for_exit(&groups, EXIT_WAIT_LIMIT);
    let mut total = 0;
    // why a few rounds: killing an adopted process hands its own children to us.
    for _ in 0..4 {
        let n = crate::contender::watchdog::sweep_adopted(&groups);
        total += n;
        if n == 0 {
            break;
        }
    }
    total
}

/// The longest [`kill_adopted`] waits for SIGKILLed engines to exit.
const EXIT_WAIT_LIMIT: Duration = Duration::from_secs(2);

/// Waits (at most `limit`) until every engine `pids` names (our children)
/// has exited, all its threads: only then has it handed its children to
/// the subreaper. (Its main thread shows as a zombie sooner, while other
/// threads still die; those take the children meanwhile.)
fn wait_for_exit(pids: &BTreeSet<i32>, limit: Duration) {
    let deadline = std::time::Instant::now() + limit;
    while !pids.iter().all(|&pid| exited(pid)) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether our child `pid` has exited (or is gone), without reaping it.
fn exited(pid: i32) -> bool {
    let Ok(id) = libc::id_t::try_from(pid) else {
        return true;
    };
    // SAFETY: waitid writes the one siginfo we pass, which outlives the
    // call; WNOWAIT leaves the child to be reaped by its owner, WNOHANG
    // never blocks.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOWAIT | libc::WNOHANG;
        // why a thread group's exit: waitid reports it once every thread
        // has exited, which is when the children have been handed on.
        libc::waitid(libc::P_PID, id, &mut info, flags) != 0 || info.si_pid() != 0
    }
}

/// How many engine process groups are registered as live.
pub fn live_engine_count() -> usize {
    live_groups().len()
}

/// Where an engine's stderr is copied to: the log file, its cap
/// (`u64::MAX`: none) and, for a log this process created, its path, so that
/// a log left empty is removed.
struct StderrSink {
    file: std::fs::File,
    max: u64,
    remove_if_empty: Option<PathBuf>,
}

/// Copies an engine's stderr into its log file until the file holds `max`
/// bytes, then writes a note and reads the rest into the void, until the
/// engine (and whoever shares its stderr) closes it. Write errors stop the
/// copying, never the reading.
async fn copy_capped(mut pipe: tokio::process::ChildStderr, sink: StderrSink) {
    use std::io::Write;
    let StderrSink {
        mut file,
        max,
        remove_if_empty,
    } = sink;
    let mut room = file.metadata().map_or(max, |m| max.saturating_sub(m.len()));
    let mut writing = room > 0;
    let mut wrote = false;
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        wrote = true;
        if !writing {
            continue;
        }
        let take = usize::try_from(room).map_or(n, |r| r.min(n));
        // why a plain write: a regular file takes a few KiB at once; the cap
        // keeps the total small.
        let mut ok = file.write_all(&buf[..take]).is_ok();
        room -= take as u64;
        if room == 0 && ok {
            ok = writeln!(
                file,
                "\n[arbiter: this log reached stderr_max={max} bytes; the rest of the engine's \
                 stderr was discarded]"
            )
            .is_ok();
            writing = false;
        }
        writing &= ok;
    }
    if let (false, Some(path)) = (wrote, remove_if_empty) {
        // why check the length again: another writer may share the file.
        if file.metadata().is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Whether the kernel holds input (or end of input) on `pipe` right now.
fn pipe_has_input(pipe: &impl AsRawFd) -> bool {
    let mut poll = libc::pollfd {
        fd: pipe.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll reads and writes the one pollfd we pass, which lives across
    // the call; a zero timeout never blocks.
    let ready = unsafe { libc::poll(&mut poll, 1, 0) };
    ready > 0 && poll.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0
}

/// SIGKILLs process group `pgid`; false if there was nothing to signal.
fn kill_group(pgid: i32) -> bool {
    // why: killpg(0) is our own group and 1 is init; an engine's group id is its
    // pid, which is never either.
    if pgid <= 1 {
        return false;
    }
    // SAFETY: killpg takes two integers and touches no memory of ours.
    unsafe { libc::killpg(pgid, libc::SIGKILL) == 0 }
}

// ---------------------------------------------------------------------------
// The line reader
// ---------------------------------------------------------------------------

/// Reads `\n`-terminated lines with a length cap, in bounded memory.
///
/// `\r\n` is accepted as a line end. A line longer than the cap is reported as
/// [`ReadError::LineTooLong`] as soon as the cap is passed (not when its end
/// finally arrives), and the reads after that skip the rest of it without
/// keeping it, so even an endless line costs at most about `max + 8 KiB`.
/// [`LineReader::next_line`] is cancel-safe: dropping it (e.g. on a deadline)
/// loses no data.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    /// Bytes received and not yet returned.
    buf: Vec<u8>,
    /// `buf[..scanned]` is known to hold no `\n`.
    scanned: usize,
    max: usize,
    /// Inside an over-long line already reported: drop bytes up to its `\n`.
    skipping: bool,
    eof: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max_line_len: usize) -> LineReader<R> {
        LineReader {
            inner,
            buf: Vec::new(),
            scanned: 0,
            max: max_line_len,
            skipping: false,
            eof: false,
        }
    }

    /// The next line, without its `\n` or `\r\n`.
    pub async fn next_line(&mut self) -> Result<String, ReadError> {
        loop {
            if let Some(result) = self.take_buffered() {
                return result;
            }
            if self.eof {
                self.buf.clear();
                self.scanned = 0;
                return Err(ReadError::Eof);
            }
            // why: `read_buf` either appends what it read or (when cancelled)
            // nothing, which is what makes this loop cancel-safe.
            self.fill().await?;
        }
    }

    /// One read from the pipe into the buffer (end of input sets `eof`).
    async fn fill(&mut self) -> Result<(), ReadError> {
        self.buf.reserve(READ_CHUNK);
        let n = self
            .inner
            .read_buf(&mut self.buf)
            .await
            .map_err(ReadError::Io)?;
        if n == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// A result from what is already buffered, or `None` if more input is needed.
    fn take_buffered(&mut self) -> Option<Result<String, ReadError>> {
        let newline = self.buf[self.scanned..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| i + self.scanned);
        if self.skipping {
            match newline {
                Some(end) => {
                    self.buf.drain(..=end);
                    self.scanned = 0;
                    self.skipping = false;
                }
                None => {
                    self.buf.clear();
                    self.scanned = 0;
                    return None;
                }
            }
            return self.take_buffered();
        }
        let Some(end) = newline else {
            self.scanned = self.buf.len();
            // why `+ 1`: the last byte may be the `\r` of a `\r\n` still arriving.
            if self.buf.len() > self.max + 1 {
                let bytes = self.buf.len();
                self.buf.clear();
                self.scanned = 0;
                self.skipping = true;
                return Some(Err(ReadError::LineTooLong {
                    bytes,
                    limit: self.max,
                }));
            }
            return None;
        };
        let mut line: Vec<u8> = self.buf.drain(..=end).collect();
        self.scanned = 0;
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > self.max {
            return Some(Err(ReadError::LineTooLong {
                bytes: line.len(),
                limit: self.max,
            }));
        }
        Some(String::from_utf8(line).map_err(|e| ReadError::InvalidUtf8 {
            lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }))
    }

    /// Bytes of buffer currently allocated (for tests of the memory bound).
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }
}

// ---------------------------------------------------------------------------
// The engine process
// ---------------------------------------------------------------------------

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

/// The program to run: paths with a `/` are made absolute against the arbiter's
/// current directory and checked up front, for clear errors.
fn resolve_program(command: &Path) -> Result<PathBuf, SpawnError> {
    if command.as_os_str().is_empty() {
        return Err(SpawnError::NotFound {
            path: command.to_path_buf(),
        });
    }
    if command.components().count() == 1 && !command.is_absolute() {
        return Ok(command.to_path_buf()); // a bare name: `PATH` lookup at spawn
    }
    let not_executable = |reason: &str| SpawnError::NotExecutable {
        path: command.to_path_buf(),
        reason: reason.to_string(),
    };
    let meta = match std::fs::metadata(command) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(SpawnError::NotFound {
                path: command.to_path_buf(),
            })
        }
        Err(e) => return Err(not_executable(&e.to_string())),
    };
    if meta.is_dir() {
        return Err(not_executable("it is a directory"));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(not_executable("it has no execute permission"));
    }
    std::path::absolute(command).map_err(|source| SpawnError::Io {
        path: command.to_path_buf(),
        source,
    })
}

fn check_working_dir(dir: &Path) -> Result<(), SpawnError> {
    let problem = match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => "not a directory".to_string(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => "not found".to_string(),
        Err(e) => e.to_string(),
    };
    Err(SpawnError::WorkingDir {
        path: dir.to_path_buf(),
        reason: problem,
    })
}

/// Maps an `exec` failure to a clear error. `exists`: whether the program file
/// itself was found (then "not found" means its interpreter or loader is missing).
fn spawn_error(command: &Path, exists: bool, e: io::Error) -> SpawnError {
    let path = command.to_path_buf();
    match e.kind() {
        io::ErrorKind::NotFound if exists => SpawnError::NotExecutable {
            path,
            reason: "its interpreter (#! line) or loader was not found".to_string(),
        },
        io::ErrorKind::NotFound => SpawnError::NotFound { path },
        io::ErrorKind::PermissionDenied => SpawnError::NotExecutable {
            path,
            reason: e.to_string(),
        },
        _ if e.raw_os_error() == Some(libc::ENOEXEC) => SpawnError::NotExecutable {
            path,
            reason: "not a program this system can run (exec format error)".to_string(),
        },
        _ => SpawnError::Io { path, source: e },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use tokio::io::ReadBuf;

    async fn lines(input: &[u8], max: usize) -> Vec<Result<String, String>> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        loop {
            match reader.next_line().await {
                Err(ReadError::Eof) => return out,
                Ok(line) => out.push(Ok(line)),
                Err(e) => out.push(Err(e.to_string())),
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_accepts_crlf() {
        let got = lines(b"umi\r\nid name x\n\nreadyok\npartial", 100).await;
        assert_eq!(
            got,
            vec![
                Ok("umi".into()),
                Ok("id name x".into()),
                Ok(String::new()),
                Ok("readyok".into())
            ]
        );
    }

    #[tokio::test]
    async fn too_long_line_is_reported_and_skipped() {
        let mut input = b"ok1\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 10_000));
        input.extend_from_slice(b"\nok2\n12345\n123456\n");
        let got = lines(&input, 5).await;
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(got[0], Ok("ok1".into()));
        assert!(
            got[1].as_ref().is_err_and(|e| e.contains("too long")),
            "{got:?}"
        );
        assert_eq!(got[2], Ok("ok2".into()));
        assert_eq!(got[3], Ok("12345".into()));
        assert!(
            got[4].as_ref().is_err_and(|e| e.contains("too long")),
            "{got:?}"
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_reported_lossily() {
        let mut reader = LineReader::new(&b"a\xffb\nnext\n"[..], 100);
        match reader.next_line().await {
            Err(ReadError::InvalidUtf8 { lossy }) => assert_eq!(lossy, "a\u{fffd}b"),
            other => panic!("expected InvalidUtf8, got {other:?}"),
        }
        assert_eq!(reader.next_line().await.ok(), Some("next".to_string()));
    }

    /// An endless stream of `x` (no newline ever), counting what was read.
    struct Endless {
        served: usize,
        pause: bool,
    }

    impl AsyncRead for Endless {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            // why: yield every other read, as a real pipe does, so timers can fire.
            self.pause = !self.pause;
            if self.pause {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let n = buf.remaining();
            buf.put_slice(&vec![b'x'; n]);
            self.served += n;
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn endless_line_uses_bounded_memory() {
        let mut reader = LineReader::new(
            Endless {
                served: 0,
                pause: false,
            },
            1024,
        );
        assert!(matches!(
            reader.next_line().await,
            Err(ReadError::LineTooLong { limit: 1024, .. })
        ));
        // The next read skips the rest of the endless line until the deadline.
        let skipping = timeout(Duration::from_millis(50), reader.next_line()).await;
        assert!(skipping.is_err(), "an endless line never yields a line");
        assert!(
            reader.inner.served > 1_000_000,
            "the test read too little: {}",
            reader.inner.served
        );
        assert!(
            reader.buffer_capacity() <= 4 * (1024 + READ_CHUNK),
            "buffer grew to {}",
            reader.buffer_capacity()
        );
    }

    #[test]
    fn exit_descriptions() {
        assert_eq!(Exit::Code(1).to_string(), "exited with code 1");
        let killed = Exit::Signal {
            signal: libc::SIGKILL,
            core_dumped: false,
        };
        assert_eq!(killed.to_string(), "killed by signal 9 (SIGKILL)");
        assert!(Exit::Code(0).success() && !killed.success());
    }

    #[test]
    fn spawn_outside_runtime_is_an_error() {
        let err = EngineProcess::spawn(&LaunchSpec::new("/bin/true")).unwrap_err();
        assert!(matches!(err, SpawnError::NoRuntime));
    }

    #[test]
    fn never_signals_own_group_or_init() {
        assert!(!kill_group(0));
        assert!(!kill_group(1));
        assert!(!kill_group(-5));
    }
}
