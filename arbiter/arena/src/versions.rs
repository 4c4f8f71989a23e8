//! Versions under one account. A bot's engine says who it is in its `id
//! name` line (a KGP bot in `set info:name`); the first name under a token
//! is version 1, and each new one starts the next version, with a rating of
//! its own (provisional until its games say otherwise). A name seen before
//! is that version again (a bot may go back to an older build).
//!
//! The arena plays, pairs and rates **players**: a version of a bot. A
//! player's key is the bot's name for version 1 and `name/N` for version N
//! (a bot name has no `/`, so the key is unambiguous): it is the name in the
//! games' records, the live view and the ratings' fit, so an exported log
//! rates as the ladder does. The ladder shows each bot's newest version.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::db::DbError;

/// The key of version `n` of `bot`.
pub fn player(bot: &str, n: u32) -> String {
    if n <= 1 {
        bot.to_owned()
    } else {
        format!("{bot}/{n}")
    }
}

/// The bot and version of a player's key.
pub fn split(player: &str) -> (&str, u32) {
    match player.rsplit_once('/') {
        Some((bot, n)) => match n.parse() {
            Ok(n) => (bot, n),
            Err(_) => (player, 1),
        },
        None => (player, 1),
    }
}

/// The bot of a player's key.
pub fn bot_of(player: &str) -> &str {
    split(player).0
}

/// One version of a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Version {
    /// 1, 2, …
    pub n: u32,
    /// The engine's `id name`; `None` for the games played before versions
    /// were kept.
    pub id_name: Option<String>,
    pub first_seen: String,
}

/// The longest `id name` kept (a longer one is cut there: it only labels).
pub const MAX_ID_NAME: usize = 200;

/// The version of `bot` whose engine says `id_name` (`None`: it sent no
/// `id name`; it counts as the empty name), recorded now if it is new.
pub fn resolve(conn: &Connection, bot: &str, id_name: Option<&str>) -> Result<u32, DbError> {
    let name: String = id_name.unwrap_or("").chars().take(MAX_ID_NAME).collect();
    let known: Option<u32> = conn
        .query_row(
            "SELECT n FROM versions WHERE bot = ?1 AND id_name = ?2",
            params![bot, name],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(n) = known {
        return Ok(n);
    }
    // why one statement: two connections of a new version arriving at once
    // must not number it twice (the unique index refuses the second insert,
    // which then reads the first's number).
    let inserted = conn.execute(
        "INSERT OR IGNORE INTO versions (bot, n, id_name, first_seen) \
         SELECT ?1, coalesce(max(n), 0) + 1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now') \
         FROM versions WHERE bot = ?1",
        params![bot, name],
    )?;
    if inserted == 1 {
        tracing::info!(%bot, id_name = %name, "a new version");
    }
    Ok(conn.query_row(
        "SELECT n FROM versions WHERE bot = ?1 AND id_name = ?2",
        params![bot, name],
        |r| r.get(0),
    )?)
}

/// The versions of `bot`, oldest first.
pub fn list(conn: &Connection, bot: &str) -> Result<Vec<Version>, DbError> {
    let mut stmt =
        conn.prepare("SELECT n, id_name, first_seen FROM versions WHERE bot = ?1 ORDER BY n")?;
    let rows = stmt.query_map(params![bot], |r| {
        Ok(Version {
            n: r.get(0)?,
            id_name: r.get(1)?,
            first_seen: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The newest version of each bot that has one: `(bot, n)`.
pub fn newest(conn: &Connection) -> Result<std::collections::BTreeMap<String, u32>, DbError> {
    let mut stmt = conn.prepare("SELECT bot, max(n) FROM versions GROUP BY bot")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_key_is_the_bot_for_version_1_and_names_the_version_after() {
        assert_eq!(player("alpha", 1), "alpha");
        assert_eq!(player("alpha", 3), "alpha/3");
        assert_eq!(split("alpha"), ("alpha", 1));
        assert_eq!(split("alpha/3"), ("alpha", 3));
        assert_eq!(split("a.b-c/12"), ("a.b-c", 12));
        // Not a version: the whole is the name (no bot name has a `/`).
        assert_eq!(split("x/y"), ("x/y", 1));
        for (bot, n) in [("a", 1), ("b", 2), ("c.d", 40)] {
            assert_eq!(split(&player(bot, n)), (bot, n));
        }
    }

    #[test]
    fn a_new_id_name_is_the_next_version_and_a_known_one_the_same() {
        let dir = arbiter_core::testing::test_dir("arena-versions");
        let conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        assert_eq!(resolve(&conn, "alpha", Some("Alpha 1.0")).unwrap(), 1);
        assert_eq!(resolve(&conn, "alpha", Some("Alpha 1.0")).unwrap(), 1);
        assert_eq!(resolve(&conn, "alpha", Some("Alpha 1.1")).unwrap(), 2);
        assert_eq!(resolve(&conn, "beta", None).unwrap(), 1);
        // Back to the old build: its version again.
        assert_eq!(resolve(&conn, "alpha", Some("Alpha 1.0")).unwrap(), 1);
        assert_eq!(resolve(&conn, "alpha", Some("Alpha 2")).unwrap(), 3);
        let names: Vec<Option<String>> = list(&conn, "alpha")
            .unwrap()
            .into_iter()
            .map(|v| v.id_name)
            .collect();
        assert_eq!(
            names,
            [Some("Alpha 1.0"), Some("Alpha 1.1"), Some("Alpha 2")].map(|s| s.map(str::to_owned))
        );
        let newest = newest(&conn).unwrap();
        assert_eq!(newest.get("alpha"), Some(&3));
        assert_eq!(newest.get("beta"), Some(&1));
    }

    #[test]
    fn a_database_with_games_before_versions_keeps_them_as_version_1() {
        let dir = arbiter_core::testing::test_dir("arena-versions-upgrade");
        let path = dir.join("a.sqlite");
        // A database of the first schema, with a game.
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(include_str!("migrations/0001_init.sql"))
                .unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute_batch(
                "INSERT INTO bots (name, token_hash, created) VALUES ('old', x'00', '2026-01-01'), \
                 ('idle', x'00', '2026-01-01'); \
                 INSERT INTO games (pool, south, north, pair, leg, opening, state, started) \
                 VALUES ('p', 'old', 'x', 0, 1, 0, 'aborted', '2026-01-02');",
            )
            .unwrap();
        }
        let conn = crate::db::open(&path).unwrap();
        let v = list(&conn, "old").unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!((v[0].n, v[0].id_name.as_deref()), (1, None));
        assert!(list(&conn, "idle").unwrap().is_empty());
        // Its first named engine is a new version: the old games stay v1's.
        assert_eq!(resolve(&conn, "old", Some("Old 2")).unwrap(), 2);
        assert_eq!(resolve(&conn, "idle", Some("Idle 1")).unwrap(), 1);
    }
}
