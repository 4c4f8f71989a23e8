//! How to start one engine: the [`LaunchSpec`] (program, arguments,
//! directory, environment, stderr log and the caps on lines and writes).

use std::path::PathBuf;
use std::time::Duration;

#[cfg(doc)]
use super::EngineProcess;
use super::{DEFAULT_MAX_LINE_LEN, DEFAULT_WRITE_TIMEOUT};

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
