//! Admission in the database: whether a version of a bot passed the checks
//! of [`arbiter_core::play::admission_checks`] over its connection before it was
//! first paired, which failed, and when. A version that passed is never
//! checked again; one that failed may try again once the retry time has
//! passed since the failure (each new connection then runs the checks).

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::db::DbError;
use arbiter_core::play::admission_checks::Verdict;

/// A version's admission as recorded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Admission {
    pub passed: bool,
    /// The checks that failed (empty when passed).
    pub failed: Vec<String>,
    /// Every failure with its reason (empty when passed).
    pub detail: String,
    /// When (UTC, RFC 3339).
    pub at: String,
    /// Seconds since then (for the retry's back-off).
    #[serde(skip)]
    pub age_secs: f64,
}

/// The admission of version `n` of `bot`, if it was checked.
pub fn status(conn: &Connection, bot: &str, n: u32) -> Result<Option<Admission>, DbError> {
    Ok(conn
        .query_row(
            "SELECT passed, failed, detail, at, (julianday('now') - julianday(at)) * 86400.0 \
             FROM admissions WHERE bot = ?1 AND version = ?2",
            params![bot, n],
            |r| {
                let failed: String = r.get(1)?;
                Ok(Admission {
                    passed: r.get::<_, i64>(0)? == 1,
                    failed: serde_json::from_str(&failed).unwrap_or_default(),
                    detail: r.get(2)?,
                    at: r.get(3)?,
                    age_secs: r.get::<_, Option<f64>>(4)?.unwrap_or(0.0),
                })
            },
        )
        .optional()?)
}

/// Records the checks' verdict for version `n` of `bot` (replacing an
/// earlier failure).
pub fn record(conn: &Connection, bot: &str, n: u32, verdict: &Verdict) -> Result<(), DbError> {
    let failed = serde_json::to_string(&verdict.failed()).unwrap_or_else(|_| "[]".into());
    let detail = if verdict.passed() {
        String::new()
    } else {
        verdict.summary()
    };
    conn.execute(
        "INSERT INTO admissions (bot, version, passed, failed, detail, at) \
         VALUES (?1, ?2, ?3, ?4, ?5, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) \
         ON CONFLICT (bot, version) DO UPDATE SET passed = excluded.passed, \
         failed = excluded.failed, detail = excluded.detail, at = excluded.at",
        params![bot, n, verdict.passed(), failed, detail],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::contender::check::CheckLine;

    fn verdict(fail: Option<&str>) -> Verdict {
        let mut lines = vec![CheckLine {
            name: "handshake".into(),
            outcome: Ok(String::new()),
        }];
        if let Some(name) = fail {
            lines.push(CheckLine {
                name: name.into(),
                outcome: Err("no bestmove".into()),
            });
        }
        Verdict { lines }
    }

    #[test]
    fn a_failure_is_kept_with_its_checks_and_a_later_pass_replaces_it() {
        let dir = arbiter_core::testing::test_dir("arena-admission");
        let conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        assert_eq!(status(&conn, "a", 1).unwrap(), None);
        record(&conn, "a", 1, &verdict(Some("stop"))).unwrap();
        let s = status(&conn, "a", 1).unwrap().unwrap();
        assert!(!s.passed);
        assert_eq!(s.failed, ["stop"]);
        assert!(s.detail.contains("FAIL stop: no bestmove"), "{}", s.detail);
        assert!(s.age_secs >= 0.0 && s.age_secs < 3600.0, "{}", s.age_secs);
        record(&conn, "a", 1, &verdict(None)).unwrap();
        let s = status(&conn, "a", 1).unwrap().unwrap();
        assert!(s.passed && s.failed.is_empty() && s.detail.is_empty());
        // Another version is another admission.
        assert_eq!(status(&conn, "a", 2).unwrap(), None);
    }
}
