//! Following results logs that other processes are still writing: the
//! shards of an event on a batch array, each appending one JSON line per
//! finished game to its own log (`--jsonout`), for `arbiter serve --watch`.
//!
//! The files are polled, not watched with inotify: the shards usually run on
//! other machines and write to a shared (network) filesystem, where inotify
//! sees nothing of writes made by another host. A poll costs one `open` and
//! `fstat` per file, and reads only what was appended since the last one.
//!
//! What a poll does with each file:
//! - not there yet: waits for it (a shard that has not started);
//! - grown: reads from the end of the last complete line read, parses each
//!   new complete line; a last line without its newline is a writer in the
//!   middle of an append and is left for a later poll;
//! - shorter than what was read, replaced by another file (another inode)
//!   or removed: stops following it with an error; what was read stays;
//! - a complete line that is not a game log: stops following it with an
//!   error naming the line (the games before it stay);
//! - any other I/O error: reported, and retried at the next poll (a network
//!   filesystem has its moments).
//!
//! A results log cut back by `arbiter tournament --resume` (which removes an
//! incomplete last line left by a killed shard) loses only bytes this reader
//! never consumed, so it is followed on.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;

use crate::records::jsonl;
use crate::records::log::GameLog;

/// Why a file is no longer followed, or could not be read this time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TailError {
    /// The file is shorter than what was already read from it.
    Shrank { path: PathBuf, read: u64, now: u64 },
    /// The path now names another file (it was replaced, e.g. rewritten).
    Replaced { path: PathBuf },
    /// The file was there and is gone.
    Removed { path: PathBuf },
    /// A complete line that is not a game log.
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// Reading failed (retried at the next poll).
    Io { path: PathBuf, message: String },
}

impl TailError {
    /// Whether the file is still followed after this error.
    pub fn retried(&self) -> bool {
        matches!(self, TailError::Io { .. })
    }
}

impl fmt::Display for TailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TailError::Shrank { path, read, now } => write!(
                f,
                "{}: the file shrank to {now} bytes after {read} bytes of it were read (truncated \
                 or rewritten); stopped following it, the games read before count",
                path.display()
            ),
            TailError::Replaced { path } => write!(
                f,
                "{}: the file was replaced by another one; stopped following it, the games read \
                 before count (restart the watch to read the new file)",
                path.display()
            ),
            TailError::Removed { path } => write!(
                f,
                "{}: the file was removed; stopped following it, the games read before count",
                path.display()
            ),
            TailError::BadLine {
                path,
                line,
                message,
            } => write!(
                f,
                "{}: line {line} is not a game log ({message}); stopped following the file, the \
                 games before it count (--watch follows JSON-lines results logs, as written by \
                 --jsonout)",
                path.display()
            ),
            TailError::Io { path, message } => {
                write!(f, "{}: {message} (trying again)", path.display())
            }
        }
    }
}

impl std::error::Error for TailError {}

/// Where a followed file stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileState {
    /// Not there yet.
    Waiting,
    Following,
    /// Read failed at the last poll; tried again at the next.
    Trouble(TailError),
    /// Not followed any more.
    Stopped(TailError),
}

/// A game read from a followed file.
#[derive(Clone, Debug, PartialEq)]
pub struct TailedGame {
    /// Which file (its place in the list given to [`Tailer::new`]).
    pub file: usize,
    /// The game's place among the file's games, from 0 (blank lines do not
    /// count): what the replay view calls game `index`.
    pub index: usize,
    /// 1-based line number in the file.
    pub line: usize,
    pub game: GameLog,
}

/// What one poll found.
#[derive(Debug, Default)]
pub struct Polled {
    /// New games, file by file, in file order.
    pub games: Vec<TailedGame>,
    /// Files whose state changed (index, new state).
    pub changed: Vec<(usize, FileState)>,
}

/// Identity of an open file, to notice that a path names another file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    })
}

#[cfg(not(unix))]
fn file_id(_meta: &std::fs::Metadata) -> Option<FileId> {
    None
}

#[derive(Debug)]
struct Followed {
    path: PathBuf,
    /// Bytes up to the end of the last complete line read.
    consumed: u64,
    /// Lines consumed (for line numbers).
    lines: usize,
    /// Games read (for their index).
    games: usize,
    id: Option<FileId>,
    state: FileState,
}

/// Follows a list of growing JSON-lines results logs.
#[derive(Debug)]
pub struct Tailer {
    files: Vec<Followed>,
}

/// One file's standing, for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileStatus {
    pub path: PathBuf,
    pub state: FileState,
    /// Games read from it so far.
    pub games: usize,
    /// Bytes read from it so far.
    pub bytes: u64,
}

impl Tailer {
    pub fn new(paths: &[PathBuf]) -> Tailer {
        Tailer {
            files: paths
                .iter()
                .map(|p| Followed {
                    path: p.clone(),
                    consumed: 0,
                    lines: 0,
                    games: 0,
                    id: None,
                    state: FileState::Waiting,
                })
                .collect(),
        }
    }

    pub fn paths(&self) -> Vec<PathBuf> {
        self.files.iter().map(|f| f.path.clone()).collect()
    }

    pub fn statuses(&self) -> Vec<FileStatus> {
        self.files
            .iter()
            .map(|f| FileStatus {
                path: f.path.clone(),
                state: f.state.clone(),
                games: f.games,
                bytes: f.consumed,
            })
            .collect()
    }

    /// Reads what every file gained since the last poll.
    pub fn poll(&mut self) -> Polled {
        let mut games = Vec::new();
        let changed = self.poll_each(|g| games.push(g));
        Polled { games, changed }
    }

    /// [`Tailer::poll`] handing each game to `sink` as it is read (so that
    /// a long log read at once is never held whole); returns the files whose
    /// state changed.
    pub fn poll_each(&mut self, mut sink: impl FnMut(TailedGame)) -> Vec<(usize, FileState)> {
        let mut changed = Vec::new();
        for (i, f) in self.files.iter_mut().enumerate() {
            if matches!(f.state, FileState::Stopped(_)) {
                continue;
            }
            let state = f.poll(i, &mut sink);
            if state != f.state {
                tracing::debug!(path = %f.path.display(), ?state, "watched log");
                f.state = state.clone();
                changed.push((i, state));
            }
        }
        changed
    }
}

impl Followed {
    /// Reads the file's new complete lines into `sink`; returns its new state.
    fn poll(&mut self, file: usize, sink: &mut impl FnMut(TailedGame)) -> FileState {
        let path = self.path.clone();
        let io = |e: io::Error| {
            FileState::Trouble(TailError::Io {
                path: path.clone(),
                message: e.to_string(),
            })
        };
        let mut f = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return if self.consumed == 0 {
                    FileState::Waiting
                } else {
                    FileState::Stopped(TailError::Removed { path: path.clone() })
                };
            }
            Err(e) => return io(e),
        };
        let meta = match f.metadata() {
            Ok(m) => m,
            Err(e) => return io(e),
        };
        let id = file_id(&meta);
        // why only once read: before that, another file at the path is just
        // the file (e.g. created, removed and created again by a shard).
        if self.consumed == 0 {
            self.id = id;
        } else if id.is_some() && id != self.id {
            return FileState::Stopped(TailError::Replaced { path });
        }
        if meta.len() < self.consumed {
            return FileState::Stopped(TailError::Shrank {
                path,
                read: self.consumed,
                now: meta.len(),
            });
        }
        if meta.len() == self.consumed {
            return FileState::Following;
        }
        if let Err(e) = f.seek(SeekFrom::Start(self.consumed)) {
            return io(e);
        }
        // why `take`: the writer may append while we read; what comes after
        // the size seen is left for the next poll.
        let mut reader = BufReader::new(f.take(meta.len() - self.consumed));
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(_) if line.last() != Some(&b'\n') => return FileState::Following,
                Ok(_) => {}
                Err(e) => return io(e),
            }
            if let Err(e) = self.take_line(file, &line[..line.len() - 1], sink) {
                return FileState::Stopped(TailError::BadLine {
                    path: self.path.clone(),
                    line: self.lines + 1,
                    message: e.to_string(),
                });
            }
            self.lines += 1;
            self.consumed += line.len() as u64;
        }
    }

    /// One complete line (without its newline): a game for `sink`, or
    /// nothing when blank.
    fn take_line(
        &mut self,
        file: usize,
        line: &[u8],
        sink: &mut impl FnMut(TailedGame),
    ) -> Result<(), LineError> {
        let text = std::str::from_utf8(line).map_err(LineError::NotUtf8)?;
        if text.trim().is_empty() {
            return Ok(());
        }
        let game = jsonl::parse_line(text).map_err(LineError::NotALog)?;
        sink(TailedGame {
            file,
            index: self.games,
            line: self.lines + 1,
            game,
        });
        self.games += 1;
        Ok(())
    }
}

/// Why one complete line of a followed file is not a game: the bytes are
/// not UTF-8, or the text is not a game log's JSON. Shown as the cause's
/// own message (and its source), as [`TailError::BadLine`] quotes it.
#[derive(Debug)]
enum LineError {
    NotUtf8(std::str::Utf8Error),
    NotALog(serde_json::Error),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotUtf8(e) => e.fmt(f),
            LineError::NotALog(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LineError {
    // why the cause's source, not the cause: the message is the cause's
    // own, so a chain printed in full would say it twice.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LineError::NotUtf8(e) => e.source(),
            LineError::NotALog(e) => e.source(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::log::tests::{illegal_log, rules_log};
    use std::io::Write;
    use std::path::Path;

    fn dir(test: &str) -> PathBuf {
        let d = crate::test_dir(&format!("tail-{test}"));
        d
    }

    fn append(path: &Path, text: &str) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    }

    fn line(g: &GameLog) -> String {
        jsonl::to_line(g) + "\n"
    }

    fn games(p: &Polled) -> Vec<(usize, usize, usize)> {
        p.games.iter().map(|g| (g.file, g.index, g.line)).collect()
    }

    #[test]
    fn reads_only_complete_lines_and_only_once() {
        let d = dir("complete");
        let a = d.join("a.jsonl");
        let mut t = Tailer::new(std::slice::from_ref(&a));
        let first = line(&rules_log());
        let second = line(&illegal_log());
        // Half a line: a writer in the middle of its append.
        append(&a, &first[..first.len() / 2]);
        let p = t.poll();
        assert!(p.games.is_empty());
        assert_eq!(p.changed, [(0, FileState::Following)]);
        append(&a, &first[first.len() / 2..]);
        append(&a, "\n");
        append(&a, &second[..10]);
        let p = t.poll();
        assert_eq!(games(&p), [(0, 0, 1)]);
        assert_eq!(p.games[0].game, rules_log());
        assert!(p.changed.is_empty());
        // Nothing new: nothing read again.
        assert!(t.poll().games.is_empty());
        append(&a, &second[10..]);
        let p = t.poll();
        assert_eq!(games(&p), [(0, 1, 3)], "the blank line 2 is no game");
        assert_eq!(p.games[0].game, illegal_log());
        let s = &t.statuses()[0];
        assert_eq!(s.games, 2);
        assert_eq!(
            s.bytes,
            std::fs::metadata(&a).unwrap().len(),
            "everything consumed"
        );
    }

    #[test]
    fn waits_for_a_file_that_does_not_exist_yet() {
        let d = dir("later");
        let (a, b) = (d.join("a.jsonl"), d.join("b.jsonl"));
        let mut t = Tailer::new(&[a.clone(), b.clone()]);
        let p = t.poll();
        assert!(p.games.is_empty() && p.changed.is_empty());
        assert_eq!(t.statuses()[1].state, FileState::Waiting);
        append(&b, &line(&rules_log()));
        let p = t.poll();
        assert_eq!(games(&p), [(1, 0, 1)]);
        assert_eq!(p.changed, [(1, FileState::Following)]);
        assert_eq!(t.statuses()[0].state, FileState::Waiting);
    }

    #[test]
    fn a_shrunk_replaced_or_removed_file_stops_with_an_error_and_the_others_go_on() {
        let d = dir("shrink");
        let (a, b, c) = (d.join("a.jsonl"), d.join("b.jsonl"), d.join("c.jsonl"));
        for p in [&a, &b, &c] {
            append(p, &line(&rules_log()));
        }
        let mut t = Tailer::new(&[a.clone(), b.clone(), c.clone()]);
        assert_eq!(t.poll().games.len(), 3);
        // a: truncated.
        std::fs::write(&a, "{}").unwrap();
        // b: replaced by a longer file (a rewrite through a rename).
        let tmp = d.join("b.tmp");
        std::fs::write(&tmp, line(&rules_log()) + &line(&illegal_log())).unwrap();
        std::fs::rename(&tmp, &b).unwrap();
        // c: removed.
        std::fs::remove_file(&c).unwrap();
        let p = t.poll();
        assert!(p.games.is_empty());
        let states: Vec<&FileState> = p.changed.iter().map(|(_, s)| s).collect();
        let [FileState::Stopped(ea), FileState::Stopped(eb), FileState::Stopped(ec)] = states[..]
        else {
            panic!("{:?}", p.changed)
        };
        assert!(matches!(ea, TailError::Shrank { now: 2, .. }), "{ea}");
        assert!(ea.to_string().contains("a.jsonl: the file shrank"), "{ea}");
        assert!(matches!(eb, TailError::Replaced { .. }), "{eb}");
        assert!(matches!(ec, TailError::Removed { .. }), "{ec}");
        // A stopped file is not read again, even when it grows.
        append(
            &a,
            &("\n".to_owned() + &line(&rules_log()) + &line(&rules_log())),
        );
        assert!(t.poll().games.is_empty());
        assert_eq!(t.statuses()[0].games, 1, "the game read before counts");
    }

    #[test]
    fn a_resume_cutting_an_unread_partial_line_is_followed_on() {
        let d = dir("resume");
        let a = d.join("a.jsonl");
        let whole = line(&rules_log());
        append(&a, &whole);
        append(&a, &whole[..20]);
        let mut t = Tailer::new(std::slice::from_ref(&a));
        assert_eq!(t.poll().games.len(), 1);
        // `--resume` cuts the killed shard's half line, then appends games.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&a)
            .unwrap()
            .set_len(whole.len() as u64)
            .unwrap();
        assert!(t.poll().games.is_empty());
        append(&a, &line(&illegal_log()));
        let p = t.poll();
        assert_eq!(games(&p), [(0, 1, 2)]);
        assert_eq!(t.statuses()[0].state, FileState::Following);
    }

    #[test]
    fn a_malformed_line_stops_that_file_naming_the_line() {
        let d = dir("bad");
        let (a, b) = (d.join("a.jsonl"), d.join("b.jsonl"));
        let good = line(&rules_log());
        append(&a, &format!("{good}{{\"event\": 1}}\n{good}"));
        let mut t = Tailer::new(&[a.clone(), b.clone()]);
        let p = t.poll();
        assert_eq!(games(&p), [(0, 0, 1)], "the game before the bad line");
        let [(0, FileState::Stopped(e))] = &p.changed[..] else {
            panic!("{:?}", p.changed)
        };
        assert!(
            matches!(e, TailError::BadLine { line: 2, .. }) && e.to_string().contains("line 2"),
            "{e}"
        );
        append(&b, &good);
        assert_eq!(games(&t.poll()), [(1, 0, 1)], "the other file goes on");
        // A PGN file is no JSON-lines log either.
        let pgn = d.join("games.pgn");
        append(&pgn, "[Event \"E\"]\n\n1. 6 *\n");
        let mut t = Tailer::new(&[pgn]);
        let p = t.poll();
        assert!(
            matches!(
                &p.changed[..],
                [(0, FileState::Stopped(TailError::BadLine { line: 1, .. }))]
            ),
            "{:?}",
            p.changed
        );
    }

    #[test]
    fn a_read_error_is_retried() {
        let d = dir("io");
        // A directory cannot be read as a file: an I/O error, not a stop.
        let a = d.join("a.jsonl");
        std::fs::create_dir(&a).unwrap();
        let mut t = Tailer::new(std::slice::from_ref(&a));
        let p = t.poll();
        let [(0, FileState::Trouble(e))] = &p.changed[..] else {
            panic!("{:?}", p.changed)
        };
        assert!(e.retried() && e.to_string().contains("trying again"), "{e}");
        std::fs::remove_dir(&a).unwrap();
        append(&a, &line(&rules_log()));
        let p = t.poll();
        assert_eq!(games(&p), [(0, 0, 1)]);
        assert_eq!(p.changed, [(0, FileState::Following)]);
    }
}
