//! `decided`: the result a game can no longer escape. Checked on constructed
//! positions and, for every game, against the real end of random games: once
//! `decided` names a result, the game ends with it.

use mancala_rules::games::bohnenspiel::{Bohnenspiel, Hemprich};
use mancala_rules::{new_game, Game, GameId, GameResult};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn pos<G: Game>(s: &str) -> G {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

#[test]
fn bohnenspiel_is_decided_by_a_store_above_36() {
    let b: Bohnenspiel = pos("bohnenspiel 6,6,6,6,6,0,0,0,0,0,2,3 N 37/0");
    assert_eq!(b.status(), None, "the game goes on");
    assert_eq!(b.decided(), Some(GameResult::SouthWins));
    let b: Bohnenspiel = pos("bohnenspiel 1,1,1,1,1,1,1,1,1,1,1,0 S 24/37");
    assert_eq!(b.decided(), Some(GameResult::NorthWins));
    // 36 is not enough: the other player can still reach 36 (a draw).
    let b: Bohnenspiel = pos("bohnenspiel 6,6,0,0,0,0,0,0,0,0,0,0 S 36/24");
    assert_eq!(b.decided(), None);
    assert_eq!(Bohnenspiel::start().decided(), None);
    let h: Hemprich = pos("bohnenspiel-hemprich 0,0,0,0,0,0,1,0,0,0,0,0 S 40/31");
    assert_eq!(h.decided(), Some(GameResult::SouthWins));
    let h: Hemprich = pos("bohnenspiel-hemprich 0,0,0,0,0,0,2,0,0,0,0,0 S 35/35");
    assert_eq!(h.decided(), None);
}

#[test]
fn a_finished_game_is_decided_with_its_result() {
    // North to move with no bean: South takes the rest, 48–24.
    let b: Bohnenspiel = pos("bohnenspiel 6,6,0,0,0,0,0,0,0,0,0,0 N 36/24");
    assert_eq!(b.decided(), Some(GameResult::SouthWins));
    for id in GameId::ALL {
        assert_eq!(new_game(id).decided(), None, "{id} is open at the start");
    }
}

/// Random games of every game: whenever `decided` says something, the game
/// ends that way.
#[test]
fn decided_never_contradicts_the_end() {
    let mut rng = SmallRng::seed_from_u64(12);
    let mut early = 0;
    for id in GameId::ALL {
        for _ in 0..300 {
            let mut game = new_game(id);
            let mut claims = Vec::new();
            for _ in 0..3000 {
                if let Some(r) = game.decided() {
                    claims.push((game.moves().len(), r));
                }
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())].clone();
                game.play(&mv).unwrap();
            }
            let Some(outcome) = game.outcome() else {
                continue;
            };
            for (ply, r) in claims {
                assert_eq!(
                    r,
                    outcome.result,
                    "{id}: claimed at ply {ply}, {:?}",
                    game.moves()
                );
                if ply < game.moves().len() {
                    early += 1;
                }
            }
        }
    }
    assert!(
        early > 0,
        "some Bohnenspiel games are decided before their end"
    );
}
