//! The one trait every game implements.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use crate::error::{MoveError, MoveSyntaxError, PositionError};
use crate::{EndReason, GameId, GameResult, Layout, Outcome, Side};

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

/// Whether positions of a game can occur twice within one stretch of play
/// (between changes of [`Game::history_key`]), and how the repetition rule
/// tells them apart ([`Game::REPETITION`]). It says how to count, never what
/// the rule is: a game's rule is still [`Game::REPETITION_LIMIT`] and
/// [`Game::on_repetition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// No position can occur twice in a game, so the repetition rule never
    /// applies and nothing needs counting (Kalah: every move puts a seed in
    /// a store or moves seeds towards their owner's store).
    Impossible,
    /// [`Game::repetition_key`] is the position itself, exactly: two
    /// positions are equal exactly when their keys are.
    Exact,
    /// [`Game::repetition_key`] is the Zobrist hash: equal positions have
    /// equal keys, but equal keys confirm a repetition only together with
    /// the positions themselves.
    Hashed,
}

impl Repetition {
    /// Positions can occur twice: the rule needs a history of them.
    pub const fn possible(self) -> bool {
        !matches!(self, Repetition::Impossible)
    }
}

/// Where a position stands in a game played in rounds (Bosh), for the
/// match-level history rule ([`Game::in_round`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Round {
    /// The round the position belongs to. A position whose round differs from
    /// the one of the position before it opens a round: it is a round start.
    pub number: u32,
    /// The position with its round number left out, exactly: two round starts
    /// are the same for the match-level rule exactly when their keys are equal.
    pub start_key: u128,
}

/// A position of one game: the board, the side to move and whatever else the
/// rules need (stores, reserves, round). History-dependent rules are not part
/// of a position; [`crate::GameRecord`] applies them. There are two:
///
/// - **repetition** of positions within one stretch of play
///   ([`Game::REPETITION_LIMIT`], [`Game::on_repetition`], reset whenever
///   [`Game::history_key`] changes), which every game has;
/// - **repetition of round starts** over the whole match
///   ([`Game::in_round`], [`Game::ROUND_START_LIMIT`],
///   [`Game::on_round_start_repetition`]), which only games played in rounds
///   have; the defaults say "no rounds".
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

    /// How the board is drawn and what the position string holds.
    const LAYOUT: Layout;

    /// How many occurrences of one position trigger [`Game::on_repetition`]
    /// (2 = first repetition, 3 = third occurrence).
    const REPETITION_LIMIT: usize;

    /// A player with no move while the game goes on plays `pass` (its only
    /// legal move) instead of the game ending: Hemprich's Bohnenspiel.
    /// Tools that test engines on such a position ask this, not the game id.
    const PASSES: bool = false;

    /// The game has match play: games in a row whose bean totals are summed
    /// until a player reaches a target (Bohnenspiel's Partie,
    /// [`crate::games::bohnenspiel::Partie`]). Arbiters offer it only where
    /// this is `true`.
    const MATCH_PLAY: bool = false;

    /// Whether positions can repeat and whether [`Game::repetition_key`] is
    /// exact. The default, [`Repetition::Hashed`], is right for every game;
    /// the others let the game record and playouts skip work.
    const REPETITION: Repetition = Repetition::Hashed;

    /// The key positions are counted by for the repetition rule: the
    /// Zobrist hash by default; the position itself for a game whose
    /// [`Game::REPETITION`] is [`Repetition::Exact`].
    #[inline]
    fn repetition_key(&self) -> u128 {
        u128::from(self.zobrist())
    }

    /// The start position of the game.
    fn start() -> Self;

    fn side_to_move(&self) -> Side;

    /// Appends the legal moves to `moves` (which the caller clears). It appends
    /// nothing exactly when [`Game::status`] is `Some`.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Chooses a legal move without listing them, where the game can:
    /// `choose` gets the number of legal moves (at least 1) and gives back
    /// an index below it, counted in [`Game::legal_moves`] order, or `None`
    /// to choose none. Returns `None` without calling `choose` when there is
    /// no legal move (exactly when [`Game::status`] is `Some`), and when
    /// `choose` chose none. `moves` is scratch space for the default, which
    /// lists the moves with [`Game::legal_moves`].
    #[inline]
    fn choose_move(
        &self,
        moves: &mut Vec<Self::Move>,
        choose: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<Self::Move> {
        moves.clear();
        self.legal_moves(moves);
        if moves.is_empty() {
            return None;
        }
        choose(moves.len()).map(|i| moves[i])
    }

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

    /// Games played in rounds: the round this position is in and its key as a
    /// round start. `None` (the default): the game has no rounds, and the
    /// round-start rule never applies.
    ///
    /// The round-start rule: the position the game record starts from and
    /// every position that opens a round are counted over the whole match, by
    /// [`Round::start_key`]; when one occurs for the [`Game::ROUND_START_LIMIT`]th
    /// time, the match ends with [`Game::on_round_start_repetition`] (unless
    /// the position is already a finished game: that result stands).
    fn in_round(&self) -> Option<Round> {
        None
    }

    /// How many occurrences of one round start end the match (3 = third
    /// occurrence). Only used when [`Game::in_round`] is `Some`.
    const ROUND_START_LIMIT: usize = 3;

    /// The end of the match when this position, a round start, has occurred
    /// [`Game::ROUND_START_LIMIT`] times. The default is a draw without
    /// scores; only used when [`Game::in_round`] is `Some`.
    fn on_round_start_repetition(&self) -> Outcome {
        Outcome::draw(EndReason::RoundStartRepeated)
    }

    /// The round-start key of this position when it opens a round, coming
    /// right after `previous` in play (its round differs from `previous`'s);
    /// `None` otherwise, and always for games without rounds.
    fn round_start_after(&self, previous: &Self) -> Option<u128> {
        match (previous.in_round(), self.in_round()) {
            (Some(before), Some(now)) if now.number != before.number => Some(now.start_key),
            _ => None,
        }
    }

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
