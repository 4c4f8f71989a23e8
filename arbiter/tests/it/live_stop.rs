//! A match stopped by a real SIGTERM (crate::shutdown): with `--live` the
//! first signal drains (the games in flight finish and are logged, exit 0);
//! without it the arbiter stops at once (143) as before. Either way no game
//! is logged as a crash of an engine the arbiter killed itself, and no
//! process is left behind.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{count_lines, engine, Scratch};

fn start(dir: &Scratch, extra: &[&str]) -> Child {
    start_event(dir, &["match", "--games", "1000"], 2, extra)
}

/// `arbiter <command>` of `engines` reference engines A, B, … (a match of
/// 1000 games, or a format's rounds given in `command`), once a game has
/// been logged.
fn start_event(dir: &Scratch, command: &[&str], engines: usize, extra: &[&str]) -> Child {
    let log = dir.path("games.jsonl");
    let engine = |name: &str| {
        [
            "--engine".to_owned(),
            format!("cmd={}", engine()),
            format!("name={name}"),
            dir.dir_arg(),
        ]
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .args(command)
        .args((0..engines).flat_map(|i| engine(&((b'A' + i as u8) as char).to_string())))
        .args(["--each", "tc=3+0.05", "--concurrency", "2"])
        .args(["--jsonout", &log.display().to_string()])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbiter starts");
    // why read stdout on: a full pipe must not stall the arbiter.
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || for _ in BufReader::new(out).lines() {});
    // A first game logged: the next ones are in flight.
    let t0 = Instant::now();
    while count_lines(&log) == 0 {
        assert!(t0.elapsed() < Duration::from_secs(120), "no game finished");
        if child.try_wait().unwrap().is_some() {
            let mut err = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut err);
            panic!("the arbiter ended: {err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

fn sigterm_and_wait(child: &mut Child, limit: Duration) -> (Option<i32>, String) {
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill takes two integers; the pid is our own live child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            panic!("the arbiter did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    (status.code(), err)
}

/// The logged games' termination kinds.
fn terminations(dir: &Scratch) -> Vec<String> {
    std::fs::read_to_string(dir.path("games.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            v["termination"]["kind"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn a_live_match_drains_at_the_first_sigterm_and_exits_0() {
    let dir = Scratch::new("live-stop", "drain");
    let mut child = start(&dir, &["--live", "127.0.0.1:0"]);
    let before = count_lines(&dir.path("games.jsonl"));
    let (code, err) = sigterm_and_wait(&mut child, Duration::from_secs(90));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("stopping"), "{err}");
    let kinds = terminations(&dir);
    assert!(kinds.len() >= before && kinds.len() < 1000, "{kinds:?}");
    for kind in &kinds {
        assert!(kind != "crash" && kind != "interrupted", "{kinds:?}\n{err}");
    }
    dir.assert_no_leftovers();
}

#[test]
fn a_plain_match_stops_at_once_and_logs_no_crash_of_its_own_kill() {
    let dir = Scratch::new("live-stop", "plain");
    let mut child = start(&dir, &[]);
    let (code, err) = sigterm_and_wait(&mut child, Duration::from_secs(30));
    assert_eq!(code, Some(143), "{err}");
    for kind in terminations(&dir) {
        assert_ne!(kind, "crash", "{err}");
    }
    dir.assert_no_leftovers();
}

/// A drained Swiss cannot pair its next round: it ends as drained (exit 0,
/// the documented rule; before: exit 2, a usage error) and says to resume.
#[test]
fn a_drained_swiss_exits_0_and_says_to_resume() {
    let dir = Scratch::new("live-stop", "swiss");
    let mut child = start_event(
        &dir,
        &["tournament", "--format", "swiss", "--rounds", "2"],
        4,
        &["--live", "127.0.0.1:0"],
    );
    let (code, err) = sigterm_and_wait(&mut child, Duration::from_secs(90));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("--resume"), "{err}");
    for kind in terminations(&dir) {
        assert!(kind != "crash" && kind != "interrupted", "{err}");
    }
    dir.assert_no_leftovers();
}

/// `--drain 0`: the first signal aborts the games in progress at once
/// (never a result, no crash charged) and the arbiter exits 0.
#[test]
fn a_live_match_with_drain_0_aborts_its_games_at_the_first_signal() {
    let dir = Scratch::new("live-stop", "drain0");
    let mut child = start(&dir, &["--live", "127.0.0.1:0", "--drain", "0"]);
    let (code, err) = sigterm_and_wait(&mut child, Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("did not finish in 0 s (--drain)"), "{err}");
    for kind in terminations(&dir) {
        assert!(kind != "crash" && kind != "interrupted", "{err}");
    }
    dir.assert_no_leftovers();
}

/// `--drain` acts only on a `--live` event; without one it is refused.
#[test]
fn drain_without_live_is_refused() {
    let dir = Scratch::new("live-stop", "no-live");
    let cmd = format!("cmd={}", engine());
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&dir.0)
        .args(["match", "--drain", "5", "--engine", &cmd, "name=a"])
        .args(["--engine", &cmd, "name=b", "--each", "st=0.1"])
        .output()
        .expect("the arbiter runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--drain") && err.contains("--live"), "{err}");
}
