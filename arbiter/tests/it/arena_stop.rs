//! `arbiter arena run` stopped by real signals (crate::shutdown): a first
//! SIGTERM drains (no new game, the games in progress finish and are
//! stored, exit 0, none charged as a crash); a second one stops at once
//! and the games left are aborted, counted nowhere; a drain whose deadline
//! (`--drain`) runs out aborts the games left. No process is left behind.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{address_in, engine, get_json, Scratch};

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn add_bot(db: &Path, name: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["arena", "bot", "add", name, "--db", &s(db)])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A running `arena run` with two house bots of two slots each (the
/// reference engine, started in the scratch directory so that a process
/// left behind is found), killed when dropped.
struct Arena {
    child: Child,
    addr: String,
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Drop for Arena {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &Scratch, each: &str, extra: &[&str]) -> Arena {
    let (db, pools) = (dir.path("arena.sqlite"), dir.path("pools.json"));
    std::fs::write(
        &pools,
        format!(r#"[{{"name": "bohn", "game": "bohnenspiel", "each": "{each}"}}]"#),
    )
    .unwrap();
    for bot in ["ref-a", "ref-b"] {
        add_bot(&db, bot);
    }
    let house = |name: &str| format!("name={name} cmd={} {} slots=2", engine(), dir.dir_arg());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .args(["arena", "run", "--listen", "127.0.0.1:0"])
        .args(["--db", &s(&db), "--pools", &s(&pools)])
        .args(["--house", &house("ref-a"), "--house", &house("ref-b")])
        // why off: these tests time the stop; a bot's admission game would blur it.
        .args(["--admission", "off"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena run starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    Arena {
        child,
        addr: address_in(&line),
        _stdout: stdout,
    }
}

/// Waits until two games are in progress with a few plies played; their ids.
fn games_in_progress(arena: &Arena) -> Vec<i64> {
    let t0 = Instant::now();
    loop {
        let playing = get_json(&arena.addr, "/api/arena/playing");
        let ids: Vec<i64> = playing
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect();
        if ids.len() >= 2 {
            // why a moment: the games are under way, not only seated.
            std::thread::sleep(Duration::from_millis(500));
            return ids;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "no games: {playing}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn signal(child: &Child, signal: i32) {
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill takes two integers; the pid is our own live child.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// Waits (at most `limit`) for the server to exit: its status and stderr.
fn exits_within(arena: &mut Arena, limit: Duration) -> (Option<i32>, String) {
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = arena.child.try_wait().unwrap() {
            break status;
        }
        assert!(t0.elapsed() < limit, "the arena did not exit");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    if let Some(mut pipe) = arena.child.stderr.take() {
        let _ = pipe.read_to_string(&mut err);
    }
    (status.code(), err)
}

/// Every game of the database: `(id, state, termination)`.
fn games(db: &Path) -> Vec<(i64, String, Option<String>)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT id, state, termination FROM games ORDER BY id")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

#[test]
fn a_first_sigterm_drains_the_games_in_progress_and_exits_0() {
    let dir = Scratch::new("arena-stop", "drain");
    let mut arena = start(&dir, "tc=3+0.05", &[]);
    let ids = games_in_progress(&arena);
    signal(&arena.child, libc::SIGTERM);
    let (code, err) = exits_within(&mut arena, Duration::from_secs(90));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("stopping"), "{err}");
    let all = games(&dir.path("arena.sqlite"));
    for id in &ids {
        let game = all.iter().find(|g| g.0 == *id).expect("the game's row");
        assert_eq!(game.1, "finished", "{all:?}\n{err}");
    }
    // Nothing cut off, nothing charged to a bot by our own stop.
    for (id, state, termination) in &all {
        assert_eq!(state, "finished", "game {id}: {all:?}\n{err}");
        assert_ne!(termination.as_deref(), Some("crash"), "{all:?}\n{err}");
    }
    dir.assert_no_leftovers();
}

#[test]
fn a_second_signal_stops_at_once_and_the_games_left_count_nowhere() {
    let dir = Scratch::new("arena-stop", "twice");
    let mut arena = start(&dir, "tc=60+1", &[]);
    let ids = games_in_progress(&arena);
    signal(&arena.child, libc::SIGTERM);
    // why a moment: the drain has started (the games go on meanwhile).
    std::thread::sleep(Duration::from_millis(500));
    assert!(arena.child.try_wait().unwrap().is_none(), "exited at once");
    signal(&arena.child, libc::SIGTERM);
    let (code, err) = exits_within(&mut arena, Duration::from_secs(30));
    assert_eq!(code, Some(143), "{err}");
    let db = dir.path("arena.sqlite");
    let all = games(&db);
    for id in &ids {
        let game = all.iter().find(|g| g.0 == *id).expect("the game's row");
        // Aborted now, or left `playing` for the next start to abort.
        assert!(game.1 == "aborted" || game.1 == "playing", "{all:?}\n{err}");
    }
    for (_, state, termination) in &all {
        assert_ne!(state, "finished", "{all:?}\n{err}");
        assert_ne!(termination.as_deref(), Some("crash"), "{all:?}\n{err}");
    }
    dir.assert_no_leftovers();
    // Counted nowhere: the export has no game.
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["arena", "export", "--db", &s(&db), "--pool", "bohn"])
        .args(["--jsonout", &s(&dir.path("bohn.jsonl"))])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(dir.path("bohn.jsonl")).unwrap(), "");
}

#[test]
fn a_drain_whose_deadline_runs_out_aborts_the_games_left_and_exits_0() {
    let dir = Scratch::new("arena-stop", "deadline");
    let mut arena = start(&dir, "tc=60+1", &["--drain", "1"]);
    let ids = games_in_progress(&arena);
    signal(&arena.child, libc::SIGINT);
    let (code, err) = exits_within(&mut arena, Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("aborted"), "{err}");
    let all = games(&dir.path("arena.sqlite"));
    for id in &ids {
        let game = all.iter().find(|g| g.0 == *id).expect("the game's row");
        assert_eq!(game.1, "aborted", "{all:?}\n{err}");
    }
    for (_, state, termination) in &all {
        assert_ne!(state, "finished", "{all:?}\n{err}");
        assert_ne!(termination.as_deref(), Some("crash"), "{all:?}\n{err}");
    }
    dir.assert_no_leftovers();
}

/// A bot's token: `arena bot add` prints it alone on its last line.
fn add_bot_token(db: &Path, name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["arena", "bot", "add", name, "--db", &s(db)])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines().last().expect("a token line").trim().to_owned()
}

/// A first signal tells each connected remote bot why its connection ends:
/// the close frame's reason says the server is stopping (an idle bot's at
/// once, a playing one's once its game is over), and the server exits 0.
#[test]
fn a_first_signal_tells_each_connected_bot_the_server_is_stopping() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let dir = Scratch::new("arena-stop", "told");
    // The remote bot joins the house bots' pool: playing or idle at the
    // signal, it is told.
    let mut arena = start(&dir, "tc=3+0.05", &[]);
    let token = add_bot_token(&dir.path("arena.sqlite"), "far");
    let url = format!("ws://{}/umi", arena.addr);
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let client = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut ws = common::connect(&url, Some(&token)).await.expect("connects");
            let mut position = String::new();
            while let Some(frame) = ws.next().await {
                let Ok(frame) = frame else { return None };
                let line = match frame {
                    Message::Text(t) => t.as_str().to_owned(),
                    Message::Close(c) => return Some(c.map(|c| c.reason.to_string())),
                    _ => continue,
                };
                let _ = tx.send(line.clone());
                for r in common::umi_replies(&line, "far", &mut position) {
                    if ws.send(Message::text(r)).await.is_err() {
                        return None;
                    }
                }
            }
            None
        })
    });
    // Its handshake done: it is the arena's.
    let t0 = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line.starts_with("umi") => break,
            Ok(_) => {}
            Err(e) => panic!("the bot was never greeted: {e}"),
        }
        assert!(t0.elapsed() < Duration::from_secs(60));
    }
    games_in_progress(&arena);
    signal(&arena.child, libc::SIGTERM);
    let (code, err) = exits_within(&mut arena, Duration::from_secs(90));
    assert_eq!(code, Some(0), "{err}");
    let reason = client.join().expect("the client ends").flatten();
    assert!(
        reason
            .as_deref()
            .is_some_and(|r| r.contains("server stopping")),
        "{reason:?}\n{err}"
    );
    dir.assert_no_leftovers();
}
