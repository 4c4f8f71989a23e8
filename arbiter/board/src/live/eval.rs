//! A finished game's scores per ply, for its evaluation graph on the live
//! page: each ply's mover (from the rules library's replay of the moves,
//! so that an extra turn is the same side again) and the score the mover's
//! engine logged (from its own side, as the log writes it).

use mancala_rules::{game_from_position, Side};
use serde::Serialize;

use arbiter_core::records::log::GameLog;

/// Plies of one game given scores (a game is cut there; mancala games are
/// far shorter, and the snapshot must stay small).
pub const PLIES_KEPT: usize = 1000;

/// One ply of a finished game, for its graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyScore {
    /// `south` or `north`: who moved.
    pub side: &'static str,
    /// `+35` (centiseeds), `-M3`, from the mover's side; none for a ply
    /// without a score (a human's, an engine that sent none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
}

/// The plies of `log` (at most [`PLIES_KEPT`]) with their movers and
/// scores; empty when no ply has a score, and up to the first move the
/// rules refuse (a logged game has none).
pub fn ply_scores(log: &GameLog) -> Vec<PlyScore> {
    if log.moves.iter().all(|m| m.score.is_none()) {
        return Vec::new();
    }
    let Ok(mut game) = game_from_position(&log.start_position) else {
        return Vec::new();
    };
    let mut plies = Vec::new();
    for m in log.moves.iter().take(PLIES_KEPT) {
        let side = match game.side_to_move() {
            Side::South => "south",
            Side::North => "north",
        };
        if game.play(&m.mv).is_err() {
            break;
        }
        plies.push(PlyScore {
            side,
            score: m.score.map(|s| s.to_string()),
        });
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::records::log::{MoveRecord, Score};

    #[test]
    fn an_extra_turn_is_the_same_mover_again_and_unscored_plies_have_no_score() {
        let mut log = arbiter_core::testing::rules_log();
        log.game = "kalah".into();
        log.start_position = mancala_rules::start_position(mancala_rules::GameId::Kalah);
        // 3 ends in South's store (South moves again), then 6, then North.
        log.moves = vec![
            MoveRecord::new("3", 1),
            MoveRecord::new("6", 1),
            MoveRecord::new("7", 1),
        ];
        log.moves[0].score = Some(Score::Cp(20));
        log.moves[2].score = Some(Score::Mate(-2));
        let plies: Vec<_> = ply_scores(&log)
            .into_iter()
            .map(|p| (p.side, p.score))
            .collect();
        assert_eq!(
            plies,
            [
                ("south", Some("+20".to_owned())),
                ("south", None),
                ("north", Some("-M2".to_owned())),
            ]
        );
        // No score at all: nothing to graph.
        log.moves.iter_mut().for_each(|m| m.score = None);
        assert!(ply_scores(&log).is_empty());
    }
}
