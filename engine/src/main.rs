//! The `engine` binary: the UMI protocol on stdin/stdout by default, plus
//! `perft`, `bench` and `openings` subcommands.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mancala_rules::{divide_str, GameId};

#[derive(Parser)]
#[command(
    name = "engine",
    version,
    about = "The reference mancala engine (UMI protocol on stdin/stdout)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree, split by root move.
    Perft {
        /// A position string, e.g. "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1".
        position: String,
        depth: u32,
    },
    /// Measure rules and search speed per game (release build, one thread).
    Bench {
        /// Seconds per measurement (above 0, at most 3600).
        #[arg(long, default_value_t = 1.0, value_parser = engine::bench::seconds_arg)]
        seconds: f64,
        /// Only these games (default: all).
        #[arg(long = "game")]
        games: Vec<String>,
    },
    /// Print a balanced opening suite: positions a few random plies from the
    /// start that a fixed-depth search scores near even.
    Openings {
        #[arg(long)]
        game: GameId,
        /// Random plies from the start.
        #[arg(long, default_value_t = 2)]
        plies: u32,
        /// Positions wanted.
        #[arg(long, default_value_t = 64)]
        count: usize,
        /// Depth of the scoring search.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Largest |score| kept, centi-seeds.
        #[arg(long, default_value_t = 100)]
        window: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solve a Kalah position exactly: its value (the final margin for the
    /// side to move, stores included) and the value of every legal move;
    /// JSON on the last line.
    Solve {
        /// A kalah or kalah-6x6 position string, e.g. "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0".
        position: String,
        /// The game the position must be of (default: the position's own id).
        #[arg(long)]
        game: Option<GameId>,
        /// Transposition table size in MB (refused when more than the memory available).
        #[arg(long, value_name = "MB", default_value_t = 1024)]
        hash: u64,
        /// Search threads (default: the CPUs this process may use).
        #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// A directory of Kalah endgame databases (engine tb build --game kalah) probed below the search.
        #[arg(long, value_name = "DIR")]
        tb: Option<std::path::PathBuf>,
        /// Turn the enhanced transposition cutoffs off (to measure them).
        #[arg(long)]
        no_etc: bool,
    },
    /// The Kalah opening book: build it (the exact value of every move of the
    /// first plies' positions).
    Book {
        #[command(subcommand)]
        command: engine::book::BookCommand,
    },
    /// Endgame databases (Bohnenspiel, Kalah): build, join, probe, verify.
    Tb {
        #[command(subcommand)]
        command: engine::tb::TbCommand,
    },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    if let Err(e) = engine::eval::pits::check_env() {
        eprintln!("engine: {e}");
        return ExitCode::from(2);
    }
    match cli.command {
        None => {
            engine::umi::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Command::Perft { position, depth }) => match divide_str(&position, depth) {
            Ok(rows) => {
                // why: the empty tree below depth 0 still has its root as a leaf.
                let mut total = u64::from(depth == 0);
                for (mv, n) in rows {
                    println!("{mv}: {n}");
                    total += n;
                }
                println!("nodes {total}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("engine perft: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Openings {
            game,
            plies,
            count,
            depth,
            window,
            seed,
        }) => {
            let spec = engine::openings::SuiteSpec {
                game,
                plies,
                count,
                depth,
                window,
                seed,
            };
            let suite = engine::openings::suite(&spec);
            print!("{}", engine::openings::render(&spec, &suite));
            if suite.len() < count {
                eprintln!(
                    "engine openings: found {} of {count} positions within ±{window}",
                    suite.len()
                );
            }
            ExitCode::SUCCESS
        }
        Some(Command::Tb { command }) => engine::tb::run(command),
        Some(Command::Book { command }) => engine::book::run(command),
        Some(Command::Solve {
            position,
            game,
            hash,
            threads,
            tb,
            no_etc,
        }) => {
            let request = engine::solve::Request {
                position,
                game,
                hash_mb: hash,
                threads: threads
                    .map_or_else(mancala_tablebase::build::default_threads, usize::from),
                tb,
                etc: !no_etc,
            };
            let mut progress = |mv: u8, v: i32| eprintln!("move {mv}: {v}");
            match engine::solve::solve(&request, &mut progress) {
                Ok(s) => {
                    for (mv, v) in &s.moves {
                        println!("move {mv}: {v:+}");
                    }
                    println!("value {:+}", s.value);
                    println!("{}", s.json());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("engine solve: {e}");
                    ExitCode::from(e.status())
                }
            }
        }
        Some(Command::Bench { seconds, games }) => {
            let ids: Result<Vec<GameId>, _> = if games.is_empty() {
                Ok(GameId::ALL.to_vec())
            } else {
                games.iter().map(|g| g.parse()).collect()
            };
            match ids {
                Ok(ids) => {
                    print!(
                        "{}",
                        engine::bench::table(&engine::bench::run(&ids, seconds))
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("engine bench: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}
