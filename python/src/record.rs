//! `GameRecord`: a game from its start position, with the history rules
//! (repetitions, Bosh round starts) that a position alone cannot apply.

use mancala_rules::games::bohnenspiel::{Bohnenspiel, Hemprich};
use mancala_rules::games::bosh::Bosh;
use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::games::kimasai::Kimasai;
use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::games::oware::Oware;
use mancala_rules::GameRecord as Record;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyType};

use crate::any::{AnyPosition, Variant};
use crate::errors::move_error;
use crate::names::move_list;
use crate::outcome::{Outcome, Side};
use crate::position::Position;
use crate::trace::steps_to_py;

/// What `__reduce__` returns: `GameRecord.replay` and its arguments.
type Reduced = (Py<PyAny>, (Position, Vec<String>));

#[derive(Clone, Debug)]
enum AnyRecord {
    Bohnenspiel(Record<Bohnenspiel>),
    Hemprich(Record<Hemprich>),
    Bosh(Record<Bosh>),
    Kimasai(Record<Kimasai>),
    Kujifunza(Record<Kujifunza>),
    Kalah(Record<Kalah>),
    Kalah6(Record<Kalah6>),
    Oware(Record<Oware>),
}

macro_rules! on_record {
    ($any:expr, $r:ident => $body:expr) => {
        match $any {
            AnyRecord::Bohnenspiel($r) => $body,
            AnyRecord::Hemprich($r) => $body,
            AnyRecord::Bosh($r) => $body,
            AnyRecord::Kimasai($r) => $body,
            AnyRecord::Kujifunza($r) => $body,
            AnyRecord::Kalah($r) => $body,
            AnyRecord::Kalah6($r) => $body,
            AnyRecord::Oware($r) => $body,
        }
    };
}

impl AnyRecord {
    fn new(start: &AnyPosition) -> AnyRecord {
        match start {
            AnyPosition::Bohnenspiel(p) => AnyRecord::Bohnenspiel(Record::new(*p)),
            AnyPosition::Hemprich(p) => AnyRecord::Hemprich(Record::new(*p)),
            AnyPosition::Bosh(p) => AnyRecord::Bosh(Record::new(p.clone())),
            AnyPosition::Kimasai(p) => AnyRecord::Kimasai(Record::new(*p)),
            AnyPosition::Kujifunza(p) => AnyRecord::Kujifunza(Record::new(p.clone())),
            AnyPosition::Kalah(p) => AnyRecord::Kalah(Record::new(*p)),
            AnyPosition::Kalah6(p) => AnyRecord::Kalah6(Record::new(*p)),
            AnyPosition::Oware(p) => AnyRecord::Oware(Record::new(*p)),
        }
    }
}

fn played_list<'py, G: Variant>(py: Python<'py>, r: &Record<G>) -> PyResult<Bound<'py, PyList>> {
    move_list::<G>(py, r.moves())
}

fn legal_list_of<'py, G: Variant>(py: Python<'py>, r: &Record<G>) -> PyResult<Bound<'py, PyList>> {
    move_list::<G>(py, &r.legal_moves())
}

fn position_of<G: Variant>(p: &G) -> Position {
    Position(p.clone().wrap())
}

/// A game from `start` (a `Position`): the moves played, the current
/// position and, once it is over, the result, with every history rule applied
/// (Bohnenspiel and Kujifunza third occurrence, Kimasai and Oware first
/// repetition, Bosh round starts).
#[pyclass(module = "mancala")]
#[derive(Clone, Debug)]
pub struct GameRecord(AnyRecord);

#[pymethods]
impl GameRecord {
    #[new]
    fn new(start: &Position) -> GameRecord {
        GameRecord(AnyRecord::new(&start.0))
    }

    /// The game from `start` after `moves` (raises like `play` on the first
    /// move that cannot be played, naming it).
    #[classmethod]
    fn replay(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        start: &Position,
        moves: Vec<String>,
    ) -> PyResult<GameRecord> {
        let mut record = GameRecord::new(start);
        for (i, mv) in moves.iter().enumerate() {
            if let Err(e) = record.play(py, mv) {
                let message = format!("move {} ({mv}): {}", i + 1, e.value(py));
                return Err(rewrap(py, e, message));
            }
        }
        Ok(record)
    }

    /// Pickling: rebuilt by replaying the moves from the start.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<Reduced> {
        let replay = slf.get_type().getattr("replay")?.unbind();
        let record = slf.borrow();
        let moves = on_record!(&record.0, r => r.moves().iter().map(ToString::to_string).collect());
        Ok((replay, (record.start(), moves)))
    }

    /// The game id, e.g. `"bosh"`.
    #[getter]
    fn game(&self) -> &'static str {
        on_record!(&self.0, r => r.start().wrap_id())
    }

    /// The position the game started from.
    #[getter]
    fn start(&self) -> Position {
        on_record!(&self.0, r => position_of(r.start()))
    }

    /// The current position.
    #[getter]
    fn position(&self) -> Position {
        on_record!(&self.0, r => position_of(r.position()))
    }

    /// The moves played so far, in canonical notation.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        on_record!(&self.0, r => played_list(py, r))
    }

    #[getter]
    fn side_to_move(&self) -> Side {
        on_record!(&self.0, r => mancala_rules::Game::side_to_move(r.position()).into())
    }

    /// The legal moves now; empty once the game is over (also by repetition).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        on_record!(&self.0, r => legal_list_of(py, r))
    }

    /// Plays a move given in notation and returns its canonical spelling.
    /// Raises `MoveError`, `IllegalMoveError` or `GameOverError`; the record
    /// is unchanged then.
    fn play(&mut self, py: Python<'_>, r#move: &str) -> PyResult<String> {
        on_record!(&mut self.0, r => r.play_str(r#move).map(|m| m.to_string()))
            .map_err(|e| move_error(py, e))
    }

    /// `play`, returning the move's sowing trace (see `Position.trace`)
    /// including what the history rules add: a Bosh round ended by a cycle,
    /// its sweep and the refill of the next.
    fn play_traced<'py>(&mut self, py: Python<'py>, r#move: &str) -> PyResult<Bound<'py, PyList>> {
        let mut steps = Vec::new();
        on_record!(&mut self.0, r => r.play_str_traced(r#move, &mut steps).map(|_| ()))
            .map_err(|e| move_error(py, e))?;
        steps_to_py(py, &steps)
    }

    /// `None` while the game goes on, else its `Outcome` (history rules included).
    fn result(&self) -> Option<Outcome> {
        on_record!(&self.0, r => r.outcome()).map(Outcome)
    }

    fn is_over(&self) -> bool {
        on_record!(&self.0, r => r.is_over())
    }

    /// An independent copy (playing on it leaves this record alone).
    fn copy(&self) -> GameRecord {
        self.clone()
    }

    fn __copy__(&self) -> GameRecord {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> GameRecord {
        self.clone()
    }

    /// The number of moves played.
    fn __len__(&self) -> usize {
        on_record!(&self.0, r => r.moves().len())
    }

    fn __repr__(&self) -> String {
        let start = self.start().__str__();
        let moves: Vec<String> =
            on_record!(&self.0, r => r.moves().iter().map(ToString::to_string).collect());
        format!("<GameRecord {start:?} moves {:?}>", moves.join(" "))
    }
}

/// `e` with `message`, keeping its exception class and attributes.
fn rewrap(py: Python<'_>, e: PyErr, message: String) -> PyErr {
    let Ok(value) = e.get_type(py).call1((message,)) else {
        return e;
    };
    for attr in ["move", "legal"] {
        if let Ok(v) = e.value(py).getattr(attr) {
            // Best effort: the message already names the move.
            let _ = value.setattr(attr, v);
        }
    }
    PyErr::from_value(value)
}

/// The game id of a typed position.
trait WrapId {
    fn wrap_id(&self) -> &'static str;
}

impl<G: Variant> WrapId for G {
    fn wrap_id(&self) -> &'static str {
        G::ID.as_str()
    }
}
