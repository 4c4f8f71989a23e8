//! The Swiss system: each round pairs engines of equal or near score who
//! have not met. The rule set (FIDE's Dutch system keeps these properties
//! with many more rules; docs/tournaments.md says why this one suffices):
//!
//! 1. Ranking: score (game points plus byes), then place in the engine list
//!    (the pairing number: list engines strongest first for a seeded event).
//! 2. No two engines meet twice: absolute. A Swiss has at most as many
//!    rounds as a round robin of its field (n − 1 for an even n, n for an
//!    odd one). Before that a round may have no pairing without a repeat
//!    (six engines whose first three rounds were two triangles apart); the
//!    event then ends after the last full round ([`Swiss::ended_early`]), as
//!    lichess's Swiss does "when all possible pairings have been played".
//! 3. An odd field: the bye goes to the lowest-ranked engine with the fewest
//!    byes (no engine gets two while another has none); it scores as a won
//!    round — both games of every pair — as FIDE's pairing-allocated bye
//!    scores as a win.
//! 4. Score groups from the top: within a group the upper half meets the
//!    lower half in order (1 v k/2+1, 2 v k/2+2, …); an engine that cannot
//!    be paired in its group floats down to the nearest score.
//! 5. Colours: every pairing plays a colour-swapped pair from one opening
//!    (per game id), so each engine has each side once a round: colours are
//!    balanced by construction. This beats single games with colour
//!    alternation for mancala, whose first mover wins much more often: with
//!    single games an odd round count, or a float, leaves someone with one
//!    more first move than a rival on the same score. Who is South in the
//!    pair's first game alternates (the engine that opened fewer pairs).
//!
//! The search: the bye first, then the highest-ranked unpaired engine, each
//! takes the first opponent in its order of preference (rules 3 and 4) with
//! which the rest of the round can still be paired without a repeat. That
//! "can still" is exact: a maximum matching (Edmonds' blossom algorithm,
//! [`super::matching`]) of the pairs not yet played is kept, and each choice
//! it does not already hold costs one augmenting search. So the search never
//! backtracks, never gives up, and finds the same pairing as a depth-first
//! search over the same order of preference (the earlier pairer, whose logs
//! `--resume` therefore continues) — the first one in that order.

use std::cmp::Reverse;

use crate::event::formats::matching::Matcher;
use crate::event::formats::{EndedEarly, Played, Stage};
use crate::stats::formats::{swiss_table, RoundEntry, SwissLine};

/// A Swiss of `n` engines over `rounds` rounds.
#[derive(Clone, Debug)]
pub struct Swiss {
    pub n: usize,
    pub rounds: usize,
    /// The bye's half points: a won round.
    pub bye_half_points: u32,
}

/// The most rounds of a Swiss of `n` engines: those of a round robin.
pub fn most_rounds(n: usize) -> usize {
    if n.is_multiple_of(2) {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// The state a round is paired from.
struct Before {
    score: Vec<u32>,
    byes: Vec<u32>,
    opened: Vec<u32>,
    /// Each engine's opponents so far, sorted.
    met: Vec<Vec<usize>>,
    /// Engines, best first.
    order: Vec<usize>,
}

impl Before {
    fn met(&self, a: usize, b: usize) -> bool {
        self.met[a].binary_search(&b).is_ok()
    }
}

impl Swiss {
    /// A Swiss of `n` engines, `rounds` rounds, `games` game ids a round.
    pub fn new(n: usize, rounds: usize, games: usize) -> Result<Swiss, String> {
        let most = most_rounds(n);
        if rounds > most {
            return Err(format!(
                "--format swiss: {rounds} rounds for {n} engines; a Swiss of {n} engines has at \
                 most {most} rounds (n − 1 for an even field, n for an odd one: then every pair \
                 has met, as in a round robin)"
            ));
        }
        Ok(Swiss {
            n,
            rounds,
            bye_half_points: 4 * games as u32,
        })
    }

    /// The next round's pairings; `None` when the rounds are played or the
    /// next round cannot be paired without a repeat ([`Swiss::ended_early`]).
    pub fn next(&self, history: &[Played]) -> Option<Stage> {
        if history.len() < self.rounds {
            self.pair(history)
        } else {
            None
        }
    }

    /// Why the event ended before its last round: the round after `history`
    /// (not the last) has no pairing without a repeat.
    pub fn ended_early(&self, history: &[Played]) -> Option<EndedEarly> {
        if history.len() >= self.rounds || self.pair(history).is_some() {
            return None;
        }
        let k = history.len();
        let what = if self.n % 2 == 1 {
            "pairs two engines a second time or gives an engine a second bye"
        } else {
            "pairs two engines a second time"
        };
        Some(EndedEarly {
            after_round: k,
            reason: format!(
                "round {} of {} cannot be paired: every pairing of it {what}",
                k + 1,
                self.rounds
            ),
        })
    }

    /// Every engine's rounds so far.
    pub fn entries(&self, history: &[Played]) -> Vec<Vec<RoundEntry>> {
        let mut entries = vec![Vec::new(); self.n];
        for p in history {
            if let Some(b) = p.stage.bye {
                entries[b].push(RoundEntry {
                    opponent: None,
                    half_points: self.bye_half_points,
                });
            }
            for (&(a, b), &(pa, pb)) in p.stage.pairings.iter().zip(&p.points) {
                entries[a].push(RoundEntry {
                    opponent: Some(b),
                    half_points: pa,
                });
                entries[b].push(RoundEntry {
                    opponent: Some(a),
                    half_points: pb,
                });
            }
        }
        entries
    }

    pub fn table(&self, names: &[String], history: &[Played]) -> Vec<SwissLine> {
        swiss_table(names, &self.entries(history))
    }

    fn before(&self, history: &[Played]) -> Before {
        let n = self.n;
        let (mut score, mut byes, mut opened) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
        let mut met: Vec<Vec<usize>> = vec![Vec::new(); n];
        for p in history {
            if let Some(b) = p.stage.bye {
                score[b] += self.bye_half_points;
                byes[b] += 1;
            }
            for (&(a, b), &(pa, pb)) in p.stage.pairings.iter().zip(&p.points) {
                score[a] += pa;
                score[b] += pb;
                met[a].push(b);
                met[b].push(a);
                opened[a] += 1;
            }
        }
        for m in &mut met {
            m.sort_unstable();
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (Reverse(score[i]), i));
        Before {
            score,
            byes,
            opened,
            met,
            order,
        }
    }

    /// The pairings of the round after `history`; `None` when every pairing
    /// of it would repeat a pair (or give a second bye).
    pub fn pair(&self, history: &[Played]) -> Option<Stage> {
        let n = self.n;
        let b = self.before(history);
        // The bye's candidates, in order: the lowest-ranked of those with
        // the fewest byes first.
        let fewest = b.byes.iter().copied().min().unwrap_or(0);
        let bye_order: Vec<usize> = if n % 2 == 1 {
            b.order
                .iter()
                .rev()
                .copied()
                .filter(|&i| b.byes[i] == fewest)
                .collect()
        } else {
            Vec::new()
        };
        let mut may_sit_out = vec![false; n];
        for &i in &bye_order {
            may_sit_out[i] = true;
        }
        // Vertex `n` is the bye (odd fields): its partner sits out.
        let vertices = n + n % 2;
        let edge = |u: usize, v: usize| match (u == n, v == n) {
            (true, _) => may_sit_out[v],
            (_, true) => may_sit_out[u],
            _ => !b.met(u, v),
        };
        let mut m = Matcher::new(vertices, edge);
        // Seed: the same walk without looking ahead (usually right already,
        // so that the exact walk below rarely has to search).
        walk(&b, &bye_order, n, |u, v| m.pair(u, v));
        if 2 * m.maximize() < vertices {
            return None;
        }
        let (bye, pairs) = walk(&b, &bye_order, n, |u, v| m.commit(u, v))?;
        Some(b.stage(pairs, bye))
    }
}

impl Before {
    /// A round's pairs as a stage: in rank order, the higher-ranked of each
    /// pair first, then South first: whoever opened fewer pairs (the
    /// higher-ranked on a tie).
    fn stage(&self, pairs: Vec<(usize, usize)>, bye: Option<usize>) -> Stage {
        let mut rank = vec![0; self.order.len()];
        for (k, &i) in self.order.iter().enumerate() {
            rank[i] = k;
        }
        let mut pairings: Vec<(usize, usize)> = pairs
            .into_iter()
            .map(|(a, c)| if rank[a] < rank[c] { (a, c) } else { (c, a) })
            .collect();
        pairings.sort_by_key(|&(a, _)| rank[a]);
        for p in &mut pairings {
            if self.opened[p.1] < self.opened[p.0] {
                *p = (p.1, p.0);
            }
        }
        Stage { pairings, bye }
    }
}

/// A pairing of a round: the bye, then each unpaired engine from the top,
/// takes its first candidate that `take(a, b)` accepts (`b` is `n` for the
/// bye). `None` when some engine (or the bye) gets none.
#[allow(clippy::type_complexity)]
fn walk(
    b: &Before,
    bye_order: &[usize],
    n: usize,
    mut take: impl FnMut(usize, usize) -> bool,
) -> Option<(Option<usize>, Vec<(usize, usize)>)> {
    let bye = if n % 2 == 1 {
        Some(bye_order.iter().copied().find(|&e| take(n, e))?)
    } else {
        None
    };
    let players: Vec<usize> = b
        .order
        .iter()
        .copied()
        .filter(|&i| Some(i) != bye)
        .collect();
    let mut paired = vec![false; players.len()];
    let mut pairs = Vec::with_capacity(players.len() / 2);
    for p in 0..players.len() {
        if paired[p] {
            continue;
        }
        paired[p] = true;
        let q = candidates(p, &players, b, &paired)
            .into_iter()
            .find(|&q| take(players[p], players[q]))?;
        paired[q] = true;
        pairs.push((players[p], players[q]));
    }
    Some((bye, pairs))
}

/// The opponents `players[p]` may meet, in order of preference (rule 4):
/// its score group folded at its middle, then lower scores in rank order.
fn candidates(p: usize, players: &[usize], b: &Before, paired: &[bool]) -> Vec<usize> {
    let me = players[p];
    let score = &b.score;
    let unpaired = || (p + 1..players.len()).filter(|&q| !paired[q]);
    let group: Vec<usize> = unpaired()
        .filter(|&q| score[players[q]] == score[me])
        .collect();
    // p and `group` are k engines: p (the top) prefers the first of the
    // lower half, at index k/2 − 1 of `group`; then the rest of the lower
    // half, then the upper half from the bottom.
    let k = group.len() + 1;
    let h = (k / 2).saturating_sub(1).min(group.len());
    let lower_scores = unpaired().filter(|&q| score[players[q]] != score[me]);
    group[h..]
        .iter()
        .copied()
        .chain(group[..h].iter().rev().copied())
        .chain(lower_scores)
        .filter(|&q| !b.met(me, players[q]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays rounds (at most `rounds`) with `result(a, b)` the half points
    /// of the first engine of each pairing (out of 4), until the event ends.
    fn play(s: &Swiss, rounds: usize, result: impl Fn(usize, usize) -> u32) -> Vec<Played> {
        let mut history = Vec::new();
        for _ in 0..rounds {
            let Some(stage) = s.next(&history) else { break };
            let points = stage
                .pairings
                .iter()
                .map(|&(a, b)| {
                    let x = result(a, b);
                    (x, 4 - x)
                })
                .collect();
            history.push(Played { stage, points });
        }
        history
    }

    fn check_rules(s: &Swiss, history: &[Played]) {
        let mut met = std::collections::BTreeSet::new();
        let mut byes = vec![0; s.n];
        for p in history {
            let mut seen = vec![false; s.n];
            for &(a, b) in &p.stage.pairings {
                assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
                for e in [a, b] {
                    assert!(!seen[e], "{e} twice in a round");
                    seen[e] = true;
                }
            }
            if let Some(b) = p.stage.bye {
                assert!(!seen[b]);
                seen[b] = true;
                byes[b] += 1;
            }
            assert!(seen.iter().all(|&x| x), "everyone plays or has the bye");
        }
        assert!(byes.iter().all(|&b| b <= 1), "{byes:?}");
    }

    /// Rounds given as pairings (no bye), all drawn 2-2.
    fn drawn(rounds: &[&[(usize, usize)]]) -> Vec<Played> {
        rounds
            .iter()
            .map(|r| Played {
                stage: Stage {
                    pairings: r.to_vec(),
                    bye: None,
                },
                points: vec![(2, 2); r.len()],
            })
            .collect()
    }

    /// Whether the round after `history` has a pairing without a repeat (and
    /// a bye for one of the fewest byes), by trying everything.
    fn pairable_by_brute_force(s: &Swiss, history: &[Played]) -> bool {
        let b = s.before(history);
        fn go(b: &Before, free: &mut [bool]) -> bool {
            let Some(u) = free.iter().position(|&f| f) else {
                return true;
            };
            free[u] = false;
            for v in u + 1..free.len() {
                if free[v] && !b.met(u, v) {
                    free[v] = false;
                    if go(b, free) {
                        return true;
                    }
                    free[v] = true;
                }
            }
            free[u] = true;
            false
        }
        let fewest = b.byes.iter().copied().min().unwrap_or(0);
        let byes: Vec<Option<usize>> = if s.n % 2 == 1 {
            (0..s.n)
                .filter(|&i| b.byes[i] == fewest)
                .map(Some)
                .collect()
        } else {
            vec![None]
        };
        byes.into_iter().any(|bye| {
            let mut free: Vec<bool> = (0..s.n).map(|i| Some(i) != bye).collect();
            go(&b, &mut free)
        })
    }

    /// The earlier pairer: a depth-first search over the same order of
    /// preference, the bye fixed first, without a step budget.
    fn depth_first(s: &Swiss, history: &[Played]) -> Option<Stage> {
        let b = s.before(history);
        let fewest = b.byes.iter().copied().min().unwrap_or(0);
        let bye = (s.n % 2 == 1)
            .then(|| b.order.iter().rev().copied().find(|&i| b.byes[i] == fewest))
            .flatten();
        let players: Vec<usize> = b
            .order
            .iter()
            .copied()
            .filter(|&i| Some(i) != bye)
            .collect();
        fn go(
            b: &Before,
            players: &[usize],
            paired: &mut Vec<bool>,
            out: &mut Vec<(usize, usize)>,
        ) -> bool {
            let Some(p) = (0..players.len()).find(|&i| !paired[i]) else {
                return true;
            };
            paired[p] = true;
            for q in candidates(p, players, b, paired) {
                paired[q] = true;
                out.push((players[p], players[q]));
                if go(b, players, paired, out) {
                    return true;
                }
                out.pop();
                paired[q] = false;
            }
            paired[p] = false;
            false
        }
        let mut out = Vec::new();
        if !go(&b, &players, &mut vec![false; players.len()], &mut out) {
            return None;
        }
        Some(b.stage(out, bye))
    }

    /// Whether pairing first-candidate-first with no look-ahead (the
    /// search's seed) gets stuck.
    fn greedy_gets_stuck(s: &Swiss, history: &[Played]) -> bool {
        let b = s.before(history);
        let fewest = b.byes.iter().copied().min().unwrap_or(0);
        let bye_order: Vec<usize> = if s.n % 2 == 1 {
            b.order
                .iter()
                .rev()
                .copied()
                .filter(|&i| b.byes[i] == fewest)
                .collect()
        } else {
            Vec::new()
        };
        let mut used = vec![false; s.n + 1];
        walk(&b, &bye_order, s.n, |u, v| {
            if used[u] || used[v] {
                return false;
            }
            used[u] = true;
            used[v] = true;
            true
        })
        .is_none()
    }

    fn seeded(seed: u64) -> impl Fn(usize, usize) -> u32 {
        move |a, b| ((a as u64 * 31 + b as u64 * 17 + seed * 7 + (a * b) as u64) % 5) as u32
    }

    #[test]
    fn first_round_is_top_half_against_bottom_half() {
        let s = Swiss::new(8, 3, 1).unwrap();
        let r = s.pair(&[]).unwrap();
        assert_eq!(r.pairings, [(0, 4), (1, 5), (2, 6), (3, 7)]);
        assert_eq!(r.bye, None);
        let s = Swiss::new(7, 3, 1).unwrap();
        let r = s.pair(&[]).unwrap();
        assert_eq!(r.bye, Some(6));
        assert_eq!(r.pairings, [(0, 3), (1, 4), (2, 5)]);
    }

    #[test]
    fn winners_meet_winners() {
        let s = Swiss::new(8, 3, 1).unwrap();
        // The lower number always wins the pair 3-1.
        let h = play(&s, 1, |a, b| if a < b { 3 } else { 1 });
        let r = s.pair(&h).unwrap();
        // Winners 0,1,2,3 (6 half points) pair 0-2, 1-3; losers 4-6, 5-7.
        let set: Vec<(usize, usize)> = r
            .pairings
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        assert_eq!(set, [(0, 2), (1, 3), (4, 6), (5, 7)]);
    }

    #[test]
    fn rules_hold_for_many_fields_and_results() {
        for n in 2..=40 {
            for seed in 0..3u64 {
                let s = Swiss::new(n, n / 2, 1).unwrap();
                let h = play(&s, n / 2, seeded(seed));
                // Within ⌊n/2⌋ rounds a pairing always exists (Dirac).
                assert_eq!(h.len(), n / 2, "n {n}");
                check_rules(&s, &h);
                // Deterministic: the same history gives the same pairings.
                assert_eq!(s.pair(&h[..n / 4]).as_ref(), Some(&h[n / 4].stage));
            }
        }
    }

    #[test]
    fn the_whole_round_robin_length_keeps_the_rules_or_ends_early_rightly() {
        let (mut full, mut early) = (0, 0);
        for n in 2..=14 {
            for seed in 0..6u64 {
                let most = most_rounds(n);
                let s = Swiss::new(n, most, 1).unwrap();
                let h = play(&s, most, seeded(seed));
                check_rules(&s, &h);
                if h.len() == most {
                    full += 1;
                    assert_eq!(s.ended_early(&h), None);
                } else {
                    early += 1;
                    // Ended only where nothing could be paired.
                    assert!(!pairable_by_brute_force(&s, &h), "n {n} seed {seed}");
                    let e = s.ended_early(&h).expect("ended early");
                    assert_eq!(e.after_round, h.len());
                }
                for k in 0..h.len() {
                    assert!(pairable_by_brute_force(&s, &h[..k]));
                }
            }
        }
        assert!(
            full > 0 && early > 0,
            "both kinds seen: {full} full, {early} early"
        );
    }

    #[test]
    fn the_same_pairings_as_the_depth_first_search() {
        // What `--resume` of a log written by the earlier pairer needs.
        let mut compared = 0;
        for n in 2..=24 {
            for seed in 0..3u64 {
                let s = Swiss::new(n, most_rounds(n), 1).unwrap();
                let h = play(&s, most_rounds(n), seeded(seed));
                for k in 0..=h.len() {
                    let old = depth_first(&s, &h[..k]);
                    let new = s.pair(&h[..k]);
                    if old.is_some() {
                        assert_eq!(new, old, "n {n} seed {seed} round {}", k + 1);
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 500, "{compared}");
    }

    #[test]
    fn where_greedy_pairing_gets_stuck_a_pairing_is_still_found() {
        // Six engines, round 1 drawn: one score group of six. Greedy: 0
        // takes 4 (the fold's 3 is met), 1 takes 3, and 2 has only 5 left,
        // met in round 1: stuck. The search pairs 0-4 1-5 2-3.
        let s = Swiss::new(6, 5, 1).unwrap();
        let h = drawn(&[&[(0, 3), (1, 4), (2, 5)]]);
        assert!(greedy_gets_stuck(&s, &h));
        let r = s.pair(&h).expect("a pairing exists");
        // (4, 5, 3 South first: 0, 1, 2 opened their pairs in round 1.)
        assert_eq!(r.pairings, [(4, 0), (5, 1), (3, 2)]);
        let mut all = h.clone();
        all.push(Played {
            points: vec![(2, 2); r.pairings.len()],
            stage: r,
        });
        check_rules(&s, &all);
        // Over many random histories: every time greedy is stuck, the search
        // pairs the round exactly when brute force can.
        let mut stuck = 0;
        for n in 4..=12 {
            for seed in 0..8u64 {
                let most = most_rounds(n);
                let sw = Swiss::new(n, most, 1).unwrap();
                let h = play(&sw, most, seeded(seed + 100));
                for k in 0..=h.len().min(most - 1) {
                    if greedy_gets_stuck(&sw, &h[..k]) {
                        stuck += 1;
                        assert_eq!(
                            sw.pair(&h[..k]).is_some(),
                            pairable_by_brute_force(&sw, &h[..k])
                        );
                    }
                }
            }
        }
        assert!(stuck > 0, "greedy was never stuck: the test tests nothing");
    }

    #[test]
    fn two_triangles_left_end_the_event() {
        // Six engines whose three rounds were K(3,3): what is left is two
        // triangles, which have no pairing (lichess's example of a Swiss of
        // 6 that cannot pair its fourth round).
        let s = Swiss::new(6, 5, 1).unwrap();
        let h = drawn(&[
            &[(0, 3), (1, 4), (2, 5)],
            &[(0, 4), (1, 5), (2, 3)],
            &[(0, 5), (1, 3), (2, 4)],
        ]);
        assert_eq!(s.pair(&h), None);
        assert_eq!(s.next(&h), None);
        let e = s.ended_early(&h).expect("ended early");
        assert_eq!(e.after_round, 3);
        assert!(e.reason.contains("round 4 of 5"), "{}", e.reason);
        // Not early when the last round was played.
        let s3 = Swiss::new(6, 3, 1).unwrap();
        assert_eq!(s3.ended_early(&h), None);
    }

    #[test]
    fn the_bye_moves_up_when_the_lowest_cannot_sit_out() {
        // Five engines, 0-1 2-3 played with 4 out; then 0-2 1-4 with 3 out.
        // The fewest byes: 0, 1, 2. If the lowest-ranked of them sits out,
        // is the rest pairable? The search says, brute force agrees.
        let s = Swiss::new(5, 5, 1).unwrap();
        let h = vec![
            Played {
                stage: Stage {
                    pairings: vec![(0, 1), (2, 3)],
                    bye: Some(4),
                },
                points: vec![(2, 2), (2, 2)],
            },
            Played {
                stage: Stage {
                    pairings: vec![(0, 2), (1, 4)],
                    bye: Some(3),
                },
                points: vec![(2, 2), (2, 2)],
            },
        ];
        let r = s.pair(&h).expect("a pairing");
        let bye = r.bye.expect("a bye");
        assert!(bye < 3, "no second bye: {bye}");
        let mut all = h.clone();
        all.push(Played {
            points: vec![(2, 2); r.pairings.len()],
            stage: r,
        });
        check_rules(&s, &all);
    }

    #[test]
    fn too_many_rounds_are_refused() {
        let e = Swiss::new(9, 10, 1).unwrap_err();
        assert!(e.contains("at most 9 rounds"), "{e}");
        assert!(Swiss::new(9, 9, 1).is_ok());
        assert!(Swiss::new(9, 5, 1).is_ok());
        let e = Swiss::new(8, 8, 1).unwrap_err();
        assert!(e.contains("at most 7 rounds"), "{e}");
        assert!(Swiss::new(8, 7, 1).is_ok());
    }
}
