//! The output room: game logs appended as games finish (PGN-like text and
//! JSON lines, each write flushed and fsynced so that a finished game is
//! never lost), per-game progress lines and the final summary.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::records::log::GameLog;
use crate::records::{jsonl, pgn};

/// Where finished games are appended.
///
/// After a failed write the sink is broken: it writes nothing more and every
/// later [`LogSink::append`] fails at once. A torn write can then only be the
/// last bytes of a file, which `--resume` recognises and cuts off; appending
/// after it (once space returns) would bury it mid-file.
#[derive(Default)]
pub struct LogSink {
    pgn: Option<(PathBuf, File)>,
    jsonl: Option<(PathBuf, File)>,
    /// The first failed write, once there was one.
    broken: Option<String>,
}

/// Opens `path` for appending (created if missing) and takes an exclusive
/// lock on it for as long as the file stays open: two arbiters must never
/// write one log (both would play every game). The lock is `flock(2)`
/// (std's `File::try_lock`): advisory, released by the kernel when the
/// process dies, however it dies.
fn open_append(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    lock(&file)?;
    // why: a log replaced by its owner ([`LogSink::replace_jsonl`]) between
    // our open and our lock leaves us holding the lock of a file that is no
    // longer the log; its owner holds the one that is.
    if !is_at(&file, path) {
        return Err(locked_by_another());
    }
    Ok(file)
}

fn lock(file: &File) -> io::Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(locked_by_another()),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(io::Error::new(e.kind(), format!("cannot lock it: {e}")))
        }
    }
}

fn locked_by_another() -> io::Error {
    io::Error::new(
        io::ErrorKind::WouldBlock,
        "another arbiter is writing to it (the file is locked); wait for that run to end, \
         or choose another file",
    )
}

/// Whether `file` is the file `path` names now (same device and inode).
fn is_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

impl LogSink {
    /// Opens (appending to) the given files.
    pub fn open(pgn: Option<&Path>, jsonl: Option<&Path>) -> io::Result<LogSink> {
        let open = |p: Option<&Path>| -> io::Result<Option<(PathBuf, File)>> {
            p.map(|p| {
                open_append(p).map(|f| (p.to_path_buf(), f)).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot open {}: {e}", p.display()))
                })
            })
            .transpose()
        };
        Ok(LogSink {
            pgn: open(pgn)?,
            jsonl: open(jsonl)?,
            broken: None,
        })
    }

    /// Replaces the PGN log's contents with `text` (for `--resume`, which
    /// rebuilds the PGN from the JSON-lines record), keeping the file and its
    /// lock. A kill in the middle leaves a short PGN, rebuilt by the next
    /// `--resume`: the JSON-lines log is the record.
    pub fn replace_pgn(&mut self, text: &str) -> io::Result<()> {
        if let Some((path, f)) = &mut self.pgn {
            let context = |e: io::Error| {
                io::Error::new(e.kind(), format!("rewriting {}: {e}", path.display()))
            };
            f.set_len(0).map_err(context)?;
            f.write_all(text.as_bytes()).map_err(context)?;
            f.sync_data().map_err(context)?;
        }
        Ok(())
    }

    /// Replaces the JSON-lines log's contents with `text` atomically (a
    /// temporary file beside it, locked, written, synced, then renamed over
    /// it), for extending a tournament's rounds. The lock is held throughout:
    /// the old file stays locked until the new one, already locked, has
    /// taken its name, so no second arbiter can take the log in between.
    pub fn replace_jsonl(&mut self, text: &str) -> io::Result<()> {
        let Some((path, old)) = &mut self.jsonl else {
            return Ok(());
        };
        let context =
            |e: io::Error| io::Error::new(e.kind(), format!("rewriting {}: {e}", path.display()));
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&tmp)
            .map_err(context)?;
        lock(&file).map_err(context)?;
        file.set_len(0).map_err(context)?;
        file.write_all(text.as_bytes()).map_err(context)?;
        file.sync_all().map_err(context)?;
        std::fs::rename(&tmp, &*path).map_err(context)?;
        // The old file (no longer named) and its lock go only now.
        *old = file;
        Ok(())
    }

    /// Appends one game to every log and forces it to disk. Fails without
    /// writing anything once an earlier append failed.
    pub fn append(&mut self, log: &GameLog) -> io::Result<()> {
        if let Some(first) = &self.broken {
            return Err(io::Error::other(format!(
                "not written: an earlier write failed ({first})"
            )));
        }
        let result = self.write(log);
        if let Err(e) = &result {
            self.broken = Some(e.to_string());
        }
        result
    }

    fn write(&mut self, log: &GameLog) -> io::Result<()> {
        let context = |path: &Path, e: io::Error| {
            io::Error::new(e.kind(), format!("writing {}: {e}", path.display()))
        };
        if let Some((path, f)) = &mut self.pgn {
            let mut text = pgn::write_game(log);
            text.push('\n');
            f.write_all(text.as_bytes())
                .and_then(|()| f.sync_data())
                .map_err(|e| context(path, e))?;
        }
        if let Some((path, f)) = &mut self.jsonl {
            jsonl::write_line(f, log)
                .and_then(|()| f.sync_data())
                .map_err(|e| context(path, e))?;
        }
        Ok(())
    }
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn pgn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil-from-days (Howard Hinnant's algorithm), to avoid a date crate for one line.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A fixed-width one-line description of a finished game.
pub fn game_line(n: usize, total: usize, log: &GameLog) -> String {
    format!(
        "Finished game {n}/{total} ({} vs {}): {} {{{}}}",
        log.south,
        log.north,
        log.result.map_or("*", |r| r.as_pgn()),
        log.termination
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::rules_log;

    fn refused(path: &Path) -> bool {
        matches!(LogSink::open(None, Some(path)), Err(e) if e.kind() == io::ErrorKind::WouldBlock)
    }

    #[test]
    fn the_log_stays_locked_while_it_is_replaced() {
        let dir = std::env::temp_dir().join(format!("arbiter-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        std::fs::write(&path, "old\n").unwrap();
        let mut sink = LogSink::open(None, Some(&path)).unwrap();
        assert!(refused(&path));
        // A second arbiter that opened the file just before the replacement
        // and takes its lock just after.
        let early = OpenOptions::new().append(true).open(&path).unwrap();
        sink.replace_jsonl("new\n").unwrap();
        assert!(refused(&path), "the new file is locked from the start");
        assert!(lock(&early).is_ok() && !is_at(&early, &path));
        // Appends go to the new file.
        sink.append(&rules_log()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("new\n{") && text.lines().count() == 2,
            "{text}"
        );
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
        drop(sink);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
