//! Bosh (`bosh`): the Somali 2×5 relay-sowing game played in rounds, with
//! holes closed when their owner can no longer fill them.
//!
//! ```text
//!       10  9  8  7  6       North
//!        1  2  3  4  5       South
//! ```
//!
//! The clauses implemented here (the normative text, with the project's
//! rulings, is `docs/rules/bosh.md`):
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
//! - **Cycles of rounds (ruling)**: the position at the start of a round (the
//!   board right after the refill, the reserves and the side to move; not the
//!   round number, see [`Game::in_round`]) is counted over the whole match, the
//!   match's own start position included; its third occurrence
//!   ([`Game::ROUND_START_LIMIT`] = 3, applied by [`crate::GameRecord`]) draws
//!   the match, the scores being the stones each player owns
//!   ([`EndReason::RoundStartRepeated`]). A match won at that round start
//!   stays won.
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
    check_total, format_holes, parse_hole_number, parse_holes, parse_pair, parse_round, parse_side,
    FieldReader,
};
use crate::trace::{LapKind, NoTrace, Observer, RoundEndReason, Step, Target, Traced};
use crate::zobrist::splitmix64;
use crate::{
    EndReason, Game, GameId, GameResult, MoveSyntaxError, Outcome, PositionError, RepetitionEffect,
    Round, Side,
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
        parse_hole_number(s, HOLES as u8)
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
#[derive(PartialEq, Eq, Debug)]
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
        self.sow_bounded::<true, _>(from, &mut NoTrace)
    }

    /// [`Bosh::sow`], with the cycle-detection shortcut switchable so that
    /// tests can check it against the bare lap bound, reporting its laps to
    /// `observer` (an endless sowing reports laps that are never played: the
    /// caller rolls them back).
    fn sow_bounded<const DETECT_CYCLES: bool, O: Observer>(
        &self,
        from: usize,
        observer: &mut O,
    ) -> Option<Sown> {
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
            observer.step(|| Step::Lap {
                number: laps,
                kind: if laps == 1 {
                    LapKind::Start
                } else {
                    LapKind::Relay
                },
            });
            observer.step(|| Step::Pick {
                hole: open[p] + 1,
                count: n,
            });
            let lap_start = p;
            observer.sow(usize::from(n), |s| open[(lap_start + s) % k] + 1);
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
                if DETECT_CYCLES && state == saved {
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
            if captured > 0 {
                observer.step(|| Step::Capture {
                    from: open[b] + 1,
                    count: captured,
                    to: Target::Reserve { side: self.side },
                });
            }
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
    fn new_round<O: Observer>(&mut self, observer: &mut O) {
        debug_assert!(self.stones.iter().all(|&s| s == 0));
        self.round = self.round.saturating_add(1);
        observer.step(|| Step::NewRound { round: self.round });
        self.closed = 0;
        for side in Side::BOTH {
            let reserve = &mut self.reserves[side.index()];
            for i in own_holes(side) {
                let hole = i as u8 + 1;
                if *reserve >= FILL {
                    *reserve -= FILL;
                    self.stones[i] = FILL;
                    observer.step(|| Step::Refill {
                        hole,
                        count: FILL,
                        reserve: side,
                    });
                } else {
                    self.stones[i] = 0;
                    self.closed |= 1 << i;
                    observer.step(|| Step::Close { hole });
                }
            }
        }
    }

    /// Empties the board into the reserves, `to(i)` naming whose reserve gets
    /// hole index `i`'s stones.
    fn sweep<O: Observer>(&mut self, to: impl Fn(usize) -> Side, observer: &mut O) {
        for i in 0..HOLES {
            let stones = self.stones[i];
            if stones > 0 {
                let side = to(i);
                self.reserves[side.index()] += stones;
                self.stones[i] = 0;
                observer.step(|| Step::Capture {
                    from: i as u8 + 1,
                    count: stones,
                    to: Target::Reserve { side },
                });
            }
        }
    }

    /// Applies the end-of-round rule as often as it applies: while the match
    /// goes on and the side to move cannot move, every stone on the board goes
    /// to his opponent's reserve and a new round starts (which he opens).
    #[inline]
    fn settle<O: Observer>(&mut self, observer: &mut O) {
        // Terminates: each pass moves at least the stuck player's 4 refilled
        // stones to his opponent (a fresh round gives him an occupied hole).
        while self.match_loser().is_none() && !self.can_move() {
            observer.step(|| Step::RoundEnd {
                reason: RoundEndReason::NoMove,
            });
            let opponent = self.side.opponent();
            self.sweep(|_| opponent, observer);
            self.new_round(observer);
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

    const LAYOUT: crate::Layout = crate::Layout {
        rows: &[(10, 6), (1, 5)],
        pair: Some("reserve"),
        round: true,
        closable: true,
    };
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
        self.play_observed(mv, &mut NoTrace);
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
        self.on_repetition_observed(&mut NoTrace)
    }

    fn in_round(&self) -> Option<Round> {
        // Exact packing: 10 holes of at most 40 stones (6 bits each), the
        // closed-hole mask (10 bits), two reserves of at most 40 (6 bits
        // each) and the side to move: 83 bits. The round number is left out.
        let holes = self
            .stones
            .iter()
            .fold(0u128, |acc, &x| (acc << 6) | u128::from(x));
        let key = (((holes << 10 | u128::from(self.closed)) << 6 | u128::from(self.reserves[0]))
            << 6
            | u128::from(self.reserves[1]))
            << 1
            | self.side.index() as u128;
        Some(Round {
            number: self.round,
            start_key: key,
        })
    }

    /// The match-level cycle ruling: drawn, whatever the split; the scores
    /// are the stones each player owns.
    fn on_round_start_repetition(&self) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            scores: Some([self.stones_of(Side::South), self.stones_of(Side::North)]),
            reason: EndReason::RoundStartRepeated,
        }
    }

    /// Round number above, total reserves below: within a round reserves only
    /// grow (captures), and every transition raises the round.
    fn history_key(&self) -> u64 {
        (u64::from(self.round) << 8) | u64::from(self.reserves[0] + self.reserves[1])
    }

    fn zobrist(&self) -> u64 {
        let mut h = splitmix64(u64::from(self.round) ^ ROUND_SALT);
        for (i, keys) in ZOBRIST_HOLES.iter().enumerate() {
            let cell = if self.is_closed(i) {
                CLOSED
            } else {
                usize::from(self.stones[i])
            };
            h ^= keys[cell.min(CLOSED)];
        }
        for (keys, &reserve) in ZOBRIST_RESERVES.iter().zip(&self.reserves) {
            h ^= keys[usize::from(reserve).min(TOTAL as usize)];
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

impl Traced for Bosh {
    /// Plays a legal move. An illegal one (not an occupied open hole of the
    /// mover, endless, or the match is over) leaves the position unchanged.
    fn play_observed<O: Observer>(&mut self, mv: BoshMove, observer: &mut O) {
        let i = usize::from(mv.0).wrapping_sub(1);
        let legal_origin = own_holes(self.side).contains(&i)
            && !self.is_closed(i)
            && self.stones[i] > 0
            && self.match_loser().is_none();
        if !legal_origin {
            return;
        }
        let mark = observer.mark();
        let Some(sown) = self.sow_bounded::<true, _>(i, observer) else {
            observer.rollback(mark);
            return;
        };
        self.stones = sown.stones;
        self.reserves[self.side.index()] += sown.captured;
        self.side = self.side.opponent();
        self.settle(observer);
    }

    /// The cycle ruling: the round ends, each player takes the stones in his
    /// own open holes, and the next round starts (opened by the side to move
    /// here); it may be a finished match.
    fn on_repetition_observed<O: Observer>(&self, observer: &mut O) -> RepetitionEffect<Self> {
        if let Some(outcome) = self.status() {
            return RepetitionEffect::GameOver(outcome);
        }
        let mut next = self.clone();
        observer.step(|| Step::RoundEnd {
            reason: RoundEndReason::Cycle,
        });
        next.sweep(owner, observer);
        next.new_round(observer);
        next.settle(observer);
        RepetitionEffect::Continue(next)
    }
}

// Zobrist keys, computed at compile time.

/// Cell index for a closed hole (open holes use their stone count, 0..=40).
const CLOSED: usize = TOTAL as usize + 1;
const ROUND_SALT: u64 = 0x6a09_e667_f3bc_c908;

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

    /// The position string after `hole` is played in `s` (checked legal).
    fn after(s: &str, hole: u8) -> String {
        let p = pos(s);
        assert!(
            p.legal_move_list().contains(&BoshMove(hole)),
            "{hole} not legal in {s}"
        );
        let next = p.after(BoshMove(hole));
        assert_eq!(next.seed_count(), TOTAL);
        next.to_string()
    }

    #[test]
    fn start_position_string() {
        assert_eq!(
            Bosh::start().to_string(),
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1"
        );
        assert_eq!(pos("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1"), Bosh::start());
        assert_eq!(
            Bosh::start().legal_move_list(),
            [1, 2, 3, 4, 5].map(BoshMove)
        );
    }

    // Hand-worked moves. Each comment traces the move from the rules text.

    #[test]
    fn relay() {
        // 1: 2 stones into 2, 3; last in 3; A = 4 holds 1: relay it into 5;
        // A = 6 holds 1: relay it into 7; A = 8 empty, B = 9 empty: ends.
        assert_eq!(
            after("bosh 2,0,3,1,0,1,0,0,0,1 S 16/16 1", 1),
            "bosh 0,1,4,0,1,0,1,0,0,1 N 16/16 1"
        );
    }

    #[test]
    fn origin_not_skipped_and_relay_chain() {
        // 1: 10 stones into 2..10 and the 10th back into 1 (origin not
        // skipped): 1,2,1,1,1,1,1,1,1,1, last in 1. Relays: A=2 (2) into 3,4;
        // A=5 (1) into 6; A=7 (1) into 8; A=9 (1) into 10; A=1 (1) into 2;
        // A=3 (2) into 4,5; A=6 (2) into 7,8: board 0,1,0,3,1,0,1,3,0,2, last
        // in 8; A=9 empty, B=10 holds 2: captured by South.
        assert_eq!(
            after("bosh 10,1,0,0,0,0,0,0,0,0 S 15/14 1", 1),
            "bosh 0,1,0,3,1,0,1,3,0,0 N 17/14 1"
        );
    }

    #[test]
    fn capture_beyond_an_empty_hole() {
        // 3: 2 stones into 4, 5; A = 6 empty; B = 7 holds 3: South takes them.
        assert_eq!(
            after("bosh 0,0,2,0,0,0,3,1,0,0 S 17/17 1", 3),
            "bosh 0,0,0,1,1,0,0,1,0,0 N 20/17 1"
        );
        // B may be the mover's own hole: 1 into 2; A = 3 empty; B = 4 (South's).
        assert_eq!(
            after("bosh 1,0,0,1,0,0,0,2,0,0 S 18/18 1", 1),
            "bosh 0,1,0,0,0,0,0,2,0,0 N 19/18 1"
        );
    }

    #[test]
    fn double_empty_ends_the_move() {
        // 2: 1 stone into 3; A = 4 and B = 5 empty: nothing taken.
        assert_eq!(
            after("bosh 0,1,0,0,0,2,3,0,0,0 S 17/17 1", 2),
            "bosh 0,0,1,0,0,2,3,0,0,0 N 17/17 1"
        );
    }

    #[test]
    fn closed_holes_do_not_exist_for_sowing_and_relays() {
        // 3: 2 stones skip 4, 5 into 6, 7; A = 8 holds 1: relayed past 9, 10
        // into 1; A = 2 empty, B = 3 (the emptied origin) empty: ends.
        assert_eq!(
            after("bosh 0,0,2,x,x,0,0,1,x,x S 20/17 2", 3),
            "bosh 1,0,0,x,x,1,1,0,x,x N 20/17 2"
        );
        // 2: 1 stone into 3; A = 6 (past closed 4, 5) holds 2: relay into 7, 8;
        // A = 1 (past closed 9, 10) empty, B = 2 empty: ends.
        assert_eq!(
            after("bosh 0,1,0,x,x,2,0,0,x,x S 20/17 2", 2),
            "bosh 0,0,1,x,x,0,1,1,x,x N 20/17 2"
        );
    }

    #[test]
    fn closed_holes_do_not_exist_for_the_look_ahead_and_captures() {
        // 2: 1 stone into 3; A = 6 (not closed 4) empty; B = 7 (not closed 5)
        // holds 3: captured. Were closed holes empty holes, A = 4 and B = 5
        // would be a double empty.
        assert_eq!(
            after("bosh 0,1,0,x,x,0,3,1,x,x S 20/15 2", 2),
            "bosh 0,0,1,x,x,0,0,1,x,x N 23/15 2"
        );
        // North 7: 1 stone into 8; A = 1 (past closed 9, 10) empty; B = 2 holds
        // 2: North takes them.
        assert_eq!(
            after("bosh 0,2,1,x,x,0,1,0,x,x N 19/17 2", 7),
            "bosh 0,0,1,x,x,0,0,1,x,x S 19/19 2"
        );
    }

    #[test]
    fn stuck_player_ends_the_round_and_opens_the_next() {
        // 4: 1 stone into 5; A = 6 empty, B = 7 holds 2: South 22. North must
        // move with every hole empty: the board (1 stone) goes to South, 23.
        // Refill: South 5 holes, 3 left over; North 17: holes 6-9, 1 left
        // over, 10 closed. North, who was stuck, opens round 2.
        assert_eq!(
            after("bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1", 4),
            "bosh 4,4,4,4,4,4,4,4,4,x N 3/1 2"
        );
    }

    #[test]
    fn emptying_ones_own_side_does_not_end_the_round() {
        // 5: 2 stones into 6, 7; A = 8, B = 9 empty. South's side is empty
        // but North moves next.
        let mid = after("bosh 0,0,0,0,2,0,0,0,0,0 S 19/19 1", 5);
        assert_eq!(mid, "bosh 0,0,0,0,0,1,1,0,0,0 N 19/19 1");
        // North 7 into 8; A = 9, B = 10 empty. Now South is stuck: the 2
        // stones go to North (21); South 19 fills 1-4 (3 left), 5 closed;
        // North fills all 5 (1 left). South opens round 2.
        assert_eq!(after(&mid, 7), "bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2");
    }

    #[test]
    fn closed_holes_reopen_when_their_owner_can_fill_them() {
        // North 7 into 8; A = 1 (past 9, 10) empty; B = 2 holds 2: North 18.
        // South is stuck: the stone in 8 goes to North, 19. Round 3: South 21
        // fills 1-5 (4 and 5 reopen), 1 left; North 19 fills 6-9 (9 reopens),
        // 3 left, 10 stays closed. South opens.
        assert_eq!(
            after("bosh 0,2,0,x,x,0,1,0,x,x N 21/16 2", 7),
            "bosh 4,4,4,4,4,4,4,4,4,x S 1/3 3"
        );
    }

    #[test]
    fn match_won_when_the_opponent_cannot_fill_a_hole() {
        // 4 into 5; B = 7 holds 2: South 36. North stuck: 1 more, South 37,
        // North 3. Round 6: South fills 5 holes (17 left); North closes all.
        let end = after("bosh 0,0,0,1,0,0,2,0,x,x S 34/3 5", 4);
        assert_eq!(end, "bosh 4,4,4,4,4,x,x,x,x,x N 17/3 6");
        let end = pos(&end);
        assert!(end.legal_move_list().is_empty());
        assert_eq!(
            end.status(),
            Some(Outcome {
                result: GameResult::SouthWins,
                scores: Some([37, 3]),
                reason: EndReason::MatchWon
            })
        );
        assert_eq!(end.match_loser(), Some(Side::North));
        // Playing on a finished match changes nothing.
        assert_eq!(end.after(BoshMove(1)), end);
    }

    #[test]
    fn every_move_endless_ends_the_round_like_an_empty_side() {
        // Open holes 1 and 6 only. South 1: 4 stones go 6,1,6,1: 2 in 1, 4
        // in 6, last in 1; A = 6 occupied: relay 4 stones 1,6,1,6: 4 in 1, 2
        // in 6, last in 6; A = 1 occupied: the first lap's state again, so
        // the move never ends. South cannot move: the 6 stones go to North.
        let mut p = Bosh {
            stones: [4, 0, 0, 0, 0, 2, 0, 0, 0, 0],
            closed: 0b11_1101_1110,
            reserves: [14, 20],
            side: Side::South,
            round: 3,
        };
        assert_eq!(p.to_string(), "bosh 4,x,x,x,x,2,x,x,x,x S 14/20 3");
        assert_eq!(p.sow(0), None);
        assert_eq!(p.sow_bounded::<false, _>(0, &mut NoTrace), None);
        assert!(!p.can_move());
        p.settle(&mut NoTrace);
        assert_eq!(p.to_string(), "bosh 4,4,4,x,x,4,4,4,4,4 S 2/6 4");
    }

    #[test]
    fn two_open_holes_the_hole_beyond_a_is_the_last_one_sown() {
        // Open holes 1 and 6. Lap states: [4,4] from 1 -> [2,6] from 6 ->
        // [5,3] from 1 -> [2,6] from 1 -> [1,7] from 6 -> [5,3] from 6 ->
        // [7,1] from 6: 1 stone into 1 = 8 (last); A = 6 empty; B = 1 again,
        // holding 8: captured (South 24). North is then stuck with an empty
        // board. Refill: South 5 holes, 4 left; North 16: 6-9, 10 closed.
        let p = pos("bosh 4,x,x,x,x,4,x,x,x,x S 16/16 2");
        assert_eq!(
            p.sow(0),
            Some(Sown {
                stones: [0; HOLES],
                captured: 8
            })
        );
        assert_eq!(after(&p.to_string(), 1), "bosh 4,4,4,4,4,4,4,4,4,x N 4/0 3");
    }

    #[test]
    fn the_ruled_endless_move_is_excluded() {
        let p = pos("bosh 7,4,2,5,4,3,2,3,7,3 S 0/0 1");
        assert_eq!(p.legal_move_list(), [1, 2, 4, 5].map(BoshMove));
        assert_eq!(p.sow_bounded::<false, _>(2, &mut NoTrace), None);
        for i in [0, 1, 3, 4] {
            assert!(p.sow(i).is_some());
            assert_eq!(p.sow(i), p.sow_bounded::<false, _>(i, &mut NoTrace));
        }
        // An illegal move leaves the position as it is.
        assert_eq!(p.after(BoshMove(3)), p);
    }

    #[test]
    fn the_ruled_endless_move_first_repeats_after_66040_laps() {
        // A plain simulation without closed holes, independent of `sow`.
        let mut c = [7u8, 4, 2, 5, 4, 3, 2, 3, 7, 3];
        let mut p = 2;
        let mut seen = std::collections::HashMap::new();
        let mut lap = 0u32;
        let repeat = loop {
            if let Some(first) = seen.insert((c, p), lap) {
                break (first, lap);
            }
            lap += 1;
            let n = c[p];
            c[p] = 0;
            for _ in 0..n {
                p = (p + 1) % HOLES;
                c[p] += 1;
            }
            let a = (p + 1) % HOLES;
            assert!(c[a] > 0, "the move ended at lap {lap}");
            p = a;
        };
        assert_eq!(repeat, (0, 66_040));
    }

    /// A small deterministic generator for test positions.
    fn next_random(state: &mut u64, below: u64) -> u64 {
        *state = splitmix64(*state);
        *state % below
    }

    #[test]
    fn cycle_detection_agrees_with_the_bare_lap_bound() {
        let mut state = 7;
        let mut endless = 0;
        for _ in 0..3000 {
            let south_open = 1 + next_random(&mut state, 5) as usize;
            let north_open = 1 + next_random(&mut state, 5) as usize;
            let mut p = Bosh::start();
            for i in 0..HOLES {
                p.stones[i] = 0;
                let k = i % SIDE_HOLES;
                if (i < SIDE_HOLES && k >= south_open) || (i >= SIDE_HOLES && k >= north_open) {
                    p.closed |= 1 << i;
                }
            }
            let (open, k) = p.open_holes();
            for _ in 0..TOTAL {
                let j = open[next_random(&mut state, k as u64) as usize];
                p.stones[usize::from(j)] += 1;
            }
            for &i in &open[..k] {
                let i = usize::from(i);
                if p.stones[i] > 0 {
                    let fast = p.sow(i);
                    endless += usize::from(fast.is_none());
                    assert_eq!(
                        fast,
                        p.sow_bounded::<false, _>(i, &mut NoTrace),
                        "{p} hole {}",
                        i + 1
                    );
                }
            }
        }
        // The sample must contain endless moves for the check to mean much.
        assert!(endless > 10, "only {endless} endless moves");
    }

    #[test]
    fn no_refill_leaves_the_opener_without_a_move() {
        // Why `settle` runs its loop at most once per round end in practice.
        for south in 1..=SIDE_HOLES {
            for north in 1..=SIDE_HOLES {
                for side in Side::BOTH {
                    let mut p = Bosh::start();
                    p.side = side;
                    p.round = 2;
                    for i in 0..HOLES {
                        let k = i % SIDE_HOLES;
                        if (i < SIDE_HOLES && k >= south) || (i >= SIDE_HOLES && k >= north) {
                            p.stones[i] = 0;
                            p.closed |= 1 << i;
                        }
                    }
                    assert!(p.can_move(), "{p}");
                }
            }
        }
    }

    #[test]
    fn moves_parse_canonically_and_never_panic() {
        assert_eq!("3".parse::<BoshMove>(), Ok(BoshMove(3)));
        assert_eq!("10".parse::<BoshMove>(), Ok(BoshMove(10)));
        for bad in [
            "",
            "0",
            "03",
            "11",
            "+3",
            "-1",
            " 3",
            "3 ",
            "x",
            "1a",
            "99999999999999999999",
        ] {
            assert!(bad.parse::<BoshMove>().is_err(), "{bad:?}");
        }
        for n in 1..=10 {
            assert_eq!(BoshMove(n).to_string().parse::<BoshMove>(), Ok(BoshMove(n)));
        }
    }

    #[test]
    fn zobrist_tells_apart_what_equality_does() {
        let a = pos("bosh 4,4,4,4,4,4,4,4,4,x S 3/1 2");
        assert_eq!(a.zobrist(), pos(&a.to_string()).zobrist());
        for other in [
            "bosh 4,4,4,4,4,4,4,4,4,x N 3/1 2",
            "bosh 4,4,4,4,4,4,4,4,4,x S 3/1 3",
            "bosh 4,4,4,4,4,4,4,4,4,x S 1/3 2",
            "bosh 4,4,4,4,4,4,4,4,4,0 S 3/1 2",
        ] {
            assert_ne!(a.zobrist(), pos(other).zobrist(), "{other}");
        }
    }

    #[test]
    fn render_shows_north_on_top_and_closed_holes() {
        let text = pos("bosh 4,4,4,4,x,5,4,4,3,0 N 3/5 3").render();
        let lines: Vec<&str> = text.lines().collect();
        let north = lines.iter().position(|l| l.ends_with("North")).unwrap();
        let south = lines.iter().position(|l| l.ends_with("South")).unwrap();
        assert!(north < south, "{text}");
        assert!(lines[north]
            .split_whitespace()
            .eq(["0", "3", "4", "4", "5", "North"]));
        assert!(lines[south]
            .split_whitespace()
            .eq(["4", "4", "4", "4", "x", "South"]));
        assert!(text.contains("round 3"), "{text}");
        assert!(text.contains("North: reserve 5"), "{text}");
        assert!(text.contains("South: reserve 3"), "{text}");
    }
}
