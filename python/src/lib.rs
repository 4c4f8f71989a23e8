//! The native part of the `mancala` Python package: the project's rules
//! library (`mancala-rules`), protocol grammar (`umi`) and endgame databases
//! (`mancala-tablebase`) exposed with PyO3.
//! No rule is written here; every call goes to the rules library.
//!
//! Errors become Python exceptions (`errors`), never panics: every input
//! from Python is checked (move legality, position strings, depths) before
//! the rules library sees it.

mod any;
mod board;
mod errors;
mod names;
mod outcome;
mod perft;
mod position;
mod protocol;
mod record;
mod tablebase;
mod trace;

use mancala_rules::GameId;
use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<outcome::Side>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<position::Position>()?;
    m.add_class::<record::GameRecord>()?;
    m.add_function(wrap_pyfunction!(perft::perft, m)?)?;
    m.add_function(wrap_pyfunction!(perft::divide, m)?)?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::solve, m)?)?;
    m.add_function(wrap_pyfunction!(protocol::parse_command, m)?)?;
    m.add_function(wrap_pyfunction!(protocol::canonical_message, m)?)?;
    let games: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
    m.add("GAMES", games)?;
    Ok(())
}
