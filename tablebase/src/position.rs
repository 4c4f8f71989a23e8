//! The bridge between the database's boards and the rules library: every
//! move, capture and ending the database knows comes from
//! `mancala_rules::games::bohnenspiel` (no rule written twice here).
//!
//! The database stores one entry per board *seen from the player to move*
//! (his pits first). That halves it, and is exact because the rules are
//! symmetric: turning the board by six pits swaps the players and maps every
//! move onto the same move of the other row (checked by a test against the
//! rules library, `rotation_is_a_symmetry_of_the_rules`).

use mancala_rules::games::bohnenspiel::{Bean, BeanMove, PITS, TOTAL_BEANS};
use mancala_rules::{Game, RepetitionEffect, Side};

use crate::index::Board;

/// The board as the player to move sees it.
pub fn relative_board<const H: bool>(pos: &Bean<H>) -> Board {
    let pits = *pos.pits();
    match pos.side_to_move() {
        Side::South => pits,
        Side::North => rotate(&pits),
    }
}

/// The board turned by six pits (the other player's view).
pub fn rotate(board: &Board) -> Board {
    let mut out = [0; PITS];
    for (i, pit) in out.iter_mut().enumerate() {
        *pit = board[(i + PITS / 2) % PITS];
    }
    out
}

/// A position of the rules library with `board` and South to move. The
/// stores only make the 72 beans (the value never depends on them): South
/// holds what is not on the board.
pub fn south_to_move<const H: bool>(board: &Board) -> Bean<H> {
    let on_board: u32 = board.iter().map(|&b| u32::from(b)).sum();
    let south = (TOTAL_BEANS - on_board) as u8;
    Bean::new(*board, [south, 0], Side::South)
        .expect("a board of at most 72 beans with the rest in a store makes 72")
}

/// Where a position of the database leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The game is over here: the mover's net gain from the end's allocation.
    End(i32),
    /// The moves, each with what it captures and the child board (seen from
    /// the player to move next).
    Moves,
}

/// One legal move of a database position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub mv: BeanMove,
    /// Beans the move captures (the child is in layer `n - captured`).
    pub captured: u8,
    pub child: Board,
}

/// The end of the game at `pos` (South to move), as the mover's net gain:
/// `None` while the game goes on.
pub fn end_value<const H: bool>(pos: &Bean<H>) -> Option<i32> {
    let outcome = pos.status()?;
    let scores = outcome
        .scores
        .expect("Bohnenspiel's endings always have final scores");
    Some(net_gain(pos, scores))
}

/// The cycle ruling's allocation at `pos` (South to move): each player takes
/// the beans on his own side, as the mover's net gain.
pub fn repetition_value<const H: bool>(pos: &Bean<H>) -> i32 {
    match pos.on_repetition() {
        RepetitionEffect::GameOver(outcome) => net_gain(
            pos,
            outcome
                .scores
                .expect("Bohnenspiel's cycle ending has final scores"),
        ),
        // Not a Bohnenspiel ruling; nothing is allocated.
        RepetitionEffect::Continue(_) => 0,
    }
}

fn net_gain<const H: bool>(pos: &Bean<H>, scores: [u32; 2]) -> i32 {
    let stores = pos.stores();
    let gain = |side: Side| scores[side.index()] as i32 - i32::from(stores[side.index()]);
    gain(Side::South) - gain(Side::North)
}

/// The legal moves of the board (South to move), with captures and children.
pub fn edges<const H: bool>(pos: &Bean<H>, out: &mut Vec<Edge>, moves: &mut Vec<BeanMove>) {
    out.clear();
    moves.clear();
    pos.legal_moves(moves);
    let before = pos.stores()[Side::South.index()];
    for &mv in moves.iter() {
        let child = pos.after(mv);
        out.push(Edge {
            mv,
            captured: child.stores()[Side::South.index()] - before,
            child: relative_board(&child),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{unrank, Boards};
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    fn check_symmetry<const H: bool>(board: Board) {
        let south: Bean<H> = south_to_move(&board);
        let stores = south.stores();
        let north =
            Bean::<H>::new(rotate(&board), [stores[1], stores[0]], Side::North).expect("72 beans");
        assert_eq!(relative_board(&north), board);
        assert_eq!(south.status().is_some(), north.status().is_some());
        let (s_moves, n_moves) = (south.legal_move_list(), north.legal_move_list());
        assert_eq!(s_moves.len(), n_moves.len());
        for (ms, mn) in s_moves.iter().zip(&n_moves) {
            // The same pit of the mover's row.
            assert_eq!(
                ms.hole().map(|h| (h + 5) % 12 + 1),
                mn.hole(),
                "{south} vs {north}"
            );
            let (a, b) = (south.after(*ms), north.after(*mn));
            assert_eq!(relative_board(&a), relative_board(&b));
            assert_eq!(a.stores(), [b.stores()[1], b.stores()[0]]);
        }
    }

    #[test]
    fn rotation_is_a_symmetry_of_the_rules() {
        let mut rng = SmallRng::seed_from_u64(24);
        for n in 0..=40usize {
            for _ in 0..200 {
                let r = rng.random_range(0..crate::index::layer_size(n));
                let board = unrank(n, r).expect("in range");
                check_symmetry::<false>(board);
                check_symmetry::<true>(board);
            }
        }
        for board in Boards::new(3, 0, u64::MAX) {
            check_symmetry::<true>(board);
        }
    }

    #[test]
    fn the_end_values_are_the_rules_allocations() {
        // South has no bean: North, who moved last, takes the 5 beans.
        let board = [0, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0];
        assert_eq!(end_value(&south_to_move::<false>(&board)), Some(-5));
        // Hemprich: South passes instead.
        assert_eq!(end_value(&south_to_move::<true>(&board)), None);
        assert_eq!(end_value(&south_to_move::<true>(&[0; 12])), Some(0));
        assert_eq!(
            repetition_value(&south_to_move::<false>(&[
                1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0
            ])),
            -1
        );
    }
}
