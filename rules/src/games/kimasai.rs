//! Bao la Kimasai (`kimasai`): 4×12, single stones stepping into empty holes.
//!
//! The clauses implemented (normative text: `docs/rules/kimasai.md`):
//!
//! - Each player owns two rows and a circuit of 24 holes, numbered
//!   counter-clockwise from his back-row leftmost hole: South 1–24, North 25–48.
//!   As South sees the board:
//!
//!   ```text
//!   36 35 34 33 32 31 30 29 28 27 26 25     North back
//!   37 38 39 40 41 42 43 44 45 46 47 48     North front
//!   24 23 22 21 20 19 18 17 16 15 14 13     South front
//!    1  2  3  4  5  6  7  8  9 10 11 12     South back
//!   ```
//!
//!   Column `c` (0 = South's leftmost) holds South back `1+c`, South front
//!   `24−c`, North front `37+c`, North back `36−c`.
//! - Start: one stone in every hole except 24 and 48 (46 stones).
//! - A move names a hole of the mover holding a stone whose next hole in his
//!   circuit (South 24→1, North 48→25) is empty; the stone steps there. A hole
//!   never holds more than one stone.
//! - Capture: a stone entering the mover's front row captures the opponent's
//!   front-row stone in that column, if any; only when it does, the
//!   opponent's back-row stone in that column (if any) is captured too.
//! - The player to move loses when he has no stone or no legal move. A position
//!   (board and side to move) that repeats is a draw (first repetition,
//!   applied by [`crate::GameRecord`]).
//!
//! # Representation
//!
//! One 24-bit bitboard per side ([`Kimasai::stones`]): bit `i` is the side's
//! circuit index `i`, i.e. hole `i + 1` for South and hole `i + 25` for North.
//! Bits 0–11 are the back row ([`BACK_ROW`]), bits 12–23 the front row
//! ([`FRONT_ROW`]). With this indexing both sides share one geometry: a stone
//! entering front index `i` faces the opponent's front index `35 − i` and back
//! index `i − 12` (see [`facing`]).

use std::fmt;
use std::str::FromStr;

use crate::display::{render_board, Row};
use crate::error::Field;
use crate::position::{format_holes, parse_hole_number, parse_open_holes, parse_side, FieldReader};
use crate::trace::{LapKind, NoTrace, Observer, Step, Target, Traced};
use crate::zobrist::mix;
use crate::{
    EndReason, Game, GameId, MoveSyntaxError, Outcome, PositionError, RepetitionEffect, Side,
};

/// Holes on the board.
pub const HOLES: usize = 48;
/// Holes in one player's circuit (his two rows).
pub const CIRCUIT: u32 = 24;
/// Holes in one row.
pub const ROW: u32 = 12;
/// All 24 circuit bits of one side.
pub const ALL: u32 = (1 << CIRCUIT) - 1;
/// Circuit indices 0–11: the back row.
pub const BACK_ROW: u32 = (1 << ROW) - 1;
/// Circuit indices 12–23: the front row.
pub const FRONT_ROW: u32 = ALL & !BACK_ROW;
/// Stones in the start position.
pub const START_STONES: u32 = 46;
/// Most stones a side may have in a valid position. With 24 stones a circuit is
/// full and nothing can move; the start has 23.
pub const MAX_STONES_PER_SIDE: u32 = 23;

/// For a stone entering the mover's front-row circuit index `i` (12–23): the
/// opponent's circuit indices of the front and back hole in the same column.
///
/// Why it is the same for both sides: South front index `i` is hole `i+1`,
/// column `23−i`; North front index `j` is hole `j+25`, column `j−12`. So the
/// facing front index is `12 + (23 − i) = 35 − i`, and the back index in that
/// column is `c` for South and `11 − c` for North, both `i − 12`.
#[inline]
pub const fn facing(i: u32) -> (u32, u32) {
    (35 - i, i - 12)
}

/// The column (0 = leftmost as South sees the board) of `side`'s circuit index `i`.
pub const fn column(side: Side, i: u32) -> u32 {
    match (side, i < ROW) {
        (Side::South, true) => i,
        (Side::South, false) => 23 - i,
        (Side::North, true) => 11 - i,
        (Side::North, false) => i - 12,
    }
}

/// The hole number of `side`'s circuit index `i` (0–23).
#[inline]
pub const fn hole_number(side: Side, i: u32) -> u8 {
    (i + 1 + CIRCUIT * side as u32) as u8
}

/// The owner and circuit index of a hole number 1–48.
pub fn hole_owner(hole: u8) -> Option<(Side, u32)> {
    match hole {
        1..=24 => Some((Side::South, u32::from(hole) - 1)),
        25..=48 => Some((Side::North, u32::from(hole) - 25)),
        _ => None,
    }
}

/// The circuit indices whose stone may step: occupied, with the next hole of
/// the circuit (index 23 wraps to 0) empty.
#[inline]
pub const fn movable(own: u32) -> u32 {
    // Bit i of `next` is bit (i + 1) mod 24 of `own`.
    let next = (own >> 1) | ((own & 1) << (CIRCUIT - 1));
    own & !next & ALL
}

/// A Kimasai position: a stone bitboard per side and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Kimasai {
    /// Indexed by `Side::index()`; bit `i` = circuit index `i` (see module docs).
    stones: [u32; 2],
    side: Side,
}

/// A move: the hole number (1–48) the stepping stone starts from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KimasaiMove(pub u8);

impl KimasaiMove {
    /// The hole number the stone leaves.
    pub fn hole(self) -> u8 {
        self.0
    }
}

impl fmt::Display for KimasaiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for KimasaiMove {
    type Err = MoveSyntaxError;

    /// A hole number 1–48 in plain decimal (no sign, no leading zero).
    fn from_str(s: &str) -> Result<Self, MoveSyntaxError> {
        parse_hole_number(s, HOLES as u8)
            .map(KimasaiMove)
            .ok_or_else(|| MoveSyntaxError::new(s, "not a hole number from 1 to 48"))
    }
}

impl Kimasai {
    /// A position from two bitboards (bit `i` = circuit index `i`, see the
    /// module docs), checked like a position string.
    pub fn from_bitboards(south: u32, north: u32, side: Side) -> Result<Kimasai, PositionError> {
        for (s, bits) in [(Side::South, south), (Side::North, north)] {
            if bits & !ALL != 0 {
                return Err(PositionError::new(
                    Field::Holes,
                    format!("{s} bitboard has bits beyond its 24 holes"),
                ));
            }
            let n = bits.count_ones();
            if n > MAX_STONES_PER_SIDE {
                return Err(PositionError::new(
                    Field::Holes,
                    format!("{s} has {n} stones; at most {MAX_STONES_PER_SIDE} per side"),
                ));
            }
        }
        Ok(Kimasai {
            stones: [south, north],
            side,
        })
    }

    /// `side`'s stones as a bitboard: bit `i` is circuit index `i` (hole `i+1`
    /// for South, `i+25` for North); bits 0–11 back row, 12–23 front row.
    #[inline]
    pub fn stones(&self, side: Side) -> u32 {
        self.stones[side.index()]
    }

    /// How many stones `side` has.
    #[inline]
    pub fn stone_count(&self, side: Side) -> u32 {
        self.stones(side).count_ones()
    }

    /// Whether hole `hole` (1–48) holds a stone; `false` for other numbers.
    pub fn has_stone(&self, hole: u8) -> bool {
        hole_owner(hole).is_some_and(|(s, i)| self.stones(s) >> i & 1 == 1)
    }

    /// The circuit indices of the side to move whose stone can step (the legal
    /// moves as a bitboard).
    #[inline]
    pub fn movable(&self) -> u32 {
        movable(self.stones(self.side))
    }

    fn holes(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=HOLES as u8).map(|h| u8::from(self.has_stone(h)))
    }
}

impl fmt::Display for Kimasai {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            GameId::Kimasai,
            format_holes(self.holes().map(Some)),
            self.side.letter()
        )
    }
}

impl FromStr for Kimasai {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, PositionError> {
        let mut reader = FieldReader::new(s, GameId::Kimasai)?;
        let holes = parse_open_holes(reader.next(Field::Holes)?, HOLES)?;
        let mut stones = [0u32; 2];
        for (n, &count) in holes.iter().enumerate() {
            if count > 1 {
                return Err(PositionError::new(
                    Field::Holes,
                    format!(
                        "hole {} holds {count} stones; a Kimasai hole holds at most 1",
                        n + 1
                    ),
                ));
            }
            let side = if n < CIRCUIT as usize { 0 } else { 1 };
            stones[side] |= u32::from(count) << (n % CIRCUIT as usize);
        }
        let side = parse_side(reader.next(Field::Side)?)?;
        reader.finish()?;
        Kimasai::from_bitboards(stones[0], stones[1], side)
    }
}

impl Game for Kimasai {
    type Move = KimasaiMove;
    const ID: GameId = GameId::Kimasai;

    const LAYOUT: crate::Layout = crate::Layout {
        rows: &[(36, 25), (37, 48), (24, 13), (1, 12)],
        pair: None,
        round: false,
        closable: false,
    };
    /// The first repetition of a position draws.
    const REPETITION_LIMIT: usize = 2;

    fn start() -> Self {
        // Every hole but circuit index 23 (holes 24 and 48).
        let each = ALL & !(1 << 23);
        Kimasai {
            stones: [each, each],
            side: Side::South,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        let mut bits = self.movable();
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            moves.push(KimasaiMove(hole_number(self.side, i)));
        }
    }

    fn play(&mut self, mv: Self::Move) {
        self.play_observed(mv, &mut NoTrace);
    }

    fn status(&self) -> Option<Outcome> {
        // No stone means no legal move; with at most 23 stones on a 24-hole
        // circuit some stone always has an empty hole after it, but the rule
        // is checked as written.
        if self.movable() == 0 {
            Some(Outcome::win(self.side.opponent(), EndReason::NoLegalMove))
        } else {
            None
        }
    }

    fn on_repetition(&self) -> RepetitionEffect<Self> {
        RepetitionEffect::GameOver(Outcome::draw(EndReason::Repetition))
    }

    /// Stones removed from play (captures only ever remove stones).
    fn history_key(&self) -> u64 {
        u64::from(START_STONES.saturating_sub(self.seed_count()))
    }

    /// The SplitMix64 finaliser of `south | north << 24 | side << 48`: a
    /// bijection on `u64`, so distinct positions never collide and every bit
    /// is well mixed (good as a transposition-table key).
    fn zobrist(&self) -> u64 {
        mix(u64::from(self.stones[0])
            | u64::from(self.stones[1]) << CIRCUIT
            | (self.side.index() as u64) << (2 * CIRCUIT))
    }

    fn seed_count(&self) -> u32 {
        self.stones[0].count_ones() + self.stones[1].count_ones()
    }

    fn render(&self) -> String {
        let row = |label, holes: Vec<usize>| Row { label, holes };
        let rows = [
            row("North back", (25..=36).rev().collect()),
            row("North front", (37..=48).collect()),
            row("South front", (13..=24).rev().collect()),
            row("South back", (1..=12).collect()),
        ];
        let note = |side: Side| {
            let n = self.stone_count(side);
            let turn = if side == self.side { ", to move" } else { "" };
            format!("{n} stone{}{turn}", if n == 1 { "" } else { "s" })
        };
        render_board(
            "Bao la Kimasai (kimasai)",
            &rows,
            2,
            |h| {
                if self.has_stone(h as u8) {
                    "o".into()
                } else {
                    ".".into()
                }
            },
            &note(Side::North),
            &note(Side::South),
        )
    }
}

/// The capture of `side`'s stone at circuit index `i`.
fn removed(side: Side, i: u32) -> Step {
    Step::Capture {
        from: hole_number(side, i),
        count: 1,
        to: Target::Removed,
    }
}

impl Traced for Kimasai {
    fn play_observed<O: Observer>(&mut self, mv: KimasaiMove, observer: &mut O) {
        let me = self.side.index();
        let from = u32::from(mv.0).wrapping_sub(1 + CIRCUIT * me as u32);
        debug_assert!(
            from < CIRCUIT && movable(self.stones[me]) >> from & 1 == 1,
            "illegal move {mv} in {self}"
        );
        // Keep an illegal move memory-safe and panic-free in release builds.
        let from = from % CIRCUIT;
        let to = (from + 1) % CIRCUIT;
        self.stones[me] = (self.stones[me] & !(1 << from)) | 1 << to;
        observer.step(|| Step::Lap {
            number: 1,
            kind: LapKind::Start,
        });
        observer.step(|| Step::Pick {
            hole: hole_number(self.side, from),
            count: 1,
        });
        observer.step(|| Step::Sow {
            hole: hole_number(self.side, to),
        });
        if to >= ROW {
            let (front, back) = facing(to);
            let opponent = self.side.opponent();
            let opp = &mut self.stones[1 - me];
            if *opp >> front & 1 == 1 {
                let back_taken = *opp >> back & 1 == 1;
                *opp &= !(1 << front);
                // The back stone goes only together with the front stone.
                *opp &= !(1 << back);
                observer.step(|| removed(opponent, front));
                if back_taken {
                    observer.step(|| removed(opponent, back));
                }
            }
        }
        self.side = self.side.opponent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;
    use crate::{GameRecord, GameResult};

    /// A position from the hole numbers holding a stone.
    fn pos(holes: &[u8], side: Side) -> Kimasai {
        let mut stones = [0u32; 2];
        for &h in holes {
            let (s, i) = hole_owner(h).unwrap();
            stones[s.index()] |= 1 << i;
        }
        Kimasai::from_bitboards(stones[0], stones[1], side).unwrap()
    }

    fn holes_of(p: &Kimasai) -> Vec<u8> {
        (1..=48).filter(|&h| p.has_stone(h)).collect()
    }

    fn moves(p: &Kimasai) -> Vec<u8> {
        p.legal_move_list().iter().map(|m| m.0).collect()
    }

    #[test]
    fn start_position_string_and_only_move() {
        let start = Kimasai::start();
        assert_eq!(
            start.to_string(),
            "kimasai 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,\
             1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0 S"
        );
        assert_eq!(start.seed_count(), 46);
        assert_eq!(start.history_key(), 0);
        assert_eq!(moves(&start), vec![23]);
    }

    #[test]
    fn opening_move_captures_37_and_36() {
        let after = Kimasai::start().after(KimasaiMove(23));
        assert_eq!(
            after.to_string(),
            "kimasai 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,\
             1,1,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,1,1,1,0 N"
        );
        assert_eq!(after.seed_count(), 44);
        assert_eq!(after.history_key(), 2);
        // North can step 35 into the emptied 36, or 47 into 48.
        assert_eq!(moves(&after), vec![35, 47]);
    }

    #[test]
    fn columns_match_the_diagram() {
        for c in 0..12u8 {
            let c32 = u32::from(c);
            let (s, i) = hole_owner(1 + c).unwrap();
            assert_eq!((s, column(s, i)), (Side::South, c32));
            let (s, i) = hole_owner(24 - c).unwrap();
            assert_eq!((s, column(s, i)), (Side::South, c32));
            let (s, i) = hole_owner(37 + c).unwrap();
            assert_eq!((s, column(s, i)), (Side::North, c32));
            let (s, i) = hole_owner(36 - c).unwrap();
            assert_eq!((s, column(s, i)), (Side::North, c32));
        }
        for i in ROW..CIRCUIT {
            for side in Side::BOTH {
                let (front, back) = facing(i);
                let opp = side.opponent();
                assert_eq!(column(opp, front), column(side, i));
                assert!(front >= ROW);
                assert_eq!(column(opp, back), column(side, i));
                assert!(back < ROW);
            }
        }
    }

    #[test]
    fn front_and_back_captured_together() {
        // South 12 -> 13 enters column 11: North front 48, back 25.
        let p = pos(&[12, 25, 48, 30], Side::South);
        assert_eq!(p.to_string().split(' ').nth(2), Some("S"));
        let q = p.after(KimasaiMove(12));
        assert_eq!(holes_of(&q), vec![13, 30]);
        assert_eq!(q.side_to_move(), Side::North);
        assert_eq!(q.history_key(), p.history_key() + 2);
    }

    #[test]
    fn front_alone_is_captured_when_back_is_empty() {
        let p = pos(&[12, 48, 30], Side::South);
        assert_eq!(holes_of(&p.after(KimasaiMove(12))), vec![13, 30]);
    }

    #[test]
    fn back_row_is_safe_without_the_front_stone() {
        // Column 11: North front 48 empty, back 25 occupied: nothing is taken.
        let p = pos(&[12, 25, 30], Side::South);
        let q = p.after(KimasaiMove(12));
        assert_eq!(holes_of(&q), vec![13, 25, 30]);
        assert_eq!(q.history_key(), p.history_key());
    }

    #[test]
    fn north_captures_the_same_way() {
        // North 36 -> 37 enters column 0: South front 24, back 1.
        let p = pos(&[1, 24, 5, 36], Side::North);
        assert_eq!(
            p.to_string(),
            "kimasai 1,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,\
             0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0 N"
        );
        let q = p.after(KimasaiMove(36));
        assert_eq!(holes_of(&q), vec![5, 37]);
        // A North stone entering its front row mid-row: 40 -> 41 is column 4,
        // facing South front 20 and back 5.
        let p = pos(&[5, 20, 40], Side::North);
        assert_eq!(holes_of(&p.after(KimasaiMove(40))), vec![41]);
    }

    #[test]
    fn moves_into_the_back_row_never_capture() {
        // South 24 -> 1 (wrap) lands in column 0 of the back row; North's
        // front 37 and back 36 face it but are not taken.
        let p = pos(&[24, 36, 37], Side::South);
        assert_eq!(moves(&p), vec![24]);
        let q = p.after(KimasaiMove(24));
        assert_eq!(holes_of(&q), vec![1, 36, 37]);
        assert_eq!(
            q.to_string(),
            "kimasai 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,\
             0,0,0,0,0,0,0,0,0,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0 N"
        );
        // A step inside the back row: 3 -> 4 faces North 33 and 40.
        let p = pos(&[3, 33, 40], Side::South);
        assert_eq!(holes_of(&p.after(KimasaiMove(3))), vec![4, 33, 40]);
    }

    #[test]
    fn north_wraps_48_to_25() {
        // 25 is North's back row: South's 13 and 12 in column 11 stay.
        let p = pos(&[12, 13, 48], Side::North);
        assert_eq!(moves(&p), vec![48]);
        let q = p.after(KimasaiMove(48));
        assert_eq!(holes_of(&q), vec![12, 13, 25]);
        assert_eq!(q.side_to_move(), Side::South);
    }

    #[test]
    fn blocked_stones_cannot_step() {
        // South 1,2,3: only 3 can step; 24 is blocked by 1.
        let p = pos(&[1, 2, 3, 24, 30], Side::South);
        assert_eq!(moves(&p), vec![3]);
    }

    #[test]
    fn no_stone_loses() {
        let p = pos(&[30], Side::South);
        assert_eq!(p.legal_move_list(), vec![]);
        assert_eq!(
            p.status(),
            Some(Outcome::win(Side::North, EndReason::NoLegalMove))
        );
        let p = pos(&[3], Side::North);
        assert_eq!(p.status().map(|o| o.result), Some(GameResult::SouthWins));
    }

    #[test]
    fn a_full_circuit_has_no_legal_move() {
        // Unreachable through position strings (at most 23 per side), but it is
        // the only way to have stones and no move: the rule still holds.
        assert_eq!(movable(ALL), 0);
        let p = Kimasai {
            stones: [ALL, 1],
            side: Side::South,
        };
        assert_eq!(p.legal_move_list(), vec![]);
        assert_eq!(
            p.status(),
            Some(Outcome::win(Side::North, EndReason::NoLegalMove))
        );
        // Any non-full, non-empty circuit has a move.
        for k in 0..CIRCUIT {
            assert_ne!(movable(ALL & !(1 << k)), 0);
            assert_ne!(movable(1 << k), 0);
        }
    }

    #[test]
    fn capturing_the_last_stone_wins() {
        let mut record = GameRecord::new(pos(&[12, 48], Side::South));
        record.play_str("12").unwrap();
        assert_eq!(record.position().to_string().split(' ').nth(2), Some("N"));
        assert_eq!(
            record.outcome(),
            Some(Outcome::win(Side::South, EndReason::NoLegalMove))
        );
        assert!(record.legal_moves().is_empty());
    }

    #[test]
    fn a_repetition_is_a_draw() {
        assert_eq!(Kimasai::REPETITION_LIMIT, 2);
        assert_eq!(
            Kimasai::start().on_repetition(),
            RepetitionEffect::GameOver(Outcome::draw(EndReason::Repetition))
        );
    }

    /// Every position with at most `max` stones per side, either side to move.
    fn small_positions(max: u32) -> Vec<Kimasai> {
        let boards: Vec<u32> = (0..=ALL).filter(|b| b.count_ones() <= max).collect();
        let mut out = Vec::new();
        for &s in &boards {
            for &n in &boards {
                for side in Side::BOTH {
                    out.push(Kimasai {
                        stones: [s, n],
                        side,
                    });
                }
            }
        }
        out
    }

    /// A position can only repeat along a capture-free cycle of moves. The
    /// docs prove there is none (a South and a North stone can never share
    /// the front rows without a capture, which forces each side's moves to
    /// alternate between front and back rows in lockstep, which a cycle
    /// cannot do); this checks it exhaustively for up to 2 stones a side.
    #[test]
    fn no_capture_free_cycle_with_few_stones() {
        use std::collections::HashMap;
        let positions = small_positions(2);
        let index: HashMap<Kimasai, usize> =
            positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let successors = |p: &Kimasai| -> Vec<usize> {
            p.legal_move_list()
                .into_iter()
                .map(|m| p.after(m))
                .filter(|q| q.seed_count() == p.seed_count())
                .map(|q| index[&q])
                .collect()
        };
        // Kahn's algorithm: the graph is acyclic iff every node gets removed.
        let succ: Vec<Vec<usize>> = positions.iter().map(successors).collect();
        let mut indegree = vec![0usize; positions.len()];
        for list in &succ {
            for &j in list {
                indegree[j] += 1;
            }
        }
        let mut ready: Vec<usize> = (0..positions.len()).filter(|&i| indegree[i] == 0).collect();
        let mut removed = 0;
        while let Some(i) = ready.pop() {
            removed += 1;
            for &j in &succ[i] {
                indegree[j] -= 1;
                if indegree[j] == 0 {
                    ready.push(j);
                }
            }
        }
        assert!(succ.iter().any(|l| !l.is_empty()));
        assert_eq!(removed, positions.len(), "a capture-free cycle exists");
    }

    #[test]
    fn a_lost_position_is_a_loss_not_a_repetition() {
        // The loss is judged before repetition; a record opened on a lost
        // position reports the loss.
        let record = GameRecord::new(pos(&[40], Side::South));
        assert_eq!(
            record.outcome(),
            Some(Outcome::win(Side::North, EndReason::NoLegalMove))
        );
    }

    #[test]
    fn zobrist_distinguishes_side_and_stones() {
        let a = pos(&[1, 25], Side::South);
        let b = pos(&[1, 25], Side::North);
        let c = pos(&[2, 25], Side::South);
        assert_ne!(a.zobrist(), b.zobrist());
        assert_ne!(a.zobrist(), c.zobrist());
        assert_eq!(a.zobrist(), pos(&[25, 1], Side::South).zobrist());
    }

    #[test]
    fn render_shows_four_rows_with_numbers() {
        let text = Kimasai::start().render();
        for label in ["North back", "North front", "South front", "South back"] {
            assert!(text.contains(label), "{text}");
        }
        let lines: Vec<&str> = text.lines().collect();
        let first_numbers = lines.iter().position(|l| l.contains("#36")).unwrap();
        assert!(lines[first_numbers].trim_start().starts_with("#36"));
        assert!(lines.iter().any(|l| l.trim_start().starts_with("#37")));
        assert!(lines.iter().any(|l| l.trim_start().starts_with("#24")));
        assert!(lines.last().unwrap().contains("to move"));
    }

    #[test]
    fn perft_shallow() {
        let start = Kimasai::start();
        let counts: Vec<u64> = (1..=6).map(|d| perft(&start, d)).collect();
        assert_eq!(counts, vec![1, 2, 3, 7, 15, 40]);
    }
}
