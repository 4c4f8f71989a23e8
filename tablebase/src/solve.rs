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
//! Boards whose bounds do not meet at the fixpoints are those whose value
//! depends on how endless play is scored. They are counted and listed in the
//! file with both bounds ([`Flag`]), and valued by the cycle ruling: the
//! allocation the repetition end would make at that board itself (each side
//! takes the beans on its own side), clamped into the bounds.

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
        let mut parts = parts.into_iter();
        let mut all = parts.next().ok_or("no shards to join")?;
        for part in parts {
            if part.beans != all.beans || part.start != all.end() {
                return Err(format!(
                    "shard starting at index {} of layer {} does not follow index {} of layer {}",
                    part.start,
                    part.beans,
                    all.end(),
                    all.beans
                ));
            }
            all.exit.extend(part.exit);
            all.lower.extend(part.lower);
            all.upper.extend(part.upper);
        }
        Ok(all)
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
/// `[-n, n]`; [`finish`] iterates the bounds over the whole layer.
// why no bound passes here: within a shard, quiet moves to boards outside
// its range would count with `[-n, n]`, so few bounds meet and the passes
// cost more than they save (measured: 3 shards of layer 16 took 19 CPU-s
// with local passes, against 12 for the whole layer in one process).
pub fn shard<const H: bool, L: Lower + ?Sized>(
    n: usize,
    start: u64,
    end: u64,
    lower: &L,
    progress: Progress,
) -> Bounds {
    let end = end.min(layer_size(n));
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
        if i % 65536 == 0 {
            progress(Pass::Exits, i as u64);
        }
    }
    progress(Pass::Exits, len as u64);
    bounds
}

/// Bound passes over a whole layer until nothing changes.
fn iterate<const H: bool>(bounds: &mut Bounds, progress: Progress) {
    let n = bounds.beans;
    let (start, end) = (bounds.start, bounds.end());
    debug_assert_eq!((start, end), (0, layer_size(n)));
    let mut scratch = Scratch::new();
    let mut unresolved = bounds
        .lower
        .iter()
        .zip(&bounds.upper)
        .filter(|(l, u)| l != u)
        .count() as u64;
    let mut number = 0;
    while unresolved > 0 {
        number += 1;
        let mut changed = false;
        for (i, board) in Boards::new(n, start, end).enumerate() {
            if bounds.lower[i] == bounds.upper[i] {
                continue;
            }
            let pos = south_to_move::<H>(&board);
            edges(&pos, &mut scratch.edges, &mut scratch.moves);
            let (mut lo, mut hi) = (bounds.exit[i], bounds.exit[i]);
            for e in scratch.edges.iter().filter(|e| e.captured == 0) {
                let j = rank(&e.child) as usize;
                lo = lo.max(-bounds.upper[j]);
                hi = hi.max(-bounds.lower[j]);
            }
            if lo != bounds.lower[i] || hi != bounds.upper[i] {
                debug_assert!(lo >= bounds.lower[i] && hi <= bounds.upper[i]);
                changed = true;
                (bounds.lower[i], bounds.upper[i]) = (lo, hi);
                if lo == hi {
                    unresolved -= 1;
                }
            }
            if i % 65536 == 0 {
                progress(Pass::Bounds { number, unresolved }, i as u64);
            }
        }
        progress(
            Pass::Bounds { number, unresolved },
            bounds.exit.len() as u64,
        );
        if !changed {
            break;
        }
    }
}

/// The solved layer from the bounds of all of it (one shard or the joined
/// shards): the bound passes to the fixpoints, then the cycle ruling for
/// the boards whose bounds do not meet.
pub fn finish<const H: bool>(mut bounds: Bounds, progress: Progress) -> Result<Solved, String> {
    let n = bounds.beans;
    if bounds.start != 0 || bounds.end() != layer_size(n) {
        return Err(format!(
            "layer {n} needs indices 0..{}, the shards cover {}..{}",
            layer_size(n),
            bounds.start,
            bounds.end()
        ));
    }
    iterate::<H>(&mut bounds, progress);
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

/// Layer `n` in one process.
pub fn solve<const H: bool>(n: usize, lower: &[Solved], progress: Progress) -> Solved {
    let bounds = shard::<H, _>(n, 0, layer_size(n), lower, progress);
    finish::<H>(bounds, progress).expect("one shard covers the layer")
}

/// Every layer up to `max_beans`.
pub fn solve_all<const H: bool>(max_beans: usize) -> Vec<Solved> {
    let mut layers = Vec::new();
    for n in 0..=max_beans {
        let layer = solve::<H>(n, &layers, &mut |_, _| {});
        layers.push(layer);
    }
    layers
}
