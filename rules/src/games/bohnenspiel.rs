//! Bohnenspiel (`bohnenspiel`) and Hemprich's variant (`bohnenspiel-hemprich`).
//!
//! Board, 2×6, 6 beans per pit, 72 beans, one store per player (stores are
//! not sown into). Pits are numbered counter-clockwise from South's left:
//!
//! ```text
//!       12 11 10  9  8  7        North
//!        1  2  3  4  5  6        South
//! ```
//!
//! The clauses of `docs/rules/bohnenspiel.md` this module implements:
//!
//! - A move takes all beans from a non-empty pit on the mover's side and sows
//!   them one per pit counter-clockwise, in a single lap (the move ends when the
//!   hand is empty). The origin pit is **not** skipped when 12 or more beans go
//!   round: it receives a bean like any other pit.
//! - Capture: if the last bean makes its pit (either side) hold exactly 2, 4 or
//!   6, those beans go to the mover's store; then the pit before it (clockwise)
//!   is tested the same way, and so on. The chain stops at the first pit holding
//!   any other number (0, odd, or more than 6), and never examines a pit twice
//!   (so it stops after at most 12 pits, when it would come back round to the
//!   pit the last bean fell into).
//! - End (`bohnenspiel`): when the player to move has no bean on his side, the
//!   game is over and every bean left on the board goes to the player who made
//!   the last move ([`EndReason::NoSeedsToMove`]). The position itself keeps
//!   its beans; the sweep is applied in [`Outcome::scores`].
//! - End (`bohnenspiel-hemprich`): a player with no bean on his side while beans
//!   remain on the board must play `pass` (his only legal move); the game ends
//!   when the board is empty ([`EndReason::BoardEmpty`]).
//! - Result: final totals decide, more than 36 wins, 36–36 is a draw.
//! - Cycles (ruling): on the third occurrence of a position (board, stores, side
//!   to move) the game ends and each player takes the beans on his own side
//!   ([`EndReason::Cycle`]); [`crate::GameRecord`] applies it.
//! - Match play: see [`Partie`].
//!
//! Position string: `bohnenspiel <holes 1..12> <S|N> <south>/<north>`, e.g.
//! `bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0`; Hemprich's variant uses the id
//! `bohnenspiel-hemprich`.

mod partie;
#[cfg(test)]
mod tests;

pub use partie::{Partie, PartieOver, PartieResult, Player};

use std::fmt;
use std::str::FromStr;

use crate::error::Field;
use crate::games::pit::own_range;
use crate::position::{
    check_total, format_holes, parse_open_holes, parse_pair, parse_side, FieldReader,
};
use crate::trace::{LapKind, NoTrace, Observer, Step, Target, Traced};
use crate::zobrist::{mix, GOLDEN};
use crate::{
    EndReason, Game, GameId, GameResult, Layout, MoveSyntaxError, Outcome, PositionError,
    RepetitionEffect, Side,
};

/// Pits on the board (6 per side).
pub const PITS: usize = 12;
/// Beans in play: on the board plus both stores.
pub const TOTAL_BEANS: u32 = 72;

/// A Bohnenspiel position: the 12 pits, the two stores and the side to move.
///
/// `HEMPRICH` selects Hemprich's variant (pass instead of the game ending);
/// every other rule is shared. Use the aliases [`Bohnenspiel`] and [`Hemprich`].
///
/// Invariant (checked by every constructor, kept by [`Game::play`]): pits plus
/// stores hold exactly 72 beans, so no count exceeds 72.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bean<const HEMPRICH: bool> {
    /// Pit `i` is hole `i + 1`; South owns 0..6, North 6..12.
    pits: [u8; PITS],
    /// Indexed by [`Side::index`].
    stores: [u8; 2],
    side: Side,
}

/// Bohnenspiel (`bohnenspiel`): the game ends when the player to move has no bean.
pub type Bohnenspiel = Bean<false>;
/// Hemprich's variant (`bohnenspiel-hemprich`): pass until the board is empty.
pub type Hemprich = Bean<true>;

/// A Bohnenspiel move: a hole number 1–12, or `pass` (Hemprich's variant only,
/// and only for a player with no bean on his side).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BeanMove(u8); // 0 = pass, 1..=12 = hole number

impl BeanMove {
    pub const PASS: BeanMove = BeanMove(0);

    /// Sowing from `hole` (1–12); `None` for any other number.
    pub const fn sow(hole: u8) -> Option<BeanMove> {
        if hole >= 1 && hole as usize <= PITS {
            Some(BeanMove(hole))
        } else {
            None
        }
    }

    /// The hole sown from, or `None` for `pass`.
    pub const fn hole(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0)
        }
    }

    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for BeanMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hole() {
            Some(hole) => write!(f, "{hole}"),
            None => f.write_str("pass"),
        }
    }
}

impl FromStr for BeanMove {
    type Err = MoveSyntaxError;

    fn from_str(s: &str) -> Result<BeanMove, MoveSyntaxError> {
        if s == "pass" {
            return Ok(BeanMove::PASS);
        }
        if s.is_empty() {
            return Err(MoveSyntaxError::new(
                s,
                "empty move: expected a hole number 1 to 12 or pass",
            ));
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveSyntaxError::new(
                s,
                "expected a hole number 1 to 12 or pass",
            ));
        }
        if s.len() > 1 && s.starts_with('0') {
            return Err(MoveSyntaxError::new(
                s,
                "hole numbers are written without leading zeros",
            ));
        }
        // At most two digits can be a hole; checking the length first keeps
        // huge numbers from overflowing the parse.
        s.parse::<u8>()
            .ok()
            .filter(|_| s.len() <= 2)
            .and_then(BeanMove::sow)
            .ok_or_else(|| MoveSyntaxError::new(s, "hole number out of range: holes are 1 to 12"))
    }
}

/// Counts that a capture takes: exactly 2, 4 or 6.
#[inline(always)]
fn is_capture_count(count: u8) -> bool {
    // Bits 2, 4 and 6 of 0x54.
    count < 8 && (0x54u8 >> count) & 1 == 1
}

impl<const HEMPRICH: bool> Bean<HEMPRICH> {
    /// A position from its parts; fails unless pits and stores hold 72 beans.
    pub fn new(pits: [u8; PITS], stores: [u8; 2], side: Side) -> Result<Self, PositionError> {
        let total = pits.iter().chain(&stores).map(|&n| u32::from(n)).sum();
        check_total(total, TOTAL_BEANS, "holes and stores")?;
        Ok(Bean { pits, stores, side })
    }

    /// Beans in holes 1..12 (index `i` is hole `i + 1`).
    pub fn pits(&self) -> &[u8; PITS] {
        &self.pits
    }

    /// Stores indexed by [`Side::index`] (South first).
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// Beans on `side`'s six pits.
    pub fn beans_on(&self, side: Side) -> u32 {
        self.pits[own_range(side)]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Beans on the whole board (not in stores).
    pub fn beans_on_board(&self) -> u32 {
        self.pits.iter().map(|&n| u32::from(n)).sum()
    }

    fn stores_u32(&self) -> [u32; 2] {
        self.stores.map(u32::from)
    }
}

impl<const HEMPRICH: bool> fmt::Display for Bean<HEMPRICH> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}/{}",
            Self::ID,
            format_holes(self.pits.iter().map(|&n| Some(n))),
            self.side.letter(),
            self.stores[0],
            self.stores[1]
        )
    }
}

impl<const HEMPRICH: bool> FromStr for Bean<HEMPRICH> {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, PositionError> {
        let mut fields = FieldReader::new(s, Self::ID)?;
        let holes = parse_open_holes(fields.next(Field::Holes)?, PITS)?;
        let side = parse_side(fields.next(Field::Side)?)?;
        let stores = parse_pair(fields.next(Field::Stores)?)?;
        fields.finish()?;
        let mut pits = [0; PITS];
        pits.copy_from_slice(&holes);
        Bean::new(pits, stores, side)
    }
}

impl<const HEMPRICH: bool> Game for Bean<HEMPRICH> {
    type Move = BeanMove;

    const ID: GameId = if HEMPRICH {
        GameId::BohnenspielHemprich
    } else {
        GameId::Bohnenspiel
    };

    const LAYOUT: Layout = Layout::TWO_BY_SIX_WITH_STORES;

    const REPETITION_LIMIT: usize = 3;

    const PASSES: bool = HEMPRICH;

    const MATCH_PLAY: bool = true;

    fn start() -> Self {
        Bean {
            pits: [6; PITS],
            stores: [0; 2],
            side: Side::South,
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<BeanMove>) {
        let range = own_range(self.side);
        let first = range.start as u8;
        // Branch-free: write every hole, advance only past non-empty ones.
        let mut found = [BeanMove(0); 6];
        let mut count = 0;
        for (i, &n) in (first..).zip(&self.pits[range]) {
            found[count] = BeanMove(i + 1);
            count += usize::from(n > 0);
        }
        if HEMPRICH && count == 0 && self.pits.iter().any(|&n| n > 0) {
            found[0] = BeanMove::PASS;
            count = 1;
        }
        moves.extend_from_slice(&found[..count]);
    }

    #[inline]
    fn play(&mut self, mv: BeanMove) {
        self.play_observed(mv, &mut NoTrace);
    }

    fn status(&self) -> Option<Outcome> {
        if HEMPRICH {
            if self.beans_on_board() == 0 {
                return Some(Outcome::by_scores(self.stores_u32(), EndReason::BoardEmpty));
            }
            return None;
        }
        if self.beans_on(self.side) > 0 {
            return None;
        }
        // Whatever is left lies on the side of the player who moved last.
        let mut scores = self.stores_u32();
        scores[self.side.opponent().index()] += self.beans_on_board();
        Some(Outcome::by_scores(scores, EndReason::NoSeedsToMove))
    }

    /// Decided once a store holds more than half the beans (37 of 72): stores
    /// only grow, and every ending (no seeds to move, board empty, cycle)
    /// adds the remaining beans to the stores, so that player's final total
    /// stays above 36 and the other's below.
    fn decided(&self) -> Option<GameResult> {
        if let Some(outcome) = self.status() {
            return Some(outcome.result);
        }
        let half = TOTAL_BEANS / 2;
        Side::BOTH
            .into_iter()
            .find(|s| u32::from(self.stores[s.index()]) > half)
            .map(GameResult::win_for)
    }

    fn on_repetition(&self) -> RepetitionEffect<Self> {
        let mut scores = self.stores_u32();
        for side in Side::BOTH {
            scores[side.index()] += self.beans_on(side);
        }
        RepetitionEffect::GameOver(Outcome::by_scores(scores, EndReason::Cycle))
    }

    /// Beans in the stores: they only ever grow during a game.
    fn history_key(&self) -> u64 {
        u64::from(self.stores[0]) + u64::from(self.stores[1])
    }

    fn zobrist(&self) -> u64 {
        let mut hash = if self.side == Side::North {
            ZOBRIST.north_to_move
        } else {
            0
        };
        for (i, &n) in self.pits.iter().enumerate() {
            hash ^= ZOBRIST.pits[i][usize::from(n)];
        }
        for (i, &n) in self.stores.iter().enumerate() {
            hash ^= ZOBRIST.stores[i][usize::from(n)];
        }
        hash
    }

    fn seed_count(&self) -> u32 {
        self.beans_on_board() + u32::from(self.stores[0]) + u32::from(self.stores[1])
    }

    fn render(&self) -> String {
        crate::games::pit::render_two_rows(self, &self.pits, self.stores)
    }
}

impl<const HEMPRICH: bool> Traced for Bean<HEMPRICH> {
    #[inline]
    fn play_observed<O: Observer>(&mut self, mv: BeanMove, observer: &mut O) {
        let mover = self.side;
        self.side = mover.opponent();
        let Some(hole) = mv.hole() else {
            observer.step(|| Step::Pass);
            return;
        };
        let origin = usize::from(hole - 1);
        let beans = usize::from(self.pits[origin]);
        observer.step(|| Step::Lap {
            number: 1,
            kind: LapKind::Start,
        });
        observer.step(|| Step::Pick {
            hole,
            count: beans as u8,
        });
        observer.sow(beans, |s| ((origin + s) % PITS) as u8 + 1);
        // Every full lap puts one bean in every pit, the origin included; the
        // rest go to the pits after the origin. One table row per (origin,
        // rest) makes this a branch-free add over all 12 pits.
        let laps = (beans / PITS) as u8;
        let extra = &SOWN[origin][beans % PITS];
        for (pit, &add) in self.pits.iter_mut().zip(extra) {
            *pit += add + laps;
        }
        // The origin was emptied first, so it holds only what the laps gave
        // it. (Set after the add: emptying it before would make the wide add
        // wait on a narrow store.)
        self.pits[origin] = laps;
        // The last bean's pit; after whole laps only, the origin itself.
        let mut pit = (origin + beans) % PITS;
        let mut captured = 0u8;
        // At most 12 pits: the chain never examines a pit twice.
        for _ in 0..PITS {
            let count = self.pits[pit];
            if !is_capture_count(count) {
                break;
            }
            captured += count;
            self.pits[pit] = 0;
            observer.step(|| Step::Capture {
                from: pit as u8 + 1,
                count,
                to: Target::Store { side: mover },
            });
            pit = if pit == 0 { PITS - 1 } else { pit - 1 };
        }
        self.stores[mover.index()] += captured;
    }
}

/// `SOWN[origin][rest]`: one bean in each of the `rest` pits after `origin`.
static SOWN: [[[u8; PITS]; PITS]; PITS] = sown_table();

const fn sown_table() -> [[[u8; PITS]; PITS]; PITS] {
    let mut table = [[[0; PITS]; PITS]; PITS];
    let mut origin = 0;
    while origin < PITS {
        let mut rest = 0;
        while rest < PITS {
            let mut k = 1;
            while k <= rest {
                table[origin][rest][(origin + k) % PITS] = 1;
                k += 1;
            }
            rest += 1;
        }
        origin += 1;
    }
    table
}

/// Zobrist keys for every count a pit or store can hold (0..=72).
struct ZobristTable {
    pits: [[u64; TOTAL_BEANS as usize + 1]; PITS],
    stores: [[u64; TOTAL_BEANS as usize + 1]; 2],
    north_to_move: u64,
}

/// splitmix64: a fixed, well-mixed sequence, so the table is the same in every build.
/// Returns the next state and its output (by value: `&mut` in a `const fn`
/// needs a newer compiler than the workspace's `rust-version`).
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GOLDEN);
    (state, mix(state))
}

const fn zobrist_table() -> ZobristTable {
    let mut state = 0xB0E4_5E1E_0000_0072;
    let mut table = ZobristTable {
        pits: [[0; TOTAL_BEANS as usize + 1]; PITS],
        stores: [[0; TOTAL_BEANS as usize + 1]; 2],
        north_to_move: 0,
    };
    let mut pit = 0;
    while pit < PITS {
        let mut n = 0;
        while n <= TOTAL_BEANS as usize {
            let (next, key) = splitmix64(state);
            state = next;
            table.pits[pit][n] = key;
            n += 1;
        }
        pit += 1;
    }
    let mut store = 0;
    while store < 2 {
        let mut n = 0;
        while n <= TOTAL_BEANS as usize {
            let (next, key) = splitmix64(state);
            state = next;
            table.stores[store][n] = key;
            n += 1;
        }
        store += 1;
    }
    table.north_to_move = splitmix64(state).1;
    table
}

static ZOBRIST: ZobristTable = zobrist_table();
