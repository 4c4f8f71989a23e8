//! `arbiter check`: a conformance check of one engine against the protocol,
//! for an engine author to run before entering an event (like fastchess's
//! `--compliance`). Each check prints one line, `PASS <name>` (with a note in
//! parentheses) or `FAIL <name>: <reason>`; the command fails if any check
//! does.
//!
//! The checks, in order: `handshake` (`umiok` in time), `id-name`, `games`
//! (at least one known game id), `options` (when `option.X=` is given),
//! `isready`, `isready-while-searching` (`go infinite`, then `isready` is
//! answered before any `bestmove`), `stop` (a legal `bestmove` soon after
//! `stop`; the latency is reported), `positions:<game>` for each known game
//! listed (the start and a few mid-game positions reached by seeded random
//! moves, each sent as `position startpos moves …` and as `position pos
//! <string>`), `hemprich-pass` (`bestmove pass` where the side to move has
//! no move, when the engine plays a game whose rules pass, [`GameId::passes`]:
//! `bohnenspiel-hemprich`), one `go-<field>`
//! per time field of `go`, `go-plain` (plain
//! `go`: a legal `bestmove`, early or after `stop`), `go-ponder` (no
//! `bestmove` before `ponderhit`, a legal one after it), `gameover` (then
//! `isready` answered), `d` (ends with the right `pos` line), `go-perft`
//! (`go perft 2` from the start, line by line as the rules library counts),
//! `one-bestmove-per-go` (after an answer and a pause, `isready` gets
//! `readyok` with no second `bestmove` before it), `malformed-position`
//! (`bestmove (none)` after a position the rules reject, spec section 9),
//! `error-messages` (an `info string error` line for each of a few malformed
//! known commands), `malformed-input` (junk lines, then `isready` still
//! answered) and `quit`.
//!
//! An engine left in an unknown state by a failed check (a search that never
//! ended) is killed and restarted before the next check. Start-up has its own
//! limit (`--startup-timeout`: umiok, and the first readyok of each process,
//! for engines that start slowly, e.g. on a JVM); every later `isready` has the
//! per-command one (`--ready-timeout`). A restart that fails is tried once:
//! the checks after it are reported as not run, instead of each waiting for
//! another slow start.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mancala_rules::{game_from_position, new_game, AnyGame, GameId};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::time::Instant;

use crate::contender::config::DEFAULT_TIME_MARGIN;
use crate::contender::process::{Exit, LaunchSpec, TrafficLog};
use crate::contender::session::{Fault, Session};

/// Limits the checks apply.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Start-up: `umiok`, and the first `readyok` of a fresh process.
    pub handshake: Duration,
    pub ready: Duration,
    pub stop: Duration,
    /// Lateness tolerated over a timed search's limit: the engine's
    /// `timemargin=` (the arbiter's flag margin), 50 ms unless set.
    pub margin: Duration,
    /// Extra time over an untimed search's limit before it counts as unanswered.
    pub grace: Duration,
    /// For `go depth`/`go nodes`, which set no time.
    pub unclocked: Duration,
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            handshake: Duration::from_secs(30),
            ready: Duration::from_secs(10),
            stop: Duration::from_secs(1),
            margin: DEFAULT_TIME_MARGIN,
            grace: Duration::from_millis(500),
            unclocked: Duration::from_secs(2),
            seed: 1,
        }
    }
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckLine {
    pub name: String,
    /// `Ok(note)` or `Err(reason)`.
    pub outcome: Result<String, String>,
}

impl CheckLine {
    pub fn passed(&self) -> bool {
        self.outcome.is_ok()
    }
}

impl fmt::Display for CheckLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Ok(note) if note.is_empty() => write!(f, "PASS {}", self.name),
            Ok(note) => write!(f, "PASS {} ({note})", self.name),
            Err(reason) => write!(f, "FAIL {}: {reason}", self.name),
        }
    }
}

/// Search limit of the position checks.
const POSITION_MOVETIME_MS: u64 = 100;
/// Plies of random play before each mid-game position.
const MID_GAME_PLIES: [usize; 3] = [5, 12, 25];
/// How long plain `go` searches before the check sends `stop`.
const PLAIN_GO_WAIT: Duration = Duration::from_millis(200);
/// Depth of the `go-perft` check.
const PERFT_DEPTH: u32 = 2;
/// How long `one-bestmove-per-go` waits for a second answer.
const SECOND_ANSWER_WAIT: Duration = Duration::from_millis(500);
/// Clock of the `go` field checks, milliseconds.
const CLOCK_MS: u64 = 500;

/// Runs every check on the engine `spec` describes (with `options` set after
/// the handshake), handing each line to `report` as it is decided. Returns
/// whether all passed.
pub async fn run(
    spec: &LaunchSpec,
    options: &[(String, String)],
    limits: Limits,
    traffic: Option<Arc<dyn TrafficLog>>,
    report: impl FnMut(&CheckLine),
) -> bool {
    let mut c = Checker {
        spec: spec.clone(),
        options: options.to_vec(),
        limits,
        traffic,
        session: None,
        fresh: false,
        restart_failed: None,
        report,
        all_passed: true,
    };
    c.run().await;
    c.all_passed
}

struct Checker<F> {
    spec: LaunchSpec,
    options: Vec<(String, String)>,
    limits: Limits,
    /// The `--debug` traffic log, shared by every engine process started.
    traffic: Option<Arc<dyn TrafficLog>>,
    session: Option<Session>,
    /// The session has not answered a `readyok` yet (start-up limit applies).
    fresh: bool,
    /// Why the one restart failed; later checks are then not run.
    restart_failed: Option<String>,
    report: F,
    all_passed: bool,
}

/// A search to run and judge: the position command, the game behind it, `go`.
struct Search<'a> {
    position: String,
    game: &'a dyn AnyGame,
    go: String,
    limit: Duration,
    /// Lateness tolerated over `limit`: the arbiter's time margin for timed
    /// searches, a generous grace for the others.
    margin: Duration,
}

impl<F: FnMut(&CheckLine)> Checker<F> {
    fn emit(&mut self, name: &str, outcome: Result<String, String>) {
        let line = CheckLine {
            name: name.to_owned(),
            outcome,
        };
        self.all_passed &= line.passed();
        (self.report)(&line);
    }

    async fn run(&mut self) {
        let started = Instant::now();
        match Session::start(&self.spec, self.limits.handshake, self.traffic.clone()).await {
            Ok(s) => {
                let ms = started.elapsed().as_millis();
                self.session = Some(s);
                self.fresh = true;
                self.emit("handshake", Ok(format!("umiok after {ms} ms")));
            }
            Err(fault) => {
                // Nothing else can be checked without a handshake.
                return self.emit("handshake", Err(fault.to_string()));
            }
        }
        let (name, listed) = match &self.session {
            Some(s) => (s.id_name.clone(), s.games.clone()),
            None => return,
        };
        self.emit(
            "id-name",
            name.ok_or_else(|| "no `id name` line before umiok".to_owned()),
        );
        let known: Vec<GameId> = listed.iter().filter_map(|g| g.parse().ok()).collect();
        let unknown: Vec<&String> = listed
            .iter()
            .filter(|g| g.parse::<GameId>().is_err())
            .collect();
        let games_outcome = if known.is_empty() {
            Err(format!("no known game id in `games {}`", listed.join(" ")))
        } else if unknown.is_empty() {
            Ok(listed.join(" "))
        } else {
            let unknown: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
            Ok(format!(
                "{}; ignored unknown: {}",
                known
                    .iter()
                    .map(|g| g.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
                unknown.join(" ")
            ))
        };
        self.emit("games", games_outcome);
        if !self.options.is_empty() {
            let options = self.options.clone();
            let outcome = match self.session.as_mut() {
                Some(s) => s.set_options(&options).await.map_err(|f| f.to_string()),
                None => Err("no engine".to_owned()),
            };
            let note = options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            self.emit("options", outcome.map(|()| note));
        }
        let ready = self.ready().await;
        self.emit("isready", ready);

        if let Some(&first) = known.first() {
            self.search_and_stop(first).await;
            for &game in &known {
                let outcome = self.positions(game).await;
                self.emit(&format!("positions:{game}"), outcome);
            }
            // why the name: the check was written for Hemprich's Bohnenspiel,
            // the one game whose rules pass today; reports and scripts know
            // it by that name, whichever game it runs on.
            if let Some(&passing) = known.iter().find(|g| g.passes()) {
                let outcome = self.pass_check(passing).await;
                self.emit("hemprich-pass", outcome);
            }
            self.go_fields(first).await;
            let outcome = self.plain_go(first).await;
            self.emit("go-plain", outcome);
            let outcome = self.ponder(first, PonderEnd::Hit).await;
            self.emit("go-ponder", outcome);
            let outcome = self.ponder(first, PonderEnd::Miss).await;
            self.emit("go-ponder-miss", outcome);
            let outcome = self.gameover(first).await;
            self.emit("gameover", outcome);
            let outcome = self.board(first).await;
            self.emit("d", outcome);
            let outcome = self.perft(first).await;
            self.emit("go-perft", outcome);
            let outcome = self.one_bestmove_per_go(first).await;
            self.emit("one-bestmove-per-go", outcome);
            let outcome = self.malformed_position(first).await;
            self.emit("malformed-position", outcome);
            let outcome = self.finished_position(first).await;
            self.emit("game-over-position", outcome);
        }
        let outcome = self.error_messages().await;
        self.emit("error-messages", outcome);
        let outcome = self.malformed_input().await;
        self.emit("malformed-input", outcome);
        let outcome = self.quit().await;
        self.emit("quit", outcome);
    }

    /// The live session, restarting the engine if an earlier check killed it.
    async fn session(&mut self) -> Result<&mut Session, String> {
        if self.session.as_mut().is_some_and(|s| !s.is_alive()) {
            self.discard().await;
        }
        if let Some(why) = &self.restart_failed {
            return Err(format!(
                "not run: the engine could not be restarted ({why})"
            ));
        }
        if self.session.is_none() {
            let started = async {
                let mut s =
                    Session::start(&self.spec, self.limits.handshake, self.traffic.clone()).await?;
                s.set_options(&self.options).await?;
                Ok::<Session, Fault>(s)
            }
            .await;
            match started {
                Ok(s) => {
                    self.session = Some(s);
                    self.fresh = true;
                }
                Err(f) => {
                    let why = f.to_string();
                    self.restart_failed = Some(why.clone());
                    return Err(format!("engine restart failed: {why}"));
                }
            }
        }
        self.session.as_mut().ok_or_else(|| "no engine".to_owned())
    }

    /// Kills the engine (its state is unknown); the next check restarts it.
    async fn discard(&mut self) {
        if let Some(mut s) = self.session.take() {
            s.kill();
            s.shutdown(Duration::ZERO).await;
        }
    }

    /// The `readyok` limit now: start-up for a fresh process, else per command.
    fn ready_limit(&self) -> Duration {
        if self.fresh {
            self.limits.handshake
        } else {
            self.limits.ready
        }
    }

    async fn ready(&mut self) -> Result<String, String> {
        self.session().await?;
        let limit = self.ready_limit();
        let started = Instant::now();
        let result = self.session().await?.ready(limit).await;
        self.fresh &= result.is_err();
        match result {
            Ok(()) => Ok(format!(
                "readyok after {} ms",
                started.elapsed().as_millis()
            )),
            Err(fault) => {
                self.discard().await;
                Err(fault.to_string())
            }
        }
    }

    /// `newgame`, `isready`.
    async fn new_game(&mut self, game: GameId) -> Result<(), String> {
        self.session().await?;
        let limit = self.ready_limit();
        let s = self.session().await?;
        let result = async {
            s.send(&format!("newgame {game}")).await?;
            s.ready(limit).await
        }
        .await;
        self.fresh &= result.is_err();
        if let Err(fault) = result {
            self.discard().await;
            return Err(format!("newgame {game}: {fault}"));
        }
        Ok(())
    }

    /// `isready-while-searching` and `stop`, on one `go infinite`.
    async fn search_and_stop(&mut self, game: GameId) {
        if let Err(e) = self.new_game(game).await {
            self.emit("isready-while-searching", Err(e.clone()));
            return self.emit("stop", Err(e));
        }
        let start = new_game(game);
        let limits = self.limits;
        let (ready, stop) = match self.session().await {
            Ok(s) => infinite_search(s, start.as_ref(), limits).await,
            Err(e) => (Err(e.clone()), Err(e)),
        };
        if ready.is_err() || stop.is_err() {
            self.discard().await;
        }
        self.emit("isready-while-searching", ready);
        self.emit("stop", stop);
    }

    /// Legal answers in the start and a few mid-game positions of `game`.
    async fn positions(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        let mut rng = SmallRng::seed_from_u64(self.limits.seed);
        let mut searches = 0;
        for plies in std::iter::once(0).chain(MID_GAME_PLIES) {
            let (record, moves) = random_walk(game, plies, &mut rng);
            let limit = Duration::from_millis(POSITION_MOVETIME_MS);
            let go = format!("go movetime {POSITION_MOVETIME_MS}");
            let startpos = if moves.is_empty() {
                "position startpos".to_owned()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            let string = record.position_string();
            let from_string = match game_from_position(&string) {
                Ok(g) => g,
                Err(e) => return Err(format!("internal: position {string:?}: {e}")),
            };
            for (position, judge) in [
                (startpos, record.as_ref()),
                (format!("position pos {string}"), from_string.as_ref()),
            ] {
                let search = Search {
                    position,
                    game: judge,
                    go: go.clone(),
                    limit,
                    margin: self.limits.margin,
                };
                self.search(&search).await?;
                searches += 1;
            }
        }
        Ok(format!("{searches} searches"))
    }

    /// A position of `id` (a game whose rules pass) where the side to move
    /// has no move: `bestmove pass` (spec section 2), sent both as moves and
    /// as a position string.
    async fn pass_check(&mut self, id: GameId) -> Result<String, String> {
        let Some((game, moves)) = pass_position(id) else {
            return Err(format!("internal: no {id} pass position found"));
        };
        self.new_game(id).await?;
        let string = game.position_string();
        for position in [
            format!("position startpos moves {}", moves.join(" ")),
            format!("position pos {string}"),
        ] {
            let search = Search {
                position,
                game: game.as_ref(),
                go: format!("go movetime {POSITION_MOVETIME_MS}"),
                limit: Duration::from_millis(POSITION_MOVETIME_MS),
                margin: self.limits.margin,
            };
            self.search(&search).await?;
        }
        Ok(format!("bestmove pass in {string}"))
    }

    /// One check per time field of `go`.
    async fn go_fields(&mut self, game: GameId) {
        let south = new_game(game);
        let mut north = new_game(game);
        let first = south.legal_moves().first().cloned().unwrap_or_default();
        // The start always has a move; guard anyway rather than trust it.
        let north_ok = north.play(&first).is_ok() && north.outcome().is_none();
        let clock = Duration::from_millis(CLOCK_MS);
        let inc = Duration::from_millis(100);
        let unclocked = self.limits.unclocked;
        let c = CLOCK_MS;
        // (name, North to move, go, time limit, timed by the engine's clock)
        let cases: Vec<(&str, bool, String, Duration, bool)> = vec![
            (
                "go-p1time",
                false,
                format!("go p1time {c} p2time {c}"),
                clock,
                true,
            ),
            (
                "go-p2time",
                true,
                format!("go p1time {c} p2time {c}"),
                clock,
                true,
            ),
            (
                "go-inc",
                false,
                format!("go p1time {c} p2time {c} p1inc 100 p2inc 100"),
                clock + inc,
                true,
            ),
            (
                "go-movestogo",
                true,
                format!("go p1time {c} p2time {c} movestogo 5"),
                clock,
                true,
            ),
            (
                "go-movetime",
                false,
                "go movetime 200".to_owned(),
                Duration::from_millis(200),
                true,
            ),
            ("go-depth", false, "go depth 2".to_owned(), unclocked, false),
            (
                "go-nodes",
                true,
                "go nodes 1000".to_owned(),
                unclocked,
                false,
            ),
        ];
        for (name, north_moves, go, limit, timed) in cases {
            let outcome = if let Err(e) = self.new_game(game).await {
                Err(e)
            } else if north_moves && !north_ok {
                Err(format!("internal: no position after {first}"))
            } else {
                let (position, judge) = if north_moves {
                    (format!("position startpos moves {first}"), north.as_ref())
                } else {
                    ("position startpos".to_owned(), south.as_ref())
                };
                let margin = if timed {
                    self.limits.margin
                } else {
                    self.limits.grace
                };
                let search = Search {
                    position,
                    game: judge,
                    go,
                    limit,
                    margin,
                };
                self.search(&search).await
            };
            self.emit(name, outcome);
        }
    }

    /// Runs one search: a legal move in canonical notation within the limit
    /// plus the arbiter's time margin (the grace for untimed searches).
    async fn search(&mut self, search: &Search<'_>) -> Result<String, String> {
        let margin = search.margin;
        let deadline = Instant::now() + search.limit + margin;
        let s = self.session().await?;
        let answer = s.go(&search.position, &search.go, deadline).await;
        let what = format!("`{}` after `{}`", search.go, search.position);
        let bm = match answer {
            Ok(bm) => bm,
            Err(fault) => {
                if matches!(fault, Fault::Timeout { .. }) {
                    s.stop().await;
                }
                self.discard().await;
                let over = match fault {
                    Fault::Timeout { .. } => format!(
                        " (limit {} ms + {} ms)",
                        search.limit.as_millis(),
                        margin.as_millis()
                    ),
                    _ => String::new(),
                };
                return Err(format!("{what}: {fault}{over}"));
            }
        };
        judge_move(search.game, &bm.mv).map_err(|e| format!("{what}: {e}"))?;
        Ok(format!("{} in {} ms", bm.mv, bm.elapsed.as_millis()))
    }

    /// Plain `go` (no limit): the engine searches until `stop` but MAY answer
    /// earlier (spec section 4); either way one legal `bestmove`.
    async fn plain_go(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        let start = new_game(game);
        let limits = self.limits;
        let s = self.session().await?;
        let answer = plain_search(s, limits).await;
        let (line, after_stop) = match answer {
            Ok(answer) => answer,
            Err(fault) => {
                self.discard().await;
                return Err(format!("`go` after `position startpos`: {fault}"));
            }
        };
        let mv = line.split_whitespace().nth(1).unwrap_or_default();
        judge_move(start.as_ref(), mv).map_err(|e| format!("`{line}` answering `go`: {e}"))?;
        Ok(if after_stop {
            format!("bestmove {mv} after stop")
        } else {
            format!("bestmove {mv} before stop")
        })
    }

    /// `go ponder` on the position after two moves: no `bestmove` before
    /// `ponderhit`; after it, a legal one within the clock plus the time
    /// margin (spec section 6).
    async fn ponder(&mut self, game: GameId, end: PonderEnd) -> Result<String, String> {
        self.new_game(game).await?;
        let mut pondered = new_game(game);
        let mut moves = Vec::new();
        for _ in 0..2 {
            let Some(mv) = pondered.legal_moves().first().cloned() else {
                return Err(format!("internal: the game ends after {moves:?}"));
            };
            pondered
                .play(&mv)
                .map_err(|e| format!("internal: move {mv}: {e}"))?;
            moves.push(mv);
        }
        let position = format!("position startpos moves {}", moves.join(" "));
        let go = format!("go ponder p1time {CLOCK_MS} p2time {CLOCK_MS}");
        // A hit searches on within the clock; a miss answers `stop` within the
        // stop limit, as `go infinite` does.
        let limit = match end {
            PonderEnd::Hit => Duration::from_millis(CLOCK_MS) + self.limits.margin,
            PonderEnd::Miss => self.limits.stop,
        };
        let release = end.command();
        let s = self.session().await?;
        let result = ponder_search(s, &position, &go, end, limit).await;
        let what = format!("`{go}` after `{position}`");
        let line = match result {
            Ok(Ok(line)) => line,
            Ok(Err(early)) => {
                self.discard().await;
                return Err(format!("{what}: `{early}` before {release}"));
            }
            Err(fault) => {
                self.discard().await;
                return Err(format!("{what}, then {release}: {fault}"));
            }
        };
        // why judged on a miss too: the answer is discarded by the GUI, but the
        // spec still wants a move of the searched position, as for any `go`.
        let mv = line.split_whitespace().nth(1).unwrap_or_default();
        judge_move(pondered.as_ref(), mv).map_err(|e| format!("{what}: `{line}`: {e}"))?;
        Ok(format!("bestmove {mv} after {release}"))
    }

    /// `gameover` while idle (as after every game), then `isready`: the engine
    /// is still there and answers, with no `bestmove`.
    async fn gameover(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        const LINE: &str = "gameover 1-0 North forfeits on time";
        let limit = self.limits.ready;
        let s = self.session().await?;
        let result = async {
            s.send(LINE).await?;
            s.ready(limit).await
        }
        .await;
        match result {
            Ok(()) => Ok(format!("`{LINE}`, then readyok")),
            Err(fault) => {
                self.discard().await;
                Err(format!("`{LINE}` then isready: {fault}"))
            }
        }
    }

    /// `d` after one move: free-form lines, then `pos <position string>` with
    /// the position the rules give (spec section 10).
    async fn board(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        let mut after = new_game(game);
        let first = after.legal_moves().first().cloned().unwrap_or_default();
        after
            .play(&first)
            .map_err(|e| format!("internal: move {first}: {e}"))?;
        let expected = after.position_string();
        let position = format!("position startpos moves {first}");
        let limit = self.limits.ready;
        let s = self.session().await?;
        let result: Result<String, Fault> = async {
            s.send(&position).await?;
            s.send("d").await?;
            let deadline = Instant::now() + limit;
            loop {
                let line = s.read_line(deadline, "`pos` line").await?;
                if let Some(p) = line.strip_prefix("pos ") {
                    return Ok(p.trim().to_owned());
                }
            }
        }
        .await;
        match result {
            Ok(p) if p == expected => Ok(format!("pos {p}")),
            Ok(p) => Err(format!(
                "`d` after `{position}`: `pos {p}`, expected `pos {expected}`"
            )),
            Err(fault) => {
                self.discard().await;
                Err(format!("`d` after `{position}`: {fault}"))
            }
        }
    }

    /// `go perft 2` from the start: one `<move>: <count>` line per legal move
    /// in the rules library's order, then `nodes <total>`, as the rules
    /// library counts them (spec section 10).
    async fn perft(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        let start = new_game(game).position_string();
        let divide = mancala_rules::divide_str(&start, PERFT_DEPTH)
            .map_err(|e| format!("internal: perft of {start}: {e}"))?;
        let total: u64 = divide.iter().map(|(_, n)| n).sum();
        let mut expected: Vec<String> = divide.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        expected.push(format!("nodes {total}"));
        let go = format!("go perft {PERFT_DEPTH}");
        let limit = self.limits.ready;
        let s = self.session().await?;
        let result: Result<Vec<String>, Fault> = async {
            s.send("position startpos").await?;
            s.send(&go).await?;
            let deadline = Instant::now() + limit;
            let mut got = Vec::new();
            loop {
                let line = s.read_line(deadline, "`nodes` line").await?;
                let line = line.trim().to_owned();
                let done = line.starts_with("nodes");
                // why skip `info`: an engine may report progress meanwhile.
                if !line.is_empty() && !line.starts_with("info") {
                    got.push(line);
                }
                if done {
                    return Ok(got);
                }
            }
        }
        .await;
        let got = match result {
            Ok(got) => got,
            Err(fault) => {
                self.discard().await;
                return Err(format!("`{go}` from the start: {fault}"));
            }
        };
        if let Some((i, (g, e))) = got
            .iter()
            .zip(&expected)
            .enumerate()
            .find(|(_, (g, e))| g != e)
        {
            return Err(format!(
                "`{go}` from the start: line {} is `{g}`, the rules give `{e}`",
                i + 1
            ));
        }
        if got.len() != expected.len() {
            return Err(format!(
                "`{go}` from the start: {} lines, the rules give {} (`{}`)",
                got.len(),
                expected.len(),
                expected.join("`, `")
            ));
        }
        Ok(format!("nodes {total}"))
    }

    /// One `go`, one `bestmove`: after the answer, a pause (long enough for a
    /// second answer to arrive), then `isready` must get `readyok` with no
    /// `bestmove` before it (spec section 4: `bestmove` ends the search).
    async fn one_bestmove_per_go(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        let start = new_game(game);
        let search = Search {
            position: "position startpos".to_owned(),
            game: start.as_ref(),
            go: format!("go movetime {POSITION_MOVETIME_MS}"),
            limit: Duration::from_millis(POSITION_MOVETIME_MS),
            margin: self.limits.margin,
        };
        let answered = self.search(&search).await?;
        tokio::time::sleep(SECOND_ANSWER_WAIT).await;
        let limit = self.limits.ready;
        let s = self.session().await?;
        if let Err(fault) = s.check_idle("after the pause").await {
            self.discard().await;
            return Err(format!("a second answer to `{}`: {fault}", search.go));
        }
        if let Err(fault) = s.ready(limit).await {
            self.discard().await;
            return Err(format!("a second answer to `{}`: {fault}", search.go));
        }
        Ok(format!(
            "{answered}; nothing more within {} ms",
            SECOND_ANSWER_WAIT.as_millis()
        ))
    }

    /// A `position` the rules reject, then `go`: the spec wants `bestmove
    /// (none)` (after an `info string error`).
    async fn malformed_position(&mut self, game: GameId) -> Result<String, String> {
        self.new_game(game).await?;
        let bad = "position startpos moves 99";
        let go = format!("go movetime {POSITION_MOVETIME_MS}");
        let deadline =
            Instant::now() + Duration::from_millis(POSITION_MOVETIME_MS) + self.limits.grace;
        let s = self.session().await?;
        match s.go(bad, &go, deadline).await {
            Err(Fault::NoMove) => Ok("bestmove (none)".to_owned()),
            Ok(bm) => Err(format!(
                "`{bad}` then `{go}`: bestmove {} (expected bestmove (none))",
                bm.mv
            )),
            Err(fault) => {
                self.discard().await;
                Err(format!(
                    "`{bad}` then `{go}`: {fault} (expected bestmove (none))"
                ))
            }
        }
    }

    /// A position in which the game is over (no legal move), sent as
    /// `position pos`: the spec says `bestmove (none)` answers a `go` there.
    async fn finished_position(&mut self, game: GameId) -> Result<String, String> {
        let Some(finished) = finished_position(game) else {
            return Err(format!("internal: no finished {game} position found"));
        };
        self.new_game(game).await?;
        let position = format!("position pos {finished}");
        let go = format!("go movetime {POSITION_MOVETIME_MS}");
        let deadline =
            Instant::now() + Duration::from_millis(POSITION_MOVETIME_MS) + self.limits.grace;
        let s = self.session().await?;
        match s.go(&position, &go, deadline).await {
            Err(Fault::NoMove) => Ok(format!("bestmove (none) in {finished}")),
            Ok(bm) => Err(format!(
                "`{position}` (the game is over) then `{go}`: bestmove {} (expected bestmove (none))",
                bm.mv
            )),
            Err(fault) => {
                self.discard().await;
                Err(format!(
                    "`{position}` (the game is over) then `{go}`: {fault} (expected bestmove (none))"
                ))
            }
        }
    }

    /// Each malformed known command, then `isready`: an `info string error`
    /// line before `readyok`, and no `bestmove` (spec section 9).
    async fn error_messages(&mut self) -> Result<String, String> {
        const MALFORMED: [&str; 4] = [
            "position pos nonsense",
            "newgame nosuchgame",
            "setoption name NoSuchOption value 1",
            "go depth notanumber",
        ];
        let limit = self.limits.ready;
        for command in MALFORMED {
            let s = self.session().await?;
            let result: Result<bool, Fault> = async {
                s.send(command).await?;
                s.send("isready").await?;
                let deadline = Instant::now() + limit;
                let mut said = false;
                loop {
                    let line = s.read_line(deadline, "readyok").await?;
                    let line = line.trim();
                    if line == "readyok" {
                        return Ok(said);
                    }
                    if is_bestmove(line) {
                        return Err(Fault::StrayBestmove {
                            line: line.to_owned(),
                            when: "before readyok",
                        });
                    }
                    said |= line.starts_with("info string error");
                }
            }
            .await;
            match result {
                Ok(true) => {}
                Ok(false) => {
                    return Err(format!(
                        "`{command}`: no `info string error` line before readyok"
                    ))
                }
                Err(fault) => {
                    self.discard().await;
                    return Err(format!("`{command}` then isready: {fault}"));
                }
            }
        }
        Ok(format!("{} commands", MALFORMED.len()))
    }

    /// Junk, unknown and malformed lines; the engine must still answer
    /// `isready` (and not exit).
    async fn malformed_input(&mut self) -> Result<String, String> {
        const JUNK: &[&str] = &[
            "",
            "   ",
            "xyzzy plugh",
            "UMI",
            "bestmove 1",
            "go depth notanumber",
            "go perft",
            "position",
            "position pos nonsense",
            "position pos bohnenspiel 6,6,6 S 0/0",
            "position startpos moves 99 99",
            "setoption name NoSuchOption value 1",
            "setoption",
            "newgame nosuchgame",
            "newgame",
            "gameover 2-2",
            "\u{1}\u{7}\u{1b}[31m",
            "stop",
            "ponderhit",
        ];
        self.session().await?;
        let limit = self.ready_limit();
        let s = self.session().await?;
        let long = "x".repeat(100_000);
        let mut sent = 0;
        for line in JUNK.iter().copied().chain([long.as_str()]) {
            s.send(line)
                .await
                .map_err(|f| format!("after {sent} junk lines: {f}"))?;
            sent += 1;
        }
        let result = s.ready(limit).await;
        match result {
            Ok(()) => Ok(format!("{sent} junk lines")),
            Err(fault) => {
                self.discard().await;
                Err(format!("isready after {sent} junk lines: {fault}"))
            }
        }
    }

    /// `quit`: the engine exits within a second. The spec asks only that it
    /// exit (section 4), so any exit status passes; a non-zero one is noted.
    async fn quit(&mut self) -> Result<String, String> {
        self.session().await?;
        let Some(s) = self.session.take() else {
            return Err("no engine".to_owned());
        };
        let started = Instant::now();
        let report = s.quit(Duration::from_secs(1)).await;
        let ms = started.elapsed().as_millis();
        match report.exit {
            _ if report.forced => Err("still running 1000 ms after quit (killed)".to_owned()),
            Some(Exit::Code(0)) => Ok(format!("exited after {ms} ms")),
            Some(exit) => Ok(format!("{exit} {ms} ms after quit")),
            None => Ok(format!("exited after {ms} ms, status unknown")),
        }
    }
}

/// `go infinite` from the start: `isready` is answered while searching and no
/// `bestmove` comes before `stop`; then `stop` gets a legal `bestmove` within
/// the limit. Returns the two outcomes.
async fn infinite_search(
    s: &mut Session,
    start: &dyn AnyGame,
    limits: Limits,
) -> (Result<String, String>, Result<String, String>) {
    let early = |line: &str| format!("`{line}` before stop (go infinite must wait for stop)");
    let result = async {
        s.send("position startpos").await?;
        s.send("go infinite").await?;
        // Let the search get going; nothing but `info` may arrive meanwhile.
        let settle = Instant::now() + Duration::from_millis(200);
        loop {
            match s.read_line(settle, "bestmove").await {
                Ok(line) if is_bestmove(&line) => return Ok(Err(early(&line))),
                Ok(_) => {}
                Err(Fault::Timeout { .. }) => break,
                Err(fault) => return Err(fault),
            }
        }
        s.send("isready").await?;
        let sent = Instant::now();
        let deadline = sent + limits.ready;
        loop {
            let line = s.read_line(deadline, "readyok").await?;
            if line.trim() == "readyok" {
                return Ok(Ok(format!(
                    "readyok after {} ms",
                    sent.elapsed().as_millis()
                )));
            }
            if is_bestmove(&line) {
                return Ok(Err(early(&line)));
            }
        }
    }
    .await;
    let ready = match result {
        Ok(outcome) => outcome,
        Err(fault) => {
            let e = fault.to_string();
            return (
                Err(e.clone()),
                Err(format!(
                    "not tried: `go infinite` left no search running to stop ({e})"
                )),
            );
        }
    };
    if ready.is_err() {
        return (
            ready,
            Err(
                "not tried: `go infinite` left no search running to stop (see isready-while-searching)"
                    .to_owned(),
            ),
        );
    }
    let stop = async {
        s.send("stop").await?;
        let sent = Instant::now();
        let deadline = sent + limits.stop;
        loop {
            let line = s.read_line(deadline, "bestmove").await?;
            if is_bestmove(&line) {
                return Ok((line, sent.elapsed()));
            }
        }
    }
    .await;
    let stop = match stop {
        Ok((line, took)) => {
            let mv = line.split_whitespace().nth(1).unwrap_or_default();
            judge_move(start, mv)
                .map(|()| format!("bestmove {mv} {} ms after stop", took.as_millis()))
        }
        Err(Fault::Timeout { .. }) => Err(format!(
            "no bestmove within {} ms of stop",
            limits.stop.as_millis()
        )),
        Err(fault) => Err(fault.to_string()),
    };
    (ready, stop)
}

/// How a ponder search is released: the opponent played the expected move
/// (`ponderhit`, a ponder hit) or another one (`stop`, a ponder miss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PonderEnd {
    Hit,
    Miss,
}

impl PonderEnd {
    fn command(self) -> &'static str {
        match self {
            PonderEnd::Hit => "ponderhit",
            PonderEnd::Miss => "stop",
        }
    }
}

/// `position`, `go ponder …`: `Ok(Err(line))` for a `bestmove` within
/// [`PLAIN_GO_WAIT`] (before the release); else the release command and
/// `Ok(Ok(line))` for the `bestmove` within `limit` of it.
async fn ponder_search(
    s: &mut Session,
    position: &str,
    go: &str,
    end: PonderEnd,
    limit: Duration,
) -> Result<Result<String, String>, Fault> {
    s.send(position).await?;
    s.send(go).await?;
    let settle = Instant::now() + PLAIN_GO_WAIT;
    loop {
        match s.read_line(settle, "bestmove").await {
            Ok(line) if is_bestmove(&line) => return Ok(Err(line)),
            Ok(_) => {}
            Err(Fault::Timeout { .. }) => break,
            Err(fault) => return Err(fault),
        }
    }
    s.send(end.command()).await?;
    let deadline = Instant::now() + limit;
    let waiting_for = match end {
        PonderEnd::Hit => "bestmove after ponderhit",
        PonderEnd::Miss => "bestmove after stop",
    };
    loop {
        let line = s.read_line(deadline, waiting_for).await?;
        if is_bestmove(&line) {
            return Ok(Ok(line));
        }
    }
}

/// Plain `go` from the start: a `bestmove` within [`PLAIN_GO_WAIT`], else
/// `stop` and one within the stop limit. Returns the line and whether it came
/// after `stop`.
async fn plain_search(s: &mut Session, limits: Limits) -> Result<(String, bool), Fault> {
    s.send("position startpos").await?;
    s.send("go").await?;
    let settle = Instant::now() + PLAIN_GO_WAIT;
    loop {
        match s.read_line(settle, "bestmove").await {
            Ok(line) if is_bestmove(&line) => return Ok((line, false)),
            Ok(_) => {}
            Err(Fault::Timeout { .. }) => break,
            Err(fault) => return Err(fault),
        }
    }
    s.send("stop").await?;
    let deadline = Instant::now() + limits.stop;
    loop {
        let line = s.read_line(deadline, "bestmove after stop").await?;
        if is_bestmove(&line) {
            return Ok((line, true));
        }
    }
}

pub(crate) fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

/// `mv` is legal in `game` and spelled canonically.
pub(crate) fn judge_move(game: &dyn AnyGame, mv: &str) -> Result<(), String> {
    let mut after = game.clone_box();
    match after.play(mv) {
        Ok(canonical) if canonical == mv => Ok(()),
        Ok(canonical) => Err(format!(
            "move {mv:?} is legal but not canonical (write {canonical:?})"
        )),
        Err(e) => Err(format!(
            "illegal move {mv:?} in {}: {e}",
            game.position_string()
        )),
    }
}

/// The game after up to `plies` seeded random legal moves (fewer if it ends;
/// the last move that would end it is not played, so the engine has a move).
pub(crate) fn random_walk(
    game: GameId,
    plies: usize,
    rng: &mut SmallRng,
) -> (Box<dyn AnyGame>, Vec<String>) {
    let mut record = new_game(game);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = record.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = &legal[rng.random_range(0..legal.len())];
        let mut next = record.clone_box();
        match next.play(mv) {
            Ok(played) if next.outcome().is_none() => {
                record = next;
                moves.push(played);
            }
            _ => break,
        }
    }
    (record, moves)
}

/// A position of `id` where the side to move must `pass`: the first one met
/// on seeded random games (seeds 0, 1, …; deterministic), with the moves
/// that reach it. `None` if none is met.
fn pass_position(id: GameId) -> Option<(Box<dyn AnyGame>, Vec<String>)> {
    for seed in 0..200 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = new_game(id);
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            let legal = game.legal_moves();
            if legal.iter().any(|m| m == "pass") {
                return Some((game, moves));
            }
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            if game.play(&mv).is_err() {
                break;
            }
            moves.push(mv);
        }
    }
    None
}

/// A position of `game` that is over by itself (no legal move, whatever the
/// history): the last position of the first seeded random game (seeds 0, 1,
/// …; deterministic) that ends so. Games that end by a history rule
/// (repetition, a repeated Bosh round start) are skipped, since their final
/// position sent alone is not over. `None` if none is met.
fn finished_position(game: GameId) -> Option<String> {
    // why a ply cap: a random game of every id ends long before it, and the
    // cap keeps a rules bug from hanging the check.
    const MAX_PLIES: usize = 20_000;
    for seed in 0..200 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut record = new_game(game);
        for _ in 0..MAX_PLIES {
            let legal = record.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = &legal[rng.random_range(0..legal.len())];
            if record.play(mv).is_err() {
                break;
            }
        }
        let string = record.position_string();
        let alone = game_from_position(&string).ok()?;
        if record.outcome().is_some() && alone.legal_moves().is_empty() {
            return Some(string);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_documented() {
        let pass = CheckLine {
            name: "stop".into(),
            outcome: Ok("bestmove 3 2 ms after stop".into()),
        };
        assert_eq!(pass.to_string(), "PASS stop (bestmove 3 2 ms after stop)");
        let bare = CheckLine {
            name: "id-name".into(),
            outcome: Ok(String::new()),
        };
        assert_eq!(bare.to_string(), "PASS id-name");
        let fail = CheckLine {
            name: "games".into(),
            outcome: Err("no known game id".into()),
        };
        assert_eq!(fail.to_string(), "FAIL games: no known game id");
        assert!(!fail.passed());
    }

    #[test]
    fn random_walk_is_seeded_and_never_ends_the_game() {
        for game in GameId::ALL {
            let mut a = SmallRng::seed_from_u64(7);
            let mut b = SmallRng::seed_from_u64(7);
            let (ga, ma) = random_walk(game, 25, &mut a);
            let (_, mb) = random_walk(game, 25, &mut b);
            assert_eq!(ma, mb, "{game}");
            assert!(ga.outcome().is_none(), "{game}: {}", ga.position_string());
        }
    }

    #[test]
    fn every_game_that_passes_has_a_pass_position_and_no_other_does() {
        for id in GameId::ALL {
            let Some((game, moves)) = pass_position(id) else {
                assert!(!id.passes(), "{id}: no pass position found");
                continue;
            };
            assert!(id.passes(), "{id} passes though its rules say not");
            assert_eq!(game.legal_moves(), ["pass"], "{}", game.position_string());
            let mut replay = new_game(id);
            for mv in &moves {
                replay.play(mv).unwrap();
            }
            assert_eq!(replay.position_string(), game.position_string());
        }
    }

    #[test]
    fn every_game_has_a_finished_position_to_check() {
        for game in GameId::ALL {
            let string = finished_position(game).expect("a finished position");
            let alone = game_from_position(&string).unwrap();
            assert!(alone.outcome().is_some(), "{string}");
            assert!(alone.legal_moves().is_empty(), "{string}");
        }
    }

    #[test]
    fn judge_move_wants_legal_canonical_moves() {
        let start = new_game(GameId::Bohnenspiel);
        assert!(judge_move(start.as_ref(), "1").is_ok());
        let illegal = judge_move(start.as_ref(), "99").unwrap_err();
        assert!(illegal.contains("illegal move \"99\""), "{illegal}");
    }
}
