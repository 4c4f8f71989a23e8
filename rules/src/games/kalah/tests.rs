//! Hand-worked positions from `docs/rules/kalah.md`. Each "after" string was
//! worked out by hand from the "before" string (the workings are in the
//! comments).

use super::*;
use crate::Field;
use crate::GameRecord;

/// Plays `mv` (checked legal) on `before` and compares with `after`.
fn step<G: Game>(before: &str, mv: &str, after: &str) -> G {
    let pos: G = before.parse().expect("before parses");
    assert_eq!(pos.to_string(), before, "before is canonical");
    let m = pos.parse_legal(mv).expect("move is legal");
    let next = pos.after(m);
    assert_eq!(next.to_string(), after, "{before} + {mv}");
    assert_eq!(next.seed_count(), pos.seed_count());
    next
}

fn moves<G: Game>(pos: &G) -> Vec<String> {
    pos.legal_move_list()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn start_positions() {
    let start = Kalah::start();
    assert_eq!(start.to_string(), "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0");
    assert_eq!(moves(&start), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(start.status(), None);
    assert_eq!(start.seed_count(), 48);
    let six = Kalah6::start();
    assert_eq!(six.to_string(), "kalah-6x6 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0");
    assert_eq!(six.seed_count(), 72);
    let north: Kalah = "kalah 4,4,4,4,4,4,4,4,4,4,4,4 N 0/0".parse().unwrap();
    assert_eq!(moves(&north), ["7", "8", "9", "10", "11", "12"]);
}

#[test]
fn sowing_passes_the_turn() {
    // Hole 1's 4 seeds go to holes 2..5.
    step::<Kalah>(
        "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0",
        "1",
        "kalah 0,5,5,5,5,4,4,4,4,4,4,4 N 0/0",
    );
}

#[test]
fn last_seed_in_own_store_is_an_extra_turn() {
    // Hole 3's 4 seeds: holes 4, 5, 6, then South's store: South again.
    step::<Kalah>(
        "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0",
        "3",
        "kalah 4,4,0,5,5,5,4,4,4,4,4,4 S 1/0",
    );
    // North's hole 9: holes 10, 11, 12, then North's store.
    step::<Kalah>(
        "kalah 4,4,4,4,4,4,4,4,4,4,4,4 N 0/0",
        "9",
        "kalah 4,4,4,4,4,4,4,4,0,5,5,5 N 0/1",
    );
    // 6 seeds a hole: hole 1 reaches the store with its last seed.
    step::<Kalah6>(
        "kalah-6x6 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
        "1",
        "kalah-6x6 0,7,7,7,7,7,6,6,6,6,6,6 S 1/0",
    );
}

#[test]
fn opponents_store_is_skipped_and_an_empty_hole_captures() {
    // Hole 6's 10 seeds: South's store (14), holes 7..12 (5 each), North's
    // store skipped, holes 1, 2, 3. Hole 3 was empty and now holds 1; the
    // opposite hole 10 holds 5: 5 + 1 go to South's store (20).
    step::<Kalah>(
        "kalah 0,0,0,0,1,10,4,4,4,4,4,4 S 13/0",
        "6",
        "kalah 1,1,0,0,1,0,5,5,5,0,5,5 N 20/0",
    );
}

#[test]
fn north_skips_souths_store_and_the_empty_row_ends_the_game() {
    // Hole 12's 8 seeds: North's store (17), holes 1..6 (5 each), South's
    // store skipped, hole 7 (was empty, now 1): opposite hole 6 holds 5,
    // so 6 go to North's store (23). North's row is then empty: the game is
    // over and South takes the 25 seeds of his row.
    let end = step::<Kalah>(
        "kalah 4,4,4,4,4,4,0,0,0,0,0,8 N 0/16",
        "12",
        "kalah 5,5,5,5,5,0,0,0,0,0,0,0 S 0/23",
    );
    let outcome = end.status().expect("over");
    assert_eq!(outcome.reason, EndReason::RowEmpty);
    assert_eq!(outcome.scores, Some([25, 23]));
    assert_eq!(outcome.result, GameResult::SouthWins);
    assert!(end.legal_move_list().is_empty());
}

#[test]
fn an_empty_opposite_hole_captures_nothing() {
    // Hole 1's seed falls into empty hole 2; hole 11 opposite is empty: the
    // seed stays and the turn passes.
    step::<Kalah>(
        "kalah 1,0,0,0,0,0,0,0,0,0,0,4 S 20/23",
        "1",
        "kalah 0,1,0,0,0,0,0,0,0,0,0,4 N 20/23",
    );
    // Landing in a non-empty own hole captures nothing either.
    step::<Kalah>(
        "kalah 1,1,0,0,0,0,0,0,0,0,4,4 S 19/19",
        "1",
        "kalah 0,2,0,0,0,0,0,0,0,0,4,4 N 19/19",
    );
}

#[test]
fn landing_in_an_empty_opponents_hole_captures_nothing() {
    // Hole 6's 2 seeds: South's store, then hole 7 (North's, empty): no capture.
    step::<Kalah>(
        "kalah 1,0,0,0,0,2,0,0,0,0,0,4 S 20/21",
        "6",
        "kalah 1,0,0,0,0,0,1,0,0,0,0,4 N 21/21",
    );
}

#[test]
fn thirteen_seeds_sow_into_the_origin_and_capture_there() {
    // Hole 1's 13 seeds: holes 2..6, South's store (11), holes 7..12 (2
    // each), then hole 1 itself (not skipped), emptied and now 1: it
    // captures with the opposite hole 12 (2): 3 to South's store (14).
    step::<Kalah>(
        "kalah 13,0,0,0,0,0,1,1,1,1,1,1 S 10/19",
        "1",
        "kalah 0,1,1,1,1,1,2,2,2,2,2,0 N 14/19",
    );
}

#[test]
fn an_extra_turn_with_an_empty_row_ends_the_game() {
    // Hole 6's single seed goes to the store: South would move again, but
    // his row is empty: North takes his 24 seeds.
    let end = step::<Kalah>(
        "kalah 0,0,0,0,0,1,4,4,4,4,4,4 S 10/13",
        "6",
        "kalah 0,0,0,0,0,0,4,4,4,4,4,4 S 11/13",
    );
    let outcome = end.status().expect("over");
    assert_eq!(outcome.scores, Some([11, 37]));
    assert_eq!(outcome.result, GameResult::NorthWins);
}

#[test]
fn equal_totals_draw_and_a_majority_store_decides() {
    let pos: Kalah = "kalah 0,0,0,0,0,0,0,0,0,0,0,4 S 24/20".parse().unwrap();
    let outcome = pos.status().expect("South's row is empty");
    assert_eq!(outcome.scores, Some([24, 24]));
    assert_eq!(outcome.result, GameResult::Draw);
    let pos: Kalah = "kalah 1,0,0,0,0,0,0,0,0,0,0,1 N 25/21".parse().unwrap();
    assert_eq!(pos.status(), None);
    assert_eq!(pos.decided(), Some(GameResult::SouthWins));
    let pos: Kalah = "kalah 1,0,0,0,0,0,0,0,0,0,0,1 N 24/22".parse().unwrap();
    assert_eq!(pos.decided(), None);
}

#[test]
fn position_strings_are_checked() {
    let e = "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/1"
        .parse::<Kalah>()
        .unwrap_err();
    assert!(e.message.contains("expected 48"), "{e}");
    let e = "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"
        .parse::<Kalah6>()
        .unwrap_err();
    assert_eq!(e.field, Field::Game);
    assert!("kalah 4,4,4,4,4,4,4,4,4,4,4 S 0/0"
        .parse::<Kalah>()
        .is_err());
    assert!("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S".parse::<Kalah>().is_err());
    assert!("13".parse::<PitMove>().is_err());
    assert!("07".parse::<PitMove>().is_err());
}

#[test]
fn a_record_plays_to_the_end_without_repetition() {
    // Playing the first legal move every time ends by an empty row.
    let mut record = GameRecord::new(Kalah::start());
    while !record.is_over() {
        let mv = record.legal_moves()[0];
        record.play(mv).expect("legal");
    }
    let outcome = record.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::RowEmpty);
    let scores = outcome.scores.expect("scores");
    assert_eq!(scores[0] + scores[1], 48);
}

#[test]
fn render_shows_north_on_top_reversed() {
    let pos: Kalah = "kalah 1,2,3,4,5,6,7,8,9,0,0,0 N 2/1".parse().unwrap();
    let text = pos.render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "kalah: North to move");
    assert!(lines[1].contains("store 1"));
    assert!(lines[2].trim_start().starts_with("#12"));
    assert!(text.contains("store 2"));
}
