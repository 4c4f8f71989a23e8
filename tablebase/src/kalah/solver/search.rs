//! The exact search: fail-soft alpha-beta to the end of the game with null
//! windows only, driven by MTD(f) ([`Searcher::exact`]), over the Kalah board
//! of [`crate::kalah::board`].
//!
//! Values are the mover's net future gain from the seeds on the board
//! (`−n..=n` with the parity of `n`: the two players' gains add up to `n`),
//! so an extra turn adds the move's gain to the child's value and a passed
//! turn subtracts the child's value from it. At each node, in order:
//! the endgame database (exact), the trivial bounds ±n, the transposition
//! table, the moves whose value is known without a search (the game ends,
//! or the child is in the database), the enhanced transposition cutoff
//! (a child's table bound that already refutes the window), then the other
//! children best-first: the table's best move, extra turns (nearest the
//! store first, so that they do not spoil each other), then by the seeds
//! the move puts in the store.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::index::rank;
use crate::kalah::board::{move_bits, play, seeds, to_board, Next, Word};

use super::tt::{key, work, Tt};

/// What the search may use, shared by the threads.
pub struct Shared<'a> {
    pub tt: &'a Tt,
    /// Database layers `0..db.len()` (`db[k]` is layer `k`); empty: none.
    pub db: &'a [&'a [i8]],
    /// Enhanced transposition cutoffs on (for measurements: off).
    pub etc: bool,
    /// Set when the search is to stop (another thread found the value, or
    /// the engine's time is up).
    pub stop: &'a AtomicBool,
}

/// One thread's search.
pub struct Searcher<'a> {
    shared: &'a Shared<'a>,
    pub nodes: u64,
    /// The stop flag was seen: every node returns at once (no value).
    stopped: bool,
}

/// A child that needs a search.
#[derive(Clone, Copy)]
struct Child {
    origin: usize,
    gain: i32,
    board: Word,
    /// An extra turn: the value is `gain + child`, else `gain − child`.
    again: bool,
    order: i32,
    /// The child's table key ([`key`]), if it has one.
    key: Option<u64>,
}

/// The search was stopped: no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>) -> Searcher<'a> {
        Searcher {
            shared,
            nodes: 0,
            stopped: false,
        }
    }

    /// The database's value of a board of `n` seeds, if it covers `n`.
    #[inline(always)]
    fn db(&self, w: Word, n: i32) -> Option<i32> {
        let layer = self.shared.db.get(n as usize)?;
        Some(i32::from(layer[rank(&to_board(w)) as usize]))
    }

    /// The exact value of board `w` (both rows hold seeds), by MTD(f):
    /// null-window tests that move the bounds until they meet, starting at
    /// `guess`. Values have the parity of the seeds, so a test at `g` and
    /// one at `g + 2` leave nothing between.
    pub fn exact(&mut self, w: Word, guess: i32) -> Result<i32, Stopped> {
        let n = seeds(w) as i32;
        if let Some(v) = self.db(w, n) {
            return Ok(v);
        }
        let (mut lower, mut upper) = (-n, n);
        // A value of the right parity within the bounds.
        let mut g = guess.clamp(-n, n);
        if (g - n) % 2 != 0 {
            g -= 1;
        }
        while lower < upper {
            let beta = if g == lower { g + 2 } else { g };
            g = self.search(w, n, beta - 1, beta);
            if self.stopped || self.shared.stop.load(Ordering::Relaxed) {
                return Err(Stopped);
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        Ok(g)
    }

    /// The stop flag was seen during a search: its value is meaningless.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Fail-soft alpha-beta on board `w` of `n` seeds (both rows hold
    /// seeds): a value `v` with `v <= alpha` an upper bound, `v >= beta` a
    /// lower bound, else exact.
    pub fn search(&mut self, w: Word, n: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.db(w, n) {
            return v;
        }
        if alpha >= n {
            return n;
        }
        if beta <= -n {
            return -n;
        }
        // why every 16k nodes: a stop is rare and the flag is shared, but the
        // engine stops the solver at its move's deadline (a few ms late at
        // most). Once seen, every node returns at once, so the whole tree
        // unwinds (its values are then meaningless and not stored).
        if self.stopped {
            return 0;
        }
        if self.nodes & 0x3fff == 0 && self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return 0;
        }
        let k = key(w);
        let mut tt_best = None;
        if let Some(e) = k.and_then(|k| self.shared.tt.probe(k)) {
            if e.lower >= beta {
                return e.lower;
            }
            if e.upper <= alpha {
                return e.upper;
            }
            if e.lower == e.upper {
                return e.lower;
            }
            alpha = alpha.max(e.lower);
            beta = beta.min(e.upper);
            tt_best = e.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let nodes0 = self.nodes;

        let mut best = i32::MIN;
        let mut best_move = None;
        let mut children = [Child {
            origin: 0,
            gain: 0,
            board: 0,
            again: false,
            order: 0,
            key: None,
        }; 6];
        let mut count = 0;
        let mut bits = move_bits(w);
        while bits != 0 {
            let origin = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (gain, board, again) = match play(w, origin) {
                Next::Over(v) => {
                    if v > best {
                        best = v;
                        best_move = Some(origin);
                    }
                    continue;
                }
                Next::Again { gain, board } => (gain, board, true),
                Next::Opponent { gain, board } => (gain, board, false),
            };
            if let Some(c) = self.db(board, n - gain) {
                let v = if again { gain + c } else { gain - c };
                if v > best {
                    best = v;
                    best_move = Some(origin);
                }
                continue;
            }
            let mut order = 8 * gain + origin as i32;
            if again {
                order += 1000;
            }
            if tt_best == Some(origin) {
                order += 100_000;
            }
            let ck = key(board);
            if let Some(ck) = ck {
                self.shared.tt.prefetch(ck);
            }
            children[count] = Child {
                origin,
                gain,
                board,
                again,
                order,
                key: ck,
            };
            count += 1;
        }
        if best >= beta {
            self.store(k, best, n, best_move, nodes0);
            return best;
        }
        alpha = alpha.max(best);
        if self.shared.etc {
            for c in &children[..count] {
                let Some(e) = c.key.and_then(|k| self.shared.tt.probe(k)) else {
                    continue;
                };
                let at_least = if c.again {
                    c.gain + e.lower
                } else {
                    c.gain - e.upper
                };
                if at_least >= beta {
                    self.store(k, at_least, n, Some(c.origin), nodes0);
                    return at_least;
                }
            }
        }
        let children = &mut children[..count];
        children.sort_unstable_by_key(|c| -c.order);
        for c in children.iter() {
            let m = n - c.gain;
            let v = if c.again {
                c.gain + self.search(c.board, m, alpha - c.gain, beta - c.gain)
            } else {
                c.gain - self.search(c.board, m, c.gain - beta, c.gain - alpha)
            };
            if v > best {
                best = v;
                best_move = Some(c.origin);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best <= alpha0 {
            self.store(k, -n, best, best_move, nodes0);
        } else if best >= beta0 {
            self.store(k, best, n, best_move, nodes0);
        } else {
            self.store(k, best, best, best_move, nodes0);
        }
        best
    }

    #[inline(always)]
    fn store(&self, k: Option<u64>, lower: i32, upper: i32, best: Option<usize>, nodes0: u64) {
        if let Some(k) = k {
            if !self.stopped && !self.shared.stop.load(Ordering::Relaxed) {
                self.shared
                    .tt
                    .store(k, lower, upper, best, work(self.nodes - nodes0));
            }
        }
    }
}
