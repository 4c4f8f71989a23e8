//! `Position`: an immutable position of any game, with the legal moves,
//! playing a move, the game end judged from the position alone, the board
//! and the position string.

use mancala_rules::{Game, GameId, MoveError as RulesMoveError, Step};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyType};

use crate::any::{on_position, AnyPosition, Variant};
use crate::board::Board;
use crate::errors::{move_error, position_error};
use crate::names::legal_list;
use crate::outcome::{Outcome, Side};
use crate::trace::steps_to_py;

/// A position of one game. Immutable: `play` returns a new position.
///
/// `str(pos)` is the position string (`Position.parse` reads it back).
/// Repetition rules need the game's history: use `GameRecord` for them.
#[pyclass(module = "mancala", frozen)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position(pub AnyPosition);

/// Parses a game id, naming the known ones when it is not one.
pub fn parse_game_id(game: &str) -> PyResult<GameId> {
    game.parse::<GameId>().map_err(position_error)
}

fn trace_on<G: Variant>(p: &G, text: &str) -> Result<Vec<Step>, RulesMoveError> {
    let mv = p.parse_legal(text)?;
    Ok(p.trace(mv))
}

fn play_on<G: Variant>(p: &G, text: &str) -> Result<AnyPosition, RulesMoveError> {
    let mv: G::Move = text.parse()?;
    // The legality check in the reused buffer; the rules library's own
    // check (which names the legal moves) only on the error path.
    let legal = G::with_buffer(|moves| {
        p.legal_moves(moves);
        moves.contains(&mv)
    });
    let mv = if legal { mv } else { p.parse_legal(text)? };
    Ok(p.after(mv).wrap())
}

#[pymethods]
impl Position {
    /// `Position(text)` is `Position.parse(text)`.
    #[new]
    fn new(text: &str) -> PyResult<Position> {
        Position::parse_text(text)
    }

    /// The start position of a game: `bohnenspiel`, `bohnenspiel-hemprich`,
    /// `bosh`, `kimasai` or `kujifunza`.
    #[classmethod]
    fn start(_cls: &Bound<'_, PyType>, game: &str) -> PyResult<Position> {
        Ok(Position(AnyPosition::start(parse_game_id(game)?)))
    }

    /// Reads a position string (its first field names the game).
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &str) -> PyResult<Position> {
        Position::parse_text(text)
    }

    /// The game id, e.g. `"bosh"`.
    #[getter]
    fn game(&self) -> &'static str {
        self.0.game_id().as_str()
    }

    #[getter]
    fn side_to_move(&self) -> Side {
        on_position!(&self.0, p => p.side_to_move().into())
    }

    /// The legal moves in canonical notation, in the rules library's order;
    /// empty once the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        on_position!(&self.0, p => legal_list(py, p))
    }

    /// The position after `move` (a string in the game's notation).
    /// Raises `MoveError`, `IllegalMoveError` or `GameOverError`.
    fn play(&self, py: Python<'_>, r#move: &str) -> PyResult<Position> {
        on_position!(&self.0, p => play_on(p, r#move))
            .map(Position)
            .map_err(|e| move_error(py, e))
    }

    /// The sowing trace of `move` (legal here): the steps it performs, in
    /// order, as dicts — `{"step": "pick", "hole": 3, "count": 4}`,
    /// `{"step": "sow", "hole": 4}`, captures, Bosh round ends and refills,
    /// and last `{"step": "turn", "side": "north"}`. Raises like `play`.
    fn trace<'py>(&self, py: Python<'py>, r#move: &str) -> PyResult<Bound<'py, PyList>> {
        let steps =
            on_position!(&self.0, p => trace_on(p, r#move)).map_err(|e| move_error(py, e))?;
        steps_to_py(py, &steps)
    }

    /// `None` while the game goes on, else its `Outcome` — judged from this
    /// position alone (no repetition rule; `GameRecord.result()` applies those).
    fn result(&self) -> Option<Outcome> {
        on_position!(&self.0, p => p.status()).map(Outcome)
    }

    /// A human board, South at the bottom, hole numbers shown.
    fn render(&self) -> String {
        on_position!(&self.0, p => p.render())
    }

    /// Seeds (stones) per hole: index `n - 1` is hole `n`; `None` for a
    /// closed Bosh hole. South's holes are the first half.
    #[getter]
    fn holes(&self) -> Vec<Option<u8>> {
        on_position!(&self.0, p => Board::holes(p))
    }

    /// `(south, north)` stores (Bohnenspiel) or reserves (Bosh); else `None`.
    #[getter]
    fn stores(&self) -> Option<(u8, u8)> {
        on_position!(&self.0, p => Board::stores(p)).map(|[s, n]| (s, n))
    }

    /// The round number (Bosh); else `None`.
    #[getter]
    fn round(&self) -> Option<u32> {
        on_position!(&self.0, p => Board::round(p))
    }

    /// The Zobrist hash the engines use (board, side to move, stores, round).
    #[getter]
    fn zobrist(&self) -> u64 {
        on_position!(&self.0, p => p.zobrist())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Position>().is_ok_and(|o| o.get().0 == self.0)
    }

    /// The Zobrist hash: equal positions hash alike.
    fn __hash__(&self) -> u64 {
        self.zobrist()
    }

    pub fn __str__(&self) -> String {
        on_position!(&self.0, p => p.to_string())
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.__str__())
    }

    /// Pickling and `copy`: rebuilt from the position string.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (String,))> {
        let cls = slf.get_type().into_any().unbind();
        Ok((cls, (slf.get().__str__(),)))
    }
}

impl Position {
    pub fn parse_text(text: &str) -> PyResult<Position> {
        AnyPosition::parse(text)
            .map(Position)
            .map_err(position_error)
    }
}
