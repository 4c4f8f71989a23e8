//! `arbiter arena`: the admin commands, the one-writer lock, and a running
//! arena of house bots on loopback (games recorded, exported, verified,
//! rated; a crash-looping bot paused; `kill -9` and a restart).

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{address_in, engine, get_json, request, testbot, Scratch};

/// The arbiter, with assert_cmd's time limit on each run.
fn arbiter() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// `arena bot add NAME`: the token, read from the last line.
fn add_bot(db: &Path, name: &str) -> String {
    let out = arbiter()
        .args(["arena", "bot", "add", name, "--db", &s(db)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().last().expect("a last line").to_owned()
}

#[test]
fn bots_are_added_listed_and_revoked() {
    let dir = Scratch::new("arena", "bots");
    let db = dir.path("arena.sqlite");
    let token = add_bot(&db, "alpha");
    assert_eq!(token.len(), 48, "{token:?}");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(add_bot(&db, "beta"), token);
    let dup = arbiter()
        .args(["arena", "bot", "add", "alpha", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(dup.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&dup.stderr).contains("exists already"));
    arbiter()
        .args(["arena", "bot", "revoke", "alpha", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let list = arbiter()
        .args(["arena", "bot", "list", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8(list.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("alpha\t") && lines[0].contains("revoked"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("beta\t") && !lines[1].contains("revoked"),
        "{text}"
    );
    // The database never holds the token itself.
    let bytes = std::fs::read(&db).unwrap();
    assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
    // A typo in --db is an error, not a new empty database.
    let missing = dir.path("typo.sqlite");
    let out = arbiter()
        .args(["arena", "bot", "revoke", "beta", "--db", &s(&missing)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no arena database"));
    assert!(!missing.exists());
}

/// A running `arena run`, killed when dropped.
struct Running {
    child: Child,
    _stdout: BufReader<std::process::ChildStdout>,
    addr: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &Scratch, db: &Path, pools: &Path, extra: &[String]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .args([
            "arena",
            "run",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &s(db),
            "--pools",
            &s(pools),
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arena run starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    Running {
        child,
        _stdout: stdout,
        addr: address_in(&line),
    }
}

/// Waits (at most `limit`) until `done` holds for the pools' JSON.
fn wait_for(
    addr: &str,
    limit: Duration,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let t0 = Instant::now();
    loop {
        let pools = get_json(addr, "/api/arena/pools");
        if done(&pools) {
            return pools;
        }
        assert!(t0.elapsed() < limit, "gave up waiting: {pools}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn finished(pools: &serde_json::Value) -> u64 {
    pools
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["finished"].as_u64().unwrap())
        .sum()
}

const POOLS: &str = r#"[
  {"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"},
  {"name": "bosh", "game": "bosh", "each": "depth=1", "openings": "suite"}
]"#;

fn house(name: &str, cmd: &str, rest: &str) -> [String; 2] {
    ["--house".into(), format!("name={name} cmd={cmd} {rest}")]
}

#[test]
fn a_second_server_on_one_database_refuses() {
    let dir = Scratch::new("arena", "lock");
    let (db, pools) = (dir.path("arena.sqlite"), dir.path("pools.json"));
    std::fs::write(&pools, POOLS).unwrap();
    let first = start(&dir, &db, &pools, &[]);
    let out = arbiter()
        .current_dir(&dir.0)
        .args([
            "arena",
            "run",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &s(&db),
            "--pools",
            &s(&pools),
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another arena server is running"), "{err}");
    // The first one serves on.
    assert_eq!(
        get_json(&first.addr, "/api/arena/pools")
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn an_arena_of_house_bots_plays_records_rates_and_survives_kill_9() {
    let dir = Scratch::new("arena", "run");
    let (db, pools) = (dir.path("arena.sqlite"), dir.path("pools.json"));
    std::fs::write(&pools, POOLS).unwrap();
    for name in ["ref-a", "ref-b", "ref-c", "crashy", "gone"] {
        add_bot(&db, name);
    }
    arbiter()
        .args(["arena", "bot", "revoke", "gone", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    // A revoked bot cannot even be a house bot.
    let out = arbiter()
        .current_dir(&dir.0)
        .args([
            "arena",
            "run",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &s(&db),
            "--pools",
            &s(&pools),
        ])
        .args(house("gone", &engine(), ""))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("house bot gone: not a bot of this arena")
    );

    let bots: Vec<String> = [
        house("ref-a", &engine(), "option.Level=1 slots=2"),
        house("ref-b", &engine(), "option.Level=2"),
        house("ref-c", &engine(), "option.Level=3"),
        // Crashes in the middle of every game after its first move.
        house(
            "crashy",
            &testbot(),
            "arg=--mode arg=crash-mid arg=--count arg=1",
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut args = bots.clone();
    args.extend(["--max-games".into(), "60".into()]);
    let arena = start(&dir, &db, &pools, &args);
    let pools_now = wait_for(&arena.addr, Duration::from_secs(240), |p| finished(p) >= 60);
    assert_eq!(finished(&pools_now), 60, "{pools_now}");

    // The crash-looping bot was paused: it played fewer games than the others.
    // The ratings follow the games within a recomputation (at most twice
    // a second): wait until the ladder counts every finished game.
    let bohn_games = pools_now[0]["finished"].as_u64().unwrap();
    let t0 = Instant::now();
    let ladder = loop {
        let ladder = get_json(&arena.addr, "/api/arena/ladder?pool=bohn");
        let counted: u64 = ladder
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_u64().unwrap())
            .sum();
        if counted == 2 * bohn_games {
            break ladder;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "{ladder}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let rows = ladder.as_array().unwrap();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {ladder}"))
    };
    for name in ["ref-a", "ref-b", "ref-c"] {
        assert_eq!(row(name)["connected"], true, "{ladder}");
        for key in ["rating", "interval", "games", "score"] {
            assert!(!row(name)[key].is_null(), "{name} {key}: {ladder}");
        }
    }
    assert_eq!(row("crashy")["connected"], true, "{ladder}");
    let bot = get_json(&arena.addr, "/api/arena/bot?name=crashy");
    let crashy_games = bot["games"].as_array().unwrap();
    assert!(crashy_games.len() >= 3, "{bot}");
    assert!(
        crashy_games.iter().all(|g| g["termination"] == "crash"),
        "every game of the crashing bot ends in its crash: {bot}"
    );
    // Paused after three crashes in a row: far fewer games than the others.
    let ref_games = get_json(&arena.addr, "/api/arena/bot?name=ref-b")["games"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        crashy_games.len() * 2 < ref_games,
        "{} vs {ref_games}",
        crashy_games.len()
    );

    // The export verifies, and rating it again gives the ladder's numbers.
    let (json, pgn) = (dir.path("bohn.jsonl"), dir.path("bohn.pgn"));
    arbiter()
        .args([
            "arena",
            "export",
            "--db",
            &s(&db),
            "--pool",
            "bohn",
            "--jsonout",
            &s(&json),
            "--pgnout",
            &s(&pgn),
        ])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    for f in [&json, &pgn] {
        arbiter()
            .args(["verify", &s(f)])
            .timeout(Duration::from_secs(60))
            .assert()
            .success();
    }
    let logs =
        arbiter::records::jsonl::parse_games(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let again = arbiter::arena::ratings::rate_logs(&logs);
    for r in &again {
        let shown = row(&r.name);
        assert!(
            (shown["rating"].as_f64().unwrap() - r.rating).abs() < 1e-6,
            "{}: {shown} vs {r:?}",
            r.name
        );
        assert_eq!(shown["games"].as_u64(), Some(u64::from(r.games)));
    }
    arbiter()
        .args(["merge", &s(&json)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    // A finished game replays through /replay's API.
    let (status, body) = request(&arena.addr, "/api/logs/0?game=0", &[]);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"plies\""), "{body}");
    for page in ["/arena", "/arena/bot?name=ref-a", "/replay", "/live"] {
        assert_eq!(request(&arena.addr, page, &[]).0, 200, "{page}");
    }
    drop(arena);

    // kill -9 in the middle of games: nothing finished is lost or doubled,
    // the games cut off are aborted, and the server goes on from the database.
    let slow: Vec<String> = [
        house("ref-a", &engine(), "option.Level=1"),
        house("ref-b", &engine(), "option.Level=2"),
    ]
    .into_iter()
    .flatten()
    .chain(["--max-games".to_owned(), "1000".to_owned()])
    .collect();
    let mut arena = start(&dir, &db, &pools, &slow);
    wait_for(&arena.addr, Duration::from_secs(120), |p| {
        finished(p) >= 66
            && p.as_array()
                .unwrap()
                .iter()
                .any(|x| x["playing"].as_u64() > Some(0))
    });
    let before = std::fs::read_to_string(&json).unwrap();
    arena.child.kill().unwrap(); // SIGKILL
    arena.child.wait().unwrap();
    let arena = start(&dir, &db, &pools, &[]);
    let after = get_json(&arena.addr, "/api/arena/pools");
    let all = after.as_array().unwrap();
    assert!(all.iter().all(|p| p["playing"] == 0), "{after}");
    assert!(
        all.iter()
            .map(|p| p["aborted"].as_u64().unwrap())
            .sum::<u64>()
            >= 1,
        "{after}"
    );
    arbiter()
        .args([
            "arena",
            "export",
            "--db",
            &s(&db),
            "--pool",
            "bohn",
            "--jsonout",
            &s(&json),
        ])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let now = std::fs::read_to_string(&json).unwrap();
    assert!(
        now.starts_with(&before),
        "the games before the kill are all still there, in order"
    );
    let logs = arbiter::records::jsonl::parse_games(&now).unwrap();
    let mut ids: Vec<&str> = logs.iter().map(|l| l.round.as_str()).collect();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "no game recorded twice");
    arbiter()
        .args(["verify", &s(&json)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
}
