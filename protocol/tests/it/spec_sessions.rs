//! The example sessions of `protocol-spec.md`: every `> ` line is a command,
//! every `< ` line a message, each re-displays to the same text, and each
//! session follows the state machine of the spec.

use std::path::PathBuf;

use umi::{Command, Message};

#[derive(Debug)]
enum Line {
    ToEngine(String),
    FromEngine(String),
}

fn spec_text() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocol-spec.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The ```umi-session blocks of the spec, each as (first line number, lines).
fn sessions(spec: &str) -> Vec<(usize, Vec<(usize, Line)>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<(usize, Line)>)> = None;
    for (i, raw) in spec.lines().enumerate() {
        let n = i + 1;
        match &mut current {
            None => {
                if raw.trim_end() == "```umi-session" {
                    current = Some((n, Vec::new()));
                }
            }
            Some((_, lines)) => {
                if raw.trim_end() == "```" {
                    out.extend(current.take());
                } else if let Some(cmd) = raw.strip_prefix("> ") {
                    lines.push((n, Line::ToEngine(cmd.to_owned())));
                } else if let Some(msg) = raw.strip_prefix("< ") {
                    lines.push((n, Line::FromEngine(msg.to_owned())));
                } else if !raw.starts_with('#') {
                    panic!("protocol-spec.md:{n}: session line {raw:?} starts with neither '> ', '< ' nor '#'");
                }
            }
        }
    }
    assert!(current.is_none(), "unterminated umi-session block");
    out
}

#[test]
fn every_session_line_parses_in_its_direction_and_redisplays() {
    let spec = spec_text();
    let sessions = sessions(&spec);
    let mut count = 0;
    for (_, lines) in &sessions {
        for (n, line) in lines {
            count += 1;
            match line {
                Line::ToEngine(text) => {
                    let c = Command::parse(text)
                        .unwrap_or_else(|e| panic!("protocol-spec.md:{n}: {text:?}: {e}"));
                    assert_eq!(
                        &c.to_string(),
                        text,
                        "protocol-spec.md:{n} is not canonical"
                    );
                    assert!(
                        Message::parse(text).is_err(),
                        "protocol-spec.md:{n}: {text:?} is also a message"
                    );
                }
                Line::FromEngine(text) => {
                    let m = Message::parse(text)
                        .unwrap_or_else(|e| panic!("protocol-spec.md:{n}: {text:?}: {e}"));
                    assert_eq!(
                        &m.to_string(),
                        text,
                        "protocol-spec.md:{n} is not canonical"
                    );
                    assert!(
                        Command::parse(text).is_err(),
                        "protocol-spec.md:{n}: {text:?} is also a command"
                    );
                }
            }
        }
    }
    assert!(
        sessions.len() >= 5,
        "expected the option block, the d example and at least three sessions"
    );
    assert!(count > 100, "only {count} session lines found");
}

/// What the GUI is waiting for.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Search {
    /// A search that may end by itself.
    Normal,
    /// `go infinite` or `go ponder`: no bestmove before `stop`/`ponderhit`.
    Held,
    /// `stop` sent: bestmove due.
    Stopped,
}

/// Replays a session against the state machine of section 6.
fn check_state_machine(start: usize, lines: &[(usize, Line)]) {
    let mut handshake = false;
    let mut search: Option<Search> = None;
    let mut perft_open = false;
    for (n, line) in lines {
        match line {
            Line::ToEngine(text) => {
                let c = Command::parse(text).unwrap_or_else(|e| panic!("{n}: {e}"));
                let busy = search.is_some();
                match c {
                    Command::Umi => handshake = true,
                    Command::Go(go) => {
                        assert!(!busy, "protocol-spec.md:{n}: go during a search");
                        search = Some(if go.infinite || go.ponder {
                            Search::Held
                        } else {
                            Search::Normal
                        });
                    }
                    Command::Perft { .. } => {
                        assert!(!busy, "protocol-spec.md:{n}: perft during a search");
                        perft_open = true;
                    }
                    Command::Stop => {
                        if busy {
                            search = Some(Search::Stopped);
                        }
                    }
                    Command::PonderHit => {
                        assert_eq!(
                            search,
                            Some(Search::Held),
                            "protocol-spec.md:{n}: ponderhit while not pondering"
                        );
                        search = Some(Search::Normal);
                    }
                    Command::IsReady | Command::Quit => {}
                    Command::SetOption(_)
                    | Command::NewGame(_)
                    | Command::Position { .. }
                    | Command::GameOver { .. }
                    | Command::Board => {
                        assert!(!busy, "protocol-spec.md:{n}: {text:?} during a search");
                    }
                }
            }
            Line::FromEngine(text) => {
                let m = Message::parse(text).unwrap_or_else(|e| panic!("{n}: {e}"));
                match m {
                    Message::UmiOk => {
                        assert!(handshake, "protocol-spec.md:{n}: umiok without umi");
                        handshake = false;
                    }
                    Message::IdName(_) | Message::IdAuthor(_) | Message::Games(_) => {
                        assert!(
                            handshake,
                            "protocol-spec.md:{n}: {text:?} outside the handshake"
                        )
                    }
                    Message::BestMove { .. } | Message::BestMoveNone => match search.take() {
                        Some(Search::Normal | Search::Stopped) => {}
                        other => panic!("protocol-spec.md:{n}: bestmove while {other:?}"),
                    },
                    Message::PerftMove { .. } => assert!(
                        perft_open,
                        "protocol-spec.md:{n}: perft line without go perft"
                    ),
                    Message::PerftTotal(_) => {
                        assert!(perft_open, "protocol-spec.md:{n}: nodes without go perft");
                        perft_open = false;
                    }
                    Message::Option(_) | Message::ReadyOk | Message::Info(_) | Message::Pos(_) => {}
                }
            }
        }
    }
    assert_eq!(
        search, None,
        "session at protocol-spec.md:{start} ends with a search running"
    );
    assert!(
        !perft_open,
        "session at protocol-spec.md:{start} ends inside perft output"
    );
}

#[test]
fn sessions_follow_the_state_machine() {
    for (start, lines) in sessions(&spec_text()) {
        check_state_machine(start, &lines);
    }
}

#[test]
fn sessions_cover_the_required_exchanges() {
    let spec = spec_text();
    let all: Vec<String> = sessions(&spec)
        .into_iter()
        .flat_map(|(_, lines)| lines)
        .map(|(_, l)| match l {
            Line::ToEngine(t) => format!("> {t}"),
            Line::FromEngine(t) => format!("< {t}"),
        })
        .collect();
    for needle in [
        "> umi",
        "< umiok",
        "> go p1time",
        "> go infinite",
        "> stop",
        "> go ponder",
        "> ponderhit",
        "< bestmove 23 ponder 47",
        "> go perft",
        "< nodes",
        "> gameover",
        "< info string error:",
        "> isready",
        "< readyok",
        "> quit",
    ] {
        assert!(
            all.iter().any(|l| l.starts_with(needle)),
            "no session line starts with {needle:?}"
        );
    }
}

/// Section 11 lists the reference engine's options; the handshake of the
/// first session must declare exactly those.
#[test]
fn handshake_declares_the_reference_options() {
    let spec = spec_text();
    let sessions = sessions(&spec);
    let options = |lines: &[(usize, Line)]| -> Vec<String> {
        lines
            .iter()
            .filter_map(|(_, l)| match l {
                Line::FromEngine(t) if t.starts_with("option ") => Some(t.clone()),
                _ => None,
            })
            .collect()
    };
    let declared = sessions
        .iter()
        .map(|(_, l)| options(l))
        .find(|o| !o.is_empty())
        .expect("an option block");
    let handshake = sessions
        .iter()
        .find(|(_, l)| {
            l.iter()
                .any(|(_, x)| matches!(x, Line::ToEngine(t) if t == "umi"))
        })
        .map(|(_, l)| options(l))
        .expect("a session with a handshake");
    assert_eq!(declared, handshake);
    let names: Vec<String> = declared
        .iter()
        .map(|l| match Message::parse(l) {
            Ok(Message::Option(o)) => o.name().to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        names,
        [
            "Hash",
            "Move Overhead",
            "Level",
            "RandomSeed",
            "Ponder",
            "MultiPV",
            "TablebasePath",
            "Solve"
        ]
    );
}
