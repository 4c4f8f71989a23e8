//! The KGP adapter: a KGP bot dressed as a UMI engine. The arbiter's session
//! code sends it UMI lines and reads UMI lines back, exactly as from any
//! remote engine; the adapter answers the handshake itself and turns a
//! search into KGP:
//!
//! | UMI from the arbiter | KGP to the bot |
//! |---|---|
//! | `umi` | (answered here: `id name`, `games kalah kalah-6x6`, `umiok`) |
//! | `isready` | (answered here: `readyok`) |
//! | `newgame kalah` | `set game:id "<n>"` |
//! | `position …` | (kept: the board, computed by the rules library) |
//! | `go p1time … p2time …` | `set time:…` hints, then `<id> state <board>` |
//! | `stop`, or the move's budget is spent | `<id>@<state> stop` |
//! | `quit` | `goodbye`, and the connection is closed |
//!
//! | KGP from the bot | UMI to the arbiter |
//! |---|---|
//! | `@<state> move k` | kept as the move so far (`info string kgp: …`) |
//! | `@<state> yield`, or the stop | `bestmove <hole of the last move>` |
//! | `set info:comment "…"` | `info string …` |
//!
//! The adapter decides nothing about the game: the bot's move is passed on
//! in the project's notation and the arbiter checks it, times it and gives
//! the verdict as for any engine.

use tokio::time::Instant;

use mancala_rules::{game_from_position, new_game, AnyGame, GameId};
use umi::{Command as Umi, PositionBase};

use crate::remote::kgp::board::KgpBoard;
use crate::remote::kgp::budget::budget;
use crate::remote::kgp::wire::{Arg, Command};
use crate::remote::kgp::GAMES;

/// What the adapter wants done.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    /// A command to the bot.
    Kgp(Command),
    /// A line to the arbiter that must arrive (an answer).
    Umi(String),
    /// A line to the arbiter for its traffic log only (`info string`);
    /// dropped rather than waited for when the arbiter is not reading.
    Note(String),
    /// End the connection, for this reason.
    Close(String),
}

/// What the bot said about itself before `mode`.
#[derive(Clone, Debug, Default)]
pub struct Identity {
    pub name: Option<String>,
    pub authors: Option<String>,
}

/// The search under way: one `state` request.
#[derive(Debug)]
struct Search {
    state_id: u64,
    board: KgpBoard,
    /// The bot's last `move`, as a hole number.
    last: Option<String>,
    /// When the adapter says `stop` (`None`: on the arbiter's `stop` or the
    /// bot's `yield` only).
    stop_at: Option<Instant>,
    /// `stop` was sent without a move in hand: the first move still in
    /// time is played.
    stopped: bool,
}

pub struct Adapter {
    /// The remote id (the engine's name when the bot gave none).
    remote: String,
    identity: Identity,
    next_id: u64,
    game: Option<GameId>,
    games: u64,
    board: Option<KgpBoard>,
    search: Option<Search>,
}

fn note(text: &str) -> Out {
    Out::Note(info_string(text))
}

fn info_string(text: &str) -> String {
    format!("info string {}", one_line(text))
}

fn umi_error(what: &str) -> Out {
    Out::Umi(umi::Message::error(what).to_string())
}

impl Adapter {
    pub fn new(remote: &str, identity: Identity) -> Adapter {
        Adapter {
            remote: remote.to_owned(),
            identity,
            // why even ids: the reference client numbers its own commands
            // with odd ones, so the two never collide in a transcript.
            next_id: 2,
            game: None,
            games: 0,
            board: None,
            search: None,
        }
    }

    /// A fresh id for a command to the bot.
    pub fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 2;
        id
    }

    /// When the search under way is to be stopped, if it is.
    pub fn stop_at(&self) -> Option<Instant> {
        self.search
            .as_ref()
            .filter(|s| !s.stopped)
            .and_then(|s| s.stop_at)
    }

    /// One line from the arbiter.
    pub fn on_umi(&mut self, line: &str, now: Instant) -> Vec<Out> {
        let command = match Umi::parse(line) {
            Ok(c) => c,
            Err(e) if e.is_ignorable() => return Vec::new(),
            Err(e) => return vec![umi_error(&e.to_string())],
        };
        match command {
            Umi::Umi => {
                let name = self
                    .identity
                    .name
                    .clone()
                    .unwrap_or_else(|| self.remote.clone());
                let mut out = vec![Out::Umi(format!("id name {}", one_line(&name)))];
                if let Some(a) = &self.identity.authors {
                    out.push(Out::Umi(format!("id author {}", one_line(a))));
                }
                let games: Vec<&str> = GAMES.iter().map(|g| g.as_str()).collect();
                out.push(Out::Umi(format!("games {}", games.join(" "))));
                out.push(Out::Umi("umiok".into()));
                out
            }
            Umi::IsReady => vec![Out::Umi("readyok".into())],
            Umi::SetOption(o) => vec![umi_error(&format!(
                "a KGP bot has no options ({})",
                o.name.as_str()
            ))],
            Umi::NewGame(id) => {
                if !GAMES.contains(&id) {
                    self.game = None;
                    return vec![umi_error(&format!("a KGP bot plays no {id}"))];
                }
                self.game = Some(id);
                self.board = None;
                self.games += 1;
                vec![Out::Kgp(
                    Command::new("set")
                        .arg(Arg::Word("game:id".into()))
                        .arg(Arg::Str(self.games.to_string())),
                )]
            }
            Umi::Position { base, moves } => {
                self.board = None;
                match self.position(&base, &moves) {
                    Ok(b) => {
                        self.board = Some(b);
                        Vec::new()
                    }
                    Err(e) => vec![umi_error(&e)],
                }
            }
            Umi::Go(go) => self.go(&go, now),
            Umi::Stop => self.stop(),
            // The connection says `goodbye` as it closes.
            Umi::Quit => vec![Out::Close("closed by the arbiter".into())],
            Umi::GameOver { .. } => {
                self.board = None;
                Vec::new()
            }
            Umi::PonderHit => Vec::new(),
            Umi::Perft { .. } | Umi::Board => {
                vec![umi_error("a KGP bot has no debug commands")]
            }
        }
    }

    fn position(&self, base: &PositionBase, moves: &[umi::Move]) -> Result<KgpBoard, String> {
        let mut game: Box<dyn AnyGame> = match base {
            PositionBase::StartPos => {
                new_game(self.game.ok_or("position startpos before a newgame")?)
            }
            PositionBase::Pos(text) => {
                game_from_position(text.as_str()).map_err(|e| e.to_string())?
            }
        };
        if !GAMES.contains(&game.game_id()) {
            return Err(format!("a KGP bot plays no {}", game.game_id()));
        }
        for m in moves {
            game.play(m.as_str())
                .map_err(|e| format!("move {m}: {e}"))?;
        }
        if game.outcome().is_some() {
            return Err("the game is over".into());
        }
        KgpBoard::from_position(&game.position_string()).map_err(|e| e.to_string())
    }

    fn go(&mut self, go: &umi::Go, now: Instant) -> Vec<Out> {
        if self.search.is_some() {
            return vec![umi_error("go during a search")];
        }
        let Some(board) = self.board.clone() else {
            return vec![umi_error("go without a valid position")];
        };
        let mut out = Vec::new();
        let set = |key: &str, value: Arg| {
            Out::Kgp(Command::new("set").arg(Arg::Word(key.into())).arg(value))
        };
        // why rounded up: `time:clock 0` would read as no time at all.
        let secs = |ms: u64| Arg::Int(ms.div_ceil(1000) as i64);
        if let Some(ms) = go.movetime {
            out.push(set("time:mode", Arg::Word("relative".into())));
            out.push(set("time:clock", secs(ms)));
        } else if let Some(mine) = go.time(board.mover) {
            out.push(set("time:mode", Arg::Word("absolute".into())));
            out.push(set("time:clock", secs(mine)));
            if let Some(theirs) = go.time(board.mover.opponent()) {
                out.push(set("time:opclock", secs(theirs)));
            }
        }
        let state_id = self.next_id();
        out.push(Out::Kgp(
            Command::new("state").id(state_id).arg(board.arg()),
        ));
        let stop_at = budget(go, board.mover).map(|b| now + b);
        self.search = Some(Search {
            state_id,
            board,
            last: None,
            stop_at,
            stopped: false,
        });
        out
    }

    /// The arbiter's `stop`: the search ends now, with the move so far.
    fn stop(&mut self) -> Vec<Out> {
        let Some(search) = self.search.take() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if !search.stopped {
            out.push(self.kgp_stop(search.state_id));
        }
        match search.last {
            Some(hole) => out.push(Out::Umi(format!("bestmove {hole}"))),
            None => {
                out.push(note("kgp: stopped before the bot sent a move"));
                out.push(Out::Umi("bestmove (none)".into()));
            }
        }
        out
    }

    fn kgp_stop(&mut self, state_id: u64) -> Out {
        let id = self.next_id();
        Out::Kgp(Command::new("stop").id(id).answering(Some(state_id)))
    }

    /// The budget of the search is spent (at `stop_at`).
    pub fn on_time_up(&mut self) -> Vec<Out> {
        let Some(search) = self.search.as_mut() else {
            return Vec::new();
        };
        if search.stopped {
            return Vec::new();
        }
        search.stopped = true;
        let state_id = search.state_id;
        let stop = self.kgp_stop(state_id);
        let Some(search) = self.search.take_if(|s| s.last.is_some()) else {
            // why not a random move, as KGP's servers make: the arbiter
            // never moves for an engine. The bot's clock still runs; a
            // move that comes before it falls is played, none loses on time.
            return vec![
                stop,
                note("kgp: stop sent before any move; the first move in time is played"),
            ];
        };
        let hole = search.last.unwrap_or_default();
        vec![stop, Out::Umi(format!("bestmove {hole}"))]
    }

    /// One command from the bot (after `mode`; `ping`/`pong` are the
    /// connection's).
    pub fn on_kgp(&mut self, c: &Command) -> Vec<Out> {
        match c.name.as_str() {
            "move" => self.on_move(c),
            "yield" => self.on_yield(c),
            "set" => self.on_set(c),
            "ok" | "error" => vec![note(&format!("kgp: {c}"))],
            "goodbye" => vec![Out::Close("the bot said goodbye".into())],
            "mode" => vec![Out::Kgp(Command::error(c.id, "mode is already freeplay"))],
            other => vec![Out::Kgp(Command::error(
                c.id,
                &format!("unknown command {other:?} (a freeplay client sends move, yield, set, pong, goodbye)"),
            ))],
        }
    }

    /// Whether `c` answers the search under way (a command without a
    /// reference is taken to: KGP only says references SHOULD be used).
    fn answers(&self, c: &Command) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| c.reference.is_none_or(|r| r == s.state_id))
    }

    fn on_move(&mut self, c: &Command) -> Vec<Out> {
        let pit = match c.args.as_slice() {
            [Arg::Int(k)] => *k,
            _ => {
                return vec![Out::Kgp(Command::error(
                    c.id,
                    "move takes one integer, the pit from 1",
                ))]
            }
        };
        // why silently: KGP says a move after `stop` (or for a request
        // no longer running) is ignored.
        if !self.answers(c) {
            return Vec::new();
        }
        let Some(search) = self.search.as_mut() else {
            return Vec::new();
        };
        let hole = match search.board.hole_of(pit) {
            Ok(h) => h,
            Err(why) => return vec![Out::Kgp(Command::error(c.id, &why))],
        };
        let mut out = vec![note(&format!("kgp: move {pit} (hole {hole})"))];
        if search.stopped {
            self.search = None;
            out.push(Out::Umi(format!("bestmove {hole}")));
        } else {
            search.last = Some(hole);
        }
        out
    }

    fn on_yield(&mut self, c: &Command) -> Vec<Out> {
        if !self.answers(c) {
            return Vec::new();
        }
        let Some(search) = self.search.take() else {
            return Vec::new();
        };
        match search.last {
            Some(hole) => vec![Out::Umi(format!("bestmove {hole}"))],
            None => vec![
                note("kgp: the bot yielded without a move"),
                Out::Umi("bestmove (none)".into()),
            ],
        }
    }

    fn on_set(&mut self, c: &Command) -> Vec<Out> {
        match c.args.as_slice() {
            [key, value] if key.text() == Some("info:comment") => match value.text() {
                Some(t) => vec![note(&format!("kgp: {t}"))],
                None => Vec::new(),
            },
            [key, _] if key.text().is_some() => Vec::new(),
            // why no error for unknown options: KGP forbids ending a
            // connection over one, and a bot may send what it likes.
            _ => vec![Out::Kgp(Command::error(
                c.id,
                "set takes an option and a value",
            ))],
        }
    }
}

/// `text` as one UMI text field: no control characters, single spaces,
/// never empty (a bot may send anything as its name or comment).
fn one_line(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let joined = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.is_empty() {
        "-".into()
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn kgp(line: &str) -> Command {
        Command::parse(line).unwrap()
    }

    fn lines(out: &[Out]) -> Vec<String> {
        out.iter()
            .map(|o| match o {
                Out::Kgp(c) => format!("K: {c}"),
                Out::Umi(l) => format!("U: {l}"),
                Out::Note(l) => format!("N: {l}"),
                Out::Close(r) => format!("X: {r}"),
            })
            .collect()
    }

    fn ready(a: &mut Adapter, now: Instant) {
        a.on_umi("umi", now);
        a.on_umi("newgame kalah", now);
    }

    #[test]
    fn answers_the_handshake_and_asks_for_north_s_move_from_its_seat() {
        let now = Instant::now();
        let mut a = Adapter::new(
            "bob",
            Identity {
                name: Some("Minimax".into()),
                authors: Some("A, B".into()),
            },
        );
        assert_eq!(
            lines(&a.on_umi("umi", now)),
            [
                "U: id name Minimax",
                "U: id author A, B",
                "U: games kalah kalah-6x6",
                "U: umiok"
            ]
        );
        assert_eq!(lines(&a.on_umi("isready", now)), ["U: readyok"]);
        assert_eq!(
            lines(&a.on_umi("newgame kalah", now)),
            [r#"K: set game:id "1""#]
        );
        assert!(a.on_umi("position startpos moves 3", now).is_empty());
        let out = a.on_umi("go p1time 60000 p2time 30000 p1inc 0 p2inc 0", now);
        assert_eq!(
            lines(&out),
            [
                "K: set time:mode absolute",
                "K: set time:clock 60",
                "K: set time:opclock 30",
                // South sowed hole 3's 4 seeds into 4, 5, 6 and its store:
                // South moves again, so it is South's turn.
                "K: 2 state <6,1,0,4,4,0,5,5,5,4,4,4,4,4,4>",
            ]
        );
        assert_eq!(a.stop_at(), Some(now + Duration::from_millis(2400)));
        // A move, then a better one; yield plays the last.
        assert_eq!(
            lines(&a.on_kgp(&kgp("1@2 move 2"))),
            ["N: info string kgp: move 2 (hole 2)"]
        );
        a.on_kgp(&kgp("3@2 move 6"));
        assert_eq!(lines(&a.on_kgp(&kgp("5@2 yield"))), ["U: bestmove 6"]);
        assert_eq!(a.stop_at(), None);
        // A late move for that request is ignored.
        assert!(a.on_kgp(&kgp("7@2 move 1")).is_empty());

        // North to move: `move 1` is hole 7.
        a.on_umi("position startpos moves 3 6", now);
        a.on_umi("go movetime 500", now);
        let out = a.on_kgp(&kgp("@4 move 1"));
        assert_eq!(lines(&out), ["N: info string kgp: move 1 (hole 7)"]);
        assert_eq!(lines(&a.on_time_up()), ["K: 6@4 stop", "U: bestmove 7"]);
    }

    #[test]
    fn a_stop_without_a_move_takes_the_first_move_that_comes() {
        let now = Instant::now();
        let mut a = Adapter::new("bob", Identity::default());
        ready(&mut a, now);
        a.on_umi("position startpos", now);
        a.on_umi("go movetime 200", now);
        let out = a.on_time_up();
        assert_eq!(lines(&out)[0], "K: 4@2 stop");
        assert!(!lines(&out).iter().any(|l| l.contains("bestmove")));
        assert_eq!(a.stop_at(), None, "stopped once");
        assert!(a.on_time_up().is_empty());
        let out = a.on_kgp(&kgp("@2 move 4"));
        assert_eq!(lines(&out)[1], "U: bestmove 4");
    }

    #[test]
    fn the_arbiter_s_stop_ends_the_search_with_or_without_a_move() {
        let now = Instant::now();
        let mut a = Adapter::new("bob", Identity::default());
        ready(&mut a, now);
        a.on_umi("position startpos", now);
        a.on_umi("go infinite", now);
        assert_eq!(a.stop_at(), None);
        a.on_kgp(&kgp("move 5"));
        assert_eq!(
            lines(&a.on_umi("stop", now)),
            ["K: 4@2 stop", "U: bestmove 5"]
        );
        a.on_umi("go depth 3", now);
        let out = lines(&a.on_umi("stop", now));
        assert_eq!(out.last().unwrap(), "U: bestmove (none)");
        // A yield without a move is `bestmove (none)` too: a forfeit.
        a.on_umi("go depth 3", now);
        let out = lines(&a.on_kgp(&kgp("yield")));
        assert_eq!(out.last().unwrap(), "U: bestmove (none)");
    }

    #[test]
    fn an_empty_pit_is_passed_on_for_the_arbiter_to_judge_a_pit_off_the_board_is_refused() {
        let now = Instant::now();
        let mut a = Adapter::new("bob", Identity::default());
        ready(&mut a, now);
        a.on_umi("position startpos moves 3", now);
        a.on_umi("go movetime 1000", now);
        // Hole 3 is empty now; the adapter does not judge.
        a.on_kgp(&kgp("@2 move 3"));
        assert_eq!(lines(&a.on_kgp(&kgp("@2 yield"))), ["U: bestmove 3"]);
        a.on_umi("go movetime 1000", now);
        assert_eq!(
            lines(&a.on_kgp(&kgp("9@4 move 7"))),
            [r#"K: @9 error "move 7: a pit is numbered 1 to 6""#]
        );
        assert_eq!(
            lines(&a.on_kgp(&kgp("11@4 move three"))),
            [r#"K: @11 error "move takes one integer, the pit from 1""#]
        );
        assert!(lines(&a.on_kgp(&kgp("13 dance")))
            .first()
            .unwrap()
            .contains("unknown command"));
        assert!(lines(&a.on_kgp(&kgp("15 set")))
            .first()
            .unwrap()
            .contains("set takes"));
        assert!(a.on_kgp(&kgp(r#"set foo:bar "x""#)).is_empty());
    }

    #[test]
    fn games_other_than_kalah_and_bad_positions_are_refused() {
        let now = Instant::now();
        let mut a = Adapter::new("bob", Identity::default());
        let out = lines(&a.on_umi("newgame oware", now));
        assert!(
            out[0].contains("error: a KGP bot plays no oware"),
            "{out:?}"
        );
        let out = lines(&a.on_umi("position startpos", now));
        assert!(out[0].contains("before a newgame"), "{out:?}");
        let out = lines(&a.on_umi("go movetime 10", now));
        assert!(out[0].contains("without a valid position"), "{out:?}");
        a.on_umi("newgame kalah", now);
        let out = lines(&a.on_umi("position startpos moves 9", now));
        assert!(out[0].contains("move 9"), "{out:?}");
        let out = lines(&a.on_umi("setoption name Hash value 1", now));
        assert!(out[0].contains("no options"), "{out:?}");
        assert_eq!(lines(&a.on_umi("quit", now)), ["X: closed by the arbiter"]);
    }
}
