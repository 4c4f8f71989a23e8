//! Static evaluation, one implementation per game.

use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::Game;

/// A position's static value in centi-seeds (100 = one seed of advantage) for
/// the side to move.
pub trait Evaluate: Game {
    fn evaluate(&self) -> i32;
}

/// Kimasai: stones are everything (a player without stones loses, and no
/// position ever repeats); a little weight on mobility breaks ties.
impl Evaluate for Kimasai {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let material = self.stone_count(me) as i32 - self.stone_count(me.opponent()) as i32;
        let mobility = self.movable().count_ones() as i32;
        100 * material + 2 * mobility
    }
}

// TEMPORARY: replaced by real per-game evaluations once the game modules land.
mod pending {
    use super::Evaluate;
    use mancala_rules::games::{bohnenspiel, bosh, kujifunza};
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
    impl Evaluate for kujifunza::Kujifunza {
        fn evaluate(&self) -> i32 {
            0
        }
    }
}
