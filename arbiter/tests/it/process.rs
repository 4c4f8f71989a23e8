//! The process room against real processes: the `testbot` binary (crate
//! `testbots`, built on demand by [`testbot`]) and small `/bin/sh` scripts.
//!
//! None of these tests need the rules library: they never send `position`, and
//! `go` without a position is answered with `bestmove none`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_core::contender::process::{
    kill_all_engines, live_engine_count, EngineProcess, Exit, LaunchSpec, ReadError, SpawnError,
    TrafficKind, TrafficRecord, WriteError, DEFAULT_MAX_LINE_LEN,
};
use tokio::sync::RwLock;
use tokio::time::Instant;

use crate::common;

/// `kill_all_engines` kills every engine of this test process, so that test
/// takes this lock for writing and every other engine test for reading.
static ENGINES: RwLock<()> = RwLock::const_new(());

/// Path of the `testbot` binary, built once per test run.
fn testbot() -> PathBuf {
    common::bin_dir().join("testbot")
}

fn bot(mode: &str) -> LaunchSpec {
    LaunchSpec::new(testbot()).name(mode).args(["--mode", mode])
}

fn sh(script: &str) -> LaunchSpec {
    LaunchSpec::new("/bin/sh").args(["-c", script])
}

fn in_secs(secs: u64) -> Instant {
    Instant::now() + Duration::from_secs(secs)
}

async fn read(engine: &mut EngineProcess) -> Result<String, ReadError> {
    engine.read_line_until(in_secs(10)).await
}

/// Sends `command` and reads lines up to and including `last`.
async fn exchange(engine: &mut EngineProcess, command: &str, last: &str) -> Vec<String> {
    engine.send(command).await.expect("send");
    let mut lines = Vec::new();
    loop {
        let line = read(engine).await.expect("read");
        let done = line == last;
        lines.push(line);
        if done {
            return lines;
        }
    }
}

/// A process counts as gone once it has no /proc entry or is a zombie (a zombie
/// runs nothing; whoever adopted it may be slow to reap it).
fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, Some('Z' | 'X') | None)
}

/// Waits (generously) for `pid` to be gone; true if it went.
async fn gone(pid: u32) -> bool {
    let deadline = in_secs(10);
    while alive(pid) {
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// Reads fork-child's first line, `info string child <pid>`.
async fn grandchild_pid(engine: &mut EngineProcess) -> u32 {
    let line = read(engine).await.expect("first line of fork-child");
    let pid = line
        .strip_prefix("info string child ")
        .and_then(|p| p.parse().ok());
    pid.unwrap_or_else(|| panic!("unexpected first line {line:?}"))
}

#[tokio::test]
async fn handshake_and_clean_quit() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("instant")).expect("spawn");
    let lines = exchange(&mut engine, "umi", "umiok").await;
    assert_eq!(
        lines,
        [
            "id name testbot-instant",
            "id author tests",
            "games bohnenspiel bohnenspiel-hemprich bosh kimasai kujifunza kalah kalah-6x6 oware",
            "umiok"
        ]
    );
    assert_eq!(
        exchange(&mut engine, "isready", "readyok").await,
        ["readyok"]
    );
    assert_eq!(
        exchange(&mut engine, "go", "bestmove none").await,
        ["bestmove none"]
    );
    let pid = engine.pid();
    let report = engine.shutdown(Duration::from_secs(5)).await;
    assert_eq!(report.exit, Some(Exit::Code(0)));
    assert!(report.quit_sent && !report.forced, "{report:?}");
    assert!(!alive(pid));
}

#[tokio::test]
async fn crash_at_start_reads_eof_and_exit_code() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("crash-start")).expect("spawn");
    assert!(matches!(read(&mut engine).await, Err(ReadError::Eof)));
    assert!(
        matches!(read(&mut engine).await, Err(ReadError::Eof)),
        "EOF is sticky"
    );
    assert_eq!(
        engine.wait_exit_until(in_secs(10)).await,
        Some(Exit::Code(1))
    );
    // why retry: a sibling test that forks at this moment holds a copy of the
    // pipe's read end until its child execs, and a write then still succeeds.
    let mut closed = false;
    for _ in 0..40 {
        match engine.send("umi").await {
            Err(WriteError::Closed) => {
                closed = true;
                break;
            }
            Ok(()) => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(other) => panic!("expected a closed pipe, got {other:?}"),
        }
    }
    assert!(closed, "writing to an exited engine must fail");
    let report = engine.shutdown(Duration::from_secs(1)).await;
    assert_eq!(report.exit, Some(Exit::Code(1)));
    assert!(!report.quit_sent && !report.forced, "{report:?}");
}

#[tokio::test]
async fn huge_line_is_too_long_and_skipped() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("huge-line")).expect("spawn");
    engine.send("go").await.expect("send go");
    match read(&mut engine).await {
        Err(ReadError::LineTooLong { bytes, limit }) => {
            assert_eq!(limit, DEFAULT_MAX_LINE_LEN);
            assert!(
                bytes > limit && bytes < 1 << 20,
                "rejected after {bytes} bytes"
            );
        }
        other => panic!("expected LineTooLong, got {other:?}"),
    }
    // The rest of the 1 MiB line is skipped; the protocol goes on after it.
    assert_eq!(
        exchange(&mut engine, "isready", "readyok").await,
        ["readyok"]
    );
    assert!(
        engine.read_buffer_capacity() < 4 * DEFAULT_MAX_LINE_LEN,
        "{}",
        engine.read_buffer_capacity()
    );
    let report = engine.shutdown(Duration::from_secs(5)).await;
    assert_eq!(report.exit, Some(Exit::Code(0)));
}

#[tokio::test]
async fn endless_line_costs_bounded_memory_and_is_killed() {
    let _guard = ENGINES.read().await;
    let spec = bot("huge-line").args(["--line-bytes", "0"]);
    let mut engine = EngineProcess::spawn(&spec).expect("spawn");
    engine.send("go").await.expect("send go");
    assert!(matches!(
        read(&mut engine).await,
        Err(ReadError::LineTooLong { .. })
    ));
    // Skipping the endless rest of the line never produces a line...
    let deadline = Instant::now() + Duration::from_millis(300);
    assert!(matches!(
        engine.read_line_until(deadline).await,
        Err(ReadError::Timeout)
    ));
    // ... nor keeps it.
    assert!(
        engine.read_buffer_capacity() < 4 * DEFAULT_MAX_LINE_LEN,
        "{}",
        engine.read_buffer_capacity()
    );
    // Stuck writing, it never reads `quit`: the grace runs out and it is killed.
    let report = engine.shutdown(Duration::from_millis(200)).await;
    assert!(report.forced, "{report:?}");
    assert_eq!(
        report.exit,
        Some(Exit::Signal {
            signal: libc::SIGKILL,
            core_dumped: false
        })
    );
}

#[tokio::test]
async fn silent_engine_hits_the_deadline() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("silent")).expect("spawn");
    exchange(&mut engine, "umi", "umiok").await;
    engine.send("go").await.expect("send go");
    let started = Instant::now();
    let result = engine
        .read_line_until(started + Duration::from_millis(200))
        .await;
    assert!(matches!(result, Err(ReadError::Timeout)), "{result:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "deadline overrun: {:?}",
        started.elapsed()
    );
    // A timeout loses nothing and breaks nothing.
    assert_eq!(
        exchange(&mut engine, "isready", "readyok").await,
        ["readyok"]
    );
    let report = engine.shutdown(Duration::from_secs(5)).await;
    assert_eq!(report.exit, Some(Exit::Code(0)));
}

#[tokio::test]
async fn shutdown_kills_the_grandchild() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("fork-child")).expect("spawn");
    let grandchild = grandchild_pid(&mut engine).await;
    assert!(alive(grandchild), "sleep grandchild should be running");
    exchange(&mut engine, "umi", "umiok").await;
    let report = engine.shutdown(Duration::from_secs(5)).await;
    assert_eq!(
        report.exit,
        Some(Exit::Code(0)),
        "the bot itself quits cleanly"
    );
    assert!(
        gone(grandchild).await,
        "grandchild {grandchild} survived shutdown"
    );
}

#[tokio::test]
async fn engine_exit_kills_its_leftover_children() {
    let _guard = ENGINES.read().await;
    // The engine leaves a child behind and exits by itself.
    let mut engine = EngineProcess::spawn(&sh("sleep 1000 & echo $!")).expect("spawn");
    let grandchild: u32 = read(&mut engine)
        .await
        .expect("pid line")
        .parse()
        .expect("pid");
    assert_eq!(
        engine.wait_exit_until(in_secs(10)).await,
        Some(Exit::Code(0))
    );
    assert!(
        gone(grandchild).await,
        "leftover child {grandchild} survived its engine"
    );
    drop(engine);
}

#[tokio::test]
async fn drop_kills_the_group() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("fork-child")).expect("spawn");
    let grandchild = grandchild_pid(&mut engine).await;
    let pid = engine.pid();
    drop(engine);
    assert!(gone(pid).await, "engine {pid} survived drop");
    assert!(
        gone(grandchild).await,
        "grandchild {grandchild} survived drop"
    );
}

#[tokio::test]
async fn stderr_flood_goes_to_the_log_without_blocking() {
    let _guard = ENGINES.read().await;
    let dir = std::env::temp_dir().join(format!("arbiter-process-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log = dir.join("stderr-flood.log");
    let _ = std::fs::remove_file(&log);
    let mut engine = EngineProcess::spawn(&bot("stderr-flood").stderr_log(&log)).expect("spawn");
    exchange(&mut engine, "umi", "umiok").await;
    for _ in 0..3 {
        assert_eq!(
            exchange(&mut engine, "isready", "readyok").await,
            ["readyok"]
        );
    }
    let report = engine.shutdown(Duration::from_secs(5)).await;
    assert_eq!(report.exit, Some(Exit::Code(0)));
    // 1 MiB at start and before each of the 4 replies.
    let size = std::fs::metadata(&log).expect("log file").len();
    assert_eq!(size, 5 << 20, "stderr log size");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_stderr_log_left_empty_is_removed_and_one_written_to_is_kept() {
    let _guard = ENGINES.read().await;
    let dir = std::env::temp_dir().join(format!("arbiter-empty-log-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let quiet = dir.join("quiet.stderr.log");
    let loud = dir.join("loud.stderr.log");
    let kept = dir.join("kept.stderr.log");
    std::fs::write(&kept, "").expect("an existing empty log");
    for (log, mode) in [
        (&quiet, "silent"),
        (&loud, "stderr-flood"),
        (&kept, "silent"),
    ] {
        let mut engine = EngineProcess::spawn(&bot(mode).stderr_log(log)).expect("spawn");
        assert!(log.exists(), "{} is created at start", log.display());
        exchange(&mut engine, "isready", "readyok").await;
        engine.shutdown(Duration::from_secs(5)).await;
    }
    assert!(
        !quiet.exists(),
        "an engine that wrote nothing leaves no log"
    );
    assert!(std::fs::metadata(&loud).expect("loud log").len() > 0);
    assert!(kept.exists(), "a log that was there before is not removed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn kill_all_engines_kills_every_group() {
    // why alone: `kill_all_engines` kills every engine of the process, the
    // other modules' too, and marks the process as stopping for good.
    if !common::alone("process::kill_all_engines_kills_every_group") {
        return;
    }
    let _guard = ENGINES.write().await;
    let mut first = EngineProcess::spawn(&bot("fork-child")).expect("spawn");
    let mut second = EngineProcess::spawn(&bot("silent")).expect("spawn");
    let grandchild = grandchild_pid(&mut first).await;
    exchange(&mut second, "isready", "readyok").await;
    assert_eq!(live_engine_count(), 2);

    assert_eq!(kill_all_engines(), 2);

    let killed = Some(Exit::Signal {
        signal: libc::SIGKILL,
        core_dumped: false,
    });
    for engine in [&mut first, &mut second] {
        assert!(matches!(read(engine).await, Err(ReadError::Eof)));
        assert_eq!(engine.wait_exit_until(in_secs(10)).await, killed);
    }
    assert!(
        gone(grandchild).await,
        "grandchild {grandchild} survived kill_all_engines"
    );
    assert_eq!(live_engine_count(), 0, "reaped engines leave the registry");
    assert_eq!(first.shutdown(Duration::ZERO).await.exit, killed);
}

#[tokio::test]
async fn engine_ignoring_quit_is_killed_after_grace() {
    let _guard = ENGINES.read().await;
    let engine = EngineProcess::spawn(&sh("exec sleep 1000")).expect("spawn");
    let pid = engine.pid();
    let started = Instant::now();
    let report = engine.shutdown(Duration::from_millis(100)).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "shutdown took {:?}",
        started.elapsed()
    );
    assert!(report.quit_sent && report.forced, "{report:?}");
    assert_eq!(
        report.exit,
        Some(Exit::Signal {
            signal: libc::SIGKILL,
            core_dumped: false
        })
    );
    assert!(!alive(pid));
}

#[tokio::test]
async fn shell_scripts_crlf_invalid_utf8_and_signals() {
    let _guard = ENGINES.read().await;
    let mut engine =
        EngineProcess::spawn(&sh(r"printf 'a\r\nb\n\377x\nc\n'; kill -TERM $$")).expect("spawn");
    assert_eq!(read(&mut engine).await.ok().as_deref(), Some("a"));
    assert_eq!(read(&mut engine).await.ok().as_deref(), Some("b"));
    match read(&mut engine).await {
        Err(ReadError::InvalidUtf8 { lossy }) => assert_eq!(lossy, "\u{fffd}x"),
        other => panic!("expected InvalidUtf8, got {other:?}"),
    }
    assert_eq!(read(&mut engine).await.ok().as_deref(), Some("c"));
    assert!(matches!(read(&mut engine).await, Err(ReadError::Eof)));
    let exit = engine.wait_exit_until(in_secs(10)).await.expect("exit");
    assert!(
        matches!(
            exit,
            Exit::Signal {
                signal: libc::SIGTERM,
                ..
            }
        ),
        "{exit:?}"
    );
    assert!(
        exit.to_string()
            .starts_with("killed by signal 15 (SIGTERM)"),
        "{exit}"
    );
}

#[tokio::test]
async fn args_env_and_working_dir_reach_the_engine() {
    let _guard = ENGINES.read().await;
    let spec = LaunchSpec::new("/bin/sh")
        .args(["-c", r#"echo "$1 $UMI_TEST_VAR $(pwd)""#, "sh", "first-arg"])
        .env("UMI_TEST_VAR", "from-env")
        .working_dir("/");
    let mut engine = EngineProcess::spawn(&spec).expect("spawn");
    assert_eq!(
        read(&mut engine).await.ok().as_deref(),
        Some("first-arg from-env /")
    );
    assert_eq!(
        engine.wait_exit_until(in_secs(10)).await,
        Some(Exit::Code(0))
    );
}

#[tokio::test]
async fn spawn_errors_are_typed_and_name_the_path() {
    let _guard = ENGINES.read().await;
    match EngineProcess::spawn(&LaunchSpec::new("./no-such-engine")) {
        Err(e @ SpawnError::NotFound { .. }) => {
            assert_eq!(e.to_string(), "engine binary ./no-such-engine not found")
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
    match EngineProcess::spawn(&LaunchSpec::new("no-such-engine-in-path-xyz")) {
        Err(SpawnError::NotFound { path }) => {
            assert_eq!(path, PathBuf::from("no-such-engine-in-path-xyz"))
        }
        other => panic!("expected NotFound, got {other:?}"),
    }

    let dir = std::env::temp_dir().join(format!("arbiter-spawn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let plain = dir.join("plain-file");
    std::fs::write(&plain, "not a program").expect("write");
    match EngineProcess::spawn(&LaunchSpec::new(&plain)) {
        Err(e @ SpawnError::NotExecutable { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("plain-file") && text.contains("not executable"),
                "{text}"
            );
        }
        other => panic!("expected NotExecutable, got {other:?}"),
    }
    assert!(matches!(
        EngineProcess::spawn(&LaunchSpec::new(&dir)),
        Err(SpawnError::NotExecutable { .. })
    ));
    let bad_dir = LaunchSpec::new("/bin/sh").working_dir(dir.join("missing"));
    assert!(matches!(
        EngineProcess::spawn(&bad_dir),
        Err(SpawnError::WorkingDir { .. })
    ));
    let bad_log = LaunchSpec::new("/bin/sh").stderr_log(dir.join("missing").join("x.log"));
    assert!(matches!(
        EngineProcess::spawn(&bad_log),
        Err(SpawnError::StderrLog { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn traffic_is_logged_in_order() {
    let _guard = ENGINES.read().await;
    type Seen = Vec<(std::time::Instant, TrafficKind, String)>;
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let sink = Arc::clone(&seen);
    let mut engine = EngineProcess::spawn(&bot("instant")).expect("spawn");
    engine.set_traffic_log(Some(Arc::new(move |r: &TrafficRecord<'_>| {
        assert_eq!(r.engine, "instant");
        sink.lock()
            .expect("lock")
            .push((r.at, r.kind, r.text.to_string()));
    })));
    exchange(&mut engine, "isready", "readyok").await;
    engine.shutdown(Duration::from_secs(5)).await;

    let seen = seen.lock().expect("lock");
    let lines: Vec<(TrafficKind, &str)> = seen
        .iter()
        .filter(|(_, kind, _)| *kind != TrafficKind::Event)
        .map(|(_, kind, text)| (*kind, text.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            (TrafficKind::ToEngine, "isready"),
            (TrafficKind::FromEngine, "readyok"),
            (TrafficKind::ToEngine, "quit")
        ]
    );
    assert!(
        seen.windows(2).all(|w| w[0].0 <= w[1].0),
        "timestamps go forward"
    );
    let last = seen.last().expect("records");
    assert_eq!(
        (last.1, last.2.as_str()),
        (TrafficKind::Event, "exited with code 0")
    );
}

#[tokio::test]
async fn writing_lines_with_breaks_is_refused() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("instant")).expect("spawn");
    assert!(matches!(
        engine.send("isready\nquit").await,
        Err(WriteError::InvalidLine)
    ));
    assert_eq!(
        exchange(&mut engine, "isready", "readyok").await,
        ["readyok"]
    );
    engine.shutdown(Duration::from_secs(5)).await;
}

// The misbehaving bots themselves, as the session and game tests will rely on
// them (all without positions, so without the rules library).

#[tokio::test]
async fn no_umiok_never_answers_umi() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("no-umiok")).expect("spawn");
    engine.send("umi").await.expect("send");
    let deadline = Instant::now() + Duration::from_millis(200);
    assert!(matches!(
        engine.read_line_until(deadline).await,
        Err(ReadError::Timeout)
    ));
    assert_eq!(
        exchange(&mut engine, "isready", "readyok").await,
        ["readyok"]
    );
    engine.shutdown(Duration::from_secs(5)).await;
}

#[tokio::test]
async fn garbage_answers_junk_and_no_bestmove() {
    let _guard = ENGINES.read().await;
    let mut engine = EngineProcess::spawn(&bot("garbage").args(["--seed", "7"])).expect("spawn");
    engine.send("go").await.expect("send");
    engine.send("isready").await.expect("send");
    let mut junk = 0;
    loop {
        let line = read(&mut engine).await.expect("line");
        if line == "readyok" {
            break;
        }
        assert!(
            line.starts_with(|c: char| "#%&*~?!@".contains(c)),
            "{line:?}"
        );
        junk += 1;
    }
    assert!((1..=3).contains(&junk), "{junk} junk lines");
    engine.shutdown(Duration::from_secs(5)).await;
}

#[tokio::test]
async fn slow_answers_at_once_on_stop_and_ignore_stop_never_does() {
    let _guard = ENGINES.read().await;
    let mut slow =
        EngineProcess::spawn(&bot("slow").args(["--delay-ms", "600000"])).expect("spawn");
    slow.send("go").await.expect("send");
    let deadline = Instant::now() + Duration::from_millis(200);
    assert!(matches!(
        slow.read_line_until(deadline).await,
        Err(ReadError::Timeout)
    ));
    assert_eq!(
        exchange(&mut slow, "stop", "bestmove none").await,
        ["bestmove none"]
    );
    assert_eq!(
        slow.shutdown(Duration::from_secs(5)).await.exit,
        Some(Exit::Code(0))
    );

    let mut stubborn =
        EngineProcess::spawn(&bot("ignore-stop").args(["--delay-ms", "100"])).expect("spawn");
    stubborn.send("go infinite").await.expect("send");
    stubborn.send("stop").await.expect("send");
    // `isready` is still answered, but no bestmove ever comes before it.
    assert_eq!(
        exchange(&mut stubborn, "isready", "readyok").await,
        ["readyok"]
    );
    let deadline = Instant::now() + Duration::from_millis(300);
    assert!(matches!(
        stubborn.read_line_until(deadline).await,
        Err(ReadError::Timeout)
    ));
    // A timed go is answered, late (after movetime + delay).
    assert_eq!(
        exchange(&mut stubborn, "go movetime 50", "bestmove none").await,
        ["bestmove none"]
    );
    assert_eq!(
        stubborn.shutdown(Duration::from_secs(5)).await.exit,
        Some(Exit::Code(0))
    );
}

#[tokio::test]
async fn exit_early_and_crash_mid_end_after_three_moves() {
    let _guard = ENGINES.read().await;
    for (mode, exit) in [
        ("exit-early", Exit::Code(0)),
        (
            "crash-mid",
            Exit::Signal {
                signal: libc::SIGABRT,
                core_dumped: false,
            },
        ),
    ] {
        let mut engine = EngineProcess::spawn(&bot(mode)).expect("spawn");
        for _ in 0..3 {
            assert_eq!(
                exchange(&mut engine, "go", "bestmove none").await,
                ["bestmove none"]
            );
        }
        // exit-early is gone already; crash-mid dies on this go.
        let _ = engine.send("go").await;
        assert!(
            matches!(read(&mut engine).await, Err(ReadError::Eof)),
            "{mode}"
        );
        let got = engine.wait_exit_until(in_secs(10)).await;
        match (got, exit) {
            // A core dump may or may not be written, depending on the machine.
            (Some(Exit::Signal { signal, .. }), Exit::Signal { signal: want, .. }) => {
                assert_eq!(signal, want)
            }
            _ => assert_eq!(got, Some(exit), "{mode}"),
        }
    }
}
