//! Reading a results log back: for `--resume` (which games of the schedule
//! are finished) and for `arbiter merge`.
//!
//! A results log is JSON lines, appended and fsynced one game at a time. A
//! process killed in the middle of a write can leave an incomplete last
//! line; it is ignored with a warning (its game was not finished as far as
//! the log is concerned, so it is played again) and, when resuming, cut off
//! the file before anything is appended. Any other unreadable line is an
//! error: the log is then not what the arbiter wrote, and guessing would
//! risk losing or replaying games.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::event::schedule::SlotKey;
use crate::event::slots::{self, SlotError};
use crate::records::jsonl;
use crate::records::log::GameLog;

/// A results log as read.
#[derive(Clone, Debug, Default)]
pub struct ResultsLog {
    /// The games, in file order.
    pub games: Vec<GameLog>,
    /// What was tolerated (an incomplete last line), for the user.
    pub warnings: Vec<String>,
}

/// A results log that cannot be used.
#[derive(Debug)]
pub enum ResumeError {
    Io {
        path: PathBuf,
        error: io::Error,
    },
    /// A complete line that is not a game log.
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// Games of another event (or of no tournament) in the log.
    ForeignGame {
        path: PathBuf,
        line: usize,
        found: String,
        expected: String,
    },
    /// `--resume` not given but the log already holds games.
    NotEmpty {
        path: PathBuf,
        games: usize,
    },
    /// Slot tags that do not stand up (a duplicated or forged slot).
    Slots {
        path: PathBuf,
        error: SlotError,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            ResumeError::BadLine {
                path,
                line,
                message,
            } => write!(
                f,
                "{}: line {line} is not a game log ({message}); refusing to guess \
                 which games are finished",
                path.display()
            ),
            ResumeError::ForeignGame {
                path,
                line,
                found,
                expected,
            } => write!(
                f,
                "{}: line {line} is a game of {found}, not of this tournament ({expected}); \
                 give the same arguments as the run that wrote the log, or another --jsonout",
                path.display()
            ),
            ResumeError::Slots { path, error } => write!(
                f,
                "{}: {error}; refusing to guess which games are finished",
                path.display()
            ),
            ResumeError::NotEmpty { path, games } => write!(
                f,
                "{} already holds {games} game(s): add --resume to continue that \
                 tournament, or choose another --jsonout",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// Reads a JSON-lines results log; a missing file is an empty log. With
/// `repair`, an incomplete last line is cut off the file (and a complete
/// last line without its newline gets one), so that appending is safe.
pub fn read(path: &Path, repair: bool) -> Result<ResultsLog, ResumeError> {
    let io_err = |error| ResumeError::Io {
        path: path.to_path_buf(),
        error,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(ResultsLog::default()),
        Err(e) => return Err(io_err(e)),
    };
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut log = ResultsLog::default();
    for (i, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        let bad = |message: String| ResumeError::BadLine {
            path: path.to_path_buf(),
            line: i + 1,
            message,
        };
        let text = std::str::from_utf8(line).map_err(|e| bad(e.to_string()))?;
        if text.trim().is_empty() {
            continue;
        }
        log.games
            .push(jsonl::parse_line(text).map_err(|e| bad(e.to_string()))?);
    }
    let tail = &bytes[complete..];
    if tail.iter().all(u8::is_ascii_whitespace) {
        return Ok(log);
    }
    let line = bytes[..complete].iter().filter(|&&b| b == b'\n').count() + 1;
    match std::str::from_utf8(tail).ok().map(jsonl::parse_line) {
        Some(Ok(game)) => {
            // A whole game whose newline did not make it: keep it.
            log.games.push(game);
            if repair {
                let mut f = OpenOptions::new().append(true).open(path).map_err(io_err)?;
                f.write_all(b"\n").map_err(io_err)?;
                f.sync_data().map_err(io_err)?;
            }
        }
        _ => {
            log.warnings.push(format!(
                "{}: ignored an incomplete last line (line {line}, {} bytes; the arbiter was \
                 probably killed while writing it){}",
                path.display(),
                tail.len(),
                if repair {
                    "; removed it, its game will be played again"
                } else {
                    ""
                }
            ));
            if repair {
                let f = OpenOptions::new().write(true).open(path).map_err(io_err)?;
                f.set_len(complete as u64).map_err(io_err)?;
                f.sync_data().map_err(io_err)?;
            }
        }
    }
    Ok(log)
}

/// The finished games of schedule `schedule` (of `size` slots) in `log`, by
/// slot. Games of another schedule (or without a slot) are an error, and so
/// are slot tags that do not stand up ([`slots::check`]: a slot outside the
/// schedule such as `500/96`, two finished games in one slot); an unfinished
/// game (`*`) does not count.
pub fn finished_slots(
    path: &Path,
    log: &ResultsLog,
    schedule: &str,
    size: usize,
    event: &str,
) -> Result<BTreeMap<usize, GameLog>, ResumeError> {
    let slots_error = |error| ResumeError::Slots {
        path: path.to_path_buf(),
        error,
    };
    slots::check(&log.games).map_err(slots_error)?;
    let mut done = BTreeMap::new();
    for (i, game) in log.games.iter().enumerate() {
        let key = SlotKey::of(game);
        let Some(key) = key.filter(|k| k.schedule == schedule) else {
            let found = match SlotKey::of(game) {
                Some(k) => format!("event {:?} (schedule {})", game.event, k.schedule),
                None => format!("event {:?} (not written by arbiter tournament)", game.event),
            };
            return Err(ResumeError::ForeignGame {
                path: path.to_path_buf(),
                line: i + 1,
                found,
                expected: format!("event {event:?}, schedule {schedule}"),
            });
        };
        if key.size != size {
            return Err(slots_error(SlotError::SizeMismatch {
                game: i + 1,
                size: key.size,
                first: size,
            }));
        }
        if game.result.is_some() {
            done.insert(key.index, game.clone());
        }
    }
    Ok(done)
}

/// Rewrites `path` (through a temporary file and a rename) with `games`.
pub fn rewrite(
    path: &Path,
    games: &[GameLog],
    render: impl Fn(&GameLog) -> String,
) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    {
        let mut f = std::fs::File::create(&tmp)?;
        for g in games {
            f.write_all(render(g).as_bytes())?;
        }
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::log::tests::{illegal_log, rules_log};

    fn tmp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn an_incomplete_last_line_is_cut_off() {
        let path = tmp("cut.jsonl");
        let a = jsonl::to_line(&rules_log());
        let b = jsonl::to_line(&illegal_log());
        let text = format!("{a}\n{b}\n{}", &a[..a.len() / 2]);
        std::fs::write(&path, &text).unwrap();
        let read_only = read(&path, false).unwrap();
        assert_eq!(read_only.games, vec![rules_log(), illegal_log()]);
        assert_eq!(read_only.warnings.len(), 1);
        assert!(
            read_only.warnings[0].contains("line 3"),
            "{:?}",
            read_only.warnings
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "untouched");
        let repaired = read(&path, true).unwrap();
        assert_eq!(repaired.games.len(), 2);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{a}\n{b}\n")
        );
        let again = read(&path, true).unwrap();
        assert!(again.warnings.is_empty());
    }

    #[test]
    fn a_whole_last_line_without_newline_is_kept() {
        let path = tmp("nonl.jsonl");
        let a = jsonl::to_line(&rules_log());
        std::fs::write(&path, &a).unwrap();
        let log = read(&path, true).unwrap();
        assert_eq!(log.games, vec![rules_log()]);
        assert!(log.warnings.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{a}\n"));
    }

    #[test]
    fn a_bad_line_in_the_middle_is_an_error() {
        let path = tmp("bad.jsonl");
        let a = jsonl::to_line(&rules_log());
        std::fs::write(&path, format!("{a}\n{{\"event\": 1}}\n{a}\n")).unwrap();
        let e = read(&path, true).unwrap_err();
        assert!(e.to_string().contains("line 2 is not a game log"), "{e}");
        assert!(read(&tmp("missing.jsonl"), true).unwrap().games.is_empty());
    }

    #[test]
    fn foreign_games_are_refused() {
        let log = ResultsLog {
            games: vec![rules_log()],
            warnings: Vec::new(),
        };
        let e = finished_slots(Path::new("r.jsonl"), &log, "abc", 2, "E").unwrap_err();
        assert!(
            e.to_string().contains("not written by arbiter tournament"),
            "{e}"
        );
    }
}
