//! Kujifunza — stub, to be implemented.

use std::fmt;
use std::str::FromStr;

use crate::{Game, GameId, MoveSyntaxError, Outcome, PositionError, RepetitionEffect, Side};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Kujifunza {}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KujifunzaMove(pub u8);

impl fmt::Display for KujifunzaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for KujifunzaMove {
    type Err = MoveSyntaxError;
    fn from_str(s: &str) -> Result<Self, MoveSyntaxError> {
        s.parse()
            .map(KujifunzaMove)
            .map_err(|_| MoveSyntaxError::new(s, "not a hole number"))
    }
}

impl fmt::Display for Kujifunza {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!()
    }
}

impl FromStr for Kujifunza {
    type Err = PositionError;
    fn from_str(_s: &str) -> Result<Self, PositionError> {
        todo!()
    }
}

impl Game for Kujifunza {
    type Move = KujifunzaMove;
    const ID: GameId = GameId::Kujifunza;
    const REPETITION_LIMIT: usize = 3;
    fn start() -> Self {
        todo!()
    }
    fn side_to_move(&self) -> Side {
        todo!()
    }
    fn legal_moves(&self, _moves: &mut Vec<Self::Move>) {
        todo!()
    }
    fn play(&mut self, _mv: Self::Move) {
        todo!()
    }
    fn status(&self) -> Option<Outcome> {
        todo!()
    }
    fn on_repetition(&self) -> RepetitionEffect<Self> {
        todo!()
    }
    fn history_key(&self) -> u64 {
        todo!()
    }
    fn zobrist(&self) -> u64 {
        todo!()
    }
    fn seed_count(&self) -> u32 {
        todo!()
    }
    fn render(&self) -> String {
        todo!()
    }
}
