//! Perft: leaf counts of the legal-move tree, ignoring repetition rules.

use crate::Game;

/// Leaf positions of the legal-move tree at exactly `depth` plies. A finished
/// position has no children.
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_inner(position, depth, &mut buffers)
}

fn perft_inner<G: Game>(position: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    position.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        total += perft_inner(&position.after(mv), depth - 1, rest);
    }
    total
}

/// Perft split by root move, in the order the moves are generated.
pub fn divide<G: Game>(position: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_move_list()
        .into_iter()
        .map(|mv| (mv, perft(&position.after(mv), depth - 1)))
        .collect()
}
