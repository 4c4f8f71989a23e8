//! The game room: one game between two sessions under clocks. The arbiter's
//! own copy of the game (the rules library) decides legality and the end;
//! its own clocks decide time. Every way a game can end becomes a
//! [`Termination`] with a result.

// why children: pondering is a part of playing one game, and only the game
// drives it; the plan and the command lines it shares with the game are
// modules of their own, so that neither imports the other.
mod commands;
mod plan;
mod ponder;

pub use commands::{go_command, go_line, position_command};
pub use plan::{GamePlan, Timeouts};

use mancala_rules::{game_from_position, AnyGame, GameResult, Side};
use tokio::time::Instant;

use crate::contender::session::{Fault, Session};
use crate::play::observe::{clocks_ms, GameWatch, PlyEvent, ThinkingEvent};
use crate::play::tc::{go_params, Clock};
use crate::records::log::{MoveRecord, Score, Termination};
use ponder::Pondering;

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    pub result: GameResult,
    pub termination: Termination,
    pub moves: Vec<MoveRecord>,
    /// Final seed counts where the rules count seeds.
    pub scores: Option<[u32; 2]>,
}

impl Played {
    /// The side whose engine misbehaved (and should be restarted).
    pub fn offender(&self) -> Option<Side> {
        self.termination.offender()
    }
}

/// The verdict against `side` for a protocol fault.
pub fn forfeit(side: Side, fault: &Fault, has_clock: bool) -> Termination {
    let detail = fault.to_string();
    match fault {
        // why first: an engine or connection lost to our own stop at once.
        Fault::Gone { .. } | Fault::Dropped { .. } if cut_off_by_us() => gone(side, detail),
        Fault::Timeout { .. } if has_clock => Termination::TimeForfeit { side, detail },
        Fault::Timeout {
            waiting_for: "bestmove",
            ..
        } => Termination::NoBestmove { side, detail },
        Fault::Timeout { .. }
        | Fault::Spawn(_)
        | Fault::NoSuchOption { .. }
        | Fault::BadOptionValue { .. } => Termination::Unresponsive { side, detail },
        Fault::Gone { .. } if fault.is_crash() => gone(side, detail),
        Fault::Gone { .. } | Fault::Dropped { .. } => Termination::Disconnect { side, detail },
        Fault::Garbled { .. } | Fault::WrongGame { .. } => {
            Termination::UnparseableBestmove { side, detail }
        }
        Fault::NoMove => Termination::NoBestmove { side, detail },
        Fault::StrayBestmove { .. } | Fault::BestmoveWhilePondering { .. } => {
            Termination::StrayBestmove { side, detail }
        }
    }
}

/// The verdict for `side`'s engine gone (a crash) — unless the arbiter
/// killed its engines itself (a stop at once): then the game was cut off by
/// our stop, interrupted and never scored.
pub fn gone(side: Side, detail: String) -> Termination {
    if cut_off_by_us() {
        return Termination::Interrupted {
            detail: format!("the arbiter stopped and ended the engines ({detail})"),
        };
    }
    Termination::Crash { side, detail }
}

/// Whether the arbiter has killed its engines (a stop at once): an engine
/// or connection lost now was lost to us.
// why not the shutdown's phase: every stop at once kills the engines right
// after moving its shutdown to `Now` (the binary's signal loop, a drain's
// deadline); a game's own verdict is read where it is recorded, with the
// event's shutdown (the arena's `cut_off`).
fn cut_off_by_us() -> bool {
    crate::contender::process::killed_by_arbiter()
}

/// The result of a game `side` lost by `termination`: a loss, unless the
/// verdict names no offender (an interrupted game: a draw, never scored).
fn lost_with(side: Side, termination: Termination) -> (GameResult, Termination) {
    match termination.offender() {
        Some(_) => (lost_by(side), termination),
        None => (GameResult::Draw, termination),
    }
}

fn lost_by(side: Side) -> GameResult {
    GameResult::win_for(side.opponent())
}

/// Starts a game on one engine: `newgame <id>`, then `isready` … `readyok`
/// (a `bestmove` left over from before is a stray one, see [`Session::ready`]).
pub async fn start(
    plan: &GamePlan,
    session: &mut Session,
    timeouts: Timeouts,
) -> Result<(), Fault> {
    session.send(&format!("newgame {}", plan.game)).await?;
    session.ready(timeouts.ready).await
}

/// The game lost by `side` before its first move (a forfeit at game start).
pub fn lost_at_start(side: Side, fault: &Fault) -> Played {
    let (result, termination) = lost_with(side, forfeit(side, fault, false));
    Played {
        result,
        termination,
        moves: Vec::new(),
        scores: None,
    }
}

/// Tells every engine the game is over (the spec: `gameover` follows every
/// game, forfeits included). Informational: an engine that is gone by now
/// changes nothing.
pub async fn send_gameover(sessions: &mut [&mut Session], played: &Played) {
    let line = gameover_line(played.result, &played.termination);
    for s in sessions.iter_mut() {
        let _ = s.send(&line).await;
    }
}

/// The `gameover` line for a game that ended so.
pub fn gameover_line(result: GameResult, termination: &Termination) -> String {
    format!(
        "gameover {} {}",
        result.as_pgn(),
        one_line(&termination.to_string())
    )
}

/// Plays one game. `engines` are South's and North's sessions, already
/// through the handshake and options.
pub async fn play(plan: &GamePlan, engines: [&mut Session; 2], timeouts: Timeouts) -> Played {
    let [south, north] = engines;
    let mut sessions = [south, north];
    for side in Side::BOTH {
        if let Err(fault) = start(plan, sessions[side.index()], timeouts).await {
            let played = lost_at_start(side, &fault);
            send_gameover(&mut sessions, &played).await;
            return played;
        }
    }
    play_started(plan, sessions, timeouts).await
}

/// Plays a game both engines have been [`start`]ed on, then sends `gameover`.
pub async fn play_started(
    plan: &GamePlan,
    engines: [&mut Session; 2],
    timeouts: Timeouts,
) -> Played {
    play_observed(plan, engines, timeouts, None).await
}

/// [`play_started`], telling `watch` each search's `info` lines and each
/// checked ply (`--live`).
pub async fn play_observed(
    plan: &GamePlan,
    engines: [&mut Session; 2],
    timeouts: Timeouts,
    watch: Option<&GameWatch<'_>>,
) -> Played {
    let [south, north] = engines;
    let mut sessions = [south, north];
    let mut moves = Vec::new();
    let end = |result, termination, moves| Played {
        result,
        termination,
        moves,
        scores: None,
    };

    let mut game: Box<dyn AnyGame> = match game_from_position(&plan.start_position) {
        Ok(g) => g,
        Err(e) => {
            let detail = format!("bad start position: {e}");
            return end(GameResult::Draw, Termination::Interrupted { detail }, moves);
        }
    };
    let mut clocks = plan.tc.map(Clock::new);
    let mut played: Vec<String> = Vec::new();
    let mut adjudicator = crate::play::adjudicate::Adjudicator::new(plan.adjudication.clone());
    let mut pondering: [Option<Pondering>; 2] = [None, None];

    let (result, termination, scores) = loop {
        if let Some(outcome) = game.outcome() {
            break (
                outcome.result,
                Termination::rules(outcome.reason),
                outcome.scores,
            );
        }
        if plan.max_plies.is_some_and(|m| played.len() as u32 >= m) {
            let detail = format!("draw by the ply limit ({} plies)", played.len());
            break (GameResult::Draw, Termination::Adjudication { detail }, None);
        }
        let mover = game.side_to_move();
        // why per ply: a page may open (or close) at any time. The search's
        // lines only go to one that is open; the ply is told either way.
        let searching = watch.and_then(GameWatch::now);
        let clock = clocks[mover.index()];
        let params = go_params(&clocks[0], &clocks[1], mover);
        let position = position_command(plan.game, &plan.start_position, &played);
        let has_clock = clock.deadline().is_some();
        let wait = clock.deadline().unwrap_or(timeouts.stall);
        let session = &mut sessions[mover.index()];
        let answer = match (pondering[mover.index()].take(), played.last()) {
            (Some(p), Some(reply)) => {
                ponder::resume(session, p, reply, mover, &position, params, wait).await
            }
            _ => {
                let ply = played.len() as u32 + 1;
                let on_info = |info: &umi::Info| {
                    if let Some(w) = searching {
                        w.thinking(&ThinkingEvent { ply, mover, info });
                    }
                };
                let on_info: Option<&(dyn Fn(&umi::Info) + Sync)> =
                    searching.map(|_| &on_info as _);
                session
                    .go_watched(&position, &go_line(params), Instant::now() + wait, on_info)
                    .await
            }
        };
        let bm = match answer {
            Ok(bm) => bm,
            Err(fault) => {
                if matches!(fault, Fault::Timeout { .. }) {
                    session.stop().await;
                }
                let (result, termination) = lost_with(mover, forfeit(mover, &fault, has_clock));
                break (result, termination, None);
            }
        };
        if let Err(flag) = clocks[mover.index()].spend(bm.elapsed) {
            let detail = flag.to_string();
            break (
                lost_by(mover),
                Termination::TimeForfeit {
                    side: mover,
                    detail,
                },
                None,
            );
        }
        match game.play(&bm.mv) {
            Ok(mv) => {
                let score = bm.score.map(Score::from);
                moves.push(MoveRecord {
                    mv: mv.clone(),
                    time_ms: bm.elapsed.as_millis() as u64,
                    score,
                    depth: bm.depth,
                    lag_ms: bm.lag.map(|l| l.lag.as_millis() as u64),
                    comp_ms: bm.lag.map(|l| l.compensation.as_millis() as u64),
                    kgp_random: bm.kgp_random,
                });
                played.push(mv);
                if let Some(w) = watch {
                    let last = &moves[moves.len() - 1];
                    w.ply(&PlyEvent {
                        ply: played.len() as u32,
                        mover,
                        mv: &last.mv,
                        game: game.as_ref(),
                        time_ms: last.time_ms,
                        clocks_ms: clocks_ms(&clocks),
                        depth: bm.depth,
                        score,
                        pv: &bm.pv,
                    });
                }
                if let Some(v) = adjudicator.after_move(mover, score, game.as_ref(), played.len()) {
                    break (v.result, v.termination, None);
                }
                let session = &mut sessions[mover.index()];
                let hint = bm.ponder.as_deref();
                match ponder::after_move(session, plan, game.as_ref(), &played, &clocks, hint).await
                {
                    Ok(p) => pondering[mover.index()] = p,
                    Err(fault) => {
                        let (result, termination) =
                            lost_with(mover, forfeit(mover, &fault, has_clock));
                        break (result, termination, None);
                    }
                }
            }
            Err(e) => {
                let termination = Termination::IllegalMove {
                    side: mover,
                    mv: bm.mv.clone(),
                    detail: e.to_string(),
                };
                break (lost_by(mover), termination, None);
            }
        }
    };

    for side in Side::BOTH {
        if pondering[side.index()].take().is_some() {
            ponder::finish(sessions[side.index()], timeouts.ready).await;
        }
    }
    let played = Played {
        result,
        termination,
        moves,
        scores,
    };
    send_gameover(&mut sessions, &played).await;
    played
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
