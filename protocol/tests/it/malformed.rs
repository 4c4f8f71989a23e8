//! Malformed lines are rejected with errors that name the problem; unknown
//! commands and empty lines are told apart as ignorable.

use umi::{Command, Message, ParseError};

/// Parses `line` as a command, expects an error, and checks that its message
/// mentions every fragment.
fn command_error(line: &str, fragments: &[&str]) -> ParseError {
    let err = match line.parse::<Command>() {
        Ok(c) => panic!("{line:?} parsed as {c:?}"),
        Err(e) => e,
    };
    let text = err.to_string();
    for f in fragments {
        assert!(
            text.contains(f),
            "error for {line:?} is {text:?}, expected it to mention {f:?}"
        );
    }
    assert!(!err.is_ignorable(), "{line:?}: {err:?}");
    err
}

fn message_error(line: &str, fragments: &[&str]) -> ParseError {
    let err = match line.parse::<Message>() {
        Ok(m) => panic!("{line:?} parsed as {m:?}"),
        Err(e) => e,
    };
    let text = err.to_string();
    for f in fragments {
        assert!(
            text.contains(f),
            "error for {line:?} is {text:?}, expected it to mention {f:?}"
        );
    }
    assert!(!err.is_ignorable(), "{line:?}: {err:?}");
    err
}

#[test]
fn unknown_and_empty_lines_are_ignorable() {
    for line in [
        "",
        "   ",
        "\t\r",
        "xyzzy",
        "uci",
        "ucinewgame",
        "UMI",
        "Go depth 3",
        "joho debug on",
        "bestmove 4",
    ] {
        let err = line.parse::<Command>().unwrap_err();
        assert!(err.is_ignorable(), "{line:?}: {err:?}");
    }
    assert_eq!("".parse::<Command>(), Err(ParseError::Empty));
    assert_eq!(
        "xyzzy plugh".parse::<Command>(),
        Err(ParseError::UnknownCommand {
            token: "xyzzy".into()
        })
    );
    assert!("xyzzy"
        .parse::<Command>()
        .unwrap_err()
        .to_string()
        .contains("xyzzy"));
    for line in ["", "uciok", "go", "bestmove", "position startpos", ":"] {
        let err = line.parse::<Message>().unwrap_err();
        // "bestmove" alone is a malformed known message, not an unknown one.
        if line == "bestmove" {
            assert!(!err.is_ignorable());
        } else {
            assert!(err.is_ignorable(), "{line:?}: {err:?}");
        }
    }
}

#[test]
fn malformed_commands_name_the_problem() {
    command_error("umi now", &["umi", "\"now\"", "end of line"]);
    command_error("isready 1", &["isready", "\"1\""]);
    command_error("stop now", &["stop"]);
    command_error("d 1", &["d:"]);
    command_error("setoption", &["name"]);
    command_error("setoption Hash value 3", &["setoption", "\"Hash\"", "name"]);
    command_error("setoption name", &["option name"]);
    command_error("setoption name value 3", &["option name"]);
    command_error("setoption name Hash value", &["value"]);
    command_error(
        "setoption name Hash type x value 3",
        &["option name", "\"type\""],
    );
    command_error("newgame", &["game id"]);
    command_error(
        "newgame awari",
        &["unknown game id", "awari", "bohnenspiel"],
    );
    command_error("newgame bosh kimasai", &["newgame", "kimasai"]);
    command_error("position", &["startpos or pos"]);
    command_error(
        "position fen x",
        &["position", "\"fen\"", "startpos or pos"],
    );
    command_error("position startpos 1 2", &["\"1\"", "moves"]);
    command_error("position pos", &["position string"]);
    command_error("position pos moves 1", &["position string"]);
    command_error("position startpos moves 1 (2)", &["\"(2)\"", "not a move"]);
    command_error(
        "position startpos moves 1 ponder",
        &["\"ponder\"", "keyword"],
    );
    command_error("position startpos moves 1 é", &["not a move"]);
    command_error(
        &format!("position startpos moves {}", "1".repeat(50)),
        &["not a move", "32", "…"],
    );
    command_error("go depth", &["depth needs a value"]);
    command_error(
        "go depth x",
        &["depth", "\"x\"", "not a non-negative decimal integer"],
    );
    command_error("go depth -1", &["depth", "\"-1\""]);
    command_error("go depth +1", &["depth", "\"+1\""]);
    command_error("go depth 4294967296", &["depth", "too large"]);
    command_error("go nodes 18446744073709551616", &["nodes", "too large"]);
    command_error(
        "go p1time 99999999999999999999999999999999999999999999",
        &["p1time", "too large"],
    );
    command_error("go depth 3 depth 4", &["depth given twice"]);
    command_error("go infinite infinite", &["infinite given twice"]);
    command_error("go wtime 100", &["go", "\"wtime\"", "p1time"]);
    command_error("go depth 3 perft 2", &["perft"]);
    command_error("go perft", &["perft needs a value"]);
    command_error("go perft x", &["perft", "\"x\""]);
    command_error("go perft 2 depth 3", &["go perft", "\"depth\""]);
    command_error("gameover", &["result"]);
    command_error("gameover 2-0", &["\"2-0\"", "1-0, 0-1, 1/2-1/2"]);
    command_error("gameover draw", &["\"draw\""]);
    command_error("quit\u{7}", &["control character", "U+0007"]);
    command_error("isready\u{0}", &["U+0000"]);
}

#[test]
fn malformed_messages_name_the_problem() {
    message_error("id", &["name or author"]);
    message_error("id name", &["id name needs a value"]);
    message_error("id version 3", &["id", "\"version\""]);
    message_error("games Bosh", &["\"Bosh\"", "not a game id"]);
    message_error("umiok 1", &["umiok"]);
    message_error("option", &["name"]);
    message_error("option name", &["option name"]);
    message_error("option name Hash", &["type"]);
    message_error("option name type spin", &["option name"]);
    message_error("option name Hash type", &["type needs a value"]);
    message_error(
        "option name Hash type integer",
        &["option type", "\"integer\""],
    );
    message_error("option name Hash type spin default 1 min 0", &["max"]);
    message_error(
        "option name Hash type spin default 5 min 6 max 9",
        &["min <= default <= max"],
    );
    message_error(
        "option name Hash type spin default x min 0 max 9",
        &["spin default", "\"x\""],
    );
    message_error(
        "option name Hash type spin default 1 2 min 0 max 9",
        &["not a single number"],
    );
    message_error(
        "option name Hash type spin default 1 default 2 min 0 max 9",
        &["default given twice"],
    );
    message_error(
        "option name Hash type spin default 1 min 0 max 9 var 3",
        &["\"var\""],
    );
    message_error(
        "option name Hash type spin default min 0 max 9",
        &["default needs a value"],
    );
    message_error("option name P type check", &["default"]);
    message_error(
        "option name P type check default yes",
        &["\"yes\"", "true or false"],
    );
    message_error("option name P type check default true max 3", &["\"max\""]);
    message_error("option name S type combo default a", &["at least one var"]);
    message_error(
        "option name S type combo default c var a var b",
        &["\"c\"", "not one of its vars"],
    );
    message_error("option name S type combo var a", &["default"]);
    message_error(
        "option name B type button default 1",
        &["button", "\"default\""],
    );
    message_error("option name F type string", &["default"]);
    message_error(
        "option name F type string default",
        &["default needs a value"],
    );
    message_error("option name F type string value x", &["\"value\""]);
    message_error(
        "option name my value type check default true",
        &["option name", "\"value\""],
    );
    message_error("info depth", &["depth needs a value"]);
    message_error("info depth 1 depth 2", &["depth given twice"]);
    message_error("info tbhits 3", &["info", "\"tbhits\""]);
    message_error("info score", &["score needs a value"]);
    message_error("info score 20", &["score", "\"20\"", "cp or mate"]);
    message_error("info score cp", &["score cp needs a value"]);
    message_error("info score cp 1.5", &["score cp", "\"1.5\""]);
    message_error("info score cp 3000000000", &["out of range"]);
    message_error(
        "info score mate 1 upperbound lowerbound",
        &["\"lowerbound\""],
    );
    message_error("info pv", &["pv needs a value"]);
    message_error("info pv depth 3", &["pv needs a value"]);
    message_error("info pv 1 (2)", &["\"(2)\"", "not a move"]);
    message_error("info pv 1 pv 2", &["pv given twice"]);
    message_error("info currmove", &["currmove needs a value"]);
    message_error("info string", &["string needs a value"]);
    message_error("info hashfull -1", &["hashfull"]);
    message_error("bestmove", &["move after bestmove"]);
    message_error("bestmove 1 2", &["bestmove", "\"2\"", "ponder"]);
    message_error("bestmove 1 ponder", &["ponder needs a value"]);
    message_error("bestmove 1 ponder 2 3", &["bestmove", "\"3\""]);
    message_error("bestmove ponder", &["\"ponder\"", "keyword"]);
    message_error("bestmove 1:", &["not a move"]);
    message_error("1:", &["perft count needs a value"]);
    message_error("1: x", &["perft count", "\"x\""]);
    message_error("1: 2 3", &["perft line", "\"3\""]);
    message_error("é: 2", &["not a move"]);
    message_error("nodes", &["nodes needs a value"]);
    message_error("nodes -5", &["nodes", "\"-5\""]);
    message_error("pos", &["position string"]);
    message_error("pos bosh moves", &["position string", "\"moves\""]);
}

#[test]
fn quoted_input_in_errors_is_bounded() {
    let long = "x".repeat(100_000);
    let err = format!("go depth {long}")
        .parse::<Command>()
        .unwrap_err()
        .to_string();
    assert!(err.len() < 200, "{}", err.len());
    let err = long.parse::<Command>().unwrap_err().to_string();
    assert!(err.len() < 200 && err.contains('…'));
    // Multi-byte characters are cut on a character boundary.
    let err = format!("go depth {}", "é".repeat(100))
        .parse::<Command>()
        .unwrap_err()
        .to_string();
    assert!(err.contains('…'));
}
