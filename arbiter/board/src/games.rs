//! Logged games read and worked out: a PGN or JSON-lines log's games
//! (read with the same readers as `arbiter verify`), each game's tags for a
//! list, and its positions ply by ply from the rules library. Pure
//! functions, no handler and no server state: the replay page's handlers
//! ([`crate::replay`]), the live hub and the arena's pages all use them.

use std::path::Path;

use mancala_rules::trace::Step;
use mancala_rules::{game_from_position, PositionError};
use serde::Serialize;

use crate::board::{view, BoardView};
use arbiter_core::records::jsonl::{self, JsonlError};
use arbiter_core::records::log::GameLog;
use arbiter_core::records::pgn::{self, PgnError};
use arbiter_core::records::verify::{detect_format, LogFormat};

/// Why a log's text gives no games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    #[error(transparent)]
    Pgn(#[from] PgnError),
    #[error(transparent)]
    Jsonl(#[from] JsonlError),
    #[error("not a PGN or JSON-lines game log")]
    Format,
}

/// Why a logged game cannot be stepped through at all (an illegal move is
/// no error: the replay stops before it, [`Replay::error`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// `game`: its number in the log, from 1.
    #[error("game {game}: start position: {source}")]
    Start { game: usize, source: PositionError },
    /// A position of the game cannot be laid out.
    #[error(transparent)]
    Board(PositionError),
}

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
pub fn parse_log(text: &str, path: Option<&Path>) -> Result<Vec<GameLog>, LogError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    match detect_format(text, path) {
        Some(LogFormat::Pgn) => Ok(pgn::parse_games(text)?),
        Some(LogFormat::Jsonl) => Ok(jsonl::parse_games(text)?),
        None => Err(LogError::Format),
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
pub fn replay(index: usize, log: &GameLog) -> Result<Replay, ReplayError> {
    let mut game =
        game_from_position(&log.start_position).map_err(|source| ReplayError::Start {
            game: index + 1,
            source,
        })?;
    let start = view(&game.position_string()).map_err(ReplayError::Board)?;
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
            board: view(&game.position_string()).map_err(ReplayError::Board)?,
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

/// What `game=` may be for a log of `n` games (it counts from 0).
pub fn games_range(n: usize) -> String {
    match n {
        0 => "the log has no game".to_owned(),
        1 => "the log has 1 game, game=0".to_owned(),
        n => format!("the log has {n} games, game=0 to game={}", n - 1),
    }
}

/// A rules game's log of `moves`, 10 ms each (for tests).
#[cfg(test)]
pub(crate) fn log_of(moves: &[&str]) -> GameLog {
    let mut l = arbiter_core::testing::rules_log();
    l.moves = moves
        .iter()
        .map(|m| arbiter_core::records::log::MoveRecord::new(*m, 10))
        .collect();
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_replays_ply_by_ply_in_both_formats() {
        let games = vec![log_of(&["6", "7"])];
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
    fn an_illegal_logged_move_stops_the_replay_with_a_reason() {
        let r = replay(0, &log_of(&["6", "6"])).expect("start is fine");
        assert_eq!(r.plies.len(), 1);
        assert!(
            r.error.as_deref().is_some_and(|e| e.contains("ply 2")),
            "{:?}",
            r.error
        );
        assert!(parse_log("hello", None).is_err());
    }
}
