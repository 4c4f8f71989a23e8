//! The standings of a merge kept up game by game, for `arbiter serve
//! --watch`: counted when a game is kept, undone when an earlier copy of its
//! slot takes its place, so a look costs the same at game 20,000 as at game
//! 2,000. They are those of [`crate::stats::json::report`] of the merged
//! games (what `arbiter merge --json` prints), which the tests check after
//! every game.

use std::collections::BTreeMap;

use mancala_rules::Side;

use crate::event::place::Place;
use crate::records::log::GameLog;
use crate::records::slot::SlotKey;
use crate::stats::json::{self, Live, Report};
use crate::stats::report::Tally;
use crate::stats::Penta;

/// Values (names, game kinds) by the places they appear at, to list them
/// in order of first appearance while games come and go.
#[derive(Clone, Debug, Default)]
struct Appearances {
    at: BTreeMap<String, BTreeMap<(Place, u8), u32>>,
}

impl Appearances {
    fn change(&mut self, value: &str, at: (Place, u8), add: bool) {
        let places = self.at.entry(value.to_owned()).or_default();
        if add {
            *places.entry(at).or_default() += 1;
        } else if let Some(n) = places.get_mut(&at) {
            *n -= 1;
            if *n == 0 {
                places.remove(&at);
            }
        }
        if places.is_empty() {
            self.at.remove(value);
        }
    }

    /// The values, first appearance first.
    fn ordered(&self) -> Vec<String> {
        let mut v: Vec<(&(Place, u8), &String)> = self
            .at
            .iter()
            .filter_map(|(name, places)| places.keys().next().map(|p| (p, name)))
            .collect();
        v.sort();
        v.into_iter().map(|(_, name)| name.clone()).collect()
    }
}

/// The counts behind the report, for one first engine (the reference of the
/// head-to-head figures): rebuilt when that engine changes.
#[derive(Clone, Debug)]
struct Scores {
    first: Option<String>,
    tally: Tally,
    live: Live,
    /// The first engine's half points in each pair's games, by slot; the
    /// pentanomial counts are those of consecutive twos in slot order, as
    /// [`Tally`] counts games sorted by slot.
    pairs: BTreeMap<usize, BTreeMap<usize, u32>>,
    penta: Penta,
}

impl Scores {
    fn new(first: Option<String>) -> Scores {
        let names: Vec<String> = first.iter().cloned().collect();
        Scores {
            tally: Tally::without_pairs(&names),
            first,
            live: Live::default(),
            pairs: BTreeMap::new(),
            penta: Penta::default(),
        }
    }

    fn change(&mut self, g: &GameLog, add: bool) {
        if add {
            self.tally.add(g);
            self.live.add(g);
        } else {
            self.tally.remove(g);
            self.live.remove(g);
        }
        let Some(result) = g.result else { return };
        let side = match &self.first {
            Some(f) if *f == g.south => Side::South,
            Some(f) if *f == g.north => Side::North,
            _ => return,
        };
        let Some((pair, slot)) = SlotKey::of(g).and_then(|k| Some((k.pair?, k.index))) else {
            return;
        };
        let games = self.pairs.entry(pair).or_default();
        count_pairs(&mut self.penta, games, false);
        if add {
            games.insert(slot, result.half_points(side));
        } else {
            games.remove(&slot);
        }
        count_pairs(&mut self.penta, games, true);
        if games.is_empty() {
            self.pairs.remove(&pair);
        }
    }
}

/// Adds (or takes back) the complete pairs of one pair's games.
fn count_pairs(penta: &mut Penta, games: &BTreeMap<usize, u32>, add: bool) {
    let hp: Vec<u32> = games.values().copied().collect();
    for two in hp.chunks_exact(2) {
        let k = (two[0].min(2) + two[1].min(2)).min(4) as usize;
        if add {
            penta.counts[k] += 1;
        } else {
            penta.counts[k] -= 1;
        }
    }
}

/// The running standings of the games a merger keeps.
#[derive(Clone, Debug)]
pub struct RunningMerge {
    names: Appearances,
    kinds: Appearances,
    scores: Scores,
}

impl Default for RunningMerge {
    fn default() -> RunningMerge {
        RunningMerge {
            names: Appearances::default(),
            kinds: Appearances::default(),
            scores: Scores::new(None),
        }
    }
}

impl RunningMerge {
    /// Counts a game now kept at `at`.
    pub fn add(&mut self, at: Place, g: &GameLog) {
        self.change(at, g, true);
    }

    /// Takes back a game no longer kept (another copy of its slot is).
    pub fn remove(&mut self, at: Place, g: &GameLog) {
        self.change(at, g, false);
    }

    fn change(&mut self, at: Place, g: &GameLog, add: bool) {
        self.names.change(&g.south, (at, 0), add);
        self.names.change(&g.north, (at, 1), add);
        self.kinds.change(&g.game, (at, 0), add);
        self.scores.change(g, add);
    }

    /// The names of the kept games' engines, first appearance first.
    pub fn names(&self) -> Vec<String> {
        self.names.ordered()
    }

    /// The game kinds (game ids) of the kept games, first appearance first.
    pub fn kinds(&self) -> Vec<String> {
        self.kinds.ordered()
    }

    /// The report for `names`: counted again from `games` (every kept game)
    /// only when the first of the names changed.
    pub fn report<'a>(
        &mut self,
        names: &[String],
        games: impl Iterator<Item = &'a GameLog>,
    ) -> Report {
        if self.scores.first.as_ref() != names.first() {
            let mut scores = Scores::new(names.first().cloned());
            for g in games {
                scores.change(g, true);
            }
            self.scores = scores;
        }
        let s = &self.scores;
        let report = json::report_from(names, &s.tally, &s.live, None);
        json::with_pairs(report, &s.penta, None)
    }
}
