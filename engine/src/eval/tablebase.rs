//! The search's view of an endgame database: the score of a database
//! position and the move to play at the root from it. (`engine tb`, in
//! `tb.rs`, only builds, joins, probes and verifies the databases.)

use mancala_rules::{GameRecord, Side};
use mancala_tablebase::Tablebase;

use crate::eval::Evaluate;

/// Database wins and losses score `±TB_WIN` plus 100 per bean of the final
/// margin: above every evaluation, below every mate score (a win the search
/// sees to the end is still preferred), and a bigger margin scores higher.
pub const TB_WIN: i32 = 500_000;

/// The search score of a database position with final totals `scores`, for
/// `mover`.
pub fn score(mover: Side, scores: [u32; 2]) -> i32 {
    let margin = scores[mover.index()] as i32 - scores[mover.opponent().index()] as i32;
    margin.signum() * TB_WIN + 100 * margin
}

/// The move to play at the root from the database, with its score: one that
/// keeps the value; among those, the biggest capture (it leaves the layer for
/// good), then one whose position has occurred least often in the game (so
/// value-keeping moves do not go round in circles into the cycle rule).
pub fn root_move<G: Evaluate>(record: &GameRecord<G>, tb: &Tablebase) -> Option<(G::Move, i32)> {
    let root = record.position();
    let (score, moves) = root.tablebase(tb)?;
    let seen = |child: &G| {
        let key = child.zobrist();
        record
            .repetition_history()
            .filter(|p| p.zobrist() == key)
            .count()
    };
    let best = moves.into_iter().max_by_key(|&mv| {
        let child = root.after(mv);
        // The history key of Bohnenspiel counts the beans in the stores.
        let captured = child.history_key().saturating_sub(root.history_key());
        (captured, std::cmp::Reverse(seen(&child)))
    })?;
    Some((best, score))
}
