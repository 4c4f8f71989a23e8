//! The games in the database. A game gets its row when it starts
//! (`playing`); when it ends, [`finish`] writes its record — the JSON line
//! `arbiter match` writes ([`arbiter_core::records::jsonl`]) — with its result in
//! one transaction. A server that starts and finds `playing` rows was
//! killed mid-game: [`abort_unfinished`] marks them `aborted`, never a
//! result, and they count nowhere. [`export`] writes a pool's finished
//! games as the JSON lines (the stored lines, byte for byte) and PGN that
//! `arbiter verify` and `arbiter merge` read.

use std::io::Write;
use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use crate::db::DbError;
use crate::ratings::{Game, Tally};
use arbiter_core::records::log::GameLog;
use mancala_rules::GameResult;

/// A game about to start.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub pool: &'a str,
    /// The players' keys (a bot's version, [`crate::versions::player`]).
    pub south: &'a str,
    pub north: &'a str,
    pub pair: u64,
    pub leg: u8,
    /// The event and the slot of its schedule, for an event's game.
    pub event: Option<(i64, usize)>,
}

/// Records a game as started; returns its id.
pub fn begin(conn: &Connection, game: &NewGame<'_>) -> Result<i64, DbError> {
    let (south, south_version) = crate::versions::split(game.south);
    let (north, north_version) = crate::versions::split(game.north);
    conn.execute(
        "INSERT INTO games (pool, south, north, pair, leg, opening, state, started, \
         south_version, north_version, event, slot) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?4, 'playing', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?6, ?7, \
         ?8, ?9)",
        params![
            game.pool,
            south,
            north,
            game.pair as i64,
            game.leg,
            south_version,
            north_version,
            game.event.map(|(e, _)| e),
            game.event.map(|(_, slot)| slot as i64)
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Writes a finished game: its record, result and verdict, in one
/// transaction. A game no longer `playing` (aborted by a restart) is not
/// turned into a result.
pub fn finish(conn: &mut Connection, id: i64, log: &GameLog) -> Result<(), DbError> {
    let record = arbiter_core::records::jsonl::to_line(log);
    let result = log.result.map(|r| r.as_pgn());
    // why the bot, not the player: the pages count a bot's losses by kind.
    let offender = log.termination.offender().map(|side| match side {
        mancala_rules::Side::South => crate::versions::bot_of(&log.south),
        mancala_rules::Side::North => crate::versions::bot_of(&log.north),
    });
    let tx = conn.transaction()?;
    let changed = tx.execute(
        "UPDATE games SET state = 'finished', record = ?2, result = ?3, termination = ?4, \
         offender = ?5, ended = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
         WHERE id = ?1 AND state = 'playing'",
        params![id, record, result, log.termination.kind(), offender],
    )?;
    if changed != 1 {
        return Err(DbError::Refused(format!(
            "game {id} is not in progress: its result is not recorded"
        )));
    }
    for (player, moves) in kgp_random_moves(log) {
        tx.execute(
            "INSERT INTO kgp_random (player, moves) VALUES (?1, ?2) \
             ON CONFLICT (player) DO UPDATE SET moves = moves + excluded.moves",
            params![player, moves],
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// The KGP random moves of a game (`"kgp_random": true`), by the player
/// they were played for; none when the game has none.
fn kgp_random_moves(log: &GameLog) -> Vec<(&str, u32)> {
    if !log.moves.iter().any(|m| m.kgp_random) {
        return Vec::new();
    }
    let Ok(mut game) = mancala_rules::game_from_position(&log.start_position) else {
        return Vec::new();
    };
    let mut counts = [0u32; 2];
    for m in &log.moves {
        let mover = game.side_to_move();
        if m.kgp_random {
            counts[mover.index()] += 1;
        }
        if game.play(&m.mv).is_err() {
            break;
        }
    }
    [
        (log.south.as_str(), counts[0]),
        (log.north.as_str(), counts[1]),
    ]
    .into_iter()
    .filter(|&(_, n)| n > 0)
    .collect()
}

/// The KGP random moves played for `player` in its finished games.
pub fn kgp_random_of(conn: &Connection, player: &str) -> Result<u32, DbError> {
    Ok(conn
        .query_row(
            "SELECT moves FROM kgp_random WHERE player = ?1",
            params![player],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(0))
}

/// Marks a game that never got going (both bots could not be seated, or the
/// server is stopping) as aborted.
pub fn abort(conn: &Connection, id: i64) -> Result<(), DbError> {
    conn.execute(
        "UPDATE games SET state = 'aborted', ended = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
         WHERE id = ?1 AND state = 'playing'",
        params![id],
    )?;
    Ok(())
}

/// Marks every game still `playing` as aborted (at start: those games were
/// in progress when the last server died); returns how many.
pub fn abort_unfinished(conn: &Connection) -> Result<usize, DbError> {
    // why by pool: `state` alone has no index; the pools with games playing
    // are in `pool_counts`, and (pool, state) is the games' index.
    Ok(conn.execute(
        "UPDATE games SET state = 'aborted', ended = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
         WHERE pool IN (SELECT pool FROM pool_counts WHERE playing > 0) AND state = 'playing'",
        [],
    )?)
}

/// A player's key from a row's bot and version columns.
fn player_at(r: &rusqlite::Row<'_>, bot: usize, version: usize) -> rusqlite::Result<String> {
    Ok(crate::versions::player(
        &r.get::<_, String>(bot)?,
        r.get(version)?,
    ))
}

/// The legs the pool's pairing recorded in `pool`, finished or aborted:
/// `(south, north, pair, leg)`, the sides as players' keys, in no
/// particular order (a pairing's restore does not depend on it; sorting a
/// term's million legs took seconds). Events' games are not the pairing's:
/// their pairs are numbered by their schedules.
pub fn legs(conn: &Connection, pool: &str) -> Result<Vec<(String, String, u64, u8)>, DbError> {
    let mut stmt = conn.prepare(
        "SELECT south, south_version, north, north_version, pair, leg FROM games \
         WHERE pool = ?1 AND event IS NULL",
    )?;
    let rows = stmt.query_map(params![pool], |r| {
        Ok((
            player_at(r, 0, 1)?,
            player_at(r, 2, 3)?,
            r.get::<_, i64>(4)? as u64,
            r.get(5)?,
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The pairs the pairing started (their first games, any state; not
/// events') less than `span` ago, newest first: `(south, north, how long
/// ago)`, the sides as players' keys.
pub fn pairs_started_within(
    conn: &Connection,
    span: std::time::Duration,
) -> Result<Vec<(String, String, std::time::Duration)>, DbError> {
    // why newest first and stop at the first older one: ids grow with the
    // start times, so the last hours' games are read, not the table.
    let mut stmt = conn.prepare(
        "SELECT south, south_version, north, north_version, event, leg, \
         (julianday('now') - julianday(started)) * 86400.0 FROM games ORDER BY id DESC",
    )?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let ago: f64 = r.get(6)?;
        let ago = std::time::Duration::try_from_secs_f64(ago.max(0.0)).unwrap_or(span);
        if ago >= span {
            break;
        }
        if r.get::<_, Option<i64>>(4)?.is_none() && r.get::<_, i64>(5)? == 1 {
            out.push((player_at(r, 0, 1)?, player_at(r, 2, 3)?, ago));
        }
    }
    Ok(out)
}

/// One finished game's scoring facts: `(id, south, north, PGN result)`,
/// the sides as players' keys.
pub type Scored = (i64, String, String, String);

/// The finished games of `pool` in the order they were recorded.
pub fn scored(conn: &Connection, pool: &str) -> Result<Vec<Scored>, DbError> {
    let mut stmt = conn.prepare(
        "SELECT id, south, south_version, north, north_version, result FROM games \
         WHERE pool = ?1 AND state = 'finished' AND result IS NOT NULL ORDER BY id",
    )?;
    let rows = stmt.query_map(params![pool], |r| {
        Ok((
            r.get(0)?,
            player_at(r, 1, 2)?,
            player_at(r, 3, 4)?,
            r.get(5)?,
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One kind of loss of a bot in a pool: the games it lost that ended so.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LossKind {
    /// The termination's kind ([`arbiter_core::records::log::Termination::kind`]):
    /// `rules` (lost on the board), `time_forfeit`, `illegal_move`,
    /// `crash`, `disconnect`, `unresponsive`, an adjudication…
    pub kind: String,
    /// Lost by a fault of its own (it is the game's offender): a forfeit.
    pub fault: bool,
    pub losses: u32,
}

/// The finished games of `pool` that bot `bot` (any of its versions) lost,
/// counted by how they ended: its faults first, then the most frequent.
/// A game between two of its versions counts once (one side lost).
pub fn losses_by_kind(conn: &Connection, pool: &str, bot: &str) -> Result<Vec<LossKind>, DbError> {
    // why the PGN results: `1-0` is South's win, `0-1` North's; a side
    // loses when the other side wins.
    let mut stmt = conn.prepare(
        "SELECT coalesce(termination, 'unknown'), coalesce(offender = ?2, 0), count(*) \
         FROM games WHERE pool = ?1 AND state = 'finished' \
         AND ((south = ?2 AND result = '0-1') OR (north = ?2 AND result = '1-0')) \
         GROUP BY 1, 2 ORDER BY 2 DESC, 3 DESC, 1",
    )?;
    let rows = stmt.query_map(params![pool, bot], |r| {
        Ok(LossKind {
            kind: r.get(0)?,
            fault: r.get::<_, i64>(1)? == 1,
            losses: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The tally of `pool`'s finished games ([`scored`], read one at a time)
/// and of those `arena prune` removed ([`crate::prune`]), and the id of
/// the newest finished game (0 if none).
pub fn tally(conn: &Connection, pool: &str) -> Result<(Tally, i64), DbError> {
    let mut stmt = conn.prepare(
        "SELECT id, south, south_version, north, north_version, result FROM games \
         WHERE pool = ?1 AND state = 'finished' AND result IS NOT NULL",
    )?;
    let mut rows = stmt.query(params![pool])?;
    let (mut tally, mut last) = (Tally::default(), 0);
    while let Some(r) = rows.next()? {
        let Some(result) = GameResult::from_pgn(&r.get::<_, String>(5)?) else {
            continue;
        };
        let (south, north) = (player_at(r, 1, 2)?, player_at(r, 3, 4)?);
        tally.add(&Game {
            south: &south,
            north: &north,
            result,
        });
        last = last.max(r.get(0)?);
    }
    // The results of the games `arena prune` removed (crate::prune).
    let mut stmt =
        conn.prepare("SELECT south, north, result, games FROM pruned WHERE pool = ?1")?;
    let mut rows = stmt.query(params![pool])?;
    while let Some(r) = rows.next()? {
        let Some(result) = GameResult::from_pgn(&r.get::<_, String>(2)?) else {
            continue;
        };
        let (south, north): (String, String) = (r.get(0)?, r.get(1)?);
        for _ in 0..r.get::<_, i64>(3)? {
            tally.add(&Game {
                south: &south,
                north: &north,
                result,
            });
        }
    }
    Ok((tally, last))
}

/// The results of bot `bot`'s finished games in `pool`, each kind once:
/// `(south, north, PGN result, games)`, the sides as players' keys (one of
/// them a version of `bot`).
pub fn results_of(
    conn: &Connection,
    pool: &str,
    bot: &str,
) -> Result<Vec<(String, String, String, u32)>, DbError> {
    // why two halves: each finds the bot's games through its own index
    // (by south, by north) instead of reading the pool's.
    let mut stmt = conn.prepare(
        "SELECT south, south_version, north, north_version, result, count(*) FROM ( \
           SELECT id, south, south_version, north, north_version, result FROM games \
           WHERE south = ?2 AND pool = ?1 AND state = 'finished' AND result IS NOT NULL \
           UNION \
           SELECT id, south, south_version, north, north_version, result FROM games \
           WHERE north = ?2 AND pool = ?1 AND state = 'finished' AND result IS NOT NULL) \
         GROUP BY south, south_version, north, north_version, result",
    )?;
    let rows = stmt.query_map(params![pool, bot], |r| {
        Ok((
            player_at(r, 0, 1)?,
            player_at(r, 2, 3)?,
            r.get(4)?,
            r.get(5)?,
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The replay number of finished game `id` in `pool` (SQL, `?1` the pool):
/// the finished games before it, counted from whichever end of the pool is
/// nearer (the count of the pool is `pool_counts`'), so the newest games'
/// and the oldest games' numbers take no count of the whole pool.
pub fn replay_index_sql(id: &str) -> String {
    let finished = "SELECT 1 FROM games h WHERE h.pool = ?1 AND h.state = 'finished'";
    format!(
        "(CASE WHEN {id} - coalesce((SELECT min(id) FROM games h WHERE h.pool = ?1 AND h.state = 'finished'), 0) \
              < coalesce((SELECT max(id) FROM games h WHERE h.pool = ?1 AND h.state = 'finished'), 0) - {id} \
         THEN (SELECT count(*) FROM ({finished} AND h.id < {id})) \
         ELSE coalesce((SELECT finished FROM pool_counts WHERE pool = ?1), 0) \
              - (SELECT count(*) FROM ({finished} AND h.id >= {id})) END)"
    )
}

/// The replay number of finished game `id` of `pool` (its index among
/// the pool's finished games, from 0).
pub fn replay_index(conn: &Connection, pool: &str, id: i64) -> Result<u64, DbError> {
    let sql = format!("SELECT {}", replay_index_sql("?2"));
    Ok(conn.query_row(&sql, params![pool, id], |r| r.get::<_, i64>(0))? as u64)
}

/// The records (JSON lines) of `pool`'s finished games, oldest first.
pub fn records(conn: &Connection, pool: &str) -> Result<Vec<String>, DbError> {
    let mut stmt = conn
        .prepare("SELECT record FROM games WHERE pool = ?1 AND state = 'finished' ORDER BY id")?;
    let rows = stmt.query_map(params![pool], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The record of the `index`-th finished game of `pool` (from 0).
pub fn record_at(conn: &Connection, pool: &str, index: usize) -> Result<Option<String>, DbError> {
    // why from the nearer end: an OFFSET steps over every game before it,
    // and the games looked at most are the newest. One statement, so the
    // count and the step agree.
    let mut stmt = conn.prepare(
        "WITH n AS (SELECT coalesce((SELECT finished FROM pool_counts WHERE pool = ?1), 0) AS f) \
         SELECT record FROM (SELECT record FROM games WHERE pool = ?1 AND state = 'finished' \
             AND ?2 < (SELECT f FROM n) / 2 ORDER BY id LIMIT 1 OFFSET ?2) \
         UNION ALL \
         SELECT record FROM (SELECT record FROM games WHERE pool = ?1 AND state = 'finished' \
             AND ?2 >= (SELECT f FROM n) / 2 AND ?2 < (SELECT f FROM n) \
             ORDER BY id DESC LIMIT 1 OFFSET max((SELECT f FROM n) - 1 - ?2, 0))",
    )?;
    let mut rows = stmt.query_map(params![pool, index as i64], |r| r.get(0))?;
    Ok(rows.next().transpose()?)
}

/// Counts of `pool`'s games by state: `(finished, playing, aborted)` (kept
/// by the database's triggers as the games are written).
pub fn counts(conn: &Connection, pool: &str) -> Result<(u64, u64, u64), DbError> {
    let mut stmt =
        conn.prepare("SELECT finished, playing, aborted FROM pool_counts WHERE pool = ?1")?;
    let mut rows = stmt.query_map(params![pool], |r| {
        Ok((
            r.get::<_, i64>(0)? as u64,
            r.get::<_, i64>(1)? as u64,
            r.get::<_, i64>(2)? as u64,
        ))
    })?;
    Ok(rows.next().transpose()?.unwrap_or((0, 0, 0)))
}

/// The pools that have games in the database.
pub fn pools_with_games(conn: &Connection) -> Result<Vec<String>, DbError> {
    let mut stmt = conn.prepare(
        "SELECT pool FROM pool_counts WHERE finished + playing + aborted > 0 ORDER BY pool",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Writes `pool`'s finished games to `jsonout` (the records as stored) and,
/// if given, `pgnout`; each file is written beside itself and renamed into
/// place, so a reader never sees half a file. Returns the number of games.
pub fn export(
    conn: &Connection,
    pool: &str,
    jsonout: &Path,
    pgnout: Option<&Path>,
) -> Result<usize, DbError> {
    let records = records(conn, pool)?;
    if records.is_empty() && !pools_with_games(conn)?.iter().any(|p| p == pool) {
        return Err(DbError::Refused(format!(
            "no games in a pool named {pool:?}"
        )));
    }
    write_records(&records, &format!("pool {pool}"), jsonout, pgnout)?;
    Ok(records.len())
}

/// Writes `records` (of `what`, for messages) as [`export`] does.
pub fn write_records(
    records: &[String],
    what: &str,
    jsonout: &Path,
    pgnout: Option<&Path>,
) -> Result<(), DbError> {
    let mut text = String::new();
    for r in records {
        text.push_str(r);
        text.push('\n');
    }
    write_atomically(jsonout, &text)?;
    if let Some(pgn) = pgnout {
        let logs = records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                arbiter_core::records::jsonl::parse_line(r)
                    .map_err(|e| DbError::Refused(format!("stored game #{} of {what}: {e}", i + 1)))
            })
            .collect::<Result<Vec<GameLog>, _>>()?;
        write_atomically(pgn, &arbiter_core::records::pgn::write_games(&logs))?;
    }
    Ok(())
}

fn write_atomically(path: &Path, text: &str) -> Result<(), DbError> {
    let fail =
        |e: std::io::Error| DbError::Refused(format!("cannot write {}: {e}", path.display()));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    let tmp = std::path::PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp).map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A whole, legal game (the records' test game) between `south` and `north`.
    pub(crate) fn log(south: &str, north: &str) -> GameLog {
        let mut l = arbiter_core::testing::rules_log();
        l.south = south.to_owned();
        l.north = north.to_owned();
        l
    }

    pub(crate) fn new<'a>(south: &'a str, north: &'a str, pair: u64, leg: u8) -> NewGame<'a> {
        NewGame {
            pool: "p",
            south,
            north,
            pair,
            leg,
            event: None,
        }
    }

    #[test]
    fn a_game_is_playing_then_finished_with_its_record() {
        let dir = arbiter_core::testing::test_dir("arena-store");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        let id = begin(&conn, &new("a", "b", 0, 1)).unwrap();
        assert_eq!(counts(&conn, "p").unwrap(), (0, 1, 0));
        let game = log("a", "b");
        finish(&mut conn, id, &game).unwrap();
        assert_eq!(counts(&conn, "p").unwrap(), (1, 0, 0));
        assert_eq!(
            records(&conn, "p").unwrap(),
            [arbiter_core::records::jsonl::to_line(&game)]
        );
        // Finished once: a second write is refused, not doubled.
        assert!(finish(&mut conn, id, &game).is_err());
        assert_eq!(counts(&conn, "p").unwrap(), (1, 0, 0));
        let s = scored(&conn, "p").unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].1.as_str(), s[0].2.as_str()), ("a", "b"));
    }

    #[test]
    fn games_in_progress_at_a_restart_are_aborted_never_results() {
        let dir = arbiter_core::testing::test_dir("arena-store-abort");
        let path = dir.join("a.sqlite");
        let mut conn = crate::db::open(&path).unwrap();
        let done = begin(&conn, &new("a", "b", 0, 1)).unwrap();
        finish(&mut conn, done, &log("a", "b")).unwrap();
        let cut = begin(&conn, &new("b", "a", 0, 2)).unwrap();
        drop(conn);
        let mut conn = crate::db::open(&path).unwrap();
        assert_eq!(abort_unfinished(&conn).unwrap(), 1);
        assert_eq!(counts(&conn, "p").unwrap(), (1, 0, 1));
        // The old server's late write of the cut game changes nothing.
        assert!(finish(&mut conn, cut, &log("b", "a")).is_err());
        assert_eq!(scored(&conn, "p").unwrap().len(), 1);
        assert_eq!(legs(&conn, "p").unwrap().len(), 2);
    }

    /// A finished game of `south` against `north` with `result`, ended by `termination`.
    fn play(
        conn: &mut Connection,
        (south, north): (&str, &str),
        result: mancala_rules::GameResult,
        termination: arbiter_core::records::log::Termination,
    ) {
        let id = begin(conn, &new(south, north, 0, 1)).unwrap();
        let mut game = log(south, north);
        game.result = Some(result);
        game.termination = termination;
        finish(conn, id, &game).unwrap();
    }

    #[test]
    fn a_bots_losses_are_counted_by_how_they_ended() {
        use arbiter_core::records::log::Termination;
        use mancala_rules::{EndReason, GameResult::*, Side};
        let dir = arbiter_core::testing::test_dir("arena-store-losses");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        let rules = || Termination::rules(EndReason::NoSeedsToMove);
        let illegal = |side| Termination::IllegalMove {
            side,
            mv: "9".into(),
            detail: "no such pit".into(),
        };
        let time = |side| Termination::TimeForfeit {
            side,
            detail: "2 s over".into(),
        };
        // a (versions 1 and 2) loses: on the board as South and as North,
        // twice by an illegal move, once on time; it wins one on b's time.
        play(&mut conn, ("a", "b"), NorthWins, rules());
        play(&mut conn, ("b", "a/2"), SouthWins, rules());
        play(&mut conn, ("a/2", "b"), NorthWins, illegal(Side::South));
        play(&mut conn, ("b", "a"), SouthWins, illegal(Side::North));
        play(&mut conn, ("a", "b"), NorthWins, time(Side::South));
        play(&mut conn, ("a", "b"), SouthWins, time(Side::North));
        // Neither a draw nor a win is a loss; a game between its versions
        // is one loss, the losing side's.
        play(&mut conn, ("a", "b"), Draw, rules());
        play(&mut conn, ("a", "a/2"), SouthWins, illegal(Side::North));
        let kind = |kind: &str, fault, losses| LossKind {
            kind: kind.into(),
            fault,
            losses,
        };
        assert_eq!(
            losses_by_kind(&conn, "p", "a").unwrap(),
            [
                kind("illegal_move", true, 3),
                kind("time_forfeit", true, 1),
                kind("rules", false, 2),
            ]
        );
        // b lost one on its time, and its wins are no losses.
        assert_eq!(
            losses_by_kind(&conn, "p", "b").unwrap(),
            [kind("time_forfeit", true, 1)]
        );
        assert_eq!(losses_by_kind(&conn, "q", "a").unwrap(), []);
        assert_eq!(losses_by_kind(&conn, "p", "c").unwrap(), []);
    }

    #[test]
    fn replay_numbers_counts_and_results_agree_with_the_whole_pool() {
        let dir = arbiter_core::testing::test_dir("arena-store-numbers");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        // Games that finish out of their order, one aborted, one still
        // playing, and another pool's between them.
        let names = ["a", "b/2", "c", "b"];
        let mut ids = Vec::new();
        for i in 0..9u64 {
            let (s, n) = (names[i as usize % 4], names[(i as usize + 1) % 4]);
            let mut game = new(s, n, i, 1);
            if i == 4 {
                game.pool = "q";
            }
            ids.push(begin(&conn, &game).unwrap());
        }
        for &i in &[7, 0, 3, 1, 4, 8, 6] {
            let (s, n) = (names[i % 4], names[(i + 1) % 4]);
            let mut game = log(s, n);
            game.result = Some(if i % 3 == 0 {
                GameResult::SouthWins
            } else {
                GameResult::Draw
            });
            finish(&mut conn, ids[i], &game).unwrap();
        }
        abort(&conn, ids[2]).unwrap();
        assert_eq!(counts(&conn, "p").unwrap(), (6, 1, 1));
        assert_eq!(counts(&conn, "q").unwrap(), (1, 0, 0));
        assert_eq!(counts(&conn, "none").unwrap(), (0, 0, 0));
        assert_eq!(pools_with_games(&conn).unwrap(), ["p", "q"]);
        // The replay number of each finished game is its place by id, and
        // its record is found by that number from either end.
        let finished: Vec<i64> = scored(&conn, "p").unwrap().iter().map(|g| g.0).collect();
        let all = records(&conn, "p").unwrap();
        for (k, &id) in finished.iter().enumerate() {
            assert_eq!(replay_index(&conn, "p", id).unwrap(), k as u64, "game {id}");
            assert_eq!(record_at(&conn, "p", k).unwrap().as_ref(), Some(&all[k]));
        }
        assert_eq!(record_at(&conn, "p", finished.len()).unwrap(), None);
        // A tally read from the database is the tally of the scored games.
        let (tally, last) = tally(&conn, "p").unwrap();
        let games = scored(&conn, "p").unwrap();
        let mut want = Tally::default();
        for (_, s, n, r) in &games {
            want.add(&Game {
                south: s,
                north: n,
                result: GameResult::from_pgn(r).unwrap(),
            });
        }
        assert_eq!((tally, last), (want, *finished.last().unwrap()));
        // A bot's results by kind are its scored games, counted.
        let mut counted: std::collections::BTreeMap<(String, String, String), u32> =
            Default::default();
        for (_, s, n, r) in games {
            if crate::versions::bot_of(&s) == "b" || crate::versions::bot_of(&n) == "b" {
                *counted.entry((s, n, r)).or_default() += 1;
            }
        }
        let by_kind: std::collections::BTreeMap<_, _> = results_of(&conn, "p", "b")
            .unwrap()
            .into_iter()
            .map(|(s, n, r, k)| ((s, n, r), k))
            .collect();
        assert_eq!(by_kind, counted);
        assert!(by_kind.keys().any(|(s, _, _)| s == "b/2"), "{by_kind:?}");
    }

    #[test]
    fn an_export_is_the_stored_records_and_verifies() {
        let dir = arbiter_core::testing::test_dir("arena-store-export");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        for (i, (s, n)) in [("a", "b"), ("b", "a")].into_iter().enumerate() {
            let id = begin(&conn, &new(s, n, 0, i as u8 + 1)).unwrap();
            finish(&mut conn, id, &log(s, n)).unwrap();
        }
        let (json, pgn) = (dir.join("p.jsonl"), dir.join("p.pgn"));
        assert_eq!(export(&conn, "p", &json, Some(&pgn)).unwrap(), 2);
        let text = std::fs::read_to_string(&json).unwrap();
        assert_eq!(text.lines().count(), 2);
        for f in [&json, &pgn] {
            let report = arbiter_core::records::verify::verify_file(f).expect("verifies");
            assert!(report.to_string().contains('2'), "{report}");
        }
        assert!(export(&conn, "nope", &json, None)
            .unwrap_err()
            .to_string()
            .contains("no games"));
        assert_eq!(
            record_at(&conn, "p", 1).unwrap().as_deref(),
            text.lines().nth(1)
        );
        assert_eq!(record_at(&conn, "p", 2).unwrap(), None);
    }
}
