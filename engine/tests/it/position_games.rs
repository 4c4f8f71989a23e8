//! The game of `position startpos`, leading zeros in position strings, and
//! engine messages without Rust debug text (issue: a newcomer's frictions).

use crate::common;

use common::{Engine, PROMPT};

#[test]
fn startpos_is_the_newgame_game_even_after_a_position_of_another_game() {
    let mut e = Engine::start();
    e.handshake();
    e.send("newgame bohnenspiel");
    e.send("position pos bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1");
    e.send("position startpos");
    e.send("d");
    let lines = e.until(PROMPT, |l| l.starts_with("pos "));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("pos bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0")
    );
    assert!(e.quit().success());
}

/// Position strings are canonical (protocol-spec.md section 2): the engine
/// and the rules library reject `04` the same way, naming the hole.
#[test]
fn position_strings_with_leading_zeros_are_rejected_naming_the_hole() {
    let mut e = Engine::start();
    e.handshake();
    e.send("newgame bosh");
    e.send("position pos bosh 4,4,4,4,4,4,4,4,4,04 S 0/0 1");
    let got = e.until(PROMPT, |l| l.starts_with("info string error"));
    let line = got.last().unwrap();
    assert!(line.contains("hole 10"), "{line}");
    let rules = "bosh 4,4,4,4,4,4,4,4,4,04 S 0/0 1"
        .parse::<mancala_rules::games::bosh::Bosh>()
        .unwrap_err()
        .to_string();
    assert!(line.ends_with(&rules), "{line} vs {rules}");
    assert!(e.quit().success());
}

#[test]
fn option_errors_quote_the_value_without_debug_text() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name Ponder value TRUE");
    let got = e.until(PROMPT, |l| l.starts_with("info string error"));
    let line = got.last().unwrap();
    assert_eq!(
        line,
        "info string error: option Ponder: expected true or false, found \"TRUE\""
    );
    assert!(!line.contains("Some("));
    assert!(e.quit().success());
}
