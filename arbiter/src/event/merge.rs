//! `arbiter merge`: combines the results logs of one event (shards, reruns)
//! into one set of games, without duplicates, for one standings table.
//!
//! Games written by `arbiter tournament` carry their schedule's fingerprint
//! and slot (see [`crate::event::schedule`]): a slot is counted once (the first
//! copy; a copy that differs is reported), and logs of different schedules
//! are refused. Logs without those tags (e.g. from `arbiter match`) are
//! merged as they are when they all name the same event; exact copies of a
//! game are dropped.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::event::resume;
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
    pub missing: Vec<usize>,
    pub duplicates: usize,
    pub warnings: Vec<String>,
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
    let mut merged = Merged::default();
    // Where each schedule (or untagged event) was first seen, for messages.
    let mut schedules: BTreeMap<String, (PathBuf, String, usize)> = BTreeMap::new();
    let mut untagged_events: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut by_slot: BTreeMap<usize, GameLog> = BTreeMap::new();
    let mut untagged: Vec<GameLog> = Vec::new();
    let mut seats: BTreeMap<usize, String> = BTreeMap::new();
    let mut differing = 0;
    for path in paths {
        let (games, warnings) = read_log(path)?;
        merged.warnings.extend(warnings);
        for game in games {
            match SlotKey::of(&game) {
                Some(key) => {
                    schedules
                        .entry(key.schedule.clone())
                        .or_insert_with(|| (path.clone(), game.event.clone(), key.size));
                    if let Some((s, n)) = key.seats {
                        seats.entry(s).or_insert_with(|| game.south.clone());
                        seats.entry(n).or_insert_with(|| game.north.clone());
                    }
                    if game.result.is_none() {
                        continue;
                    }
                    match by_slot.get(&key.index) {
                        Some(kept) => {
                            merged.duplicates += 1;
                            if kept.moves != game.moves || kept.result != game.result {
                                differing += 1;
                            }
                        }
                        None => {
                            by_slot.insert(key.index, game);
                        }
                    }
                }
                None => {
                    untagged_events
                        .entry(game.event.clone())
                        .or_insert_with(|| path.clone());
                    if game.result.is_none() {
                        continue;
                    }
                    if untagged.contains(&game) {
                        merged.duplicates += 1;
                    } else {
                        untagged.push(game);
                    }
                }
            }
        }
    }
    if schedules.len() > 1 {
        let list: Vec<String> = schedules
            .iter()
            .map(|(id, (path, event, _))| {
                format!("{} holds event {event:?} (schedule {id})", path.display())
            })
            .collect();
        return Err(MergeError(format!(
            "the logs come from different tournaments: {}; merge only the logs of one \
             tournament (same arguments and --seed)",
            list.join("; ")
        )));
    }
    if let (Some((id, (path, event, _))), Some((other_event, other_path))) =
        (schedules.iter().next(), untagged_events.iter().next())
    {
        return Err(MergeError(format!(
            "{} holds tournament games (event {event:?}, schedule {id}) but {} holds games \
             of event {other_event:?} without a schedule slot; they cannot be from the same event",
            path.display(),
            other_path.display()
        )));
    }
    if untagged_events.len() > 1 {
        let list: Vec<String> = untagged_events
            .iter()
            .map(|(e, p)| format!("{} holds event {e:?}", p.display()))
            .collect();
        return Err(MergeError(format!(
            "the logs come from different events: {}",
            list.join("; ")
        )));
    }
    if differing > 0 {
        merged.warnings.push(format!(
            "{differing} slot(s) were played more than once with different games; the first \
             copy (in the order the logs were given) is counted"
        ));
    }
    if let Some((id, (_, _, size))) = schedules.into_iter().next() {
        merged.missing = (0..size).filter(|i| !by_slot.contains_key(i)).collect();
        merged.schedule = Some((id, size));
    }
    merged.games = by_slot.into_values().chain(untagged).collect();
    merged.names = seats.into_values().collect();
    for g in &merged.games {
        for n in [&g.south, &g.north] {
            if !merged.names.contains(n) {
                merged.names.push(n.clone());
            }
        }
    }
    Ok(merged)
}

impl Merged {
    /// A few lines on what was merged (before the report).
    pub fn summary(&self) -> String {
        let mut out = format!("Merged {} game(s)", self.games.len());
        if let Some((id, size)) = &self.schedule {
            out.push_str(&format!(" of tournament schedule {id} ({size} slots)"));
        }
        if self.duplicates > 0 {
            out.push_str(&format!(", {} duplicate(s) dropped", self.duplicates));
        }
        out.push('\n');
        if !self.missing.is_empty() {
            let shown: Vec<String> = self.missing.iter().take(20).map(usize::to_string).collect();
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
    use crate::records::log::tests::rules_log;

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
        assert_eq!(m.missing, vec![3]);
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
