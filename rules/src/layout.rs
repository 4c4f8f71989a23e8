//! How a game's board is drawn and edited: its rows of holes as South sees
//! them and the fields its position string has besides the holes. Geometry
//! for boards and editors, not rules: what is legal and what a move does is
//! always [`crate::Game`]'s answer.

use crate::{with_game, Game, GameId};

/// A game's board as South sees it, and its position string's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Rows top to bottom (North's first), each a run of hole numbers from
    /// its left end to its right end as South sees it: `(12, 7)` is holes 12,
    /// 11, …, 7.
    pub rows: &'static [(u8, u8)],
    /// What the `<south>/<north>` field counts (`"store"`, `"reserve"`);
    /// `None` when the position string has no such field.
    pub pair: Option<&'static str>,
    /// The position string ends with a round number.
    pub round: bool,
    /// A hole may be closed (`x` in the position string).
    pub closable: bool,
}

impl Layout {
    /// A 2×6 board with stores (Bohnenspiel, Kalah, Oware).
    pub const TWO_BY_SIX_WITH_STORES: Layout = Layout {
        rows: &[(12, 7), (1, 6)],
        pair: Some("store"),
        round: false,
        closable: false,
    };

    /// Field index (from 0, the game id) of the side to move, the pair and
    /// the round in the position string.
    pub fn side_field(&self) -> usize {
        2
    }

    pub fn pair_field(&self) -> Option<usize> {
        self.pair.map(|_| 3)
    }

    pub fn round_field(&self) -> Option<usize> {
        self.round.then_some(3 + usize::from(self.pair.is_some()))
    }

    /// How many fields the position string has.
    pub fn fields(&self) -> usize {
        3 + usize::from(self.pair.is_some()) + usize::from(self.round)
    }
}

impl GameId {
    /// The board layout of this game ([`Game::LAYOUT`]).
    pub fn layout(self) -> Layout {
        with_game!(self, G => G::LAYOUT)
    }
}
