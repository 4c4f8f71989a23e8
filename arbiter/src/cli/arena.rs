//! `arbiter arena`: the standing arena's server and its admin commands
//! (docs/arena.md).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::arena::{bots, db, store};
use crate::cli::UsageError;

#[derive(Args)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub command: ArenaCommand,
}

#[derive(Subcommand)]
pub enum ArenaCommand {
    /// Add, revoke or list bots.
    Bot {
        #[command(subcommand)]
        command: BotCommand,
    },
    /// Write a pool's finished games as JSON lines (and PGN), as
    /// `arbiter verify` and `arbiter merge` read them.
    Export {
        /// The arena's database.
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        /// The pool's name.
        #[arg(long, value_name = "NAME")]
        pool: String,
        #[arg(long, value_name = "FILE")]
        jsonout: PathBuf,
        #[arg(long, value_name = "FILE")]
        pgnout: Option<PathBuf>,
    },
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
    /// List the bots (name, added, revoked).
    List {
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
    },
}

/// Runs `arbiter arena …`; returns the exit status.
pub async fn main(args: ArenaArgs) -> Result<i32, UsageError> {
    match args.command {
        ArenaCommand::Bot { command } => bot(command).map(|()| 0),
        ArenaCommand::Export {
            db,
            pool,
            jsonout,
            pgnout,
        } => {
            let conn = db::open_existing(&db)?;
            let n = store::export(&conn, &pool, &jsonout, pgnout.as_deref())?;
            println!(
                "arbiter: {n} game(s) of pool {pool} written to {}",
                jsonout.display()
            );
            Ok(0)
        }
    }
}

fn bot(command: BotCommand) -> Result<(), UsageError> {
    match command {
        BotCommand::Add { name, db } => {
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
            for b in bots::list(&conn)? {
                match b.revoked {
                    Some(when) => println!("{}\tadded {}\trevoked {when}", b.name, b.created),
                    None => println!("{}\tadded {}", b.name, b.created),
                }
            }
        }
    }
    Ok(())
}

impl ArenaArgs {
    /// Whether the command starts engine processes (none of these do).
    pub fn runs_engines(&self) -> bool {
        false
    }
}
