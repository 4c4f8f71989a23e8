//! `arbiter tournament` and `arbiter merge` against real processes: the
//! reference engine at fixed depths (deterministic: it clears its hash on
//! `newgame` and plays without noise at full level) and `testbot`.
//!
//! The determinism of those engines is what lets these tests compare whole
//! reports: the same schedule must give the same standings however it was
//! played (interrupted, concurrent, sharded).

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common;
use common::{report, run_arbiter as run};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// The directory of `engine` and `testbot` (built once per run), which is
/// also the arbiter's, so the built-in tournament finds the engine next to it.
fn bins() -> &'static Path {
    common::bin_dir()
}

fn engine(name: &str, depth: u32) -> Vec<String> {
    let cmd = bins().join("engine");
    vec![
        "--engine".into(),
        format!("cmd={}", cmd.display()),
        format!("name={name}"),
        format!("depth={depth}"),
    ]
}

fn testbot(name: &str, mode: &str) -> Vec<String> {
    let cmd = bins().join("testbot");
    vec![
        "--engine".into(),
        format!("cmd={}", cmd.display()),
        format!("name={name}"),
        "arg=--mode".into(),
        format!("arg={mode}"),
        "depth=1".into(),
    ]
}

/// A fresh directory for one test.
fn workdir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("arbiter-tournament-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn arbiter(dir: &Path, args: &[String]) -> Command {
    let mut cmd = Command::new(ARBITER);
    cmd.current_dir(dir).args(args);
    cmd
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The field of the determinism tests: 4 engines, 3 rounds, 36 games.
fn field() -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--rounds",
        "3",
        "--openings",
        "plies=2",
        "--seed",
        "11",
    ]
    .map(String::from)
    .to_vec();
    args.extend(engine("d1", 1));
    args.extend(engine("d2", 2));
    args.extend(engine("d3", 3));
    args.extend(testbot("first-move", "instant"));
    args
}

fn with(mut args: Vec<String>, more: &[&str]) -> Vec<String> {
    args.extend(more.iter().map(|s| s.to_string()));
    args
}

fn path_arg(p: &Path) -> String {
    p.display().to_string()
}

/// Slot index → count, from a results log (every line must parse).
fn slots(log: &Path) -> BTreeMap<usize, usize> {
    let text = std::fs::read_to_string(log).expect("results log");
    let mut count = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a whole JSON line");
        let slot = v["tags"]["Slot"].as_str().expect("Slot tag");
        let index: usize = slot.split('/').next().unwrap().parse().unwrap();
        *count.entry(index).or_default() += 1;
    }
    count
}

use common::count_lines;

/// Uninterrupted reference run at concurrency 2: its report.
fn reference() -> &'static str {
    static REF: OnceLock<String> = OnceLock::new();
    REF.get_or_init(|| {
        let dir = workdir("reference");
        let log = dir.join("ref.jsonl");
        let out = run(
            &dir,
            &with(
                field(),
                &["--concurrency", "2", "--jsonout", &path_arg(&log)],
            ),
        );
        assert_eq!(slots(&log), (0..36).map(|i| (i, 1)).collect());
        report(&stdout(&out))
    })
}

#[test]
fn concurrency_does_not_change_the_standings() {
    let expected = reference();
    let dir = workdir("concurrency");
    let out = run(&dir, &with(field(), &["--concurrency", "1"]));
    assert_eq!(report(&stdout(&out)), expected);
    // Sanity: the field is not degenerate (the deeper engine scores more).
    assert!(expected.contains("d3"), "{expected}");
}

#[test]
fn resume_after_kill_9_loses_and_repeats_nothing() {
    let expected = reference();
    let dir = workdir("resume");
    let log = dir.join("results.jsonl");
    let pgn = dir.join("results.pgn");
    let args = with(
        field(),
        &[
            "--concurrency",
            "2",
            "--resume",
            "--jsonout",
            &path_arg(&log),
            "--pgnout",
            &path_arg(&pgn),
        ],
    );
    // The kill moments vary from attempt to attempt.
    let mut next = common::random_moments(0x2545_f491_4f6c_dd1d);
    let mut kills = 0;
    let mut interrupted = 0;
    let mut finished = 0;
    for attempt in 0..8 {
        if finished == 36 {
            break;
        }
        let mut child = arbiter(&dir, &args)
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn arbiter");
        // A random moment: once the log has reached a random number of
        // games (polled), plus a random few milliseconds.
        let left = 36 - finished;
        let target = finished + 1 + (next() * (left / 2) as f64) as usize;
        let started = Instant::now();
        while count_lines(&log) < target
            && child.try_wait().ok().flatten().is_none()
            && started.elapsed() < Duration::from_secs(30)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_micros((next() * 5000.0) as u64));
        let pid = child.id() as i32;
        // SAFETY: killpg with a process group we created; no memory involved.
        if unsafe { libc::killpg(pid, libc::SIGKILL) } == 0 {
            kills += 1;
        }
        let _ = child.wait();
        finished = count_lines(&log);
        if finished < 36 {
            interrupted += 1;
        }
        if attempt == 0 {
            // As if killed in the middle of a write: half a line at the end.
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(line) = text.lines().next() {
                let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
                std::io::Write::write_all(&mut f, &line.as_bytes()[..line.len() / 2]).unwrap();
            }
        }
    }
    // The kills did interrupt the tournament, more than once.
    assert!(
        kills > 1 && interrupted > 1,
        "{kills} kills, {interrupted} interrupted"
    );
    let out = run(&dir, &args);
    let text = stdout(&out);
    assert_eq!(report(&text), expected, "resumed:\n{text}");
    assert_eq!(
        slots(&log),
        (0..36).map(|i| (i, 1)).collect(),
        "each slot exactly once"
    );
    // The PGN follows the results log: each game once.
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Event ").count(), 36);
    // Resuming a finished tournament plays nothing and reports the same.
    let again = stdout(&run(&dir, &args));
    assert!(
        again.contains("Resuming: 36 game(s) already in the results log, 0 to play"),
        "{again}"
    );
    assert_eq!(report(&again), expected);
    assert_eq!(slots(&log).len(), 36);
    // Without --resume, an existing log is refused rather than appended to.
    let fresh: Vec<String> = args.iter().filter(|a| *a != "--resume").cloned().collect();
    let refused = arbiter(&dir, &fresh).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("add --resume"));
    // Another schedule (other seed) refuses this log.
    let other: Vec<String> = args
        .iter()
        .map(|a| {
            if a == "11" {
                "12".to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    let refused = arbiter(&dir, &other).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not of this tournament"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[test]
fn shards_merge_into_the_whole_event() {
    let expected = reference();
    let dir = workdir("shards");
    let logs: Vec<PathBuf> = (1..=3)
        .map(|i| dir.join(format!("shard{i}.jsonl")))
        .collect();
    let children: Vec<_> = logs
        .iter()
        .enumerate()
        .map(|(i, log)| {
            let shard = format!("{}/3", i + 1);
            arbiter(
                &dir,
                &with(field(), &["--shard", &shard, "--jsonout", &path_arg(log)]),
            )
            .stdout(Stdio::null())
            .spawn()
            .expect("spawn shard")
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    for (i, log) in logs.iter().enumerate() {
        let s = slots(log);
        assert_eq!(s.len(), 12);
        assert!(s.keys().all(|k| k % 3 == i), "shard {}: {s:?}", i + 1);
    }
    let merged = dir.join("merged.jsonl");
    let mut args = vec!["merge".to_string()];
    args.extend(logs.iter().map(|p| path_arg(p)));
    // A log twice: its games count once.
    args.push(path_arg(&logs[0]));
    args.extend(["--jsonout".to_string(), path_arg(&merged)]);
    let text = stdout(&run(&dir, &args));
    assert!(
        text.contains("Merged 36 game(s)") && text.contains("12 duplicate(s) dropped"),
        "{text}"
    );
    assert_eq!(report(&text), expected);
    assert_eq!(slots(&merged), (0..36).map(|i| (i, 1)).collect());
    // Two shards only: the gap is named.
    let partial = stdout(&run(
        &dir,
        &["merge".into(), path_arg(&logs[0]), path_arg(&logs[1])],
    ));
    assert!(
        partial.contains("Incomplete: 12 slot(s) missing (2, 5, 8"),
        "{partial}"
    );
    // A shard of another event is refused.
    let other_log = dir.join("other.jsonl");
    let other: Vec<String> = field()
        .into_iter()
        .map(|a| if a == "11" { "12".to_string() } else { a })
        .collect();
    run(
        &dir,
        &with(
            other,
            &["--shard", "1/3", "--jsonout", &path_arg(&other_log)],
        ),
    );
    let refused = arbiter(
        &dir,
        &["merge".into(), path_arg(&logs[0]), path_arg(&other_log)],
    )
    .output()
    .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("different tournaments"));
}

#[test]
fn a_crashing_engine_loses_its_games_and_the_rest_is_intact() {
    let dir = workdir("hostile");
    let log = dir.join("results.jsonl");
    let mut args: Vec<String> = [
        "tournament",
        "--rounds",
        "2",
        "--openings",
        "plies=2",
        "--concurrency",
        "2",
    ]
    .map(String::from)
    .to_vec();
    args.extend(engine("d1", 1));
    args.extend(engine("d2", 2));
    args.extend(testbot("crasher", "crash-mid"));
    args.extend(["--jsonout".into(), path_arg(&log)]);
    let text = stdout(&run(&dir, &args));
    // 3 pairings × 2 colours × 2 rounds.
    assert_eq!(slots(&log), (0..12).map(|i| (i, 1)).collect());
    let crasher = text
        .lines()
        .find(|l| l.contains(" crasher ") && l.contains('|'))
        .expect("crasher's standings line");
    assert!(crasher.contains(" 8    0.0 "), "{crasher}");
    assert!(crasher.contains("crash:8"), "{crasher}");
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = v["termination"]["kind"].as_str().unwrap();
        let hostile = v["south"] == "crasher" || v["north"] == "crasher";
        if hostile {
            assert_eq!(kind, "crash", "{line}");
        } else {
            assert_eq!(kind, "rules", "{line}");
        }
    }
    let verify = run(&dir, &["verify".into(), path_arg(&log)]);
    assert!(stdout(&verify).starts_with("OK (12 games)"));
}

#[test]
fn sprt_stops_a_decided_match() {
    let dir = workdir("sprt");
    let log = dir.join("results.jsonl");
    let mut args: Vec<String> = ["tournament", "--rounds", "200", "--openings", "plies=4"]
        .map(String::from)
        .to_vec();
    args.extend(engine("deep", 4));
    args.extend(engine("shallow", 1));
    args.extend(["--sprt", "elo0=0", "elo1=10", "--jsonout", &path_arg(&log)].map(String::from));
    let text = stdout(&run(&dir, &args));
    assert!(text.contains("SPRT decided"), "{text}");
    assert!(text.contains("H1"), "{text}");
    assert!(text.contains("[LLR "), "{text}");
    let played = slots(&log).len();
    assert!(
        played < 400,
        "the test stopped the event early ({played} games)"
    );
    // Resuming a decided test starts nothing.
    let again = stdout(&run(&dir, &with(args, &["--resume"])));
    assert!(again.contains("0 to play"), "{again}");
    assert_eq!(slots(&log).len(), played);
}

#[test]
fn built_in_tournament_runs_without_engines() {
    let dir = workdir("builtin");
    bins();
    let out = run(
        &dir,
        &[
            "tournament".into(),
            "--each".into(),
            "depth=1".into(),
            "--rounds".into(),
            "1".into(),
        ],
    );
    let text = stdout(&out);
    for level in ["level-3", "level-5", "level-8", "level-11"] {
        assert!(text.contains(level), "{text}");
    }
    assert!(text.contains("12 games"), "{text}");
    assert!(text.contains("Elo relative to the field"), "{text}");
}

#[test]
fn match_sprt_stops_too() {
    let dir = workdir("match-sprt");
    let mut args: Vec<String> = ["match", "--games", "400", "--openings", "plies=4"]
        .map(String::from)
        .to_vec();
    args.extend(engine("deep", 4));
    args.extend(engine("shallow", 1));
    args.extend(["--sprt", "elo0=0", "elo1=10"].map(String::from));
    let text = stdout(&run(&dir, &args));
    assert!(text.contains("H1 was accepted"), "{text}");
    let games = text
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .count();
    assert!(games > 0 && games < 400, "{games} games");
    assert!(text.contains("[LLR "), "{text}");
}

/// Two instant test engines: `rounds` game pairs, fast.
fn instant_pair(rounds: &str) -> Vec<String> {
    let mut args: Vec<String> = ["tournament", "--rounds", rounds, "--max-plies", "20"]
        .map(String::from)
        .to_vec();
    args.extend(testbot("a", "instant"));
    args.extend(testbot("b", "random"));
    args
}

#[test]
fn a_second_arbiter_on_the_same_log_refuses() {
    let dir = workdir("two-arbiters");
    let log = dir.join("results.jsonl");
    let args = with(
        instant_pair("100000"),
        &["--resume", "--jsonout", &path_arg(&log)],
    );
    let mut first = arbiter(&dir, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn arbiter");
    let started = Instant::now();
    while count_lines(&log) == 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "no game");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = arbiter(&dir, &args).output().expect("second arbiter");
    // SAFETY: kill takes two integers; the pid is our own live child.
    unsafe { libc::kill(first.id() as i32, libc::SIGTERM) };
    let status = first.wait().expect("wait");
    assert_eq!(status.code(), Some(143));
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(
        err.contains("results.jsonl") && err.contains("another arbiter is writing to it"),
        "{err}"
    );
    // Only the first arbiter wrote: every slot once.
    assert!(slots(&log).values().all(|&n| n == 1));
}

#[test]
fn resume_and_verify_refuse_duplicated_and_forged_slots() {
    let dir = workdir("forged-slots");
    let log = dir.join("results.jsonl");
    let args = with(
        instant_pair("2"),
        &["--resume", "--jsonout", &path_arg(&log)],
    );
    run(&dir, &args);
    let good = std::fs::read_to_string(&log).expect("log");
    let first = good.lines().next().expect("a game").to_string();
    let slot = serde_json::from_str::<serde_json::Value>(&first).unwrap()["tags"]["Slot"]
        .as_str()
        .unwrap()
        .to_string();
    let forged = first.replace(&format!("\"Slot\":\"{slot}\""), "\"Slot\":\"500/96\"");
    assert_ne!(forged, first, "the Slot tag was rewritten");
    for (case, text, says) in [
        (
            "duplicated",
            format!("{good}{first}\n"),
            "was already played",
        ),
        (
            "forged",
            format!("{good}{forged}\n"),
            "outside its schedule",
        ),
    ] {
        std::fs::write(&log, &text).unwrap();
        let out = arbiter(&dir, &args).output().expect("resume");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{case}: {err}");
        assert!(err.contains(says), "{case}: {err}");
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            text,
            "{case}: log untouched"
        );
        let verify = arbiter(&dir, &["verify".into(), path_arg(&log)])
            .output()
            .expect("verify");
        let said = String::from_utf8_lossy(&verify.stdout);
        assert_eq!(verify.status.code(), Some(1), "{case}: {said}");
        assert!(said.contains(says), "{case}: {said}");
    }
}

/// The resident memory of a live process, in KiB (from /proc).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_huge_event_starts_in_constant_memory() {
    let dir = workdir("huge");
    let log = dir.join("results.jsonl");
    // 4 million games: held in memory, their jobs alone would take 800 MB.
    let args = with(instant_pair("2000000"), &["--jsonout", &path_arg(&log)]);
    let mut child = arbiter(&dir, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn arbiter");
    let started = Instant::now();
    while count_lines(&log) < 3 {
        assert!(started.elapsed() < Duration::from_secs(300), "no game");
        assert!(child.try_wait().ok().flatten().is_none(), "arbiter ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    let rss = rss_kib(child.id());
    // SAFETY: kill takes two integers; the pid is our own live child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert_eq!(child.wait().expect("wait").code(), Some(143));
    assert!(rss > 0 && rss < 64 * 1024, "resident memory {rss} KiB");
}

#[test]
fn an_event_over_the_game_limit_is_refused() {
    let dir = workdir("too-many");
    let out = arbiter(&dir, &instant_pair("1000000000000"))
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("more than the 1000000000000 games"), "{err}");
}

#[test]
fn a_failed_write_stops_the_run_and_the_log_stays_resumable() {
    let dir = workdir("disk-full");
    let log = dir.join("results.jsonl");
    let args = with(
        instant_pair("20"),
        &["--resume", "--jsonout", &path_arg(&log)],
    );
    // "Disk full": no file of the arbiter may grow past 3000 bytes (a write
    // crossing the limit is cut short, as on a full disk, then fails).
    let mut cmd = arbiter(&dir, &args);
    // SAFETY: setrlimit and signal touch only the values passed; both are
    // async-signal-safe, as pre_exec requires.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 3000,
                rlim_max: 3000,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            // The write fails with EFBIG instead of killing the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = cmd.output().expect("run arbiter");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write the results log"), "{err}");
    let written = std::fs::read(&log).expect("log");
    assert!(written.len() <= 3000 && !written.is_empty());
    // Nothing after the torn bytes: the file is whole lines, then at most
    // one partial line at its very end.
    let text = String::from_utf8_lossy(&written);
    let whole = text.matches('\n').count();
    assert!((1..40).contains(&whole), "{whole} games before the failure");
    // Space is back: --resume repairs the end and plays the rest.
    let out = run(&dir, &args);
    assert!(stdout(&out).contains("Resuming:"), "{}", stdout(&out));
    assert_eq!(slots(&log), (0..40).map(|i| (i, 1)).collect());
    let verify = arbiter(&dir, &["verify".into(), path_arg(&log)])
        .output()
        .expect("verify");
    assert_eq!(
        String::from_utf8_lossy(&verify.stdout).trim(),
        "OK (40 games)"
    );
}

#[test]
fn engines_ponder_in_a_tournament_too() {
    let dir = workdir("ponder");
    let log = dir.join("games.jsonl");
    let traffic = dir.join("traffic.txt");
    let mut args: Vec<String> = ["tournament", "--rounds", "1", "--concurrency", "2"]
        .map(String::from)
        .to_vec();
    args.extend(engine("d1", 1));
    args.extend(engine("d2", 2));
    args.extend(engine("d3", 3));
    let args = with(
        args,
        &[
            "--each",
            "ponder",
            "--jsonout",
            &path_arg(&log),
            "--debug",
            &path_arg(&traffic),
        ],
    );
    run(&dir, &args);
    assert_eq!(slots(&log).len(), 6, "every game of the round robin");
    let text = std::fs::read_to_string(&traffic).expect("traffic log");
    // Depth-limited pondering: searched, then answered on ponderhit.
    assert!(text.contains("> go ponder depth "), "{text}");
    assert!(text.contains("> ponderhit"), "{text}");
    let out = run(&dir, &["verify".to_owned(), path_arg(&log)]);
    assert!(stdout(&out).starts_with("OK (6 games)"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `k/N` of every "Finished game k/N" line, in printing order.
fn finished_counts(text: &str) -> Vec<(usize, usize)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .map(|rest| {
            let count = rest.split(' ').next().expect("k/N");
            let (k, n) = count.split_once('/').expect("k/N");
            (k.parse().expect("k"), n.parse().expect("N"))
        })
        .collect()
}

#[test]
fn progress_lines_count_games_in_the_order_they_finish() {
    let dir = workdir("progress-order");
    let log = dir.join("results.jsonl");
    let mut args = ["tournament", "--max-plies", "20", "--concurrency", "2"]
        .map(String::from)
        .to_vec();
    args.extend(testbot("a", "random"));
    args.extend(testbot("b", "instant"));
    args.extend(testbot("c", "random"));
    args.extend(["--jsonout".into(), path_arg(&log), "--resume".into()]);
    // 3 pairings × 2 games × 3 rounds = 18 games, two at a time.
    let first = finished_counts(&stdout(&run(&dir, &with(args.clone(), &["--rounds", "3"]))));
    assert_eq!(first, (1..=18).map(|k| (k, 18)).collect::<Vec<_>>());
    // Extended to 5 rounds: the count goes on from the 18 games logged.
    let more = finished_counts(&stdout(&run(&dir, &with(args, &["--rounds", "5"]))));
    assert_eq!(more, (19..=30).map(|k| (k, 30)).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}
