//! Games chosen at run time by id: the arbiter and the protocol layer deal in
//! strings, and reach the typed rules through [`AnyGame`] and [`with_game!`].

use std::fmt::Debug;

use crate::error::{MoveError, PositionError};
use crate::position::game_id_of;
use crate::trace::{Step, Traced};
use crate::{perft, Game, GameId, GameRecord, GameResult, Outcome, Side};

/// Runs `$body` with the type alias `$g` bound to the position type of game
/// `$id` (a [`GameId`]).
///
/// ```
/// use mancala_rules::{with_game, Game, GameId};
/// let start = with_game!(GameId::Bosh, G => G::start().to_string());
/// assert_eq!(start, "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1");
/// ```
#[macro_export]
macro_rules! with_game {
    ($id:expr, $g:ident => $body:expr) => {
        match $id {
            $crate::GameId::Bohnenspiel => {
                type $g = $crate::games::bohnenspiel::Bohnenspiel;
                $body
            }
            $crate::GameId::BohnenspielHemprich => {
                type $g = $crate::games::bohnenspiel::Hemprich;
                $body
            }
            $crate::GameId::Bosh => {
                type $g = $crate::games::bosh::Bosh;
                $body
            }
            $crate::GameId::Kimasai => {
                type $g = $crate::games::kimasai::Kimasai;
                $body
            }
            $crate::GameId::Kujifunza => {
                type $g = $crate::games::kujifunza::Kujifunza;
                $body
            }
            $crate::GameId::Kalah => {
                type $g = $crate::games::kalah::Kalah;
                $body
            }
            $crate::GameId::Kalah6x6 => {
                type $g = $crate::games::kalah::Kalah6;
                $body
            }
            $crate::GameId::Oware => {
                type $g = $crate::games::oware::Oware;
                $body
            }
        }
    };
}

/// A game record of any game, driven with strings.
pub trait AnyGame: Send + Sync + Debug {
    fn game_id(&self) -> GameId;
    /// The position string the game started from.
    fn start_string(&self) -> String;
    /// The current position string.
    fn position_string(&self) -> String;
    fn side_to_move(&self) -> Side;
    /// Legal moves in notation; empty once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given in notation; returns its canonical spelling.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// [`AnyGame::play`], also returning the move's steps (see
    /// [`GameRecord::play_traced`]).
    fn play_traced(&mut self, text: &str) -> Result<(String, Vec<Step>), MoveError>;
    fn outcome(&self) -> Option<Outcome>;
    /// The result once it can no longer change ([`Game::decided`]), or the
    /// result of a finished game.
    fn decided(&self) -> Option<GameResult>;
    /// The moves played so far, in notation.
    fn moves(&self) -> Vec<String>;
    fn render(&self) -> String;
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

impl<G: Traced> AnyGame for GameRecord<G> {
    fn game_id(&self) -> GameId {
        G::ID
    }

    fn start_string(&self) -> String {
        self.start().to_string()
    }

    fn position_string(&self) -> String {
        self.position().to_string()
    }

    fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    fn legal_moves(&self) -> Vec<String> {
        GameRecord::legal_moves(self)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        self.play_str(text).map(|mv| mv.to_string())
    }

    fn play_traced(&mut self, text: &str) -> Result<(String, Vec<Step>), MoveError> {
        let mut trace = Vec::new();
        let mv = self.play_str_traced(text, &mut trace)?;
        Ok((mv.to_string(), trace))
    }

    fn outcome(&self) -> Option<Outcome> {
        GameRecord::outcome(self)
    }

    fn decided(&self) -> Option<GameResult> {
        match GameRecord::outcome(self) {
            Some(o) => Some(o.result),
            None => self.position().decided(),
        }
    }

    fn moves(&self) -> Vec<String> {
        GameRecord::moves(self)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn render(&self) -> String {
        self.position().render()
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A new game from the start position of `id`.
pub fn new_game(id: GameId) -> Box<dyn AnyGame> {
    with_game!(id, G => Box::new(GameRecord::new(G::start())))
}

/// A new game from a position string (its game id says which game).
pub fn game_from_position(position: &str) -> Result<Box<dyn AnyGame>, PositionError> {
    let id = game_id_of(position)?;
    with_game!(id, G => Ok(Box::new(GameRecord::new(position.parse::<G>()?))))
}

/// The start position string of `id`.
pub fn start_position(id: GameId) -> String {
    with_game!(id, G => G::start().to_string())
}

/// Checks a position string and returns it in canonical form.
pub fn normalize_position(position: &str) -> Result<String, PositionError> {
    let id = game_id_of(position)?;
    with_game!(id, G => Ok(position.parse::<G>()?.to_string()))
}

/// `divide` on a position string: per root move, the perft count below it.
pub fn divide_str(position: &str, depth: u32) -> Result<Vec<(String, u64)>, PositionError> {
    let id = game_id_of(position)?;
    with_game!(id, G => {
        let pos: G = position.parse()?;
        Ok(perft::divide(&pos, depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect())
    })
}

/// `perft` on a position string.
pub fn perft_str(position: &str, depth: u32) -> Result<u64, PositionError> {
    let id = game_id_of(position)?;
    with_game!(id, G => Ok(perft::perft(&position.parse::<G>()?, depth)))
}

/// The human board for a position string.
pub fn render_position(position: &str) -> Result<String, PositionError> {
    let id = game_id_of(position)?;
    with_game!(id, G => Ok(position.parse::<G>()?.render()))
}

impl GameId {
    /// Whether a player without a move passes in this game ([`Game::PASSES`]).
    pub fn passes(self) -> bool {
        with_game!(self, G => G::PASSES)
    }

    /// Whether this game has match play ([`Game::MATCH_PLAY`]).
    pub fn has_match_play(self) -> bool {
        with_game!(self, G => G::MATCH_PLAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hemprich_passes_and_only_bohnenspiel_has_match_play() {
        let passes: Vec<GameId> = GameId::ALL.into_iter().filter(|g| g.passes()).collect();
        assert_eq!(passes, [GameId::BohnenspielHemprich]);
        let partie: Vec<GameId> = GameId::ALL
            .into_iter()
            .filter(|g| g.has_match_play())
            .collect();
        assert_eq!(partie, [GameId::Bohnenspiel, GameId::BohnenspielHemprich]);
    }

    #[test]
    fn a_game_that_passes_has_pass_among_its_moves_somewhere() {
        // why: PASSES is a claim about legal moves; check it against them.
        // Hemprich's pass position: South has no bean, North has.
        let g = game_from_position("bohnenspiel-hemprich 0,0,0,0,0,0,6,6,6,6,6,6 S 18/18")
            .expect("valid position");
        assert_eq!(g.legal_moves(), ["pass"]);
        let g = game_from_position("bohnenspiel 0,0,0,0,0,0,6,6,6,6,6,6 S 18/18")
            .expect("valid position");
        assert!(g.legal_moves().is_empty());
    }
}
