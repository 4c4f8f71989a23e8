//! The search's view of an endgame database: the score of a database
//! position and the move to play at the root from it. (`engine tb`, in
//! `tb.rs`, only builds, joins, probes and verifies the databases.)

use mancala_rules::GameRecord;
use mancala_tablebase::Tablebase;

use crate::eval::Evaluate;

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
