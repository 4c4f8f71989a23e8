//! `--live` on `arbiter tournament` and `arbiter match`, against real
//! processes: the page's JSON while the event runs, the replay links of
//! finished games, a WebSocket client that never reads (the event
//! completes with the same results as without `--live`, and the page is
//! dropped), the read-only guard, and a bind error before any game.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use crate::common;
use common::{get_json, request as get};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn bot(name: &str, mode: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--engine".to_owned(),
        format!("cmd={}", common::testbot()),
        format!("name={name}"),
    ];
    args.extend(mode.iter().map(|m| format!("arg={m}")));
    args
}

/// Four engines; `C` waits 30 ms a move, so its games keep the event going
/// while the test looks at the page (a hang guard, not a timing assertion).
fn four_engines() -> Vec<String> {
    let mut args = Vec::new();
    args.extend(bot("A", &["--mode", "random", "--seed", "1"]));
    args.extend(bot("B", &["--mode", "random", "--seed", "2"]));
    args.extend(bot("C", &["--mode", "slow", "--delay-ms", "30"]));
    args.extend(bot("D", &["--mode", "instant"]));
    args.extend(["--each", "tc=60+1"].map(String::from));
    args
}

fn tournament(dir: &Path, log: &str, live: bool) -> Command {
    let mut cmd = Command::new(ARBITER);
    cmd.current_dir(dir)
        .arg("tournament")
        .args(four_engines())
        .args(["--jsonout", log, "--stderr-dir", "stderr"]);
    if live {
        cmd.args(["--live", "127.0.0.1:0"]);
    }
    cmd
}

/// A running event, killed if the test fails early.
struct Event {
    child: Child,
    lines: BufReader<ChildStdout>,
    addr: String,
}

impl Drop for Event {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Event {
    fn start(cmd: &mut Command) -> Event {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the arbiter starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
        let first = next_line(&mut lines);
        let addr = first
            .strip_prefix("arbiter: live page at http://")
            .and_then(|rest| rest.strip_suffix("/live"))
            .unwrap_or_else(|| panic!("no live address in {first:?}"))
            .to_owned();
        Event { child, lines, addr }
    }

    /// Reads stdout up to the line starting with `prefix`.
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let line = next_line(&mut self.lines);
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    /// Waits for the end: exit status and stderr.
    fn finish(mut self) -> (i32, String) {
        let mut rest = String::new();
        let _ = self.lines.read_to_string(&mut rest);
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut stderr);
        }
        let status = self.child.wait().expect("waits");
        (status.code().unwrap_or(-1), stderr)
    }
}

fn next_line(lines: &mut BufReader<ChildStdout>) -> String {
    let mut line = String::new();
    let n = lines.read_line(&mut line).expect("reads stdout");
    assert!(n > 0, "the arbiter's output ended early");
    line.trim_end().to_owned()
}

/// Opens `/ws/live` with a tiny receive buffer and never reads past the
/// handshake: a stuck browser.
fn stuck_client(addr: &str) -> TcpStream {
    let mut stream = common::tiny_buffer_connection(addr);
    let handshake = format!(
        "GET /ws/live HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(handshake.as_bytes()).expect("sends");
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).expect("answer");
    assert_eq!(&head, b"HTTP/1.1 101", "the upgrade is accepted");
    stream
}

/// What must not depend on `--live`: each game's seats, result and moves.
fn games(path: &Path) -> Vec<(String, String, String, String, Vec<String>)> {
    let text = std::fs::read_to_string(path).expect("the results log");
    text.lines()
        .map(|l| {
            let g: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let s = |k: &str| g[k].as_str().unwrap_or_default().to_owned();
            let moves = g["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m["move"].as_str().unwrap_or_default().to_owned())
                .collect();
            (s("round"), s("south"), s("north"), s("result"), moves)
        })
        .collect()
}

#[test]
fn a_live_round_robin_serves_standings_and_replays_while_it_runs() {
    let s = common::Scratch::new("live", "standings");
    let mut event = Event::start(&mut tournament(&s.0, "live.jsonl", true));
    let addr = event.addr.clone();
    let first = event.until("Finished game");
    assert!(first.contains("/12"), "{first}");

    let r = get_json(&addr, "/api/live/standings");
    assert_eq!(r["format"], 1, "{r}");
    let n = r["games"].as_u64().expect("games");
    assert!(n >= 1, "{r}");
    let table = r["standings"].as_array().expect("standings");
    assert_eq!(table.len(), 4, "{r}");
    let points: f64 = table
        .iter()
        .map(|e| e["points"].as_f64().unwrap_or(-1.0))
        .sum();
    assert_eq!(points, n as f64, "each game shares one point: {r}");

    let snap = get_json(&addr, "/api/live/snapshot");
    assert_eq!(snap["event"]["source"], "tournament");
    assert_eq!(snap["event"]["total"], 12);
    assert!(
        snap["progress"]["done"].as_u64().unwrap_or(0) >= n,
        "{snap}"
    );
    let finished = snap["finished"].as_array().expect("finished");
    assert!(finished.len() as u64 >= n, "{snap}");
    // The first finished game links into the results log: its replay has
    // the moves the log has.
    let link = &finished[0];
    assert_eq!(link["log"], 0, "{link}");
    let index = link["summary"]["index"].as_u64().expect("index");
    let replay = get_json(&addr, &format!("/api/logs/0?game={index}"));
    let logged = games(&s.path("live.jsonl"));
    let moves: Vec<&str> = replay["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["move"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(moves, logged[index as usize].4, "replay of game {index}");
    assert_eq!(replay["summary"]["south"], link["summary"]["south"]);

    // Read-only, behind the same guard as `arbiter serve`.
    assert_eq!(get(&addr, "/ws/play", &[]).0, 404);
    assert_eq!(
        get(&addr, "/api/logs/0", &[("Origin", "http://evil.example")]).0,
        403
    );
    let (status, page) = get(&addr, "/live", &[]);
    assert_eq!(status, 200);
    assert!(page.contains("data-standings"), "the live page");

    event.until("Finished game 12/12");
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    s.assert_no_leftovers();
}

#[test]
fn a_client_that_never_reads_is_dropped_and_changes_no_result() {
    let s = common::Scratch::new("live", "stuck");
    // why 4 rounds: the page is dropped once a write has waited 10 s; C's
    // games keep the event going well past that (no timing is asserted).
    let mut event = Event::start(tournament(&s.0, "live.jsonl", true).args(["--rounds", "4"]));
    let _stuck = stuck_client(&event.addr);
    event.until("Finished game 48/48");
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("live page dropped"), "{stderr}");

    let plain = tournament(&s.0, "plain.jsonl", false)
        .args(["--rounds", "4"])
        .output()
        .expect("runs");
    assert!(plain.status.success(), "{plain:?}");
    assert_eq!(
        games(&s.path("live.jsonl")),
        games(&s.path("plain.jsonl")),
        "the same games with and without --live"
    );
    s.assert_no_leftovers();
}

#[test]
fn a_live_match_shows_the_head_to_head() {
    let s = common::Scratch::new("live", "match");
    let mut cmd = Command::new(ARBITER);
    cmd.current_dir(&s.0)
        .arg("match")
        .args(bot("A", &["--mode", "slow", "--delay-ms", "30"]))
        .args(bot("B", &["--mode", "random"]))
        .args([
            "--each",
            "tc=60+1",
            "--games",
            "4",
            "--stderr-dir",
            "stderr",
        ])
        .args(["--sprt", "elo0=0", "elo1=10"]);
    // A port known before the start, for --live-allow-host.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let watched_as = format!("watch.example:{port}");
    cmd.args(["--live", &format!("127.0.0.1:{port}")])
        .args(["--live-allow-host", &watched_as]);
    let mut event = Event::start(&mut cmd);
    event.until("Finished game 1/4");
    let r = get_json(&event.addr, "/api/live/standings");
    assert_eq!(r["match"]["first"], "A", "{r}");
    assert_eq!(r["match"]["sprt"]["elo1"], 10.0, "{r}");
    let snap = get_json(&event.addr, "/api/live/snapshot");
    assert_eq!(snap["event"]["source"], "match");
    // No results log: the finished games are listed, not linked.
    assert!(snap["finished"][0]["log"].is_null(), "{snap}");
    let host = |h: &str| get(&event.addr, "/api/live/standings", &[("Host", h)]).0;
    assert_eq!(host(&watched_as), 200);
    assert_eq!(host(&format!("other.example:{port}")), 403);
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    s.assert_no_leftovers();
}

#[test]
fn a_live_address_in_use_is_a_failure_before_any_game() {
    let s = common::Scratch::new("live", "bind");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("address").to_string();
    let out = tournament(&s.0, "live.jsonl", false)
        .args(["--live", &addr])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("--live {addr}: cannot listen")),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("Finished game"), "{stdout}");
    let logged = std::fs::read_to_string(s.path("live.jsonl")).unwrap_or_default();
    assert!(logged.is_empty(), "no game was played: {logged}");
    s.assert_no_leftovers();
}

#[test]
fn a_resumed_event_starts_the_page_from_the_games_already_played() {
    let s = common::Scratch::new("live", "resume");
    let first = tournament(&s.0, "live.jsonl", false)
        .output()
        .expect("runs");
    assert!(first.status.success(), "{first:?}");
    let mut cmd = tournament(&s.0, "live.jsonl", true);
    cmd.args(["--resume", "--rounds", "2"]);
    let mut event = Event::start(&mut cmd);
    // Printed after the page has the resumed games.
    event.until("Resuming: 12 game(s)");
    let r = get_json(&event.addr, "/api/live/standings");
    assert_eq!(r["games"], 12, "{r}");
    let snap = get_json(&event.addr, "/api/live/snapshot");
    assert_eq!(snap["finished_count"], 12, "{snap}");
    assert_eq!(snap["progress"]["done"], 12, "{snap}");
    assert_eq!(snap["progress"]["total"], 24, "{snap}");
    let listed: Vec<u64> = snap["finished"]
        .as_array()
        .expect("finished")
        .iter()
        .map(|f| f["summary"]["index"].as_u64().expect("index"))
        .collect();
    assert_eq!(listed, (0..12).collect::<Vec<_>>());
    event.until("Finished game 24/24");
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(games(&s.path("live.jsonl")).len(), 24);
    s.assert_no_leftovers();
}

/// A ply message of game `id` (the start position each time: only the
/// number of messages matters here).
fn ply_msg(id: u64, ply: u32) -> arbiter_board::live::LiveMsg {
    use arbiter_board::live::hub::{EngineLine, PlyPlayed};
    let start = mancala_rules::start_position(mancala_rules::GameId::Bohnenspiel);
    let board = arbiter_board::board::view(&start).expect("the start lays out");
    arbiter_board::live::LiveMsg::Ply(PlyPlayed {
        id,
        ply,
        side: "south",
        mv: "6".into(),
        time_ms: 1,
        board,
        steps: Vec::new(),
        clocks_ms: [None, None],
        engine: EngineLine::default(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_falls_behind_skips_ahead_to_a_snapshot_and_sees_the_end() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut live = arbiter_board::start_live(
        "127.0.0.1:0".parse().expect("addr"),
        &[],
        0,
        None,
        arbiter_net::front::Limits::default(),
        None,
    )
    .await
    .expect("binds");
    let addr: SocketAddr = live
        .url
        .strip_prefix("http://")
        .and_then(|r| r.strip_suffix("/live"))
        .and_then(|a| a.parse().ok())
        .expect("an address in the url");
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("small buffer");
    let mut stream = socket.connect(addr).await.expect("connects");
    let handshake = format!(
        "GET /ws/live HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(handshake.as_bytes()).await.expect("sends");
    // Wait until the page is subscribed (its first snapshot is on the way).
    while live.hub.subscribers() == 0 {
        tokio::task::yield_now().await;
    }
    // Far more than the page's queue and socket buffers hold while it does
    // not read: it must fall behind.
    for n in 1..=5000 {
        live.hub.publish(ply_msg(1, n));
    }
    live.event(arbiter_board::live::hub::EventMeta {
        event: "skip".into(),
        games: vec!["bohnenspiel".into()],
        engines: vec![],
        total: None,
        source: "test".into(),
    });
    let ending = {
        let hub = live.hub.clone();
        tokio::spawn(async move {
            hub.publish(arbiter_board::live::LiveMsg::Ended {
                message: "over".into(),
            });
            hub.flush(Duration::from_secs(60)).await;
        })
    };
    // Now read everything, to the server's close (a hang guard only).
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(120), stream.read_to_end(&mut bytes))
        .await
        .expect("the server closes the page after the end")
        .expect("reads");
    let text = String::from_utf8_lossy(&bytes);
    let snapshots = text.matches(r#"{"type":"snapshot""#).count();
    assert!(
        snapshots >= 2,
        "a fresh snapshot replaced the missed messages: {snapshots}"
    );
    let plies = text.matches(r#"{"type":"ply""#).count();
    assert!(plies < 5000, "some plies were skipped: {plies}");
    assert!(
        text.contains(r#"{"type":"ended","message":"over"}"#) || text.contains(r#""ended":"over""#),
        "the page learns that the event is over"
    );
    ending
        .await
        .expect("flush returns once the page has it all");
}

/// The reference engine at Level 5 (it reports its searches) as `name`.
fn reference(name: &str) -> Vec<String> {
    vec![
        "--engine".to_owned(),
        format!("cmd={}", common::engine()),
        format!("name={name}"),
        "option.Level=5".into(),
    ]
}

/// `arbiter match` of `games` Bohnenspiel games between the reference
/// engine (A) and `second` under `st=0.05`, with `--live` on a free port
/// and `extra` arguments.
fn live_match(dir: &Path, games: u32, second: Vec<String>, extra: &[&str]) -> Command {
    let mut cmd = Command::new(ARBITER);
    let games = games.to_string();
    cmd.current_dir(dir)
        .args(["match", "--game", "bohnenspiel", "--games", &games])
        .args(reference("A"))
        .args(second)
        .args(["--each", "st=0.05", "--stderr-dir", "stderr"])
        .args(["--live", "127.0.0.1:0"])
        .args(extra);
    cmd
}

/// The live page's WebSocket (a read timeout as a hang guard).
fn live_socket(addr: &str) -> tungstenite::WebSocket<TcpStream> {
    let stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let (ws, _) =
        tungstenite::client(format!("ws://{addr}/ws/live"), stream).expect("the live socket opens");
    ws
}

/// The socket's next JSON message (the event is still running).
fn next_message(ws: &mut tungstenite::WebSocket<TcpStream>) -> serde_json::Value {
    loop {
        match ws.read().expect("a message (the event is still running)") {
            tungstenite::Message::Text(t) => return serde_json::from_str(&t).expect("JSON"),
            _ => continue,
        }
    }
}

#[test]
fn a_search_in_progress_is_sent_before_its_move() {
    let s = common::Scratch::new("live", "thinking");
    // (B, a testbot answering after 50 ms, makes the games last seconds:
    // two reference engines at Level 5 could finish them all before the
    // page's socket opened, on a loaded machine.)
    let slow = bot("B", &["--mode", "slow", "--delay-ms", "50"]);
    let event = Event::start(&mut live_match(&s.0, 2, slow, &[]));
    let mut ws = live_socket(&event.addr);
    let mut next = || next_message(&mut ws);
    let thinking = loop {
        let m = next();
        if m["type"] == "thinking" {
            break m;
        }
    };
    assert!(thinking["engine"]["depth"].as_u64().is_some(), "{thinking}");
    assert!(["south", "north"].contains(&thinking["side"].as_str().unwrap_or("")));
    // Its move comes next for that game: the ply it was thinking about.
    let ply = loop {
        let m = next();
        if m["type"] == "ply" && m["id"] == thinking["id"] {
            break m;
        }
    };
    assert_eq!(ply["ply"], thinking["ply"], "{thinking} then {ply}");
    assert_eq!(ply["side"], thinking["side"]);
    drop(ws);
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    s.assert_no_leftovers();
}

#[test]
fn spectator_delay_shows_games_behind_without_searches_and_whole_once_over() {
    const DELAY: u64 = 4;
    let s = common::Scratch::new("live", "delay");
    // why the reference engine: it sends `info` lines while it searches,
    // which the page must not show (the test above sees them without the
    // delay); why a testbot answering after 50 ms against it: the
    // reference engine at Level 5 moves in a few ms, so that the event
    // could be over before the page's socket opened.
    let delay = DELAY.to_string();
    let extra = ["--live-linger", "60", "--spectator-delay", &delay];
    let slow = bot("B", &["--mode", "slow", "--delay-ms", "50"]);
    let mut event = Event::start(&mut live_match(&s.0, 2, slow, &extra));
    let mut ws = live_socket(&event.addr);
    let mut next = || next_message(&mut ws);
    let first = next();
    assert_eq!(first["type"], "snapshot", "{first}");
    assert_eq!(first["delay_plies"], DELAY, "{first}");
    // Each game's plies as the page was sent them, until both are over.
    // (a game already under way when the page opened: from its snapshot)
    let mut shown: std::collections::BTreeMap<u64, u64> = Default::default();
    for game in first["playing"].as_array().expect("playing") {
        assert!(game.get("thinking").is_none(), "{game}");
        let id = game["start"]["id"].as_u64().expect("an id");
        shown.insert(id, game["last"]["ply"].as_u64().unwrap_or(0));
    }
    let mut finished = first["finished_count"].as_u64().expect("finished_count");
    while finished < 2 {
        let m = next();
        match m["type"].as_str() {
            Some("thinking") => panic!("a search shown: {m}"),
            Some("ply") => {
                let id = m["id"].as_u64().expect("an id");
                let last = shown.entry(id).or_insert(0);
                assert_eq!(m["ply"], *last + 1, "plies shown in order: {m}");
                assert_eq!(m["engine"]["pv"], serde_json::json!([]), "{m}");
                *last += 1;
            }
            Some("game_finished") => {
                let id = m["id"].as_u64().expect("an id");
                let plies = m["summary"]["plies"].as_u64().expect("plies");
                let seen = shown.get(&id).copied().unwrap_or(0);
                // The page never got nearer than DELAY plies to the end.
                assert!(seen + DELAY <= plies, "{seen} of {plies} plies shown: {m}");
                assert!(plies > DELAY && seen > 0, "{seen} of {plies}: {m}");
                finished += 1;
            }
            _ => {}
        }
    }
    // Over (the page lingers): the JSON shows both games whole.
    event.until("arbiter: the live page stays at");
    let snap = get_json(&event.addr, "/api/live/snapshot");
    assert_eq!(snap["delay_plies"], DELAY, "{snap}");
    assert_eq!(snap["finished_count"], 2, "{snap}");
    assert_eq!(snap["playing"], serde_json::json!([]), "{snap}");
    for game in snap["finished"].as_array().expect("finished") {
        let id = game["id"].as_u64().expect("an id");
        assert!(shown[&id] + DELAY <= game["summary"]["plies"].as_u64().expect("plies"));
    }
    drop(event);
    s.assert_no_leftovers();
}

/// `GET path` on a server that may have gone (the event over): `None`
/// then; the status and body otherwise.
fn try_get(addr: &str, path: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    // A hang guard only.
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .ok()?;
    let text = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(text.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status = answer.split_whitespace().nth(1)?.parse().ok()?;
    let (_, body) = answer.split_once("\r\n\r\n")?;
    Some((status, body.to_owned()))
}

/// The games of a snapshot in progress that have played a ply.
fn under_way(snap: &serde_json::Value) -> Vec<serde_json::Value> {
    snap["playing"]
        .as_array()
        .map(|games| {
            games
                .iter()
                .filter(|g| g["last"]["ply"].as_u64().is_some_and(|p| p > 0))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// The first message of `/ws/live` (the socket then closed).
fn first_ws_message(addr: &str) -> Option<serde_json::Value> {
    let stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .ok()?;
    let (mut ws, _) = tungstenite::client(format!("ws://{addr}/ws/live"), stream).ok()?;
    let first = loop {
        match ws.read().ok()? {
            tungstenite::Message::Text(t) => break serde_json::from_str(&t).ok()?,
            _ => continue,
        }
    };
    let _ = ws.close(None);
    Some(first)
}

/// Checks a game in progress as a snapshot showed it (`playing[k]`)
/// against the results log: its latest move is the logged game's move at
/// that ply, and its board the rules' position after the moves so far.
fn check_against_log(game: &serde_json::Value, log: &[serde_json::Value]) {
    let start = &game["start"];
    let logged = log
        .iter()
        .find(|g| {
            g["round"] == start["round"]
                && g["south"] == start["south"]
                && g["north"] == start["north"]
        })
        .unwrap_or_else(|| panic!("no logged game for {start}"));
    let last = &game["last"];
    let ply = last["ply"].as_u64().expect("a ply") as usize;
    let moves: Vec<&str> = logged["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().unwrap_or_default())
        .collect();
    assert!(ply <= moves.len(), "ply {ply} of {} logged", moves.len());
    assert_eq!(
        last["move"],
        moves[ply - 1],
        "the move of ply {ply}: {game}"
    );
    let mut rules = mancala_rules::game_from_position(
        logged["start_position"].as_str().expect("a start position"),
    )
    .expect("the logged start");
    let mut mover = String::new();
    for mv in &moves[..ply] {
        mover = format!("{:?}", rules.side_to_move()).to_lowercase();
        rules.play(mv).expect("a logged move is legal");
    }
    assert_eq!(
        last["board"]["position"],
        rules.position_string(),
        "the position after ply {ply}: {game}"
    );
    assert_eq!(last["side"], mover.as_str(), "the mover of ply {ply}");
    assert_eq!(
        game["start"]["board"]["position"], logged["start_position"],
        "{game}"
    );
}

#[test]
fn with_no_page_open_the_snapshot_shows_each_game_at_its_current_ply() {
    let s = common::Scratch::new("live", "unwatched");
    let mut event = Event::start(&mut tournament(&s.0, "live.jsonl", true));
    let addr = event.addr.clone();
    // Polled with no WebSocket open (the page's or anyone's), until a few
    // games in progress have been seen past their first ply; the event's
    // end is the hang guard.
    let mut polled = Vec::new();
    let mut plies_seen = std::collections::HashSet::new();
    while polled.len() < 5 {
        let Some((200, body)) = try_get(&addr, "/api/live/snapshot") else {
            break;
        };
        let snap: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        for g in under_way(&snap) {
            let key = (g["start"]["id"].clone(), g["last"]["ply"].clone());
            if plies_seen.insert(format!("{} {}", key.0, key.1)) {
                polled.push(g);
            }
        }
        if !snap["ended"].is_null() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // The first /ws/live message as well: each game at its ply, at least
    // the one the poll just saw (read right after it).
    let mut first_messages = Vec::new();
    for _ in 0..50 {
        let Some((200, body)) = try_get(&addr, "/api/live/snapshot") else {
            break;
        };
        let snap: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        let Some(seen) = under_way(&snap).into_iter().next() else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let Some(first) = first_ws_message(&addr) else {
            break;
        };
        assert_eq!(first["type"], "snapshot", "{first}");
        let same = under_way(&first)
            .into_iter()
            .find(|g| g["start"] == seen["start"]);
        if let Some(g) = same {
            assert!(
                g["last"]["ply"].as_u64() >= seen["last"]["ply"].as_u64(),
                "the socket's snapshot is not behind the poll: {g} after {seen}"
            );
            first_messages.push(g);
            break;
        }
    }
    event.until("Finished game 12/12");
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !polled.is_empty(),
        "no game in progress was shown past its start"
    );
    assert!(
        !first_messages.is_empty(),
        "the socket's first message showed no game in progress past its start"
    );
    let log: Vec<serde_json::Value> = std::fs::read_to_string(s.path("live.jsonl"))
        .expect("the results log")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    for g in polled.iter().chain(&first_messages) {
        check_against_log(g, &log);
    }
    s.assert_no_leftovers();
}

/// The status and head of `GET path` (for a redirect's `Location`).
fn head_of(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let text = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(text.as_bytes()).expect("sends");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    let (head, _) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    (status, head.to_ascii_lowercase())
}

/// Each URL of docs/live.md's table for scripts (and the replay links the
/// page makes), requested while the event runs, answers as documented.
#[test]
fn every_url_docs_live_names_answers_as_documented() {
    let s = common::Scratch::new("live", "urls");
    let mut event = Event::start(&mut tournament(&s.0, "live.jsonl", true));
    let addr = event.addr.clone();
    event.until("Finished game 1/12");

    let (status, page) = get(&addr, "/live", &[]);
    assert_eq!(status, 200);
    assert!(page.contains("data-standings"), "the live page");
    let (status, head) = head_of(&addr, "/");
    assert!((300..400).contains(&status), "/ redirects: {head}");
    assert!(head.contains("\r\nlocation: /live"), "{head}");

    // The standings: the --standings-json object.
    let standings = get_json(&addr, "/api/live/standings");
    assert_eq!(standings["format"], 1, "{standings}");
    assert!(standings["standings"].is_array(), "{standings}");

    // The snapshot: what /ws/live sends first, without `type`.
    let snap = get_json(&addr, "/api/live/snapshot");
    for key in [
        "event",
        "standings",
        "progress",
        "playing",
        "finished",
        "finished_count",
        "ended",
        "problems",
    ] {
        assert!(snap.get(key).is_some(), "{key} in {snap}");
    }
    assert!(snap.get("type").is_none(), "{snap}");
    let first = first_ws_message(&addr).expect("/ws/live answers");
    assert_eq!(first["type"], "snapshot", "{first}");
    assert_eq!(first["event"], snap["event"]);

    // The results log: its games, and game N's replay.
    let listed = get_json(&addr, "/api/logs/0");
    let index = listed[0]["index"].as_u64().expect("a game listed");
    let replay = get_json(&addr, &format!("/api/logs/0?game={index}"));
    assert!(
        replay["plies"].as_array().is_some_and(|p| !p.is_empty()),
        "{replay}"
    );
    // The finished game's link and a graph point's link: the replay page.
    for link in [
        format!("/replay?log=0&game={index}"),
        format!("/replay?log=0&game={index}&ply=1"),
    ] {
        let (status, page) = get(&addr, &link, &[]);
        assert_eq!(status, 200, "{link}");
        assert!(page.contains("<html"), "{link}: {page}");
    }
    // A laid-out position as /api/view gives (the board of the messages).
    let board = &snap["finished"][0];
    assert!(board.is_object(), "{snap}");
    let start = mancala_rules::start_position(mancala_rules::GameId::Bohnenspiel);
    let view = get_json(
        &addr,
        &format!(
            "/api/view?position={}",
            start.replace(' ', "%20").replace('/', "%2F")
        ),
    );
    assert_eq!(view["position"], start.as_str(), "{view}");

    event.until("Finished game 12/12");
    let (code, stderr) = event.finish();
    assert_eq!(code, 0, "{stderr}");
    s.assert_no_leftovers();
}
