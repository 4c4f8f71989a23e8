//! The events' JSON: `/api/arena/events` (every event, newest first) and
//! `/api/arena/event?id=N` (one event with its players, games and
//! standings — the object `arbiter merge --json` prints for an export of
//! its games).

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use super::{internal, read, ApiError};
use crate::events::{self, Event, EventState};
use crate::server::Arena;
use crate::store;

/// An event as listed, with its games' count.
#[derive(Serialize)]
pub(super) struct Listed {
    #[serde(flatten)]
    event: Event,
    /// Its finished games.
    games: u64,
}

/// `GET /api/arena/events`.
pub(super) async fn list(State(arena): State<Arc<Arena>>) -> Result<Json<Vec<Listed>>, ApiError> {
    read(arena, |arena| {
        let r = arena.reader();
        let all = events::list(&r).map_err(internal)?;
        let mut count = r
            .prepare("SELECT count(*) FROM games WHERE event = ?1 AND state = 'finished'")
            .map_err(internal)?;
        all.into_iter()
            .map(|event| {
                let games = count
                    .query_row([event.id], |row| row.get::<_, i64>(0))
                    .map_err(internal)?;
                Ok(Listed {
                    event,
                    games: games as u64,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()
            .map(Json)
    })
    .await
}

#[derive(Deserialize)]
pub(super) struct EventQuery {
    id: String,
}

/// One game of an event.
#[derive(Serialize)]
struct EventGame {
    id: i64,
    /// Its slot in the event's schedule, and the schedule's round label.
    slot: Option<i64>,
    round: String,
    /// `/replay?log=<log>&game=<index>` replays it.
    log: usize,
    index: usize,
    south: String,
    north: String,
    result: String,
    termination: String,
    ended: Option<String>,
}

/// One event whole.
#[derive(Serialize)]
pub(super) struct Whole {
    #[serde(flatten)]
    event: Event,
    /// Its finished games.
    finished: u64,
    /// The newest of them (at most 200), newest first.
    games: Vec<EventGame>,
    /// Its games in progress (ids, as in `/api/arena/playing`).
    playing: Vec<i64>,
    /// `arbiter merge --json` of its games.
    standings: serde_json::Value,
}

/// `GET /api/arena/event?id=N`.
pub(super) async fn one(
    State(arena): State<Arc<Arena>>,
    Query(q): Query<EventQuery>,
) -> Result<Json<Whole>, ApiError> {
    let id: i64 = q.id.trim().parse().map_err(|_| {
        (
            StatusCode::BAD_REQUEST,
            format!("id={:?}: an event's id is a whole number", q.id),
        )
    })?;
    read(arena, move |arena| {
        let r = arena.reader();
        let event = events::get(&r, id)
            .map_err(internal)?
            .ok_or_else(|| (StatusCode::NOT_FOUND, format!("no event {id}")))?;
        let log = arena.config.pools.iter().position(|p| p.name == event.pool);
        let sql = format!(
            // why ?1 the pool: the replay number's SQL reads it so.
            "SELECT id, slot, record, result, termination, ended, {} FROM games g \
             WHERE event = ?2 AND state = 'finished' ORDER BY id DESC LIMIT ?3",
            store::replay_index_sql("g.id")
        );
        let mut stmt = r.prepare(&sql).map_err(internal)?;
        let rows = stmt
            .query_map(
                rusqlite::params![event.pool, id, super::GAMES_LISTED as i64],
                |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, Option<i64>>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, Option<String>>(4)?,
                        row.get::<_, Option<String>>(5)?,
                        row.get::<_, i64>(6)?,
                    ))
                },
            )
            .map_err(internal)?;
        let mut games = Vec::new();
        for row in rows {
            let (game, slot, record, result, termination, ended, index) = row.map_err(internal)?;
            let parsed = arbiter_core::records::jsonl::parse_line(&record)
                .map_err(|e| internal(format!("stored game {game}: {e}")))?;
            games.push(EventGame {
                id: game,
                slot,
                round: parsed.round,
                // why the pool's count when it is not served: no replay link then.
                log: log.unwrap_or(usize::MAX),
                index: index as usize,
                south: parsed.south,
                north: parsed.north,
                result: result.unwrap_or_else(|| "*".into()),
                termination: termination.unwrap_or_default(),
                ended,
            });
        }
        let finished = r
            .query_row(
                "SELECT count(*) FROM games WHERE event = ?1 AND state = 'finished'",
                [id],
                |row| row.get::<_, i64>(0),
            )
            .map_err(internal)? as u64;
        let over = matches!(event.state, EventState::Finished | EventState::Cancelled);
        let standings = arena.standings.of(&r, id, over).map_err(internal)?;
        let standings = serde_json::to_value(&standings).map_err(internal)?;
        let playing = in_progress(&r, id).map_err(internal)?;
        Ok(Json(Whole {
            event,
            finished,
            games,
            playing,
            standings,
        }))
    })
    .await
}

/// The ids of event `id`'s games in progress.
fn in_progress(conn: &rusqlite::Connection, id: i64) -> rusqlite::Result<Vec<i64>> {
    let mut stmt =
        conn.prepare("SELECT id FROM games WHERE event = ?1 AND state = 'playing' ORDER BY id")?;
    let rows = stmt.query_map([id], |row| row.get(0))?;
    rows.collect()
}
