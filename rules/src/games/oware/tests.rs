//! Hand-worked positions from `docs/rules/oware.md`. Each "after" string was
//! worked out by hand from the "before" string (the workings are in the
//! comments).

use super::*;
use crate::Field;
use crate::GameRecord;

/// Plays `mv` (checked legal) on `before` and compares with `after`.
fn step(before: &str, mv: &str, after: &str) -> Oware {
    let pos: Oware = before.parse().expect("before parses");
    assert_eq!(pos.to_string(), before, "before is canonical");
    let m = pos.parse_legal(mv).expect("move is legal");
    let next = pos.after(m);
    assert_eq!(next.to_string(), after, "{before} + {mv}");
    assert_eq!(next.seed_count(), TOTAL_SEEDS);
    next
}

fn moves(pos: &str) -> Vec<String> {
    let pos: Oware = pos.parse().expect("parses");
    pos.legal_move_list()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn start_position() {
    let start = Oware::start();
    assert_eq!(start.to_string(), "oware 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0");
    assert_eq!(moves(&start.to_string()), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(start.status(), None);
}

#[test]
fn sowing_without_capture() {
    // Hole 6's 4 seeds: holes 7..10 hold 5: no capture.
    step(
        "oware 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0",
        "6",
        "oware 4,4,4,4,4,0,5,5,5,5,4,4 N 0/0",
    );
}

#[test]
fn backward_chain_of_twos_and_threes_stays_in_the_opponents_row() {
    // Hole 5's 3 seeds: 6 (5), 7 (1 -> 2), 8 (2 -> 3). Last in 8: take 3,
    // then 7: take 2; the next hole back, 6, is South's own: stop. 5 seeds.
    step(
        "oware 4,4,4,4,3,4,1,2,4,4,4,4 S 3/3",
        "5",
        "oware 4,4,4,4,0,5,0,0,4,4,4,4 N 8/3",
    );
    // The chain stops at a hole holding anything else: 7 ends with 5.
    step(
        "oware 4,4,4,4,3,4,4,2,4,4,4,4 S 1/2",
        "5",
        "oware 4,4,4,4,0,5,5,0,4,4,4,4 N 4/2",
    );
}

#[test]
fn a_two_in_the_movers_own_row_is_not_captured() {
    step(
        "oware 1,1,0,0,0,0,4,4,4,4,4,4 S 11/11",
        "1",
        "oware 0,2,0,0,0,0,4,4,4,4,4,4 N 11/11",
    );
}

#[test]
fn twelve_or_more_seeds_skip_the_origin() {
    // Hole 1's 12 seeds: holes 2..12, then (hole 1 skipped) hole 2 again.
    step(
        "oware 12,0,0,0,0,0,0,0,0,0,0,0 S 18/18",
        "1",
        "oware 0,2,1,1,1,1,1,1,1,1,1,1 N 18/18",
    );
    // Hole 6's 15 seeds: 7..12, 1..5, (6 skipped) 7..10. Holes 7..10 hold 2:
    // the last seed is in 10, and the chain takes 10, 9, 8, 7 (8 seeds);
    // 11 and 12 keep a seed each, so it is no grand slam.
    step(
        "oware 0,0,0,0,0,15,0,0,0,0,0,0 S 16/17",
        "6",
        "oware 1,1,1,1,1,0,0,0,0,0,1,1 N 24/17",
    );
}

#[test]
fn a_grand_slam_captures_nothing() {
    // Hole 6's 2 seeds make 7 = 2 and 8 = 3, and 9..12 are empty: capturing
    // would empty North's row, so nothing is taken.
    let after = step(
        "oware 0,0,0,0,0,2,1,2,0,0,0,0 S 21/22",
        "6",
        "oware 0,0,0,0,0,0,2,3,0,0,0,0 N 21/22",
    );
    // North must now feed South and cannot (hole 7's 2 and hole 8's 3 stay
    // in his row): the game ends, each taking his own row.
    assert!(after.legal_move_list().is_empty());
    let outcome = after.status().expect("over");
    assert_eq!(outcome.reason, EndReason::NoLegalMove);
    assert_eq!(outcome.scores, Some([21, 27]));
    // With a seed left behind the chain (hole 9) the same capture is made.
    let after = step(
        "oware 0,0,0,0,0,2,1,2,1,0,0,0 S 21/21",
        "6",
        "oware 0,0,0,0,0,0,0,0,1,0,0,0 N 26/21",
    );
    let outcome = after.status().expect("more than half taken");
    assert_eq!(outcome.reason, EndReason::HalfTaken);
    assert_eq!(outcome.scores, Some([26, 22]));
    assert_eq!(outcome.result, GameResult::SouthWins);
}

#[test]
fn the_mover_must_feed_an_empty_row() {
    // North is empty: hole 1's seed would stay in South's row; hole 6's feeds.
    assert_eq!(moves("oware 1,0,0,0,0,1,0,0,0,0,0,0 S 23/23"), ["6"]);
    step(
        "oware 1,0,0,0,0,1,0,0,0,0,0,0 S 23/23",
        "6",
        "oware 1,0,0,0,0,0,1,0,0,0,0,0 N 23/23",
    );
    // When no move feeds, the game is over and South keeps his 2 seeds.
    let pos: Oware = "oware 1,1,0,0,0,0,0,0,0,0,0,0 S 23/23".parse().unwrap();
    let outcome = pos.status().expect("cannot feed");
    assert_eq!(outcome.reason, EndReason::NoLegalMove);
    assert_eq!(outcome.scores, Some([25, 23]));
    assert_eq!(outcome.result, GameResult::SouthWins);
    // North to move with seeds on both sides: any non-empty hole.
    assert_eq!(moves("oware 1,0,0,0,0,0,1,0,0,0,0,2 N 22/22"), ["7", "12"]);
}

#[test]
fn half_the_seeds_each_is_a_draw() {
    let pos: Oware = "oware 0,0,0,0,0,0,0,0,0,0,0,0 S 24/24".parse().unwrap();
    let outcome = pos.status().expect("over");
    assert_eq!(outcome.reason, EndReason::HalfTaken);
    assert_eq!(outcome.result, GameResult::Draw);
    let pos: Oware = "oware 4,0,0,0,0,0,4,0,0,0,0,0 S 25/15".parse().unwrap();
    assert_eq!(pos.status().map(|o| o.scores), Some(Some([29, 19])));
    let pos: Oware = "oware 4,0,0,0,0,0,4,0,0,0,0,0 S 24/16".parse().unwrap();
    assert_eq!(pos.status(), None);
    assert_eq!(pos.decided(), None);
}

#[test]
fn the_first_repetition_since_a_capture_ends_the_game() {
    // Two seeds chase each other round the board without a capture: after
    // 12 plies (one legal move each time) the start position is back.
    let start: Oware = "oware 0,0,0,0,0,1,0,0,0,0,0,1 S 23/23".parse().unwrap();
    let mut record = GameRecord::new(start);
    for ply in 1..=12 {
        assert!(!record.is_over(), "over before ply {ply}");
        let legal = record.legal_moves();
        assert_eq!(legal.len(), 1, "ply {ply}: {legal:?}");
        record.play(legal[0]).expect("legal");
    }
    assert_eq!(record.position(), &start);
    let outcome = record.outcome().expect("first repetition");
    assert_eq!(outcome.reason, EndReason::Repetition);
    assert_eq!(outcome.scores, Some([24, 24]));
    assert_eq!(outcome.result, GameResult::Draw);
}

#[test]
fn a_capture_forgets_earlier_positions() {
    let pos: Oware = "oware 4,4,4,4,3,4,1,2,4,4,4,4 S 3/3".parse().unwrap();
    let after = pos.after("5".parse().unwrap());
    assert_ne!(pos.history_key(), after.history_key());
}

#[test]
fn position_strings_are_checked() {
    let e = "oware 4,4,4,4,4,4,4,4,4,4,4,4 S 0/1"
        .parse::<Oware>()
        .unwrap_err();
    assert!(e.message.contains("expected 48"), "{e}");
    let e = "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"
        .parse::<Oware>()
        .unwrap_err();
    assert_eq!(e.field, Field::Game);
}
