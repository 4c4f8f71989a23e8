//! The bots' accounts: a name and a token. The token is shown once, when
//! the bot is added; the database keeps only its SHA-256 (a token is 192
//! random bits, so a fast hash is enough: there is nothing to guess by
//! brute force, unlike a password). [`check_token`] is what the `/umi`
//! endpoint asks: it compares the presented token's hash with every bot's
//! in constant time (`subtle`), so neither a refusal's timing nor the
//! order of the bots says anything about a guess. It reads the database
//! each time: a token revoked by `arbiter arena bot revoke` (another
//! process) is refused from the next connection on.

use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::db::DbError;

/// Bytes of randomness in a token (shown as hex, twice as many characters).
const TOKEN_BYTES: usize = 24;
/// The longest bot name.
pub const MAX_NAME: usize = 40;

/// One bot as listed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Bot {
    pub name: String,
    pub created: String,
    pub revoked: Option<String>,
}

/// A bot name: 1 to [`MAX_NAME`] characters of letters, digits, `-`, `_`,
/// `.`, starting with a letter or digit (it appears in logs, PGN tags,
/// URLs and file names, so nothing there needs quoting).
pub fn check_name(name: &str) -> Result<(), NameError> {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(NameError::Length(name.to_owned()));
    }
    if !name.chars().all(ok_char) || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(NameError::Characters(name.to_owned()));
    }
    Ok(())
}

/// Why a bot name is refused ([`check_name`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("bot name {0:?}: expected 1 to {max} characters", max = MAX_NAME)]
    Length(String),
    #[error(
        "bot name {0:?}: letters, digits, '-', '_' and '.' only, starting with a letter or digit"
    )]
    Characters(String),
}

fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; TOKEN_BYTES];
    // why the thread rng: it is a CSPRNG (ChaCha) seeded from the OS.
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Adds a bot; returns its token (the only time it exists in clear).
pub fn add(conn: &Connection, name: &str) -> Result<String, DbError> {
    check_name(name).map_err(|e| DbError::Refused(e.to_string()))?;
    let token = new_token();
    let inserted = conn.execute(
        "INSERT INTO bots (name, token_hash, created) \
         VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) ON CONFLICT (name) DO NOTHING",
        params![name, hash(&token).as_slice()],
    )?;
    if inserted == 0 {
        return Err(DbError::Refused(format!(
            "a bot named {name:?} exists already (revoked bots keep their name and games)"
        )));
    }
    Ok(token)
}

/// Revokes a bot's token: it is refused from now on. Its games stay.
pub fn revoke(conn: &Connection, name: &str) -> Result<(), DbError> {
    let changed = conn.execute(
        "UPDATE bots SET revoked = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') \
         WHERE name = ?1 AND revoked IS NULL",
        params![name],
    )?;
    if changed == 0 {
        let exists: Option<i64> = conn
            .query_row("SELECT id FROM bots WHERE name = ?1", params![name], |r| {
                r.get(0)
            })
            .optional()?;
        return Err(DbError::Refused(match exists {
            Some(_) => format!("bot {name:?} is revoked already"),
            None => format!("no bot named {name:?}"),
        }));
    }
    Ok(())
}

/// Every bot, by name.
pub fn list(conn: &Connection) -> Result<Vec<Bot>, DbError> {
    let mut stmt = conn.prepare("SELECT name, created, revoked FROM bots ORDER BY name")?;
    let rows = stmt.query_map([], |r| {
        Ok(Bot {
            name: r.get(0)?,
            created: r.get(1)?,
            revoked: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether `name` is a bot whose token is not revoked.
pub fn is_active(conn: &Connection, name: &str) -> Result<bool, DbError> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM bots WHERE name = ?1 AND revoked IS NULL",
        params![name],
        |r| r.get(0),
    )?;
    Ok(n > 0)
}

/// The bot a token belongs to, if it is a bot's and not revoked.
pub fn check_token(conn: &Connection, token: &str) -> Result<Option<String>, DbError> {
    let presented = hash(token);
    let mut stmt = conn.prepare("SELECT name, token_hash FROM bots WHERE revoked IS NULL")?;
    let rows = stmt.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
    })?;
    let mut found = None;
    // why no early exit: every bot's hash is compared, whichever matches.
    for row in rows {
        let (name, stored) = row?;
        let equal: bool = stored.as_slice().ct_eq(presented.as_slice()).into();
        if equal && found.is_none() {
            found = Some(name);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(name: &str) -> Connection {
        crate::db::open(&arbiter_core::testing::test_dir(name).join("a.sqlite")).unwrap()
    }

    #[test]
    fn a_token_proves_its_bot_until_revoked() {
        let conn = db("arena-bots");
        let alpha = add(&conn, "alpha").unwrap();
        let beta = add(&conn, "beta").unwrap();
        assert_eq!(alpha.len(), 2 * TOKEN_BYTES);
        assert_ne!(alpha, beta);
        assert_eq!(
            check_token(&conn, &alpha).unwrap().as_deref(),
            Some("alpha")
        );
        assert_eq!(check_token(&conn, &beta).unwrap().as_deref(), Some("beta"));
        assert_eq!(check_token(&conn, "guess").unwrap(), None);
        assert_eq!(check_token(&conn, "").unwrap(), None);
        revoke(&conn, "alpha").unwrap();
        assert_eq!(check_token(&conn, &alpha).unwrap(), None);
        assert!(!is_active(&conn, "alpha").unwrap());
        assert!(is_active(&conn, "beta").unwrap());
        assert!(revoke(&conn, "alpha")
            .unwrap_err()
            .to_string()
            .contains("revoked already"));
        assert!(revoke(&conn, "gamma")
            .unwrap_err()
            .to_string()
            .contains("no bot named"));
    }

    #[test]
    fn the_token_is_not_stored() {
        let conn = db("arena-bots-hash");
        let token = add(&conn, "alpha").unwrap();
        let stored: Vec<u8> = conn
            .query_row("SELECT token_hash FROM bots", [], |r| r.get(0))
            .unwrap();
        assert_eq!(stored, hash(&token));
        assert!(!stored
            .windows(8)
            .any(|w| token.as_bytes().windows(8).any(|t| t == w)));
    }

    #[test]
    fn names_are_checked_and_unique() {
        let conn = db("arena-bots-names");
        add(&conn, "alpha").unwrap();
        assert!(add(&conn, "alpha")
            .unwrap_err()
            .to_string()
            .contains("exists already"));
        for bad in ["", "a b", "-x", "é", &"x".repeat(MAX_NAME + 1)] {
            assert!(add(&conn, bad).is_err(), "{bad:?}");
        }
        add(&conn, "ref-3.v2_x").unwrap();
        let names: Vec<String> = list(&conn).unwrap().into_iter().map(|b| b.name).collect();
        assert_eq!(names, ["alpha", "ref-3.v2_x"]);
    }
}
