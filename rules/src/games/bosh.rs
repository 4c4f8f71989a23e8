//! Bosh (`bosh`): the Somali 2×5 relay-sowing game played in rounds, with
//! holes closed when their owner can no longer fill them.
//!
//! ```text
//!       10  9  8  7  6       North
//!        1  2  3  4  5       South
//! ```
//!
//! The clauses implemented here (from `shared/rules-and-notation.md`, with the
//! project's rulings; `docs/rules/bosh.md` explains them in prose):
//!
//! - A move names an occupied open hole of the mover. Its stones are sown
//!   counter-clockwise (increasing numbers, 10 → 1), one per **open** hole;
//!   closed holes do not exist for sowing, relays or captures, and the origin
//!   hole is not skipped.
//! - After the last stone of a lap, look at the next open hole A. A occupied:
//!   take all of A and sow them from the hole after A (a relay lap). A empty:
//!   look at the open hole B after A; B occupied: its stones go to the mover's
//!   reserve and the move ends; B empty: the move ends.
//! - **Endless moves (ruling)**: a move is legal only if its sowing ends within
//!   [`MAX_LAPS`] laps (the first sowing and each relay are one lap each).
//! - A player who must move with every open hole empty, or whose every move is
//!   endless, cannot move: the **round ends** and every stone on the board goes
//!   to his opponent's reserve.
//! - **Cycles (ruling)**: a position occurring for the third time in a round
//!   ([`Game::REPETITION_LIMIT`] = 3, applied by [`crate::GameRecord`]) ends the
//!   round; each player takes the stones in his own open holes.
//! - **New round**: each player fills his holes from his reserve, 4 stones a
//!   hole, leftmost first (South 1 → 5, North 6 → 10); holes he cannot fill
//!   with a full 4 are closed (a closed hole reopens whenever its owner can fill
//!   it again); leftovers stay in the reserve. Whoever was to move when the
//!   round ended opens the next one. The round number goes up by one.
//! - The **match** is won when the opponent cannot fill a single hole (he has
//!   fewer than 4 stones).
//!
//! All round transitions happen inside [`Game::play`] (and
//! [`Game::on_repetition`]): a position never has a side to move that cannot
//! move while the match goes on. Position strings claiming such a position are
//! rejected.
//!
//! # Position string
//!
//! `bosh <holes 1..10> <S|N> <south reserve>/<north reserve> <round>`, a closed
//! hole written `x`; board plus reserves always hold 40 stones. Start:
//! `bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1`.
//!
//! # A finished match
//!
//! A finished match is the position right after the refill of the round that
//! would have followed: the loser (fewer than 4 stones) has **all five holes
//! closed** and his stones in his reserve; the winner's holes are filled as the
//! refill rule says; the side to move is whoever would have opened that round;
//! the round number is that of the round that was never played. For example
//! `bosh 4,4,4,4,4,x,x,x,x,x N 18/2 7` is a match South has won 38 to 2.
//! A side with every hole closed is exactly a finished match ([`Game::status`]
//! is `Some`, [`EndReason::MatchWon`], the scores are each player's stones);
//! a position string with a side wholly closed but 4 or more stones in that
//! side's reserve is rejected, since he would have refilled a hole.
//!
//! Position strings may close any holes (useful for studies), although in play
//! a player's open holes are always his leftmost ones.

use std::fmt;
use std::str::FromStr;

use crate::display::{render_board, Row};
use crate::error::Field;
use crate::position::{
    check_total, format_holes, parse_holes, parse_pair, parse_round, parse_side, FieldReader,
};
use crate::{
    EndReason, Game, GameId, GameResult, MoveSyntaxError, Outcome, PositionError, RepetitionEffect,
    Side,
};

/// Holes on the board.
const HOLES: usize = 10;
/// Holes per side.
const SIDE_HOLES: usize = 5;
/// Stones in the game (board plus reserves).
const TOTAL: u32 = 40;
/// Stones a hole is filled with at the start of a round.
const FILL: u8 = 4;
/// A move whose sowing has not ended after this many laps is endless, and
/// therefore not legal (ruling).
pub const MAX_LAPS: u32 = 10_000;

/// A Bosh position: board (with closed holes), reserves, side to move, round.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bosh {
    /// Stones in holes 1..10 (index 0..9); a closed hole holds 0.
    stones: [u8; HOLES],
    /// Bit `i` set: hole `i + 1` is closed.
    closed: u16,
    /// Reserves, indexed by `Side::index()`.
    reserves: [u8; 2],
    side: Side,
    /// The round, from 1.
    round: u32,
}

/// A move: the number (1..10) of the hole it starts from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoshMove(pub u8);

impl BoshMove {
    /// The hole number, 1..10.
    pub fn hole(self) -> u8 {
        self.0
    }
}

impl fmt::Display for BoshMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for BoshMove {
    type Err = MoveSyntaxError;
    fn from_str(s: &str) -> Result<Self, MoveSyntaxError> {
        // Canonical spelling only, so that a move's text round-trips.
        let canonical = !s.is_empty()
            && s.len() <= 2
            && s.bytes().all(|b| b.is_ascii_digit())
            && !s.starts_with('0');
        s.parse::<u8>()
            .ok()
            .filter(|&n| canonical && (1..=HOLES as u8).contains(&n))
            .map(BoshMove)
            .ok_or_else(|| MoveSyntaxError::new(s, "not a hole number from 1 to 10"))
    }
}

/// The side owning hole index `i` (0-based).
fn owner(i: usize) -> Side {
    if i < SIDE_HOLES {
        Side::South
    } else {
        Side::North
    }
}

/// The hole indices (0-based) of `side`, leftmost first from his own seat.
fn own_holes(side: Side) -> std::ops::Range<usize> {
    let first = side.index() * SIDE_HOLES;
    first..first + SIDE_HOLES
}

/// What a move does to the board, before any round transition.
struct Sown {
    stones: [u8; HOLES],
    captured: u8,
}

impl Bosh {
    /// Hole contents 1..10 (index 0..9), `None` for a closed hole.
    pub fn holes(&self) -> [Option<u8>; HOLES] {
        std::array::from_fn(|i| (!self.is_closed(i)).then_some(self.stones[i]))
    }

    /// Reserves, indexed by `Side::index()` (South first).
    pub fn reserves(&self) -> [u8; 2] {
        self.reserves
    }

    /// The round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Stones on `side`'s holes plus his reserve.
    pub fn stones_of(&self, side: Side) -> u32 {
        let board: u32 = own_holes(side).map(|i| u32::from(self.stones[i])).sum();
        board + u32::from(self.reserves[side.index()])
    }

    /// The side that has lost the match (every hole closed), if any.
    pub fn match_loser(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&s| own_holes(s).all(|i| self.is_closed(i)))
    }

    fn is_closed(&self, i: usize) -> bool {
        self.closed & (1 << i) != 0
    }

    /// The open holes in sowing order (0-based), and how many there are.
    fn open_holes(&self) -> ([u8; HOLES], usize) {
        let mut open = [0u8; HOLES];
        let mut k = 0;
        for i in 0..HOLES {
            if !self.is_closed(i) {
                open[k] = i as u8;
                k += 1;
            }
        }
        (open, k)
    }

    /// Plays the sowing of the move from hole index `from` (0-based, an
    /// occupied open hole): the board after it and the stones captured, or
    /// `None` when the sowing is endless (still going after `MAX_LAPS` laps).
    fn sow(&self, from: usize) -> Option<Sown> {
        let (open, k) = self.open_holes();
        // Work on the open holes only, in sowing order: closed holes do not
        // exist for sowing, relays or captures.
        let mut c = [0u8; HOLES];
        let mut p = 0;
        for (j, &i) in open[..k].iter().enumerate() {
            c[j] = self.stones[usize::from(i)];
            if usize::from(i) == from {
                p = j;
            }
        }
        // Brent's cycle detection on lap-start states: a repeated state proves
        // the move endless long before the lap bound is reached. The bound is
        // the rule; this is only a shortcut.
        let mut saved = lap_state(&c, p);
        let mut power = 1u32;
        let mut steps = 0u32;
        let mut laps = 0u32;
        loop {
            laps += 1;
            if laps > MAX_LAPS {
                return None;
            }
            let n = c[p];
            c[p] = 0;
            // n stones from p: every open hole gets n / k (the origin too),
            // then the n % k holes after p one more; the last lands n % k
            // holes after p (on the origin itself if that is 0).
            let (q, r) = (n / k as u8, usize::from(n) % k);
            if q > 0 {
                for x in &mut c[..k] {
                    *x += q;
                }
            }
            for _ in 0..r {
                p = if p + 1 == k { 0 } else { p + 1 };
                c[p] += 1;
            }
            let a = if p + 1 == k { 0 } else { p + 1 };
            if c[a] > 0 {
                // Relay from A.
                p = a;
                let state = lap_state(&c, p);
                if state == saved {
                    return None;
                }
                steps += 1;
                if steps == power {
                    saved = state;
                    power = power.saturating_mul(2);
                    steps = 0;
                }
                continue;
            }
            let b = if a + 1 == k { 0 } else { a + 1 };
            let captured = c[b];
            c[b] = 0;
            let mut stones = [0u8; HOLES];
            for (j, &i) in open[..k].iter().enumerate() {
                stones[usize::from(i)] = c[j];
            }
            return Some(Sown { stones, captured });
        }
    }

    /// Whether the side to move has a legal move (an occupied open hole whose
    /// sowing is not endless).
    fn can_move(&self) -> bool {
        own_holes(self.side).any(|i| self.stones[i] > 0 && self.sow(i).is_some())
    }

    /// Starts the next round from an empty board: the refill, leftmost hole
    /// first, closing the holes that cannot get a full 4. The side to move
    /// stays (turn order carries over).
    fn new_round(&mut self) {
        debug_assert!(self.stones.iter().all(|&s| s == 0));
        self.round = self.round.saturating_add(1);
        self.closed = 0;
        for side in Side::BOTH {
            let reserve = &mut self.reserves[side.index()];
            for i in own_holes(side) {
                if *reserve >= FILL {
                    *reserve -= FILL;
                    self.stones[i] = FILL;
                } else {
                    self.stones[i] = 0;
                    self.closed |= 1 << i;
                }
            }
        }
    }

    /// Applies the end-of-round rule as often as it applies: while the match
    /// goes on and the side to move cannot move, every stone on the board goes
    /// to his opponent's reserve and a new round starts (which he opens).
    fn settle(&mut self) {
        // Terminates: each pass moves at least the stuck player's 4 refilled
        // stones to his opponent (a fresh round gives him an occupied hole).
        while self.match_loser().is_none() && !self.can_move() {
            let on_board: u32 = self.stones.iter().map(|&s| u32::from(s)).sum();
            self.stones = [0; HOLES];
            let opponent = self.side.opponent().index();
            self.reserves[opponent] += on_board as u8;
            self.new_round();
        }
    }
}

/// A lap-start state (open-hole contents and the hole to pick up) packed into
/// 64 bits: at most 10 holes of at most 40 stones (6 bits each) and 4 bits of
/// position. Exact, so equal keys mean equal states.
fn lap_state(c: &[u8; HOLES], p: usize) -> u64 {
    c.iter().fold(p as u64, |acc, &x| (acc << 6) | u64::from(x))
}

impl fmt::Display for Bosh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bosh {} {} {}/{} {}",
            format_holes(self.holes()),
            self.side.letter(),
            self.reserves[0],
            self.reserves[1],
            self.round
        )
    }
}

impl FromStr for Bosh {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let mut reader = FieldReader::new(s, GameId::Bosh)?;
        let holes = parse_holes(reader.next(Field::Holes)?, HOLES, true)?;
        let side = parse_side(reader.next(Field::Side)?)?;
        let reserves = parse_pair(reader.next(Field::Stores)?)?;
        let round = parse_round(reader.next(Field::Round)?)?;
        reader.finish()?;

        let on_board: u32 = holes.iter().map(|h| u32::from(h.unwrap_or(0))).sum();
        let total = on_board + u32::from(reserves[0]) + u32::from(reserves[1]);
        check_total(total, TOTAL, "board and reserves")?;

        let mut stones = [0u8; HOLES];
        let mut closed = 0u16;
        for (i, h) in holes.iter().enumerate() {
            match h {
                Some(n) => stones[i] = *n,
                None => closed |= 1 << i,
            }
        }
        let position = Bosh {
            stones,
            closed,
            reserves,
            side,
            round,
        };

        for s in Side::BOTH {
            let reserve = reserves[s.index()];
            if own_holes(s).all(|i| position.is_closed(i)) && reserve >= FILL {
                return Err(PositionError::new(
                    Field::Holes,
                    format!(
                        "every hole of {s} is closed, but his reserve of {reserve} could fill one \
                         (a side is wholly closed only in a finished match, with fewer than 4 stones)"
                    ),
                ));
            }
        }
        if position.match_loser().is_none() && !position.can_move() {
            let why = if own_holes(side).all(|i| stones[i] == 0) {
                "every open hole of his is empty"
            } else {
                "every move of his is endless"
            };
            return Err(PositionError::new(
                Field::Side,
                format!(
                    "{side} is to move but cannot ({why}) while the match is not over; such a \
                     position never arises, because the round ends inside the move that leads to it"
                ),
            ));
        }
        Ok(position)
    }
}

impl Game for Bosh {
    type Move = BoshMove;
    const ID: GameId = GameId::Bosh;
    const REPETITION_LIMIT: usize = 3;

    fn start() -> Self {
        Bosh {
            stones: [FILL; HOLES],
            closed: 0,
            reserves: [0, 0],
            side: Side::South,
            round: 1,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        if self.match_loser().is_some() {
            return;
        }
        for i in own_holes(self.side) {
            if self.stones[i] > 0 && self.sow(i).is_some() {
                moves.push(BoshMove(i as u8 + 1));
            }
        }
    }

    /// Plays a legal move. An illegal one (not an occupied open hole of the
    /// mover, endless, or the match is over) leaves the position unchanged.
    fn play(&mut self, mv: Self::Move) {
        let i = usize::from(mv.0).wrapping_sub(1);
        let legal_origin = own_holes(self.side).contains(&i)
            && !self.is_closed(i)
            && self.stones[i] > 0
            && self.match_loser().is_none();
        if !legal_origin {
            return;
        }
        let Some(sown) = self.sow(i) else { return };
        self.stones = sown.stones;
        self.reserves[self.side.index()] += sown.captured;
        self.side = self.side.opponent();
        self.settle();
    }

    fn status(&self) -> Option<Outcome> {
        let loser = self.match_loser()?;
        Some(Outcome {
            result: GameResult::win_for(loser.opponent()),
            scores: Some([self.stones_of(Side::South), self.stones_of(Side::North)]),
            reason: EndReason::MatchWon,
        })
    }

    /// The cycle ruling: the round ends, each player takes the stones in his
    /// own open holes, and the next round starts (opened by the side to move
    /// here); it may be a finished match.
    fn on_repetition(&self) -> RepetitionEffect<Self> {
        if let Some(outcome) = self.status() {
            return RepetitionEffect::GameOver(outcome);
        }
        let mut next = self.clone();
        for i in 0..HOLES {
            next.reserves[owner(i).index()] += next.stones[i];
            next.stones[i] = 0;
        }
        next.new_round();
        next.settle();
        RepetitionEffect::Continue(next)
    }

    /// Round number above, total reserves below: within a round reserves only
    /// grow (captures), and every transition raises the round.
    fn history_key(&self) -> u64 {
        (u64::from(self.round) << 8) | u64::from(self.reserves[0] + self.reserves[1])
    }

    fn zobrist(&self) -> u64 {
        let mut h = splitmix64(u64::from(self.round) ^ ROUND_SALT);
        for i in 0..HOLES {
            let cell = if self.is_closed(i) {
                CLOSED
            } else {
                usize::from(self.stones[i])
            };
            h ^= ZOBRIST_HOLES[i][cell.min(CLOSED)];
        }
        for s in 0..2 {
            h ^= ZOBRIST_RESERVES[s][usize::from(self.reserves[s]).min(TOTAL as usize)];
        }
        if self.side == Side::North {
            h ^= ZOBRIST_NORTH;
        }
        h
    }

    fn seed_count(&self) -> u32 {
        self.stones_of(Side::South) + self.stones_of(Side::North)
    }

    fn render(&self) -> String {
        let header = match self.status() {
            Some(o) => format!("Bosh, round {}: match over, {}", self.round, o.result),
            None => format!("Bosh, round {}, {} to move", self.round, self.side),
        };
        let rows = [
            Row {
                label: "North",
                holes: (6..=10).rev().collect(),
            },
            Row {
                label: "South",
                holes: (1..=5).collect(),
            },
        ];
        let cell = |h: usize| match self.holes()[h - 1] {
            Some(n) => n.to_string(),
            None => "x".to_string(),
        };
        render_board(
            &header,
            &rows,
            1,
            cell,
            &format!("reserve {}", self.reserves[1]),
            &format!("reserve {}", self.reserves[0]),
        )
    }
}

// Zobrist keys, computed at compile time.

/// Cell index for a closed hole (open holes use their stone count, 0..=40).
const CLOSED: usize = TOTAL as usize + 1;
const ROUND_SALT: u64 = 0x6a09_e667_f3bc_c908;

const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const ZOBRIST_HOLES: [[u64; CLOSED + 1]; HOLES] = {
    let mut t = [[0u64; CLOSED + 1]; HOLES];
    let mut i = 0;
    while i < HOLES {
        let mut c = 0;
        while c <= CLOSED {
            t[i][c] = splitmix64((i * 64 + c) as u64 + 1);
            c += 1;
        }
        i += 1;
    }
    t
};

const ZOBRIST_RESERVES: [[u64; TOTAL as usize + 1]; 2] = {
    let mut t = [[0u64; TOTAL as usize + 1]; 2];
    let mut s = 0;
    while s < 2 {
        let mut c = 0;
        while c <= TOTAL as usize {
            t[s][c] = splitmix64(0x1_0000 + (s * 64 + c) as u64);
            c += 1;
        }
        s += 1;
    }
    t
};

const ZOBRIST_NORTH: u64 = splitmix64(0x2_0000);

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Bosh {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn after(s: &str, hole: u8) -> String {
        let p = pos(s);
        assert!(
            p.legal_move_list().contains(&BoshMove(hole)),
            "{hole} not legal in {s}"
        );
        p.after(BoshMove(hole)).to_string()
    }

    #[test]
    fn start_position_string() {
        assert_eq!(
            Bosh::start().to_string(),
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1"
        );
        assert_eq!(pos("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1"), Bosh::start());
    }
}
