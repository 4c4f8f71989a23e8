//! The command line (clap): `arbiter match`, `verify`, `check`, `tournament`, `serve`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use mancala_rules::GameId;

use arbiter_core::contender::config::{resolve_engines, EngineSpec, EnginesFile};
use arbiter_core::contender::process::{TrafficKind, TrafficLog, TrafficRecord};
use arbiter_core::play::game::Timeouts;
use arbiter_core::play::matches::{self, MatchPlan};
use arbiter_core::play::openings::{parse_openings, Openings};
use arbiter_core::play::runner::Runner;
use arbiter_core::records::output::LogSink;
use arbiter_core::shutdown::{Shutdown, ShutdownTrigger};
use tournament::{MergeArgs, TournamentArgs};

pub mod arena;
pub mod check;
pub mod limits;
pub mod remote;
pub mod serve;
pub mod tls;
pub mod tournament;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Runs UMI mancala engines against each other",
    after_help = EXIT_STATUS
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Play a match between two engines.
    // why override_usage: clap's error usage lists the options already given
    // as if they were required (`--each <KEY=VALUE>...`).
    #[command(
        override_usage = "arbiter match --engine KEY=VALUE... --engine KEY=VALUE... [OPTIONS]"
    )]
    Match(Box<MatchArgs>),
    /// Check one engine's protocol conformance (one PASS/FAIL line per check).
    // why override_usage: clap's error usage lists the options already given
    // as if they were required (`--each <KEY=VALUE>...`).
    #[command(override_usage = "arbiter check --engine KEY=VALUE... [OPTIONS]")]
    Check(Box<check::CheckArgs>),
    /// Replay a PGN or JSON-lines log with the rules and report the first problem.
    Verify {
        /// The log file.
        log: PathBuf,
        /// The endgame database directory that `tablebase_adjudication`
        /// results are checked against (`--adjudicate tb=DIR`).
        #[arg(long, value_name = "DIR")]
        tb: Option<PathBuf>,
    },
    /// Play a round robin or gauntlet; with no --engine, a built-in
    /// tournament of the reference engine at several levels.
    // why override_usage: clap's error usage lists the options already given
    // as if they were required (`--each <KEY=VALUE>...`).
    #[command(override_usage = "arbiter tournament [--engine KEY=VALUE...]... [OPTIONS]")]
    Tournament(Box<TournamentArgs>),
    /// Combine the results logs of one tournament (shards, reruns) into one
    /// standings table.
    Merge(MergeArgs),
    /// Draw a position for a human (South at the bottom, hole numbers shown),
    /// optionally after some moves: `arbiter show "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1" 3 7`.
    Show {
        /// A position string.
        position: String,
        /// Moves to play from it first.
        moves: Vec<String>,
    },
    /// The browser board: play, analyse and replay in a local web page
    /// (prints the address to open).
    Serve(Box<ServeArgs>),
    /// Run an engine here for an arbiter elsewhere: `arbiter connect
    /// ws://host:9000/umi --token T --engine cmd=./mybot [--slots N]`
    /// relays its lines and reconnects by itself.
    #[command(
        override_usage = "arbiter connect URL --token TOKEN --engine KEY=VALUE... [OPTIONS]"
    )]
    Connect(Box<remote::ConnectArgs>),
    /// The standing arena: a server where bots connect any time and are
    /// paired, rated and watched; and its admin commands.
    Arena(Box<arena::ArenaArgs>),
}

/// `arbiter serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default: the board is for this machine).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// Engines the page may choose from (the reference engine next to the
    /// arbiter is always offered as `reference`).
    #[command(flatten)]
    pub engines: EngineArgs,
    /// PGN or JSON-lines logs offered on the replay page (`--log a.pgn
    /// b.jsonl`, or `--log` once per file).
    #[arg(long = "log", num_args = 1.., value_name = "FILE", action = clap::ArgAction::Append)]
    pub logs: Vec<PathBuf>,
    /// A further `name:port` the page may be reached by (with a non-loopback --listen).
    #[arg(long, value_name = "HOST:PORT")]
    pub allow_host: Vec<String>,
    /// Seconds an engine has to answer `umiok`, and each `readyok`
    /// (`--handshake-timeout` is the same; above 0, at most 1000000).
    #[arg(
        long = "startup-timeout",
        alias = "handshake-timeout",
        default_value_t = 10.0,
        value_parser = seconds_arg
    )]
    pub handshake_timeout: f64,
    /// Directory for the engines' stderr logs (default: discarded).
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// Results logs (JSON lines) of an event run elsewhere, e.g. its shards,
    /// followed as they grow: `/live` shows their merged standings (as
    /// `arbiter merge` prints them) and finished games. A log may not
    /// exist yet.
    #[arg(long, num_args = 1.., value_name = "LOG")]
    pub watch: Vec<PathBuf>,
    /// Seconds between two looks at the --watch logs.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    pub watch_interval: f64,
    /// At the first SIGTERM/SIGINT/SIGHUP: the most seconds the pages'
    /// games in progress may go on (no new game or analysis starts, an
    /// analysis ends at once; 0: end the games at once too), then the
    /// server exits 0; a second signal stops at once. Default 600: the
    /// board keeps no clock the server could wait for (a human's game lasts
    /// as long as the human takes).
    #[arg(
        long,
        default_value_t = 600.0,
        value_name = "SECONDS",
        value_parser = arbiter_core::shutdown::drain_arg
    )]
    pub drain: f64,
    #[command(flatten)]
    pub limits: limits::LimitArgs,
    #[command(flatten)]
    pub engine_caps: limits::EngineCapArgs,
    /// A Bohnenspiel endgame database (`engine tb build`): the analysis page
    /// shows a database position's exact value and best moves.
    // why the heading: a flattened struct's heading holds for the fields
    // after it (clap's next_help_heading), so each such field names its own.
    #[arg(long, value_name = "DIR", help_heading = "Board")]
    pub tb: Option<PathBuf>,
    /// Where the remote engines among --engine (`remote=<id>`) connect; a
    /// page that chooses one waits up to --remote-wait for a connection.
    #[command(flatten)]
    pub remote: remote::RemoteArgs,
    /// TLS of the board and of --remote-listen.
    #[command(flatten)]
    pub tls: tls::TlsArgs,
}

/// Engines, as on cutechess-cli's command line.
#[derive(Args, Clone, Debug, Default)]
pub struct EngineArgs {
    /// One engine: `cmd=./bot name=Alpha option.Hash=64 …` (`--help` lists
    /// the keys this command takes). Repeat per engine.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub engine: Vec<String>,
    /// `--engine` grouped by occurrence (filled from the raw matches: clap's
    /// derive flattens repeated multi-value options).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Settings for every engine (an engine's own settings win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// A JSON file of engine definitions, picked with `--engine conf=<name>`
    /// [default: engines.json in the current directory, if there is one].
    #[arg(long, value_name = "FILE")]
    pub engines_file: Option<PathBuf>,
}

/// Where logs go and how the games are run.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// The game (one of the rules library's ids; the list is filled in by
    /// [`Cli::command_with_tables`]).
    #[arg(long, default_value = "bohnenspiel")]
    pub game: String,
    /// Games played at once, each with its own engine processes [default: 1;
    /// 2 for the built-in tournament]; 1 to 1024, and never more than the
    /// games to play.
    #[arg(long, value_parser = concurrency_arg)]
    pub concurrency: Option<usize>,
    /// `suite` (the balanced positions shipped for each game), `plies=N` (N
    /// random plies from the start, see --seed) or `file=PATH` (one position
    /// string or move line per line). Both games of a pair share it.
    #[arg(long, value_name = "suite|plies=N|file=PATH")]
    pub openings: Option<String>,
    /// Order of the openings of a file: `sequential` (file order, cycled) or
    /// `random` (shuffled once with --seed).
    #[arg(long, value_name = "ORDER", default_value = "sequential", value_parser = ["sequential", "random"])]
    pub openings_order: String,
    /// Skip this many openings of a file (1-based index of the first one used).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub openings_start: Option<u64>,
    /// Seed for random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Resign adjudication as in cutechess: `movecount=N score=S [twosided=true]`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Draw adjudication as in cutechess: `movenumber=M movecount=N score=S`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// `decided`: end a game as soon as its result can no longer change
    /// (see docs/arbiter.md for each game's criterion); `tb=DIR`: as soon as
    /// its position is in the Bohnenspiel endgame database in DIR (both may
    /// be given).
    #[arg(long, value_name = "WHAT", value_parser = adjudicate_arg)]
    pub adjudicate: Vec<Adjudicate>,
    /// Adjudicate a draw after this many plies (default 5000; 0: never). A
    /// backstop only: the rules end every game (Bosh's cycles of rounds by
    /// the round-start rule), long before the default in fixed-depth
    /// self-play.
    #[arg(long, value_name = "PLIES")]
    pub max_plies: Option<u32>,
    /// Append games to this PGN-like file.
    #[arg(long, value_name = "FILE", help_heading = "Logs")]
    pub pgnout: Option<PathBuf>,
    /// Append games to this JSON-lines file.
    #[arg(long, value_name = "FILE", help_heading = "Logs")]
    pub jsonout: Option<PathBuf>,
    /// Rewrite this file with the standings as JSON after every game
    /// (docs/tournaments.md lists the fields).
    #[arg(long, value_name = "FILE", help_heading = "Logs")]
    pub standings_json: Option<PathBuf>,
    /// Serve a read-only live page of the event at this address (e.g.
    /// `127.0.0.1:8080`; port 0 picks a free one): standings, games in
    /// progress, finished games (see docs/live.md). It closes when the
    /// arbiter exits (see --live-linger).
    #[arg(long, value_name = "ADDR", help_heading = "Live page")]
    pub live: Option<std::net::SocketAddr>,
    /// Keep serving the live page this many seconds after the event ends
    /// (the page says the event is over; Ctrl-C ends the wait early), so
    /// that a fast event can still be looked at.
    #[arg(long, value_name = "SECONDS", requires = "live", value_parser = seconds_arg, help_heading = "Live page")]
    pub live_linger: Option<f64>,
    /// A further `name:port` the live page may be reached by (with a
    /// non-loopback --live, e.g. `0.0.0.0:8080` watched as `myhost:8080`).
    #[arg(
        long,
        value_name = "HOST:PORT",
        requires = "live",
        help_heading = "Live page"
    )]
    pub live_allow_host: Vec<String>,
    /// Show the games in progress this many plies behind on the live page
    /// and in its JSON, without the engines' searches; finished games
    /// whole (0: as they are played). So that no one reads a game in
    /// progress from the page while it is played (docs/live.md).
    #[arg(
        long,
        value_name = "PLIES",
        default_value_t = 0,
        requires = "live",
        help_heading = "Live page"
    )]
    pub spectator_delay: u32,
    /// At the first SIGTERM/SIGINT/SIGHUP of a --live event: the most
    /// seconds the games in progress may go on (no new game starts), then
    /// the games left are aborted (never a result) and the arbiter exits 0;
    /// a second signal stops at once. Default: until each game's remaining
    /// clocks (as of its last move) and 5 s run out, at most 600 (600 for a
    /// game with no chess clock); 0: abort them at the first signal.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = arbiter_core::shutdown::drain_arg,
        help_heading = "Live page"
    )]
    pub drain: Option<f64>,
    /// The live page's server limits.
    #[command(flatten)]
    pub live_limits: limits::LimitArgs,
    /// Write the full protocol traffic with timestamps to this file.
    // why the headings: a flattened struct's heading holds for the fields
    // after it (clap's next_help_heading), so each such field names its own.
    #[arg(long, value_name = "FILE", help_heading = "Logs")]
    pub debug: Option<PathBuf>,
    /// Directory for the engines' stderr logs.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "arbiter-logs",
        help_heading = "Logs"
    )]
    pub stderr_dir: PathBuf,
    /// Event name for the logs [default: "mancala arena match" or
    /// "mancala arena tournament"].
    #[arg(long, help_heading = "Logs")]
    pub event: Option<String>,
    /// Seconds a fresh engine process has to answer `umiok` (slow starters,
    /// e.g. on a JVM, need more than a command does); `--handshake-timeout`
    /// is the same (above 0, at most 1000000).
    #[arg(
        long = "startup-timeout",
        alias = "handshake-timeout",
        default_value_t = 30.0,
        value_parser = seconds_arg,
        help_heading = "Engine timeouts"
    )]
    pub handshake_timeout: f64,
    /// Seconds to wait for each `readyok` (above 0, at most 1000000).
    #[arg(long, default_value_t = 10.0, value_parser = seconds_arg, help_heading = "Engine timeouts")]
    pub ready_timeout: f64,
    /// Seconds to wait for a bestmove when the time control has no clock
    /// (above 0, at most 1000000).
    #[arg(long, default_value_t = 60.0, value_parser = seconds_arg, help_heading = "Engine timeouts")]
    pub stall_timeout: f64,
    #[command(flatten)]
    pub remote: remote::RemoteArgs,
    /// TLS of --live and --remote-listen.
    #[command(flatten)]
    pub tls: tls::TlsArgs,
}

#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub engines: EngineArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Number of games (played in pairs with colours swapped); with
    /// `--partie`, number of Partien. 1 to 10^12.
    #[arg(long, default_value_t = 2, value_parser = games_arg, help_heading = "Match")]
    pub games: usize,
    /// Sequential test: `elo0=0 elo1=5 alpha=0.05 beta=0.05`; no new game
    /// starts once it is decided.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", help_heading = "Match")]
    pub sprt: Vec<String>,
    /// Bohnenspiel match play: each game of the match is a Partie, games in a
    /// row until one engine has this many beans (the rules say 100; 1 to 10000).
    #[arg(long, value_name = "BEANS", value_parser = partie_arg, help_heading = "Match")]
    pub partie: Option<u32>,
}

/// The most games an event may have (`--games`, `--rounds` × pairings).
pub const MAX_GAMES: u64 = 1_000_000_000_000;
/// The most games played at once.
pub const MAX_CONCURRENCY: u64 = 1024;
// why re-exported: the command line's parsers and the library (house bots'
// `slots=`, `--drain`) read these numbers alike; the library never uses `cli`.
pub use arbiter_core::values::{count_in, seconds_arg, MAX_TIMEOUT_SECS};
/// The largest Partie target, in beans.
pub const MAX_PARTIE: u64 = 10_000;

fn to_usize(n: u64) -> Result<usize, String> {
    usize::try_from(n).map_err(|_| format!("{n} is too large for this machine"))
}

/// `--games`: 1 to [`MAX_GAMES`].
pub fn games_arg(text: &str) -> Result<usize, String> {
    to_usize(count_in(text, 1, MAX_GAMES)?)
}

/// `--rounds`: 1 to [`MAX_GAMES`] (the event's total is checked too).
pub fn rounds_arg(text: &str) -> Result<usize, String> {
    to_usize(count_in(text, 1, MAX_GAMES)?)
}

/// `--concurrency`: 1 to [`MAX_CONCURRENCY`].
pub fn concurrency_arg(text: &str) -> Result<usize, String> {
    to_usize(count_in(text, 1, MAX_CONCURRENCY)?)
}

/// `--partie`: 1 to [`MAX_PARTIE`] beans.
pub fn partie_arg(text: &str) -> Result<u32, String> {
    u32::try_from(count_in(text, 1, MAX_PARTIE)?).map_err(|e| e.to_string())
}

/// Why a command stopped, printed as `arbiter: <message>`; its kind is the
/// exit status (docs/arbiter.md, "Exit status").
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong (a flag, a value, a combination, a file
    /// it names that does not read as what it must be): exit status 2.
    Usage(String),
    /// The work failed (I/O, an engine that cannot start, a database, a
    /// lost connection): exit status 1.
    Failed(String),
    /// A bug in the arbiter (a state its own code should never reach):
    /// exit status 3, and the message asks for a report.
    Bug(String),
}

impl CliError {
    /// The exit status the error gives.
    pub fn code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
            CliError::Bug(_) => 3,
        }
    }

    /// What the error says.
    pub fn message(&self) -> &str {
        match self {
            CliError::Usage(m) | CliError::Failed(m) | CliError::Bug(m) => m,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Bug(m) => write!(f, "internal error: {m}. {REPORT}"),
            _ => f.write_str(self.message()),
        }
    }
}

/// The exit statuses, as `arbiter --help` ends (docs/arbiter.md says the
/// same, and a test holds them together).
pub const EXIT_STATUS: &str = "Exit status: 0 done; 1 a failure (I/O, an engine that cannot \
start, a database, a lost connection); 2 a usage error (a flag, a value, a key); 3 an \
internal error (a bug: please report it); 128+N stopped at once by signal N (143: SIGTERM).";

/// What an internal error (exit status 3, or a panic) asks of the user.
pub const REPORT: &str =
    "This is a bug in the arbiter: please report it with the command line and this message";

// why no blanket `From<E: Display>`: it made every error a usage error
// (exit 2, as a typo); each kind of error says here which it is.
macro_rules! cli_error_from {
    ($kind:ident: $($t:ty),+ $(,)?) => {
        $(impl From<$t> for CliError {
            fn from(e: $t) -> CliError {
                CliError::$kind(e.to_string())
            }
        })+
    };
}

// The command line's own words: an engine's keys, a game id or position,
// adjudication and SPRT settings, an openings choice.
cli_error_from!(Usage:
    arbiter_core::contender::config::ConfigError,
    mancala_rules::PositionError,
    arbiter_core::play::adjudicate::RuleError,
    arbiter_core::stats::SprtError,
    arbiter_core::play::openings::OpeningsError,
);

// The work: files, the arena's database, logs to merge.
cli_error_from!(Failed:
    std::io::Error,
    arbiter_arena::db::DbError,
    arbiter_core::event::merge::MergeError,
);

/// A results log to resume: the command line's mistake when the log is
/// another event's or `--resume` is missing; else the log or its reading
/// failed.
impl From<arbiter_core::event::resume::ResumeError> for CliError {
    fn from(e: arbiter_core::event::resume::ResumeError) -> CliError {
        use arbiter_core::event::resume::ResumeError;
        match e {
            ResumeError::ForeignGame { .. } | ResumeError::NotEmpty { .. } => {
                CliError::Usage(e.to_string())
            }
            _ => CliError::Failed(e.to_string()),
        }
    }
}

/// An event refused before its first game: the command line's choice of
/// engine or option (2), or an engine that failed (1).
impl From<arbiter_core::play::preflight::Refused> for CliError {
    fn from(e: arbiter_core::play::preflight::Refused) -> CliError {
        use arbiter_core::play::preflight::Refused;
        match e {
            Refused::Choice(m) => CliError::Usage(m),
            Refused::Failed(m) => CliError::Failed(m),
        }
    }
}

/// The rules library's game ids, as the help lists them: `a, b, …`.
pub fn game_ids() -> String {
    GameId::ALL
        .iter()
        .map(|g| g.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The intro of `--engine`'s long help (the keys follow, from the table).
const ENGINE_INTRO: &str = "One engine, as KEY=VALUE tokens (values may contain `=`); \
    repeat --engine per engine. `--each` takes the same keys (but conf=) for every engine.";

impl Cli {
    /// The command line as it is parsed, with the help built from the
    /// tables the code uses: each command's `--engine` keys (those it
    /// refuses left out and named), the rules library's game ids.
    pub fn command_with_tables() -> clap::Command {
        use arbiter_core::contender::config::{
            keys_help, CHECK_REFUSES, CONNECT_REFUSES, SERVE_REFUSES,
        };
        use clap::CommandFactory;
        let engine = |refused: &'static [(&'static str, &'static str)]| {
            move |a: clap::Arg| a.long_help(keys_help(ENGINE_INTRO, refused))
        };
        let one_game = |a: clap::Arg| a.help(format!("Game id: {}", game_ids()));
        let games = |a: clap::Arg| {
            a.help(format!(
                "Game id, or several separated by commas (each pairing plays each): {}",
                game_ids()
            ))
        };
        Cli::command()
            .mut_subcommand("match", |c| {
                c.mut_arg("engine", engine(&[])).mut_arg("game", one_game)
            })
            .mut_subcommand("tournament", |c| {
                c.mut_arg("engine", engine(&[])).mut_arg("game", games)
            })
            .mut_subcommand("check", |c| c.mut_arg("engine", engine(CHECK_REFUSES)))
            .mut_subcommand("serve", |c| c.mut_arg("engine", engine(SERVE_REFUSES)))
            .mut_subcommand("connect", |c| c.mut_arg("engine", engine(CONNECT_REFUSES)))
    }

    /// Parses the process arguments (cutechess-cli and fastchess spellings
    /// translated first, see [`arbiter_core::compat`]), keeping each `--engine`'s
    /// tokens apart.
    pub fn parse_grouped() -> Cli {
        let translation = match arbiter_core::compat::translate(std::env::args_os().collect()) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("arbiter: {e}");
                std::process::exit(2);
            }
        };
        for note in &translation.notes {
            eprintln!("arbiter: note: {note}");
        }
        match Cli::try_parse_grouped(translation.args) {
            Ok(cli) => cli,
            Err(e) => e.exit(),
        }
    }

    /// [`Cli::parse_grouped`] on given (already translated) arguments.
    pub fn try_parse_grouped(
        args: impl IntoIterator<Item = std::ffi::OsString>,
    ) -> Result<Cli, clap::Error> {
        use clap::FromArgMatches;
        let matches = Cli::command_with_tables().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        if let Some((_, sub)) = matches.subcommand() {
            let groups: Vec<Vec<String>> = sub
                // why `try_`: subcommands without `--engine` (verify) have no such
                // argument, and the plain getter panics on an unknown id.
                .try_get_occurrences::<String>("engine")
                .ok()
                .flatten()
                .map(|occ| occ.map(|o| o.cloned().collect()).collect())
                .unwrap_or_default();
            if let Some(args) = cli.command.engine_args_mut() {
                args.engines = groups;
            }
        }
        Ok(cli)
    }
}

impl Command {
    /// Whether the command starts engine processes.
    pub fn runs_engines(&self) -> bool {
        match self {
            Command::Arena(a) => a.runs_engines(),
            _ => matches!(
                self,
                Command::Match(_)
                    | Command::Tournament(_)
                    | Command::Check(_)
                    | Command::Serve(_)
                    | Command::Connect(_)
            ),
        }
    }

    fn engine_args_mut(&mut self) -> Option<&mut EngineArgs> {
        match self {
            Command::Match(m) => Some(&mut m.engines),
            Command::Tournament(t) => Some(&mut t.engines),
            Command::Check(c) => Some(&mut c.engines),
            Command::Serve(s) => Some(&mut s.engines),
            Command::Connect(c) => Some(&mut c.engines),
            Command::Verify { .. }
            | Command::Show { .. }
            | Command::Merge(_)
            | Command::Arena(_) => None,
        }
    }
}

/// Plies after which a game is adjudicated a draw unless `--max-plies` says otherwise.
pub const DEFAULT_MAX_PLIES: u32 = 5000;

impl RunArgs {
    /// The ply limit in force: `--max-plies`, its default, or none for 0.
    pub fn ply_limit(&self) -> Option<u32> {
        match self.max_plies {
            None => Some(DEFAULT_MAX_PLIES),
            Some(0) => None,
            Some(n) => Some(n),
        }
    }
}

/// The engines file `conf=` names are read from when `--engines-file` is not
/// given (if it exists in the current directory), as in cutechess-cli.
pub const DEFAULT_ENGINES_FILE: &str = "engines.json";

/// The engine specs of `--engine`/`--each` (and `--engines-file`), as given:
/// no check that they suit a game under clocks (`check` and `serve` set
/// their own limits).
pub fn engine_specs(args: &EngineArgs) -> Result<Vec<EngineSpec>, CliError> {
    // why: cutechess-cli reads `conf=NAME` from an engines.json in the current
    // directory when no other file is named; pasted command lines rely on it.
    let uses_conf = args
        .engines
        .iter()
        .flatten()
        .chain(&args.each)
        .any(|t| t.starts_with("conf="));
    let default_file = Path::new(DEFAULT_ENGINES_FILE);
    let path = match &args.engines_file {
        Some(p) => Some(p.as_path()),
        None if uses_conf && default_file.is_file() => Some(default_file),
        None => None,
    };
    let file = path.map(EnginesFile::load).transpose()?;
    Ok(resolve_engines(&args.engines, &args.each, file.as_ref())?)
}

/// The engine specs of a match or tournament: [`engine_specs`], each with a
/// limit that ends its searches.
pub fn load_engines(args: &EngineArgs) -> Result<Vec<EngineSpec>, CliError> {
    let specs = engine_specs(args)?;
    for s in &specs {
        if s.tc.is_unlimited() {
            return Err(CliError::Usage(format!(
                "engine {}: no limit: without a clock (tc=inf, the default) give depth= or \
                 nodes=, since an engine searching under `go infinite` never stops by itself; \
                 or give tc= or st= (on --engine or --each)",
                s.name
            )));
        }
    }
    Ok(specs)
}

impl RunArgs {
    /// [`parse_openings`], then `--openings-order` and `--openings-start`.
    pub fn openings_for(&self, game: GameId) -> Result<Openings, CliError> {
        let openings = parse_openings(self.openings.as_deref(), game, self.seed)?;
        Ok(openings.arranged(
            self.openings_order == "random",
            self.openings_start,
            self.seed,
        ))
    }
}

/// Writes protocol traffic as `+<seconds> <engine>(<pid>) <dir> <line>`.
struct TrafficFile {
    start: Instant,
    out: Mutex<std::io::BufWriter<std::fs::File>>,
}

impl TrafficLog for TrafficFile {
    fn record(&self, r: &TrafficRecord<'_>) {
        use std::io::Write;
        let dir = match r.kind {
            TrafficKind::ToEngine => ">",
            TrafficKind::FromEngine => "<",
            TrafficKind::Event => "#",
        };
        let t = r.at.saturating_duration_since(self.start).as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "+{t:.6} {}({}) {dir} {}", r.engine, r.pid, r.text);
            let _ = out.flush();
        }
    }
}

/// The `--debug` traffic log: `None` without the option, else a new file at
/// `path` (an error names the file that cannot be created).
pub fn traffic_log(path: Option<&Path>) -> Result<Option<Arc<dyn TrafficLog>>, CliError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let file = std::fs::File::create(path)
        .map_err(|e| CliError::Failed(format!("cannot create {}: {e}", path.display())))?;
    Ok(Some(Arc::new(TrafficFile {
        start: Instant::now(),
        out: Mutex::new(std::io::BufWriter::new(file)),
    })))
}

pub fn runner(engines: Vec<EngineSpec>, run: &RunArgs) -> Result<Runner, CliError> {
    let traffic = traffic_log(run.debug.as_deref())?;
    std::fs::create_dir_all(&run.stderr_dir).map_err(|e| {
        CliError::Failed(format!("cannot create {}: {e}", run.stderr_dir.display()))
    })?;
    let secs = |s: f64, what: &str| {
        Duration::try_from_secs_f64(s)
            .map_err(|_| CliError::Usage(format!("{what}: {s} is not a duration in seconds")))
    };
    Ok(Runner {
        engines,
        concurrency: run.concurrency.unwrap_or(1).max(1),
        timeouts: Timeouts {
            ready: secs(run.ready_timeout, "--ready-timeout")?,
            stall: secs(run.stall_timeout, "--stall-timeout")?,
        },
        handshake_timeout: secs(run.handshake_timeout, "--startup-timeout")?,
        max_plies: run.ply_limit(),
        stderr_dir: Some(run.stderr_dir.clone()),
        traffic,
        quit_grace: Duration::from_millis(500),
        partie: None,
        adjudication: adjudication_rules(run)?,
        observer: None,
        remote: None,
        shutdown: Shutdown::default(),
    })
}

/// One `--adjudicate` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adjudicate {
    Decided,
    Tablebase(PathBuf),
}

fn adjudicate_arg(s: &str) -> Result<Adjudicate, String> {
    match s.split_once('=') {
        None if s == "decided" => Ok(Adjudicate::Decided),
        Some(("tb", dir)) if !dir.is_empty() => Ok(Adjudicate::Tablebase(PathBuf::from(dir))),
        _ => Err(format!(
            "{s:?}: expected decided or tb=DIR (an endgame database directory)"
        )),
    }
}

/// `--resign`, `--draw` and `--adjudicate`; the database is opened (and
/// every layer checked) here, before any game starts.
fn adjudication_rules(run: &RunArgs) -> Result<arbiter_core::play::adjudicate::Rules, CliError> {
    use arbiter_core::play::adjudicate::{Rules, TablebaseRule};
    let decided = run.adjudicate.contains(&Adjudicate::Decided);
    let mut rules = Rules::parse(&run.resign, &run.draw, decided)?;
    for a in &run.adjudicate {
        if let Adjudicate::Tablebase(dir) = a {
            let tb = mancala_tablebase::Tablebase::open(dir)
                .and_then(|tb| tb.verify().map(|_| tb))
                .map_err(|e| CliError::Usage(format!("--adjudicate tb={}: {e}", dir.display())))?;
            rules.tablebase = Some(TablebaseRule(std::sync::Arc::new(tb)));
        }
    }
    Ok(rules)
}

/// `arbiter verify LOG [--tb DIR]`.
fn verify_log(
    log: &Path,
    tb: Option<&Path>,
) -> Result<arbiter_core::records::verify::VerifyReport, String> {
    let tb = tb
        .map(|dir| mancala_tablebase::Tablebase::open(dir).map_err(|e| format!("--tb: {e}")))
        .transpose()?;
    arbiter_core::records::verify::verify_file_with(log, tb.as_ref()).map_err(|e| e.to_string())
}

async fn run_match(args: MatchArgs, shutdown: Shutdown) -> Result<(), CliError> {
    // why refused, not split: a match is one game id's series (its --games,
    // --sprt, --partie); the tournament plays a list, pairing by pairing.
    if args.run.game.contains(',') {
        return Err(CliError::Usage(format!(
            "--game {}: a match plays one game id; for several, run `arbiter tournament \
             --game {}` with the same two engines (a round robin of one pairing)",
            args.run.game, args.run.game
        )));
    }
    let game: GameId = args.run.game.parse()?;
    let engines = load_engines(&args.engines)?;
    if engines.len() != 2 {
        return Err(CliError::Usage(format!(
            "a match needs exactly two --engine, got {}",
            engines.len()
        )));
    }
    let openings = args.run.openings_for(game)?;
    let mut runner = runner(engines, &args.run)?;
    runner.shutdown = shutdown.clone();
    if args.partie.is_some() {
        if !game.has_match_play() {
            return Err(CliError::Usage(format!(
                "--partie is Bohnenspiel match play; {game} has no match play"
            )));
        }
        runner.partie = args.partie;
    }
    // Locked before anything is played: a second arbiter on the same logs refuses.
    let mut sink = LogSink::open(args.run.pgnout.as_deref(), args.run.jsonout.as_deref())?;
    let mut live = start_live(&args.run, &shutdown).await?;
    if let Some(live) = live.as_mut() {
        live.event(arbiter_board::live::hub::EventMeta {
            event: event_name(&args.run, "mancala arena match"),
            games: vec![game.to_string()],
            engines: runner.engines.iter().map(|e| e.name.clone()).collect(),
            total: Some(args.games as u64),
            source: "match".into(),
        });
        runner.observer = Some(live.game_observer(&runner.engines));
    }
    remote::open(&mut runner, &args.run.remote, &args.run.tls).await?;
    arbiter_core::play::preflight::preflight(&runner, game).await?;
    let plan = MatchPlan {
        game,
        games: args.games,
        openings,
        event: event_name(&args.run, "mancala arena match"),
        sprt: tournament::parse_sprt(&args.sprt)?,
        standings_json: args.run.standings_json.clone(),
    };
    let bar = progress_bar(args.games);
    let events = live
        .as_mut()
        .map(|l| l as &mut dyn arbiter_core::play::observe::EventObserver);
    let played = matches::run_observed(
        &runner,
        &plan,
        &mut sink,
        |line| {
            // why: `println` on a hidden bar (stderr not a terminal) prints nothing.
            bar.suspend(|| println!("{line}"));
            bar.inc(1);
        },
        events,
    )
    .await;
    bar.finish_and_clear();
    if let Some(live) = &live {
        live.end(end_message(played.is_ok(), args.run.live_linger))
            .await;
    }
    print!("{}", played?.render());
    if let Some(live) = &live {
        linger(live, args.run.live_linger).await;
    }
    Ok(())
}

/// `--live-linger`: the live page stays up this long after the event (the
/// report is printed first).
pub async fn linger(live: &arbiter_board::live::feed::LiveEvent, secs: Option<f64>) {
    let Some(wait) = secs.and_then(|s| Duration::try_from_secs_f64(s).ok()) else {
        return;
    };
    println!(
        "arbiter: the live page stays at {} for {} s (Ctrl-C to stop)",
        live.url,
        wait.as_secs_f64()
    );
    tokio::time::sleep(wait).await;
}

/// `--event`, or `default`.
pub fn event_name(run: &RunArgs, default: &str) -> String {
    run.event.clone().unwrap_or_else(|| default.to_owned())
}

/// `--live`: binds the page's address (a clear error before any game) and
/// prints where to open it.
pub async fn start_live(
    run: &RunArgs,
    shutdown: &Shutdown,
) -> Result<Option<arbiter_board::live::feed::LiveEvent>, CliError> {
    let Some(addr) = run.live else {
        if run.drain.is_some() {
            return Err(CliError::Usage(
                "--drain: only a --live event drains at a first signal; without --live the \
                 first signal stops the event at once (a tournament resumes with --resume)"
                    .into(),
            ));
        }
        return Ok(None);
    };
    let live = arbiter_board::start_live(
        addr,
        &run.live_allow_host,
        run.spectator_delay,
        run.jsonout.clone(),
        run.live_limits.limits(),
        run.tls.load()?,
    )
    .await
    .map_err(|e| CliError::Failed(format!("--live {addr}: cannot listen: {e}")))?;
    println!("arbiter: live page at {}", live.url);
    // A first signal's default drain: the games in progress's clocks.
    let hub = live.hub.clone();
    shutdown.report_games_with(move || hub.in_progress());
    // The page says so when a first signal drains the event (arbiter_core::shutdown).
    let hub = live.hub.clone();
    let shutdown = shutdown.clone();
    tokio::spawn(async move {
        shutdown.draining().await;
        hub.publish(arbiter_board::live::LiveMsg::Problems {
            problems: vec!["server stopping: no new game; the games in progress finish".to_owned()],
        });
    });
    Ok(Some(live))
}

/// What the live page says when the event is over (`linger`: the seconds
/// the page stays up, `--live-linger`).
pub fn end_message(completed: bool, linger: Option<f64>) -> String {
    let how = if completed {
        "The event is over"
    } else {
        "The event stopped on an error (see the arbiter's output)"
    };
    match linger {
        Some(secs) if secs > 0.0 => format!(
            "{how}. This page stays up for {secs} s more, then the arbiter exits and its replay links close with it."
        ),
        _ => format!("{how}. The arbiter exits now: this page stops updating and its replay links close with it."),
    }
}

/// A progress bar on stderr for long runs (hidden when stderr is not a terminal).
pub fn progress_bar(total: usize) -> indicatif::ProgressBar {
    let bar = if total >= 20 {
        indicatif::ProgressBar::new(total as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games, {elapsed} elapsed, eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The board after `moves` from `position`, with the legal moves or the result.
fn show(position: &str, moves: &[String]) -> Result<String, CliError> {
    // A bare game id is its start position: `arbiter show bohnenspiel 3`.
    let mut game = match position.parse::<GameId>() {
        Ok(id) => mancala_rules::new_game(id),
        Err(_) => mancala_rules::game_from_position(position)?,
    };
    for (i, mv) in moves.iter().enumerate() {
        game.play(mv)
            .map_err(|e| CliError::Usage(format!("move {} ({mv}): {e}", i + 1)))?;
    }
    let mut text = game.render();
    text.push_str(&format!("position: {}\n", game.position_string()));
    match game.outcome() {
        Some(o) => {
            text.push_str(&format!("game over: {} ({})\n", o.result, o.reason));
            // why: Bohnenspiel's sweep is in the totals, not on the board.
            if let Some([south, north]) = o.scores {
                text.push_str(&format!("final totals: South {south}, North {north}\n"));
            }
        }
        None => text.push_str(&format!("legal moves: {}\n", game.legal_moves().join(" "))),
    }
    Ok(text)
}

/// Runs the command line; returns the process exit status.
pub async fn main(cli: Cli) -> i32 {
    let policy = stop_policy(&cli.command);
    // why a pair: the signal loop moves the trigger on; the command watches
    // its end (arbiter_core::shutdown).
    let (trigger, shutdown) = Shutdown::new();
    let work = run(cli.command, shutdown, trigger.clone());
    arbiter_core::shutdown::on_signal::run(work, policy, trigger).await
}

/// How the command stops at a signal: the servers drain at the first
/// (arbiter_core::shutdown); the rest stop at once, as a plain
/// tournament's --resume expects.
fn stop_policy(command: &Command) -> arbiter_core::shutdown::on_signal::Policy {
    arbiter_core::shutdown::on_signal::Policy {
        drains: match command {
            Command::Arena(a) => a.is_server(),
            Command::Serve(_) => true,
            Command::Match(m) => m.run.live.is_some(),
            Command::Tournament(t) => t.run.live.is_some(),
            _ => false,
        },
        // why: only the commands that play events keep finished games in
        // logs; the interrupt message must not promise logs that `serve`
        // never writes.
        keeps_logs: matches!(command, Command::Match(_) | Command::Tournament(_)),
        // A --live event's `--drain` (the arena and serve have their own).
        event_drain: match command {
            Command::Match(m) => m.run.drain,
            Command::Tournament(t) => t.run.drain,
            _ => None,
        }
        .and_then(|s| Duration::try_from_secs_f64(s).ok()),
    }
}

/// Runs one command; an error is printed, its status returned.
async fn run(command: Command, shutdown: Shutdown, trigger: ShutdownTrigger) -> i32 {
    let ran = match command {
        Command::Match(args) => run_match(*args, shutdown).await.map(|()| 0),
        Command::Tournament(args) => tournament::run(*args, shutdown).await.map(|()| 0),
        Command::Merge(args) => tournament::merge(&args).map(|()| 0),
        Command::Check(args) => check::main(*args).await,
        Command::Serve(args) => serve::run(*args, shutdown).await.map(|()| 0),
        Command::Connect(args) => remote::connect(*args).await.map(|()| 0),
        Command::Arena(args) => arena::main(*args, trigger).await,
        Command::Show { position, moves } => show(&position, &moves).map(|text| {
            print!("{text}");
            0
        }),
        Command::Verify { log, tb } => match verify_log(&log, tb.as_deref()) {
            Ok(report) => {
                println!("{report}");
                Ok(0)
            }
            Err(e) => {
                println!("{e}");
                Ok(1)
            }
        },
    };
    match ran {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arbiter: {e}");
            e.code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn ply_limit(args: &[&str]) -> Option<u32> {
        let cli = Cli::try_parse_from(["arbiter", "match"].iter().chain(args)).expect("parses");
        match cli.command {
            Command::Match(m) => m.run.ply_limit(),
            _ => panic!("not a match"),
        }
    }

    #[test]
    fn startup_and_ready_timeouts_are_separate() {
        let run = |args: &[&str]| {
            let cli = Cli::try_parse_from(["arbiter", "match"].iter().chain(args)).unwrap();
            let Command::Match(m) = cli.command else {
                panic!()
            };
            let r = runner(Vec::new(), &m.run).unwrap();
            (r.handshake_timeout, r.timeouts.ready)
        };
        let dir = std::env::temp_dir().join(format!("arbiter-cli-{}", std::process::id()));
        let d = dir.to_str().unwrap();
        let secs = Duration::from_secs;
        assert_eq!(run(&["--stderr-dir", d]), (secs(30), secs(10)));
        assert_eq!(
            run(&[
                "--stderr-dir",
                d,
                "--startup-timeout",
                "60",
                "--ready-timeout",
                "5"
            ]),
            (secs(60), secs(5))
        );
        // The old spelling is the start-up limit.
        assert_eq!(
            run(&["--stderr-dir", d, "--handshake-timeout", "15"]),
            (secs(15), secs(10))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn serve_has_the_startup_timeout_and_the_old_spelling() {
        let timeout = |args: &[&str]| {
            let cli = Cli::try_parse_from(["arbiter", "serve"].iter().chain(args)).unwrap();
            let Command::Serve(s) = cli.command else {
                panic!()
            };
            s.handshake_timeout
        };
        assert_eq!(timeout(&[]), 10.0);
        assert_eq!(timeout(&["--startup-timeout", "4"]), 4.0);
        assert_eq!(timeout(&["--handshake-timeout", "5"]), 5.0);
        assert!(Cli::try_parse_from(["arbiter", "serve", "--startup-timeout", "0"]).is_err());
    }

    #[test]
    fn error_usage_does_not_present_given_options_as_required() {
        let e = Cli::try_parse_from(["arbiter", "tournament", "--each", "st=1", "--bogus"])
            .err()
            .expect("refused")
            .to_string();
        assert!(
            e.contains("Usage: arbiter tournament [--engine KEY=VALUE...]... [OPTIONS]"),
            "{e}"
        );
        assert!(!e.contains("--each <KEY=VALUE>"), "{e}");
    }

    #[test]
    fn concurrency_zero_is_refused() {
        let e = Cli::try_parse_from(["arbiter", "match", "--concurrency", "0"])
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains("must be from 1 to 1024"), "{e}");
        let ok = Cli::try_parse_from(["arbiter", "match", "--concurrency", "3"]).unwrap();
        let Command::Match(m) = ok.command else {
            panic!()
        };
        assert_eq!(m.run.concurrency, Some(3));
    }

    #[cfg(unix)]
    #[test]
    fn tc_inf_needs_a_depth_or_nodes_limit() {
        let args = |each: &str| EngineArgs {
            engines: vec![vec!["cmd=sh".into()]],
            each: each.split_whitespace().map(str::to_owned).collect(),
            ..EngineArgs::default()
        };
        let e = load_engines(&args("tc=inf"))
            .unwrap_err()
            .message()
            .to_owned();
        assert!(
            e.contains("tc=inf") && e.contains("depth= or nodes="),
            "{e}"
        );
        let ok = load_engines(&args("tc=inf depth=4")).unwrap();
        assert_eq!(ok[0].tc.depth, Some(4));
    }

    #[test]
    fn games_are_capped_unless_told_otherwise() {
        assert_eq!(ply_limit(&[]), Some(DEFAULT_MAX_PLIES));
        assert_eq!(ply_limit(&["--max-plies", "300"]), Some(300));
        assert_eq!(ply_limit(&["--max-plies", "0"]), None);
    }
}
