//! `arbiter serve` as a real process, spoken to over plain HTTP (the
//! browser tests in tests/browser/ drive the page itself): the guard
//! against other origins and hosts, and clear errors for bad requests.

use crate::common;
use common::request;

fn serve() -> common::Served {
    common::serve::<&str>(&[])
}

#[test]
fn the_page_and_its_api_answer_our_own_origin() {
    let s = serve();
    let (status, body) = request(&s.addr, "/play", &[]);
    assert_eq!(status, 200);
    assert!(body.contains("data-move-input"), "the embedded page");
    let origin = format!("http://{}", s.addr);
    let (status, body) = request(&s.addr, "/api/config", &[("Origin", &origin)]);
    assert_eq!(status, 200);
    assert!(body.contains("kujifunza"), "{body}");
    let (status, body) = request(&s.addr, "/assets/board.js", &[]);
    assert_eq!(status, 200);
    assert!(body.contains("data-legal"));
}

#[test]
fn other_origins_and_hosts_are_refused() {
    let s = serve();
    let (status, body) = request(&s.addr, "/api/config", &[("Origin", "http://evil.example")]);
    assert_eq!(status, 403);
    assert!(body.contains("evil.example"), "{body}");
    let (status, body) = request(&s.addr, "/", &[("Host", "rebound.example:80")]);
    assert_eq!(status, 403);
    assert!(body.contains("rebound.example"), "{body}");
    let upgrade = [
        ("Origin", "http://evil.example"),
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    assert_eq!(request(&s.addr, "/ws/play", &upgrade).0, 403);
}

/// Every route the server has, pages, API and both WebSockets, is behind
/// the guard: none answers another site's page or a rebound host name.
#[test]
fn every_route_refuses_other_origins_and_hosts() {
    let s = serve();
    let routes = [
        "/",
        "/play",
        "/analyse",
        "/replay",
        "/live",
        "/assets/board.js",
        "/assets/style.css",
        "/api/config",
        "/api/start?game=bosh",
        "/api/view?position=bosh%204,4,4,4,4,4,4,4,4,4%20S%200/0%201",
        "/api/position?position=bosh%204,4,4,4,4,4,4,4,4,4%20S%200/0%201",
        "/api/export?position=bosh%204,4,4,4,4,4,4,4,4,4%20S%200/0%201",
        "/api/edit?position=bosh%204,4,4,4,4,4,4,4,4,4%20S%200/0%201&target=side&value=N",
        "/api/logs",
        "/api/logs/0",
        "/api/replay",
        "/ws/play",
        "/ws/analyse",
        "/no/such/page",
    ];
    let upgrade = [
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    let port = s.addr.rsplit(':').next().expect("a port").to_owned();
    let rebound = format!("rebound.example:{port}");
    for route in routes {
        for bad in [
            ("Origin", "http://evil.example"),
            ("Host", rebound.as_str()),
        ] {
            let mut headers = vec![bad];
            if route.starts_with("/ws/") {
                headers.extend(upgrade);
            }
            let (status, body) = request(&s.addr, route, &headers);
            assert_eq!(status, 403, "{route} with {bad:?}: {body}");
            assert!(body.starts_with("refused"), "{route}: {body}");
        }
    }
    // (Our own origin's sockets: every browser test opens them.)
}

/// `--log` takes several files at once, as `--log FILE…` says, or one per flag.
#[test]
fn log_takes_several_files() {
    let dir = common::Scratch::new("serve", "logs");
    let files: Vec<std::path::PathBuf> = ["a.pgn", "b.jsonl", "c.pgn"]
        .iter()
        .map(|n| {
            let p = dir.path(n);
            std::fs::write(&p, "").expect("writes");
            p
        })
        .collect();
    let served = common::serve(&[
        "--log".as_ref(),
        files[0].as_os_str(),
        files[1].as_os_str(),
        "--log".as_ref(),
        files[2].as_os_str(),
    ]);
    let logs = common::get_json(&served.addr, "/api/logs");
    let names: Vec<&str> = logs
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|l| l["name"].as_str())
        .collect();
    assert_eq!(names.len(), 3, "{logs}");
    for (name, file) in names.iter().zip(&files) {
        assert!(file.to_string_lossy().ends_with(name), "{name} {file:?}");
    }
}

/// `--engines-file` alone offers every engine of the file (the page lists
/// them); with `--engine conf=…` only those picked, as in a match.
#[test]
fn an_engines_file_alone_offers_all_its_engines() {
    let dir = common::Scratch::new("serve", "engines-file");
    let file = dir.path("engines.json");
    std::fs::write(
        &file,
        r#"[{"name":"alpha","command":"/bin/cat"},{"name":"beta","command":"/bin/cat"}]"#,
    )
    .expect("writes");
    let names = |served: &common::Served| -> Vec<String> {
        common::get_json(&served.addr, "/api/config")["engines"]
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|e| e["name"].as_str().map(str::to_owned))
            .filter(|n| n != "reference")
            .collect()
    };
    let all = common::serve(&["--engines-file".as_ref(), file.as_os_str()]);
    assert_eq!(names(&all), ["alpha", "beta"]);
    let picked = common::serve(&[
        "--engines-file".as_ref(),
        file.as_os_str(),
        "--engine".as_ref(),
        "conf=beta".as_ref(),
    ]);
    assert_eq!(names(&picked), ["beta"]);
}

#[test]
fn bad_requests_get_clear_errors() {
    let s = serve();
    let (status, body) = request(
        &s.addr,
        "/api/view?position=bohnenspiel%206,6%20S%200/0",
        &[],
    );
    assert_eq!(status, 422);
    assert!(body.starts_with("position:"), "{body}");
    let (status, body) = request(
        &s.addr,
        "/api/position?position=bosh%204,4,4,4,4,4,4,4,4,4%20S%200/0%201&moves=1%201",
        &[],
    );
    assert_eq!(status, 422);
    assert!(body.contains("move 2"), "{body}");
    let (status, body) = request(
        &s.addr,
        "/api/edit?position=kimasai&target=store:south&value=1",
        &[],
    );
    assert_eq!(status, 422);
    assert!(body.starts_with("edit:"), "{body}");
    let (status, _) = request(&s.addr, "/api/logs/7", &[]);
    assert_eq!(status, 404);
    assert_eq!(request(&s.addr, "/etc/passwd", &[]).0, 404);
}

/// Ctrl-C with no game in progress ends the server at once with 0 (the
/// drain has nothing to wait for), and its message does not promise logs:
/// serve keeps none (only match and tournament do).
#[test]
fn ctrl_c_ends_the_server_without_promising_logs() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter serve starts");
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut line).expect("the address line");
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    // why a request first: one answered means the command's first poll,
    // which also installs the signal handler, is over.
    let addr = common::address_in(&line);
    assert_eq!(request(&addr, "/api/config", &[]).0, 200);
    // SAFETY: kill(2) on our own child's pid; no memory involved.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().expect("the server ends");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr is text");
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(!err.contains("logs"), "{err}");
}

/// A page's socket: `/ws/play` with a blocking client (a hang guard of a
/// minute on each read; nothing is timed).
struct Page(tungstenite::WebSocket<std::net::TcpStream>);

impl Page {
    fn open(addr: &str) -> Page {
        let stream = std::net::TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .expect("timeout");
        let (ws, _) =
            tungstenite::client(format!("ws://{addr}/ws/play"), stream).expect("the socket opens");
        Page(ws)
    }

    fn send(&mut self, message: serde_json::Value) {
        self.0
            .send(tungstenite::Message::text(message.to_string()))
            .expect("send");
    }

    /// The next state (an error message fails the test).
    fn state(&mut self) -> serde_json::Value {
        loop {
            match self.0.read().expect("a message") {
                tungstenite::Message::Text(t) => {
                    let m: serde_json::Value = serde_json::from_str(&t).expect("JSON");
                    assert_eq!(m["type"], "state", "{m}");
                    return m;
                }
                _ => continue,
            }
        }
    }

    fn close(mut self) {
        let _ = self.0.close(None);
        while self.0.read().is_ok() {}
    }
}

/// The moves a state adds, checked to continue from the ply the page had.
fn new_moves(state: &serde_json::Value, had: usize) -> Vec<String> {
    let moves = state["moves"].as_array().expect("moves");
    let ply = state["ply"].as_u64().expect("ply") as usize;
    assert_eq!(
        ply - moves.len(),
        had,
        "a state continues the last: {state}"
    );
    moves
        .iter()
        .map(|m| m["move"].as_str().expect("move").to_owned())
        .collect()
}

fn instant_bots() -> common::Served {
    let bot = common::testbot();
    common::serve(&[
        "--engine".to_owned(),
        format!("cmd={bot}"),
        "arg=--mode".into(),
        "arg=instant".into(),
        "name=A".into(),
        "--engine".into(),
        format!("cmd={bot}"),
        "arg=--mode".into(),
        "arg=instant".into(),
        "name=B".into(),
    ])
}

#[test]
fn a_fast_engine_game_reaches_the_page_move_for_move_as_the_rules_play_it() {
    let s = instant_bots();
    let mut page = Page::open(&s.addr);
    for game in ["bohnenspiel", "bosh"] {
        page.send(serde_json::json!({
            "type": "start", "game": game, "tc": "st=1",
            "south": {"player": "A"}, "north": {"player": "B"},
        }));
        // States may be sent together (engines answer faster than the
        // server sends them): each carries the moves since the last.
        let mut moves = Vec::new();
        let last = loop {
            let state = page.state();
            moves.extend(new_moves(&state, moves.len()));
            if state["status"] != "ongoing" {
                break state;
            }
        };
        let start = mancala_rules::start_position(game.parse().expect("game id"));
        let mut rules = mancala_rules::game_from_position(&start).expect("start");
        for mv in &moves {
            rules
                .play(mv)
                .expect("every move the page got is legal in turn");
        }
        assert_eq!(last["board"]["position"], rules.position_string(), "{game}");
        let outcome = rules.outcome().expect("the rules end the game there");
        assert_eq!(last["status"], outcome.result.as_pgn(), "{game}");
        assert!(!moves.is_empty());
    }
    page.close();
}

#[test]
fn a_human_move_comes_back_at_once_and_the_engine_answers_after_it() {
    let s = instant_bots();
    let mut page = Page::open(&s.addr);
    page.send(serde_json::json!({
        "type": "start", "game": "bohnenspiel", "tc": "60+1",
        "south": {"player": "human"}, "north": {"player": "A"},
    }));
    let first = page.state();
    assert_eq!(new_moves(&first, 0), Vec::<String>::new());
    page.send(serde_json::json!({"type": "move", "move": "3"}));
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let state = page.state();
        seen.extend(new_moves(&state, seen.len()));
    }
    assert_eq!(seen[0], "3", "the human's move first");
    let mut rules = mancala_rules::game_from_position(&mancala_rules::start_position(
        mancala_rules::GameId::Bohnenspiel,
    ))
    .expect("start");
    for mv in &seen {
        rules.play(mv).expect("legal");
    }
    page.close();
}

#[test]
fn a_page_that_stops_reading_loses_its_game_and_its_engines() {
    let scratch = common::Scratch::new("serve", "stuck");
    let s = common::serve_bot(&scratch, "instant", &[]);
    let mut ws = common::stuck_page(&s.addr, "/ws/play");
    let mut send =
        |m: serde_json::Value| ws.send(tungstenite::Message::text(m.to_string())).is_ok();
    send(serde_json::json!({
        "type": "start", "game": "bohnenspiel", "tc": "60+1",
        "south": {"player": "human"}, "north": {"player": "S"},
    }));
    // The engine in the scratch directory (the server names it too).
    let engines = || {
        let mut found = common::processes_in(&scratch.0);
        found.retain(|(pid, _)| *pid != s.pid());
        found
    };
    let waited = std::time::Instant::now();
    while engines().is_empty() {
        assert!(waited.elapsed().as_secs() < 60, "the engine never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Each refused move is answered (an error and the state, about 1 KB):
    // more than the kernel's buffers hold (up to 4 MiB a socket), so the
    // server's writes wait.
    for _ in 0..20_000 {
        if !send(serde_json::json!({"type": "move", "move": "99"})) {
            break;
        }
    }
    // After SEND_TIMEOUT (10 s) of a write waiting, the page is taken for
    // gone: its engine ends (before: only when the connection closed).
    let waited = std::time::Instant::now();
    while !engines().is_empty() {
        assert!(
            waited.elapsed().as_secs() < 120,
            "the engine of a page that stopped reading is still running"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let (status, _) = request(&s.addr, "/api/config", &[]);
    assert_eq!(status, 200, "the server goes on serving");
}

/// The processes in `scratch` other than the server: its engines and theirs.
fn engines_of(scratch: &common::Scratch, s: &common::Served) -> Vec<(u32, String)> {
    let mut found = common::processes_in(&scratch.0);
    found.retain(|(pid, _)| *pid != s.pid());
    found
}

/// Waits (a minute at most) until `scratch` holds at least `n` processes.
fn wait_for_engines(scratch: &common::Scratch, s: &common::Served, n: usize) {
    let waited = std::time::Instant::now();
    while engines_of(scratch, s).len() < n {
        assert!(waited.elapsed().as_secs() < 60, "the engine never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Waits until no process is left in `scratch`; fails after `limit`.
fn assert_engines_end_within(
    scratch: &common::Scratch,
    s: &common::Served,
    limit: std::time::Duration,
    what: &str,
) {
    let waited = std::time::Instant::now();
    loop {
        let left = engines_of(scratch, s);
        if left.is_empty() {
            return;
        }
        assert!(
            waited.elapsed() < limit,
            "{what}: still running after {limit:?}: {left:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A socket (`/ws/play` or `/ws/analyse`) with a minute's hang guard.
fn socket(addr: &str, path: &str) -> tungstenite::WebSocket<std::net::TcpStream> {
    let stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .expect("timeout");
    tungstenite::client(format!("ws://{addr}{path}"), stream)
        .expect("the socket opens")
        .0
}

fn send(ws: &mut tungstenite::WebSocket<std::net::TcpStream>, m: serde_json::Value) {
    ws.send(tungstenite::Message::text(m.to_string()))
        .expect("send");
}

/// The next message of type `kind` (others are skipped).
fn next_of(
    ws: &mut tungstenite::WebSocket<std::net::TcpStream>,
    kinds: &[&str],
) -> serde_json::Value {
    loop {
        if let tungstenite::Message::Text(t) = ws.read().expect("a message") {
            let m: serde_json::Value = serde_json::from_str(&t).expect("JSON");
            if kinds.iter().any(|k| m["type"] == *k) {
                return m;
            }
        }
    }
}

/// A page's start of a game of `south` against `north`; the state or the
/// error it gets.
fn start_game(
    ws: &mut tungstenite::WebSocket<std::net::TcpStream>,
    south: &str,
    north: &str,
) -> serde_json::Value {
    send(
        ws,
        serde_json::json!({
            "type": "start", "game": "bohnenspiel", "tc": "60+1",
            "south": {"player": south}, "north": {"player": north},
        }),
    );
    next_of(ws, &["state", "error"])
}

/// `--max-engines` and `--max-engines-per-page`: a start beyond either is
/// refused with a message naming the cap, and the slots come back when a
/// page closes (before: 200 play sockets started 400 engines).
#[test]
fn the_engine_caps_refuse_with_a_message_and_free_with_the_page() {
    let scratch = common::Scratch::new("serve", "caps");
    let s = common::serve_bot(
        &scratch,
        "silent",
        &["--max-engines", "2", "--max-engines-per-page", "1"],
    );
    let mut one = socket(&s.addr, "/ws/play");
    let refused = start_game(&mut one, "S", "S");
    assert_eq!(refused["type"], "error", "{refused}");
    let message = refused["message"].as_str().expect("a message");
    assert!(message.contains("--max-engines-per-page"), "{message}");
    assert_eq!(start_game(&mut one, "human", "S")["type"], "state");
    let mut two = socket(&s.addr, "/ws/analyse");
    send(
        &mut two,
        serde_json::json!({"type": "engine", "engine": "S"}),
    );
    assert_eq!(next_of(&mut two, &["engine", "error"])["type"], "engine");
    // Two engines run: a third page is refused, by the server's cap.
    let mut three = socket(&s.addr, "/ws/play");
    let refused = start_game(&mut three, "human", "S");
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(message.contains("--max-engines)"), "{refused}");
    // A page closes: its engine ends and its slot comes back.
    let _ = one.close(None);
    drop(one);
    let waited = std::time::Instant::now();
    loop {
        let answer = start_game(&mut three, "human", "S");
        if answer["type"] == "state" {
            break;
        }
        assert!(
            waited.elapsed().as_secs() < 60,
            "no slot came back: {answer}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// An analysis tab closed while its engine starts (no `umiok` yet, under a
/// long `--handshake-timeout`) or while its last search ignores `stop`:
/// its engine ends at once (before: after the handshake timeout, or the
/// 10 s stop grace). The guard, 4 s, is well under either.
#[test]
fn a_closed_analysis_tab_ends_its_engine_at_once_whatever_it_does() {
    let limit = std::time::Duration::from_secs(4);
    let scratch = common::Scratch::new("serve", "analyse-close");
    let s = common::serve_bot(&scratch, "no-umiok", &["--handshake-timeout", "300"]);
    let mut tab = socket(&s.addr, "/ws/analyse");
    send(
        &mut tab,
        serde_json::json!({"type": "engine", "engine": "S"}),
    );
    wait_for_engines(&scratch, &s, 1);
    drop(tab);
    assert_engines_end_within(&scratch, &s, limit, "an engine still starting");
    drop(s);

    let scratch = common::Scratch::new("serve", "analyse-stop");
    let s = common::serve_bot(&scratch, "ignore-stop", &[]);
    let mut tab = socket(&s.addr, "/ws/analyse");
    send(
        &mut tab,
        serde_json::json!({"type": "engine", "engine": "S"}),
    );
    assert_eq!(next_of(&mut tab, &["engine", "error"])["type"], "engine");
    let go = serde_json::json!({
        "type": "go", "position": "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "moves": "",
    });
    send(&mut tab, go.clone());
    assert_eq!(
        next_of(&mut tab, &["searching", "error"])["type"],
        "searching"
    );
    // A new search: the server stops this one and waits for its bestmove,
    // which never comes; the tab closes meanwhile.
    send(&mut tab, go);
    std::thread::sleep(std::time::Duration::from_millis(200));
    drop(tab);
    assert_engines_end_within(&scratch, &s, limit, "an engine ignoring stop");
}

/// A page that stops reading while its game is still starting (its engine
/// has not answered `umi`): the "still starting" answers to its messages
/// fill up, the send limit takes it for gone, and its engine ends (before:
/// kept for as long as the handshake could take).
#[test]
fn a_page_that_stops_reading_while_its_game_starts_loses_its_engine() {
    let scratch = common::Scratch::new("serve", "stuck-start");
    let s = common::serve_bot(&scratch, "no-umiok", &["--handshake-timeout", "600"]);
    let mut ws = common::stuck_page(&s.addr, "/ws/play");
    let mut send =
        |m: &serde_json::Value| ws.send(tungstenite::Message::text(m.to_string())).is_ok();
    send(&serde_json::json!({
        "type": "start", "game": "bohnenspiel", "tc": "60+1",
        "south": {"player": "human"}, "north": {"player": "S"},
    }));
    wait_for_engines(&scratch, &s, 1);
    // Each message is answered with an error (about 90 bytes), never read.
    let hello = serde_json::json!({"type": "move", "move": "1"});
    for _ in 0..200_000 {
        if !send(&hello) {
            break;
        }
    }
    assert_engines_end_within(
        &scratch,
        &s,
        std::time::Duration::from_secs(120),
        "the engine of a page that stopped reading while it started",
    );
    assert_eq!(request(&s.addr, "/api/config", &[]).0, 200);
}

/// SIGINT, SIGTERM and SIGHUP of `serve`, twice each (it was
/// intermittent), with an analysis running (no game: the drain stops it at
/// once and exits 0): every process of its engines ends, the grandchild
/// that left its engine's process group (`setsid`) too.
#[test]
fn every_descendant_of_an_engine_ends_with_the_server_on_each_signal() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP].repeat(2) {
        let scratch = common::Scratch::new("serve", &format!("signal-{signal}"));
        let mut s = common::serve_bot(&scratch, "setsid-child", &[]);
        let mut tab = socket(&s.addr, "/ws/analyse");
        send(
            &mut tab,
            serde_json::json!({"type": "engine", "engine": "S"}),
        );
        assert_eq!(next_of(&mut tab, &["engine", "error"])["type"], "engine");
        // The engine and its grandchild (`sleep`, in a session of its own).
        wait_for_engines(&scratch, &s, 2);
        // SAFETY: kill(2) on our own child's pid; no memory involved.
        unsafe { libc::kill(s.pid() as i32, signal) };
        // The analysis page is told, and its socket closed.
        let told = next_of(&mut tab, &["stopping", "error"]);
        assert_eq!(told["type"], "stopping", "{told}");
        let status = s.wait();
        assert_eq!(status.code(), Some(0), "signal {signal}");
        drop(tab);
        scratch.assert_no_leftovers();
    }
}

/// A SIGTERM with no game in progress (an engine kept by a page whose game
/// has ended): the server exits 0 at once and no engine process is left.
#[test]
fn a_first_signal_with_no_game_in_progress_exits_0_at_once() {
    let scratch = common::Scratch::new("serve", "drain-idle");
    let mut s = common::serve_bot(&scratch, "instant", &[]);
    let mut page = socket(&s.addr, "/ws/play");
    // An engine game of instant bots: it ends, its engines are kept.
    let mut state = start_game(&mut page, "S", "S");
    while state["status"] == "ongoing" {
        state = next_of(&mut page, &["state", "error"]);
        assert_eq!(state["type"], "state", "{state}");
    }
    wait_for_engines(&scratch, &s, 2);
    // SAFETY: kill(2) on our own child's pid; no memory involved.
    unsafe { libc::kill(s.pid() as i32, libc::SIGTERM) };
    // why a minute: a hang guard, not a timing (the drain's default is 600 s).
    let status = s.wait_within(std::time::Duration::from_secs(60));
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    scratch.assert_no_leftovers();
}

/// A human's game in progress at SIGTERM: the page is told, new sockets
/// are refused, the game goes on (a move is answered by the engine), and
/// when the page closes the server exits 0 with no engine left.
#[test]
fn a_first_signal_lets_a_game_in_progress_finish_then_exits_0() {
    let scratch = common::Scratch::new("serve", "drain-game");
    let mut s = common::serve_bot(&scratch, "instant", &[]);
    let mut page = socket(&s.addr, "/ws/play");
    let first = start_game(&mut page, "human", "S");
    assert_eq!(first["type"], "state", "{first}");
    // SAFETY: kill(2) on our own child's pid; no memory involved.
    unsafe { libc::kill(s.pid() as i32, libc::SIGTERM) };
    let told = next_of(&mut page, &["stopping", "error"]);
    assert_eq!(told["type"], "stopping", "{told}");
    assert!(
        told["message"]
            .as_str()
            .unwrap_or_default()
            .contains("server stopping"),
        "{told}"
    );
    // A new game, on this page or another, is refused.
    for path in ["/ws/play", "/ws/analyse"] {
        let mut other = socket(&s.addr, path);
        let refused = next_of(&mut other, &["error", "state", "engine"]);
        assert_eq!(refused["type"], "error", "{path}: {refused}");
        assert!(
            refused["message"]
                .as_str()
                .unwrap_or_default()
                .contains("server stopping"),
            "{path}: {refused}"
        );
    }
    let refused = start_game(&mut page, "human", "S");
    assert_eq!(refused["type"], "error", "{refused}");
    // The game in progress goes on: the human's move, then the engine's.
    send(&mut page, serde_json::json!({"type": "move", "move": "3"}));
    let mut seen = 0;
    while seen < 2 {
        let state = next_of(&mut page, &["state", "error"]);
        assert_eq!(state["type"], "state", "{state}");
        seen = state["ply"].as_u64().expect("ply");
    }
    assert!(
        s.wait_within(std::time::Duration::ZERO).is_none(),
        "still up"
    );
    // The page leaves: the game ends, and the drain with it.
    let _ = page.close(None);
    drop(page);
    let status = s.wait_within(std::time::Duration::from_secs(60));
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    scratch.assert_no_leftovers();
}

/// A second signal during the drain stops at once: 128 + SIGTERM, and the
/// game's engine is gone.
#[test]
fn a_second_signal_stops_at_once() {
    let scratch = common::Scratch::new("serve", "drain-twice");
    let mut s = common::serve_bot(&scratch, "instant", &[]);
    let mut page = socket(&s.addr, "/ws/play");
    assert_eq!(start_game(&mut page, "human", "S")["type"], "state");
    // SAFETY: kill(2) on our own child's pid; no memory involved.
    unsafe { libc::kill(s.pid() as i32, libc::SIGTERM) };
    assert_eq!(next_of(&mut page, &["stopping"])["type"], "stopping");
    // SAFETY: as above.
    unsafe { libc::kill(s.pid() as i32, libc::SIGTERM) };
    let status = s.wait_within(std::time::Duration::from_secs(60));
    assert_eq!(status.and_then(|s| s.code()), Some(128 + libc::SIGTERM));
    drop(page);
    scratch.assert_no_leftovers();
}

/// `--drain`: a game still in progress when it runs out is ended, the
/// server exits 0 and no engine is left (the human never moved).
#[test]
fn a_game_still_in_progress_at_the_drain_deadline_is_ended_and_the_server_exits_0() {
    let scratch = common::Scratch::new("serve", "drain-deadline");
    let mut s = common::serve_bot(&scratch, "instant", &["--drain", "1"]);
    let mut page = socket(&s.addr, "/ws/play");
    assert_eq!(start_game(&mut page, "human", "S")["type"], "state");
    wait_for_engines(&scratch, &s, 1);
    // SAFETY: kill(2) on our own child's pid; no memory involved.
    unsafe { libc::kill(s.pid() as i32, libc::SIGTERM) };
    assert_eq!(next_of(&mut page, &["stopping"])["type"], "stopping");
    let status = s.wait_within(std::time::Duration::from_secs(60));
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    drop(page);
    scratch.assert_no_leftovers();
}

/// `--drain` takes seconds or 0, and says so when given something else.
#[test]
fn a_bad_drain_is_refused_naming_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--listen", "127.0.0.1:0", "--drain", "soon"])
        .output()
        .expect("arbiter runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--drain"), "{err}");
}
