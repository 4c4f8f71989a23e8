//! The checks of searching: `go infinite` with `isready` and `stop`, one
//! `go-<field>` per time field, plain `go`, `go ponder` released by
//! `ponderhit` or `stop`, and one `bestmove` per `go`.

use std::time::Duration;

use mancala_rules::{new_game, AnyGame, GameId};
use tokio::time::Instant;

use super::*;

impl<F: FnMut(&CheckLine)> Checker<F> {
    /// `isready-while-searching` and `stop`, on one `go infinite`.
    pub(super) async fn search_and_stop(&mut self, game: GameId) {
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

    /// One check per time field of `go`.
    pub(super) async fn go_fields(&mut self, game: GameId) {
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
    pub(super) async fn search(&mut self, search: &Search<'_>) -> Result<String, String> {
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
    pub(super) async fn plain_go(&mut self, game: GameId) -> Result<String, String> {
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
    pub(super) async fn ponder(&mut self, game: GameId, end: PonderEnd) -> Result<String, String> {
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

    /// One `go`, one `bestmove`: after the answer, a pause (long enough for a
    /// second answer to arrive), then `isready` must get `readyok` with no
    /// `bestmove` before it (spec section 4: `bestmove` ends the search).
    pub(super) async fn one_bestmove_per_go(&mut self, game: GameId) -> Result<String, String> {
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
}

/// `go infinite` from the start: `isready` is answered while searching and no
/// `bestmove` comes before `stop`; then `stop` gets a legal `bestmove` within
/// the limit. Returns the two outcomes.
pub(super) async fn infinite_search(
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
pub(super) enum PonderEnd {
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
pub(super) async fn ponder_search(
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
pub(super) async fn plain_search(s: &mut Session, limits: Limits) -> Result<(String, bool), Fault> {
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
