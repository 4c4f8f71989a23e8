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
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "another arbiter is writing to it (the file is locked); wait for that run to \
             end, or choose another file",
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(io::Error::new(e.kind(), format!("cannot lock it: {e}")))
        }
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
