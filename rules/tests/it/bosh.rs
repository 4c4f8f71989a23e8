//! Integration tests for Bosh: perft, position strings, the cycle rule
//! through `GameRecord`, and invariants over seeded random games.

use mancala_rules::games::bosh::{Bosh, BoshMove};
use mancala_rules::perft::{divide, perft};
use mancala_rules::{
    game_from_position, new_game, normalize_position, perft_str, EndReason, Field, Game, GameId,
    GameRecord, GameResult, Outcome, Side,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn pos(s: &str) -> Bosh {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Perft from the start, as an independent implementation of the rulings gives it.
const PERFT: [u64; 11] = [
    5, 19, 79, 266, 864, 2881, 9295, 27914, 84572, 249221, 715969,
];

#[test]
fn perft_from_start() {
    let start = Bosh::start();
    for (d, &n) in PERFT.iter().enumerate() {
        assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
}

/// Deeper counts from this implementation only (not independently confirmed):
/// a regression guard.
#[test]
#[ignore = "deep perft, run by hand in release"]
fn perft_from_start_deep() {
    let start = Bosh::start();
    for (d, n) in [(12, 2_028_218u64), (13, 5_613_333)] {
        assert_eq!(perft(&start, d), n, "depth {d}");
    }
}

#[test]
fn divide_sums_to_perft_and_perft_str_agrees() {
    let start = Bosh::start();
    let split = divide(&start, 5);
    assert_eq!(
        split.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5].map(BoshMove)
    );
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), PERFT[4]);
    assert_eq!(
        perft_str("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1", 3),
        Ok(PERFT[2])
    );
}

#[test]
fn perft_stops_at_a_finished_match_and_excludes_endless_moves() {
    assert_eq!(perft(&pos("bosh 4,4,4,4,4,x,x,x,x,x N 17/3 6"), 3), 0);
    assert_eq!(perft(&pos("bosh 7,4,2,5,4,3,2,3,7,3 S 0/0 1"), 1), 4);
}

// Position strings.

#[test]
fn position_strings_round_trip() {
    for s in [
        "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1",
        "bosh 0,1,4,0,1,0,1,0,0,1 N 16/16 1",
        "bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2",
        "bosh 1,0,0,x,x,1,1,0,x,x N 20/17 2",
        "bosh 4,4,4,4,4,x,x,x,x,x N 17/3 6",
        "bosh x,x,x,x,x,4,4,4,4,4 S 3/17 4294967295",
        "bosh 0,0,0,0,0,40,0,0,0,0 N 0/0 12",
    ] {
        assert_eq!(pos(s).to_string(), s);
        assert_eq!(normalize_position(s).as_deref(), Ok(s));
    }
}

#[test]
fn bad_position_strings_are_rejected_naming_the_field() {
    let cases: &[(&str, Field, &str)] = &[
        ("", Field::String, "empty"),
        (
            "bosh  4,4,4,4,4,4,4,4,4,4 S 0/0 1",
            Field::String,
            "single spaces",
        ),
        (
            "kimasai 4,4,4,4,4,4,4,4,4,4 S 0/0 1",
            Field::Game,
            "expected game id bosh",
        ),
        ("bosh", Field::Holes, "missing"),
        (
            "bosh 4,4,4,4,4,4,4,4,4 S 0/0 1",
            Field::Holes,
            "expected 10 holes",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4,0 S 0/0 1",
            Field::Holes,
            "expected 10 holes",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,5 S 0/0 1",
            Field::Holes,
            "hold 41, expected 40",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 S 1/0 1",
            Field::Holes,
            "hold 41, expected 40",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,x S 0/0 1",
            Field::Holes,
            "hold 36, expected 40",
        ),
        ("bosh 4,4,4,4,4,4,4,4,4,X S 4/0 1", Field::Holes, "hole 10"),
        ("bosh 4,4,4,4,4,4,4,4,4,x4 S 0/0 1", Field::Holes, "hole 10"),
        ("bosh 4,4,4,4,4,4,4,4,4,04 S 0/0 1", Field::Holes, "hole 10"),
        ("bosh 4,4,4,4,4,4,4,4,4,-4 S 0/0 1", Field::Holes, "hole 10"),
        ("bosh 4,4,4,4,4,4,4,4,4, S 4/0 1", Field::Holes, "hole 10"),
        ("bosh 4,4,4,4,4,4,4,4,4,4", Field::Side, "missing"),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 W 0/0 1",
            Field::Side,
            "expected S or N",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 s 0/0 1",
            Field::Side,
            "expected S or N",
        ),
        ("bosh 4,4,4,4,4,4,4,4,4,4 S", Field::Stores, "missing"),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0-0 1",
            Field::Stores,
            "<south>/<north>",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0/ 1",
            Field::Stores,
            "<south>/<north>",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0/0 1",
            Field::Stores,
            "<south>/<north>",
        ),
        ("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0", Field::Round, "missing"),
        ("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 0", Field::Round, "from 1"),
        ("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 01", Field::Round, "from 1"),
        ("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 -1", Field::Round, "from 1"),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 4294967296",
            Field::Round,
            "from 1",
        ),
        (
            "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1 1",
            Field::Trailing,
            "extra field",
        ),
        // A side wholly closed with stones enough to fill a hole.
        (
            "bosh x,x,x,x,x,4,4,4,4,4 S 4/16 3",
            Field::Holes,
            "could fill one",
        ),
        // The side to move cannot move, yet the match goes on.
        (
            "bosh 0,0,0,0,0,4,4,4,4,4 S 10/10 1",
            Field::Side,
            "every open hole of his is empty",
        ),
        (
            "bosh 4,x,x,x,x,2,x,x,x,x S 14/20 3",
            Field::Side,
            "every move of his is endless",
        ),
    ];
    for (s, field, words) in cases {
        let e = s.parse::<Bosh>().expect_err(s);
        assert_eq!(e.field, *field, "{s}: {e}");
        assert!(e.message.contains(words), "{s}: {e}");
    }
    let stuck = "bosh 0,0,0,0,0,4,4,4,4,4 S 10/10 1"
        .parse::<Bosh>()
        .unwrap_err();
    assert!(stuck.message.contains("never arises"), "{stuck}");
}

#[test]
fn a_finished_match_is_accepted_and_over() {
    let p = pos("bosh x,x,x,x,x,4,4,4,4,4 S 3/17 6");
    assert!(p.legal_move_list().is_empty());
    assert_eq!(
        p.status(),
        Some(Outcome {
            result: GameResult::NorthWins,
            scores: Some([3, 37]),
            reason: EndReason::MatchWon
        })
    );
    let record = GameRecord::new(p);
    assert!(record.is_over());
    assert!(record.legal_moves().is_empty());
}

#[test]
fn parsing_never_panics_on_mangled_text() {
    let mut rng = SmallRng::seed_from_u64(11);
    let alphabet: Vec<char> = "0123456789,/xXSN -+bosh\t\u{e9}".chars().collect();
    let base = "bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2";
    for _ in 0..20_000 {
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..chars.len());
            let c = alphabet[rng.random_range(0..alphabet.len())];
            match rng.random_range(0..3) {
                0 => chars[i] = c,
                1 => chars.insert(i, c),
                _ => {
                    chars.remove(i);
                }
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(p) = text.parse::<Bosh>() {
            assert_eq!(p.seed_count(), 40, "{text}");
            assert_eq!(pos(&p.to_string()), p, "{text}");
        }
        let _ = text.parse::<BoshMove>();
    }
}

// The cycle ruling, through the game record.

/// A two-stone shuttle: each player walks his stone one hole on; after these
/// 10 plies the position is the same again (no move relays or captures).
const SHUTTLE: [&str; 10] = ["1", "6", "2", "7", "3", "8", "4", "9", "5", "10"];

#[test]
fn third_occurrence_ends_the_round_each_taking_his_own_stones() {
    let start = "bosh 1,0,0,0,0,1,0,0,0,0 S 22/16 1";
    let mut record = GameRecord::new(pos(start));
    for lap in 0..2 {
        for (i, mv) in SHUTTLE.iter().enumerate() {
            assert_eq!(record.position().round(), 1);
            record
                .play_str(mv)
                .unwrap_or_else(|e| panic!("lap {lap} ply {i} {mv}: {e}"));
        }
        if lap == 0 {
            // Second occurrence: nothing happens yet.
            assert_eq!(record.position().to_string(), start);
            assert_eq!(record.repetition_history().count(), 11);
        }
    }
    // Third occurrence: South takes the stone in hole 1 (23), North the one
    // in hole 6 (17). Round 2: South fills 5 holes (3 left), North 6-9 (1
    // left, 10 closed); South, to move when the round ended, opens it.
    assert!(!record.is_over());
    assert_eq!(
        record.position().to_string(),
        "bosh 4,4,4,4,4,4,4,4,4,x S 3/1 2"
    );
    // Counts restart in the new round.
    assert_eq!(record.repetition_history().count(), 1);
    assert_eq!(record.moves().len(), 20);
}

#[test]
fn third_occurrence_can_end_the_match() {
    let mut record = GameRecord::new(pos("bosh 1,0,0,0,0,1,0,0,0,0 S 36/2 1"));
    for mv in SHUTTLE.iter().chain(SHUTTLE.iter()) {
        record.play_str(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    // North ends with 3 stones: he cannot fill a hole.
    assert_eq!(
        record.position().to_string(),
        "bosh 4,4,4,4,4,x,x,x,x,x S 17/3 2"
    );
    assert_eq!(
        record.outcome(),
        Some(Outcome {
            result: GameResult::SouthWins,
            scores: Some([37, 3]),
            reason: EndReason::MatchWon
        })
    );
}

// The match-level cycle ruling: round starts counted over the whole match.

/// Eight plies from the match start that end round 1 with each player owning
/// 20 stones and South stuck: round 2 opens exactly as the match did.
const BACK_TO_THE_START: [&str; 8] = ["3", "9", "2", "9", "2", "10", "1", "8"];

/// Plays `moves` and returns the record, panicking on an illegal move.
fn played(start: &str, moves: &[&str]) -> GameRecord<Bosh> {
    let mut record = GameRecord::new(pos(start));
    for (i, mv) in moves.iter().enumerate() {
        record
            .play_str(mv)
            .unwrap_or_else(|e| panic!("ply {} {mv} from {start}: {e}", i + 1));
    }
    record
}

#[test]
fn third_occurrence_of_the_match_start_as_a_round_start_draws_the_match() {
    let start = "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1";
    // Once round: the start has occurred twice (as the match start and as the
    // start of round 2); play goes on.
    let once = played(start, &BACK_TO_THE_START);
    assert_eq!(
        once.position().to_string(),
        "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 2"
    );
    assert!(!once.is_over());
    let history = once.round_start_history();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0], history[1]);
    // Twice round: the start of round 3 is its third occurrence.
    let twice: Vec<&str> = BACK_TO_THE_START.repeat(2);
    let mut record = played(start, &twice);
    assert_eq!(
        record.position().to_string(),
        "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 3"
    );
    assert_eq!(
        record.outcome(),
        Some(Outcome {
            result: GameResult::Draw,
            scores: Some([20, 20]),
            reason: EndReason::RoundStartRepeated
        })
    );
    assert_eq!(
        record.outcome().unwrap().reason.describe(),
        "round start repeated"
    );
    assert!(record.legal_moves().is_empty());
    assert_eq!(
        record.play_str("1"),
        Err(mancala_rules::MoveError::GameOver)
    );
}

#[test]
fn a_repeated_round_start_is_a_draw_whatever_the_split() {
    // From a round start of South 23 - North 17, ten plies end the round with
    // the same split and South to move again.
    let start = "bosh 4,4,4,4,4,4,4,4,4,x S 3/1 2";
    let cycle = ["1", "9", "5", "7", "2", "6", "2", "8", "1", "7"];
    let once = played(start, &cycle);
    assert_eq!(
        once.position().to_string(),
        "bosh 4,4,4,4,4,4,4,4,4,x S 3/1 3"
    );
    assert!(!once.is_over());
    let record = played(start, &cycle.repeat(2));
    assert_eq!(
        record.outcome(),
        Some(Outcome {
            result: GameResult::Draw,
            scores: Some([23, 17]),
            reason: EndReason::RoundStartRepeated
        })
    );
    assert_eq!(record.moves().len(), 20);
}

#[test]
fn positions_inside_a_round_are_not_round_starts() {
    // The same board, reserves and side as a round start, but reached inside
    // round 1 by the shuttle, twice: only round starts count for the match
    // rule, and the round-1 count (third occurrence) ends the round instead.
    let start = "bosh 1,0,0,0,0,1,0,0,0,0 S 22/16 1";
    let record = played(start, &SHUTTLE);
    assert_eq!(
        record.round_start_history().len(),
        1,
        "only the record's start"
    );
    let record = played(start, &SHUTTLE.repeat(2));
    assert!(!record.is_over());
    assert_eq!(record.round_start_history().len(), 2);
}

#[test]
fn a_round_start_that_is_a_match_win_stands() {
    // The cycle ruling ends round 1; the refill leaves North unable to fill a
    // hole: that round start is counted, and the match is won, not drawn.
    let record = played("bosh 1,0,0,0,0,1,0,0,0,0 S 36/2 1", &SHUTTLE.repeat(2));
    assert_eq!(record.round_start_history().len(), 2);
    assert_eq!(
        record.outcome().map(|o| o.reason),
        Some(EndReason::MatchWon)
    );
    assert_eq!(
        record.outcome().map(|o| o.result),
        Some(GameResult::SouthWins)
    );
}

#[test]
fn any_game_drives_bosh_by_strings() {
    let mut game = new_game(GameId::Bosh);
    assert_eq!(game.legal_moves(), ["1", "2", "3", "4", "5"]);
    assert_eq!(game.play("3").as_deref(), Ok("3"));
    assert_eq!(game.side_to_move(), Side::North);
    assert!(game.play("3").is_err());
    assert!(game.play("11").is_err());
    let game = game_from_position("bosh 7,4,2,5,4,3,2,3,7,3 S 0/0 1").unwrap();
    assert_eq!(game.legal_moves(), ["1", "2", "4", "5"]);
}

// Invariants over seeded random games.

/// A position string without its round number: what the round-start rule
/// compares, computed independently of the library's key.
fn without_round(p: &Bosh) -> String {
    let text = p.to_string();
    text.rsplit_once(' ').expect("a round field").0.to_owned()
}

#[test]
fn random_games_keep_the_invariants() {
    const GAMES: usize = 4000;
    const PLY_CAP: usize = 100_000;
    let mut rng = SmallRng::seed_from_u64(2024);
    let (mut rounds, mut cycles, mut longest) = (0u64, 0u64, 0usize);
    let (mut won, mut drawn_by_round_starts) = (0usize, 0usize);
    for game in 0..GAMES {
        let mut record = GameRecord::new(Bosh::start());
        let mut key = record.position().history_key();
        // The oracle for the round-start rule: each round start's count.
        let mut round_starts = std::collections::HashMap::new();
        round_starts.insert(without_round(record.position()), 1usize);
        let mut ply = 0;
        while !record.is_over() {
            assert!(
                ply < PLY_CAP,
                "game {game} did not end within {PLY_CAP} plies"
            );
            let moves = record.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let before = record.position().clone();
            record.play(mv).expect("a legal move");
            ply += 1;
            let p = record.position();
            assert_eq!(p.seed_count(), 40, "game {game} ply {ply}: {p}");
            assert_eq!(pos(&p.to_string()), *p, "game {game} ply {ply}");
            assert_eq!(p.legal_move_list().is_empty(), p.status().is_some(), "{p}");
            assert!(p.history_key() >= key, "history key went down at {p}");
            key = p.history_key();
            let mut count = 0;
            if p.round() > before.round() {
                rounds += 1;
                // A cycle ended the round when the move itself did not.
                if before.after(mv) != *p {
                    cycles += 1;
                }
                let seen = round_starts.entry(without_round(p)).or_insert(0);
                *seen += 1;
                count = *seen;
            }
            assert!(
                count <= 3,
                "game {game}: a round start occurred {count} times"
            );
            let expected = p.status().or_else(|| {
                (count == 3).then(|| Outcome {
                    result: GameResult::Draw,
                    scores: Some([p.stones_of(Side::South), p.stones_of(Side::North)]),
                    reason: EndReason::RoundStartRepeated,
                })
            });
            assert_eq!(record.outcome(), expected, "game {game} ply {ply}: {p}");
        }
        let p = record.position();
        let outcome = record.outcome().expect("finished");
        let scores = outcome.scores.expect("scores");
        assert_eq!(scores[0] + scores[1], 40);
        assert_eq!(scores, [p.stones_of(Side::South), p.stones_of(Side::North)]);
        match outcome.reason {
            EndReason::MatchWon => {
                won += 1;
                let loser = p.match_loser().expect("a loser");
                assert_eq!(outcome.result, GameResult::win_for(loser.opponent()));
                assert!(scores[loser.index()] < 4, "{p}");
            }
            EndReason::RoundStartRepeated => {
                drawn_by_round_starts += 1;
                assert_eq!(outcome.result, GameResult::Draw);
                assert_eq!(p.status(), None, "{p}");
                let key = p.in_round().expect("rounds").start_key;
                let history = record.round_start_history();
                assert_eq!(history.iter().filter(|&&k| k == key).count(), 3);
            }
            other => panic!("game {game} ended by {other:?}"),
        }
        longest = longest.max(ply);
    }
    // The sample exercises round ends, the cycle rule and both match ends.
    assert!(rounds > GAMES as u64, "only {rounds} new rounds");
    assert!(cycles > 0, "no round ended by the cycle rule");
    assert!(won > GAMES / 2, "only {won} matches won");
    assert!(
        drawn_by_round_starts > GAMES / 20,
        "only {drawn_by_round_starts} matches drawn by a repeated round start"
    );
    assert!(longest < PLY_CAP);
}
