//! Remote engines on real loopback sockets: the `/umi` endpoint's refusals
//! and drops, games with scripted bots (disconnect grace, no-shows, lag
//! through a delaying relay; a link that resumes only its own engine),
//! and tournaments through `arbiter connect` whose standings equal the
//! all-local ones, also after `kill -9` and `--resume`.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;

use arbiter_core::contender::config::{parse_engines, Restart};
use arbiter_core::contender::process::{TrafficKind, TrafficRecord};
use arbiter_core::play::game::Timeouts;
use arbiter_core::play::runner::{Finished, Flow, Job, Runner};
use arbiter_core::records::log::Termination;
use arbiter_net::remote::registry::Registry;
use arbiter_net::remote::tokens::Tokens;
use arbiter_net::remote::{Limits, Links};
use futures_util::{SinkExt, StreamExt};
use mancala_rules::{start_position, GameId};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::common;

use common::{connect, scripted_bot, Script, Ws};

const TOKEN_A: &str = "token-of-alice-0123456789";
const TOKEN_B: &str = "token-of-bob-0123456789ab";

/// Limits short enough for tests.
fn quick_limits() -> Limits {
    Limits {
        auth_deadline: Duration::from_millis(300),
        ping_interval: Duration::from_millis(100),
        pong_timeout: Duration::from_millis(800),
        line_burst: 200,
        lines_per_second: 200,
        ..Limits::default()
    }
}

/// An endpoint on a free loopback port for ids alice and bob (one
/// connection each); its registry and `ws://…/umi`.
async fn endpoint(limits: Limits) -> (Arc<Registry>, String) {
    let mut tokens = Tokens::default();
    tokens.insert("alice", TOKEN_A);
    tokens.insert("bob", TOKEN_B);
    let registry = Registry::new(tokens, |_| 1);
    let addr = arbiter_net::remote::listen(
        "127.0.0.1:0".parse().unwrap(),
        registry.clone(),
        limits,
        None,
    )
    .await
    .expect("listens");
    (registry, format!("ws://{addr}/umi"))
}

/// Reads until the server closes; the close frame's reason.
async fn close_reason(ws: &mut Ws) -> String {
    let read = async {
        while let Some(frame) = ws.next().await {
            match frame {
                Ok(Message::Close(Some(f))) => return f.reason.to_string(),
                Ok(Message::Close(None)) => return String::new(),
                Ok(_) => {}
                Err(e) => return format!("error: {e}"),
            }
        }
        "ended without a close frame".to_owned()
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .expect("the server closes the connection")
}

/// Waits until `remote` has `n` open connections (drops are asynchronous).
async fn open_becomes(registry: &Registry, remote: &str, n: usize) {
    for _ in 0..400 {
        if registry.open_count(remote) == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "{remote} has {} open connections, not {n}",
        registry.open_count(remote)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_refuses_and_drops_bad_clients_with_a_reason() {
    let (registry, url) = endpoint(quick_limits()).await;

    // A wrong token in the header: refused before the upgrade.
    match connect(&url, Some("not-a-token-at-all-xx")).await {
        Err(WsError::Http(r)) => assert_eq!(r.status(), 401),
        other => panic!("expected 401, got {:?}", other.map(|_| ())),
    }
    // No token, and no auth frame: closed after the deadline, told nothing else.
    let mut ws = connect(&url, None).await.expect("upgrade");
    assert_eq!(close_reason(&mut ws).await, "no auth frame in time");
    // A wrong token in the first frame.
    let mut ws = connect(&url, None).await.expect("upgrade");
    ws.send(Message::text("auth wrong-token-0123456789"))
        .await
        .unwrap();
    assert_eq!(close_reason(&mut ws).await, "unknown token");

    // A binary frame after authenticating by the first frame.
    let mut ws = connect(&url, None).await.expect("upgrade");
    ws.send(Message::text(format!("auth {TOKEN_A}")))
        .await
        .unwrap();
    open_becomes(&registry, "alice", 1).await;
    ws.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    assert!(close_reason(&mut ws).await.contains("binary frame"));
    open_becomes(&registry, "alice", 0).await;

    // Two lines in one frame.
    let mut ws = connect(&url, Some(TOKEN_A)).await.expect("upgrade");
    ws.send(Message::text("id name x\numiok")).await.unwrap();
    assert!(close_reason(&mut ws).await.contains("more than one line"));
    open_becomes(&registry, "alice", 0).await;

    // A flood: far more lines than the rate allows.
    let mut ws = connect(&url, Some(TOKEN_A)).await.expect("upgrade");
    // why feed, then one flush: the lines leave in one write, so they come
    // faster than the rate however slowly a loaded machine runs this test.
    for i in 0..1000 {
        if ws
            .feed(Message::text(format!("info string {i}")))
            .await
            .is_err()
        {
            break;
        }
    }
    let _ = ws.flush().await;
    let reason = close_reason(&mut ws).await;
    assert!(reason.contains("flood"), "{reason}");
    open_becomes(&registry, "alice", 0).await;

    // Two connections fighting over alice's one slot: the second is refused.
    let first = connect(&url, Some(TOKEN_A)).await.expect("upgrade");
    open_becomes(&registry, "alice", 1).await;
    match connect(&url, Some(TOKEN_A)).await {
        Err(WsError::Http(r)) => {
            assert_eq!(r.status(), 429);
            assert_eq!(r.headers()["retry-after"], "5");
            let body = String::from_utf8_lossy(r.body().as_deref().unwrap_or_default());
            assert_eq!(
                body,
                "alice already has 1 connection(s), its limit; try again in 5 s"
            );
        }
        other => panic!("expected 429, got {:?}", other.map(|_| ())),
    }
    // bob is not slowed by alice's quarrel.
    let bob = connect(&url, Some(TOKEN_B)).await.expect("bob connects");
    open_becomes(&registry, "bob", 1).await;
    drop((first, bob));
    open_becomes(&registry, "alice", 0).await;

    // A slow reader: it never reads, so never answers a ping.
    let mut ws = connect(&url, Some(TOKEN_A)).await.expect("upgrade");
    open_becomes(&registry, "alice", 1).await;
    open_becomes(&registry, "alice", 0).await;
    assert!(close_reason(&mut ws).await.contains("stopped reading"));
}

fn job() -> Job {
    let game = GameId::Bohnenspiel;
    Job {
        index: 0,
        round: "1".into(),
        game,
        south: 0,
        north: 1,
        start_position: start_position(game).to_owned(),
        pair: 0,
    }
}

/// A runner of the testbot (first legal move, local) against remote
/// `remote`, with the endpoint's registry.
fn runner(registry: Arc<Registry>, remote: &str, grace: Duration, wait: Duration) -> Runner {
    runner_tc(registry, remote, grace, wait, "60+1")
}

/// [`runner`] with the time control `tc`.
fn runner_tc(
    registry: Arc<Registry>,
    remote: &str,
    grace: Duration,
    wait: Duration,
    tc: &str,
) -> Runner {
    let toks = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let local = toks(&format!(
        "cmd={} name=local arg=--mode arg=instant tc={tc}",
        common::testbot()
    ));
    let remote = toks(&format!("remote={remote} name=remote tc={tc}"));
    Runner {
        engines: parse_engines(&[local, remote], &[], None).expect("engines"),
        concurrency: 1,
        timeouts: Timeouts::default(),
        handshake_timeout: Duration::from_secs(10),
        max_plies: Some(40),
        stderr_dir: None,
        traffic: None,
        quit_grace: Duration::from_millis(500),
        partie: None,
        adjudication: Default::default(),
        observer: None,
        remote: Some(
            Links {
                registry,
                grace,
                write_timeout: Duration::from_secs(10),
            }
            .engines(wait),
        ),
        shutdown: Default::default(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fast_bot_sending_only_what_it_is_asked_is_no_flood() {
    // A line rate far below a fast game's over loopback (each answer sent at
    // once): the lines each command asks for keep the connection open. A
    // flood of lines nobody asked for is closed (the test above).
    let limits = Limits {
        lines_per_second: 10,
        line_burst: 10,
        ..Limits::default()
    };
    let (registry, url) = endpoint(limits).await;
    tokio::spawn(scripted_bot(url.clone(), TOKEN_A, Script::default()));
    let runner = runner(
        registry.clone(),
        "alice",
        Duration::from_secs(5),
        Duration::from_secs(10),
    );
    let games = play_all(&runner, vec![job(), job(), job()]).await;
    assert_eq!(games.len(), 3);
    for g in &games {
        assert!(
            matches!(
                g.played.termination,
                Termination::Rules { .. } | Termination::Adjudication { .. }
            ),
            "{:?}",
            g.played.termination
        );
        assert!(g.played.moves.len() >= 20, "{:?}", g.played.moves.len());
    }
}

/// Plays `jobs` (within two minutes); the results in the order they ended.
async fn play_all(runner: &Runner, jobs: Vec<Job>) -> Vec<Finished> {
    let mut done = Vec::new();
    let run = runner.run(jobs, |f| {
        done.push(f);
        Flow::Continue
    });
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the games end")
        .expect("no panic");
    done
}

async fn play_one(runner: &Runner) -> Finished {
    play_all(runner, vec![job()]).await.pop().expect("one game")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_within_the_grace_changes_nothing_and_one_past_it_loses_by_disconnect() {
    let (registry, url) = endpoint(Limits::default()).await;
    let grace = Duration::from_secs(5);
    let wait = Duration::from_secs(10);

    // The reference: no drop.
    tokio::spawn(scripted_bot(url.clone(), TOKEN_A, Script::default()));
    let plain = play_one(&runner(registry.clone(), "alice", grace, wait)).await;
    assert!(
        matches!(
            plain.played.termination,
            Termination::Rules { .. } | Termination::Adjudication { .. }
        ),
        "{:?}",
        plain.played.termination
    );

    // Dropped at its third `go`, back 300 ms later: the same game.
    let script = Script {
        drop_at_go: Some(3),
        back_after: Some(Duration::from_millis(300)),
    };
    tokio::spawn(scripted_bot(url.clone(), TOKEN_A, script));
    let back = play_one(&runner(registry.clone(), "alice", grace, wait)).await;
    let moves = |f: &Finished| {
        f.played
            .moves
            .iter()
            .map(|m| m.mv.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&back), moves(&plain));
    assert_eq!(back.played.result, plain.played.result);
    // The time away was charged: the move answered after the reconnect.
    let remote_third = &back.played.moves[5];
    assert!(remote_third.time_ms >= 250, "{remote_third:?}");

    // Dropped and never back: lost by disconnect, with the reason.
    let script = Script {
        drop_at_go: Some(3),
        back_after: None,
    };
    tokio::spawn(scripted_bot(url.clone(), TOKEN_B, script));
    let gone = play_one(&runner(
        registry.clone(),
        "bob",
        Duration::from_millis(500),
        wait,
    ))
    .await;
    match &gone.played.termination {
        Termination::Disconnect { detail, .. } => {
            assert!(detail.contains("not back within the grace"), "{detail}")
        }
        other => panic!("expected a disconnect, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_engine_whose_clock_runs_out_while_it_is_away_is_told_so() {
    let (registry, url) = endpoint(Limits::default()).await;
    // A 10 s grace, but a 2 s clock: the clock runs out first.
    let script = Script {
        drop_at_go: Some(2),
        back_after: None,
    };
    tokio::spawn(scripted_bot(url, TOKEN_A, script));
    let r = runner_tc(
        registry,
        "alice",
        Duration::from_secs(10),
        Duration::from_secs(10),
        "2+0",
    );
    let finished = play_one(&r).await;
    match &finished.played.termination {
        Termination::Disconnect { side, detail } => {
            assert_eq!(*side, mancala_rules::Side::North);
            assert!(detail.contains("its clock ran out"), "{detail}");
            assert!(detail.contains("into the grace of 10s"), "{detail}");
            assert!(!detail.contains("not back within the grace"), "{detail}");
        }
        other => panic!("expected a disconnect, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_engine_that_never_comes_is_a_no_show() {
    let (registry, _url) = endpoint(Limits::default()).await;
    let r = runner(
        registry,
        "alice",
        Duration::from_secs(1),
        Duration::from_millis(300),
    );
    let finished = play_one(&r).await;
    match &finished.played.termination {
        Termination::Disconnect { detail, .. } => assert!(detail.contains("no-show"), "{detail}"),
        other => panic!("expected a no-show, got {other:?}"),
    }
}

/// The check before an event handshakes a remote engine and keeps that
/// session for its first game: a bot that opens one connection and never
/// another plays the game on it (were the connection spent on the check, the
/// game would be a no-show).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pre_event_check_of_a_remote_engine_keeps_its_connection_for_the_first_game() {
    let (registry, url) = endpoint(Limits::default()).await;
    // One connection, never another (the bot ends when it ends).
    tokio::spawn(scripted_bot(url, TOKEN_A, Script::default()));
    let r = runner(
        registry,
        "alice",
        Duration::from_secs(1),
        Duration::from_secs(5),
    );
    arbiter_core::play::preflight::preflight(&r, GameId::Bohnenspiel)
        .await
        .expect("the scripted bot passes the check");
    let finished = play_one(&r).await;
    assert!(
        matches!(
            finished.played.termination,
            Termination::Rules { .. } | Termination::Adjudication { .. }
        ),
        "{:?}",
        finished.played.termination
    );
}

/// Two bots with one connection each, in a field of four at three games at
/// once: every game a bot is due in while its one connection plays another
/// waits for it (busy is not absent), whichever slot played it last, and
/// plays on the same connection; none is a no-show, although `--remote-wait`
/// is shorter than the field's games. At the end both connections are told
/// `quit`. (Kept in the slot that played it last, as a process is, the
/// connection sat idle there while the game due elsewhere waited it out.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_with_one_connection_plays_every_game_of_a_field_at_several_games_at_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (registry, url) = endpoint(Limits::default()).await;
    let counts = [Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0))];
    let bots: Vec<_> = [TOKEN_A, TOKEN_B]
        .iter()
        .zip(&counts)
        .map(|(token, count)| {
            tokio::spawn(common::scripted_bot_counted(
                url.clone(),
                (*token).to_owned(),
                Script::default(),
                Arc::clone(count),
            ))
        })
        .collect();
    let toks = |s: String| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let local = |name: &str| {
        toks(format!(
            "cmd={} name={name} arg=--mode arg=instant tc=60+1",
            common::testbot()
        ))
    };
    let engines = vec![
        toks("remote=alice name=alice tc=60+1".into()),
        local("l1"),
        toks("remote=bob name=bob tc=60+1".into()),
        local("l2"),
    ];
    let mut r = runner(
        registry.clone(),
        "alice",
        Duration::from_secs(1),
        Duration::from_secs(1),
    );
    r.engines = parse_engines(&engines, &[], None).expect("engines");
    r.concurrency = 3;
    let game = GameId::Bohnenspiel;
    let mut jobs = Vec::new();
    for south in 0..4 {
        for north in (0..4).filter(|&n| n != south) {
            jobs.push(Job {
                index: jobs.len(),
                south,
                north,
                ..job()
            });
        }
    }
    assert_eq!(jobs[0].game, game);
    let done = play_all(&r, jobs).await;
    assert_eq!(done.len(), 12);
    for f in &done {
        assert!(
            matches!(
                f.played.termination,
                Termination::Rules { .. } | Termination::Adjudication { .. }
            ),
            "game {} ({} vs {}): {:?}",
            f.job.index,
            f.job.south,
            f.job.north,
            f.played.termination
        );
    }
    // Both bots end by the arbiter's `quit`, each after one connection.
    for bot in bots {
        tokio::time::timeout(Duration::from_secs(20), bot)
            .await
            .expect("told quit at the end")
            .expect("no panic");
    }
    for count in &counts {
        assert_eq!(count.load(Ordering::SeqCst), 1);
    }
}

/// The connection ids a remote engine named `remote` got `newgame` on, in
/// order, over three games; `restart` is its `restart=` setting.
async fn connections_per_game(restart: Restart) -> Vec<u32> {
    let (registry, url) = endpoint(Limits::default()).await;
    // A bot that comes back after every connection, as the bridge does.
    let bot = tokio::spawn(async move {
        loop {
            scripted_bot(url.clone(), TOKEN_A, Script::default()).await;
        }
    });
    let mut r = runner(
        registry,
        "alice",
        Duration::from_secs(1),
        Duration::from_secs(30),
    );
    r.engines[1].restart = restart;
    let newgames = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&newgames);
    r.traffic = Some(Arc::new(move |t: &TrafficRecord<'_>| {
        if t.engine == "remote" && t.kind == TrafficKind::ToEngine && t.text.starts_with("newgame")
        {
            seen.lock().unwrap().push(t.pid);
        }
    }));
    let jobs: Vec<Job> = (0..3).map(|index| Job { index, ..job() }).collect();
    let done = play_all(&r, jobs).await;
    bot.abort();
    assert_eq!(done.len(), 3);
    for f in &done {
        assert!(
            matches!(
                f.played.termination,
                Termination::Rules { .. } | Termination::Adjudication { .. }
            ),
            "{:?}",
            f.played.termination
        );
    }
    let ids = newgames.lock().unwrap().clone();
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_on_gives_a_remote_engine_a_fresh_connection_for_every_game() {
    let fresh = connections_per_game(Restart::On).await;
    assert_eq!(fresh.len(), 3, "{fresh:?}");
    let mut distinct = fresh.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "one connection a game: {fresh:?}");
    // The default keeps the connection from game to game.
    let kept = connections_per_game(Restart::default()).await;
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert!(kept.iter().all(|&id| id == kept[0]), "{kept:?}");
}

/// A TCP relay that delays every chunk, each way, by 50 to 200 ms (in
/// order): a slow network on the loopback.
async fn delaying_relay(target: std::net::SocketAddr) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(target).await else {
                continue;
            };
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            tokio::spawn(delay_pipe(cr, sw, 1));
            tokio::spawn(delay_pipe(sr, cw, 2));
        }
    });
    addr
}

async fn delay_pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    seed: u64,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(tokio::time::Instant, Vec<u8>)>();
    tokio::spawn(async move {
        while let Some((at, bytes)) = rx.recv().await {
            tokio::time::sleep_until(at).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
    });
    let mut state = seed;
    let mut last = tokio::time::Instant::now();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        // why a tiny LCG: a spread of delays, the same every run.
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let delay = Duration::from_millis(50 + (state >> 33) % 151);
        last = last.max(tokio::time::Instant::now() + delay);
        if tx.send((last, buf[..n].to_vec())).is_err() {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lag_through_a_delaying_relay_is_logged_and_compensated_within_the_quota() {
    let (registry, url) = endpoint(Limits {
        ping_interval: Duration::from_millis(200),
        ..Limits::default()
    })
    .await;
    let target: std::net::SocketAddr = url
        .trim_start_matches("ws://")
        .trim_end_matches("/umi")
        .parse()
        .unwrap();
    let relay = delaying_relay(target).await;
    tokio::spawn(scripted_bot(
        format!("ws://{relay}/umi"),
        TOKEN_A,
        Script::default(),
    ));
    let mut r = runner(
        registry,
        "alice",
        Duration::from_secs(5),
        Duration::from_secs(10),
    );
    r.max_plies = Some(16);
    let finished = play_one(&r).await;
    let moves = &finished.played.moves;
    assert_eq!(moves.len(), 16, "{:?}", finished.played.termination);
    // The remote engine plays North: the odd plies.
    let remote: Vec<_> = moves.iter().skip(1).step_by(2).collect();
    assert!(moves
        .iter()
        .step_by(2)
        .all(|m| m.lag_ms.is_none() && m.comp_ms.is_none()));
    // tc=60+1: about 100 s a game, so 600 ms a move and 1800 ms at the start.
    let (gain, initial) = (600, 1800);
    let mut quota_bound = initial;
    let mut total_comp = 0;
    for m in &remote {
        let (lag, comp) = (
            m.lag_ms.expect("lag logged"),
            m.comp_ms.expect("comp logged"),
        );
        assert!(comp <= lag, "{m:?}");
        total_comp += comp;
        assert!(
            total_comp <= quota_bound,
            "credited {total_comp} ms, quota {quota_bound}"
        );
        quota_bound += gain;
    }
    // The relay's 100 to 400 ms round trips were measured.
    assert!(
        remote.iter().skip(2).any(|m| m.lag_ms.unwrap() >= 100),
        "{remote:?}"
    );
    assert!(total_comp > 0);
}

// ---------------------------------------------------------------------------
// Tournaments through `arbiter connect`
// ---------------------------------------------------------------------------

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// A port free a moment ago (the bridges must know it before the arbiter
/// is started, and again after it is restarted).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn engine_cmd() -> String {
    common::engine()
}

/// The field: two engines local, two remote (`remote` = true) or all local.
fn field(remote: bool) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--rounds",
        "2",
        "--openings",
        "plies=2",
        "--seed",
        "7",
    ]
    .map(String::from)
    .to_vec();
    let local = |name: &str, depth: u32| {
        vec![
            "--engine".to_owned(),
            format!("cmd={}", engine_cmd()),
            format!("name={name}"),
            format!("depth={depth}"),
        ]
    };
    args.extend(local("d1", 1));
    args.extend(local("d2", 2));
    if remote {
        // restart=on: a fresh engine (a fresh connection) for every game.
        args.extend(
            ["--engine", "remote=d3", "name=d3", "depth=3", "restart=on"].map(String::from),
        );
        args.extend(["--engine", "remote=fm", "name=first-move", "depth=1"].map(String::from));
    } else {
        args.extend(local("d3", 3));
        args.extend([
            "--engine".to_owned(),
            format!("cmd={}", common::testbot()),
            "name=first-move".into(),
            "arg=--mode".into(),
            "arg=instant".into(),
            "depth=1".into(),
        ]);
    }
    args
}

/// `arbiter connect` for one remote engine, killed (with its engines) when
/// dropped.
struct Bridge(std::process::Child);

impl Bridge {
    fn start(dir: &std::path::Path, port: u16, token: &str, engine: &[&str]) -> Bridge {
        Bridge::to(
            dir,
            &format!("ws://127.0.0.1:{port}/umi"),
            token,
            &[],
            engine,
        )
    }

    /// A bridge to `url` with further options `extra` (`--ca FILE`).
    fn to(
        dir: &std::path::Path,
        url: &str,
        token: &str,
        extra: &[&str],
        engine: &[&str],
    ) -> Bridge {
        let mut cmd = std::process::Command::new(ARBITER);
        cmd.current_dir(dir)
            .args(["connect", url, "--token", token, "--slots", "2"])
            .args(extra)
            .arg("--engine")
            .args(engine)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        Bridge(cmd.spawn().expect("arbiter connect starts"))
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

/// `arbiter verify` accepts `log`.
fn assert_verifies(log: &std::path::Path) {
    let verify = std::process::Command::new(ARBITER)
        .args(["verify", &log.display().to_string()])
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
}

fn games_in(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.ends_with('}'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_tournament_with_two_remote_engines_has_the_all_local_standings_even_after_kill_9_and_resume() {
    let s = common::Scratch::new("remote", "tournament");
    let local = common::run_arbiter(
        &s.0,
        &[
            field(false),
            vec![
                "--concurrency".into(),
                "2".into(),
                "--stderr-dir".into(),
                s.path("l").display().to_string(),
            ],
        ]
        .concat(),
    );
    let expected = common::report(&String::from_utf8_lossy(&local.stdout));

    let tokens = s.path("tokens.json");
    std::fs::write(
        &tokens,
        r#"{"d3": "d3-token-0123456789abcdef", "fm": "fm-token-0123456789abcdef"}"#,
    )
    .unwrap();
    let port = free_port();
    let engine = format!("cmd={}", engine_cmd());
    let testbot = format!("cmd={}", common::testbot());
    let _d3 = Bridge::start(&s.0, port, "d3-token-0123456789abcdef", &[&engine]);
    let _fm = Bridge::start(
        &s.0,
        port,
        "fm-token-0123456789abcdef",
        &[&testbot, "arg=--mode", "arg=instant"],
    );

    let log = s.path("remote.jsonl");
    let args = [
        field(true),
        [
            "--concurrency",
            "2",
            "--remote-listen",
            &format!("127.0.0.1:{port}"),
            "--remote-tokens",
            &tokens.display().to_string(),
            "--remote-wait",
            "30",
            "--jsonout",
            &log.display().to_string(),
            "--resume",
            "--stderr-dir",
            &s.path("r").display().to_string(),
        ]
        .map(String::from)
        .to_vec(),
    ]
    .concat();
    // First run: killed with SIGKILL once a few games are logged.
    let mut first = std::process::Command::new(ARBITER)
        .current_dir(&s.0)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("arbiter starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while games_in(&log).len() < 4 {
        assert!(std::time::Instant::now() < deadline, "no games were played");
        assert!(
            first.try_wait().unwrap().is_none(),
            "the arbiter ended early"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let before = games_in(&log).len();
    assert!(
        before < 24,
        "the event was not interrupted ({before} games)"
    );

    // The bridges reconnect to the restarted arbiter by themselves.
    let resumed = common::run_arbiter(&s.0, &args);
    let text = String::from_utf8_lossy(&resumed.stdout).into_owned();
    assert_eq!(common::report(&text), expected);
    let games = games_in(&log);
    assert_eq!(games.len(), 24, "no game lost or doubled");
    let mut slots: Vec<String> = games
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a whole line");
            v["tags"]["Slot"].as_str().expect("Slot tag").to_owned()
        })
        .collect();
    slots.sort();
    slots.dedup();
    assert_eq!(slots.len(), 24, "every slot once");
    assert_verifies(&log);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_line_limit_is_the_same_fault_as_an_overlong_line_from_a_process() {
    use arbiter_core::contender::session::{Fault, Session};
    use arbiter_net::remote::link::{LinkSettings, RemoteLink};
    let (registry, url) = endpoint(Limits::default()).await;
    let bot = tokio::spawn(async move {
        let mut ws = connect(&url, Some(TOKEN_A)).await.expect("connects");
        // why every frame: the endpoint's pings come too, and ending at the
        // first of them would close the connection before the session came.
        while let Some(Ok(frame)) = ws.next().await {
            let Message::Text(line) = frame else { continue };
            if line.as_str() == "umi" {
                let long = format!("id name {}", "x".repeat(umi::MAX_LINE_BYTES + 100));
                ws.send(Message::text(long)).await.expect("sent");
                ws.send(Message::text("umiok")).await.expect("sent");
            }
        }
    });
    // A hang guard only: a loaded machine may take long to connect.
    let conn = registry
        .take(
            "alice",
            tokio::time::Instant::now() + Duration::from_secs(60),
        )
        .await
        .expect("alice connected");
    let settings = LinkSettings {
        grace: Duration::ZERO,
        write_timeout: Duration::from_secs(10),
        lag: Default::default(),
        tc: Default::default(),
    };
    let link = RemoteLink::new(conn, registry.clone(), "alice", settings);
    match Session::start_remote(link, Duration::from_secs(10), None).await {
        Err(Fault::Garbled { problem, .. }) => {
            assert!(
                problem.contains("line longer than 1048576 bytes"),
                "{problem}"
            )
        }
        Err(other) => panic!("expected a garbled line, got {other}"),
        Ok(_) => panic!("expected a garbled line, got a session"),
    }
    // The session ended the connection.
    open_becomes(&registry, "alice", 0).await;
    let _ = tokio::time::timeout(Duration::from_secs(10), bot).await;
}

#[test]
fn an_event_whose_remote_engines_do_not_come_names_them() {
    let s = common::Scratch::new("remote", "missing");
    let out = std::process::Command::new(ARBITER)
        .current_dir(&s.0)
        .args([
            "tournament",
            "--engine",
            &format!("cmd={}", engine_cmd()),
            "depth=1",
        ])
        .args([
            "--engine",
            "remote=alice",
            "depth=1",
            "--engine",
            "remote=bob",
            "depth=1",
        ])
        .args(["--remote-listen", "127.0.0.1:0", "--remote-wait", "0.5"])
        .args(["--stderr-dir", &s.path("logs").display().to_string()])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Generated tokens, printed once each.
    assert_eq!(
        stdout
            .matches("arbiter: remote engine alice: token ")
            .count(),
        1,
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("arbiter: remote engine bob: token ").count(),
        1,
        "{stdout}"
    );
    assert!(
        stderr.contains("remote engine(s) not connected after 500ms (--remote-wait): alice, bob"),
        "{stderr}"
    );
}

/// A remote engine is checked before the first game as a process is: one
/// that does not list the game, or lacks a configured option, stops the
/// event at once with a message naming it and why; no game is played.
#[test]
fn a_remote_engine_that_cannot_play_the_event_is_refused_before_the_first_game() {
    let s = common::Scratch::new("remote", "preflight");
    let tokens = s.path("tokens.json");
    let token = "preflight-token-0123456789ab";
    std::fs::write(&tokens, format!(r#"{{"r": "{token}"}}"#)).unwrap();
    let bot = format!("cmd={}", common::testbot());
    let cases: [(&[&str], &[&str], &str); 2] = [
        (
            &["arg=--games", "arg=kalah"],
            &[],
            r#"engine Remote (remote r): engine does not play bohnenspiel: "games kalah""#,
        ),
        (
            &[],
            &["option.Hash=16"],
            r#"engine Remote (remote r): the engine has no option "Hash""#,
        ),
    ];
    for (n, (bot_args, spec, refusal)) in cases.into_iter().enumerate() {
        let port = free_port();
        let engine = [&[bot.as_str(), "arg=--mode", "arg=instant"][..], bot_args].concat();
        let _bridge = Bridge::start(&s.0, port, token, &engine);
        let log = s.path(&format!("{n}.jsonl"));
        let out = std::process::Command::new(ARBITER)
            .current_dir(&s.0)
            .args(["match", "--games", "2", "--openings", "plies=2"])
            .args(["--engine", &bot, "arg=--mode", "arg=instant"])
            .args(["name=Local", "depth=1"])
            .args(["--engine", "remote=r", "name=Remote", "depth=1"])
            .args(spec)
            .args(["--remote-listen", &format!("127.0.0.1:{port}")])
            .args(["--remote-tokens", &tokens.display().to_string()])
            .args(["--remote-wait", "60"])
            .args(["--jsonout", &log.display().to_string()])
            .args(["--stderr-dir", &s.path("logs").display().to_string()])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(refusal), "{stderr}");
        assert!(games_in(&log).is_empty(), "no game was played");
    }
}

/// Runs a bridge that must give up by itself (a hang guard of a minute);
/// its stderr.
fn failing_bridge(dir: &std::path::Path, url: &str, token: &str, extra: &[&str]) -> String {
    let mut child = std::process::Command::new(ARBITER)
        .current_dir(dir)
        .args(["connect", url, "--token", token])
        .args(extra)
        .args(["--engine", &format!("cmd={}", common::testbot())])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("arbiter connect starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the bridge to {url} {extra:?} did not give up");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a failure");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bridge_plays_over_wss_and_a_plain_or_untrusted_one_fails_clearly() {
    let s = common::Scratch::new("remote", "tls");
    let [ca, cert, key] = common::certificates(&s.0, "ours");
    let [other_ca, ..] = common::certificates(&s.0, "other");
    let tokens = s.path("tokens.json");
    std::fs::write(&tokens, r#"{"tb": "tls-token-0123456789abcdef"}"#).unwrap();
    let port = free_port();
    let log = s.path("tls.jsonl");
    let event = std::process::Command::new(ARBITER)
        .current_dir(&s.0)
        .args(["match", "--games", "2", "--openings", "plies=2"])
        .args([
            "--engine",
            &format!("cmd={}", engine_cmd()),
            "name=local",
            "depth=1",
        ])
        .args(["--engine", "remote=tb", "name=remote", "depth=1"])
        .args(["--remote-listen", &format!("127.0.0.1:{port}")])
        .args(["--remote-tokens", &tokens.display().to_string()])
        .args(["--remote-wait", "60"])
        .args(["--tls-cert", &cert.display().to_string()])
        .args(["--tls-key", &key.display().to_string()])
        .args(["--jsonout", &log.display().to_string()])
        .args(["--stderr-dir", &s.path("logs").display().to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("arbiter starts");
    let wss = format!("wss://127.0.0.1:{port}/umi");
    let ws = format!("ws://127.0.0.1:{port}/umi");
    let token = "tls-token-0123456789abcdef";

    // Plain ws:// to the TLS endpoint: told to use wss://.
    let plain = failing_bridge(&s.0, &ws, token, &[]);
    assert!(plain.contains("connect to wss://"), "{plain}");
    // A certificate from another CA: not trusted, told about --ca.
    let other = other_ca.display().to_string();
    let untrusted = failing_bridge(&s.0, &wss, token, &["--ca", &other]);
    assert!(
        untrusted.contains("certificate is not trusted"),
        "{untrusted}"
    );
    assert!(untrusted.contains("--ca"), "{untrusted}");
    // The default roots (webpki's) do not know a private CA either.
    let default_roots = failing_bridge(&s.0, &wss, token, &[]);
    assert!(
        default_roots.contains("certificate is not trusted"),
        "{default_roots}"
    );

    // With our CA the bridge plays the match.
    let ours = ca.display().to_string();
    let _bridge = Bridge::to(
        &s.0,
        &wss,
        token,
        &["--ca", &ours],
        &[&format!("cmd={}", engine_cmd())],
    );
    let out = event.wait_with_output().expect("the match ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "remote engines connect to wss://127.0.0.1:{port}/umi"
        )),
        "{stdout}"
    );
    let games = games_in(&log);
    assert_eq!(games.len(), 2);
    for g in &games {
        let v: serde_json::Value = serde_json::from_str(g).expect("a whole line");
        assert!(
            v["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .any(|m| m.get("lag_ms").is_some()),
            "the remote side's moves carry their lag: {g}"
        );
    }
    assert_verifies(&log);
}

/// `/ws/play` of `arbiter serve` with a blocking client (a hang guard of a
/// minute on each read; nothing is timed).
fn play_socket(addr: &str) -> tungstenite::WebSocket<std::net::TcpStream> {
    let stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let (ws, _) =
        tungstenite::client(format!("ws://{addr}/ws/play"), stream).expect("the socket opens");
    ws
}

#[test]
fn serve_offers_a_remote_engine_and_plays_it_through_the_bridge() {
    let s = common::Scratch::new("remote", "serve");
    let tokens = s.path("tokens.json");
    std::fs::write(&tokens, r#"{"alice": "serve-token-0123456789abcdef"}"#).unwrap();
    let port = free_port();
    let bot = common::testbot();
    let served = common::serve(&[
        "--engine".to_owned(),
        "remote=alice".into(),
        "name=Alice".into(),
        "--engine".into(),
        format!("cmd={bot}"),
        "arg=--mode".into(),
        "arg=instant".into(),
        "name=B".into(),
        "--remote-listen".into(),
        format!("127.0.0.1:{port}"),
        "--remote-tokens".into(),
        tokens.display().to_string(),
        "--remote-wait".into(),
        "60".into(),
    ]);
    let config = common::get_json(&served.addr, "/api/config");
    let names: Vec<&str> = config["engines"]
        .as_array()
        .expect("engines")
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert!(
        names.contains(&"Alice"),
        "the remote engine is offered: {config}"
    );

    let _bridge = Bridge::start(
        &s.0,
        port,
        "serve-token-0123456789abcdef",
        &[&format!("cmd={bot}"), "arg=--mode", "arg=instant"],
    );
    let mut page = play_socket(&served.addr);
    let start = serde_json::json!({
        "type": "start", "game": "bohnenspiel", "tc": "st=1",
        "south": {"player": "Alice"}, "north": {"player": "B"},
    });
    page.send(tungstenite::Message::text(start.to_string()))
        .expect("send");
    let mut moves: Vec<String> = Vec::new();
    let last = loop {
        let tungstenite::Message::Text(t) = page.read().expect("a message") else {
            continue;
        };
        let state: serde_json::Value = serde_json::from_str(&t).expect("JSON");
        assert_eq!(state["type"], "state", "{state}");
        let new = state["moves"].as_array().expect("moves");
        assert_eq!(
            state["ply"].as_u64().expect("ply") as usize - new.len(),
            moves.len(),
            "a state continues the last: {state}"
        );
        moves.extend(
            new.iter()
                .map(|m| m["move"].as_str().expect("move").to_owned()),
        );
        if state["status"] != "ongoing" {
            break state;
        }
    };
    let mut rules =
        mancala_rules::game_from_position(&start_position(GameId::Bohnenspiel)).expect("start");
    for mv in &moves {
        rules.play(mv).expect("every move is legal in turn");
    }
    let outcome = rules.outcome().expect("the rules end the game there");
    assert_eq!(last["status"], outcome.result.as_pgn(), "{last}");
    assert!(moves.len() >= 2, "both sides moved: {moves:?}");
    let _ = page.close(None);
}

/// A bot over `url` whose engine says `id name {name}`: answers `umi` and
/// `isready` (or, with `drop_at_isready`, drops its connection at the first
/// `isready`), counting the `umi`s it is sent, until its connection ends.
async fn named_bot(url: String, name: &'static str, drop_at_isready: bool, umis: Arc<AtomicUsize>) {
    let mut ws = connect(&url, Some(TOKEN_A)).await.expect("connects");
    while let Some(Ok(frame)) = ws.next().await {
        let Message::Text(line) = frame else { continue };
        let replies: Vec<String> = match line.as_str() {
            "umi" => {
                umis.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                vec![
                    format!("id name {name}"),
                    "games bohnenspiel".into(),
                    "umiok".into(),
                ]
            }
            "isready" if drop_at_isready => return,
            "isready" => vec!["readyok".into()],
            _ => vec![],
        };
        for r in replies {
            if ws.send(Message::text(r)).await.is_err() {
                return;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_resumes_only_its_own_engine_and_hands_another_over_handshaken() {
    use arbiter_core::contender::session::Session;
    use arbiter_net::remote::link::{LinkSettings, OtherEngine, RemoteLink};
    use tokio::time::Instant;
    // why two connections: the other engine's and the comeback at once.
    let mut tokens = Tokens::default();
    tokens.insert("alice", TOKEN_A);
    let registry = Registry::new(tokens, |_| 2);
    let addr = arbiter_net::remote::listen(
        "127.0.0.1:0".parse().unwrap(),
        registry.clone(),
        Limits::default(),
        None,
    )
    .await
    .expect("listens");
    let url = format!("ws://{addr}/umi");
    let count = || Arc::new(AtomicUsize::new(0));
    let (a_umis, b_umis, back_umis) = (count(), count(), count());
    let first = tokio::spawn(named_bot(url.clone(), "Alpha 1", true, a_umis.clone()));
    // A hang guard only: a loaded machine may take long to connect.
    let far = || Instant::now() + Duration::from_secs(60);
    let conn = registry
        .take("alice", far())
        .await
        .expect("alice connected");
    let (handed, mut others) = tokio::sync::mpsc::unbounded_channel();
    let other: OtherEngine = Arc::new(move |link| {
        let _ = handed.send(link);
    });
    let settings = LinkSettings {
        // why long: the other engine and the comeback must come within it.
        grace: Duration::from_secs(60),
        write_timeout: Duration::from_secs(10),
        lag: Default::default(),
        tc: Default::default(),
    };
    let mut link =
        RemoteLink::new(conn, registry.clone(), "alice", settings).same_engine_only(other);
    link.send_lines(&["umi"]).await.expect("sent");
    while link.read_line_until(far()).await.expect("the handshake") != "umiok" {}
    // It drops at `isready`; another engine of the same token connects.
    link.send_lines(&["isready"]).await.expect("sent");
    first.await.expect("the first bot ends");
    let second = tokio::spawn(named_bot(url.clone(), "Alpha 2", false, b_umis.clone()));
    let reading = tokio::spawn(async move {
        let line = link.read_line_until(far()).await;
        (link, line)
    });
    // The other engine does not resume the game: it is handed over...
    let other_link = tokio::time::timeout(Duration::from_secs(60), others.recv())
        .await
        .expect("handed over in time")
        .expect("a link");
    assert!(
        !reading.is_finished(),
        "the game's link waits on for its own engine"
    );
    // ...and a session starts on it without a second `umi`.
    let session = Session::start_remote(other_link, Duration::from_secs(30), None)
        .await
        .expect("a session on the other engine");
    assert_eq!(session.id_name.as_deref(), Some("Alpha 2"));
    assert_eq!(b_umis.load(std::sync::atomic::Ordering::SeqCst), 1);
    // The same engine comes back: the game's link resumes on it (the
    // replay's `isready` answered).
    let back = tokio::spawn(named_bot(url.clone(), "Alpha 1", false, back_umis.clone()));
    let (link, line) = tokio::time::timeout(Duration::from_secs(60), reading)
        .await
        .expect("resumed in time")
        .expect("the reader");
    assert_eq!(line.expect("a line after the comeback"), "readyok");
    assert_eq!(back_umis.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(link.is_open());
    drop((link, session));
    let _ = tokio::time::timeout(Duration::from_secs(10), second).await;
    let _ = tokio::time::timeout(Duration::from_secs(10), back).await;
}
