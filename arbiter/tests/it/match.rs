//! `arbiter match` end to end: the real `arbiter` binary against the real
//! reference `engine` and the misbehaving `testbot` (crate `testbots`).
//!
//! Each test plays a short match in its own scratch directory and checks, from
//! the JSON-lines log, the verdict on every game; then that both logs pass
//! `arbiter verify` and that no process is left behind. Every engine is started
//! with `dir=<scratch>`, so a leftover (including a grandchild) is any live
//! process whose current directory is the scratch directory.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{engine, proc_state, testbot};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// A scratch directory with the match helpers.
struct Scratch(common::Scratch);

impl std::ops::Deref for Scratch {
    type Target = common::Scratch;

    fn deref(&self) -> &common::Scratch {
        &self.0
    }
}

impl Scratch {
    fn new(test: &str) -> Scratch {
        Scratch(common::Scratch::new("match", test))
    }

    /// `--engine` tokens for a testbot in `mode` (plus extra testbot args).
    fn bot(&self, name: &str, mode: &str, extra: &[&str], tc: &str) -> Vec<String> {
        let mut t = vec![
            format!("cmd={}", testbot()),
            format!("name={name}"),
            "arg=--mode".into(),
            format!("arg={mode}"),
        ];
        t.extend(extra.iter().map(|a| format!("arg={a}")));
        t.push(tc.to_string());
        t.push(self.dir_arg());
        t
    }

    /// The well-behaved opponent: a random mover with a generous clock.
    fn random(&self) -> Vec<String> {
        self.bot("Good", "random", &[], "tc=30+0.1")
    }

    fn engine(&self, name: &str, tc: &str) -> Vec<String> {
        vec![
            format!("cmd={}", engine()),
            format!("name={name}"),
            tc.to_string(),
            self.dir_arg(),
        ]
    }

    /// `arbiter match` with `--jsonout`, `--pgnout`, `--debug` in the scratch dir.
    fn match_command(&self, engines: &[Vec<String>], extra: &[&str]) -> Command {
        let mut cmd = Command::new(ARBITER);
        cmd.current_dir(&self.0 .0).arg("match");
        for e in engines {
            cmd.arg("--engine").args(e);
        }
        cmd.arg("--jsonout")
            .arg(self.path("games.jsonl"))
            .arg("--pgnout")
            .arg(self.path("games.pgn"))
            .arg("--debug")
            .arg(self.path("traffic.txt"))
            .arg("--stderr-dir")
            .arg(self.path("stderr"))
            .args(extra);
        cmd
    }

    fn run_match(&self, engines: &[Vec<String>], extra: &[&str]) -> Output {
        let out = self
            .match_command(engines, extra)
            .output()
            .expect("run arbiter");
        // Whatever the outcome, the arbiter leaves no process behind.
        self.assert_no_leftovers();
        out
    }

    /// The games of the JSON-lines log, as raw JSON (what log readers see).
    fn games(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.path("games.jsonl")).unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    }

    fn traffic(&self) -> String {
        std::fs::read_to_string(self.path("traffic.txt")).unwrap_or_default()
    }

    /// `arbiter verify` on both logs reports OK with `games` games.
    fn assert_logs_verify(&self, games: usize) {
        let plural = if games == 1 { "" } else { "s" };
        for log in ["games.jsonl", "games.pgn"] {
            let out = Command::new(ARBITER)
                .arg("verify")
                .arg(self.path(log))
                .output()
                .expect("run arbiter verify");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && stdout.trim() == format!("OK ({games} game{plural})"),
                "verify {log}: {stdout} {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "arbiter failed: {:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        stderr_of(out)
    );
}

/// The side (`"South"`/`"North"`) `name` played in `game`.
fn side_of(game: &Value, name: &str) -> &'static str {
    if game["south"] == name {
        "South"
    } else {
        assert_eq!(game["north"], name, "{name} did not play: {game}");
        "North"
    }
}

/// How many moves `name` played in `game` (South moves first; no passes in the
/// games these tests use, so plies alternate).
fn moves_by(game: &Value, name: &str) -> usize {
    let plies = game["moves"].as_array().map_or(0, Vec::len);
    match side_of(game, name) {
        "South" => plies.div_ceil(2),
        _ => plies / 2,
    }
}

/// Every game ended with `kind` against `bad`, and its opponent won.
fn assert_every_game_lost(games: &[Value], bad: &str, kind: &str) {
    for g in games {
        let side = side_of(g, bad);
        let term = &g["termination"];
        assert_eq!(term["kind"], kind, "game {}: {term}", g["round"]);
        assert_eq!(term["side"], side, "game {}: {term}", g["round"]);
        let expected = if side == "South" { "0-1" } else { "1-0" };
        assert_eq!(g["result"], expected, "game {}", g["round"]);
    }
}

/// No game was forfeited: each ended under the rules or by the ply limit.
fn assert_no_forfeits(games: &[Value]) {
    for g in games {
        let kind = g["termination"]["kind"].as_str().unwrap_or_default();
        assert!(
            kind == "rules" || kind == "adjudication",
            "game {}: {}",
            g["round"],
            g["termination"]
        );
    }
}

/// Plays `games` games of testbot `mode` against the random mover and checks
/// the verdict on each, the logs and the leftovers. Returns the games.
fn misbehaviour(
    test: &str,
    mode: &str,
    extra: &[&str],
    tc: &str,
    games: usize,
    kind: &str,
) -> (Scratch, Vec<Value>) {
    let s = Scratch::new(test);
    let out = s.run_match(
        &[s.bot("Bad", mode, extra, tc), s.random()],
        &["--games", &games.to_string()],
    );
    assert_ok(&out);
    let logged = s.games();
    assert_eq!(logged.len(), games, "every game is played");
    assert_every_game_lost(&logged, "Bad", kind);
    s.assert_logs_verify(games);
    (s, logged)
}

/// The distinct pids the traffic file shows for engine `name`.
fn pids_of(traffic: &str, name: &str) -> Vec<u32> {
    let prefix = format!("{name}(");
    let mut pids: Vec<u32> = traffic
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .filter_map(|who| who.strip_prefix(&prefix)?.strip_suffix(')')?.parse().ok())
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

#[test]
fn illegal_move_loses_the_game() {
    let (_s, games) = misbehaviour("illegal", "illegal", &[], "tc=5+0.1", 2, "illegal_move");
    for g in &games {
        assert_eq!(g["termination"]["move"], "99");
    }
}

#[test]
fn garbage_instead_of_bestmove_loses_on_time() {
    // Junk lines are unknown lines, which a GUI ignores (spec section 9): the
    // engine simply never answers, and its clock runs out.
    let (_s, games) = misbehaviour("garbage", "garbage", &[], "st=0.2", 2, "time_forfeit");
    for g in &games {
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("last line"),
            "detail names the junk: {detail}"
        );
    }
}

#[test]
fn silent_engine_loses_on_time() {
    misbehaviour("silent", "silent", &[], "st=0.2", 2, "time_forfeit");
}

#[test]
fn silent_engine_without_clock_has_no_bestmove() {
    let s = Scratch::new("silent-depth");
    let out = s.run_match(
        &[s.bot("Bad", "silent", &[], "depth=1"), s.random()],
        &["--games", "2", "--stall-timeout", "0.3"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    assert_every_game_lost(&games, "Bad", "no_bestmove");
    s.assert_logs_verify(2);
}

#[test]
fn crash_mid_game_is_a_crash_and_the_engine_is_restarted() {
    let (s, games) = misbehaviour("crash-mid", "crash-mid", &[], "tc=5+0.1", 2, "crash");
    for g in &games {
        // Three good moves each game: the second game had a fresh process.
        assert_eq!(moves_by(g, "Bad"), 3, "{g}");
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("SIGABRT"), "{detail}");
    }
    // Preflight, game 1, game 2: three processes.
    assert_eq!(pids_of(&s.traffic(), "Bad").len(), 3);
    assert_verify_rejects_the_winner_charged(&s);
}

/// Both logs of `s` with every forfeit charged to the other side (the result
/// left as it was, so the side charged now wins): `arbiter verify` rejects
/// each, naming the side charged.
fn assert_verify_rejects_the_winner_charged(s: &Scratch) {
    let swap = |text: &str, south: &str, north: &str| {
        text.replace(south, "\u{0}")
            .replace(north, south)
            .replace('\u{0}', north)
    };
    for (log, south, north) in [
        ("games.jsonl", r#""side":"South""#, r#""side":"North""#),
        (
            "games.pgn",
            r#"[Offender "South"]"#,
            r#"[Offender "North"]"#,
        ),
    ] {
        let text = std::fs::read_to_string(s.path(log)).expect("the log");
        let forged = swap(&text, south, north);
        assert_ne!(forged, text, "{log} names an offender");
        let path = s.path(&format!("forged-{log}"));
        std::fs::write(&path, forged).expect("write");
        let out = Command::new(ARBITER)
            .arg("verify")
            .arg(&path)
            .output()
            .expect("run arbiter verify");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{log}: {said}");
        assert!(
            said.contains("game 1 (") && said.contains("forfeited but the result is"),
            "{log}: {said}"
        );
    }
}

#[test]
fn exit_mid_game_is_a_disconnect() {
    let (_s, games) = misbehaviour("exit-early", "exit-early", &[], "tc=5+0.1", 2, "disconnect");
    for g in &games {
        assert_eq!(moves_by(g, "Bad"), 3, "{g}");
    }
}

#[test]
fn ignored_stop_loses_on_time_without_waiting_for_the_engine() {
    // The bot answers 1 s after its move time; the arbiter flags it at 0.1 s +
    // margin, sends `stop` (ignored) and goes on without waiting.
    let started = Instant::now();
    misbehaviour(
        "ignore-stop",
        "ignore-stop",
        &[],
        "st=0.1",
        4,
        "time_forfeit",
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn huge_line_within_the_protocol_limit_is_ignored() {
    // A 1 MiB line is within the protocol's line limit, so it is an unknown
    // line; no bestmove follows and the clock runs out.
    misbehaviour("huge-line", "huge-line", &[], "st=0.5", 2, "time_forfeit");
}

#[test]
fn line_over_the_protocol_limit_breaks_the_game() {
    let (_s, games) = misbehaviour(
        "overlong-line",
        "huge-line",
        &["--line-bytes", "2000000"],
        "tc=5+0.1",
        2,
        "unparseable_bestmove",
    );
    for g in &games {
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("longer than 1048576 bytes"), "{detail}");
    }
}

#[test]
fn stderr_flood_is_captured_and_play_goes_on() {
    let s = Scratch::new("stderr-flood");
    let out = s.run_match(
        &[s.bot("Bad", "stderr-flood", &[], "tc=30+0.1"), s.random()],
        &["--games", "2", "--max-plies", "12"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    assert_no_forfeits(&games);
    s.assert_logs_verify(2);
    let flood = std::fs::metadata(s.path("stderr").join("Bad.1.stderr.log"))
        .map(|m| m.len())
        .unwrap_or(0);
    assert!(flood >= 1 << 20, "stderr went to its log: {flood} bytes");
}

#[test]
fn forked_grandchildren_are_killed() {
    let s = Scratch::new("fork-child");
    let out = s.run_match(
        &[s.bot("Bad", "fork-child", &[], "tc=30+0.1"), s.random()],
        &["--games", "2", "--max-plies", "40"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    assert_no_forfeits(&games);
    s.assert_logs_verify(2);
    let children: Vec<u32> = s
        .traffic()
        .lines()
        .filter_map(|l| l.split_once("< info string child "))
        .filter_map(|(_, pid)| pid.trim().parse().ok())
        .collect();
    assert!(!children.is_empty(), "the bot reported its grandchild");
    for pid in children {
        let state = proc_state(pid);
        assert!(
            matches!(state, None | Some('Z' | 'X')),
            "grandchild {pid} still runs ({state:?})"
        );
    }
}

#[test]
fn crash_at_start_is_refused_before_the_first_game() {
    let s = Scratch::new("crash-start");
    let out = s.run_match(
        &[s.bot("Bad", "crash-start", &[], "st=0.1"), s.random()],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(
        err.contains("engine Bad") && err.contains("exited with code 1"),
        "{err}"
    );
    // Where its stderr went, and its last lines, as `arbiter check` shows them.
    let log = s.path("stderr").join("Bad.1.stderr.log");
    assert!(err.contains(&log.display().to_string()), "{err}");
    assert!(
        err.contains("stderr| testbot: cannot load weights.bin: no such file"),
        "{err}"
    );
    assert!(s.games().is_empty());
}

#[test]
fn no_umiok_is_refused_before_the_first_game() {
    let s = Scratch::new("no-umiok");
    let out = s.run_match(
        &[s.bot("Bad", "no-umiok", &[], "st=0.1"), s.random()],
        &["--handshake-timeout", "0.5"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(
        err.contains("engine Bad") && err.contains("no umiok in time"),
        "{err}"
    );
    assert!(s.games().is_empty());
}

#[test]
fn engine_that_hangs_when_restarted_forfeits_the_remaining_games() {
    // Crashes after 2 moves; its 3rd start (preflight, game 1, then game 2)
    // never answers `umi`: every later game is lost without a move.
    let s = Scratch::new("hang-on-restart");
    let state = s.path("starts");
    let state = state.display().to_string();
    let bad = s.bot(
        "Bad",
        "crash-mid",
        &["--count", "2", "--max-starts", "2", "--state", &state],
        "tc=5+0.1",
    );
    let out = s.run_match(
        &[bad, s.random()],
        &["--games", "4", "--handshake-timeout", "0.5"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 4, "every game is played");
    assert_every_game_lost(&games[..1], "Bad", "crash");
    assert_every_game_lost(&games[1..], "Bad", "unresponsive");
    for g in &games[1..] {
        assert_eq!(g["moves"].as_array().map(Vec::len), Some(0), "{g}");
    }
    s.assert_logs_verify(4);
}

#[test]
fn missing_binary_is_a_clear_error() {
    let s = Scratch::new("missing");
    let missing = s.path("no-such-engine").display().to_string();
    let out = s.run_match(
        &[vec![format!("cmd={missing}"), "st=0.1".into()], s.random()],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(err.contains(&missing) && err.contains("not found"), "{err}");
}

/// Exit statuses (docs/arbiter.md, "Exit status"): a mistake in the
/// command line is 2 (a typo in a flag, a value out of range), a failure of
/// the work is 1 (here a log that cannot be created), each
/// naming the flag or path.
#[test]
fn a_usage_error_exits_2_and_a_failure_exits_1() {
    let s = Scratch::new("exit-codes");
    let engines = [s.engine("Ref", "depth=1"), s.random()];
    let typo = s.run_match(&engines, &["--gmaes", "2"]);
    assert_eq!(typo.status.code(), Some(2), "{}", stderr_of(&typo));
    assert!(stderr_of(&typo).contains("--gmaes"));
    let range = s.run_match(&engines, &["--games", "0"]);
    assert_eq!(range.status.code(), Some(2), "{}", stderr_of(&range));
    assert!(stderr_of(&range).contains("--games"));
    // why under a file: the arbiter makes a log's missing directories (and
    // runs as root in CI), but none can be made below a plain file.
    std::fs::write(s.path("plain-file"), "").expect("a file");
    let log = s.path("plain-file/x.jsonl").display().to_string();
    let mut cmd = Command::new(ARBITER);
    cmd.current_dir(&s.0 .0).arg("match");
    for e in &engines {
        cmd.arg("--engine").args(e);
    }
    let failed = cmd.args(["--jsonout", &log]).output().expect("run arbiter");
    let err = stderr_of(&failed);
    assert_eq!(failed.status.code(), Some(1), "{err}");
    assert!(err.contains(&log), "{err}");
    assert!(!err.contains("internal error"), "{err}");
}

#[test]
fn unknown_option_is_a_clear_error() {
    let s = Scratch::new("bad-option");
    let mut engine = s.engine("Ref", "depth=1");
    engine.push("option.Nope=1".into());
    let out = s.run_match(&[engine, s.random()], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("engine Ref") && err.contains("no option \"Nope\""),
        "{err}"
    );
}

#[test]
fn engine_without_the_game_is_a_clear_error() {
    let s = Scratch::new("wrong-game");
    let out = s.run_match(
        &[
            s.bot("BoshOnly", "random", &["--games", "bosh"], "st=0.1"),
            s.random(),
        ],
        &["--game", "kimasai"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("engine BoshOnly") && err.contains("does not play kimasai"),
        "{err}"
    );
}

/// The reference engine against itself at depth 2 in one game; the ply limit
/// is only a backstop (Bosh's repeated round starts end cycling matches).
fn reference_self_play(game: &str) {
    let s = Scratch::new(&format!("self-{game}"));
    let out = s.run_match(
        &[s.engine("A", "depth=2"), s.engine("B", "depth=2")],
        &["--game", game, "--games", "2", "--max-plies", "300"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    assert_no_forfeits(&games);
    for g in &games {
        assert_eq!(g["game"], game);
    }
    s.assert_logs_verify(2);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Score of A vs B"), "{stdout}");
}

#[test]
fn reference_engine_plays_bohnenspiel() {
    reference_self_play("bohnenspiel");
}

#[test]
fn reference_engine_plays_bohnenspiel_hemprich() {
    reference_self_play("bohnenspiel-hemprich");
}

#[test]
fn reference_engine_plays_bosh() {
    reference_self_play("bosh");
}

/// docs/rules/bosh.md: the reference engine against itself at depth 1 used to
/// go round a cycle of rounds until the ply limit; now a round start occurs
/// for the third time, and the logs say so and verify. A log claiming another
/// end is rejected by `arbiter verify`.
#[test]
fn bosh_depth_one_self_play_ends_by_a_repeated_round_start() {
    let s = Scratch::new("bosh-round-starts");
    let out = s.run_match(
        &[s.engine("A", "depth=1"), s.engine("B", "depth=1")],
        &["--game", "bosh", "--games", "2", "--max-plies", "3000"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["result"], "1/2-1/2", "{g}");
        assert_eq!(g["termination"]["kind"], "rules", "{g}");
        assert_eq!(g["termination"]["detail"], "round start repeated", "{g}");
        let plies = g["moves"].as_array().map_or(0, Vec::len);
        assert!(plies < 3000, "{plies} plies");
    }
    let pgn = std::fs::read_to_string(s.path("games.pgn")).expect("the PGN log");
    assert!(
        pgn.contains("[TerminationDetail \"round start repeated\"]"),
        "{pgn}"
    );
    s.assert_logs_verify(2);
    // The same games, claimed to end otherwise.
    let text = std::fs::read_to_string(s.path("games.jsonl")).expect("the JSON log");
    for (claim, error) in [
        (
            r#""detail":"opponent cannot fill a hole""#,
            "the game ended by \"round start repeated\"",
        ),
        (r#""detail":"repetition""#, "round start repeated"),
    ] {
        let forged = text.replace(r#""detail":"round start repeated""#, claim);
        let path = s.path("forged.jsonl");
        std::fs::write(&path, forged).expect("write");
        let out = Command::new(ARBITER)
            .arg("verify")
            .arg(&path)
            .output()
            .expect("run arbiter verify");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{said}");
        assert!(said.contains(error), "{claim}: {said}");
    }
}

#[test]
fn reference_engine_plays_kimasai() {
    reference_self_play("kimasai");
}

#[test]
fn reference_engine_plays_kujifunza() {
    reference_self_play("kujifunza");
}

/// Starts a long match of a stubborn engine (it ignores `quit`, end of input,
/// SIGTERM and SIGHUP, and has a grandchild) against the reference engine and
/// waits for the first finished game.
fn start_long_match(s: &Scratch) -> std::process::Child {
    let mut child = s
        .match_command(
            &[
                s.bot("Stubborn", "stubborn", &[], "tc=30+0.1"),
                s.engine("Ref", "depth=2"),
            ],
            &["--games", "1000"],
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start arbiter");
    // Wait for a finished game (generously).
    let deadline = Instant::now() + Duration::from_secs(60);
    while s.games().is_empty() {
        assert!(Instant::now() < deadline, "no game finished");
        assert!(child.try_wait().ok().flatten().is_none(), "arbiter ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// Sends `signal` to the arbiter; its exit status and stderr.
fn signal_and_wait(
    child: &mut std::process::Child,
    signal: i32,
) -> (std::process::ExitStatus, String) {
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: kill takes two integers; the pid is our own live child.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("the arbiter did not exit after signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut err);
    }
    (status, err)
}

/// SIGINT, SIGTERM and SIGHUP all stop the arbiter promptly, kill every
/// engine (and grandchild) and keep the finished games.
fn stops_cleanly_on(test: &str, signal: i32, code: i32, says: &str) {
    let s = Scratch::new(test);
    let mut child = start_long_match(&s);
    let (status, err) = signal_and_wait(&mut child, signal);
    assert_eq!(status.code(), Some(code), "{err}");
    assert!(err.contains(says), "{err}");
    assert!(err.contains("finished games are in the logs"), "{err}");
    let games = s.games().len();
    assert!((1..1000).contains(&games));
    s.assert_logs_verify(games);
    s.assert_no_leftovers();
}

#[test]
fn ctrl_c_stops_promptly_and_keeps_finished_games() {
    stops_cleanly_on("ctrl-c", libc::SIGINT, 130, "interrupted");
}

#[test]
fn sigterm_stops_like_ctrl_c() {
    stops_cleanly_on("sigterm", libc::SIGTERM, 143, "terminated (SIGTERM)");
}

#[test]
fn sighup_stops_like_ctrl_c() {
    stops_cleanly_on("sighup", libc::SIGHUP, 129, "hung up (SIGHUP)");
}

#[test]
fn engines_and_their_groups_die_with_a_sigkilled_arbiter() {
    let s = Scratch::new("sigkill");
    let mut child = start_long_match(&s);
    let (status, _) = signal_and_wait(&mut child, libc::SIGKILL);
    assert_eq!(status.code(), None);
    // The engines (PR_SET_PDEATHSIG), the stubborn engine's grandchild and
    // the watchdog itself (the watchdog's group kill): nothing is left.
    s.assert_no_leftovers();
    let games = s.games().len();
    assert!(games >= 1);
}

#[test]
fn grandchild_that_left_the_group_dies_when_its_engine_ends() {
    let s = Scratch::new("setsid-child");
    let out = s.run_match(
        &[s.bot("Bad", "setsid-child", &[], "tc=30+0.1"), s.random()],
        &["--games", "2", "--max-plies", "20"],
    );
    assert_ok(&out);
    assert_no_forfeits(&s.games());
    let children: Vec<u32> = s
        .traffic()
        .lines()
        .filter_map(|l| l.split_once("< info string child "))
        .filter_map(|(_, pid)| pid.trim().parse().ok())
        .collect();
    // Preflight and one process for both games.
    assert_eq!(children.len(), 2, "{}", s.traffic());
    for pid in children {
        let state = proc_state(pid);
        assert!(
            matches!(state, None | Some('Z' | 'X')),
            "escaped grandchild {pid} still runs ({state:?})"
        );
    }
}

#[test]
fn second_bestmove_for_one_go_is_a_stray_bestmove() {
    let (s, games) = misbehaviour(
        "double-bestmove",
        "double-bestmove",
        &[],
        "tc=30+0.1",
        2,
        "stray_bestmove",
    );
    for g in &games {
        // Found right behind its first answer: no move of Bad is credited.
        assert_eq!(moves_by(g, "Bad"), 0, "{g}");
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("right after the bestmove"), "{detail}");
    }
    // The offender is restarted for game 2: preflight, game 1, game 2.
    assert_eq!(pids_of(&s.traffic(), "Bad").len(), 3);
}

#[test]
fn bestmove_after_readyok_is_never_taken_as_an_answer() {
    let (_s, games) = misbehaviour(
        "bestmove-after-readyok",
        "bestmove-after-readyok",
        &[],
        "tc=30+0.1",
        2,
        "stray_bestmove",
    );
    for g in &games {
        assert_eq!(moves_by(g, "Bad"), 0, "{g}");
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("before go"), "{detail}");
    }
}

#[test]
fn bestmove_that_is_not_utf8_is_unparseable_at_once() {
    // A 30 s clock: waiting it out would be a time forfeit.
    let (_s, games) = misbehaviour(
        "bad-utf8",
        "bad-utf8",
        &[],
        "tc=30+0.1",
        2,
        "unparseable_bestmove",
    );
    for g in &games {
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("not valid UTF-8"), "{detail}");
    }
}

#[test]
fn crash_behind_a_grandchild_holding_stdout_is_a_crash() {
    // The grandchild keeps the engine's stdout open after the crash; with a
    // 30 s clock, watching only the pipe would record a time forfeit.
    let (_s, games) = misbehaviour(
        "crash-behind-child",
        "crash-behind-child",
        &[],
        "tc=30+0.1",
        2,
        "crash",
    );
    for g in &games {
        assert_eq!(moves_by(g, "Bad"), 3, "{g}");
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("SIGABRT"), "{detail}");
    }
}

#[test]
fn engine_that_exits_after_gameover_is_restarted_for_every_game() {
    let s = Scratch::new("exit-after-gameover");
    let out = s.run_match(
        &[
            s.bot("Quitter", "exit-after-gameover", &[], "tc=30+0.1"),
            s.random(),
        ],
        &["--games", "6", "--max-plies", "20"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 6);
    // Never a zero-move disconnect, whenever the arbiter noticed the exit.
    assert_no_forfeits(&games);
    s.assert_logs_verify(6);
    // Preflight, then one fresh process per game.
    assert_eq!(pids_of(&s.traffic(), "Quitter").len(), 7);
}

#[test]
fn gameover_follows_a_forfeit_at_game_start() {
    let s = Scratch::new("no-readyok");
    let out = s.run_match(
        &[s.bot("Bad", "no-readyok", &[], "tc=30+0.1"), s.random()],
        &["--games", "2", "--handshake-timeout", "0.5"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    assert_every_game_lost(&games, "Bad", "unresponsive");
    for g in &games {
        assert_eq!(g["moves"].as_array().map(Vec::len), Some(0), "{g}");
    }
    s.assert_logs_verify(2);
    // Every engine told `newgame` hears `gameover`: Bad in both games, Good
    // in game 2 (as South it was started first; in game 1 it never was).
    let traffic = s.traffic();
    for (who, expected) in [("Bad(", 2), ("Good(", 1)] {
        let gameovers = traffic
            .lines()
            .filter(|l| l.contains(who) && l.contains("> gameover 1-0 unresponsive by North"))
            .count()
            + traffic
                .lines()
                .filter(|l| l.contains(who) && l.contains("> gameover 0-1 unresponsive by South"))
                .count();
        assert_eq!(gameovers, expected, "{who}:\n{traffic}");
    }
}

#[test]
fn absurd_numbers_on_the_command_line_are_refused_clearly() {
    let s = Scratch::new("absurd");
    let tc_too_long = s.bot("Slow", "random", &[], "st=18446744073709551");
    for (engines, extra, says) in [
        (
            vec![s.random(), s.random()],
            &["--handshake-timeout", "1e19"][..],
            "--startup-timeout",
        ),
        (
            vec![s.random(), s.random()],
            &["--stall-timeout", "NaN"][..],
            "--stall-timeout",
        ),
        (
            vec![s.random(), s.random()],
            &["--games", "18446744073709551615"][..],
            "must be from 1 to 1000000000000",
        ),
        (
            vec![s.random(), s.random()],
            &["--concurrency", "1000000"][..],
            "must be from 1 to 1024",
        ),
        (
            vec![s.random(), s.random()],
            &["--partie", "4294967295"][..],
            "must be from 1 to 10000",
        ),
        (
            vec![s.random(), s.bot("Other", "random", &[], "st=1")],
            &["--openings", "plies=4294967295"][..],
            "plies=4294967295: must be from 0 to 10000",
        ),
        (
            vec![tc_too_long, s.random()],
            &[][..],
            "at most 1000000 seconds",
        ),
    ] {
        let out = s.run_match(&engines, extra);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }
    assert!(s.games().is_empty());
}

#[test]
fn stderr_log_is_capped_at_stderr_max() {
    let s = Scratch::new("stderr-max");
    let mut flood = s.bot("Bad", "stderr-flood", &[], "tc=30+0.1");
    flood.push("stderr_max=100K".into());
    let out = s.run_match(&[flood, s.random()], &["--games", "2", "--max-plies", "12"]);
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    // The engine wrote megabytes and was never blocked: the games went on.
    assert_no_forfeits(&games);
    let log = std::fs::read(s.path("stderr").join("Bad.1.stderr.log")).expect("stderr log");
    let note = b"[arbiter: this log reached stderr_max=102400 bytes";
    assert!(
        log.len() > 100 * 1024 && log.len() < 101 * 1024,
        "{} bytes",
        log.len()
    );
    assert_eq!(log.windows(note.len()).filter(|w| w == note).count(), 1);
}

// --- Pondering (`ponder` on an engine or `--each`) ---

mod ponder_traffic;

/// The `go ponder` lines the traffic log shows for `name`.
fn go_ponders_to(traffic: &str, name: &str) -> usize {
    let to = format!(" {name}(");
    traffic
        .lines()
        .filter(|l| l.contains(&to) && l.contains(") > go ponder"))
        .count()
}

#[test]
fn ponder_match_against_the_reference_engine_keeps_the_clock_rules() {
    let s = Scratch::new("ponder-reference");
    // why the wide margin: a flag on a loaded machine is not what this tests.
    let engine = |name: &str| {
        let mut e = s.engine(name, "tc=3+0.1");
        e.push("timemargin=2000".into());
        e
    };
    let out = s.run_match(
        &[engine("A"), engine("B")],
        &["--games", "2", "--each", "ponder=true"],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    assert_no_forfeits(&games);
    s.assert_logs_verify(2);
    let traffic = s.traffic();
    for name in ["A", "B"] {
        let set = format!(" {name}(");
        assert!(
            traffic
                .lines()
                .any(|l| l.contains(&set) && l.ends_with("> setoption name Ponder value true")),
            "{name} is told it may ponder"
        );
    }
    let seen = ponder_traffic::check(&traffic, &games, &["A", "B"], 3_000_000, 100_000);
    // Both ways a ponder search ends: any two games of some 60 plies have both.
    assert!(seen.hits > 0 && seen.misses > 0, "{seen:?}");
    assert_eq!(
        seen.go_ponders,
        seen.hits + seen.misses + seen.stopped_at_end,
        "every ponder search ends once: {seen:?}"
    );
}

/// A testbot pondering in `mode` (with `ponder` on its spec) against the
/// instant mover; `games` games with the logs checked.
fn ponder_bot_match(test: &str, mode: &str, tc: &str, extra: &[&str]) -> (Scratch, Vec<Value>) {
    let s = Scratch::new(test);
    let mut bad = s.bot("Bad", mode, &[], tc);
    bad.push("ponder".into());
    let good = s.bot("Good", "instant", &[], "tc=30+0.1");
    let out = s.run_match(&[bad, good], &[&["--games", "2"], extra].concat());
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2, "every game is played");
    s.assert_logs_verify(2);
    (s, games)
}

#[test]
fn bestmove_during_go_ponder_is_a_stray_bestmove() {
    let (s, games) = ponder_bot_match("ponder-early", "ponder-early", "tc=30+0.1", &[]);
    assert_every_game_lost(&games, "Bad", "stray_bestmove");
    // It pondered once in each game, after its first move. Its two lines come
    // in one write: found before `ponderhit` (the usual case) they are a
    // bestmove while pondering; read only after it (a slow start on a loaded
    // machine), the second is a stray one behind the answer. Stray either way.
    assert_eq!(go_ponders_to(&s.traffic(), "Bad"), 2);
    for g in &games {
        assert!(matches!(moves_by(g, "Bad"), 1 | 2), "{g}");
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("during go ponder") || detail.contains("right after the bestmove"),
            "{detail}"
        );
    }
}

#[test]
fn ponderer_that_ignores_stop_loses_on_time_without_a_hang() {
    let (s, games) = ponder_bot_match("ponder-deaf", "ponder-deaf", "tc=1+0.1", &[]);
    assert_every_game_lost(&games, "Bad", "time_forfeit");
    for g in &games {
        let detail = g["termination"]["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("bestmove after stop"), "{detail}");
    }
    let traffic = s.traffic();
    assert!(go_ponders_to(&traffic, "Bad") >= 2, "{traffic}");
    // The offender is restarted for game 2 (preflight, game 1, game 2), and
    // `run_match` saw no process left behind.
    assert_eq!(pids_of(&traffic, "Bad").len(), 3);
}

#[test]
fn illegal_ponder_move_means_no_pondering_and_a_normal_game() {
    // Bad comes from an engines file, cutechess style, with "ponder": true.
    let s = Scratch::new("ponder-illegal");
    let file = serde_json::json!([{
        "name": "Bad",
        "command": testbot(),
        "args": ["--mode", "ponder-illegal"],
        "workingDirectory": s.path("").display().to_string(),
        "tc": "30+0.1",
        "ponder": true,
    }]);
    std::fs::write(s.path("engines.json"), file.to_string()).unwrap();
    let engines_file = s.path("engines.json").display().to_string();
    let out = s.run_match(
        &[
            vec!["conf=Bad".into()],
            s.bot("Good", "instant", &[], "tc=30+0.1"),
        ],
        &["--games", "2", "--engines-file", &engines_file],
    );
    assert_ok(&out);
    let games = s.games();
    assert_eq!(games.len(), 2);
    s.assert_logs_verify(2);
    assert_no_forfeits(&games);
    let traffic = s.traffic();
    assert!(
        traffic.contains("> setoption name Ponder value true") && traffic.contains(" ponder 99"),
        "Bad may ponder and names 99: {traffic}"
    );
    assert_eq!(go_ponders_to(&traffic, "Bad"), 0);
    assert!(!traffic.contains("> ponderhit") && !traffic.contains("> stop"));
}

#[test]
fn ponder_for_an_engine_without_the_ponder_option_is_a_warning_only() {
    let s = Scratch::new("ponder-no-option");
    let out = s.run_match(
        &[s.random(), s.bot("Plain", "instant", &[], "tc=30+0.1")],
        &["--games", "2", "-each", "ponder"],
    );
    assert_ok(&out);
    assert_no_forfeits(&s.games());
    let err = stderr_of(&out);
    assert!(err.contains("declares no Ponder check option"), "{err}");
    // The warning of the game's own engine start carries the game's span.
    assert!(
        err.lines()
            .any(|l| l.contains("declares no Ponder check option")
                && l.contains("game{n=1 round=1 game=bohnenspiel south=")),
        "{err}"
    );
    let traffic = s.traffic();
    assert!(!traffic.contains("setoption name Ponder") && !traffic.contains("go ponder"));
}

#[test]
fn ponderer_deaf_to_stop_at_the_game_end_keeps_the_result_and_is_restarted() {
    // Two plies: South (Bad, game 1) moves and ponders, North's move ends the
    // game by the ply limit while Bad ponders: it is sent `stop`, ignores it,
    // and is killed after the ready timeout. The draw stands.
    let (s, games) = ponder_bot_match(
        "ponder-deaf-end",
        "ponder-deaf",
        "tc=30+0.1",
        &["--max-plies", "2", "--ready-timeout", "1"],
    );
    for g in &games {
        assert_eq!(g["termination"]["kind"], "adjudication", "{g}");
        assert_eq!(g["result"], "1/2-1/2", "{g}");
    }
    let traffic = s.traffic();
    let bad: Vec<&str> = traffic.lines().filter(|l| l.contains(" Bad(")).collect();
    let at = |what: &str| bad.iter().position(|l| l.contains(what));
    let (ponder, stop, killed) = (at("> go ponder"), at("> stop"), at("# killed"));
    assert!(
        ponder < stop && stop < killed && ponder.is_some(),
        "go ponder, stop, then the kill: {bad:#?}"
    );
    assert_eq!(
        go_ponders_to(&traffic, "Bad"),
        1,
        "game 2 ends on Bad's move"
    );
    assert_eq!(pids_of(&traffic, "Bad").len(), 3, "restarted for game 2");
}
