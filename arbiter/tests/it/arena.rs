//! `arbiter arena`: the admin commands, the one-writer lock, and a running
//! arena on loopback with bots connected through `arbiter connect` and a
//! house bot (games recorded, exported, verified, rated; a crash-looping
//! bot paused; a token revoked while connected; `kill -9` and a restart; a
//! bot back within `--remote-grace` keeping its game). The Python kit's bot
//! in an arena is python/tests/test_arena.py.

use crate::common;
mod words;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{
    address_in, engine, get_json, request, scripted_bot_counted, testbot, Scratch, Script,
};

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
    assert_eq!(dup.status.code(), Some(1));
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
    assert_eq!(out.status.code(), Some(1));
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
    start_on(dir, "127.0.0.1:0", db, pools, extra)
}

fn start_on(dir: &Scratch, listen: &str, db: &Path, pools: &Path, extra: &[String]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .args([
            "arena",
            "run",
            "--listen",
            listen,
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

/// A scratch directory for test `test` with its database's path and a
/// pools file holding `pools`.
fn arena_dir(test: &str, pools: &str) -> (Scratch, std::path::PathBuf, std::path::PathBuf) {
    let dir = Scratch::new("arena", test);
    let (db, file) = (dir.path("arena.sqlite"), dir.path("pools.json"));
    std::fs::write(&file, pools).unwrap();
    (dir, db, file)
}

/// Waits (at most `limit`) until `done` holds for the JSON at `path`.
fn wait_for_json(
    addr: &str,
    path: &str,
    limit: Duration,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let t0 = Instant::now();
    loop {
        let json = get_json(addr, path);
        if done(&json) {
            return json;
        }
        assert!(t0.elapsed() < limit, "gave up waiting: {json}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Waits (at most `limit`) until `done` holds for the pools' JSON.
fn wait_for(
    addr: &str,
    limit: Duration,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    wait_for_json(addr, "/api/arena/pools", limit, done)
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
    let (dir, db, pools) = arena_dir("lock", POOLS);
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
    assert_eq!(out.status.code(), Some(1));
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
fn an_unknown_bot_or_pool_in_the_games_list_is_a_404_naming_it() {
    let (dir, db, pools) = arena_dir("unknown", POOLS);
    add_bot(&db, "alpha");
    let arena = start(&dir, &db, &pools, &[]);
    for (path, named) in [
        ("/api/arena/games?bot=nosuchbot", "\"nosuchbot\""),
        ("/api/arena/games?bot=%F0%9F%98%80", "\"\u{1f600}\""),
        ("/api/arena/games?pool=bohn&bot=nosuchbot", "\"nosuchbot\""),
        ("/api/arena/games?pool=nope", "no pool named \"nope\""),
        (
            "/api/arena/bot?name=nosuchbot",
            "no bot named \"nosuchbot\"",
        ),
    ] {
        let (status, body) = request(&arena.addr, path, &[]);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains(named), "{path}: {body}");
    }
    // A known bot without games: an empty list.
    let games = get_json(&arena.addr, "/api/arena/games?bot=alpha");
    assert_eq!(games, serde_json::json!([]));
}

/// `arena bot anchor` / `unanchor`: an anchor is set (a bot without a game
/// is fine), replaced, listed and removed; an unknown or revoked bot (1) and
/// a rating that is no finite number from -5000 to 5000 (2) are refused,
/// each named, and change nothing.
#[test]
fn anchors_are_set_listed_removed_and_bad_ones_refused() {
    let dir = Scratch::new("arena", "anchors");
    let db = dir.path("arena.sqlite");
    add_bot(&db, "ref");
    add_bot(&db, "gone");
    let run = |args: &[&str]| {
        arbiter()
            .args(["arena", "bot"])
            .args(args)
            .args(["--db", &s(&db)])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap()
    };
    assert!(run(&["revoke", "gone"]).status.success());
    let listed = |name: &str| -> String {
        let out = run(&["list"]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .unwrap_or_else(|| panic!("{name}: {text}"))
            .to_owned()
    };
    let out = run(&["anchor", "ref", "1500"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("held at 1500"));
    assert!(
        listed("ref").ends_with("\tanchor 1500"),
        "{}",
        listed("ref")
    );
    // Set again: replaced (a negative rating is a value, not a flag).
    assert!(run(&["anchor", "ref", "-1200.5"]).status.success());
    assert!(
        listed("ref").ends_with("\tanchor -1200.5"),
        "{}",
        listed("ref")
    );
    for (args, code, says) in [
        (
            &["anchor", "nobody", "100"][..],
            1,
            "no bot named \"nobody\"",
        ),
        (&["anchor", "gone", "100"], 1, "bot \"gone\" is revoked"),
        (&["anchor", "ref", "abc"], 2, "from -5000 to 5000"),
        (&["anchor", "ref", "nan"], 2, "from -5000 to 5000"),
        (&["anchor", "ref", "inf"], 2, "from -5000 to 5000"),
        (&["anchor", "ref", "6000"], 2, "from -5000 to 5000"),
        (&["anchor", "ref"], 2, "RATING"),
        (&["unanchor", "gone"], 1, "bot \"gone\" is no anchor"),
        (&["unanchor", "nobody"], 1, "no bot named \"nobody\""),
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(
        listed("ref").ends_with("\tanchor -1200.5"),
        "nothing changed"
    );
    assert!(!listed("gone").contains("anchor"), "{}", listed("gone"));
    let out = run(&["unanchor", "ref"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!listed("ref").contains("anchor"), "{}", listed("ref"));
    // A typo in --db: an error, no new database.
    let missing = dir.path("typo.sqlite");
    let out = arbiter()
        .args([
            "arena",
            "bot",
            "anchor",
            "ref",
            "1500",
            "--db",
            &s(&missing),
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no arena database"));
    assert!(!missing.exists());
    // A house bot's anchor= is read before the server starts.
    let pools = dir.path("pools.json");
    std::fs::write(&pools, POOLS).unwrap();
    let out = arbiter()
        .current_dir(&dir.0)
        .args(["arena", "run", "--listen", "127.0.0.1:0", "--db", &s(&db)])
        .args(["--pools", &s(&pools)])
        .args(house("ref", &engine(), "anchor=1e9"))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("anchor=1e9") && err.contains("from -5000 to 5000"),
        "{err}"
    );
    assert!(
        !listed("ref").contains("anchor"),
        "a refused start sets no anchor"
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `arbiter connect` for one bot, killed (with its engines) when dropped.
struct Bridge(Child);

impl Bridge {
    fn start(dir: &Scratch, url: &str, token: &str, slots: u32, engine: &[&str]) -> Bridge {
        let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .current_dir(&dir.0)
            .args(["connect", url, "--token", token, "--slots"])
            .arg(slots.to_string())
            .arg("--engine")
            .args(engine)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbiter connect starts");
        Bridge(child)
    }

    /// Waits (at most `limit`) for the bridge to stop by itself; its status
    /// and what it said.
    fn exits_within(&mut self, limit: Duration) -> Option<(i32, String)> {
        let t0 = Instant::now();
        while t0.elapsed() < limit {
            if let Some(status) = self.0.try_wait().unwrap() {
                let mut err = String::new();
                if let Some(mut e) = self.0.stderr.take() {
                    std::io::Read::read_to_string(&mut e, &mut err).unwrap();
                }
                return Some((status.code().unwrap_or(-1), err));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        None
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        // why SIGTERM: the bridge kills its engines on the way out.
        // SAFETY: a plain signal to our own child.
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// The ladder of `pool`, by bot.
fn ladder(addr: &str, pool: &str) -> serde_json::Value {
    get_json(addr, &format!("/api/arena/ladder?pool={pool}"))
}

fn row<'a>(ladder: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    ladder
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name}: {ladder}"))
}

fn bot_games(addr: &str, name: &str) -> Vec<serde_json::Value> {
    get_json(addr, &format!("/api/arena/bot?name={name}"))["games"]
        .as_array()
        .unwrap()
        .clone()
}

fn export(db: &Path, pool: &str, json: &Path, pgn: Option<&Path>) {
    let mut args = vec![
        "arena".to_owned(),
        "export".into(),
        "--db".into(),
        s(db),
        "--pool".into(),
        pool.into(),
        "--jsonout".into(),
        s(json),
    ];
    if let Some(pgn) = pgn {
        args.extend(["--pgnout".into(), s(pgn)]);
    }
    arbiter()
        .args(&args)
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
}

#[test]
fn an_arena_of_connected_bots_plays_rates_pauses_revokes_and_survives_kill_9() {
    let (dir, db, pools) = arena_dir("connected", POOLS);
    let mut tokens = std::collections::BTreeMap::new();
    for name in ["ref-1", "ref-2", "ref-3", "crashy", "cheat", "gone"] {
        tokens.insert(name, add_bot(&db, name));
    }
    arbiter()
        .args(["arena", "bot", "revoke", "gone", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    // A revoked bot cannot even be a house bot (the database says no: 1).
    let out = arbiter()
        .current_dir(&dir.0)
        .args(["arena", "run", "--listen", "127.0.0.1:0", "--db", &s(&db)])
        .args(["--pools", &s(&pools)])
        .args(house("gone", &engine(), ""))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("house bot gone: not a bot of this arena")
    );

    // One server for the pages and the bots' /umi, on a port the bridges
    // find again after the restart.
    let listen = format!("127.0.0.1:{}", free_port());
    let url = format!("ws://{listen}/umi");
    // why no grace: a dropped connection is at once the crashing bot's end.
    let mut server_args: Vec<String> = house("ref-1", &engine(), "option.Level=1 slots=2").to_vec();
    server_args.extend(["--remote-grace".into(), "0".into()]);
    // why off: the crashing and cheating bots must play to be paused and rated.
    server_args.extend(["--admission".into(), "off".into()]);
    let mut arena = start_on(&dir, &listen, &db, &pools, &server_args);

    let (engine_cmd, testbot_cmd) = (format!("cmd={}", engine()), format!("cmd={}", testbot()));
    let _ref2 = Bridge::start(
        &dir,
        &url,
        &tokens["ref-2"],
        2,
        &[&engine_cmd, "option.Level=2"],
    );
    // ref-3 plays in one pool only: its connections name it.
    let mut ref3 = Bridge::start(
        &dir,
        &format!("{url}?pools=bohn"),
        &tokens["ref-3"],
        2,
        &[&engine_cmd, "option.Level=3"],
    );
    // Crashes in the middle of every game, after its first move; it
    // plays Bohnenspiel only (its `games` line), so it is in one pool.
    let _crashy = Bridge::start(
        &dir,
        &url,
        &tokens["crashy"],
        1,
        &[
            &testbot_cmd,
            "arg=--mode",
            "arg=crash-mid",
            "arg=--count",
            "arg=1",
            "arg=--games",
            "arg=bohnenspiel",
        ],
    );
    // Cheats the protocol: an illegal move in every game; Bosh only.
    let _cheat = Bridge::start(
        &dir,
        &url,
        &tokens["cheat"],
        1,
        &[
            &testbot_cmd,
            "arg=--mode",
            "arg=illegal",
            "arg=--games",
            "arg=bosh",
        ],
    );
    // A revoked token is refused: the bridge gives up at once.
    let mut gone = Bridge::start(&dir, &url, &tokens["gone"], 1, &[&engine_cmd]);
    let (code, err) = gone
        .exits_within(Duration::from_secs(60))
        .expect("the revoked bot's bridge gives up");
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("refused"), "{err}");

    // Every bot is there; the crash-looping one is soon paused.
    let t0 = Instant::now();
    loop {
        let (bohn, bosh) = (ladder(&arena.addr, "bohn"), ladder(&arena.addr, "bosh"));
        let has =
            |l: &serde_json::Value, b: &str| l.as_array().unwrap().iter().any(|r| r["name"] == b);
        let all_in = ["ref-1", "ref-2", "ref-3", "crashy"]
            .iter()
            .all(|b| has(&bohn, b))
            && ["ref-1", "ref-2", "cheat"].iter().all(|b| has(&bosh, b));
        let paused = bohn
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "crashy" && r["paused_secs"].as_u64() > Some(0));
        if all_in && paused {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "{bohn}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // ref-3 named its pool, crashy and cheat play one game each: each is
    // in its pool only.
    let (bohn, bosh) = (ladder(&arena.addr, "bohn"), ladder(&arena.addr, "bosh"));
    assert!(
        bohn.as_array()
            .unwrap()
            .iter()
            .all(|r| r["name"] != "cheat"),
        "{bohn}"
    );
    assert!(
        bosh.as_array()
            .unwrap()
            .iter()
            .all(|r| !["ref-3", "crashy"].contains(&r["name"].as_str().unwrap())),
        "{bosh}"
    );

    // kill -9 in the middle of games: nothing finished is lost or doubled,
    // the games cut off are aborted, and the server goes on from the database.
    wait_for(&arena.addr, Duration::from_secs(240), |p| {
        finished(p) >= 100
            && p.as_array()
                .unwrap()
                .iter()
                .any(|x| x["playing"].as_u64() > Some(0))
    });
    arena.child.kill().unwrap(); // SIGKILL
    arena.child.wait().unwrap();
    drop(arena);
    let before = dir.path("before.jsonl");
    export(&db, "bohn", &before, None);
    let before = std::fs::read_to_string(&before).unwrap();
    let mut args = server_args.clone();
    args.extend(["--max-games".into(), "150".into()]);
    let arena = start_on(&dir, &listen, &db, &pools, &args);
    let after = get_json(&arena.addr, "/api/arena/pools");
    assert!(
        after.as_array().unwrap().iter().all(|p| p["playing"] == 0),
        "nothing is in progress at the start: {after}"
    );
    let aborted: u64 = after
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["aborted"].as_u64().unwrap())
        .sum();
    assert!(aborted >= 1, "{after}");
    let at_restart = finished(&after);

    // The bridges come back by themselves. Then ref-3's token is revoked
    // while it is connected: its connections are closed and it is refused.
    wait_for(&arena.addr, Duration::from_secs(120), |p| {
        finished(p) >= at_restart + 30
    });
    arbiter()
        .args(["arena", "bot", "revoke", "ref-3", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let (code, err) = ref3
        .exits_within(Duration::from_secs(120))
        .expect("the revoked bot's bridge is refused and gives up");
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("refused"), "{err}");
    let ref3_games = bot_games(&arena.addr, "ref-3").len();

    // The rest of the 150 games, then the server is idle.
    let pools_now = wait_for(&arena.addr, Duration::from_secs(240), |p| {
        finished(p) >= at_restart + 150 && p.as_array().unwrap().iter().all(|x| x["playing"] == 0)
    });
    assert_eq!(finished(&pools_now), at_restart + 150, "{pools_now}");
    assert_eq!(
        bot_games(&arena.addr, "ref-3").len(),
        ref3_games,
        "no game after the revocation"
    );
    assert_eq!(
        row(&ladder(&arena.addr, "bohn"), "ref-3")["connected"],
        false
    );

    // The crashing bot lost every game by its disconnection and, paused,
    // played far fewer than the others; the cheat lost every game by its
    // illegal move and was not paused for it.
    let crashy = bot_games(&arena.addr, "crashy");
    assert!(crashy.len() >= 3, "{crashy:?}");
    assert!(
        crashy.iter().all(|g| g["termination"] == "disconnect"),
        "{crashy:?}"
    );
    let ref2 = bot_games(&arena.addr, "ref-2").len();
    assert!(crashy.len() * 3 < ref2, "{} vs {ref2}", crashy.len());
    let cheat = bot_games(&arena.addr, "cheat");
    assert!(
        cheat.iter().all(|g| g["termination"] == "illegal_move"),
        "{cheat:?}"
    );
    assert!(cheat.len() >= 10, "{cheat:?}");
    assert!(
        row(&ladder(&arena.addr, "bosh"), "cheat")["paused_secs"].is_null(),
        "a lost game is no strike"
    );
    // The bots' pages count those losses by kind, each as a fault of the
    // bot's own, and give each opponent's score and LOS.
    for (bot, pool, kind) in [
        ("cheat", "bosh", "illegal_move"),
        ("crashy", "bohn", "disconnect"),
    ] {
        let page = get_json(&arena.addr, &format!("/api/arena/bot?name={bot}"));
        let here = page["pools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["pool"] == pool)
            .unwrap_or_else(|| panic!("{bot} in {pool}: {page}"));
        let lost = bot_games(&arena.addr, bot).len() as u64;
        assert_eq!(
            here["losses_by_kind"],
            serde_json::json!([{"kind": kind, "fault": true, "losses": lost}]),
            "{bot}: {page}"
        );
        let versus = here["versus"].as_array().unwrap();
        assert!(!versus.is_empty(), "{page}");
        for v in versus {
            assert_eq!(v["losses"], v["games"], "{bot}: {v}");
            assert_eq!(v["score"], 0.0, "{bot}: {v}");
            // Only losses: the LOS is Φ(−√L), below 16% from one game on.
            let los = v["los"].as_f64().expect("a LOS after decisive games");
            assert!(los < 0.16, "{bot}: {v}");
        }
        assert!(
            page["games"]
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["south_version"] == 1 && g["north_version"] == 1),
            "{page}"
        );
    }
    // Their opponents won those games: no loss by their fault there.
    let ref2 = get_json(&arena.addr, "/api/arena/bot?name=ref-2");
    for p in ref2["pools"].as_array().unwrap() {
        let vs_cheat = p["versus"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["opponent"] == "cheat");
        if let Some(v) = vs_cheat {
            assert!(v["los"].as_f64() > Some(0.84), "{v}");
        }
        assert!(
            p["losses_by_kind"]
                .as_array()
                .unwrap()
                .iter()
                .all(|k| k["fault"] == false),
            "{ref2}"
        );
    }

    // Each pool's export verifies, and rating it again gives the ladder's
    // numbers (once the ladder counts every finished game).
    for (k, pool) in ["bohn", "bosh"].into_iter().enumerate() {
        let (json, pgn) = (
            dir.path(&format!("{pool}.jsonl")),
            dir.path(&format!("{pool}.pgn")),
        );
        export(&db, pool, &json, Some(&pgn));
        for f in [&json, &pgn] {
            arbiter()
                .args(["verify", &s(f)])
                .timeout(Duration::from_secs(60))
                .assert()
                .success();
        }
        let text = std::fs::read_to_string(&json).unwrap();
        if pool == "bohn" {
            assert!(
                text.starts_with(&before),
                "the games before the kill are all still there, in order"
            );
        }
        let logs = arbiter_core::records::jsonl::parse_games(&text).unwrap();
        assert_eq!(
            logs.len() as u64,
            pools_now[k]["finished"].as_u64().unwrap(),
            "{pool}"
        );
        let mut ids: Vec<&str> = logs.iter().map(|l| l.round.as_str()).collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "no game of {pool} recorded twice");
        let t0 = Instant::now();
        let shown = loop {
            let shown = ladder(&arena.addr, pool);
            let counted: u64 = shown
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["games"].as_u64().unwrap_or(0))
                .sum();
            if counted == 2 * logs.len() as u64 {
                break shown;
            }
            assert!(t0.elapsed() < Duration::from_secs(60), "{shown}");
            std::thread::sleep(Duration::from_millis(200));
        };
        let again = arbiter_arena::ratings::rate_logs(&logs, &Default::default());
        assert!(again.len() >= 3, "{pool}: {again:?}");
        for r in &again {
            let shown = row(&shown, &r.name);
            assert!(
                (shown["rating"].as_f64().unwrap() - r.rating).abs() < 1e-6,
                "{pool} {}: {shown} vs {r:?}",
                r.name
            );
            assert_eq!(shown["games"].as_u64(), Some(u64::from(r.games)));
        }
        arbiter()
            .args(["merge", &s(&json)])
            .timeout(Duration::from_secs(60))
            .assert()
            .success();
    }
    // A finished game replays through /replay's API; every page is served.
    let (status, body) = request(&arena.addr, "/api/logs/0?game=0", &[]);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"plies\""), "{body}");
    for page in ["/arena", "/arena/bot?name=ref-2", "/replay", "/live"] {
        assert_eq!(request(&arena.addr, page, &[]).0, 200, "{page}");
    }
}

/// A house bot with `anchor=1500` and another bot: the ladder holds the
/// anchor at exactly 1500 and places the other by its score around it;
/// the export rated with the same anchors gives the ladder's numbers; an
/// anchor set while the server runs applies without a new game.
#[test]
fn an_anchored_house_bot_holds_its_rating_and_places_the_other() {
    let (dir, db, pools) = arena_dir(
        "anchored",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]"#,
    );
    add_bot(&db, "fixed");
    add_bot(&db, "other");
    let mut args = house("fixed", &engine(), "option.Level=1 anchor=1500").to_vec();
    args.extend(house("other", &engine(), "option.Level=3"));
    // why: two house bots, paced to a pair every 10 minutes by default.
    args.extend(["--house-rate".into(), "1000000".into()]);
    args.extend(["--max-games".into(), "6".into()]);
    let arena = start(&dir, &db, &pools, &args);
    wait_for(&arena.addr, Duration::from_secs(180), |p| {
        finished(p) == 6 && p[0]["playing"] == 0
    });
    // The ladder once it counts every game.
    let t0 = Instant::now();
    let shown = loop {
        let shown = ladder(&arena.addr, "bohn");
        let counted: u64 = shown
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_u64().unwrap_or(0))
            .sum();
        if counted == 12 {
            break shown;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "{shown}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let fixed = row(&shown, "fixed");
    assert_eq!(fixed["rating"].as_f64(), Some(1500.0), "{shown}");
    assert_eq!(fixed["anchor"], true, "{shown}");
    assert_eq!(fixed["interval"].as_f64(), Some(0.0), "{shown}");
    assert_eq!(fixed["provisional"], false, "{shown}");
    let other = row(&shown, "other");
    assert_eq!(other["anchor"], false, "{shown}");
    // Two bots: the other's rating is the anchor's plus elo(s), s its score
    // with the virtual draw — nowhere near an average of 0.
    let n = |k: &str| other[k].as_f64().unwrap();
    let score = (n("wins") + n("draws") / 2.0 + 0.5) / (n("games") + 1.0);
    let want = 1500.0 + 400.0 * (score / (1.0 - score)).log10();
    assert!((n("rating") - want).abs() < 1e-6, "{want}: {shown}");
    assert!(n("rating") > 800.0, "{shown}");
    assert!(
        other["interval"].as_f64().is_some_and(|m| m > 0.0),
        "{shown}"
    );
    // The bot page says so too, and `bot list`.
    let page = get_json(&arena.addr, "/api/arena/bot?name=fixed");
    assert_eq!(page["pools"][0]["ladder"]["anchor"], true, "{page}");
    let list = arbiter()
        .args(["arena", "bot", "list", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert!(
        list.lines()
            .any(|l| l.starts_with("fixed\t") && l.ends_with("\tanchor 1500")),
        "{list}"
    );
    // The export, rated with the database's anchors, is the ladder.
    let json = dir.path("bohn.jsonl");
    export(&db, "bohn", &json, None);
    let logs = arbiter_core::records::jsonl::parse_games(&std::fs::read_to_string(&json).unwrap())
        .unwrap();
    let anchors =
        arbiter_arena::anchors::all(&arbiter_arena::db::open_existing(&db).unwrap()).unwrap();
    assert_eq!(anchors.get("fixed"), Some(&1500.0));
    let again = arbiter_arena::ratings::rate_logs(&logs, &anchors);
    assert_eq!(again.len(), 2);
    for r in &again {
        let shown = row(&shown, &r.name);
        assert!(
            (shown["rating"].as_f64().unwrap() - r.rating).abs() < 1e-6,
            "{shown} vs {r:?}"
        );
        assert_eq!(shown["anchor"], r.anchor);
    }
    // An anchor set while the server runs (no game since): both are held.
    arbiter()
        .args(["arena", "bot", "anchor", "other", "1000", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let t0 = Instant::now();
    loop {
        let shown = ladder(&arena.addr, "bohn");
        let other = row(&shown, "other");
        if other["anchor"] == true {
            assert_eq!(other["rating"].as_f64(), Some(1000.0), "{shown}");
            assert_eq!(
                row(&shown, "fixed")["rating"].as_f64(),
                Some(1500.0),
                "{shown}"
            );
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "{shown}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_bot_that_drops_mid_game_and_returns_within_the_grace_keeps_its_game() {
    // why the start position: the scripted bot's moves are for it.
    let (dir, db, pools) = arena_dir(
        "grace",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "start"}]"#,
    );
    let token = add_bot(&db, "dropper");
    add_bot(&db, "ref-1");
    // why a long grace: the bot is back in 300 ms; the rest is a loaded machine.
    let mut args = house("ref-1", &engine(), "option.Level=1").to_vec();
    // why no admission: the scripted bot's moves are for its one game.
    args.extend(
        [
            "--remote-grace",
            "30",
            "--max-games",
            "2",
            "--admission",
            "off",
        ]
        .map(String::from),
    );
    let arena = start(&dir, &db, &pools, &args);

    // One connection: it drops at its third `go` (in its first game) and
    // is back 300 ms later.
    let connections = Arc::new(AtomicUsize::new(0));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.spawn(scripted_bot_counted(
        format!("ws://{}/umi", arena.addr),
        token,
        Script {
            drop_at_go: Some(3),
            back_after: Some(Duration::from_millis(300)),
        },
        connections.clone(),
    ));
    wait_for(&arena.addr, Duration::from_secs(120), |p| {
        finished(p) == 2 && p[0]["playing"] == 0
    });
    assert_eq!(
        connections.load(Ordering::SeqCst),
        2,
        "it dropped once and came back"
    );

    // Both games of the pair ended on the board, neither by `disconnect`;
    // no strike, so no pause.
    let games = bot_games(&arena.addr, "dropper");
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(
        games.iter().all(|g| g["termination"] == "rules"
            || g["termination"]
                .as_str()
                .is_some_and(|t| t.ends_with("adjudication"))),
        "{games:?}"
    );
    let shown = ladder(&arena.addr, "bohn");
    assert!(row(&shown, "dropper")["paused_secs"].is_null(), "{shown}");
    // The game went on past the drop (the bot's third move, ply 5 or 6),
    // over the new connection; the record verifies.
    let json = dir.path("bohn.jsonl");
    export(&db, "bohn", &json, None);
    arbiter()
        .args(["verify", &s(&json)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let logs = arbiter_core::records::jsonl::parse_games(&std::fs::read_to_string(&json).unwrap())
        .unwrap();
    assert_eq!(logs.len(), 2);
    assert!(logs.iter().all(|l| l.moves.len() > 6), "{logs:?}");
}

/// The second line of `arena run` with KGP: where KGP bots connect (the
/// TCP address, the WebSocket URL).
fn kgp_addresses(arena: &mut Running) -> (String, String) {
    let mut line = String::new();
    arena._stdout.read_line(&mut line).unwrap();
    let rest = line
        .trim()
        .strip_prefix("arbiter: KGP bots connect to tcp://")
        .unwrap_or_else(|| panic!("not the KGP line: {line:?}"));
    let (tcp, ws) = rest.split_once(" or ").expect("tcp … or ws…");
    (tcp.to_owned(), ws.to_owned())
}

#[test]
fn kgp_bots_with_arena_tokens_play_rated_games_in_a_kalah_pool() {
    use common::kgp::{bot, Style, Transport};
    let (dir, db, pools) = arena_dir(
        "kgp",
        r#"[{"name": "kalah-fast", "game": "kalah", "each": "st=0.1 timemargin=300"},
            {"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    );
    let tcp_token = add_bot(&db, "kgp-tcp");
    let ws_token = add_bot(&db, "kgp-ws");
    add_bot(&db, "ref");
    let mut extra = house("ref", &engine(), "option.Level=1").to_vec();
    extra.extend(["--kgp-listen".into(), "127.0.0.1:0".into()]);
    extra.extend(["--max-games".into(), "6".into()]);
    let mut arena = start(&dir, &db, &pools, &extra);
    let (tcp, ws) = kgp_addresses(&mut arena);
    assert!(ws.ends_with("/kgp"), "{ws}");
    let _over_tcp = bot(Transport::Tcp(tcp.clone()), Style::Plays, &tcp_token);
    let _over_ws = bot(Transport::WebSocket(ws), Style::Plays, &ws_token);
    // A token that is no bot's is refused in KGP's words.
    let refused = bot(
        Transport::Tcp(tcp),
        Style::Plays,
        "not-a-token-of-this-arena",
    )
    .join()
    .unwrap();
    assert!(
        refused
            .iter()
            .any(|l| l.contains("error") && l.contains("unknown token")),
        "{refused:?}"
    );

    wait_for(&arena.addr, Duration::from_secs(240), |p| finished(p) >= 6);
    let kalah = ladder(&arena.addr, "kalah-fast");
    let mut sides = 0;
    for name in ["kgp-tcp", "kgp-ws", "ref"] {
        let r = row(&kalah, name);
        let games = r["games"].as_u64().unwrap();
        assert!(games >= 2, "{name} plays at least a pair: {kalah}");
        assert!(r["rating"].is_number(), "{name} is rated: {kalah}");
        sides += games;
    }
    assert_eq!(sides, 12, "six games, two sides each: {kalah}");
    // The KGP bots are in the Kalah pool only (their games line).
    assert!(ladder(&arena.addr, "bohn")
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["name"] != "kgp-tcp" && r["name"] != "kgp-ws"));
    let bot_page = get_json(&arena.addr, "/api/arena/bot?name=kgp-ws");
    assert_eq!(bot_page["pools"][0]["pool"], "kalah-fast", "{bot_page}");

    // The games are the arbiter's: exported, they verify.
    let json = dir.path("kalah.jsonl");
    export(&db, "kalah-fast", &json, None);
    assert_eq!(common::count_lines(&json), 6);
    arbiter()
        .args(["verify", &s(&json)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
}

/// A KGP bot without `set info:name` is the version `NAME (unnamed)`; one
/// that leaves its states unanswered fails admission (its random moves are
/// no UMI answer) and is told why in KGP's `error`, on its first connection
/// and inside the back-off; the account's admission stays its named
/// version's.
#[test]
fn a_kgp_bot_refused_at_admission_is_told_and_an_unnamed_one_is_a_version_apart() {
    use common::kgp::{bot_named, Style, Transport};
    let (dir, db, pools) = arena_dir(
        "kgp-admission",
        r#"[{"name": "kalah-fast", "game": "kalah", "each": "st=0.1 timemargin=300"}]"#,
    );
    let token = add_bot(&db, "student");
    add_bot(&db, "ref");
    let mut extra = house("ref", &engine(), "option.Level=1").to_vec();
    extra.extend(["--kgp-listen".into(), "127.0.0.1:0".into()]);
    extra.extend(["--admission-retry".into(), "600".into()]);
    let mut arena = start(&dir, &db, &pools, &extra);
    let (tcp, _) = kgp_addresses(&mut arena);
    let _named = bot_named(
        Transport::Tcp(tcp.clone()),
        Style::Plays,
        &token,
        Some("student 1.0"),
    );
    wait_for_bot(&arena.addr, "student", Duration::from_secs(120), |b| {
        b["admission"]["passed"] == true
    });
    // Unnamed and silent: KGP's random moves for each state, refused.
    let seen = bot_named(Transport::Tcp(tcp.clone()), Style::Silent, &token, None)
        .join()
        .unwrap();
    let n = seen.len();
    assert_eq!(seen.last().map(String::as_str), Some("goodbye"), "{seen:?}");
    let error = &seen[n - 2];
    assert!(
        error.starts_with("error \"admission failed: FAIL positions:kalah: the bot sent no move")
            && error.contains("retry in 600 s"),
        "{seen:?}"
    );
    // Again, inside the back-off: told at once, the same way.
    let again = bot_named(Transport::Tcp(tcp), Style::Silent, &token, None)
        .join()
        .unwrap();
    let n = again.len();
    assert_eq!(
        again.last().map(String::as_str),
        Some("goodbye"),
        "{again:?}"
    );
    assert!(
        again[n - 2].contains("admission failed") && again[n - 2].contains("; retry in "),
        "{again:?}"
    );
    assert!(
        !again.iter().any(|l| l.contains(" state <")),
        "not checked again: {again:?}"
    );
    // The failure is the unnamed version's; the account's is the named one's.
    let page = get_json(&arena.addr, "/api/arena/bot?name=student");
    assert_eq!(page["admission"]["passed"], true, "{page}");
    let versions = page["versions"].as_array().unwrap();
    let unnamed = versions
        .iter()
        .find(|v| v["id_name"] == "student (unnamed)")
        .unwrap_or_else(|| panic!("{page}"));
    assert_eq!(unnamed["admission"]["passed"], false, "{page}");
    assert_eq!(
        page["kgp_random_moves"], 0,
        "admission games are not rated: {page}"
    );
}

/// A KGP bot that never moves (admission off) plays on KGP's random moves:
/// no time loss, and its page counts them as its games' records mark them.
#[test]
fn kgp_random_moves_are_played_and_counted_on_the_bot_page() {
    use common::kgp::{bot, Style, Transport};
    let (dir, db, pools) = arena_dir(
        "kgp-random",
        r#"[{"name": "kalah-fast", "game": "kalah", "each": "st=0.1 timemargin=300"}]"#,
    );
    let token = add_bot(&db, "silent");
    add_bot(&db, "ref");
    let mut extra = house("ref", &engine(), "option.Level=1").to_vec();
    extra.extend(["--kgp-listen".into(), "127.0.0.1:0".into()]);
    extra.extend(["--admission".into(), "off".into()]);
    extra.extend(["--max-games".into(), "2".into()]);
    let mut arena = start(&dir, &db, &pools, &extra);
    let (tcp, _) = kgp_addresses(&mut arena);
    let _silent = bot(Transport::Tcp(tcp), Style::Silent, &token);
    wait_for(&arena.addr, Duration::from_secs(120), |p| finished(p) >= 2);
    let games = bot_games(&arena.addr, "silent");
    assert_eq!(games.len(), 2);
    let json = dir.path("kalah.jsonl");
    export(&db, "kalah-fast", &json, None);
    let mut marked = 0;
    for line in std::fs::read_to_string(&json).unwrap().lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_ne!(g["termination"]["kind"], "time_forfeit", "{g}");
        assert!(g["termination"]["side"].is_null(), "no fault: {g}");
        marked += g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["kgp_random"] == true)
            .count();
    }
    assert!(marked > 10, "{marked}");
    let page = get_json(&arena.addr, "/api/arena/bot?name=silent");
    assert_eq!(page["kgp_random_moves"], marked, "{page}");
    assert_eq!(page["versions"][0]["kgp_random_moves"], marked, "{page}");
    let house_page = get_json(&arena.addr, "/api/arena/bot?name=ref");
    assert_eq!(house_page["kgp_random_moves"], 0, "{house_page}");
}

/// Waits (at most `limit`) until `done` holds for the bot's JSON.
fn wait_for_bot(
    addr: &str,
    name: &str,
    limit: Duration,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    wait_for_json(addr, &format!("/api/arena/bot?name={name}"), limit, done)
}

#[test]
fn a_new_bot_is_checked_before_it_plays_and_one_that_fails_never_plays() {
    let (dir, db, pools) = arena_dir(
        "admission",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    );
    let good = add_bot(&db, "good");
    let bad = add_bot(&db, "bad");
    add_bot(&db, "ref");
    let mut args = house("ref", &engine(), "option.Level=1").to_vec();
    args.extend(["--admission-retry".into(), "600".into()]);
    let arena = start(&dir, &db, &pools, &args);
    let url = format!("ws://{}/umi", arena.addr);
    let engine_cmd = format!("cmd={}", engine());
    let _good = Bridge::start(&dir, &url, &good, 1, &[&engine_cmd, "option.Level=1"]);
    let testbot_cmd = format!("cmd={}", testbot());
    let mut bad_bridge = Bridge::start(
        &dir,
        &url,
        &bad,
        1,
        &[&testbot_cmd, "arg=--mode", "arg=illegal"],
    );

    let page = wait_for_bot(&arena.addr, "good", Duration::from_secs(120), |b| {
        b["games"].as_array().is_some_and(|g| g.len() >= 2)
    });
    assert_eq!(page["admission"]["passed"], true, "{page}");
    assert_eq!(page["admission"]["failed"], serde_json::json!([]), "{page}");
    assert!(page["admission"]["at"].is_string(), "{page}");
    // The house bot is the organiser's: never checked.
    let house_page = get_json(&arena.addr, "/api/arena/bot?name=ref");
    assert!(house_page["admission"].is_null(), "{house_page}");

    let page = wait_for_bot(&arena.addr, "bad", Duration::from_secs(60), |b| {
        !b["admission"].is_null()
    });
    assert_eq!(page["admission"]["passed"], false, "{page}");
    assert_eq!(
        page["admission"]["failed"],
        serde_json::json!(["positions:bohnenspiel"]),
        "{page}"
    );
    assert!(
        page["admission"]["detail"]
            .as_str()
            .unwrap()
            .contains("illegal move"),
        "{page}"
    );
    // It was told why (the bridge says the server's reason), and never played.
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(page["games"], serde_json::json!([]), "{page}");
    assert!(!ladder(&arena.addr, "bohn")
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "bad"));
    drop(arena);
    if let Some((_, err)) = bad_bridge.exits_within(Duration::from_secs(30)) {
        assert!(err.contains("admission failed"), "{err}");
    }
}

#[test]
fn a_new_id_name_is_a_new_version_that_first_meets_its_predecessor() {
    let (dir, db, pools) = arena_dir(
        "versions",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    );
    let token = add_bot(&db, "vb");
    add_bot(&db, "ref");
    let args = house("ref", &engine(), "option.Level=1").to_vec();
    let arena = start(&dir, &db, &pools, &args);
    let url = format!("ws://{}/umi", arena.addr);
    let testbot_cmd = format!("cmd={}", testbot());
    // Version 1: `id name testbot-random`.
    let first = Bridge::start(
        &dir,
        &url,
        &token,
        1,
        &[&testbot_cmd, "arg=--mode", "arg=random"],
    );
    wait_for_bot(&arena.addr, "vb", Duration::from_secs(120), |b| {
        b["games"].as_array().is_some_and(|g| g.len() >= 2)
    });
    // Version 2, under the same token: `id name testbot-instant`.
    let _second = Bridge::start(
        &dir,
        &url,
        &token,
        1,
        &[&testbot_cmd, "arg=--mode", "arg=instant"],
    );
    let page = wait_for_bot(&arena.addr, "vb", Duration::from_secs(120), |b| {
        b["versions"].as_array().is_some_and(|v| v.len() == 2)
            && b["versions"][1]["games"].as_u64() >= Some(2)
    });
    let versions = page["versions"].as_array().unwrap();
    assert_eq!(versions[0]["id_name"], "testbot-random", "{page}");
    assert_eq!(versions[1]["id_name"], "testbot-instant", "{page}");
    assert!(versions[0]["games"].as_u64() >= Some(2), "{page}");
    assert!(versions[1]["rating"].is_number(), "{page}");
    assert!(versions.iter().all(|v| v["first_seen"].is_string()));
    // The ladder shows the newest version.
    let bohn = ladder(&arena.addr, "bohn");
    let r = row(&bohn, "vb");
    assert_eq!(r["version"], "testbot-instant", "{bohn}");
    assert_eq!(r["player"], "vb/2", "{bohn}");
    drop(first);

    // Version 2's first pair was against version 1 (it was connected), and
    // the records name the versions.
    let json = dir.path("bohn.jsonl");
    export(&db, "bohn", &json, None);
    let games: Vec<serde_json::Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first_of_v2 = games
        .iter()
        .find(|g| g["south"] == "vb/2" || g["north"] == "vb/2")
        .expect("a game of version 2");
    let pair = [&first_of_v2["south"], &first_of_v2["north"]];
    assert!(pair.contains(&&serde_json::json!("vb")), "{first_of_v2}");
    arbiter()
        .args(["verify", &s(&json)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
}

/// Reads `child`'s stderr on a thread: its lines as they come.
fn stderr_lines(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    let err = child.stderr.take().expect("stderr piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

#[test]
fn a_bot_over_its_limit_and_a_token_guesser_are_told_when_to_retry() {
    let (dir, db, pools) = arena_dir("retry", POOLS);
    let alpha = add_bot(&db, "alpha");
    let beta = add_bot(&db, "beta");
    // why no house bot and two bots never both connected: no game starts.
    let arena = start(&dir, &db, &pools, &["--max-connections".into(), "1".into()]);
    let url = format!("ws://{}/umi", arena.addr);

    // alpha's one connection is open: one more is refused, and told when
    // to come back.
    let mut held = common::upgrade_from("127.0.0.1", &url, Some(&alpha)).expect("alpha connects");
    // why a reader: a connection that does not read answers no ping and
    // is dropped; this one plays its part (the handshake) and stays.
    std::thread::spawn(move || {
        let mut position = String::new();
        while let Ok(frame) = held.read() {
            let Ok(line) = frame.to_text() else { continue };
            for reply in common::umi_replies(line, "alpha", &mut position) {
                if held.send(tungstenite::Message::text(reply)).is_err() {
                    return;
                }
            }
        }
    });
    let over = common::upgrade_from("127.0.0.1", &url, Some(&alpha)).expect_err("over the limit");
    assert_eq!(over.status, 429, "{over:?}");
    assert_eq!(over.retry_after.as_deref(), Some("5"), "{over:?}");
    assert_eq!(
        over.body,
        "alpha already has 1 connection(s), its limit; try again in 5 s"
    );
    // `arbiter connect` says why and waits the Retry-After between tries.
    let mut bridge = Bridge::start(&dir, &url, &alpha, 1, &[&format!("cmd={}", engine())]);
    let lines = stderr_lines(&mut bridge.0);
    let mut tries = Vec::new();
    while tries.len() < 2 {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .expect("the bridge reports each refusal");
        if line.contains("HTTP 429") {
            assert!(
                line.contains(
                    "alpha already has 1 connection(s), its limit; try again in 5 s; \
                     trying again in 5 s (its Retry-After)"
                ),
                "{line}"
            );
            tries.push(Instant::now());
        }
    }
    // why a lower bound only: a loaded machine makes the wait longer, never shorter.
    assert!(
        tries[1] - tries[0] >= Duration::from_millis(4500),
        "{:?}",
        tries[1] - tries[0]
    );
    drop(bridge);

    // A token guesser on 127.0.0.1: ten wrong tokens are each a 401 …
    for k in 0..10 {
        let wrong = format!("wrong-token-{k:02}-0123456789abcdef");
        let refused =
            common::upgrade_from("127.0.0.1", &url, Some(&wrong)).expect_err("a wrong token");
        assert_eq!(
            (refused.status, refused.body.as_str()),
            (401, "unknown token")
        );
        assert_eq!(refused.retry_after, None);
    }
    // … then its address is refused for up to a minute, whatever the token
    // and however it authenticates, without a look at the token.
    for token in [
        Some("wrong-token-10-0123456789abcdef"),
        Some(beta.as_str()),
        None,
    ] {
        let locked = common::upgrade_from("127.0.0.1", &url, token).expect_err("locked out");
        assert_eq!(locked.status, 429, "{locked:?}");
        let secs: u64 = locked
            .retry_after
            .as_deref()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a Retry-After in seconds: {locked:?}"));
        assert!((1..=60).contains(&secs), "{locked:?}");
        assert_eq!(
            locked.body,
            format!(
                "too many failed token checks from this address (10 within 60 s); \
                 try again in {secs} s"
            )
        );
    }
    // Another address is not locked out: beta gets in from 127.0.0.2.
    let mut ws = common::upgrade_from("127.0.0.2", &url, Some(&beta)).expect("beta connects");
    // The arena greets a fresh connection with `umi` (its handshake).
    let first = ws.read().expect("a first frame");
    assert_eq!(first.to_text().unwrap(), "umi");
}

/// A bot that takes `think` over each move (the first legal one) and
/// notes in `played` the plies played once its move is sent.
async fn slow_bot(url: String, token: String, think: Duration, played: Arc<AtomicUsize>) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let mut ws = common::connect(&url, Some(&token)).await.expect("connects");
    let mut position = String::new();
    while let Some(Ok(frame)) = ws.next().await {
        let Message::Text(line) = frame else { continue };
        let line = line.as_str();
        if line == "quit" {
            return;
        }
        if line.starts_with("go") {
            tokio::time::sleep(think).await;
            let before = position
                .split_once(" moves ")
                .map_or(0, |(_, m)| m.split_whitespace().count());
            // why before sending: the arbiter hears of the move after this.
            played.fetch_max(before + 1, Ordering::SeqCst);
        }
        for reply in common::umi_replies(line, "slow", &mut position) {
            if ws.send(Message::text(reply)).await.is_err() {
                return;
            }
        }
    }
}

#[test]
fn games_in_progress_are_shown_the_spectator_delay_behind_and_whole_once_finished() {
    const DELAY: u64 = 4;
    // why the start position: the slow bots' moves are for it.
    let (dir, db, pools) = arena_dir(
        "delay",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "start"}]"#,
    );
    let tokens = [add_bot(&db, "slow-1"), add_bot(&db, "slow-2")];
    // why no admission: the slow bots are scripted for their one game, and
    // count its plies.
    let extra = [
        "--spectator-delay",
        "4",
        "--max-games",
        "1",
        "--admission",
        "off",
    ]
    .map(String::from);
    let arena = start(&dir, &db, &pools, &extra);

    // A page's socket, open before the game starts: every `ply` it is sent
    // is the delay behind what the bots have played.
    let played = Arc::new(AtomicUsize::new(0));
    let stream = std::net::TcpStream::connect(&arena.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let (mut page, _) =
        tungstenite::client(format!("ws://{}/ws/live", arena.addr), stream).expect("/ws/live");
    let first: serde_json::Value =
        serde_json::from_str(page.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(first["type"], "snapshot");
    assert_eq!(first["delay_plies"], DELAY);
    let seen = Arc::clone(&played);
    let page = std::thread::spawn(move || {
        let mut plies = Vec::new();
        loop {
            let text = page.read().expect("the page's socket stays open");
            let Ok(text) = text.to_text() else { continue };
            let m: serde_json::Value = serde_json::from_str(text).unwrap();
            match m["type"].as_str() {
                Some("ply") => plies.push((m, seen.load(Ordering::SeqCst))),
                Some("thinking") => panic!("a search shown: {m}"),
                Some("game_finished") => return (plies, m),
                _ => {}
            }
        }
    });

    let runtime = tokio::runtime::Runtime::new().unwrap();
    for token in tokens {
        runtime.spawn(slow_bot(
            format!("ws://{}/umi", arena.addr),
            token,
            Duration::from_millis(150),
            Arc::clone(&played),
        ));
    }
    // The JSON, polled while the game is played.
    let mut shown_behind = 0;
    let t0 = Instant::now();
    loop {
        let before = played.load(Ordering::SeqCst) as u64;
        let snap = get_json(&arena.addr, "/api/live/snapshot");
        let after = played.load(Ordering::SeqCst) as u64;
        assert_eq!(snap["delay_plies"], DELAY);
        let Some(game) = snap["playing"].as_array().unwrap().first() else {
            if snap["finished_count"] == 1 {
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(120), "{snap}");
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        assert!(game.get("thinking").is_none(), "{game}");
        match game["last"].as_object() {
            // Fewer than DELAY + 1 plies played (one may be on its way).
            None => assert!(before <= DELAY + 1, "{before}: {game}"),
            Some(last) => {
                let shown = last["ply"].as_u64().unwrap();
                // what the bots played bounds the arbiter's count from
                // above, and from below but for the one move on its way.
                assert!(shown + DELAY <= after, "{shown} shown, {after} played");
                assert!(
                    shown + DELAY + 1 >= before,
                    "{shown} shown, {before} played"
                );
                assert_eq!(last["engine"]["pv"], serde_json::json!([]), "{game}");
                shown_behind += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        shown_behind >= 3,
        "polled the game shown {shown_behind} times"
    );
    let total = played.load(Ordering::SeqCst) as u64;
    // The page was sent each ply the delay behind, then the game whole.
    let (plies, finished) = page.join().expect("the page's reader");
    assert!(!plies.is_empty());
    for (k, (m, played_then)) in plies.iter().enumerate() {
        assert_eq!(m["ply"], k as u64 + 1, "{m}");
        assert!(
            m["ply"].as_u64().unwrap() + DELAY <= *played_then as u64,
            "{m}"
        );
    }
    assert_eq!(finished["summary"]["plies"], total, "{finished}");
    let snap = get_json(&arena.addr, "/api/live/snapshot");
    assert_eq!(snap["finished"][0]["summary"]["plies"], total, "{snap}");
    assert_eq!(
        get_json(&arena.addr, "/api/arena/playing"),
        serde_json::json!([])
    );
}

/// `arena event add …` with `args`: the exit code, stdout and stderr.
fn event_add(db: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = arbiter()
        .args(["arena", "event", "add", "--db", &s(db)])
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Schedules an event; its id, from the last line.
fn schedule_event(db: &Path, pool: &str, format: &str, rounds: u32) -> i64 {
    let rounds = rounds.to_string();
    let (code, out, err) = event_add(
        db,
        &[
            "--pool", pool, "--format", format, "--rounds", &rounds, "--at", "now",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    out.lines()
        .last()
        .unwrap()
        .parse()
        .expect("the id alone on the last line")
}

/// `arena export --event ID` to `json`; then `arbiter merge --json` of it.
fn export_event(db: &Path, id: i64, json: &Path) -> serde_json::Value {
    arbiter()
        .args([
            "arena",
            "export",
            "--db",
            &s(db),
            "--event",
            &id.to_string(),
        ])
        .args(["--jsonout", &s(json)])
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    arbiter()
        .args(["verify", &s(json)])
        .timeout(Duration::from_secs(120))
        .assert()
        .success();
    let merged = arbiter()
        .args(["merge", "--json", &s(json)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    serde_json::from_slice(&merged.stdout).unwrap()
}

/// The slots of an exported event's games, in file order.
fn slots_of(json: &Path) -> Vec<usize> {
    let logs =
        arbiter_core::records::jsonl::parse_games(&std::fs::read_to_string(json).unwrap()).unwrap();
    logs.iter()
        .map(|g| {
            arbiter_core::event::schedule::SlotKey::of(g)
                .expect("a slot")
                .index
        })
        .collect()
}

#[test]
fn a_round_robin_event_plays_among_the_connected_bots_and_resumes_after_stops() {
    let (dir, db, pools) = arena_dir(
        "event-rr",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "st=1", "openings": "suite"}]"#,
    );
    let mut args = Vec::new();
    // why slow random movers: games of a second or so, so that both stops
    // below land mid-event however fast the machine.
    for (seed, name) in ["ev-a", "ev-b", "ev-c", "ev-d"].into_iter().enumerate() {
        add_bot(&db, name);
        let slow = format!("arg=--mode arg=slow arg=--delay-ms arg=15 arg=--seed arg={seed}");
        args.extend(house(name, &testbot(), &slow));
    }
    args.extend(["--drain".into(), "60".into()]);
    let mut arena = start(&dir, &db, &pools, &args);
    // Four bots, three rounds: 6 pairs × 2 colours × 3 = 36 games.
    let id = schedule_event(&db, "bohn", "roundrobin", 3);
    let path = format!("/api/arena/event?id={id}");
    let finished_games = |e: &serde_json::Value| e["games"].as_array().unwrap().len();
    let early = wait_for_json(&arena.addr, &path, Duration::from_secs(120), |e| {
        e["state"] == "playing" && finished_games(e) >= 3
    });
    let players: Vec<&str> = early["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let mut sorted = players.clone();
    sorted.sort();
    assert_eq!(sorted, ["ev-a", "ev-b", "ev-c", "ev-d"], "{early}");
    let listed = get_json(&arena.addr, "/api/arena/events");
    assert_eq!(listed[0]["id"], id, "{listed}");
    assert_eq!(listed[0]["format"], "round-robin", "{listed}");
    let event_list = || {
        let out = arbiter()
            .args(["arena", "event", "list", "--db", &s(&db)])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let aborted = || {
        let conn = arbiter_arena::db::open_existing(&db).unwrap();
        conn.query_row(
            "SELECT count(*) FROM games WHERE event = ?1 AND state = 'aborted'",
            [id],
            |r| r.get::<_, i64>(0),
        )
        .unwrap()
    };
    // kill -9 mid-event, and a new server on the same database.
    arena.child.kill().unwrap();
    arena.child.wait().unwrap();
    let list = event_list();
    assert!(
        list.contains("\tplaying\t4 bots"),
        "killed mid-event: {list}"
    );
    let mut arena = start(&dir, &db, &pools, &args);
    // why after the start: a new server marks the killed games aborted.
    let after_kill = aborted();
    // A graceful stop mid-event: the games in progress finish (none
    // aborted), the event stays playing, and a third server finishes it.
    let before = finished_games(&get_json(&arena.addr, &path));
    wait_for_json(&arena.addr, &path, Duration::from_secs(120), |e| {
        finished_games(e) >= before + 3
    });
    unsafe { libc::kill(arena.child.id() as i32, libc::SIGTERM) };
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = arena.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(90),
            "the drain did not end"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status.code(), Some(0), "a drained stop exits 0");
    let list = event_list();
    assert!(
        list.contains("\tplaying\t4 bots"),
        "stopped mid-event: {list}"
    );
    assert_eq!(aborted(), after_kill, "the drain finished its games");
    let arena = start(&dir, &db, &pools, &args);
    let done = wait_for_json(&arena.addr, &path, Duration::from_secs(300), |e| {
        e["state"] == "finished"
    });
    let games = done["games"].as_array().unwrap();
    assert_eq!(games.len(), 36, "{done}");
    // Every slot of the schedule exactly once, whatever the kill cut off.
    let json = dir.path("event.jsonl");
    let merged = export_event(&db, id, &json);
    let mut slots = slots_of(&json);
    slots.sort();
    assert_eq!(slots, (0..36).collect::<Vec<_>>());
    // The standings are `arbiter merge --json`'s of the export.
    assert_eq!(done["standings"], merged, "{done}");
    assert_eq!(merged["games"], 36);
    // Each pair met three times in each colour.
    let mut met = std::collections::BTreeMap::new();
    for g in games {
        *met.entry((g["south"].to_string(), g["north"].to_string()))
            .or_insert(0) += 1;
    }
    assert_eq!(met.len(), 12, "{met:?}");
    assert!(met.values().all(|&n| n == 3), "{met:?}");
    // Its games are the pool's, rated, and marked with the event.
    let listed = get_json(&arena.addr, "/api/arena/games?pool=bohn");
    let marked = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["event"] == id)
        .count();
    assert!(marked >= 30, "{listed}");
    let t0 = Instant::now();
    loop {
        let rated: u64 = ladder(&arena.addr, "bohn")
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_u64().unwrap_or(0))
            .sum();
        if rated >= 2 * 36 {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "rated {rated}");
        std::thread::sleep(Duration::from_millis(200));
    }
    // The event's page and the list page answer.
    for page in [format!("/arena/event?id={id}"), "/arena/events".to_owned()] {
        let (status, body) = request(&arena.addr, &page, &[]);
        assert_eq!(status, 200, "{page}");
        assert!(body.contains("arena-event"), "{page}: {body}");
    }
    let (status, body) = request(&arena.addr, "/api/arena/event?id=x", &[]);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("whole number"), "{body}");
    let (status, body) = request(&arena.addr, "/api/arena/event?id=999", &[]);
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no event 999"), "{body}");
}

#[test]
fn a_swiss_event_is_paired_round_by_round_and_bad_events_are_refused() {
    let (dir, db, pools) = arena_dir(
        "event-swiss",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"},
            {"name": "lone", "game": "bosh", "each": "depth=1", "openings": "suite"}]"#,
    );
    // Refused before anything is stored: a time past, a format or a round
    // count an event cannot have (usage errors, exit 2), a missing database (1).
    add_bot(&db, "sw-a");
    for (args, code, says) in [
        (vec!["--at", "2020-01-01T00:00:00Z"], Some(2), "in the past"),
        (vec!["--at", "tomorrow"], Some(2), "not an RFC 3339 time"),
        (vec!["--format", "knockout"], Some(2), "round robin"),
        (vec!["--rounds", "0"], Some(2), "rounds"),
    ] {
        let mut all = vec![
            "--pool", "bohn", "--format", "swiss", "--rounds", "2", "--at", "now",
        ];
        for pair in args.chunks(2) {
            let k = all.iter().position(|a| *a == pair[0]).unwrap();
            all[k + 1] = pair[1];
        }
        let (got, out, err) = event_add(&db, &all);
        assert_eq!(got, code, "{all:?}: {out}{err}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
    let (got, _, err) = event_add(
        &dir.path("typo.sqlite"),
        &[
            "--pool", "bohn", "--format", "swiss", "--rounds", "2", "--at", "now",
        ],
    );
    assert_eq!(got, Some(1), "{err}");
    assert!(err.contains("no arena database"), "{err}");
    let list = arbiter()
        .args(["arena", "event", "list", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(list.stdout.is_empty(), "nothing stored: {list:?}");

    // Four bots in a Swiss of five rounds asked: three are played (every
    // pair met), each round paired after the one before, no pair twice.
    let mut args = Vec::new();
    for (name, level) in [("sw-a", 1), ("sw-b", 2), ("sw-c", 3), ("sw-d", 4)] {
        if name != "sw-a" {
            add_bot(&db, name);
        }
        args.extend(house(name, &engine(), &format!("option.Level={level}")));
    }
    let arena = start(&dir, &db, &pools, &args);
    let swiss = schedule_event(&db, "bohn", "swiss", 5);
    // An event in a pool of no server, one in a pool where the bots are at
    // another event: both cancelled, saying why.
    let nowhere = schedule_event(&db, "nowhere", "roundrobin", 1);
    let path = format!("/api/arena/event?id={swiss}");
    let done = wait_for_json(&arena.addr, &path, Duration::from_secs(300), |e| {
        e["state"] == "finished"
    });
    assert_eq!(done["played_rounds"], 3, "{done}");
    assert!(
        done["note"].as_str().unwrap().contains("at most 3"),
        "{done}"
    );
    let games = done["games"].as_array().unwrap();
    assert_eq!(games.len(), 3 * 2 * 2, "{done}");
    let mut pairs = std::collections::BTreeMap::new();
    for g in games {
        let round: usize = g["round"]
            .as_str()
            .unwrap()
            .split('.')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let mut pair = [g["south"].as_str().unwrap(), g["north"].as_str().unwrap()];
        pair.sort();
        pairs
            .entry(pair)
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(round);
    }
    assert_eq!(pairs.len(), 6, "every pair met once: {pairs:?}");
    assert!(pairs.values().all(|r| r.len() == 1), "{pairs:?}");
    let json = dir.path("swiss.jsonl");
    assert_eq!(done["standings"], export_event(&db, swiss, &json), "{done}");
    // The organiser cancels an event that is playing: no game of it starts
    // after, those in progress finish, and what it played stays a
    // tournament's log (every game tagged, even one ended after the cancel).
    let long = schedule_event(&db, "bohn", "roundrobin", 200);
    let long_path = format!("/api/arena/event?id={long}");
    wait_for_json(&arena.addr, &long_path, Duration::from_secs(120), |e| {
        e["state"] == "playing" && e["finished"].as_u64().unwrap() >= 2
    });
    let cancel = |id: i64| {
        arbiter()
            .args(["arena", "event", "cancel", &id.to_string(), "--db", &s(&db)])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap()
    };
    let out = cancel(long);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("(playing) cancelled"),
        "{out:?}"
    );
    // why the waits: the server sees the cancel within a second, and a
    // game of depth=1 started just before ends within the next.
    std::thread::sleep(Duration::from_secs(3));
    let stopped = wait_for_json(&arena.addr, &long_path, Duration::from_secs(60), |e| {
        e["playing"].as_array().unwrap().is_empty()
    });
    assert_eq!(stopped["state"], "cancelled", "{stopped}");
    assert_eq!(stopped["note"], "cancelled by the organiser", "{stopped}");
    let played = stopped["finished"].as_u64().unwrap();
    assert!(played < 2 * 6 * 200, "{stopped}");
    std::thread::sleep(Duration::from_secs(3));
    let later = get_json(&arena.addr, &long_path);
    assert_eq!(
        later["finished"].as_u64().unwrap(),
        played,
        "no game after: {later}"
    );
    let json = dir.path("cancelled.jsonl");
    assert_eq!(
        later["standings"],
        export_event(&db, long, &json),
        "{later}"
    );
    let again = cancel(long);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("cancelled already"),
        "{again:?}"
    );

    let cancelled = get_json(&arena.addr, &format!("/api/arena/event?id={nowhere}"));
    assert_eq!(cancelled["state"], "cancelled", "{cancelled}");
    assert!(
        cancelled["note"]
            .as_str()
            .unwrap()
            .contains("no pool named \"nowhere\""),
        "{cancelled}"
    );
    // An event with one bot: revoked bots are not seated, so with three of
    // the four revoked, pool `lone` has one.
    for name in ["sw-b", "sw-c", "sw-d"] {
        arbiter()
            .args(["arena", "bot", "revoke", name, "--db", &s(&db)])
            .timeout(Duration::from_secs(60))
            .assert()
            .success();
    }
    let lone = schedule_event(&db, "lone", "roundrobin", 1);
    let one = wait_for_json(
        &arena.addr,
        &format!("/api/arena/event?id={lone}"),
        Duration::from_secs(60),
        |e| e["state"] != "scheduled",
    );
    assert_eq!(one["state"], "cancelled", "{one}");
    assert!(
        one["note"]
            .as_str()
            .unwrap()
            .contains("1 bot(s) connected to pool lone"),
        "{one}"
    );
    let list = arbiter()
        .args(["arena", "event", "list", "--db", &s(&db)])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert_eq!(list.lines().count(), 4, "{list}");
    assert!(
        list.lines().any(
            |l| l.starts_with(&format!("{swiss}\tbohn\tswiss\t5 round(s)"))
                && l.contains("\tfinished\t")
        ),
        "{list}"
    );
}

/// `arbiter connect` at the default log level (whatever the test's own
/// `RUST_LOG`), its stderr read line by line.
fn bridge_said(
    dir: &Scratch,
    url: &str,
    token: &str,
    slots: u32,
    engine: &[&str],
) -> (Bridge, std::sync::mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .env_remove("RUST_LOG")
        .args(["connect", url, "--token", token, "--slots"])
        .arg(slots.to_string())
        .arg("--engine")
        .args(engine)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter connect starts");
    let lines = stderr_lines(&mut child);
    (Bridge(child), lines)
}

/// The first line from `lines` that holds `wanted`, within `limit`.
fn line_with(lines: &std::sync::mpsc::Receiver<String>, wanted: &str, limit: Duration) -> String {
    let t0 = Instant::now();
    loop {
        let left = limit.saturating_sub(t0.elapsed());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(wanted) => return line,
            Ok(_) => {}
            Err(e) => panic!("no line with {wanted:?} within {limit:?}: {e}"),
        }
    }
}

fn starts_in(state: &Path) -> u64 {
    std::fs::read_to_string(state)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn another_engine_back_within_the_grace_is_its_own_version_not_the_old_game() {
    // why the start position: the scripted bot's moves are for it.
    let (dir, db, pools) = arena_dir(
        "takeover",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "start"}]"#,
    );
    let token = add_bot(&db, "alpha");
    add_bot(&db, "ref-1");
    let mut args = house("ref-1", &engine(), "option.Level=1 slots=2").to_vec();
    // why no admission: the scripted bot's moves are for its games; why a
    // long grace: the new engine must come within it on a loaded machine.
    args.extend(["--remote-grace", "20", "--admission", "off"].map(String::from));
    let arena = start(&dir, &db, &pools, &args);
    let url = format!("ws://{}/umi", arena.addr);

    // Version 1 (`id name scripted`) drops at its third `go`, for good.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(common::scripted_bot(
        url.clone(),
        &token,
        Script {
            drop_at_go: Some(3),
            back_after: None,
        },
    ));
    // At once, within the grace, another engine under the same token: two
    // slots of one `arbiter connect`, `id name testbot-instant`.
    let testbot_cmd = format!("cmd={}", testbot());
    let _new = Bridge::start(
        &dir,
        &url,
        &token,
        2,
        &[&testbot_cmd, "arg=--mode", "arg=instant"],
    );
    // why the versions' counts and the losses by kind, not the games list:
    // the page lists the newest 50 games, and the instant engine plays
    // hundreds while the old version's grace runs out.
    let page = wait_for_bot(&arena.addr, "alpha", Duration::from_secs(180), |b| {
        let versions = b["versions"].as_array().unwrap();
        versions.len() == 2
            && versions[1]["games"].as_u64().unwrap_or(0) >= 4
            && b["pools"][0]["losses_by_kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k["kind"] == "disconnect"))
    });
    let games = page["games"].as_array().unwrap();
    // The new process played as version 2 only, never against itself or
    // against version 1.
    for g in games {
        assert!(g["south"] != g["north"], "a bot against itself: {g}");
    }
    let versions = page["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2, "{page}");
    assert_eq!(versions[0]["id_name"], "scripted", "{page}");
    assert_eq!(versions[1]["id_name"], "testbot-instant", "{page}");
    // Connected: version 2 (its two slots), not version 1 (no process left).
    assert_eq!(versions[0]["connected"], false, "{page}");
    assert_eq!(versions[1]["connected"], true, "{page}");
    assert_eq!(page["connected"], true, "{page}");
    assert_eq!(page["slots"], 2, "{page}");

    // The records name the version that played each game.
    let json = dir.path("bohn.jsonl");
    export(&db, "bohn", &json, None);
    let logs = arbiter_core::records::jsonl::parse_games(&std::fs::read_to_string(&json).unwrap())
        .unwrap();
    let players: Vec<[&str; 2]> = logs
        .iter()
        .map(|l| [l.south.as_str(), l.north.as_str()])
        .collect();
    // Version 1 played one game: the one it dropped, lost by disconnect
    // when its grace ran out (the new engine did not finish it for it).
    let v1: Vec<_> = logs
        .iter()
        .filter(|l| l.south == "alpha" || l.north == "alpha")
        .collect();
    assert_eq!(v1.len(), 1, "{players:?}");
    assert_eq!(v1[0].termination.kind(), "disconnect", "{:?}", v1[0]);
    let lost = if v1[0].south == "alpha" { "0-1" } else { "1-0" };
    assert_eq!(
        v1[0].result.map(|r| r.to_string()).as_deref(),
        Some(lost),
        "{:?}",
        v1[0]
    );
    assert!(
        !players
            .iter()
            .any(|p| p.contains(&"alpha") && p.contains(&"alpha/2")),
        "{players:?}"
    );
}

#[test]
fn a_refused_admission_is_said_and_waited_out_with_one_engine_per_try() {
    let (dir, db, pools) = arena_dir(
        "admission-said",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
    );
    let bad = add_bot(&db, "bad");
    let idle = add_bot(&db, "idle");
    let mut arena = start(
        &dir,
        &db,
        &pools,
        &["--admission-retry".into(), "10".into()],
    );
    let url = format!("ws://{}/umi", arena.addr);
    // An engine that fails admission (illegal moves), counting its starts.
    let state = dir.path("starts");
    let testbot_cmd = format!("cmd={}", testbot());
    let state_arg = format!("arg={}", s(&state));
    let (_bad, said) = bridge_said(
        &dir,
        &url,
        &bad,
        1,
        &[
            &testbot_cmd,
            "arg=--mode",
            "arg=illegal",
            "arg=--max-starts",
            "arg=1000000",
            "arg=--state",
            &state_arg,
        ],
    );
    // The reason, at the default log level, and when it tries again.
    let line = line_with(&said, "admission failed", Duration::from_secs(120));
    assert!(line.contains("FAIL positions:bohnenspiel"), "{line}");
    assert!(line.contains("retrying in 10 s"), "{line}");
    assert_eq!(starts_in(&state), 1, "{line}");
    // It waits the server's 10 s with no engine started meanwhile (before,
    // it reconnected every 100 ms, a fresh engine each time).
    std::thread::sleep(Duration::from_secs(7));
    assert_eq!(starts_in(&state), 1);
    // Then it tries again, with one engine per try.
    let again = line_with(&said, "admission failed", Duration::from_secs(60));
    assert!(again.contains("retrying in"), "{again}");
    let starts = starts_in(&state);
    assert!(
        (2..=3).contains(&starts),
        "{starts} engines for two or three tries"
    );

    // `server stopping` is said where the bot's author looks.
    let engine_cmd = format!("cmd={}", engine());
    let (_idle, idle_said) = bridge_said(&dir, &url, &idle, 1, &[&engine_cmd]);
    wait_for_bot(&arena.addr, "idle", Duration::from_secs(120), |b| {
        b["connected"] == true
    });
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(arena.child.id() as i32, libc::SIGTERM) };
    let stopping = line_with(&idle_said, "server stopping", Duration::from_secs(60));
    assert!(stopping.contains("WARN"), "{stopping}");
    let _ = arena.child.wait();
}

/// Issue 35, item 5: a house bot's options are checked before the server
/// starts, in every pool whose game it plays, by the pre-event check of a
/// tournament: an unknown option or a value that does not fit exits 2, an
/// engine that cannot start 1, each naming the bot, its pool and the
/// option; the server never starts, so no game is recorded against it.
#[test]
fn a_house_bots_wrong_option_is_refused_before_the_server_starts() {
    let (dir, db, pools) = arena_dir("house-check", POOLS);
    add_bot(&db, "h1");
    let run = |settings: &str| {
        let out = arbiter()
            .current_dir(&dir.0)
            .args(["arena", "run", "--listen", "127.0.0.1:0", "--db", &s(&db)])
            .args(["--pools", &s(&pools)])
            .args(["--house".to_owned(), format!("name=h1 {settings}")])
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("arena at"),
            "the server must not start: {err}"
        );
        (out.status.code(), err)
    };
    let cmd = format!("cmd={}", engine());
    let (code, err) = run(&format!("{cmd} option.Levl=3"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("house bot h1 in pool") && err.contains("\"Levl\""),
        "{err}"
    );
    // Level is a spin from 1 to 20.
    let (code, err) = run(&format!("{cmd} option.Level=99"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("house bot h1") && err.contains("\"Level\"") && err.contains("1 to 20"),
        "{err}"
    );
    // A pool's option is checked with the bot's.
    let bad_pool = dir.path("bad-pool.json");
    std::fs::write(
        &bad_pool,
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1 option.Hash=0"}]"#,
    )
    .unwrap();
    let out = arbiter()
        .current_dir(&dir.0)
        .args(["arena", "run", "--listen", "127.0.0.1:0", "--db", &s(&db)])
        .args(["--pools", &s(&bad_pool)])
        .args(house("h1", &engine(), "option.Level=3"))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("house bot h1 in pool bohn") && err.contains("\"Hash\""),
        "{err}"
    );
    // An engine that cannot start: 1.
    let (code, err) = run("cmd=/nonexistent/engine");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("house bot h1"), "{err}");
    // Nothing was played: no game, no loss charged to h1.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let games: i64 = conn
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games, 0);
    // And a good one starts.
    let arena = start(&dir, &db, &pools, &house("h1", &engine(), "option.Level=3"));
    assert!(get_json(&arena.addr, "/api/arena/pools").is_array());
}

/// `--house-rate` refuses what cannot act; `arena prune` removes old
/// house games and the ladder after a restart is the one before.
#[test]
fn house_bots_are_paced_and_their_old_games_pruned_with_the_ratings_kept() {
    let (dir, db, pools) = arena_dir(
        "house-prune",
        r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]"#,
    );
    for bad in ["0", "-3", "lots"] {
        let out = arbiter()
            .current_dir(&dir.0)
            .args(["arena", "run", "--db", &s(&db), "--pools", &s(&pools)])
            .args(["--house-rate", bad])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("--house-rate") && err.contains("1 to 1000000"),
            "{err}"
        );
    }
    for name in ["h1", "h2", "h3"] {
        add_bot(&db, name);
    }
    let mut args = Vec::new();
    for (name, level) in [("h1", 1), ("h2", 2), ("h3", 3)] {
        args.extend(house(name, &engine(), &format!("option.Level={level}")));
    }
    // At 4 games an hour, a pair every half hour: three house bots play a
    // pair each, 6 games, then wait.
    args.extend(["--house-rate".into(), "4".into()]);
    let arena = start(&dir, &db, &pools, &args);
    let done = wait_for(&arena.addr, Duration::from_secs(240), |p| {
        finished(p) >= 6 && p[0]["playing"] == 0
    });
    std::thread::sleep(Duration::from_secs(3));
    let later = get_json(&arena.addr, "/api/arena/pools");
    assert_eq!(finished(&later), 6, "paced: {done} then {later}");
    // The ratings, not who is connected.
    let ladder = |addr: &str| {
        let rows = get_json(addr, "/api/arena/ladder?pool=bohn");
        let keys = [
            "name", "rating", "interval", "games", "wins", "draws", "losses",
        ];
        let kept: Vec<Vec<serde_json::Value>> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| keys.iter().map(|k| r[*k].clone()).collect())
            .collect();
        kept
    };
    let before = ladder(&arena.addr);
    drop(arena);
    // A prune while no server runs: everything before a time to come.
    let out = arbiter()
        .args(["arena", "prune", "--db", &s(&db), "--before", "2999-01-01"])
        .args(["--between", "h1", "--between", "h2", "--between", "h3"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("6 finished"), "{said}");
    // Restarted without house bots (so nothing plays): the same ladder.
    let arena = start(&dir, &db, &pools, &[]);
    let after = ladder(&arena.addr);
    assert_eq!(after.len(), 3, "{after:?}");
    assert_eq!(after, before);
    assert_eq!(finished(&get_json(&arena.addr, "/api/arena/pools")), 0);
    // Bad prunes: a time that is none, one bot, an unknown one.
    drop(arena);
    for (args, says) in [
        (vec!["--before", "soon"], "RFC 3339"),
        (
            vec!["--before", "2999-01-01", "--between", "h1"],
            "at least two",
        ),
        (
            vec![
                "--before",
                "2999-01-01",
                "--between",
                "h1",
                "--between",
                "nobody",
            ],
            "no such bot",
        ),
    ] {
        let out = arbiter()
            .args(["arena", "prune", "--db", &s(&db)])
            .args(&args)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{err}");
    }
}
