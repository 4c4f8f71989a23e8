//! What the 2×6 store games (Kalah, Oware) share that is not a rule: the
//! board (12 holes, two stores, the side to move) with its position string,
//! the move (a hole number 1–12), the human board and the hash.

use std::fmt;
use std::str::FromStr;

use crate::display::{render_board, Row};
use crate::error::Field;
use crate::position::{
    check_total, format_holes, parse_hole_number, parse_open_holes, parse_pair, parse_side,
    FieldReader,
};
use crate::zobrist::mix;
use crate::{Game, GameId, MoveSyntaxError, PositionError, Side};

/// Holes on a 2×6 board.
pub const HOLES: usize = 12;

/// A move of a 2×6 store game: the hole sown from, 1–12.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PitMove(u8);

impl PitMove {
    /// Sowing from `hole` (1–12); `None` for any other number.
    pub const fn new(hole: u8) -> Option<PitMove> {
        if hole >= 1 && hole as usize <= HOLES {
            Some(PitMove(hole))
        } else {
            None
        }
    }

    /// The hole sown from (1–12).
    pub const fn hole(self) -> u8 {
        self.0
    }

    /// The hole as an index into a 12-hole array (hole 1 is index 0).
    pub(crate) const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The move from hole index `i` (0–11). Only for indices the caller knows
    /// are holes.
    pub(crate) const fn from_index(i: usize) -> PitMove {
        PitMove(i as u8 + 1)
    }
}

impl fmt::Display for PitMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for PitMove {
    type Err = MoveSyntaxError;

    fn from_str(s: &str) -> Result<PitMove, MoveSyntaxError> {
        parse_hole_number(s, HOLES as u8)
            .map(PitMove)
            .ok_or_else(|| MoveSyntaxError::new(s, "expected a hole number 1 to 12"))
    }
}

/// The position of a 2×6 store game (Kalah, Oware): the 12 holes, the two
/// stores and the side to move. The games wrap it with their rules and
/// reach its accessors through `Deref`.
///
/// Invariant (checked by [`PitBoard::new`], kept by the games' `play`):
/// holes plus stores hold the game's seed total.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PitBoard {
    /// Holes 1..12 at 0..12 (South owns 0..6, North 6..12), South's store
    /// at 12, North's at 13, then two zeros. One 128-bit word
    /// ([`PitBoard::word`]): a sowing adds whole laps and the rest at once.
    pub(crate) cells: [u8; CELLS],
    pub(crate) side: Side,
}

/// Cells of a [`PitBoard`]: holes, stores, padding.
pub(crate) const CELLS: usize = 16;

/// The cell of `side`'s store.
#[inline(always)]
pub(crate) fn store_cell(side: Side) -> usize {
    HOLES + side.index()
}

/// The word with one seed in each of `cells` (a const table's entry).
pub(crate) const fn cell_word(cells: &[u8; CELLS]) -> u128 {
    let mut word = 0;
    let mut i = 0;
    while i < CELLS {
        word |= (cells[i] as u128) << (8 * i);
        i += 1;
    }
    word
}

/// Cell `i` of a board's word.
#[inline(always)]
pub(crate) const fn cell(word: u128, i: usize) -> u8 {
    (word >> (8 * i)) as u8
}

impl PitBoard {
    /// Every hole holding `seeds`, the stores empty, South to move.
    pub(crate) const fn start(seeds: u8) -> PitBoard {
        let mut cells = [0; CELLS];
        let mut i = 0;
        while i < HOLES {
            cells[i] = seeds;
            i += 1;
        }
        PitBoard {
            cells,
            side: Side::South,
        }
    }

    /// A board from its parts; fails unless holes and stores hold `total`.
    pub(crate) fn new(
        holes: [u8; HOLES],
        stores: [u8; 2],
        side: Side,
        total: u32,
    ) -> Result<PitBoard, PositionError> {
        let found = holes.iter().chain(&stores).map(|&n| u32::from(n)).sum();
        check_total(found, total, "holes and stores")?;
        let mut cells = [0; CELLS];
        cells[..HOLES].copy_from_slice(&holes);
        cells[HOLES..HOLES + 2].copy_from_slice(&stores);
        Ok(PitBoard { cells, side })
    }

    /// Reads `<id> <holes> <side> <south>/<north>` holding `total` seeds.
    pub(crate) fn parse(s: &str, id: GameId, total: u32) -> Result<PitBoard, PositionError> {
        let (holes, stores, side) = read_two_rows(s, id)?;
        PitBoard::new(holes, stores, side, total)
    }

    /// Writes `<id> <holes> <side> <south>/<north>`.
    pub(crate) fn write(&self, f: &mut fmt::Formatter<'_>, id: GameId) -> fmt::Result {
        write_two_rows(f, id, self.holes(), self.side, self.stores())
    }

    /// Seeds in holes 1..12 (index `i` is hole `i + 1`).
    pub fn holes(&self) -> &[u8; HOLES] {
        match self.cells.first_chunk() {
            Some(holes) => holes,
            None => unreachable!("16 cells hold the 12 holes"),
        }
    }

    /// Stores indexed by [`Side::index`] (South first).
    pub fn stores(&self) -> [u8; 2] {
        [self.cells[HOLES], self.cells[HOLES + 1]]
    }

    /// Seeds in `side`'s row.
    pub fn seeds_on(&self, side: Side) -> u32 {
        self.cells[own_range(side)]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Each side's store plus the seeds in its row: the final score of an
    /// ending that gives each player his own row.
    pub(crate) fn totals(&self) -> [u32; 2] {
        Side::BOTH.map(|s| u32::from(self.cells[store_cell(s)]) + self.seeds_on(s))
    }

    /// The cells as one little-endian word (hole 1 the lowest byte).
    #[inline(always)]
    pub(crate) fn word(&self) -> u128 {
        u128::from_le_bytes(self.cells)
    }

    #[inline(always)]
    pub(crate) fn set_word(&mut self, word: u128) {
        self.cells = word.to_le_bytes();
    }

    /// `side`'s six holes as the low six bytes of a word (hole 1 or 7 the
    /// lowest): zero exactly when the row is empty.
    #[inline(always)]
    pub(crate) fn row_word(&self, side: Side) -> u64 {
        (self.word() >> (48 * side.index())) as u64 & 0xFFFF_FFFF_FFFF
    }

    /// Holes and stores: the game's seed total.
    pub(crate) fn seed_count(&self) -> u32 {
        self.cells.iter().map(|&n| u32::from(n)).sum()
    }

    /// Seeds in the stores: they only grow, and exactly when a move puts
    /// seeds in a store (the games' history key).
    #[inline(always)]
    pub(crate) fn store_seeds(&self) -> u64 {
        u64::from(self.cells[HOLES]) + u64::from(self.cells[HOLES + 1])
    }

    /// The board and the side to move as one number, exactly (the side in
    /// the padding cell 14, always empty otherwise): a repetition key
    /// ([`Game::repetition_key`]) that needs no hash and no comparison of
    /// positions.
    #[inline(always)]
    pub(crate) fn exact_key(&self) -> u128 {
        self.word() | (self.side.index() as u128) << (8 * (HOLES + 2))
    }

    /// The position's hash (the games' `zobrist`), keyed by `seed` per game:
    /// the board's word and the side to move through SplitMix64's mixer
    /// (a bijection), so that boards alike in holes 9–12, stores and side
    /// never collide, and the rest is as good as random. Why not a Zobrist table:
    /// the two mixes cost less than 14 table reads, every ply of a playout.
    #[inline(always)]
    pub(crate) fn hash(&self, seed: u64) -> u64 {
        let word = self.word();
        let high = (word >> 64) as u64 | (self.side.index() as u64) << 56;
        mix(word as u64 ^ mix(high ^ seed))
    }
}

/// The bits of the nonzero bytes of a row word ([`PitBoard::row_word`]): bit
/// `i` set when hole `i` of the row holds seeds.
#[inline(always)]
pub(crate) const fn nonzero_holes(word: u64) -> u32 {
    // why SWAR: a byte's high bit of b | ((b & 0x7f) + 0x7f) is set iff
    // b != 0, and the sum never carries into the next byte. The multiply
    // then gathers bit 8i to bit 56 + i (its terms never share a bit, so
    // nothing carries into the top byte).
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let high = (word | ((word & LOW7) + LOW7)) & !LOW7;
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// The moves of a row's `bits` (bit `i`: hole `first + i`), lowest first,
/// pushed onto `moves` ([`Game::legal_moves`] of the pit games).
#[inline(always)]
pub(crate) fn push_moves(mut bits: u32, first: usize, moves: &mut Vec<PitMove>) {
    while bits != 0 {
        moves.push(PitMove::from_index(first + bits.trailing_zeros() as usize));
        bits &= bits - 1;
    }
}

/// [`Game::choose_move`] of the pit games from a row's `bits` (six bits),
/// in the order of [`push_moves`]: no list; the count and the chosen bit
/// from tables (why: without `popcnt` in the baseline x86-64 target,
/// `count_ones` is a dozen instructions, and clearing bits is a loop).
#[inline(always)]
pub(crate) fn choose_from_bits(
    bits: u32,
    first: usize,
    choose: impl FnOnce(usize) -> Option<usize>,
) -> Option<PitMove> {
    let bits = bits as usize & 0x3F;
    if bits == 0 {
        return None;
    }
    let nth = &NTH_BIT[bits];
    let count = usize::from(BIT_COUNT[bits]);
    let i = choose(count)?;
    debug_assert!(i < count, "chose move {i} of {count}");
    Some(PitMove::from_index(first + usize::from(nth[i])))
}

/// `BIT_COUNT[bits]`: the set bits of six-bit `bits`.
static BIT_COUNT: [u8; 64] = {
    let mut table = [0; 64];
    let mut bits = 0;
    while bits < 64 {
        table[bits] = (bits as u32).count_ones() as u8;
        bits += 1;
    }
    table
};

/// `NTH_BIT[bits][i]`: the place of the `i`th lowest set bit of six-bit
/// `bits` (0 past the last).
static NTH_BIT: [[u8; 6]; 64] = {
    let mut table = [[0; 6]; 64];
    let mut bits = 0;
    while bits < 64 {
        let mut place = 0;
        let mut i = 0;
        while place < 6 {
            if bits & (1 << place) != 0 {
                table[bits][i] = place as u8;
                i += 1;
            }
            place += 1;
        }
        bits += 1;
    }
    table
};

/// The holes a side owns, as indices into a 12-hole array.
#[inline(always)]
pub(crate) fn own_range(side: Side) -> std::ops::Range<usize> {
    match side {
        Side::South => 0..6,
        Side::North => 6..12,
    }
}

/// Writes a 2×6 position with stores: `<id> <holes> <side> <south>/<north>`.
pub(crate) fn write_two_rows(
    f: &mut fmt::Formatter<'_>,
    id: GameId,
    holes: &[u8; HOLES],
    side: Side,
    stores: [u8; 2],
) -> fmt::Result {
    write!(
        f,
        "{id} {} {} {}/{}",
        format_holes(holes.iter().map(|&n| Some(n))),
        side.letter(),
        stores[0],
        stores[1]
    )
}

/// Reads the fields [`write_two_rows`] writes (the seed total is the
/// game's to check).
pub(crate) fn read_two_rows(
    s: &str,
    id: GameId,
) -> Result<([u8; HOLES], [u8; 2], Side), PositionError> {
    let mut fields = FieldReader::new(s, id)?;
    let parsed = parse_open_holes(fields.next(Field::Holes)?, HOLES)?;
    let side = parse_side(fields.next(Field::Side)?)?;
    let stores = parse_pair(fields.next(Field::Stores)?)?;
    fields.finish()?;
    let mut holes = [0; HOLES];
    holes.copy_from_slice(&parsed);
    Ok((holes, stores, side))
}

/// The board of a 2×6 store game for people: North's row on top, right to
/// left as South sees it, with the header saying who is to move.
pub(crate) fn render_two_rows<G: Game>(pos: &G, holes: &[u8; HOLES], stores: [u8; 2]) -> String {
    let header = match pos.status() {
        Some(outcome) => format!("{}: game over ({})", G::ID, outcome.reason),
        None => format!("{}: {} to move", G::ID, pos.side_to_move()),
    };
    let rows = [
        Row {
            label: "North",
            holes: (7..=12).rev().collect(),
        },
        Row {
            label: "South",
            holes: (1..=6).collect(),
        },
    ];
    render_board(
        &header,
        &rows,
        1,
        |hole| holes[hole - 1].to_string(),
        &format!("store {}", stores[Side::North.index()]),
        &format!("store {}", stores[Side::South.index()]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_holes_sets_the_bit_of_each_hole_holding_seeds() {
        // Every count a hole can hold in each of the six places, with the
        // other holes empty or full.
        for background in [0u8, 1, 72, 255] {
            for place in 0..6 {
                for n in 0..=255u8 {
                    let mut row = [background; 6];
                    row[place] = n;
                    let mut bytes = [0; 8];
                    bytes[..6].copy_from_slice(&row);
                    let want = (0..6)
                        .filter(|&i| row[i] != 0)
                        .fold(0, |bits, i| bits | 1 << i);
                    assert_eq!(nonzero_holes(u64::from_le_bytes(bytes)), want, "{row:?}");
                }
            }
        }
    }

    #[test]
    fn a_row_word_is_zero_exactly_when_the_row_is_empty() {
        let mut board = PitBoard::start(0);
        assert_eq!(board.row_word(Side::South), 0);
        board.cells[11] = 3;
        board.cells[12] = 7;
        assert_eq!(board.row_word(Side::South), 0);
        assert_eq!(board.row_word(Side::North), 3 << 40);
        assert_eq!(nonzero_holes(board.row_word(Side::North)), 1 << 5);
    }
}
