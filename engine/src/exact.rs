//! The engine's exact play in Kalah: before its search, `go` runs the
//! solver (`mancala_tablebase::kalah::solver::best_move`) within a share of
//! the move's time; a value found is played at once with its exact score,
//! else the search plays and says the move is not proven.
//!
//! The solver's table (`Hash` MiB beside the search's, allocated at the
//! first Kalah search and kept: its entries are exact bounds of boards, true
//! in every game, so each move's solve starts from the previous ones) and
//! the Kalah database layers (`TablebasePath`, else the default directory of
//! `engine tb build --game kalah`) are the engine's. why not a big table of
//! its own: a fresh table's memory is zeroed by the system as it is first
//! touched (2 s of system time for 256 MiB of huge pages on this machine,
//! more than a move's budget), and a 1-second solve fills a small one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use mancala_rules::GameId;
use mancala_tablebase::kalah::solver::tt::Tt;
use mancala_tablebase::kalah::solver::{best_move, layers, Best, BestError};
use mancala_tablebase::Tablebase;

use crate::control::SearchControl;

/// The games the solver plays.
pub fn solvable(game: GameId) -> bool {
    matches!(game, GameId::Kalah | GameId::Kalah6x6)
}

/// What one search needs to try the solver.
#[derive(Clone)]
pub struct ExactJob {
    pub tt: Arc<Tt>,
    /// A database holding Kalah layers, if any.
    pub tablebase: Option<Arc<Tablebase>>,
    /// `Solve`: run until the value is known or `stop`, whatever the clock.
    pub until_solved: bool,
}

impl ExactJob {
    /// The value of `position` and a move that keeps it, or why not: the
    /// solver gives up when `control` says so (its share of the budget, or
    /// `stop`; with `until_solved` only `stop`).
    pub fn run(&self, position: &str, control: &SearchControl) -> Result<Best, BestError> {
        let db = match &self.tablebase {
            Some(tb) => layers(tb).unwrap_or_default(),
            None => Vec::new(),
        };
        let stop = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        thread::scope(|scope| {
            // why a watcher thread: the solver polls one flag every few
            // thousand nodes; the deadline and `stop` are the control's.
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let give_up = if self.until_solved {
                        control.is_stopped()
                    } else {
                        control.solver_must_stop(Instant::now())
                    };
                    if give_up {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    thread::sleep(Duration::from_millis(2));
                }
            });
            let result = best_move(position, &self.tt, &db, &stop);
            done.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// The search score of an exact final margin, as the databases score it.
pub use crate::eval::tb_score::of_margin as score;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tb_score::TB_WIN;

    #[test]
    fn scores_order_wins_above_evaluations() {
        assert_eq!(score(0), 0);
        assert_eq!(score(8), TB_WIN + 800);
        assert_eq!(score(-2), -TB_WIN - 200);
        assert!(score(1) > 100 * 48 && score(-1) < -100 * 48);
    }

    #[test]
    fn a_small_endgame_is_solved_and_a_stop_gives_up() {
        let tt = Arc::new(Tt::new(1).expect("a 1 MB table"));
        let job = ExactJob {
            tt,
            tablebase: None,
            until_solved: true,
        };
        // South: 1 seed in hole 6 (an extra turn), then hole 5's 2 seeds.
        let control = SearchControl::new();
        let best = job
            .run("kalah 0,0,0,0,2,1,1,1,0,0,0,0 S 20/23", &control)
            .expect("solved");
        // The solver's own full answer agrees.
        let full = mancala_tablebase::kalah::solver::solve(
            &mancala_tablebase::kalah::solver::Request {
                position: "kalah 0,0,0,0,2,1,1,1,0,0,0,0 S 20/23".into(),
                game: None,
                hash_mb: 1,
                threads: 1,
                tb: None,
                etc: true,
            },
            &mut |_, _| {},
        )
        .expect("solved");
        assert_eq!(best.value, full.value);
        assert!(full.moves.contains(&(best.mv, full.value)));
        // A stopped control: the start of Kalah(6,4) is not solved.
        let stopped = SearchControl::new();
        stopped.stop();
        let r = job.run("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0", &stopped);
        assert!(matches!(r, Err(BestError::Stopped { .. })), "{r:?}");
    }
}
