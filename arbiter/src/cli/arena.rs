//! `arbiter arena`: the standing arena's server and its admin commands
//! (docs/arena.md).

use arbiter_core::shutdown::ShutdownTrigger;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use std::sync::Arc;
use std::time::Duration;

use crate::cli::CliError;
use arbiter_arena::remote::{RemoteBots, RemoteSettings};
use arbiter_arena::seats::BothSeats;
use arbiter_arena::{anchors, bots, db, events, house, pools, server, store};

#[derive(Args)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub command: ArenaCommand,
}

#[derive(Subcommand)]
pub enum ArenaCommand {
    /// Run the arena: pair the connected bots in every pool, play, record,
    /// rate, and serve the pages (prints the address to open).
    Run(Box<RunArgs>),
    /// Add, revoke, list or anchor bots.
    Bot {
        #[command(subcommand)]
        command: BotCommand,
    },
    /// Schedule or list events: a round robin or Swiss among the bots
    /// connected to a pool at a set time.
    Event {
        #[command(subcommand)]
        command: EventCommand,
    },
    /// Remove old pool games (events' stay) and give their space back; the
    /// ratings do not change (their results are kept as counts). Export
    /// first to keep the records.
    Prune(PruneArgs),
    /// Write a pool's (or an event's) finished games as JSON lines (and
    /// PGN), as `arbiter verify` and `arbiter merge` read them.
    #[command(group = clap::ArgGroup::new("games").required(true).args(["pool", "event"]))]
    Export {
        /// The arena's database.
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        /// The pool's name.
        #[arg(long, value_name = "NAME")]
        pool: Option<String>,
        /// An event's id (`arena event list`): its games only.
        #[arg(long, value_name = "ID")]
        event: Option<i64>,
        #[arg(long, value_name = "FILE")]
        jsonout: PathBuf,
        #[arg(long, value_name = "FILE")]
        pgnout: Option<PathBuf>,
    },
}

/// `arbiter arena prune`.
#[derive(Args)]
pub struct PruneArgs {
    /// The arena's database (no server may be running on it).
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Remove the games of pairs started before this time: a date
    /// (2026-12-01, midnight UTC) or an RFC 3339 time.
    #[arg(long, value_name = "TIME")]
    pub before: String,
    /// Only the games between two of these bots (the house bots, say);
    /// repeat per bot. Default: every pool game.
    #[arg(long, value_name = "BOT")]
    pub between: Vec<String>,
}

#[derive(Subcommand)]
pub enum EventCommand {
    /// Schedule an event; prints its id alone on the last line. At --at the
    /// running arena takes the bots connected to the pool and plays the
    /// event's games among them, rated in the pool as usual.
    Add {
        /// The arena's database.
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        /// The pool (of the server's --pools) whose bots play.
        #[arg(long, value_name = "NAME")]
        pool: String,
        /// roundrobin (every pair meets, both colours, each round) or swiss.
        #[arg(long, value_name = "roundrobin|swiss", value_parser = event_format)]
        format: arbiter_arena::events::EventFormat,
        /// Rounds: of a round robin, each pair's colour-swapped game pairs;
        /// of a Swiss, its rounds (at most those of a round robin of the
        /// field that shows up).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
        rounds: u32,
        /// When it starts: an RFC 3339 time to come (2026-12-04T18:00:00Z,
        /// 2026-12-04T19:00:00+01:00) or `now`.
        #[arg(long, value_name = "TIME")]
        at: String,
    },
    /// List the events, newest first: id, pool, format, rounds, start,
    /// state, and why one was cancelled.
    List {
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
    /// Cancel a scheduled or playing event: a running arena starts none of
    /// its games from the next second on (those in progress finish); its
    /// finished games stay, rated.
    Cancel {
        /// The event's id (`arena event list`).
        id: i64,
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
}

fn event_format(text: &str) -> Result<arbiter_arena::events::EventFormat, String> {
    text.parse()
        .map_err(|e: arbiter_arena::events::FormatError| e.to_string())
}

/// `arena run --help`'s headings, one per subject; every flag names its
/// own (why not clap's `next_help_heading`: it stays on for the flags
/// declared after, which filed `--max-games` and others under TLS).
pub const SERVER: &str = "Server (the database, pools, addresses)";
pub const HOUSE: &str = "House bots";
pub const REMOTE: &str = "Remote bots (/umi, /kgp)";
pub const GAMES: &str = "Games and pairing";
pub const TIMEOUTS: &str = "Engine timeouts";
pub const STOPPING: &str = "Stopping";
pub const PAGES: &str = "Pages";

/// `arbiter arena run`.
#[derive(Args)]
pub struct RunArgs {
    /// The arena's database (created if there is none).
    #[arg(long, help_heading = SERVER, value_name = "FILE")]
    pub db: PathBuf,
    /// Address of the pages (and, with remote bots, of `/umi`).
    #[arg(long, help_heading = SERVER, default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// The pools (docs/arena.md): `[{"name": …, "game": …, "each": …, "openings": …}]`.
    #[arg(long, help_heading = SERVER, value_name = "FILE")]
    pub pools: PathBuf,
    /// Also take Kalah bots speaking KGP over TCP at this address (KGP's
    /// port, 127.0.0.1:2671, when given without one). Over a WebSocket they
    /// connect to `/kgp` on --listen, always; both with the tokens of
    /// `arena bot add` (`set auth:token <token>`).
    #[arg(long, help_heading = SERVER, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:2671")]
    pub kgp_listen: Option<std::net::SocketAddr>,
    /// A bot the arena runs itself as a local process, in one argument:
    /// `--house "name=ref3 cmd=engine option.Level=3 slots=2"` (the name a
    /// bot added with `arena bot add`); `anchor=R` holds its rating at R
    /// (written to the database as `arena bot anchor` does, so it stays
    /// after the server stops). Repeat per bot. Its games' limits
    /// are the pool's: tc=, st=, depth=, nodes=, timemargin=, ponder are
    /// refused here, and so are remote=, lag=, proto= (a local process).
    #[arg(long, help_heading = HOUSE, value_name = "SETTINGS")]
    pub house: Vec<String>,
    /// A further `name:port` the pages may be reached by (with a
    /// non-loopback --listen).
    #[arg(long, help_heading = SERVER, value_name = "HOST:PORT")]
    pub allow_host: Vec<String>,
    /// TLS for --listen (pages over https://, bots over wss://).
    #[command(flatten)]
    pub tls: crate::cli::tls::TlsArgs,
    /// Start no game after this many (the server goes on serving).
    #[arg(long, help_heading = GAMES, value_name = "N", value_parser = crate::cli::games_arg)]
    pub max_games: Option<usize>,
    /// Seconds a fresh engine has to answer `umiok`.
    #[arg(long, help_heading = TIMEOUTS, default_value_t = 30.0, value_parser = crate::cli::seconds_arg)]
    pub startup_timeout: f64,
    /// Seconds to wait for each `readyok`.
    #[arg(long, help_heading = TIMEOUTS, default_value_t = 10.0, value_parser = crate::cli::seconds_arg)]
    pub ready_timeout: f64,
    /// Adjudicate a draw after this many plies (default 5000; 0: never).
    #[arg(long, help_heading = GAMES, value_name = "PLIES")]
    pub max_plies: Option<u32>,
    /// Directory for the house bots' stderr logs (default: discarded).
    #[arg(long, help_heading = HOUSE, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// The most connections to `/umi` one bot may have open at once (the
    /// most games it plays at once).
    #[arg(long, help_heading = REMOTE, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub max_connections: u16,
    /// Seconds a bot whose connection dropped mid-game has to come back
    /// (its clock running) before the game is lost by disconnect; 0: none.
    #[arg(long, help_heading = REMOTE, value_name = "SECONDS", default_value_t = 5.0, value_parser = grace_arg)]
    pub remote_grace: f64,
    /// Conformance checks over a new bot's (or new version's) first
    /// connection before it is paired: handshake, isready, legal moves from
    /// a few positions, stop, a game against a random mover (docs/arena.md,
    /// "Admission"); `off`: none (house bots are never checked).
    #[arg(long, help_heading = REMOTE, value_name = "on|off", default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub admission: bool,
    /// Seconds after a failed admission before the version is checked
    /// again (its connections are refused until then, told why).
    #[arg(long, help_heading = REMOTE, value_name = "SECONDS", default_value_t = 60.0, value_parser = crate::cli::seconds_arg)]
    pub admission_retry: f64,
    /// Show the games in progress this many plies behind on the pages and
    /// in the live JSON (`/live`, `/ws/live`, `/api/live/snapshot`), without
    /// the engines' searches, so that a bot's author cannot read its game
    /// while it plays; a finished game is shown whole. 0: as played.
    #[arg(long, help_heading = PAGES, value_name = "PLIES", default_value_t = 0)]
    pub spectator_delay: u32,
    /// The longest a bot with a free slot waits for a busy opponent it has
    /// met less (pairing rule 3) before it may meet a free bot again, so
    /// that slots do not stand idle; for pools that want their slots full
    /// more than an even spread. Default: as long as that game lasts.
    #[arg(long, help_heading = GAMES, value_name = "SECONDS", value_parser = crate::cli::seconds_arg)]
    pub pairing_wait: Option<f64>,
    /// The most games an hour two house bots play each other: a pair of
    /// games (colours swapped) every 2/N hours; and they start a new pair
    /// only while no other bot of the pool is free to play them.
    #[arg(long, help_heading = HOUSE, value_name = "N", default_value_t = arbiter_arena::pace::HOUSE_RATE, value_parser = house_rate_arg, allow_negative_numbers = true)]
    pub house_rate: u32,
    /// At a first SIGTERM or SIGINT the server starts no game and lets the
    /// games in progress finish for at most this many seconds (then they
    /// are aborted), and exits 0; a second signal stops at once. Default:
    /// until each game's clocks (as of its last move, and 5 s) run out, at
    /// most 600; 0: abort at once.
    #[arg(long, help_heading = STOPPING, value_name = "SECONDS", value_parser = arbiter_core::shutdown::drain_arg)]
    pub drain: Option<f64>,
}

#[derive(Subcommand)]
pub enum BotCommand {
    /// Add a bot; prints its token alone on the last line (shown only now).
    Add {
        name: String,
        /// The arena's database (created if there is none).
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
    /// Revoke a bot's token: it is refused from now on (its games stay).
    Revoke {
        name: String,
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
    /// List the bots (name, added, revoked, anchor).
    List {
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
    /// Make a bot an anchor: its rating is held at RATING in every pool it
    /// plays in, everyone else's fitted around it (a bot without a game
    /// yet is held once it plays). Setting it again replaces the value.
    Anchor {
        name: String,
        /// Elo, from -5000 to 5000.
        #[arg(allow_negative_numbers = true, value_parser = rating_arg)]
        rating: f64,
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
    /// Remove a bot's anchor: its rating is fitted like anyone's again.
    Unanchor {
        name: String,
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
}

/// An anchor's rating (arbiter_arena::anchors).
fn rating_arg(text: &str) -> Result<f64, String> {
    anchors::parse_rating(text).map_err(|e| e.to_string())
}

/// `on` or `off`.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{text:?}: give on or off")),
    }
}

/// `--house-rate`: games an hour, from 1 to 1000000.
fn house_rate_arg(text: &str) -> Result<u32, String> {
    match text.trim().parse::<i64>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n as u32),
        Ok(n) => Err(format!(
            "{n} games an hour: give 1 to 1000000 (to stop the house bots' games with each \
             other, run one house bot)"
        )),
        Err(_) => Err(format!(
            "{text:?} is not a number of games an hour (1 to 1000000)"
        )),
    }
}

/// `--remote-grace`: seconds, 0 allowed (no grace).
fn grace_arg(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(0.0) => Ok(0.0),
        _ => crate::cli::seconds_arg(text),
    }
}

/// Runs `arbiter arena …`; returns the exit status.
pub async fn main(args: ArenaArgs, trigger: ShutdownTrigger) -> Result<i32, CliError> {
    match args.command {
        ArenaCommand::Run(args) => run(*args, trigger).await.map(|()| 0),
        ArenaCommand::Bot { command } => bot(command).map(|()| 0),
        ArenaCommand::Event { command } => event(command).map(|()| 0),
        ArenaCommand::Prune(args) => prune(args).map(|()| 0),
        ArenaCommand::Export {
            db,
            pool,
            event,
            jsonout,
            pgnout,
        } => {
            let conn = db::open_existing(&db)?;
            let (n, what) = match (event, pool) {
                (Some(id), _) => {
                    let Some(e) = events::get(&conn, id)? else {
                        return Err(CliError::Failed(format!(
                            "no event {id} in {} (`arbiter arena event list --db {}` lists them)",
                            db.display(),
                            db.display()
                        )));
                    };
                    let records = events::records(&conn, id)?;
                    let what = format!("event {id} ({} of pool {})", e.format, e.pool);
                    store::write_records(&records, &what, &jsonout, pgnout.as_deref())?;
                    (records.len(), what)
                }
                (None, Some(pool)) => (
                    store::export(&conn, &pool, &jsonout, pgnout.as_deref())?,
                    format!("pool {pool}"),
                ),
                (None, None) => {
                    return Err(CliError::Usage("give --pool NAME or --event ID".into()))
                }
            };
            println!(
                "arbiter: {n} game(s) of {what} written to {}",
                jsonout.display()
            );
            Ok(0)
        }
    }
}

/// `arena prune`, with the server stopped (it holds the pools' tallies).
fn prune(args: PruneArgs) -> Result<(), CliError> {
    let before = arbiter_arena::prune::parse_before(&args.before)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let _lock = db::ServerLock::take(&args.db)
        .map_err(|e| CliError::Failed(format!("{e}; stop it before `arena prune`")))?;
    let mut conn = db::open_existing(&args.db)?;
    let between = if args.between.is_empty() {
        None
    } else {
        if args.between.len() < 2 {
            return Err(CliError::Usage(format!(
                "--between {}: give at least two bots (the games between two of them go)",
                args.between.join(" ")
            )));
        }
        let known: std::collections::BTreeSet<String> =
            bots::list(&conn)?.into_iter().map(|b| b.name).collect();
        if let Some(unknown) = args.between.iter().find(|b| !known.contains(*b)) {
            return Err(CliError::Usage(format!(
                "--between {unknown}: no such bot in {} (`arena bot list` lists them)",
                args.db.display()
            )));
        }
        Some(args.between.iter().cloned().collect())
    };
    let size = |p: &PathBuf| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let was = size(&args.db);
    let gone = arbiter_arena::prune::prune(&mut conn, &before, between.as_ref())?;
    arbiter_arena::prune::compact(&conn)?;
    println!(
        "arbiter: {} finished and {} aborted game(s) before {before} removed; their results \
         stay in the ratings; {} is {} KB (was {} KB)",
        gone.finished,
        gone.aborted,
        args.db.display(),
        size(&args.db) / 1024,
        was / 1024
    );
    Ok(())
}

fn event(command: EventCommand) -> Result<(), CliError> {
    match command {
        EventCommand::Add {
            db,
            pool,
            format,
            rounds,
            at,
        } => {
            let at = events::parse_at_now(&at).map_err(|e| CliError::Usage(e.to_string()))?;
            let conn = db::open_existing(&db)?;
            let id = events::add(
                &conn,
                &events::NewEvent {
                    pool: pool.clone(),
                    format,
                    rounds,
                    at: at.clone(),
                },
            )?;
            let known = store::pools_with_games(&conn)?;
            if !known.is_empty() && !known.contains(&pool) {
                eprintln!(
                    "arbiter: warning: pool {pool} has no game in this database yet (pools with \
                     games: {}); the server cancels the event if it serves no such pool",
                    known.join(", ")
                );
            }
            println!(
                "arbiter: event {id} scheduled: a {format} of {rounds} round(s) in pool {pool} \
                 at {at}, among the bots connected then"
            );
            println!("{id}");
        }
        EventCommand::Cancel { id, db } => {
            let conn = db::open_existing(&db)?;
            let was = events::withdraw(&conn, id)?;
            println!("arbiter: event {id} ({was}) cancelled");
        }
        EventCommand::List { db } => {
            let conn = db::open_existing(&db)?;
            for e in events::list(&conn)? {
                let mut line = format!(
                    "{}\t{}\t{}\t{} round(s)\t{}\t{}",
                    e.id, e.pool, e.format, e.rounds, e.at, e.state
                );
                if !e.players.is_empty() {
                    line.push_str(&format!("\t{} bots", e.players.len()));
                }
                if let Some(note) = &e.note {
                    line.push_str(&format!("\t{note}"));
                }
                println!("{line}");
            }
        }
    }
    Ok(())
}

fn bot(command: BotCommand) -> Result<(), CliError> {
    match command {
        BotCommand::Add { name, db } => {
            bots::check_name(&name).map_err(|e| CliError::Usage(e.to_string()))?;
            let conn = db::open(&db)?;
            let token = bots::add(&conn, &name)?;
            println!("arbiter: bot {name} added; its token (shown only now, keep it secret):");
            println!("{token}");
        }
        BotCommand::Revoke { name, db } => {
            let conn = db::open_existing(&db)?;
            bots::revoke(&conn, &name)?;
            println!("arbiter: bot {name} revoked: its token is refused from now on");
        }
        BotCommand::List { db } => {
            let conn = db::open_existing(&db)?;
            let anchored = anchors::all(&conn)?;
            for b in bots::list(&conn)? {
                let mut line = format!("{}\tadded {}", b.name, b.created);
                if let Some(when) = b.revoked {
                    line.push_str(&format!("\trevoked {when}"));
                }
                if let Some(r) = anchored.get(&b.name) {
                    line.push_str(&format!("\tanchor {r}"));
                }
                println!("{line}");
            }
        }
        BotCommand::Anchor { name, rating, db } => {
            let conn = db::open_existing(&db)?;
            anchors::set(&conn, &name, rating)?;
            println!(
                "arbiter: bot {name} is an anchor: its rating is held at {rating} \
                 (a running arena applies it at its next recomputation)"
            );
        }
        BotCommand::Unanchor { name, db } => {
            let conn = db::open_existing(&db)?;
            anchors::clear(&conn, &name)?;
            println!("arbiter: bot {name} is no anchor now: its rating is fitted");
        }
    }
    Ok(())
}

impl ArenaArgs {
    /// Whether the command is the long-running server (`run`), which drains
    /// at a first signal (arbiter_core::shutdown).
    pub fn is_server(&self) -> bool {
        matches!(&self.command, ArenaCommand::Run(_))
    }

    /// Whether the command starts engine processes (`run`, with house bots).
    pub fn runs_engines(&self) -> bool {
        matches!(&self.command, ArenaCommand::Run(r) if !r.house.is_empty())
    }
}

/// `arena run`: serves until `trigger` drains (the first signal), then
/// drains by its own `--drain` deadline (moving `trigger` on to a stop at
/// once when it runs out).
async fn run(args: RunArgs, trigger: ShutdownTrigger) -> Result<(), CliError> {
    let shutdown = trigger.shutdown();
    // First the lock: a second server on the database refuses before anything.
    let _lock = db::ServerLock::take(&args.db)?;
    // why two codes: a pools file that cannot be read is a run-time
    // failure (1), one that is no pools file a usage error (2): the exit
    // statuses of docs/arbiter.md.
    let pools = pools::load(&args.pools).map_err(|e| match e {
        pools::PoolsError::Unreadable(m) => CliError::Failed(m),
        pools::PoolsError::Invalid(m) => CliError::Usage(m),
    })?;
    let house_bots = args
        .house
        .iter()
        .map(|h| house::parse(h))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    {
        let conn = db::open(&args.db)?;
        for b in &house_bots {
            // why 1: the database has no such bot (a run-time failure, as
            // for every admin command), not a wrong command line.
            if !bots::is_active(&conn, &b.spec.name)? {
                return Err(CliError::Failed(format!(
                    "house bot {name}: not a bot of this arena (or revoked): add it with \
                     `arbiter arena bot add {name} --db {db}`",
                    name = b.spec.name,
                    db = args.db.display()
                )));
            }
        }
    }
    let house_anchors: Vec<(String, f64)> = house_bots
        .iter()
        .filter_map(|b| Some((b.spec.name.clone(), b.anchor?)))
        .collect();
    if let Some(dir) = &args.stderr_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("cannot create {}: {e}", dir.display())))?;
    }
    let secs = Duration::from_secs_f64;
    let house = Arc::new(house::House::new(
        house_bots,
        arbiter_arena::lobby::TokenCheck::open(&args.db)?,
        secs(args.startup_timeout),
        args.stderr_dir.clone(),
    ));
    let timeouts = arbiter_core::play::game::Timeouts {
        ready: secs(args.ready_timeout),
        ..arbiter_core::play::game::Timeouts::default()
    };
    // The house check: a wrong option is the command line's (2), an
    // engine that cannot start or answer a failure (1); never a lost game.
    let arrivals = house.arrivals(&pools, timeouts).await?;
    // why after every check: a refused start changes no anchor.
    if !house_anchors.is_empty() {
        let conn = db::open(&args.db)?;
        for (name, rating) in &house_anchors {
            anchors::set(&conn, name, *rating)?;
            tracing::info!("house bot {name} is an anchor at {rating}");
        }
    }
    let config = server::Config {
        pools,
        timeouts,
        max_plies: match args.max_plies {
            None => Some(crate::cli::DEFAULT_MAX_PLIES),
            Some(0) => None,
            Some(n) => Some(n),
        },
        backoff: arbiter_arena::backoff::Policy::default(),
        rating_interval: Duration::from_millis(500),
        max_games: args.max_games.map(|n| n as u64),
        spectator_delay: args.spectator_delay,
        pairing_wait: args.pairing_wait.map(Duration::from_secs_f64),
        house: house.names(),
        house_rate: args.house_rate,
    };
    // The lobby: the house bots arrive at once, the remote bots as they
    // connect (the sender stays open for the server's life).
    let (lobby, events) = tokio::sync::mpsc::channel(256);
    let limits = arbiter_net::remote::Limits::default();
    let remote = RemoteBots::start(
        &args.db,
        config.pools.clone(),
        house.names(),
        RemoteSettings {
            handshake: secs(args.startup_timeout),
            grace: secs(args.remote_grace),
            write_timeout: limits.write_timeout,
            max_connections: usize::from(args.max_connections),
            admission: args
                .admission
                .then(|| arbiter_arena::remote::AdmissionRule {
                    limits: arbiter_core::play::admission_checks::Limits {
                        ready: secs(args.ready_timeout),
                        ..Default::default()
                    },
                    retry: secs(args.admission_retry),
                }),
        },
        lobby.clone(),
    )?;
    let seats = Arc::new(BothSeats {
        house: Arc::clone(&house),
        remote: Arc::clone(&remote),
    });
    let arena = server::Arena::open(config, args.db.clone(), seats, shutdown.clone())?;
    let web_arena = Arc::clone(&arena);
    let endpoint = arbiter_net::remote::endpoint::Endpoint {
        registry: Arc::clone(&remote.registry),
        limits,
    };
    // why one endpoint for both transports: one token check and one
    // greeting limit, shared by address over TCP and WebSocket.
    let kgp = Arc::new(arbiter_net::remote::kgp::KgpEndpoint::new(
        Arc::clone(&remote.registry),
        arbiter_net::remote::kgp::Speakers::Any,
        limits,
    ));
    let kgp_tcp = match args.kgp_listen {
        Some(addr) => Some(
            arbiter_net::remote::kgp::listen(addr, Arc::clone(&kgp))
                .await
                .map_err(|e| {
                    CliError::Failed(format!("--kgp-listen {addr}: cannot listen: {e}"))
                })?,
        ),
        None => None,
    };
    // One server: the pages, the JSON, /live, /replay and the bots' /umi.
    let tls = args.tls.load()?;
    let site = arbiter_net::front::server::Server::bind_tls(
        args.listen,
        &args.allow_host,
        tls,
        move |allowed| {
            arbiter_arena::web::router(web_arena, allowed)
                .merge(arbiter_net::remote::endpoint::umi(endpoint))
                .merge(arbiter_net::remote::kgp::websocket(kgp))
        },
    )
    .await
    .map_err(|e| CliError::Failed(format!("cannot listen on {}: {e}", args.listen)))?
    .with_nodelay();
    // why one line: scripts read the address from the first line.
    println!("arbiter: arena at {}arena", site.url());
    // why the same words as `arbiter match`: scripts and tests read it.
    let kgp_ws = format!("{}kgp", site.url().replacen("http", "ws", 1));
    match kgp_tcp {
        Some(tcp) => println!("arbiter: KGP bots connect to tcp://{tcp} or {kgp_ws}"),
        None => println!("arbiter: KGP bots connect to {kgp_ws}"),
    }
    tokio::spawn(async move {
        if let Err(e) = site.run(std::future::pending()).await {
            tracing::error!("the arena's pages stopped: {e}");
        }
    });
    for ev in arrivals {
        let _ = lobby.send(ev).await;
    }
    let _lobby = lobby;
    let run = Arc::clone(&arena).run(events);
    tokio::pin!(run);
    tokio::select! {
        () = &mut run => {}
        () = shutdown.draining() => {
            drain(&arena, &remote, args.drain.map(secs), run, &trigger).await;
        }
    }
    house.shutdown().await;
    Ok(())
}

/// The drain (arbiter_core::shutdown): no new game, the bots told (each
/// connection closed, with the reason, when it is idle), the games in
/// progress finished up to the deadline, then the ones left aborted.
async fn drain(
    arena: &Arc<server::Arena>,
    remote: &Arc<RemoteBots>,
    deadline: Option<Duration>,
    run: std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
    trigger: &ShutdownTrigger,
) {
    arena.stop_pairing();
    // why a task: closing a connection tells the lobby, which `run` reads;
    // awaited here, a full lobby would wait for a `run` not polled.
    let remote = Arc::clone(remote);
    let told = tokio::spawn(async move { remote.stop("server stopping").await });
    let n = arena.playing().len();
    let started = tokio::time::Instant::now();
    match deadline {
        Some(d) => eprintln!(
            "arbiter: the arena is stopping: {n} game(s) in progress finish (at most {:.0} s, --drain)",
            d.as_secs_f64()
        ),
        None => {
            let by = arbiter_core::shutdown::over_by(
                &arena.in_progress(),
                started,
                started + arbiter_core::shutdown::MAX_DRAIN,
            );
            eprintln!(
                "arbiter: the arena is stopping: {n} game(s) in progress finish (by their clocks, \
                 about {:.0} s now, at most {} s)",
                (by - started).as_secs_f64(),
                arbiter_core::shutdown::MAX_DRAIN.as_secs()
            );
        }
    }
    let cut = async {
        match deadline {
            Some(d) => tokio::time::sleep(d).await,
            None => arbiter_core::shutdown::clocks_run_out(|| arena.in_progress()).await,
        }
    };
    let stopped = trigger.shutdown();
    tokio::select! {
        () = run => eprintln!("arbiter: the games in progress finished; the arena stopped"),
        () = cut => {
            // why now first: a game that ends from here on is aborted.
            trigger.now();
            let aborted = arena.abort_playing();
            arbiter_core::contender::process::kill_all_engines();
            eprintln!(
                "arbiter: the drain's {:.0} s ran out: {aborted} game(s) aborted (counted nowhere)",
                started.elapsed().as_secs_f64()
            );
        }
        // A second signal: cli::main kills the engines and exits.
        () = stopped.now() => std::future::pending().await,
    }
    // why: the process exits when this returns; an idle bot not yet told
    // `server stopping` would see its connection cut without a reason.
    let _ = tokio::time::timeout(Duration::from_secs(5), told).await;
}
