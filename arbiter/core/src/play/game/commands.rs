//! The lines a game sends its engines: `position` for the moves played so
//! far and `go` under the clocks.

use mancala_rules::{start_position, GameId, Side};

use crate::play::tc::{go_params, Clock, GoParams};

/// The `position` line for a game that started from `start` (a position
/// string of `game`) after `played`.
pub fn position_command(game: GameId, start: &str, played: &[String]) -> String {
    let base = if start == start_position(game) {
        "position startpos".to_owned()
    } else {
        format!("position pos {start}")
    };
    if played.is_empty() {
        base
    } else {
        format!("{base} moves {}", played.join(" "))
    }
}

/// The `go` line for `mover` under both sides' clocks.
pub fn go_command(clocks: &[Clock; 2], mover: Side) -> String {
    go_line(go_params(&clocks[0], &clocks[1], mover))
}

/// The `go` line with `params`.
pub fn go_line(params: GoParams) -> String {
    let params = params.to_string();
    if params.is_empty() {
        "go".to_owned()
    } else {
        format!("go {params}")
    }
}
