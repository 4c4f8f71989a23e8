//! The arena's database: one SQLite file (rusqlite, SQLite compiled in),
//! its schema brought up to date by the migrations in `migrations/`, and
//! the server's lock.
//!
//! - Migrations are SQL files applied in order, each in its own
//!   transaction; the number applied is `PRAGMA user_version`. A database
//!   of a newer arbiter (a higher version than this one knows) is refused.
//! - One writer: a server holds an exclusive `flock(2)` on `<db>.lock` for
//!   as long as it runs ([`ServerLock`]); a second server on the same
//!   database refuses at start. The admin commands (`bot add`, `export`)
//!   take no such lock: each is one short transaction, and SQLite's own
//!   locking (with a busy timeout) orders them with the server's writes.
//! - WAL journal: the pages read while the server writes.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

/// The schema's migrations, in order; migration `i` brings the database
/// from version `i` to `i + 1`.
const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("migrations/0001_init.sql")),
    (
        "0002_versions",
        include_str!("migrations/0002_versions.sql"),
    ),
    ("0003_anchors", include_str!("migrations/0003_anchors.sql")),
    ("0004_scale", include_str!("migrations/0004_scale.sql")),
    ("0005_events", include_str!("migrations/0005_events.sql")),
    (
        "0006_kgp_random",
        include_str!("migrations/0006_kgp_random.sql"),
    ),
    ("0007_pruned", include_str!("migrations/0007_pruned.sql")),
];

/// How long a statement waits for another connection's write to end.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A database error, with what was being done.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite refused a statement.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// SQLite failed at a step named: opening the file, a migration.
    #[error("{what}: {source}")]
    At {
        what: String,
        source: rusqlite::Error,
    },
    /// A file beside the database (its lock) could not be used.
    #[error("{what}: {source}")]
    File {
        what: String,
        source: std::io::Error,
    },
    /// The database at `path` failed so.
    #[error("{path}: {source}")]
    In { path: String, source: Box<DbError> },
    /// What the arena refuses or cannot do, in its words: no such bot, an
    /// event not waiting to start, a stored game that does not read.
    #[error("{0}")]
    Refused(String),
}

/// The schema version this arbiter writes.
pub fn schema_version() -> u32 {
    MIGRATIONS.len() as u32
}

/// Opens (creating if need be) the database at `path` and migrates it.
pub fn open(path: &Path) -> Result<Connection, DbError> {
    folder_exists(path)?;
    let conn = Connection::open(path).map_err(|source| DbError::At {
        what: format!("cannot open the database {}", path.display()),
        source,
    })?;
    configure(&conn)?;
    migrate(&conn).map_err(|e| DbError::In {
        path: path.display().to_string(),
        source: Box::new(e),
    })?;
    Ok(conn)
}

/// Opens an existing database for reading and writing, never creating one
/// (the admin commands and the export: a typo in `--db` must not leave an
/// empty database behind).
pub fn open_existing(path: &Path) -> Result<Connection, DbError> {
    if !path.is_file() {
        return Err(DbError::Refused(format!(
            "no arena database at {} (`arbiter arena bot add` or `arena run` creates one)",
            path.display()
        )));
    }
    open(path)
}

/// The folder `path` is to be in must be there: SQLite (and the lock)
/// would only say "unable to open database file" without naming it.
fn folder_exists(path: &Path) -> Result<(), DbError> {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(DbError::Refused(format!(
                "cannot create the database {}: there is no folder {} (create it first, or \
                 give --db a path in an existing folder)",
                path.display(),
                folder.display()
            )))
        }
        _ => Ok(()),
    }
}

fn configure(conn: &Connection) -> Result<(), DbError> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // why WAL: readers (the pages, an export) never block the writer.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// Applies the migrations the database has not had, in order.
pub fn migrate(conn: &Connection) -> Result<u32, DbError> {
    let have: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let known = schema_version();
    if have > known {
        return Err(DbError::Refused(format!(
            "the database has schema version {have}, this arbiter knows up to {known}: \
             it was written by a newer arbiter"
        )));
    }
    for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(have as usize) {
        let version = i as u32 + 1;
        // why one batch with the version inside: a migration and its
        // version number land together or not at all.
        let batch = format!("BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;");
        if let Err(e) = conn.execute_batch(&batch) {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(DbError::At {
                what: format!("migration {name}"),
                source: e,
            });
        }
        tracing::info!("database migrated to schema version {version} ({name})");
    }
    Ok(known)
}

/// The one-writer lock of a running server (released when dropped, or by
/// the kernel when the process dies, `kill -9` included).
#[derive(Debug)]
pub struct ServerLock {
    _file: File,
    pub path: PathBuf,
}

/// The lock file of the database at `db`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl ServerLock {
    /// Takes the lock of the database at `db`, or says that another server
    /// holds it.
    pub fn take(db: &Path) -> Result<ServerLock, DbError> {
        folder_exists(db)?;
        let path = lock_path(db);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| DbError::File {
                what: format!("cannot open the lock file {}", path.display()),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(ServerLock { _file: file, path }),
            Err(std::fs::TryLockError::WouldBlock) => Err(DbError::Refused(format!(
                "another arena server is running on {} (its lock {} is held); \
                 one database has one server",
                db.display(),
                path.display()
            ))),
            Err(std::fs::TryLockError::Error(source)) => Err(DbError::File {
                what: format!("cannot lock {}", path.display()),
                source,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_once_and_record_the_version() {
        let dir = arbiter_core::testing::test_dir("arena-db");
        let path = dir.join("a.sqlite");
        let conn = open(&path).expect("opens");
        let v: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, schema_version());
        conn.execute(
            "INSERT INTO bots (name, token_hash, created) VALUES ('a', x'00', 'now')",
            [],
        )
        .unwrap();
        drop(conn);
        // Opening again applies nothing (the table and its row are still there).
        let conn = open(&path).expect("reopens");
        let n: u32 = conn
            .query_row("SELECT count(*) FROM bots", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
    }

    #[test]
    fn a_database_of_a_newer_arbiter_is_refused() {
        let dir = arbiter_core::testing::test_dir("arena-db-newer");
        let path = dir.join("a.sqlite");
        let conn = open(&path).unwrap();
        conn.pragma_update(None, "user_version", schema_version() + 1)
            .unwrap();
        drop(conn);
        let e = open(&path).unwrap_err().to_string();
        assert!(e.contains("newer arbiter"), "{e}");
    }

    #[test]
    fn a_second_server_lock_is_refused_until_the_first_is_gone() {
        let dir = arbiter_core::testing::test_dir("arena-db-lock");
        let path = dir.join("a.sqlite");
        let first = ServerLock::take(&path).expect("first");
        let e = ServerLock::take(&path).unwrap_err().to_string();
        assert!(e.contains("another arena server is running"), "{e}");
        drop(first);
        ServerLock::take(&path).expect("free again");
    }

    #[test]
    fn a_database_in_a_missing_folder_is_refused_naming_the_folder() {
        let dir = arbiter_core::testing::test_dir("arena-db-no-folder");
        let path = dir.join("nowhere").join("a.sqlite");
        for e in [
            open(&path).unwrap_err().to_string(),
            ServerLock::take(&path).unwrap_err().to_string(),
        ] {
            assert!(
                e.contains("there is no folder")
                    && e.contains(&format!("{}", dir.join("nowhere").display())),
                "{e}"
            );
        }
        assert!(!dir.join("nowhere").exists());
    }

    #[test]
    fn admin_commands_never_create_a_database() {
        let dir = arbiter_core::testing::test_dir("arena-db-missing");
        let e = open_existing(&dir.join("typo.sqlite"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no arena database"), "{e}");
        assert!(!dir.join("typo.sqlite").exists());
    }
}
