//! The engine's exact play in Kalah over UMI: at a clock, solved positions
//! are played with their exact value (checked against a plain minimax over
//! the rules library), unsolved ones say so and the search plays; `Solve`
//! solves whatever the limits; weakened or depth-limited searches do not
//! solve.

use std::collections::HashMap;
use std::process::Command;
use std::time::Duration;

use crate::common::{best_of, Engine};
use crate::kalah_minimax::minimax;
use mancala_rules::games::kalah::Kalah;
use mancala_rules::{Game, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// An engine with no default database (the machine's own must not change
/// what the test sees).
fn engine() -> Engine {
    let mut c = Command::new(env!("CARGO_BIN_EXE_engine"));
    c.env("MANCALA_TABLEBASE", "/nonexistent/mancala-tablebase");
    let mut e = Engine::start_command(c);
    e.handshake();
    e
}

fn random_position(rng: &mut SmallRng, n: usize) -> Kalah {
    loop {
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
        let pos = Kalah::new(holes, [south, 48 - n as u8 - south], side).expect("48 seeds");
        if pos.status().is_none() {
            return pos;
        }
    }
}

/// The value in the `exact: solved, value V` line, if any.
fn solved_value(lines: &[String]) -> Option<i32> {
    lines.iter().find_map(|l| {
        let v = l.split("string exact: solved, value ").nth(1)?;
        v.trim_start_matches('+').parse().ok()
    })
}

fn go(e: &mut Engine, position: &str, go: &str) -> Vec<String> {
    e.send(&format!("position pos {position}"));
    e.send(go);
    e.until(Duration::from_secs(120), |l| l.starts_with("bestmove"))
}

#[test]
fn solved_positions_are_played_with_their_exact_value() {
    let mut e = engine();
    e.send("newgame kalah");
    let mut rng = SmallRng::seed_from_u64(36);
    let mut memo = HashMap::new();
    for i in 0..12 {
        let pos = random_position(&mut rng, 6 + i % 8);
        // why a long movetime: the machine is shared; these solve in a few ms.
        let lines = go(&mut e, &pos.to_string(), "go movetime 3000");
        let value = minimax(&pos, &mut memo);
        assert_eq!(solved_value(&lines), Some(value), "{pos}: {lines:?}");
        let info = lines
            .iter()
            .find(|l| l.contains("string exact"))
            .expect("the exact line");
        let expected_score = if value == 0 {
            " score cp 0 ".to_string()
        } else {
            format!(" score cp {} ", value.signum() * 500_000 + 100 * value)
        };
        assert!(info.contains(&expected_score), "{info}");
        // The move played keeps the value.
        let last = lines.last().expect("bestmove");
        let mv = pos
            .legal_move_list()
            .into_iter()
            .find(|m| m.to_string() == best_of(last))
            .expect("a legal move");
        let child = pos.after(mv);
        let after = minimax(&child, &mut memo);
        let kept = if child.side_to_move() == pos.side_to_move() {
            after
        } else {
            -after
        };
        assert_eq!(kept, value, "{pos}: {last}");
    }
    assert!(e.quit().success());
}

#[test]
fn an_unsolved_position_says_so_and_the_search_plays() {
    let mut e = engine();
    e.send("newgame kalah-6x6");
    e.send("position startpos");
    e.send("go movetime 300");
    let lines = e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("string exact: not solved in ") && l.contains("not proven")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    let legal = ["1", "2", "3", "4", "5", "6"];
    assert!(legal.contains(&best_of(lines.last().expect("bestmove"))));
    assert!(e.quit().success());
}

#[test]
fn solve_option_solves_at_any_limit_and_only_kalah() {
    let mut e = engine();
    let pos = "kalah 1,0,3,0,2,1,1,1,0,2,0,4 S 15/18";
    e.send("newgame kalah");
    // Without Solve, a depth limit asks for the search itself.
    let lines = go(&mut e, pos, "go depth 2");
    assert_eq!(solved_value(&lines), None, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
    // So does a weakened level.
    e.send("setoption name Level value 10");
    let lines = go(&mut e, pos, "go movetime 500");
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
    e.send("setoption name Level value 20");
    e.send("setoption name Solve value true");
    let lines = go(&mut e, pos, "go depth 1");
    let kalah: Kalah = pos.parse().expect("a kalah position");
    assert_eq!(
        solved_value(&lines),
        Some(minimax(&kalah, &mut HashMap::new())),
        "{lines:?}"
    );
    e.send("newgame bohnenspiel");
    e.send("position startpos");
    let lines = {
        e.send("go depth 2");
        e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"))
    };
    assert!(
        lines.iter().any(|l| l
            == "info string Solve: only kalah and kalah-6x6 positions are solved, not bohnenspiel; searching"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(e.quit().success());
}
