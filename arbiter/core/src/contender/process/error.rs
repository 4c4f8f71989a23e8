//! What can go wrong with an engine process, and how one ended: the
//! errors of starting, reading and writing, [`Exit`] and [`ShutdownReport`].

use std::fmt;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::ExitStatus;

#[cfg(doc)]
use super::EngineProcess;

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

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

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

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            _ => None,
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
