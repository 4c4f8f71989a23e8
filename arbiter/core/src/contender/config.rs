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

use std::path::{Path, PathBuf};

use mancala_rules::GameId;

use crate::play::tc::{TimeControl, TimeLimit};

/// The `timemargin` of an engine that sets none: the protocol names 50 ms as
/// the reference arbiter's default (spec section 7).
pub const DEFAULT_TIME_MARGIN: std::time::Duration = std::time::Duration::from_millis(50);

mod error;
mod file;
mod keys;
mod layer;
mod refusals;
#[cfg(test)]
mod tests;

pub use error::ConfigError;
pub use file::EnginesFile;
pub use keys::{key_names, keys_help, known_key, Key, KEYS};
pub use refusals::{refuse_keys, CHECK_REFUSES, CONNECT_REFUSES, HOUSE_REFUSES, SERVE_REFUSES};

use layer::Layer;

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
pub fn check_kgp_game(engine: &str, game: GameId) -> Result<(), NotKgpGame> {
    if KGP_GAMES.contains(&game) {
        return Ok(());
    }
    Err(NotKgpGame {
        engine: engine.to_owned(),
        game,
    })
}

/// A KGP engine (`proto=kgp`) entered in a game the Kalah Game Protocol
/// cannot describe (one not in [`KGP_GAMES`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotKgpGame {
    /// The engine's name.
    pub engine: String,
    /// The game it was entered in.
    pub game: GameId,
}

impl std::fmt::Display for NotKgpGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let NotKgpGame { engine, game } = self;
        let ids: Vec<&str> = KGP_GAMES.iter().map(|g| g.as_str()).collect();
        write!(
            f,
            "engine {engine}: proto=kgp plays {} only (the Kalah Game Protocol has no board for {game})",
            ids.join(" and ")
        )
    }
}

impl std::error::Error for NotKgpGame {}

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
