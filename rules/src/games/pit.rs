//! What the 2×6 store games (Kalah, Oware) share that is not a rule: the
//! board (12 holes, two stores, the side to move) with its position string,
//! the move (a hole number 1–12), the human board and the Zobrist keys.

use std::fmt;
use std::str::FromStr;

use crate::display::{render_board, Row};
use crate::error::Field;
use crate::position::{
    check_total, format_holes, parse_hole_number, parse_open_holes, parse_pair, parse_side,
    FieldReader,
};
use crate::zobrist::{mix, GOLDEN};
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

/// Seeds in `side`'s row of a 12-hole array.
pub(crate) fn row_seeds(holes: &[u8; HOLES], side: Side) -> u32 {
    holes[own_range(side)].iter().map(|&n| u32::from(n)).sum()
}

/// Each side's store plus the seeds in its row: the final scores of an
/// ending that gives each player his own row.
pub(crate) fn totals(holes: &[u8; HOLES], stores: [u8; 2]) -> [u32; 2] {
    Side::BOTH.map(|s| u32::from(stores[s.index()]) + row_seeds(holes, s))
}

/// The position of a 2×6 store game (Kalah, Oware): the 12 holes, the two
/// stores and the side to move. The games wrap it with their rules and
/// reach its accessors through `Deref`.
///
/// Invariant (checked by [`PitBoard::new`], kept by the games' `play`):
/// holes plus stores hold the game's seed total.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PitBoard {
    /// Hole `i` is hole number `i + 1`; South owns 0..6, North 6..12.
    pub(crate) holes: [u8; HOLES],
    /// Indexed by [`Side::index`].
    pub(crate) stores: [u8; 2],
    pub(crate) side: Side,
}

impl PitBoard {
    /// Every hole holding `seeds`, the stores empty, South to move.
    pub(crate) const fn start(seeds: u8) -> PitBoard {
        PitBoard {
            holes: [seeds; HOLES],
            stores: [0; 2],
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
        Ok(PitBoard {
            holes,
            stores,
            side,
        })
    }

    /// Reads `<id> <holes> <side> <south>/<north>` holding `total` seeds.
    pub(crate) fn parse(s: &str, id: GameId, total: u32) -> Result<PitBoard, PositionError> {
        let (holes, stores, side) = read_two_rows(s, id)?;
        PitBoard::new(holes, stores, side, total)
    }

    /// Writes `<id> <holes> <side> <south>/<north>`.
    pub(crate) fn write(&self, f: &mut fmt::Formatter<'_>, id: GameId) -> fmt::Result {
        write_two_rows(f, id, &self.holes, self.side, self.stores)
    }

    /// Seeds in holes 1..12 (index `i` is hole `i + 1`).
    pub fn holes(&self) -> &[u8; HOLES] {
        &self.holes
    }

    /// Stores indexed by [`Side::index`] (South first).
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// Seeds in `side`'s row.
    pub fn seeds_on(&self, side: Side) -> u32 {
        row_seeds(&self.holes, side)
    }

    /// Each side's store plus the seeds in its row: the final score of an
    /// ending that gives each player his own row.
    pub(crate) fn totals(&self) -> [u32; 2] {
        totals(&self.holes, self.stores)
    }

    /// `side`'s six holes as the low six bytes of a word (hole 1 or 7 the
    /// lowest): zero exactly when the row is empty.
    #[inline(always)]
    pub(crate) fn row_word(&self, side: Side) -> u64 {
        let start = own_range(side).start;
        let mut bytes = [0; 8];
        bytes[..6].copy_from_slice(&self.holes[start..start + 6]);
        u64::from_le_bytes(bytes)
    }

    /// Holes and stores: the game's seed total.
    pub(crate) fn seed_count(&self) -> u32 {
        self.holes
            .iter()
            .chain(&self.stores)
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Seeds in the stores: they only grow, and exactly when a move puts
    /// seeds in a store (the games' history key).
    pub(crate) fn store_seeds(&self) -> u64 {
        u64::from(self.stores[0]) + u64::from(self.stores[1])
    }

    /// The Zobrist hash under `table`.
    #[inline]
    pub(crate) fn zobrist(&self, table: &ZobristTable) -> u64 {
        table.hash(&self.holes, self.stores, self.side)
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

/// The most seeds a hole or store of these games can hold (Kalah 6×6).
pub(crate) const MAX_SEEDS: usize = 72;

/// Zobrist keys for every count a hole or store can hold.
pub(crate) struct ZobristTable {
    holes: [[u64; MAX_SEEDS + 1]; HOLES],
    stores: [[u64; MAX_SEEDS + 1]; 2],
    north_to_move: u64,
}

impl ZobristTable {
    /// The hash of a 2×6 position with stores.
    #[inline]
    pub(crate) fn hash(&self, holes: &[u8; HOLES], stores: [u8; 2], side: Side) -> u64 {
        let mut hash = if side == Side::North {
            self.north_to_move
        } else {
            0
        };
        for (keys, &n) in self.holes.iter().zip(holes) {
            hash ^= keys[usize::from(n)];
        }
        for (keys, &n) in self.stores.iter().zip(&stores) {
            hash ^= keys[usize::from(n)];
        }
        hash
    }
}

/// A fixed SplitMix64 sequence from `seed`, so the keys are the same in
/// every build.
pub(crate) const fn zobrist_table(seed: u64) -> ZobristTable {
    let mut state = seed;
    let mut table = ZobristTable {
        holes: [[0; MAX_SEEDS + 1]; HOLES],
        stores: [[0; MAX_SEEDS + 1]; 2],
        north_to_move: 0,
    };
    let mut i = 0;
    while i < (HOLES + 2) * (MAX_SEEDS + 1) {
        state = state.wrapping_add(GOLDEN);
        let (row, n) = (i / (MAX_SEEDS + 1), i % (MAX_SEEDS + 1));
        if row < HOLES {
            table.holes[row][n] = mix(state);
        } else {
            table.stores[row - HOLES][n] = mix(state);
        }
        i += 1;
    }
    table.north_to_move = mix(state.wrapping_add(GOLDEN));
    table
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
        board.holes[11] = 3;
        assert_eq!(board.row_word(Side::South), 0);
        assert_eq!(board.row_word(Side::North), 3 << 40);
        assert_eq!(nonzero_holes(board.row_word(Side::North)), 1 << 5);
    }
}
