//! Judging an engine's answers: whether a line is a `bestmove`, whether a
//! move is legal and spelled canonically, and seeded random play to reach
//! positions (shared with the arena's admission checks).

use mancala_rules::{new_game, AnyGame, GameId};
use rand::rngs::SmallRng;
use rand::Rng;

pub(crate) fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

/// `mv` is legal in `game` and spelled canonically.
pub(crate) fn judge_move(game: &dyn AnyGame, mv: &str) -> Result<(), String> {
    let mut after = game.clone_box();
    match after.play(mv) {
        Ok(canonical) if canonical == mv => Ok(()),
        Ok(canonical) => Err(format!(
            "move {mv:?} is legal but not canonical (write {canonical:?})"
        )),
        Err(e) => Err(format!(
            "illegal move {mv:?} in {}: {e}",
            game.position_string()
        )),
    }
}

/// The game after up to `plies` seeded random legal moves (fewer if it ends;
/// the last move that would end it is not played, so the engine has a move).
pub(crate) fn random_walk(
    game: GameId,
    plies: usize,
    rng: &mut SmallRng,
) -> (Box<dyn AnyGame>, Vec<String>) {
    let mut record = new_game(game);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = record.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = &legal[rng.random_range(0..legal.len())];
        let mut next = record.clone_box();
        match next.play(mv) {
            Ok(played) if next.outcome().is_none() => {
                record = next;
                moves.push(played);
            }
            _ => break,
        }
    }
    (record, moves)
}
