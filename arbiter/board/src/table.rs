//! One game on the board page, as the authority: the rules library's record
//! decides legality and the end, the server's clocks decide time. Whoever
//! moves — a click, a typed move, an engine — goes through [`Table::play`].
//! No I/O here: the socket driver ([`arbiter_core::play`]) measures time and
//! talks to engines.

use std::fmt;
use std::time::Duration;

use mancala_rules::trace::Step;
use mancala_rules::{
    game_from_position, AnyGame, GameId, GameResult, MoveError, PositionError, Side,
};
use serde::Serialize;

use crate::board::{lay_out, move_hole, BoardView};
use crate::ending::in_words;
use arbiter_core::play::game::{go_command, position_command};
use arbiter_core::play::tc::{Clock, TimeControl};
use arbiter_core::records::log::{MoveRecord, Termination};

/// A finished game: result and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub result: GameResult,
    pub termination: Termination,
    /// The final totals, where the rules count seeds.
    pub scores: Option<[u32; 2]>,
}

/// Why a move was not played.
#[derive(Debug)]
pub enum PlayError {
    GameOver,
    NotYourTurn { side: Side },
    Illegal(MoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::NotYourTurn { side } => write!(f, "it is not {side}'s turn"),
            PlayError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// The game, its clocks and its end.
pub struct Table {
    game: Box<dyn AnyGame>,
    /// The current position string, written once per move (the page's
    /// board and the next move's trace need it).
    position: String,
    /// The `position` line for the side to move, grown by each move (not
    /// rebuilt from every move so far, as a long game would have it).
    position_line: String,
    clocks: [Clock; 2],
    moves: Vec<MoveRecord>,
    /// Who made each of `moves` (a Kalah extra turn is the same side twice).
    movers: Vec<&'static str>,
    /// The last move's steps, for the page to animate.
    last_trace: Option<LastTrace>,
    end: Option<Ended>,
    max_plies: Option<u32>,
}

/// A legal move and the hole it starts from (`None`: `pass`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub hole: Option<u32>,
    /// For a move that shares its hole with others (Kujifunza's direction
    /// and kichwa choices): what it does, for the page to show on the board
    /// while the choice is hovered or focused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<Preview>,
}

/// What a move does, read from its trace (the rules library's steps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preview {
    /// The first holes its first lap sows, in order (the direction).
    pub sows: Vec<u8>,
    /// Each kichwa the mover's choice sows captured seeds from, in order.
    pub kichwas: Vec<u8>,
}

/// How many sown holes of the first lap a preview shows.
const PREVIEW_SOWS: usize = 3;

impl Preview {
    fn of(steps: &[Step]) -> Preview {
        use mancala_rules::trace::LapKind;
        let mut sows = Vec::new();
        let mut kichwas = Vec::new();
        let mut lap = 0;
        for step in steps {
            match step {
                Step::Lap { number, kind } => {
                    lap = *number;
                    if let LapKind::Captured {
                        kichwa,
                        chosen: true,
                    } = kind
                    {
                        kichwas.push(*kichwa);
                    }
                }
                Step::Sow { hole } if lap <= 1 && sows.len() < PREVIEW_SOWS => sows.push(*hole),
                _ => {}
            }
        }
        Preview { sows, kichwas }
    }
}

impl LegalMove {
    /// The legal moves of `game` now, each with its starting hole (and a
    /// preview where a hole starts several).
    pub fn list(game: &dyn AnyGame) -> Vec<LegalMove> {
        let moves: Vec<LegalMove> = game
            .legal_moves()
            .into_iter()
            .map(|mv| LegalMove {
                hole: move_hole(&mv),
                mv,
                preview: None,
            })
            .collect();
        let shared = |m: &LegalMove| {
            m.hole.is_some() && moves.iter().filter(|o| o.hole == m.hole).count() > 1
        };
        if !moves.iter().any(shared) {
            return moves;
        }
        let position = game.position_string();
        let previews: Vec<Option<Preview>> = moves
            .iter()
            .map(|m| {
                shared(m)
                    .then(|| mancala_rules::trace_move(&position, &m.mv).ok())
                    .flatten()
                    .map(|t| Preview::of(&t.steps))
            })
            .collect();
        moves
            .into_iter()
            .zip(previews)
            .map(|(m, preview)| LegalMove { preview, ..m })
            .collect()
    }
}

/// The steps of the last move, from the rules library (the page replays
/// them to animate the move; it never works out a sowing itself).
#[derive(Clone, Debug, Serialize)]
pub struct LastTrace {
    /// The position string before the move.
    pub before: String,
    pub steps: Vec<Step>,
}

/// What the page is sent after a change: the game as it is now.
#[derive(Clone, Debug, Serialize)]
pub struct TableView<'a> {
    pub board: BoardView,
    pub legal: Vec<LegalMove>,
    /// Plies played so far.
    pub ply: usize,
    /// The moves since the state the page had before (ply `ply - moves.len()`),
    /// each with its time and what the engine said: the page appends them to
    /// its list. Only these are sent, so that an update costs the same at
    /// ply 5000 as at ply 1; usually one, several when states came faster
    /// than the page is sent them ([`arbiter_core::play`]).
    pub moves: &'a [MoveRecord],
    /// Who made each of `moves` (`south` / `north`), as the rules say: the
    /// page numbers its move list by it, as the PGN log does.
    pub movers: &'a [&'static str],
    /// The steps of the newest move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<&'a LastTrace>,
    /// `ongoing`, or the result (`1-0`, `0-1`, `1/2-1/2`).
    pub status: String,
    /// Why the game ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The end in words, with the final totals ([`crate::ending`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    /// Milliseconds left on each chess clock (South, North), as of now.
    pub clocks: [Option<u64>; 2],
    /// The side whose clock runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<&'static str>,
}

pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

impl Table {
    pub fn new(
        start: &str,
        tc: [TimeControl; 2],
        max_plies: Option<u32>,
    ) -> Result<Table, PositionError> {
        let game = game_from_position(start)?;
        let mut table = Table {
            position_line: position_command(game.game_id(), &game.start_string(), &[]),
            position: game.position_string(),
            game,
            clocks: tc.map(Clock::new),
            moves: Vec::new(),
            movers: Vec::new(),
            last_trace: None,
            end: None,
            max_plies,
        };
        table.settle();
        Ok(table)
    }

    /// Plies played so far.
    pub fn moves_played(&self) -> usize {
        self.moves.len()
    }

    pub fn game_id(&self) -> GameId {
        self.game.game_id()
    }

    pub fn ended(&self) -> Option<&Ended> {
        self.end.as_ref()
    }

    /// The side to move; `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        self.end.is_none().then(|| self.game.side_to_move())
    }

    /// The longest the side to move may take (margin included); `None`
    /// without a clock.
    pub fn deadline(&self) -> Option<Duration> {
        self.to_move()
            .and_then(|side| self.clocks[side.index()].deadline())
    }

    /// The protocol lines that ask the side to move for its move.
    pub fn engine_request(&self, side: Side) -> (String, String) {
        (self.position_line.clone(), go_command(&self.clocks, side))
    }

    /// Plays `text` for `side`, which took `elapsed` to choose it. A move
    /// past the flag ends the game on time instead (and is not played).
    pub fn play(
        &mut self,
        side: Side,
        text: &str,
        elapsed: Duration,
        engine_said: Option<(Option<arbiter_core::records::log::Score>, Option<u32>)>,
    ) -> Result<(), PlayError> {
        let mover = self.to_move().ok_or(PlayError::GameOver)?;
        if mover != side {
            return Err(PlayError::NotYourTurn { side });
        }
        let mut clock = self.clocks[side.index()];
        if let Err(flag) = clock.spend(elapsed) {
            self.forfeit(Termination::TimeForfeit {
                side,
                detail: flag.to_string(),
            });
            return Ok(());
        }
        let (mv, steps) = self.game.play_traced(text).map_err(PlayError::Illegal)?;
        let before = std::mem::replace(&mut self.position, self.game.position_string());
        self.last_trace = Some(LastTrace { before, steps });
        self.clocks[side.index()] = clock;
        let (score, depth) = engine_said.unwrap_or((None, None));
        self.position_line.push_str(if self.moves.is_empty() {
            " moves "
        } else {
            " "
        });
        self.position_line.push_str(&mv);
        self.movers.push(side_name(side));
        self.moves.push(MoveRecord {
            mv,
            time_ms: elapsed.as_millis() as u64,
            score,
            depth,
            lag_ms: None,
            comp_ms: None,
            kgp_random: false,
        });
        self.settle();
        Ok(())
    }

    /// The side to move ran out of time after `elapsed`.
    pub fn flag(&mut self, elapsed: Duration) {
        if let Some(side) = self.to_move() {
            let mut clock = self.clocks[side.index()];
            let detail = match clock.spend(elapsed) {
                Err(flag) => flag.to_string(),
                Ok(()) => format!("no move after {:.1} s", elapsed.as_secs_f64()),
            };
            self.forfeit(Termination::TimeForfeit { side, detail });
        }
    }

    /// Ends the game with a forfeit (or an interruption) by the arbiter.
    pub fn forfeit(&mut self, termination: Termination) {
        if self.end.is_some() {
            return;
        }
        let result = match termination.offender() {
            Some(side) => GameResult::win_for(side.opponent()),
            None => GameResult::Draw,
        };
        self.end = Some(Ended {
            result,
            termination,
            scores: None,
        });
    }

    /// Applies the rules' end and the ply limit after a change.
    fn settle(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.end = Some(Ended {
                result: outcome.result,
                termination: Termination::rules(outcome.reason),
                scores: outcome.scores,
            });
        } else if self.max_plies.is_some_and(|m| self.moves.len() as u32 >= m) {
            self.end = Some(Ended {
                result: GameResult::Draw,
                termination: Termination::Adjudication {
                    detail: format!("draw by the ply limit ({} plies)", self.moves.len()),
                },
                scores: None,
            });
        }
    }

    /// The view for a page that has seen the first `seen` plies,
    /// `running_for` after the side to move's turn began.
    pub fn view(&self, seen: usize, running_for: Duration) -> Result<TableView<'_>, PositionError> {
        let mover = self.to_move();
        let clocks = Side::BOTH.map(|side| {
            self.clocks[side.index()].remaining().map(|left| {
                let left = if mover == Some(side) {
                    left.saturating_sub(running_for)
                } else {
                    left
                };
                left.as_millis() as u64
            })
        });
        let legal = match mover {
            Some(_) => LegalMove::list(self.game.as_ref()),
            None => Vec::new(),
        };
        let board = lay_out(self.position.clone())?;
        let ending = self
            .end
            .as_ref()
            .map(|e| in_words(e.result, &e.termination, e.scores, &board));
        Ok(TableView {
            board,
            ending,
            legal,
            ply: self.moves.len(),
            moves: self.moves.get(seen..).unwrap_or_default(),
            movers: self.movers.get(seen..).unwrap_or_default(),
            trace: self.last_trace.as_ref(),
            status: self
                .end
                .as_ref()
                .map_or_else(|| "ongoing".to_owned(), |e| e.result.as_pgn().to_owned()),
            reason: self.end.as_ref().map(|e| e.termination.to_string()),
            clocks,
            running: mover.map(side_name),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::start_position;

    fn tc(s: &str) -> TimeControl {
        s.parse().expect("time control")
    }

    fn table(position: &str) -> Table {
        Table::new(position, [tc("inf"), tc("inf")], None).expect("valid")
    }

    /// A hole that starts several moves (Kujifunza) gets each move's
    /// preview from its trace; a hole with one move gets none.
    #[test]
    fn choices_of_one_hole_carry_what_each_does() {
        let game = game_from_position(&start_position(GameId::Kujifunza)).unwrap();
        let moves = LegalMove::list(game.as_ref());
        let from = |hole: u32| -> Vec<&LegalMove> {
            moves.iter().filter(|m| m.hole == Some(hole)).collect()
        };
        let shared = moves
            .iter()
            .filter_map(|m| m.hole)
            .find(|&h| from(h).len() > 1)
            .expect("the start has a hole with several moves");
        let choices = from(shared);
        for m in &choices {
            let p = m.preview.as_ref().expect("a preview for each choice");
            assert!(!p.sows.is_empty(), "{}: {p:?}", m.mv);
        }
        // Each choice does something else: another direction or kichwa.
        let distinct: std::collections::BTreeSet<(Vec<u8>, Vec<u8>)> = choices
            .iter()
            .map(|m| {
                let p = m.preview.as_ref().unwrap();
                (p.sows.clone(), p.kichwas.clone())
            })
            .collect();
        assert_eq!(distinct.len(), choices.len(), "{choices:?}");
        let bohnenspiel = game_from_position(&start_position(GameId::Bohnenspiel)).unwrap();
        assert!(LegalMove::list(bohnenspiel.as_ref())
            .iter()
            .all(|m| m.preview.is_none()));
    }

    #[test]
    fn moves_are_checked_by_the_rules_and_the_turn() {
        let mut t = table(&start_position(GameId::Bohnenspiel));
        assert!(matches!(
            t.play(Side::North, "7", Duration::ZERO, None),
            Err(PlayError::NotYourTurn { side: Side::North })
        ));
        assert!(matches!(
            t.play(Side::South, "7", Duration::ZERO, None),
            Err(PlayError::Illegal(_))
        ));
        t.play(Side::South, "3", Duration::from_millis(1500), None)
            .expect("legal");
        assert_eq!(t.to_move(), Some(Side::North));
        let v = t.view(0, Duration::ZERO).expect("view");
        assert_eq!(v.ply, 1);
        let [last] = v.moves else {
            panic!("one move since the start: {:?}", v.moves)
        };
        assert_eq!((last.mv.as_str(), last.time_ms), ("3", 1500));
        let trace = v.trace.expect("the move's steps");
        assert_eq!(trace.before, start_position(GameId::Bohnenspiel));
        assert!(trace.steps.contains(&Step::Pick { hole: 3, count: 6 }));
        assert_eq!(
            trace
                .steps
                .iter()
                .filter(|s| matches!(s, Step::Sow { .. }))
                .count(),
            6
        );
        assert_eq!(v.status, "ongoing");
        assert!(v
            .legal
            .iter()
            .all(|l| l.hole.is_some_and(|h| (7..=12).contains(&h))));
    }

    #[test]
    fn a_view_carries_the_moves_the_page_has_not_seen() {
        let mut t = table(&start_position(GameId::Bohnenspiel));
        for (side, mv) in [(Side::South, "3"), (Side::North, "8"), (Side::South, "4")] {
            t.play(side, mv, Duration::ZERO, None).expect("legal");
        }
        let names = |seen| -> Vec<String> {
            let v = t.view(seen, Duration::ZERO).expect("view");
            assert_eq!(v.ply, 3);
            v.moves.iter().map(|m| m.mv.clone()).collect()
        };
        assert_eq!(names(0), ["3", "8", "4"]);
        assert_eq!(names(2), ["4"]);
        assert!(names(3).is_empty());
        // A page that claims more than was played gets no moves, not a panic.
        assert!(names(9).is_empty());
        // The trace is the newest move's, whatever the page has seen.
        let v = t.view(1, Duration::ZERO).expect("view");
        let before = v.trace.map(|tr| tr.before.clone());
        assert_eq!(before, Some(position_before_last(&t)));
    }

    #[test]
    fn a_view_names_the_mover_of_each_move_it_carries() {
        // Kalah: 3 ends in South's store, so South moves again.
        let mut t = table(&start_position(GameId::Kalah));
        for (side, mv) in [(Side::South, "3"), (Side::South, "1"), (Side::North, "9")] {
            t.play(side, mv, Duration::ZERO, None).expect("legal");
        }
        let v = t.view(0, Duration::ZERO).expect("view");
        assert_eq!(v.movers, ["south", "south", "north"]);
        assert_eq!(v.movers.len(), v.moves.len());
        let v = t.view(2, Duration::ZERO).expect("view");
        assert_eq!(v.movers, ["north"]);
        assert!(t.view(9, Duration::ZERO).expect("view").movers.is_empty());
    }

    /// The position string before the newest move, by the rules' own replay.
    fn position_before_last(t: &Table) -> String {
        let mut g = game_from_position(&t.game.start_string()).expect("start");
        let moves = t.game.moves();
        for mv in &moves[..moves.len() - 1] {
            g.play(mv).expect("legal");
        }
        g.position_string()
    }

    #[test]
    fn the_rules_end_the_game_with_their_reason() {
        // South sows its last bean to 7, North sows it on to 8: South has
        // no bean left and the game is over.
        let mut t = table("bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 40/31");
        t.play(Side::South, "6", Duration::ZERO, None)
            .expect("legal");
        t.play(Side::North, "7", Duration::ZERO, None)
            .expect("legal");
        let v = t.view(0, Duration::ZERO).expect("view");
        assert_ne!(v.status, "ongoing");
        assert!(v.reason.is_some());
        assert!(v.legal.is_empty());
        assert!(matches!(
            t.play(Side::South, "1", Duration::ZERO, None),
            Err(PlayError::GameOver)
        ));
    }

    #[test]
    fn the_server_clock_runs_and_flags() {
        let mut t = Table::new(
            &start_position(GameId::Bosh),
            [tc("10+1"), tc("10+1")],
            None,
        )
        .expect("valid");
        assert_eq!(
            t.view(0, Duration::from_secs(4)).expect("view").clocks,
            [Some(6000), Some(10000)]
        );
        t.play(Side::South, "1", Duration::from_secs(4), None)
            .expect("legal");
        assert_eq!(
            t.view(0, Duration::ZERO).expect("view").clocks,
            [Some(7000), Some(10000)]
        );
        t.play(Side::North, "6", Duration::from_secs(11), None)
            .expect("over the flag");
        let end = t.ended().expect("flagged");
        assert_eq!(end.result, GameResult::SouthWins);
        assert_eq!(end.termination.kind(), "time_forfeit");
        assert_eq!(t.game.moves().len(), 1, "the late move is not played");
    }

    #[test]
    fn a_flag_without_a_move_and_the_ply_limit_end_the_game() {
        let mut t = Table::new(&start_position(GameId::Kujifunza), [tc("5"), tc("5")], None)
            .expect("valid");
        t.flag(Duration::from_secs(6));
        assert_eq!(t.ended().map(|e| e.result), Some(GameResult::NorthWins));

        let mut t = Table::new(
            &start_position(GameId::Bohnenspiel),
            [tc("inf"), tc("inf")],
            Some(1),
        )
        .expect("valid");
        t.play(Side::South, "1", Duration::ZERO, None)
            .expect("legal");
        assert_eq!(
            t.ended().map(|e| e.termination.kind()),
            Some("adjudication")
        );
    }

    #[test]
    fn engine_requests_follow_the_protocol() {
        let mut t = table(&start_position(GameId::Bohnenspiel));
        t.play(Side::South, "3", Duration::ZERO, None)
            .expect("legal");
        let (position, go) = t.engine_request(Side::North);
        assert_eq!(position, "position startpos moves 3");
        t.play(Side::North, "8", Duration::ZERO, None)
            .expect("legal");
        assert_eq!(
            t.engine_request(Side::South).0,
            position_command(t.game_id(), &t.game.start_string(), &t.game.moves())
        );
        assert_eq!(go, "go infinite");
        let t = table("bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2");
        assert_eq!(
            t.engine_request(Side::South).0,
            "position pos bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2"
        );
    }
}
