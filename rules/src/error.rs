//! Typed errors for position strings and moves.

use std::fmt;

/// The field of a position string that an error is about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Field {
    /// The whole string (empty input, bad spacing).
    String,
    Game,
    Holes,
    Side,
    /// Stores (Bohnenspiel) or reserves (Bosh).
    Stores,
    Round,
    /// Anything after the last field.
    Trailing,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::String => "position string",
            Field::Game => "game id",
            Field::Holes => "holes",
            Field::Side => "side to move",
            Field::Stores => "stores/reserves",
            Field::Round => "round",
            Field::Trailing => "trailing field",
        }
    }
}

/// A position string that breaks a rule of its format or an invariant of its game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError {
    pub field: Field,
    pub message: String,
}

impl PositionError {
    pub fn new(field: Field, message: impl Into<String>) -> PositionError {
        PositionError {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: {}", self.field.name(), self.message)
    }
}

impl std::error::Error for PositionError {}

/// A move string that is not a move of the game at all (as opposed to a
/// well-formed move that is illegal in the position).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveSyntaxError {
    pub text: String,
    pub reason: String,
}

impl MoveSyntaxError {
    pub fn new(text: &str, reason: impl Into<String>) -> MoveSyntaxError {
        MoveSyntaxError {
            text: text.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for MoveSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unparseable move {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveSyntaxError {}

/// Why a move could not be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not a move of this game.
    Syntax(MoveSyntaxError),
    /// A well-formed move that is not legal here; `legal` lists the legal moves.
    Illegal { text: String, legal: Vec<String> },
    /// The game is already over.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::Illegal { text, legal } if legal.is_empty() => {
                write!(f, "illegal move {text}: there is no legal move")
            }
            MoveError::Illegal { text, legal } => {
                write!(
                    f,
                    "illegal move {text}: legal moves are {}",
                    legal.join(" ")
                )
            }
            MoveError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<MoveSyntaxError> for MoveError {
    fn from(e: MoveSyntaxError) -> MoveError {
        MoveError::Syntax(e)
    }
}
