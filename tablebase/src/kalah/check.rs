//! The Bellman identity on Kalah layers, move by move through the rules
//! library (not [`super::board`], which the build uses): for a board of
//! layer `n`, value = max over its moves of (the seeds the move puts in the
//! mover's store ± the value of the board it leads to: + after an extra
//! turn, − when the turn passes), or the end's allocation.

use mancala_rules::games::kalah::Kalah;
use mancala_rules::{Game, GameId, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::index::{layer_size, rank, unrank};
use crate::kalah::board::{from_board, of_position, south_to_move, to_board};

/// The mover's net gain from the board of `pos` (South to move, South's
/// store `before`) to the end of the game, by the rules library's move and
/// the layers' values of the board it leads to. `layers[k]` is layer `k`.
pub fn move_value(pos: &Kalah, mv: mancala_rules::games::pit::PitMove, layers: &[&[i8]]) -> i32 {
    let before = [i32::from(pos.stores()[0]), i32::from(pos.stores()[1])];
    let after = pos.after(mv);
    let gain = i32::from(after.stores()[0]) - before[0];
    if let Some(outcome) = after.status() {
        let s = outcome
            .scores
            .map_or([0, 0], |s| [s[0] as i32, s[1] as i32]);
        return (s[0] - before[0]) - (s[1] - before[1]);
    }
    let side = after.side_to_move();
    let (w, _) = of_position(after.holes(), after.stores(), side);
    let n = crate::kalah::board::seeds(w);
    let child = i32::from(layers[n][rank(&to_board(w)) as usize]);
    if side == Side::South {
        gain + child
    } else {
        gain - child
    }
}

/// Checks `samples` random boards of the top layer of `layers` (every board
/// when the layer has no more); the boards checked, or an error naming the
/// board and both sides of the identity.
pub fn check_layer(layers: &[&[i8]], samples: u64, seed: u64) -> Result<u64, String> {
    let n = layers.len() - 1;
    let layer = layers[n];
    let size = layer_size(n);
    let mut rng = SmallRng::seed_from_u64(seed);
    let every = samples >= size;
    let count = if every { size } else { samples };
    for i in 0..count {
        let r = if every { i } else { rng.random_range(0..size) };
        let board = unrank(n, r).ok_or_else(|| format!("index {r} out of range"))?;
        let w = from_board(&board).ok_or_else(|| format!("board {r} does not fit"))?;
        let pos = south_to_move(w).ok_or_else(|| format!("layer {n}: above 48 seeds"))?;
        let value = i32::from(layer[r as usize]);
        let best = match pos.status() {
            Some(outcome) => {
                let s = outcome
                    .scores
                    .map_or([0, 0], |s| [s[0] as i32, s[1] as i32]);
                s[0] - i32::from(pos.stores()[0]) - s[1]
            }
            None => pos
                .legal_move_list()
                .into_iter()
                .map(|mv| move_value(&pos, mv, layers))
                .max()
                .ok_or_else(|| format!("{pos}: not over, yet no move"))?,
        };
        if value != best {
            return Err(format!(
                "board {r} ({pos}) holds {value}, but its best move (or its end) gives {best}: the Bellman identity fails"
            ));
        }
    }
    Ok(count)
}

/// The game the files are named after.
pub const GAME: GameId = GameId::Kalah;
