//! `arena prune`: removes old games from the database while keeping the
//! ratings exact. A pool's ratings are a fit of its results' sums
//! ([`crate::ratings::Tally`]: each player's wins, draws and losses, each
//! pair's games and points), not of the games themselves; so the results
//! of the games removed are folded into the `pruned` table, one row per
//! `(pool, south, north, result)` with its count, which
//! [`crate::store::tally`] adds to the kept games'. The fit of the two is
//! the fit before the prune, to the last bit.
//!
//! What goes: the pool games (not an event's: its export and standings
//! read them) whose whole pair started before the given time, finished or
//! aborted, and, when bots are named, only those between two of them (the
//! house bots, say). A pair is removed whole or not at all, so that the
//! pairing restored after a restart owes no leg of a removed pair.

use std::collections::BTreeSet;

use rusqlite::{params, Connection};

use crate::db::DbError;

/// What a prune removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Finished games, their results folded into `pruned`.
    pub finished: u64,
    /// Aborted games (no result).
    pub aborted: u64,
}

/// Removes the games described in the module doc: those of pairs that
/// started wholly before `before` (an RFC 3339 time, compared by SQLite's
/// `julianday`), only between two of `between` when given. One transaction.
pub fn prune(
    conn: &mut Connection,
    before: &str,
    between: Option<&BTreeSet<String>>,
) -> Result<Pruned, DbError> {
    let tx = conn.transaction()?;
    let rows: Vec<(i64, String, String, String, String, Option<String>)> = {
        // why NOT EXISTS: a pair with a leg started since (or still
        // playing) is kept whole.
        let mut stmt = tx.prepare(
            "SELECT g.id, g.pool, g.south, g.north, g.south_version, g.north_version, \
                    g.state, g.result \
             FROM games g \
             WHERE g.event IS NULL AND g.state IN ('finished', 'aborted') \
               AND julianday(g.started) < julianday(?1) \
               AND NOT EXISTS (SELECT 1 FROM games h WHERE h.pool = g.pool \
                   AND h.pair = g.pair AND h.event IS NULL \
                   AND (h.state = 'playing' OR julianday(h.started) >= julianday(?1)))",
        )?;
        let rows = stmt.query_map(params![before], |r| {
            let south = crate::versions::player(&r.get::<_, String>(2)?, r.get(4)?);
            let north = crate::versions::player(&r.get::<_, String>(3)?, r.get(5)?);
            Ok((r.get(0)?, r.get(1)?, south, north, r.get(6)?, r.get(7)?))
        })?;
        rows.collect::<Result<_, _>>()?
    };
    let mut pruned = Pruned::default();
    for (id, pool, south, north, state, result) in rows {
        if let Some(bots) = between {
            let named = |p: &str| bots.contains(crate::versions::bot_of(p));
            if !(named(&south) && named(&north)) {
                continue;
            }
        }
        if state == "finished" {
            if let Some(result) = result {
                tx.execute(
                    "INSERT INTO pruned (pool, south, north, result, games) \
                     VALUES (?1, ?2, ?3, ?4, 1) \
                     ON CONFLICT (pool, south, north, result) DO UPDATE SET games = games + 1",
                    params![pool, south, north, result],
                )?;
            }
            pruned.finished += 1;
        } else {
            pruned.aborted += 1;
        }
        tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
    }
    tx.commit()?;
    Ok(pruned)
}

/// `--before`: an RFC 3339 time (`2026-12-01T00:00:00Z`) or a date
/// (`2026-12-01`, its midnight UTC); the time as given back, for SQLite.
pub fn parse_before(text: &str) -> Result<String, BeforeError> {
    use time::format_description::well_known::Rfc3339;
    let full = if text.len() == 10 && text.as_bytes().get(4) == Some(&b'-') {
        format!("{text}T00:00:00Z")
    } else {
        text.to_owned()
    };
    time::OffsetDateTime::parse(&full, &Rfc3339).map_err(|source| BeforeError {
        text: text.to_owned(),
        source,
    })?;
    Ok(full)
}

/// Why `--before` is refused ([`parse_before`]).
#[derive(Debug, thiserror::Error)]
#[error(
    "--before {text:?}: not a date or an RFC 3339 time ({source}); give e.g. 2026-12-01 \
     or 2026-12-01T18:00:00Z"
)]
pub struct BeforeError {
    text: String,
    source: time::error::Parse,
}

/// Gives the space of removed rows back to the file system (SQLite's
/// `VACUUM`; it rewrites the file, so it takes a while on a large one).
pub fn compact(conn: &Connection) -> Result<(), DbError> {
    // why the checkpoint: in WAL mode the file shrinks only once the
    // rewritten pages are back in it.
    conn.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{self, NewGame};
    use mancala_rules::GameResult;

    fn play(conn: &mut Connection, south: &str, north: &str, pair: u64, leg: u8, r: GameResult) {
        let id = store::begin(conn, &store::tests::new(south, north, pair, leg)).unwrap();
        let mut log = store::tests::log(south, north);
        log.result = Some(r);
        store::finish(conn, id, &log).unwrap();
    }

    fn ratings(conn: &Connection) -> Vec<crate::ratings::Rated> {
        let (tally, _) = store::tally(conn, "p").unwrap();
        tally.rate(&crate::anchors::Anchors::default())
    }

    #[test]
    fn ratings_before_and_after_a_prune_are_equal() {
        use GameResult::*;
        let dir = arbiter_core::testing::test_dir("arena-prune");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        let results = [SouthWins, Draw, NorthWins, SouthWins, SouthWins, Draw];
        let bots = ["h1", "h2", "h3", "r/2", "r"];
        let mut pair = 0;
        for (i, r) in results.iter().cycle().take(60).enumerate() {
            let (a, b) = (bots[i % 5], bots[(i / 5 + i + 1) % 5]);
            if a == b {
                continue;
            }
            play(&mut conn, a, b, pair, 1, *r);
            play(&mut conn, b, a, pair, 2, results[(i + 2) % 6]);
            pair += 1;
        }
        let before = ratings(&conn);
        assert!(before.len() == 5, "{before:?}");
        // Only the house bots' games first, then everything.
        let house: BTreeSet<String> = ["h1", "h2", "h3"].map(String::from).into();
        let far = "2999-01-01T00:00:00Z";
        let gone = prune(&mut conn, far, Some(&house)).unwrap();
        assert!(gone.finished > 0 && gone.aborted == 0, "{gone:?}");
        let left = store::scored(&conn, "p").unwrap();
        let is_house = |p: &str| house.contains(crate::versions::bot_of(p));
        assert!(left
            .iter()
            .all(|(_, s, n, _)| !(is_house(s) && is_house(n))));
        assert!(!left.is_empty());
        assert_eq!(ratings(&conn), before);
        let rest = prune(&mut conn, far, None).unwrap();
        assert_eq!(rest.finished as usize, left.len());
        assert!(store::scored(&conn, "p").unwrap().is_empty());
        assert_eq!(ratings(&conn), before);
        compact(&conn).unwrap();
        assert_eq!(ratings(&conn), before);
        // And the results go on adding up after it.
        play(&mut conn, "h1", "r", pair, 1, SouthWins);
        let (tally, _) = store::tally(&conn, "p").unwrap();
        assert_eq!(tally.games(), 2 * pair + 1);
    }

    #[test]
    fn before_is_a_date_or_a_time() {
        assert_eq!(parse_before("2026-12-01").unwrap(), "2026-12-01T00:00:00Z");
        assert_eq!(
            parse_before("2026-12-01T18:00:00+01:00").unwrap(),
            "2026-12-01T18:00:00+01:00"
        );
        for bad in ["yesterday", "2026-13-01", "", "2026-12-01 18:00"] {
            let e = parse_before(bad).unwrap_err().to_string();
            assert!(e.contains("--before") && e.contains("RFC 3339"), "{e}");
        }
    }

    #[test]
    fn a_pair_is_pruned_whole_and_recent_or_event_games_stay() {
        let dir = arbiter_core::testing::test_dir("arena-prune-pairs");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        play(&mut conn, "a", "b", 0, 1, GameResult::Draw);
        play(&mut conn, "b", "a", 0, 2, GameResult::Draw);
        play(&mut conn, "a", "b", 1, 1, GameResult::Draw);
        // Pair 1's leg 2 is still being played: pair 1 stays whole.
        store::begin(
            &conn,
            &NewGame {
                pool: "p",
                south: "b",
                north: "a",
                pair: 1,
                leg: 2,
                event: None,
            },
        )
        .unwrap();
        let aborted = store::begin(
            &conn,
            &NewGame {
                pool: "p",
                south: "a",
                north: "b",
                pair: 2,
                leg: 1,
                event: None,
            },
        )
        .unwrap();
        store::abort(&conn, aborted).unwrap();
        // Started before a time long past: nothing goes.
        assert_eq!(
            prune(&mut conn, "2000-01-01T00:00:00Z", None).unwrap(),
            Pruned::default()
        );
        let gone = prune(&mut conn, "2999-01-01T00:00:00Z", None).unwrap();
        assert_eq!(
            gone,
            Pruned {
                finished: 2,
                aborted: 1
            }
        );
        assert_eq!(store::legs(&conn, "p").unwrap().len(), 2, "pair 1 kept");
        assert_eq!(store::counts(&conn, "p").unwrap(), (1, 1, 0));
    }
}
