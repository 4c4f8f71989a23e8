//! Bao la Kujifunza (`kujifunza`): four rows of eight holes, two seeds per
//! hole, relay sowing around each player's own two rows, captures from the
//! opponent's front row re-sown from a kichwa.
//!
//! # Board and numbering
//!
//! Each player owns a 16-hole circuit and sows only inside it. Numbers run
//! counter-clockwise around each circuit, from the owner's back-row leftmost
//! hole (as South sees the board):
//!
//! ```text
//!       24 23 22 21 20 19 18 17     North back
//!       25 26 27 28 29 30 31 32     North front
//!       16 15 14 13 12 11 10  9     South front
//!        1  2  3  4  5  6  7  8     South back
//! ```
//!
//! `+` is increasing numbers (wrapping 16→1, 32→17), `-` decreasing. In
//! column `c` (0 = South's left) lie South back `1+c`, South front `16-c`,
//! North front `25+c`, North back `24-c`; so the front hole opposite front
//! hole `h` is `41-h`.
//!
//! Inside this module a hole is handled by its *local* index `0..16` in its
//! owner's circuit (`number - 1` for South, `number - 17` for North): back row
//! `0..8`, front row `8..16`. For both players local 15 is the left kichwa
//! (16, 32), local 8 the right kichwa (9, 25), the kimbi are local 15, 14 (left)
//! and 9, 8 (right), the middle front holes are local 10..=13, and the
//! opponent front hole opposite own front local `l` is the opponent's local
//! `23 - l`. Sowing inward from the left kichwa runs `-` and from the right
//! kichwa runs `+`, for both players.
//!
//! # Rules implemented (`shared/rules-and-notation.md`)
//!
//! - A *lap* drops one seed per hole, starting with the hole after the one the
//!   seeds were taken from, in the current direction. The origin hole is not
//!   skipped when a lap has 16 seeds or more (nothing in the rules skips it).
//! - A lap ends in an *empty* hole when its last seed makes that hole hold
//!   exactly 1; otherwise the hole was *occupied* (seeds dropped earlier in the
//!   same lap count, which matters only for laps of 16 seeds or more).
//! - **Capture move**: from an own hole with 2+ seeds, either direction, the
//!   first lap has fewer than 16 seeds and ends in an occupied own front hole
//!   whose opposite opponent front hole is non-empty. Those opponent seeds are
//!   taken and sown from a kichwa, first seed into the kichwa itself, inward;
//!   the capturing hole keeps its seeds. Left kimbi → left kichwa, right kimbi →
//!   right kichwa, four middle holes → the mover chooses. The direction is now
//!   the chosen kichwa's. Every later lap (of any size: the 16-seed rule is
//!   about the first lap only) ending in an occupied own front hole opposite a
//!   non-empty opponent hole captures again; ending in any other occupied hole
//!   it relays (all seeds of that hole, current direction); ending in an empty
//!   hole it ends the move. A captured-seeds lap is a lap like any other: when
//!   it ends in the kichwa itself (one captured seed) the same three cases
//!   apply to the kichwa.
//! - **Takata** (only when no capture move exists): from a front hole with 2+
//!   seeds, either direction; from a back hole with 2+ only when no front hole
//!   holds 2+. Laps relay on any occupied hole and never capture, even when
//!   the first lap would have qualified as a capture (possible only with 16+
//!   seeds, or when every capture path is endless, see below).
//! - **Endless moves (ruling)**: a move is legal only if it ends within
//!   [`LAP_LIMIT`] laps, counted along its own path of kichwa choices (first
//!   sowing, each relay, each captured-seeds sowing). A capture move exists
//!   only if some capture path ends within the bound; otherwise takata moves
//!   are played. The back-row takata condition looks at the board only
//!   ("no front hole holds 2+"), never at whether front moves are endless.
//! - **End**: the player to move loses when his front row is empty
//!   ([`EndReason::EmptyFrontRow`]) or he has no legal move
//!   ([`EndReason::NoLegalMove`]). A position (board, side to move) occurring
//!   for the third time is a draw ([`EndReason::Repetition`]). Nothing is
//!   irreversible, so [`Game::history_key`] is constant.
//!
//! # Moves
//!
//! Origin hole, initial direction, then one sign per capture whose kichwa was
//! the mover's choice, in order: `-` for the left kichwa (16 or 32, which
//! sows `-`), `+` for the right kichwa (9 or 25, which sows `+`). Examples:
//! `12+`, `5-`, `14+-+`. A capture of a kimbi hole has no sign. Every distinct
//! choice sequence is a distinct move, even when two end in the same position.
//! At most four signs can follow the direction in a legal move (each choice
//! empties one of the four middle opponent front holes, and a player never
//! sows into the opponent's holes); the parser accepts up to
//! [`MAX_CHOICES`] so that any text of that shape round-trips.

use std::fmt;
use std::str::FromStr;

use crate::display::{render_board, Row};
use crate::error::Field;
use crate::position::{check_total, format_holes, parse_open_holes, parse_side, FieldReader};
use crate::{
    EndReason, Game, GameId, MoveSyntaxError, Outcome, PositionError, RepetitionEffect, Side,
};

/// Holes on the board.
pub const HOLES: usize = 32;
/// Holes in one player's circuit.
pub const CIRCUIT: usize = 16;
/// Seeds in play (never changes).
pub const TOTAL_SEEDS: u32 = 64;
/// A move must end within this many laps (ruling "Endless moves").
pub const LAP_LIMIT: u32 = 10_000;
/// The most choice signs a move string may carry.
pub const MAX_CHOICES: usize = 8;

/// Local index of the first front-row hole of a circuit.
const FRONT: usize = 8;
/// Local index of the left kichwa (South 16, North 32).
const LEFT_KICHWA: usize = 15;
/// Local index of the right kichwa (South 9, North 25).
const RIGHT_KICHWA: usize = 8;

/// A sowing direction: `+` (increasing hole numbers) or `-`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    Plus,
    Minus,
}

impl Direction {
    pub const BOTH: [Direction; 2] = [Direction::Plus, Direction::Minus];

    pub fn sign(self) -> char {
        match self {
            Direction::Plus => '+',
            Direction::Minus => '-',
        }
    }

    fn from_sign(b: u8) -> Option<Direction> {
        match b {
            b'+' => Some(Direction::Plus),
            b'-' => Some(Direction::Minus),
            _ => None,
        }
    }

    /// The kichwa (local index) whose inward sowing runs this way.
    fn kichwa(self) -> usize {
        match self {
            Direction::Plus => RIGHT_KICHWA,
            Direction::Minus => LEFT_KICHWA,
        }
    }

    #[inline]
    fn step(self, local: usize) -> usize {
        match self {
            Direction::Plus => (local + 1) & 15,
            Direction::Minus => (local + 15) & 15,
        }
    }

    #[inline]
    fn back(self, local: usize) -> usize {
        match self {
            Direction::Plus => (local + 15) & 15,
            Direction::Minus => (local + 1) & 15,
        }
    }
}

/// A move: origin hole, initial direction and the kichwa choices in order.
/// Bit `i` of `choices` set means the `i`-th choice was `-` (left kichwa);
/// bits from `choice_count` up are always clear, so equal moves compare equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KujifunzaMove {
    hole: u8,
    direction: Direction,
    choices: u8,
    choice_count: u8,
}

impl KujifunzaMove {
    /// A move from `hole` (1..=32) in `direction`, with no kichwa choice yet.
    pub fn new(hole: u8, direction: Direction) -> KujifunzaMove {
        KujifunzaMove {
            hole,
            direction,
            choices: 0,
            choice_count: 0,
        }
    }

    /// This move followed by one more kichwa choice; `None` past
    /// [`MAX_CHOICES`].
    pub fn with_choice(self, choice: Direction) -> Option<KujifunzaMove> {
        let n = usize::from(self.choice_count);
        if n >= MAX_CHOICES {
            return None;
        }
        let bit = u8::from(choice == Direction::Minus) << n;
        Some(KujifunzaMove {
            choices: self.choices | bit,
            choice_count: self.choice_count + 1,
            ..self
        })
    }

    /// The origin hole, 1..=32.
    pub fn hole(self) -> u8 {
        self.hole
    }

    pub fn direction(self) -> Direction {
        self.direction
    }

    /// The kichwa choices in order (`-` = left kichwa, `+` = right kichwa).
    pub fn choices(self) -> impl Iterator<Item = Direction> {
        (0..self.choice_count).map(move |i| self.choice(usize::from(i)))
    }

    pub fn choice_count(self) -> usize {
        usize::from(self.choice_count)
    }

    fn choice(self, i: usize) -> Direction {
        if self.choices >> i & 1 == 1 {
            Direction::Minus
        } else {
            Direction::Plus
        }
    }
}

impl fmt::Display for KujifunzaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.hole, self.direction.sign())?;
        for c in self.choices() {
            write!(f, "{}", c.sign())?;
        }
        Ok(())
    }
}

impl FromStr for KujifunzaMove {
    type Err = MoveSyntaxError;

    fn from_str(s: &str) -> Result<Self, MoveSyntaxError> {
        let bad = |why: &str| MoveSyntaxError::new(s, why);
        let bytes = s.as_bytes();
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(bad("a move starts with a hole number 1 to 32"));
        }
        // Canonical spelling only (no leading zero), so text round-trips.
        let hole = match &bytes[..digits] {
            [b'0', ..] => None,
            [d] => Some(d - b'0'),
            [d1, d2] => Some((d1 - b'0') * 10 + (d2 - b'0')),
            _ => None,
        }
        .filter(|h| (1..=32).contains(h))
        .ok_or_else(|| bad("hole number must be 1 to 32"))?;
        let signs = &bytes[digits..];
        let Some((&first, rest)) = signs.split_first() else {
            return Err(bad("missing direction sign (+ or -) after the hole number"));
        };
        let direction =
            Direction::from_sign(first).ok_or_else(|| bad("expected direction sign + or -"))?;
        if rest.len() > MAX_CHOICES {
            return Err(bad("too many kichwa choice signs"));
        }
        let mut mv = KujifunzaMove::new(hole, direction);
        for &b in rest {
            let choice = Direction::from_sign(b)
                .ok_or_else(|| bad("expected only + or - signs after the hole"))?;
            mv = mv
                .with_choice(choice)
                .ok_or_else(|| bad("too many kichwa choice signs"))?;
        }
        Ok(mv)
    }
}

/// A Kujifunza position: the 32 holes (index `n - 1` is hole `n`) and the side
/// to move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Kujifunza {
    holes: [u8; HOLES],
    side: Side,
}

/// Offset of a side's circuit in the holes array.
#[inline]
fn base(side: Side) -> usize {
    side.index() * CIRCUIT
}

/// How a simulated sowing stopped.
enum Stop {
    /// A lap ended in an empty hole: the move is complete.
    Ended,
    /// The next lap would exceed the lap bound.
    Endless,
    /// A middle-hole capture took this many seeds (already removed from the
    /// opponent's hole); the mover must choose a kichwa.
    Choice(u8),
}

/// A move in progress: the board, whose circuit is sown, direction, laps so far.
#[derive(Clone, Copy)]
struct Sim {
    board: [u8; HOLES],
    own: usize,
    opp: usize,
    direction: Direction,
    laps: u32,
}

impl Sim {
    fn new(board: [u8; HOLES], side: Side, direction: Direction) -> Sim {
        Sim {
            board,
            own: base(side),
            opp: base(side.opponent()),
            direction,
            laps: 0,
        }
    }

    /// Sows `n` seeds (n >= 1) into the own circuit, starting with the hole
    /// after local `from`; returns the local hole of the last seed.
    #[inline]
    fn sow(&mut self, from: usize, n: u8) -> usize {
        let own = &mut self.board[self.own..self.own + CIRCUIT];
        let rounds = n / CIRCUIT as u8;
        if rounds > 0 {
            own.iter_mut().for_each(|h| *h += rounds);
        }
        let mut p = from;
        for _ in 0..n % CIRCUIT as u8 {
            p = self.direction.step(p);
            own[p] += 1;
        }
        // With a multiple of 16 seeds the last one lands in `from` itself.
        p
    }

    /// The first lap from local `origin`; returns (seeds sown, last hole).
    fn first_lap(&mut self, origin: usize) -> (u8, usize) {
        let n = self.board[self.own + origin];
        self.board[self.own + origin] = 0;
        self.laps = 1;
        (n, self.sow(origin, n))
    }

    /// Whether a lap ending at local `last` would capture: an occupied own
    /// front hole facing a non-empty opponent front hole.
    #[inline]
    fn captures_at(&self, last: usize) -> bool {
        last >= FRONT && self.board[self.own + last] > 1 && self.board[self.opp + 23 - last] > 0
    }

    /// One lap of `seeds` captured seeds from `kichwa` inward; returns its last hole.
    fn sow_captured(&mut self, kichwa: Direction, seeds: u8) -> usize {
        self.direction = kichwa;
        self.laps += 1;
        let k = kichwa.kichwa();
        self.sow(kichwa.back(k), seeds)
    }

    /// Continues a move whose last lap ended at local `last` until it ends,
    /// exceeds `limit` laps, or needs a kichwa choice.
    fn run(&mut self, mut last: usize, captures: bool, limit: u32) -> Stop {
        loop {
            let hole = self.own + last;
            let n = self.board[hole];
            if n == 1 {
                return Stop::Ended;
            }
            if self.laps >= limit {
                return Stop::Endless;
            }
            if captures && self.captures_at(last) {
                let facing = self.opp + 23 - last;
                let seeds = self.board[facing];
                self.board[facing] = 0;
                let kichwa = match last {
                    14 | 15 => Direction::Minus,
                    8 | 9 => Direction::Plus,
                    _ => return Stop::Choice(seeds),
                };
                last = self.sow_captured(kichwa, seeds);
            } else {
                self.laps += 1;
                self.board[hole] = 0;
                last = self.sow(last, n);
            }
        }
    }
}

/// Depth-first over the kichwa choices of a capture move; calls `visit` on every
/// complete path. Returns true when `visit` asked to stop.
fn explore<F>(mut sim: Sim, last: usize, mv: KujifunzaMove, limit: u32, visit: &mut F) -> bool
where
    F: FnMut(KujifunzaMove, &[u8; HOLES]) -> bool,
{
    match sim.run(last, true, limit) {
        Stop::Ended => visit(mv, &sim.board),
        Stop::Endless => false,
        Stop::Choice(seeds) => {
            for choice in Direction::BOTH {
                // At most four choices per move (see module docs), far below MAX_CHOICES.
                let Some(next) = mv.with_choice(choice) else {
                    return false;
                };
                let mut branch = sim;
                let last = branch.sow_captured(choice, seeds);
                if explore(branch, last, next, limit, visit) {
                    return true;
                }
            }
            false
        }
    }
}

impl Kujifunza {
    /// A position from its holes (index `n - 1` = hole `n`) and side to move.
    pub fn new(holes: [u8; HOLES], side: Side) -> Result<Kujifunza, PositionError> {
        let total: u32 = holes.iter().map(|&h| u32::from(h)).sum();
        check_total(total, TOTAL_SEEDS, "the 32 holes")?;
        Ok(Kujifunza { holes, side })
    }

    /// The 32 holes; index `n - 1` is hole `n`.
    pub fn holes(&self) -> &[u8; HOLES] {
        &self.holes
    }

    /// Seeds in hole `n` (1..=32); 0 for any other number.
    pub fn hole(&self, n: usize) -> u8 {
        n.checked_sub(1)
            .and_then(|i| self.holes.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// A side's 16-hole circuit in notation order (back row, then front row).
    pub fn circuit(&self, side: Side) -> &[u8] {
        &self.holes[base(side)..base(side) + CIRCUIT]
    }

    /// A side's front row in notation order (South 9..=16, North 25..=32).
    pub fn front_row(&self, side: Side) -> &[u8] {
        &self.holes[base(side) + FRONT..base(side) + CIRCUIT]
    }

    /// A side's back row in notation order (South 1..=8, North 17..=24).
    pub fn back_row(&self, side: Side) -> &[u8] {
        &self.holes[base(side)..base(side) + FRONT]
    }

    /// The front hole facing front hole `n` (9..=16 or 25..=32), else `None`.
    pub fn opposite(n: usize) -> Option<usize> {
        matches!(n, 9..=16 | 25..=32).then(|| 41 - n)
    }

    /// Every legal move with the position it leads to.
    pub fn successors(&self) -> Vec<(KujifunzaMove, Kujifunza)> {
        let mut out = Vec::new();
        let next = self.side.opponent();
        self.generate(LAP_LIMIT, &mut |mv, board| {
            out.push((
                mv,
                Kujifunza {
                    holes: *board,
                    side: next,
                },
            ));
            false
        });
        out
    }

    /// Calls `visit` with every legal move (under a lap bound of `limit`) and
    /// the board after it, captures first; stops early when `visit` returns
    /// true. Returns true if stopped early.
    fn generate<F>(&self, limit: u32, visit: &mut F) -> bool
    where
        F: FnMut(KujifunzaMove, &[u8; HOLES]) -> bool,
    {
        let own = base(self.side);
        let front = &self.holes[own + FRONT..own + CIRCUIT];
        if front.iter().all(|&h| h == 0) {
            return false;
        }
        // Capture moves: any own hole with 2+ seeds, either direction.
        let mut found = false;
        for origin in 0..CIRCUIT {
            if self.holes[own + origin] < 2 {
                continue;
            }
            for direction in Direction::BOTH {
                let mut sim = Sim::new(self.holes, self.side, direction);
                let (n, last) = sim.first_lap(origin);
                if n >= 16 || !sim.captures_at(last) {
                    continue;
                }
                let mv = KujifunzaMove::new((own + origin + 1) as u8, direction);
                let mut counted = |mv: KujifunzaMove, board: &[u8; HOLES]| {
                    found = true;
                    visit(mv, board)
                };
                if explore(sim, last, mv, limit, &mut counted) {
                    return true;
                }
            }
        }
        if found {
            return false;
        }
        // Takata: front holes with 2+; back holes only if no front hole has 2+.
        let origins = if front.iter().any(|&h| h >= 2) {
            FRONT..CIRCUIT
        } else {
            0..FRONT
        };
        for origin in origins {
            if self.holes[own + origin] < 2 {
                continue;
            }
            for direction in Direction::BOTH {
                let mut sim = Sim::new(self.holes, self.side, direction);
                let (_, last) = sim.first_lap(origin);
                if let Stop::Ended = sim.run(last, false, limit) {
                    let mv = KujifunzaMove::new((own + origin + 1) as u8, direction);
                    if visit(mv, &sim.board) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The board after `mv` if `mv` describes a complete move path from here
    /// (capture path if the first lap qualifies and the path ends, else a
    /// takata); `None` if it describes none.
    fn replay(&self, mv: KujifunzaMove, limit: u32) -> Option<[u8; HOLES]> {
        let own = base(self.side);
        let origin = usize::from(mv.hole)
            .checked_sub(own + 1)
            .filter(|&o| o < CIRCUIT)?;
        if self.holes[own + origin] < 2 {
            return None;
        }
        let mut sim = Sim::new(self.holes, self.side, mv.direction);
        let (n, last) = sim.first_lap(origin);
        if n < 16 && sim.captures_at(last) {
            // Capture path; if it fails (endless), this can still be a legal
            // takata: that happens exactly when no capture path ends.
            let mut capture = sim;
            let mut last = last;
            let mut used = 0;
            loop {
                match capture.run(last, true, limit) {
                    Stop::Ended if used == mv.choice_count() => return Some(capture.board),
                    Stop::Ended | Stop::Endless => break,
                    Stop::Choice(seeds) => {
                        if used >= mv.choice_count() {
                            break;
                        }
                        last = capture.sow_captured(mv.choice(used), seeds);
                        used += 1;
                    }
                }
            }
        }
        if mv.choice_count() > 0 {
            return None;
        }
        match sim.run(last, false, limit) {
            Stop::Ended => Some(sim.board),
            _ => None,
        }
    }

    fn has_legal_move(&self) -> bool {
        self.generate(LAP_LIMIT, &mut |_, _| true)
    }
}

impl fmt::Display for Kujifunza {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            GameId::Kujifunza,
            format_holes(self.holes.iter().map(|&h| Some(h))),
            self.side.letter()
        )
    }
}

impl FromStr for Kujifunza {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, PositionError> {
        let mut reader = FieldReader::new(s, GameId::Kujifunza)?;
        let holes_field = reader.next(Field::Holes)?;
        let side_field = reader.next(Field::Side)?;
        reader.finish()?;
        let parsed = parse_open_holes(holes_field, HOLES)?;
        let side = parse_side(side_field)?;
        let mut holes = [0u8; HOLES];
        holes.copy_from_slice(&parsed);
        Kujifunza::new(holes, side)
    }
}

/// Zobrist keys: one per (hole, seed count 0..=64), plus North to move.
const ZOBRIST_COUNTS: usize = TOTAL_SEEDS as usize + 1;
static ZOBRIST: [u64; HOLES * ZOBRIST_COUNTS + 1] = zobrist_table();

const fn zobrist_table() -> [u64; HOLES * ZOBRIST_COUNTS + 1] {
    let mut table = [0u64; HOLES * ZOBRIST_COUNTS + 1];
    // splitmix64 with a fixed seed: deterministic across builds.
    let mut state: u64 = 0x6b75_6a69_6675_6e7a;
    let mut i = 0;
    while i < table.len() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        table[i] = z ^ (z >> 31);
        i += 1;
    }
    table
}

impl Game for Kujifunza {
    type Move = KujifunzaMove;
    const ID: GameId = GameId::Kujifunza;
    const REPETITION_LIMIT: usize = 3;

    fn start() -> Self {
        Kujifunza {
            holes: [2; HOLES],
            side: Side::South,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        self.generate(LAP_LIMIT, &mut |mv, _| {
            moves.push(mv);
            false
        });
    }

    fn play(&mut self, mv: Self::Move) {
        // An illegal move leaves the board as it is (the trait leaves it unspecified).
        if let Some(board) = self.replay(mv, LAP_LIMIT) {
            self.holes = board;
        }
        self.side = self.side.opponent();
    }

    fn status(&self) -> Option<Outcome> {
        let winner = self.side.opponent();
        if self.front_row(self.side).iter().all(|&h| h == 0) {
            Some(Outcome::win(winner, EndReason::EmptyFrontRow))
        } else if !self.has_legal_move() {
            Some(Outcome::win(winner, EndReason::NoLegalMove))
        } else {
            None
        }
    }

    fn on_repetition(&self) -> RepetitionEffect<Self> {
        RepetitionEffect::GameOver(Outcome::draw(EndReason::Repetition))
    }

    fn history_key(&self) -> u64 {
        // Seeds never leave the board: nothing is irreversible.
        0
    }

    fn zobrist(&self) -> u64 {
        let mut key = match self.side {
            Side::South => 0,
            Side::North => ZOBRIST[HOLES * ZOBRIST_COUNTS],
        };
        for (i, &h) in self.holes.iter().enumerate() {
            // Counts above 64 cannot occur (the total is 64); clamp to stay in bounds.
            key ^= ZOBRIST[i * ZOBRIST_COUNTS + usize::from(h).min(ZOBRIST_COUNTS - 1)];
        }
        key
    }

    fn seed_count(&self) -> u32 {
        self.holes.iter().map(|&h| u32::from(h)).sum()
    }

    fn render(&self) -> String {
        let rows = [
            Row {
                label: "North back",
                holes: (17..=24).rev().collect(),
            },
            Row {
                label: "North front",
                holes: (25..=32).collect(),
            },
            Row {
                label: "South front",
                holes: (9..=16).rev().collect(),
            },
            Row {
                label: "South back",
                holes: (1..=8).collect(),
            },
        ];
        let to_move = |side: Side| if self.side == side { "to move; " } else { "" };
        render_board(
            &format!("Bao la Kujifunza, {} to move", self.side),
            &rows,
            2,
            |h| self.hole(h).to_string(),
            &format!(
                "{}holes 17-32, kichwa 32 (North's left) and 25",
                to_move(Side::North)
            ),
            &format!(
                "{}holes 1-16, kichwa 16 (South's left) and 9",
                to_move(Side::South)
            ),
        )
    }
}
