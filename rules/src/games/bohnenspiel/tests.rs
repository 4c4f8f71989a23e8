//! Hand-worked positions from the rules text. Each "after" string was worked
//! out by hand from the "before" string (the workings are in the comments).

use super::*;
use crate::{GameRecord, GameResult, MoveError};

/// Plays `mv` (checked legal) on `before` and compares with `after`.
fn step<G: Game>(before: &str, mv: &str, after: &str) -> G {
    let pos: G = before.parse().expect("before parses");
    assert_eq!(pos.to_string(), before, "before is canonical");
    let m = pos.parse_legal(mv).expect("move is legal");
    let next = pos.after(m);
    assert_eq!(next.to_string(), after, "{before} + {mv}");
    assert_eq!(next.seed_count(), 72);
    next
}

#[test]
fn start_position() {
    let start = Bohnenspiel::start();
    assert_eq!(
        start.to_string(),
        "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
    );
    assert_eq!(
        Hemprich::start().to_string(),
        "bohnenspiel-hemprich 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
    );
    let moves: Vec<String> = start
        .legal_move_list()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves, ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(start.status(), None);
    assert_eq!(start.pits(), &[6; 12]);
    assert_eq!(start.stores(), [0, 0]);
}

#[test]
fn simple_sowing_without_capture() {
    // Hole 1's 6 beans go to holes 2..7; hole 7 ends with 7 (odd): no capture.
    step::<Bohnenspiel>(
        "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
        "1",
        "bohnenspiel 0,7,7,7,7,7,7,6,6,6,6,6 N 0/0",
    );
    // North's hole 12 sows over the end of the numbering into holes 1..6.
    step::<Bohnenspiel>(
        "bohnenspiel 0,7,7,7,7,7,7,6,6,6,6,6 N 0/0",
        "12",
        "bohnenspiel 1,8,8,8,8,8,7,6,6,6,6,0 S 0/0",
    );
}

#[test]
fn chain_across_both_rows_stopped_by_the_emptied_origin() {
    // South sows hole 4's 4 beans into 5,6,7,8: 1->2, 3->4, 1->2, 3->4.
    // Last bean in 8 (North) = 4: take 8 (4), 7 (2), then South's 6 (4), 5 (2);
    // hole 4 holds 0 (just emptied): the chain stops. 12 beans to South.
    step::<Bohnenspiel>(
        "bohnenspiel 6,5,5,4,1,3,1,3,5,5,5,5 S 12/12",
        "4",
        "bohnenspiel 6,5,5,0,0,0,0,0,5,5,5,5 N 24/12",
    );
}

#[test]
fn chain_stopped_by_an_odd_count() {
    // South sows hole 2's 3 beans into 3,4,5: 2->3, 1->2, 3->4.
    // Last in 5 = 4: take it; 4 = 2: take it; 3 = 3 is odd: stop. 6 beans.
    step::<Bohnenspiel>(
        "bohnenspiel 5,3,2,1,3,6,6,6,6,6,6,6 S 8/8",
        "2",
        "bohnenspiel 5,0,3,0,0,6,6,6,6,6,6,6 N 14/8",
    );
}

#[test]
fn chain_stopped_by_more_than_six() {
    // North sows hole 11's 3 beans into 12, 1, 2: 7->8, 1->2, 3->4.
    // Last in South's 2 = 4: take; 1 = 2: take; North's 12 = 8 (even, but
    // more than 6): stop. North captures 6 beans from South's side.
    step::<Bohnenspiel>(
        "bohnenspiel 1,3,6,6,6,6,6,6,6,6,3,7 N 4/6",
        "11",
        "bohnenspiel 0,0,6,6,6,6,6,6,6,6,0,8 S 4/12",
    );
}

#[test]
fn last_pit_not_a_capture_count_takes_nothing() {
    // South sows hole 3's 2 beans into 4 and 5: 1 -> 2, 7 -> 8. The last bean
    // makes 8: nothing is taken, although the pit before it now holds 2.
    step::<Bohnenspiel>(
        "bohnenspiel 1,6,2,1,7,6,6,6,6,6,6,13 S 4/2",
        "3",
        "bohnenspiel 1,6,0,2,8,6,6,6,6,6,6,13 N 4/2",
    );
}

#[test]
fn twelve_or_more_beans_sow_into_the_origin() {
    // South sows 13 beans from hole 3: one each into 4..12, 1, 2, then the
    // 12th into hole 3 itself (not skipped) and the 13th into hole 4.
    // Hole 4: 0+2 = 2, taken; hole 3 (origin) holds 1, odd: stop.
    // (Skipping the origin would put the last bean in hole 5 instead.)
    step::<Bohnenspiel>(
        "bohnenspiel 3,2,13,0,5,5,5,5,5,5,5,5 S 6/8",
        "3",
        "bohnenspiel 4,3,1,0,6,6,6,6,6,6,6,6 N 8/8",
    );
}

#[test]
fn exactly_twelve_beans_end_in_the_origin() {
    // 12 beans: one in each pit, the last back in hole 5 itself, which now
    // holds 1: no capture although every other pit went 1 -> 2.
    step::<Bohnenspiel>(
        "bohnenspiel 1,1,1,1,12,1,1,1,1,1,1,1 S 25/24",
        "5",
        "bohnenspiel 2,2,2,2,1,2,2,2,2,2,2,2 N 25/24",
    );
}

#[test]
fn chain_passes_the_origin_and_stops_on_reaching_its_start() {
    // South sows 25 beans from hole 1: two full laps (every pit +2, hole 1
    // included) and one more bean into hole 2. Hole 2: 1+3 = 4, hole 1: 2,
    // holes 3..12: 2 each. The chain takes 2, 1 (the origin: it is not a
    // stop), 12, 11, ..., 3; the pit before 3 is hole 2, where the chain
    // started: it is never examined twice, so the chain ends there with all
    // 26 beans taken once.
    let after = step::<Bohnenspiel>(
        "bohnenspiel 25,1,0,0,0,0,0,0,0,0,0,0 S 24/22",
        "1",
        "bohnenspiel 0,0,0,0,0,0,0,0,0,0,0,0 N 50/22",
    );
    // North has no bean: the game is over (nothing left to sweep).
    let outcome = after.status().expect("game over");
    assert_eq!(outcome.reason, EndReason::NoSeedsToMove);
    assert_eq!(outcome.scores, Some([50, 22]));
    assert_eq!(outcome.result, GameResult::SouthWins);
}

#[test]
fn chain_of_all_twelve_pits_starting_at_the_origin() {
    // 24 beans from hole 3: two full laps, the last bean back in hole 3; every
    // pit holds 2. The chain takes 3, 2, 1, 12, ..., 4 and stops before
    // re-examining hole 3: 24 beans, counted once.
    step::<Hemprich>(
        "bohnenspiel-hemprich 0,0,24,0,0,0,0,0,0,0,0,0 N 20/28",
        "pass",
        "bohnenspiel-hemprich 0,0,24,0,0,0,0,0,0,0,0,0 S 20/28",
    );
    let after = step::<Hemprich>(
        "bohnenspiel-hemprich 0,0,24,0,0,0,0,0,0,0,0,0 S 20/28",
        "3",
        "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,0,0 N 44/28",
    );
    assert_eq!(
        after.status().map(|o| o.reason),
        Some(EndReason::BoardEmpty)
    );
}

#[test]
fn end_of_game_sweeps_the_board_to_the_last_mover() {
    // South sows hole 6's bean into 7: 1 -> 2, taken; North has no bean left.
    // The 8 beans still on South's side go to South, who moved last.
    let after = step::<Bohnenspiel>(
        "bohnenspiel 3,0,5,0,0,1,1,0,0,0,0,0 S 30/32",
        "6",
        "bohnenspiel 3,0,5,0,0,0,0,0,0,0,0,0 N 32/32",
    );
    assert!(after.legal_move_list().is_empty());
    let outcome = after.status().expect("game over");
    assert_eq!(outcome.reason, EndReason::NoSeedsToMove);
    assert_eq!(outcome.scores, Some([40, 32]));
    assert_eq!(outcome.result, GameResult::SouthWins);
    assert_eq!(after.parse_legal("1"), Err(MoveError::GameOver));
}

#[test]
fn thirty_six_all_is_a_draw() {
    // North sows hole 11's bean into 12: 3 -> 4, taken (36/34). South has no
    // bean: North, who moved last, sweeps the 2 beans in hole 9: 36-36.
    let after = step::<Bohnenspiel>(
        "bohnenspiel 0,0,0,0,0,0,0,0,2,0,1,3 N 36/30",
        "11",
        "bohnenspiel 0,0,0,0,0,0,0,0,2,0,0,0 S 36/34",
    );
    let outcome = after.status().expect("game over");
    assert_eq!(outcome.scores, Some([36, 36]));
    assert_eq!(outcome.result, GameResult::Draw);
    assert_eq!(outcome.reason, EndReason::NoSeedsToMove);
}

#[test]
fn hemprich_pass_and_board_empty_end() {
    let pos: Hemprich = "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,1,1 S 40/30"
        .parse()
        .unwrap();
    assert_eq!(pos.status(), None);
    assert_eq!(pos.legal_move_list(), [BeanMove::PASS]);
    assert!(matches!(
        pos.parse_legal("1"),
        Err(MoveError::Illegal { .. })
    ));
    let passed = step::<Hemprich>(
        "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,1,1 S 40/30",
        "pass",
        "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,1,1 N 40/30",
    );
    assert_eq!(
        passed.legal_move_list(),
        [BeanMove::sow(11).unwrap(), BeanMove::sow(12).unwrap()]
    );
    // North sows 11 into 12: 1 -> 2, taken; the board is empty.
    let end = step::<Hemprich>(
        "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,1,1 N 40/30",
        "11",
        "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,0,0 S 40/32",
    );
    assert!(end.legal_move_list().is_empty());
    let outcome = end.status().expect("game over");
    assert_eq!(outcome.reason, EndReason::BoardEmpty);
    assert_eq!(outcome.scores, Some([40, 32]));
    assert_eq!(outcome.result, GameResult::SouthWins);

    // The same position in plain Bohnenspiel is over: North sweeps the 2 beans.
    let plain: Bohnenspiel = "bohnenspiel 0,0,0,0,0,0,0,0,0,0,1,1 S 40/30"
        .parse()
        .unwrap();
    assert!(plain.legal_move_list().is_empty());
    assert_eq!(plain.status().and_then(|o| o.scores), Some([40, 32]));
    assert!(matches!(
        plain.parse_legal("pass"),
        Err(MoveError::GameOver)
    ));
}

#[test]
fn pass_is_illegal_with_beans_on_own_side() {
    let pos = Hemprich::start();
    assert!(!pos.legal_move_list().contains(&BeanMove::PASS));
    assert!(matches!(
        pos.parse_legal("pass"),
        Err(MoveError::Illegal { .. })
    ));
    let pos = Bohnenspiel::start();
    assert!(matches!(
        pos.parse_legal("pass"),
        Err(MoveError::Illegal { .. })
    ));
}

/// `bohnenspiel 1,0,0,0,0,0,1,0,1,0,0,0 S 36/33`: three lone beans walk round
/// without ever making an even count, and the position comes back after these
/// 12 plies (worked by hand: each bean lands in an empty pit).
const CYCLE: [&str; 12] = [
    "1", "9", "2", "10", "3", "11", "4", "12", "5", "7", "6", "8",
];

fn cycle_ending<G: Game<Move = BeanMove>>(start: &str) {
    let start: G = start.parse().unwrap();
    let mut record = GameRecord::new(start.clone());
    for (ply, mv) in CYCLE.iter().cycle().take(24).enumerate() {
        assert!(!record.is_over(), "over before ply {ply}");
        record.play_str(mv).unwrap();
        if ply == 11 {
            assert_eq!(record.position(), &start, "the cycle is 12 plies");
        }
    }
    // Third occurrence: each player takes his own side (South 1, North 2).
    // (Sweeping to the last mover, North, would have given 36-36.)
    assert_eq!(record.position(), &start);
    let outcome = record.outcome().expect("cycle ends the game");
    assert_eq!(outcome.reason, EndReason::Cycle);
    assert_eq!(outcome.scores, Some([37, 35]));
    assert_eq!(outcome.result, GameResult::SouthWins);
    assert_eq!(record.play_str("1"), Err(MoveError::GameOver));
}

#[test]
fn third_occurrence_ends_the_game_each_takes_own_side() {
    cycle_ending::<Bohnenspiel>("bohnenspiel 1,0,0,0,0,0,1,0,1,0,0,0 S 36/33");
    cycle_ending::<Hemprich>("bohnenspiel-hemprich 1,0,0,0,0,0,1,0,1,0,0,0 S 36/33");
}

#[test]
fn on_repetition_splits_by_side() {
    let pos: Bohnenspiel = "bohnenspiel 2,3,0,0,0,0,1,0,0,0,0,0 N 30/36"
        .parse()
        .unwrap();
    let RepetitionEffect::GameOver(outcome) = pos.on_repetition() else {
        panic!("Bohnenspiel cycles end the game");
    };
    assert_eq!(outcome.scores, Some([35, 37]));
    assert_eq!(outcome.result, GameResult::NorthWins);
}

#[test]
fn history_key_counts_stored_beans() {
    let pos: Bohnenspiel = "bohnenspiel 5,3,2,1,3,6,6,6,6,6,6,6 S 8/8".parse().unwrap();
    assert_eq!(pos.history_key(), 16);
    let next = pos.after(BeanMove::sow(2).unwrap());
    assert_eq!(next.history_key(), 22);
}

#[test]
fn zobrist_distinguishes_side_and_stores() {
    let a: Bohnenspiel = "bohnenspiel 5,3,2,1,3,6,6,6,6,6,6,6 S 8/8".parse().unwrap();
    let b: Bohnenspiel = "bohnenspiel 5,3,2,1,3,6,6,6,6,6,6,6 N 8/8".parse().unwrap();
    let c: Bohnenspiel = "bohnenspiel 5,3,2,1,3,6,6,6,6,6,6,6 S 6/10"
        .parse()
        .unwrap();
    assert_ne!(a.zobrist(), b.zobrist());
    assert_ne!(a.zobrist(), c.zobrist());
    assert_eq!(a.zobrist(), a.clone().zobrist());
}

#[test]
fn render_shows_north_on_top_reversed() {
    let pos: Bohnenspiel = "bohnenspiel 1,2,3,4,5,6,7,8,9,10,11,0 S 3/3"
        .parse()
        .unwrap();
    let text = pos.render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "bohnenspiel: South to move");
    assert_eq!(lines[1], "North: store 3");
    assert!(lines[2]
        .split_whitespace()
        .eq(["#12", "#11", "#10", "#9", "#8", "#7"]));
    assert!(lines[3]
        .split_whitespace()
        .eq(["0", "11", "10", "9", "8", "7", "North"]));
    assert!(lines[5]
        .split_whitespace()
        .eq(["1", "2", "3", "4", "5", "6", "South"]));
    assert!(lines[6]
        .split_whitespace()
        .eq(["#1", "#2", "#3", "#4", "#5", "#6"]));
    assert_eq!(lines[7], "South: store 3");
}
