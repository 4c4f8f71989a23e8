//! `--adjudicate tb=DIR`: games end as soon as their position is in the
//! Bohnenspiel endgame database, with its result, and verify against it.

use mancala_rules::GameId;
use mancala_tablebase::build::build;

use crate::common;
use common::{engine, run_arbiter as run, Scratch};

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Openings of few beans, so that every game reaches the database at once
/// or after a few moves (72 beans: the rest in the stores).
const OPENINGS: &str = "\
bohnenspiel 2,1,0,3,0,2,1,0,2,0,1,0 S 31/29
bohnenspiel 0,3,1,0,2,2,0,1,1,1,0,1 S 28/32
bohnenspiel 3,2,2,1,0,1,2,0,0,0,1,0 S 31/29
bohnenspiel 1,1,1,1,1,1,1,1,1,1,1,1 S 30/30
";

#[test]
fn tablebase_adjudication_ends_games_with_the_database_result_and_verifies() {
    let s = Scratch::new("tablebase", "adjudicate");
    let tb = s.path("tb");
    build(GameId::Bohnenspiel, 12, &tb, 2, &mut |_| {}).expect("builds");
    std::fs::write(s.path("openings.txt"), OPENINGS).expect("writes");
    let e = engine();
    let tb_arg = format!("tb={}", tb.display());
    let args = strings(&[
        "match",
        "--engine",
        &format!("cmd={e}"),
        "name=A",
        "depth=2",
        "--engine",
        &format!("cmd={e}"),
        "name=B",
        "depth=1",
        "--games",
        "4",
        "--openings",
        "file=openings.txt",
        "--adjudicate",
        &tb_arg,
        "--jsonout",
        "games.jsonl",
    ]);
    run(&s.0, &args);
    let text = std::fs::read_to_string(s.path("games.jsonl")).expect("log");
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(games.len(), 4);
    let tb_open = mancala_tablebase::Tablebase::open(&tb).expect("opens");
    for g in &games {
        assert_eq!(g["termination"]["kind"], "tablebase_adjudication", "{g:#}");
        let detail = g["termination"]["detail"].as_str().expect("detail");
        assert!(detail.contains("in the database after"), "{detail}");
        // Every opening has at most 12 beans: the first move ends the game.
        let start = g["start_position"].as_str().expect("start");
        assert!(
            tb_open.probe_str(start).expect("reads").is_some(),
            "{start}"
        );
        assert_eq!(g["moves"].as_array().map(Vec::len), Some(1), "{g:#}");
    }
    let tb_dir = tb.display().to_string();
    let out = run(&s.0, &strings(&["verify", "games.jsonl", "--tb", &tb_dir]));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("OK"),
        "{out:?}"
    );
    // Without the database such a game does not verify, and says why.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&s.0)
        .args(["verify", "games.jsonl"])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("arbiter verify --tb DIR"), "{said}");
    // A result the database does not give is caught.
    let mut game = games[0].clone();
    let other = if game["result"] == "1-0" {
        "0-1"
    } else {
        "1-0"
    };
    game["result"] = serde_json::Value::from(other);
    std::fs::write(s.path("changed.jsonl"), format!("{game}\n")).expect("writes");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&s.0)
        .args(["verify", "changed.jsonl", "--tb", &tb_dir])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("adjudicated by the endgame database as"),
        "{said}"
    );
    s.assert_no_leftovers();
}

#[test]
fn a_bad_tablebase_directory_is_a_usage_error_naming_it() {
    let s = Scratch::new("tablebase", "bad-dir");
    let e = engine();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&s.0)
        .args([
            "match",
            "--engine",
            &format!("cmd={e}"),
            "name=A",
            "--engine",
            &format!("cmd={e}"),
            "name=B",
            "--each",
            "depth=1",
            "--games",
            "2",
            "--adjudicate",
            "tb=/nonexistent/tb",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--adjudicate tb=/nonexistent/tb"), "{err}");
}
