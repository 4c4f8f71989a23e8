//! Kalah (`kalah`: 4 seeds a hole; `kalah-6x6`: 6 seeds a hole), as
//! OpenSpiel's `mancala` game plays it.
//!
//! Board 2×6 with one store per player, which the owner sows into and the
//! opponent skips. Holes are numbered counter-clockwise from South's left:
//!
//! ```text
//!   (N store)  12 11 10  9  8  7        North
//!               1  2  3  4  5  6  (S store)   South
//! ```
//!
//! The clauses of `docs/rules/kalah.md` this module implements:
//!
//! - A move takes all seeds of a non-empty hole of the mover's row and sows
//!   them one by one counter-clockwise round the mover's circuit of 13: his
//!   holes, his own store, the opponent's holes (the opponent's store is
//!   skipped). The origin is **not** skipped: with 13 or more seeds it gets
//!   a seed on every lap like any other hole.
//! - Extra turn: when the last seed falls into the mover's store, he moves
//!   again.
//! - Capture: when the last seed falls into an empty hole of the mover's own
//!   row (it now holds 1) **and the opposite hole holds seeds**, that seed and
//!   the opposite hole's seeds go to the mover's store. With the opposite hole
//!   empty nothing is captured: the seed stays.
//! - End: as soon as either row is empty (after any move, whoever is to
//!   move), the game is over and each player takes the seeds left in his own
//!   row ([`EndReason::RowEmpty`]). The position keeps its seeds; the sweep
//!   is in [`Outcome::scores`]. More seeds wins; equal is a draw.
//! - No position can occur twice in a game (see the rules page), so the
//!   repetition rule never applies.
//!
//! Position string: `kalah <holes 1..12> <S|N> <south>/<north>`, e.g.
//! `kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0`; the 6-seed game uses `kalah-6x6`.

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

/// A Kalah position with `SEEDS` seeds a hole at the start: the 12 holes,
/// the two stores and the side to move ([`PitBoard`], whose accessors it
/// derefs to). Use [`Kalah`] and [`Kalah6`].
///
/// Invariant (checked by every constructor, kept by [`Game::play`]): holes
/// plus stores hold exactly `12 × SEEDS` seeds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KalahBoard<const SEEDS: u8>(PitBoard);

/// Kalah with 4 seeds a hole (`kalah`), OpenSpiel's `mancala`.
pub type Kalah = KalahBoard<4>;
/// Kalah with 6 seeds a hole (`kalah-6x6`), the common tournament size.
pub type Kalah6 = KalahBoard<6>;

/// Positions round the mover's circuit: 0–5 his holes, 6 his store, 7–12
/// the opponent's holes.
const CIRCUIT: usize = 13;
const STORE: usize = 6;

/// The hole index of circuit position `c` (not the store) for `side`.
#[inline(always)]
const fn hole_at(side: Side, c: usize) -> usize {
    let own = match side {
        Side::South => 0,
        Side::North => 6,
    };
    if c < STORE {
        own + c
    } else {
        (own + c - 1) % HOLES
    }
}

/// `SOWN[side][origin][seeds]`: what sowing `seeds` seeds from circuit
/// position `origin` does to the board's word ([`PitBoard::word`]): a seed
/// to each hole and to the mover's store it reaches, round after round (the
/// origin too, from 13 seeds on), and the `seeds` taken out of the origin.
/// Added with wrapping: the true result has no cell below 0 (the origin held
/// `seeds`) or above 255 (a cell never holds more than 72), so the sum
/// modulo 2^128 is exact though the entry itself wraps. Up to 72 seeds, the
/// most either size holds.
static SOWN: [[[u128; SEEDS_UP_TO]; 6]; 2] = sown_table();

/// Sowings a hole can make: 0 to 72 seeds (`kalah-6x6`'s total).
const SEEDS_UP_TO: usize = 6 * HOLES + 1;

const fn sown_table() -> [[[u128; SEEDS_UP_TO]; 6]; 2] {
    let mut table = [[[0; SEEDS_UP_TO]; 6]; 2];
    let mut s = 0;
    while s < 2 {
        let side = if s == 0 { Side::South } else { Side::North };
        let mut origin = 0;
        while origin < 6 {
            let mut seeds = 0;
            while seeds < SEEDS_UP_TO {
                let mut cells = [0; CELLS];
                let mut k = 1;
                while k <= seeds {
                    let c = (origin + k) % CIRCUIT;
                    if c == STORE {
                        cells[HOLES + s] += 1;
                    } else {
                        cells[hole_at(side, c)] += 1;
                    }
                    k += 1;
                }
                let taken = (seeds as u128) << (8 * hole_at(side, origin));
                table[s][origin][seeds] = cell_word(&cells).wrapping_sub(taken);
                seeds += 1;
            }
            origin += 1;
        }
        s += 1;
    }
    table
}

/// The hash's key for Kalah (both sizes; the seed total tells them apart).
const HASH_SEED: u64 = 0x4B41_4C41_4800_0048;

impl<const SEEDS: u8> KalahBoard<SEEDS> {
    /// Seeds in play: holes plus stores.
    pub const TOTAL: u32 = SEEDS as u32 * HOLES as u32;

    /// A position from its parts; fails unless holes and stores hold
    /// [`Self::TOTAL`] seeds.
    pub fn new(holes: [u8; HOLES], stores: [u8; 2], side: Side) -> Result<Self, PositionError> {
        PitBoard::new(holes, stores, side, Self::TOTAL).map(KalahBoard)
    }

    /// The mover's legal moves as bits of his row (bit `i`: his hole `i`,
    /// counted from his left): his holes holding seeds, none once either
    /// row is empty.
    #[inline(always)]
    fn move_bits(&self) -> u32 {
        let side = self.0.side;
        if self.0.row_word(side.opponent()) == 0 {
            return 0;
        }
        nonzero_holes(self.0.row_word(side))
    }

    /// Neither row is empty: the game goes on.
    #[inline(always)]
    fn both_rows_hold_seeds(&self) -> bool {
        self.0.row_word(Side::South) != 0 && self.0.row_word(Side::North) != 0
    }
}

/// The board's holes, stores and counts ([`PitBoard::holes`], …).
impl<const SEEDS: u8> Deref for KalahBoard<SEEDS> {
    type Target = PitBoard;

    fn deref(&self) -> &PitBoard {
        &self.0
    }
}

impl<const SEEDS: u8> fmt::Display for KalahBoard<SEEDS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, Self::ID)
    }
}

impl<const SEEDS: u8> FromStr for KalahBoard<SEEDS> {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, PositionError> {
        PitBoard::parse(s, Self::ID, Self::TOTAL).map(KalahBoard)
    }
}

impl<const SEEDS: u8> Game for KalahBoard<SEEDS> {
    type Move = PitMove;

    const ID: GameId = if SEEDS == 6 {
        GameId::Kalah6x6
    } else {
        GameId::Kalah
    };

    const LAYOUT: Layout = Layout::TWO_BY_SIX_WITH_STORES;

    /// Never reached: no Kalah position can occur twice in a game.
    const REPETITION_LIMIT: usize = 2;

    /// See the rules page: a cycle could put no seed in a store, and a move
    /// that puts none moves seeds only towards their owner's store.
    const REPETITION: Repetition = Repetition::Impossible;

    fn start() -> Self {
        KalahBoard(PitBoard::start(SEEDS))
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.0.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<PitMove>) {
        push_moves(self.move_bits(), own_range(self.0.side).start, moves);
    }

    #[inline]
    fn choose_move(
        &self,
        _: &mut Vec<PitMove>,
        choose: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<PitMove> {
        choose_from_bits(self.move_bits(), own_range(self.0.side).start, choose)
    }

    #[inline]
    fn play(&mut self, mv: PitMove) {
        self.play_observed(mv, &mut NoTrace);
    }

    #[inline]
    fn status(&self) -> Option<Outcome> {
        if self.both_rows_hold_seeds() {
            return None;
        }
        Some(Outcome::by_scores(self.0.totals(), EndReason::RowEmpty))
    }

    /// Decided once a store holds more than half the seeds: stores only
    /// grow, and the end adds each row to its owner.
    fn decided(&self) -> Option<GameResult> {
        if let Some(outcome) = self.status() {
            return Some(outcome.result);
        }
        Side::BOTH
            .into_iter()
            .find(|&s| u32::from(self.0.cells[store_cell(s)]) > Self::TOTAL / 2)
            .map(GameResult::win_for)
    }

    fn on_repetition(&self) -> RepetitionEffect<Self> {
        RepetitionEffect::GameOver(Outcome::by_scores(self.0.totals(), EndReason::Repetition))
    }

    /// Seeds in the stores: they only ever grow during a game.
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

impl<const SEEDS: u8> Traced for KalahBoard<SEEDS> {
    #[inline]
    fn play_observed<O: Observer>(&mut self, mv: PitMove, observer: &mut O) {
        let board = &mut self.0;
        let mover = board.side;
        let origin_hole = mv.index();
        let origin = origin_hole - own_range(mover).start;
        let seeds = usize::from(board.cells[origin_hole]);
        observer.step(|| Step::Lap {
            number: 1,
            kind: LapKind::Start,
        });
        observer.step(|| Step::Pick {
            hole: mv.hole(),
            count: seeds as u8,
        });
        // why not `1..=seeds`: LLVM keeps the empty loop of an inclusive range
        // when the observer ignores the steps (a fifth of `play` in a profile).
        #[allow(clippy::range_plus_one)]
        for s in 1..seeds + 1 {
            observer.step(|| match (origin + s) % CIRCUIT {
                STORE => Step::Store { side: mover },
                c => Step::Sow {
                    hole: hole_at(mover, c) as u8 + 1,
                },
            });
        }
        // The whole sowing is one addition to the board's word.
        let mut word = board
            .word()
            .wrapping_add(SOWN[mover.index()][origin][seeds]);
        let last = (origin + seeds) % CIRCUIT;
        if last == STORE {
            board.set_word(word);
            return; // extra turn: the mover moves again
        }
        if last < STORE {
            let hole = hole_at(mover, last);
            let opposite = HOLES - 1 - hole;
            let taken = cell(word, opposite);
            if cell(word, hole) == 1 && taken > 0 {
                observer.step(|| Step::Capture {
                    from: opposite as u8 + 1,
                    count: taken,
                    to: Target::Store { side: mover },
                });
                observer.step(|| Step::Capture {
                    from: hole as u8 + 1,
                    count: 1,
                    to: Target::Store { side: mover },
                });
                // why in the word: byte writes here and a word read next ply
                // would stall the store forwarding.
                word = word - ((taken as u128) << (8 * opposite)) - (1 << (8 * hole))
                    + (u128::from(taken + 1) << (8 * store_cell(mover)));
            }
        }
        board.set_word(word);
        board.side = mover.opponent();
    }
}

#[cfg(test)]
mod tests;
