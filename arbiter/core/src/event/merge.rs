//! `arbiter merge`: combines the results logs of one event (shards, reruns)
//! into one set of games, without duplicates, for one standings table.
//!
//! Games written by `arbiter tournament` carry their schedule's fingerprint
//! and slot (see [`crate::event::schedule`]): a slot is counted once (the first
//! copy; a copy that differs is reported), and logs of different schedules
//! are refused. Logs without those tags (e.g. from `arbiter match`) are
//! merged as they are when they all name the same event; exact copies of a
//! game are dropped.
//!
//! One mix is accepted: a ladder with the events held within it, as an
//! arena pool's export is (`arbiter arena export --pool`): untagged games of
//! event `E` (the ladder's) and tournament games of events named `E event N`
//! (each its own schedule). Each event's slots are then counted once, the
//! ladder's games as they are; the standings are of all of them (as the
//! pool's ratings are).

use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::event::place::{self, Origin};
use crate::event::resume;
use crate::event::running::RunningMerge;
use crate::event::schedule::SlotKey;
use crate::records::log::GameLog;
use crate::records::pgn;
use crate::records::verify::{detect_format, LogFormat};

/// The merged event.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// Engine names: by their seat in the tournament's engine list when the
    /// logs tell it, else in order of appearance.
    pub names: Vec<String>,
    /// Finished games, sorted by slot.
    pub games: Vec<GameLog>,
    /// The schedule's fingerprint and size, for tournament logs.
    pub schedule: Option<(String, usize)>,
    /// Slots of the schedule that no log holds.
    pub missing: Missing,
    /// For a ladder with its events (see the module's page): the ladder's
    /// event name and the events' names, in order.
    pub ladder: Option<(String, Vec<String>)>,
    pub duplicates: usize,
    pub warnings: Vec<String>,
}

/// Slots no log holds, as ranges: a partial log of an event of 10^8 rounds
/// leaves too many to list one by one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Missing(pub Vec<std::ops::Range<usize>>);

impl Missing {
    fn push(&mut self, r: std::ops::Range<usize>) {
        if !r.is_empty() {
            self.0.push(r);
        }
    }

    /// How many slots are missing.
    pub fn len(&self) -> usize {
        self.0.iter().map(ExactSizeIterator::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first `k` missing slots.
    pub fn first(&self, k: usize) -> Vec<usize> {
        self.0.iter().flat_map(|r| r.clone()).take(k).collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError(pub String);

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MergeError {}

/// Reads one log of either format (an incomplete last JSON line is
/// ignored with a warning).
fn read_log(path: &Path) -> Result<(Vec<GameLog>, Vec<String>), MergeError> {
    let text = std::fs::read(path).map_err(|e| MergeError(format!("{}: {e}", path.display())))?;
    let head = String::from_utf8_lossy(&text[..text.len().min(4096)]).into_owned();
    match detect_format(&head, Some(path)) {
        Some(LogFormat::Pgn) => {
            let text = String::from_utf8(text)
                .map_err(|e| MergeError(format!("{}: {e}", path.display())))?;
            let games = pgn::parse_games(&text)
                .map_err(|e| MergeError(format!("{}: not valid PGN: {e}", path.display())))?;
            Ok((games, Vec::new()))
        }
        Some(LogFormat::Jsonl) | None if head.trim().is_empty() => Ok((Vec::new(), Vec::new())),
        Some(LogFormat::Jsonl) => {
            let log = resume::read(path, false).map_err(|e| MergeError(e.to_string()))?;
            Ok((log.games, log.warnings))
        }
        None => Err(MergeError(format!(
            "{}: cannot tell the format (expected JSON lines or PGN)",
            path.display()
        ))),
    }
}

/// Merges the logs at `paths`.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, MergeError> {
    let mut merger = Merger::default();
    for (file, path) in paths.iter().enumerate() {
        let (games, warnings) = read_log(path)?;
        merger.warnings.extend(warnings);
        for (index, game) in games.into_iter().enumerate() {
            merger.add(Origin { file, index }, path, game);
        }
    }
    merger.finish()
}

/// What [`Merger::add`] did with a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// It counts (it may take the place of a copy from later in the order).
    Counted,
    /// Another copy of it counts.
    Duplicate,
    /// Unfinished (`*`): it does not count.
    Unfinished,
}

/// A value kept with the origin it was first seen at: a copy from earlier
/// in the order replaces it.
#[derive(Clone, Debug)]
struct First<T> {
    origin: Origin,
    value: T,
}

fn keep_first<K: Ord, T>(map: &mut BTreeMap<K, First<T>>, key: K, origin: Origin, value: T) {
    match map.get_mut(&key) {
        Some(kept) if kept.origin <= origin => {}
        Some(kept) => *kept = First { origin, value },
        None => {
            map.insert(key, First { origin, value });
        }
    }
}

/// A game as the merger keeps it: whole, or (lean) without its moves but
/// with a fingerprint of them, so that copies can still be compared.
#[derive(Clone, Debug)]
struct Kept {
    game: GameLog,
    moves_print: Option<u64>,
}

impl Kept {
    fn new(mut game: GameLog, lean: bool) -> Kept {
        let moves_print = lean.then(|| {
            let mut h = std::hash::DefaultHasher::new();
            // why JSON: every field of every move counts, as in `==`.
            serde_json::to_string(&game.moves)
                .unwrap_or_default()
                .hash(&mut h);
            game.moves = Vec::new();
            h.finish()
        });
        Kept { game, moves_print }
    }

    /// The same moves and result.
    fn same_play(&self, other: &Kept) -> bool {
        self.game.moves == other.game.moves
            && self.moves_print == other.moves_print
            && self.game.result == other.game.result
    }

    fn same_game(&self, other: &Kept) -> bool {
        self.game == other.game && self.moves_print == other.moves_print
    }
}

/// The merge fed one game at a time, in any order (`arbiter merge` feeds
/// it the logs one after the other; `arbiter serve --watch` feeds it games
/// as the logs grow). [`Merger::finish`] gives the same [`Merged`] for the
/// same games whatever order they were added in (but for the count of
/// differing copies in a warning: a copy is compared with the one kept when
/// it arrives, which with three or more copies of a slot out of order may
/// not be the first).
#[derive(Clone, Debug, Default)]
pub struct Merger {
    /// Where each schedule (or untagged event) was first seen, for messages.
    schedules: BTreeMap<String, First<(PathBuf, String, usize)>>,
    untagged_events: BTreeMap<String, First<PathBuf>>,
    /// Each schedule's number (in order of arrival), for the slots' keys.
    schedule_numbers: BTreeMap<String, u32>,
    /// Finished tournament games by (schedule number, slot).
    by_slot: BTreeMap<(u32, usize), First<Kept>>,
    /// Untagged finished games, by origin.
    untagged: BTreeMap<Origin, Kept>,
    seats: BTreeMap<usize, First<String>>,
    duplicates: usize,
    differing: usize,
    /// What was tolerated in the logs, for the user.
    pub warnings: Vec<String>,
    lean: bool,
    /// The standings of the kept games, kept up on every change (a watch's).
    running: Option<RunningMerge>,
}

impl Merger {
    /// A merger that keeps of each game all but its moves (compared by a
    /// fingerprint): for a watch as long as the event, whose memory and
    /// [`Merger::finish`] of a copy should not grow with every ply. The
    /// [`Merged`] games then have no moves; the standings do not need them.
    pub fn lean() -> Merger {
        Merger {
            lean: true,
            ..Merger::default()
        }
    }

    /// A [`Merger::lean`] merger that also keeps the standings up as games
    /// come and go ([`Merger::look`]): for `arbiter serve --watch`, whose
    /// look after one more game must not cost more as the event grows.
    pub fn watching() -> Merger {
        Merger {
            running: Some(RunningMerge::default()),
            ..Merger::lean()
        }
    }

    /// Adds one game read at `origin` from the log at `path`.
    pub fn add(&mut self, origin: Origin, path: &Path, game: GameLog) -> Added {
        let Some(key) = SlotKey::of(&game) else {
            keep_first(
                &mut self.untagged_events,
                game.event.clone(),
                origin,
                path.to_path_buf(),
            );
            if game.result.is_none() {
                return Added::Unfinished;
            }
            let game = Kept::new(game, self.lean);
            if self.untagged.values().any(|g| g.same_game(&game)) {
                // why: an exact copy; which of the two is kept changes nothing.
                self.duplicates += 1;
                return Added::Duplicate;
            }
            if let Some(r) = &mut self.running {
                r.add(place::place(&game.game, origin), &game.game);
            }
            self.untagged.insert(origin, game);
            return Added::Counted;
        };
        keep_first(
            &mut self.schedules,
            key.schedule.clone(),
            origin,
            (path.to_path_buf(), game.event.clone(), key.size),
        );
        let next = self.schedule_numbers.len() as u32;
        let number = *self
            .schedule_numbers
            .entry(key.schedule.clone())
            .or_insert(next);
        // why only the first schedule's seats: with several (a ladder's
        // events) seat numbers are each event's own; names then come from
        // the games.
        if let (0, Some((s, n))) = (number, key.seats) {
            keep_first(&mut self.seats, s, origin, game.south.clone());
            keep_first(&mut self.seats, n, origin, game.north.clone());
        }
        if game.result.is_none() {
            return Added::Unfinished;
        }
        let game = Kept::new(game, self.lean);
        match self.by_slot.get_mut(&(number, key.index)) {
            Some(kept) => {
                self.duplicates += 1;
                if !kept.value.same_play(&game) {
                    self.differing += 1;
                }
                if origin < kept.origin {
                    if let Some(r) = &mut self.running {
                        let at = place::place(&game.game, origin);
                        r.remove(at, &kept.value.game);
                        r.add(at, &game.game);
                    }
                    *kept = First {
                        origin,
                        value: game,
                    };
                    return Added::Counted;
                }
                Added::Duplicate
            }
            None => {
                if let Some(r) = &mut self.running {
                    r.add(place::place(&game.game, origin), &game.game);
                }
                self.by_slot.insert(
                    (number, key.index),
                    First {
                        origin,
                        value: game,
                    },
                );
                Added::Counted
            }
        }
    }

    /// The games counted so far.
    pub fn counted(&self) -> usize {
        self.by_slot.len() + self.untagged.len()
    }

    /// The merged event, or why these logs cannot be merged.
    pub fn finish(self) -> Result<Merged, MergeError> {
        let mut merged = self.head()?;
        let ids: BTreeMap<u32, String> = self
            .schedule_numbers
            .iter()
            .map(|(id, &n)| (n, id.clone()))
            .collect();
        let mut slotted: Vec<((&str, usize), GameLog)> = self
            .by_slot
            .into_iter()
            .map(|((n, i), f)| ((ids[&n].as_str(), i), f.value.game))
            .collect();
        // why sorted by schedule id: the same order whatever order the
        // schedules arrived in (one schedule: by slot, as always).
        slotted.sort_by(|a, b| a.0.cmp(&b.0));
        merged.games = slotted
            .into_iter()
            .map(|(_, g)| g)
            .chain(self.untagged.into_values().map(|k| k.game))
            .collect();
        for g in &merged.games {
            for n in [&g.south, &g.north] {
                if !merged.names.contains(n) {
                    merged.names.push(n.clone());
                }
            }
        }
        Ok(merged)
    }

    /// The merged event but its games, and of the names only the seats'.
    fn head(&self) -> Result<Merged, MergeError> {
        let schedules = &self.schedules;
        let untagged_events = &self.untagged_events;
        let mut merged = Merged {
            duplicates: self.duplicates,
            warnings: self.warnings.clone(),
            ..Merged::default()
        };
        if let Some(ladder) = self.ladder() {
            merged.ladder = Some(ladder);
            self.warn_differing(&mut merged);
            // why no names from the seats: each event numbers its own.
            return Ok(merged);
        }
        if schedules.len() > 1 {
            let list: Vec<String> = schedules
                .iter()
                .map(|(id, first)| {
                    let (path, event, _) = &first.value;
                    format!("{} holds event {event:?} (schedule {id})", path.display())
                })
                .collect();
            return Err(MergeError(format!(
                "the logs come from different tournaments: {}; merge only the logs of one \
                 tournament (same arguments and --seed)",
                list.join("; ")
            )));
        }
        if let (Some((id, first)), Some((other_event, other_path))) =
            (schedules.iter().next(), untagged_events.iter().next())
        {
            let (path, event, _) = &first.value;
            let other_path = &other_path.value;
            let tournament = format!("tournament games (event {event:?}, schedule {id})");
            let others = format!("games of event {other_event:?} without a schedule slot");
            let why = format!(
                "they cannot be from the same event (a ladder's export merges with its events \
                 only when each event is named \"{other_event} event N\")"
            );
            return Err(MergeError(if path == other_path {
                format!(
                    "{} holds both {tournament} and {others}; {why}",
                    path.display()
                )
            } else {
                format!(
                    "{} holds {tournament} but {} holds {others}; {why}",
                    path.display(),
                    other_path.display()
                )
            }));
        }
        if untagged_events.len() > 1 {
            let list: Vec<String> = untagged_events
                .iter()
                .map(|(e, p)| format!("{} holds event {e:?}", p.value.display()))
                .collect();
            return Err(MergeError(format!(
                "the logs come from different events: {}",
                list.join("; ")
            )));
        }
        self.warn_differing(&mut merged);
        if let Some((id, first)) = schedules.iter().next() {
            let size = first.value.2;
            // why a walk over the kept slots: the gaps between them, without
            // a look-up per slot of the schedule.
            let mut next = 0;
            for &(_, i) in self.by_slot.keys().take_while(|&&(_, i)| i < size) {
                merged.missing.push(next..i);
                next = i + 1;
            }
            merged.missing.push(next..size);
            merged.schedule = Some((id.clone(), size));
        }
        merged.names = self.seats.values().map(|f| f.value.clone()).collect();
        Ok(merged)
    }

    fn warn_differing(&self, merged: &mut Merged) {
        if self.differing > 0 {
            merged.warnings.push(format!(
                "{} slot(s) were played more than once with different games; the first \
                 copy (in the order the logs were given) is counted",
                self.differing
            ));
        }
    }

    /// A ladder with the events held within it (see the module's page):
    /// its name and the events' names; `None` for any other mix, and for a
    /// single tournament or ladder alone (nothing to tell apart).
    fn ladder(&self) -> Option<(String, Vec<String>)> {
        if self.untagged_events.len() > 1
            || self.schedules.is_empty()
            || (self.schedules.len() == 1 && self.untagged_events.is_empty())
        {
            return None;
        }
        let events: Vec<&str> = self
            .schedules
            .values()
            .map(|f| f.value.1.as_str())
            .collect();
        let ladder = match self.untagged_events.keys().next() {
            Some(name) => name.clone(),
            None => ladder_of(events[0])?.to_owned(),
        };
        let mut names: Vec<String> = Vec::new();
        for e in events {
            // why distinct names: two schedules of one event are two
            // different tournaments (another database's, or another run's).
            if ladder_of(e) != Some(ladder.as_str()) || names.iter().any(|n| n == e) {
                return None;
            }
            names.push(e.to_owned());
        }
        names.sort_by_key(|n| event_number(n));
        Some((ladder, names))
    }

    /// What a watch shows now, without going over every kept game: the
    /// [`Merged`] head (no games) with its standings, as [`Merger::finish`]
    /// and [`Merged::report`] would give them. `None` for a merger not made
    /// by [`Merger::watching`].
    pub fn look(&mut self) -> Option<Result<Look, MergeError>> {
        self.running.as_ref()?;
        let head = match self.head() {
            Ok(head) => head,
            Err(e) => return Some(Err(e)),
        };
        let running = self.running.as_mut()?;
        let mut names = head.names;
        for n in running.names() {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let games = self
            .by_slot
            .values()
            .map(|f| &f.value.game)
            .chain(self.untagged.values().map(|k| &k.game));
        let event = match &head.ladder {
            Some((ladder, _)) => Some(ladder.clone()),
            None => games.clone().next().map(|g| g.event.clone()),
        };
        let report = running.report(&names, games);
        Some(Ok(Look {
            names,
            schedule: head.schedule,
            missing: head.missing,
            duplicates: head.duplicates,
            warnings: head.warnings,
            counted: self.by_slot.len() + self.untagged.len(),
            event: event.unwrap_or_default(),
            kinds: running.kinds(),
            report,
        }))
    }
}

/// The ladder `E` of an event named `E event N` (N a number).
fn ladder_of(event: &str) -> Option<&str> {
    let (ladder, n) = event.rsplit_once(" event ")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(ladder)
}

fn event_number(event: &str) -> u64 {
    event
        .rsplit_once(" event ")
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(0)
}

/// The merge as a watch shows it ([`Merger::look`]): what [`Merged`] tells
/// but its games, which are counted, and the standings already worked out.
#[derive(Clone, Debug)]
pub struct Look {
    /// As [`Merged::names`].
    pub names: Vec<String>,
    pub schedule: Option<(String, usize)>,
    pub missing: Missing,
    pub duplicates: usize,
    pub warnings: Vec<String>,
    /// The merged games.
    pub counted: usize,
    /// The first merged game's event (empty without a game).
    pub event: String,
    /// The merged games' kinds (game ids), first appearance first.
    pub kinds: Vec<String>,
    report: crate::stats::json::Report,
}

impl Look {
    /// The standings as JSON: [`Merged::report`] of the same merge.
    pub fn report(&self) -> crate::stats::json::Report {
        self.report.clone()
    }
}

impl Merged {
    /// The standings as JSON (`arbiter merge --json`, the watch page).
    pub fn report(&self) -> crate::stats::json::Report {
        crate::stats::json::report(&self.names, &self.games, None)
    }

    /// A few lines on what was merged (before the report).
    pub fn summary(&self) -> String {
        let mut out = format!("Merged {} game(s)", self.games.len());
        if let Some((ladder, events)) = &self.ladder {
            let held: Vec<String> = events.iter().map(|e| format!("{e:?}")).collect();
            out.push_str(&format!(
                " of {ladder:?} and the event(s) held within it ({}; each event's slots \
                 counted once)",
                held.join(", ")
            ));
        }
        if let Some((id, size)) = &self.schedule {
            out.push_str(&format!(" of tournament schedule {id} ({size} slots)"));
        }
        if self.duplicates > 0 {
            out.push_str(&format!(", {} duplicate(s) dropped", self.duplicates));
        }
        out.push('\n');
        if !self.missing.is_empty() {
            let shown: Vec<String> = self
                .missing
                .first(20)
                .iter()
                .map(usize::to_string)
                .collect();
            let more = if self.missing.len() > 20 { ", …" } else { "" };
            out.push_str(&format!(
                "Incomplete: {} slot(s) missing ({}{more})\n",
                self.missing.len(),
                shown.join(", ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::jsonl;
    use crate::testing::rules_log;

    fn tagged(schedule: &str, slot: usize, size: usize) -> GameLog {
        let mut g = rules_log();
        g.tags.insert("Schedule".into(), schedule.into());
        g.tags.insert("Slot".into(), format!("{slot}/{size}"));
        g.tags.insert("Seats".into(), "0-1".into());
        g
    }

    fn write(name: &str, games: &[GameLog]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbiter-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let text: String = games.iter().map(|g| jsonl::to_line(g) + "\n").collect();
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn deduplicates_by_slot_and_finds_gaps() {
        let a = write("a.jsonl", &[tagged("s1", 0, 4), tagged("s1", 2, 4)]);
        let b = write("b.jsonl", &[tagged("s1", 2, 4), tagged("s1", 1, 4)]);
        let m = merge(&[a, b]).unwrap();
        assert_eq!(m.games.len(), 3);
        assert_eq!(m.duplicates, 1);
        assert_eq!(m.missing.first(10), vec![3]);
        assert_eq!(m.schedule, Some(("s1".into(), 4)));
        let slots: Vec<usize> = m
            .games
            .iter()
            .map(|g| SlotKey::of(g).unwrap().index)
            .collect();
        assert_eq!(slots, [0, 1, 2]);
        assert!(
            m.summary().contains("1 slot(s) missing (3)"),
            "{}",
            m.summary()
        );
    }

    #[test]
    fn the_gaps_of_a_huge_schedule_are_ranges() {
        // A partial log of an event of 10^12 slots: the gaps are not listed
        // one by one (that would take terabytes).
        let size = 1_000_000_000_000;
        let a = write(
            "huge.jsonl",
            &[tagged("s9", 1, size), tagged("s9", 5, size)],
        );
        let m = merge(&[a]).unwrap();
        assert_eq!(m.missing.len(), size - 2);
        assert_eq!(m.missing.first(5), [0, 2, 3, 4, 6]);
        assert_eq!(m.missing.0.len(), 3);
        assert!(m
            .summary()
            .contains("999999999998 slot(s) missing (0, 2, 3, 4, 6"));
    }

    #[test]
    fn games_added_in_any_order_merge_as_the_logs_in_order() {
        let mut differing = tagged("s1", 2, 4);
        differing.moves.truncate(1);
        let mut untagged_a = rules_log();
        untagged_a.south = "Gamma".into();
        let a_games = [tagged("s1", 0, 4), tagged("s1", 2, 4)];
        let b_games = [differing, tagged("s1", 1, 4)];
        let (a, b) = (write("h.jsonl", &a_games), write("i.jsonl", &b_games));
        let batch = merge(&[a.clone(), b.clone()]).unwrap();
        let mut m = Merger::default();
        // The second log first, each log's games last first.
        for (file, path, games) in [(1, &b, &b_games), (0, &a, &a_games)] {
            for (index, g) in games.iter().enumerate().rev() {
                m.add(Origin { file, index }, path, g.clone());
            }
        }
        assert_eq!(m.counted(), 3);
        let inc = m.finish().unwrap();
        assert_eq!(inc.games, batch.games);
        assert_eq!(inc.games[2].moves.len(), 2, "the first log's copy counts");
        assert_eq!(inc.names, batch.names);
        assert_eq!(inc.missing, batch.missing);
        assert_eq!(inc.schedule, batch.schedule);
        assert_eq!(inc.duplicates, batch.duplicates);
        assert_eq!(inc.warnings, batch.warnings);
        assert_eq!(batch.warnings.len(), 1, "{:?}", batch.warnings);
        // Untagged games: names in the order of the logs, not of arrival.
        let (c_games, d_games) = ([rules_log()], [untagged_a]);
        let (c, d) = (write("j.jsonl", &c_games), write("k.jsonl", &d_games));
        let batch = merge(&[c.clone(), d.clone()]).unwrap();
        let mut m = Merger::default();
        assert_eq!(
            m.add(Origin { file: 1, index: 0 }, &d, d_games[0].clone()),
            Added::Counted
        );
        assert_eq!(
            m.add(Origin { file: 0, index: 0 }, &c, c_games[0].clone()),
            Added::Counted
        );
        assert_eq!(
            m.add(Origin { file: 2, index: 0 }, &c, c_games[0].clone()),
            Added::Duplicate
        );
        let inc = m.finish().unwrap();
        assert_eq!(inc.names, batch.names);
        assert_eq!(inc.games, batch.games);
    }

    #[test]
    fn a_lean_merger_drops_the_moves_but_tells_copies_apart_by_them() {
        let mut differing = tagged("s1", 2, 4);
        differing.moves.truncate(1);
        let a_games = [tagged("s1", 0, 4), tagged("s1", 2, 4), differing];
        let a = write("l.jsonl", &a_games);
        let batch = merge(std::slice::from_ref(&a)).unwrap();
        let mut m = Merger::lean();
        for (index, g) in a_games.iter().enumerate() {
            m.add(Origin { file: 0, index }, &a, g.clone());
        }
        let lean = m.finish().unwrap();
        assert!(lean.games.iter().all(|g| g.moves.is_empty()));
        assert_eq!(lean.report(), batch.report());
        assert_eq!(lean.warnings, batch.warnings, "the differing copy is seen");
        assert_eq!(lean.duplicates, 1);
        // Untagged games that differ only in their moves are two games.
        let mut other = rules_log();
        other.moves.truncate(1);
        let mut m = Merger::lean();
        for (index, g) in [rules_log(), other, rules_log()].into_iter().enumerate() {
            m.add(Origin { file: 0, index }, &a, g);
        }
        let lean = m.finish().unwrap();
        assert_eq!((lean.games.len(), lean.duplicates), (2, 1));
    }

    fn named(mut g: GameLog, event: &str) -> GameLog {
        g.event = event.into();
        g
    }

    #[test]
    fn a_ladder_merges_with_the_events_held_within_it() {
        // An arena pool's export: ladder games, then two events' games
        // (their slots overlap: each event numbers its own), one slot twice.
        let ladder = "mancala arena p";
        let (e1, e2) = ("mancala arena p event 1", "mancala arena p event 2");
        let mut other_ladder_game = rules_log();
        other_ladder_game.south = "Gamma".into();
        let games = [
            named(rules_log(), ladder),
            named(tagged("s2", 0, 2), e2),
            named(tagged("s1", 0, 2), e1),
            named(tagged("s1", 1, 2), e1),
            named(other_ladder_game, ladder),
            named(tagged("s1", 1, 2), e1),
        ];
        let pool = write("pool.jsonl", &games);
        let m = merge(std::slice::from_ref(&pool)).unwrap();
        assert_eq!(m.games.len(), 5, "every game once, each slot once");
        assert_eq!(m.duplicates, 1);
        assert_eq!(m.schedule, None);
        assert!(m.missing.is_empty());
        assert_eq!(
            m.ladder,
            Some((ladder.to_owned(), vec![e1.to_owned(), e2.to_owned()]))
        );
        assert_eq!(m.report().games, 5);
        assert!(m.names.contains(&"Gamma".to_owned()), "{:?}", m.names);
        let summary = m.summary();
        assert!(
            summary.contains("\"mancala arena p\" and the event(s) held within it"),
            "{summary}"
        );
        // The same games split over files, in another order: the same merge.
        let a = write("pool-a.jsonl", &games[3..]);
        let b = write("pool-b.jsonl", &games[..3]);
        let split = merge(&[a, b]).unwrap();
        assert_eq!(split.games.len(), 5);
        assert_eq!(split.report(), m.report());
        // A watch's look agrees with the batch.
        let mut w = Merger::watching();
        for (index, g) in games.iter().enumerate() {
            w.add(Origin { file: 0, index }, &pool, g.clone());
        }
        let look = w.look().unwrap().unwrap();
        assert_eq!((look.counted, look.event.as_str()), (5, ladder));
        assert_eq!(look.report(), m.report());
        // Events alone (no ladder game) merge too.
        let events = write("events.jsonl", &games[1..4]);
        let m = merge(&[events]).unwrap();
        assert_eq!((m.games.len(), m.ladder.unwrap().1.len()), (3, 2));
    }

    #[test]
    fn a_tournament_and_foreign_games_are_refused_naming_both_files() {
        let ladder = write("ladder.jsonl", &[named(rules_log(), "mancala arena p")]);
        let other = write("other.jsonl", &[named(tagged("s1", 0, 2), "Club cup")]);
        let e = merge(&[other.clone(), ladder.clone()]).unwrap_err();
        assert!(
            e.0.contains(&format!("{} holds tournament games", other.display()))
                && e.0
                    .contains(&format!("but {} holds games", ladder.display())),
            "{e}"
        );
        // Both in one file: named once.
        let both = write(
            "both.jsonl",
            &[
                named(tagged("s1", 0, 2), "Club cup"),
                named(rules_log(), "mancala arena p"),
            ],
        );
        let e = merge(std::slice::from_ref(&both)).unwrap_err();
        assert!(
            e.0.contains(&format!("{} holds both tournament games", both.display())),
            "{e}"
        );
        assert_eq!(e.0.matches(&both.display().to_string()).count(), 1, "{e}");
        // An event of another ladder, and two schedules under one event's name.
        let wrong = write(
            "wrong.jsonl",
            &[named(tagged("s1", 0, 2), "mancala arena q event 1")],
        );
        assert!(merge(&[ladder.clone(), wrong]).is_err());
        let twice = write(
            "twice.jsonl",
            &[
                named(tagged("s1", 0, 2), "mancala arena p event 1"),
                named(tagged("s2", 0, 2), "mancala arena p event 1"),
            ],
        );
        let e = merge(&[ladder, twice]).unwrap_err();
        assert!(e.0.contains("different tournaments"), "{e}");
    }

    #[test]
    fn refuses_different_tournaments() {
        let a = write("c.jsonl", &[tagged("s1", 0, 4)]);
        let b = write("d.jsonl", &[tagged("s2", 1, 4)]);
        let e = merge(&[a, b]).unwrap_err();
        assert!(e.0.contains("different tournaments"), "{e}");
        assert!(
            e.0.contains("schedule s1") && e.0.contains("schedule s2"),
            "{e}"
        );
        let mut other = rules_log();
        other.event = "Other".into();
        let c = write("e.jsonl", &[rules_log()]);
        let d = write("f.jsonl", &[other]);
        let e = merge(&[c.clone(), d]).unwrap_err();
        assert!(e.0.contains("different events"), "{e}");
        let e = merge(&[write("g.jsonl", &[tagged("s1", 0, 4)]), c]).unwrap_err();
        assert!(e.0.contains("without a schedule slot"), "{e}");
    }
}
