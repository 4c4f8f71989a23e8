//! The event behind `arbiter serve --watch`: results logs followed as they
//! grow ([`crate::records::tail`]) and merged as they come in by the same
//! [`Merger`] as `arbiter merge`, so the standings are what `arbiter merge`
//! prints for those logs at that moment. The merger is lean (no moves kept:
//! they are in the logs, for the replay view), so a long event's watch does
//! not hold every ply of it, and it keeps the standings up game by game
//! ([`crate::event::running`]), so a look does not go over every game.

use std::path::PathBuf;

use crate::event::merge::{Added, Look, MergeError, Merger};
use crate::event::place::Origin;
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
            merger: Merger::watching(),
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
    ) -> Option<Result<Look, MergeError>> {
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
        // why `look`, not a copy's `finish`: the standings are kept up game
        // by game, so a look does not go over every merged game.
        if read_any {
            self.merger.look()
        } else {
            None
        }
    }

    pub fn statuses(&self) -> Vec<FileStatus> {
        self.tailer.statuses()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::jsonl;
    use crate::records::log::GameLog;
    use crate::testing::rules_log;
    use mancala_rules::{GameResult, Side};
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
        let d = crate::test_dir("watch");
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
        assert_eq!(m.missing.first(10), [2]);
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

    /// A tournament game of slot `slot` (pair `slot / 2`) between seats.
    fn seated(slot: usize, seats: (usize, usize), result: GameResult) -> GameLog {
        let names = ["Alpha", "Beta", "Gamma"];
        let mut g = rules_log();
        g.south = names[seats.0].into();
        g.north = names[seats.1].into();
        g.result = Some(result);
        g.tags.insert("Schedule".into(), "s3".into());
        g.tags.insert("Slot".into(), format!("{slot}/8"));
        g.tags.insert("Pair".into(), (slot / 2).to_string());
        g.tags
            .insert("Seats".into(), format!("{}-{}", seats.0, seats.1));
        g
    }

    /// Appends each game in turn, looks, and checks the look against
    /// `arbiter merge` of the logs at that moment.
    fn check_each(w: &mut Watch, logs: &[std::path::PathBuf], games: &[(usize, GameLog)]) {
        for log in logs {
            append(log, &[]);
        }
        for (step, (log, g)) in games.iter().enumerate() {
            append(&logs[*log], std::slice::from_ref(g));
            let look = w.step(|_| {}).unwrap().unwrap();
            let batch = crate::event::merge::merge(logs).unwrap();
            assert_eq!(look.report(), batch.report(), "after game {step}");
            assert_eq!(look.names, batch.names, "after game {step}");
            assert_eq!(look.missing, batch.missing, "after game {step}");
            assert_eq!(look.schedule, batch.schedule, "after game {step}");
            assert_eq!(look.duplicates, batch.duplicates, "after game {step}");
            assert_eq!(look.warnings, batch.warnings, "after game {step}");
            assert_eq!(look.counted, batch.games.len(), "after game {step}");
            assert_eq!(look.event, batch.games[0].event, "after game {step}");
        }
    }

    #[test]
    fn replaced_and_duplicate_copies_keep_the_standings_of_arbiter_merge() {
        use crate::records::log::Termination;
        use GameResult::*;
        let d = crate::test_dir("watch-repl");
        let logs = [d.join("a.jsonl"), d.join("b.jsonl")];
        let mut w = Watch::new(&logs);
        let mut flag = seated(2, (0, 2), NorthWins);
        flag.termination = Termination::TimeForfeit {
            side: Side::South,
            detail: "flag".into(),
        };
        let mut other_kind = seated(5, (2, 1), Draw);
        other_kind.game = "bosh".into();
        let games = [
            // Seat 1 first: the first name (the head-to-head's reference)
            // changes when seat 0 comes.
            (1, seated(1, (1, 2), SouthWins)),
            (1, seated(0, (2, 1), NorthWins)),
            (1, seated(3, (1, 0), Draw)),
            // An earlier-origin copy of slot 1 with another result: it
            // takes the place of b's copy (a pair's half changes).
            (0, seated(1, (1, 2), NorthWins)),
            // b's copy of slot 0 again: a duplicate.
            (1, seated(0, (2, 1), NorthWins)),
            (0, flag.clone()),
            (0, seated(2, (0, 2), Draw)),
            // A third copy of slot 3, earliest, different.
            (0, seated(3, (1, 0), SouthWins)),
            (1, other_kind),
            (0, seated(4, (0, 1), SouthWins)),
        ];
        check_each(&mut w, &logs, &games);
        // Two engines only: the match section and its pentanomial.
        let logs2 = [d.join("c.jsonl"), d.join("e.jsonl")];
        let mut w = Watch::new(&logs2);
        let two = [
            (1, seated(1, (1, 0), Draw)),
            (1, seated(0, (0, 1), SouthWins)),
            (1, seated(2, (0, 1), NorthWins)),
            (0, seated(0, (0, 1), Draw)),
            (0, seated(3, (1, 0), NorthWins)),
            (0, seated(2, (0, 1), SouthWins)),
            (1, seated(3, (1, 0), NorthWins)),
        ];
        check_each(&mut w, &logs2, &two);
        let last = w.step(|_| {});
        assert!(last.is_none(), "nothing new");
        let report = crate::event::merge::merge(&logs2).unwrap().report();
        let m = report.head_to_head.expect("two engines");
        assert_eq!(m.pentanomial.iter().sum::<u32>(), 2, "{m:?}");
        // Untagged games: names in order of the logs, an earlier log's
        // game arriving after a later one's.
        let logs3 = [d.join("f.jsonl"), d.join("g.jsonl")];
        let mut w = Watch::new(&logs3);
        let mut gamma = rules_log();
        gamma.south = "Gamma".into();
        let mut lost = rules_log();
        lost.result = Some(SouthWins);
        check_each(
            &mut w,
            &logs3,
            &[
                (1, rules_log()),
                (0, gamma),
                (1, rules_log()),
                (0, lost.clone()),
            ],
        );
        // Two untagged engines, the first name changing with a game of an
        // earlier log: the head-to-head is counted for the new first.
        let logs4 = [d.join("h.jsonl"), d.join("i.jsonl")];
        let mut w = Watch::new(&logs4);
        let mut flipped = rules_log();
        (flipped.south, flipped.north) = (flipped.north.clone(), flipped.south.clone());
        flipped.result = Some(Draw);
        check_each(&mut w, &logs4, &[(1, lost.clone()), (0, flipped)]);
    }
}
