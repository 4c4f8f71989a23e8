//! Kalah bots speaking the Kalah Game Protocol (KGP) as remote engines
//! (`--engine remote=<id> proto=kgp`), on loopback sockets. The bot
//! (`common/kgp.rs`) is written from KGP's public description (the freeplay mode: `kgp 1 0 0`,
//! `set auth:token`, `mode freeplay`, `state <board>`, `move`, `yield`,
//! `stop`, `ping`/`pong`, `goodbye`), not from the arbiter's code: it reads
//! the board literal, plays as "south" and numbers pits from 1. It speaks
//! KGP over either of the protocol's transports: TCP (a line per `\r\n`) or
//! a WebSocket (a line per text frame).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Command;

use crate::common;

use common::kgp::{bot, Conn, Style, Transport};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");
const TOKEN: &str = "kgp-bot-token-0123456789";

/// `arbiter match` of kbot (a KGP bot over TCP, its time keys `tc`) against
/// the reference engine; with the bot's `style`. The arbiter's output and
/// the log's games.
fn kgp_match(
    s: &common::Scratch,
    style: Style,
    games: u32,
    tc: &str,
) -> (std::process::Output, Vec<serde_json::Value>, Vec<String>) {
    kgp_match_over(s, style, games, tc, false)
}

/// [`kgp_match`], the bot connecting over a WebSocket to `/kgp` on the
/// remote listener when `websocket`, else over TCP to `--kgp-listen`.
fn kgp_match_over(
    s: &common::Scratch,
    style: Style,
    games: u32,
    tc: &str,
    websocket: bool,
) -> (std::process::Output, Vec<serde_json::Value>, Vec<String>) {
    let tokens = s.path("tokens.json");
    std::fs::write(&tokens, format!(r#"{{"kbot": "{TOKEN}"}}"#)).unwrap();
    let log = s.path("kgp.jsonl");
    // why port 0 and the printed address: a port picked by the test and
    // freed before the arbiter binds it may be taken meanwhile (another
    // test's listener, or the bot's own first attempts), and the bot then
    // talks to something else while the arbiter waits for it.
    let mut child = Command::new(ARBITER)
        .current_dir(&s.0)
        .args(["match", "--game", "kalah", "--games", &games.to_string()])
        .args(["--engine", "remote=kbot", "proto=kgp"])
        .args(tc.split_whitespace())
        .args(["--engine", &format!("cmd={}", common::engine()), "depth=2"])
        .args(["--remote-listen", "127.0.0.1:0"])
        .args(["--kgp-listen", "127.0.0.1:0"])
        .args(["--remote-tokens", &tokens.display().to_string()])
        .args(["--remote-wait", "30", "--remote-grace", "0"])
        .args(["--jsonout", &log.display().to_string()])
        .args(["--debug", &s.path("traffic.log").display().to_string()])
        .args(["--stderr-dir", &s.path("logs").display().to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arbiter runs");
    let mut err_pipe = child.stderr.take().expect("stderr");
    let stderr = std::thread::spawn(move || {
        let mut err = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut err);
        err
    });
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut printed = String::new();
    let Some((tcp, ws)) = kgp_addresses(&mut stdout, &mut printed) else {
        let _ = child.wait();
        let err = stderr.join().unwrap_or_default();
        panic!(
            "the arbiter never said where KGP bots connect: {printed}{}",
            String::from_utf8_lossy(&err)
        );
    };
    let bot = bot(
        if websocket {
            Transport::WebSocket(ws)
        } else {
            Transport::Tcp(tcp)
        },
        style,
        TOKEN,
    );
    std::io::Read::read_to_string(&mut stdout, &mut printed).expect("stdout");
    let status = child.wait().expect("the arbiter ends");
    let out = std::process::Output {
        status,
        stdout: printed.into_bytes(),
        stderr: stderr.join().unwrap_or_default(),
    };
    let seen = bot.join().expect("the bot ends");
    let games = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a game a line"))
        .collect();
    (out, games, seen)
}

/// Reads the arbiter's output (kept in `printed`) up to its line
/// `arbiter: KGP bots connect to tcp://ADDR or ws://ADDR/kgp`: the TCP
/// address and the WebSocket URL; `None` if the output ends first.
fn kgp_addresses(
    stdout: &mut BufReader<std::process::ChildStdout>,
    printed: &mut String,
) -> Option<(String, String)> {
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap_or(0) == 0 {
            return None;
        }
        printed.push_str(&line);
        if let Some(rest) = line
            .trim()
            .strip_prefix("arbiter: KGP bots connect to tcp://")
        {
            let (tcp, ws) = rest.split_once(" or ")?;
            return Some((tcp.to_owned(), ws.to_owned()));
        }
    }
}

fn verify(log: &Path) {
    let verify = Command::new(ARBITER)
        .args(["verify", &log.display().to_string()])
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
}

/// The side kbot played in `game`.
fn kbot_side(game: &serde_json::Value) -> &'static str {
    if game["south"] == "kbot" {
        "South"
    } else {
        assert_eq!(game["north"], "kbot");
        "North"
    }
}

#[test]
fn a_kgp_bot_plays_a_match_against_the_reference_engine_and_the_log_verifies() {
    let s = common::Scratch::new("kgp", "match");
    plays_a_match_that_verifies(&s, false);
}

#[test]
fn a_kgp_bot_over_a_websocket_plays_a_match_and_the_log_verifies() {
    let s = common::Scratch::new("kgp", "websocket");
    plays_a_match_that_verifies(&s, true);
}

/// Two games of the bot (over a WebSocket or TCP) against the reference
/// engine: both seats on one connection, the bot's own moves in the log,
/// the log verified.
fn plays_a_match_that_verifies(s: &common::Scratch, websocket: bool) {
    let (out, games, seen) = kgp_match_over(s, Style::Plays, 2, "st=0.3 timemargin=300", websocket);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("arbiter: KGP bots connect to tcp://127.0.0.1:"),
        "{stdout}"
    );
    assert!(stdout.contains("/kgp\n"), "{stdout}");
    assert_eq!(games.len(), 2, "{stdout}");
    for g in &games {
        assert_eq!(g["game"], "kalah");
        assert_eq!(g["termination"]["kind"], "rules", "{g}");
    }
    // Both seats, on one connection.
    let sides: Vec<_> = games.iter().map(kbot_side).collect();
    assert!(
        sides.contains(&"South") && sides.contains(&"North"),
        "{sides:?}"
    );
    verify(&s.path("kgp.jsonl"));
    // Each of the bot's moves is the last of the two it sent: its highest
    // pit with seeds, as North too (where `move k` is hole 6 + k).
    for g in &games {
        let mut game = mancala_rules::new_game(mancala_rules::GameId::Kalah);
        let mut checked = 0;
        for m in g["moves"].as_array().expect("moves") {
            let mv = m["move"].as_str().expect("a move");
            if game.side_to_move().to_string() == kbot_side(g) {
                let legal = game.legal_moves();
                assert_eq!(Some(mv), legal.last().map(String::as_str), "{g}");
                checked += 1;
            }
            game.play(mv).expect("a legal move");
        }
        assert!(checked > 3, "{g}");
    }
    // The bot got boards, the server's stops (for the requests it did not
    // yield) and a goodbye at the end.
    assert!(seen[0] == "kgp 1 0 0", "{seen:?}");
    assert!(seen.iter().any(|l| l.contains(" state <6,")), "{seen:?}");
    assert!(seen.iter().any(|l| l.ends_with(" stop")), "{seen:?}");
    assert_eq!(seen.last().map(String::as_str), Some("goodbye"));
    s.assert_no_leftovers();
}

#[test]
fn a_kgp_bot_that_moves_an_empty_pit_loses_by_illegal_move() {
    let s = common::Scratch::new("kgp", "illegal");
    let (out, games, _) = kgp_match(&s, Style::Empty, 1, "st=0.5 timemargin=300");
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let g = &games[0];
    assert_eq!(g["termination"]["kind"], "illegal_move", "{g}");
    assert_eq!(g["termination"]["side"], kbot_side(g), "{g}");
    let result = if kbot_side(g) == "South" {
        "0-1"
    } else {
        "1-0"
    };
    assert_eq!(g["result"], result, "{g}");
    verify(&s.path("kgp.jsonl"));
}

/// How many of `game`'s moves kbot played, and how many of those are
/// marked as KGP's random move (the reference engine's never are).
fn kbot_moves(game: &serde_json::Value) -> (usize, usize) {
    let start = game["start_position"].as_str().unwrap();
    let mut g = mancala_rules::game_from_position(start).unwrap();
    let kbot = if kbot_side(game) == "South" {
        mancala_rules::Side::South
    } else {
        mancala_rules::Side::North
    };
    let (mut mine, mut random) = (0, 0);
    for m in game["moves"].as_array().unwrap() {
        let mover = g.side_to_move();
        if m["kgp_random"] == true {
            assert_eq!(mover, kbot, "only kbot's moves are KGP's random ones: {m}");
            random += 1;
        }
        mine += usize::from(mover == kbot);
        g.play(m["move"].as_str().unwrap()).unwrap();
    }
    (mine, random)
}

/// The states kbot was sent (`<id> state`), each once, and how many lines
/// sent one again.
fn states(seen: &[String]) -> (std::collections::BTreeSet<String>, usize) {
    let mut ids = std::collections::BTreeSet::new();
    let mut again = 0;
    for l in seen {
        if let Some((id, _)) = l.split_once(" state <") {
            again += usize::from(!ids.insert(id.to_owned()));
        }
    }
    (ids, again)
}

/// No `ping` while a state was out: between `<id> state` and its
/// `<n>@<id> stop` (a bot that never answers is always stopped).
fn assert_no_ping_during_a_state(seen: &[String]) {
    let mut out: Option<String> = None;
    for l in seen {
        if let Some((id, _)) = l.split_once(" state <") {
            out = Some(id.to_owned());
        } else if l.ends_with(" stop") {
            out = None;
        } else if l.ends_with(" ping") {
            assert!(
                out.is_none(),
                "a ping while state {out:?} was out: {seen:?}"
            );
        }
    }
}

#[test]
fn a_kgp_bot_that_never_moves_gets_kgp_s_random_moves_never_a_time_loss() {
    let s = common::Scratch::new("kgp", "silent");
    let (out, games, seen) = kgp_match(&s, Style::Silent, 1, "st=0.5 timemargin=300");
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let g = &games[0];
    assert_ne!(g["termination"]["kind"], "time_forfeit", "{g}");
    assert!(g["termination"]["side"].is_null(), "no fault: {g}");
    // Every one of its moves is KGP's random move, marked as such.
    let (mine, random) = kbot_moves(g);
    assert!(
        mine > 0 && random == mine,
        "{mine} moves, {random} random: {g}"
    );
    // Each state was sent again while no move came (every 150 ms of its
    // 450 ms budget), then stopped; no ping meanwhile.
    let (ids, again) = states(&seen);
    assert!(
        again >= ids.len(),
        "{} states, {again} sent again: {seen:?}",
        ids.len()
    );
    assert_no_ping_during_a_state(&seen);
    // The traffic log says why.
    let traffic = std::fs::read_to_string(s.path("traffic.log")).unwrap();
    assert!(
        traffic.contains("info string kgp: no move before stop; random move"),
        "the reason is in the traffic log"
    );
    verify(&s.path("kgp.jsonl"));
    s.assert_no_leftovers();
}

/// On a whole-game clock of one second, the random moves land within the
/// budget's reserve: two games, no time loss.
#[test]
fn a_silent_kgp_bot_on_a_one_second_clock_never_loses_on_time() {
    let s = common::Scratch::new("kgp", "silent-clock");
    let (out, games, _) = kgp_match(&s, Style::Silent, 2, "tc=1");
    assert_eq!(games.len(), 2, "{}", String::from_utf8_lossy(&out.stdout));
    for g in &games {
        assert!(g["termination"]["side"].is_null(), "no fault: {g}");
        let (mine, random) = kbot_moves(g);
        assert!(
            mine > 0 && random == mine,
            "{mine} moves, {random} random: {g}"
        );
    }
    verify(&s.path("kgp.jsonl"));
}

#[test]
fn a_kgp_bot_that_answers_only_after_stop_gets_random_moves_its_late_ones_ignored() {
    let s = common::Scratch::new("kgp", "after-stop");
    let (out, games, seen) = kgp_match(&s, Style::AfterStop, 1, "st=0.3 timemargin=300");
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let g = &games[0];
    assert!(g["termination"]["side"].is_null(), "no fault: {g}");
    let (mine, random) = kbot_moves(g);
    assert!(
        mine > 0 && random == mine,
        "{mine} moves, {random} random: {g}"
    );
    // A late move is ignored without a word (KGP).
    assert!(!seen.iter().any(|l| l.contains("error")), "{seen:?}");
    verify(&s.path("kgp.jsonl"));
}

#[test]
fn a_kgp_bot_that_loses_each_state_once_answers_the_one_sent_again() {
    let s = common::Scratch::new("kgp", "loses-first");
    let (out, games, seen) = kgp_match(&s, Style::LosesFirst, 1, "st=0.6 timemargin=300");
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let g = &games[0];
    assert!(g["termination"]["side"].is_null(), "no fault: {g}");
    // Every move its own: the state came again in time.
    let (mine, random) = kbot_moves(g);
    assert!(
        mine > 0 && random == 0,
        "{mine} moves, {random} random: {g}"
    );
    let (ids, again) = states(&seen);
    assert!(
        again >= ids.len(),
        "{} states, {again} sent again",
        ids.len()
    );
    verify(&s.path("kgp.jsonl"));
}

#[test]
fn moves_for_states_never_sent_are_errors_and_the_game_goes_on() {
    let s = common::Scratch::new("kgp", "unsent");
    let (out, games, seen) = kgp_match(&s, Style::Unsent, 1, "st=0.5 timemargin=300");
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let g = &games[0];
    assert!(g["termination"]["side"].is_null(), "no fault: {g}");
    let (mine, random) = kbot_moves(g);
    assert!(
        mine > 0 && random == 0,
        "{mine} moves, {random} random: {g}"
    );
    let errors: Vec<&String> = seen.iter().filter(|l| l.contains(" error ")).collect();
    assert!(
        errors.len() >= 2 * mine
            && errors
                .iter()
                .all(|l| l.contains("was sent on this connection")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|l| l.contains("yield @")), "{errors:?}");
    verify(&s.path("kgp.jsonl"));
}

#[test]
fn a_kgp_bot_that_sends_every_line_twice_plays_each_move_once() {
    let s = common::Scratch::new("kgp", "doubles");
    let (out, games, seen) = kgp_match(&s, Style::Doubles, 2, "st=0.5 timemargin=300");
    assert_eq!(games.len(), 2, "{}", String::from_utf8_lossy(&out.stdout));
    for g in &games {
        assert!(g["termination"]["side"].is_null(), "no fault: {g}");
        let (mine, random) = kbot_moves(g);
        assert!(
            mine > 0 && random == 0,
            "{mine} moves, {random} random: {g}"
        );
    }
    // Its second `mode` is refused with a reason; its second yield is
    // ignored (the search is over), so no move is played twice.
    assert!(
        seen.iter().any(|l| l.contains("mode is already freeplay")),
        "{seen:?}"
    );
    verify(&s.path("kgp.jsonl"));
    s.assert_no_leftovers();
}

#[test]
fn a_kgp_bot_that_floods_pongs_is_told_and_its_game_is_recorded() {
    let s = common::Scratch::new("kgp", "flood");
    let (out, games, seen) = kgp_match(&s, Style::FloodPongs, 1, "st=0.5 timemargin=300");
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let g = &games[0];
    assert_eq!(g["termination"]["side"], kbot_side(g), "{g}");
    assert!(g["termination"].to_string().contains("flood"), "{g}");
    // What it read before the close (a reset may cut it short) names it.
    if let Some(e) = seen.iter().find(|l| l.starts_with("error")) {
        assert!(e.contains("flood: more than"), "{e}");
    }
    verify(&s.path("kgp.jsonl"));
    s.assert_no_leftovers();
}

#[test]
fn proto_kgp_is_refused_outside_kalah_and_for_local_engines() {
    let s = common::Scratch::new("kgp", "refused");
    let out = Command::new(ARBITER)
        .current_dir(&s.0)
        .args(["match", "--game", "oware"])
        .args(["--engine", "remote=kbot", "proto=kgp", "st=1"])
        .args(["--engine", &format!("cmd={}", common::engine()), "st=1"])
        .args([
            "--remote-listen",
            "127.0.0.1:0",
            "--kgp-listen",
            "127.0.0.1:0",
        ])
        .args(["--remote-wait", "30"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("engine kbot: proto=kgp plays kalah and kalah-6x6 only"),
        "{stderr}"
    );
    let out = Command::new(ARBITER)
        .current_dir(&s.0)
        .args(["match", "--game", "kalah"])
        .args([
            "--engine",
            &format!("cmd={}", common::engine()),
            "proto=kgp",
        ])
        .args(["--engine", &format!("cmd={}", common::engine())])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("proto=kgp is for remote bots"), "{stderr}");
}

mod listener {
    //! The listener itself, driven by the library: greetings, refusals and
    //! malformed lines, each answered with a reason.

    use std::collections::BTreeSet;
    use std::time::Duration;

    use arbiter_net::remote::kgp::{listen, KgpEndpoint, Speakers};
    use arbiter_net::remote::registry::Registry;
    use arbiter_net::remote::tokens::Tokens;
    use arbiter_net::remote::Limits;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::TcpStream;

    use super::TOKEN;

    struct Client {
        lines: tokio::io::Lines<BufReader<tokio::net::tcp::OwnedReadHalf>>,
        w: tokio::net::tcp::OwnedWriteHalf,
    }

    impl Client {
        async fn connect(addr: std::net::SocketAddr) -> Client {
            let (r, w) = TcpStream::connect(addr).await.unwrap().into_split();
            let mut c = Client {
                lines: BufReader::new(r).lines(),
                w,
            };
            assert_eq!(c.line().await.as_deref(), Some("kgp 1 0 0"));
            c
        }

        async fn send(&mut self, line: &str) {
            self.w
                .write_all(format!("{line}\r\n").as_bytes())
                .await
                .unwrap();
        }

        /// The next line, whatever it is; `None` once closed.
        async fn raw(&mut self) -> Option<String> {
            tokio::time::timeout(Duration::from_secs(20), self.lines.next_line())
                .await
                .expect("a line in time")
                .ok()
                .flatten()
        }

        /// The next line that is not a ping; `None` once closed.
        async fn line(&mut self) -> Option<String> {
            loop {
                let next = tokio::time::timeout(Duration::from_secs(20), self.lines.next_line())
                    .await
                    .expect("an answer in time")
                    .ok()
                    .flatten()?;
                if !next.ends_with(" ping") {
                    return Some(next);
                }
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bad_lines_and_bad_bots_are_refused_with_a_reason() {
        let mut tokens = Tokens::default();
        tokens.insert("kbot", TOKEN);
        tokens.insert("umibot", "umi-bot-token-0123456789");
        let registry = Registry::new(tokens, |_| 1);
        let limits = Limits {
            auth_deadline: Duration::from_secs(10),
            ..Limits::default()
        };
        let ids = BTreeSet::from(["kbot".to_owned()]);
        let endpoint = KgpEndpoint::new(registry.clone(), Speakers::Only(ids), limits);
        let addr = listen("127.0.0.1:0".parse().unwrap(), endpoint)
            .await
            .unwrap();

        // Malformed lines before `mode`: each gets an error with a reason.
        let mut c = Client::connect(addr).await;
        c.send("12x mode freeplay").await;
        let l = c.line().await.unwrap();
        assert!(l.starts_with("error \"") && l.contains("not an id"), "{l}");
        c.send("7 dance").await;
        let l = c.line().await.unwrap();
        assert!(
            l.starts_with("@7 error") && l.contains("dance before mode"),
            "{l}"
        );
        c.send("9 mode").await;
        let l = c.line().await.unwrap();
        assert!(
            l.starts_with("@9 error") && l.contains("mode takes one argument"),
            "{l}"
        );
        c.send(&"x".repeat(20_000)).await;
        let l = c.line().await.unwrap();
        assert!(l.contains("over KGP's limit of 16384"), "{l}");
        // No token: told so, then goodbye and closed.
        c.send("mode freeplay").await;
        let l = c.line().await.unwrap();
        assert!(l.contains("no `set auth:token"), "{l}");
        assert_eq!(c.line().await.as_deref(), Some("goodbye"));
        assert_eq!(c.line().await, None);

        // A wrong token; a token of an engine that is not a KGP bot; a mode
        // other than freeplay.
        for (token, mode, why) in [
            ("wrong-token-0123456789ab", "freeplay", "unknown token"),
            (
                "umi-bot-token-0123456789",
                "freeplay",
                "not a KGP bot of this event",
            ),
            (TOKEN, "evaluation", "unsupported activity"),
        ] {
            let mut c = Client::connect(addr).await;
            c.send(&format!("1 set auth:token \"{token}\"")).await;
            c.send(&format!("3 mode {mode}")).await;
            let l = c.line().await.unwrap();
            assert!(l.contains(why), "{l}");
            assert_eq!(c.line().await.as_deref(), Some("goodbye"));
        }
        assert_eq!(registry.open_count("kbot"), 0);

        // Admitted: bad lines during play are refused too, the connection
        // stays; pings are answered.
        let mut c = Client::connect(addr).await;
        c.send("1 set auth:token kgp-bot-token-0123456789").await;
        c.send("3 mode freeplay").await;
        for _ in 0..200 {
            if registry.open_count("kbot") == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(registry.open_count("kbot"), 1);
        c.send("5 move 1;").await;
        let l = c.line().await.unwrap();
        assert!(l.contains("is no argument"), "{l}");
        c.send("7 set info:name \"unterminated").await;
        let l = c.line().await.unwrap();
        assert!(l.contains("closing quote"), "{l}");
        c.send("9 mode freeplay").await;
        let l = c.line().await.unwrap();
        assert_eq!(l, "@9 error \"mode is already freeplay\"");
        c.send("11 ping").await;
        assert_eq!(c.line().await.as_deref(), Some("@11 pong"));
        // A second connection of the same bot is over its limit of one.
        let mut d = Client::connect(addr).await;
        d.send(&format!("1 set auth:token \"{TOKEN}\"")).await;
        d.send("3 mode freeplay").await;
        let l = d.line().await.unwrap();
        assert!(l.contains("its limit"), "{l}");
        // Goodbye from the bot closes its connection.
        c.send("13 goodbye").await;
        assert_eq!(c.line().await.as_deref(), Some("goodbye"));
        for _ in 0..200 {
            if registry.open_count("kbot") == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(registry.open_count("kbot"), 0);
    }
    /// Pings: one the bot lost is sent again (a new id) before the bot is
    /// dropped; a bot that answers none is dropped with a reason.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lost_ping_is_asked_again_and_a_bot_that_never_answers_is_dropped() {
        let mut tokens = Tokens::default();
        tokens.insert("kbot", TOKEN);
        let registry = Registry::new(tokens, |_| 1);
        let limits = Limits {
            ping_interval: Duration::from_millis(100),
            pong_timeout: Duration::from_secs(2),
            ..Limits::default()
        };
        let ids = BTreeSet::from(["kbot".to_owned()]);
        let endpoint = KgpEndpoint::new(registry.clone(), Speakers::Only(ids), limits);
        let addr = listen("127.0.0.1:0".parse().unwrap(), endpoint)
            .await
            .unwrap();
        let mut c = Client::connect(addr).await;
        c.send(&format!("1 set auth:token \"{TOKEN}\"")).await;
        c.send("3 mode freeplay").await;
        // The first ping is "lost"; the next comes with a new id, a retry
        // (a fifth of the pong timeout later), and is answered.
        let first = c.raw().await.unwrap();
        assert!(first.ends_with(" ping"), "{first}");
        let t0 = std::time::Instant::now();
        let second = c.raw().await.unwrap();
        assert!(second.ends_with(" ping") && second != first, "{second}");
        assert!(
            t0.elapsed() >= Duration::from_millis(300),
            "{:?}",
            t0.elapsed()
        );
        let id = second.split_whitespace().next().unwrap().to_owned();
        c.send(&format!("5@{id} pong")).await;
        // Answering each ping for longer than the pong timeout: kept.
        let until = std::time::Instant::now() + Duration::from_secs(3);
        let mut n = 7;
        while std::time::Instant::now() < until {
            let l = c.raw().await.unwrap();
            let id = l.strip_suffix(" ping").expect("only pings");
            c.send(&format!("{n}@{id} pong")).await;
            n += 2;
        }
        assert_eq!(registry.open_count("kbot"), 1);
        // Silent from now on: asked again and again, then dropped, told why.
        let mut pings = 0;
        let last = loop {
            let l = c.raw().await.expect("an error, then goodbye");
            if !l.ends_with(" ping") {
                break l;
            }
            pings += 1;
        };
        assert!(pings >= 2, "asked {pings} times");
        assert!(last.contains("stopped answering: no pong"), "{last}");
        assert_eq!(c.raw().await.as_deref(), Some("goodbye"));
    }
}

/// Every log event of a KGP connection carries its span (`RUST_LOG=info`):
/// a refused greeting says which peer it was.
#[test]
fn a_connections_log_lines_carry_its_peer() {
    let s = common::Scratch::new("kgp", "span");
    let tokens = s.path("tokens.json");
    std::fs::write(&tokens, format!(r#"{{"kbot": "{TOKEN}"}}"#)).unwrap();
    let mut child = Command::new(ARBITER)
        .current_dir(&s.0)
        .env("RUST_LOG", "info")
        .args(["match", "--game", "kalah"])
        .args(["--engine", "remote=kbot", "proto=kgp", "st=0.1"])
        .args(["--engine", &format!("cmd={}", common::engine()), "depth=1"])
        .args([
            "--remote-listen",
            "127.0.0.1:0",
            "--kgp-listen",
            "127.0.0.1:0",
        ])
        .args(["--remote-tokens", &tokens.display().to_string()])
        .args(["--remote-wait", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arbiter runs");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (tcp, _) = kgp_addresses(&mut stdout, &mut String::new()).expect("the KGP address");
    let mut conn = Conn::open(&Transport::Tcp(tcp));
    assert_eq!(conn.recv().as_deref(), Some("kgp 1 0 0"));
    conn.send("1 set auth:token \"not-the-token-0123456789\"");
    conn.send("3 mode freeplay");
    while conn.recv().is_some() {}
    let out = child.wait_with_output().expect("the arbiter ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .any(|l| l.contains("unknown token") && l.contains("connection{peer=127.0.0.1:")),
        "{err}"
    );
}

/// A token guesser over KGP: after ten wrong tokens from one address, that
/// address is refused whatever its token, told in how many seconds to try
/// again — over TCP by an `error` then `goodbye`, over `/kgp` (and `/umi`)
/// by HTTP 429 with `Retry-After` — while a bot on another address plays.
#[test]
fn a_kgp_token_guesser_is_refused_and_told_when_while_another_address_plays() {
    let s = common::Scratch::new("kgp", "guesser");
    let tokens = s.path("tokens.json");
    std::fs::write(&tokens, format!(r#"{{"kbot": "{TOKEN}"}}"#)).unwrap();
    let log = s.path("kgp.jsonl");
    let mut child = Command::new(ARBITER)
        .current_dir(&s.0)
        .args(["match", "--game", "kalah", "--games", "1"])
        .args(["--engine", "remote=kbot", "proto=kgp", "st=0.1"])
        .args(["--engine", &format!("cmd={}", common::engine()), "depth=1"])
        .args([
            "--remote-listen",
            "127.0.0.1:0",
            "--kgp-listen",
            "127.0.0.1:0",
        ])
        .args(["--remote-tokens", &tokens.display().to_string()])
        .args(["--remote-wait", "60", "--remote-grace", "0"])
        .args(["--jsonout", &log.display().to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the arbiter runs");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut printed = String::new();
    let (tcp, ws) = kgp_addresses(&mut stdout, &mut printed).expect("the KGP addresses");
    let umi = ws.replace("/kgp", "/umi");
    // Ten wrong tokens from 127.0.0.1, each refused as unknown.
    let try_token = |token: &str| -> Vec<String> {
        let mut conn = Conn::open(&Transport::TcpFrom(tcp.clone(), "127.0.0.1"));
        assert_eq!(conn.recv().as_deref(), Some("kgp 1 0 0"));
        conn.send(&format!("1 set auth:token \"{token}\""));
        conn.send("3 mode freeplay");
        std::iter::from_fn(|| conn.recv()).collect()
    };
    for k in 0..10 {
        let said = try_token(&format!("wrong-token-{k:02}-0123456789"));
        assert!(said[0].contains("unknown token"), "{said:?}");
        assert_eq!(said.last().map(String::as_str), Some("goodbye"), "{said:?}");
    }
    // The eleventh try, with the right token: refused, told when.
    let said = try_token(TOKEN);
    let (head, secs) = said[0]
        .rsplit_once("try again in ")
        .unwrap_or_else(|| panic!("says when: {said:?}"));
    assert!(
        head.starts_with(
            "error \"too many failed token checks from this address (10 within 60 s); "
        ),
        "{said:?}"
    );
    let secs: u64 = secs.trim_end_matches(" s\"").parse().expect("seconds");
    assert!((1..=60).contains(&secs), "{said:?}");
    assert_eq!(said.last().map(String::as_str), Some("goodbye"), "{said:?}");
    // The same address over a WebSocket: refused at the upgrade, on /kgp
    // and /umi alike (one count for every way in).
    for url in [&ws, &umi] {
        let refused = common::upgrade_from("127.0.0.1", url, Some(TOKEN)).expect_err("locked out");
        assert_eq!(refused.status, 429, "{url}: {refused:?}");
        let after: u64 = refused
            .retry_after
            .as_deref()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{url}: a Retry-After: {refused:?}"));
        assert!((1..=60).contains(&after), "{url}: {refused:?}");
        assert!(
            refused.body.contains("too many failed token checks"),
            "{refused:?}"
        );
    }
    // The bot itself, from 127.0.0.2, gets in and plays the match.
    let bot = bot(
        Transport::TcpFrom(tcp.clone(), "127.0.0.2"),
        Style::Plays,
        TOKEN,
    );
    std::io::Read::read_to_string(&mut stdout, &mut printed).expect("stdout");
    let status = child.wait().expect("the arbiter ends");
    assert!(status.success(), "{printed}");
    let seen = bot.join().expect("the bot ends");
    assert!(seen.iter().any(|l| l.contains(" state ")), "{seen:?}");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1);
}
