//! The database against an exhaustive search written here, independent of
//! the build: every position of both games with at most 8 beans on the
//! board, both sides to move, compared entry by entry.
//!
//! The search is not the build's bound iteration: for every threshold `t` it
//! computes South's attractor ("South can force the game to end, in finitely
//! many moves, with South's net gain ≥ t") and North's ("… ≤ t") by the
//! classic retrograde counting over an explicit graph of the layer, with the
//! moves from the rules library's `Game` trait. Where both attractors agree
//! the value does not depend on endless play, and that is the value.
//! Where they do not, the database's documented ruling applies: endless play
//! scored worst for one side, then for the other, gives the bounds
//! (`max(low, -n)`, `min(high, n)`), and the value is the cycle ruling's
//! allocation at the position itself clamped into them; the database must
//! flag exactly those boards, with those bounds.

use std::collections::{HashMap, VecDeque};

use mancala_rules::games::bohnenspiel::Bean;
use mancala_rules::{Game, RepetitionEffect, Side};
use mancala_tablebase::index::rank;
use mancala_tablebase::position::relative_board;
use mancala_tablebase::solve::solve_all;

/// Up to 8 beans: C(20, 12) = 125 970 boards, both sides to move, both games,
/// about a second in the test profile.
const MAX_BEANS: usize = 8;

type Key = ([u8; 12], Side);

/// Every board with `n` beans (written here: recursion over the pits).
fn boards(n: usize) -> Vec<[u8; 12]> {
    fn fill(pit: usize, left: u8, board: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
        if pit == 11 {
            board[11] = left;
            out.push(*board);
            return;
        }
        for b in 0..=left {
            board[pit] = b;
            fill(pit + 1, left - b, board, out);
        }
    }
    let mut out = Vec::new();
    fill(0, n as u8, &mut [0; 12], &mut out);
    out
}

/// How a position's play goes on, in South's net gain.
enum Node {
    /// Finished: South's net gain from the end's allocation.
    End(i32),
    Play {
        side: Side,
        /// South's net gain of each capture move (the child solved before).
        exits: Vec<i32>,
        /// Quiet moves: the child's id in this layer.
        quiet: Vec<usize>,
    },
}

/// What the search finds for one position, in South's net gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Found {
    value: i32,
    /// `Some((lower, upper))` where the value depends on endless play.
    bounds: Option<(i32, i32)>,
}

/// South's net gain for every position of every layer up to `max`.
fn exhaustive<const H: bool>(max: usize) -> HashMap<Key, Found> {
    let mut solved: HashMap<Key, Found> = HashMap::new();
    for n in 0..=max {
        let mut keys: Vec<Key> = Vec::new();
        for board in boards(n) {
            keys.push((board, Side::South));
            keys.push((board, Side::North));
        }
        let id: HashMap<Key, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        let store = (72 - n) as u8;
        let nodes: Vec<Node> = keys
            .iter()
            .map(|&(board, side)| {
                let pos = Bean::<H>::new(board, [store, 0], side).expect("72 beans");
                if let Some(outcome) = pos.status() {
                    let s = outcome.scores.expect("scores");
                    return Node::End((s[0] as i32 - i32::from(store)) - s[1] as i32);
                }
                let (mut exits, mut quiet) = (Vec::new(), Vec::new());
                for mv in pos.legal_move_list() {
                    let child = pos.after(mv);
                    let gained = [
                        i32::from(child.stores()[0]) - i32::from(store),
                        i32::from(child.stores()[1]),
                    ];
                    let key = (*child.pits(), child.side_to_move());
                    if gained == [0, 0] {
                        quiet.push(id[&key]);
                    } else {
                        exits.push(gained[0] - gained[1] + solved[&key].value);
                    }
                }
                Node::Play { side, exits, quiet }
            })
            .collect();
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        for (p, node) in nodes.iter().enumerate() {
            if let Node::Play { quiet, .. } = node {
                for &c in quiet {
                    parents[c].push(p);
                }
            }
        }
        let n = n as i32;
        // low[p]: the largest t South can force (≥ t); high[p]: the smallest t
        // North can force (≤ t).
        let mut low = vec![-n - 1; nodes.len()];
        let mut high = vec![n + 1; nodes.len()];
        for t in -n..=n {
            for p in attractor(&nodes, &parents, Side::South, |g| g >= t) {
                low[p] = low[p].max(t);
            }
            for p in attractor(&nodes, &parents, Side::North, |g| g <= t) {
                high[p] = high[p].min(t);
            }
        }
        for (p, &(board, side)) in keys.iter().enumerate() {
            let (lower, upper) = (low[p].max(-n), high[p].min(n));
            let found = if lower == upper {
                Found {
                    value: lower,
                    bounds: None,
                }
            } else {
                let pos = Bean::<H>::new(board, [store, 0], side).expect("72 beans");
                let RepetitionEffect::GameOver(o) = pos.on_repetition() else {
                    panic!("Bohnenspiel's cycles end the game");
                };
                let s = o.scores.expect("scores");
                let ruled = (s[0] as i32 - i32::from(store)) - s[1] as i32;
                Found {
                    value: ruled.clamp(lower, upper),
                    bounds: Some((lower, upper)),
                }
            };
            solved.insert((board, side), found);
        }
    }
    solved
}

/// The positions from which `player` forces a finite end whose South gain
/// satisfies `good`.
fn attractor(
    nodes: &[Node],
    parents: &[Vec<usize>],
    player: Side,
    good: impl Fn(i32) -> bool,
) -> Vec<usize> {
    let mut won = vec![false; nodes.len()];
    // For the other player's nodes: quiet moves not yet known to be lost.
    let mut open = vec![0usize; nodes.len()];
    let mut queue = VecDeque::new();
    for (p, node) in nodes.iter().enumerate() {
        let now = match node {
            Node::End(g) => good(*g),
            Node::Play { side, exits, quiet } if *side == player => exits.iter().any(|&g| good(g)),
            Node::Play { exits, quiet, .. } => {
                open[p] = quiet.len();
                exits.iter().all(|&g| good(g)) && quiet.is_empty()
            }
        };
        if now {
            won[p] = true;
            queue.push_back(p);
        }
    }
    while let Some(c) = queue.pop_front() {
        for &p in &parents[c] {
            if won[p] {
                continue;
            }
            let Node::Play { side, exits, .. } = &nodes[p] else {
                continue;
            };
            let now = if *side == player {
                true
            } else {
                open[p] -= 1;
                open[p] == 0 && exits.iter().all(|&g| good(g))
            };
            if now {
                won[p] = true;
                queue.push_back(p);
            }
        }
    }
    (0..nodes.len()).filter(|&p| won[p]).collect()
}

fn compare<const H: bool>() {
    let exact = exhaustive::<H>(MAX_BEANS);
    let layers = solve_all::<H>(MAX_BEANS);
    let mut compared = 0;
    let mut flagged = vec![0usize; MAX_BEANS + 1];
    for (&(board, side), &found) in &exact {
        // Stores do not matter: any split making 72.
        let on_board: u8 = board.iter().sum();
        let pos = Bean::<H>::new(board, [0, 72 - on_board], side).expect("72 beans");
        let flip = |v: i32| if side == Side::South { v } else { -v };
        let mover_gain = flip(found.value);
        let mover_bounds = found.bounds.map(|(lo, hi)| {
            let (a, b) = (flip(lo), flip(hi));
            (a.min(b), a.max(b))
        });
        let layer = &layers[usize::from(on_board)];
        let index = rank(&relative_board(&pos));
        let entry = layer.values[index as usize];
        assert_eq!(
            i32::from(entry),
            mover_gain,
            "{pos}: database {entry}, search {mover_gain}"
        );
        let flag = layer
            .flagged
            .iter()
            .find(|f| f.index == index)
            .map(|f| (i32::from(f.lower), i32::from(f.upper)));
        assert_eq!(flag, mover_bounds, "{pos}: flagged bounds");
        if side == Side::South && flag.is_some() {
            flagged[usize::from(on_board)] += 1;
        }
        compared += 1;
    }
    assert_eq!(compared, 2 * 125_970);
    for layer in &layers {
        assert_eq!(
            layer.flagged.len(),
            flagged[layer.beans],
            "layer {}",
            layer.beans
        );
    }
    eprintln!(
        "{}: flagged boards per layer 0..={MAX_BEANS}: {flagged:?}",
        Bean::<H>::ID
    );
}

#[test]
fn bohnenspiel_matches_the_exhaustive_search_up_to_8_beans() {
    compare::<false>();
}

#[test]
fn hemprich_matches_the_exhaustive_search_up_to_8_beans() {
    compare::<true>();
}
