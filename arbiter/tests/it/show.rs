//! `arbiter show`: the rules library's human board, from the command line.

use std::process::Command;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

#[test]
fn show_draws_the_board_after_moves_with_legal_moves() {
    let out = Command::new(ARBITER)
        .args(["show", "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // South's row sits below North's, each with its hole numbers outside.
    let north = lines.iter().position(|l| l.contains("#10")).unwrap();
    let south = lines.iter().position(|l| l.contains("#1 ")).unwrap();
    assert!(north < south, "{text}");
    assert!(
        text.contains("position: bosh 5,5,0,0,5,5,5,0,5,5 N 5/0 1"),
        "{text}"
    );
    assert!(text.contains("legal moves: 6 7 9 10"), "{text}");
}

#[test]
fn show_names_a_bad_position_or_move() {
    let out = Command::new(ARBITER)
        .args(["show", "bosh 4,4 S 0/0 1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid holes"));
    let out = Command::new(ARBITER)
        .args(["show", "kimasai 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0 S", "22"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("move 1 (22)") && err.contains("legal moves are 23"),
        "{err}"
    );
}

#[test]
fn show_takes_a_game_id_for_its_start_and_prints_final_totals() {
    let out = Command::new(ARBITER)
        .args(["show", "bohnenspiel", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("position: bohnenspiel 0,7,7,7,7,7,7,6,6,6,6,6 N 0/0"),
        "{text}"
    );
    // South plays 6 and takes 2; North has no bean: South sweeps 8 more.
    let out = Command::new(ARBITER)
        .args(["show", "bohnenspiel 3,0,5,0,0,1,1,0,0,0,0,0 S 30/32", "6"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("game over: 1-0"), "{text}");
    assert!(text.contains("final totals: South 40, North 32"), "{text}");
}
