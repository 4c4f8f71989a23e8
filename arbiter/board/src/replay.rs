//! The replay page's handlers: the logs named with `--log`, or one
//! uploaded from the page, listed and replayed game by game (the reading
//! and the working out are [`crate::games`]').

use std::path::Path;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::games::{games_range, parse_log, replay, summary};
use crate::state::AppState;
use arbiter_core::records::jsonl;
use arbiter_core::records::log::GameLog;
use arbiter_core::records::verify::{detect_format, LogFormat};

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
            let r =
                replay(i, log).map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
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
    let logs =
        parse_log(&body, None).map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    pick(&logs, q.game, None).map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::log_of;
    use arbiter_core::records::pgn;

    #[test]
    fn a_log_being_written_replays_without_its_half_last_line() {
        let line = jsonl::to_line(&log_of(&["6"]));
        let path = Path::new("results.jsonl");
        let writing = format!("{line}\n{}", &line[..line.len() / 2]);
        assert_eq!(complete_lines(&writing, path), format!("{line}\n"));
        // A whole last game without its newline is a game.
        let whole = format!("{line}\n{line}");
        assert_eq!(complete_lines(&whole, path), whole);
        let pgn_text = pgn::write_games(&[log_of(&["6"])]);
        assert_eq!(complete_lines(&pgn_text, Path::new("g.pgn")), pgn_text);
    }

    /// A watched results log with one bad line: the games before it still
    /// list and replay (before: 422 "line 4: …" for every game of it).
    #[test]
    fn a_json_lines_log_with_a_bad_line_replays_the_games_before_it() {
        let dir = arbiter_core::testing::test_dir("replay-bad-line");
        let path = dir.join("results.jsonl");
        let good = jsonl::to_line(&log_of(&["6", "7"]));
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
}
