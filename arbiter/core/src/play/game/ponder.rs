//! Pondering in games (spec sections 6, 7 and 14.2, as cutechess does it):
//! the engine that has just moved thinks on the reply it expects while its
//! opponent thinks, on the opponent's time, never on its own.
//!
//! After `bestmove m ponder p` from an engine allowed to ponder, with `p`
//! legal after `m` and the game going on after both, the engine gets the
//! position after `m p` and `go ponder` with the clocks of that moment.
//! When the opponent's move arrives it is `ponderhit` if it is `p` (the
//! engine's turn, and clock, start there), else `stop` (the turn and clock
//! start there too), whose `bestmove` is read and discarded before the
//! normal `position`/`go`. A `bestmove` found before `ponderhit`/`stop` is a
//! stray one. When the game ends while an engine ponders, it is stopped and
//! its answer drained before `gameover`.

use std::time::Duration;

use mancala_rules::{AnyGame, Side};
use tokio::time::Instant;

use super::commands::{go_line, position_command};
use super::plan::GamePlan;
use crate::contender::session::{BestMove, Fault, Session};
use crate::play::tc::{go_params, Clock, GoParams};

/// An engine pondering on the reply it expects (its canonical notation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pondering {
    pub expected: String,
}

/// The reply to ponder on: `hint` (the `ponder` move of a `bestmove`) if it
/// is legal in `game` (the position after the engine's move) and the game
/// goes on after it. An illegal hint is no error (spec 14.2): no pondering.
pub fn expected_reply(game: &dyn AnyGame, hint: Option<&str>) -> Option<String> {
    let hint = hint?;
    if game.outcome().is_some() {
        return None;
    }
    let mut next = game.clone_box();
    let reply = next.play(hint).ok()?;
    // why: cutechess does not ponder on a reply that ends the game either;
    // there is no search to make after it.
    next.outcome().is_none().then_some(reply)
}

/// After a move (the last of `played`; its `bestmove` named `hint`): the
/// engine that made it starts pondering, if `plan` lets it and
/// [`expected_reply`] finds a reply, with `position` and that reply and
/// `go ponder` with the clocks now.
pub async fn after_move(
    session: &mut Session,
    plan: &GamePlan,
    game: &dyn AnyGame,
    played: &[String],
    clocks: &[Clock; 2],
    hint: Option<&str>,
) -> Result<Option<Pondering>, Fault> {
    let ponderer = game.side_to_move().opponent();
    // why the ply limit: a game about to end needs no ponder search.
    let goes_on = plan.max_plies.is_none_or(|m| (played.len() as u32) < m);
    let hint = hint.filter(|_| plan.ponder[ponderer.index()] && goes_on);
    let Some(expected) = expected_reply(game, hint) else {
        return Ok(None);
    };
    let mut line = played.to_vec();
    line.push(expected.clone());
    let position = position_command(plan.game, &plan.start_position, &line);
    let go = go_line(GoParams {
        ponder: true,
        ..go_params(&clocks[0], &clocks[1], ponderer)
    });
    session.go_ponder(&position, &go).await?;
    Ok(Some(Pondering { expected }))
}

/// The turn of the engine `pondering`, now that the opponent has played
/// `reply`: `ponderhit`, or `stop` and then `position`/`go` with `params`
/// (the clocks before the turn) less the time since `stop`. `wait` is how
/// long the turn may last from its start (the flag plus the margin).
pub async fn resume(
    session: &mut Session,
    pondering: Pondering,
    reply: &str,
    mover: Side,
    position: &str,
    params: GoParams,
    wait: Duration,
) -> Result<BestMove, Fault> {
    if reply == pondering.expected {
        return session.ponderhit(Instant::now() + wait).await;
    }
    let stopped = session.stop_ponder(Instant::now() + wait).await?;
    let deadline = Instant::from_std(stopped) + wait;
    let go = |since_stop| go_line(params.after(mover, since_stop));
    session.go_after_stop(position, go, stopped, deadline).await
}

/// Ends a ponder search when the game is over (`stop`, its `bestmove`
/// drained within `guard`), before `gameover`. The result stands whatever
/// the engine does now; one that breaks the protocol here (no answer to
/// `stop`, a `bestmove` before it) is killed, so that it is restarted
/// before its next game.
pub async fn finish(session: &mut Session, guard: Duration) {
    if let Err(fault) = session.stop_ponder(Instant::now() + guard).await {
        tracing::warn!(
            pid = session.pid(),
            "engine stopped at the end of the game while pondering: {fault}; it is restarted"
        );
        session.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{new_game, GameId};

    #[test]
    fn the_expected_reply_is_a_legal_move_that_keeps_the_game_going() {
        // Bohnenspiel after South's 1: North moves from holes 7 to 12.
        let mut game = new_game(GameId::Bohnenspiel);
        game.play("1").unwrap();
        assert_eq!(expected_reply(game.as_ref(), Some("7")), Some("7".into()));
        // Illegal hints (spec 14.2: no error, no pondering), or none.
        for hint in ["1", "99", "x"] {
            assert_eq!(expected_reply(game.as_ref(), Some(hint)), None, "{hint}");
        }
        assert_eq!(expected_reply(game.as_ref(), None), None);
    }

    #[test]
    fn no_pondering_on_a_reply_that_ends_the_game() {
        // Bohnenspiel played by first legal moves until the side to move has
        // a move that ends the game: that move is no ponder move.
        let mut game = new_game(GameId::Bohnenspiel);
        let mut ended = None;
        'outer: for _ in 0..400 {
            if game.outcome().is_some() {
                break;
            }
            for reply in game.legal_moves() {
                let mut next = game.clone_box();
                next.play(&reply).unwrap();
                if next.outcome().is_some() {
                    ended = Some(reply);
                    break 'outer;
                }
            }
            let first = game.legal_moves()[0].clone();
            game.play(&first).unwrap();
        }
        let reply = ended.expect("some game-ending reply on the way");
        assert_eq!(expected_reply(game.as_ref(), Some(&reply)), None);
    }
}
