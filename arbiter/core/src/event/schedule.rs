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
//! - Pyramid (cutechess's): engine #k meets engines #1 … #k−1 in turn, the
//!   newcomer South in the pair's first game; the pairings of a round robin
//!   in another order.
//! - Swiss and knockout pair each round from the results of the rounds
//!   before ([`crate::event::formats`]): their schedule is a [`StageLayout`],
//!   a fixed number of stages of fixed width whose pairings are given as the
//!   event goes.
//! - Each slot has a stable index; logs carry it in tags (see [`TAG_SCHEDULE`]
//!   …), with the schedule's fingerprint, so that `--resume` and
//!   `arbiter merge` recognise finished games.
//! - Nothing is walked before the first game: the fingerprint is hashed over
//!   what defines the games (engines, format, rounds, games, the openings'
//!   source), not over the games, so an event of 10^8 rounds starts at once.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use mancala_rules::GameId;

use crate::contender::config::EngineSpec;
use crate::play::job::Job;
use crate::play::openings::Openings;
use crate::records::log::GameLog;

// why re-exported: the tags are written here, with the schedule; they are
// read back (SlotKey) in records, which statistics use without the schedule.
pub use crate::records::slot::{SlotKey, TAG_PAIR, TAG_SCHEDULE, TAG_SEATS, TAG_SLOT};

/// The tournament format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
    Pyramid,
    Swiss,
    Knockout,
}

impl Format {
    /// Whether each round is paired from the results before it.
    pub fn is_staged(self) -> bool {
        matches!(self, Format::Swiss | Format::Knockout)
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            "pyramid" => Ok(Format::Pyramid),
            "swiss" => Ok(Format::Swiss),
            "knockout" => Ok(Format::Knockout),
            _ => Err(format!(
                "unknown format {s:?} (known: round-robin, gauntlet, pyramid, swiss, knockout)"
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Pyramid => "pyramid",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
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
    /// Knockout: extra pairs played at most to break a tie (see
    /// [`crate::event::formats::knockout`]); 0 for other formats.
    pub tiebreak_pairs: usize,
}

/// The games of an event, in playing order. The jobs are not stored: each
/// is computed from its index ([`Schedule::job`], [`Schedule::jobs`]), so an
/// event of any size takes the same memory.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// A fingerprint of the event: engine names, time controls and options,
    /// the games in order with their openings, the ply limit and the event
    /// name (not the engine paths, the concurrency or the shard).
    pub id: String,
    layout: Arc<Layout>,
    /// For formats paired round by round (the fixed layout is then empty).
    stages: Option<StageLayout>,
}

/// The slots of a format paired round by round: `stages` stages of `width`
/// pairings at most, each pairing one colour-swapped pair per game id.
/// Stage `k`'s games start from opening `k`; within a stage, the first games
/// of all pairings come before the return games, as in a round robin block.
#[derive(Clone, Debug)]
pub struct StageLayout {
    pub stages: usize,
    pub width: usize,
    games: Vec<GameId>,
    openings: Openings,
}

impl StageLayout {
    /// Slots per stage.
    pub fn per_stage(&self) -> usize {
        2 * self.width * self.games.len()
    }

    pub fn len(&self) -> usize {
        self.per_stage() * self.stages
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stage of slot `index`.
    pub fn stage_of(&self, index: usize) -> usize {
        index / self.per_stage().max(1)
    }

    /// The jobs of stage `stage` with `pairings` (at most `width`; the first
    /// engine of a pairing is South in its first game), in playing order.
    /// `None` when the stage or the pairings do not fit the layout.
    pub fn jobs(&self, stage: usize, pairings: &[(usize, usize)]) -> Option<Vec<Job>> {
        if stage >= self.stages || pairings.len() > self.width {
            return None;
        }
        let p = pairings.len();
        let mut jobs = Vec::with_capacity(2 * p * self.games.len());
        for (g, &game) in self.games.iter().enumerate() {
            let start_position = self.openings.for_pair(game, stage);
            for colour in 0..2 {
                for (k, &(a, b)) in pairings.iter().enumerate() {
                    let (south, north) = if colour == 0 { (a, b) } else { (b, a) };
                    jobs.push(Job {
                        index: stage * self.per_stage()
                            + g * 2 * self.width
                            + colour * self.width
                            + k,
                        round: format!("{}.{}", stage + 1, g * 2 * p + colour * p + k + 1),
                        game,
                        south,
                        north,
                        start_position: start_position.clone(),
                        pair: (stage * self.games.len() + g) * self.width + k,
                    });
                }
            }
        }
        Some(jobs)
    }
}

/// What a job is computed from.
#[derive(Debug)]
struct Layout {
    rounds: usize,
    games: Vec<GameId>,
    blocks: Vec<Vec<(usize, usize)>>,
    /// Pairings before each block, and in all (`pairings`).
    offsets: Vec<usize>,
    pairings: usize,
    openings: Openings,
}

impl Layout {
    fn of(spec: &EventSpec, blocks: Vec<Vec<(usize, usize)>>) -> Layout {
        let blocks: Vec<Vec<(usize, usize)>> =
            blocks.into_iter().filter(|b| !b.is_empty()).collect();
        let offsets = blocks
            .iter()
            .scan(0, |sum, b| {
                let off = *sum;
                *sum += b.len();
                Some(off)
            })
            .collect();
        Layout {
            rounds: if blocks.is_empty() { 0 } else { spec.rounds },
            games: spec.games.clone(),
            pairings: blocks.iter().map(Vec::len).sum(),
            blocks,
            offsets,
            openings: spec.openings.clone(),
        }
    }

    /// Jobs per round and game id: every pairing in both colours.
    fn per_game(&self) -> usize {
        2 * self.pairings
    }

    fn per_round(&self) -> usize {
        self.per_game() * self.games.len()
    }

    fn len(&self) -> usize {
        self.per_round() * self.rounds
    }

    /// Job `index` with its start position (see [`Layout::opening`]).
    fn job(&self, index: usize, start_position: String) -> Job {
        let (round, in_round) = (index / self.per_round(), index % self.per_round());
        let (g, in_game) = (in_round / self.per_game(), in_round % self.per_game());
        // The block holding this game: blocks are played first games, then
        // return games (colours swapped), block after block.
        let b = self
            .offsets
            .iter()
            .rposition(|&off| 2 * off <= in_game)
            .unwrap_or(0);
        let block = &self.blocks[b];
        let within = in_game - 2 * self.offsets[b];
        let (colour, k) = (within / block.len(), within % block.len());
        let (a, bb) = block[k];
        let (south, north) = if colour == 0 { (a, bb) } else { (bb, a) };
        Job {
            index,
            round: format!("{}.{}", round + 1, in_round + 1),
            game: self.games[g],
            south,
            north,
            start_position,
            pair: (round * self.games.len() + g) * self.pairings + self.offsets[b] + k,
        }
    }

    /// The (round, game id) of job `index`: the key of its opening.
    fn opening_key(&self, index: usize) -> (usize, usize) {
        let in_round = index % self.per_round();
        (index / self.per_round(), in_round / self.per_game())
    }

    fn opening(&self, key: (usize, usize)) -> String {
        self.openings.for_pair(self.games[key.1], key.0)
    }
}

/// The jobs of a schedule from some index on, in order (computed as they
/// are taken; the opening of a round is computed once per round and game).
#[derive(Debug)]
pub struct Jobs {
    layout: Arc<Layout>,
    next: usize,
    end: usize,
    shard: Option<Shard>,
    opening: Option<((usize, usize), String)>,
}

impl Jobs {
    /// Moves `next` to the next slot of the shard (if any).
    fn align(&mut self) {
        if let Some(s) = self.shard {
            let want = s.index - 1;
            let at = self.next % s.count;
            if at != want {
                self.next = self.next.saturating_add((want + s.count - at) % s.count);
            }
        }
    }
}

impl Iterator for Jobs {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        self.align();
        if self.next >= self.end {
            return None;
        }
        let index = self.next;
        self.next += self.shard.map_or(1, |s| s.count);
        let key = self.layout.opening_key(index);
        let position = match &self.opening {
            Some((k, p)) if *k == key => p.clone(),
            _ => {
                let p = self.layout.opening(key);
                self.opening = Some((key, p.clone()));
                p
            }
        };
        Some(self.layout.job(index, position))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let mut at = Jobs {
            layout: Arc::clone(&self.layout),
            opening: None,
            ..*self
        };
        at.align();
        let step = self.shard.map_or(1, |s| s.count);
        let n = match self.end.checked_sub(at.next) {
            Some(left) if left > 0 => (left - 1) / step + 1,
            _ => 0,
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Jobs {}

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

/// The pyramid's pairings (cutechess's order): block `k` is engine `k`
/// against engines `0 … k−1`, engine `k` South first.
fn pyramid_blocks(n: usize) -> Vec<Vec<(usize, usize)>> {
    (1..n).map(|k| (0..k).map(|j| (k, j)).collect()).collect()
}

/// The pairings of a fixed format (empty for a staged one).
fn fixed_blocks(format: Format, n: usize) -> Vec<Vec<(usize, usize)>> {
    match format {
        Format::RoundRobin => berger_blocks(n),
        Format::Gauntlet => gauntlet_blocks(n),
        Format::Pyramid => pyramid_blocks(n),
        Format::Swiss | Format::Knockout => Vec::new(),
    }
}

/// The most stages of a staged format, and their width.
pub fn stage_shape(
    format: Format,
    n: usize,
    rounds: usize,
    tiebreak_pairs: usize,
) -> (usize, usize) {
    match format {
        Format::Swiss => (rounds, n / 2),
        Format::Knockout => {
            // Each bracket round: the encounter's pairs, then tie-break pairs.
            let bracket_rounds = n.max(1).next_power_of_two().trailing_zeros() as usize;
            (
                bracket_rounds.saturating_mul(rounds.saturating_add(tiebreak_pairs)),
                n / 2,
            )
        }
        _ => (0, 0),
    }
}

// FNV-1a, 64 bits ([`Fnv1a`]): a fingerprint that is the same on every
// platform and Rust version (unlike `DefaultHasher`).

impl Schedule {
    /// Builds the schedule of `spec` in time independent of its size (see
    /// [`fingerprint`]).
    pub fn build(spec: &EventSpec) -> Schedule {
        let n = spec.engines.len();
        let stages = spec.format.is_staged().then(|| {
            let (stages, width) = stage_shape(spec.format, n, spec.rounds, spec.tiebreak_pairs);
            StageLayout {
                stages,
                width,
                games: spec.games.clone(),
                openings: spec.openings.clone(),
            }
        });
        Schedule {
            id: fingerprint(spec),
            layout: Arc::new(Layout::of(spec, fixed_blocks(spec.format, n))),
            stages,
        }
    }

    /// The fingerprint the schedule had before it was hashed over its
    /// definition (over every job's line: time linear in the size), so that
    /// logs written then are still recognised ([`crate::event::extend`]).
    /// Only round robins and gauntlets existed then.
    pub fn legacy_id(spec: &EventSpec) -> Option<String> {
        if !matches!(spec.format, Format::RoundRobin | Format::Gauntlet) {
            return None;
        }
        let layout = Layout::of(spec, fixed_blocks(spec.format, spec.engines.len()));
        let jobs = Jobs {
            end: layout.len(),
            layout: Arc::new(layout),
            next: 0,
            shard: None,
            opening: None,
        };
        let mut hash = Fnv1a::default();
        write_fingerprint_head(&mut hash, spec);
        for j in jobs {
            use std::fmt::Write;
            let _ = writeln!(
                hash,
                "{}\t{}\t{}\t{}\t{}\t{}",
                j.index, j.round, j.game, j.south, j.north, j.start_position
            );
        }
        Some(format!("{:016x}", hash.0))
    }

    /// The layout of a format paired round by round.
    pub fn stages(&self) -> Option<&StageLayout> {
        self.stages.as_ref()
    }

    /// The number of games (slots); for a staged format, the most it can have.
    pub fn len(&self) -> usize {
        self.stages
            .as_ref()
            .map_or(self.layout.len(), StageLayout::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every job, in order (none for a staged format: see [`Schedule::stages`]).
    pub fn jobs(&self) -> Jobs {
        self.shard(None)
    }

    /// Job `index`, if the schedule has it.
    pub fn job(&self, index: usize) -> Option<Job> {
        (index < self.layout.len()).then(|| {
            let key = self.layout.opening_key(index);
            self.layout.job(index, self.layout.opening(key))
        })
    }

    /// The jobs of `shard` (all when `None`), in order.
    pub fn shard(&self, shard: Option<Shard>) -> Jobs {
        Jobs {
            layout: Arc::clone(&self.layout),
            next: 0,
            end: self.layout.len(),
            shard,
            opening: None,
        }
    }

    /// Writes the slot's tags into a finished game's log.
    pub fn tag(&self, log: &mut GameLog, job: &Job) {
        log.tags.insert(TAG_SCHEDULE.into(), self.id.clone());
        log.tags
            .insert(TAG_SLOT.into(), format!("{}/{}", job.index, self.len()));
        log.tags.insert(TAG_PAIR.into(), job.pair.to_string());
        log.tags
            .insert(TAG_SEATS.into(), format!("{}-{}", job.south, job.north));
    }
}

/// The streaming form of [`fnv1a`].
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl std::fmt::Write for Fnv1a {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 = s.bytes().fold(self.0, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        Ok(())
    }
}

/// The version of [`fingerprint`]'s text: a new one never equals a legacy id.
const FINGERPRINT_VERSION: u32 = 2;

/// [`Schedule::id`]: a hash of everything that decides the games — the event
/// head, the round count, the game ids, the openings' source (the list of a
/// file or suite, the seed of random ones) and the tie-break limit — in time
/// independent of the round count. The pairings and openings are pure
/// functions of these (and, for staged formats, of the results), so the same
/// text means the same games.
pub fn fingerprint(spec: &EventSpec) -> String {
    use std::fmt::Write;
    let mut hash = Fnv1a::default();
    let _ = writeln!(hash, "fingerprint={FINGERPRINT_VERSION}");
    write_fingerprint_head(&mut hash, spec);
    let games: Vec<&str> = spec.games.iter().map(|g| g.as_str()).collect();
    let _ = writeln!(
        hash,
        "rounds={}\ngames={}\ntiebreak_pairs={}",
        spec.rounds,
        games.join(","),
        spec.tiebreak_pairs
    );
    match &spec.openings {
        Openings::StartPosition => {
            let _ = writeln!(hash, "openings=start");
        }
        Openings::Random { plies, seed } => {
            let _ = writeln!(hash, "openings=random plies={plies} seed={seed}");
        }
        Openings::List(list) => {
            let _ = writeln!(hash, "openings=list {}", list.len());
            for p in list {
                let _ = writeln!(hash, "{p}");
            }
        }
        Openings::Suite => {
            let _ = writeln!(hash, "openings=suite");
            for &game in &spec.games {
                for p in crate::play::openings::suite(game).unwrap_or_default() {
                    let _ = writeln!(hash, "{p}");
                }
            }
        }
    }
    format!("{:016x}", hash.0)
}

/// The event part of the text hashed into [`Schedule::id`].
fn write_fingerprint_head(out: &mut impl std::fmt::Write, spec: &EventSpec) {
    let _ = write!(
        out,
        "event={}\nformat={}\nmax_plies={:?}\n",
        spec.event, spec.format, spec.max_plies
    );
    for e in &spec.engines {
        let _ = write!(out, "engine={}\ttc={}", e.name, e.tc);
        for (k, v) in &e.options {
            let _ = write!(out, "\t{k}={v}");
        }
        let _ = out.write_char('\n');
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::contender::config::parse_engines;

    /// An event of `n` placeholder engines (`E0`, …) from random 2-ply
    /// openings, for schedule tests here and in [`crate::event::extend`].
    pub(crate) fn spec(n: usize, format: Format, rounds: usize, games: Vec<GameId>) -> EventSpec {
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
            tiebreak_pairs: 0,
        }
    }

    /// The schedule as it was built before it became lazy: every job in a
    /// vector, and the fingerprint hashed over the whole text at once.
    fn eager(spec: &EventSpec) -> (String, Vec<Job>) {
        let blocks = fixed_blocks(spec.format, spec.engines.len());
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
        let mut text = String::new();
        write_fingerprint_head(&mut text, spec);
        for j in &jobs {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\n",
                j.index, j.round, j.game, j.south, j.north, j.start_position
            ));
        }
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        (format!("{hash:016x}"), jobs)
    }

    #[test]
    fn lazy_schedule_is_the_eager_one_with_the_same_fingerprint() {
        for n in 2..=7 {
            for format in [Format::RoundRobin, Format::Gauntlet, Format::Pyramid] {
                let spec = spec(n, format, 3, vec![GameId::Bohnenspiel, GameId::Bosh]);
                let (id, jobs) = eager(&spec);
                let lazy = Schedule::build(&spec);
                if format == Format::Pyramid {
                    assert_eq!(Schedule::legacy_id(&spec), None, "no legacy pyramid logs");
                } else {
                    assert_eq!(
                        Schedule::legacy_id(&spec),
                        Some(id),
                        "n={n} {format}: logs of earlier runs are recognised"
                    );
                }
                assert_ne!(Schedule::legacy_id(&spec), Some(lazy.id.clone()));
                assert_eq!(lazy.jobs().collect::<Vec<_>>(), jobs, "n={n} {format}");
                assert_eq!(lazy.jobs().len(), jobs.len());
                for j in &jobs {
                    assert_eq!(lazy.job(j.index).as_ref(), Some(j));
                }
                for count in 1..=4 {
                    for index in 1..=count {
                        let shard = Shard { index, count };
                        let want: Vec<&Job> =
                            jobs.iter().filter(|j| shard.contains(j.index)).collect();
                        let got: Vec<Job> = lazy.shard(Some(shard)).collect();
                        assert_eq!(got.iter().collect::<Vec<_>>(), want);
                        assert_eq!(lazy.shard(Some(shard)).len(), want.len());
                    }
                }
            }
        }
    }

    #[test]
    fn the_fingerprint_names_what_defines_the_games() {
        let base = spec(4, Format::RoundRobin, 2, vec![GameId::Bohnenspiel]);
        let id = Schedule::build(&base).id;
        assert_eq!(Schedule::build(&base.clone()).id, id);
        let mut changes: Vec<EventSpec> = Vec::new();
        for f in [
            Format::Gauntlet,
            Format::Pyramid,
            Format::Swiss,
            Format::Knockout,
        ] {
            changes.push(EventSpec {
                format: f,
                ..base.clone()
            });
        }
        changes.push(EventSpec {
            rounds: 3,
            ..base.clone()
        });
        changes.push(EventSpec {
            tiebreak_pairs: 1,
            ..base.clone()
        });
        changes.push(EventSpec {
            games: vec![GameId::Bosh],
            ..base.clone()
        });
        changes.push(EventSpec {
            max_plies: Some(50),
            ..base.clone()
        });
        changes.push(EventSpec {
            event: "other".into(),
            ..base.clone()
        });
        changes.push(EventSpec {
            openings: Openings::Random { plies: 3, seed: 5 },
            ..base.clone()
        });
        changes.push(EventSpec {
            openings: Openings::Suite,
            ..base.clone()
        });
        changes.push(EventSpec {
            openings: Openings::StartPosition,
            ..base.clone()
        });
        let list = |p: &[&str]| Openings::List(p.iter().map(|s| s.to_string()).collect());
        let one = EventSpec {
            openings: list(&["a", "b"]),
            ..base.clone()
        };
        let two = EventSpec {
            openings: list(&["a", "c"]),
            ..base.clone()
        };
        changes.push(one.clone());
        assert_ne!(Schedule::build(&one).id, Schedule::build(&two).id);
        let mut other_engine = base.clone();
        other_engine.engines[2]
            .options
            .push(("Level".into(), "3".into()));
        changes.push(other_engine);
        let ids: BTreeSet<String> = changes.iter().map(|s| Schedule::build(s).id).collect();
        assert_eq!(
            ids.len(),
            changes.len(),
            "each change gives its own fingerprint"
        );
        assert!(!ids.contains(&id));
    }

    #[test]
    fn a_huge_schedule_is_built_without_walking_it() {
        // 10^11 rounds: walking them would take days; building is immediate.
        let s = Schedule::build(&spec(
            3,
            Format::RoundRobin,
            100_000_000_000,
            vec![GameId::Bohnenspiel],
        ));
        assert_eq!(s.len(), 600_000_000_000);
        let last = s.job(s.len() - 1).unwrap();
        assert_eq!(last.round, "100000000000.6");
        assert_eq!(s.jobs().next().unwrap().index, 0);
    }

    #[test]
    fn pyramid_pairs_each_newcomer_with_those_before() {
        let s = Schedule::build(&spec(4, Format::Pyramid, 1, vec![GameId::Bohnenspiel]));
        let firsts: Vec<(usize, usize)> = s
            .jobs()
            .filter(|j| j.south > j.north)
            .map(|j| (j.south, j.north))
            .collect();
        assert_eq!(firsts, [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]);
        assert_eq!(s.len(), 12);
        // The newcomer opens: South in the first game of each pair.
        let j0 = s.job(0).unwrap();
        assert_eq!((j0.south, j0.north), (1, 0));
    }

    #[test]
    fn stage_layout_slots() {
        let mut sp = spec(5, Format::Swiss, 3, vec![GameId::Bohnenspiel, GameId::Bosh]);
        let s = Schedule::build(&sp);
        let st = s.stages().unwrap();
        // 2 pairings at most, 2 colours, 2 games: 8 slots a stage.
        assert_eq!(
            (st.stages, st.width, st.per_stage(), s.len()),
            (3, 2, 8, 24)
        );
        assert_eq!(s.jobs().count(), 0);
        let jobs = st.jobs(1, &[(4, 0), (1, 3)]).unwrap();
        let seats: Vec<(usize, usize, usize)> =
            jobs.iter().map(|j| (j.index, j.south, j.north)).collect();
        assert_eq!(
            seats,
            [
                (8, 4, 0),
                (9, 1, 3),
                (10, 0, 4),
                (11, 3, 1),
                (12, 4, 0),
                (13, 1, 3),
                (14, 0, 4),
                (15, 3, 1)
            ]
        );
        assert!(jobs.iter().all(|j| st.stage_of(j.index) == 1));
        assert_eq!(jobs[0].start_position, jobs[2].start_position);
        assert_ne!(
            jobs[0].start_position,
            st.jobs(0, &[(4, 0)]).unwrap()[0].start_position
        );
        assert_eq!(jobs[0].pair, jobs[2].pair);
        assert_eq!(jobs[4].game, GameId::Bosh);
        assert_eq!(jobs[7].round, "2.8");
        // One pairing: the slots of the missing one stay empty.
        let one = st.jobs(2, &[(2, 3)]).unwrap();
        let idx: Vec<usize> = one.iter().map(|j| j.index).collect();
        assert_eq!(idx, [16, 18, 20, 22]);
        assert!(st.jobs(3, &[(0, 1)]).is_none(), "past the last stage");
        assert!(
            st.jobs(0, &[(0, 1), (2, 3), (4, 0)]).is_none(),
            "wider than the layout"
        );
        // A knockout of 5: 3 bracket rounds of (3 + 2) stages.
        sp.format = Format::Knockout;
        sp.tiebreak_pairs = 2;
        let k = Schedule::build(&sp);
        assert_eq!(k.stages().unwrap().stages, 15);
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
        assert_eq!(s.len(), 24);
        for (i, j) in s.jobs().enumerate() {
            assert_eq!(j.index, i);
        }
        // Each pair: two games, colours swapped, same opening.
        for p in 0..12 {
            let games: Vec<Job> = s.jobs().filter(|j| j.pair == p).collect();
            assert_eq!(games.len(), 2);
            assert_eq!(
                (games[0].south, games[0].north),
                (games[1].north, games[1].south)
            );
            assert_eq!(games[0].start_position, games[1].start_position);
        }
        // A round uses one opening; the next round another.
        assert!(s
            .jobs()
            .take(12)
            .all(|j| j.start_position == s.job(0).unwrap().start_position));
        assert_ne!(
            s.job(0).unwrap().start_position,
            s.job(12).unwrap().start_position
        );
        assert_eq!(s.job(0).unwrap().round, "1.1");
        assert_eq!(s.job(13).unwrap().round, "2.2");
        // Fair order: in every window of 4 consecutive games (two Berger
        // blocks' halves), each engine has played between 1 and 3 games.
        for w in s.jobs().collect::<Vec<_>>().chunks(4) {
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
        assert_eq!(s.len(), 12);
        assert!(s.jobs().all(|j| j.south == 0 || j.north == 0));
        assert_eq!(s.jobs().filter(|j| j.game == GameId::Bosh).count(), 6);
        assert!(s
            .jobs()
            .skip(6)
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
        assert_eq!(all, (0..s.len()).collect::<Vec<_>>());
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "x/3", "3", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn tags_round_trip() {
        let s = Schedule::build(&spec(2, Format::RoundRobin, 1, vec![GameId::Bohnenspiel]));
        let mut log = crate::testing::rules_log();
        s.tag(&mut log, &s.job(1).unwrap());
        let key = SlotKey::of(&log).unwrap();
        assert_eq!(
            key,
            SlotKey {
                schedule: s.id.clone(),
                index: 1,
                size: 2,
                pair: Some(0),
                seats: Some((s.job(1).unwrap().south, s.job(1).unwrap().north)),
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
        assert_eq!(SlotKey::of(&crate::testing::rules_log()), None);
    }
}
