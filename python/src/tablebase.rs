//! `mancala.tablebase(dir)`: the Bohnenspiel and Kalah endgame databases
//! (crate `mancala-tablebase`, built by `engine tb build`) from Python.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use mancala_tablebase::Tablebase as Database;
use pyo3::exceptions::{PyOSError, PyValueError};
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
    /// `bounds` (its `(lower, upper)` bounds then, else `None`). Kalah
    /// (`kalah`, and `kalah-6x6` with few enough seeds left) has no cycles:
    /// `exact` is always `True` there.
    fn probe<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let position = match position.extract::<PyRef<'_, Position>>() {
            Ok(p) => p.clone(),
            Err(_) => Position::parse_text(&position.extract::<String>()?)?,
        };
        // (value, moves, scores, result, cycle bounds)
        let probed = match &position.0 {
            AnyPosition::Bohnenspiel(p) => self
                .0
                .probe(p)
                .map(|b| b.map(|b| (b.value, names(&b.moves), b.scores, b.result(), b.cycle))),
            AnyPosition::Hemprich(p) => self
                .0
                .probe(p)
                .map(|b| b.map(|b| (b.value, names(&b.moves), b.scores, b.result(), b.cycle))),
            AnyPosition::Kalah(p) => self
                .0
                .probe_kalah(p)
                .map(|k| k.map(|k| (k.value, names(&k.moves), k.scores, k.result(), None))),
            AnyPosition::Kalah6(p) => self
                .0
                .probe_kalah(p)
                .map(|k| k.map(|k| (k.value, names(&k.moves), k.scores, k.result(), None))),
            _ => Ok(None),
        }
        .map_err(PyOSError::new_err)?;
        let Some((value, moves, scores, result, cycle)) = probed else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        out.set_item("value", value)?;
        out.set_item("moves", moves)?;
        out.set_item("scores", (scores[0], scores[1]))?;
        out.set_item("result", result.as_pgn())?;
        out.set_item("exact", cycle.is_none())?;
        out.set_item("bounds", cycle)?;
        Ok(Some(out))
    }

    fn __repr__(&self) -> String {
        format!(
            "mancala.tablebase({:?})",
            self.0.dir().display().to_string()
        )
    }
}

/// `mancala.solve(position, tb=None, hash_mb=64, threads=1)`: the exact
/// value of a `kalah` or `kalah-6x6` position (a `Position` or a position
/// string) under perfect play, by the engine's solver (`engine solve`):
/// a dict with `value` (the final margin for the side to move, stores
/// included), `moves` (every legal move's value, the same margin after it:
/// `{"3": 8, …}`), `best` (the moves that keep the value) and `nodes`.
/// `tb` is a database directory whose Kalah layers are probed below the
/// search. Raises `ValueError` for a position of another game or a
/// malformed one, `OSError` for a database or table that cannot be had.
/// The GIL is released while it searches; Ctrl-C (any exception a signal
/// handler raises) stops the search and is raised.
#[pyfunction]
#[pyo3(signature = (position, tb=None, hash_mb=64, threads=1))]
pub fn solve<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    tb: Option<PathBuf>,
    hash_mb: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    use mancala_tablebase::kalah::solver::{self, Request, SolveError};
    let text = match position.extract::<PyRef<'_, Position>>() {
        Ok(p) => p.__str__(),
        Err(_) => position.extract::<String>()?,
    };
    let request = Request {
        position: text,
        game: None,
        hash_mb,
        threads: threads.max(1),
        tb,
        etc: true,
    };
    let interrupt = AtomicBool::new(false);
    // why a thread and a poll: the search runs without the GIL, and Python
    // handles Ctrl-C (a signal) only on its own thread with the GIL, so this
    // thread checks for signals every 50 ms and interrupts the search.
    let (solved, signal) = py.detach(|| {
        std::thread::scope(|scope| {
            let search = scope.spawn(|| solver::solve_until(&request, &interrupt, &mut |_, _| {}));
            let mut signal = None;
            while !search.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        interrupt.store(true, Ordering::Relaxed);
                        signal = Some(e);
                    }
                }
            }
            let solved = search.join().unwrap_or(Err(SolveError::Interrupted));
            (solved, signal)
        })
    });
    if let Some(e) = signal {
        return Err(e);
    }
    let s = solved.map_err(|e| match e {
        SolveError::Position(_) => PyValueError::new_err(e.to_string()),
        _ => PyOSError::new_err(e.to_string()),
    })?;
    let out = PyDict::new(py);
    out.set_item("value", s.value)?;
    let moves = PyDict::new(py);
    let mut best = Vec::new();
    for (mv, v) in &s.moves {
        moves.set_item(mv.to_string(), v)?;
        if *v == s.value {
            best.push(mv.to_string());
        }
    }
    out.set_item("moves", moves)?;
    out.set_item("best", best)?;
    out.set_item("nodes", s.nodes)?;
    Ok(out)
}

/// Moves in notation.
fn names<M: ToString>(moves: &[M]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}
