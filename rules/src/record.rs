//! A game in progress or finished: the start position, the moves, and the
//! history-dependent rules that a position alone cannot know: repetition of
//! positions since the last irreversible change (cycles, repetition), and, in
//! games played in rounds, repetition of round starts over the whole match.

use crate::error::MoveError;
use crate::game::{Game, Repetition, RepetitionEffect};
use crate::trace::{Step, Traced};
use crate::Outcome;

/// A game from its start position: the moves played, the current position and
/// the outcome once it is over, with every repetition rule applied.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    position: G,
    /// Positions since the history key last changed, the current one included
    /// (their [`Game::repetition_key`] first): the per-round repetition
    /// count. Only the current one where positions cannot repeat.
    history: Vec<(u128, G)>,
    /// Keys ([`crate::Round::start_key`]) of every round start of the match,
    /// the record's start position included, oldest first: the per-match
    /// round-start count. Always empty for games without rounds.
    round_starts: Vec<u128>,
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
            round_starts: Vec::new(),
            outcome: None,
            scratch: Vec::new(),
        };
        // why: the match's own start position counts as a round start.
        record.settle(start, true, G::on_repetition);
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
    /// last irreversible change), oldest first, the current one last; only
    /// the current one in a game whose positions cannot repeat
    /// ([`crate::Repetition::Impossible`]).
    pub fn repetition_history(&self) -> impl Iterator<Item = &G> {
        self.history.iter().map(|(_, g)| g)
    }

    /// The round starts of the whole match that count for the round-start
    /// rule ([`crate::Game::in_round`]), as their keys, oldest first: the
    /// record's start position, then each position that opened a round, the
    /// current one last if it opens a round. Empty for games without rounds.
    pub fn round_start_history(&self) -> &[u128] {
        &self.round_starts
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
        let opens_round = next.round_start_after(&self.position).is_some();
        self.settle(next, opens_round, G::on_repetition);
    }

    /// Makes `next` the current position and applies the game-end and both
    /// history rules to it; `opens_round`: `next` is a round start;
    /// `on_repetition`: [`Game::on_repetition`] or its traced form.
    fn settle(
        &mut self,
        mut next: G,
        mut opens_round: bool,
        mut on_repetition: impl FnMut(&G) -> RepetitionEffect<G>,
    ) {
        loop {
            // why clear every ply where nothing can repeat: the current
            // position is then all the history there is (and no key is made).
            if !G::REPETITION.possible()
                || self
                    .history
                    .last()
                    .is_some_and(|(_, g)| g.history_key() != next.history_key())
            {
                self.history.clear();
            }
            let key = if G::REPETITION.possible() {
                next.repetition_key()
            } else {
                0
            };
            self.history.push((key, next.clone()));
            self.position = next;
            let round_start = opens_round
                .then(|| self.position.in_round())
                .flatten()
                .map(|round| round.start_key);
            if let Some(key) = round_start {
                self.round_starts.push(key);
            }
            // A finished game stands even if its position is also a repetition
            // (of a position or of a round start).
            if let Some(outcome) = self.position.status() {
                self.outcome = Some(outcome);
                return;
            }
            if let Some(key) = round_start {
                let occurrences = self.round_starts.iter().filter(|&&k| k == key).count();
                if occurrences >= G::ROUND_START_LIMIT {
                    self.outcome = Some(self.position.on_round_start_repetition());
                    return;
                }
            }
            if !G::REPETITION.possible() {
                return;
            }
            // An exact key is the position; a hash needs the position too.
            let exact = matches!(G::REPETITION, Repetition::Exact);
            let occurrences = self
                .history
                .iter()
                .filter(|(k, g)| *k == key && (exact || *g == self.position))
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
                    opens_round = after.round_start_after(&self.position).is_some();
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
        let opens_round = next.round_start_after(&self.position).is_some();
        self.settle(next, opens_round, |g| g.on_repetition_observed(trace));
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

#[cfg(test)]
mod tests {
    //! The order of the history rules on a toy game played in rounds, where a
    //! round start can be the third occurrence and a finished game at once
    //! (no Bosh position can: a finished match never occurs twice).
    use super::*;
    use crate::error::{Field, MoveSyntaxError, PositionError};
    use crate::games::bohnenspiel::Bohnenspiel;
    use crate::{EndReason, GameId, GameResult, Round, Side};
    use std::fmt;
    use std::str::FromStr;

    /// Two plies a round, every round opening alike; the match is won by
    /// South once round `won_in` is reached.
    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    struct Laps {
        round: u32,
        ply: u8,
        won_in: u32,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    struct Step;

    impl fmt::Display for Step {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("step")
        }
    }
    impl FromStr for Step {
        type Err = MoveSyntaxError;
        fn from_str(s: &str) -> Result<Step, MoveSyntaxError> {
            (s == "step")
                .then_some(Step)
                .ok_or_else(|| MoveSyntaxError::new(s, "not step"))
        }
    }
    impl fmt::Display for Laps {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "laps {} {}", self.round, self.ply)
        }
    }
    impl FromStr for Laps {
        type Err = PositionError;
        fn from_str(_: &str) -> Result<Laps, PositionError> {
            Err(PositionError::new(Field::String, "toy"))
        }
    }
    impl Game for Laps {
        type Move = Step;
        const ID: GameId = GameId::Bosh;
        const LAYOUT: crate::Layout = crate::Layout::TWO_BY_SIX_WITH_STORES;
        const REPETITION_LIMIT: usize = 3;
        fn start() -> Laps {
            Laps {
                round: 1,
                ply: 0,
                won_in: u32::MAX,
            }
        }
        fn side_to_move(&self) -> Side {
            Side::BOTH[usize::from(self.ply)]
        }
        fn legal_moves(&self, moves: &mut Vec<Step>) {
            if self.status().is_none() {
                moves.push(Step);
            }
        }
        fn play(&mut self, _: Step) {
            self.ply += 1;
            if self.ply == 2 {
                self.ply = 0;
                self.round += 1;
            }
        }
        fn status(&self) -> Option<Outcome> {
            (self.round >= self.won_in).then(|| Outcome::win(Side::South, EndReason::MatchWon))
        }
        fn on_repetition(&self) -> RepetitionEffect<Laps> {
            RepetitionEffect::GameOver(Outcome::draw(EndReason::Repetition))
        }
        fn in_round(&self) -> Option<Round> {
            Some(Round {
                number: self.round,
                start_key: u128::from(self.ply),
            })
        }
        fn history_key(&self) -> u64 {
            u64::from(self.round)
        }
        fn zobrist(&self) -> u64 {
            u64::from(self.round) << 8 | u64::from(self.ply)
        }
        fn seed_count(&self) -> u32 {
            0
        }
        fn render(&self) -> String {
            self.to_string()
        }
    }

    fn laps(won_in: u32, plies: usize) -> GameRecord<Laps> {
        let mut record = GameRecord::new(Laps {
            won_in,
            ..Laps::start()
        });
        for _ in 0..plies {
            record.play(Step).expect("legal");
        }
        record
    }

    #[test]
    fn the_third_round_start_ends_the_match() {
        let record = laps(u32::MAX, 2);
        assert_eq!(record.round_start_history(), [0, 0]);
        assert!(!record.is_over());
        let record = laps(u32::MAX, 4);
        assert_eq!(record.round_start_history(), [0, 0, 0]);
        assert_eq!(
            record.outcome(),
            Some(Outcome::draw(EndReason::RoundStartRepeated))
        );
        // The per-round history holds only the current round's positions.
        assert_eq!(record.repetition_history().count(), 1);
    }

    #[test]
    fn a_round_start_that_is_won_stays_won() {
        let record = laps(3, 4);
        assert_eq!(record.round_start_history().len(), 3);
        assert_eq!(
            record.outcome(),
            Some(Outcome::win(Side::South, EndReason::MatchWon))
        );
        assert_eq!(
            record.outcome().map(|o| o.result),
            Some(GameResult::SouthWins)
        );
    }

    #[test]
    fn games_without_rounds_keep_no_round_starts() {
        let mut record = GameRecord::new(Bohnenspiel::start());
        for _ in 0..6 {
            let mv = record.legal_moves()[0];
            record.play(mv).expect("legal");
        }
        assert!(record.round_start_history().is_empty());
    }
}
