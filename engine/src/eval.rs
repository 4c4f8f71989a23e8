//! Static evaluation, one implementation per game.

use mancala_rules::Game;

/// A position's static value in centi-seeds (100 = one seed of advantage) for
/// the side to move.
pub trait Evaluate: Game {
    fn evaluate(&self) -> i32;
}
