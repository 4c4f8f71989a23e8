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
//! | (no `move` yet, [`resend_every`] later) | `<id> state <board>` again, the same id |
//! | `quit` | `goodbye`, and the connection is closed |
//!
//! | KGP from the bot | UMI to the arbiter |
//! |---|---|
//! | `@<state> move k` | kept as the move so far (`info string kgp: …`) |
//! | `@<state> yield`, or the stop | `bestmove <hole of the last move>` |
//! | (no `move` by then) | `info string kgp: …; random move`, `bestmove <random legal hole>` |
//! | `set info:comment "…"` | `info string …` |
//!
//! The adapter decides nothing about the game but KGP's random move: the
//! bot's move is passed on in the project's notation and the arbiter checks
//! it, times it and gives the verdict as for any engine. Where KGP's server
//! "MUST make a random decision for the client" (the search ended and the bot
//! sent no move), the adapter picks a uniformly random legal move and says so
//! first (`info string kgp: no move before stop; random move`): the game
//! records it as `"kgp_random": true`.

use std::collections::VecDeque;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use tokio::time::Instant;

use mancala_rules::{game_from_position, new_game, AnyGame, GameId, MoveError, PositionError};
use umi::{Command as Umi, PositionBase};

use crate::remote::kgp::board::{BoardError, KgpBoard};
use crate::remote::kgp::budget::budget;
use crate::remote::kgp::ended::Ended;
use crate::remote::kgp::endpoint::GAMES;
use crate::remote::kgp::wire::{Arg, Command};

/// The note before a random move played because the search ended (the
/// budget, or the arbiter's `stop`) before the bot sent a move.
pub const RANDOM_AFTER_STOP: &str = "kgp: no move before stop; random move";
/// The same when the bot yielded without a move.
pub const RANDOM_AFTER_YIELD: &str = "kgp: yield without a move; random move";

/// The longest wait for the bot's first `move` before its `state` is sent
/// again (the same id: KGP clients ignore a state id they know).
pub const RESEND_AFTER: Duration = Duration::from_millis(250);
/// The shortest such wait.
pub const RESEND_AT_LEAST: Duration = Duration::from_millis(20);
/// The most times one `state` is sent again.
pub const MAX_RESENDS: u32 = 20;
/// The `state` ids remembered, to tell a move for an old state (ignored,
/// as KGP says) from one for a state never sent (an `error`).
const KEPT_STATES: usize = 64;

/// How long the adapter waits for a first `move` before it sends the
/// `state` again: a third of the move's budget, between [`RESEND_AT_LEAST`]
/// and [`RESEND_AFTER`] (the latter without a budget). Why: a client that
/// lost the line (a client reading and writing one buffered socket file
/// from two threads drops what it had read but not yet handled when it
/// writes) gets it again in time to answer before the `stop`.
pub fn resend_every(budget: Option<Duration>) -> Duration {
    budget.map_or(RESEND_AFTER, |b| {
        (b / 3).clamp(RESEND_AT_LEAST, RESEND_AFTER)
    })
}

/// Why a `position` is one the bot cannot be asked to play (the arbiter is
/// told with an `info string error`).
#[derive(Debug, thiserror::Error)]
pub enum Unplayable {
    #[error("position startpos before a newgame")]
    NoNewGame,
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("a KGP bot plays no {0}")]
    NotKalah(GameId),
    #[error("move {mv}: {source}")]
    Move { mv: String, source: MoveError },
    #[error("the game is over")]
    Over,
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// What the adapter wants done.
#[derive(Debug)]
pub enum Out {
    /// A command to the bot.
    Kgp(Command),
    /// A line to the arbiter that must arrive (an answer).
    Umi(String),
    /// A line to the arbiter for its traffic log only (`info string`);
    /// dropped rather than waited for when the arbiter is not reading.
    Note(String),
    /// End the connection, for this reason.
    Close(Ended),
}

/// What the bot said about itself before `mode`.
#[derive(Clone, Debug, Default)]
pub struct Identity {
    pub name: Option<String>,
    pub authors: Option<String>,
}

/// A position to search: its board from the mover's seat and its legal
/// moves (holes), for KGP's random move.
#[derive(Clone, Debug)]
struct Position {
    board: KgpBoard,
    legal: Vec<String>,
}

/// The search under way: one `state` request.
#[derive(Debug)]
struct Search {
    state_id: u64,
    position: Position,
    /// The bot's last `move`, as a hole number.
    last: Option<String>,
    /// Whether the bot said anything about this state (a move, even a
    /// refused one): then it is not sent again.
    heard: bool,
    /// When the adapter says `stop` (`None`: on the arbiter's `stop` or the
    /// bot's `yield` only).
    stop_at: Option<Instant>,
    /// When the `state` goes out again, while the bot has said nothing.
    resend_at: Instant,
    resend_every: Duration,
    resends: u32,
}

/// What a bot without `set info:name` is called after its account's name
/// (`alice (unnamed)`): a version of its own, apart from the account's
/// named builds.
pub const UNNAMED: &str = " (unnamed)";

pub struct Adapter {
    /// The remote id (the engine's name when the bot gave none).
    remote: String,
    identity: Identity,
    next_id: u64,
    game: Option<GameId>,
    games: u64,
    position: Option<Position>,
    search: Option<Search>,
    /// The latest `state` ids sent, oldest first.
    sent: VecDeque<u64>,
    /// KGP's random moves.
    rng: SmallRng,
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
            position: None,
            search: None,
            sent: VecDeque::new(),
            rng: SmallRng::from_os_rng(),
        }
    }

    /// The same, its random moves drawn from `seed` (for tests).
    pub fn seeded(remote: &str, identity: Identity, seed: u64) -> Adapter {
        let mut a = Adapter::new(remote, identity);
        a.rng = SmallRng::seed_from_u64(seed);
        a
    }

    /// The engine name the bot goes by: its `set info:name`, else the
    /// account's name and [`UNNAMED`].
    pub fn name(&self) -> String {
        self.identity
            .name
            .clone()
            .unwrap_or_else(|| format!("{}{UNNAMED}", self.remote))
    }

    /// Whether a `state` is out, unanswered (the connection sends no `ping`
    /// meanwhile: a client that writes `pong` while the `state` waits in
    /// its buffer may lose the `state`).
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// A fresh id for a command to the bot.
    pub fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 2;
        id
    }

    /// When the search under way is to be stopped, if it is.
    pub fn stop_at(&self) -> Option<Instant> {
        self.search.as_ref().and_then(|s| s.stop_at)
    }

    /// When [`Adapter::on_timer`] has something to do: the stop, or sending
    /// the `state` again.
    pub fn next_timer(&self) -> Option<Instant> {
        let s = self.search.as_ref()?;
        let resend = (!s.heard && s.resends < MAX_RESENDS).then_some(s.resend_at);
        match (s.stop_at, resend) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The time of [`Adapter::next_timer`] has come (`now`).
    pub fn on_timer(&mut self, now: Instant) -> Vec<Out> {
        let Some(s) = self.search.as_mut() else {
            return Vec::new();
        };
        if s.stop_at.is_some_and(|at| at <= now) {
            return self.on_time_up();
        }
        if s.heard || s.resends >= MAX_RESENDS || s.resend_at > now {
            return Vec::new();
        }
        s.resends += 1;
        s.resend_at = now + s.resend_every;
        let again = Command::new("state")
            .id(s.state_id)
            .arg(s.position.board.arg());
        vec![
            note(&format!(
                "kgp: no move yet; state {} sent again ({})",
                s.state_id, s.resends
            )),
            Out::Kgp(again),
        ]
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
                let name = self.name();
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
                self.position = None;
                self.games += 1;
                vec![Out::Kgp(
                    Command::new("set")
                        .arg(Arg::Word("game:id".into()))
                        .arg(Arg::Str(self.games.to_string())),
                )]
            }
            Umi::Position { base, moves } => {
                self.position = None;
                match self.position(&base, &moves) {
                    Ok(p) => {
                        self.position = Some(p);
                        Vec::new()
                    }
                    Err(e) => vec![umi_error(&e.to_string())],
                }
            }
            Umi::Go(go) => self.go(&go, now),
            Umi::Stop => self.stop(),
            // The connection says `goodbye` as it closes.
            Umi::Quit => vec![Out::Close(Ended::ByArbiter)],
            Umi::GameOver { .. } => {
                self.position = None;
                Vec::new()
            }
            Umi::PonderHit => Vec::new(),
            Umi::Perft { .. } | Umi::Board => {
                vec![umi_error("a KGP bot has no debug commands")]
            }
        }
    }

    fn position(&self, base: &PositionBase, moves: &[umi::Move]) -> Result<Position, Unplayable> {
        let mut game: Box<dyn AnyGame> = match base {
            PositionBase::StartPos => new_game(self.game.ok_or(Unplayable::NoNewGame)?),
            PositionBase::Pos(text) => game_from_position(text.as_str())?,
        };
        if !GAMES.contains(&game.game_id()) {
            return Err(Unplayable::NotKalah(game.game_id()));
        }
        for m in moves {
            game.play(m.as_str()).map_err(|source| Unplayable::Move {
                mv: m.to_string(),
                source,
            })?;
        }
        if game.outcome().is_some() {
            return Err(Unplayable::Over);
        }
        let board = KgpBoard::from_position(&game.position_string())?;
        Ok(Position {
            board,
            legal: game.legal_moves(),
        })
    }

    fn go(&mut self, go: &umi::Go, now: Instant) -> Vec<Out> {
        if self.search.is_some() {
            return vec![umi_error("go during a search")];
        }
        let Some(position) = self.position.clone() else {
            return vec![umi_error("go without a valid position")];
        };
        let board = &position.board;
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
        let budget = budget(go, board.mover);
        let every = resend_every(budget);
        self.sent.push_back(state_id);
        if self.sent.len() > KEPT_STATES {
            self.sent.pop_front();
        }
        self.search = Some(Search {
            state_id,
            position,
            last: None,
            heard: false,
            stop_at: budget.map(|b| now + b),
            resend_at: now + every,
            resend_every: every,
            resends: 0,
        });
        out
    }

    /// The search is over: the bot's last move, else KGP's random move
    /// (said first, `why`, for the logs and the game's record).
    fn conclude(&mut self, search: Search, why: &str) -> Vec<Out> {
        if let Some(hole) = search.last {
            return vec![Out::Umi(format!("bestmove {hole}"))];
        }
        match search.position.legal.choose(&mut self.rng) {
            // why an answer, not a note: the game reads it to mark the move.
            Some(hole) => vec![
                Out::Umi(info_string(why)),
                Out::Umi(format!("bestmove {hole}")),
            ],
            None => vec![Out::Umi("bestmove (none)".into())],
        }
    }

    /// The arbiter's `stop`: the search ends now, with the move so far.
    fn stop(&mut self) -> Vec<Out> {
        let Some(search) = self.search.take() else {
            return Vec::new();
        };
        let mut out = vec![self.kgp_stop(search.state_id)];
        out.extend(self.conclude(search, RANDOM_AFTER_STOP));
        out
    }

    fn kgp_stop(&mut self, state_id: u64) -> Out {
        let id = self.next_id();
        Out::Kgp(Command::new("stop").id(id).answering(Some(state_id)))
    }

    /// The budget of the search is spent (at `stop_at`).
    /// why the budget ends the search at once, with a random move when the
    /// bot sent none: KGP's server "MUST make a random decision for the
    /// client", and the budget keeps a reserve of the arbiter's clock
    /// ([`crate::remote::kgp::budget`]) for the move to land before the flag.
    pub fn on_time_up(&mut self) -> Vec<Out> {
        let Some(search) = self.search.take() else {
            return Vec::new();
        };
        let mut out = vec![self.kgp_stop(search.state_id)];
        out.extend(self.conclude(search, RANDOM_AFTER_STOP));
        out
    }

    /// One command from the bot (after `mode`; `ping`/`pong` are the
    /// connection's).
    pub fn on_kgp(&mut self, c: &Command) -> Vec<Out> {
        match c.name.as_str() {
            "move" => self.on_move(c),
            "yield" => self.on_yield(c),
            "set" => self.on_set(c),
            "ok" | "error" => vec![note(&format!("kgp: {c}"))],
            "goodbye" => vec![Out::Close(Ended::Goodbye)],
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

    /// An `error` for a command that refers to a `state` never sent on
    /// this connection (one for an old state is ignored, as KGP says).
    fn unknown_state(&self, c: &Command) -> Option<Out> {
        let r = c.reference?;
        // why the oldest kept: a reference older than every state kept may
        // be one that was sent long ago.
        let known = self.sent.contains(&r)
            || (self.sent.len() >= KEPT_STATES && self.sent.front().is_some_and(|&o| r < o));
        (!known).then(|| {
            Out::Kgp(Command::error(
                c.id,
                &format!("{} @{r}: no state {r} was sent on this connection", c.name),
            ))
        })
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
            return self.unknown_state(c).into_iter().collect();
        }
        let Some(search) = self.search.as_mut() else {
            return Vec::new();
        };
        search.heard = true;
        let hole = match search.position.board.hole_of(pit) {
            Ok(h) => h,
            Err(why) => return vec![Out::Kgp(Command::error(c.id, &why.to_string()))],
        };
        let out = vec![note(&format!("kgp: move {pit} (hole {hole})"))];
        search.last = Some(hole);
        out
    }

    fn on_yield(&mut self, c: &Command) -> Vec<Out> {
        if !self.answers(c) {
            return self.unknown_state(c).into_iter().collect();
        }
        let Some(search) = self.search.take() else {
            return Vec::new();
        };
        self.conclude(search, RANDOM_AFTER_YIELD)
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

    /// The legal holes of the start position, South to move.
    const START: [&str; 6] = ["1", "2", "3", "4", "5", "6"];

    fn bestmove(out: &[Out]) -> Option<String> {
        lines(out)
            .iter()
            .find_map(|l| l.strip_prefix("U: bestmove ").map(str::to_owned))
    }

    #[test]
    fn a_stop_without_a_move_plays_a_random_legal_move_said_as_such() {
        let now = Instant::now();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut a = Adapter::seeded("bob", Identity::default(), seed);
            ready(&mut a, now);
            a.on_umi("position startpos", now);
            a.on_umi("go movetime 200", now);
            let out = a.on_timer(now + Duration::from_millis(180));
            let l = lines(&out);
            assert_eq!(l[0], "K: 4@2 stop", "{l:?}");
            assert_eq!(
                l[1], "U: info string kgp: no move before stop; random move",
                "{l:?}"
            );
            let mv = bestmove(&out).unwrap();
            assert!(START.contains(&mv.as_str()), "{mv}");
            seen.insert(mv);
            assert_eq!(a.next_timer(), None, "the search is over");
            // The bot's late move is ignored, as KGP says.
            assert!(a.on_kgp(&kgp("@2 move 4")).is_empty());
        }
        // Uniform over six moves: 40 draws see most of them.
        assert!(seen.len() >= 4, "{seen:?}");
        // The arbiter's `stop` and a yield without a move: the same.
        let mut a = Adapter::seeded("bob", Identity::default(), 1);
        ready(&mut a, now);
        a.on_umi("position startpos moves 3", now);
        a.on_umi("go infinite", now);
        let out = lines(&a.on_umi("stop", now));
        assert!(out[1].ends_with("random move"), "{out:?}");
        a.on_umi("go infinite", now);
        let out = lines(&a.on_kgp(&kgp("@6 yield")));
        assert_eq!(
            out[0],
            "U: info string kgp: yield without a move; random move"
        );
        // Hole 3 is empty after `3`: never the random move.
        for seed in 0..30 {
            let mut a = Adapter::seeded("bob", Identity::default(), seed);
            ready(&mut a, now);
            a.on_umi("position startpos moves 3", now);
            a.on_umi("go movetime 100", now);
            let mv = bestmove(&a.on_time_up()).unwrap();
            assert!(["1", "2", "4", "5", "6"].contains(&mv.as_str()), "{mv}");
        }
    }

    #[test]
    fn an_unanswered_state_is_sent_again_with_its_id_until_a_move_comes() {
        let now = Instant::now();
        let mut a = Adapter::new("bob", Identity::default());
        ready(&mut a, now);
        a.on_umi("position startpos", now);
        // A budget of 2400 ms: every 250 ms.
        a.on_umi("go p1time 60000 p2time 60000", now);
        let first = now + RESEND_AFTER;
        assert_eq!(a.next_timer(), Some(first));
        assert!(a.on_timer(first - Duration::from_millis(1)).is_empty());
        let out = lines(&a.on_timer(first));
        assert_eq!(
            out.last().unwrap(),
            "K: 2 state <6,0,0,4,4,4,4,4,4,4,4,4,4,4,4>"
        );
        assert_eq!(a.next_timer(), Some(first + RESEND_AFTER));
        let out = lines(&a.on_timer(first + RESEND_AFTER));
        assert!(out.last().unwrap().starts_with("K: 2 state "), "{out:?}");
        // A move: no more resends; the timer is the stop.
        a.on_kgp(&kgp("@2 move 1"));
        assert_eq!(a.next_timer(), Some(now + Duration::from_millis(2400)));
        // A short budget resends at a third of it.
        assert_eq!(
            resend_every(Some(Duration::from_millis(90))),
            Duration::from_millis(30)
        );
        assert_eq!(
            resend_every(Some(Duration::from_millis(30))),
            RESEND_AT_LEAST
        );
        assert_eq!(resend_every(None), RESEND_AFTER);
    }

    #[test]
    fn a_move_for_a_state_never_sent_is_an_error_one_for_an_old_state_is_ignored() {
        let now = Instant::now();
        let mut a = Adapter::new("bob", Identity::default());
        ready(&mut a, now);
        assert_eq!(
            lines(&a.on_kgp(&kgp("1@8 move 1"))),
            [r#"K: @1 error "move @8: no state 8 was sent on this connection""#]
        );
        a.on_umi("position startpos", now);
        a.on_umi("go movetime 1000", now);
        a.on_kgp(&kgp("3@2 move 2"));
        assert_eq!(lines(&a.on_kgp(&kgp("5@2 yield"))), ["U: bestmove 2"]);
        // Duplicates of what came: ignored, nothing doubled.
        assert!(a.on_kgp(&kgp("3@2 move 2")).is_empty());
        assert!(a.on_kgp(&kgp("5@2 yield")).is_empty());
        a.on_umi("position startpos moves 2", now);
        a.on_umi("go movetime 1000", now);
        let out = lines(&a.on_kgp(&kgp("7@3 move 1")));
        assert!(out[0].contains("no state 3 was sent"), "{out:?}");
        let out = lines(&a.on_kgp(&kgp("9@12 yield")));
        assert!(out[0].contains("yield @12: no state 12"), "{out:?}");
        // The search goes on: the bot's own move still counts (North's
        // pit 6 is hole 12).
        a.on_kgp(&kgp("11@4 move 6"));
        assert_eq!(lines(&a.on_kgp(&kgp("13@4 yield"))), ["U: bestmove 12"]);
    }

    #[test]
    fn the_arbiter_s_stop_ends_the_search_with_the_bot_s_move() {
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
        assert!(a.on_umi("stop", now).is_empty(), "one answer");
    }

    #[test]
    fn a_bot_without_a_name_is_its_account_unnamed() {
        let now = Instant::now();
        let mut a = Adapter::new("alice", Identity::default());
        assert_eq!(
            lines(&a.on_umi("umi", now))[0],
            "U: id name alice (unnamed)"
        );
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
