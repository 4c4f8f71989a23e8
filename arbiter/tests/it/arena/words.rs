//! The arena's words: what it says and answers where users met it saying
//! the wrong thing (issue 35). A pool's export, events and all, merges; the
//! refusals of `arena run` exit as docs/arbiter.md's table says and name
//! what is wrong (a missing file, an unknown bot, a folder that is not
//! there, settings written with commas); a running arena refuses a house
//! bot's token saying so, links only to pages it serves, says a connected
//! bot is seen now, and names the range of a replay's `game=`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{address_in, get_json, request, Scratch};
use arbiter_arena::{db, events, store};
use arbiter_core::records::log::GameLog;

fn arbiter() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A whole game between `south` and `north`, of `event`, in slot `slot` of
/// schedule `schedule` (a tournament's tags) when given.
fn game(south: &str, north: &str, event: &str, slot: Option<(&str, usize, usize)>) -> GameLog {
    let mut g = arbiter_core::testing::rules_log();
    g.south = south.into();
    g.north = north.into();
    g.event = event.into();
    if let Some((schedule, index, size)) = slot {
        g.tags.insert("Schedule".into(), schedule.into());
        g.tags.insert("Slot".into(), format!("{index}/{size}"));
        g.tags.insert("Seats".into(), "0-1".into());
    }
    g
}

/// Records `log` as a finished game of pool `pool` (of event `event`, slot).
fn record(conn: &mut rusqlite::Connection, pool: &str, log: &GameLog, event: Option<(i64, usize)>) {
    let id = store::begin(
        conn,
        &store::NewGame {
            pool,
            south: &log.south,
            north: &log.north,
            pair: 0,
            leg: 1,
            event,
        },
    )
    .unwrap();
    store::finish(conn, id, log).unwrap();
}

fn merge(files: &[&Path], json: bool) -> std::process::Output {
    let mut cmd = arbiter();
    cmd.arg("merge");
    if json {
        cmd.arg("--json");
    }
    cmd.args(files.iter().map(|f| s(f)))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

#[test]
fn a_pools_export_with_its_events_merges_whole() {
    let dir = Scratch::new("words", "export-merge");
    let db_path = dir.path("arena.sqlite");
    let mut conn = db::open(&db_path).unwrap();
    let ladder = "mancala arena bohn";
    // Ladder games, then two events' games (slot 0 in each: their own
    // schedules), then ladder games again, as a pool's history goes.
    let mut ids = Vec::new();
    for _ in 0..2 {
        ids.push(
            events::add(
                &conn,
                &events::NewEvent {
                    pool: "bohn".into(),
                    format: events::EventFormat::RoundRobin,
                    rounds: 1,
                    at: "2026-01-01T00:00:00Z".into(),
                },
            )
            .unwrap(),
        );
    }
    record(&mut conn, "bohn", &game("a", "b", ladder, None), None);
    for (k, id) in ids.iter().enumerate() {
        let name = format!("{ladder} event {id}");
        let schedule = format!("fp{k}");
        for slot in 0..2 {
            let (south, north) = if slot == 0 { ("a", "b") } else { ("b", "a") };
            let g = game(south, north, &name, Some((&schedule, slot, 2)));
            record(&mut conn, "bohn", &g, Some((*id, slot)));
        }
    }
    record(&mut conn, "bohn", &game("b", "c", ladder, None), None);
    drop(conn);
    let pool = dir.path("pool.jsonl");
    arbiter()
        .args(["arena", "export", "--db", &s(&db_path), "--pool", "bohn"])
        .args(["--jsonout", &s(&pool)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let out = merge(&[&pool], false);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Merged 6 game(s) of \"mancala arena bohn\" and the event(s) held within it"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_slice(&merge(&[&pool], true).stdout).unwrap();
    assert_eq!(json["games"], 6, "{json}");
    // An event's export beside it: its slots are counted once.
    let event = dir.path("event.jsonl");
    arbiter()
        .args([
            "arena",
            "export",
            "--db",
            &s(&db_path),
            "--event",
            &ids[0].to_string(),
        ])
        .args(["--jsonout", &s(&event)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_slice(&merge(&[&pool, &event], true).stdout).unwrap();
    assert_eq!(json["games"], 6, "{json}");
    // Another tournament's log beside the pool is refused, naming both files.
    let other = dir.path("other.jsonl");
    let foreign = game("x", "y", "Club cup", Some(("cup", 0, 2)));
    std::fs::write(
        &other,
        arbiter_core::records::jsonl::to_line(&foreign) + "\n",
    )
    .unwrap();
    let out = merge(&[&other, &pool], false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("{} holds event \"Club cup\"", s(&other)))
            && err.contains(&format!(
                "{} holds event \"mancala arena bohn event",
                s(&pool)
            )),
        "{err}"
    );
}

/// `arena run` with `args` that it refuses before serving: its exit code
/// and stderr.
fn refused(dir: &Scratch, args: &[&str]) -> (Option<i32>, String) {
    let out = arbiter()
        .current_dir(&dir.0)
        .args(["arena", "run", "--listen", "127.0.0.1:0"])
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn arena_run_refusals_exit_as_the_exit_status_table_says() {
    let dir = Scratch::new("words", "refusals");
    let db_path = s(&dir.path("arena.sqlite"));
    let pools = dir.path("pools.json");
    std::fs::write(
        &pools,
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    )
    .unwrap();
    let pools = s(&pools);
    arbiter()
        .args(["arena", "bot", "add", "h1", "--db", &db_path])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let engine = crate::common::engine();
    // 1: a run-time failure (a file that cannot be read, the database).
    let (code, err) = refused(&dir, &["--db", &db_path, "--pools", "missing.json"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("missing.json: cannot read"), "{err}");
    let house = format!("name=nobody cmd={engine}");
    let (code, err) = refused(
        &dir,
        &["--db", &db_path, "--pools", &pools, "--house", &house],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("house bot nobody: not a bot of this arena"),
        "{err}"
    );
    let nowhere = dir.path("no-such-folder").join("arena.sqlite");
    let (code, err) = refused(&dir, &["--db", &s(&nowhere), "--pools", &pools]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "there is no folder {}",
            s(&dir.path("no-such-folder"))
        )),
        "{err}"
    );
    assert!(!dir.path("no-such-folder").exists());
    // 2: the command line's mistake (a file that is no pools file, settings
    // written with commas).
    let bad = dir.path("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let (code, err) = refused(&dir, &["--db", &db_path, "--pools", &s(&bad)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad.json"), "{err}");
    let commas = format!("name=h1,cmd={engine}");
    let (code, err) = refused(
        &dir,
        &["--db", &db_path, "--pools", &pools, "--house", &commas],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("is one setting, not several: separate the settings with spaces, not commas"),
        "{err}"
    );
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

fn start(dir: &Scratch, args: &[String]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .args(["arena", "run", "--listen", "127.0.0.1:0"])
        .args(args)
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

/// The `href`s of a page's navigation bar.
fn nav_links(html: &str) -> Vec<String> {
    let nav = html
        .split("<nav aria-label=\"Mode\">")
        .nth(1)
        .and_then(|rest| rest.split("</nav>").next())
        .unwrap_or_else(|| panic!("no navigation: {html}"));
    nav.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_running_arena_answers_in_its_own_words() {
    let dir = Scratch::new("words", "running");
    let db_path = dir.path("arena.sqlite");
    let pools = dir.path("pools.json");
    std::fs::write(
        &pools,
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    )
    .unwrap();
    let mut tokens = Vec::new();
    for name in ["h1", "h2"] {
        let out = arbiter()
            .args(["arena", "bot", "add", name, "--db", &s(&db_path)])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        tokens.push(text.lines().last().unwrap().to_owned());
    }
    let engine = crate::common::engine();
    let mut args: Vec<String> = [
        "--db",
        &s(&db_path),
        "--pools",
        &s(&pools),
        "--max-games",
        "2",
    ]
    .map(String::from)
    .to_vec();
    for name in ["h1", "h2"] {
        args.push("--house".into());
        args.push(format!("name={name} cmd={engine} option.Level=1"));
    }
    let arena = start(&dir, &args);

    // A house bot's token on /umi: refused, saying why.
    let url = format!("ws://{}/umi", arena.addr);
    let refused =
        crate::common::upgrade_from("127.0.0.1", &url, Some(&tokens[0])).expect_err("refused");
    assert_eq!(refused.status, 403, "{refused:?}");
    assert!(
        refused
            .body
            .contains("h1 is a house bot of this arena: the server plays it itself"),
        "{refused:?}"
    );

    // The board's pages it serves link to its own pages, each of which answers.
    for page in ["/replay", "/live"] {
        let (status, html) = request(&arena.addr, page, &[]);
        assert_eq!(status, 200, "{page}");
        let links = nav_links(&html);
        assert_eq!(
            links,
            ["/arena", "/arena/events", "/live", "/replay"],
            "{page}"
        );
        for link in links {
            let (status, body) = request(&arena.addr, &link, &[]);
            assert_eq!(status, 200, "{page} links to {link}: {body}");
        }
    }

    // Both games played: the bots, connected now, were seen now (after
    // their games ended, not when they connected).
    let t0 = Instant::now();
    let games = loop {
        let games = get_json(&arena.addr, "/api/arena/games?pool=bohn");
        if games.as_array().unwrap().len() == 2 {
            break games;
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "{games}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let ended: String = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["ended"].as_str().unwrap()[..19].to_owned())
        .max()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let ladder = get_json(&arena.addr, "/api/arena/ladder?pool=bohn");
    for row in ladder.as_array().unwrap() {
        assert_eq!(row["connected"], true, "{row}");
        let seen = row["last_seen"].as_str().unwrap();
        assert!(
            seen[..19] > *ended.as_str(),
            "seen {seen}, a game ended {ended}: {row}"
        );
    }

    // A replay's game= counts from 0; one past the last names the range.
    let (status, body) = request(&arena.addr, "/api/logs/0?game=50000", &[]);
    assert_eq!(
        (status, body.as_str()),
        (
            404,
            "no game 50000 in pool bohn: the log has 2 games, game=0 to game=1"
        )
    );
    let (status, _) = request(&arena.addr, "/api/logs/0?game=1", &[]);
    assert_eq!(status, 200);
}

/// `arbiter connect` to `url` with `token` and `engine`, killed when dropped.
struct Bridge(Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn connect(url: &str, token: &str, engine: &[&str]) -> Bridge {
    Bridge(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["connect", url, "--token", token, "--engine"])
            .args(engine)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("connect starts"),
    )
}

#[test]
fn an_event_seats_one_version_of_a_bot_connected_with_two() {
    let dir = Scratch::new("words", "one-seat");
    let db_path = dir.path("arena.sqlite");
    let pools = dir.path("pools.json");
    std::fs::write(
        &pools,
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    )
    .unwrap();
    let mut tokens = Vec::new();
    for name in ["h1", "stu"] {
        let out = arbiter()
            .args(["arena", "bot", "add", name, "--db", &s(&db_path)])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        tokens.push(text.lines().last().unwrap().to_owned());
    }
    let engine = crate::common::engine();
    let testbot = crate::common::testbot();
    let args: Vec<String> = [
        "--db",
        &s(&db_path),
        "--pools",
        &s(&pools),
        "--admission",
        "off",
        "--house",
        &format!("name=h1 cmd={engine} option.Level=1"),
    ]
    .map(String::from)
    .to_vec();
    let arena = start(&dir, &args);
    let url = format!("ws://{}/umi", arena.addr);
    // The student's two builds, both connected: two versions of one bot.
    let _old = connect(&url, &tokens[1], &[&format!("cmd={engine}")]);
    let t0 = Instant::now();
    while get_json(&arena.addr, "/api/arena/bot?name=stu")["versions"]
        .as_array()
        .is_none_or(|v| v.is_empty())
    {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "version 1 never came"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let slow = format!("cmd={testbot}");
    let _new = connect(&url, &tokens[1], &[&slow, "arg=--mode", "arg=random"]);
    while get_json(&arena.addr, "/api/arena/bot?name=stu")["versions"]
        .as_array()
        .is_none_or(|v| v.len() < 2)
    {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "version 2 never came"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = arbiter()
        .args([
            "arena",
            "event",
            "add",
            "--db",
            &s(&db_path),
            "--pool",
            "bohn",
        ])
        .args(["--format", "roundrobin", "--rounds", "1", "--at", "now"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let id = String::from_utf8(out.stdout).unwrap();
    let id = id.lines().last().unwrap().trim().to_owned();
    let event = loop {
        let e = get_json(&arena.addr, &format!("/api/arena/event?id={id}"));
        if e["state"] != "scheduled" {
            break e;
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "{e}");
        std::thread::sleep(Duration::from_millis(200));
    };
    // One student, one seat: its newest version.
    let mut players: Vec<&str> = event["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    players.sort();
    assert_eq!(players, ["h1", "stu/2"], "{event}");
}
