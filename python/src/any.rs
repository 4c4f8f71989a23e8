//! A position of any game as one enum, so that a Python `Position` is one
//! class whatever the game, and each call dispatches to the typed rules.

use mancala_rules::games::bohnenspiel::{Bohnenspiel, Hemprich};
use mancala_rules::games::bosh::Bosh;
use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::games::oware::Oware;
use mancala_rules::position::game_id_of;
use mancala_rules::{with_game, Game, GameId, PositionError, Traced};

use crate::board::Board;
use crate::names::MoveNames;

/// A position of one of the games.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AnyPosition {
    Bohnenspiel(Bohnenspiel),
    Hemprich(Hemprich),
    Bosh(Bosh),
    Kimasai(Kimasai),
    Kujifunza(Kujifunza),
    Kalah(Kalah),
    Kalah6(Kalah6),
    Oware(Oware),
}

/// Runs `$body` with `$p` bound to the typed position inside `$any`.
macro_rules! on_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::any::AnyPosition::Bohnenspiel($p) => $body,
            $crate::any::AnyPosition::Hemprich($p) => $body,
            $crate::any::AnyPosition::Bosh($p) => $body,
            $crate::any::AnyPosition::Kimasai($p) => $body,
            $crate::any::AnyPosition::Kujifunza($p) => $body,
            $crate::any::AnyPosition::Kalah($p) => $body,
            $crate::any::AnyPosition::Kalah6($p) => $body,
            $crate::any::AnyPosition::Oware($p) => $body,
        }
    };
}
pub(crate) use on_position;

/// A game whose positions fit in [`AnyPosition`].
pub trait Variant: Traced + Board + MoveNames {
    fn wrap(self) -> AnyPosition;
}

macro_rules! variant {
    ($ty:ty, $name:ident) => {
        impl Variant for $ty {
            fn wrap(self) -> AnyPosition {
                AnyPosition::$name(self)
            }
        }
    };
}
variant!(Bohnenspiel, Bohnenspiel);
variant!(Hemprich, Hemprich);
variant!(Bosh, Bosh);
variant!(Kimasai, Kimasai);
variant!(Kujifunza, Kujifunza);
variant!(Kalah, Kalah);
variant!(Kalah6, Kalah6);
variant!(Oware, Oware);

impl AnyPosition {
    pub fn start(id: GameId) -> AnyPosition {
        with_game!(id, G => G::start().wrap())
    }

    /// Parses a position string; its first field names the game.
    pub fn parse(text: &str) -> Result<AnyPosition, PositionError> {
        let id = game_id_of(text)?;
        with_game!(id, G => text.parse::<G>().map(Variant::wrap))
    }

    pub fn game_id(&self) -> GameId {
        on_position!(self, p => game_id_of_position(p))
    }
}

fn game_id_of_position<G: Game>(_: &G) -> GameId {
    G::ID
}
