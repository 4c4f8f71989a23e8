//! Anchors: bots whose rating is held at a given value in every pool they
//! play in, everyone else's fitted around them, so that the ladder's
//! numbers keep one meaning all term (docs/arena.md, "Ratings"). Set by
//! `arbiter arena bot anchor NAME RATING` or `arena run --house "…
//! anchor=R"`, removed by `arena bot unanchor NAME`; the fit is
//! [`arbiter_core::stats::rating::fit_anchored`] (through
//! [`crate::ratings`]). The server reads them at each recomputation, so a
//! change made while it runs applies from the next one.

use std::collections::BTreeMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::db::DbError;

/// The largest anchor rating, either side of 0 (the table's CHECK too).
pub const MAX_RATING: f64 = 5000.0;

/// Anchors by bot name.
pub type Anchors = BTreeMap<String, f64>;

/// Reads an anchor's rating: a finite number from −[`MAX_RATING`] to
/// [`MAX_RATING`].
pub fn parse_rating(text: &str) -> Result<f64, RatingError> {
    let refused = || RatingError::Text(text.to_owned());
    let r: f64 = text.trim().parse().map_err(|_| refused())?;
    check_rating(r).map_err(|_| refused())
}

/// Why an anchor's rating is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// A rating as written ([`parse_rating`]): not a number, or out of range.
    #[error("anchor rating {0:?}: expected a rating from -{max} to {max}", max = MAX_RATING)]
    Text(String),
    /// A rating given as a number, out of range.
    #[error("expected a rating from -{max} to {max}", max = MAX_RATING)]
    Range,
}

fn check_rating(r: f64) -> Result<f64, RatingError> {
    if r.is_finite() && r.abs() <= MAX_RATING {
        Ok(r)
    } else {
        Err(RatingError::Range)
    }
}

/// Holds bot `name`'s rating at `rating` (replacing the anchor it had).
/// Refused for a bot that does not exist or is revoked; a bot without a
/// game yet is fine (it is held once it plays).
pub fn set(conn: &Connection, name: &str, rating: f64) -> Result<(), DbError> {
    check_rating(rating).map_err(|e| DbError::Refused(format!("anchor of {name}: {e}")))?;
    let revoked: Option<Option<String>> = conn
        .query_row(
            "SELECT revoked FROM bots WHERE name = ?1",
            params![name],
            |r| r.get(0),
        )
        .optional()?;
    match revoked {
        None => return Err(DbError::Refused(format!("no bot named {name:?}"))),
        Some(Some(when)) => {
            return Err(DbError::Refused(format!(
                "bot {name:?} is revoked (since {when}): a revoked bot plays no more, \
                 so it cannot become an anchor"
            )))
        }
        Some(None) => {}
    }
    conn.execute(
        "INSERT INTO anchors (bot, rating, set_at) \
         VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) \
         ON CONFLICT (bot) DO UPDATE SET rating = excluded.rating, set_at = excluded.set_at",
        params![name, rating],
    )?;
    Ok(())
}

/// Removes bot `name`'s anchor: its rating is fitted like anyone's again.
pub fn clear(conn: &Connection, name: &str) -> Result<(), DbError> {
    let removed = conn.execute("DELETE FROM anchors WHERE bot = ?1", params![name])?;
    if removed == 0 {
        let known: Option<i64> = conn
            .query_row("SELECT id FROM bots WHERE name = ?1", params![name], |r| {
                r.get(0)
            })
            .optional()?;
        return Err(DbError::Refused(match known {
            Some(_) => format!("bot {name:?} is no anchor"),
            None => format!("no bot named {name:?}"),
        }));
    }
    Ok(())
}

/// Every anchor. (A revoked bot's anchor stays: its games still count.)
pub fn all(conn: &Connection) -> Result<Anchors, DbError> {
    let mut stmt = conn.prepare("SELECT bot, rating FROM anchors ORDER BY bot")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every anchor as the fit takes it: held on the bot's newest version
/// (a new build is another strength), keyed by that player's key
/// ([`crate::versions::player`]).
pub fn for_players(conn: &Connection) -> Result<Anchors, DbError> {
    let mut stmt = conn.prepare(
        "SELECT a.bot, a.rating, (SELECT max(n) FROM versions v WHERE v.bot = a.bot) \
         FROM anchors a ORDER BY a.bot",
    )?;
    let rows = stmt.query_map([], |r| {
        let bot: String = r.get(0)?;
        let n: Option<u32> = r.get(2)?;
        Ok((crate::versions::player(&bot, n.unwrap_or(1)), r.get(1)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(name: &str) -> Connection {
        crate::db::open(&arbiter_core::testing::test_dir(name).join("a.sqlite")).unwrap()
    }

    #[test]
    fn an_anchor_is_set_replaced_listed_and_removed() {
        let conn = db("arena-anchors");
        crate::bots::add(&conn, "ref").unwrap();
        crate::bots::add(&conn, "other").unwrap();
        assert_eq!(all(&conn).unwrap(), Anchors::new());
        set(&conn, "ref", 1500.0).unwrap();
        set(&conn, "other", -1200.5).unwrap();
        set(&conn, "ref", 1600.0).unwrap();
        let want: Anchors = [("other".to_owned(), -1200.5), ("ref".to_owned(), 1600.0)].into();
        assert_eq!(all(&conn).unwrap(), want);
        clear(&conn, "other").unwrap();
        assert_eq!(all(&conn).unwrap(), [("ref".to_owned(), 1600.0)].into());
        let e = clear(&conn, "other").unwrap_err().to_string();
        assert!(e.contains("is no anchor"), "{e}");
        let e = clear(&conn, "nobody").unwrap_err().to_string();
        assert!(e.contains("no bot named \"nobody\""), "{e}");
    }

    #[test]
    fn an_unknown_or_revoked_bot_or_a_wild_rating_is_refused() {
        let conn = db("arena-anchors-refused");
        crate::bots::add(&conn, "gone").unwrap();
        crate::bots::revoke(&conn, "gone").unwrap();
        crate::bots::add(&conn, "ref").unwrap();
        let e = set(&conn, "nobody", 0.0).unwrap_err().to_string();
        assert!(e.contains("no bot named \"nobody\""), "{e}");
        let e = set(&conn, "gone", 0.0).unwrap_err().to_string();
        assert!(e.contains("is revoked"), "{e}");
        for bad in [f64::NAN, f64::INFINITY, 5000.5, -7000.0] {
            let e = set(&conn, "ref", bad).unwrap_err().to_string();
            assert!(e.contains("from -5000 to 5000"), "{bad}: {e}");
        }
        assert_eq!(all(&conn).unwrap(), Anchors::new(), "nothing written");
        // The table refuses what the check would, whoever writes.
        assert!(conn
            .execute(
                "INSERT INTO anchors (bot, rating, set_at) VALUES ('ref', 9999, 'now')",
                []
            )
            .is_err());
    }

    #[test]
    fn ratings_are_read_as_finite_numbers_in_range() {
        assert_eq!(parse_rating("1500"), Ok(1500.0));
        assert_eq!(parse_rating(" -250.5 "), Ok(-250.5));
        assert_eq!(parse_rating("5000"), Ok(5000.0));
        for bad in ["", "abc", "nan", "inf", "-inf", "5000.1", "1e9", "1500elo"] {
            let e = parse_rating(bad).unwrap_err().to_string();
            assert!(
                e.contains(&format!("{bad:?}")) && e.contains("-5000"),
                "{bad}: {e}"
            );
        }
    }
}
