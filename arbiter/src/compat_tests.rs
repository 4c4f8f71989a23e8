//! Every cutechess-cli / fastchess spelling, translated and then parsed by
//! the real command line.

use std::ffi::OsString;

use crate::cli::{Cli, Command};
use arbiter_core::compat::*;

fn argv(line: &str) -> Vec<OsString> {
    std::iter::once("arbiter")
        .chain(line.split_whitespace())
        .map(OsString::from)
        .collect()
}

fn translated(line: &str) -> Translation {
    translate(argv(line)).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn args(line: &str) -> Vec<String> {
    translated(line)
        .args
        .into_iter()
        .skip(1)
        .map(|a| a.into_string().unwrap())
        .collect()
}

fn error(line: &str) -> String {
    translate(argv(line)).unwrap_err().0
}

/// Translates and parses a tournament command line.
fn tournament(line: &str) -> Box<crate::cli::tournament::TournamentArgs> {
    let t = translated(line);
    match Cli::try_parse_grouped(t.args).unwrap_or_else(|e| panic!("{line}: {e}")) {
        Cli {
            command: Command::Tournament(t),
        } => t,
        _ => panic!("{line}: not a tournament"),
    }
}

const TWO: &str = "-engine cmd=a name=A proto=umi -engine cmd=b name=B";

#[test]
fn a_cutechess_command_line_becomes_a_tournament() {
    let t = tournament(&format!(
        "{TWO} -each tc=40/60+0.6 option.Hash=16 -games 2 -rounds 50 -repeat -concurrency 4 \
         -pgnout games.pgn min -srand 7 -event Test Event -maxmoves 200 -recover"
    ));
    assert_eq!(
        t.engines.engines,
        [
            vec!["cmd=a", "name=A", "proto=umi"],
            vec!["cmd=b", "name=B"]
        ]
    );
    assert_eq!(t.engines.each, ["tc=40/60+0.6", "option.Hash=16"]);
    // 2 games × 50 rounds = 100 games per pairing = 50 colour-swapped pairs.
    assert_eq!(t.rounds, Some(50));
    assert_eq!(t.run.concurrency, Some(4));
    assert_eq!(t.run.pgnout, Some("games.pgn".into()));
    assert_eq!(t.run.seed, 7);
    assert_eq!(t.run.event.as_deref(), Some("Test Event"));
    assert_eq!(t.run.max_plies, Some(400));
}

#[test]
fn notes_name_what_has_no_effect() {
    let t = translated(&format!(
        "{TWO} -pgnout g.pgn min -recover -ratinginterval 10 -wait 1000 -debug"
    ));
    let notes = t.notes.join("\n");
    for word in [
        "-pgnout min",
        "-recover",
        "-ratinginterval",
        "-wait",
        "-debug",
    ] {
        assert!(notes.contains(word), "{word} missing from {notes}");
    }
    assert!(args(&format!("{TWO} -debug"))
        .ends_with(&["--debug".to_owned(), "arbiter-traffic.log".to_owned()]));
}

#[test]
fn games_rounds_and_repeat() {
    let rounds = |extra: &str| tournament(&format!("{TWO} {extra}")).rounds;
    assert_eq!(rounds("-rounds 10 -games 2"), Some(10));
    assert_eq!(rounds("-games 4 -rounds 3"), Some(6));
    assert_eq!(rounds("-games 2"), Some(1));
    // fastchess: `-repeat` is `-games 2`.
    assert_eq!(rounds("-rounds 200 -repeat"), Some(200));
    assert!(translated(&format!("{TWO} -rounds 200 -repeat"))
        .notes
        .iter()
        .any(|n| n.contains("400 games per pairing")));
    assert_eq!(rounds("-games 1 -rounds 8 -repeat"), Some(4));
    assert_eq!(rounds("-repeat 2 -rounds 3"), Some(3));
    // cutechess plays an odd count (its -games defaults to 1): pairs here,
    // with a note.
    assert_eq!(rounds("-games 1 -rounds 5"), Some(3));
    assert_eq!(rounds("-tournament gauntlet -rounds 1"), Some(1));
    assert!(translated(&format!("{TWO} -tournament gauntlet -rounds 1"))
        .notes
        .iter()
        .any(|n| n.contains("1 game(s) per pairing, played as 1 colour-swapped pair(s)")));
    assert!(error(&format!("{TWO} -rounds 0")).contains("no games"));
    assert!(error(&format!("{TWO} -repeat 3")).contains("exactly twice"));
    assert!(error(&format!("{TWO} -games x")).contains("not a whole number"));
    assert!(error(&format!("{TWO} -rounds")).contains("expected one number"));
}

#[test]
fn in_a_match_games_count_games() {
    let t = translated(&format!("match {TWO} -games 2 -rounds 5 -each st=0.1"));
    let cli = Cli::try_parse_grouped(t.args).unwrap();
    let Command::Match(m) = cli.command else {
        panic!("not a match")
    };
    assert_eq!(m.games, 10);
    assert_eq!(m.engines.each, ["st=0.1"]);
}

#[test]
fn openings_spellings() {
    let t = tournament(&format!(
        "{TWO} -openings file=book.epd format=epd order=random start=3"
    ));
    assert_eq!(t.run.openings.as_deref(), Some("file=book.epd"));
    assert_eq!(t.run.openings_order, "random");
    assert_eq!(t.run.openings_start, Some(3));
    let t = tournament(&format!("{TWO} -openings order=sequential file=o.txt"));
    assert_eq!(t.run.openings_order, "sequential");
    assert_eq!(
        tournament(&format!("{TWO} -openings plies=4"))
            .run
            .openings
            .as_deref(),
        Some("plies=4")
    );
    assert!(error(&format!("{TWO} -openings file=b.pgn format=pgn")).contains("format=epd"));
    // cutechess's common `format=epd order=random plies=16`: plies= has no
    // effect on EPD positions there, so it runs here too, with a note.
    let t = translated(&format!(
        "{TWO} -openings file=b.epd format=epd order=random plies=16"
    ));
    assert!(t.args.iter().any(|a| a == "file=b.epd"), "{:?}", t.args);
    assert!(!t
        .args
        .iter()
        .any(|a| a.to_str().is_some_and(|a| a.contains("plies"))));
    assert_eq!(
        t.notes,
        [
            "-openings plies=16: no effect with an EPD-style file (as in cutechess): its \
          positions and move lines are played whole"
        ]
    );
    assert!(
        error(&format!("{TWO} -openings file=b order=shuffled")).contains("sequential or random")
    );
    assert!(error(&format!("{TWO} -openings file=b depth=3")).contains("unknown key"));
    assert!(error(&format!("{TWO} -openings format=epd")).contains("expected file=PATH"));
}

#[test]
fn sprt_tournament_and_adjudication() {
    let t = tournament(&format!(
        "{TWO} -each st=0.1 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic \
         -tournament gauntlet -resign movecount=3 score=600 twosided=true \
         -draw movenumber=40 movecount=8 score=10"
    ));
    assert_eq!(t.sprt, ["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]);
    assert_eq!(t.format, "gauntlet");
    assert_eq!(t.run.resign, ["movecount=3", "score=600", "twosided=true"]);
    assert_eq!(t.run.draw, ["movenumber=40", "movecount=8", "score=10"]);
    assert!(error(&format!("{TWO} -sprt elo0=0 elo1=5 model=normalized")).contains("logistic"));
    assert!(error(&format!("{TWO} -tournament double-knockout")).contains("round-robin, gauntlet"));
    for f in ["knockout", "pyramid", "swiss"] {
        assert_eq!(tournament(&format!("{TWO} -tournament {f}")).format, f);
    }
    // A knockout: -games per encounter (as pairs), -rounds ignored.
    let ko = |extra: &str| tournament(&format!("{TWO} -tournament knockout {extra}")).rounds;
    assert_eq!(ko("-games 4"), Some(2));
    assert_eq!(ko("-games 3 -rounds 5"), Some(2));
    let notes = translated(&format!("{TWO} -tournament knockout -games 3 -rounds 5")).notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("a knockout is played once")),
        "{notes:?}"
    );
    // A Swiss: -rounds rounds.
    let swiss = tournament(&format!("{TWO} -tournament swiss -rounds 7 -games 2"));
    assert_eq!(swiss.rounds, Some(7));
    assert_eq!(
        tournament(&format!("{TWO} -tournament round-robin")).format,
        "round-robin"
    );
}

#[test]
fn engine_keys() {
    let a = args("-engine cmd=a plies=7 ponder restart=on option.Hash=8 args=--fast");
    assert_eq!(
        a,
        [
            "tournament",
            "--engine",
            "cmd=a",
            "depth=7",
            "ponder",
            "restart=on",
            "option.Hash=8",
            "arg=--fast"
        ]
    );
    // Shell quoting keeps `args="--fast --quiet"` one token.
    let one = translate(vec![
        "arbiter".into(),
        "-engine".into(),
        "cmd=a".into(),
        "args=--fast --quiet".into(),
    ])
    .unwrap();
    let one: Vec<_> = one.args.iter().map(|a| a.to_str().unwrap()).collect();
    assert_eq!(one[4..], ["arg=--fast", "arg=--quiet"]);
    for (bad, why) in [
        ("book=x.bin", "opening books are chess"),
        ("whitepov", "mover's point of view"),
        ("initstr=x", "option.<name>"),
        ("trust", "trusts no engine"),
        ("tscale=2", "timemargin"),
        ("colour=red", "unknown key"),
    ] {
        let e = error(&format!("-engine cmd=a {bad}"));
        assert!(e.contains(why), "{bad}: {e}");
    }
    // proto= other than umi (or kgp for a remote bot) is refused by the
    // engine configuration itself.
    let t = translated("-engine cmd=a proto=uci -engine cmd=b -each st=1");
    let cli = Cli::try_parse_grouped(t.args).unwrap();
    let Command::Tournament(t) = cli.command else {
        panic!()
    };
    let e =
        arbiter_core::contender::config::parse_engines(&t.engines.engines, &t.engines.each, None)
            .unwrap_err()
            .to_string();
    assert!(e.contains("not \"uci\""), "{e}");
}

#[test]
fn a_remote_engine_in_the_single_dash_form() {
    let t = translated("-engine remote=alice name=Alice slots=2 lag=0 -engine cmd=b -each st=1");
    let cli = Cli::try_parse_grouped(t.args).unwrap();
    let Command::Tournament(t) = cli.command else {
        panic!()
    };
    let specs =
        arbiter_core::contender::config::parse_engines(&t.engines.engines, &t.engines.each, None)
            .unwrap();
    assert_eq!(specs[0].remote.as_deref(), Some("alice"));
    assert_eq!(specs[0].name, "Alice");
    assert_eq!(specs[0].slots, Some(2));
    assert_eq!(specs[0].lag, arbiter_core::play::lag::LagPolicy::Off);
    assert_eq!(specs[1].remote, None);
}

#[test]
fn refused_options_name_the_equivalent() {
    for (line, why) in [
        ("-epdout x.epd", "--pgnout"),
        ("-noswap", "colours swapped"),
        ("-tb /syzygy", "--adjudicate decided"),
        ("-pgnin x.pgn", "--openings file="),
        ("-variant standard", "--game"),
        ("-frobnicate 3", "unknown option -frobnicate"),
    ] {
        let e = error(&format!("{TWO} {line}"));
        assert!(e.contains(why), "{line}: {e}");
    }
    assert_eq!(tournament(&format!("{TWO} -variant bosh")).run.game, "bosh");
}

#[test]
fn fastchess_log_and_randomseed() {
    let tr = translated(&format!(
        "{TWO} -log file=traffic.txt level=info -randomseed"
    ));
    let note = tr.notes.join(" ");
    let Command::Tournament(t) = Cli::try_parse_grouped(tr.args).unwrap().command else {
        panic!()
    };
    assert_eq!(t.run.debug, Some("traffic.txt".into()));
    assert!(
        note.contains(&format!("give --seed {} to repeat", t.run.seed)),
        "{note}"
    );
}

#[test]
fn our_own_spellings_pass_unchanged() {
    let line = "tournament --engine cmd=a --engine cmd=b --each st=1 --rounds 3 -h";
    assert_eq!(args(line), line.split_whitespace().collect::<Vec<_>>());
    assert_eq!(args("verify games.pgn"), ["verify", "games.pgn"]);
    assert_eq!(args("-version"), ["--version"]);
    // A value with a leading dash after `=` is a value, not an option.
    assert_eq!(
        args("-engine cmd=a arg=-v")[1..],
        ["--engine", "cmd=a", "arg=-v"]
    );
}

#[test]
fn double_dash_spellings_from_other_tools_get_a_true_hint() {
    for (line, want) in [
        ("tournament --games 10", "--rounds N plays N colour-swapped"),
        ("tournament --srand 3", "--seed"),
        ("tournament --repeat", "no --repeat is needed"),
        ("match --rounds 3", "--games N"),
        ("match --tc 10+1", "--each tc="),
    ] {
        let e = error(line);
        assert!(e.contains(want), "{line}: {e}");
    }
    // `--game` itself is of course fine.
    assert_eq!(
        args("tournament --game bosh"),
        ["tournament", "--game", "bosh"]
    );
}

#[test]
fn fastchess_config_file() {
    let dir = std::env::temp_dir().join(format!("arbiter-compat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.json");
    std::fs::write(
        &path,
        r#"{"engines": [
              {"name": "A", "cmd": "./a", "dir": "", "args": "--x --y",
               "options": [["Hash", "16"], ["Level", 3]], "restart": true,
               "limit": {"tc": {"time": 10000, "increment": 100, "moves": 0, "fixed_time": 0},
                         "nodes": 0, "plies": 0}},
              {"name": "B", "cmd": "./b",
               "limit": {"tc": {"time": 0, "increment": 0, "moves": 0, "fixed_time": 250},
                         "nodes": 5000, "plies": 9}}],
            "rounds": 6, "games": 2, "concurrency": 3,
            "variant": "standard", "stats": {}}"#,
    )
    .unwrap();
    let t = translated(&format!("-config file={} -rounds 4", path.display()));
    assert!(t
        .notes
        .iter()
        .any(|n| n.contains("stats") && n.contains("variant")));
    let cli = Cli::try_parse_grouped(t.args).unwrap();
    let Command::Tournament(t) = cli.command else {
        panic!()
    };
    assert_eq!(
        t.engines.engines,
        [
            vec![
                "cmd=./a",
                "name=A",
                "arg=--x",
                "arg=--y",
                "restart=on",
                "option.Hash=16",
                "option.Level=3",
                "tc=10+0.1"
            ],
            vec!["cmd=./b", "name=B", "st=0.25", "nodes=5000", "depth=9"]
        ]
    );
    // The command line's -rounds wins over the file's: 4 rounds × 2 games.
    assert_eq!(t.rounds, Some(4));
    assert_eq!(t.run.concurrency, Some(3));
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"engines": [{"name": "A"}]}"#).unwrap();
    assert!(error(&format!("-config file={}", bad.display())).contains("engines[0].cmd"));
    assert!(error("-config file=/nonexistent/x.json").contains("/nonexistent/x.json"));

    // A config as fastchess saves it: adjudication sections and the SPRT map
    // when enabled, disabled ones mean nothing, the command line's -srand
    // wins over the file's seed.
    let saved = dir.join("saved.json");
    std::fs::write(
        &saved,
        r#"{"concurrency": 2, "games": 2, "rounds": 50, "seed": 951356066,
            "engines": [{"args": "", "cmd": "./a", "dir": "./", "name": "A", "options": [],
                         "restart": false, "variant": 0,
                         "limit": {"nodes": 0, "plies": 0,
                                   "tc": {"fixed_time": 0, "increment": 100, "moves": 0, "time": 10000}}},
                        {"args": "", "cmd": "./b", "dir": "./", "name": "B", "options": [],
                         "restart": false, "variant": 0,
                         "limit": {"nodes": 0, "plies": 0,
                                   "tc": {"fixed_time": 0, "increment": 100, "moves": 0, "time": 10000}}}],
            "resign": {"enabled": true, "move_count": 3, "score": 600, "twosided": true},
            "draw": {"enabled": false, "move_count": 0, "move_number": 0, "score": 0},
            "maxmoves": {"enabled": true, "move_count": 150},
            "sprt": {"enabled": true, "alpha": 0.05, "beta": 0.1, "elo0": 0.0, "elo1": 5.0,
                     "model": "logistic"},
            "opening": {"file": "", "format": 0, "order": 0, "plies": 0, "start": 1},
            "ratinginterval": 10, "recover": false, "wait": 0, "variant": 0}"#,
    )
    .unwrap();
    let t = tournament(&format!("-config file={} -srand 9", saved.display()));
    assert_eq!(t.run.seed, 9);
    assert_eq!(t.run.resign, ["movecount=3", "score=600", "twosided=true"]);
    assert!(t.run.draw.is_empty());
    assert_eq!(t.run.max_plies, Some(300));
    assert_eq!(t.sprt, ["elo0=0", "elo1=5", "alpha=0.05", "beta=0.1"]);
    assert_eq!(t.rounds, Some(50));
    let t = tournament(&format!("-config file={}", saved.display()));
    assert_eq!(t.run.seed, 951356066);
    std::fs::write(
        &saved,
        std::fs::read_to_string(&saved)
            .unwrap()
            .replace(r#""logistic""#, r#""normalized""#),
    )
    .unwrap();
    assert!(error(&format!("-config file={}", saved.display())).contains("logistic Elo"));
    std::fs::remove_dir_all(&dir).unwrap();
}
