//! The ordering barrier before every `go` (spec section 6): a second
//! `bestmove` for one `go` is never taken as the answer to the next one,
//! however late it arrives — from a local process that writes it apart
//! from the first, or from a remote engine behind `arbiter connect` and a
//! network that delays each line. Every game ends with `stray_bestmove`
//! by the offender's first move at the latest: none of its answers is
//! shifted by one, which would credit it a second move or end in
//! `illegal_move`.

use std::sync::Arc;
use std::time::Duration;

use arbiter_core::contender::config::parse_engines;
use arbiter_core::contender::remote::RemoteEngines;
use arbiter_core::play::game::Timeouts;
use arbiter_core::play::runner::{Finished, Flow, Job, Runner};
use arbiter_core::records::log::Termination;
use arbiter_net::remote::registry::Registry;
use arbiter_net::remote::tokens::Tokens;
use arbiter_net::remote::{Limits, Links};
use mancala_rules::{start_position, GameId, Side};

use crate::common;

const TOKEN: &str = "token-of-twice-0123456789";
const GAMES: usize = 200;
const SLOTS: usize = 4;

fn tokens(spec: &str) -> Vec<String> {
    spec.split_whitespace().map(str::to_owned).collect()
}

/// `GAMES` games, the offender (engine 1) playing North.
fn jobs() -> Vec<Job> {
    let game = GameId::Bohnenspiel;
    (0..GAMES)
        .map(|index| Job {
            index,
            round: "1".into(),
            game,
            south: 0,
            north: 1,
            start_position: start_position(game).to_owned(),
            pair: index,
        })
        .collect()
}

fn runner(offender: &str, concurrency: usize, remote: Option<RemoteEngines>) -> Runner {
    let local = tokens(&format!(
        "cmd={} name=local arg=--mode arg=instant tc=60+1",
        common::testbot()
    ));
    Runner {
        engines: parse_engines(&[local, tokens(offender)], &[], None).expect("engines"),
        concurrency,
        timeouts: Timeouts::default(),
        handshake_timeout: Duration::from_secs(10),
        max_plies: Some(20),
        stderr_dir: None,
        traffic: None,
        quit_grace: Duration::from_millis(500),
        partie: None,
        adjudication: Default::default(),
        observer: None,
        remote,
        shutdown: Default::default(),
    }
}

/// Plays the jobs, bounded in time; the results.
async fn play_all(runner: &Runner) -> Vec<Finished> {
    let mut done = Vec::new();
    let run = runner.run(jobs(), |f| {
        done.push(f);
        Flow::Continue
    });
    tokio::time::timeout(Duration::from_secs(150), run)
        .await
        .expect("the games end in time")
        .expect("no panic");
    done
}

/// Every game: the offender's duplicate is the `stray_bestmove` verdict,
/// with its first answer played (or not even that, when the duplicate is
/// found right behind it); never a shifted answer (a second move credited,
/// or `illegal_move`).
fn assert_never_shifted(done: &[Finished]) {
    assert_eq!(done.len(), GAMES);
    let mut shifted = Vec::new();
    for f in done {
        let north_moves = f.played.moves.iter().skip(1).step_by(2).count();
        match &f.played.termination {
            Termination::StrayBestmove {
                side: Side::North, ..
            } if north_moves <= 1 => {}
            other => shifted.push(format!("{north_moves} North moves, {other:?}")),
        }
    }
    assert!(
        shifted.is_empty(),
        "{} of {GAMES} games took a stale bestmove: {shifted:#?}",
        shifted.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_engine_s_late_second_bestmove_is_never_the_next_answer() {
    // The second line comes 0 to 2 ms after the first, in its own write: often
    // after the check right behind the answer and after the next `go`.
    let offender = format!(
        "cmd={} name=twice arg=--mode arg=bestmove-twice arg=--delay-ms arg=2 tc=60+1",
        common::testbot()
    );
    let done = play_all(&runner(&offender, 2, None)).await;
    assert_never_shifted(&done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pondering_engine_s_late_second_bestmove_is_never_the_answer_to_ponderhit() {
    // The duplicate of the answer arrives while the engine ponders (it was
    // sent `go ponder` at once), often after the opponent's move and the
    // `ponderhit`: only the barrier's readyok tells it from the answer.
    let offender = format!(
        "cmd={} name=twice arg=--mode arg=ponder-twice arg=--delay-ms arg=2 ponder tc=60+1",
        common::testbot()
    );
    let done = play_all(&runner(&offender, 2, None)).await;
    assert_never_shifted(&done);
}

/// `arbiter connect`, killed (with its engines) when dropped.
struct Bridge(std::process::Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        // why SIGTERM: the bridge kills its engines on the way out.
        // SAFETY: a plain signal to our own child.
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_engine_s_second_bestmove_over_a_slow_network_is_never_the_next_answer() {
    let mut tokens_ = Tokens::default();
    tokens_.insert("twice", TOKEN);
    let registry = Registry::new(tokens_, |_| SLOTS);
    let target = arbiter_net::remote::listen(
        "127.0.0.1:0".parse().unwrap(),
        registry.clone(),
        Limits::default(),
        None,
    )
    .await
    .expect("listens");
    let relay = common::delaying_relay(target, 2..=20, 1).await;
    // The bot: both lines in one write; the bridge sends them as two
    // frames, which the relay may deliver up to 18 ms apart.
    let bridge = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["connect", &format!("ws://{relay}/umi"), "--token", TOKEN])
        .args(["--slots", &SLOTS.to_string(), "--engine"])
        .args([
            format!("cmd={}", common::testbot()),
            "arg=--mode".into(),
            "arg=double-bestmove".into(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(Bridge)
        .expect("arbiter connect starts");
    let remote = Links {
        registry: Arc::clone(&registry),
        grace: Duration::ZERO,
        write_timeout: Duration::from_secs(10),
    }
    .engines(Duration::from_secs(20));
    let r = runner("remote=twice name=twice tc=60+1", SLOTS, Some(remote));
    let done = play_all(&r).await;
    drop(bridge);
    assert_never_shifted(&done);
}
