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
