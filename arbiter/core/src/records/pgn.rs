//! Game logs as PGN-like text: [`write_game`] and [`parse_games`].
//!
//! ```text
//! [Event "Test"]
//! [Site "here"]
//! [Date "2024.05.01"]
//! [Round "3.1"]
//! [Game "bohnenspiel"]
//! [South "Alpha"]
//! [North "Beta"]
//! [Result "1/2-1/2"]
//! [TimeControl "40/60+0.5"]
//! [Termination "rules"]
//! [TerminationDetail "player to move has no seeds"]
//! [StartPosition "bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 36/35"]
//! [Scores "36/36"]
//!
//! 1. 6 {-35/12 1.234s} 7 {+M1 0.005s} 1/2-1/2
//! ```
//!
//! Tags, in this order: `Event Site Date Round Game South North Result
//! TimeControl Termination`, then when they apply `Offender` (the side that
//! forfeited), `IllegalMove` (the offending move, which is not in the move
//! text), `TerminationDetail`, `StartPosition`, `Scores` (final seed counts
//! `south/north`), `Partie` (index of the game in a Bohnenspiel Partie),
//! `PartieTotals` (`south/north` before the game), then the extra tags of
//! [`GameLog::tags`] in name order. Values escape `\` and `"` with a
//! backslash, and a line break as `\n`.
//!
//! Move text: first three legend comments for people, one a line (`{Holes:
//! South 1-6, North 7-12.}`, how move numbers and the move comments read),
//! which the reader skips; then the moves. A move number covers a South move and the North move after it
//! (`1. 3 9 2. 4`); a game whose start position has North to move begins
//! `1... 9`. Who moved is the rules' answer (the game replayed from its
//! start): a South move always gets the next number, a North move that does
//! not follow a South move is written `N... 9` with the current number, so a
//! Kalah extra turn reads `4. 3 5. 1 9` (South twice) or `4. 3 9 4... 10`
//! (North twice). Each move is followed by a comment
//! `{[score][/depth] time}` with the time in seconds to the millisecond. Then
//! the result token. Lines are wrapped at 80 columns, never between a move
//! number and its move; games are separated by a blank line.
//!
//! The reader reads what the writer writes. It ignores move numbers, accepts
//! a move without a comment (time 0), and reports errors with line numbers.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use mancala_rules::{GameResult, Side};

use crate::records::log::{
    parse_pair, parse_side, GameLog, MoveRecord, PartieInfo, Score, Termination,
};

/// Tags that [`write_game`] writes itself; [`GameLog::tags`] must not use them.
pub const RESERVED_TAGS: [&str; 18] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Game",
    "South",
    "North",
    "Result",
    "TimeControl",
    "Termination",
    "Offender",
    "IllegalMove",
    "TerminationDetail",
    "StartPosition",
    "Scores",
    "Partie",
    "PartieTotals",
    // Reserved so that a log never carries two spellings of one thing.
    "FEN",
];

const WRAP: usize = 80;

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

fn result_token(result: Option<GameResult>) -> &'static str {
    result.map_or("*", GameResult::as_pgn)
}

/// Seconds to the millisecond: `1.234s`.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

fn comment(m: &MoveRecord) -> String {
    let mut eval = String::new();
    if let Some(score) = m.score {
        eval.push_str(&score.to_string());
    }
    if let Some(depth) = m.depth {
        let _ = write!(eval, "/{depth}");
    }
    if eval.is_empty() {
        format!("{{{}}}", seconds(m.time_ms))
    } else {
        format!("{{{eval} {}}}", seconds(m.time_ms))
    }
}

/// The comments before the first move that say how to read the move text,
/// one line each (within the wrap width).
fn legend(game: mancala_rules::GameId) -> [String; 3] {
    [
        format!("{{Holes: {}.}}", game.hole_legend()),
        "{\"1. 3 9\": move 1 is South's 3, then North's 9.}".to_owned(),
        "{After a move (score/depth time): mover's score in centi-seeds, depth, seconds.}"
            .to_owned(),
    ]
}

/// Writes one game, ending with a newline. Extra tags whose names are in
/// [`RESERVED_TAGS`] are skipped.
pub fn write_game(log: &GameLog) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &log.event);
    tag("Site", &log.site);
    tag("Date", &log.date);
    tag("Round", &log.round);
    tag("Game", &log.game);
    tag("South", &log.south);
    tag("North", &log.north);
    tag("Result", result_token(log.result));
    tag("TimeControl", &log.time_control);
    tag("Termination", log.termination.kind());
    if let Some(side) = log.termination.offender() {
        tag("Offender", &side.to_string());
    }
    if let Some(mv) = log.termination.illegal_move() {
        tag("IllegalMove", mv);
    }
    if !log.termination.detail().is_empty() {
        tag("TerminationDetail", log.termination.detail());
    }
    tag("StartPosition", &log.start_position);
    if let Some([s, n]) = log.scores {
        tag("Scores", &format!("{s}/{n}"));
    }
    if let Some(p) = log.partie {
        tag("Partie", &p.index.to_string());
        if let Some([s, n]) = p.totals {
            tag("PartieTotals", &format!("{s}/{n}"));
        }
    }
    for (name, value) in &log.tags {
        if !RESERVED_TAGS.contains(&name.as_str()) {
            tag(name, value);
        }
    }
    out.push('\n');

    // Units that a line break never splits: a move number stays with its move.
    if let Ok(game) = log.game.parse::<mancala_rules::GameId>() {
        for line in legend(game) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    let mut tokens: Vec<String> = Vec::new();
    let mut number = 1;
    let mut previous = None;
    for (i, (m, side)) in log.moves.iter().zip(movers(log)).enumerate() {
        match (side, previous) {
            (Side::South, _) => {
                if i > 0 {
                    number += 1;
                }
                tokens.push(format!("{number}. {}", m.mv));
            }
            (Side::North, Some(Side::South)) => tokens.push(m.mv.clone()),
            (Side::North, _) => tokens.push(format!("{number}... {}", m.mv)),
        }
        tokens.push(comment(m));
        previous = Some(side);
    }
    tokens.push(result_token(log.result).to_owned());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > WRAP {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Writes several games, separated by blank lines.
pub fn write_games<'a>(logs: impl IntoIterator<Item = &'a GameLog>) -> String {
    logs.into_iter()
        .map(write_game)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A PGN text that cannot be read: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PgnError {}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, PgnError> {
    Err(PgnError {
        line,
        message: message.into(),
    })
}

/// Parses `[Name "value"]`.
fn parse_tag(line_no: usize, line: &str) -> Result<(String, String), PgnError> {
    let inner = match line
        .trim_end()
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
    {
        Some(inner) => inner,
        None => return err(line_no, format!("malformed tag line {line:?}")),
    };
    let (name, rest) = match inner.split_once(' ') {
        Some(parts) => parts,
        None => return err(line_no, format!("tag without a value: {line:?}")),
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return err(line_no, format!("bad tag name {name:?}"));
    }
    let quoted = match rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(q) => q,
        None => {
            return err(
                line_no,
                format!("tag {name}: value must be in double quotes"),
            )
        }
    };
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\\') => value.push('\\'),
                Some('"') => value.push('"'),
                Some('n') => value.push('\n'),
                other => {
                    return err(
                        line_no,
                        format!(
                            "tag {name}: bad escape \\{}",
                            other.map(String::from).unwrap_or_default()
                        ),
                    )
                }
            },
            '"' => return err(line_no, format!("tag {name}: unescaped quote in value")),
            c => value.push(c),
        }
    }
    Ok((name.to_owned(), value))
}

/// Parses a move comment body: `[score][/depth] time`.
fn parse_comment(line_no: usize, body: &str, m: &mut MoveRecord) -> Result<(), PgnError> {
    let words: Vec<&str> = body.split_whitespace().collect();
    let (eval, time) = match words.as_slice() {
        [time] => (None, *time),
        [eval, time] => (Some(*eval), *time),
        _ => {
            return err(
                line_no,
                format!("bad move comment {{{body}}}: expected {{[score][/depth] time}}"),
            )
        }
    };
    m.time_ms = parse_seconds(time).ok_or_else(|| PgnError {
        line: line_no,
        message: format!("bad time {time:?} in comment: expected seconds such as 1.234s"),
    })?;
    if let Some(eval) = eval {
        let (score, depth) = match eval.split_once('/') {
            Some((s, d)) => (s, Some(d)),
            None => (eval, None),
        };
        if !score.is_empty() {
            m.score = Some(score.parse::<Score>().map_err(|e| PgnError {
                line: line_no,
                message: e.to_string(),
            })?);
        }
        if let Some(d) = depth {
            m.depth = Some(d.parse().map_err(|_| PgnError {
                line: line_no,
                message: format!("bad depth {d:?} in comment"),
            })?);
        }
    }
    Ok(())
}

/// `1.234s` (up to three decimals) as milliseconds.
fn parse_seconds(text: &str) -> Option<u64> {
    let num = text.strip_suffix('s')?;
    let (whole, frac) = num.split_once('.').unwrap_or((num, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 3 {
        return None;
    }
    if num.contains('.') && frac.is_empty() {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let frac: u64 = format!("{frac:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(frac)
}

/// Who made each move of `log`, as the rules say (a Kalah extra turn is
/// the same side twice); where the log does not replay (a bad start or
/// move), play is taken to alternate from there.
fn movers(log: &GameLog) -> Vec<Side> {
    let mut side = log.start_side().unwrap_or(Side::South);
    let mut game = mancala_rules::game_from_position(&log.start_position).ok();
    log.moves
        .iter()
        .map(|m| {
            let mover = game.as_ref().map_or(side, |g| g.side_to_move());
            let played = game.as_mut().is_some_and(|g| g.play(&m.mv).is_ok());
            if !played {
                game = None;
            }
            side = game.as_ref().map_or(mover.opponent(), |g| g.side_to_move());
            mover
        })
        .collect()
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// One game under construction.
#[derive(Default)]
struct Pending {
    first_line: usize,
    tags: Vec<(usize, String, String)>,
    moves: Vec<MoveRecord>,
    /// Whether the last move already has its comment.
    commented: bool,
    result: Option<(usize, String)>,
}

impl Pending {
    fn take_tag(&mut self, name: &str) -> Option<(usize, String)> {
        let i = self.tags.iter().position(|(_, n, _)| n == name)?;
        let (line, _, value) = self.tags.remove(i);
        Some((line, value))
    }

    fn require(&mut self, name: &str) -> Result<String, PgnError> {
        match self.take_tag(name) {
            Some((_, v)) => Ok(v),
            None => err(self.first_line, format!("game has no {name} tag")),
        }
    }

    fn finish(mut self) -> Result<GameLog, PgnError> {
        let (result_line, token) = match self.result.take() {
            Some(r) => r,
            None => return err(self.first_line, "game has no result token after its moves"),
        };
        let event = self.require("Event")?;
        let site = self.require("Site")?;
        let date = self.require("Date")?;
        let round = self.require("Round")?;
        let game = self.require("Game")?;
        let south = self.require("South")?;
        let north = self.require("North")?;
        let result_text = self.require("Result")?;
        let time_control = self.require("TimeControl")?;
        let kind = self.require("Termination")?;
        let start_position = self.require("StartPosition")?;
        let result = match result_text.as_str() {
            "*" => None,
            t => match GameResult::from_pgn(t) {
                Some(r) => Some(r),
                None => {
                    return err(
                        self.first_line,
                        format!("bad Result {t:?}: expected 1-0, 0-1, 1/2-1/2 or *"),
                    )
                }
            },
        };
        if token != result_text {
            return err(
                result_line,
                format!("result token {token} does not match the Result tag {result_text}"),
            );
        }
        let offender = match self.take_tag("Offender") {
            Some((line, s)) => match parse_side(&s) {
                Some(side) => Some(side),
                None => return err(line, format!("bad Offender {s:?}: expected South or North")),
            },
            None => None,
        };
        let illegal = self.take_tag("IllegalMove").map(|(_, v)| v);
        let detail = self
            .take_tag("TerminationDetail")
            .map(|(_, v)| v)
            .unwrap_or_default();
        let termination =
            Termination::from_parts(&kind, offender, illegal, detail).map_err(|message| {
                PgnError {
                    line: self.first_line,
                    message,
                }
            })?;
        let pair = |tag: Option<(usize, String)>| -> Result<Option<[u32; 2]>, PgnError> {
            match tag {
                None => Ok(None),
                Some((line, v)) => match parse_pair(&v) {
                    Some(p) => Ok(Some(p)),
                    None => err(line, format!("bad value {v:?}: expected two numbers a/b")),
                },
            }
        };
        let scores = pair(self.take_tag("Scores"))?;
        let partie = match self.take_tag("Partie") {
            None => None,
            Some((line, v)) => {
                let index: u32 = match v.parse() {
                    Ok(i) if v.bytes().all(|b| b.is_ascii_digit()) => i,
                    _ => return err(line, format!("bad Partie {v:?}: expected a game number")),
                };
                let totals = pair(self.take_tag("PartieTotals"))?;
                Some(PartieInfo { index, totals })
            }
        };
        if let Some((line, _)) = self.take_tag("PartieTotals") {
            return err(line, "PartieTotals without a Partie tag");
        }
        let mut tags = BTreeMap::new();
        for (line, name, value) in self.tags.drain(..) {
            if RESERVED_TAGS.contains(&name.as_str()) || tags.contains_key(&name) {
                return err(line, format!("duplicate tag {name}"));
            }
            tags.insert(name, value);
        }
        Ok(GameLog {
            event,
            site,
            date,
            round,
            game,
            start_position,
            south,
            north,
            result,
            termination,
            time_control,
            moves: self.moves,
            scores,
            partie,
            tags,
        })
    }
}

const RESULT_TOKENS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Parses every game of a PGN text.
pub fn parse_games(text: &str) -> Result<Vec<GameLog>, PgnError> {
    let mut games = Vec::new();
    let mut pending: Option<Pending> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            let p = match &mut pending {
                // Tags after the result token start the next game.
                Some(p) if p.result.is_some() => {
                    if let Some(done) = pending.take() {
                        games.push(done.finish()?);
                    }
                    pending.insert(Pending {
                        first_line: line_no,
                        ..Pending::default()
                    })
                }
                Some(p) if !p.moves.is_empty() => {
                    return err(
                        line_no,
                        "tag line inside the move text (missing result token?)",
                    )
                }
                Some(p) => p,
                None => pending.insert(Pending {
                    first_line: line_no,
                    ..Pending::default()
                }),
            };
            let (name, value) = parse_tag(line_no, line)?;
            p.tags.push((line_no, name, value));
            continue;
        }
        let p = match &mut pending {
            Some(p) => p,
            None => return err(line_no, "move text before any tag"),
        };
        let mut rest = line;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
            rest = &rest[start..];
            if p.result.is_some() {
                return err(line_no, format!("text after the result token: {rest:?}"));
            }
            if let Some(body) = rest.strip_prefix('{') {
                let end = match body.find('}') {
                    Some(e) => e,
                    None => return err(line_no, "unterminated comment"),
                };
                let m = match p.moves.last_mut() {
                    Some(m) if !p.commented => m,
                    Some(_) => return err(line_no, "two comments after one move"),
                    // The legend before the first move is for people.
                    None => {
                        rest = &body[end + 1..];
                        continue;
                    }
                };
                parse_comment(line_no, &body[..end], m)?;
                p.commented = true;
                rest = &body[end + 1..];
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if token.starts_with('}') {
                return err(line_no, "'}' without '{'");
            }
            if RESULT_TOKENS.contains(&token) {
                p.result = Some((line_no, token.to_owned()));
            } else if !is_move_number(token) {
                p.moves.push(MoveRecord::new(token, 0));
                p.commented = false;
            }
        }
    }
    if let Some(p) = pending {
        games.push(p.finish()?);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::log::tests::{illegal_log, rules_log};

    #[test]
    fn writes_the_documented_layout() {
        let text = write_game(&rules_log());
        let expected = "\
[Event \"Test \\\"quoted\\\" event\"]
[Site \"here\"]
[Date \"2024.05.01\"]
[Round \"3.1\"]
[Game \"bohnenspiel\"]
[South \"Alpha\"]
[North \"Beta 2.0\"]
[Result \"1/2-1/2\"]
[TimeControl \"40/60+0.5\"]
[Termination \"rules\"]
[TerminationDetail \"player to move has no seeds\"]
[StartPosition \"bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 36/35\"]
[Scores \"36/36\"]
[Partie \"2\"]
[PartieTotals \"40/32\"]
[Opening \"endgame \\\\ test\"]

{Holes: South 1-6, North 7-12.}
{\"1. 3 9\": move 1 is South's 3, then North's 9.}
{After a move (score/depth time): mover's score in centi-seeds, depth, seconds.}
1. 6 {-35/12 1.234s} 7 {+M1 0.005s} 1/2-1/2
";
        assert_eq!(text, expected);
    }

    #[test]
    fn north_to_move_starts_with_ellipsis() {
        let text = write_game(&illegal_log());
        assert!(
            text.contains("[Offender \"North\"]\n[IllegalMove \"3\"]\n"),
            "{text}"
        );
        assert!(
            text.ends_with("\n1... 8 {0.010s} 2. 3 {999.999s} 1-0\n"),
            "{text}"
        );
    }

    #[test]
    fn extra_turns_are_numbered_by_who_moved() {
        // Kalah: South's 3 ends in his store (South again), then 1; North's
        // 9 ends in his (North again), then 10.
        let mut log = rules_log();
        log.game = "kalah".into();
        log.start_position = "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0".into();
        log.moves = ["3", "1", "9", "10"]
            .iter()
            .map(|mv| MoveRecord {
                mv: (*mv).into(),
                ..log.moves[0].clone()
            })
            .collect();
        let text = write_game(&log);
        let c = "{-35/12 1.234s}";
        let expected = format!("1. 3 {c} 2. 1 {c} 9 {c} 2... 10 {c} 1/2-1/2 ");
        assert!(text.replace('\n', " ").ends_with(&expected), "{text}");
        let back = parse_games(&text).expect("reads back");
        assert_eq!(back[0].moves.len(), 4);
    }

    #[test]
    fn round_trips_several_games() {
        let mut long = rules_log();
        long.result = None;
        long.termination = Termination::Interrupted {
            detail: "line one\nline two".into(),
        };
        long.scores = None;
        long.partie = Some(PartieInfo {
            index: 1,
            totals: None,
        });
        long.moves = (0..90)
            .map(|i| MoveRecord {
                mv: format!("{}+-", i % 16 + 1),
                time_ms: i * 37,
                score: (i % 3 == 0).then_some(Score::Cp(i as i32 - 40)),
                depth: (i % 2 == 0).then_some(i as u32),
                lag_ms: None,
                comp_ms: None,
                kgp_random: false,
            })
            .collect();
        // An engine that never answered: no moves at all.
        let mut silent = illegal_log();
        silent.moves.clear();
        silent.termination = Termination::Unresponsive {
            side: Side::South,
            detail: "no umiok within 10 s".into(),
        };
        silent.result = Some(GameResult::NorthWins);
        assert!(write_game(&silent).ends_with("seconds.}\n0-1\n"));
        let logs = [rules_log(), illegal_log(), long, silent];
        let text = write_games(&logs);
        assert!(text.lines().all(|l| l.len() <= WRAP), "{text}");
        // A line break never separates a move number from its move.
        assert!(
            text.lines().all(|l| !l
                .split_whitespace()
                .last()
                .is_some_and(|t| t.ends_with('.'))),
            "{text}"
        );
        assert_eq!(parse_games(&text).unwrap(), logs);
        assert_eq!(parse_games("").unwrap(), []);
    }

    #[test]
    fn reads_moves_without_comments() {
        let mut text = write_game(&illegal_log());
        let moves_at = text.find("1...").unwrap();
        text.replace_range(moves_at.., "1... 8\n2. 3 1-0\n");
        let games = parse_games(&text).unwrap();
        assert_eq!(
            games[0].moves,
            [MoveRecord::new("8", 0), MoveRecord::new("3", 0)]
        );
    }

    fn error_of(text: &str) -> String {
        parse_games(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_line() {
        let good = write_game(&rules_log());
        let with = |from: &str, to: &str| good.replacen(from, to, 1);
        assert_eq!(
            error_of(&with("[Site \"here\"]\n", "")),
            "line 1: game has no Site tag"
        );
        assert_eq!(
            error_of(&with("[Round \"3.1\"]", "[Round 3.1]")),
            "line 4: tag Round: value must be in double quotes"
        );
        assert_eq!(
            error_of(&with(" 1/2-1/2\n", " 1-0\n")),
            "line 21: result token 1-0 does not match the Result tag 1/2-1/2"
        );
        assert_eq!(
            error_of(&with("{+M1 0.005s}", "{+M1 5ms}")),
            "line 21: bad time \"5ms\" in comment: expected seconds such as 1.234s"
        );
        assert_eq!(
            error_of(&with("{+M1 0.005s}", "{+M1 0.005s")),
            "line 21: unterminated comment"
        );
        assert_eq!(
            error_of(&with("{+M1 0.005s}", "{+M1 0.005s} {1.000s}")),
            "line 21: two comments after one move"
        );
        assert_eq!(
            error_of(&with("[Termination \"rules\"]", "[Termination \"resign\"]")),
            "line 1: unknown termination \"resign\" (known: rules, adjudication, \
             resign_adjudication, draw_adjudication, decided_adjudication, \
             tablebase_adjudication, illegal_move, time_forfeit, unparseable_bestmove, no_bestmove, crash, disconnect, stray_bestmove, \
             unresponsive, interrupted)"
        );
        assert_eq!(
            error_of(&with(" 1/2-1/2\n", "\n")),
            "line 1: game has no result token after its moves"
        );
        assert_eq!(
            error_of(&format!(
                "{good}\n{}",
                good.replace("1. 6", "1. 6 1/2-1/2 7")
            )),
            "line 43: text after the result token: \"7 {-35/12 1.234s} 7 {+M1 0.005s} 1/2-1/2\""
        );
        assert_eq!(
            error_of(&with("[Scores \"36/36\"]", "[Scores \"36-36\"]")),
            "line 13: bad value \"36-36\": expected two numbers a/b"
        );
        assert_eq!(
            error_of(&with("[Scores \"36/36\"]", "[Game \"bosh\"]")),
            "line 13: duplicate tag Game"
        );
        assert_eq!(error_of("1. 3 4 1-0\n"), "line 1: move text before any tag");
    }
}
