//! Bohnenspiel and Hemprich's variant through the public API: notation,
//! position strings, invariants over random games, perft.

use mancala_rules::games::bohnenspiel::{BeanMove, Bohnenspiel, Hemprich};
use mancala_rules::perft::{divide, perft};
use mancala_rules::{EndReason, Field, Game, GameRecord, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[test]
fn moves_round_trip() {
    for hole in 1..=12u8 {
        let mv = BeanMove::sow(hole).unwrap();
        assert_eq!(mv.to_string(), hole.to_string());
        assert_eq!(mv.to_string().parse::<BeanMove>(), Ok(mv));
        assert_eq!(mv.hole(), Some(hole));
    }
    assert_eq!("pass".parse::<BeanMove>(), Ok(BeanMove::PASS));
    assert_eq!(BeanMove::PASS.to_string(), "pass");
    assert!(BeanMove::PASS.is_pass());
    assert_eq!(BeanMove::sow(0), None);
    assert_eq!(BeanMove::sow(13), None);
}

#[test]
fn bad_moves_are_syntax_errors() {
    let cases = [
        ("", "empty"),
        ("0", "out of range"),
        ("13", "out of range"),
        ("99", "out of range"),
        ("256", "out of range"),
        ("99999999999", "out of range"),
        ("99999999999999999999999999999", "out of range"),
        ("-1", "expected a hole number"),
        ("+1", "expected a hole number"),
        ("1a", "expected a hole number"),
        (" 1", "expected a hole number"),
        ("1 ", "expected a hole number"),
        ("Pass", "expected a hole number"),
        ("1+", "expected a hole number"),
        ("01", "leading zeros"),
        ("00", "leading zeros"),
        ("١", "expected a hole number"),
    ];
    for (text, reason) in cases {
        let err = text.parse::<BeanMove>().unwrap_err();
        assert_eq!(err.text, text);
        assert!(err.reason.contains(reason), "{text:?}: {}", err.reason);
    }
}

#[test]
fn position_strings_round_trip() {
    for s in [
        "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
        "bohnenspiel 0,0,0,0,0,0,0,0,0,0,0,0 N 72/0",
        "bohnenspiel 72,0,0,0,0,0,0,0,0,0,0,0 S 0/0",
        "bohnenspiel 1,2,3,4,5,6,7,8,9,10,11,0 N 3/3",
    ] {
        let pos: Bohnenspiel = s.parse().unwrap();
        assert_eq!(pos.to_string(), s);
        let h = s.replacen("bohnenspiel", "bohnenspiel-hemprich", 1);
        let pos: Hemprich = h.parse().unwrap();
        assert_eq!(pos.to_string(), h);
    }
}

#[test]
fn bad_position_strings_name_the_field() {
    let cases: [(&str, Field, &str); 22] = [
        ("", Field::String, "empty"),
        ("bohnenspiel", Field::Holes, "missing"),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6",
            Field::Side,
            "missing",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S",
            Field::Stores,
            "missing",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0 1",
            Field::Trailing,
            "extra",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6 S 6/0",
            Field::Holes,
            "expected 12 holes, found 11",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6,0 S 0/0",
            Field::Holes,
            "expected 12 holes, found 13",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 1/0",
            Field::Holes,
            "hold 73, expected 72",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,5 S 0/0",
            Field::Holes,
            "hold 71, expected 72",
        ),
        (
            "bohnenspiel 255,255,0,0,0,0,0,0,0,0,0,0 S 0/0",
            Field::Holes,
            "hold 510",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,a S 0/0",
            Field::Holes,
            "hole 12",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,-6 S 0/0",
            Field::Holes,
            "hole 12",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,x S 6/0",
            Field::Holes,
            "closed",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,06 S 0/0",
            Field::Holes,
            "hole 12",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,999 S 0/0",
            Field::Holes,
            "hole 12",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 s 0/0",
            Field::Side,
            "expected S or N",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 X 0/0",
            Field::Side,
            "expected S or N",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0",
            Field::Stores,
            "<south>/<north>",
        ),
        (
            "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/x",
            Field::Stores,
            "<south>/<north>",
        ),
        (
            "bohnenspiel-hemprich 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
            Field::Game,
            "expected game id",
        ),
        (
            "bohnenspiel  6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
            Field::String,
            "single spaces",
        ),
        (
            "bohnespiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0",
            Field::Game,
            "unknown game id",
        ),
    ];
    for (s, field, words) in cases {
        let err = s.parse::<Bohnenspiel>().unwrap_err();
        assert_eq!(err.field, field, "{s:?}: {err}");
        assert!(err.message.contains(words), "{s:?}: {err}");
    }
    let err = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
        .parse::<Hemprich>()
        .unwrap_err();
    assert_eq!(err.field, Field::Game);
}

#[test]
fn new_checks_the_total() {
    assert!(Bohnenspiel::new([6; 12], [0, 0], Side::South).is_ok());
    let err = Bohnenspiel::new([6; 12], [0, 2], Side::North).unwrap_err();
    assert_eq!(err.field, Field::Holes);
}

/// Plays `games` seeded random games and checks the invariants at every ply.
fn random_games<G: Game<Move = BeanMove>>(games: u32, seed: u64) {
    const PLY_CAP: usize = 5_000;
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut record = GameRecord::new(G::start());
        let mut plies = 0;
        loop {
            let pos = record.position();
            assert_eq!(pos.seed_count(), 72, "{pos}");
            let parsed: G = pos.to_string().parse().expect("position string parses");
            assert_eq!(&parsed, pos);
            assert_eq!(parsed.zobrist(), pos.zobrist());
            let legal = pos.legal_move_list();
            assert_eq!(legal.is_empty(), pos.status().is_some(), "{pos}");
            if let Some(outcome) = record.outcome() {
                let scores = outcome.scores.expect("Bohnenspiel scores beans");
                assert_eq!(scores[0] + scores[1], 72);
                if outcome.reason != EndReason::Cycle {
                    assert_eq!(Some(outcome), pos.status());
                }
                break;
            }
            assert!(plies < PLY_CAP, "game longer than {PLY_CAP} plies");
            let mv = legal[rng.random_range(0..legal.len())];
            record.play(mv).expect("legal move plays");
            plies += 1;
        }
    }
}

#[test]
fn random_games_keep_the_invariants() {
    random_games::<Bohnenspiel>(3000, 1);
}

#[test]
fn random_hemprich_games_keep_the_invariants() {
    random_games::<Hemprich>(3000, 2);
}

#[test]
fn perft_bohnenspiel() {
    let expected = [6, 36, 206, 1166, 6599, 36654, 203586, 1106575];
    let start = Bohnenspiel::start();
    for (depth, &n) in (1..).zip(&expected) {
        assert_eq!(perft(&start, depth), n, "depth {depth}");
    }
    let split = divide(&start, 3);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 206);
    assert_eq!(split.len(), 6);
}

#[test]
fn perft_hemprich() {
    let expected = [6, 36, 206, 1166, 6599];
    let start = Hemprich::start();
    for (depth, &n) in (1..).zip(&expected) {
        assert_eq!(perft(&start, depth), n, "depth {depth}");
    }
}

#[test]
fn perft_bohnenspiel_depth_9() {
    // Cheap enough (well under a second at opt-level 2) to run every time.
    assert_eq!(perft(&Bohnenspiel::start(), 9), 6015626);
}

#[test]
fn perft_counts_pass_as_a_move() {
    // South has no bean: Hemprich passes (1 move), plain Bohnenspiel is over.
    let h: Hemprich = "bohnenspiel-hemprich 0,0,0,0,0,0,0,0,0,0,1,1 S 40/30"
        .parse()
        .unwrap();
    assert_eq!(perft(&h, 1), 1);
    assert_eq!(perft(&h, 2), 2);
    let b: Bohnenspiel = "bohnenspiel 0,0,0,0,0,0,0,0,0,0,1,1 S 40/30"
        .parse()
        .unwrap();
    assert_eq!(perft(&b, 1), 0);
}

/// The rules written the slow, obvious way: bean by bean, then the chain with
/// an explicit set of examined pits. Returns (pits, stores) after sowing from
/// index `origin` for `mover` (0 = South).
fn reference_play(
    pits: [u8; 12],
    stores: [u8; 2],
    mover: usize,
    origin: usize,
) -> ([u8; 12], [u8; 2]) {
    let (mut pits, mut stores) = (pits, stores);
    let mut hand = pits[origin];
    pits[origin] = 0;
    let mut at = origin;
    while hand > 0 {
        at = (at + 1) % 12;
        pits[at] += 1;
        hand -= 1;
    }
    let mut examined = [false; 12];
    while !examined[at] && [2, 4, 6].contains(&pits[at]) {
        examined[at] = true;
        stores[mover] += pits[at];
        pits[at] = 0;
        at = (at + 11) % 12;
    }
    (pits, stores)
}

/// A random position: 72 beans spread over pits and stores, with some big piles.
fn random_position(rng: &mut SmallRng) -> ([u8; 12], [u8; 2], Side) {
    let mut pits = [0u8; 12];
    let mut stores = [0u8; 2];
    let on_board = rng.random_range(1..=72u8);
    let piles = rng.random_range(1..=12usize);
    for _ in 0..on_board {
        // Concentrate beans in the first `piles` pits of a random rotation.
        let offset = rng.random_range(0..piles);
        pits[(offset * 5) % 12] += 1;
    }
    for _ in on_board..72 {
        stores[rng.random_range(0..2usize)] += 1;
    }
    let side = if rng.random() {
        Side::South
    } else {
        Side::North
    };
    (pits, stores, side)
}

#[test]
fn play_agrees_with_a_bean_by_bean_reference() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut big = 0;
    for _ in 0..20_000 {
        let (pits, stores, side) = random_position(&mut rng);
        let pos = Bohnenspiel::new(pits, stores, side).unwrap();
        for mv in pos.legal_move_list() {
            let origin = usize::from(mv.hole().unwrap() - 1);
            big += usize::from(pits[origin] >= 12);
            let (want_pits, want_stores) = reference_play(pits, stores, side.index(), origin);
            let next = pos.after(mv);
            assert_eq!(
                (next.pits(), next.stores(), next.side_to_move()),
                (&want_pits, want_stores, side.opponent()),
                "{pos} + {mv}"
            );
        }
    }
    assert!(big > 1000, "too few laps round the board tested: {big}");
}

#[test]
fn parsing_arbitrary_text_never_panics() {
    let alphabet = [
        "0",
        "1",
        "2",
        "6",
        "7",
        "9",
        ",",
        "/",
        " ",
        "S",
        "N",
        "x",
        "-",
        "pass",
        "bohnenspiel",
        "é",
    ];
    let mut rng = SmallRng::seed_from_u64(4);
    for _ in 0..20_000 {
        let len = rng.random_range(0..30);
        let text: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        let _ = text.parse::<BeanMove>();
        let _ = text.parse::<Bohnenspiel>();
        let _ = text.parse::<Hemprich>();
        let _ = mancala_rules::normalize_position(&text);
    }
}
