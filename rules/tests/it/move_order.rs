//! The canonical order of moves (protocol-spec.md section 14, point 8): the
//! rules library lists legal moves by ascending hole number, then by the rest
//! of the notation in ASCII order (`+` before `-`); `pass` is alone.

use mancala_rules::{new_game, with_game, Game, GameId};
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

/// `Game::choose_move` on the positions of random games of `G` (their first
/// 300 plies: without a game record a Bosh game can go round forever): it
/// offers the number of legal moves, gives the move at the chosen index in
/// `legal_moves` order, chooses none when asked to, and is never asked once
/// the game is over.
fn choose_move_follows_the_legal_moves<G: Game>(rng: &mut SmallRng) {
    let mut scratch = Vec::new();
    for _ in 0..20 {
        let mut pos = G::start();
        for _ in 0..300 {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                let chosen = pos.choose_move(&mut scratch, |_| panic!("asked in a finished game"));
                assert_eq!(chosen, None, "{pos}");
                assert!(pos.status().is_some(), "{pos}");
                break;
            }
            for (i, &mv) in legal.iter().enumerate() {
                let chosen = pos.choose_move(&mut scratch, |n| {
                    assert_eq!(n, legal.len(), "{pos}");
                    Some(i)
                });
                assert_eq!(chosen, Some(mv), "{pos}: index {i} of {legal:?}");
            }
            assert_eq!(pos.choose_move(&mut scratch, |_| None), None, "{pos}");
            pos.play(legal[rng.random_range(0..legal.len())]);
        }
    }
}

#[test]
fn choose_move_picks_by_index_in_canonical_order_in_every_game() {
    let mut rng = SmallRng::seed_from_u64(9);
    for id in GameId::ALL {
        with_game!(id, G => choose_move_follows_the_legal_moves::<G>(&mut rng));
    }
}
