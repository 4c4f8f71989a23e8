//! The checks of positions: `positions:<game>` (the start and seeded
//! mid-game positions), `hemprich-pass`, `d`, `go-perft`,
//! `malformed-position` and a finished position, with the positions they
//! need.

use std::time::Duration;

use mancala_rules::{game_from_position, new_game, AnyGame, GameId};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::time::Instant;

use super::*;

impl<F: FnMut(&CheckLine)> Checker<F> {
    /// Legal answers in the start and a few mid-game positions of `game`.
    pub(super) async fn positions(&mut self, game: GameId) -> Result<String, String> {
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
    pub(super) async fn pass_check(&mut self, id: GameId) -> Result<String, String> {
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

    /// `d` after one move: free-form lines, then `pos <position string>` with
    /// the position the rules give (spec section 10).
    pub(super) async fn board(&mut self, game: GameId) -> Result<String, String> {
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
    pub(super) async fn perft(&mut self, game: GameId) -> Result<String, String> {
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

    /// A `position` the rules reject, then `go`: the spec wants `bestmove
    /// (none)` (after an `info string error`).
    pub(super) async fn malformed_position(&mut self, game: GameId) -> Result<String, String> {
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
    pub(super) async fn finished_position(&mut self, game: GameId) -> Result<String, String> {
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
}

/// A position of `id` where the side to move must `pass`: the first one met
/// on seeded random games (seeds 0, 1, …; deterministic), with the moves
/// that reach it. `None` if none is met.
pub(super) fn pass_position(id: GameId) -> Option<(Box<dyn AnyGame>, Vec<String>)> {
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
pub(super) fn finished_position(game: GameId) -> Option<String> {
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
