//! The pondering rules of the spec (sections 6, 7, 14.2), checked on a match's
//! `--debug` traffic log against its JSON-lines games.
//!
//! The arbiter stamps each turn with the instants its traffic log prints for
//! the lines that begin and end it, so the clocks can be replayed from the log
//! exactly (to the log's microsecond rounding): a `go` line's `p1time`/`p2time`
//! must equal the replayed clocks, and every turn is charged from its `go`,
//! `ponderhit` or `stop` line to its `bestmove`, never from `go ponder`.

use mancala_rules::game_from_position;
use serde_json::Value;

/// One line of the traffic log: `+<seconds> <engine>(<pid>) <dir> <text>`.
struct Line<'a> {
    /// Microseconds since the log began.
    at: i64,
    engine: &'a str,
    to_engine: bool,
    text: &'a str,
}

fn parse_line(line: &str) -> Option<Line<'_>> {
    let (stamp, rest) = line.strip_prefix('+')?.split_once(' ')?;
    let (secs, micros) = stamp.split_once('.')?;
    let at = secs.parse::<i64>().ok()? * 1_000_000 + micros.parse::<i64>().ok()?;
    let (who, rest) = rest.split_once(' ')?;
    let engine = &who[..who.rfind('(')?];
    let (dir, text) = rest.split_once(' ').unwrap_or((rest, ""));
    let to_engine = match dir {
        ">" => true,
        "<" => false,
        _ => return None,
    };
    Some(Line {
        at,
        engine,
        to_engine,
        text,
    })
}

/// The number after `key` in a `go` line, in microseconds (the line has ms).
fn go_field(text: &str, key: &str) -> Option<i64> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    Some(words.get(at + 1)?.parse::<i64>().ok()? * 1000)
}

fn moves_of_position(text: &str) -> Vec<String> {
    match text.split_once(" moves ") {
        Some((_, moves)) => moves.split_whitespace().map(str::to_owned).collect(),
        None => Vec::new(),
    }
}

/// What one engine is doing, as the log shows it.
#[derive(Default)]
struct EngineState {
    /// Index of its current game (from its `newgame` lines).
    game: Option<usize>,
    side: usize,
    /// When its turn began (`go`, `ponderhit`, or the `stop` of a miss).
    turn_start: Option<i64>,
    /// The `stop` of a miss, until its turn ends.
    stopped_at: Option<i64>,
    /// When the `bestmove` answering that `stop` was read.
    drained_at: i64,
    /// Pondering on (expected reply, plies in the pondered position).
    ponder: Option<(String, usize)>,
    /// A `stop` was sent and its `bestmove` is to be discarded.
    draining: bool,
    /// The moves of the last `position` sent.
    position: Vec<String>,
    /// The ponder move of its last answer, and whether a `go ponder` must follow.
    hint: Option<String>,
    ponder_due: bool,
    /// Its answered moves so far in the current game.
    answered: usize,
}

/// What the check saw.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub go_ponders: usize,
    pub hits: usize,
    pub misses: usize,
    pub stopped_at_end: usize,
}

/// Checks the rules for `names` (the engines of the match) and returns what
/// was seen. `base` and `inc` are both sides' clock, in microseconds.
pub fn check(traffic: &str, games: &[Value], names: &[&str], base: i64, inc: i64) -> Seen {
    let mut seen = Seen::default();
    let mut states: Vec<EngineState> = names.iter().map(|_| EngineState::default()).collect();
    let mut clocks: Vec<[i64; 2]> = vec![[base, base]; games.len()];
    for raw in traffic.lines() {
        let Some(line) = parse_line(raw) else {
            continue;
        };
        let Some(who) = names.iter().position(|n| *n == line.engine) else {
            continue;
        };
        let text = line.text;
        let state = &mut states[who];
        if line.to_engine && text.starts_with("newgame ") {
            let g = state.game.map_or(0, |g| g + 1);
            let game = &games[g];
            let side = if game["south"] == line.engine { 0 } else { 1 };
            *state = EngineState {
                game: Some(g),
                side,
                ..EngineState::default()
            };
            continue;
        }
        let Some(g) = state.game else {
            continue;
        };
        let moves: Vec<&str> = games[g]["moves"]
            .as_array()
            .map(|m| m.iter().filter_map(|m| m["move"].as_str()).collect())
            .unwrap_or_default();
        let context = format!("{raw} (game {g}, moves {moves:?})");
        if line.to_engine {
            // why skipped: the ordering barrier's `isready` goes ahead of the
            // `position`/`go` after every answer (protocol-spec section 6).
            if state.ponder_due && text != "isready" {
                // The line after an answer with a legal ponder move that keeps
                // the game going: the pondered position, then `go ponder`.
                let hint = state.hint.clone().unwrap_or_default();
                if text.starts_with("position ") {
                    let pos = moves_of_position(text);
                    assert_eq!(pos.last(), Some(&hint), "ponders on its hint: {context}");
                } else {
                    assert!(text.starts_with("go ponder"), "go ponder due: {context}");
                    state.ponder_due = false;
                }
            }
            if text.starts_with("position ") {
                state.position = moves_of_position(text);
            } else if text.starts_with("go ponder") {
                seen.go_ponders += 1;
                let hint = state.hint.take();
                assert!(hint.is_some(), "go ponder without a ponder move: {context}");
                assert_eq!(state.position.last(), hint.as_ref(), "{context}");
                state.ponder = Some((hint.unwrap_or_default(), state.position.len()));
                let c = clocks[g];
                check_clocks(text, &[(c[0], c[0]), (c[1], c[1])], &context);
            } else if text.starts_with("go") {
                assert!(state.ponder.is_none(), "go while pondering: {context}");
                let c = clocks[g];
                let mut range = [(c[0], c[0]), (c[1], c[1])];
                match state.stopped_at {
                    // After a miss the clock runs from `stop`: the `go` shows
                    // it as it read at some instant after the drained
                    // `bestmove` and before the `go` line (never below zero).
                    Some(stop) => {
                        let own = c[state.side];
                        range[state.side] = (
                            (own - (line.at - stop)).max(0),
                            (own - (state.drained_at - stop)).max(0),
                        );
                    }
                    None => state.turn_start = Some(line.at),
                }
                check_clocks(text, &range, &context);
            } else if text == "ponderhit" {
                let (expected, plies) = state.ponder.take().expect("ponderhit while pondering");
                assert_eq!(
                    moves.get(plies - 1),
                    Some(&expected.as_str()),
                    "a hit: {context}"
                );
                seen.hits += 1;
                state.turn_start = Some(line.at);
            } else if text == "stop" {
                let (expected, plies) = state.ponder.take().expect("stop only to a ponderer");
                state.draining = true;
                if moves.len() > plies {
                    // The game went on: a miss, and the turn starts now.
                    assert_ne!(moves[plies - 1], expected, "a miss: {context}");
                    seen.misses += 1;
                    state.turn_start = Some(line.at);
                    state.stopped_at = Some(line.at);
                } else {
                    seen.stopped_at_end += 1;
                }
            } else if text.starts_with("gameover") {
                assert!(state.ponder.is_none() && !state.draining, "{context}");
                assert!(!state.ponder_due, "{context}");
            }
            continue;
        }
        if !text.starts_with("bestmove") {
            continue;
        }
        if state.draining {
            // The answer to a stopped ponder search: discarded.
            state.draining = false;
            state.drained_at = line.at;
            continue;
        }
        let start = state.turn_start.take().expect("a turn before its bestmove");
        let elapsed = line.at - start;
        state.stopped_at = None;
        let clock = &mut clocks[g][state.side];
        // As the arbiter does: an overstep within the margin leaves zero.
        *clock = (*clock - elapsed).max(0) + inc;
        // The JSON time of that move is the same span, in whole milliseconds.
        let ply = 2 * state.answered + state.side;
        state.answered += 1;
        let logged = games[g]["moves"][ply]["time_ms"].as_i64().unwrap_or(-1);
        assert!(
            (logged - elapsed / 1000).abs() <= 1,
            "time_ms {logged} for a turn of {elapsed} µs: {context}"
        );
        let words: Vec<&str> = text.split_whitespace().collect();
        let hint = match words.as_slice() {
            ["bestmove", _, "ponder", p] => Some((*p).to_owned()),
            _ => None,
        };
        state.ponder_due = hint
            .as_deref()
            .is_some_and(|p| ponder_is_due(games[g]["start_position"].as_str(), &moves, ply, p));
        state.hint = hint;
    }
    seen
}

/// Whether the arbiter must ponder after ply `ply` of `moves` on `hint`: the
/// game went on after that move and `hint` is legal there without ending it.
fn ponder_is_due(start: Option<&str>, moves: &[&str], ply: usize, hint: &str) -> bool {
    if moves.len() <= ply + 1 {
        return false;
    }
    let Some(Ok(mut g)) = start.map(game_from_position) else {
        return false;
    };
    for mv in &moves[..=ply] {
        if g.play(mv).is_err() {
            return false;
        }
    }
    g.play(hint).is_ok() && g.outcome().is_none()
}

/// A `go` line's clock fields against the replayed clocks (µs, the lowest
/// and highest value each may show).
fn check_clocks(text: &str, clocks: &[(i64, i64); 2], context: &str) {
    for (side, key) in ["p1time", "p2time"].iter().enumerate() {
        let shown = go_field(text, key).unwrap_or_else(|| panic!("no {key}: {context}"));
        let (low, high) = clocks[side];
        // why 2 ms: the line has whole milliseconds, the log microseconds.
        assert!(
            low - 2000 <= shown && shown <= high + 2000,
            "{key} {} ms, the arbiter's clock from the log {low}..{high} µs: {context}",
            shown / 1000,
        );
    }
}
