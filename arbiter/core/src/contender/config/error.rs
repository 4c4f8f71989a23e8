//! [`ConfigError`]: a bad engine configuration, its message naming the
//! engine (or the engines file) and the problem.

use std::fmt;
use std::path::PathBuf;

use super::key_names;
use crate::play::tc::TcError;

/// A bad engine configuration; the message names the engine and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A token that is not `key=value`. `origin` is e.g. `--engine #2`.
    NotKeyValue {
        origin: String,
        token: String,
    },
    UnknownKey {
        origin: String,
        key: String,
    },
    EmptyValue {
        origin: String,
        key: String,
    },
    /// A value that does not read; `expected` says what would.
    BadValue {
        origin: String,
        key: String,
        value: String,
        expected: &'static str,
    },
    /// A bad time-control value (number, duration, tc/st conflict).
    TimeControl {
        origin: String,
        error: TcError,
    },
    MissingCmd {
        origin: String,
    },
    /// No `cmd=` because the settings were written with commas
    /// (`name=a,cmd=x`): one setting whose value holds the others.
    CommaSeparated {
        origin: String,
        token: String,
    },
    /// Both `cmd=` and `remote=`.
    CmdAndRemote {
        origin: String,
    },
    /// A value the key does not take (`proto=uci`, `restart=maybe`).
    Refused {
        origin: String,
        key: String,
        message: String,
    },
    /// `conf=` in `--each`.
    ConfInEach,
    /// `conf=` but no engines file was given.
    NoEnginesFile {
        name: String,
    },
    ConfNotFound {
        name: String,
        known: Vec<String>,
    },
    /// The engines file cannot be read or parsed.
    File {
        path: String,
        message: String,
    },
    /// Two engines (or two file entries: `file` names it) with the same name.
    DuplicateName {
        name: String,
        file: Option<String>,
    },
    BinaryNotFound {
        path: PathBuf,
    },
    NotExecutable {
        path: PathBuf,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ConfigError::*;
        match self {
            NotKeyValue { origin, token } => {
                write!(f, "{origin}: expected key=value, got {token:?}")
            }
            UnknownKey { origin, key } => {
                write!(f, "{origin}: unknown key {key:?} (known: {})", key_names())
            }
            EmptyValue { origin, key } => write!(f, "{origin}: empty value for {key}"),
            BadValue {
                origin,
                key,
                value,
                expected,
            } => write!(f, "{origin}: {key}={value}: expected {expected}"),
            TimeControl { origin, error } => write!(f, "{origin}: {error}"),
            MissingCmd { origin } => write!(f, "{origin}: no cmd= (or remote=) given"),
            CommaSeparated { origin, token } => write!(
                f,
                "{origin}: {token:?} is one setting, not several: separate the settings with \
                 spaces, not commas (\"{}\")",
                token.replace(',', " ")
            ),
            CmdAndRemote { origin } => write!(
                f,
                "{origin}: cmd= and remote= together; an engine is either a process or remote"
            ),
            Refused {
                origin,
                key,
                message,
            } => write!(f, "{origin}: {key}: {message}"),
            ConfInEach => f.write_str("--each: conf= selects one engine; use it with --engine"),
            NoEnginesFile { name } => {
                write!(
                    f,
                    "conf={name}: no engines file given (--engines-file FILE, or an \
                     engines.json in the current directory)"
                )
            }
            ConfNotFound { name, known } => write!(
                f,
                "conf={name}: no such engine in the engines file (known: {})",
                known.join(", ")
            ),
            File { path, message } => write!(f, "engines file {path}: {message}"),
            DuplicateName { name, file: None } => write!(
                f,
                "two engines are named {name:?} (a name defaults to the command's file \
                 name): give each its own with name=, e.g. --engine cmd=... name={name}-2"
            ),
            DuplicateName {
                name,
                file: Some(path),
            } => write!(
                f,
                "engines file {path}: two entries are named {name:?}; each needs a name of its own"
            ),
            BinaryNotFound { path } => write!(f, "engine binary not found: {}", path.display()),
            NotExecutable { path } => {
                write!(f, "engine binary not executable: {}", path.display())
            }
        }
    }
}

impl std::error::Error for ConfigError {}
