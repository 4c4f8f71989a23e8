//! Maximum-cardinality matching in a general graph: Edmonds' blossom
//! algorithm, one augmenting search at a time, over a graph given by a
//! function (`edge(u, v)`) on vertices `0..n`, some of which may be set
//! aside (removed) and brought back.
//!
//! The Swiss pairing ([`super::swiss`]) uses it as an oracle: with a perfect
//! matching of the engines still to pair, [`Matcher::commit`] tells whether
//! some perfect matching contains a given pair — one augmenting search, since
//! taking the pair out leaves the matching short by one pair at most.
//!
//! The search is the textbook one (a breadth-first alternating tree from an
//! exposed root, odd cycles contracted to their base): O(n²) edge look-ups
//! for the scan, O(n) more per contraction, so O(n³) per search at worst and
//! O(n²) in practice. Nothing is allocated per search.

use std::collections::VecDeque;

const NONE: usize = usize::MAX;

/// A matching on the live vertices of the graph `edge` (symmetric, no
/// loops), with its scratch space.
pub struct Matcher<E> {
    edge: E,
    alive: Vec<bool>,
    mate: Vec<usize>,
    pairs: usize,
    // The search's scratch: tree parent of odd vertices, blossom base, in
    // the tree (even), in the blossom being contracted, on the LCA walk.
    parent: Vec<usize>,
    base: Vec<usize>,
    even: Vec<bool>,
    blossom: Vec<bool>,
    walked: Vec<bool>,
    queue: VecDeque<usize>,
}

impl<E: Fn(usize, usize) -> bool> Matcher<E> {
    /// An empty matching of the `n` vertices of `edge`, all live.
    pub fn new(n: usize, edge: E) -> Matcher<E> {
        Matcher {
            edge,
            alive: vec![true; n],
            mate: vec![NONE; n],
            pairs: 0,
            parent: vec![NONE; n],
            base: (0..n).collect(),
            even: vec![false; n],
            blossom: vec![false; n],
            walked: vec![false; n],
            queue: VecDeque::with_capacity(n),
        }
    }

    fn n(&self) -> usize {
        self.mate.len()
    }

    /// `v`'s partner in the matching.
    pub fn mate(&self, v: usize) -> Option<usize> {
        (self.mate[v] != NONE).then_some(self.mate[v])
    }

    /// Pairs in the matching.
    pub fn pairs(&self) -> usize {
        self.pairs
    }

    /// Live vertices.
    pub fn live(&self) -> usize {
        self.alive.iter().filter(|&&a| a).count()
    }

    /// Whether `u` and `v` may be paired: both live, distinct, an edge.
    pub fn joinable(&self, u: usize, v: usize) -> bool {
        u != v && self.alive[u] && self.alive[v] && (self.edge)(u, v)
    }

    /// Pairs `u` and `v` if both are live, exposed and joined by an edge
    /// (a seed for the search); whether it did.
    pub fn pair(&mut self, u: usize, v: usize) -> bool {
        if !self.joinable(u, v) || self.mate[u] != NONE || self.mate[v] != NONE {
            return false;
        }
        self.mate[u] = v;
        self.mate[v] = u;
        self.pairs += 1;
        true
    }

    /// Takes `v` out of the graph (and of its pair, if any).
    pub fn remove(&mut self, v: usize) {
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[v] = NONE;
            self.pairs -= 1;
        }
        self.alive[v] = false;
    }

    /// Augments the matching from every exposed live vertex: it is then
    /// maximum. Returns its pairs.
    pub fn maximize(&mut self) -> usize {
        for v in 0..self.n() {
            if self.alive[v] && self.mate[v] == NONE {
                self.augment(v);
            }
        }
        self.pairs
    }

    /// With the matching maximum: whether a maximum matching pairs `u` with
    /// `v`. If so, `u` and `v` are taken out of the graph (their pair
    /// decided) and the matching is a maximum one of what is left; if not,
    /// nothing changes.
    pub fn commit(&mut self, u: usize, v: usize) -> bool {
        if !self.joinable(u, v) {
            return false;
        }
        let target = self.pairs;
        if self.mate[u] == v {
            self.remove(u);
            self.remove(v);
            return true;
        }
        // why a copy: a failed try must leave the matching as it was, and
        // the successful search may already have moved pairs.
        let saved = (self.mate.clone(), self.pairs);
        let (a, b) = (self.mate[u], self.mate[v]);
        self.remove(u);
        self.remove(v);
        // Any augmenting path now ends at a or b (the matching was maximum).
        for r in [a, b] {
            if r != NONE && self.mate[r] == NONE && self.pairs + 1 < target {
                self.augment(r);
            }
        }
        if self.pairs + 1 >= target {
            return true;
        }
        (self.mate, self.pairs) = saved;
        self.alive[u] = true;
        self.alive[v] = true;
        false
    }

    /// One search from the exposed live vertex `root`; augments along the
    /// path found. Whether it found one.
    pub fn augment(&mut self, root: usize) -> bool {
        if !self.alive[root] || self.mate[root] != NONE {
            return false;
        }
        let Some(end) = self.find_path(root) else {
            return false;
        };
        let mut v = end;
        while v != NONE {
            let pv = self.parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
        self.pairs += 1;
        true
    }

    /// The exposed vertex an augmenting path from `root` ends at, with the
    /// path in `parent` (odd vertices) and `mate` (even ones).
    fn find_path(&mut self, root: usize) -> Option<usize> {
        let n = self.n();
        self.even.fill(false);
        self.parent.fill(NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.even[root] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for to in 0..n {
                if to == v
                    || !self.alive[to]
                    || self.base[v] == self.base[to]
                    || self.mate[v] == to
                    || !(self.edge)(v, to)
                {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    // An even vertex: an odd cycle, contracted to its base.
                    let cur = self.lca(v, to);
                    self.blossom.fill(false);
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    for i in 0..n {
                        if self.alive[i] && self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.even[i] {
                                self.even[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let m = self.mate[to];
                    self.even[m] = true;
                    self.queue.push_back(m);
                }
            }
        }
        None
    }

    /// The base of the blossom closing at the edge `a`–`b`.
    fn lca(&mut self, mut a: usize, mut b: usize) -> usize {
        self.walked.fill(false);
        loop {
            a = self.base[a];
            self.walked[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if self.walked[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the blossom's vertices from `v` down to base `b`, pointing the
    /// odd ones' parents the other way round the cycle.
    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            let m = self.mate[v];
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[m]] = true;
            self.parent[v] = child;
            child = m;
            v = self.parent[m];
        }
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // why: adjacency matrices read best by index
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency on the rand crate's
    /// stream).
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *seed >> 33
    }

    fn random_graph(n: usize, percent: u64, seed: &mut u64) -> Vec<Vec<bool>> {
        let mut adj = vec![vec![false; n]; n];
        for u in 0..n {
            for v in u + 1..n {
                if lcg(seed) % 100 < percent {
                    adj[u][v] = true;
                    adj[v][u] = true;
                }
            }
        }
        adj
    }

    /// The largest matching of the live vertices, by trying everything.
    fn brute(adj: &[Vec<bool>], alive: &[bool]) -> usize {
        fn go(adj: &[Vec<bool>], free: &mut [bool]) -> usize {
            let Some(u) = free.iter().position(|&f| f) else {
                return 0;
            };
            free[u] = false;
            let mut best = go(adj, free);
            for v in 0..free.len() {
                if free[v] && adj[u][v] {
                    free[v] = false;
                    best = best.max(1 + go(adj, free));
                    free[v] = true;
                }
            }
            free[u] = true;
            best
        }
        go(adj, &mut alive.to_vec())
    }

    fn check_valid<E: Fn(usize, usize) -> bool>(m: &Matcher<E>, adj: &[Vec<bool>]) {
        let mut pairs = 0;
        for v in 0..adj.len() {
            if let Some(w) = m.mate(v) {
                assert!(adj[v][w], "{v}-{w} is not an edge");
                assert_eq!(m.mate(w), Some(v));
                assert!(m.alive[v] && m.alive[w]);
                pairs += 1;
            }
        }
        assert_eq!(pairs, 2 * m.pairs());
    }

    #[test]
    fn maximum_on_random_graphs_equals_brute_force() {
        let mut seed = 7;
        for n in 0..=11 {
            for percent in [15, 35, 60, 90] {
                for _ in 0..12 {
                    let adj = random_graph(n, percent, &mut seed);
                    let mut m = Matcher::new(n, |u, v| adj[u][v]);
                    let got = m.maximize();
                    check_valid(&m, &adj);
                    assert_eq!(got, brute(&adj, &vec![true; n]), "n {n}: {adj:?}");
                }
            }
        }
    }

    #[test]
    fn a_blossom_is_contracted() {
        // 0 exposed; 0-1=2, the odd cycle 2-3=4-2, and 5 exposed beyond 3:
        // the path 0-1=2-4=3-5 goes round the cycle the other way.
        let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 2), (3, 5)];
        let mut adj = vec![vec![false; 6]; 6];
        for (a, b) in edges {
            adj[a][b] = true;
            adj[b][a] = true;
        }
        let mut m = Matcher::new(6, |u, v| adj[u][v]);
        assert!(m.pair(1, 2) && m.pair(3, 4));
        assert!(m.augment(0));
        check_valid(&m, &adj);
        assert_eq!(m.pairs(), 3);
        assert_eq!((m.mate(0), m.mate(5)), (Some(1), Some(3)));
        // And a graph with no perfect matching: two triangles.
        let mut adj = vec![vec![false; 6]; 6];
        for (a, b) in [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)] {
            adj[a][b] = true;
            adj[b][a] = true;
        }
        let mut m = Matcher::new(6, |u, v| adj[u][v]);
        assert_eq!(m.maximize(), 2);
    }

    #[test]
    fn commit_says_whether_a_perfect_matching_has_the_pair() {
        let mut seed = 11;
        for n in [4, 6, 8, 10] {
            for percent in [40, 60, 80] {
                for _ in 0..20 {
                    let adj = random_graph(n, percent, &mut seed);
                    let mut m = Matcher::new(n, |u, v| adj[u][v]);
                    if m.maximize() * 2 < n {
                        continue;
                    }
                    // Decide pairs one at a time, lowest vertex first, each
                    // trying partners in order, as the Swiss does.
                    let mut alive = vec![true; n];
                    while let Some(u) = alive.iter().position(|&a| a) {
                        let mut done = false;
                        for v in u + 1..n {
                            if !alive[v] || !adj[u][v] {
                                continue;
                            }
                            // Brute force: the rest pairs perfectly without u, v.
                            let mut rest = alive.clone();
                            rest[u] = false;
                            rest[v] = false;
                            let possible =
                                brute(&adj, &rest) * 2 == rest.iter().filter(|&&a| a).count();
                            let before: Vec<Option<usize>> = (0..n).map(|x| m.mate(x)).collect();
                            assert_eq!(m.commit(u, v), possible, "{u}-{v} in {adj:?}");
                            if possible {
                                alive = rest;
                                done = true;
                                check_valid(&m, &adj);
                                assert_eq!(m.pairs() * 2, m.live());
                                break;
                            }
                            let after: Vec<Option<usize>> = (0..n).map(|x| m.mate(x)).collect();
                            assert_eq!(before, after, "a refused pair changes nothing");
                        }
                        assert!(done, "some partner of {u} always fits");
                    }
                }
            }
        }
    }

    #[test]
    fn removed_vertices_are_out_of_the_graph() {
        let mut seed = 3;
        for n in 2..=10 {
            let adj = random_graph(n, 55, &mut seed);
            let mut m = Matcher::new(n, |u, v| adj[u][v]);
            m.maximize();
            let mut alive = vec![true; n];
            for v in (0..n).step_by(3) {
                m.remove(v);
                alive[v] = false;
            }
            assert_eq!(m.maximize(), brute(&adj, &alive), "{adj:?}");
            check_valid(&m, &adj);
            assert!(!m.pair(0, 1), "0 is out");
        }
    }
}
