//! The sowing trace of a move: the elementary steps it performs, in order,
//! fine enough to animate (one [`Step::Sow`] per seed dropped).
//!
//! There is one implementation of each game's rules. Every game plays its
//! moves in [`Traced::play_observed`], which reports what it does to an
//! [`Observer`]; [`Game::play`] is that same function with [`NoTrace`], an
//! observer whose methods are empty and inline to nothing, so the hot path
//! pays nothing for the trace. [`Traced::play_traced`] collects the steps into
//! a `Vec<Step>`.
//!
//! [`Board`] replays steps onto a position string: plain bookkeeping (seeds
//! move from hand to hole and back), no rule. Replaying a move's trace onto the
//! position before it gives exactly the position after it; the tests check
//! that for every game over thousands of random positions.
//!
//! At run time, by game id: [`trace_move`] (a position string and a move) and
//! [`crate::AnyGame::play_traced`] (a move in a game record, with the
//! repetition rules: a Bosh round ended by a cycle is part of the trace).
//!
//! # Steps per game
//!
//! Every move starts with `Lap { number: 1, kind: start }` and ends with
//! `Turn` (the side to move afterwards), except a Hemprich `pass`, which is
//! `Pass` then `Turn`.
//!
//! - **Bohnenspiel**: `Pick`, one `Sow` per bean (a single lap), then one
//!   `Capture` to the mover's `store` per pit of the capture chain, in chain
//!   order. The end-of-game sweep of Bohnenspiel is not part of play (the final
//!   position keeps its beans; the sweep is in [`crate::Outcome::scores`]), so
//!   it is not in the trace.
//! - **Kalah**: `Pick`, then one `Sow` per seed dropped into a hole and one
//!   `Store` per seed dropped into the mover's own store, in sowing order; a
//!   capture is two `Capture`s to the mover's `store`, the opposite hole's
//!   seeds first, then the single seed that made the capture. An extra turn
//!   shows as the final `Turn` naming the mover again.
//! - **Oware**: `Pick`, one `Sow` per seed (the origin skipped), then one
//!   `Capture` to the mover's `store` per hole of the capture chain, from the
//!   last hole sown backwards. A grand slam captures nothing: no `Capture`.
//! - **Bosh**: laps of `Pick` and `Sow`s, a relay lap picking up the open hole
//!   after the last one sown; a capture is one `Capture` to the mover's
//!   `reserve`. When the round ends: `RoundEnd`, one `Capture` per occupied
//!   hole to the reserve the stones go to, `NewRound`, then for each of the
//!   ten holes either `Refill` (from its owner's reserve, which opens it) or
//!   `Close`. Several round ends can follow one another.
//! - **Kimasai**: `Pick` of one stone, its `Sow` into the next hole, then up to
//!   two `Capture`s (front, then back) to `removed`.
//! - **Kujifunza**: laps of `Pick` and `Sow`s; a capture is a `Capture` of the
//!   opposite front hole into the `hand`, then a lap of kind `captured` naming
//!   the kichwa it is sown from (first seed into the kichwa itself) and whether
//!   the mover chose it (a middle-hole capture) or the rules did (a kimbi).
//!
//! # JSON
//!
//! With serde, a step is an object whose `step` field names its kind (all
//! names in `snake_case`, sides `"south"`/`"north"`, holes as numbers in the
//! move notation):
//!
//! ```json
//! {"step":"lap","number":1,"kind":"start"}
//! {"step":"lap","number":2,"kind":"relay"}
//! {"step":"lap","number":3,"kind":"captured","kichwa":16,"chosen":true}
//! {"step":"pick","hole":3,"count":4}
//! {"step":"sow","hole":4}
//! {"step":"store","side":"south"}
//! {"step":"capture","from":7,"count":3,"to":"store","side":"south"}
//! {"step":"capture","from":7,"count":3,"to":"reserve","side":"north"}
//! {"step":"capture","from":28,"count":2,"to":"hand"}
//! {"step":"capture","from":37,"count":1,"to":"removed"}
//! {"step":"pass"}
//! {"step":"round_end","reason":"no_move"}
//! {"step":"round_end","reason":"cycle"}
//! {"step":"new_round","round":2}
//! {"step":"refill","hole":6,"count":4,"reserve":"north"}
//! {"step":"close","hole":10}
//! {"step":"turn","side":"north"}
//! ```
//!
//! [`MoveTrace`] (what [`trace_move`] returns) is
//! `{"game":"bosh","before":"<position>","move":"3","after":"<position>","steps":[...]}`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{MoveError, PositionError};
use crate::game::{Game, RepetitionEffect};
use crate::position::{format_holes, game_id_of, parse_holes, parse_pair, parse_side};
use crate::{with_game, Field, GameId, Side};

/// One elementary step of a move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A lap starts: the first sowing, a relay, or captured seeds sown from a
    /// kichwa. `number` counts from 1 within the move.
    Lap {
        number: u32,
        #[serde(flatten)]
        kind: LapKind,
    },
    /// All `count` seeds of `hole` are taken into the hand.
    Pick { hole: u8, count: u8 },
    /// One seed from the hand is dropped into `hole`.
    Sow { hole: u8 },
    /// One seed from the hand is dropped into `side`'s store (Kalah: the
    /// mover sows into his own store).
    Store { side: Side },
    /// All `count` seeds of `from` leave it for `to`.
    Capture {
        from: u8,
        count: u8,
        #[serde(flatten)]
        to: Target,
    },
    /// Hemprich's `pass`: nothing moves.
    Pass,
    /// A Bosh round ends; the sweep of the board follows as captures.
    RoundEnd { reason: RoundEndReason },
    /// A Bosh round starts; a `Refill` or `Close` for every hole follows.
    NewRound { round: u32 },
    /// `count` stones go from `reserve` into the empty `hole`, which is open
    /// from now on.
    Refill { hole: u8, count: u8, reserve: Side },
    /// The empty `hole` is closed (Bosh).
    Close { hole: u8 },
    /// The move is over; `side` is to move.
    Turn { side: Side },
}

/// What a lap sows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LapKind {
    /// The seeds of the move's own hole.
    Start,
    /// The seeds of a hole reached by the previous lap (relay sowing).
    Relay,
    /// Captured seeds (in the hand), sown from `kichwa`, first seed into the
    /// kichwa itself; `chosen` when the mover chose this kichwa (a sign in the
    /// move), not when the rules did (a kimbi capture).
    Captured { kichwa: u8, chosen: bool },
}

/// Where captured seeds go.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Target {
    /// A Bohnenspiel store.
    Store { side: Side },
    /// A Bosh reserve.
    Reserve { side: Side },
    /// The sowing hand: Kujifunza sows captured seeds on from a kichwa.
    Hand,
    /// Out of play (Kimasai).
    Removed,
}

/// Why a Bosh round ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundEndReason {
    /// The player to move had no legal move; the board goes to his opponent.
    NoMove,
    /// A position occurred for the third time; each player takes his own holes.
    Cycle,
}

/// Receives the steps of a move as the rules perform them.
pub trait Observer {
    /// One step, built only if it is wanted: with [`NoTrace`] not even the
    /// hole numbers are computed (an index into a table would otherwise keep
    /// its bounds check in the hot path).
    fn step(&mut self, step: impl FnOnce() -> Step);

    /// `count` seeds sown one by one; seed `s` (1-based) falls into hole
    /// `hole_of(s)`. (The rules sow whole rounds of the board at once; this
    /// spells them out seed by seed, in sowing order.)
    fn sow(&mut self, count: usize, hole_of: impl Fn(usize) -> u8) {
        for s in 1..=count {
            self.step(|| Step::Sow { hole: hole_of(s) });
        }
    }

    /// A point to [`Observer::rollback`] to: the rules try a path (a Kujifunza
    /// capture, a Bosh sowing that may prove endless) before knowing it is the
    /// one played.
    fn mark(&self) -> usize;

    /// Forgets the steps reported since `mark`.
    fn rollback(&mut self, mark: usize);
}

/// The observer of plain [`Game::play`]: ignores everything, at no cost.
pub struct NoTrace;

impl Observer for NoTrace {
    #[inline(always)]
    fn step(&mut self, _: impl FnOnce() -> Step) {}

    #[inline(always)]
    fn sow(&mut self, _: usize, _: impl Fn(usize) -> u8) {}

    #[inline(always)]
    fn mark(&self) -> usize {
        0
    }

    #[inline(always)]
    fn rollback(&mut self, _: usize) {}
}

impl Observer for Vec<Step> {
    fn step(&mut self, step: impl FnOnce() -> Step) {
        self.push(step());
    }

    fn mark(&self) -> usize {
        self.len()
    }

    fn rollback(&mut self, mark: usize) {
        self.truncate(mark);
    }
}

/// A game whose moves can be traced. Every game of the library implements it,
/// and its [`Game::play`] is `play_observed` with [`NoTrace`].
pub trait Traced: Game {
    /// [`Game::play`], reporting every step to `observer` (without the final
    /// [`Step::Turn`], which [`Traced::play_traced`] adds).
    fn play_observed<O: Observer>(&mut self, mv: Self::Move, observer: &mut O);

    /// [`Game::on_repetition`], reporting the steps of the transition (Bosh:
    /// the round ends and the next starts). Games whose repetition ends the
    /// game report nothing.
    fn on_repetition_observed<O: Observer>(&self, observer: &mut O) -> RepetitionEffect<Self> {
        let _ = observer;
        self.on_repetition()
    }

    /// Plays `mv` (legal here) and appends its steps to `trace`, ending with
    /// [`Step::Turn`].
    fn play_traced(&mut self, mv: Self::Move, trace: &mut Vec<Step>) {
        self.play_observed(mv, trace);
        trace.push(Step::Turn {
            side: self.side_to_move(),
        });
    }

    /// The steps of `mv` (legal here) from this position.
    fn trace(&self, mv: Self::Move) -> Vec<Step> {
        let mut trace = Vec::new();
        self.clone().play_traced(mv, &mut trace);
        trace
    }
}

/// A move and its trace, as [`trace_move`] returns it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct MoveTrace {
    pub game: GameId,
    /// The position string before the move (canonical).
    pub before: String,
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position string after the move.
    pub after: String,
    pub steps: Vec<Step>,
}

/// Why [`trace_move`] could not trace a move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TraceMoveError {
    Position(PositionError),
    Move(MoveError),
}

impl fmt::Display for TraceMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceMoveError::Position(e) => e.fmt(f),
            TraceMoveError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TraceMoveError {}

impl From<PositionError> for TraceMoveError {
    fn from(e: PositionError) -> Self {
        TraceMoveError::Position(e)
    }
}

impl From<MoveError> for TraceMoveError {
    fn from(e: MoveError) -> Self {
        TraceMoveError::Move(e)
    }
}

/// The trace of a move given in notation from a position string (the game id
/// in the string says which game). The move must be legal there; the
/// repetition rules, which need a game's history, are not applied (use
/// [`crate::AnyGame::play_traced`] for that).
pub fn trace_move(position: &str, mv: &str) -> Result<MoveTrace, TraceMoveError> {
    let id = game_id_of(position)?;
    with_game!(id, G => {
        let mut pos: G = position.parse()?;
        let before = pos.to_string();
        let mv = pos.parse_legal(mv)?;
        let mut steps = Vec::new();
        pos.play_traced(mv, &mut steps);
        Ok(MoveTrace {
            game: id,
            before,
            mv: mv.to_string(),
            after: pos.to_string(),
            steps,
        })
    })
}

/// A board for replaying steps: holes, stores or reserves, round, side to move
/// and the seeds in hand, read from and written as a position string. It knows
/// no rule: it only moves seeds as the steps say, and refuses a step that does
/// not fit the board (an empty hand, a count that is not there).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    game: GameId,
    /// Index `n - 1` is hole `n`; `None` is a closed hole.
    holes: Vec<Option<u8>>,
    side: Side,
    /// Stores (Bohnenspiel) or reserves (Bosh), indexed by [`Side::index`].
    stores: Option<[u32; 2]>,
    round: Option<u32>,
    hand: u32,
}

/// A step that does not fit the board it is replayed on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ApplyError {
    /// The step's index in the trace (from 0).
    pub index: usize,
    pub step: Step,
    pub message: String,
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} ({:?}): {}", self.index, self.step, self.message)
    }
}

impl std::error::Error for ApplyError {}

impl Board {
    /// The board of a position string (checked as the game checks it).
    pub fn from_position(position: &str) -> Result<Board, PositionError> {
        let id = game_id_of(position)?;
        // Validate with the game itself, then read the canonical string.
        let canonical = with_game!(id, G => position.parse::<G>()?.to_string());
        let fields: Vec<&str> = canonical.split(' ').collect();
        let field = |i: usize, what: Field| {
            fields
                .get(i)
                .copied()
                .ok_or_else(|| PositionError::new(what, "missing"))
        };
        let holes_field = field(1, Field::Holes)?;
        let holes = parse_holes(holes_field, holes_field.split(',').count(), true)?;
        let side = parse_side(field(2, Field::Side)?)?;
        let stores = fields
            .get(3)
            .map(|f| parse_pair(f).map(|p| p.map(u32::from)))
            .transpose()?;
        let round = fields
            .get(4)
            .map(|f| {
                f.parse()
                    .map_err(|_| PositionError::new(Field::Round, format!("bad round {f:?}")))
            })
            .transpose()?;
        Ok(Board {
            game: id,
            holes,
            side,
            stores,
            round,
            hand: 0,
        })
    }

    /// Seeds in hand (0 after a complete move).
    pub fn hand(&self) -> u32 {
        self.hand
    }

    /// Hole `n`'s seeds; `None` when closed or not a hole.
    pub fn hole(&self, n: u8) -> Option<u8> {
        self.holes.get(usize::from(n).wrapping_sub(1)).copied()?
    }

    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Stores or reserves, South first (`None` for games without them).
    pub fn stores(&self) -> Option<[u32; 2]> {
        self.stores
    }

    pub fn round(&self) -> Option<u32> {
        self.round
    }

    /// Replays `steps` in order; stops at the first that does not fit.
    pub fn apply_all(&mut self, steps: &[Step]) -> Result<(), ApplyError> {
        for (index, &step) in steps.iter().enumerate() {
            self.apply(step).map_err(|message| ApplyError {
                index,
                step,
                message,
            })?;
        }
        Ok(())
    }

    /// Replays one step.
    pub fn apply(&mut self, step: Step) -> Result<(), String> {
        match step {
            Step::Lap { .. } | Step::Pass | Step::RoundEnd { .. } => {}
            Step::Pick { hole, count } => {
                let seeds = self.open_hole(hole)?;
                if *seeds != count {
                    return Err(format!("hole {hole} holds {seeds}, not {count}"));
                }
                *seeds = 0;
                self.hand += u32::from(count);
            }
            Step::Sow { hole } => {
                if self.hand == 0 {
                    return Err("the hand is empty".into());
                }
                let seeds = self.open_hole(hole)?;
                *seeds = seeds
                    .checked_add(1)
                    .ok_or_else(|| format!("hole {hole} overflows"))?;
                self.hand -= 1;
            }
            Step::Store { side } => {
                if self.hand == 0 {
                    return Err("the hand is empty".into());
                }
                *self.store(side)? += 1;
                self.hand -= 1;
            }
            Step::Capture { from, count, to } => {
                let seeds = self.open_hole(from)?;
                if *seeds != count {
                    return Err(format!("hole {from} holds {seeds}, not {count}"));
                }
                *seeds = 0;
                let count = u32::from(count);
                match to {
                    Target::Store { side } | Target::Reserve { side } => {
                        *self.store(side)? += count;
                    }
                    Target::Hand => self.hand += count,
                    Target::Removed => {}
                }
            }
            Step::NewRound { round } => self.round = Some(round),
            Step::Refill {
                hole,
                count,
                reserve,
            } => {
                let store = self.store(reserve)?;
                *store = store
                    .checked_sub(u32::from(count))
                    .ok_or_else(|| format!("{reserve}'s reserve holds fewer than {count}"))?;
                let cell = self.cell(hole)?;
                if cell.unwrap_or(0) != 0 {
                    return Err(format!("hole {hole} is not empty"));
                }
                *cell = Some(count);
            }
            Step::Close { hole } => {
                let cell = self.cell(hole)?;
                if cell.unwrap_or(0) != 0 {
                    return Err(format!("hole {hole} is not empty"));
                }
                *cell = None;
            }
            Step::Turn { side } => self.side = side,
        }
        Ok(())
    }

    fn cell(&mut self, hole: u8) -> Result<&mut Option<u8>, String> {
        let count = self.holes.len();
        self.holes
            .get_mut(usize::from(hole).wrapping_sub(1))
            .ok_or_else(|| format!("no hole {hole} (holes are 1 to {count})"))
    }

    fn open_hole(&mut self, hole: u8) -> Result<&mut u8, String> {
        self.cell(hole)?
            .as_mut()
            .ok_or_else(|| format!("hole {hole} is closed"))
    }

    fn store(&mut self, side: Side) -> Result<&mut u32, String> {
        let game = self.game;
        self.stores
            .as_mut()
            .map(|s| &mut s[side.index()])
            .ok_or_else(|| format!("{game} has no stores or reserves"))
    }
}

impl fmt::Display for Board {
    /// The position string (the seeds in hand are not part of it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.game,
            format_holes(self.holes.iter().copied()),
            self.side.letter()
        )?;
        if let Some([south, north]) = self.stores {
            write!(f, " {south}/{north}")?;
        }
        if let Some(round) = self.round {
            write!(f, " {round}")?;
        }
        Ok(())
    }
}
