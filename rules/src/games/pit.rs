//! What the 2×6 store games (Kalah, Oware) share that is not a rule: the
//! move (a hole number 1–12), the human board and the Zobrist keys.

use std::fmt;
use std::str::FromStr;

use crate::display::{render_board, Row};
use crate::error::Field;
use crate::position::{
    format_holes, parse_hole_number, parse_open_holes, parse_pair, parse_side, FieldReader,
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
