//! Solving one Kalah layer: the value of every board with `n` seeds, given
//! the layers below.
//!
//! A move that puts a seed into the mover's store (an extra turn, a sowing
//! past the store, a capture) leaves the layer for a lower one. A move that
//! does not keeps its seeds in the mover's own row and moves every one of
//! them towards his store, so `Σ seeds × distance to their owner's store`
//! falls with every move inside a layer: the moves inside a layer form no
//! cycle, and each board's value is the plain maximum over its moves. A
//! layer is therefore solved in one pass, each board by a depth-first
//! evaluation of the boards of the same layer it needs that are not known
//! yet (memoised in the layer itself; the recursion is at most 6n deep,
//! the largest potential).
//!
//! Threads split the index range; they share the layer as atomic bytes. Two
//! threads may evaluate the same board at once: they write the same value.

use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use crate::index::{layer_size, rank, Boards};
use crate::kalah::board::{end_value, from_board, move_bits, play, to_board, Next, Word};

/// A board of the current layer not evaluated yet.
const UNKNOWN: i8 = i8::MIN;

/// The layers a board's moves can reach: `lower[k]` is layer `k` (every
/// layer below the one being solved), `current` the layer being solved.
struct Layers<'a> {
    lower: &'a [&'a [i8]],
    current: &'a [AtomicI8],
    n: usize,
}

impl Layers<'_> {
    /// The value of a board of the current layer, evaluating it (and the
    /// boards of the layer it needs) when not known yet.
    fn value(&self, w: Word) -> i8 {
        let r = rank(&to_board(w)) as usize;
        let known = self.current[r].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return known;
        }
        let v = self.evaluate(w);
        self.current[r].store(v, Ordering::Relaxed);
        v
    }

    /// The mover's net future gain on board `w` of the current layer: the
    /// best over his moves, from the values of the boards they lead to.
    fn evaluate(&self, w: Word) -> i8 {
        if let Some(v) = end_value(w) {
            return v as i8;
        }
        let mut bits = move_bits(w);
        let mut best = i32::MIN;
        while bits != 0 {
            let origin = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let v = match play(w, origin) {
                Next::Over(v) => v,
                Next::Again { gain, board } => gain + self.below(gain, board),
                Next::Opponent { gain: 0, board } => -i32::from(self.value(board)),
                Next::Opponent { gain, board } => gain - self.below(gain, board),
            };
            best = best.max(v);
        }
        best as i8
    }

    /// The value of a board of the layer `gain` seeds below the current one.
    #[inline]
    fn below(&self, gain: i32, w: Word) -> i32 {
        let layer = self.lower[self.n - gain as usize];
        i32::from(layer[rank(&to_board(w)) as usize])
    }
}

/// Layer `n` given every layer below it (`lower[k]` is layer `k`, `k < n`),
/// on `threads` threads; `progress` gets the boards done so far now and
/// then. The result does not depend on the number of threads.
pub fn solve(n: usize, lower: &[&[i8]], threads: usize, progress: &mut dyn FnMut(u64)) -> Vec<i8> {
    assert_eq!(lower.len(), n, "layers 0..n are needed to solve layer n");
    let size = layer_size(n);
    let current: Vec<AtomicI8> = (0..size).map(|_| AtomicI8::new(UNKNOWN)).collect();
    let layers = Layers {
        lower,
        current: &current,
        n,
    };
    // Chunks handed out in order, so that the threads work side by side on
    // nearby indices.
    const CHUNK: u64 = 1 << 16;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let threads = threads.max(1);
    thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (layers, next, done) = (&layers, &next, &done);
                // why a big stack: the evaluation recurses up to 6n boards
                // deep through the layer (n up to 72).
                thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, move || loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= size {
                            break;
                        }
                        let end = (start + CHUNK).min(size);
                        for (r, b) in (start..end).zip(Boards::new(n, start, end)) {
                            let cell = &layers.current[r as usize];
                            if cell.load(Ordering::Relaxed) == UNKNOWN {
                                let w = from_board(&b).expect("a layer's board fits a word");
                                cell.store(layers.evaluate(w), Ordering::Relaxed);
                            }
                        }
                        done.fetch_add(end - start, Ordering::Relaxed);
                    })
                    .expect("spawn a layer thread")
            })
            .collect();
        while !workers.iter().all(|w| w.is_finished()) {
            progress(done.load(Ordering::Relaxed));
            thread::sleep(Duration::from_millis(100));
        }
    });
    progress(size);
    current.into_iter().map(AtomicI8::into_inner).collect()
}
