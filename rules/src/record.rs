//! A game in progress or finished: the start position, the moves, and the
//! history-dependent rules (cycles and repetition) that a position alone
//! cannot know.

use crate::error::MoveError;
use crate::game::{Game, RepetitionEffect};
use crate::trace::{Step, Traced};
use crate::Outcome;

/// A game from its start position: the moves played, the current position and
/// the outcome once it is over, with every repetition rule applied.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    position: G,
    /// Positions since the history key last changed, the current one included.
    history: Vec<(u64, G)>,
    outcome: Option<Outcome>,
    /// Reused by [`GameRecord::play`] for the legality check, so that playing
    /// a move does not allocate a move list every ply.
    scratch: Vec<G::Move>,
}

impl<G: Game> GameRecord<G> {
    pub fn new(start: G) -> GameRecord<G> {
        let mut record = GameRecord {
            start: start.clone(),
            moves: Vec::new(),
            position: start.clone(),
            history: Vec::new(),
            outcome: None,
            scratch: Vec::new(),
        };
        record.settle(start, G::on_repetition);
        record
    }

    pub fn start(&self) -> &G {
        &self.start
    }

    pub fn position(&self) -> &G {
        &self.position
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The positions that count for repetition from here on (those since the
    /// last irreversible change), oldest first, the current one last.
    pub fn repetition_history(&self) -> impl Iterator<Item = &G> {
        self.history.iter().map(|(_, g)| g)
    }

    /// The legal moves now (none once the game is over, whatever the reason).
    pub fn legal_moves(&self) -> Vec<G::Move> {
        if self.is_over() {
            Vec::new()
        } else {
            self.position.legal_move_list()
        }
    }

    /// Parses and plays a move given in notation.
    pub fn play_str(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mv = self.position.parse_legal(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Plays a move after checking that it is legal.
    pub fn play(&mut self, mv: G::Move) -> Result<(), MoveError> {
        self.check_legal(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn check_legal(&mut self, mv: G::Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        self.scratch.clear();
        self.position.legal_moves(&mut self.scratch);
        if !self.scratch.contains(&mv) {
            return Err(MoveError::Illegal {
                text: mv.to_string(),
                legal: self.scratch.iter().map(ToString::to_string).collect(),
            });
        }
        Ok(())
    }

    fn play_unchecked(&mut self, mv: G::Move) {
        self.moves.push(mv);
        let mut next = self.position.clone();
        next.play(mv);
        self.settle(next, G::on_repetition);
    }

    /// Makes `next` the current position and applies the game-end and
    /// repetition rules to it, `on_repetition` being [`Game::on_repetition`]
    /// or its traced form.
    fn settle(&mut self, mut next: G, mut on_repetition: impl FnMut(&G) -> RepetitionEffect<G>) {
        loop {
            if self
                .history
                .last()
                .is_some_and(|(_, g)| g.history_key() != next.history_key())
            {
                self.history.clear();
            }
            let hash = next.zobrist();
            self.history.push((hash, next.clone()));
            self.position = next;
            // A finished game stands even if its position is also a repetition.
            if let Some(outcome) = self.position.status() {
                self.outcome = Some(outcome);
                return;
            }
            let occurrences = self
                .history
                .iter()
                .filter(|(h, g)| *h == hash && *g == self.position)
                .count();
            if occurrences < G::REPETITION_LIMIT {
                return;
            }
            match on_repetition(&self.position) {
                RepetitionEffect::GameOver(outcome) => {
                    self.outcome = Some(outcome);
                    return;
                }
                RepetitionEffect::Continue(after) => {
                    // A new round: its counts start afresh.
                    self.history.clear();
                    next = after;
                }
            }
        }
    }
}

impl<G: Traced> GameRecord<G> {
    /// [`GameRecord::play`], appending the move's steps to `trace`: those of
    /// the move, then those of any transition the repetition rule causes (a
    /// Bosh round ended by a cycle), then [`Step::Turn`]. Nothing is appended
    /// when the move is refused.
    pub fn play_traced(&mut self, mv: G::Move, trace: &mut Vec<Step>) -> Result<(), MoveError> {
        self.check_legal(mv)?;
        self.moves.push(mv);
        let mut next = self.position.clone();
        next.play_observed(mv, trace);
        self.settle(next, |g| g.on_repetition_observed(trace));
        trace.push(Step::Turn {
            side: self.position.side_to_move(),
        });
        Ok(())
    }

    /// [`GameRecord::play_str`] with the trace of [`GameRecord::play_traced`].
    pub fn play_str_traced(
        &mut self,
        text: &str,
        trace: &mut Vec<Step>,
    ) -> Result<G::Move, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mv = self.position.parse_legal(text)?;
        self.play_traced(mv, trace)?;
        Ok(mv)
    }
}
