//! The habits people bring, end to end against real processes: a cutechess
//! command line, adjudication, `restart=on`, JSON standings, `merge --json`
//! and extending a finished tournament's rounds.

use std::path::Path;

use crate::common;
use common::{engine, run_arbiter as run, testbot, Scratch};

/// Runs the arbiter in `dir`, which must refuse with a usage error (status
/// 2); returns what it printed on stderr.
fn usage_error(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run arbiter");
    assert_eq!(out.status.code(), Some(2), "arbiter {args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("results log")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn a_cutechess_command_line_runs_a_tournament() {
    let s = Scratch::new("habits", "cutechess");
    let e = engine();
    let args = strings(&[
        "-engine",
        &format!("cmd={e}"),
        "name=A",
        "proto=umi",
        "depth=1",
        "-engine",
        &format!("cmd={e}"),
        "name=B",
        "depth=2",
        "-each",
        "option.Hash=1",
        "-games",
        "2",
        "-rounds",
        "2",
        "-repeat",
        "-concurrency",
        "2",
        "-pgnout",
        "games.pgn",
        "min",
        "-recover",
        "-srand",
        "3",
        "-openings",
        "plies=2",
    ]);
    let out = run(&s.0, &args);
    let text = String::from_utf8_lossy(&out.stdout);
    // 2 games × 2 rounds = 4 games per pairing.
    assert!(text.contains("4 games"), "{text}");
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(notes.contains("note: -pgnout min"), "{notes}");
    let pgn = std::fs::read_to_string(s.path("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert!(pgn.contains("{Holes: South 1-6, North 7-12.}"), "{pgn}");
    s.assert_no_leftovers();
}

#[test]
fn decided_adjudication_ends_bohnenspiel_games_and_verifies() {
    let s = Scratch::new("habits", "decided");
    let e = engine();
    let args = strings(&[
        "match",
        "--engine",
        &format!("cmd={e}"),
        "name=A",
        "depth=3",
        "--engine",
        &format!("cmd={e}"),
        "name=B",
        "depth=1",
        "--games",
        "4",
        "--openings",
        "suite",
        "--adjudicate",
        "decided",
        "--jsonout",
        "games.jsonl",
        "--standings-json",
        "standings.json",
    ]);
    run(&s.0, &args);
    let games = lines(&s.path("games.jsonl"));
    assert_eq!(games.len(), 4);
    let decided: Vec<_> = games
        .iter()
        .filter(|g| g["termination"]["kind"] == "decided_adjudication")
        .collect();
    assert!(!decided.is_empty(), "{games:#?}");
    for g in &decided {
        let result = g["result"].as_str().unwrap();
        assert_ne!(result, "1/2-1/2", "a store above 36 decides a win");
    }
    // verify replays each and checks the rules prove the logged result.
    let out = run(&s.0, &strings(&["verify", "games.jsonl"]));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("OK"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("standings.json")).unwrap()).unwrap();
    assert_eq!(json["games"], 4);
    assert_eq!(json["match"]["first"], "A");
    // The match counts its own game pairs: 4 games, 2 pairs.
    let pairs: u64 = json["match"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(pairs, 2);
    let a = &json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "A")
        .unwrap()["verdicts"];
    let counted: u64 = ["won", "drawn", "lost"]
        .iter()
        .flat_map(|k| a[k].as_object().unwrap().values())
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(counted, 4);
    s.assert_no_leftovers();
}

#[test]
fn resign_adjudication_from_the_engines_scores() {
    let s = Scratch::new("habits", "resign");
    let e = engine();
    // Depth 6 against depth 1: the weak side's own score soon drops below
    // -1 seed and stays there.
    let args = strings(&[
        "match",
        "--engine",
        &format!("cmd={e}"),
        "name=Strong",
        "depth=6",
        "--engine",
        &format!("cmd={e}"),
        "name=Weak",
        "depth=1",
        "--games",
        "2",
        "--openings",
        "suite",
        "--resign",
        "movecount=2",
        "score=100",
        "--jsonout",
        "games.jsonl",
    ]);
    run(&s.0, &args);
    let games = lines(&s.path("games.jsonl"));
    let resigned: Vec<_> = games
        .iter()
        .filter(|g| g["termination"]["kind"] == "resign_adjudication")
        .collect();
    assert!(!resigned.is_empty(), "{games:#?}");
    for g in resigned {
        let detail = g["termination"]["detail"].as_str().unwrap();
        assert!(
            detail.contains("scored -100 or worse on 2 moves"),
            "{detail}"
        );
        // The side named lost, and its own last two scores say so.
        let side = if detail.starts_with("South") {
            "S"
        } else {
            "N"
        };
        let start_side = g["start_position"]
            .as_str()
            .unwrap()
            .split(' ')
            .nth(2)
            .unwrap();
        let own: Vec<_> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 0) == (start_side == side))
            .map(|(_, m)| m)
            .collect();
        for m in own.iter().rev().take(2) {
            let bad = m["score"]["cp"].as_i64().is_some_and(|cp| cp <= -100)
                || m["score"]["mate"].as_i64().is_some_and(|n| n < 0);
            assert!(bad, "{m} in {g:#}");
        }
        let result = g["result"].as_str().unwrap();
        assert_eq!(result, if side == "S" { "0-1" } else { "1-0" });
    }
    s.assert_no_leftovers();
}

#[test]
fn restart_on_starts_a_fresh_process_for_every_game() {
    let s = Scratch::new("habits", "restart");
    let bot = testbot();
    let state_on = s.path("starts-on");
    let state_off = s.path("starts-off");
    let spec = |name: &str, state: &Path, restart: &str| {
        vec![
            "--engine".to_owned(),
            format!("cmd={bot}"),
            format!("name={name}"),
            "arg=--mode".into(),
            "arg=random".into(),
            "arg=--max-starts".into(),
            "arg=100".into(),
            "arg=--state".into(),
            format!("arg={}", state.display()),
            format!("restart={restart}"),
            "depth=1".into(),
        ]
    };
    let mut args = strings(&["match", "--games", "4"]);
    args.extend(spec("On", &state_on, "on"));
    args.extend(spec("Off", &state_off, "off"));
    run(&s.0, &args);
    let starts = |p: &Path| -> u32 { std::fs::read_to_string(p).unwrap().trim().parse().unwrap() };
    // One start before the first game (the preflight), then one per game
    // with restart=on; one process for all games with restart=off.
    assert_eq!(starts(&state_on), 1 + 4);
    assert_eq!(starts(&state_off), 2);
    s.assert_no_leftovers();
}

#[test]
fn standings_json_merge_json_and_extending_rounds() {
    let s = Scratch::new("habits", "extend");
    let e = engine();
    let mut args = strings(&[
        "tournament",
        "--rounds",
        "1",
        "--openings",
        "suite",
        "--jsonout",
        "results.jsonl",
        "--standings-json",
        "standings.json",
    ]);
    for (name, depth) in [("A", "1"), ("B", "2"), ("C", "3")] {
        args.extend(strings(&[
            "--engine",
            &format!("cmd={e}"),
            &format!("name={name}"),
            &format!("depth={depth}"),
        ]));
    }
    run(&s.0, &args);
    let first = lines(&s.path("results.jsonl"));
    assert_eq!(first.len(), 6);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("standings.json")).unwrap()).unwrap();
    assert_eq!(json["games"], 6);
    assert_eq!(json["standings"].as_array().unwrap().len(), 3);

    // The same event with more rounds and --resume: the first round is kept.
    let mut more = args.clone();
    let r = more.iter().position(|a| a == "--rounds").unwrap();
    more[r + 1] = "3".into();
    more.push("--resume".into());
    let out = run(&s.0, &more);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Extending the tournament from 1 to 3 rounds"),
        "{text}"
    );
    assert!(
        text.contains("6 game(s) already in the results log, 12 to play"),
        "{text}"
    );
    let all = lines(&s.path("results.jsonl"));
    assert_eq!(all.len(), 18);
    for (old, new) in first.iter().zip(&all) {
        assert_eq!(old["moves"], new["moves"]);
        assert_eq!(old["start_position"], new["start_position"]);
        assert_eq!(
            new["tags"]["Slot"].as_str().unwrap().split('/').nth(1),
            Some("18")
        );
    }
    // Running it once more plays nothing.
    let out = run(&s.0, &more);
    assert!(String::from_utf8_lossy(&out.stdout).contains("18 game(s) already"));

    let out = run(&s.0, &strings(&["merge", "--json", "results.jsonl"]));
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).expect("merge --json");
    assert_eq!(merged["games"], 18);
    assert_eq!(merged["format"], 1);
    s.assert_no_leftovers();
}

#[test]
fn bare_commands_resolve_in_the_current_directory_and_engine_names_the_reference_engine() {
    let s = Scratch::new("habits", "bare-cmd");
    // A bot in the directory the user runs the arbiter from, named bare.
    std::fs::copy(engine(), s.path("my-bot")).expect("copy the engine");
    // `engine` is in neither the scratch directory nor PATH: it is the
    // reference engine beside the arbiter.
    assert!(!s.path("engine").exists());
    let out = run(
        &s.0,
        &strings(&[
            "match",
            "--engine",
            "cmd=my-bot",
            "--engine",
            "cmd=engine",
            "--each",
            "depth=1",
            "--games",
            "2",
            "--jsonout",
            "games.jsonl",
        ]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Score of my-bot vs engine"), "{text}");
    assert_eq!(lines(&s.path("games.jsonl")).len(), 2);
    // Still a clear error for a name found nowhere.
    let err = usage_error(
        &s.0,
        &[
            "match",
            "--engine",
            "cmd=no-such-bot",
            "--engine",
            "cmd=engine",
        ],
    );
    assert!(err.contains("no-such-bot"), "{err}");
    s.assert_no_leftovers();
}

#[test]
fn conf_names_come_from_engines_json_in_the_current_directory_as_in_cutechess() {
    let s = Scratch::new("habits", "engines-json");
    // As cutechess writes it (EngineConfiguration::toVariant).
    let entry = |name: &str, level: u32| {
        serde_json::json!({
            "command": engine(),
            "name": name,
            "options": [{"alias": "", "default": 10, "max": 20, "min": 1,
                         "name": "Level", "type": "spin", "value": level}],
            "protocol": "umi",
            "stderrFile": "",
            "timeoutScaleFactor": 1,
            "workingDirectory": ""
        })
    };
    let file = serde_json::json!([entry("Weak", 1), entry("Strong", 5)]);
    std::fs::write(s.path("engines.json"), file.to_string()).expect("engines.json");
    let out = run(
        &s.0,
        &strings(&[
            "-engine",
            "conf=Weak",
            "-engine",
            "conf=Strong",
            "-each",
            "depth=1",
            "-games",
            "2",
            "-rounds",
            "1",
            "-pgnout",
            "g.pgn",
        ]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Score of Weak vs Strong"), "{text}");
    let pgn = std::fs::read_to_string(s.path("g.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[Event ").count(), 2);
    // Without the file, the error says where conf= names come from.
    std::fs::remove_file(s.path("engines.json")).expect("remove");
    let err = usage_error(
        &s.0,
        &[
            "-engine",
            "conf=Weak",
            "-engine",
            "conf=Strong",
            "-each",
            "depth=1",
        ],
    );
    assert!(
        err.contains("engines.json in the current directory"),
        "{err}"
    );
    s.assert_no_leftovers();
}
