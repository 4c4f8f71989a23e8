//! The sowing trace: replaying a move's steps onto the board before it gives
//! the position after it, for every game over thousands of random positions;
//! hand-worked traces; the JSON shape; the run-time forms.

use mancala_rules::games::bohnenspiel::{Bohnenspiel, Hemprich};
use mancala_rules::games::bosh::Bosh;
use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::games::oware::Oware;
use mancala_rules::trace::{Board, LapKind, RoundEndReason, Target, TraceMoveError};
use mancala_rules::{
    new_game, trace_move, Game, GameId, GameRecord, MoveError, Side, Step, Traced,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Replays `steps` onto `before` and returns the position string reached.
fn replay(before: &str, steps: &[Step]) -> String {
    let mut board = Board::from_position(before).unwrap_or_else(|e| panic!("{before}: {e}"));
    board
        .apply_all(steps)
        .unwrap_or_else(|e| panic!("{before}: {e}\n{steps:?}"));
    assert_eq!(board.hand(), 0, "{before}: seeds left in hand\n{steps:?}");
    board.to_string()
}

/// Checks every legal move of `pos`: the trace's shape and its replay.
/// Returns how many moves were checked.
fn check_all_moves<G: Traced>(pos: &G) -> usize {
    let before = pos.to_string();
    let moves = pos.legal_move_list();
    for &mv in &moves {
        let steps = pos.trace(mv);
        let after = pos.after(mv);
        assert_eq!(
            replay(&before, &steps),
            after.to_string(),
            "{before} move {mv}\n{steps:?}"
        );
        match steps.first() {
            Some(Step::Lap {
                number: 1,
                kind: LapKind::Start,
            })
            | Some(Step::Pass) => {}
            other => panic!("{before} move {mv}: first step {other:?}"),
        }
        assert_eq!(
            steps.last(),
            Some(&Step::Turn {
                side: after.side_to_move()
            })
        );
        // Lap numbers count 1, 2, 3... in order.
        let laps: Vec<u32> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Lap { number, .. } => Some(*number),
                _ => None,
            })
            .collect();
        assert!(laps.iter().copied().eq(1..=laps.len() as u32), "{laps:?}");
    }
    moves.len()
}

/// Random games from `start`, every legal move of every position checked.
/// Returns (positions, moves) checked.
fn check_random_games<G: Traced>(start: G, games: usize, seed: u64) -> (usize, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut positions, mut moves) = (0, 0);
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..400 {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            positions += 1;
            moves += check_all_moves(&pos);
            pos.play(legal[rng.random_range(0..legal.len())]);
        }
    }
    (positions, moves)
}

/// Positions parsed from random strings built by `make`, those the game
/// accepts, every legal move checked. Returns the positions checked.
fn check_random_strings<G: Traced>(
    count: usize,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> String,
) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    let mut tries = 0;
    while checked < count {
        tries += 1;
        assert!(tries < count * 100, "too few valid random positions");
        let Ok(pos) = make(&mut rng).parse::<G>() else {
            continue;
        };
        if !pos.legal_move_list().is_empty() {
            check_all_moves(&pos);
            checked += 1;
        }
    }
    checked
}

/// `total` seeds spread at random over `holes` cells.
fn spread(rng: &mut SmallRng, total: u32, holes: usize) -> Vec<u32> {
    let mut cells = vec![0; holes];
    for _ in 0..total {
        cells[rng.random_range(0..holes)] += 1;
    }
    cells
}

fn join(cells: &[u32]) -> String {
    cells
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn side(rng: &mut SmallRng) -> char {
    if rng.random_bool(0.5) {
        'S'
    } else {
        'N'
    }
}

#[test]
fn replay_matches_play_in_random_bohnenspiel_positions() {
    for (positions, moves) in [
        check_random_games(Bohnenspiel::start(), 60, 1),
        check_random_games(Hemprich::start(), 40, 2),
    ] {
        assert!(
            positions >= 2000 && moves > positions,
            "{positions} {moves}"
        );
    }
    // Beans anywhere, stores included: long sowings of 24+ beans, chains
    // round the whole board.
    for hemprich in [false, true] {
        let make = |rng: &mut SmallRng| {
            let cells = spread(rng, 72, 14);
            let id = if hemprich {
                "bohnenspiel-hemprich"
            } else {
                "bohnenspiel"
            };
            format!(
                "{id} {} {} {}/{}",
                join(&cells[..12]),
                side(rng),
                cells[12],
                cells[13]
            )
        };
        if hemprich {
            check_random_strings::<Hemprich>(2000, 3, make);
        } else {
            check_random_strings::<Bohnenspiel>(2000, 4, make);
        }
    }
}

#[test]
fn replay_matches_play_in_random_bosh_positions() {
    let (positions, _) = check_random_games(Bosh::start(), 15, 5);
    assert!(positions >= 2000, "{positions}");
    // Any holes closed, stones anywhere: relays past closed holes, round ends
    // with refills and closings, finished matches.
    check_random_strings::<Bosh>(3000, 6, |rng| {
        let open: Vec<bool> = (0..10).map(|_| rng.random_bool(0.7)).collect();
        let open_count = open.iter().filter(|&&o| o).count();
        let on_board = rng.random_range(0..=40);
        let stones = spread(rng, on_board, open_count.max(1));
        let reserves = spread(rng, 40 - if open_count == 0 { 0 } else { on_board }, 2);
        let mut k = 0;
        let holes: Vec<String> = open
            .iter()
            .map(|&o| {
                if o {
                    k += 1;
                    stones[k - 1].to_string()
                } else {
                    "x".to_owned()
                }
            })
            .collect();
        format!(
            "bosh {} {} {}/{} {}",
            holes.join(","),
            side(rng),
            reserves[0],
            reserves[1],
            rng.random_range(1..20)
        )
    });
}

#[test]
fn replay_matches_play_in_random_kimasai_positions() {
    let (positions, _) = check_random_games(Kimasai::start(), 20, 7);
    assert!(positions >= 2000, "{positions}");
    check_random_strings::<Kimasai>(3000, 8, |rng| {
        let mut holes = vec![0u32; 48];
        for side in 0..2 {
            let n = rng.random_range(0..=23);
            for _ in 0..n {
                holes[side * 24 + rng.random_range(0..24)] = 1;
            }
        }
        format!("kimasai {} {}", join(&holes), side(rng))
    });
}

#[test]
fn replay_matches_play_in_random_kujifunza_positions() {
    let (positions, _) = check_random_games(Kujifunza::start(), 150, 9);
    assert!(positions >= 2000, "{positions}");
    // Seeds anywhere: first laps of 16+ seeds, chains of captures with
    // choices, takata from the back row.
    check_random_strings::<Kujifunza>(3000, 10, |rng| {
        format!("kujifunza {} {}", join(&spread(rng, 64, 32)), side(rng))
    });
}

/// Random games through `GameRecord::play_traced`: the trace also covers what
/// the repetition rule does. Returns the round ends by cycle seen.
#[test]
fn replay_matches_play_in_random_kalah_and_oware_positions() {
    let (positions, _) = check_random_games(Kalah::start(), 100, 31);
    assert!(positions > 2_000);
    check_random_games(Kalah6::start(), 50, 32);
    let (positions, _) = check_random_games(Oware::start(), 100, 33);
    assert!(positions > 2_000);
    // Crowded holes: laps of 13 (Kalah) and 12 (Oware) seeds or more.
    let checked = check_random_strings::<Kalah>(300, 34, |rng| {
        let cells = spread(rng, 48, 14);
        let (holes, stores) = cells.split_at(12);
        format!(
            "kalah {} {} {}/{}",
            join(holes),
            side(rng),
            stores[0],
            stores[1]
        )
    });
    assert_eq!(checked, 300);
    check_random_strings::<Oware>(300, 35, |rng| {
        let mut cells = spread(rng, 30, 12);
        cells[rng.random_range(0..12)] += 18;
        format!("oware {} {} 0/0", join(&cells), side(rng))
    });
}

/// Random whole games through the game record, each move's trace replayed.
fn check_record_games<G: Traced>(games: usize, seed: u64) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cycles = 0;
    for _ in 0..games {
        let mut record = GameRecord::new(G::start());
        let mut any = new_game(G::ID);
        while !record.is_over() && record.moves().len() < 2000 {
            let legal = record.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            let before = record.position().to_string();
            let mut steps = Vec::new();
            record.play_traced(mv, &mut steps).unwrap();
            assert_eq!(replay(&before, &steps), record.position().to_string());
            cycles += steps
                .iter()
                .filter(|s| {
                    **s == Step::RoundEnd {
                        reason: RoundEndReason::Cycle,
                    }
                })
                .count();
            // The run-time form gives the same.
            let (text, any_steps) = any.play_traced(&mv.to_string()).unwrap();
            assert_eq!(text, mv.to_string());
            assert_eq!(any_steps, steps);
            assert_eq!(any.position_string(), record.position().to_string());
        }
    }
    cycles
}

#[test]
fn record_traces_include_the_repetition_rule() {
    check_record_games::<Bohnenspiel>(100, 11);
    check_record_games::<Hemprich>(100, 12);
    check_record_games::<Kimasai>(100, 13);
    check_record_games::<Kujifunza>(100, 14);
    check_record_games::<Kalah>(100, 16);
    check_record_games::<Kalah6>(50, 17);
    check_record_games::<Oware>(200, 18);
    // Bosh rounds end by cycle often enough in random games for this to
    // test the cycle transition.
    let cycles = check_record_games::<Bosh>(100, 15);
    assert!(cycles > 0, "no round ended by a cycle");
}

#[test]
fn record_refuses_an_illegal_move_and_traces_nothing() {
    let mut record = GameRecord::new(Bosh::start());
    let mut steps = Vec::new();
    let err = record.play_str_traced("7", &mut steps).unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    assert!(steps.is_empty());
    assert!(record.moves().is_empty());
}

// Hand-worked traces. Each comment works the move from the rules.

#[test]
fn kalah_sows_into_the_own_store_and_captures_two_holes() {
    // Hole 6's 10 seeds: South's store, holes 7..12, North's store skipped,
    // holes 1, 2, 3; hole 3 captures with hole 10 (opposite first).
    let before = "kalah 0,0,0,0,1,10,4,4,4,4,4,4 S 13/0";
    let store = Target::Store { side: Side::South };
    assert_eq!(
        traced(before, "6"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(6, 10)],
            vec![Step::Store { side: Side::South }],
            sow(&[7, 8, 9, 10, 11, 12, 1, 2, 3]),
            vec![
                capture(10, 5, store),
                capture(3, 1, store),
                turn(Side::North)
            ],
        ])
    );
    // The last seed in the own store: the mover moves again.
    assert_eq!(
        traced("kalah 4,4,4,4,4,4,4,4,4,4,4,4 N 0/0", "9"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(9, 4)],
            sow(&[10, 11, 12]),
            vec![Step::Store { side: Side::North }, turn(Side::North)],
        ])
    );
}

#[test]
fn oware_skips_the_origin_and_a_grand_slam_captures_nothing() {
    let before = "oware 12,0,0,0,0,0,0,0,0,0,0,0 S 18/18";
    assert_eq!(
        traced(before, "1"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(1, 12)],
            sow(&[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2]),
            vec![turn(Side::North)],
        ])
    );
    let store = Target::Store { side: Side::South };
    assert_eq!(
        traced("oware 4,4,4,4,3,4,1,2,4,4,4,4 S 3/3", "5"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(5, 3)],
            sow(&[6, 7, 8]),
            vec![
                capture(8, 3, store),
                capture(7, 2, store),
                turn(Side::North)
            ],
        ])
    );
    assert_eq!(
        traced("oware 0,0,0,0,0,2,1,2,0,0,0,0 S 21/22", "6"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(6, 2)],
            sow(&[7, 8]),
            vec![turn(Side::North)],
        ])
    );
}

fn lap(number: u32, kind: LapKind) -> Step {
    Step::Lap { number, kind }
}

fn pick(hole: u8, count: u8) -> Step {
    Step::Pick { hole, count }
}

fn sow(holes: &[u8]) -> Vec<Step> {
    holes.iter().map(|&hole| Step::Sow { hole }).collect()
}

fn capture(from: u8, count: u8, to: Target) -> Step {
    Step::Capture { from, count, to }
}

fn turn(side: Side) -> Step {
    Step::Turn { side }
}

/// The trace of `mv` in `position` (checked legal), and the replay check.
fn traced(position: &str, mv: &str) -> Vec<Step> {
    let t = trace_move(position, mv).unwrap_or_else(|e| panic!("{position} {mv}: {e}"));
    assert_eq!(replay(&t.before, &t.steps), t.after);
    t.steps
}

fn concat(parts: Vec<Vec<Step>>) -> Vec<Step> {
    parts.into_iter().flatten().collect()
}

#[test]
fn bohnenspiel_capture_chain() {
    // 4: beans into 5, 6, 7, 8, which become 2, 4, 2, 4. The chain takes 8,
    // 7, 6, 5 (against the sowing) and stops at the emptied 4.
    let south = Target::Store { side: Side::South };
    assert_eq!(
        traced("bohnenspiel 6,5,5,4,1,3,1,3,5,5,5,5 S 12/12", "4"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(4, 4)],
            sow(&[5, 6, 7, 8]),
            vec![
                capture(8, 4, south),
                capture(7, 2, south),
                capture(6, 4, south),
                capture(5, 2, south),
                turn(Side::North),
            ],
        ])
    );
    // 13 beans: the 12th falls back into the origin 3, the 13th into 4,
    // which holds 2 and is taken; 3 holds 1 and stops the chain.
    let mut holes: Vec<u8> = (4..=12).collect();
    holes.extend([1, 2, 3, 4]);
    assert_eq!(
        traced("bohnenspiel 3,2,13,0,5,5,5,5,5,5,5,5 S 6/8", "3"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(3, 13)],
            sow(&holes),
            vec![capture(4, 2, south), turn(Side::North)],
        ])
    );
}

#[test]
fn hemprich_pass() {
    assert_eq!(
        traced(
            "bohnenspiel-hemprich 0,0,0,0,0,0,1,0,0,0,0,0 S 36/35",
            "pass"
        ),
        vec![Step::Pass, turn(Side::North)]
    );
}

#[test]
fn bosh_relay_laps() {
    // 1: 2 stones into 2, 3; A = 4 holds 1: relay it into 5; A = 6 holds 1:
    // relay into 7; A = 8 and B = 9 empty: the move ends.
    assert_eq!(
        traced("bosh 2,0,3,1,0,1,0,0,0,1 S 16/16 1", "1"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(1, 2)],
            sow(&[2, 3]),
            vec![lap(2, LapKind::Relay), pick(4, 1)],
            sow(&[5]),
            vec![lap(3, LapKind::Relay), pick(6, 1)],
            sow(&[7]),
            vec![turn(Side::North)],
        ])
    );
    // Closed 4, 5, 9, 10 do not exist: 3 sows 6, 7; A = 8 relays past 9, 10
    // into 1; A = 2 and B = 3 empty.
    assert_eq!(
        traced("bosh 0,0,2,x,x,0,0,1,x,x S 20/17 2", "3"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(3, 2)],
            sow(&[6, 7]),
            vec![lap(2, LapKind::Relay), pick(8, 1)],
            sow(&[1]),
            vec![turn(Side::North)],
        ])
    );
}

#[test]
fn bosh_move_that_ends_the_round_with_the_refill() {
    // 4 into 5; A = 6 empty, B = 7 holds 2: to South's reserve (22). North
    // must move with every hole empty: the round ends, the stone in 5 goes
    // to South (23). Round 2: South fills 1-5 (3 left), North 17 fills 6-9
    // (1 left) and 10 is closed. North, who was stuck, opens.
    let south = Target::Reserve { side: Side::South };
    let refill = |hole, reserve| Step::Refill {
        hole,
        count: 4,
        reserve,
    };
    assert_eq!(
        traced("bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1", "4"),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(4, 1)],
            sow(&[5]),
            vec![
                capture(7, 2, south),
                Step::RoundEnd {
                    reason: RoundEndReason::NoMove
                },
                capture(5, 1, south),
                Step::NewRound { round: 2 },
            ],
            (1..=5).map(|h| refill(h, Side::South)).collect(),
            (6..=9).map(|h| refill(h, Side::North)).collect(),
            vec![Step::Close { hole: 10 }, turn(Side::North)],
        ])
    );
}

#[test]
fn kujifunza_capture_sown_from_each_kichwa_choice() {
    // 11+ sows 12, 13; 13 held 1 and 28 holds 2: the 2 seeds go into the
    // hand and the mover chooses the kichwa.
    let start = concat(vec![
        vec![lap(1, LapKind::Start), pick(11, 2)],
        sow(&[12, 13]),
        vec![capture(28, 2, Target::Hand)],
    ]);
    let p = "kujifunza 0,0,0,0,0,0,0,0,0,0,2,0,1,0,0,0,8,8,8,7,7,7,7,6,0,1,0,2,0,0,0,0 S";
    // `+`: right kichwa 9, sowing 9, 10 (empty): ends.
    assert_eq!(
        traced(p, "11++"),
        concat(vec![
            start.clone(),
            vec![lap(
                2,
                LapKind::Captured {
                    kichwa: 9,
                    chosen: true
                }
            )],
            sow(&[9, 10]),
            vec![turn(Side::North)],
        ])
    );
    // `-`: left kichwa 16, sowing 16, 15 (empty): ends.
    assert_eq!(
        traced(p, "11+-"),
        concat(vec![
            start,
            vec![lap(
                2,
                LapKind::Captured {
                    kichwa: 16,
                    chosen: true
                }
            )],
            sow(&[16, 15]),
            vec![turn(Side::North)],
        ])
    );
}

#[test]
fn kujifunza_kimbi_capture_then_relay() {
    // 14+ sows 15, 16; 16 held 1 and 25 holds 2: the left kimbi sends them to
    // the left kichwa 16 (no choice), sowing 16, 15; 15 now holds 2, 26 is
    // empty: relay 15's 2 seeds into 14, 13 (empty): ends.
    assert_eq!(
        traced(
            "kujifunza 0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,1,8,7,7,7,7,7,7,8,2,0,0,0,0,1,0,0 S",
            "14+"
        ),
        concat(vec![
            vec![lap(1, LapKind::Start), pick(14, 2)],
            sow(&[15, 16]),
            vec![
                capture(25, 2, Target::Hand),
                lap(
                    2,
                    LapKind::Captured {
                        kichwa: 16,
                        chosen: false
                    }
                ),
            ],
            sow(&[16, 15]),
            vec![lap(3, LapKind::Relay), pick(15, 2)],
            sow(&[14, 13]),
            vec![turn(Side::North)],
        ])
    );
}

#[test]
fn kimasai_step_with_capture() {
    // The only opening move: 23 steps into 24, entering column 0 of South's
    // front row, facing North's front 37 (taken) and back 36 (taken with it).
    let start = Kimasai::start().to_string();
    let removed = Target::Removed;
    assert_eq!(
        traced(&start, "23"),
        vec![
            lap(1, LapKind::Start),
            pick(23, 1),
            Step::Sow { hole: 24 },
            capture(37, 1, removed),
            capture(36, 1, removed),
            turn(Side::North),
        ]
    );
    // A step inside the back row captures nothing.
    let p = "kimasai 0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,\
             0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0 S";
    assert_eq!(
        traced(p, "3"),
        vec![
            lap(1, LapKind::Start),
            pick(3, 1),
            Step::Sow { hole: 4 },
            turn(Side::North),
        ]
    );
}

#[test]
fn steps_have_the_documented_json_shape() {
    let cases = [
        (
            lap(1, LapKind::Start),
            r#"{"step":"lap","number":1,"kind":"start"}"#,
        ),
        (
            lap(2, LapKind::Relay),
            r#"{"step":"lap","number":2,"kind":"relay"}"#,
        ),
        (
            lap(
                3,
                LapKind::Captured {
                    kichwa: 16,
                    chosen: true,
                },
            ),
            r#"{"step":"lap","number":3,"kind":"captured","kichwa":16,"chosen":true}"#,
        ),
        (pick(3, 4), r#"{"step":"pick","hole":3,"count":4}"#),
        (Step::Sow { hole: 4 }, r#"{"step":"sow","hole":4}"#),
        (
            Step::Store { side: Side::South },
            r#"{"step":"store","side":"south"}"#,
        ),
        (
            capture(7, 3, Target::Store { side: Side::South }),
            r#"{"step":"capture","from":7,"count":3,"to":"store","side":"south"}"#,
        ),
        (
            capture(7, 3, Target::Reserve { side: Side::North }),
            r#"{"step":"capture","from":7,"count":3,"to":"reserve","side":"north"}"#,
        ),
        (
            capture(28, 2, Target::Hand),
            r#"{"step":"capture","from":28,"count":2,"to":"hand"}"#,
        ),
        (
            capture(37, 1, Target::Removed),
            r#"{"step":"capture","from":37,"count":1,"to":"removed"}"#,
        ),
        (Step::Pass, r#"{"step":"pass"}"#),
        (
            Step::RoundEnd {
                reason: RoundEndReason::NoMove,
            },
            r#"{"step":"round_end","reason":"no_move"}"#,
        ),
        (
            Step::RoundEnd {
                reason: RoundEndReason::Cycle,
            },
            r#"{"step":"round_end","reason":"cycle"}"#,
        ),
        (
            Step::NewRound { round: 2 },
            r#"{"step":"new_round","round":2}"#,
        ),
        (
            Step::Refill {
                hole: 6,
                count: 4,
                reserve: Side::North,
            },
            r#"{"step":"refill","hole":6,"count":4,"reserve":"north"}"#,
        ),
        (Step::Close { hole: 10 }, r#"{"step":"close","hole":10}"#),
        (turn(Side::North), r#"{"step":"turn","side":"north"}"#),
    ];
    for (step, json) in cases {
        assert_eq!(serde_json::to_string(&step).unwrap(), json);
        assert_eq!(serde_json::from_str::<Step>(json).unwrap(), step);
    }
    // The documented list in the module docs is this list.
    let docs = include_str!("../../src/trace.rs");
    for (_, json) in cases {
        assert!(
            docs.contains(&format!("//! {json}")),
            "{json} not documented"
        );
    }
}

#[test]
fn move_trace_json() {
    let t = trace_move("bosh 2,0,3,1,0,1,0,0,0,1 S 16/16 1", "1").unwrap();
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["game"], "bosh");
    assert_eq!(json["move"], "1");
    assert_eq!(json["before"], "bosh 2,0,3,1,0,1,0,0,0,1 S 16/16 1");
    assert_eq!(json["after"], "bosh 0,1,4,0,1,0,1,0,0,1 N 16/16 1");
    assert_eq!(
        json["steps"][1],
        serde_json::json!({"step":"pick","hole":1,"count":2})
    );
    let back: mancala_rules::MoveTrace = serde_json::from_value(json).unwrap();
    assert_eq!(back, t);
    let hemprich = trace_move("bohnenspiel-hemprich 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "1").unwrap();
    assert_eq!(
        serde_json::to_value(hemprich).unwrap()["game"],
        "bohnenspiel-hemprich"
    );
    for id in GameId::ALL {
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{id}\""));
    }
}

#[test]
fn trace_move_names_what_is_wrong() {
    let err = trace_move("bosh 4,4", "1").unwrap_err();
    assert!(matches!(err, TraceMoveError::Position(_)), "{err}");
    let err = trace_move("chess 1 S", "1").unwrap_err();
    assert!(err.to_string().contains("unknown game id"), "{err}");
    let err = trace_move(&Bosh::start().to_string(), "9").unwrap_err();
    assert_eq!(err.to_string(), "illegal move 9: legal moves are 1 2 3 4 5");
    let err = trace_move(&Bosh::start().to_string(), "banana").unwrap_err();
    assert!(
        matches!(err, TraceMoveError::Move(MoveError::Syntax(_))),
        "{err}"
    );
    let err = trace_move("bosh 4,4,4,4,4,x,x,x,x,x N 17/3 6", "6").unwrap_err();
    assert_eq!(err, TraceMoveError::Move(MoveError::GameOver));
}

#[test]
fn board_refuses_steps_that_do_not_fit() {
    let start = Bohnenspiel::start().to_string();
    let mut board = Board::from_position(&start).unwrap();
    assert_eq!(board.to_string(), start);
    let err = board
        .apply_all(&[pick(1, 6), Step::Sow { hole: 2 }, pick(3, 5)])
        .unwrap_err();
    assert_eq!(err.index, 2);
    assert!(err.to_string().contains("hole 3 holds 6, not 5"), "{err}");
    let mut board = Board::from_position(&start).unwrap();
    let err = board.apply(Step::Sow { hole: 1 }).unwrap_err();
    assert!(err.contains("hand is empty"), "{err}");
    let err = board.apply(pick(13, 0)).unwrap_err();
    assert!(err.contains("no hole 13"), "{err}");
    let mut kimasai = Board::from_position(&Kimasai::start().to_string()).unwrap();
    let err = kimasai
        .apply(capture(1, 1, Target::Store { side: Side::South }))
        .unwrap_err();
    assert!(err.contains("no stores"), "{err}");
    let mut bosh = Board::from_position("bosh 0,0,2,x,x,0,0,1,x,x S 20/17 2").unwrap();
    assert_eq!(bosh.hole(4), None);
    assert_eq!(bosh.round(), Some(2));
    assert_eq!(bosh.stores(), Some([20, 17]));
    let err = bosh.apply(Step::Sow { hole: 4 }).unwrap_err();
    assert!(err.contains("empty"), "{err}");
    assert!(Board::from_position("bosh 4,4").is_err());
}
