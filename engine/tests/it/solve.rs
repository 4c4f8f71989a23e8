//! `engine solve`: exact values of Kalah positions, against a plain minimax
//! over the rules library, Kalah(6,3), and the errors for bad input.

use std::collections::HashMap;

use assert_cmd::Command;
use engine::solve::{solve, Request, SolveError};
use mancala_rules::games::kalah::Kalah;
use mancala_rules::{Game, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::kalah_minimax::{child_margin, minimax};

fn request(position: &str) -> Request {
    Request {
        position: position.to_owned(),
        game: None,
        hash_mb: 16,
        threads: 2,
        tb: None,
        etc: true,
    }
}

/// A random position with `n` seeds on the board, random stores and side.
fn random_position(rng: &mut SmallRng, n: usize) -> Kalah {
    let mut holes = [0u8; 12];
    for _ in 0..n {
        holes[rng.random_range(0..12)] += 1;
    }
    let south = rng.random_range(0..=48 - n) as u8;
    let side = if rng.random_bool(0.5) {
        Side::South
    } else {
        Side::North
    };
    Kalah::new(holes, [south, 48 - n as u8 - south], side).expect("48 seeds")
}

#[test]
fn every_move_value_equals_plain_minimax_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut memo = HashMap::new();
    for i in 0..100 {
        let pos = random_position(&mut rng, 4 + i % 7);
        let s = solve(&request(&pos.to_string()), &mut |_, _| {}).expect("solve");
        assert_eq!(s.value, minimax(&pos, &mut memo), "{pos}");
        let legal = pos.legal_move_list();
        assert_eq!(s.moves.len(), legal.len(), "{pos}");
        for (mv, (hole, v)) in legal.iter().zip(&s.moves) {
            assert_eq!(mv.hole(), *hole);
            assert_eq!(*v, child_margin(&pos, *mv, &mut memo), "{pos} {mv}");
        }
    }
}

#[test]
fn kalah_6_3_is_a_first_player_win_by_2() {
    // Kalah with 3 seeds a hole: the 12 missing seeds wait in the stores,
    // 6 each, which does not change the margin.
    let s = solve(
        &request("kalah 3,3,3,3,3,3,3,3,3,3,3,3 S 6/6"),
        &mut |_, _| {},
    )
    .expect("solve");
    assert_eq!(s.value, 2);
    let best: Vec<u8> = s.moves.iter().filter(|m| m.1 == 2).map(|m| m.0).collect();
    assert_eq!(s.moves.len(), 6);
    assert!(!best.is_empty());
    assert!(s.nodes > 0);
}

#[test]
fn a_finished_position_has_its_margin_and_no_moves() {
    let s = solve(
        &request("kalah 4,4,4,4,4,4,0,0,0,0,0,0 N 0/24"),
        &mut |_, _| {},
    )
    .expect("solve");
    assert_eq!((s.value, s.moves.len()), (0, 0));
}

#[test]
fn bad_positions_and_games_are_refused_by_name() {
    let e = solve(
        &request("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"),
        &mut |_, _| {},
    )
    .expect_err("another game");
    assert!(
        matches!(e, SolveError::Position(_)) && e.to_string().contains("kalah"),
        "{e}"
    );
    let e = solve(&request("kalah 4,4,4 S 0/0"), &mut |_, _| {}).expect_err("malformed");
    assert!(e.to_string().contains("holes"), "{e}");
    let mut r = request("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0");
    r.game = Some(mancala_rules::GameId::Kalah6x6);
    let e = solve(&r, &mut |_, _| {}).expect_err("--game differs");
    assert!(e.to_string().contains("--game kalah-6x6"), "{e}");
}

#[test]
fn the_command_prints_json_last_and_refuses_bad_input_with_a_status() {
    let out = Command::cargo_bin("engine")
        .unwrap()
        .args([
            "solve",
            "--hash",
            "8",
            "kalah 0,0,0,0,1,2,1,1,0,0,0,0 S 20/23",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("{\"position\": \"kalah 0,0,0,0,1,2,1,1,0,0,0,0 S 20/23\", \"value\": "),
        "{text}"
    );
    assert!(
        last.contains("\"moves\": {\"5\": ") && last.contains("\"nodes\": "),
        "{last}"
    );
    Command::cargo_bin("engine")
        .unwrap()
        .args(["solve", "oware 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("kalah and kalah-6x6 only"));
    Command::cargo_bin("engine")
        .unwrap()
        .args([
            "solve",
            "--hash",
            "100000000",
            "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("smaller --hash"));
    let missing = std::env::temp_dir().join(format!("no-such-tb-{}", std::process::id()));
    Command::cargo_bin("engine")
        .unwrap()
        .args(["solve", "--tb"])
        .arg(&missing)
        .arg("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0")
        .assert()
        .code(1)
        .stderr(predicates::str::contains("no-such-tb"));
}

/// Kalah(6,4) from the start: +8, best move 3, and every move's value.
/// Minutes even in release mode on two cores (BENCHMARKS.md, section 17),
/// so ignored here; `bench/kalah_solve.sh` checks the same values in
/// release mode: `cargo test --release -p engine --test it solve:: -- --ignored`.
#[test]
#[ignore = "minutes: checked in release mode by bench/kalah_solve.sh"]
fn kalah_6_4_is_a_first_player_win_by_8() {
    let mut r = request("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0");
    r.hash_mb = 4096;
    let s = solve(&r, &mut |_, _| {}).expect("solve");
    assert_eq!(s.value, 8);
    assert_eq!(
        s.moves,
        vec![(1, -14), (2, -10), (3, 8), (4, -2), (5, -8), (6, 4)]
    );
}

#[test]
fn a_solve_interrupted_by_a_signal_ends_at_once_without_a_value() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // The start of Kalah(6,4) without databases: minutes of work.
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["solve", "--hash", "16", "--threads", "1"])
        .arg("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine solve starts");
    std::thread::sleep(Duration::from_millis(500));
    for signal in ["-INT", "-TERM"] {
        let _ = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(30) {
            if child.try_wait().expect("wait").is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if child.try_wait().expect("wait").is_some() {
            break;
        }
    }
    let status = child.wait().expect("ended");
    assert!(!status.success(), "{status:?}");
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read");
    // No value and no JSON line: an interrupted solve says nothing wrong.
    assert!(!out.contains("value") && !out.contains('{'), "{out}");
}

#[test]
fn an_interrupted_solve_gives_no_value() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let interrupt = AtomicBool::new(false);
    let solved = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            interrupt.store(true, Ordering::Relaxed);
        });
        engine::solve::solve_until(
            &request("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"),
            &interrupt,
            &mut |_, _| {},
        )
    });
    assert_eq!(solved, Err(SolveError::Interrupted));
    // A position solved before any interrupt is unaffected.
    let quiet = AtomicBool::new(false);
    let s = engine::solve::solve_until(
        &request("kalah 0,0,0,0,1,2,1,1,0,0,0,0 S 20/23"),
        &quiet,
        &mut |_, _| {},
    )
    .expect("solved");
    assert_eq!(s.value, -4);
}
