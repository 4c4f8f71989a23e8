//! The end of a game in words a player reads, for the board pages' end
//! banner: who won, the final totals the result is decided by (winner's
//! first), and why — `North wins 56–16: South had no seed to move, so the 2
//! left went to North` — not the log's `rules: player to move has no seeds`.

use mancala_rules::{EndReason, GameResult, Side};

use crate::board::BoardView;
use arbiter_core::records::log::Termination;

fn side_word(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

fn seeds(n: u32) -> String {
    if n == 1 {
        "1 seed".to_owned()
    } else {
        format!("{n} seeds")
    }
}

/// The banner for a game that ended with `result` for `termination`;
/// `scores` are the final totals where the game counts seeds, `last` the
/// final position as laid out for the page.
pub fn in_words(
    result: GameResult,
    termination: &Termination,
    scores: Option<[u32; 2]>,
    last: &BoardView,
) -> String {
    let headline = match result.winner() {
        Some(w) => format!("{} wins", side_word(w)),
        None => "Draw".to_owned(),
    };
    let totals = scores.map(|s| {
        let first = result.winner().unwrap_or(Side::South);
        format!(" {}–{}", s[first.index()], s[first.opponent().index()])
    });
    format!(
        "{headline}{}: {}",
        totals.unwrap_or_default(),
        why(result, termination, scores, last)
    )
}

/// `, so each player took the seeds in his own row (North took 5 seeds)`,
/// or nothing when no seed was left to take.
fn own_rows(taken: Vec<String>) -> String {
    if taken.is_empty() {
        String::new()
    } else {
        format!(
            ", so each player took the seeds in his own row ({})",
            taken.join(", ")
        )
    }
}

fn why(
    result: GameResult,
    termination: &Termination,
    scores: Option<[u32; 2]>,
    last: &BoardView,
) -> String {
    let to_move = if last.to_move == "north" {
        Side::North
    } else {
        Side::South
    };
    let loser = result.winner().map(Side::opponent);
    let reason = match termination {
        Termination::Rules { detail } => EndReason::from_description(detail),
        _ => None,
    };
    // Seeds the final count gave a side beyond its store (the rules sweep
    // the board at some ends): `scores` minus the stores on the board.
    let swept = |side: Side| -> u32 {
        match (scores, last.stores) {
            (Some(s), Some(st)) => s[side.index()].saturating_sub(st[side.index()]),
            _ => 0,
        }
    };
    // Who took the seeds left in his row (`North took 5 seeds`), where any.
    let took = || -> Vec<String> {
        Side::BOTH
            .into_iter()
            .filter(|&s| swept(s) > 0)
            .map(|s| format!("{} took {}", side_word(s), seeds(swept(s))))
            .collect()
    };
    match reason {
        Some(EndReason::NoSeedsToMove) => {
            let other = to_move.opponent();
            let mut text = format!("{} had no seed to move", side_word(to_move));
            let n = swept(other);
            if n > 0 {
                text.push_str(&format!(", so the {n} left went to {}", side_word(other)));
            }
            text
        }
        Some(EndReason::BoardEmpty) => "every seed has been captured".to_owned(),
        Some(EndReason::Cycle) => {
            let mut text = "the position occurred for the third time".to_owned();
            let taken = took();
            if taken.is_empty() {
                text.push_str(", so each player took the seeds on his own side");
            } else {
                text.push_str(&format!(", so each player took the seeds on his own side ({})", taken.join(", ")));
            }
            text
        }
        Some(EndReason::MatchWon) => match loser {
            Some(l) => format!("{} could not fill a hole at the start of a round", side_word(l)),
            None => "a player could not fill a hole at the start of a round".to_owned(),
        },
        Some(EndReason::NoLegalMove) => {
            format!("{} had no legal move", side_word(to_move)) + &own_rows(took())
        }
        Some(EndReason::EmptyFrontRow) => {
            format!("{}'s front row was empty", side_word(to_move))
        }
        Some(EndReason::Repetition) => "the position repeated".to_owned() + &own_rows(took()),
        Some(EndReason::RowEmpty) => {
            let taken = took();
            let mut text = "a row was empty, so each player took the seeds in his own row".to_owned();
            if !taken.is_empty() {
                text.push_str(&format!(" ({})", taken.join(", ")));
            }
            text
        }
        Some(EndReason::HalfTaken) => match result.winner() {
            Some(w) => format!("{} has more than half the seeds", side_word(w)),
            None => "each player has half the seeds".to_owned(),
        },
        Some(EndReason::RoundStartRepeated) => {
            "a round started from the same position for the third time; the stones each player owns decide".to_owned()
        }
        None => forfeit_words(termination),
    }
}

/// An arbiter's verdict in words (a forfeit names who forfeited).
fn forfeit_words(termination: &Termination) -> String {
    let who = termination.offender().map(side_word).unwrap_or("a player");
    let detail = termination.detail();
    let with_detail = |text: String| {
        if detail.is_empty() {
            text
        } else {
            format!("{text} ({detail})")
        }
    };
    match termination {
        Termination::TimeForfeit { .. } => with_detail(format!("{who} ran out of time")),
        Termination::IllegalMove { mv, .. } => {
            with_detail(format!("{who} played an illegal move, {mv}"))
        }
        Termination::Crash { .. } => with_detail(format!("{who}'s engine crashed")),
        Termination::Disconnect { .. } => with_detail(format!("{who}'s engine left the game")),
        Termination::Unresponsive { .. } => {
            with_detail(format!("{who}'s engine stopped answering"))
        }
        Termination::Rules { detail } => detail.clone(),
        // Adjudications, interruptions and other forfeits say it in their
        // own words (e.g. `draw by the ply limit (300 plies)`).
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::view;

    #[test]
    fn a_swept_board_is_counted_to_the_last_mover() {
        // North to move with no bean: the 2 beans left on South's side go
        // to South, who moved last.
        let last = view("bohnenspiel 1,1,0,0,0,0,0,0,0,0,0,0 N 14/56").unwrap();
        let text = in_words(
            GameResult::NorthWins,
            &Termination::rules(EndReason::NoSeedsToMove),
            Some([16, 56]),
            &last,
        );
        assert_eq!(
            text,
            "North wins 56–16: North had no seed to move, so the 2 left went to South"
        );
    }

    #[test]
    fn forfeits_and_draws_read_as_sentences() {
        let last = view("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0").unwrap();
        let time = Termination::TimeForfeit {
            side: Side::South,
            detail: "used 1.2 s of 1.0 s".into(),
        };
        assert_eq!(
            in_words(GameResult::NorthWins, &time, None, &last),
            "North wins: South ran out of time (used 1.2 s of 1.0 s)"
        );
        // Nothing left in the rows: nothing more to say.
        let swept = view("bohnenspiel 0,0,0,0,0,0,0,0,0,0,0,0 S 36/36").unwrap();
        let text = in_words(
            GameResult::Draw,
            &Termination::rules(EndReason::Repetition),
            Some([36, 36]),
            &swept,
        );
        assert_eq!(text, "Draw 36–36: the position repeated");
        // Oware's ends share the rows out: the words say who took what.
        let last = view("oware 0,0,0,0,0,0,2,3,0,0,0,0 N 21/22").unwrap();
        let text = in_words(
            GameResult::NorthWins,
            &Termination::rules(EndReason::NoLegalMove),
            Some([21, 27]),
            &last,
        );
        assert_eq!(
            text,
            "North wins 27–21: North had no legal move, so each player took the seeds in his own row (North took 5 seeds)"
        );
        assert!(!text.contains("rules:"));
    }
}
