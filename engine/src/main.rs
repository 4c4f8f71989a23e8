//! The `engine` binary: the UMI protocol on stdin/stdout by default, plus
//! `perft` and `bench` subcommands.

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
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
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
