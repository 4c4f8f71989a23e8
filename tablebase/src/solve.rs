//! Solving one layer: the values of every board with `n` beans, given the
//! solved layers below it.
//!
//! A capture leaves the layer (its child is exact already); a move without
//! a capture stays in it, and such moves can go round in circles, so the
//! layer is solved by iterating both bounds: every entry starts at
//! `[-n, n]` and each pass sets, for every unresolved board,
//!
//! ```text
//! lower = max(exit, max over quiet moves of -upper(child))
//! upper = max(exit, max over quiet moves of -lower(child))
//! ```
//!
//! where `exit` is the best capture (`captured - value(child)`, the child in a
//! lower layer). The update is antitone, so lower bounds only rise and upper
//! bounds only fall; passes repeat until nothing changes. The result does not
//! depend on the order of the updates nor on any valid bounds the passes
//! started from (both sequences are squeezed between the plain iteration
//! from `[-n, n]` and the fixpoints), which is why a layer built in shards
//! equals the single-process build byte for byte.
//!
//! The same argument lets the passes run on several threads at once over
//! one layer (`threads`): each thread updates its own index range and reads
//! any bounds, older or newer, of the rest; every bound it reads is valid,
//! so the fixpoints, and the file, are the same for any number of threads.
//!
//! Boards whose bounds do not meet at the fixpoints are those whose value
//! depends on how endless play is scored. They are counted and listed in the
//! file with both bounds ([`Flag`]), and valued by the cycle ruling: the
//! allocation the repetition end would make at that board itself (each side
//! takes the beans on its own side), clamped into the bounds.

use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering::Relaxed};
use std::thread;

use mancala_rules::games::bohnenspiel::BeanMove;

use crate::index::{layer_size, rank, Board, Boards};
use crate::position::{edges, end_value, repetition_value, south_to_move, Edge};

/// "No capture move": below every value.
pub const NO_EXIT: i8 = i8::MIN;

/// A board whose bounds do not meet: its index and the bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub index: u64,
    pub lower: i8,
    pub upper: i8,
}

/// A solved layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub beans: usize,
    /// One value per index.
    pub values: Vec<i8>,
    /// The boards valued by the cycle ruling, by index.
    pub flagged: Vec<Flag>,
}

/// Bounds of one index range of a layer: what a shard computes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub beans: usize,
    pub start: u64,
    /// Best capture per board ([`NO_EXIT`] if none; the end's value for a
    /// finished game).
    pub exit: Vec<i8>,
    pub lower: Vec<i8>,
    pub upper: Vec<i8>,
}

impl Bounds {
    pub fn end(&self) -> u64 {
        self.start + self.exit.len() as u64
    }

    /// Ranges of one layer, in order, joined into one.
    pub fn join(parts: Vec<Bounds>) -> Result<Bounds, String> {
        let total: usize = parts.iter().map(|p| p.exit.len()).sum();
        let mut parts = parts.into_iter();
        let mut all = parts.next().ok_or("no shards to join")?;
        all.reserve(total);
        for part in parts {
            all.append(part)?;
        }
        Ok(all)
    }

    /// Room for `total` boards in all, so that appending never reallocates
    /// (growing by doubling would hold up to twice the layer).
    pub fn reserve(&mut self, total: usize) {
        for v in [&mut self.exit, &mut self.lower, &mut self.upper] {
            v.reserve_exact(total.saturating_sub(v.len()));
        }
    }

    /// Appends the range that follows this one.
    pub fn append(&mut self, part: Bounds) -> Result<(), String> {
        if part.beans != self.beans || part.start != self.end() {
            return Err(format!(
                "shard starting at index {} of layer {} does not follow index {} of layer {}",
                part.start,
                part.beans,
                self.end(),
                self.beans
            ));
        }
        self.exit.extend(part.exit);
        self.lower.extend(part.lower);
        self.upper.extend(part.upper);
        Ok(())
    }
}

/// The solved layers below the one being built.
pub trait Lower {
    /// The value of `board` (`beans` beans), exact.
    fn value(&self, beans: usize, board: &Board) -> i8;
}

impl Lower for [Solved] {
    fn value(&self, beans: usize, board: &Board) -> i8 {
        self[beans].values[rank(board) as usize]
    }
}

/// Progress reports: called with boards done so far in the current pass.
pub type Progress<'a> = &'a mut dyn FnMut(Pass, u64);

/// Which pass a progress report belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The first pass: captures and endings.
    Exits,
    /// A bound pass over the range (1, 2, …), with the boards still unresolved.
    Bounds { number: u32, unresolved: u64 },
    /// Kalah's single pass: every board's value.
    Values,
}

struct Scratch {
    edges: Vec<Edge>,
    moves: Vec<BeanMove>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            edges: Vec::with_capacity(6),
            moves: Vec::with_capacity(6),
        }
    }
}

/// The bounds of indices `start..end` of layer `n`: the exits (the part that
/// reads the lower layers), with every board that has a quiet move still at
/// `[-n, n]`; [`finish`] iterates the bounds over the whole layer. The range
/// is split among `threads` threads.
// why no bound passes here: within a shard, quiet moves to boards outside
// its range would count with `[-n, n]`, so few bounds meet and the passes
// cost more than they save (measured: 3 shards of layer 16 took 19 CPU-s
// with local passes, against 12 for the whole layer in one process).
pub fn shard<const H: bool, L: Lower + Sync + ?Sized>(
    n: usize,
    start: u64,
    end: u64,
    lower: &L,
    threads: usize,
    progress: Progress,
) -> Bounds {
    let end = end.min(layer_size(n));
    let done = AtomicU64::new(0);
    let parts = split(start, end, threads);
    let bounds = thread::scope(|scope| {
        let workers: Vec<_> = parts[1..]
            .iter()
            .map(|&(s, e)| {
                let done = &done;
                scope.spawn(move || exits::<H, L>(n, s, e, lower, done, &mut |_| {}))
            })
            .collect();
        let (s, e) = parts[0];
        // The calling thread reports the progress of all of them.
        let mut report = |all: u64| progress(Pass::Exits, all);
        let mut all = vec![exits::<H, L>(n, s, e, lower, &done, &mut report)];
        all.extend(
            workers
                .into_iter()
                .map(|w| w.join().expect("an exits thread panicked")),
        );
        all
    });
    let bounds = Bounds::join(bounds).expect("the parts follow each other");
    progress(Pass::Exits, end - start);
    bounds
}

/// `start..end` split into `threads` ranges in order (at least one).
fn split(start: u64, end: u64, threads: usize) -> Vec<(u64, u64)> {
    let k = threads.max(1) as u64;
    let at = |i: u64| start + ((end - start) as u128 * i as u128 / k as u128) as u64;
    (0..k).map(|i| (at(i), at(i + 1))).collect()
}

/// The exits of indices `start..end`, adding the boards done to `done`.
fn exits<const H: bool, L: Lower + ?Sized>(
    n: usize,
    start: u64,
    end: u64,
    lower: &L,
    done: &AtomicU64,
    report: &mut dyn FnMut(u64),
) -> Bounds {
    let len = (end - start) as usize;
    let full = n as i8;
    let mut bounds = Bounds {
        beans: n,
        start,
        exit: vec![NO_EXIT; len],
        lower: vec![-full; len],
        upper: vec![full; len],
    };
    let mut scratch = Scratch::new();
    for (i, board) in Boards::new(n, start, end).enumerate() {
        let pos = south_to_move::<H>(&board);
        if let Some(v) = end_value(&pos) {
            let v = v as i8;
            (bounds.exit[i], bounds.lower[i], bounds.upper[i]) = (v, v, v);
        } else {
            edges(&pos, &mut scratch.edges, &mut scratch.moves);
            let mut quiet = false;
            for e in &scratch.edges {
                if e.captured == 0 {
                    quiet = true;
                } else {
                    let child = lower.value(n - usize::from(e.captured), &e.child);
                    bounds.exit[i] = bounds.exit[i].max(e.captured as i8 - child);
                }
            }
            if !quiet {
                // Only captures: exact already.
                (bounds.lower[i], bounds.upper[i]) = (bounds.exit[i], bounds.exit[i]);
            }
        }
        if i % 65536 == 65535 {
            report(done.fetch_add(65536, Relaxed) + 65536);
        }
    }
    done.fetch_add(len as u64 % 65536, Relaxed);
    bounds
}

/// Bound passes over a whole layer until nothing changes, on `threads`
/// threads (each its own index range; see the module's comment for why the
/// result does not depend on how many).
fn iterate<const H: bool>(bounds: &mut Bounds, threads: usize, progress: Progress) {
    let n = bounds.beans;
    let (start, end) = (bounds.start, bounds.end());
    debug_assert_eq!((start, end), (0, layer_size(n)));
    let exit = &bounds.exit;
    // why atomics: threads read the bounds other threads write. Relaxed
    // loads and stores of a byte are plain moves on every common target.
    let lower: Vec<AtomicI8> = std::mem::take(&mut bounds.lower)
        .into_iter()
        .map(AtomicI8::new)
        .collect();
    let upper: Vec<AtomicI8> = std::mem::take(&mut bounds.upper)
        .into_iter()
        .map(AtomicI8::new)
        .collect();
    let mut unresolved = lower
        .iter()
        .zip(&upper)
        .filter(|(l, u)| l.load(Relaxed) != u.load(Relaxed))
        .count() as u64;
    let parts = split(start, end, threads);
    let mut number = 0;
    while unresolved > 0 {
        number += 1;
        let changed = AtomicBool::new(false);
        let done = AtomicU64::new(0);
        let run = |s: u64, e: u64, report: &mut dyn FnMut(u64)| {
            pass::<H>(n, s, e, exit, &lower, &upper, &changed, &done, report)
        };
        let before = unresolved;
        let resolved: u64 = thread::scope(|scope| {
            let workers: Vec<_> = parts[1..]
                .iter()
                .map(|&(s, e)| scope.spawn(move || run(s, e, &mut |_| {})))
                .collect();
            let (s, e) = parts[0];
            let mut report = |all: u64| {
                progress(
                    Pass::Bounds {
                        number,
                        unresolved: before,
                    },
                    all,
                )
            };
            let mine = run(s, e, &mut report);
            mine + workers
                .into_iter()
                .map(|w| w.join().expect("a bound pass thread panicked"))
                .sum::<u64>()
        });
        unresolved -= resolved;
        progress(Pass::Bounds { number, unresolved }, end - start);
        if !changed.load(Relaxed) {
            break;
        }
    }
    bounds.lower = lower.into_iter().map(AtomicI8::into_inner).collect();
    bounds.upper = upper.into_iter().map(AtomicI8::into_inner).collect();
}

/// One bound pass over indices `start..end`: returns the boards it resolved,
/// sets `changed` if any bound moved.
#[allow(clippy::too_many_arguments)] // one pass's view of the shared layer
fn pass<const H: bool>(
    n: usize,
    start: u64,
    end: u64,
    exit: &[i8],
    lower: &[AtomicI8],
    upper: &[AtomicI8],
    changed: &AtomicBool,
    done: &AtomicU64,
    report: &mut dyn FnMut(u64),
) -> u64 {
    let mut scratch = Scratch::new();
    let mut resolved = 0;
    let mut moved = false;
    for (k, board) in Boards::new(n, start, end).enumerate() {
        let i = start as usize + k;
        let (old_lo, old_hi) = (lower[i].load(Relaxed), upper[i].load(Relaxed));
        if old_lo != old_hi {
            let pos = south_to_move::<H>(&board);
            edges(&pos, &mut scratch.edges, &mut scratch.moves);
            let (mut lo, mut hi) = (exit[i], exit[i]);
            for e in scratch.edges.iter().filter(|e| e.captured == 0) {
                let j = rank(&e.child) as usize;
                lo = lo.max(-upper[j].load(Relaxed));
                hi = hi.max(-lower[j].load(Relaxed));
            }
            if lo != old_lo || hi != old_hi {
                debug_assert!(lo >= old_lo && hi <= old_hi);
                moved = true;
                lower[i].store(lo, Relaxed);
                upper[i].store(hi, Relaxed);
                if lo == hi {
                    resolved += 1;
                }
            }
        }
        if k % 65536 == 65535 {
            report(done.fetch_add(65536, Relaxed) + 65536);
        }
    }
    done.fetch_add((end - start) % 65536, Relaxed);
    if moved {
        changed.store(true, Relaxed);
    }
    resolved
}

/// The solved layer from the bounds of all of it (one shard or the joined
/// shards): the bound passes to the fixpoints, then the cycle ruling for
/// the boards whose bounds do not meet.
pub fn finish<const H: bool>(
    mut bounds: Bounds,
    threads: usize,
    progress: Progress,
) -> Result<Solved, String> {
    let n = bounds.beans;
    if bounds.start != 0 || bounds.end() != layer_size(n) {
        return Err(format!(
            "layer {n} needs indices 0..{}, the shards cover {}..{}",
            layer_size(n),
            bounds.start,
            bounds.end()
        ));
    }
    iterate::<H>(&mut bounds, threads, progress);
    let mut flagged = Vec::new();
    let mut values = bounds.lower;
    for (i, board) in Boards::new(n, 0, layer_size(n)).enumerate() {
        let (lower, upper) = (values[i], bounds.upper[i]);
        if lower != upper {
            let ruled = repetition_value(&south_to_move::<H>(&board)) as i8;
            values[i] = ruled.clamp(lower, upper);
            flagged.push(Flag {
                index: i as u64,
                lower,
                upper,
            });
        }
    }
    Ok(Solved {
        beans: n,
        values,
        flagged,
    })
}

/// Layer `n` in one process, on `threads` threads.
pub fn solve<const H: bool>(
    n: usize,
    lower: &[Solved],
    threads: usize,
    progress: Progress,
) -> Solved {
    let bounds = shard::<H, _>(n, 0, layer_size(n), lower, threads, progress);
    finish::<H>(bounds, threads, progress).expect("one shard covers the layer")
}

/// Every layer up to `max_beans`, on one thread.
pub fn solve_all<const H: bool>(max_beans: usize) -> Vec<Solved> {
    let mut layers = Vec::new();
    for n in 0..=max_beans {
        let layer = solve::<H>(n, &layers, 1, &mut |_, _| {});
        layers.push(layer);
    }
    layers
}
