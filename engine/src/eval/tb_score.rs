//! The search score of a database position: a leaf that both the
//! evaluation (`eval`) and the root move from a database (`eval::tablebase`)
//! take it from, so neither needs the other for it.

use mancala_rules::Side;

/// Database wins and losses score `±TB_WIN` plus 100 per bean of the final
/// margin: above every evaluation, below every mate score (a win the search
/// sees to the end is still preferred), and a bigger margin scores higher.
pub const TB_WIN: i32 = 500_000;

/// The search score of a database position with final totals `scores`, for
/// `mover`.
pub fn score(mover: Side, scores: [u32; 2]) -> i32 {
    of_margin(scores[mover.index()] as i32 - scores[mover.opponent().index()] as i32)
}

/// The search score of an exact final margin: ±(`TB_WIN` + 100 × margin),
/// a draw 0 (the exact play's solved values score the same way).
pub fn of_margin(margin: i32) -> i32 {
    margin.signum() * TB_WIN + 100 * margin
}
