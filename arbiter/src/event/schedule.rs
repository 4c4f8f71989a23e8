//! The tournament schedule: which games an event consists of, in which
//! order, from which openings — a pure function of the arguments (and
//! `--seed`), so that a resumed or sharded run plays exactly the same games.
//!
//! - Round robin: every pairing plays `rounds` game pairs (colours swapped,
//!   same opening) in each game id. Gauntlet: engine #1 against each other.
//! - A *round* is one game pair of every pairing. Within a round the
//!   pairings follow Berger tables (the circle method): each block holds
//!   pairings in which no engine appears twice, and a block's first games are
//!   all scheduled before its return games, so with any concurrency every
//!   engine progresses at the same pace.
//! - Every game pair of round `k` (and game id) starts from opening `k`, as in
//!   cutechess: the whole field plays the same openings.
//! - Each slot has a stable index; logs carry it in tags (see [`TAG_SCHEDULE`]
//!   …), with the schedule's fingerprint, so that `--resume` and
//!   `arbiter merge` recognise finished games.

use std::fmt;
use std::str::FromStr;

use mancala_rules::GameId;

use crate::engine::config::EngineSpec;
use crate::play::openings::Openings;
use crate::play::runner::Job;
use crate::records::log::GameLog;

/// Tag with the schedule's fingerprint ([`Schedule::id`]).
pub const TAG_SCHEDULE: &str = "Schedule";
/// Tag `index/size`: the slot in the schedule.
pub const TAG_SLOT: &str = "Slot";
/// Tag with the pair number (the two games of a pair share it).
pub const TAG_PAIR: &str = "Pair";
/// Tag `south-north`: the engines' positions in the event's engine list.
pub const TAG_SEATS: &str = "Seats";

/// The tournament format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "unknown format {s:?} (known: round-robin, gauntlet)"
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// Everything that decides the schedule and the conditions of its games.
#[derive(Clone, Debug)]
pub struct EventSpec {
    pub event: String,
    pub format: Format,
    pub games: Vec<GameId>,
    pub rounds: usize,
    pub engines: Vec<EngineSpec>,
    pub openings: Openings,
    pub max_plies: Option<u32>,
}

/// The games of an event, in playing order.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// A fingerprint of the event: engine names, time controls and options,
    /// the games in order with their openings, the ply limit and the event
    /// name (not the engine paths, the concurrency or the shard).
    pub id: String,
    pub jobs: Vec<Job>,
}

/// `--shard i/n`: the slots whose index `k` has `k % n == i − 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: expected i/n with 1 ≤ i ≤ n, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    pub fn contains(&self, slot: usize) -> bool {
        slot % self.count == self.index - 1
    }
}

/// Berger tables: `n − 1` (even `n`) or `n` (odd `n`) blocks of pairings in
/// which no engine plays twice; every pairing appears exactly once. The
/// first engine of a pair is South in the pair's first game.
pub fn berger_blocks(n: usize) -> Vec<Vec<(usize, usize)>> {
    if n < 2 {
        return Vec::new();
    }
    // An odd field gets a dummy: whoever meets it sits the block out.
    let m = n + n % 2;
    (0..m - 1)
        .map(|r| {
            let seat = |k: usize| if k == 0 { 0 } else { 1 + (k - 1 + r) % (m - 1) };
            (0..m / 2)
                .map(|k| (seat(k), seat(m - 1 - k), k))
                .filter(|&(a, b, _)| a < n && b < n)
                // why: alternate who is South first, so that over the blocks
                // nobody always opens a pair with the same colour.
                .map(|(a, b, k)| if (r + k) % 2 == 0 { (a, b) } else { (b, a) })
                .collect()
        })
        .collect()
}

/// The gauntlet's pairings: engine 0 against each other engine, one block.
fn gauntlet_blocks(n: usize) -> Vec<Vec<(usize, usize)>> {
    vec![(1..n).map(|j| (0, j)).collect()]
}

/// FNV-1a, 64 bits: a fingerprint that is the same on every platform and
/// Rust version (unlike `DefaultHasher`).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Schedule {
    /// Builds the schedule of `spec`.
    pub fn build(spec: &EventSpec) -> Schedule {
        let n = spec.engines.len();
        let blocks = match spec.format {
            Format::RoundRobin => berger_blocks(n),
            Format::Gauntlet => gauntlet_blocks(n),
        };
        let mut jobs = Vec::new();
        let mut pair = 0;
        for round in 0..spec.rounds {
            let mut in_round = 0;
            for &game in &spec.games {
                let start_position = spec.openings.for_pair(game, round);
                for block in &blocks {
                    let first_pair = pair;
                    for colour in 0..2 {
                        for (k, &(a, b)) in block.iter().enumerate() {
                            let (south, north) = if colour == 0 { (a, b) } else { (b, a) };
                            in_round += 1;
                            jobs.push(Job {
                                index: jobs.len(),
                                round: format!("{}.{in_round}", round + 1),
                                game,
                                south,
                                north,
                                start_position: start_position.clone(),
                                pair: first_pair + k,
                            });
                        }
                    }
                    pair += block.len();
                }
            }
        }
        let id = format!("{:016x}", fnv1a(&fingerprint_text(spec, &jobs)));
        Schedule { id, jobs }
    }

    /// The jobs of `shard` (all when `None`).
    pub fn shard(&self, shard: Option<Shard>) -> impl Iterator<Item = &Job> {
        self.jobs.iter().filter(move |j| match shard {
            Some(s) => s.contains(j.index),
            None => true,
        })
    }

    /// Writes the slot's tags into a finished game's log.
    pub fn tag(&self, log: &mut GameLog, job: &Job) {
        log.tags.insert(TAG_SCHEDULE.into(), self.id.clone());
        log.tags.insert(
            TAG_SLOT.into(),
            format!("{}/{}", job.index, self.jobs.len()),
        );
        log.tags.insert(TAG_PAIR.into(), job.pair.to_string());
        log.tags
            .insert(TAG_SEATS.into(), format!("{}-{}", job.south, job.north));
    }
}

/// The canonical text hashed into [`Schedule::id`].
fn fingerprint_text(spec: &EventSpec, jobs: &[Job]) -> String {
    use std::fmt::Write;
    let mut text = format!(
        "event={}\nformat={}\nmax_plies={:?}\n",
        spec.event, spec.format, spec.max_plies
    );
    for e in &spec.engines {
        let _ = write!(text, "engine={}\ttc={}", e.name, e.tc);
        for (k, v) in &e.options {
            let _ = write!(text, "\t{k}={v}");
        }
        text.push('\n');
    }
    for j in jobs {
        let _ = writeln!(
            text,
            "{}\t{}\t{}\t{}\t{}\t{}",
            j.index, j.round, j.game, j.south, j.north, j.start_position
        );
    }
    text
}

/// Where a logged game sits in its schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotKey {
    pub schedule: String,
    pub index: usize,
    /// The number of slots of the schedule.
    pub size: usize,
    pub pair: Option<usize>,
    /// Engine list positions of South and North.
    pub seats: Option<(usize, usize)>,
}

impl SlotKey {
    /// The key of a log written by a tournament; `None` for other logs.
    pub fn of(log: &GameLog) -> Option<SlotKey> {
        let schedule = log.tags.get(TAG_SCHEDULE)?.clone();
        let (index, size) = log.tags.get(TAG_SLOT)?.split_once('/')?;
        let seats = log.tags.get(TAG_SEATS).and_then(|s| {
            let (a, b) = s.split_once('-')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        });
        Some(SlotKey {
            schedule,
            index: index.parse().ok()?,
            size: size.parse().ok()?,
            pair: log.tags.get(TAG_PAIR).and_then(|p| p.parse().ok()),
            seats,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::engine::config::parse_engines;

    fn spec(n: usize, format: Format, rounds: usize, games: Vec<GameId>) -> EventSpec {
        let engines: Vec<Vec<String>> = (0..n)
            .map(|i| {
                vec![
                    "cmd=/bin/true".into(),
                    format!("name=E{i}"),
                    "depth=1".into(),
                ]
            })
            .collect();
        EventSpec {
            event: "test".into(),
            format,
            games,
            rounds,
            engines: parse_engines(&engines, &[], None).unwrap(),
            openings: Openings::Random { plies: 2, seed: 5 },
            max_plies: None,
        }
    }

    #[test]
    fn berger_blocks_pair_everyone_once() {
        for n in 2..=9 {
            let blocks = berger_blocks(n);
            assert_eq!(blocks.len(), if n % 2 == 0 { n - 1 } else { n });
            let mut seen = BTreeSet::new();
            for block in &blocks {
                let mut engines = BTreeSet::new();
                for &(a, b) in block {
                    assert!(
                        engines.insert(a) && engines.insert(b),
                        "n={n}: twice in a block"
                    );
                    assert!(seen.insert((a.min(b), a.max(b))), "n={n}: pairing repeated");
                }
            }
            assert_eq!(seen.len(), n * (n - 1) / 2, "n={n}");
        }
    }

    #[test]
    fn round_robin_schedule() {
        let s = Schedule::build(&spec(4, Format::RoundRobin, 2, vec![GameId::Bohnenspiel]));
        // 6 pairings × 2 colours × 2 rounds.
        assert_eq!(s.jobs.len(), 24);
        for (i, j) in s.jobs.iter().enumerate() {
            assert_eq!(j.index, i);
        }
        // Each pair: two games, colours swapped, same opening.
        for p in 0..12 {
            let games: Vec<&Job> = s.jobs.iter().filter(|j| j.pair == p).collect();
            assert_eq!(games.len(), 2);
            assert_eq!(
                (games[0].south, games[0].north),
                (games[1].north, games[1].south)
            );
            assert_eq!(games[0].start_position, games[1].start_position);
        }
        // A round uses one opening; the next round another.
        assert!(s.jobs[..12]
            .iter()
            .all(|j| j.start_position == s.jobs[0].start_position));
        assert_ne!(s.jobs[0].start_position, s.jobs[12].start_position);
        assert_eq!(s.jobs[0].round, "1.1");
        assert_eq!(s.jobs[13].round, "2.2");
        // Fair order: in every window of 4 consecutive games (two Berger
        // blocks' halves), each engine has played between 1 and 3 games.
        for w in s.jobs.chunks(4) {
            for e in 0..4 {
                let c = w.iter().filter(|j| j.south == e || j.north == e).count();
                assert!((1..=3).contains(&c), "{w:?}");
            }
        }
        // Deterministic, and sensitive to what defines the event.
        let again = Schedule::build(&spec(4, Format::RoundRobin, 2, vec![GameId::Bohnenspiel]));
        assert_eq!(s.id, again.id);
        let mut other = spec(4, Format::RoundRobin, 2, vec![GameId::Bohnenspiel]);
        other.openings = Openings::Random { plies: 2, seed: 6 };
        assert_ne!(s.id, Schedule::build(&other).id);
        let mut other = spec(4, Format::RoundRobin, 2, vec![GameId::Bohnenspiel]);
        other.engines[1].tc.depth = Some(2);
        assert_ne!(s.id, Schedule::build(&other).id);
    }

    #[test]
    fn gauntlet_and_several_games() {
        let s = Schedule::build(&spec(
            4,
            Format::Gauntlet,
            1,
            vec![GameId::Bohnenspiel, GameId::Bosh],
        ));
        // 3 pairings × 2 colours × 2 games.
        assert_eq!(s.jobs.len(), 12);
        assert!(s.jobs.iter().all(|j| j.south == 0 || j.north == 0));
        assert_eq!(s.jobs.iter().filter(|j| j.game == GameId::Bosh).count(), 6);
        assert!(s.jobs[6..]
            .iter()
            .all(|j| j.start_position.starts_with("bosh ")));
    }

    #[test]
    fn shards_partition_the_schedule() {
        let s = Schedule::build(&spec(3, Format::RoundRobin, 3, vec![GameId::Bohnenspiel]));
        let mut all: Vec<usize> = (1..=3)
            .flat_map(|i| {
                let shard = Shard { index: i, count: 3 };
                s.shard(Some(shard)).map(|j| j.index).collect::<Vec<_>>()
            })
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..s.jobs.len()).collect::<Vec<_>>());
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "x/3", "3", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn tags_round_trip() {
        let s = Schedule::build(&spec(2, Format::RoundRobin, 1, vec![GameId::Bohnenspiel]));
        let mut log = crate::records::log::tests::rules_log();
        s.tag(&mut log, &s.jobs[1]);
        let key = SlotKey::of(&log).unwrap();
        assert_eq!(
            key,
            SlotKey {
                schedule: s.id.clone(),
                index: 1,
                size: 2,
                pair: Some(0),
                seats: Some((s.jobs[1].south, s.jobs[1].north)),
            }
        );
        // The tags survive both log formats.
        let line = crate::records::jsonl::to_line(&log);
        assert_eq!(
            SlotKey::of(&crate::records::jsonl::parse_line(&line).unwrap()),
            Some(key.clone())
        );
        let pgn = crate::records::pgn::write_game(&log);
        let back = crate::records::pgn::parse_games(&pgn).unwrap();
        assert_eq!(SlotKey::of(&back[0]), Some(key));
        assert_eq!(SlotKey::of(&crate::records::log::tests::rules_log()), None);
    }
}
