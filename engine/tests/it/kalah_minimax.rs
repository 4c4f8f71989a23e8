//! Kalah's exact values the plain way, for the solver's and the exact
//! play's tests to check against: minimax over the rules library, memoised
//! by position (no pruning, no table, no database).

use std::collections::HashMap;

use mancala_rules::games::kalah::Kalah;
use mancala_rules::Game;

/// The final margin for the side to move under best play: plain minimax
/// over the rules library, memoised by position.
pub fn minimax(pos: &Kalah, memo: &mut HashMap<Kalah, i32>) -> i32 {
    if let Some(v) = memo.get(pos) {
        return *v;
    }
    let mover = pos.side_to_move();
    let v = match pos.status() {
        Some(o) => {
            let s = o.scores.expect("scores");
            s[mover.index()] as i32 - s[mover.opponent().index()] as i32
        }
        None => pos
            .legal_move_list()
            .into_iter()
            .map(|mv| child_margin(pos, mv, memo))
            .max()
            .expect("a move"),
    };
    memo.insert(*pos, v);
    v
}

/// The margin for `pos`'s mover after `mv`.
pub fn child_margin(
    pos: &Kalah,
    mv: mancala_rules::games::pit::PitMove,
    memo: &mut HashMap<Kalah, i32>,
) -> i32 {
    let child = pos.after(mv);
    let v = minimax(&child, memo);
    if child.side_to_move() == pos.side_to_move() {
        v
    } else {
        -v
    }
}
