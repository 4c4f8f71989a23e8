//! Probing a Kalah position (either size) in a database directory: the
//! value of its board, the moves that keep it and the final scores.

use mancala_rules::games::kalah::{Kalah, KalahBoard};
use mancala_rules::games::pit::PitMove;
use mancala_rules::{Game, GameId, GameResult, Side};

use crate::index::rank;
use crate::kalah::board::{of_position, seeds, south_to_move, to_board};
use crate::kalah::check::move_value;
use crate::Tablebase;

/// What the database says about a Kalah position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KalahProbe {
    /// Seeds on the board (the layer).
    pub seeds: usize,
    /// The mover's net future gain under best play.
    pub value: i32,
    /// Every move that keeps the value (ascending hole numbers); empty when
    /// the game is over.
    pub moves: Vec<PitMove>,
    /// The final totals under best play (South first).
    pub scores: [u32; 2],
}

impl KalahProbe {
    pub fn result(&self) -> GameResult {
        GameResult::from_scores(self.scores)
    }
}

impl Tablebase {
    /// Probes a Kalah position: `Ok(None)` when a layer it needs is absent.
    pub fn probe_kalah<const S: u8>(
        &self,
        pos: &KalahBoard<S>,
    ) -> Result<Option<KalahProbe>, String> {
        let side = pos.side_to_move();
        let (w, _) = of_position(pos.holes(), pos.stores(), side);
        let n = seeds(w);
        let Some(top) = self.max_beans(GameId::Kalah).filter(|&m| m >= n) else {
            return Ok(None);
        };
        let layers = self.values(GameId::Kalah, top)?;
        let value = i32::from(layers[n][rank(&to_board(w)) as usize]);
        // The moves through the rules library, on the South-to-move view.
        let south: Kalah = south_to_move(w).ok_or("more than 48 seeds on the board")?;
        let mut moves = Vec::new();
        for mv in south.legal_move_list() {
            if move_value(&south, mv, &layers) == value {
                let hole = match side {
                    Side::South => mv.hole(),
                    Side::North => mv.hole() + 6,
                };
                moves.push(PitMove::new(hole).ok_or("a hole")?);
            }
        }
        let stores = pos.stores();
        let mine = ((n as i32 + value) / 2) as u32;
        let mut scores = [0u32; 2];
        scores[side.index()] = u32::from(stores[side.index()]) + mine;
        scores[side.opponent().index()] =
            u32::from(stores[side.opponent().index()]) + n as u32 - mine;
        Ok(Some(KalahProbe {
            seeds: n,
            value,
            moves,
            scores,
        }))
    }
}
