//! Building a database directory: whole layers in order (resumable: a layer
//! whose file is present and checks is kept), or one index range of a layer
//! (a shard, for batch arrays) and the join of a layer's shards.

use std::fs;
use std::path::Path;

use mancala_rules::GameId;

use crate::file::{self, layer_path, shard_path};
use crate::index::{layer_size, MAX_BEANS};
use crate::solve::{self, Bounds, Pass, Solved};

/// What a build reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// Before anything is built: the memory the build will hold at its
    /// largest (the layers below the top one, and the top one's work).
    Memory { bytes: u64 },
    /// A layer file was present and checked: not rebuilt.
    Kept { beans: usize, path: &'a Path },
    /// Work on a layer (or a shard of it) starts: `boards` indices to do.
    Start { beans: usize, boards: u64 },
    /// Boards done in the current pass.
    Progress { pass: Pass, done: u64 },
    /// A layer file was written.
    Written {
        beans: usize,
        flagged: usize,
        path: &'a Path,
    },
    /// A shard file was written.
    ShardWritten { path: &'a Path },
}

pub type Report<'a> = &'a mut dyn FnMut(Event);

fn check_game(game: GameId) -> Result<(), String> {
    if file::supported(game) {
        Ok(())
    } else {
        Err(format!(
            "no database for {game}: only bohnenspiel, bohnenspiel-hemprich and kalah"
        ))
    }
}

fn check_beans(beans: usize) -> Result<(), String> {
    if beans <= MAX_BEANS {
        Ok(())
    } else {
        Err(format!(
            "{beans} beans: the board holds at most {MAX_BEANS}"
        ))
    }
}

fn solve_game(game: GameId, n: usize, lower: &[Solved], threads: usize, report: Report) -> Solved {
    if game == GameId::Kalah {
        let below: Vec<&[i8]> = lower.iter().map(|l| &l.values[..]).collect();
        let mut progress = |done| {
            report(Event::Progress {
                pass: Pass::Values,
                done,
            })
        };
        return Solved {
            beans: n,
            values: crate::kalah::solve::solve(n, &below, threads, &mut progress),
            flagged: Vec::new(),
        };
    }
    let mut progress = |pass, done| report(Event::Progress { pass, done });
    if game == GameId::BohnenspielHemprich {
        solve::solve::<true>(n, lower, threads, &mut progress)
    } else {
        solve::solve::<false>(n, lower, threads, &mut progress)
    }
}

/// The threads a build uses when asked for none in particular: the CPUs
/// this process may run on (a batch task's allocation).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The bytes a one-process build up to `max_beans` holds at its largest:
/// every layer below the top one, one byte a board, and the top one's work
/// (Kalah: its values, one byte a board; Bohnenspiel: exits and both bounds,
/// three).
pub fn memory(game: GameId, max_beans: usize) -> u64 {
    let below: u64 = (0..max_beans).map(layer_size).sum();
    let per_board = if game == GameId::Kalah { 1 } else { 3 };
    below + per_board * layer_size(max_beans)
}

const GIB: f64 = (1u64 << 30) as f64;

/// The memory the system can still give (`MemAvailable`), if known.
fn available_bytes() -> Option<u64> {
    let info = fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Kalah layers are built whole: one pass, no bound iteration to share out.
fn check_sharded(game: GameId) -> Result<(), String> {
    if game == GameId::Kalah {
        Err(
            "kalah layers are built whole (one pass, no bound iteration): \
             use --max-beans, not --layer, --shard or join"
                .into(),
        )
    } else {
        Ok(())
    }
}

/// Loads a present layer, or `None` when its file is missing or does not
/// check (then it is rebuilt).
fn kept(game: GameId, path: &Path, beans: usize) -> Option<Solved> {
    match file::read_layer(path) {
        Ok((g, layer)) if g == game && layer.beans == beans => Some(layer),
        Ok(_) => {
            tracing::warn!("{}: another game or layer; rebuilding it", path.display());
            None
        }
        Err(e) => {
            if path.exists() {
                tracing::warn!("{e}; rebuilding it");
            }
            None
        }
    }
}

/// Every layer `0..=max_beans` of `game` into `dir`, each on `threads`
/// threads (the files do not depend on how many).
pub fn build(
    game: GameId,
    max_beans: usize,
    dir: &Path,
    threads: usize,
    report: Report,
) -> Result<(), String> {
    check_game(game)?;
    check_beans(max_beans)?;
    if game == GameId::Kalah && max_beans > 48 {
        return Err(format!("{max_beans} seeds: a kalah board holds at most 48"));
    }
    let bytes = memory(game, max_beans);
    report(Event::Memory { bytes });
    if let Some(available) = available_bytes().filter(|&a| bytes > a) {
        return Err(format!(
            "layers up to {max_beans} need {:.2} GiB in memory, but only {:.2} GiB are available \
             (MemAvailable in /proc/meminfo): ask for fewer seeds",
            bytes as f64 / GIB,
            available as f64 / GIB
        ));
    }
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut layers = Vec::with_capacity(max_beans + 1);
    for n in 0..=max_beans {
        let path = layer_path(dir, game, n);
        if let Some(layer) = kept(game, &path, n) {
            report(Event::Kept {
                beans: n,
                path: &path,
            });
            layers.push(layer);
            continue;
        }
        report(Event::Start {
            beans: n,
            boards: layer_size(n),
        });
        let layer = solve_game(game, n, &layers, threads, report);
        file::write_layer(&path, game, &layer).map_err(|e| format!("{}: {e}", path.display()))?;
        report(Event::Written {
            beans: n,
            flagged: layer.flagged.len(),
            path: &path,
        });
        layers.push(layer);
    }
    Ok(())
}

/// The index range of shard `number` of `of` in layer `beans`.
pub fn shard_range(beans: usize, number: u32, of: u32) -> (u64, u64) {
    let size = u128::from(layer_size(beans));
    let at = |i: u32| (size * u128::from(i) / u128::from(of)) as u64;
    (at(number), at(number + 1))
}

fn lower_layers(game: GameId, beans: usize, dir: &Path) -> Result<Vec<Solved>, String> {
    (0..beans)
        .map(|n| {
            let path = layer_path(dir, game, n);
            let (g, layer) =
                file::read_layer(&path).map_err(|e| format!("layer {n} is needed first: {e}"))?;
            if g != game || layer.beans != n {
                return Err(format!("{}: not layer {n} of {game}", path.display()));
            }
            Ok(layer)
        })
        .collect()
}

/// Shard `number` of `of` of layer `beans`: needs the layers below in `dir`.
pub fn build_shard(
    game: GameId,
    beans: usize,
    number: u32,
    of: u32,
    dir: &Path,
    threads: usize,
    report: Report,
) -> Result<(), String> {
    check_game(game)?;
    check_sharded(game)?;
    check_beans(beans)?;
    if of == 0 || number >= of {
        return Err(format!(
            "shard {number}/{of}: shards are numbered 0 to k-1 of k"
        ));
    }
    let lower = lower_layers(game, beans, dir)?;
    let (start, end) = shard_range(beans, number, of);
    report(Event::Start {
        beans,
        boards: end - start,
    });
    let mut progress = |pass, done| report(Event::Progress { pass, done });
    let bounds = if game == GameId::BohnenspielHemprich {
        solve::shard::<true, _>(beans, start, end, &lower[..], threads, &mut progress)
    } else {
        solve::shard::<false, _>(beans, start, end, &lower[..], threads, &mut progress)
    };
    let path = shard_path(dir, game, beans, number, of);
    file::write_shard(&path, game, number, of, &bounds)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    report(Event::ShardWritten { path: &path });
    Ok(())
}

/// Joins the `of` shards of layer `beans` into its layer file (the bound
/// passes on `threads` threads), then removes the shard files.
pub fn join(
    game: GameId,
    beans: usize,
    of: u32,
    dir: &Path,
    threads: usize,
    report: Report,
) -> Result<(), String> {
    check_game(game)?;
    check_sharded(game)?;
    check_beans(beans)?;
    // One shard in memory at a time beside the joined bounds.
    let mut joined: Option<Bounds> = None;
    let mut paths = Vec::new();
    for number in 0..of {
        let path = shard_path(dir, game, beans, number, of);
        let (header, bounds) = file::read_shard(&path)?;
        let expected = shard_range(beans, number, of);
        if header.game != game || (bounds.start, bounds.end()) != expected {
            return Err(format!(
                "{}: not shard {number}/{of} of layer {beans} of {game}",
                path.display()
            ));
        }
        match &mut joined {
            None => {
                let mut first = bounds;
                first.reserve(layer_size(beans) as usize);
                joined = Some(first);
            }
            Some(all) => all.append(bounds)?,
        }
        paths.push(path);
    }
    let bounds = joined.ok_or("no shards to join")?;
    report(Event::Start {
        beans,
        boards: layer_size(beans),
    });
    let mut progress = |pass, done| report(Event::Progress { pass, done });
    let layer = if game == GameId::BohnenspielHemprich {
        solve::finish::<true>(bounds, threads, &mut progress)?
    } else {
        solve::finish::<false>(bounds, threads, &mut progress)?
    };
    let path = layer_path(dir, game, beans);
    file::write_layer(&path, game, &layer).map_err(|e| format!("{}: {e}", path.display()))?;
    report(Event::Written {
        beans,
        flagged: layer.flagged.len(),
        path: &path,
    });
    for p in paths {
        fs::remove_file(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}
