//! `engine tb`: build, join, probe and verify endgame databases (Bohnenspiel, Kalah)
//! (crate `mancala-tablebase`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use mancala_rules::GameId;
use mancala_tablebase::build::{self, Event};
use mancala_tablebase::solve::Pass;
use mancala_tablebase::Tablebase;

#[derive(Subcommand)]
pub enum TbCommand {
    /// Build every layer up to --max-beans (resumable: layers present and
    /// checked are kept), or with --layer one layer, or one shard of it.
    Build {
        #[arg(long)]
        game: GameId,
        /// Every layer 0..=N (--beans is the same).
        #[arg(
            long,
            visible_alias = "beans",
            conflicts_with = "layer",
            required_unless_present = "layer"
        )]
        max_beans: Option<usize>,
        /// Only this layer (the layers below must be in --out).
        #[arg(long)]
        layer: Option<usize>,
        /// With --layer: shard i of k (`i/k`, i from 0), joined by `engine tb join`.
        #[arg(long, requires = "layer", value_parser = shard_arg)]
        shard: Option<(u32, u32)>,
        /// The database directory (default: $MANCALA_TABLEBASE, else
        /// $XDG_DATA_HOME/mancala/tablebase, else
        /// ~/.local/share/mancala/tablebase: where the engine finds its Kalah
        /// layers when TablebasePath is empty).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Threads (default: the CPUs this process may use). The files do
        /// not depend on it.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Join the k shards of a layer into its layer file (and remove them).
    Join {
        #[arg(long)]
        game: GameId,
        #[arg(long)]
        layer: usize,
        #[arg(long)]
        shards: u32,
        #[arg(long)]
        out: PathBuf,
        /// Threads for the bound passes (default: the CPUs this process may use).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Print the exact value of a position and the moves that keep it.
    Probe {
        #[arg(long)]
        tb: PathBuf,
        /// A position string, e.g. "bohnenspiel 1,0,0,0,0,0,1,0,1,0,0,0 S 36/33".
        position: String,
    },
    /// Check every file's checksum, and with --bellman the Bellman identity
    /// on random boards of every layer (`check` is the same).
    #[command(visible_alias = "check")]
    Verify {
        #[arg(long)]
        tb: PathBuf,
        /// Boards per layer to check against the rules (every board of a
        /// layer no bigger than this); 0: checksums only.
        #[arg(long, default_value_t = 0)]
        bellman: u64,
    },
}

/// `i/k` with i < k.
fn shard_arg(s: &str) -> Result<(u32, u32), String> {
    let (i, k) = s
        .split_once('/')
        .ok_or_else(|| format!("{s:?}: expected i/k, e.g. 0/3"))?;
    let (i, k): (u32, u32) = match (i.parse(), k.parse()) {
        (Ok(i), Ok(k)) => (i, k),
        _ => return Err(format!("{s:?}: expected two numbers i/k")),
    };
    if i >= k {
        return Err(format!("{s:?}: shards are numbered 0 to k-1"));
    }
    Ok((i, k))
}

pub fn run(command: TbCommand) -> ExitCode {
    let result = match command {
        TbCommand::Build {
            game,
            max_beans,
            layer,
            shard,
            out,
            threads,
        } => {
            let t = threads_or_default(threads);
            let Some(out) = out.or_else(mancala_tablebase::file::default_dir) else {
                eprintln!("engine tb: no --out, and no default directory: HOME is not set");
                return ExitCode::from(2);
            };
            with_progress(|report| match (max_beans, layer, shard) {
                (Some(n), _, _) => build::build(game, n, &out, t, report),
                (None, Some(n), Some((i, k))) => build::build_shard(game, n, i, k, &out, t, report),
                (None, Some(n), None) => build::build_shard(game, n, 0, 1, &out, t, report)
                    .and_then(|()| build::join(game, n, 1, &out, t, report)),
                (None, None, _) => Err("--max-beans or --layer is needed".into()),
            })
        }
        TbCommand::Join {
            game,
            layer,
            shards,
            out,
            threads,
        } => {
            let t = threads_or_default(threads);
            with_progress(|report| build::join(game, layer, shards, &out, t, report))
        }
        TbCommand::Probe { tb, position } => probe(&tb, &position),
        TbCommand::Verify { tb, bellman } => verify(&tb, bellman),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engine tb: {e}");
            ExitCode::from(1)
        }
    }
}

fn threads_or_default(threads: Option<u16>) -> usize {
    threads.map_or_else(build::default_threads, usize::from)
}

/// Runs a build with a progress bar on stderr (hidden when it is not a
/// terminal) and one summary line per layer on stdout.
fn with_progress(job: impl FnOnce(build::Report) -> Result<(), String>) -> Result<(), String> {
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} boards, eta {eta}")
    {
        bar.set_style(style);
    }
    // The layer being built, when it started, and its bound passes so far.
    let mut layer = (0usize, Instant::now(), 0u32);
    // A Kalah layer: one pass, no bounds to iterate.
    let mut one_pass = false;
    let mut report = |event: Event| match event {
        Event::Memory { bytes } => {
            println!(
                "memory: {bytes} bytes ({:.2} GiB) held at the largest layer",
                bytes as f64 / f64::from(1u32 << 30)
            );
        }
        Event::Kept { beans, path } => {
            println!("layer {beans}: kept {}", path.display());
        }
        Event::Start { beans, boards } => {
            layer = (beans, Instant::now(), 0);
            bar.set_length(boards);
            bar.set_position(0);
        }
        Event::Progress { pass, done } => {
            let msg = match pass {
                Pass::Exits => format!("layer {}: captures", layer.0),
                Pass::Values => {
                    one_pass = true;
                    format!("layer {}: values", layer.0)
                }
                Pass::Bounds { number, unresolved } => {
                    layer.2 = number;
                    format!("layer {}: pass {number}, {unresolved} open", layer.0)
                }
            };
            bar.set_message(msg);
            bar.set_position(done);
        }
        Event::Written {
            beans,
            flagged,
            path,
        } => {
            let secs = layer.1.elapsed().as_secs_f64();
            let passes = if one_pass {
                "one pass".to_string()
            } else {
                format!("{} bound passes", layer.2)
            };
            bar.suspend(|| {
                println!(
                    "layer {beans}: {} boards, {flagged} flagged, {passes}, {secs:.1} s, {}",
                    mancala_tablebase::index::layer_size(beans),
                    path.display()
                )
            });
        }
        Event::ShardWritten { path } => {
            let secs = layer.1.elapsed().as_secs_f64();
            bar.suspend(|| println!("shard: {secs:.1} s, {}", path.display()));
        }
    };
    let result = job(&mut report);
    bar.finish_and_clear();
    result
}

fn probe(dir: &Path, position: &str) -> Result<(), String> {
    let tb = Tablebase::open(dir)?;
    let parse_err = |e: mancala_rules::PositionError| format!("{position:?}: {e}");
    let id = mancala_rules::position::game_id_of(position).map_err(parse_err)?;
    if matches!(id, GameId::Kalah | GameId::Kalah6x6) {
        let probe = if id == GameId::Kalah {
            tb.probe_kalah(
                &position
                    .parse::<mancala_rules::games::kalah::Kalah>()
                    .map_err(parse_err)?,
            )?
        } else {
            tb.probe_kalah(
                &position
                    .parse::<mancala_rules::games::kalah::Kalah6>()
                    .map_err(parse_err)?,
            )?
        }
        .ok_or_else(|| format!("{position}: not in the database {}", dir.display()))?;
        println!("value {}", probe.value);
        let moves: Vec<String> = probe.moves.iter().map(ToString::to_string).collect();
        println!("moves {}", moves.join(" "));
        println!("scores {}-{}", probe.scores[0], probe.scores[1]);
        println!("result {}", probe.result());
        return Ok(());
    }
    let probe = tb
        .probe_str(position)?
        .ok_or_else(|| format!("{position}: not in the database {}", dir.display()))?;
    println!("value {}", probe.value);
    let moves: Vec<String> = probe.moves.iter().map(ToString::to_string).collect();
    println!("moves {}", moves.join(" "));
    println!("scores {}-{}", probe.scores[0], probe.scores[1]);
    println!("result {}", probe.result());
    if let Some((lower, upper)) = probe.cycle {
        println!("cycle {lower} {upper}");
    }
    Ok(())
}

fn verify(dir: &Path, bellman: u64) -> Result<(), String> {
    let tb = Tablebase::open(dir)?;
    let layers = tb.verify()?;
    for &(game, beans) in &layers {
        if bellman == 0 {
            println!("ok {game} {beans}");
        } else {
            // why a seed per layer: a rerun checks the same boards.
            let checked = tb.check_bellman(game, beans, bellman, beans as u64)?;
            println!("ok {game} {beans} bellman {}", checked.boards);
        }
    }
    println!("{} files checked", layers.len());
    Ok(())
}
