//! `mancala.tablebase(dir)`: the Bohnenspiel endgame databases (crate
//! `mancala-tablebase`, built by `engine tb build`) from Python.

use std::path::PathBuf;

use mancala_tablebase::Tablebase as Database;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::any::AnyPosition;
use crate::position::Position;

/// An endgame database directory. Layers load on first use (checksum checked).
#[pyclass(module = "mancala", frozen)]
pub struct Tablebase(Database);

/// Opens a database directory (`OSError` when it cannot be read).
#[pyfunction]
pub fn tablebase(dir: PathBuf) -> PyResult<Tablebase> {
    Database::open(&dir)
        .map(Tablebase)
        .map_err(PyOSError::new_err)
}

#[pymethods]
impl Tablebase {
    /// What the database says about `position` (a `Position` or a position
    /// string): `None` when it is not in the database (more beans than its
    /// layers, or not Bohnenspiel), otherwise a dict with `value` (the
    /// mover's net future gain under best play), `moves` (every move that
    /// keeps it), `scores` (the final totals, South first), `result`
    /// (`"1-0"`, `"0-1"`, `"1/2-1/2"`), `exact` (`False` for a board whose
    /// value depends on endless play, valued by the cycle ruling) and
    /// `bounds` (its `(lower, upper)` bounds then, else `None`).
    fn probe<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let position = match position.extract::<PyRef<'_, Position>>() {
            Ok(p) => p.clone(),
            Err(_) => Position::parse_text(&position.extract::<String>()?)?,
        };
        let probed = match &position.0 {
            AnyPosition::Bohnenspiel(p) => self.0.probe(p),
            AnyPosition::Hemprich(p) => self.0.probe(p),
            _ => Ok(None),
        }
        .map_err(PyOSError::new_err)?;
        let Some(probe) = probed else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        out.set_item("value", probe.value)?;
        let moves: Vec<String> = probe.moves.iter().map(ToString::to_string).collect();
        out.set_item("moves", moves)?;
        out.set_item("scores", (probe.scores[0], probe.scores[1]))?;
        out.set_item("result", probe.result().as_pgn())?;
        out.set_item("exact", probe.cycle.is_none())?;
        out.set_item("bounds", probe.cycle)?;
        Ok(Some(out))
    }

    fn __repr__(&self) -> String {
        format!(
            "mancala.tablebase({:?})",
            self.0.dir().display().to_string()
        )
    }
}
