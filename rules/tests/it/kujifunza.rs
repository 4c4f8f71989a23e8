//! Kujifunza through the public API: perft from the start, invariants over
//! seeded random games, the move and position strings.

use mancala_rules::games::kujifunza::{Kujifunza, KujifunzaMove};
use mancala_rules::perft::{divide, perft};
use mancala_rules::{
    divide_str, new_game, normalize_position, perft_str, start_position, EndReason, Field, Game,
    GameId, GameRecord, Side,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const START: &str = "kujifunza 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 S";

#[test]
fn perft_from_start() {
    let start = Kujifunza::start();
    let got: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
    assert_eq!(got, [56, 830, 5354, 39990, 242220]);
}

#[test]
fn divide_sums_to_perft_and_names_distinct_moves() {
    let start = Kujifunza::start();
    let split = divide(&start, 3);
    assert_eq!(split.len(), 56);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 5354);
    let mut texts: Vec<String> = split.iter().map(|(m, _)| m.to_string()).collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), 56);
    assert_eq!(perft_str(START, 2), Ok(830));
    assert_eq!(divide_str(START, 1).map(|d| d.len()), Ok(56));
}

#[test]
fn start_through_the_any_game_layer() {
    assert_eq!(start_position(GameId::Kujifunza), START);
    assert_eq!(normalize_position(START).as_deref(), Ok(START));
    let mut game = new_game(GameId::Kujifunza);
    let first = game.legal_moves()[0].clone();
    assert_eq!(game.play(&first), Ok(first));
    assert_eq!(game.side_to_move(), Side::North);
    assert!(game.play("12").is_err());
    assert!(game.play("99+").is_err());
}

/// The position with the two circuits (and the side to move) swapped: North's
/// hole `n + 16` gets South's hole `n` and vice versa. The rules are the same
/// for both players in their own numbering, so moves map by `hole ± 16`.
fn mirror(p: &Kujifunza) -> Kujifunza {
    let h = p.holes();
    let mut m = [0u8; 32];
    m[..16].copy_from_slice(&h[16..]);
    m[16..].copy_from_slice(&h[..16]);
    Kujifunza::new(m, p.side_to_move().opponent()).expect("64 seeds")
}

fn mirror_move(mv: KujifunzaMove) -> String {
    let text = mv.to_string();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let hole: u8 = text[..digits].parse().expect("hole");
    let other = if hole > 16 { hole - 16 } else { hole + 16 };
    format!("{other}{}", &text[digits..])
}

/// Plays `games` seeded random games, checking the invariants at every ply;
/// returns the game lengths and end reasons.
fn random_games(seed: u64, games: usize, ply_cap: usize) -> Vec<(usize, EndReason)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut results = Vec::new();
    for _ in 0..games {
        let mut record = GameRecord::new(Kujifunza::start());
        while !record.is_over() {
            let pos = record.position().clone();
            assert_eq!(pos.seed_count(), 64, "{pos}");
            let text = pos.to_string();
            let parsed: Kujifunza = text.parse().expect("own string parses");
            assert_eq!(parsed, pos);
            assert_eq!(parsed.zobrist(), pos.zobrist());
            let moves = record.legal_moves();
            assert_eq!(moves.is_empty(), pos.status().is_some(), "{pos}");
            assert!(!moves.is_empty(), "record not over but no move: {pos}");
            for &mv in &moves {
                let back: KujifunzaMove = mv.to_string().parse().expect("move text parses");
                assert_eq!(back, mv);
            }
            let successors = pos.successors();
            assert_eq!(successors.len(), moves.len());
            let mirrored = mirror(&pos);
            let mirrored_moves: Vec<String> = mirrored
                .legal_move_list()
                .iter()
                .map(|m| m.to_string())
                .collect();
            let expected: Vec<String> = moves.iter().map(|&m| mirror_move(m)).collect();
            assert_eq!(mirrored_moves, expected, "{pos}");
            for (mv, next) in successors {
                assert_eq!(pos.after(mv), next, "{pos} {mv}");
                assert_eq!(next.seed_count(), 64);
            }
            assert!(record.moves().len() < ply_cap, "ply cap hit: {pos}");
            let mv = moves[rng.random_range(0..moves.len())];
            record.play(mv).expect("generated move is legal");
        }
        let pos = record.position();
        let outcome = record.outcome().expect("over");
        if outcome.reason == EndReason::Repetition {
            assert_eq!(outcome.result.winner(), None);
        } else {
            // The player to move lost: no legal move, and status says so.
            assert_eq!(pos.status(), Some(outcome));
            assert!(pos.legal_move_list().is_empty());
            assert_eq!(outcome.result.winner(), Some(pos.side_to_move().opponent()));
        }
        results.push((record.moves().len(), outcome.reason));
    }
    results
}

#[test]
fn random_games_keep_the_invariants_and_end() {
    // Random games are short (20,000 games: median 13 plies, longest 132), so
    // a cap of 5,000 plies is generous.
    let results = random_games(0x6b75_6a69, 5000, 5000);
    assert_eq!(results.len(), 5000);
    for (_, reason) in &results {
        assert!(matches!(
            reason,
            EndReason::EmptyFrontRow | EndReason::NoLegalMove | EndReason::Repetition
        ));
    }
    // Random play ends mostly by emptying a front row.
    assert!(results.iter().any(|(_, r)| *r == EndReason::EmptyFrontRow));
}

#[test]
fn position_string_round_trip_and_rejections() {
    let p: Kujifunza = START.parse().expect("start");
    assert_eq!(p, Kujifunza::start());
    let after = p.after(p.legal_move_list()[3]);
    assert_eq!(after.to_string().parse::<Kujifunza>(), Ok(after.clone()));
    let holes = &START[10..START.len() - 2];
    let cases = [
        ("".to_string(), Field::String),
        (format!("kujifunza {holes}"), Field::Side),
        (format!("kujifunza {holes} W"), Field::Side),
        (format!("kujifunza {holes} S extra"), Field::Trailing),
        (format!("kujifunza {holes},0 S"), Field::Holes),
        ("kujifunza 64 S".to_string(), Field::Holes),
        (format!("kujifunza 0{} S", &holes[1..]), Field::Holes),
        (format!("kujifunza z{} S", &holes[1..]), Field::Holes),
        (format!("bosh {holes} S"), Field::Game),
        (format!("kujifunza {holes} S "), Field::String),
        (format!("kujifunza\t{holes} S"), Field::String),
    ];
    for (text, field) in cases {
        let err = text.parse::<Kujifunza>().expect_err(&text);
        assert_eq!(err.field, field, "{text:?}: {err}");
    }
}
