//! The event behind `arbiter serve --watch`: results logs followed as they
//! grow ([`crate::records::tail`]) and merged as they come in by the same
//! [`Merger`] as `arbiter merge`, so the standings are what `arbiter merge`
//! prints for those logs at that moment. The merger is lean (no moves kept:
//! they are in the logs, for the replay view), so a long event's watch does
//! not hold every ply of it.

use std::path::PathBuf;

use crate::event::merge::{Added, MergeError, Merged, Merger, Origin};
use crate::records::tail::{FileStatus, TailedGame, Tailer};

/// The watched logs and their merge so far.
#[derive(Debug)]
pub struct Watch {
    paths: Vec<PathBuf>,
    tailer: Tailer,
    merger: Merger,
}

impl Watch {
    pub fn new(paths: &[PathBuf]) -> Watch {
        Watch {
            paths: paths.to_vec(),
            tailer: Tailer::new(paths),
            merger: Merger::lean(),
        }
    }

    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Reads what the logs gained and merges it in; `counted` sees each
    /// game that counts from now on, in the order read. When any game was
    /// read: the merge of everything read so far, or why those logs cannot
    /// be merged (as `arbiter merge` would refuse them). How each log
    /// stands: [`Watch::statuses`].
    pub fn step(
        &mut self,
        mut counted: impl FnMut(&TailedGame),
    ) -> Option<Result<Merged, MergeError>> {
        let mut read_any = false;
        let (merger, paths) = (&mut self.merger, &self.paths);
        self.tailer.poll_each(|g| {
            read_any = true;
            let origin = Origin {
                file: g.file,
                index: g.index,
            };
            // why a copy: the merger keeps (part of) the game, `counted` sees it whole.
            if merger.add(origin, &paths[g.file], g.game.clone()) == Added::Counted {
                counted(&g);
            }
        });
        // why every game read: a duplicate or an unfinished game changes
        // the merge too (its duplicate count, the schedule it names).
        read_any.then(|| self.merger.clone().finish())
    }

    pub fn statuses(&self) -> Vec<FileStatus> {
        self.tailer.statuses()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::jsonl;
    use crate::records::log::tests::rules_log;
    use crate::records::log::GameLog;
    use std::io::Write;

    fn tagged(slot: usize) -> GameLog {
        let mut g = rules_log();
        g.tags.insert("Schedule".into(), "s1".into());
        g.tags.insert("Slot".into(), format!("{slot}/3"));
        g.tags.insert("Seats".into(), "0-1".into());
        g
    }

    fn append(path: &std::path::Path, games: &[GameLog]) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        for g in games {
            f.write_all((jsonl::to_line(g) + "\n").as_bytes()).unwrap();
        }
    }

    #[test]
    fn growing_logs_merge_as_arbiter_merge_does_at_every_step() {
        let d = std::env::temp_dir().join(format!("arbiter-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let (a, b) = (d.join("a.jsonl"), d.join("b.jsonl"));
        let mut w = Watch::new(&[a.clone(), b.clone()]);
        let mut counted = Vec::new();
        assert!(w.step(|_| {}).is_none(), "nothing to merge yet");
        append(&b, &[tagged(1), tagged(0)]);
        let m = w
            .step(|g| counted.push((g.file, g.index)))
            .unwrap()
            .unwrap();
        assert_eq!(counted.len(), 2);
        assert_eq!(m.missing, [2]);
        // The same slot again in the other log: a duplicate, not counted.
        append(&a, &[tagged(0), tagged(2)]);
        counted.clear();
        let m = w
            .step(|g| counted.push((g.file, g.index)))
            .unwrap()
            .unwrap();
        // why (0, 0) counts: the first log's copy wins, as in `arbiter merge a b`.
        assert_eq!(counted, [(0, 0), (0, 1)]);
        let batch = crate::event::merge::merge(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(m.report(), batch.report());
        assert_eq!((m.duplicates, m.missing.len()), (1, 0));
        assert!(w.step(|_| {}).is_none(), "nothing new");
        // Another tournament's game: the merge is refused, as by `arbiter merge`.
        let mut other = tagged(1);
        other.tags.insert("Schedule".into(), "s2".into());
        append(&b, &[other]);
        let e = w.step(|_| {}).unwrap().unwrap_err();
        assert!(e.0.contains("different tournaments"), "{e}");
    }
}
