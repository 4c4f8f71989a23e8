//! The canonical order of moves (protocol-spec.md section 14, point 8): the
//! rules library lists legal moves by ascending hole number, then by the rest
//! of the notation in ASCII order (`+` before `-`); `pass` is alone.

use mancala_rules::{new_game, GameId};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// (hole number, the rest of the notation) of a move.
fn key(mv: &str) -> (u32, Vec<u8>) {
    let digits = mv.bytes().take_while(u8::is_ascii_digit).count();
    (
        mv[..digits].parse().unwrap_or(0),
        mv.as_bytes()[digits..].to_vec(),
    )
}

#[test]
fn legal_moves_come_in_canonical_order_in_every_game() {
    let mut rng = SmallRng::seed_from_u64(8);
    for id in GameId::ALL {
        for _ in 0..100 {
            let mut game = new_game(id);
            for _ in 0..rng.random_range(0..60) {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let keys: Vec<_> = moves.iter().map(|m| key(m)).collect();
                let mut sorted = keys.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(
                    keys,
                    sorted,
                    "{id}: {} lists {moves:?}",
                    game.position_string()
                );
                let mv = moves[rng.random_range(0..moves.len())].clone();
                game.play(&mv).unwrap();
            }
        }
    }
}
