//! The output room: game logs appended as games finish (PGN-like text and
//! JSON lines, each write flushed and fsynced so that a finished game is
//! never lost), per-game progress lines and the final summary.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::records::log::GameLog;
use crate::records::{jsonl, pgn};

/// Where finished games are appended.
#[derive(Default)]
pub struct LogSink {
    pgn: Option<(PathBuf, File)>,
    jsonl: Option<(PathBuf, File)>,
}

fn open_append(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    OpenOptions::new().create(true).append(true).open(path)
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
        })
    }

    /// Appends one game to every log and forces it to disk.
    pub fn append(&mut self, log: &GameLog) -> io::Result<()> {
        if let Some((_, f)) = &mut self.pgn {
            f.write_all(pgn::write_game(log).as_bytes())?;
            f.write_all(b"\n")?;
            f.sync_data()?;
        }
        if let Some((_, f)) = &mut self.jsonl {
            jsonl::write_line(f, log)?;
            f.sync_data()?;
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
