//! A key accepted is a key that acts: every command's `--engine` keys, from
//! outside. `arbiter connect` sends the author's `option.X` to the engine
//! behind the bridge and refuses the organiser's keys; `check` and `serve`
//! refuse what they cannot honour; `--help` and the docs list what the
//! parser's tables hold (keys, game ids, headings).

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use arbiter_core::contender::config::{
    CHECK_REFUSES, CONNECT_REFUSES, HOUSE_REFUSES, KEYS, SERVE_REFUSES,
};
use mancala_rules::GameId;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

fn arbiter(dir: &Path, args: &[&str]) -> Output {
    Command::new(ARBITER)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run arbiter")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `--engine` tokens of one refused key: `ponder` is a bare token.
fn token(key: &str) -> String {
    match key {
        "tc" => "tc=10+0.1".into(),
        "st" => "st=1".into(),
        "depth" => "depth=3".into(),
        "nodes" => "nodes=1000".into(),
        "timemargin" => "timemargin=20".into(),
        "ponder" => "ponder".into(),
        "restart" => "restart=on".into(),
        "lag" => "lag=0".into(),
        "slots" => "slots=2".into(),
        "remote" => "remote=bob".into(),
        "proto" => "proto=kgp".into(),
        other => panic!("no sample value for {other}"),
    }
}

/// Each key in `refused` given to `command` ends it with exit status 2 and
/// a message naming the key (and, for the organiser's, who sets it).
fn assert_refused(command: &[&str], refused: &[(&str, &str)], who: Option<&str>) {
    let s = common::Scratch::new("keys", &format!("refused-{}", command[0]));
    let engine = format!("cmd={}", common::engine());
    for (key, _) in refused {
        // why remote alone: cmd= and remote= together is its own error.
        let tokens = if *key == "remote" {
            vec![token(key)]
        } else {
            vec![engine.clone(), token(key)]
        };
        let mut args: Vec<&str> = command.to_vec();
        args.push("--engine");
        args.extend(tokens.iter().map(String::as_str));
        let out = arbiter(&s.0, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        if *key == "remote" && command[0] == "connect" {
            assert!(err.contains("give it cmd="), "{args:?}: {err}");
            continue;
        }
        if *key == "remote" && command[0] == "check" {
            assert!(
                err.contains("remote=") && err.contains("check"),
                "{args:?}: {err}"
            );
            continue;
        }
        assert!(
            err.contains(&format!("{key}=")) && err.contains(command[0]),
            "{args:?}: {err}"
        );
        if let Some(who) = who {
            if [
                "tc",
                "st",
                "depth",
                "nodes",
                "timemargin",
                "ponder",
                "restart",
                "lag",
            ]
            .contains(key)
            {
                assert!(err.contains(who), "{args:?}: {err}");
            }
        }
    }
}

#[test]
fn connect_refuses_the_organisers_keys_at_start_naming_each() {
    // Port 1: nothing listens; a refusal must come before any connection.
    assert_refused(
        &["connect", "ws://127.0.0.1:1/umi", "--token", "t"],
        CONNECT_REFUSES,
        Some("organiser"),
    );
}

#[test]
fn check_refuses_the_keys_it_cannot_honour() {
    assert_refused(&["check"], CHECK_REFUSES, None);
}

/// `arena run`: a house bot's keys that the pools set (or that a local
/// process cannot have) and a pool's keys that cannot act on its games are
/// refused before the server starts, each named.
#[test]
fn arena_run_refuses_house_and_pool_keys_that_cannot_act() {
    let s = common::Scratch::new("keys", "arena");
    let db = s.path("arena.db").display().to_string();
    let pools = s.path("pools.json").display().to_string();
    let run = |house: &str| {
        arbiter(
            &s.0,
            &[
                "arena",
                "run",
                "--db",
                &db,
                "--pools",
                &pools,
                "--listen",
                "127.0.0.1:0",
                "--house",
                house,
            ],
        )
    };
    std::fs::write(
        &pools,
        r#"[{"name": "p", "game": "bohnenspiel", "each": "st=0.1"}]"#,
    )
    .unwrap();
    for (key, _) in HOUSE_REFUSES {
        let house = if *key == "remote" {
            format!("name=b {}", token(key))
        } else {
            format!("name=b cmd={} {}", common::engine(), token(key))
        };
        let out = run(&house);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{house}: {err}");
        assert!(
            err.contains(&format!("{key}=")) && err.contains("--house"),
            "{house}: {err}"
        );
    }
    for key in ["ponder", "lag", "remote", "slots", "restart"] {
        std::fs::write(
            &pools,
            format!(
                r#"[{{"name": "p", "game": "bohnenspiel", "each": "st=0.1 {}"}}]"#,
                token(key)
            ),
        )
        .unwrap();
        let out = run(&format!("name=b cmd={}", common::engine()));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{key}: {err}");
        assert!(err.contains(&format!("each: {key}=")), "{key}: {err}");
    }
}

#[test]
fn serve_refuses_the_keys_the_page_sets() {
    assert_refused(&["serve", "--listen", "127.0.0.1:0"], SERVE_REFUSES, None);
}

#[test]
fn match_refuses_a_list_of_game_ids_and_points_at_tournament() {
    let s = common::Scratch::new("keys", "match-games");
    let a = format!("cmd={}", common::engine());
    let out = arbiter(
        &s.0,
        &[
            "match",
            "--game",
            "bohnenspiel,bosh",
            "--engine",
            &a,
            "name=a",
            "depth=1",
            "--engine",
            &a,
            "name=b",
            "depth=1",
        ],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--game bohnenspiel,bosh") && err.contains("arbiter tournament"),
        "{err}"
    );
}

/// Each heading of a `--help` text with the flags under it.
fn headings(help: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            out.push((line.trim_end_matches(':').to_owned(), Vec::new()));
        } else if let (Some(flag), Some((_, flags))) = (
            line.trim_start()
                .strip_prefix("--")
                .filter(|_| line.starts_with("      --") || line.starts_with("  -"))
                .and_then(|rest| rest.split([' ', '=']).next()),
            out.last_mut(),
        ) {
            flags.push(format!("--{flag}"));
        }
    }
    out
}

fn heading_of(help: &[(String, Vec<String>)], flag: &str) -> String {
    help.iter()
        .find(|(_, flags)| flags.iter().any(|f| f == flag))
        .map(|(h, _)| h.clone())
        .unwrap_or_else(|| panic!("{flag} is in no section: {help:?}"))
}

fn help(command: &str) -> String {
    help_of(&[command])
}

/// The `--help` text of a (sub)command, e.g. `["arena", "run"]`.
fn help_of(command: &[&str]) -> String {
    // why a number: tests run at once, and each removes its scratch first.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let s = common::Scratch::new("keys", &format!("help-{}-{n}", command.join("-")));
    let args: Vec<&str> = command.iter().copied().chain(["--help"]).collect();
    let out = arbiter(&s.0, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_flag_of_arena_run_is_under_its_subject() {
    let run = headings(&help_of(&["arena", "run"]));
    let server = "Server (the database, pools, addresses)";
    let remote = "Remote bots (/umi, /kgp)";
    let games = "Games and pairing";
    let timeouts = "Engine timeouts";
    let expected = [
        ("--db", server),
        ("--listen", server),
        ("--pools", server),
        ("--kgp-listen", server),
        ("--allow-host", server),
        ("--house", "House bots"),
        ("--stderr-dir", "House bots"),
        ("--house-rate", "House bots"),
        ("--tls-cert", "TLS (every listener of this command)"),
        ("--tls-key", "TLS (every listener of this command)"),
        ("--max-games", games),
        ("--max-plies", games),
        ("--pairing-wait", games),
        ("--spectator-delay", "Pages"),
        ("--startup-timeout", timeouts),
        ("--ready-timeout", timeouts),
        ("--max-connections", remote),
        ("--remote-grace", remote),
        ("--admission", remote),
        ("--admission-retry", remote),
        ("--drain", "Stopping"),
    ];
    for (flag, heading) in expected {
        assert_eq!(heading_of(&run, flag), heading, "arena run {flag}: {run:?}");
    }
    // Every flag is in the table: a flag added later must say its subject
    // here (an unheaded flag lands under "Options", a flattened group's
    // heading left on files it under another subject).
    for (heading, flags) in &run {
        for flag in flags {
            assert!(
                flag == "--help" || expected.iter().any(|(f, _)| f == flag),
                "arena run {flag} (under {heading:?}) is not in this test's table"
            );
        }
    }
}

#[test]
fn a_shared_heading_holds_only_its_own_flags_in_every_command() {
    // The flags of the flattened groups, each under its group's heading
    // and nothing else there, whatever is declared after them.
    let own = |heading: &str, flag: &str| match heading {
        h if h.starts_with("TLS") => flag.starts_with("--tls-"),
        "Remote engines" => flag.starts_with("--remote-") || flag == "--kgp-listen",
        "Engine caps" => flag.starts_with("--max-engines"),
        h if h.starts_with("Server limits") => [
            "--max-connections",
            "--max-connections-per-address",
            "--header-timeout",
            "--idle-timeout",
            "--request-timeout",
            "--max-body",
        ]
        .contains(&flag),
        _ => true,
    };
    let commands: [&[&str]; 7] = [
        &["match"],
        &["tournament"],
        &["serve"],
        &["connect"],
        &["arena", "run"],
        &["check"],
        &["merge"],
    ];
    for command in commands {
        for (heading, flags) in headings(&help_of(command)) {
            for flag in flags {
                assert!(
                    own(&heading, &flag),
                    "{} --help files {flag} under {heading:?}",
                    command.join(" ")
                );
            }
        }
    }
}

#[test]
fn every_flag_is_under_its_own_heading() {
    let m = headings(&help("match"));
    for (flag, heading) in [
        ("--games", "Match"),
        ("--sprt", "Match"),
        ("--partie", "Match"),
        ("--tls-cert", "TLS (every listener of this command)"),
        ("--startup-timeout", "Engine timeouts"),
        ("--debug", "Logs"),
        ("--remote-listen", "Remote engines"),
        ("--max-body", "Server limits (serve; --live)"),
        ("--engine", "Options"),
    ] {
        assert_eq!(heading_of(&m, flag), heading, "match {flag}");
    }
    let t = headings(&help("tournament"));
    for flag in ["--format", "--rounds", "--resume", "--sprt", "--shard"] {
        assert_eq!(heading_of(&t, flag), "Tournament", "tournament {flag}");
    }
    let serve = headings(&help("serve"));
    assert_eq!(heading_of(&serve, "--tb"), "Board");
    assert_eq!(heading_of(&serve, "--remote-listen"), "Remote engines");
    assert_eq!(heading_of(&serve, "--max-engines"), "Engine caps");
    assert_eq!(heading_of(&serve, "--startup-timeout"), "Options");
}

#[test]
fn help_lists_the_rules_librarys_game_ids_and_the_parsers_keys() {
    for command in ["match", "tournament"] {
        let text = help(command);
        let game = text
            .split("--game <GAME>")
            .nth(1)
            .and_then(|rest| rest.split("\n      --").next())
            .unwrap_or_else(|| panic!("{command} --help has no --game: {text}"));
        for id in GameId::ALL {
            assert!(
                game.contains(id.as_str()),
                "{command} --game lacks {id}: {game}"
            );
        }
        for k in KEYS {
            assert!(
                text.contains(&format!("  {}={}: ", k.key, k.value)),
                "{command} --help lacks the key {}",
                k.key
            );
        }
    }
    // A command lists only the keys it takes, and names those it refuses.
    for (command, refused) in [
        ("connect", CONNECT_REFUSES),
        ("check", CHECK_REFUSES),
        ("serve", SERVE_REFUSES),
    ] {
        let text = help(command);
        let (keys, refusals) = text
            .split_once("Refused here")
            .unwrap_or_else(|| panic!("{command} --help names no refused keys: {text}"));
        for k in KEYS {
            let listed = keys.contains(&format!("  {}={}: ", k.key, k.value));
            let is_refused = refused.iter().any(|(r, _)| *r == k.key);
            assert_eq!(
                listed, !is_refused,
                "{command} --help and the key {}",
                k.key
            );
        }
        for (key, _) in refused {
            assert!(
                refusals.contains(&format!("{key}=")),
                "{command}: {key} refused"
            );
        }
    }
}

/// The first column's keys of the `## Engines` table of docs/arbiter.md.
fn documented_keys(docs: &str) -> BTreeSet<String> {
    let section = docs
        .split("\n## Engines\n")
        .nth(1)
        .expect("docs/arbiter.md has an Engines section");
    let table = section
        .split("| key | meaning |")
        .nth(1)
        .expect("the Engines section has the key table");
    let mut keys = BTreeSet::new();
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let first = row.split('|').nth(1).unwrap_or("");
        for (i, part) in first.split('`').enumerate() {
            if i % 2 == 1 {
                let key = part.split('=').next().unwrap_or(part);
                let key = if key.starts_with("option.") {
                    "option.<name>"
                } else {
                    key
                };
                keys.insert(key.to_owned());
            }
        }
    }
    keys
}

fn repo_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_docs_key_table_is_the_parsers() {
    let documented = documented_keys(&repo_file("docs/arbiter.md"));
    let parsed: BTreeSet<String> = KEYS.iter().map(|k| k.key.to_owned()).collect();
    assert_eq!(documented, parsed);
}

/// Every line of the user docs that lists three or more game ids lists all
/// of the rules library's.
#[test]
fn every_list_of_game_ids_in_the_docs_is_the_rules_librarys() {
    let mut files = vec!["README.md".to_owned(), "protocol-spec.md".to_owned()];
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    for entry in std::fs::read_dir(&docs).expect("docs/") {
        let name = entry.expect("docs entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") {
            files.push(format!("docs/{name}"));
        }
    }
    let named = |line: &str, id: GameId| {
        // why by word: `bohnenspiel` is in `bohnenspiel-hemprich`, `kalah`
        // in `kalah-6x6`.
        line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .any(|w| w == id.as_str())
    };
    let mut lists = 0;
    for file in &files {
        for (n, line) in repo_file(file).lines().enumerate() {
            let ids: Vec<GameId> = GameId::ALL
                .into_iter()
                .filter(|&id| named(line, id))
                .collect();
            if ids.len() >= 3 {
                lists += 1;
                assert_eq!(
                    ids.len(),
                    GameId::ALL.len(),
                    "{file}:{}: a list of game ids without all of {:?}: {line}",
                    n + 1,
                    GameId::ALL
                );
            }
        }
    }
    assert!(lists >= 3, "the docs list the game ids somewhere: {lists}");
}

/// `arbiter connect --engine … option.Level=2`: behind the bridge the engine
/// gets `setoption name Level value 2` after the organiser's
/// `option.Level=9`, so the author's value is the one in force. The engine
/// runs through a wrapper that copies its input to a file.
#[test]
fn the_authors_option_reaches_the_engine_behind_the_bridge_after_the_arbiters() {
    let s = common::Scratch::new("keys", "bridge-option");
    let input = s.path("engine-input.log");
    let wrapper = s.path("wrapped-engine");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ntee -a '{}' | exec '{}'\n",
            input.display(),
            common::engine()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let tokens = s.path("tokens.json");
    std::fs::write(&tokens, r#"{"bob": "bob-token-0123456789abcdef"}"#).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let engine = format!("cmd={}", common::engine());
    let arbiter_args = [
        "match".to_owned(),
        "--games".into(),
        "2".into(),
        "--openings".into(),
        "plies=2".into(),
        "--remote-listen".into(),
        format!("127.0.0.1:{port}"),
        "--remote-tokens".into(),
        tokens.display().to_string(),
        "--remote-wait".into(),
        "60".into(),
        "--engine".into(),
        "remote=bob".into(),
        "depth=1".into(),
        "option.Level=9".into(),
        "--engine".into(),
        engine,
        "name=local".into(),
        "depth=1".into(),
    ];
    let mut organiser = Command::new(ARBITER)
        .current_dir(&s.0)
        .args(&arbiter_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter match starts");
    let mut bridge = Command::new(ARBITER)
        .current_dir(&s.0)
        .args([
            "connect",
            &format!("ws://127.0.0.1:{port}/umi"),
            "--token",
            "bob-token-0123456789abcdef",
            "--engine",
            &format!("cmd={}", wrapper.display()),
            "option.Level=2",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter connect starts");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = organiser.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = organiser.kill();
            break organiser.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // why SIGTERM: the bridge kills its engines on the way out.
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(bridge.id() as i32, libc::SIGTERM) };
    let _ = bridge.wait();
    let out = organiser.wait_with_output().expect("output");
    assert!(
        status.success(),
        "the match failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let seen = std::fs::read_to_string(&input).expect("the engine's input was copied");
    let levels: Vec<&str> = seen
        .lines()
        .filter(|l| l.starts_with("setoption name Level"))
        .collect();
    assert!(
        levels.contains(&"setoption name Level value 9"),
        "the organiser's option: {seen}"
    );
    // After every organiser's Level, the author's follows before any search.
    let mut pending_author = false;
    for line in seen.lines() {
        if line == "setoption name Level value 9" {
            pending_author = true;
        } else if line == "setoption name Level value 2" {
            pending_author = false;
        } else if line.starts_with("go") {
            assert!(!pending_author, "a go under the organiser's Level: {seen}");
        }
    }
    assert!(
        levels.last() == Some(&"setoption name Level value 2"),
        "the author's Level is the last: {levels:?}"
    );
    assert!(
        seen.lines().any(|l| l.starts_with("go")),
        "games were played: {seen}"
    );
}

/// `arbiter --help` ends with the exit statuses, and docs/arbiter.md's
/// "Exit status" table says the same of each.
#[test]
fn the_exit_statuses_of_help_are_the_docs() {
    let s = common::Scratch::new("keys", "exit-status");
    let help = String::from_utf8_lossy(&arbiter(&s.0, &["--help"]).stdout).into_owned();
    let docs = repo_file("docs/arbiter.md");
    let section = docs
        .split("\n## Exit status\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/arbiter.md has an Exit status section");
    for (code, meaning) in [
        ("0", "done"),
        ("1", "a failure"),
        ("2", "a usage error"),
        ("3", "an internal error"),
    ] {
        assert!(
            help.contains(&format!("{code} {meaning}")),
            "--help lacks {code}: {help}"
        );
        assert!(
            section.contains(&format!("| {code} | {meaning}")),
            "docs lack {code}: {section}"
        );
    }
    assert!(help.contains("128+N") && section.contains("| 128 + N |"));
}
