//! `arbiter check` end to end: the reference engine passes every check; the
//! misbehaving testbots fail the right ones.

use std::process::{Command, Output};

use crate::common;
use common::{engine, testbot, Scratch};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// Runs `arbiter check` on one engine (started in the scratch directory) and
/// checks that nothing is left running afterwards.
fn check(s: &Scratch, tokens: &[String]) -> (Option<i32>, Vec<String>) {
    let out: Output = Command::new(ARBITER)
        .arg("check")
        .args(["--handshake-timeout", "1", "--ready-timeout", "2"])
        .arg("--engine")
        .args(tokens)
        .arg(s.dir_arg())
        .output()
        .expect("run arbiter check");
    s.assert_no_leftovers();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    (out.status.code(), lines)
}

fn bot(mode: &str) -> Vec<String> {
    vec![
        format!("cmd={}", testbot()),
        "arg=--mode".into(),
        format!("arg={mode}"),
    ]
}

/// The line of check `name`.
fn line<'a>(lines: &'a [String], name: &str) -> &'a str {
    lines
        .iter()
        .find(|l| {
            let rest = l.strip_prefix("PASS ").or_else(|| l.strip_prefix("FAIL "));
            rest.is_some_and(|r| {
                r.strip_prefix(name)
                    .is_some_and(|after| after.is_empty() || after.starts_with([' ', ':']))
            })
        })
        .map_or_else(
            || panic!("no line for {name} in {lines:#?}"),
            String::as_str,
        )
}

fn assert_pass(lines: &[String], name: &str) {
    let l = line(lines, name);
    assert!(l.starts_with("PASS "), "{l}");
}

fn assert_fail(lines: &[String], name: &str, reason: &str) {
    let l = line(lines, name);
    assert!(
        l.starts_with(&format!("FAIL {name}: ")) && l.contains(reason),
        "expected FAIL {name}: …{reason}…, got {l}"
    );
}

const GAMES: [&str; 8] = [
    "bohnenspiel",
    "bohnenspiel-hemprich",
    "bosh",
    "kimasai",
    "kujifunza",
    "kalah",
    "kalah-6x6",
    "oware",
];

const GO_FIELDS: [&str; 7] = [
    "go-p1time",
    "go-p2time",
    "go-inc",
    "go-movestogo",
    "go-movetime",
    "go-depth",
    "go-nodes",
];

#[test]
fn reference_engine_passes_every_check() {
    let s = Scratch::new("check", "reference");
    // why timemargin: the engine is a debug build on a loaded machine; a
    // `go movetime 100` answered 60 ms late is load, not a protocol fault
    // (the lateness limit itself is tested below with testbots).
    let (code, lines) = check(
        &s,
        &[
            format!("cmd={}", engine()),
            "option.Hash=8".into(),
            "timemargin=1000".into(),
        ],
    );
    assert_eq!(code, Some(0), "{lines:#?}");
    assert!(lines.iter().all(|l| l.starts_with("PASS ")), "{lines:#?}");
    let mut names = vec![
        "handshake",
        "id-name",
        "games",
        "options",
        "isready",
        "isready-while-searching",
        "stop",
    ];
    let positions: Vec<String> = GAMES.iter().map(|g| format!("positions:{g}")).collect();
    names.extend(positions.iter().map(String::as_str));
    names.push("hemprich-pass");
    names.extend(GO_FIELDS);
    names.extend([
        "go-plain",
        "go-ponder",
        "go-ponder-miss",
        "gameover",
        "d",
        "go-perft",
        "one-bestmove-per-go",
        "malformed-position",
        "game-over-position",
        "error-messages",
        "malformed-input",
        "quit",
    ]);
    for name in &names {
        assert_pass(&lines, name);
    }
    assert_eq!(lines.len(), names.len(), "{lines:#?}");
    assert!(line(&lines, "stop").contains("ms after stop"));
}

#[test]
fn illegal_moves_fail_the_search_checks() {
    let s = Scratch::new("check", "illegal");
    let (code, lines) = check(&s, &bot("illegal"));
    assert_eq!(code, Some(1), "{lines:#?}");
    for name in ["handshake", "id-name", "games", "isready", "quit"] {
        assert_pass(&lines, name);
    }
    // It answers even the malformed `go depth notanumber`, which starts no
    // search: a bestmove that answers no `go`.
    assert_fail(&lines, "malformed-input", "\"bestmove 99\" before readyok");
    // It answers `go infinite` at once, without waiting for stop.
    assert_fail(
        &lines,
        "isready-while-searching",
        "`bestmove 99` before stop",
    );
    // So there was nothing to stop, and the report says why.
    assert_fail(
        &lines,
        "stop",
        "not tried: `go infinite` left no search running to stop",
    );
    for game in GAMES {
        assert_fail(&lines, &format!("positions:{game}"), "illegal move \"99\"");
    }
    // It moves even where the game is over.
    assert_fail(
        &lines,
        "game-over-position",
        "(the game is over) then `go movetime 100`: bestmove 99 (expected bestmove (none))",
    );
    for name in GO_FIELDS {
        assert_fail(&lines, name, "illegal move \"99\"");
    }
    assert_fail(
        &lines,
        "hemprich-pass",
        "illegal move \"99\" in bohnenspiel-hemprich ",
    );
}

#[test]
fn silent_engine_fails_every_search() {
    let s = Scratch::new("check", "silent");
    let (code, lines) = check(&s, &bot("silent"));
    assert_eq!(code, Some(1), "{lines:#?}");
    for name in [
        "handshake",
        "isready",
        "isready-while-searching",
        "malformed-input",
        "quit",
    ] {
        assert_pass(&lines, name);
    }
    assert_fail(&lines, "stop", "no bestmove within 1000 ms of stop");
    for game in GAMES {
        assert_fail(&lines, &format!("positions:{game}"), "no bestmove in time");
    }
    for name in GO_FIELDS {
        assert_fail(&lines, name, "no bestmove in time");
    }
}

#[test]
fn engine_without_umiok_fails_the_handshake() {
    let s = Scratch::new("check", "no-umiok");
    let (code, lines) = check(&s, &bot("no-umiok"));
    assert_eq!(code, Some(1));
    assert_eq!(lines, ["FAIL handshake: no umiok in time"]);
}

#[test]
fn engine_with_no_known_game_fails_the_games_check() {
    let s = Scratch::new("check", "no-game");
    let mut tokens = bot("random");
    tokens.extend(["arg=--games".into(), "arg=awari".into()]);
    let (code, lines) = check(&s, &tokens);
    assert_eq!(code, Some(1), "{lines:#?}");
    assert_fail(&lines, "games", "no known game id in `games awari`");
    assert_pass(&lines, "quit");
}

#[test]
fn a_second_bestmove_after_a_pause_fails_one_bestmove_per_go() {
    let s = Scratch::new("check", "late-bestmove");
    let mut tokens = bot("late-bestmove");
    tokens.extend(["arg=--delay-ms".into(), "arg=10".into()]);
    let (code, lines) = check(&s, &tokens);
    assert_eq!(code, Some(1), "{lines:#?}");
    assert_fail(
        &lines,
        "one-bestmove-per-go",
        "a second answer to `go movetime 100`: \"bestmove ",
    );
    assert!(
        line(&lines, "one-bestmove-per-go").contains("when no search was running"),
        "{lines:#?}"
    );
    // The bot that answers once passes it.
    let s = Scratch::new("check", "instant-once");
    let (_, lines) = check(&s, &bot("instant"));
    assert_pass(&lines, "one-bestmove-per-go");
}

#[test]
fn timemargin_sets_the_lateness_the_timed_checks_allow() {
    // The bot answers 300 ms after `go`: over `movetime 100` plus the default
    // 50 ms margin whatever the load, well within it plus 5000 ms.
    let mut slow = bot("slow");
    slow.extend(["arg=--delay-ms".into(), "arg=300".into()]);
    let s = Scratch::new("check", "slow-default-margin");
    let (_, lines) = check(&s, &slow);
    assert_fail(&lines, "positions:bohnenspiel", "(limit 100 ms + 50 ms)");
    assert_fail(&lines, "go-movetime", "(limit 200 ms + 50 ms)");
    let s = Scratch::new("check", "slow-big-margin");
    slow.push("timemargin=5000".into());
    let (_, lines) = check(&s, &slow);
    for game in GAMES {
        assert_pass(&lines, &format!("positions:{game}"));
    }
    for name in ["go-movetime", "go-p1time", "one-bestmove-per-go"] {
        assert_pass(&lines, name);
    }
}

#[test]
fn quit_with_a_non_zero_status_passes_with_a_note() {
    // The spec asks an engine to exit on quit, nothing about its status.
    let s = Scratch::new("check", "quit-code");
    // (testbot is no full engine: it fails the go infinite and malformed
    // checks, which are not the point here.)
    let (_, lines) = check(&s, &bot("quit-code-3"));
    let quit = line(&lines, "quit");
    assert!(
        quit.starts_with("PASS quit (") && quit.contains('3') && quit.contains("after quit"),
        "{quit}"
    );
}

#[test]
fn debug_writes_the_traffic_of_check() {
    let s = Scratch::new("check", "debug");
    let traffic = s.path("traffic.txt");
    let out = Command::new(ARBITER)
        .arg("check")
        .arg("--debug")
        .arg(&traffic)
        .arg("--engine")
        .arg(format!("cmd={}", testbot()))
        .args(["arg=--mode", "arg=instant"])
        .arg(s.dir_arg())
        .output()
        .expect("run arbiter check");
    s.assert_no_leftovers();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("PASS quit"), "{stdout}");
    let text = std::fs::read_to_string(&traffic).expect("the traffic file");
    for needle in [" > umi", " < umiok", " > go infinite", " > stop", " > quit"] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    // Every line is a timestamped record, as in a match's traffic file.
    assert!(text.lines().all(|l| l.starts_with('+')), "{text}");
}

#[test]
fn debug_commands_and_gameover_are_checked() {
    // testbot ignores `d` and `go perft`, and exit-after-gameover exits on
    // `gameover`: each fails its check, naming the command.
    let s = Scratch::new("check", "no-debug");
    let (code, lines) = check(&s, &bot("instant"));
    assert_eq!(code, Some(1), "{lines:#?}");
    assert_fail(
        &lines,
        "d",
        "`d` after `position startpos moves 1`: no `pos` line in time",
    );
    assert_fail(
        &lines,
        "go-perft",
        "`go perft 2` from the start: no `nodes` line in time",
    );
    assert_pass(&lines, "gameover");
    // It says `info string error` on a bad position or game, not on an
    // unknown option.
    assert_fail(
        &lines,
        "error-messages",
        "`setoption name NoSuchOption value 1`: no `info string error` line before readyok",
    );
    // It answers `go ponder` at once, which the spec forbids.
    assert_fail(&lines, "go-ponder", "` before ponderhit");
    assert_fail(&lines, "go-ponder-miss", "` before stop");
    // It answers plain `go` at once, which the spec allows.
    assert!(
        line(&lines, "go-plain").contains("before stop"),
        "{lines:#?}"
    );
    let s = Scratch::new("check", "gameover-exit");
    let (_, lines) = check(&s, &bot("exit-after-gameover"));
    assert_fail(
        &lines,
        "gameover",
        "`gameover 1-0 North forfeits on time` then isready: engine",
    );
    // The engine is restarted for the next check.
    assert_pass(&lines, "one-bestmove-per-go");
    // A silent engine gets `stop` after plain `go`, and gives nothing.
    let s = Scratch::new("check", "silent-plain");
    let (_, lines) = check(&s, &bot("silent"));
    assert_fail(&lines, "go-plain", "no bestmove after stop in time");
}

#[test]
fn a_failing_check_shows_the_engine_stderr() {
    // testbot refuses an unknown mode on stderr and exits 2 before umiok.
    let s = Scratch::new("check", "stderr-tail");
    let (code, lines) = check(&s, &bot("no-such-mode"));
    assert_eq!(code, Some(1), "{lines:#?}");
    assert!(lines[0].starts_with("FAIL handshake: "), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.starts_with("engine stderr (last ")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("stderr| testbot: ") && l.contains("no-such-mode")),
        "{lines:#?}"
    );
}

#[test]
fn check_takes_one_engine() {
    let cmd = format!("cmd={}", engine());
    let out = Command::new(ARBITER)
        .arg("check")
        .args(["--engine", &cmd, "name=A"])
        .args(["--engine", &cmd, "name=B"])
        .output()
        .expect("run arbiter check");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("exactly one --engine"), "{err}");
}

/// A failed check kills the engine; a restart that fails is tried once, and
/// the later checks say so instead of each waiting for another start.
#[test]
fn a_failed_restart_is_tried_once() {
    let s = Scratch::new("check", "restart-once");
    let state = s.path("starts");
    let mut tokens = bot("ignore-stop");
    tokens.extend([
        "arg=--max-starts".into(),
        "arg=1".into(),
        "arg=--state".into(),
        format!("arg={}", state.display()),
    ]);
    let (code, lines) = check(&s, &tokens);
    assert_eq!(code, Some(1), "{lines:#?}");
    assert_pass(&lines, "handshake");
    assert_fail(&lines, "stop", "");
    let restarts = lines
        .iter()
        .filter(|l| l.contains("engine restart failed"))
        .count();
    assert_eq!(restarts, 1, "{lines:#?}");
    let not_run = lines
        .iter()
        .filter(|l| l.contains("not run: the engine could not be restarted"))
        .count();
    assert!(not_run >= 3, "{lines:#?}");
    // Two starts in all: the first and the one restart.
    assert_eq!(std::fs::read_to_string(&state).unwrap().trim(), "2");
}
