//! Logs for the replay page: a PGN or JSON-lines log (named with `--log`, or
//! uploaded from the page) read with the same readers as `arbiter verify`,
//! and each game's positions worked out by the rules library.

use std::path::Path;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::Json;
use mancala_rules::game_from_position;
use mancala_rules::trace::Step;
use serde::{Deserialize, Serialize};

use crate::board::{view, BoardView};
use crate::state::AppState;
use arbiter_core::records::jsonl;
use arbiter_core::records::log::GameLog;
use arbiter_core::records::pgn;
use arbiter_core::records::verify::{detect_format, LogFormat};

/// A game in the list: its tags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    pub index: usize,
    pub event: String,
    pub round: String,
    pub date: String,
    pub game: String,
    pub south: String,
    pub north: String,
    pub result: String,
    pub termination: String,
    pub time_control: String,
    pub plies: usize,
}

/// One ply of a game being replayed: the move, what the log says of it,
/// the board after it and the move's steps (from the rules library, as in
/// play: the page animates a step forward with them).
#[derive(Clone, Debug, Serialize)]
pub struct Ply {
    #[serde(rename = "move")]
    pub mv: String,
    pub time_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    pub board: BoardView,
    pub steps: Vec<Step>,
}

/// A game ready to step through.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    pub summary: GameSummary,
    pub start: BoardView,
    pub plies: Vec<Ply>,
    /// The end in words, with the final totals ([`crate::ending`]);
    /// none for an unfinished game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    /// Set when a move of the log is not legal: the plies stop before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Reads the games of a log's text in either format.
pub fn parse_log(text: &str, path: Option<&Path>) -> Result<Vec<GameLog>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    match detect_format(text, path) {
        Some(LogFormat::Pgn) => pgn::parse_games(text).map_err(|e| e.to_string()),
        Some(LogFormat::Jsonl) => jsonl::parse_games(text).map_err(|e| e.to_string()),
        None => Err("not a PGN or JSON-lines game log".into()),
    }
}

pub fn summary(index: usize, log: &GameLog) -> GameSummary {
    GameSummary {
        index,
        event: log.event.clone(),
        round: log.round.clone(),
        date: log.date.clone(),
        game: log.game.clone(),
        south: log.south.clone(),
        north: log.north.clone(),
        result: log
            .result
            .map_or_else(|| "*".to_owned(), |r| r.as_pgn().to_owned()),
        termination: log.termination.to_string(),
        time_control: log.time_control.clone(),
        plies: log.moves.len(),
    }
}

/// Works out every position of a logged game.
pub fn replay(index: usize, log: &GameLog) -> Result<Replay, String> {
    let mut game = game_from_position(&log.start_position)
        .map_err(|e| format!("game {}: start position: {e}", index + 1))?;
    let start = view(&game.position_string()).map_err(|e| e.to_string())?;
    let mut plies = Vec::new();
    let mut error = None;
    for (i, m) in log.moves.iter().enumerate() {
        let steps = match game.play_traced(&m.mv) {
            Ok((_, steps)) => steps,
            Err(e) => {
                error = Some(format!("ply {} ({}): {e}", i + 1, m.mv));
                break;
            }
        };
        plies.push(Ply {
            mv: m.mv.clone(),
            time_ms: m.time_ms,
            score: m.score.map(|s| s.to_string()),
            depth: m.depth,
            board: view(&game.position_string()).map_err(|e| e.to_string())?,
            steps,
        });
    }
    let last = plies.last().map_or(&start, |p| &p.board);
    let ending = log
        .result
        .filter(|_| error.is_none())
        .map(|r| crate::ending::in_words(r, &log.termination, log.scores, last));
    Ok(Replay {
        summary: summary(index, log),
        ending,
        start,
        plies,
        error,
    })
}

/// A `--log` file as listed on the page.
#[derive(Clone, Debug, Serialize)]
pub struct LogFile {
    pub index: usize,
    pub name: String,
}

/// `GET /api/logs`: the logs named on the command line.
pub async fn list_files(State(state): State<AppState>) -> Json<Vec<LogFile>> {
    Json(
        state
            .config
            .logs
            .iter()
            .enumerate()
            .map(|(index, p)| LogFile {
                index,
                name: p.display().to_string(),
            })
            .collect(),
    )
}

type ApiError = (StatusCode, String);

/// A `--log` file's games. A JSON-lines log (a results log, perhaps still
/// being written) is read as the watch reads it: the games before a line
/// that is not a game still count, and the error says where it stopped.
fn read_file(state: &AppState, file: usize) -> Result<(Vec<GameLog>, Option<String>), ApiError> {
    let path = state
        .config
        .logs
        .get(file)
        .ok_or((StatusCode::NOT_FOUND, format!("no log #{file}")))?;
    let text = std::fs::read_to_string(path).map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let text = complete_lines(&text, path);
    if detect_format(text, Some(path)) == Some(LogFormat::Jsonl) {
        let (games, error) = jsonl::parse_games_before_error(text);
        let stopped = error.map(|e| format!("{}: {e}", path.display()));
        if let Some(problem) = &stopped {
            tracing::warn!("replay of {problem}: the games before it are offered");
        }
        return Ok((games, stopped));
    }
    let games = parse_log(text, Some(path)).map_err(|e| {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}: {e}", path.display()),
        )
    })?;
    Ok((games, None))
}

/// A JSON-lines log without an incomplete last line: a log still being
/// written (`arbiter serve --watch`) may end in half a game.
fn complete_lines<'t>(text: &'t str, path: &Path) -> &'t str {
    if detect_format(text, Some(path)) != Some(LogFormat::Jsonl) {
        return text;
    }
    let end = text.rfind('\n').map_or(0, |i| i + 1);
    let tail = &text[end..];
    if tail.trim().is_empty() || jsonl::parse_line(tail).is_ok() {
        text
    } else {
        &text[..end]
    }
}

/// What `game=` may be for a log of `n` games (it counts from 0).
pub fn games_range(n: usize) -> String {
    match n {
        0 => "the log has no game".to_owned(),
        1 => "the log has 1 game, game=0".to_owned(),
        n => format!("the log has {n} games, game=0 to game={}", n - 1),
    }
}

/// The list of `logs`, or game `game`'s replay; `stopped`: why the log was
/// read only so far (named when the game asked for is beyond it).
fn pick(
    logs: &[GameLog],
    game: Option<usize>,
    stopped: Option<&str>,
) -> Result<serde_json::Value, ApiError> {
    let to_json = |v: Result<serde_json::Value, serde_json::Error>| {
        v.map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
    };
    match game {
        None => to_json(serde_json::to_value(
            logs.iter()
                .enumerate()
                .map(|(i, l)| summary(i, l))
                .collect::<Vec<_>>(),
        )),
        Some(i) => {
            let log = logs.get(i).ok_or_else(|| {
                // why the range: game= counts from 0, as the list's `index`.
                let mut message = format!("no game {i}: {}", games_range(logs.len()));
                if let Some(why) = stopped {
                    message.push_str(&format!(" before {why}"));
                }
                (StatusCode::NOT_FOUND, message)
            })?;
            let r = replay(i, log).map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e))?;
            to_json(serde_json::to_value(r))
        }
    }
}

/// `?game=N`: one game's replay instead of the list.
#[derive(Debug, Deserialize)]
pub struct GameQuery {
    pub game: Option<usize>,
}

/// `GET /api/logs/{file}[?game=N]`.
pub async fn from_file(
    State(state): State<AppState>,
    UrlPath(file): UrlPath<usize>,
    Query(q): Query<GameQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (logs, stopped) = read_file(&state, file)?;
    pick(&logs, q.game, stopped.as_deref()).map(Json)
}

/// `POST /api/replay[?game=N]` with a log's text as the body (file picker).
pub async fn from_upload(
    Query(q): Query<GameQuery>,
    body: String,
) -> Result<Json<serde_json::Value>, ApiError> {
    let logs = parse_log(&body, None).map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e))?;
    pick(&logs, q.game, None).map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::records::log::MoveRecord;

    fn log(moves: &[&str]) -> GameLog {
        let mut l = arbiter_core::testing::rules_log();
        l.moves = moves.iter().map(|m| MoveRecord::new(*m, 10)).collect();
        l
    }

    #[test]
    fn a_log_replays_ply_by_ply_in_both_formats() {
        let games = vec![log(&["6", "7"])];
        let pgn_text = pgn::write_games(&games);
        let jsonl_text = jsonl::to_line(&games[0]);
        for text in [pgn_text, jsonl_text] {
            let parsed = parse_log(&text, None).expect("parses");
            let r = replay(0, &parsed[0]).expect("replays");
            assert_eq!(r.plies.len(), 2);
            assert_eq!(r.plies[0].mv, "6");
            assert_ne!(r.plies[0].board.position, r.start.position);
            // The log's start has one bean, in 6: picked up, sown into 7.
            let steps = &r.plies[0].steps;
            assert!(
                steps.contains(&Step::Pick { hole: 6, count: 1 }),
                "{steps:?}"
            );
            let sown: Vec<&Step> = steps
                .iter()
                .filter(|s| matches!(s, Step::Sow { .. }))
                .collect();
            assert_eq!(sown, [&Step::Sow { hole: 7 }]);
            assert!(r.error.is_none());
        }
    }

    #[test]
    fn a_log_being_written_replays_without_its_half_last_line() {
        let line = jsonl::to_line(&log(&["6"]));
        let path = Path::new("results.jsonl");
        let writing = format!("{line}\n{}", &line[..line.len() / 2]);
        assert_eq!(complete_lines(&writing, path), format!("{line}\n"));
        // A whole last game without its newline is a game.
        let whole = format!("{line}\n{line}");
        assert_eq!(complete_lines(&whole, path), whole);
        let pgn_text = pgn::write_games(&[log(&["6"])]);
        assert_eq!(complete_lines(&pgn_text, Path::new("g.pgn")), pgn_text);
    }

    /// A watched results log with one bad line: the games before it still
    /// list and replay (before: 422 "line 4: …" for every game of it).
    #[test]
    fn a_json_lines_log_with_a_bad_line_replays_the_games_before_it() {
        let dir = arbiter_core::testing::test_dir("replay-bad-line");
        let path = dir.join("results.jsonl");
        let good = jsonl::to_line(&log(&["6", "7"]));
        let text = format!("{good}\n{good}\n{good}\n{{\"round\": \"1\"}}\n{good}\n");
        std::fs::write(&path, text).expect("the log");
        let state = AppState::new(crate::state::ServeConfig {
            engines: Vec::new(),
            logs: vec![path],
            timeouts: arbiter_core::play::game::Timeouts::default(),
            handshake_timeout: std::time::Duration::from_secs(1),
            quit_grace: std::time::Duration::from_millis(1),
            max_plies: None,
            stderr_dir: None,
            tablebase: None,
            remote: None,
        });
        let (games, stopped) = read_file(&state, 0).expect("readable up to its bad line");
        assert_eq!(games.len(), 3);
        let stopped = stopped.expect("where it stopped");
        assert!(stopped.contains("line 4"), "{stopped}");
        let list = pick(&games, None, Some(&stopped)).expect("the list");
        assert_eq!(list.as_array().map(Vec::len), Some(3));
        let second = pick(&games, Some(1), Some(&stopped)).expect("game 2 replays");
        assert_eq!(second["plies"].as_array().map(Vec::len), Some(2));
        let (status, message) = pick(&games, Some(3), Some(&stopped)).unwrap_err();
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(message.contains("line 4"), "{message}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_illegal_logged_move_stops_the_replay_with_a_reason() {
        let r = replay(0, &log(&["6", "6"])).expect("start is fine");
        assert_eq!(r.plies.len(), 1);
        assert!(
            r.error.as_deref().is_some_and(|e| e.contains("ply 2")),
            "{:?}",
            r.error
        );
        assert!(parse_log("hello", None).is_err());
    }
}
