//! The exceptions the kit raises, and the conversions from the rules
//! library's typed errors. Every error is a `ValueError` subclass whose
//! message names what was wrong; nothing reaches Python as a panic.

use mancala_rules::{MoveError as RulesMoveError, PositionError as RulesPositionError};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    mancala,
    MancalaError,
    PyValueError,
    "Base class of every error the kit raises for bad input (a ValueError)."
);
create_exception!(
    mancala,
    PositionError,
    MancalaError,
    "A position string (or game id) the rules reject; the message names the field."
);
create_exception!(
    mancala,
    MoveError,
    MancalaError,
    "A move that cannot be played; this class itself: not a move of the game at all."
);
create_exception!(
    mancala,
    IllegalMoveError,
    MoveError,
    "A well-formed move that is not legal here; `.move` and `.legal` (the legal moves) say more."
);
create_exception!(
    mancala,
    GameOverError,
    MoveError,
    "A move played after the end of the game."
);
create_exception!(
    mancala,
    ProtocolError,
    MancalaError,
    "A UMI protocol line the grammar of protocol-spec.md rejects."
);

pub fn position_error(e: RulesPositionError) -> PyErr {
    PositionError::new_err(e.to_string())
}

pub fn move_error(py: Python<'_>, e: RulesMoveError) -> PyErr {
    match &e {
        RulesMoveError::Syntax(_) => MoveError::new_err(e.to_string()),
        RulesMoveError::GameOver => GameOverError::new_err(e.to_string()),
        RulesMoveError::Illegal { text, legal } => {
            let err = IllegalMoveError::new_err(e.to_string());
            let value = err.value(py);
            // Extra attributes for programs; the message already says it all,
            // so a failure to attach them is not worth a second error.
            let _ = value.setattr("move", text.as_str());
            let _ = value.setattr("legal", legal.clone());
            err
        }
    }
}

/// Registers the exception classes on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MancalaError", py.get_type::<MancalaError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("ProtocolError", py.get_type::<ProtocolError>())?;
    Ok(())
}
