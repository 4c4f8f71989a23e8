//! Game-generic search: iterative deepening, negamax with principal variation
//! search, a transposition table, and the history rules applied along the path
//! (repetition within a stretch of play, and repeated round starts over the
//! whole match, both counted from the game history given to the searcher).

use std::time::{Duration, Instant};

use mancala_rules::{Game, GameRecord, Outcome, RepetitionEffect, Side};
use mancala_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::Rng;

use crate::control::SearchControl;
use crate::eval::Evaluate;
use crate::tt::{Bound, Entry, Table};

/// Score of a won game at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are proven wins or losses.
pub const MATE_BOUND: i32 = MATE - 10_000;
const INF: i32 = MATE + 1;
const MAX_PLY: usize = 256;

/// Limits that do not depend on the clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Deliberate weakening for the `Level` option.
#[derive(Clone, Copy, Debug)]
pub struct Weakness {
    /// Deepest iteration searched.
    pub max_depth: u32,
    /// Each root move's score gets uniform noise in `-noise..=noise` (centi-seeds).
    pub noise: i32,
}

/// The most root lines a search reports (the `MultiPV` option's maximum).
pub const MAX_MULTIPV: u32 = 32;

/// One completed iteration, as reported in `info` lines.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// The score and principal variation of the move chosen (`multipv 1`).
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
    /// Transposition-table fill, permille (UCI's `hashfull`).
    pub hashfull: u32,
    /// With [`Searcher::set_multipv`] above 1: the next best root moves'
    /// lines (`multipv 2`, `3`, …), best first, each a different first move;
    /// empty otherwise.
    pub alternatives: Vec<RootLine<M>>,
}

/// A root move's exact score and principal variation (it starts with the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    pub score: i32,
    pub pv: Vec<M>,
}

/// The outcome of one iteration over the root moves.
struct RootScores<M> {
    /// Per root move: its score, exact or an upper bound.
    scores: Vec<i32>,
    /// Per root move: whether its score is exact.
    exact: Vec<bool>,
    /// Per root move with an exact score: the line below it.
    lines: Vec<Vec<M>>,
    best: usize,
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// `Some(plies)` to a proven win (positive) or loss (negative).
pub fn mate_distance(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// The score of a finished game for `side`, `ply` plies from the root.
fn terminal_score(side: Side, outcome: Outcome, ply: usize) -> i32 {
    match outcome.result.winner() {
        Some(w) if w == side => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
        None => 0,
    }
}

pub struct Searcher<'a, G: Evaluate> {
    tt: &'a mut Table,
    control: &'a SearchControl,
    limits: Limits,
    start: Instant,
    nodes: u64,
    seldepth: u32,
    /// Hashes of the positions that count for repetition: the game's history
    /// window followed by the current search path.
    path: Vec<u64>,
    /// Keys of the round starts of the match ([`mancala_rules::Round`]): the
    /// game's, followed by those on the current search path. Empty for games
    /// without rounds.
    round_starts: Vec<u128>,
    moves: Vec<Vec<G::Move>>,
    /// The principal variation found below each ply (a triangular PV table):
    /// `pv[ply]` is the line from the node being searched at `ply`.
    // why not only the transposition table: its entries are replaced as it
    // fills, and a line read back from it broke off after one move in long
    // searches (depth 14 of Bohnenspiel at 40% hashfull).
    pv: Vec<Vec<G::Move>>,
    aborted: bool,
    /// Depth of the iteration under way: depth 1 always completes, so there is
    /// always a move to play.
    iteration: u32,
    /// Root lines to report (UCI `MultiPV`), at least 1.
    multipv: usize,
    /// An endgame database: positions in it score exactly (`TablebasePath`).
    tablebase: Option<&'a Tablebase>,
}

enum Child<G> {
    /// The game ended at the child (by position or a history rule); score for
    /// the side to move at the parent.
    Terminal(i32),
    /// Search this position, then [`Searcher::leave`] it.
    Search(G, Entered),
}

/// What entering a child pushed on the histories, for [`Searcher::leave`].
#[derive(Clone, Copy)]
struct Entered {
    /// Where repetition counting starts on the path below the child.
    window: usize,
    /// The child opens a round: its key was pushed on the round starts.
    round_start: bool,
}

impl<'a, G: Evaluate> Searcher<'a, G> {
    /// `history` holds the Zobrist keys of the game's positions that count for
    /// repetition, oldest first, the root last.
    pub fn new(
        tt: &'a mut Table,
        control: &'a SearchControl,
        limits: Limits,
        history: &[u64],
    ) -> Searcher<'a, G> {
        Searcher {
            tt,
            control,
            limits,
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            path: history.to_vec(),
            round_starts: Vec::new(),
            moves: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            aborted: false,
            iteration: 0,
            multipv: 1,
            tablebase: None,
        }
    }

    /// Scores the positions of `tablebase` exactly inside the search.
    pub fn with_tablebase(mut self, tablebase: Option<&'a Tablebase>) -> Searcher<'a, G> {
        self.tablebase = tablebase;
        self
    }

    /// Reports the `lines` best root moves each iteration (UCI `MultiPV`;
    /// clamped to 1..=[`MAX_MULTIPV`]). Their scores are exact: the root
    /// searches every move against the `lines`-th best score instead of the
    /// best, which costs time, so 1 (the default) is the strongest setting.
    pub fn set_multipv(&mut self, lines: u32) {
        self.multipv = lines.clamp(1, MAX_MULTIPV) as usize;
    }

    /// The round starts of the match so far ([`GameRecord::round_start_history`]),
    /// oldest first, the root's last if it opens a round; a line that brings
    /// one back for the [`Game::ROUND_START_LIMIT`]th time is a draw.
    pub fn with_round_starts(mut self, round_starts: &[u128]) -> Searcher<'a, G> {
        self.round_starts = round_starts.to_vec();
        self
    }

    /// A searcher for the current position of `record`, knowing the game's
    /// history as the rules count it: the positions of the current stretch and
    /// the round starts of the whole match.
    pub fn for_record(
        tt: &'a mut Table,
        control: &'a SearchControl,
        limits: Limits,
        record: &GameRecord<G>,
    ) -> Searcher<'a, G> {
        let history: Vec<u64> = record.repetition_history().map(Game::zobrist).collect();
        Searcher::new(tt, control, limits, &history).with_round_starts(record.round_start_history())
    }

    /// Iterative deepening from `root`; calls `report` after each iteration.
    /// Returns `None` only when the root has no legal move.
    pub fn run(
        &mut self,
        root: &G,
        weakness: Option<(Weakness, &mut SmallRng)>,
        mut report: impl FnMut(&Iteration<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let root_moves = root.legal_move_list();
        let first = *root_moves.first()?;
        let (max_depth, mut noise) = match weakness {
            Some((w, rng)) => (w.max_depth, Some((w.noise, rng))),
            None => (MAX_PLY as u32 - 1, None),
        };
        let max_depth = self
            .limits
            .depth
            .map_or(max_depth, |d| d.min(max_depth))
            .max(1);
        // why 0: the history given to `new` is exactly the positions that count
        // for repetition (those since the history key last changed), so every
        // one of them counts, not only the root.
        let window = 0;
        let mut best = SearchResult {
            best: first,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=max_depth {
            if depth > 1 && self.control.should_not_deepen(Instant::now()) {
                break;
            }
            self.iteration = depth;
            self.seldepth = 0;
            let ranked = self.root(root, &root_moves, depth, window, noise.is_some());
            if self.aborted {
                break;
            }
            // why not `pick` at full strength: only the best move's score is
            // exact there; a null-window fail-low can return exactly alpha and
            // tie with it while the move is far worse.
            let (idx, score) = match noise.as_mut() {
                Some((n, rng)) => pick(&ranked.scores, Some((*n, &mut **rng))),
                None => (ranked.best, ranked.scores[ranked.best]),
            };
            let line = |i: usize| {
                let mut pv = vec![root_moves[i]];
                pv.extend_from_slice(&ranked.lines[i]);
                pv
            };
            let pv = line(idx);
            // The other exact scores, best first; the chosen move is line 1
            // (when weakened, it need not have the best score).
            let mut others: Vec<usize> = (0..root_moves.len())
                .filter(|&i| i != idx && ranked.exact[i])
                .collect();
            others.sort_by_key(|&i| std::cmp::Reverse(ranked.scores[i]));
            others.truncate(self.multipv - 1);
            let alternatives = others
                .into_iter()
                .map(|i| RootLine {
                    score: ranked.scores[i],
                    pv: line(i),
                })
                .collect();
            best = SearchResult {
                best: root_moves[idx],
                ponder: pv.get(1).copied(),
                score,
                depth,
                nodes: self.nodes,
            };
            report(&Iteration {
                depth,
                seldepth: self.seldepth.max(depth),
                score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv,
                hashfull: self.tt.hashfull(),
                alternatives,
            });
            // A proven result does not change with depth (unless weakened).
            if mate_distance(score).is_some_and(|d| d.unsigned_abs() <= depth) && noise.is_none() {
                break;
            }
        }
        best.nodes = self.nodes;
        Some(best)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Scores every root move at `depth`. With `exact`, every score is exact
    /// (full window, for weakened play); otherwise the best `multipv` are,
    /// and the others are upper bounds that may equal the `multipv`-th best
    /// while the move is far worse.
    fn root(
        &mut self,
        root: &G,
        moves: &[G::Move],
        depth: u32,
        window: usize,
        exact: bool,
    ) -> RootScores<G::Move> {
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let key = root.zobrist();
        if let Some(e) = self.tt.get(key) {
            if let Some(pos) = order.iter().position(|&i| i == e.best as usize) {
                order.swap(0, pos);
            }
        }
        let mut ranked = RootScores {
            scores: vec![-INF; moves.len()],
            exact: vec![false; moves.len()],
            lines: vec![Vec::new(); moves.len()],
            best: order[0],
        };
        let mut alpha = -INF;
        // The best `multipv` exact scores so far, best first.
        let mut top: Vec<i32> = Vec::with_capacity(self.multipv + 1);
        for &i in &order {
            // A move matters only if it beats the `multipv`-th best so far:
            // search it against that score (with MultiPV 1, the best so far).
            let floor = (!exact && top.len() == self.multipv).then(|| top[self.multipv - 1]);
            self.pv[1].clear();
            let (score, is_exact) = match self.enter(root, root.after(moves[i]), window, 1) {
                Child::Terminal(s) => (s, true),
                Child::Search(child, entered) => {
                    let w = entered.window;
                    let again = child.side_to_move() == root.side_to_move();
                    let s = match floor {
                        None => self.child_score(&child, again, depth - 1, -INF, INF, 1, w),
                        Some(floor) => {
                            let s =
                                self.child_score(&child, again, depth - 1, floor, floor + 1, 1, w);
                            if s > floor && !self.aborted {
                                self.child_score(&child, again, depth - 1, floor, INF, 1, w)
                            } else {
                                s
                            }
                        }
                    };
                    self.leave(entered);
                    (s, floor.is_none_or(|floor| s > floor))
                }
            };
            if self.aborted {
                return ranked;
            }
            ranked.scores[i] = score;
            ranked.exact[i] = is_exact;
            if is_exact {
                ranked.lines[i].clone_from(&self.pv[1]);
            }
            if is_exact {
                let at = top.partition_point(|&t| t >= score);
                top.insert(at, score);
                top.truncate(self.multipv);
            }
            if score > alpha {
                alpha = score;
                ranked.best = i;
            }
        }
        self.tt.put(Entry {
            key,
            score: alpha,
            depth: depth as u8,
            bound: Bound::Exact,
            best: ranked.best as u8,
        });
        ranked
    }

    /// Applies the history rules to a child (the round-start rule, then
    /// repetition) and pushes it on the histories when it is to be searched
    /// (the caller then [`Searcher::leave`]s it).
    fn enter(&mut self, parent: &G, mut child: G, window: usize, ply: usize) -> Child<G> {
        let mover = parent.side_to_move();
        let mut window = if child.history_key() != parent.history_key() {
            self.path.len()
        } else {
            window
        };
        let mut round_start = child.round_start_after(parent);
        loop {
            // A finished game stands even if it also repeats something.
            if let Some(outcome) = child.status() {
                return Child::Terminal(terminal_score(mover, outcome, ply));
            }
            if let Some(key) = round_start {
                let seen = self.round_starts.iter().filter(|&&k| k == key).count();
                if seen + 1 >= G::ROUND_START_LIMIT {
                    let outcome = child.on_round_start_repetition();
                    return Child::Terminal(terminal_score(mover, outcome, ply));
                }
            }
            let hash = child.zobrist();
            let seen = self.path[window..].iter().filter(|&&h| h == hash).count();
            if seen + 1 < G::REPETITION_LIMIT {
                self.path.push(hash);
                if let Some(key) = round_start {
                    self.round_starts.push(key);
                }
                let entered = Entered {
                    window,
                    round_start: round_start.is_some(),
                };
                return Child::Search(child, entered);
            }
            match child.on_repetition() {
                RepetitionEffect::GameOver(outcome) => {
                    return Child::Terminal(terminal_score(mover, outcome, ply));
                }
                RepetitionEffect::Continue(next) => {
                    round_start = next.round_start_after(&child);
                    child = next;
                    window = self.path.len();
                }
            }
        }
    }

    /// Undoes what [`Searcher::enter`] pushed for a searched child.
    fn leave(&mut self, entered: Entered) {
        self.path.pop();
        if entered.round_start {
            self.round_starts.pop();
        }
    }

    fn check_abort(&mut self) {
        if self.iteration <= 1 {
            return;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || (self.nodes & 1023 == 0 && self.control.must_stop(Instant::now()))
        {
            self.aborted = true;
        }
    }

    /// A searched child's score for the side to move at its parent, within
    /// (`alpha`, `beta`) of that side: negated when the turn passes, as it is
    /// when the mover moves `again` (a Kalah extra turn).
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        child: &G,
        again: bool,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        window: usize,
    ) -> i32 {
        if again {
            self.negamax(child, depth, alpha, beta, ply, window)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply, window)
        }
    }

    fn negamax(
        &mut self,
        pos: &G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        window: usize,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        self.pv[ply].clear();
        self.check_abort();
        if self.aborted {
            return 0;
        }
        if let Some(score) = self.tablebase.and_then(|tb| pos.tablebase_score(tb)) {
            return score;
        }
        if depth == 0 || ply >= MAX_PLY {
            return pos.evaluate();
        }
        let key = pos.zobrist();
        let mut tt_best = None;
        // why no cutoff in a PV node (open window): its line would end here,
        // and the table may no longer hold the rest of it.
        let pv_node = beta > alpha + 1;
        if let Some(e) = self.tt.get(key) {
            tt_best = Some(e.best as usize);
            if u32::from(e.depth) >= depth && !pv_node {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        pos.legal_moves(&mut moves);
        // Children with a cheap static order: TT move first, then by evaluation.
        let mut children: Vec<(usize, i32, G)> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let c = pos.after(mv);
                let key = if Some(i) == tt_best {
                    i32::MIN
                } else if depth >= 3 {
                    // Ascending: the child worst for the side to move there
                    // first, unless that side is the mover again.
                    if c.side_to_move() == pos.side_to_move() {
                        -c.evaluate()
                    } else {
                        c.evaluate()
                    }
                } else {
                    0
                };
                (i, key, c)
            })
            .collect();
        children.sort_by_key(|&(_, k, _)| k);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_idx = children.first().map_or(0, |c| c.0);
        for (n, (i, _, child)) in children.into_iter().enumerate() {
            // why: a child that ends the game is not searched, so nothing
            // would clear the line left below by its elder sibling.
            self.pv[ply + 1].clear();
            let score = match self.enter(pos, child, window, ply + 1) {
                Child::Terminal(s) => s,
                Child::Search(child, entered) => {
                    let w = entered.window;
                    let again = child.side_to_move() == pos.side_to_move();
                    let (d, p) = (depth - 1, ply + 1);
                    let s = if n == 0 {
                        self.child_score(&child, again, d, alpha, beta, p, w)
                    } else {
                        let s = self.child_score(&child, again, d, alpha, alpha + 1, p, w);
                        if s > alpha && s < beta && !self.aborted {
                            self.child_score(&child, again, d, alpha, beta, p, w)
                        } else {
                            s
                        }
                    };
                    self.leave(entered);
                    s
                }
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_idx = i;
            }
            if score > alpha {
                alpha = score;
                if pv_node {
                    let (here, below) = self.pv.split_at_mut(ply + 1);
                    let line = &mut here[ply];
                    line.clear();
                    line.push(moves[i]);
                    line.extend_from_slice(&below[0]);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.moves[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.put(Entry {
            key,
            score: to_tt(best, ply),
            depth: depth.min(255) as u8,
            bound,
            best: best_idx as u8,
        });
        best
    }
}

/// Mate scores are stored relative to the node, so they stay right when the
/// same position is reached at another ply.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The chosen root move: the best score, or with noise the best noisy score
/// (proven wins and losses keep their order: noise never throws a won game).
fn pick(scores: &[i32], noise: Option<(i32, &mut SmallRng)>) -> (usize, i32) {
    let best = |keyed: &dyn Fn(usize) -> i64| {
        (0..scores.len())
            .max_by_key(|&i| (keyed(i), std::cmp::Reverse(i)))
            .unwrap_or(0)
    };
    let idx = match noise {
        Some((n, rng)) if n > 0 => {
            let noisy: Vec<i64> = scores
                .iter()
                .map(|&s| {
                    let jitter = if mate_distance(s).is_some() {
                        0
                    } else {
                        rng.random_range(-n..=n)
                    };
                    i64::from(s) + i64::from(jitter)
                })
                .collect();
            best(&|i| noisy[i])
        }
        _ => best(&|i| i64::from(scores[i])),
    };
    (idx, scores[idx])
}

#[cfg(test)]
mod tests {
    //! The search on a toy game whose theory is known: Nim with one pile,
    //! take 1–3, whoever takes the last stone wins. The mover loses exactly
    //! when the pile is a multiple of 4.
    use super::*;
    use mancala_rules::{EndReason, GameId, MoveSyntaxError, PositionError, Side};
    use rand::SeedableRng;
    use std::fmt;
    use std::str::FromStr;

    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    struct Nim {
        pile: u32,
        side: Side,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    struct Take(u32);

    impl fmt::Display for Take {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}", self.0)
        }
    }
    impl FromStr for Take {
        type Err = MoveSyntaxError;
        fn from_str(s: &str) -> Result<Take, MoveSyntaxError> {
            s.parse()
                .map(Take)
                .map_err(|_| MoveSyntaxError::new(s, "not a number"))
        }
    }
    impl fmt::Display for Nim {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "nim {} {}", self.pile, self.side.letter())
        }
    }
    impl FromStr for Nim {
        type Err = PositionError;
        fn from_str(_: &str) -> Result<Nim, PositionError> {
            Err(PositionError::new(mancala_rules::Field::String, "toy"))
        }
    }
    impl Game for Nim {
        type Move = Take;
        const ID: GameId = GameId::Kimasai;
        const LAYOUT: mancala_rules::Layout = mancala_rules::Layout::TWO_BY_SIX_WITH_STORES;
        const REPETITION_LIMIT: usize = 3;
        fn start() -> Nim {
            Nim {
                pile: 21,
                side: Side::South,
            }
        }
        fn side_to_move(&self) -> Side {
            self.side
        }
        fn legal_moves(&self, moves: &mut Vec<Take>) {
            moves.extend((1..=3.min(self.pile)).map(Take));
        }
        fn play(&mut self, mv: Take) {
            self.pile -= mv.0;
            self.side = self.side.opponent();
        }
        fn status(&self) -> Option<Outcome> {
            (self.pile == 0).then(|| Outcome::win(self.side.opponent(), EndReason::NoLegalMove))
        }
        fn on_repetition(&self) -> RepetitionEffect<Nim> {
            RepetitionEffect::GameOver(Outcome::draw(EndReason::Repetition))
        }
        fn history_key(&self) -> u64 {
            0
        }
        fn zobrist(&self) -> u64 {
            u64::from(self.pile) * 2 + self.side.index() as u64
        }
        fn seed_count(&self) -> u32 {
            self.pile
        }
        fn render(&self) -> String {
            self.to_string()
        }
    }
    impl Evaluate for Nim {
        fn evaluate(&self) -> i32 {
            0
        }
    }

    fn search(pile: u32, limits: Limits) -> SearchResult<Take> {
        let mut tt = Table::new(1);
        let control = SearchControl::new();
        let root = Nim {
            pile,
            side: Side::South,
        };
        let mut s = Searcher::<Nim>::new(&mut tt, &control, limits, &[root.zobrist()]);
        s.run(&root, None, |_| {}).unwrap()
    }

    #[test]
    fn finds_the_winning_move_and_proves_it() {
        for pile in [5, 6, 7, 9, 10, 11, 13, 21] {
            let r = search(
                pile,
                Limits {
                    depth: Some(30),
                    nodes: None,
                },
            );
            assert_eq!((pile - r.best.0) % 4, 0, "pile {pile}: took {}", r.best.0);
            assert_eq!(
                mate_distance(r.score),
                Some((pile as i32 + 3) / 4 * 2 - 1),
                "pile {pile}"
            );
        }
    }

    #[test]
    fn counts_repetitions_in_the_game_history_before_the_root() {
        // Pile 5: taking 1 wins, but the position after it (pile 4, North to
        // move) has occurred twice in the game already, so reaching it again is
        // the third occurrence: a draw. Every other move loses.
        let mut tt = Table::new(1);
        let control = SearchControl::new();
        let root = Nim {
            pile: 5,
            side: Side::South,
        };
        let repeated = Nim {
            pile: 4,
            side: Side::North,
        };
        let history = [repeated.zobrist(), repeated.zobrist(), root.zobrist()];
        let limits = Limits {
            depth: Some(10),
            nodes: None,
        };
        let mut s = Searcher::<Nim>::new(&mut tt, &control, limits, &history);
        let r = s.run(&root, None, |_| {}).unwrap();
        assert_eq!((r.best, r.score), (Take(1), 0));
    }

    /// Only 6+ wins here (in 11 plies); at depth 11 the null-window searches
    /// of 1--- and 1-+ fail low with exactly the best score, and the engine
    /// used to play the first of the tied moves, losing at once.
    #[test]
    fn plays_the_move_that_earned_the_best_score() {
        use mancala_rules::games::kujifunza::Kujifunza;
        let root: Kujifunza =
            "kujifunza 3,0,3,3,0,3,3,1,6,0,5,0,5,1,0,0,2,2,2,2,2,2,0,3,4,1,1,3,3,0,1,3 S"
                .parse()
                .unwrap();
        let mut tt = Table::new(16);
        let control = SearchControl::new();
        let limits = Limits {
            depth: Some(11),
            nodes: None,
        };
        let mut s = Searcher::<Kujifunza>::new(&mut tt, &control, limits, &[root.zobrist()]);
        let r = s.run(&root, None, |_| {}).unwrap();
        assert_eq!(
            (r.best.to_string(), mate_distance(r.score)),
            ("6+".to_string(), Some(11))
        );
    }

    /// Pile 21: taking 1 wins (leaves 20, a multiple of 4); taking 2 or 3
    /// loses. With MultiPV 3 every root move's proven score is reported,
    /// and each equals what a search of the position after it proves.
    #[test]
    fn multipv_scores_every_root_move_exactly() {
        let root = Nim {
            pile: 21,
            side: Side::South,
        };
        let limits = Limits {
            depth: Some(30),
            nodes: None,
        };
        let mut tt = Table::new(1);
        let control = SearchControl::new();
        let mut s = Searcher::<Nim>::new(&mut tt, &control, limits, &[root.zobrist()]);
        s.set_multipv(3);
        let mut last = None;
        let r = s.run(&root, None, |it| last = Some(it.clone())).unwrap();
        let last = last.unwrap();
        assert_eq!((r.best, last.pv[0]), (Take(1), Take(1)));
        assert_eq!(mate_distance(last.score), Some(11));
        let lines: Vec<(Take, i32)> = last
            .alternatives
            .iter()
            .map(|l| (l.pv[0], l.score))
            .collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        for (mv, score) in lines {
            assert_ne!(mv, Take(1));
            // The child searched on its own, one ply further from the root.
            let child = root.after(mv);
            let mut tt = Table::new(1);
            let mut c = Searcher::<Nim>::new(&mut tt, &control, limits, &[child.zobrist()]);
            let own = c.run(&child, None, |_| {}).unwrap().score;
            let child_plies = mate_distance(own).unwrap();
            assert!(child_plies > 0, "{mv} should lose");
            assert_eq!(mate_distance(score), Some(-(child_plies + 1)), "{mv}");
        }
        // MultiPV 1 (the default) reports no alternatives.
        let mut tt = Table::new(1);
        let mut s = Searcher::<Nim>::new(&mut tt, &control, limits, &[root.zobrist()]);
        let mut alternatives = 0;
        s.run(&root, None, |it| alternatives += it.alternatives.len());
        assert_eq!(alternatives, 0);
    }

    #[test]
    fn knows_a_lost_position() {
        let r = search(
            8,
            Limits {
                depth: Some(30),
                nodes: None,
            },
        );
        assert_eq!(mate_distance(r.score), Some(-4));
    }

    #[test]
    fn reports_every_iteration_and_respects_depth() {
        let mut tt = Table::new(1);
        let control = SearchControl::new();
        let root = Nim {
            pile: 40,
            side: Side::South,
        };
        let mut depths = Vec::new();
        let mut s = Searcher::<Nim>::new(
            &mut tt,
            &control,
            Limits {
                depth: Some(4),
                nodes: None,
            },
            &[],
        );
        let r = s.run(&root, None, |it| depths.push(it.depth)).unwrap();
        assert_eq!(depths, vec![1, 2, 3, 4]);
        assert_eq!(r.depth, 4);
    }

    #[test]
    fn a_stopped_search_still_returns_a_move() {
        let mut tt = Table::new(1);
        let control = SearchControl::new();
        control.stop();
        let root = Nim {
            pile: 40,
            side: Side::South,
        };
        let mut s = Searcher::<Nim>::new(&mut tt, &control, Limits::default(), &[]);
        let r = s.run(&root, None, |_| {}).unwrap();
        assert_eq!(r.depth, 1);
    }

    #[test]
    fn node_limit_is_honoured_after_depth_one() {
        let r = search(
            200,
            Limits {
                depth: None,
                nodes: Some(500),
            },
        );
        assert!(r.nodes <= 500 + 3, "{} nodes", r.nodes);
    }

    #[test]
    fn noise_never_gives_away_a_proven_win() {
        let root = Nim {
            pile: 5,
            side: Side::South,
        };
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..20 {
            let mut tt = Table::new(1);
            let control = SearchControl::new();
            let mut s = Searcher::<Nim>::new(&mut tt, &control, Limits::default(), &[]);
            let w = Weakness {
                max_depth: 9,
                noise: 500,
            };
            let r = s.run(&root, Some((w, &mut rng)), |_| {}).unwrap();
            assert_eq!(r.best, Take(1));
        }
    }
}
