//! The one trait every game implements.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use crate::error::{MoveError, MoveSyntaxError, PositionError};
use crate::{GameId, GameResult, Outcome, Side};

/// What the history rule does once a position has occurred
/// [`Game::REPETITION_LIMIT`] times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RepetitionEffect<G> {
    /// The game ends with this outcome.
    GameOver(Outcome),
    /// Play goes on from this position (Bosh: the round ends and the next one
    /// starts); the repetition count starts afresh from it.
    Continue(G),
}

/// A position of one game: the board, the side to move and whatever else the
/// rules need (stores, reserves, round). History-dependent rules (repetition)
/// are not part of a position; [`crate::GameRecord`] applies them.
///
/// `Display` and `FromStr` are the position string, with the game id in front.
pub trait Game:
    Clone + Eq + Hash + Debug + Display + FromStr<Err = PositionError> + Send + Sync + 'static
{
    /// A move in the game's notation; `Display`/`FromStr` round-trip it.
    type Move: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + FromStr<Err = MoveSyntaxError>
        + Send
        + Sync
        + 'static;

    const ID: GameId;

    /// How many occurrences of one position trigger [`Game::on_repetition`]
    /// (2 = first repetition, 3 = third occurrence).
    const REPETITION_LIMIT: usize;

    /// The start position of the game.
    fn start() -> Self;

    fn side_to_move(&self) -> Side;

    /// Appends the legal moves to `moves` (which the caller clears). It appends
    /// nothing exactly when [`Game::status`] is `Some`.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move, including any automatic transition it causes (the
    /// end of a Bosh round and the refill). Playing an illegal move is a logic
    /// error: the result is unspecified but memory-safe.
    fn play(&mut self, mv: Self::Move);

    /// `Some` when the game is over in this position, judged from the position
    /// alone (no repetition rule).
    fn status(&self) -> Option<Outcome>;

    /// The result, when it is already certain: every way the game can go on
    /// from here (every line of moves, every history rule) ends with it. The
    /// default is the conservative one, the result once the game is over in
    /// this position ([`Game::status`]); a game overrides it where its rules
    /// prove more (Bohnenspiel: a store above half the beans). Arbiters may
    /// end a game early with it ("decided" adjudication).
    fn decided(&self) -> Option<GameResult> {
        self.status().map(|o| o.result)
    }

    /// What happens when this position has occurred `REPETITION_LIMIT` times.
    fn on_repetition(&self) -> RepetitionEffect<Self>;

    /// A value that can only change irreversibly during a game (monotone): two
    /// positions with different keys are never equal, and history from before a
    /// change never matters again. The game record forgets its repetition
    /// history whenever the key changes. Bosh includes the round number, so
    /// repetition counts restart at each new round.
    fn history_key(&self) -> u64;

    /// Zobrist hash of the position (board, side to move, stores, round).
    fn zobrist(&self) -> u64;

    /// Seeds on the board plus stores/reserves (Kimasai: stones in play).
    fn seed_count(&self) -> u32;

    /// A human board, South at the bottom, with the hole numbers shown.
    fn render(&self) -> String;

    /// The legal moves, as a fresh vector.
    fn legal_move_list(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
    }

    /// Parses a move and checks that it is legal here.
    fn parse_legal(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mv: Self::Move = text.parse()?;
        let legal = self.legal_move_list();
        if legal.contains(&mv) {
            Ok(mv)
        } else if self.status().is_some() {
            Err(MoveError::GameOver)
        } else {
            Err(MoveError::Illegal {
                text: text.to_owned(),
                legal: legal.iter().map(ToString::to_string).collect(),
            })
        }
    }

    /// The position after `mv`.
    fn after(&self, mv: Self::Move) -> Self {
        let mut next = self.clone();
        next.play(mv);
        next
    }
}
