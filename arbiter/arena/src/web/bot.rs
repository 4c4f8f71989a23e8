//! A bot's page's JSON (`/api/arena/bot?name=…`): its account's state, its
//! admission and versions, per pool its ladder line, rating history,
//! results by opponent (with the likelihood of superiority) and losses by
//! kind, and its newest games.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::{game_rows, internal, known_bot, ladder_rows, read, ApiError, GameRow, LadderRow};
use crate::server::Arena;
use crate::store;
use crate::versions::{bot_of, split};
use arbiter_core::stats::Wdl;

#[derive(Deserialize)]
pub(super) struct BotQuery {
    name: String,
}

/// One opponent's results against the bot (all its versions).
#[derive(Serialize, Debug, PartialEq)]
pub(super) struct Versus {
    /// The opponent's player key (a version of a bot).
    opponent: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Points per game (0 to 1).
    score: f64,
    /// Likelihood of superiority over the opponent from the wins and
    /// losses, `Φ((W − L)/√(W + L))`; `null` without a decisive game.
    los: Option<f64>,
}

/// The bot's results by opponent from its games' results in a pool
/// ([`store::results_of`]: south, north, result, how many such games), by
/// the opponent's key. A game between two of its versions counts once, for the
/// newer version against the older (a new build measured against the old).
fn versus(name: &str, results: &[(String, String, String, u32)]) -> Vec<Versus> {
    use mancala_rules::Side;
    let mut by_opponent: BTreeMap<&str, Wdl> = BTreeMap::new();
    for (south, north, result, games) in results {
        let Some(result) = mancala_rules::GameResult::from_pgn(result) else {
            continue;
        };
        let (side, opponent) = match (bot_of(south) == name, bot_of(north) == name) {
            (true, true) if split(north).1 > split(south).1 => (Side::North, south),
            (true, _) => (Side::South, north),
            (false, true) => (Side::North, south),
            (false, false) => continue,
        };
        let wdl = by_opponent.entry(opponent).or_default();
        for _ in 0..*games {
            wdl.add_result(result, side);
        }
    }
    by_opponent
        .into_iter()
        .map(|(opponent, wdl)| Versus {
            opponent: opponent.to_owned(),
            games: wdl.games(),
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            score: wdl.score().unwrap_or(0.0),
            los: wdl.los(),
        })
        .collect()
}

/// One point of the rating chart.
#[derive(Serialize)]
struct HistoryPoint {
    games: u32,
    rating: f64,
    interval: Option<f64>,
    at: String,
}

/// A bot in one pool.
#[derive(Serialize)]
struct BotPool {
    pool: String,
    game: String,
    rank: Option<usize>,
    ladder: Option<LadderRow>,
    versus: Vec<Versus>,
    /// The games it lost in this pool, by how they ended (its faults first).
    losses_by_kind: Vec<store::LossKind>,
    /// The rating history of its newest version that has one here
    /// (`history_version`; `null` when none has).
    history_version: Option<u32>,
    history: Vec<HistoryPoint>,
}

/// One version of a bot, on its page.
#[derive(Serialize)]
struct VersionLine {
    n: u32,
    /// The engine's `id name` (`null`: games before versions were kept).
    id_name: Option<String>,
    first_seen: String,
    /// Its finished games, in all pools.
    games: u32,
    /// Its rating in the pool where it played most (`pool`), `null` before
    /// its first game.
    rating: Option<f64>,
    pool: Option<String>,
    #[serde(skip)]
    pool_games: u32,
    connected: bool,
    /// Its admission checks (`null`: not checked: a house bot, games
    /// before admission, or `--admission off`).
    admission: Option<crate::admission_records::Admission>,
    /// KGP's random moves played for it in its finished games (a KGP bot
    /// that sent no move before its search ended).
    kgp_random_moves: u32,
}

/// A bot's page.
#[derive(Serialize)]
pub(super) struct BotPage {
    name: String,
    connected: bool,
    slots: usize,
    revoked: bool,
    paused_secs: Option<u64>,
    /// Its newest named version's admission (as in `versions`; a KGP
    /// connection without `set info:name`, `NAME (unnamed)`, stands for the
    /// account only when it is all there is).
    admission: Option<crate::admission_records::Admission>,
    /// KGP's random moves played for it, all versions.
    kgp_random_moves: u32,
    /// Its versions, oldest first.
    versions: Vec<VersionLine>,
    pools: Vec<BotPool>,
    games: Vec<GameRow>,
}

fn history(arena: &Arena, pool: &str, player: &str) -> Result<Vec<HistoryPoint>, ApiError> {
    let r = arena.reader();
    let mut stmt = r
        .prepare(
            "SELECT games, rating, margin, at FROM rating_history \
             WHERE pool = ?1 AND bot = ?2 ORDER BY id",
        )
        .map_err(internal)?;
    let rows = stmt
        .query_map(rusqlite::params![pool, player], |row| {
            Ok(HistoryPoint {
                games: row.get(0)?,
                rating: row.get(1)?,
                interval: row.get(2)?,
                at: row.get(3)?,
            })
        })
        .map_err(internal)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(internal)
}

fn bot_page(arena: &Arena, name: &str) -> Result<BotPage, ApiError> {
    let account = known_bot(arena, name)?;
    let present: BTreeMap<String, crate::server::Presence> = arena
        .live()
        .into_iter()
        .filter(|(player, _)| bot_of(player) == name)
        .collect();
    let mut versions: Vec<VersionLine> = {
        let r = arena.reader();
        let mut lines = Vec::new();
        for v in crate::versions::list(&r, name).map_err(internal)? {
            let admission = crate::admission_records::status(&r, name, v.n).map_err(internal)?;
            let player = crate::versions::player(name, v.n);
            let random = store::kgp_random_of(&r, &player).map_err(internal)?;
            lines.push((v, admission, random));
        }
        lines
    }
    .into_iter()
    .map(|(v, admission, kgp_random_moves)| VersionLine {
        admission,
        kgp_random_moves,
        connected: present.contains_key(&crate::versions::player(name, v.n)),
        n: v.n,
        id_name: v.id_name,
        first_seen: v.first_seen,
        games: 0,
        rating: None,
        pool: None,
        pool_games: 0,
    })
    .collect();
    let mut pools = Vec::new();
    for (i, pool) in arena.config.pools.iter().enumerate() {
        let rows = ladder_rows(arena, i);
        let rank = rows
            .iter()
            .position(|r| r.name == name && r.rating.is_some());
        let ladder = rows.into_iter().find(|r| r.name == name);
        let rated = arena.ladder(&pool.name);
        for v in &mut versions {
            let player = crate::versions::player(name, v.n);
            if let Some(r) = rated.iter().find(|r| r.name == player) {
                v.games += r.games;
                // why the pool with most games: one number per version;
                // each pool's own is on the pool's ladder line.
                if v.rating.is_none() || v.pool_games < r.games {
                    v.rating = Some(r.rating);
                    v.pool = Some(pool.name.clone());
                    v.pool_games = r.games;
                }
            }
        }
        let (scored, losses_by_kind) = {
            let r = arena.reader();
            (
                // why grouped in SQL: a bot page of a pool of a million
                // games reads only the bot's, through its indexes.
                store::results_of(&r, &pool.name, name).map_err(internal)?,
                store::losses_by_kind(&r, &pool.name, name).map_err(internal)?,
            )
        };
        // why not just the newest: a new version that has not played here
        // yet would leave the pool's chart empty; the last one that did is
        // what the bot's standing here was.
        // (A bot that never connected since versions were kept has none
        // listed: its games are version 1's.)
        let newest_first: Vec<u32> = match versions.len() {
            0 => vec![1],
            _ => versions.iter().rev().map(|v| v.n).collect(),
        };
        let mut charted = None;
        for v in newest_first {
            let points = history(arena, &pool.name, &crate::versions::player(name, v))?;
            if !points.is_empty() {
                charted = Some((v, points));
                break;
            }
        }
        let (history_version, history) = charted.unzip();
        let history = history.unwrap_or_default();
        if ladder.is_some() || !history.is_empty() {
            pools.push(BotPool {
                pool: pool.name.clone(),
                game: pool.game.to_string(),
                rank: rank.map(|r| r + 1),
                ladder,
                versus: versus(name, &scored),
                losses_by_kind,
                history_version,
                history,
            });
        }
    }
    let paused = present
        .keys()
        .filter_map(|player| arena.paused_for(player))
        .max()
        .or_else(|| arena.paused_for(name));
    let unnamed = |v: &&VersionLine| {
        v.id_name
            .as_deref()
            .is_some_and(|n| n.ends_with(arbiter_net::remote::kgp::adapter::UNNAMED))
    };
    // why not an unnamed KGP version's: a test client without `set
    // info:name` that fails must not stand for the account's named builds.
    let standing = versions
        .iter()
        .rev()
        .find(|v| !unnamed(v))
        .or(versions.last());
    Ok(BotPage {
        name: name.to_owned(),
        admission: standing.and_then(|v| v.admission.clone()),
        kgp_random_moves: versions.iter().map(|v| v.kgp_random_moves).sum(),
        connected: !present.is_empty(),
        slots: present.values().map(|p| p.slots).sum(),
        revoked: account.revoked.is_some(),
        paused_secs: paused.map(|d| d.as_secs() + 1),
        versions,
        pools,
        games: game_rows(arena, None, Some(name))?,
    })
}

/// `GET /api/arena/bot?name=NAME`: its versions and admission, its pools
/// (ladder line, results by opponent, losses by kind, rating history) and
/// its newest games.
pub(super) async fn bot(
    State(arena): State<Arc<Arena>>,
    Query(q): Query<BotQuery>,
) -> Result<Json<BotPage>, ApiError> {
    read(arena, move |arena| bot_page(arena, &q.name).map(Json)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(south: &str, north: &str, result: &str) -> (String, String, String, u32) {
        (south.into(), north.into(), result.into(), 1)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn results_by_opponent_count_both_sides_with_score_and_los() {
        // a against b: won as South and as North, drew, lost once.
        let scored = [
            game("a", "b", "1-0"),
            game("b", "a", "0-1"),
            game("a", "b", "1/2-1/2"),
            game("b", "a", "1-0"),
            game("b", "c", "1-0"),
            game("a", "c", "1/2-1/2"),
            game("a", "c", "*"),
        ];
        let lines = versus("a", &scored);
        assert_eq!(lines.len(), 2, "{lines:?}");
        let b = &lines[0];
        assert_eq!(b.opponent, "b");
        assert_eq!((b.games, b.wins, b.draws, b.losses), (4, 2, 1, 1));
        assert!(close(b.score, 2.5 / 4.0), "{b:?}");
        // LOS = ½(1 + erf((W − L)/√(2(W + L)))) = ½(1 + erf(1/√6)) = Φ(1/√3).
        assert!(b.los.is_some_and(|l| close(l, 0.718_149)), "{b:?}");
        // Draws only: no decisive game, no LOS.
        let c = &lines[1];
        assert_eq!((c.opponent.as_str(), c.games, c.draws), ("c", 1, 1));
        assert!(close(c.score, 0.5) && c.los.is_none(), "{c:?}");
        // Only losses: LOS near 0.
        let lost = versus("c", &[game("c", "a", "0-1"), game("a", "c", "1-0")]);
        assert!(lost[0].los.is_some_and(|l| l < 0.1), "{lost:?}");
        assert!(close(lost[0].score, 0.0));
    }

    #[test]
    fn a_game_between_two_versions_is_the_newer_against_the_older() {
        let scored = [
            game("a", "a/2", "1-0"),
            game("a/2", "a", "1/2-1/2"),
            game("a/2", "b/3", "0-1"),
        ];
        let lines = versus("a", &scored);
        assert_eq!(lines.len(), 2, "{lines:?}");
        let old = &lines[0];
        assert_eq!(old.opponent, "a");
        assert_eq!((old.wins, old.draws, old.losses), (0, 1, 1), "{old:?}");
        assert_eq!(lines[1].opponent, "b/3");
        assert_eq!(lines[1].losses, 1);
    }
}
