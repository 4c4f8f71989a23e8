//! The knockout, with cutechess's semantics: engines are seeded in list
//! order (as cutechess with every engine seeded, `-seeds n`) into a bracket
//! of the next power of two, the byes going to the top seeds, in the
//! standard order (1 v 16, 8 v 9, … so that the top two seeds can meet only
//! in the final); the winners of neighbouring encounters meet next.
//!
//! An encounter is `pairs` colour-swapped game pairs (`--rounds`). Tied after
//! them, it goes on a pair at a time, up to `tiebreak` more pairs
//! (`--tiebreak-pairs`), until one engine leads; tied after those too, the
//! better seed goes through (cutechess's own rule when it does not play on:
//! the first of the encounter, its better seed, wins a tie). The better seed
//! is South in the first game of each pair.

use crate::event::formats::{Played, Stage};
use crate::stats::formats::Encounter;

#[derive(Clone, Debug)]
pub struct Knockout {
    pub n: usize,
    /// Game pairs per encounter.
    pub pairs: usize,
    /// Most extra pairs to break a tie.
    pub tiebreak: usize,
}

/// An encounter as it stands: `first` is the better seed (the lower index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Duel {
    first: usize,
    second: Option<usize>,
    first_points: u32,
    second_points: u32,
    pairs: usize,
}

impl Duel {
    fn new(a: usize, b: Option<usize>) -> Duel {
        let (first, second) = match b {
            Some(b) if b < a => (b, Some(a)),
            _ => (a, b),
        };
        Duel {
            first,
            second,
            first_points: 0,
            second_points: 0,
            pairs: 0,
        }
    }
}

/// Bracket positions of the seeds (0-based) for `size`, a power of two:
/// seed s meets seed size−1−s in the first round.
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let m = 2 * order.len();
        order = order.iter().flat_map(|&s| [s, m - 1 - s]).collect();
    }
    order
}

impl Knockout {
    fn needs_more(&self, d: &Duel) -> bool {
        d.second.is_some()
            && (d.pairs < self.pairs
                || (d.first_points == d.second_points && d.pairs < self.pairs + self.tiebreak))
    }

    /// The winner of a decided encounter, and how it was decided.
    fn decided(&self, d: &Duel) -> Option<(usize, &'static str)> {
        if self.needs_more(d) {
            return None;
        }
        Some(match d.second {
            None => (d.first, "bye"),
            Some(s) if d.second_points > d.first_points => (s, "games"),
            Some(_) if d.first_points > d.second_points => (d.first, "games"),
            Some(_) => (d.first, "seed"),
        })
    }

    fn first_round(&self) -> Vec<Duel> {
        let size = self.n.max(1).next_power_of_two();
        bracket_order(size)
            .chunks(2)
            .map(|two| {
                let (a, b) = (two[0], two.get(1).copied());
                let b = b.filter(|&b| b < self.n);
                if a < self.n {
                    Duel::new(a, b)
                } else {
                    // why: with the byes to the top seeds, both seats are
                    // never byes; the real engine takes the first seat.
                    Duel::new(b.unwrap_or(a), None)
                }
            })
            .collect()
    }

    /// The bracket after `history`, and the encounters (by index in the
    /// last round) that play the next stage; `None` when the event is over.
    fn replay(&self, history: &[Played]) -> (Vec<Vec<Duel>>, Option<Vec<usize>>) {
        let mut rounds = vec![self.first_round()];
        let mut stages = history.iter();
        loop {
            let last = rounds.last_mut().expect("a round");
            let active: Vec<usize> = (0..last.len())
                .filter(|&i| self.needs_more(&last[i]))
                .collect();
            if active.is_empty() {
                let winners: Vec<usize> = last
                    .iter()
                    .filter_map(|d| self.decided(d).map(|(w, _)| w))
                    .collect();
                if winners.len() <= 1 {
                    return (rounds, None);
                }
                let next = winners
                    .chunks(2)
                    .map(|w| Duel::new(w[0], w.get(1).copied()))
                    .collect();
                rounds.push(next);
                continue;
            }
            let Some(played) = stages.next() else {
                return (rounds, Some(active));
            };
            for (&i, &(pa, pb)) in active.iter().zip(&played.points) {
                let d = &mut last[i];
                d.first_points += pa;
                d.second_points += pb;
                d.pairs += 1;
            }
        }
    }

    pub fn next(&self, history: &[Played]) -> Option<Stage> {
        let (rounds, active) = self.replay(history);
        let last = rounds.last()?;
        let pairings = active?
            .into_iter()
            .filter_map(|i| Some((last[i].first, last[i].second?)))
            .collect();
        Some(Stage {
            pairings,
            bye: None,
        })
    }

    /// The champion, once the final is decided.
    pub fn winner(&self, history: &[Played]) -> Option<usize> {
        let (rounds, active) = self.replay(history);
        if active.is_some() {
            return None;
        }
        let last = rounds.last()?;
        match last.as_slice() {
            [d] => self.decided(d).map(|(w, _)| w),
            _ => None,
        }
    }

    pub fn table(&self, names: &[String], history: &[Played]) -> Vec<Vec<Encounter>> {
        let (rounds, _) = self.replay(history);
        rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|d| {
                        let decided = self.decided(d);
                        Encounter {
                            first: names[d.first].clone(),
                            second: d.second.map(|s| names[s].clone()),
                            first_points: f64::from(d.first_points) / 2.0,
                            second_points: f64::from(d.second_points) / 2.0,
                            pairs: d.pairs as u32,
                            winner: decided.map(|(w, _)| names[w].clone()),
                            decided_by: decided.map(|(_, how)| how),
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(n: usize, pairs: usize, tiebreak: usize) -> Knockout {
        Knockout { n, pairs, tiebreak }
    }

    /// Plays the event out: `result(first, second, stage)` gives the first
    /// engine's half points of a pair (out of 4).
    fn play(ko: &Knockout, result: impl Fn(usize, usize, usize) -> u32) -> Vec<Played> {
        let mut history = Vec::new();
        while let Some(stage) = ko.next(&history) {
            assert!(history.len() < 100, "the event ends");
            let points = stage
                .pairings
                .iter()
                .map(|&(a, b)| {
                    let x = result(a, b, history.len());
                    (x, 4 - x)
                })
                .collect();
            history.push(Played { stage, points });
        }
        history
    }

    #[test]
    fn the_bracket_is_seeded() {
        assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        let ko = k(8, 1, 2);
        let first = ko.next(&[]).unwrap();
        assert_eq!(first.pairings, [(0, 7), (3, 4), (1, 6), (2, 5)]);
        // Byes to the top seeds: 6 engines, seeds 0 and 1 wait a round.
        let ko = k(6, 1, 0);
        assert_eq!(ko.next(&[]).unwrap().pairings, [(3, 4), (2, 5)]);
    }

    #[test]
    fn the_better_engine_wins_and_ties_go_to_tie_breaks_then_seed() {
        // Lower index wins every pair 3-1: the top seed wins.
        let ko = k(8, 1, 2);
        let h = play(&ko, |_, _, _| 3);
        assert_eq!(ko.winner(&h), Some(0));
        assert_eq!(h.len(), 3, "three rounds of one pair");
        // All pairs drawn 2-2: each encounter plays 1 + 2 pairs, then the
        // better seed goes through.
        let h = play(&ko, |_, _, _| 2);
        assert_eq!(h.len(), 9);
        assert_eq!(ko.winner(&h), Some(0));
        let names: Vec<String> = (0..8).map(|i| format!("e{i}")).collect();
        let table = ko.table(&names, &h);
        assert_eq!(table.len(), 3);
        assert_eq!(table[0][0].decided_by, Some("seed"));
        assert_eq!(table[0][0].pairs, 3);
        // A tie broken by the first tie-break pair: the underdog wins it.
        let h = play(&ko, |a, b, stage| match (a, b, stage) {
            (3, 4, 0) => 2,
            (3, 4, 1) => 1,
            (a, b, _) if a < b => 3,
            _ => 1,
        });
        let table = ko.table(&names, &h);
        assert_eq!(table[0][1].winner.as_deref(), Some("e4"));
        assert_eq!(
            (table[0][1].pairs, table[0][1].decided_by),
            (2, Some("games"))
        );
        assert_eq!(table[1][0].second.as_deref(), Some("e4"));
        assert_eq!(ko.winner(&h), Some(0));
    }

    #[test]
    fn odd_fields_and_two_engines() {
        for n in 2..=17 {
            let ko = k(n, 2, 1);
            let h = play(&ko, |a, b, _| if a < b { 4 } else { 0 });
            assert_eq!(ko.winner(&h), Some(0), "n={n}");
            let played: usize = h.iter().map(|p| p.stage.pairings.len()).sum();
            // n − 1 encounters of 2 pairs each.
            assert_eq!(played, 2 * (n - 1), "n={n}");
        }
    }
}
