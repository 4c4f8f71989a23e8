//! Replays every example session of protocol-spec.md against the real engine.
//!
//! Lines to the engine are sent as written. Lines from the engine are matched
//! in order: search output (`info` lines other than errors) is illustrative
//! and skipped; `bestmove` must be a legal move of the position searched;
//! every other line must be identical.

use crate::common;

use common::{best_of, Engine, PROMPT};
use mancala_rules::{game_from_position, new_game, GameId};

fn sessions() -> Vec<Vec<String>> {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol-spec.md"))
        .expect("protocol-spec.md at the repository root");
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in spec.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```umi-session") => current = Some(Vec::new()),
            (Some(_), "```") => out.extend(current.take()),
            (Some(lines), l) if l.starts_with("> ") || l.starts_with("< ") => {
                lines.push(l.to_string())
            }
            _ => {}
        }
    }
    out.into_iter()
        .filter(|s| s.iter().any(|l| l.starts_with("> ")))
        .collect()
}

fn is_search_output(line: &str) -> bool {
    line.starts_with("info ") && !line.starts_with("info string error")
}

/// Tracks the game the engine was last given, to check `bestmove` legality.
#[derive(Default)]
struct Tracker {
    game: Option<GameId>,
    legal: Vec<String>,
}

impl Tracker {
    fn sent(&mut self, line: &str) {
        if let Some(id) = line.strip_prefix("newgame ") {
            self.game = id.parse().ok();
        } else if let Some(rest) = line.strip_prefix("position ") {
            let (base, moves) = match rest.split_once(" moves ") {
                Some((b, m)) => (b, m.split(' ').collect::<Vec<_>>()),
                None => (rest, Vec::new()),
            };
            let game = if base == "startpos" {
                self.game.map(new_game)
            } else {
                base.strip_prefix("pos ")
                    .and_then(|p| game_from_position(p).ok())
            };
            if let Some(mut g) = game {
                if moves.iter().all(|m| g.play(m).is_ok()) {
                    self.game = Some(g.game_id());
                    self.legal = g.legal_moves();
                }
            }
        }
    }
}

#[test]
fn spec_has_the_required_sessions() {
    let s = sessions();
    assert!(s.len() >= 3, "at least three example sessions");
    let all: Vec<&String> = s.iter().flatten().collect();
    for needed in ["> go infinite", "> stop", "> ponderhit", "> go p1time"] {
        assert!(
            all.iter().any(|l| l.starts_with(needed)),
            "a session uses {needed:?}"
        );
    }
}

#[test]
fn every_example_session_replays() {
    for (n, session) in sessions().into_iter().enumerate() {
        let mut e = Engine::start();
        if session.first().map(String::as_str) != Some("> umi") {
            e.handshake();
        }
        let mut tracker = Tracker::default();
        for line in &session {
            if let Some(cmd) = line.strip_prefix("> ") {
                tracker.sent(cmd);
                e.send(cmd);
                continue;
            }
            let expected = &line[2..];
            if is_search_output(expected) {
                continue;
            }
            let got = loop {
                let l = e
                    .next_line(PROMPT * 4)
                    .unwrap_or_else(|| panic!("session {n}: no line for {expected:?}"));
                if !is_search_output(&l) {
                    break l;
                }
            };
            if expected.starts_with("bestmove ") {
                assert!(
                    got.starts_with("bestmove "),
                    "session {n}: expected {expected:?}, got {got:?}"
                );
                assert!(
                    tracker.legal.contains(&best_of(&got).to_string()),
                    "session {n}: {got} is not legal"
                );
            } else {
                assert_eq!(got, expected, "session {n}");
            }
        }
    }
}
