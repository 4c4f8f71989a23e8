//! Game logs as JSON lines: one [`GameLog`] object per line, as serde writes
//! it (field names as in the Rust type; `result` is the PGN token; the
//! termination is an object with `kind`, and `side`/`move`/`detail` as they
//! apply). Blank lines are skipped when reading.

use std::fmt;
use std::io::{self, Write};

use crate::records::log::GameLog;

/// One log as a single line of JSON (no newline).
pub fn to_line(log: &GameLog) -> String {
    // Serializing this type cannot fail: every map key is a string and there
    // are no floats or custom serializers that error.
    serde_json::to_string(log).unwrap_or_else(|e| unreachable!("GameLog serializes: {e}"))
}

/// Appends one log and a newline to `out`.
pub fn write_line(out: &mut impl Write, log: &GameLog) -> io::Result<()> {
    let mut line = to_line(log);
    line.push('\n');
    out.write_all(line.as_bytes())
}

/// A JSON-lines text that cannot be read: the 1-based line and serde's message
/// (which includes the column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonlError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for JsonlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for JsonlError {}

/// Parses one line.
pub fn parse_line(line: &str) -> Result<GameLog, serde_json::Error> {
    serde_json::from_str(line)
}

/// Parses every non-blank line.
pub fn parse_games(text: &str) -> Result<Vec<GameLog>, JsonlError> {
    match parse_games_before_error(text) {
        (games, None) => Ok(games),
        (_, Some(e)) => Err(e),
    }
}

/// The games of the non-blank lines before the first that is not a game,
/// and that line's error: how a results log being followed is read (the
/// games before a bad line still count, `docs/tournaments.md`).
pub fn parse_games_before_error(text: &str) -> (Vec<GameLog>, Option<JsonlError>) {
    let mut games = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        match parse_line(l) {
            Ok(g) => games.push(g),
            Err(e) => {
                let error = JsonlError {
                    line: i + 1,
                    message: e.to_string(),
                };
                return (games, Some(error));
            }
        }
    }
    (games, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::log::tests::{illegal_log, rules_log};
    use crate::records::log::{Score, Termination};

    #[test]
    fn round_trips() {
        let mut interrupted = rules_log();
        interrupted.result = None;
        interrupted.termination = Termination::Interrupted {
            detail: String::new(),
        };
        interrupted.moves[1].score = Some(Score::Mate(-3));
        let logs = [rules_log(), illegal_log(), interrupted];
        let mut out = Vec::new();
        for log in &logs {
            write_line(&mut out, log).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert_eq!(parse_games(&format!("\n{text}\n\n")).unwrap(), logs);
    }

    #[test]
    fn field_layout() {
        let line = to_line(&illegal_log());
        assert!(
            line.starts_with(
                r#"{"event":"E","site":"S","date":"2024.05.02","round":"1","game":"bohnenspiel","#
            ),
            "{line}"
        );
        assert!(line.contains(r#""result":"1-0","termination":{"kind":"illegal_move","side":"North","move":"3","detail":"#), "{line}");
        assert!(
            line.contains(r#""moves":[{"move":"8","time_ms":10},{"move":"3","time_ms":999999}]"#),
            "{line}"
        );
        // Optional fields are left out when empty.
        assert!(!line.contains("scores") && !line.contains("partie") && !line.contains("tags"));
        let rules = to_line(&rules_log());
        assert!(
            rules.contains(r#"{"move":"6","time_ms":1234,"score":{"cp":-35},"depth":12}"#),
            "{rules}"
        );
        assert!(rules.contains(r#""result":"1/2-1/2","termination":{"kind":"rules","detail":"player to move has no seeds"}"#), "{rules}");
        assert!(
            rules.contains(r#""scores":[36,36],"partie":{"index":2,"totals":[40,32]}"#),
            "{rules}"
        );
    }

    #[test]
    fn errors_name_the_line() {
        let good = to_line(&rules_log());
        let bad_result = good.replace(r#""result":"1/2-1/2""#, r#""result":"2-0""#);
        let e = parse_games(&format!("{good}\n\n{bad_result}\n")).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("bad result \"2-0\""), "{e}");
        let bad_side = good.replace(r#""kind":"rules","#, r#""kind":"crash","side":"East","#);
        let e = parse_games(&bad_side).unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: bad side \"East\""),
            "{e}"
        );
        let e = parse_games("{\"event\": 1}").unwrap_err();
        assert!(e.to_string().starts_with("line 1: invalid type"), "{e}");
    }
}
