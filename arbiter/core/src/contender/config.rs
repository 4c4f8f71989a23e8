//! Engine specs, as on cutechess-cli's command line and in an engines file.
//!
//! Each `--engine` is followed by `key=value` tokens (values may contain `=`):
//!
//! | key | meaning |
//! |---|---|
//! | `cmd=<path>` | the engine binary (required, here or from `conf=`) |
//! | `name=<name>` | display name (default: the file name of `cmd`) |
//! | `arg=<arg>` | one command-line argument, repeatable, in order |
//! | `dir=<path>` | working directory of the engine process |
//! | `option.<Name>=<value>` | an engine option, sent with `setoption` |
//! | `tc=`, `st=`, `depth=`, `nodes=`, `timemargin=` | see [`crate::play::tc`]; `timemargin` defaults to 50 ms |
//! | `stderr=<file>` | where the engine's stderr goes |
//! | `stderr_max=<bytes>` | cap on that file (`16M` by default; `K`, `M`, `G` suffixes; `0`: no cap) |
//! | `conf=<name>` | start from the engines-file entry with that name |
//! | `proto=umi\|kgp` | `umi` (the default; accepted for cutechess habits); `kgp`: a remote Kalah bot speaking the Kalah Game Protocol, connecting to `--kgp-listen` (see [`crate::remote::kgp`]) |
//! | `ponder` (or `ponder=true`) | the engine ponders (`go ponder` on the opponent's time, see `play::game`) |
//! | `restart=on\|off` | `on`: a fresh process for every game; `off` (default): one process for many games, restarted only after a fault |
//! | `remote=<id>` | instead of `cmd=`: a remote engine, connecting to `--remote-listen` with the token of `<id>` (see [`crate::remote`]) |
//! | `slots=<n>` | a remote engine's most connections at once (default: the event's concurrency) |
//! | `lag=auto\|0\|<ms>` | a remote engine's lag compensation: the per-game quota (default), none, or up to `<ms>` a move ([`crate::play::lag`]) |
//!
//! `--each` takes the same keys (except `conf`) and applies them to every
//! engine. Precedence, lowest first: `--each`, the `conf=` entry, the
//! engine's own tokens — a key set at a higher level wins (options per option
//! name; a `tc` replaces an `st` and vice versa). Arguments accumulate
//! instead: the entry's, then the engine's own, then those of `--each`.
//!
//! The engines file is JSON, an array of objects:
//! `{ "name": "Alpha", "cmd": "./alpha", "args": ["--x"], "dir": "/engines",
//!    "options": {"Hash": 64, "Ponder": false}, "tc": "40/60+0.5" }`
//! (also `st`, `depth`, `nodes`, `timemargin`, `stderr`; `command` and
//! `workingDirectory` are accepted for `cmd` and `dir` as in cutechess).
//! Options from the file are sent in name order.
//!
//! The program to run ([`EngineSpec::program`]) resolves like cutechess: a
//! relative `cmd` containing a `/` is taken relative to `dir` when one is
//! given; a bare name is looked up in `dir`, the current directory, beside
//! the arbiter's executable (`cmd=engine`: the reference engine), then on
//! `PATH`.
//! [`resolve_engines`] reports a missing or non-executable binary up front.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use mancala_rules::GameId;
use serde::Deserialize;

use crate::play::tc::{TcError, TimeControl, TimeLimit};

/// The `timemargin` of an engine that sets none: the protocol names 50 ms as
/// the reference arbiter's default (spec section 7).
pub const DEFAULT_TIME_MARGIN: std::time::Duration = std::time::Duration::from_millis(50);

/// One `--engine` key as the parser knows it: its spelling (`option.<name>`
/// for the options), the shape of its value, and what it does. The help of
/// `--engine`, the unknown-key message, the cutechess translation and the
/// docs test all read this table.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    pub key: &'static str,
    pub value: &'static str,
    pub meaning: &'static str,
}

const fn key(key: &'static str, value: &'static str, meaning: &'static str) -> Key {
    Key {
        key,
        value,
        meaning,
    }
}

/// Every key of `--engine` (and `--each`, and an engines file's fields).
pub const KEYS: &[Key] = &[
    key("cmd", "PATH", "the engine program (a bare name: dir=, the current directory, beside the arbiter, then PATH)"),
    key("name", "NAME", "the name in logs and standings (default: the program's file name)"),
    key("arg", "ARG", "one command-line argument of the engine (repeat, in order)"),
    key("dir", "DIR", "the engine process's working directory"),
    key("option.<name>", "VALUE", "an engine option, sent with setoption after the handshake"),
    key("tc", "MOVES/SECS+INC", "a chess clock (40/60+0.5, 60+0.5, 2:30) or inf (no clock: give depth= or nodes=)"),
    key("st", "SECS", "fixed seconds per move (go movetime)"),
    key("depth", "PLIES", "a search depth limit sent with go"),
    key("nodes", "N", "a search node limit sent with go"),
    key("timemargin", "MS", "milliseconds an engine may overstep its time before it forfeits (default 50)"),
    key("stderr", "FILE", "the file that receives the engine's stderr"),
    key("stderr_max", "BYTES", "cap on that file (default 16M; K, M, G suffixes; 0: no cap)"),
    key("conf", "NAME", "start from the engines-file entry of that name"),
    key("proto", "umi|kgp", "umi (the default, for cutechess habits); kgp: a remote Kalah bot (with remote=)"),
    key("ponder", "true|false", "the engine ponders on the opponent's time (a bare ponder: true)"),
    key("restart", "on|off", "on: a fresh process every game; off (default): one for many games"),
    key("remote", "ID", "instead of cmd=: a remote engine connecting with the token of ID"),
    key("slots", "N", "a remote engine's most connections at once (default: the concurrency)"),
    key("lag", "auto|0|MS", "a remote engine's lag compensation: per-game quota, none, or up to MS a move"),
];

/// The table's spelling of `key` (`option.<name>` for `option.Hash`).
pub fn known_key(key: &str) -> Option<&'static str> {
    if key.len() > "option.".len() && key.starts_with("option.") {
        return Some("option.<name>");
    }
    KEYS.iter().find(|k| k.key == key).map(|k| k.key)
}

/// The keys of [`KEYS`], for messages: `cmd, name, …, lag`.
pub fn key_names() -> String {
    KEYS.iter().map(|k| k.key).collect::<Vec<_>>().join(", ")
}

/// `--engine`'s long help: every key with its meaning, but those `refused`.
pub fn keys_help(intro: &str, refused: &[(&str, &str)]) -> String {
    let mut text = format!("{intro}\n\nKeys:");
    for k in KEYS
        .iter()
        .filter(|k| !refused.iter().any(|(r, _)| *r == k.key))
    {
        text.push_str(&format!("\n  {}={}: {}", k.key, k.value, k.meaning));
    }
    if !refused.is_empty() {
        let names: Vec<String> = refused.iter().map(|(k, _)| format!("{k}=")).collect();
        text.push_str(&format!(
            "\n\nRefused here (they cannot act): {}",
            names.join(" ")
        ));
    }
    text
}

/// The keys `arbiter connect` cannot honour, and who sets them instead: the
/// organiser's arbiter drives the game, the bridge only runs the engine.
pub const CONNECT_REFUSES: &[(&str, &str)] = &[
    ("tc", ORGANISER_LIMITS),
    ("st", ORGANISER_LIMITS),
    ("depth", ORGANISER_LIMITS),
    ("nodes", ORGANISER_LIMITS),
    ("timemargin", ORGANISER_LIMITS),
    ("ponder", "the organiser sets it on their --engine remote=<id>"),
    ("restart", "the organiser sets it on their --engine remote=<id> (the bridge starts a fresh engine for every connection)"),
    ("lag", "the organiser sets a remote engine's lag compensation on their --engine remote=<id>"),
    ("slots", "give connect's own --slots N"),
    ("remote", "connect runs a local engine: give it cmd="),
];

const ORGANISER_LIMITS: &str =
    "the organiser sets the games' limits on their --engine remote=<id>; the bridge relays the arbiter's go";

/// The keys `arbiter check` cannot honour: it drives the engine itself.
pub const CHECK_REFUSES: &[(&str, &str)] = &[
    ("tc", CHECK_SEARCHES),
    ("st", CHECK_SEARCHES),
    ("depth", CHECK_SEARCHES),
    ("nodes", CHECK_SEARCHES),
    ("ponder", "check tests go ponder on every engine"),
    (
        "restart",
        "check restarts the engine itself, only after a check that left it in an unknown state",
    ),
    ("remote", CHECK_LOCAL),
    ("slots", CHECK_LOCAL),
    ("lag", CHECK_LOCAL),
];

const CHECK_SEARCHES: &str = "check sets the limits of its own searches (movetime, depth, clocks)";
const CHECK_LOCAL: &str =
    "check runs a local engine process; check a remote bot on its own machine with cmd=";

/// The keys `arbiter serve` cannot honour: the page chooses the games.
pub const SERVE_REFUSES: &[(&str, &str)] = &[
    ("tc", SERVE_PAGE),
    ("st", SERVE_PAGE),
    ("depth", SERVE_PAGE),
    ("nodes", SERVE_PAGE),
    ("timemargin", SERVE_PAGE),
    ("ponder", "the board does not let engines ponder"),
    ("restart", "the board keeps a page's engines between its games and starts a new process only for a new choice or after a crash"),
];

const SERVE_PAGE: &str = "the page chooses each game's time control";

/// The keys an arena house bot (`arena run --house`) cannot honour: its
/// games are the pools' (their `each`), and it is a local process.
pub const HOUSE_REFUSES: &[(&str, &str)] = &[
    ("tc", HOUSE_POOL),
    ("st", HOUSE_POOL),
    ("depth", HOUSE_POOL),
    ("nodes", HOUSE_POOL),
    ("timemargin", HOUSE_POOL),
    ("ponder", "the arena's games are played without pondering"),
    ("remote", HOUSE_LOCAL),
    ("lag", HOUSE_LOCAL),
    ("proto", HOUSE_LOCAL),
];

const HOUSE_POOL: &str =
    "each pool sets its games' limits in its `each` (pools.json), for every bot alike";
const HOUSE_LOCAL: &str =
    "a house bot is a local process (give cmd=); a remote bot connects to the arena itself";

/// Refuses the first key of `spec` that `command` cannot honour (`refused`:
/// key and why), naming the key and who sets it instead.
pub fn refuse_keys(
    spec: &EngineSpec,
    command: &str,
    refused: &[(&str, &str)],
) -> Result<(), ConfigError> {
    for (key, why) in refused {
        if spec.keys.contains(key) {
            return Err(ConfigError::Refused {
                origin: format!("engine {}", spec.name),
                key: format!("{key}="),
                message: format!("arbiter {command} does not take it: {why}"),
            });
        }
    }
    Ok(())
}

/// Everything needed to start and drive one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    /// The command as given (see [`EngineSpec::program`] for the resolved path).
    pub cmd: PathBuf,
    pub args: Vec<String>,
    /// Working directory; `None`: the arbiter's.
    pub dir: Option<PathBuf>,
    /// Engine options in the order they are sent.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
    /// File that receives the engine's stderr; `None`: the arbiter decides.
    pub stderr: Option<PathBuf>,
    /// Cap on the stderr file in bytes (`stderr_max=`; `None`: the default,
    /// `Some(0)`: no cap).
    pub stderr_max: Option<u64>,
    /// Whether the engine ponders (`go ponder` on the opponent's time).
    pub ponder: bool,
    /// When the arbiter starts a fresh process for this engine.
    pub restart: Restart,
    /// A remote engine's id (`remote=`); then `cmd` is empty and unused.
    pub remote: Option<String>,
    /// A remote engine's most connections at once (`slots=`).
    pub slots: Option<usize>,
    /// A remote engine's lag compensation (`lag=`).
    pub lag: crate::play::lag::LagPolicy,
    /// The protocol it speaks (`proto=`).
    pub proto: Protocol,
    /// The keys its command line gave (`--each` and its own tokens, not its
    /// `conf=` entry's), spelled as in [`KEYS`]: a command refuses those it
    /// cannot honour ([`refuse_keys`]).
    pub keys: std::collections::BTreeSet<&'static str>,
}

/// The protocol an engine speaks: UMI, or, for a remote Kalah bot, KGP
/// (`proto=kgp`, [`crate::remote::kgp`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    #[default]
    Umi,
    Kgp,
}

/// The games a KGP bot plays: KGP is a protocol for Kalah (any number of
/// pits; the project's Kalah ids have six).
pub const KGP_GAMES: [GameId; 2] = [GameId::Kalah, GameId::Kalah6x6];

/// Refuses a KGP engine in a game KGP cannot describe.
pub fn check_kgp_game(engine: &str, game: GameId) -> Result<(), String> {
    if KGP_GAMES.contains(&game) {
        return Ok(());
    }
    let ids: Vec<&str> = KGP_GAMES.iter().map(|g| g.as_str()).collect();
    Err(format!(
        "engine {engine}: proto=kgp plays {} only (the Kalah Game Protocol has no board for {game})",
        ids.join(" and ")
    ))
}

/// cutechess's `restart=`: when an engine gets a fresh process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Restart {
    /// One process plays game after game; it is replaced only after a fault
    /// (crash, timeout, illegal move). cutechess's `auto` means the same here.
    #[default]
    Off,
    /// A fresh process for every game.
    On,
}

impl std::str::FromStr for Restart {
    type Err = String;
    fn from_str(s: &str) -> Result<Restart, String> {
        match s {
            "on" => Ok(Restart::On),
            "off" | "auto" => Ok(Restart::Off),
            _ => Err(format!("restart={s}: expected on or off")),
        }
    }
}

/// A yes/no value as cutechess and fastchess spell it.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

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

/// The settings of one level of precedence (`--each`, file entry, tokens).
#[derive(Clone, Debug, Default)]
struct Layer {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    dir: Option<String>,
    options: Vec<(String, String)>,
    limit: Option<TimeLimit>,
    depth: Option<u32>,
    nodes: Option<u64>,
    margin: Option<std::time::Duration>,
    stderr: Option<String>,
    stderr_max: Option<u64>,
    conf: Option<String>,
    ponder: Option<bool>,
    restart: Option<Restart>,
    remote: Option<String>,
    slots: Option<usize>,
    lag: Option<crate::play::lag::LagPolicy>,
    proto: Option<Protocol>,
    /// The keys set at this level ([`known_key`]'s spelling).
    keys: std::collections::BTreeSet<&'static str>,
}

impl Layer {
    fn set(&mut self, origin: &str, key: &str, value: &str) -> Result<(), ConfigError> {
        if let Some(known) = known_key(key) {
            self.keys.insert(known);
        }
        let nonempty = |v: &str| {
            if v.is_empty() {
                Err(ConfigError::EmptyValue {
                    origin: origin.to_owned(),
                    key: key.to_owned(),
                })
            } else {
                Ok(v.to_owned())
            }
        };
        let bad = |message: String| ConfigError::Refused {
            origin: origin.to_owned(),
            key: key.to_owned(),
            message,
        };
        match key {
            // why: cutechess needs `proto=uci|xboard`; command lines copied from
            // it carry the key. UMI is what engines speak here; KGP only
            // remote Kalah bots (checked once the engine is whole).
            "proto" if value == "umi" => self.proto = Some(Protocol::Umi),
            "proto" if value == "kgp" => self.proto = Some(Protocol::Kgp),
            "proto" => {
                return Err(bad(format!(
                    "this arbiter speaks UMI (proto=umi), and KGP with remote Kalah bots (proto=kgp), not {value:?}"
                )))
            }
            "ponder" => {
                self.ponder = Some(
                    parse_bool(value)
                        .ok_or_else(|| bad(format!("expected true or false, got {value:?}")))?,
                )
            }
            "restart" => self.restart = Some(value.parse().map_err(bad)?),
            "remote" => {
                let id = nonempty(value)?;
                if !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
                {
                    return Err(bad(format!(
                        "{id:?}: an id of letters, digits, '-', '_' and '.'"
                    )));
                }
                self.remote = Some(id);
            }
            "slots" => {
                self.slots = Some(
                    value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (1..=1024).contains(n))
                        .ok_or_else(|| bad(format!("{value:?}: expected 1 to 1024")))?,
                )
            }
            "lag" => self.lag = Some(value.parse().map_err(bad)?),
            "name" => self.name = Some(nonempty(value)?),
            "cmd" => self.cmd = Some(nonempty(value)?),
            "dir" => self.dir = Some(nonempty(value)?),
            "stderr" => self.stderr = Some(nonempty(value)?),
            "stderr_max" => {
                self.stderr_max = Some(parse_bytes(value).ok_or_else(|| ConfigError::BadValue {
                    origin: origin.to_owned(),
                    key: key.to_owned(),
                    value: value.to_owned(),
                    expected: "bytes such as 1048576, 512K, 16M or 1G (0: no cap)",
                })?)
            }
            "conf" => self.conf = Some(nonempty(value)?),
            // An empty argument is a legitimate argument.
            "arg" => self.args.push(value.to_owned()),
            _ if key.starts_with("option.") => {
                let name = &key["option.".len()..];
                if name.is_empty() {
                    return Err(ConfigError::UnknownKey {
                        origin: origin.to_owned(),
                        key: key.to_owned(),
                    });
                }
                match self.options.iter_mut().find(|(n, _)| n == name) {
                    Some(slot) => slot.1 = value.to_owned(),
                    None => self.options.push((name.to_owned(), value.to_owned())),
                }
            }
            _ if TimeControl::is_key(key) => {
                let tc_err = |error| ConfigError::TimeControl {
                    origin: origin.to_owned(),
                    error,
                };
                // Parse through a scratch control to reuse its checks.
                let mut scratch = TimeControl::default();
                scratch.set(key, value).map_err(tc_err)?;
                match key {
                    "tc" | "st" => {
                        let other_kind = matches!(
                            (self.limit, key),
                            (Some(TimeLimit::MoveTime(_)), "tc")
                                | (Some(TimeLimit::Infinite | TimeLimit::Clock { .. }), "st")
                        );
                        if other_kind {
                            return Err(tc_err(TcError::Conflict));
                        }
                        self.limit = Some(scratch.limit);
                    }
                    "depth" => self.depth = scratch.depth,
                    "nodes" => self.nodes = scratch.nodes,
                    _ => self.margin = Some(scratch.margin),
                }
            }
            _ => {
                return Err(ConfigError::UnknownKey {
                    origin: origin.to_owned(),
                    key: key.to_owned(),
                })
            }
        }
        Ok(())
    }

    fn from_tokens(origin: &str, tokens: &[String]) -> Result<Layer, ConfigError> {
        let mut layer = Layer::default();
        for token in tokens {
            // why: cutechess spells pondering as a bare `ponder` token.
            if token == "ponder" {
                layer.ponder = Some(true);
                layer.keys.insert("ponder");
                continue;
            }
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| ConfigError::NotKeyValue {
                    origin: origin.to_owned(),
                    token: token.clone(),
                })?;
            layer.set(origin, key, value)?;
        }
        Ok(layer)
    }

    /// `self` with `over` laid on top (everything but `args`).
    fn overlay(mut self, over: &Layer) -> Layer {
        fn pick<T: Clone>(low: &mut Option<T>, high: &Option<T>) {
            if high.is_some() {
                low.clone_from(high);
            }
        }
        pick(&mut self.name, &over.name);
        pick(&mut self.cmd, &over.cmd);
        pick(&mut self.dir, &over.dir);
        pick(&mut self.limit, &over.limit);
        pick(&mut self.depth, &over.depth);
        pick(&mut self.nodes, &over.nodes);
        pick(&mut self.margin, &over.margin);
        pick(&mut self.stderr, &over.stderr);
        pick(&mut self.ponder, &over.ponder);
        pick(&mut self.restart, &over.restart);
        pick(&mut self.stderr_max, &over.stderr_max);
        pick(&mut self.remote, &over.remote);
        pick(&mut self.slots, &over.slots);
        pick(&mut self.lag, &over.lag);
        pick(&mut self.proto, &over.proto);
        self.keys.extend(over.keys.iter().copied());
        for (name, value) in &over.options {
            match self.options.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1.clone_from(value),
                None => self.options.push((name.clone(), value.clone())),
            }
        }
        self
    }
}

/// `16M`, `512K`, `1G` or plain bytes; `None` if unreadable or too large.
fn parse_bytes(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().last()? {
        (i, 'K' | 'k') => (&text[..i], 1u64 << 10),
        (i, 'M' | 'm') => (&text[..i], 1 << 20),
        (i, 'G' | 'g') => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(unit)
}

/// One entry of an engines file. cutechess's `engines.json` loads as it is:
/// its spellings (`command`, `workingDirectory`, `stderrFile`, options as a
/// list of `{"name", "value", …}`) are aliases, `protocol` must be `umi` (or
/// `kgp` for a remote Kalah bot), and
/// fields that mean nothing here (`variants`, `validateClaims`) are ignored.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    name: String,
    #[serde(default, alias = "command")]
    cmd: Option<String>,
    /// A remote engine's id, instead of `cmd`.
    #[serde(default)]
    remote: Option<String>,
    #[serde(default)]
    slots: Option<usize>,
    #[serde(default)]
    lag: Option<serde_json::Value>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default, alias = "workingDirectory")]
    dir: Option<String>,
    #[serde(default)]
    options: FileOptions,
    #[serde(default)]
    tc: Option<serde_json::Value>,
    #[serde(default)]
    st: Option<serde_json::Value>,
    #[serde(default)]
    depth: Option<serde_json::Value>,
    #[serde(default)]
    nodes: Option<serde_json::Value>,
    #[serde(default)]
    timemargin: Option<serde_json::Value>,
    #[serde(default, alias = "stderrFile")]
    stderr: Option<String>,
    #[serde(default, alias = "proto")]
    protocol: Option<String>,
    #[serde(default)]
    ponder: Option<bool>,
    #[serde(default)]
    restart: Option<String>,
    /// cutechess: lines sent at start-up; only an empty list is accepted.
    #[serde(default, rename = "initStrings")]
    init_strings: Vec<String>,
    /// cutechess: scores from White's point of view; UMI scores are always
    /// the mover's, so only `false` is accepted.
    #[serde(default)]
    whitepov: bool,
    // why allow: read by serde only, so that cutechess files load; they
    // concern chess and have no meaning here.
    #[allow(dead_code)]
    #[serde(default)]
    variants: Option<serde_json::Value>,
    #[allow(dead_code)]
    #[serde(default, rename = "validateClaims")]
    validate_claims: Option<serde_json::Value>,
    /// cutechess writes it into every entry (default 1); the arbiter's own
    /// `--startup-timeout` and `--ready-timeout` apply instead.
    #[allow(dead_code)]
    #[serde(default, rename = "timeoutScaleFactor")]
    timeout_scale_factor: Option<serde_json::Value>,
}

/// Options of an entry: ours (`{"Hash": 64}`) or cutechess's list.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum FileOptions {
    Map(BTreeMap<String, serde_json::Value>),
    List(Vec<CutechessOption>),
}

impl Default for FileOptions {
    fn default() -> FileOptions {
        FileOptions::Map(BTreeMap::new())
    }
}

/// One option as cutechess writes it; only `name` and `value` matter (an
/// option without a value keeps the engine's default).
#[derive(Clone, Debug, Deserialize)]
struct CutechessOption {
    name: String,
    #[serde(default)]
    value: Option<serde_json::Value>,
}

impl FileOptions {
    /// `(name, value)` pairs, in name order for a map, in list order for a list.
    fn pairs(&self) -> Vec<(&str, &serde_json::Value)> {
        match self {
            FileOptions::Map(m) => m.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            FileOptions::List(l) => l
                .iter()
                .filter_map(|o| o.value.as_ref().map(|v| (o.name.as_str(), v)))
                .collect(),
        }
    }
}

/// A scalar JSON value as the text a `key=value` token would carry.
fn scalar_text(origin: &str, key: &str, v: &serde_json::Value) -> Result<String, ConfigError> {
    match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ConfigError::File {
            path: origin.to_owned(),
            message: format!("{key}: expected a string, number or boolean, got {v}"),
        }),
    }
}

impl FileEntry {
    fn layer(&self, path: &str) -> Result<Layer, ConfigError> {
        let origin = format!("engines file {path}, entry {:?}", self.name);
        let mut layer = Layer::default();
        layer.set(&origin, "name", &self.name)?;
        match (&self.cmd, &self.remote) {
            (Some(cmd), None) => layer.set(&origin, "cmd", cmd)?,
            (None, Some(remote)) => layer.set(&origin, "remote", remote)?,
            (Some(_), Some(_)) => return Err(ConfigError::CmdAndRemote { origin }),
            (None, None) => return Err(ConfigError::MissingCmd { origin }),
        }
        if let Some(slots) = self.slots {
            layer.set(&origin, "slots", &slots.to_string())?;
        }
        if let Some(lag) = &self.lag {
            let text = scalar_text(path, "lag", lag)?;
            layer.set(&origin, "lag", &text)?;
        }
        layer.args.clone_from(&self.args);
        if !self.args.is_empty() {
            layer.keys.insert("arg");
        }
        // why skip empty ones: cutechess writes `"workingDirectory": ""` and
        // `"stderrFile": ""` for an engine without them.
        if let Some(dir) = self.dir.as_deref().filter(|d| !d.is_empty()) {
            layer.set(&origin, "dir", dir)?;
        }
        if let Some(stderr) = self.stderr.as_deref().filter(|f| !f.is_empty()) {
            layer.set(&origin, "stderr", stderr)?;
        }
        for (name, value) in self.options.pairs() {
            let text = scalar_text(path, &format!("options.{name}"), value)?;
            layer.set(&origin, &format!("option.{name}"), &text)?;
        }
        if let Some(protocol) = &self.protocol {
            layer.set(&origin, "proto", protocol)?;
        }
        if let Some(ponder) = self.ponder {
            layer.ponder = Some(ponder);
            layer.keys.insert("ponder");
        }
        if let Some(restart) = &self.restart {
            layer.set(&origin, "restart", restart)?;
        }
        let refuse = |key: &str, message: &str| ConfigError::Refused {
            origin: origin.clone(),
            key: key.to_owned(),
            message: message.to_owned(),
        };
        if !self.init_strings.is_empty() {
            return Err(refuse(
                "initStrings",
                "not supported: set engine options with \"options\" instead",
            ));
        }
        if self.whitepov {
            return Err(refuse(
                "whitepov",
                "UMI scores are always from the mover's point of view; remove it or set it to false",
            ));
        }
        for (key, value) in [
            ("tc", &self.tc),
            ("st", &self.st),
            ("depth", &self.depth),
            ("nodes", &self.nodes),
            ("timemargin", &self.timemargin),
        ] {
            if let Some(v) = value {
                let text = scalar_text(path, key, v)?;
                layer.set(&origin, key, &text)?;
            }
        }
        Ok(layer)
    }
}

/// A parsed engines file: entries by name.
#[derive(Clone, Debug, Default)]
pub struct EnginesFile {
    path: String,
    entries: Vec<FileEntry>,
}

impl EnginesFile {
    /// Reads and parses an engines file.
    pub fn load(path: &Path) -> Result<EnginesFile, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        EnginesFile::parse(&text, &path.display().to_string())
    }

    /// Parses engines-file text; `path` is used in messages only.
    pub fn parse(text: &str, path: &str) -> Result<EnginesFile, ConfigError> {
        let entries: Vec<FileEntry> =
            serde_json::from_str(text).map_err(|e| ConfigError::File {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        for (i, e) in entries.iter().enumerate() {
            if entries[..i].iter().any(|p| p.name == e.name) {
                return Err(ConfigError::DuplicateName {
                    name: e.name.clone(),
                    file: Some(path.to_owned()),
                });
            }
        }
        let file = EnginesFile {
            path: path.to_owned(),
            entries,
        };
        // Check every entry now, so a bad entry is reported even if unused.
        for e in &file.entries {
            e.layer(path)?;
        }
        Ok(file)
    }

    /// The names of the entries, in file order.
    pub fn names(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.name.clone()).collect()
    }

    fn layer(&self, name: &str) -> Result<Layer, ConfigError> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ConfigError::ConfNotFound {
                name: name.to_owned(),
                known: self.names(),
            })?
            .layer(&self.path)
    }
}

/// Builds one engine from its `--engine` tokens, the `--each` tokens and the
/// engines file. `index` (0-based) names the engine in messages. Does not
/// look at the file system (see [`EngineSpec::check_binary`]).
pub fn parse_engine(
    index: usize,
    tokens: &[String],
    each: &[String],
    file: Option<&EnginesFile>,
) -> Result<EngineSpec, ConfigError> {
    let origin = format!("--engine #{}", index + 1);
    let own = Layer::from_tokens(&origin, tokens)?;
    let each = Layer::from_tokens("--each", each)?;
    if each.conf.is_some() {
        return Err(ConfigError::ConfInEach);
    }
    let entry = match (&own.conf, file) {
        (None, _) => Layer::default(),
        (Some(name), Some(file)) => file.layer(name)?,
        (Some(name), None) => return Err(ConfigError::NoEnginesFile { name: name.clone() }),
    };
    let args: Vec<String> = entry
        .args
        .iter()
        .chain(&own.args)
        .chain(&each.args)
        .cloned()
        .collect();
    // why not the entry's keys: an engines file describes an engine for
    // every command (its tc= for matches); a command refuses what its own
    // command line asks for and cannot do.
    let keys = each.keys.union(&own.keys).copied().collect();
    let merged = each.overlay(&entry).overlay(&own);
    // why only the engine's own and its entry's: `--each remote=` would make
    // every engine the same remote one.
    let remote = own.remote.clone().or(entry.remote.clone());
    let cmd = match (&merged.cmd, &remote) {
        (Some(_), Some(_)) if own.cmd.is_some() || entry.cmd.is_some() => {
            return Err(ConfigError::CmdAndRemote { origin })
        }
        (_, Some(_)) => PathBuf::new(),
        (Some(cmd), None) => PathBuf::from(cmd),
        (None, None) => {
            // why here only: a comma inside a value is allowed (an `arg=`),
            // but one that hid the cmd= is the mistake to name.
            let comma = tokens
                .iter()
                .find(|t| t.contains(",cmd=") || t.contains(",remote="));
            return Err(match comma {
                Some(token) => ConfigError::CommaSeparated {
                    origin,
                    token: token.clone(),
                },
                None => ConfigError::MissingCmd { origin },
            });
        }
    };
    let proto = merged.proto.unwrap_or_default();
    if proto == Protocol::Kgp && remote.is_none() {
        return Err(ConfigError::Refused {
            origin,
            key: "proto".into(),
            message: "proto=kgp is for remote bots (remote=<id>): a KGP bot is the client and connects to the arbiter".into(),
        });
    }
    let name = match (merged.name, &remote) {
        (Some(n), _) => n,
        (None, Some(id)) => id.clone(),
        (None, None) => cmd.file_name().map_or_else(
            || cmd.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        ),
    };
    Ok(EngineSpec {
        name,
        cmd,
        args,
        dir: merged.dir.map(PathBuf::from),
        options: merged.options,
        tc: TimeControl {
            limit: merged.limit.unwrap_or(TimeLimit::Infinite),
            depth: merged.depth,
            nodes: merged.nodes,
            margin: merged.margin.unwrap_or(DEFAULT_TIME_MARGIN),
        },
        stderr: merged.stderr.map(PathBuf::from),
        ponder: merged.ponder.unwrap_or(false),
        restart: merged.restart.unwrap_or_default(),
        stderr_max: merged.stderr_max,
        remote,
        slots: merged.slots,
        lag: merged.lag.unwrap_or_default(),
        proto,
        keys,
    })
}

/// Builds every engine (see [`parse_engine`]) and checks that the names are
/// distinct. Does not look at the file system.
pub fn parse_engines(
    engines: &[Vec<String>],
    each: &[String],
    file: Option<&EnginesFile>,
) -> Result<Vec<EngineSpec>, ConfigError> {
    let specs = engines
        .iter()
        .enumerate()
        .map(|(i, tokens)| parse_engine(i, tokens, each, file))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].iter().any(|p| p.name == s.name) {
            return Err(ConfigError::DuplicateName {
                name: s.name.clone(),
                file: None,
            });
        }
    }
    Ok(specs)
}

/// [`parse_engines`], then [`EngineSpec::check_binary`] on each engine.
pub fn resolve_engines(
    engines: &[Vec<String>],
    each: &[String],
    file: Option<&EnginesFile>,
) -> Result<Vec<EngineSpec>, ConfigError> {
    let specs = parse_engines(engines, each, file)?;
    for s in specs.iter().filter(|s| s.remote.is_none()) {
        s.check_binary()?;
    }
    Ok(specs)
}

/// [`EngineSpec::program`] with the places to look given: `here` (the
/// current directory), `beside` (the arbiter's directory), `path` (`PATH`).
fn resolve_program(
    cmd: &Path,
    dir: Option<&Path>,
    here: Option<PathBuf>,
    beside: Option<PathBuf>,
    path: Vec<PathBuf>,
) -> PathBuf {
    let has_separator = cmd.components().count() > 1;
    if cmd.is_absolute() {
        return cmd.to_path_buf();
    }
    if let Some(dir) = dir {
        let joined = dir.join(cmd);
        if has_separator || joined.exists() {
            return joined;
        }
    }
    if has_separator {
        return cmd.to_path_buf();
    }
    // why this order: the current directory first, as a shell user means
    // `cmd=greedy.py` run beside greedy.py (issue 12); then the arbiter's own
    // directory, so the documented `cmd=engine` is the reference engine
    // built with it, whatever else `PATH` holds; `PATH` last.
    here.into_iter()
        .chain(beside)
        .chain(path)
        .map(|d| d.join(cmd))
        .find(|p| p.is_file())
        .unwrap_or_else(|| cmd.to_path_buf())
}

impl EngineSpec {
    /// The path of the program to start: a relative `cmd` with a `/` is
    /// taken relative to `dir` (if given); a bare name is looked up in `dir`,
    /// then in the current directory, then beside the arbiter's own
    /// executable (where the build puts the reference engine, so `cmd=engine`
    /// names it even when some other `engine` is on `PATH`), then on `PATH`;
    /// otherwise `cmd` as given.
    pub fn program(&self) -> PathBuf {
        let here = std::env::current_dir().ok();
        let beside_arbiter = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(Path::to_path_buf));
        let path = std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
            .unwrap_or_default();
        resolve_program(&self.cmd, self.dir.as_deref(), here, beside_arbiter, path)
    }

    /// How to start this engine's process: its program, arguments and
    /// directory, stderr to `stderr`, and lines up to the protocol's limit.
    pub fn launch_spec(&self, stderr: Option<PathBuf>) -> crate::contender::process::LaunchSpec {
        let mut launch = crate::contender::process::LaunchSpec::new(self.program())
            .name(self.name.clone())
            .args(self.args.clone())
            // why: the protocol promises lines up to 1 MiB (spec section 1), so
            // the arbiter must accept that much; longer lines break it.
            .max_line_len(umi::MAX_LINE_BYTES);
        if let Some(dir) = &self.dir {
            launch = launch.working_dir(dir.clone());
        }
        if let Some(path) = stderr {
            launch = launch.stderr_log(path);
        }
        match self.stderr_max {
            Some(0) => launch.stderr_max(None),
            Some(max) => launch.stderr_max(Some(max)),
            None => launch,
        }
    }

    /// Checks that [`EngineSpec::program`] exists and is an executable file;
    /// returns its path.
    pub fn check_binary(&self) -> Result<PathBuf, ConfigError> {
        let path = self.program();
        let meta = std::fs::metadata(&path)
            .map_err(|_| ConfigError::BinaryNotFound { path: path.clone() })?;
        if !meta.is_file() {
            return Err(ConfigError::NotExecutable { path });
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if meta.permissions().mode() & 0o111 == 0 {
                return Err(ConfigError::NotExecutable { path });
            }
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn engine(s: &str) -> Result<EngineSpec, ConfigError> {
        parse_engine(0, &toks(s), &[], None)
    }

    #[test]
    fn a_bare_name_is_looked_up_here_then_beside_the_arbiter_then_on_path() {
        let root = std::env::temp_dir().join(format!("arbiter-lookup-{}", std::process::id()));
        let [here, beside, on_path] = ["here", "beside", "path"].map(|d| root.join(d));
        for d in [&here, &beside, &on_path] {
            std::fs::create_dir_all(d).unwrap();
        }
        let put = |d: &Path| std::fs::write(d.join("engine"), "#!/bin/sh\n").unwrap();
        let find = || {
            resolve_program(
                Path::new("engine"),
                None,
                Some(here.clone()),
                Some(beside.clone()),
                vec![on_path.clone()],
            )
        };
        put(&on_path);
        assert_eq!(find(), on_path.join("engine"));
        // The reference engine beside the arbiter beats another `engine` on PATH.
        put(&beside);
        assert_eq!(find(), beside.join("engine"));
        // A file in the current directory beats both.
        put(&here);
        assert_eq!(find(), here.join("engine"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_keys_given_are_recorded_at_every_level() {
        let file = EnginesFile::parse(FILE, "engines.json").unwrap();
        let e = parse_engine(
            0,
            &toks("conf=Beta option.Hash=1 ponder"),
            &toks("timemargin=20"),
            Some(&file),
        )
        .unwrap();
        let keys: Vec<&str> = e.keys.iter().copied().collect();
        // The entry's own (cmd, st, depth) are not the command line's.
        assert_eq!(keys, ["conf", "option.<name>", "ponder", "timemargin"]);
        let refused = refuse_keys(&e, "connect", CONNECT_REFUSES)
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with(
                "engine Beta: timemargin=: arbiter connect does not take it: the organiser"
            ),
            "{refused}"
        );
        let plain = engine("cmd=x name=A arg=-q option.Level=6 dir=/ stderr=e").unwrap();
        assert!(refuse_keys(&plain, "connect", CONNECT_REFUSES).is_ok());
    }

    #[test]
    fn the_unknown_key_message_lists_the_table() {
        let e = engine("cmd=x hash=1").unwrap_err().to_string();
        for k in KEYS {
            assert!(e.contains(k.key), "{e} lacks {}", k.key);
        }
    }

    #[test]
    fn parses_all_keys() {
        let e = engine(
            "cmd=./bot name=Alpha arg=--x arg=--y=1 option.Hash=64 option.Style=a=b dir=/e \
             tc=40/60+0.5 depth=9 nodes=1000 timemargin=50 stderr=alpha.err",
        )
        .unwrap();
        assert_eq!(e.name, "Alpha");
        assert_eq!(e.cmd, PathBuf::from("./bot"));
        assert_eq!(e.args, ["--x", "--y=1"]);
        assert_eq!(e.dir, Some(PathBuf::from("/e")));
        assert_eq!(
            e.options,
            [
                ("Hash".to_owned(), "64".to_owned()),
                ("Style".to_owned(), "a=b".to_owned())
            ]
        );
        assert_eq!(
            e.tc.to_string(),
            "40/60+0.5 depth=9 nodes=1000 timemargin=50"
        );
        assert_eq!(e.stderr, Some(PathBuf::from("alpha.err")));
        assert_eq!(e.program(), PathBuf::from("/e/./bot"));
    }

    #[test]
    fn default_name_is_the_file_name() {
        let e = engine("cmd=/opt/engines/beta st=0.5").unwrap();
        assert_eq!(e.name, "beta");
        assert_eq!(e.tc.limit, TimeLimit::MoveTime(Duration::from_millis(500)));
    }

    #[test]
    fn errors() {
        let err = |s: &str| engine(s).unwrap_err().to_string();
        assert_eq!(err("name=A"), "--engine #1: no cmd= (or remote=) given");
        assert_eq!(
            err("name=A,cmd=./e"),
            "--engine #1: \"name=A,cmd=./e\" is one setting, not several: separate the \
             settings with spaces, not commas (\"name=A cmd=./e\")"
        );
        assert!(err("cmd=x hash=1").contains("unknown key \"hash\""));
        assert!(err("cmd=x option.=1").contains("unknown key \"option.\""));
        assert!(err("cmd=x depth=ten").contains("bad depth value \"ten\""));
        assert!(err("cmd=x nodes=-5").contains("bad nodes value"));
        assert!(err("cmd=x tc=40/0").contains("time must be positive"));
        assert!(err("cmd=x tc=60 st=1").contains("tc and st cannot be used together"));
        assert!(err("cmd=x verbose").contains("expected key=value, got \"verbose\""));
        assert!(err("cmd=").contains("empty value for cmd"));
        assert!(err("cmd=x conf=A").contains("no engines file given"));
        let each_conf = parse_engine(0, &toks("cmd=x"), &toks("conf=A"), None);
        assert_eq!(each_conf.unwrap_err(), ConfigError::ConfInEach);
    }

    #[test]
    fn each_applies_to_every_engine_and_own_keys_win() {
        let each = toks("tc=10+0.1 option.Hash=16 option.Threads=1 arg=--quiet timemargin=20");
        let specs = parse_engines(
            &[
                toks("cmd=a name=A option.Hash=64 st=1 arg=--fast"),
                toks("cmd=b name=B"),
            ],
            &each,
            None,
        )
        .unwrap();
        let (a, b) = (&specs[0], &specs[1]);
        assert_eq!(a.tc.to_string(), "st=1 timemargin=20");
        assert_eq!(b.tc.to_string(), "10+0.1 timemargin=20");
        assert_eq!(
            a.options,
            [
                ("Hash".to_owned(), "64".to_owned()),
                ("Threads".to_owned(), "1".to_owned())
            ]
        );
        assert_eq!(b.options[0], ("Hash".to_owned(), "16".to_owned()));
        assert_eq!(a.args, ["--fast", "--quiet"]);
        assert_eq!(b.args, ["--quiet"]);
    }

    #[test]
    fn duplicate_names_are_rejected() {
        let r = parse_engines(&[toks("cmd=a name=X"), toks("cmd=b name=X")], &[], None);
        assert_eq!(
            r.unwrap_err(),
            ConfigError::DuplicateName {
                name: "X".into(),
                file: None
            }
        );
        // Two engines named after the same command: the message says how to
        // tell them apart.
        let r = parse_engines(&[toks("cmd=engine"), toks("cmd=engine")], &[], None);
        let message = r.unwrap_err().to_string();
        assert!(
            message.contains("two engines are named \"engine\""),
            "{message}"
        );
        assert!(message.contains("name="), "{message}");
    }

    const FILE: &str = r#"[
        {"name": "Alpha", "cmd": "./alpha", "args": ["--x"], "dir": "/engines",
         "options": {"Hash": 64, "Ponder": false, "Style": "wild"}, "tc": "40/60+0.5"},
        {"name": "Beta", "command": "beta", "st": 0.5, "depth": 7}
    ]"#;

    #[test]
    fn engines_file_entries_by_conf() {
        let file = EnginesFile::parse(FILE, "engines.json").unwrap();
        assert_eq!(file.names(), ["Alpha", "Beta"]);
        let a = parse_engine(
            0,
            &toks("conf=Alpha option.Hash=128 arg=--y"),
            &toks("option.Threads=2 tc=1+1"),
            Some(&file),
        )
        .unwrap();
        assert_eq!(a.name, "Alpha");
        assert_eq!(a.cmd, PathBuf::from("./alpha"));
        assert_eq!(a.args, ["--x", "--y"]);
        assert_eq!(a.dir, Some(PathBuf::from("/engines")));
        // File entry beats --each; own tokens beat the file.
        assert_eq!(a.tc.to_string(), "40/60+0.5 timemargin=50");
        let opts: Vec<_> = a.options.iter().map(|(n, v)| format!("{n}={v}")).collect();
        assert_eq!(
            opts,
            ["Threads=2", "Hash=128", "Ponder=false", "Style=wild"]
        );

        let b = parse_engine(1, &toks("conf=Beta name=B2"), &[], Some(&file)).unwrap();
        assert_eq!(b.name, "B2");
        assert_eq!(b.tc.to_string(), "st=0.5 depth=7 timemargin=50");

        let missing = parse_engine(2, &toks("conf=Gamma"), &[], Some(&file));
        assert_eq!(
            missing.unwrap_err().to_string(),
            "conf=Gamma: no such engine in the engines file (known: Alpha, Beta)"
        );
    }

    #[test]
    fn bad_engines_files() {
        let err = |s: &str| EnginesFile::parse(s, "e.json").unwrap_err().to_string();
        assert!(err("{").starts_with("engines file e.json: "));
        assert!(err(r#"[{"name": "A"}]"#).contains("no cmd= (or remote=) given"));
        assert!(err(r#"[{"name": "A", "cmd": "a", "hash": 1}]"#).contains("unknown field `hash`"));
        assert!(err(r#"[{"name": "A", "cmd": "a", "tc": "fast"}]"#).contains("bad tc value"));
        assert!(err(r#"[{"name": "A", "cmd": "a", "options": {"H": [1]}}]"#)
            .contains("expected a string, number or boolean"));
        assert!(
            err(r#"[{"name": "A", "cmd": "a"}, {"name": "A", "cmd": "b"}]"#)
                .contains("two entries are named \"A\"")
        );
    }

    #[test]
    fn binary_checks() {
        let dir = std::env::temp_dir().join(format!("arbiter-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("bot");
        let plain = dir.join("data");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::write(&plain, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
            std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let d = dir.display();
        let ok = engine(&format!("cmd=./bot dir={d}")).unwrap();
        assert_eq!(ok.check_binary().unwrap(), dir.join("./bot"));
        let bare = engine(&format!("cmd=bot dir={d}")).unwrap();
        assert_eq!(bare.check_binary().unwrap(), dir.join("bot"));

        let missing = engine(&format!("cmd=./nothing dir={d}")).unwrap();
        assert_eq!(
            missing.check_binary().unwrap_err().to_string(),
            format!("engine binary not found: {d}/./nothing")
        );
        #[cfg(unix)]
        {
            let r = resolve_engines(&[toks(&format!("cmd={}", plain.display()))], &[], None);
            assert_eq!(
                r.unwrap_err(),
                ConfigError::NotExecutable {
                    path: plain.clone()
                }
            );
        }
        let r = resolve_engines(&[toks(&format!("cmd={d}"))], &[], None);
        assert!(matches!(r, Err(ConfigError::NotExecutable { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn bare_names_are_found_on_path() {
        // `sh` is on PATH on any Unix machine that runs these tests.
        let sh = engine("cmd=sh").unwrap();
        let path = sh.check_binary().unwrap();
        assert!(path.is_absolute() && path.ends_with("sh"), "{path:?}");
    }

    #[test]
    fn cutechess_keys_proto_ponder_restart() {
        let e = engine("cmd=x proto=umi ponder restart=on").unwrap();
        assert!(e.ponder);
        assert_eq!(e.restart, Restart::On);
        let e = engine("cmd=x ponder=false restart=auto").unwrap();
        assert!(!e.ponder);
        assert_eq!(e.restart, Restart::Off);
        let d = engine("cmd=x").unwrap();
        assert_eq!((d.ponder, d.restart), (false, Restart::Off));
        let err = |s: &str| engine(s).unwrap_err().to_string();
        assert_eq!(
            err("cmd=x proto=uci"),
            "--engine #1: proto: this arbiter speaks UMI (proto=umi), and KGP with remote Kalah bots (proto=kgp), not \"uci\""
        );
        assert!(err("cmd=x restart=sometimes").contains("restart=sometimes: expected on or off"));
        assert!(err("cmd=x ponder=maybe").contains("ponder: expected true or false"));
        // --each carries them too; the engine's own token wins.
        let specs = parse_engines(
            &[toks("cmd=a name=A"), toks("cmd=b name=B restart=off")],
            &toks("ponder restart=on"),
            None,
        )
        .unwrap();
        assert!(specs[0].ponder && specs[1].ponder);
        assert_eq!(
            (specs[0].restart, specs[1].restart),
            (Restart::On, Restart::Off)
        );
    }

    /// An engines file as cutechess's GUI writes it.
    const CUTECHESS_FILE: &str = r#"[
        {"name": "Bot", "command": "./bot", "workingDirectory": "/engines",
         "protocol": "umi", "stderrFile": "bot.err", "initStrings": [],
         "whitepov": false, "ponder": true, "validateClaims": true, "restart": "on",
         "variants": ["standard"],
         "options": [{"name": "Hash", "type": "spin", "default": 16, "value": 64},
                     {"name": "Style", "type": "combo", "default": "solid"}]}
    ]"#;

    /// cutechess's EngineConfiguration::toVariant for a plain engine.
    const CUTECHESS_PLAIN: &str = r#"[
        {
            "command": "engine",
            "name": "Plain",
            "options": [
                {"alias": "", "default": 10, "max": 20, "min": 1, "name": "Level",
                 "type": "spin", "value": 3},
                {"alias": "", "name": "Clear Hash", "type": "button"}
            ],
            "protocol": "umi",
            "stderrFile": "",
            "timeoutScaleFactor": 1,
            "workingDirectory": ""
        }
    ]"#;

    #[test]
    fn remote_engines() {
        let e = engine("remote=alice tc=10+0.1").unwrap();
        assert_eq!(
            (e.remote.as_deref(), e.name.as_str()),
            (Some("alice"), "alice")
        );
        assert_eq!(e.lag, crate::play::lag::LagPolicy::Quota);
        let e = engine("remote=bob name=Bob slots=3 lag=150").unwrap();
        assert_eq!(e.slots, Some(3));
        assert_eq!(
            e.lag,
            crate::play::lag::LagPolicy::Fixed(Duration::from_millis(150))
        );
        let err = |s: &str| engine(s).unwrap_err().to_string();
        assert!(err("remote=a cmd=x").contains("cmd= and remote= together"));
        assert!(err("remote=a/b").contains("an id of letters"));
        assert!(err("remote=a slots=0").contains("expected 1 to 1024"));
        assert!(err("remote=a lag=fast").contains("expected auto, 0"));
        let e = engine("remote=kbot proto=kgp").unwrap();
        assert_eq!(e.proto, Protocol::Kgp);
        assert_eq!(engine("remote=kbot").unwrap().proto, Protocol::Umi);
        assert!(err("cmd=x proto=kgp").contains("proto=kgp is for remote bots"));
        // No binary to check for a remote engine.
        assert!(resolve_engines(&[toks("remote=a name=A")], &[], None).is_ok());
        let file = EnginesFile::parse(
            r#"[{"name": "Alice", "remote": "alice", "slots": 2, "lag": 0}]"#,
            "e.json",
        )
        .unwrap();
        let e = parse_engine(0, &toks("conf=Alice st=1"), &[], Some(&file)).unwrap();
        assert_eq!(e.remote.as_deref(), Some("alice"));
        assert_eq!(e.lag, crate::play::lag::LagPolicy::Off);
        let bad = EnginesFile::parse(r#"[{"name": "A", "remote": "a", "cmd": "x"}]"#, "e.json");
        assert!(bad.unwrap_err().to_string().contains("together"));
    }

    #[test]
    fn cutechess_engines_json_loads() {
        let file = EnginesFile::parse(CUTECHESS_FILE, "engines.json").unwrap();
        let e = parse_engine(0, &toks("conf=Bot st=1"), &[], Some(&file)).unwrap();
        assert_eq!(e.cmd, PathBuf::from("./bot"));
        assert_eq!(e.dir, Some(PathBuf::from("/engines")));
        assert_eq!(e.stderr, Some(PathBuf::from("bot.err")));
        // An option without a value keeps the engine's default: not sent.
        assert_eq!(e.options, [("Hash".to_owned(), "64".to_owned())]);
        assert!(e.ponder);
        assert_eq!(e.restart, Restart::On);

        // What cutechess 1.3 writes for an engine without a directory or
        // stderr file: empty strings, and always a timeout scale factor.
        let plain = EnginesFile::parse(CUTECHESS_PLAIN, "engines.json").unwrap();
        let e = parse_engine(0, &toks("conf=Plain"), &[], Some(&plain)).unwrap();
        assert_eq!((e.dir, e.stderr), (None, None));
        assert_eq!(e.options, [("Level".to_owned(), "3".to_owned())]);

        let err = |s: &str| EnginesFile::parse(s, "e.json").unwrap_err().to_string();
        assert!(err(r#"[{"name": "A", "command": "a", "protocol": "uci"}]"#)
            .contains("speaks UMI (proto=umi)"));
        assert!(
            err(r#"[{"name": "A", "command": "a", "protocol": "xboard"}]"#)
                .contains("not \"xboard\"")
        );
        assert!(
            err(r#"[{"name": "A", "command": "a", "initStrings": ["x"]}]"#)
                .contains("initStrings: not supported")
        );
        assert!(err(r#"[{"name": "A", "command": "a", "whitepov": true}]"#)
            .contains("mover's point of view"));
    }
}
