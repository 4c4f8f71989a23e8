//! The UMI grammar for the Python engine loop: command lines are parsed by
//! the `umi` crate (the one parser the engine and arbiter use), and the
//! handshake lines a bot declares are checked by it too.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use umi::{Command, Message, PositionBase};

use crate::errors::ProtocolError;

/// Parses one line sent to an engine. Returns `None` for the lines an engine
/// ignores (empty, unknown command), else a dict whose `"command"` key names
/// the command (`umi`, `isready`, `setoption`, `newgame`, `position`, `go`,
/// `perft`, `stop`, `ponderhit`, `gameover`, `quit`, `d`) and whose other keys
/// are its fields. Raises `ProtocolError` for a malformed known command.
#[pyfunction]
pub fn parse_command<'py>(py: Python<'py>, line: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
    let cmd = match Command::parse(line) {
        Ok(cmd) => cmd,
        Err(e) if e.is_ignorable() => return Ok(None),
        Err(e) => return Err(ProtocolError::new_err(e.to_string())),
    };
    let d = PyDict::new(py);
    let name = match &cmd {
        Command::Umi => "umi",
        Command::IsReady => "isready",
        Command::Stop => "stop",
        Command::PonderHit => "ponderhit",
        Command::Quit => "quit",
        Command::Board => "d",
        Command::SetOption(s) => {
            d.set_item("name", s.name.as_str())?;
            d.set_item(
                "value",
                s.value.as_ref().map(|v| v.option_str().to_string()),
            )?;
            "setoption"
        }
        Command::NewGame(id) => {
            d.set_item("game", id.as_str())?;
            "newgame"
        }
        Command::Position { base, moves } => {
            let base = match base {
                PositionBase::StartPos => None,
                PositionBase::Pos(text) => Some(text.as_str().to_string()),
            };
            d.set_item("pos", base)?;
            let moves: Vec<&str> = moves.iter().map(|m| m.as_str()).collect();
            d.set_item("moves", moves)?;
            "position"
        }
        Command::Go(go) => {
            d.set_item("ponder", go.ponder)?;
            d.set_item("infinite", go.infinite)?;
            d.set_item("p1time", go.p1time)?;
            d.set_item("p2time", go.p2time)?;
            d.set_item("p1inc", go.p1inc)?;
            d.set_item("p2inc", go.p2inc)?;
            d.set_item("movestogo", go.movestogo)?;
            d.set_item("movetime", go.movetime)?;
            d.set_item("depth", go.depth)?;
            d.set_item("nodes", go.nodes)?;
            "go"
        }
        Command::Perft { depth } => {
            d.set_item("depth", depth)?;
            "perft"
        }
        Command::GameOver { result, reason } => {
            d.set_item("result", result.as_pgn())?;
            d.set_item("reason", reason.as_ref().map(|r| r.as_str().to_string()))?;
            "gameover"
        }
    };
    d.set_item("command", name)?;
    Ok(Some(d))
}

/// Checks a line an engine sends (e.g. an `option` declaration) and returns
/// its canonical spelling; raises `ProtocolError` naming what is wrong.
#[pyfunction]
pub fn canonical_message(line: &str) -> PyResult<String> {
    line.parse::<Message>()
        .map(|m| m.to_string())
        .map_err(|e| ProtocolError::new_err(format!("{line:?}: {e}")))
}
