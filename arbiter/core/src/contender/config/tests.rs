use super::*;
use std::time::Duration;

fn toks(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn engine(s: &str) -> Result<EngineSpec, ConfigError> {
    parse_engine(0, &toks(s), &[], None)
}

#[test]
fn a_bare_name_is_looked_up_here_then_beside_the_arbiter_then_on_path() {
    let root = std::env::temp_dir().join(format!("arbiter-lookup-{}", std::process::id()));
    let [here, beside, on_path] = ["here", "beside", "path"].map(|d| root.join(d));
    for d in [&here, &beside, &on_path] {
        std::fs::create_dir_all(d).unwrap();
    }
    let put = |d: &Path| std::fs::write(d.join("engine"), "#!/bin/sh\n").unwrap();
    let find = || {
        resolve_program(
            Path::new("engine"),
            None,
            Some(here.clone()),
            Some(beside.clone()),
            vec![on_path.clone()],
        )
    };
    put(&on_path);
    assert_eq!(find(), on_path.join("engine"));
    // The reference engine beside the arbiter beats another `engine` on PATH.
    put(&beside);
    assert_eq!(find(), beside.join("engine"));
    // A file in the current directory beats both.
    put(&here);
    assert_eq!(find(), here.join("engine"));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_keys_given_are_recorded_at_every_level() {
    let file = EnginesFile::parse(FILE, "engines.json").unwrap();
    let e = parse_engine(
        0,
        &toks("conf=Beta option.Hash=1 ponder"),
        &toks("timemargin=20"),
        Some(&file),
    )
    .unwrap();
    let keys: Vec<&str> = e.keys.iter().copied().collect();
    // The entry's own (cmd, st, depth) are not the command line's.
    assert_eq!(keys, ["conf", "option.<name>", "ponder", "timemargin"]);
    let refused = refuse_keys(&e, "connect", CONNECT_REFUSES)
        .unwrap_err()
        .to_string();
    assert!(
        refused.starts_with(
            "engine Beta: timemargin=: arbiter connect does not take it: the organiser"
        ),
        "{refused}"
    );
    let plain = engine("cmd=x name=A arg=-q option.Level=6 dir=/ stderr=e").unwrap();
    assert!(refuse_keys(&plain, "connect", CONNECT_REFUSES).is_ok());
}

#[test]
fn the_unknown_key_message_lists_the_table() {
    let e = engine("cmd=x hash=1").unwrap_err().to_string();
    for k in KEYS {
        assert!(e.contains(k.key), "{e} lacks {}", k.key);
    }
}

#[test]
fn parses_all_keys() {
    let e = engine(
        "cmd=./bot name=Alpha arg=--x arg=--y=1 option.Hash=64 option.Style=a=b dir=/e \
             tc=40/60+0.5 depth=9 nodes=1000 timemargin=50 stderr=alpha.err",
    )
    .unwrap();
    assert_eq!(e.name, "Alpha");
    assert_eq!(e.cmd, PathBuf::from("./bot"));
    assert_eq!(e.args, ["--x", "--y=1"]);
    assert_eq!(e.dir, Some(PathBuf::from("/e")));
    assert_eq!(
        e.options,
        [
            ("Hash".to_owned(), "64".to_owned()),
            ("Style".to_owned(), "a=b".to_owned())
        ]
    );
    assert_eq!(
        e.tc.to_string(),
        "40/60+0.5 depth=9 nodes=1000 timemargin=50"
    );
    assert_eq!(e.stderr, Some(PathBuf::from("alpha.err")));
    assert_eq!(e.program(), PathBuf::from("/e/./bot"));
}

#[test]
fn default_name_is_the_file_name() {
    let e = engine("cmd=/opt/engines/beta st=0.5").unwrap();
    assert_eq!(e.name, "beta");
    assert_eq!(e.tc.limit, TimeLimit::MoveTime(Duration::from_millis(500)));
}

#[test]
fn errors() {
    let err = |s: &str| engine(s).unwrap_err().to_string();
    assert_eq!(err("name=A"), "--engine #1: no cmd= (or remote=) given");
    assert_eq!(
        err("name=A,cmd=./e"),
        "--engine #1: \"name=A,cmd=./e\" is one setting, not several: separate the \
             settings with spaces, not commas (\"name=A cmd=./e\")"
    );
    assert!(err("cmd=x hash=1").contains("unknown key \"hash\""));
    assert!(err("cmd=x option.=1").contains("unknown key \"option.\""));
    assert!(err("cmd=x depth=ten").contains("bad depth value \"ten\""));
    assert!(err("cmd=x nodes=-5").contains("bad nodes value"));
    assert!(err("cmd=x tc=40/0").contains("time must be positive"));
    assert!(err("cmd=x tc=60 st=1").contains("tc and st cannot be used together"));
    assert!(err("cmd=x verbose").contains("expected key=value, got \"verbose\""));
    assert!(err("cmd=").contains("empty value for cmd"));
    assert!(err("cmd=x conf=A").contains("no engines file given"));
    let each_conf = parse_engine(0, &toks("cmd=x"), &toks("conf=A"), None);
    assert_eq!(each_conf.unwrap_err(), ConfigError::ConfInEach);
}

#[test]
fn each_applies_to_every_engine_and_own_keys_win() {
    let each = toks("tc=10+0.1 option.Hash=16 option.Threads=1 arg=--quiet timemargin=20");
    let specs = parse_engines(
        &[
            toks("cmd=a name=A option.Hash=64 st=1 arg=--fast"),
            toks("cmd=b name=B"),
        ],
        &each,
        None,
    )
    .unwrap();
    let (a, b) = (&specs[0], &specs[1]);
    assert_eq!(a.tc.to_string(), "st=1 timemargin=20");
    assert_eq!(b.tc.to_string(), "10+0.1 timemargin=20");
    assert_eq!(
        a.options,
        [
            ("Hash".to_owned(), "64".to_owned()),
            ("Threads".to_owned(), "1".to_owned())
        ]
    );
    assert_eq!(b.options[0], ("Hash".to_owned(), "16".to_owned()));
    assert_eq!(a.args, ["--fast", "--quiet"]);
    assert_eq!(b.args, ["--quiet"]);
}

#[test]
fn duplicate_names_are_rejected() {
    let r = parse_engines(&[toks("cmd=a name=X"), toks("cmd=b name=X")], &[], None);
    assert_eq!(
        r.unwrap_err(),
        ConfigError::DuplicateName {
            name: "X".into(),
            file: None
        }
    );
    // Two engines named after the same command: the message says how to
    // tell them apart.
    let r = parse_engines(&[toks("cmd=engine"), toks("cmd=engine")], &[], None);
    let message = r.unwrap_err().to_string();
    assert!(
        message.contains("two engines are named \"engine\""),
        "{message}"
    );
    assert!(message.contains("name="), "{message}");
}

const FILE: &str = r#"[
        {"name": "Alpha", "cmd": "./alpha", "args": ["--x"], "dir": "/engines",
         "options": {"Hash": 64, "Ponder": false, "Style": "wild"}, "tc": "40/60+0.5"},
        {"name": "Beta", "command": "beta", "st": 0.5, "depth": 7}
    ]"#;

#[test]
fn engines_file_entries_by_conf() {
    let file = EnginesFile::parse(FILE, "engines.json").unwrap();
    assert_eq!(file.names(), ["Alpha", "Beta"]);
    let a = parse_engine(
        0,
        &toks("conf=Alpha option.Hash=128 arg=--y"),
        &toks("option.Threads=2 tc=1+1"),
        Some(&file),
    )
    .unwrap();
    assert_eq!(a.name, "Alpha");
    assert_eq!(a.cmd, PathBuf::from("./alpha"));
    assert_eq!(a.args, ["--x", "--y"]);
    assert_eq!(a.dir, Some(PathBuf::from("/engines")));
    // File entry beats --each; own tokens beat the file.
    assert_eq!(a.tc.to_string(), "40/60+0.5 timemargin=50");
    let opts: Vec<_> = a.options.iter().map(|(n, v)| format!("{n}={v}")).collect();
    assert_eq!(
        opts,
        ["Threads=2", "Hash=128", "Ponder=false", "Style=wild"]
    );

    let b = parse_engine(1, &toks("conf=Beta name=B2"), &[], Some(&file)).unwrap();
    assert_eq!(b.name, "B2");
    assert_eq!(b.tc.to_string(), "st=0.5 depth=7 timemargin=50");

    let missing = parse_engine(2, &toks("conf=Gamma"), &[], Some(&file));
    assert_eq!(
        missing.unwrap_err().to_string(),
        "conf=Gamma: no such engine in the engines file (known: Alpha, Beta)"
    );
}

#[test]
fn bad_engines_files() {
    let err = |s: &str| EnginesFile::parse(s, "e.json").unwrap_err().to_string();
    assert!(err("{").starts_with("engines file e.json: "));
    assert!(err(r#"[{"name": "A"}]"#).contains("no cmd= (or remote=) given"));
    assert!(err(r#"[{"name": "A", "cmd": "a", "hash": 1}]"#).contains("unknown field `hash`"));
    assert!(err(r#"[{"name": "A", "cmd": "a", "tc": "fast"}]"#).contains("bad tc value"));
    assert!(err(r#"[{"name": "A", "cmd": "a", "options": {"H": [1]}}]"#)
        .contains("expected a string, number or boolean"));
    assert!(
        err(r#"[{"name": "A", "cmd": "a"}, {"name": "A", "cmd": "b"}]"#)
            .contains("two entries are named \"A\"")
    );
}

#[test]
fn binary_checks() {
    let dir = std::env::temp_dir().join(format!("arbiter-config-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("bot");
    let plain = dir.join("data");
    std::fs::write(&exe, "#!/bin/sh\n").unwrap();
    std::fs::write(&plain, "").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let d = dir.display();
    let ok = engine(&format!("cmd=./bot dir={d}")).unwrap();
    assert_eq!(ok.check_binary().unwrap(), dir.join("./bot"));
    let bare = engine(&format!("cmd=bot dir={d}")).unwrap();
    assert_eq!(bare.check_binary().unwrap(), dir.join("bot"));

    let missing = engine(&format!("cmd=./nothing dir={d}")).unwrap();
    assert_eq!(
        missing.check_binary().unwrap_err().to_string(),
        format!("engine binary not found: {d}/./nothing")
    );
    #[cfg(unix)]
    {
        let r = resolve_engines(&[toks(&format!("cmd={}", plain.display()))], &[], None);
        assert_eq!(
            r.unwrap_err(),
            ConfigError::NotExecutable {
                path: plain.clone()
            }
        );
    }
    let r = resolve_engines(&[toks(&format!("cmd={d}"))], &[], None);
    assert!(matches!(r, Err(ConfigError::NotExecutable { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn bare_names_are_found_on_path() {
    // `sh` is on PATH on any Unix machine that runs these tests.
    let sh = engine("cmd=sh").unwrap();
    let path = sh.check_binary().unwrap();
    assert!(path.is_absolute() && path.ends_with("sh"), "{path:?}");
}

#[test]
fn cutechess_keys_proto_ponder_restart() {
    let e = engine("cmd=x proto=umi ponder restart=on").unwrap();
    assert!(e.ponder);
    assert_eq!(e.restart, Restart::On);
    let e = engine("cmd=x ponder=false restart=auto").unwrap();
    assert!(!e.ponder);
    assert_eq!(e.restart, Restart::Off);
    let d = engine("cmd=x").unwrap();
    assert_eq!((d.ponder, d.restart), (false, Restart::Off));
    let err = |s: &str| engine(s).unwrap_err().to_string();
    assert_eq!(
            err("cmd=x proto=uci"),
            "--engine #1: proto: this arbiter speaks UMI (proto=umi), and KGP with remote Kalah bots (proto=kgp), not \"uci\""
        );
    assert!(err("cmd=x restart=sometimes").contains("restart=sometimes: expected on or off"));
    assert!(err("cmd=x ponder=maybe").contains("ponder: expected true or false"));
    // --each carries them too; the engine's own token wins.
    let specs = parse_engines(
        &[toks("cmd=a name=A"), toks("cmd=b name=B restart=off")],
        &toks("ponder restart=on"),
        None,
    )
    .unwrap();
    assert!(specs[0].ponder && specs[1].ponder);
    assert_eq!(
        (specs[0].restart, specs[1].restart),
        (Restart::On, Restart::Off)
    );
}

/// An engines file as cutechess's GUI writes it.
const CUTECHESS_FILE: &str = r#"[
        {"name": "Bot", "command": "./bot", "workingDirectory": "/engines",
         "protocol": "umi", "stderrFile": "bot.err", "initStrings": [],
         "whitepov": false, "ponder": true, "validateClaims": true, "restart": "on",
         "variants": ["standard"],
         "options": [{"name": "Hash", "type": "spin", "default": 16, "value": 64},
                     {"name": "Style", "type": "combo", "default": "solid"}]}
    ]"#;

/// cutechess's EngineConfiguration::toVariant for a plain engine.
const CUTECHESS_PLAIN: &str = r#"[
        {
            "command": "engine",
            "name": "Plain",
            "options": [
                {"alias": "", "default": 10, "max": 20, "min": 1, "name": "Level",
                 "type": "spin", "value": 3},
                {"alias": "", "name": "Clear Hash", "type": "button"}
            ],
            "protocol": "umi",
            "stderrFile": "",
            "timeoutScaleFactor": 1,
            "workingDirectory": ""
        }
    ]"#;

#[test]
fn remote_engines() {
    let e = engine("remote=alice tc=10+0.1").unwrap();
    assert_eq!(
        (e.remote.as_deref(), e.name.as_str()),
        (Some("alice"), "alice")
    );
    assert_eq!(e.lag, crate::play::lag::LagPolicy::Quota);
    let e = engine("remote=bob name=Bob slots=3 lag=150").unwrap();
    assert_eq!(e.slots, Some(3));
    assert_eq!(
        e.lag,
        crate::play::lag::LagPolicy::Fixed(Duration::from_millis(150))
    );
    let err = |s: &str| engine(s).unwrap_err().to_string();
    assert!(err("remote=a cmd=x").contains("cmd= and remote= together"));
    assert!(err("remote=a/b").contains("an id of letters"));
    assert!(err("remote=a slots=0").contains("expected 1 to 1024"));
    assert!(err("remote=a lag=fast").contains("expected auto, 0"));
    let e = engine("remote=kbot proto=kgp").unwrap();
    assert_eq!(e.proto, Protocol::Kgp);
    assert_eq!(engine("remote=kbot").unwrap().proto, Protocol::Umi);
    assert!(err("cmd=x proto=kgp").contains("proto=kgp is for remote bots"));
    // No binary to check for a remote engine.
    assert!(resolve_engines(&[toks("remote=a name=A")], &[], None).is_ok());
    let file = EnginesFile::parse(
        r#"[{"name": "Alice", "remote": "alice", "slots": 2, "lag": 0}]"#,
        "e.json",
    )
    .unwrap();
    let e = parse_engine(0, &toks("conf=Alice st=1"), &[], Some(&file)).unwrap();
    assert_eq!(e.remote.as_deref(), Some("alice"));
    assert_eq!(e.lag, crate::play::lag::LagPolicy::Off);
    let bad = EnginesFile::parse(r#"[{"name": "A", "remote": "a", "cmd": "x"}]"#, "e.json");
    assert!(bad.unwrap_err().to_string().contains("together"));
}

#[test]
fn cutechess_engines_json_loads() {
    let file = EnginesFile::parse(CUTECHESS_FILE, "engines.json").unwrap();
    let e = parse_engine(0, &toks("conf=Bot st=1"), &[], Some(&file)).unwrap();
    assert_eq!(e.cmd, PathBuf::from("./bot"));
    assert_eq!(e.dir, Some(PathBuf::from("/engines")));
    assert_eq!(e.stderr, Some(PathBuf::from("bot.err")));
    // An option without a value keeps the engine's default: not sent.
    assert_eq!(e.options, [("Hash".to_owned(), "64".to_owned())]);
    assert!(e.ponder);
    assert_eq!(e.restart, Restart::On);

    // What cutechess 1.3 writes for an engine without a directory or
    // stderr file: empty strings, and always a timeout scale factor.
    let plain = EnginesFile::parse(CUTECHESS_PLAIN, "engines.json").unwrap();
    let e = parse_engine(0, &toks("conf=Plain"), &[], Some(&plain)).unwrap();
    assert_eq!((e.dir, e.stderr), (None, None));
    assert_eq!(e.options, [("Level".to_owned(), "3".to_owned())]);

    let err = |s: &str| EnginesFile::parse(s, "e.json").unwrap_err().to_string();
    assert!(err(r#"[{"name": "A", "command": "a", "protocol": "uci"}]"#)
        .contains("speaks UMI (proto=umi)"));
    assert!(
        err(r#"[{"name": "A", "command": "a", "protocol": "xboard"}]"#).contains("not \"xboard\"")
    );
    assert!(
        err(r#"[{"name": "A", "command": "a", "initStrings": ["x"]}]"#)
            .contains("initStrings: not supported")
    );
    assert!(err(r#"[{"name": "A", "command": "a", "whitepov": true}]"#)
        .contains("mover's point of view"));
}
