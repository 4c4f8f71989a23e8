//! The arena's pages and JSON, served by the browser board's server
//! ([`arbiter_net::front::server::Server`]): the ladder (`/arena`), a bot's page
//! (`/arena/bot?name=…`), the games in progress (`/live`, the live view of
//! `--live`), every finished game on `/replay` (the pools are its logs:
//! `/replay?log=<pool index>&game=<n>`), and the JSON under `/api/arena/`
//! (docs/arena.md). Everything here only reads.

mod bot;
mod events;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::server::Arena;
use crate::store;
use arbiter_board::assets::{respond, Asset, CSS, JS};
use arbiter_core::records::jsonl;
use arbiter_net::front::guard::AllowedHosts;

const PAGE_HTML: &str = include_str!("assets/page.html");
const LADDER_MAIN: &str = include_str!("assets/ladder.html");
const BOT_MAIN: &str = include_str!("assets/bot.html");
const EVENTS_MAIN: &str = include_str!("assets/events.html");
const EVENT_MAIN: &str = include_str!("assets/event.html");

/// The arena's scripts and style, served from the board's asset table
/// (`/assets/<name>`, beside the board's `dom.js` they build on).
const ASSETS: &[Asset] = &[
    ("arena-ladder.js", JS, include_str!("assets/ladder.js")),
    ("arena-bot.js", JS, include_str!("assets/bot.js")),
    ("arena-common.js", JS, include_str!("assets/common.js")),
    ("arena-events.js", JS, include_str!("assets/events.js")),
    ("arena-event.js", JS, include_str!("assets/event.js")),
    ("arena.css", CSS, include_str!("assets/arena.css")),
];

/// The arena's pages, for the bar of the board's pages it serves (`/live`,
/// `/replay`): the same links as its own pages' (page.html).
const NAV: arbiter_board::nav::Nav = &[
    ("/arena", "Ladder"),
    ("/arena/events", "Events"),
    ("/live", "Live"),
    ("/replay", "Replay"),
];

/// The most games a list answers with (the newest).
const GAMES_LISTED: usize = 200;

type ApiError = (StatusCode, String);

/// The navigation's tab a page is under.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Ladder,
    Events,
    None,
}

/// A page: the shell (head, header, navigation) around its `<main>`.
fn page(title: &str, page: &str, tab: Tab, main: &str, script: &str) -> String {
    // why a comment line first: each fragment says what it is.
    let main = main.split_once('\n').map_or(main, |(_, rest)| rest);
    let active = |t: Tab| if tab == t { " class=\"active\"" } else { "" };
    PAGE_HTML
        .replace("{{title}}", title)
        .replace("{{page}}", page)
        .replace("{{ladder-active}}", active(Tab::Ladder))
        .replace("{{events-active}}", active(Tab::Events))
        .replace("{{script}}", script)
        .replace("{{main}}", main)
}

static LADDER_HTML: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    page(
        "ladder",
        "arena-ladder",
        Tab::Ladder,
        LADDER_MAIN,
        "arena-ladder.js",
    )
});
static BOT_HTML: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| page("bot", "arena-bot", Tab::None, BOT_MAIN, "arena-bot.js"));
static EVENTS_HTML: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    page(
        "events",
        "arena-events",
        Tab::Events,
        EVENTS_MAIN,
        "arena-events.js",
    )
});
static EVENT_HTML: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    page(
        "event",
        "arena-event",
        Tab::Events,
        EVENT_MAIN,
        "arena-event.js",
    )
});

fn internal(e: impl std::fmt::Display) -> ApiError {
    (StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// Runs a database read off the async threads.
async fn read<T: Send + 'static>(
    arena: Arc<Arena>,
    f: impl FnOnce(&Arena) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || f(&arena))
        .await
        .map_err(internal)?
}

/// The arena's routes; everything else (the replay page, the live page,
/// the board's assets) is the live server's ([`arbiter_board::live_router`]).
pub fn router(arena: Arc<Arena>, allowed: AllowedHosts) -> Router {
    let state = arbiter_board::live_state(arena.live.clone(), None);
    let rest = arbiter_board::live_router_with(state, allowed, ASSETS, NAV);
    Router::new()
        .route(
            "/",
            get(|| async { axum::response::Redirect::to("/arena") }),
        )
        .route(
            "/arena",
            get(|| async { respond("text/html; charset=utf-8", LADDER_HTML.as_str()) }),
        )
        .route(
            "/arena/bot",
            get(|| async { respond("text/html; charset=utf-8", BOT_HTML.as_str()) }),
        )
        .route(
            "/arena/events",
            get(|| async { respond("text/html; charset=utf-8", EVENTS_HTML.as_str()) }),
        )
        .route(
            "/arena/event",
            get(|| async { respond("text/html; charset=utf-8", EVENT_HTML.as_str()) }),
        )
        .route("/api/arena/pools", get(pools))
        .route("/api/arena/events", get(events::list))
        .route("/api/arena/event", get(events::one))
        .route("/api/arena/ladder", get(ladder))
        .route("/api/arena/bot", get(bot::bot))
        .route("/api/arena/games", get(games))
        .route("/api/arena/playing", get(playing))
        // why here: the replay page reads "logs"; the arena's are its pools.
        .route("/api/logs", get(logs))
        .route("/api/logs/{file}", get(log_games))
        .fallback_service(rest)
        .with_state(arena)
}

/// One pool as listed.
#[derive(Serialize)]
struct PoolInfo {
    index: usize,
    name: String,
    game: String,
    each: String,
    finished: u64,
    playing: u64,
    aborted: u64,
}

/// `GET /api/arena/pools`.
async fn pools(State(arena): State<Arc<Arena>>) -> Result<Json<Vec<PoolInfo>>, ApiError> {
    read(arena, |arena| {
        let r = arena.reader();
        arena
            .config
            .pools
            .iter()
            .enumerate()
            .map(|(index, p)| {
                let (finished, playing, aborted) = store::counts(&r, &p.name).map_err(internal)?;
                Ok(PoolInfo {
                    index,
                    name: p.name.clone(),
                    game: p.game.to_string(),
                    each: p.each.clone(),
                    finished,
                    playing,
                    aborted,
                })
            })
            .collect::<Result<_, _>>()
            .map(Json)
    })
    .await
}

#[derive(Deserialize)]
struct PoolQuery {
    pool: String,
}

/// One line of the ladder: a bot's newest version.
#[derive(Serialize)]
pub struct LadderRow {
    /// The bot.
    pub name: String,
    /// The version this line is: its engine's `id name` (`null` for games
    /// played before versions were kept), its number, and its player key
    /// (the name in the games' records).
    pub version: Option<String>,
    pub version_n: u32,
    pub player: String,
    /// Elo (an anchor's value, else fitted around the anchors; field
    /// average 0 without them); `null` before the bot's first game.
    pub rating: Option<f64>,
    /// Half the 95% interval; `null` when unknown, 0 for an anchor.
    pub interval: Option<f64>,
    /// The bot is an anchor: its rating is held at its value.
    pub anchor: bool,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points per game (0 to 1).
    pub score: f64,
    pub provisional: bool,
    pub connected: bool,
    /// Seconds the bot is still paused for (it kept crashing), if it is.
    pub paused_secs: Option<u64>,
    /// When it was last connected (UTC), if ever: now for a bot connected now.
    pub last_seen: Option<String>,
}

/// When each bot was last seen: the time it connected or left (the
/// `seen` table), or now for a bot connected now (its connect time would
/// say it was last seen hours ago while it plays).
fn last_seen(
    arena: &Arena,
    present: &BTreeMap<String, crate::server::Presence>,
) -> BTreeMap<String, String> {
    let r = arena.reader();
    let mut out = BTreeMap::new();
    if let Ok(mut stmt) = r.prepare("SELECT bot, at FROM seen") {
        if let Ok(rows) = stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?))) {
            out.extend(rows.flatten());
        }
    }
    let now: Option<String> = r
        .query_row("SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now')", [], |row| {
            row.get(0)
        })
        .ok();
    if let Some(now) = now {
        for player in present.keys() {
            out.insert(crate::versions::bot_of(player).to_owned(), now.clone());
        }
    }
    out
}

fn pool_index(arena: &Arena, name: &str) -> Result<usize, ApiError> {
    arena
        .config
        .pools
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| (StatusCode::NOT_FOUND, format!("no pool named {name:?}")))
}

/// Each bot's versions by number: their `id name`s.
fn version_names(arena: &Arena) -> BTreeMap<(String, u32), Option<String>> {
    let r = arena.reader();
    let mut out = BTreeMap::new();
    if let Ok(mut stmt) = r.prepare("SELECT bot, n, id_name FROM versions") {
        if let Ok(rows) = stmt.query_map([], |row| {
            Ok(((row.get(0)?, row.get(1)?), row.get::<_, Option<String>>(2)?))
        }) {
            out.extend(rows.flatten());
        }
    }
    out
}

/// The ladder of pool `pool`: its rated bots, then the connected ones
/// without a game yet; each bot by its newest version (an older version's
/// games stay, on the bot's page).
pub fn ladder_rows(arena: &Arena, pool: usize) -> Vec<LadderRow> {
    use crate::versions::{bot_of, split};
    let pool = &arena.config.pools[pool];
    let present = arena.present();
    let seen = last_seen(arena, &present);
    let names = version_names(arena);
    let rated = arena.ladder(&pool.name);
    // why from these two: a pool shows the newest version that plays in it
    // (rated here, or connected to it now), not one that never came here.
    let mut newest: BTreeMap<&str, u32> = BTreeMap::new();
    let here = rated.iter().map(|r| r.name.as_str()).chain(
        present
            .iter()
            .filter(|(_, p)| crate::schedule::plays_in(p, pool))
            .map(|(player, _)| player.as_str()),
    );
    for player in here {
        let (bot, n) = split(player);
        let m = newest.entry(bot).or_insert(n);
        *m = (*m).max(n);
    }
    let is_newest = |player: &str| {
        let (bot, n) = split(player);
        newest.get(bot).is_none_or(|&m| m == n)
    };
    let version_of = |player: &str| {
        let (bot, n) = split(player);
        names.get(&(bot.to_owned(), n)).cloned().flatten()
    };
    let connected = |bot: &str| {
        present
            .iter()
            .any(|(player, p)| bot_of(player) == bot && crate::schedule::plays_in(p, pool))
    };
    let paused = |player: &str| arena.paused_for(player).map(|d| d.as_secs() + 1);
    // why read here too: a bot without a game has no ladder line saying it.
    let anchors = crate::anchors::for_players(&arena.reader()).unwrap_or_default();
    let mut rows: Vec<LadderRow> = rated
        .iter()
        .filter(|r| is_newest(&r.name))
        .map(|r| LadderRow {
            connected: connected(bot_of(&r.name)),
            paused_secs: paused(&r.name),
            last_seen: seen.get(bot_of(&r.name)).cloned(),
            version: version_of(&r.name),
            version_n: split(&r.name).1,
            rating: Some(r.rating),
            interval: r.interval,
            anchor: r.anchor,
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            score: r.score,
            provisional: r.provisional,
            name: bot_of(&r.name).to_owned(),
            player: r.name.clone(),
        })
        .collect();
    for (player, p) in &present {
        let bot = bot_of(player);
        if crate::schedule::plays_in(p, pool)
            && is_newest(player)
            && !rows.iter().any(|r| r.name == bot)
        {
            rows.push(LadderRow {
                name: bot.to_owned(),
                version: version_of(player),
                version_n: split(player).1,
                player: player.clone(),
                rating: None,
                interval: None,
                anchor: anchors.contains_key(player),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                score: 0.0,
                provisional: true,
                connected: true,
                paused_secs: paused(player),
                last_seen: seen.get(bot).cloned(),
            });
        }
    }
    rows
}

/// `GET /api/arena/ladder?pool=NAME`.
async fn ladder(
    State(arena): State<Arc<Arena>>,
    Query(q): Query<PoolQuery>,
) -> Result<Json<Vec<LadderRow>>, ApiError> {
    read(arena, move |arena| {
        let i = pool_index(arena, &q.pool)?;
        Ok(Json(ladder_rows(arena, i)))
    })
    .await
}

/// A finished game as listed.
#[derive(Serialize)]
struct GameRow {
    id: i64,
    pool: String,
    /// `/replay?log=<log>&game=<index>` replays it.
    log: usize,
    index: usize,
    /// The bots, and which of their versions played (1, 2, …: the bot's
    /// page names them).
    south: String,
    north: String,
    south_version: u32,
    north_version: u32,
    result: String,
    termination: String,
    ended: Option<String>,
    /// The event it was played in (`/api/arena/event?id=`), if any.
    event: Option<i64>,
}

#[derive(Deserialize)]
struct GamesQuery {
    pool: Option<String>,
    bot: Option<String>,
}

/// The newest finished games, of a pool and/or a bot.
fn game_rows(
    arena: &Arena,
    pool: Option<&str>,
    bot: Option<&str>,
) -> Result<Vec<GameRow>, ApiError> {
    let mut out = Vec::new();
    let r = arena.reader();
    for (log, p) in arena.config.pools.iter().enumerate() {
        if pool.is_some_and(|want| want != p.name) {
            continue;
        }
        // The index of a game among its pool's finished games is its replay
        // number. why a bot's games as two halves: each half walks its own
        // index (by south, by north) from the newest game down.
        let of = if bot.is_some() {
            "SELECT * FROM (SELECT * FROM games WHERE south = ?2 AND pool = ?1 \
               AND state = 'finished' ORDER BY id DESC LIMIT ?3) \
             UNION SELECT * FROM (SELECT * FROM games WHERE north = ?2 AND pool = ?1 \
               AND state = 'finished' ORDER BY id DESC LIMIT ?3)"
        } else {
            "SELECT * FROM games WHERE pool = ?1 AND state = 'finished' AND ?2 IS NULL"
        };
        let sql = format!(
            "SELECT id, south, north, result, termination, ended, south_version, north_version, {}, \
             event \
             FROM ({of}) g \
             ORDER BY id DESC LIMIT ?3",
            store::replay_index_sql("g.id")
        );
        let mut stmt = r.prepare(&sql).map_err(internal)?;
        let rows = stmt
            .query_map(rusqlite::params![p.name, bot, GAMES_LISTED as i64], |row| {
                Ok(GameRow {
                    id: row.get(0)?,
                    pool: p.name.clone(),
                    log,
                    south: row.get(1)?,
                    north: row.get(2)?,
                    result: row
                        .get::<_, Option<String>>(3)?
                        .unwrap_or_else(|| "*".into()),
                    termination: row.get::<_, Option<String>>(4)?.unwrap_or_default(),
                    ended: row.get(5)?,
                    south_version: row.get(6)?,
                    north_version: row.get(7)?,
                    index: row.get::<_, i64>(8)? as usize,
                    event: row.get(9)?,
                })
            })
            .map_err(internal)?;
        for row in rows {
            out.push(row.map_err(internal)?);
        }
    }
    out.sort_by_key(|g| std::cmp::Reverse(g.id));
    out.truncate(GAMES_LISTED);
    Ok(out)
}

/// `GET /api/arena/games[?pool=NAME][&bot=NAME]`: the newest finished games.
async fn games(
    State(arena): State<Arc<Arena>>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Vec<GameRow>>, ApiError> {
    read(arena, move |arena| {
        if let Some(p) = &q.pool {
            pool_index(arena, p)?;
        }
        if let Some(b) = &q.bot {
            known_bot(arena, b)?;
        }
        game_rows(arena, q.pool.as_deref(), q.bot.as_deref()).map(Json)
    })
    .await
}

/// `GET /api/arena/playing`: the games in progress.
async fn playing(State(arena): State<Arc<Arena>>) -> Json<Vec<crate::server::Playing>> {
    Json(arena.playing())
}

/// The account of bot `name` (revoked or not), or 404 naming it.
fn known_bot(arena: &Arena, name: &str) -> Result<crate::bots::Bot, ApiError> {
    let known = {
        let r = arena.reader();
        crate::bots::list(&r).map_err(internal)?
    };
    known
        .into_iter()
        .find(|b| b.name == name)
        .ok_or_else(|| (StatusCode::NOT_FOUND, format!("no bot named {name:?}")))
}

/// A pool as a log of the replay page.
#[derive(Serialize)]
struct LogFile {
    index: usize,
    name: String,
}

/// `GET /api/logs`: the pools, as the replay page lists logs.
async fn logs(State(arena): State<Arc<Arena>>) -> Json<Vec<LogFile>> {
    Json(
        arena
            .config
            .pools
            .iter()
            .enumerate()
            .map(|(index, p)| LogFile {
                index,
                name: format!("pool {}", p.name),
            })
            .collect(),
    )
}

/// `GET /api/logs/{pool index}[?game=N]`: the pool's finished games (their
/// summaries), or game N's replay, as `arbiter serve --log` answers.
async fn log_games(
    State(arena): State<Arc<Arena>>,
    UrlPath(file): UrlPath<usize>,
    Query(q): Query<arbiter_board::replay::GameQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    read(arena, move |arena| {
        let pool = arena
            .config
            .pools
            .get(file)
            .ok_or((StatusCode::NOT_FOUND, format!("no log #{file}")))?;
        let parse = |i: usize, line: &str| {
            jsonl::parse_line(line)
                .map_err(|e| internal(format!("stored game #{} of {}: {e}", i + 1, pool.name)))
        };
        let value = match q.game {
            None => {
                let records = store::records(&arena.reader(), &pool.name).map_err(internal)?;
                let summaries = records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| parse(i, r).map(|log| arbiter_board::games::summary(i, &log)))
                    .collect::<Result<Vec<_>, _>>()?;
                serde_json::to_value(summaries).map_err(internal)?
            }
            Some(i) => {
                let record = store::record_at(&arena.reader(), &pool.name, i).map_err(internal)?;
                let Some(record) = record else {
                    let (finished, _, _) =
                        store::counts(&arena.reader(), &pool.name).map_err(internal)?;
                    let range = arbiter_board::games::games_range(finished as usize);
                    return Err((
                        StatusCode::NOT_FOUND,
                        format!("no game {i} in pool {}: {range}", pool.name),
                    ));
                };
                let log = parse(i, &record)?;
                let replay = arbiter_board::games::replay(i, &log)
                    .map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
                serde_json::to_value(replay).map_err(internal)?
            }
        };
        Ok(Json(value))
    })
    .await
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_arena_asset_takes_the_name_of_one_of_the_board() {
        for (name, _, body) in super::ASSETS {
            assert!(
                !arbiter_board::assets::is_board_asset(name),
                "{name} is the board's"
            );
            assert!(!body.is_empty(), "{name} is empty");
        }
        assert!(arbiter_board::assets::is_board_asset("dom.js"));
    }
}
