//! `perft` and `divide` from Python: leaf counts of the legal-move tree.

use mancala_rules::perft as rules_perft;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::any::on_position;
use crate::position::Position;

fn checked_depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth)
        .map_err(|_| PyValueError::new_err(format!("depth must be 0 or more, got {depth}")))
}

/// Leaf positions of the legal-move tree `depth` plies below `position`
/// (finished positions have no children; repetition rules are ignored).
/// Runs without the GIL, so other Python threads go on meanwhile.
#[pyfunction]
pub fn perft(py: Python<'_>, position: &Position, depth: i64) -> PyResult<u64> {
    let depth = checked_depth(depth)?;
    let root = position.0.clone();
    Ok(py.detach(move || on_position!(&root, p => rules_perft::perft(p, depth))))
}

/// Perft split by root move: `[(move, count), ...]` in the order the rules
/// library lists the moves.
#[pyfunction]
pub fn divide(py: Python<'_>, position: &Position, depth: i64) -> PyResult<Vec<(String, u64)>> {
    let depth = checked_depth(depth)?;
    let root = position.0.clone();
    Ok(py.detach(move || {
        on_position!(&root, p => rules_perft::divide(p, depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect())
    }))
}
