//! Bosh's match-level cycle ruling with the reference engine's search: the
//! fixed-depth self-play of `docs/rules/bosh.md` that used to go round a cycle
//! of rounds for ever now ends by the rule.

use engine::control::SearchControl;
use engine::search::{Limits, Searcher};
use engine::tt::Table;
use mancala_rules::games::bosh::Bosh;
use mancala_rules::{EndReason, Game, GameRecord, GameResult, Side};

/// Self-play at `depth` from the match start, the table kept across the
/// game's moves as the engine keeps it between `newgame`s (16 MiB, its
/// default). Returns the finished record, or panics after `max_plies`.
fn self_play(depth: u32, max_plies: usize) -> GameRecord<Bosh> {
    let mut record = GameRecord::new(Bosh::start());
    let mut tt = Table::new(16);
    let limits = Limits {
        depth: Some(depth),
        nodes: None,
    };
    while !record.is_over() {
        assert!(
            record.moves().len() < max_plies,
            "no end after {max_plies} plies: {}",
            record.position()
        );
        let control = SearchControl::new();
        let mut searcher = Searcher::for_record(&mut tt, &control, limits, &record);
        let best = searcher
            .run(record.position(), None, |_| {})
            .expect("a legal move")
            .best;
        record.play(best).expect("the engine plays legal moves");
    }
    record
}

#[test]
fn depth_one_self_play_ends_by_a_repeated_round_start() {
    let record = self_play(1, 1000);
    let outcome = record.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::RoundStartRepeated, "{outcome:?}");
    assert_eq!(outcome.result, GameResult::Draw);
    let p = record.position();
    assert_eq!(
        outcome.scores,
        Some([p.stones_of(Side::South), p.stones_of(Side::North)])
    );
    // The final position opens a round that the match has opened twice before.
    let key = p.in_round().expect("rounds").start_key;
    let seen = record.round_start_history().iter().filter(|&&k| k == key);
    assert_eq!(seen.count(), 3);
}

/// The record after `plies` plies of `cycle` played twice from `start`.
fn into_second_lap(start: &str, cycle: &[&str], plies: usize) -> GameRecord<Bosh> {
    let mut record = GameRecord::new(start.parse::<Bosh>().expect("a position"));
    for mv in cycle.iter().cycle().take(plies) {
        record.play_str(mv).expect("a legal move");
    }
    assert!(!record.is_over());
    record
}

/// The best move and score at `depth`, the search given the round starts of
/// the match (`rule`) or only the positions of the current round.
fn best(record: &GameRecord<Bosh>, depth: u32, rule: bool) -> (String, i32) {
    let mut tt = Table::new(4);
    let control = SearchControl::new();
    let limits = Limits {
        depth: Some(depth),
        nodes: None,
    };
    let mut searcher = if rule {
        Searcher::for_record(&mut tt, &control, limits, record)
    } else {
        let history: Vec<u64> = record.repetition_history().map(Game::zobrist).collect();
        Searcher::new(&mut tt, &control, limits, &history)
    };
    let r = searcher
        .run(record.position(), None, |_| {})
        .expect("a move");
    (r.best.to_string(), r.score)
}

#[test]
fn the_side_behind_takes_the_draw_by_a_repeated_round_start() {
    // Round 3 of a match whose round starts 2 and 3 opened alike (South 23,
    // North 17, South to move). North, 12 stones behind on the board, plays
    // 7 and round 4 opens alike for the third time: a draw. Blind to the
    // rule, the search prefers 6.
    let cycle = ["1", "9", "5", "7", "2", "6", "2", "8", "1", "7"];
    let record = into_second_lap("bosh 4,4,4,4,4,4,4,4,4,x S 3/1 2", &cycle, 19);
    assert_eq!(
        record.position().to_string(),
        "bosh 0,1,0,0,0,1,2,0,2,x N 23/11 3"
    );
    for depth in 2..=6 {
        assert_eq!(
            best(&record, depth, true),
            ("7".to_owned(), 0),
            "depth {depth}"
        );
        assert_eq!(best(&record, depth, false).0, "6", "depth {depth}");
    }
}

#[test]
fn the_side_ahead_avoids_a_line_that_repeats_a_round_start() {
    // Round 2 of a match that opened it as it opened round 1. South, ahead,
    // would play 1, but then North's 8 ends the round with 20 stones each and
    // South stuck: round 3 opens like the match, a third time, a draw. Two
    // plies down, so only a search that counts round starts along its path,
    // from the game's, sees it.
    let cycle = ["3", "9", "2", "9", "2", "10", "1", "8"];
    let record = into_second_lap("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1", &cycle, 14);
    assert_eq!(
        record.position().to_string(),
        "bosh 1,1,0,2,0,0,12,2,1,0 S 18/3 2"
    );
    let (mv, score) = best(&record, 5, true);
    assert_ne!(mv, "1");
    assert!(score > 0, "{score}");
    assert_eq!(best(&record, 5, false).0, "1");
}
