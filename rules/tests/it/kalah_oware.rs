//! Kalah and Oware through the public API: perft from the start (the counts
//! agree with OpenSpiel 2.0.2's `mancala` and `oware`, checked in CI by
//! tests/suites/openspiel.sh), position strings by id, and invariants over
//! random whole games.

use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::games::oware::Oware;
use mancala_rules::perft::perft;
use mancala_rules::{
    game_from_position, normalize_position, start_position, EndReason, Game, GameId, GameRecord,
    Repetition,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};

#[test]
fn perft_from_the_start() {
    let kalah = [6, 35, 185, 942, 4690, 23233, 114430, 563055];
    for (depth, &n) in (1..).zip(&kalah) {
        assert_eq!(perft(&Kalah::start(), depth), n, "kalah depth {depth}");
    }
    let six = [6, 35, 190, 1056, 5882, 32243, 177827];
    for (depth, &n) in (1..).zip(&six) {
        assert_eq!(perft(&Kalah6::start(), depth), n, "kalah-6x6 depth {depth}");
    }
    let oware = [6, 36, 190, 1014, 5219, 27332, 139157, 711414];
    for (depth, &n) in (1..).zip(&oware) {
        assert_eq!(perft(&Oware::start(), depth), n, "oware depth {depth}");
    }
}

#[test]
fn ids_and_position_strings() {
    for (id, text) in [
        (GameId::Kalah, "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"),
        (GameId::Kalah6x6, "kalah-6x6 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"),
        (GameId::Oware, "oware 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"),
    ] {
        assert_eq!(id.to_string().parse::<GameId>(), Ok(id));
        assert_eq!(start_position(id), text);
        assert_eq!(normalize_position(text).as_deref(), Ok(text));
        assert_eq!(game_from_position(text).unwrap().game_id(), id);
        assert_eq!(id.hole_legend(), "South 1-6, North 7-12");
        let json = format!("\"{id}\"");
        assert_eq!(serde_json::to_string(&id).unwrap(), json);
    }
}

/// Random whole games: seeds conserved, stores never shrink, the final
/// scores share out every seed, and a finished game has no move.
fn random_games<G: Game>(games: usize, seed: u64, total: u32) -> Vec<EndReason> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut reasons = Vec::new();
    for _ in 0..games {
        let mut record = GameRecord::new(G::start());
        let mut stores = 0;
        while !record.is_over() {
            let legal = record.legal_moves();
            assert!(!legal.is_empty());
            record
                .play(legal[rng.random_range(0..legal.len())])
                .expect("legal");
            let pos = record.position();
            assert_eq!(pos.seed_count(), total);
            let key = pos.history_key();
            assert!(key >= stores, "stores shrank");
            stores = key;
            assert!(record.moves().len() < 2000, "endless game");
        }
        let outcome = record.outcome().expect("over");
        let scores = outcome.scores.expect("scored");
        assert_eq!(scores[0] + scores[1], total);
        reasons.push(outcome.reason);
    }
    reasons
}

#[test]
fn random_games_keep_the_invariants() {
    let kalah = random_games::<Kalah>(300, 1, 48);
    assert!(kalah.iter().all(|r| *r == EndReason::RowEmpty));
    random_games::<Kalah6>(100, 2, 72);
    let oware = random_games::<Oware>(300, 3, 48);
    // Random Oware games end every way the rules allow.
    for reason in [
        EndReason::HalfTaken,
        EndReason::NoLegalMove,
        EndReason::Repetition,
    ] {
        assert!(oware.contains(&reason), "no game ended by {reason}");
    }
}

/// Every position of `games` random games of `G` (the whole game, across
/// captures), counted by the position itself.
fn positions_of_random_games<G: Game>(games: usize, seed: u64) -> Vec<Vec<G>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..games)
        .map(|_| {
            let mut record = GameRecord::new(G::start());
            let mut seen = vec![G::start()];
            while !record.is_over() {
                let legal = record.legal_moves();
                record
                    .play(legal[rng.random_range(0..legal.len())])
                    .expect("legal");
                seen.push(record.position().clone());
            }
            seen
        })
        .collect()
}

#[test]
fn no_kalah_position_occurs_twice_in_a_game() {
    // What `Repetition::Impossible` promises the game record and playouts.
    assert_eq!(Kalah::REPETITION, Repetition::Impossible);
    assert_eq!(Kalah6::REPETITION, Repetition::Impossible);
    for game in positions_of_random_games::<Kalah>(500, 4)
        .into_iter()
        .chain(positions_of_random_games::<Kalah>(200, 5))
    {
        let distinct: HashSet<_> = game.iter().collect();
        assert_eq!(distinct.len(), game.len(), "a repeated position");
    }
    for game in positions_of_random_games::<Kalah6>(200, 6) {
        let distinct: HashSet<_> = game.iter().collect();
        assert_eq!(distinct.len(), game.len(), "a repeated position");
    }
    // The record keeps no history where nothing can repeat.
    let mut record = GameRecord::new(Kalah::start());
    record.play_str("1").expect("legal");
    record.play_str("7").expect("legal");
    assert_eq!(record.repetition_history().count(), 1);
    assert_eq!(record.repetition_history().last(), Some(record.position()));
}

#[test]
fn oware_repetition_keys_are_the_positions_themselves() {
    assert_eq!(Oware::REPETITION, Repetition::Exact);
    let mut by_key = HashMap::new();
    for game in positions_of_random_games::<Oware>(300, 7) {
        for pos in game {
            let other = by_key.entry(pos.repetition_key()).or_insert(pos);
            assert_eq!(*other, pos, "two positions with one key");
        }
    }
    // Everything but the side to move alike.
    let south: Oware = "oware 0,0,0,0,0,1,0,0,0,0,0,1 S 23/23".parse().unwrap();
    let north: Oware = "oware 0,0,0,0,0,1,0,0,0,0,0,1 N 23/23".parse().unwrap();
    assert_ne!(south.repetition_key(), north.repetition_key());
    // Everything but the stores alike.
    let other: Oware = "oware 0,0,0,0,0,1,0,0,0,0,0,1 S 22/24".parse().unwrap();
    assert_ne!(south.repetition_key(), other.repetition_key());
}
