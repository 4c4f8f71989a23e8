//! Oware (`oware`), Abapa rules as OpenSpiel's `oware` game plays them.
//!
//! Board 2×6, 4 seeds a hole, 48 seeds; captured seeds go to the capturer's
//! store, which is never sown into. Holes are numbered counter-clockwise
//! from South's left:
//!
//! ```text
//!       12 11 10  9  8  7        North
//!        1  2  3  4  5  6        South
//! ```
//!
//! The clauses of `docs/rules/oware.md` this module implements:
//!
//! - A move takes all seeds of a non-empty hole of the mover's row and sows
//!   them one by one counter-clockwise; the origin is **always skipped** (with
//!   12 or more seeds, every lap misses it).
//! - Capture: when the last seed falls into an opponent's hole that now holds
//!   2 or 3, those seeds are captured, then the hole before it (clockwise) is
//!   tested the same way, and so on, within the opponent's row only.
//! - Grand slam: a move whose capture would take every seed of the opponent's
//!   row is played, but captures nothing.
//! - Feeding: when the opponent's row is empty, the mover must play a move
//!   that sows into it. A mover with no legal move (no seeds, or none that
//!   feeds) ends the game ([`EndReason::NoLegalMove`]).
//! - End: the game is over as soon as a store holds more than 24 seeds, or
//!   both hold 24 ([`EndReason::HalfTaken`]), or the player to move has no
//!   legal move. At every end each player adds the seeds in his own row to
//!   his store; the position keeps them, the sweep is in
//!   [`Outcome::scores`]. More seeds wins; equal is a draw.
//! - Endless play (OpenSpiel): the first repetition of a position since the
//!   last capture ends the game, each player taking the seeds in his own row
//!   ([`EndReason::Repetition`]); [`crate::GameRecord`] applies it.
//!
//! Position string: `oware <holes 1..12> <S|N> <south>/<north>`, e.g.
//! `oware 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0`.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use crate::games::pit::{
    cell, cell_word, choose_from_bits, nonzero_holes, own_range, push_moves, render_two_rows,
    store_cell, PitBoard, PitMove, CELLS, HOLES,
};
use crate::trace::{LapKind, NoTrace, Observer, Step, Target, Traced};
use crate::{
    EndReason, Game, GameId, GameResult, Layout, Outcome, PositionError, Repetition,
    RepetitionEffect, Side,
};

/// Seeds in play: holes plus stores.
pub const TOTAL_SEEDS: u32 = 48;
/// A store above this many seeds ends the game.
const HALF: u8 = (TOTAL_SEEDS / 2) as u8;
/// The holes a lap sows into: every hole but the origin.
const LAP: usize = HOLES - 1;

/// An Oware position: the 12 holes, the two stores and the side to move
/// ([`PitBoard`], whose accessors it derefs to).
///
/// Invariant (checked by every constructor, kept by [`Game::play`]): holes
/// plus stores hold exactly 48 seeds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Oware(PitBoard);

/// `SOWN[origin][seeds]`: what sowing `seeds` seeds from hole `origin`
/// does to the board's word ([`PitBoard::word`]): a seed to each hole it
/// reaches, round after round, the origin skipped, and the `seeds` taken out
/// of the origin. Added with wrapping: the true result has no cell below 0
/// (the origin held `seeds`) or above 255 (a cell never holds more than 48),
/// so the sum modulo 2^128 is exact though the entry itself wraps.
static SOWN: [[u128; SEEDS_UP_TO]; HOLES] = sown_table();

/// `LAST[origin][seeds]`: the hole where the last of `seeds` seeds sown
/// from `origin` falls ([`Oware::last_hole`]); 0 for no seeds.
static LAST: [[u8; SEEDS_UP_TO]; HOLES] = last_table();

/// Sowings a hole can make: 0 to 48 seeds.
const SEEDS_UP_TO: usize = TOTAL_SEEDS as usize + 1;

const fn sown_table() -> [[u128; SEEDS_UP_TO]; HOLES] {
    let mut table = [[0; SEEDS_UP_TO]; HOLES];
    let mut origin = 0;
    while origin < HOLES {
        let mut seeds = 0;
        while seeds < SEEDS_UP_TO {
            let mut cells = [0; CELLS];
            let mut s = 1;
            while s <= seeds {
                cells[Oware::last_hole(origin, s)] += 1;
                s += 1;
            }
            let taken = (seeds as u128) << (8 * origin);
            table[origin][seeds] = cell_word(&cells).wrapping_sub(taken);
            seeds += 1;
        }
        origin += 1;
    }
    table
}

const fn last_table() -> [[u8; SEEDS_UP_TO]; HOLES] {
    let mut table = [[0; SEEDS_UP_TO]; HOLES];
    let mut origin = 0;
    while origin < HOLES {
        let mut seeds = 1;
        while seeds < SEEDS_UP_TO {
            table[origin][seeds] = Oware::last_hole(origin, seeds) as u8;
            seeds += 1;
        }
        origin += 1;
    }
    table
}

/// The hash's key for Oware.
const HASH_SEED: u64 = 0x4F57_4152_4500_0030;

/// Counts that a capture takes: 2 or 3.
#[inline(always)]
fn is_capture_count(n: u8) -> bool {
    n == 2 || n == 3
}

impl Oware {
    /// A position from its parts; fails unless holes and stores hold 48 seeds.
    pub fn new(holes: [u8; HOLES], stores: [u8; 2], side: Side) -> Result<Self, PositionError> {
        PitBoard::new(holes, stores, side, TOTAL_SEEDS).map(Oware)
    }

    /// More than half the seeds in a store, or half in each.
    #[inline(always)]
    fn half_taken(&self) -> bool {
        let [south, north] = self.0.stores();
        south > HALF || north > HALF || (south == HALF && north == HALF)
    }

    /// The mover's legal moves as bits of his row (bit `i`: his hole `i`,
    /// counted from his left), the end at half the seeds not applied.
    /// Feeding: when the opponent's row is empty, hole `i` must hold more
    /// than `5 - i` seeds (so many stay in the mover's row).
    #[inline(always)]
    fn move_bits(&self) -> u32 {
        let side = self.0.side;
        let own = self.0.row_word(side);
        if self.0.row_word(side.opponent()) != 0 {
            return nonzero_holes(own);
        }
        // why SWAR: byte i of own + FEED overflows past 0x7f exactly when
        // hole i holds more than 5 - i (a hole holds at most 48 seeds, so
        // neither sum carries into the next byte).
        const FEED: u64 = u64::from_le_bytes([0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f, 0, 0]);
        let high = (own + FEED) & 0x0000_8080_8080_8080;
        nonzero_holes(high)
    }

    /// The mover's legal moves as bits ([`Oware::move_bits`]), none once
    /// half the seeds are taken.
    #[inline(always)]
    fn legal_bits(&self) -> u32 {
        if self.half_taken() {
            return 0;
        }
        self.move_bits()
    }

    /// The hole index where the last of `seeds` seeds sown from `origin`
    /// falls (the origin skipped).
    #[inline(always)]
    const fn last_hole(origin: usize, seeds: usize) -> usize {
        (origin + (seeds - 1) % LAP + 1) % HOLES
    }
}

/// The board's holes, stores and counts ([`PitBoard::holes`], …).
impl Deref for Oware {
    type Target = PitBoard;

    fn deref(&self) -> &PitBoard {
        &self.0
    }
}

impl fmt::Display for Oware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, Self::ID)
    }
}

impl FromStr for Oware {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, PositionError> {
        PitBoard::parse(s, Self::ID, TOTAL_SEEDS).map(Oware)
    }
}

impl Game for Oware {
    type Move = PitMove;

    const ID: GameId = GameId::Oware;

    const LAYOUT: Layout = Layout::TWO_BY_SIX_WITH_STORES;

    /// The first repetition since the last capture ends the game.
    const REPETITION_LIMIT: usize = 2;

    const REPETITION: Repetition = Repetition::Exact;

    /// The board word and the side to move: 14 cells of at most 48 seeds.
    #[inline]
    fn repetition_key(&self) -> u128 {
        self.0.exact_key()
    }

    fn start() -> Self {
        Oware(PitBoard::start(4))
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.0.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<PitMove>) {
        push_moves(self.legal_bits(), own_range(self.0.side).start, moves);
    }

    #[inline]
    fn choose_move(
        &self,
        _: &mut Vec<PitMove>,
        choose: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<PitMove> {
        choose_from_bits(self.legal_bits(), own_range(self.0.side).start, choose)
    }

    #[inline]
    fn play(&mut self, mv: PitMove) {
        self.play_observed(mv, &mut NoTrace);
    }

    #[inline]
    fn status(&self) -> Option<Outcome> {
        if self.half_taken() {
            return Some(Outcome::by_scores(self.0.totals(), EndReason::HalfTaken));
        }
        if self.move_bits() != 0 {
            return None;
        }
        Some(Outcome::by_scores(self.0.totals(), EndReason::NoLegalMove))
    }

    /// Decided once a store holds more than half the seeds: stores only grow.
    fn decided(&self) -> Option<GameResult> {
        if let Some(outcome) = self.status() {
            return Some(outcome.result);
        }
        Side::BOTH
            .into_iter()
            .find(|&s| self.0.cells[store_cell(s)] > HALF)
            .map(GameResult::win_for)
    }

    fn on_repetition(&self) -> RepetitionEffect<Self> {
        RepetitionEffect::GameOver(Outcome::by_scores(self.0.totals(), EndReason::Repetition))
    }

    /// Seeds in the stores: they grow exactly when a move captures.
    #[inline]
    fn history_key(&self) -> u64 {
        self.0.store_seeds()
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.0.hash(HASH_SEED)
    }

    fn seed_count(&self) -> u32 {
        self.0.seed_count()
    }

    fn render(&self) -> String {
        render_two_rows(self, self.0.holes(), self.0.stores())
    }
}

impl Traced for Oware {
    #[inline]
    fn play_observed<O: Observer>(&mut self, mv: PitMove, observer: &mut O) {
        let mover = self.0.side;
        self.0.side = mover.opponent();
        let origin = mv.index();
        let seeds = usize::from(self.0.cells[origin]);
        observer.step(|| Step::Lap {
            number: 1,
            kind: LapKind::Start,
        });
        observer.step(|| Step::Pick {
            hole: mv.hole(),
            count: seeds as u8,
        });
        observer.sow(seeds, |s| Self::last_hole(origin, s) as u8 + 1);
        // The whole sowing is one addition to the board's word.
        let mut word = self.0.word().wrapping_add(SOWN[origin][seeds]);
        let last = usize::from(LAST[origin][seeds]);
        let row = own_range(mover.opponent());
        if row.contains(&last) {
            // The chain of 2s and 3s back from the last hole, in the row.
            let mut chain = 0u128;
            let mut captured = 0;
            let mut first = last + 1;
            while first > row.start && is_capture_count(cell(word, first - 1)) {
                first -= 1;
                captured += cell(word, first);
                chain |= 0xFF << (8 * first);
            }
            // Grand slam: the chain from the row's start, nothing after it.
            let after = (word >> (8 * (last + 1))) as u64 & ((1 << (8 * (row.end - last - 1))) - 1);
            let grand_slam = first == row.start && after == 0;
            if captured > 0 && !grand_slam {
                for hole in (first..last + 1).rev() {
                    observer.step(|| Step::Capture {
                        from: hole as u8 + 1,
                        count: cell(word, hole),
                        to: Target::Store { side: mover },
                    });
                }
                word = (word & !chain) + (u128::from(captured) << (8 * store_cell(mover)));
            }
        }
        self.0.set_word(word);
    }
}

#[cfg(test)]
mod tests;
