//! `arbiter match --partie`: Bohnenspiel match play end to end.

use crate::common;

use std::process::Command;

use common::{engine, Scratch};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");
use serde_json::Value;

#[test]
fn a_partie_is_games_in_a_row_until_one_engine_has_the_target() {
    let dir = Scratch::new("partie", "target");
    let jsonl = dir.path("games.jsonl");
    let out = Command::new(ARBITER)
        .current_dir(&dir.0)
        .args([
            "match",
            "--game",
            "bohnenspiel",
            "--games",
            "1",
            "--partie",
            "100",
        ])
        .args([
            "--engine",
            &format!("cmd={}", engine()),
            "name=Strong",
            "depth=3",
        ])
        .args([
            "--engine",
            &format!("cmd={}", engine()),
            "name=Weak",
            "depth=1",
            "option.Level=1",
        ])
        .arg("--jsonout")
        .arg(&jsonl)
        .output()
        .expect("arbiter runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        games.len() >= 2,
        "a Partie to 100 takes at least two games of 72 beans"
    );

    // Seats alternate, rounds are 1.1, 1.2, …, and the totals add up per engine.
    let mut totals = std::collections::HashMap::<String, u64>::new();
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["round"], format!("1.{}", i + 1));
        assert_eq!(g["partie"]["index"], i as u64 + 1);
        let south = g["south"].as_str().unwrap().to_string();
        assert_eq!(
            south,
            if i % 2 == 0 { "Strong" } else { "Weak" },
            "the opener alternates"
        );
        let before = &g["partie"]["totals"];
        assert_eq!(
            before[0].as_u64(),
            Some(totals.get(&south).copied().unwrap_or(0))
        );
        let scores = &g["scores"];
        *totals.entry(south).or_default() += scores[0].as_u64().unwrap();
        *totals
            .entry(g["north"].as_str().unwrap().to_string())
            .or_default() += scores[1].as_u64().unwrap();
    }
    let max = totals.values().max().copied().unwrap_or(0);
    assert!(
        max >= 100,
        "the Partie ends when an engine reaches 100: {totals:?}"
    );
    let before_last: u64 = {
        let last = &games[games.len() - 1]["partie"]["totals"];
        last[0].as_u64().unwrap().max(last[1].as_u64().unwrap())
    };
    assert!(
        before_last < 100,
        "no game is played after the target is reached"
    );

    let summary = String::from_utf8_lossy(&out.stdout);
    let winner = totals
        .iter()
        .max_by_key(|(_, &t)| t)
        .map(|(n, _)| n.clone())
        .unwrap();
    let expect = if winner == "Strong" {
        "Score of Strong vs Weak: 1 - 0 - 0"
    } else {
        "Score of Strong vs Weak: 0 - 1 - 0"
    };
    assert!(
        summary.contains(expect),
        "the match counts the Partie: {summary}"
    );

    let verify = Command::new(ARBITER)
        .arg("verify")
        .arg(&jsonl)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&verify.stdout).starts_with("OK"),
        "{verify:?}"
    );

    // Verify follows the Partie: a forged total or a game out of order fails.
    let lines: Vec<&str> = text.lines().collect();
    let mut second: Value = serde_json::from_str(lines[1]).unwrap();
    let forged_totals = {
        let t = &mut second["partie"]["totals"];
        t[0] = Value::from(t[0].as_u64().unwrap() + 1);
        let mut l = lines.clone();
        let forged = second.to_string();
        l[1] = &forged;
        l.join("\n") + "\n"
    };
    let swapped = {
        let mut l = lines.clone();
        l.swap(0, 1);
        l.join("\n") + "\n"
    };
    for (case, forged, says) in [
        ("totals", forged_totals, "but the games before make"),
        (
            "order",
            swapped,
            "game 1 of round 1 after later games of it",
        ),
    ] {
        let path = dir.path(&format!("forged-{case}.jsonl"));
        std::fs::write(&path, forged).unwrap();
        let verify = Command::new(ARBITER)
            .arg("verify")
            .arg(&path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&verify.stdout);
        assert_eq!(verify.status.code(), Some(1), "{case}: {said}");
        assert!(said.contains(says), "{case}: {said}");
    }
}

#[test]
fn partie_is_refused_for_other_games() {
    let dir = Scratch::new("partie", "refused");
    let out = Command::new(ARBITER)
        .current_dir(&dir.0)
        .args(["match", "--game", "bosh", "--partie", "100"])
        .args([
            "--engine",
            &format!("cmd={}", engine()),
            "name=A",
            "depth=1",
        ])
        .args([
            "--engine",
            &format!("cmd={}", engine()),
            "name=B",
            "depth=1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--partie is Bohnenspiel match play"));
}
