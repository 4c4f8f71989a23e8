//! The continuous pairing of one pool: pure and deterministic (the same
//! bots with the same free slots and the same history give the same
//! games), so it is tested without a server.
//!
//! The unit is a **pair**: two games from one opening with colours
//! swapped (leg 1: `a` South; leg 2: `b` South). Each time it is asked, with
//! the free slots of the bots that may play now:
//!
//! 1. Legs 2 still owed start first, oldest first, where both bots have a
//!    free slot (a pair is completed before its bots start new ones).
//! 2. Then new pairs, while two different bots have a free slot: `a` is
//!    the free bot with the fewest pairs so far (then by name); its
//!    opponent `b` the free bot other than `a` it has met the fewest times
//!    (then the fewest pairs, then the name). So nobody plays itself, and
//!    no two bots meet again while a bot either of them has met less often
//!    is free too. Leg 1 starts now; leg 2 starts at once if both still have
//!    a slot, else it is owed.
//!
//! A bot plays as many games at once as it has free slots (two bots with
//! three slots each play three games at once). Pair `k` of a pool starts
//! from opening `k` of the pool's suite (cycled).

use std::collections::BTreeMap;

/// A game to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub south: String,
    pub north: String,
    /// The pair's number in the pool, from 0: also its opening's.
    pub pair: u64,
    /// 1 or 2.
    pub leg: u8,
}

/// The pairing state of one pool.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    next_pair: u64,
    /// Pairs started between two bots (the key's names in order).
    met: BTreeMap<(String, String), u64>,
    /// Pairs started by each bot.
    pairs: BTreeMap<String, u64>,
    /// Legs 2 not yet started, oldest first.
    owed: Vec<Start>,
}

fn key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}

impl Pairing {
    pub fn new() -> Pairing {
        Pairing::default()
    }

    /// A pool's pairing as its recorded games left it (after a restart):
    /// `legs` are the recorded games' `(south, north, pair, leg)`, in any
    /// order. Pairs whose leg 2 was never recorded owe it again.
    pub fn restore<'a>(legs: impl IntoIterator<Item = (&'a str, &'a str, u64, u8)>) -> Pairing {
        let mut p = Pairing::new();
        let mut firsts: BTreeMap<u64, (String, String)> = BTreeMap::new();
        let mut seconds = std::collections::BTreeSet::new();
        for (south, north, pair, leg) in legs {
            p.next_pair = p.next_pair.max(pair + 1);
            match leg {
                1 => {
                    firsts.insert(pair, (south.to_owned(), north.to_owned()));
                }
                _ => {
                    seconds.insert(pair);
                }
            }
        }
        for (pair, (south, north)) in firsts {
            *p.met.entry(key(&south, &north)).or_default() += 1;
            *p.pairs.entry(south.clone()).or_default() += 1;
            *p.pairs.entry(north.clone()).or_default() += 1;
            if !seconds.contains(&pair) {
                p.owed.push(Start {
                    south: north,
                    north: south,
                    pair,
                    leg: 2,
                });
            }
        }
        p
    }

    /// Legs 2 owed now.
    pub fn owed(&self) -> &[Start] {
        &self.owed
    }

    /// Pairs started between `a` and `b`.
    pub fn met(&self, a: &str, b: &str) -> u64 {
        self.met.get(&key(a, b)).copied().unwrap_or(0)
    }

    /// The games to start now, given the free slots of the bots that may
    /// play (a bot not in `free`, or with 0, plays nothing); `free` is
    /// reduced by what starts.
    pub fn next(&mut self, free: &mut BTreeMap<String, usize>) -> Vec<Start> {
        self.next_at_most(free, usize::MAX)
    }

    /// [`Pairing::next`], at most `most` games (what is not started stays
    /// owed or unpaired, as if those slots had not been free).
    pub fn next_at_most(&mut self, free: &mut BTreeMap<String, usize>, most: usize) -> Vec<Start> {
        let mut out = Vec::new();
        while out.len() < most {
            let has =
                |free: &BTreeMap<String, usize>, bot: &str| free.get(bot).is_some_and(|&n| n > 0);
            let mut i = 0;
            while i < self.owed.len() && out.len() < most {
                let s = &self.owed[i];
                if has(free, &s.south) && has(free, &s.north) {
                    let s = self.owed.remove(i);
                    take(free, &s.south);
                    take(free, &s.north);
                    out.push(s);
                } else {
                    i += 1;
                }
            }
            if out.len() >= most {
                break;
            }
            let pairs_of = |bot: &str| self.pairs.get(bot).copied().unwrap_or(0);
            let Some(a) = free
                .iter()
                .filter(|(_, &n)| n > 0)
                .map(|(bot, _)| bot)
                .min_by_key(|bot| (pairs_of(bot), (*bot).clone()))
                .cloned()
            else {
                break;
            };
            let Some(b) = free
                .iter()
                .filter(|(bot, &n)| n > 0 && **bot != a)
                .map(|(bot, _)| bot)
                .min_by_key(|bot| (self.met(&a, bot), pairs_of(bot), (*bot).clone()))
                .cloned()
            else {
                break;
            };
            let pair = self.next_pair;
            self.next_pair += 1;
            *self.met.entry(key(&a, &b)).or_default() += 1;
            *self.pairs.entry(a.clone()).or_default() += 1;
            *self.pairs.entry(b.clone()).or_default() += 1;
            take(free, &a);
            take(free, &b);
            out.push(Start {
                south: a.clone(),
                north: b.clone(),
                pair,
                leg: 1,
            });
            self.owed.push(Start {
                south: b,
                north: a,
                pair,
                leg: 2,
            });
        }
        out
    }
}

impl Pairing {
    /// Starts a new pair of `a` and `b` now if both have a free slot (leg 1;
    /// leg 2 too if both still have one, else it is owed): a new version's
    /// first pair, against its predecessor. `free` is reduced by what starts.
    pub fn start_pair(
        &mut self,
        a: &str,
        b: &str,
        free: &mut BTreeMap<String, usize>,
        most: usize,
    ) -> Vec<Start> {
        let has = |free: &BTreeMap<String, usize>, bot: &str| free.get(bot).is_some_and(|&n| n > 0);
        if a == b || most == 0 || !has(free, a) || !has(free, b) {
            return Vec::new();
        }
        let pair = self.next_pair;
        self.next_pair += 1;
        *self.met.entry(key(a, b)).or_default() += 1;
        *self.pairs.entry(a.to_owned()).or_default() += 1;
        *self.pairs.entry(b.to_owned()).or_default() += 1;
        take(free, a);
        take(free, b);
        let first = Start {
            south: a.to_owned(),
            north: b.to_owned(),
            pair,
            leg: 1,
        };
        let second = Start {
            south: b.to_owned(),
            north: a.to_owned(),
            pair,
            leg: 2,
        };
        if most >= 2 && has(free, a) && has(free, b) {
            take(free, a);
            take(free, b);
            vec![first, second]
        } else {
            self.owed.push(second);
            vec![first]
        }
    }

    /// Pairs `player` has started.
    pub fn pairs_of(&self, player: &str) -> u64 {
        self.pairs.get(player).copied().unwrap_or(0)
    }
}

fn take(free: &mut BTreeMap<String, usize>, bot: &str) {
    if let Some(n) = free.get_mut(bot) {
        *n = n.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free(bots: &[(&str, usize)]) -> BTreeMap<String, usize> {
        bots.iter().map(|(b, n)| ((*b).to_owned(), *n)).collect()
    }

    fn names(starts: &[Start]) -> Vec<(String, String, u64, u8)> {
        starts
            .iter()
            .map(|s| (s.south.clone(), s.north.clone(), s.pair, s.leg))
            .collect()
    }

    #[test]
    fn a_chosen_pair_starts_first_and_its_second_leg_when_both_have_room() {
        let mut p = Pairing::new();
        let mut f = free(&[("a", 2), ("a/2", 1), ("b", 1)]);
        let got = p.start_pair("a/2", "a", &mut f, usize::MAX);
        assert_eq!(names(&got), [("a/2".into(), "a".into(), 0, 1)]);
        assert_eq!(names(p.owed()), [("a".into(), "a/2".into(), 0, 2)]);
        assert_eq!((p.met("a", "a/2"), p.pairs_of("a/2")), (1, 1));
        // No slot, or one player twice: nothing starts.
        assert!(p.start_pair("a/2", "b", &mut f, usize::MAX).is_empty());
        assert!(p.start_pair("b", "b", &mut f, usize::MAX).is_empty());
        let mut f = free(&[("x", 2), ("y", 2)]);
        let got = p.start_pair("x", "y", &mut f, usize::MAX);
        assert_eq!(names(&got).len(), 2, "both legs at once");
        assert_eq!(f.values().sum::<usize>(), 0);
    }

    #[test]
    fn nobody_plays_itself_whatever_its_slots() {
        let mut p = Pairing::new();
        assert!(p.next(&mut free(&[("a", 8)])).is_empty());
        assert!(p.next(&mut free(&[])).is_empty());
        let mut f = free(&[("a", 8), ("b", 0)]);
        assert!(p.next(&mut f).is_empty());
    }

    #[test]
    fn a_pair_is_two_colour_swapped_games_from_one_opening() {
        let mut p = Pairing::new();
        let mut f = free(&[("a", 1), ("b", 1)]);
        let first = p.next(&mut f);
        assert_eq!(names(&first), [("a".into(), "b".into(), 0, 1)]);
        assert_eq!(names(p.owed()), [("b".into(), "a".into(), 0, 2)]);
        // When both are free again, the owed leg starts before any new pair.
        let second = p.next(&mut free(&[("a", 1), ("b", 1)]));
        assert_eq!(names(&second), [("b".into(), "a".into(), 0, 2)]);
        let third = p.next(&mut free(&[("a", 1), ("b", 1)]));
        assert_eq!(names(&third), [("a".into(), "b".into(), 1, 1)]);
    }

    #[test]
    fn a_bot_plays_as_many_games_at_once_as_it_has_free_slots() {
        let mut p = Pairing::new();
        let mut f = free(&[("a", 3), ("b", 2), ("c", 1)]);
        let starts = p.next(&mut f);
        let of_a = starts
            .iter()
            .filter(|s| s.south == "a" || s.north == "a")
            .count();
        assert_eq!(of_a, 3, "{starts:?}");
        assert_eq!(starts.len(), 3);
        assert!(f.values().all(|&n| n == 0), "{f:?}");
        // Fewest pairs first: with three one-slot opponents, `a` plays one
        // game and the two others play each other.
        let mut p2 = Pairing::new();
        let starts = p2.next(&mut free(&[("a", 3), ("b", 1), ("c", 1), ("d", 1)]));
        assert_eq!(
            names(&starts),
            [
                ("a".into(), "b".into(), 0, 1),
                ("c".into(), "d".into(), 1, 1)
            ]
        );
        let mut p = Pairing::new();
        let starts = p.next(&mut free(&[("a", 3), ("b", 3)]));
        // Three games at once between the two: one pair complete, one begun.
        assert_eq!(
            names(&starts),
            [
                ("a".into(), "b".into(), 0, 1),
                ("b".into(), "a".into(), 0, 2),
                ("a".into(), "b".into(), 1, 1)
            ]
        );
    }

    /// Plays `rounds` rounds in which every started game ends before the
    /// next look; returns the pairs (leg 1) in the order they were made.
    fn simulate(bots: &[(&str, usize)], rounds: usize) -> Vec<(String, String)> {
        let mut p = Pairing::new();
        let mut made = Vec::new();
        for _ in 0..rounds {
            for s in p.next(&mut free(bots)) {
                assert_ne!(s.south, s.north);
                if s.leg == 1 {
                    made.push(key(&s.south, &s.north));
                }
            }
        }
        made
    }

    #[test]
    fn no_pair_is_repeated_while_others_wait() {
        // Five bots, one slot each: every look, whoever is free is paired.
        let bots = [("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)];
        let made = simulate(&bots, 40);
        // The first ten pairs are the ten different pairings of five bots.
        let first: std::collections::BTreeSet<_> = made[..10].iter().cloned().collect();
        assert_eq!(first.len(), 10, "{made:?}");
        // And over the run, every pairing met as often as any other, give or take one.
        let mut count: BTreeMap<(String, String), usize> = BTreeMap::new();
        for m in &made {
            *count.entry(m.clone()).or_default() += 1;
        }
        let (lo, hi) = (count.values().min().unwrap(), count.values().max().unwrap());
        assert!(hi - lo <= 1, "{count:?}");
    }

    #[test]
    fn at_most_so_many_games_start() {
        let mut p = Pairing::new();
        let starts = p.next_at_most(&mut free(&[("a", 3), ("b", 3)]), 2);
        assert_eq!(starts.len(), 2);
        assert!(p
            .next_at_most(&mut free(&[("a", 3), ("b", 3)]), 0)
            .is_empty());
        // What was not started was not paired: the next look goes on from there.
        let more = p.next(&mut free(&[("a", 1), ("b", 1)]));
        assert_eq!(names(&more), [("a".into(), "b".into(), 1, 1)]);
    }

    #[test]
    fn the_pairing_is_deterministic() {
        let bots = [("x", 2), ("b", 1), ("q", 3), ("d", 1)];
        assert_eq!(simulate(&bots, 25), simulate(&bots, 25));
    }

    #[test]
    fn a_restored_pairing_goes_on_where_the_recorded_games_stopped() {
        let mut live = Pairing::new();
        let mut recorded = Vec::new();
        for _ in 0..3 {
            for s in live.next(&mut free(&[("a", 1), ("b", 1), ("c", 1)])) {
                recorded.push(s);
            }
        }
        let restored = Pairing::restore(
            recorded
                .iter()
                .map(|s| (s.south.as_str(), s.north.as_str(), s.pair, s.leg)),
        );
        assert_eq!(restored.next_pair, live.next_pair);
        assert_eq!(restored.met, live.met);
        assert_eq!(names(restored.owed()), names(live.owed()));
        let (mut a, mut b) = (restored, live);
        let f = free(&[("a", 2), ("b", 1), ("c", 2)]);
        assert_eq!(a.next(&mut f.clone()), b.next(&mut f.clone()));
    }
}
