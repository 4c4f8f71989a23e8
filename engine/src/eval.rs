//! Static evaluation, one implementation per game.

use mancala_rules::Game;

/// A position's static value in centi-seeds (100 = one seed of advantage) for
/// the side to move.
pub trait Evaluate: Game {
    fn evaluate(&self) -> i32;
}

// TEMPORARY: replaced by real per-game evaluations once the game modules land.
mod pending {
    use super::Evaluate;
    use mancala_rules::games::{bohnenspiel, bosh, kimasai, kujifunza};
    impl Evaluate for bohnenspiel::Bohnenspiel {
        fn evaluate(&self) -> i32 {
            0
        }
    }
    impl Evaluate for bosh::Bosh {
        fn evaluate(&self) -> i32 {
            0
        }
    }
    impl Evaluate for kimasai::Kimasai {
        fn evaluate(&self) -> i32 {
            0
        }
    }
    impl Evaluate for kujifunza::Kujifunza {
        fn evaluate(&self) -> i32 {
            0
        }
    }
}
