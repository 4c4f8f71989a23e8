//! Admission checks: the conformance checks run over an engine's open
//! session (a connection: nothing can be restarted), before a standing
//! arena pairs a new bot, or a new version of one, in a rated game. As
//! Kaggle validates a submission with a game and FAU's Kalah server starts
//! with a game against a random bot, the last check is a whole game against
//! the arbiter's own random mover ([`crate::contender::random_mover`]).
//!
//! The checks, in order; the first that fails ends them (the session is
//! then in an unknown state, and the arena closes it):
//!
//! - `handshake`: the session's `games` line lists the game;
//! - `isready`: `readyok` in time;
//! - `positions:<game>`: a legal `bestmove` to `go movetime` from the start
//!   and a few positions reached by seeded random moves;
//! - `stop`: after `go infinite` and `stop`, a legal `bestmove` in time (one
//!   sent before `stop` passes too, if legal: a KGP bot may yield early;
//!   the strict check is `arbiter check`'s);
//! - `sanity-game`: a game against the random mover under the pool's time
//!   control, finished without a fault of the bot (losing it is no fault).
//!
//! A KGP bot is judged by what KGP promises, not by a UMI answer to every
//! `go`: where it sent no move before its search ended, the adapter played
//! KGP's random move (said in `info string kgp: …; random move`). Such a
//! move is no failure by itself; a bot that left most states unanswered
//! (more than half of those of `positions:<game>` and `stop` together, or of
//! its moves in the sanity game) fails, and a move it did send must be legal.

use std::time::Duration;

use mancala_rules::{new_game, GameId, Side};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tokio::time::Instant;

use crate::contender::check::{is_bestmove, judge_move, random_walk, CheckLine};
use crate::contender::random_mover::RandomMover;
use crate::contender::session::{is_kgp_random_line, Fault, Session};
use crate::play::game::{self, GamePlan, Timeouts};
use crate::play::tc::TimeControl;

/// What the checks allow.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub ready: Duration,
    /// The search time of the position checks (`go movetime`).
    pub movetime: Duration,
    /// Time over a search's limit, or after `stop`, before it counts as
    /// unanswered (a connection's round trips included).
    pub grace: Duration,
    /// Plies of random play before each position of `positions:<game>`.
    pub plies: [usize; 3],
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            ready: Duration::from_secs(10),
            movetime: Duration::from_millis(100),
            grace: Duration::from_secs(5),
            plies: [5, 12, 25],
            seed: 1,
        }
    }
}

/// The outcome of a bot's admission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub lines: Vec<CheckLine>,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.lines.iter().all(CheckLine::passed)
    }

    /// The names of the checks that failed.
    pub fn failed(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter(|l| !l.passed())
            .map(|l| l.name.clone())
            .collect()
    }

    /// One line for the bot and the logs: every failure with its reason.
    pub fn summary(&self) -> String {
        let failed: Vec<String> = self
            .lines
            .iter()
            .filter(|l| !l.passed())
            .map(ToString::to_string)
            .collect();
        if failed.is_empty() {
            "admission passed".to_owned()
        } else {
            format!("admission failed: {}", failed.join("; "))
        }
    }
}

/// Runs the checks on `session` for `game` under `tc` (the sanity game's
/// time control).
pub async fn admit(
    session: &mut Session,
    game: GameId,
    tc: TimeControl,
    limits: Limits,
) -> Verdict {
    let mut lines = Vec::new();
    let mut push = |name: &str, outcome: Result<String, String>| {
        let ok = outcome.is_ok();
        lines.push(CheckLine {
            name: name.to_owned(),
            outcome,
        });
        ok
    };
    let listed = session.plays(game.as_str());
    let name = session.id_name.clone().unwrap_or_default();
    if !push(
        "handshake",
        if listed {
            Ok(format!("id name {name:?}"))
        } else {
            Err(format!(
                "its games line ({}) does not list {game}",
                session.games.join(" ")
            ))
        },
    ) {
        return Verdict { lines };
    }
    let ready = session
        .ready(limits.ready)
        .await
        .map(|()| String::new())
        .map_err(|f| f.to_string());
    if !push("isready", ready) {
        return Verdict { lines };
    }
    let mut unanswered = Unanswered::default();
    let positions = positions(session, game, limits, &mut unanswered)
        .await
        .unwrap_or_else(|f| Err(f.to_string()));
    if !push(&format!("positions:{game}"), positions) {
        return Verdict { lines };
    }
    let stop = stop(session, game, limits, &mut unanswered)
        .await
        .unwrap_or_else(|f| Err(f.to_string()))
        .and_then(|ok| unanswered.judge().map(|()| ok));
    if !push("stop", stop) {
        return Verdict { lines };
    }
    let sanity = sanity_game(session, game, tc, limits).await;
    push("sanity-game", sanity);
    Verdict { lines }
}

/// The states a KGP bot left unanswered (KGP's random move was played for
/// it) among those asked.
#[derive(Clone, Copy, Debug, Default)]
struct Unanswered {
    random: u32,
    asked: u32,
}

impl Unanswered {
    fn count(&mut self, answer: &Answer) {
        self.asked += 1;
        self.random += u32::from(answer.random);
    }

    /// Fails when more than half were unanswered.
    fn judge(&self) -> Result<(), String> {
        if self.random * 2 > self.asked {
            return Err(format!(
                "the bot sent no move for {} of {} states (KGP's random move was played for it)",
                self.random, self.asked
            ));
        }
        Ok(())
    }
}

/// A search's answer: the move, and whether it was KGP's random move.
struct Answer {
    mv: String,
    random: bool,
}

/// A `bestmove` line within `deadline` (other lines are skipped).
async fn bestmove(s: &mut Session, deadline: Instant, what: &'static str) -> Result<Answer, Fault> {
    let mut random = false;
    loop {
        let line = s.read_line(deadline, what).await?;
        random |= is_kgp_random_line(&line);
        if is_bestmove(&line) {
            let mv = line.split_whitespace().nth(1).unwrap_or("").to_owned();
            return Ok(Answer { mv, random });
        }
    }
}

async fn positions(
    s: &mut Session,
    game: GameId,
    limits: Limits,
    unanswered: &mut Unanswered,
) -> Result<Result<String, String>, Fault> {
    let mut rng = SmallRng::seed_from_u64(limits.seed);
    s.send(&format!("newgame {game}")).await?;
    let mut walks = vec![(new_game(game), Vec::new())];
    walks.extend(limits.plies.iter().map(|&n| random_walk(game, n, &mut rng)));
    let ms = limits.movetime.as_millis();
    for (position, moves) in &walks {
        let command = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        s.send(&command).await?;
        s.send(&format!("go movetime {ms}")).await?;
        let deadline = Instant::now() + limits.movetime + limits.grace;
        let answer = match bestmove(s, deadline, "bestmove").await {
            Ok(a) => a,
            Err(Fault::Timeout { .. }) => {
                return Ok(Err(format!(
                    "no bestmove within {} ms of `go movetime {ms}` after `{command}`",
                    (limits.movetime + limits.grace).as_millis()
                )))
            }
            Err(f) => return Err(f),
        };
        if let Err(e) = judge_move(position.as_ref(), &answer.mv) {
            return Ok(Err(format!("after `{command}`: {e}")));
        }
        unanswered.count(&answer);
    }
    if let Err(e) = unanswered.judge() {
        return Ok(Err(e));
    }
    let random = match unanswered.random {
        0 => String::new(),
        n => format!(" ({n} by KGP's random move)"),
    };
    Ok(Ok(format!("{} positions{random}", walks.len())))
}

async fn stop(
    s: &mut Session,
    game: GameId,
    limits: Limits,
    unanswered: &mut Unanswered,
) -> Result<Result<String, String>, Fault> {
    let start = new_game(game);
    s.send("position startpos").await?;
    s.send("go infinite").await?;
    let settle = Instant::now() + Duration::from_millis(200);
    let early = match bestmove(s, settle, "bestmove").await {
        Ok(mv) => Some(mv),
        Err(Fault::Timeout { .. }) => None,
        Err(f) => return Err(f),
    };
    let (answer, note) = match early {
        Some(a) => (a, "before stop"),
        None => {
            s.send("stop").await?;
            match bestmove(s, Instant::now() + limits.grace, "bestmove after stop").await {
                Ok(a) => (a, "after stop"),
                Err(Fault::Timeout { .. }) => {
                    return Ok(Err(format!(
                        "no bestmove within {} ms of stop",
                        limits.grace.as_millis()
                    )))
                }
                Err(f) => return Err(f),
            }
        }
    };
    // why a readyok: whatever the engine did, it must be idle and in step now.
    s.ready(limits.ready).await?;
    unanswered.count(&answer);
    let mv = answer.mv;
    let note = if answer.random {
        "after stop, KGP's random move"
    } else {
        note
    };
    Ok(judge_move(start.as_ref(), &mv).map(|()| format!("bestmove {mv} {note}")))
}

async fn sanity_game(
    s: &mut Session,
    game: GameId,
    tc: TimeControl,
    limits: Limits,
) -> Result<String, String> {
    let mover = RandomMover::new(vec![game], limits.seed);
    let mut random = Session::start_on_link(Box::new(mover), limits.ready, None)
        .await
        .map_err(|f| format!("internal: the random mover: {f}"))?;
    let plan = GamePlan {
        game,
        start_position: new_game(game).position_string(),
        tc: [tc; 2],
        max_plies: Some(2000),
        adjudication: crate::play::adjudicate::Rules::default(),
        ponder: [false; 2],
    };
    let timeouts = Timeouts {
        ready: limits.ready,
        ..Timeouts::default()
    };
    // The bot is South (it moves first).
    let played = game::play(&plan, [s, &mut random], timeouts).await;
    if played.offender() == Some(Side::South) {
        return Err(format!("{}", played.termination));
    }
    // why every flagged move is the bot's: the random mover never says so.
    let random_moves = played.moves.iter().filter(|m| m.kgp_random).count() as u32;
    let own = south_moves(game, &played.moves);
    let unanswered = Unanswered {
        random: random_moves,
        asked: own,
    };
    unanswered.judge()?;
    let random = match random_moves {
        0 => String::new(),
        n => format!(", {n} of its {own} moves KGP's random move"),
    };
    Ok(format!(
        "{} in {} plies against the random mover{random}",
        played.result.as_pgn(),
        played.moves.len()
    ))
}

/// How many of `moves` (a game from the start) South played.
fn south_moves(game: GameId, moves: &[crate::records::log::MoveRecord]) -> u32 {
    let mut g = new_game(game);
    let mut n = 0;
    for m in moves {
        n += u32::from(g.side_to_move() == Side::South);
        if g.play(&m.mv).is_err() {
            break;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn random_session(game: GameId, seed: u64) -> Session {
        Session::start_on_link(
            Box::new(RandomMover::new(vec![game], seed)),
            Duration::from_secs(5),
            None,
        )
        .await
        .unwrap()
    }

    #[tokio::test]
    async fn a_bot_that_plays_legal_moves_passes_every_check() {
        let mut bot = random_session(GameId::Kalah, 3).await;
        let tc: TimeControl = "st=0.1".parse().unwrap();
        let v = admit(&mut bot, GameId::Kalah, tc, Limits::default()).await;
        assert!(v.passed(), "{:?}", v.lines);
        let names: Vec<&str> = v.lines.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "handshake",
                "isready",
                "positions:kalah",
                "stop",
                "sanity-game"
            ]
        );
        assert!(v.failed().is_empty());
        assert_eq!(v.summary(), "admission passed");
    }

    #[tokio::test]
    async fn a_bot_that_does_not_play_the_pools_game_fails_at_the_handshake() {
        let mut bot = random_session(GameId::Oware, 3).await;
        let tc: TimeControl = "st=0.1".parse().unwrap();
        let v = admit(&mut bot, GameId::Kalah, tc, Limits::default()).await;
        assert!(!v.passed());
        assert_eq!(v.failed(), ["handshake"]);
        assert!(
            v.summary().contains("does not list kalah"),
            "{}",
            v.summary()
        );
    }
}
