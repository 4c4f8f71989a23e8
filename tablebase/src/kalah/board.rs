//! A Kalah board seen from the player to move, as one 128-bit word: the
//! sowing of a move is one addition (a table of what each hole and seed
//! count adds), as in the rules library, which the tests compare it with.
//!
//! Byte `c` of the word is cell `c` of the mover's circuit of 13: 0–5 his
//! holes from his left, 6 his store (always 0 between moves: the seeds a
//! move puts there are its gain), 7–12 the opponent's holes in sowing order
//! (the opponent's hole `i` from his left at byte `7 + i`). The opposite of
//! the mover's hole `i` is byte `12 − i`. Stores are not part of the board:
//! the value of the seeds on the board does not depend on them.

use mancala_rules::games::kalah::Kalah;
use mancala_rules::games::pit::HOLES;
use mancala_rules::Side;

use crate::index::Board;

/// The word of a board (see the module page).
pub type Word = u128;

const CIRCUIT: usize = 13;
const STORE: usize = 6;
/// The most seeds a board can hold (`kalah-6x6`'s total).
pub const MAX_SEEDS: usize = 72;
/// Bytes 0..6: the mover's row.
const OWN: Word = (1 << 48) - 1;
/// Bytes 7..13: the opponent's row.
const OPP: Word = OWN << 56;

/// `SOWN[origin][seeds]`: what sowing `seeds` seeds from the mover's hole
/// `origin` adds to the word, with the `seeds` taken from the origin
/// subtracted (wrapping: the sum is exact, see the rules library's table).
static SOWN: [[Word; MAX_SEEDS + 1]; 6] = sown_table();

const fn sown_table() -> [[Word; MAX_SEEDS + 1]; 6] {
    let mut t = [[0; MAX_SEEDS + 1]; 6];
    let mut origin = 0;
    while origin < 6 {
        let mut seeds = 0;
        while seeds <= MAX_SEEDS {
            let mut w: Word = 0;
            let mut k = 1;
            while k <= seeds {
                w = w.wrapping_add(1 << (8 * ((origin + k) % CIRCUIT)));
                k += 1;
            }
            t[origin][seeds] = w.wrapping_sub((seeds as Word) << (8 * origin));
            seeds += 1;
        }
        origin += 1;
    }
    t
}

/// Byte `c` of a word.
#[inline(always)]
pub fn cell(w: Word, c: usize) -> u8 {
    (w >> (8 * c)) as u8
}

/// The sum of the six bytes of a row's word (each at most 72).
#[inline]
fn row_sum(row: Word) -> i32 {
    (0..6).map(|i| i32::from((row >> (8 * i)) as u8)).sum()
}

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The game is over: the mover's net gain from the seeds on the board
    /// before the move (his store's gain plus his row, minus the opponent's row).
    Over(i32),
    /// The last seed fell into the mover's store: he moves again on this
    /// board; `gain` seeds went to his store.
    Again { gain: i32, board: Word },
    /// The turn passes: the opponent's board (already turned to him);
    /// `gain` seeds went to the mover's store (sown past it, or a capture).
    Opponent { gain: i32, board: Word },
}

/// The board after the mover sows his hole `origin` (0–5, not empty).
#[inline(always)]
pub fn play(w: Word, origin: usize) -> Next {
    let seeds = usize::from(cell(w, origin));
    debug_assert!(seeds > 0 && origin < 6);
    let mut w = w.wrapping_add(SOWN[origin][seeds]);
    let last = (origin + seeds) % CIRCUIT;
    if last < STORE && cell(w, last) == 1 {
        let opposite = 12 - last;
        let taken = cell(w, opposite);
        if taken > 0 {
            w = w - ((taken as Word) << (8 * opposite)) - (1 << (8 * last))
                + ((Word::from(taken) + 1) << (8 * STORE));
        }
    }
    let gain = i32::from(cell(w, STORE));
    let w = w & (OWN | OPP);
    let (own, opp) = (w & OWN, w & OPP);
    if own == 0 || opp == 0 {
        return Next::Over(gain + row_sum(own) - row_sum(opp >> 56));
    }
    if last == STORE {
        Next::Again { gain, board: w }
    } else {
        Next::Opponent {
            gain,
            board: turn(w),
        }
    }
}

/// The same board seen from the other player.
#[inline(always)]
pub fn turn(w: Word) -> Word {
    ((w >> 56) & OWN) | ((w & OWN) << 56)
}

/// The game is over on this board (a row is empty): the mover's net gain
/// (his row minus the opponent's); `None` while both rows hold seeds.
pub fn end_value(w: Word) -> Option<i32> {
    let (own, opp) = (w & OWN, w & OPP);
    (own == 0 || opp == 0).then(|| row_sum(own) - row_sum(opp >> 56))
}

/// The mover's holes that hold seeds, as bits (bit `i`: his hole `i`).
#[inline(always)]
pub fn move_bits(w: Word) -> u32 {
    let mut bits = 0;
    for i in 0..6 {
        if cell(w, i) != 0 {
            bits |= 1 << i;
        }
    }
    bits
}

/// Seeds on the board.
pub fn seeds(w: Word) -> usize {
    (row_sum(w & OWN) + row_sum((w & OPP) >> 56)) as usize
}

/// The word of a 12-pit board (the mover's six pits, then the opponent's six
/// in sowing order: the database's [`Board`]). `None` when a pit holds more
/// than [`MAX_SEEDS`].
pub fn from_board(b: &Board) -> Option<Word> {
    if b.iter().any(|&x| usize::from(x) > MAX_SEEDS) {
        return None;
    }
    let mut w = 0;
    for (i, &x) in b.iter().enumerate() {
        let c = if i < 6 { i } else { i + 1 };
        w |= Word::from(x) << (8 * c);
    }
    Some(w)
}

/// The 12-pit [`Board`] of a word.
#[inline(always)]
pub fn to_board(w: Word) -> Board {
    let mut b = [0u8; HOLES];
    for (i, x) in b.iter_mut().enumerate() {
        *x = cell(w, if i < 6 { i } else { i + 1 });
    }
    b
}

/// The board of a Kalah position (either size) seen from the player to move,
/// and his store minus the opponent's.
pub fn of_position(holes: &[u8; HOLES], stores: [u8; 2], side: Side) -> (Word, i32) {
    let mut b = [0u8; HOLES];
    let (own, opp) = match side {
        Side::South => (0, 6),
        Side::North => (6, 0),
    };
    b[..6].copy_from_slice(&holes[own..own + 6]);
    b[6..].copy_from_slice(&holes[opp..opp + 6]);
    let diff = i32::from(stores[side.index()]) - i32::from(stores[side.opponent().index()]);
    // A hole of a valid position holds at most the game's total, 72.
    (from_board(&b).unwrap_or(0), diff)
}

/// The `kalah` position of a board with South to move (the stores made up
/// to the game's 48 seeds); `None` above 48 seeds. For tests and checks
/// against the rules library.
pub fn south_to_move(w: Word) -> Option<Kalah> {
    let b = to_board(w);
    let n = seeds(w);
    let left = u8::try_from(48usize.checked_sub(n)?).ok()?;
    Kalah::new(b, [left, 0], Side::South).ok()
}

/// The move of the rules library for the mover's hole `origin`.
pub fn hole_number(side: Side, origin: usize) -> u8 {
    match side {
        Side::South => origin as u8 + 1,
        Side::North => origin as u8 + 7,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::games::pit::PitMove;
    use mancala_rules::Game;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A random board of `n` seeds.
    fn random_board(rng: &mut SmallRng, n: usize) -> Word {
        let mut b = [0u8; HOLES];
        for _ in 0..n {
            b[rng.random_range(0..HOLES)] += 1;
        }
        from_board(&b).unwrap()
    }

    /// Every move of random boards agrees with the rules library: the gain,
    /// who moves next, the board, and the end's allocation.
    #[test]
    fn moves_agree_with_the_rules_library() {
        let mut rng = SmallRng::seed_from_u64(7);
        for i in 0..20_000 {
            let n = 1 + i % 48;
            let w = random_board(&mut rng, n);
            let pos = south_to_move(w).unwrap();
            assert_eq!(end_value(w).is_some(), pos.status().is_some());
            if end_value(w).is_some() {
                continue;
            }
            let bits = move_bits(w);
            for origin in 0..6 {
                let mv = PitMove::new(hole_number(Side::South, origin)).unwrap();
                let legal = pos.legal_move_list().contains(&mv);
                assert_eq!(legal, bits & (1 << origin) != 0);
                if !legal {
                    continue;
                }
                let after = pos.after(mv);
                let gain = i32::from(after.stores()[0]) - i32::from(pos.stores()[0]);
                assert_eq!(after.stores()[1], 0, "nothing goes to the opponent's store");
                match play(w, origin) {
                    Next::Over(v) => {
                        let out = after.status().expect("over");
                        let s = out.scores.expect("scores");
                        let before = i32::from(pos.stores()[0]);
                        assert_eq!(v, s[0] as i32 - before - s[1] as i32, "{pos} {mv}");
                    }
                    Next::Again { gain: g, board } => {
                        assert!(after.status().is_none());
                        assert_eq!(after.side_to_move(), Side::South);
                        assert_eq!(g, gain);
                        assert_eq!(&to_board(board), after.holes(), "{pos} {mv}");
                    }
                    Next::Opponent { gain: g, board } => {
                        assert!(after.status().is_none());
                        assert_eq!(after.side_to_move(), Side::North);
                        assert_eq!(g, gain);
                        let (seen, _) = of_position(after.holes(), after.stores(), Side::North);
                        assert_eq!(seen, board, "{pos} {mv}");
                    }
                }
            }
        }
    }

    #[test]
    fn board_round_trips() {
        let mut rng = SmallRng::seed_from_u64(3);
        for n in 0..=72 {
            let w = random_board(&mut rng, n);
            assert_eq!(from_board(&to_board(w)), Some(w));
            assert_eq!(seeds(w), n);
            assert_eq!(turn(turn(w)), w);
        }
    }
}
